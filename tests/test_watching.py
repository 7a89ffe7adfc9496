"""session/players/watching.follow through watchfiles' public API: told once the watches exist, every change after
that reported with its path (subfolders too when recursive), stopped by its event."""

from __future__ import annotations

import queue
import threading
from pathlib import Path

import pytest

from polku.session.players import watching

WAIT = 60
"""Seconds before a test says the watch hung (a loaded machine)."""

pytestmark = pytest.mark.skipif(not watching.available(), reason="watchfiles is not installed")


def _follow(folder: Path, *, recursive: bool = False):
    modes: queue.Queue[str] = queue.Queue()
    seen: queue.Queue[set[str]] = queue.Queue()
    stop = threading.Event()
    result: list[str] = []
    thread = threading.Thread(target=lambda: result.append(
        watching.follow([folder], seen.put, stop, recursive=recursive, started=modes.put)))
    thread.start()
    return modes, seen, stop, thread, result


def _until_seen(seen: queue.Queue[set[str]], path: Path) -> None:
    while True:
        paths = seen.get(timeout=WAIT)
        if str(path) in paths:
            return


def test_a_change_after_started_is_reported_with_its_path(tmp_path: Path) -> None:
    sub = tmp_path / "kaneda"
    sub.mkdir()
    modes, seen, stop, thread, result = _follow(tmp_path, recursive=True)
    try:
        assert modes.get(timeout=WAIT) == "inotify"
        (tmp_path / "night.toml").write_text("x")
        _until_seen(seen, tmp_path / "night.toml")
        (sub / "req-1.json").write_text("{}")
        _until_seen(seen, sub / "req-1.json")
    finally:
        stop.set()
        thread.join(WAIT)
    assert not thread.is_alive(), "follow did not end when stop was set"
    assert result == ["inotify"]


def test_polling_where_asked_calls_with_no_paths(tmp_path: Path) -> None:
    modes: queue.Queue[str] = queue.Queue()
    calls: queue.Queue[set[str]] = queue.Queue()
    stop = threading.Event()
    thread = threading.Thread(target=watching.follow, args=([tmp_path], calls.put, stop),
                              kwargs={"interval": 0.01, "started": modes.put, "force_polling": True})
    thread.start()
    try:
        assert modes.get(timeout=WAIT) == "polling"
        assert calls.get(timeout=WAIT) == set()
    finally:
        stop.set()
        thread.join(WAIT)
    assert not thread.is_alive()


def test_no_private_watchfiles_module_is_used() -> None:
    source = Path(watching.__file__).read_text(encoding="utf-8")
    assert "_rust_notify" not in source and "RustNotify" not in source
