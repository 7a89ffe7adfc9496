"""No command is lost: failed saves (full disk, read-only disk) on every path,
torn appends, files replaced under the running app, leftovers of killed writers.

A full disk is simulated by making the store's write raise OSError(ENOSPC),
a read-only disk by EROFS: the real error path of the store runs.
"""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from textual.message import Message

from app_fixtures import demo_session, make_app, panes, pilot_test, press, settle
from polku.session import demo, files, store
from polku.session.files import SessionOpenError, load_tracker, open_session
from polku.tui.messages import SaveFailed, SessionSaved
from polku.tui.screens.main import MainScreen

SIZE = (80, 24)
DEMO = Path(__file__).resolve().parents[1] / "sessions" / "demo-rajapolku.toml"


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("POLKU_CONFIG_DIR", str(tmp_path / "config"))


def refuse(code: int):
    def write(fd: int, data: bytes) -> None:
        raise OSError(code, os.strerror(code))

    return write


def notes(app: Any) -> list[tuple[str, str, str]]:
    return [(n.severity, n.title, n.message) for n in app._notifications]


def of_kind(messages: list[Message], kind: type) -> list[Any]:
    return [m for m in messages if isinstance(m, kind)]


def texts_on_disk(path: Path) -> list[str]:
    t, _ = load_tracker(path)
    return [e["text"] for e in t.events]


# -- the app: quit, ctrl+s and autosave after a failed save ------------------------------------------


@pilot_test
async def test_quit_on_a_full_disk_is_refused_and_quitting_later_saves_everything(tmp_path, monkeypatch):
    tracker, sf = demo_session(tmp_path, "rajapolku")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        with monkeypatch.context() as patch:
            patch.setattr(store.atomic, "write_all", refuse(errno.ENOSPC))
            await press(pilot, "n", *"Docks", "enter")
            await settle(pilot)
            await press(pilot, "q")
            await settle(pilot)
            assert app.is_running and isinstance(app.screen, MainScreen)
            last = notes(app)[-1]
            assert last[1] == "Not saved" and "not quitting" in last[2] and "free space" in last[2]
            assert "No space left on device" in last[2]
            assert panes(app)["status"].startswith("[save failed: disk full]")
            assert not any("Docks" in x for x in texts_on_disk(sf.path))
            await press(pilot, "q")  # still full: still refused
            await settle(pilot)
            assert app.is_running
        await press(pilot, "q")  # space freed
        await settle(pilot)
    assert app.return_code in (None, 0)
    on_disk = texts_on_disk(sf.path)
    assert on_disk == [e["text"] for e in tracker.events] and on_disk[-1].endswith(": Docks")


@pilot_test
async def test_ctrl_s_after_a_failed_save_writes_every_pending_event_without_a_gap(tmp_path, monkeypatch):
    tracker, sf = demo_session(tmp_path, "rajapolku")
    messages: list[Message] = []
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=SIZE, message_hook=messages.append) as pilot:
        await settle(pilot)
        with monkeypatch.context() as patch:
            patch.setattr(store.atomic, "write_all", refuse(errno.ENOSPC))
            await press(pilot, "n", *"Docks", "enter")
            await settle(pilot)
            await press(pilot, "q")  # a failed save on the quit path too
            await settle(pilot)
            await press(pilot, "ctrl+s")
            await settle(pilot)
            assert len(of_kind(messages, SaveFailed)) >= 2
        await press(pilot, "ctrl+s")
        await settle(pilot)
        assert of_kind(messages, SessionSaved)
        assert panes(app)["status"].startswith("[saved]")
        await press(pilot, "o", *"Rain", "enter")  # the next save is an append after the rewrite
        await settle(pilot)
    reopened, notices = load_tracker(sf.path)
    assert notices == []
    assert [e["seq"] for e in reopened.events] == list(range(1, tracker.last_seq() + 1))
    assert reopened.state == tracker.state


@pilot_test
async def test_textual_quit_key_saves_or_refuses_like_q(tmp_path, monkeypatch):
    tracker, sf = demo_session(tmp_path, "rajapolku")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        with monkeypatch.context() as patch:
            patch.setattr(store.atomic, "write_all", refuse(errno.ENOSPC))
            await press(pilot, "o", *"Rain", "enter")
            await settle(pilot)
            await press(pilot, "ctrl+q")
            await settle(pilot)
            assert app.is_running
        await press(pilot, "ctrl+q")
        await settle(pilot)
    assert texts_on_disk(sf.path)[-1] == "Rain"


