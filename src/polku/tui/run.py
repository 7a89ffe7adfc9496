"""Start the app from the command line: open a file, or the chooser."""

from __future__ import annotations

import gc
import sys
import threading
from pathlib import Path


def run_app(path: Path | None, *, read_only: bool = False, seed: int | None = None) -> int:
    """Open ``path`` (or the session chooser) and run until the GM quits.

    Returns the process exit status: 0, or 2 with one line on stderr when the
    file cannot be opened.
    """
    # Start-up allocates a great many objects and frees few: the cyclic garbage
    # collector, left on, spends ~40 ms scanning them (one full pass alone ~17 ms)
    # before the first frame and finds next to nothing. It is off until the
    # first frame is on screen (``PolkuApp.after_first_frame``), or until the
    # app ends if it never gets that far.
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _run_app(path, read_only=read_only, seed=seed, enable_gc=gc_was_enabled)
    finally:
        if gc_was_enabled:
            gc.enable()


def _run_app(path: Path | None, *, read_only: bool, seed: int | None, enable_gc: bool) -> int:
    from .. import config
    from ..session import store
    from ..session.files import SessionOpenError, open_session
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
        # Two fsyncs (1-20 ms on a laptop) need not delay the first frame: a thread,
        # started once that frame is on screen (or at the end, if it never came).
        remembering = threading.Thread(target=config.remember_recent, args=(str(Path(path).resolve()),),
                                       name="polku-remember-recent")
    local = config.local_sessions_dir()
    app = PolkuApp(tracker, session_file, sessions_dir=config.sessions_dir(), seed=seed, notices=notices,
                   more_sessions_dirs=[local] if local is not None else [])
    if enable_gc:
        app.after_first_frame.append(gc.enable)
    if remembering is not None:
        app.after_first_frame.append(remembering.start)
    try:
        app.run()
    finally:
        if remembering is not None:
            if remembering.ident is None:
                remembering.start()
            remembering.join()
        if session_file is not None:
            session_file.close()
    if app.unsaved_on_exit:
        print(f"polku: error: {app.unsaved_on_exit} — the last changes were not saved", file=sys.stderr)
        return app.return_code or 1
    return app.return_code or 0
