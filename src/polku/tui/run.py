"""Start the app from the command line: open a file, or the chooser."""

from __future__ import annotations

import gc
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..session.files import SessionFile
    from ..session.tracker import Tracker


NO_TERMINAL = ("polku: error: the GM's app needs a terminal (standard input and output are not one); "
               "run it in a terminal, or over SSH with 'ssh -t HOST polku FILE'")


def has_terminal() -> bool:
    """Standard input and output are a terminal (or textual-serve runs the app, which needs none)."""
    import os

    return bool(os.environ.get("TEXTUAL_DRIVER")) or (sys.stdin.isatty() and sys.stdout.isatty())


def run_app(path: Path | None, *, read_only: bool = False, seed: int | None = None, new: bool = False) -> int:
    """Open ``path`` (or the session chooser; with ``new``, its new-campaign form) and run until the GM quits.

    Returns the process exit status: 0, or 2 with one line on stderr when the
    file cannot be opened or there is no terminal to run in (the app would
    write escape codes into a pipe and wait for keys that never come).
    """
    if not has_terminal():
        print(NO_TERMINAL, file=sys.stderr)
        return 2
    # Start-up allocates a great many objects and frees few: the cyclic garbage
    # collector, left on, spends ~40 ms scanning them (one full pass alone ~17 ms)
    # before the first frame and finds next to nothing. It is off until the
    # first frame is on screen (``PolkuApp.after_first_frame``), or until the
    # app ends if it never gets that far.
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _run_app(path, read_only=read_only, seed=seed, new=new, enable_gc=gc_was_enabled)
    finally:
        if gc_was_enabled:
            gc.enable()


def open_for_app(path: Path, *, read_only: bool, seed: int | None,
                 sessions_dir: Path) -> tuple[Tracker, SessionFile, Path, list[str]]:
    """Open ``path`` as the app does: ``(tracker, session file, the path opened, notices)``.

    A shipped demo (``demo-rajapolku.toml``, wherever it lies) is played as a copy in
    ``sessions_dir``, as the chooser plays it, so the demo stays as shipped; with
    ``read_only``, the demo itself is opened. A file another Polku holds is opened
    read-only, and a notice says so.

    Raises:
        SessionOpenError, store.StoreError: one line on what is wrong.
    """
    from ..i18n import N_, said
    from ..session import files, store

    notices: list[str] = []
    suffix = files.demo_suffix(path)
    if suffix is not None and not read_only and path.is_file():
        copy = files.play_copy_path(sessions_dir, suffix)
        if copy.exists():
            notices.append(said(N_("{path} is a shipped demo: you go on with your copy {copy} "
                                   "(the chooser's d starts it again from the demo)"), path=str(path), copy=str(copy)))
        else:
            files.copy_demo(path, copy)
            notices.append(said(N_("{path} is a shipped demo: you play a copy, {copy}; the demo stays as shipped"),
                                path=str(path), copy=str(copy)))
        path = copy
    try:
        tracker, session_file = files.open_session(path, read_only=read_only, seed=seed)
    except store.LockedError as e:
        tracker, session_file = files.open_session(path, read_only=True, seed=seed)
        notices.append(said(N_("{holder}: opened read-only here; close the other one to make changes"),
                            holder=e.holder_text))
    return tracker, session_file, path, notices


def _run_app(path: Path | None, *, read_only: bool, seed: int | None, new: bool, enable_gc: bool) -> int:
    from .. import config
    from ..i18n import _, told_error
    from ..session import store
    from ..session.files import SessionOpenError
    from .app import PolkuApp

    config.use_language()
    tracker = session_file = None
    notices: list[str] = []
    sessions_dir = config.sessions_dir()
    if path is not None:
        try:
            tracker, session_file, path, notices = open_for_app(Path(path), read_only=read_only, seed=seed,
                                                                sessions_dir=sessions_dir)
        except (SessionOpenError, store.StoreError) as e:
            print(_("{prog}: error: {message}", prog="polku", message=told_error(e)), file=sys.stderr)
            return 2
    remembering = None
    if path is not None:
        # Two fsyncs (1-20 ms on a laptop) need not delay the first frame: a thread,
        # started once that frame is on screen (or at the end, if it never came).
        remembering = threading.Thread(target=config.remember_recent, args=(str(Path(path).resolve()),),
                                       name="polku-remember-recent")
    local = config.local_sessions_dir()
    app = PolkuApp(tracker, session_file, sessions_dir=sessions_dir, seed=seed, notices=notices,
                   more_sessions_dirs=[local] if local is not None else [], start_new=new)
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
        print(_("{prog}: error: {message} — the last changes were not saved", prog="polku",
                message=app.unsaved_on_exit), file=sys.stderr)
        return app.return_code or 1
    return app.return_code or 0