@pilot_test
async def test_a_read_only_disk_says_so_and_not_free_space(tmp_path, monkeypatch):
    tracker, sf = demo_session(tmp_path, "rajapolku")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        with monkeypatch.context() as patch:
            patch.setattr(store.atomic, "write_all", refuse(errno.EROFS))
            await press(pilot, "o", *"Rain", "enter")
            await settle(pilot)
            status = panes(app)["status"]
            assert status.startswith("[save failed: read-only disk] Helsin")
            msg = notes(app)[-1][2]
            assert "Read-only file system" in msg and "remount" in msg and "free space" not in msg
            assert "\n" not in msg
        await press(pilot, "ctrl+s")
        await settle(pilot)
    assert texts_on_disk(sf.path)[-1] == "Rain"


# -- the session layer: whatever fails, a later save writes it all --------------------------------------


COMMANDS = [
    lambda t: t.note("a note"),
    lambda t: t.new_scene("Scene"),
    lambda t: t.move_wound("igor-bondarenko", 1),
    lambda t: t.undo(),
    lambda t: t.redo(),
]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(st.tuples(st.integers(0, len(COMMANDS) - 1),
                                st.sampled_from([None, errno.ENOSPC, errno.EROFS, errno.EIO]),
                                st.booleans()), min_size=1, max_size=12))
def test_failed_saves_never_lose_or_gap_events(tmp_path_factory, steps):
    """Commands with saves failing at random (append or rewrite, sync or snapshot-then-save):
    once a save succeeds, the file holds every event, numbered without a gap."""
    folder = tmp_path_factory.mktemp("s")
    tracker = demo.DEMOS["rajapolku"]()
    sf = files.create_session(folder / "s.toml", tracker)
    real = store.atomic.write_all
    try:
        for which, failure, via_job in steps:
            try:
                COMMANDS[which](tracker)
            except ValueError:
                pass  # nothing to undo / redo
            store.atomic.write_all = refuse(failure) if failure else real
            try:
                if via_job:  # the autosave path: a snapshot, a save in a worker, give_back on failure
                    job = sf.snapshot(tracker)
                    if job is not None:
                        try:
                            sf.save(job)
                        except store.StoreError:
                            sf.give_back(tracker, job)
                else:
                    sf.save_now(tracker)
            except store.StoreError as e:
                assert e.errno == failure
        store.atomic.write_all = real
        sf.save_now(tracker)
    finally:
        store.atomic.write_all = real
        sf.close()
    reopened, notices = load_tracker(sf.path)
    assert notices == []
    assert list(reopened.events) == list(tracker.events)
    assert reopened.state == tracker.state


# -- torn appends ---------------------------------------------------------------------------------------


def test_a_torn_start_of_a_new_block_drops_only_that_block(tmp_path):
    path = tmp_path / "s.toml"
    whole = DEMO.read_bytes()
    n = whole.count(b"\n[[event]]\n")
    path.write_bytes(whole + b"\n[[eve")
    for load in (store.load, store.load_lazy):
        loaded = load(path)
        assert len(loaded.doc["event"]) == n and loaded.rewrite_needed
        assert "the last event was cut off by a crash" in loaded.notices[0]
    tracker, sf = open_session(path)
    assert len(tracker.events) == n
    sf.save_now(tracker)  # the repair rewrite keeps every complete event
    sf.close()
    again = store.load(path)
    assert again.notices == [] and again.doc["event"] == store.load(DEMO).doc["event"]


def _block_ends(data: bytes) -> list[int]:
    """Offsets just after each '# end of event N' line."""
    out, i = [], 0
    while (i := data.find(b"\n# end of event ", i)) >= 0:
        i = data.index(b"\n", i + 1) + 1
        out.append(i)
    return out


def _demo_with_appends(path: Path) -> bytes:
    """The demo file plus three appended events (a roll among them): what a crash can cut."""
    shutil.copyfile(DEMO, path)
    tracker, sf = open_session(path)
    tracker.note("The rain starts — äänekäs")
    tracker.start_challenge("c3")
    tracker.move_wound("igor-bondarenko", 1)
    sf.save_now(tracker)
    sf.close()
    assert store.load(path).doc["snapshot_seq"] == tracker.last_seq() - 3
    return path.read_bytes()


@pytest.mark.slow
def test_a_cut_at_any_byte_of_the_last_three_blocks_loses_only_the_cut_block(tmp_path):
    path = tmp_path / "s.toml"
    whole = _demo_with_appends(tmp_path / "whole.toml")
    ends = _block_ends(whole)
    first = whole.rindex(b"\n[[event]]\n", 0, ends[-3])
    cuts = 0
    for cut in range(first, len(whole) + 1):
        data = whole[:cut]
        path.write_bytes(data)
        # A block is whole once its end mark is complete (its final newline may be missing).
        expected = sum(1 for e in ends if e - 1 <= cut)
        for load in (store.load, store.load_lazy):
            loaded = load(path)
            assert len(loaded.doc["event"]) == expected, (cut, load.__name__)
            torn = bool(data[ends[expected - 1]:].strip()) if cut >= ends[expected - 1] else False
            assert bool(loaded.notices) == torn, (cut, load.__name__, loaded.notices)
        if cut % 7 == 0 or cut in ends:
            tracker, _ = load_tracker(path, lazy=True)
            assert tracker.last_seq() == expected
        assert path.read_bytes() == data  # loading never writes
        cuts += 1
    assert cuts > 600


