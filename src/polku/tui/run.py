"""Start the app from the command line: open a file, or the chooser."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

from ..session import store
from ..session.files import SessionOpenError, open_session


def run_app(path: Path | None, *, read_only: bool = False, seed: int | None = None) -> int:
    """Open ``path`` (or the session chooser) and run until the GM quits.

    Returns the process exit status: 0, or 2 with one line on stderr when the
    file cannot be opened.
    """
    from .. import config
    from .app import PolkuApp

    tracker = session_file = None
    notices: list[str] = []
    if path is not None:
        try:
            tracker, session_file = open_session(Path(path), read_only=read_only, seed=seed)
        except store.LockedError as e:
            notices.append(f"{e} — opened read-only")
            try:
                tracker, session_file = open_session(Path(path), read_only=True, seed=seed)
            except (SessionOpenError, store.StoreError) as e2:
                print(f"polku: error: {e2}", file=sys.stderr)
                return 2
        except (SessionOpenError, store.StoreError) as e:
            print(f"polku: error: {e}", file=sys.stderr)
            return 2
    remembering = None
    if path is not None:
        # Two fsyncs (1-20 ms on a laptop) need not delay the first frame.
        remembering = threading.Thread(target=config.remember_recent, args=(str(Path(path).resolve()),),
                                       name="polku-remember-recent")
        remembering.start()
    app = PolkuApp(tracker, session_file, sessions_dir=config.sessions_dir(), seed=seed, notices=notices)
    try:
        app.run()
    finally:
        if remembering is not None:
            remembering.join()
        if session_file is not None:
            session_file.close()
    return app.return_code or 0