# -- a file replaced under the running app ------------------------------------------------------------


def test_a_file_replaced_under_the_app_is_not_appended_to(tmp_path):
    path = tmp_path / "s.toml"
    shutil.copyfile(DEMO, path)
    tracker, sf = open_session(path)
    tracker.new_scene("Docks")  # a full rewrite: the old file becomes the .bak
    sf.save_now(tracker)
    tracker.note("after the rewrite")
    sf.save_now(tracker)
    shutil.copyfile(store.backup_path(path), path)  # the GM restores the backup meanwhile
    theirs = path.read_bytes()
    tracker.note("must not land on the restored file")
    with pytest.raises(store.ReplacedError) as e:
        sf.save_now(tracker)
    assert "replaced or changed by another program" in str(e.value) and "ctrl+s" in str(e.value)
    assert path.read_bytes() == theirs
    assert [ev["text"] for ev in tracker.unsaved] == ["must not land on the restored file"]
    sf.overwrite_replaced = True  # the GM's "save anyway"
    sf.save_now(tracker)
    sf.close()
    aside = [p for p in tmp_path.iterdir() if ".replaced-" in p.name]
    assert len(aside) == 1 and aside[0].read_bytes() == theirs
    reopened, notices = load_tracker(path)
    assert notices == [] and list(reopened.events) == list(tracker.events)


@pilot_test
async def test_the_app_tells_the_gm_the_file_was_replaced_and_saves_on_ctrl_s(tmp_path):
    tracker, sf = demo_session(tmp_path, "rajapolku")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        sf.path.write_bytes(DEMO.read_bytes())
        await press(pilot, "o", *"Rain", "enter")
        await settle(pilot)
        assert panes(app)["status"].startswith("[save failed: file replaced]")
        msg = notes(app)[-1][2]
        assert "replaced or changed by another program" in msg and "press ctrl+s" in msg
        assert sf.path.read_bytes() == DEMO.read_bytes()
        await press(pilot, "ctrl+s")
        await settle(pilot)
        assert panes(app)["status"].startswith("[saved]")
        assert any("is kept as" in n[2] for n in notes(app))
    assert texts_on_disk(sf.path)[-1] == "Rain"


# -- leftovers of killed writers ------------------------------------------------------------------------


def test_temp_files_of_dead_processes_are_removed_at_open(tmp_path):
    path = tmp_path / "s.toml"
    shutil.copyfile(DEMO, path)
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    pid = int(dead.stdout)
    orphans = [tmp_path / f".s.toml.{kind}-{pid}" for kind in ("tmp", "bak", "lock", "stale-lock")]
    alive = tmp_path / f".s.toml.tmp-{os.getppid()}"  # a live process's: kept
    other = tmp_path / f".t.toml.tmp-{pid}"  # another session's: kept
    for p in orphans + [alive, other]:
        p.write_bytes(b"x" * 1000)
    _, sf = open_session(path, read_only=True)
    assert all(p.exists() for p in orphans)  # a reader never deletes
    tracker, sf = open_session(path)
    sf.close()
    assert not any(p.exists() for p in orphans)
    assert alive.exists() and other.exists()


def test_a_gap_in_the_numbering_is_reported(tmp_path):
    path = tmp_path / "s.toml"
    text = DEMO.read_text("utf-8")
    last = text.count("\n[[event]]\n")
    path.write_text(text.replace(f"seq = {last}\n", f"seq = {last + 1}\n")
                    .replace(f"# end of event {last}\n", f"# end of event {last + 1}\n"), "utf-8")
    before = path.read_bytes()
    for lazy in (False, True):
        with pytest.raises(SessionOpenError) as e:
            load_tracker(path, lazy=lazy)
        msg = str(e.value)
        assert "\n" not in msg and f"event {last + 1}" in msg and f"{last}" in msg and "gap" in msg
    assert path.read_bytes() == before


def test_an_append_that_would_leave_a_gap_becomes_a_full_rewrite(tmp_path):
    """Whatever path drops a pending event, the next save does not append after a hole."""
    path = tmp_path / "s.toml"
    shutil.copyfile(DEMO, path)
    tracker, sf = open_session(path)
    tracker.note("one")
    tracker.take_unsaved()  # a path that lost the pending event
    tracker.note("two")
    sf.save_now(tracker)
    sf.close()
    reopened, notices = load_tracker(path)
    assert notices == [] and [e["text"] for e in reopened.events][-2:] == ["one", "two"]
