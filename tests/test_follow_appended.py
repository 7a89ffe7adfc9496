"""Following a session file: after the first reading only what the GM's app appended is read and projected.

The players' views (``polku watch``, a seat) must show a roll as fast in a
10,000-event session as in a short one, so the follower reads the bytes
appended since it last read, applies those events, and projects only them.
Every test compares the view it built that way with what reading the whole
file gives (:func:`public_view` of a fresh load): the players must never see
more, less, or other than a whole reading would show them.
"""

from __future__ import annotations

import importlib.util
import json
import os
import random
import re
import time
from pathlib import Path

import pytest

from polku.session import demo, store
from polku.session.files import document, load_tracker, open_session
from polku.session.players.public import Follower, public_view
from polku.session.rolls import SRSide
from polku.session.store.format import event_block
from polku.session.tracker import Tracker

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "make_session.py"
MARK = "Q9Z"
"""In the name of a character made secret later: it must vanish from every event before too."""


def make_session():
    spec = importlib.util.spec_from_file_location("polku_make_session", BENCH)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def whole(path: Path) -> Tracker:
    """What reading the whole file shows the players."""
    return public_view(load_tracker(path, read_only=True)[0])


def same_as_whole(f: Follower, path: Path) -> None:
    assert f.view is not None and f.problem is None
    want = whole(path)
    got = f.view.tracker
    assert json.dumps(got.events, sort_keys=True, default=str) == json.dumps(want.events, sort_keys=True, default=str)
    assert got.state == want.state
    assert got.undone == want.undone
    full = load_tracker(path, read_only=True)[0]
    assert f.view.full.state == full.state and f.view.full.undone == full.undone
    assert f.view.full.last_seq() == full.last_seq()


def kaneda_rolls(t: Tracker, threshold: int = 2, **kw) -> dict:
    ch = t.character("kaneda")
    return t.rolls.roll_sr(SRSide("Kaneda", ["kaneda"], skill_name="Pistols", skill=ch["skills"]["Pistols"],
                                  attribute_name="Agility", attribute=ch["attributes"]["agility"]),
                           threshold=threshold, **kw)


def followed_demo(tmp_path: Path) -> tuple[Tracker, Path, Follower]:
    """The Varjojuoksu demo saved, and a follower that has read it whole."""
    t = demo.demo_varjojuoksu()
    path = tmp_path / "night.toml"
    store.write_full(path, document(t.state, t.events, t.last_seq()))
    f = Follower(path)
    assert f.poll() and f.last_read == "whole"
    return t, path, f


@pytest.fixture(scope="module")
def long_session(tmp_path_factory) -> Path:
    """A 10,000-event Varjojuoksu session, made with the benchmarks' generator (every kind of event)."""
    mod = make_session()
    t = demo.demo_varjojuoksu(demo.fixed_clock(), seed=1)
    t.add_character(f"Mr {MARK} Johnson", kind="npc")
    mod.grow(t, 10_000, random.Random(1))
    path = tmp_path_factory.mktemp("long") / "night.toml"
    store.write_full(path, document(t.state, t.events, t.last_seq()))
    return path


@pytest.mark.slow
def test_a_long_session_is_followed_by_reading_only_what_is_appended(long_session, tmp_path):
    path = tmp_path / "night.toml"
    path.write_bytes(long_session.read_bytes())
    f = Follower(path, now=lambda: "20:15:00")
    assert f.poll() and f.reads == {"whole": 1, "appended": 0}
    gm, sf = open_session(path)
    try:
        # A roll, then the GM's usual commands: an undo, a GM-only roll, a hidden threshold.
        kaneda_rolls(gm)
        sf.save_now(gm)
        assert f.poll()
        assert f.reads == {"whole": 1, "appended": 1}, "the roll was read from the appended bytes only"
        assert f.last_read == "appended", "and only the roll was projected for the players"
        assert f.view.tracker.events[-1]["text"] == gm.events[-1]["text"]
        gm.undo()
        with gm.gm_only():
            kaneda_rolls(gm, threshold=3)
        kaneda_rolls(gm, threshold=4, hidden=True)
        sf.save_now(gm)
        assert f.poll() and f.reads["whole"] == 1 and f.last_read == "appended"
        assert f.view.tracker.events[-2]["text"] == "the GM rolls"
        assert "threshold" not in f.view.tracker.events[-1]["roll"]
        same_as_whole(f, path)
        # Made secret now: the projection of every earlier event changes, so it is built again
        # (from the tracker in memory; the file is still read only where it grew).
        assert any(MARK.lower() in json.dumps(e).lower() for e in f.view.tracker.events)
        johnson = next(cid for cid, ch in gm.characters.items() if MARK in ch["name"])
        gm.update_character(johnson, "secret", True)
        sf.save_now(gm)
        assert f.poll() and f.reads["whole"] == 1 and f.last_read == "appended, projected whole"
        assert not any(MARK.lower() in json.dumps(e).lower() for e in f.view.tracker.events), \
            "his earlier events are the GM's now"
        same_as_whole(f, path)
    finally:
        sf.close()
    # What reading only the appended bytes saves in time is measured by benchmarks/seats.py, not here.


def test_a_torn_tail_waits_for_the_rest_and_a_rewrite_is_read_whole(tmp_path):
    t, path, f = followed_demo(tmp_path)
    shown = f.view.tracker
    # The GM's app is cut mid-append: half of the next block is on disk.
    n = len(t.events)
    kaneda_rolls(t)
    t.spend_edge("kaneda", "push")
    data = "".join(event_block(ev, "x") for ev in t.events[n:]).encode()
    cut = len(event_block(t.events[n], "x").encode()) // 2  # within the first of the two blocks
    with open(path, "ab") as out:
        out.write(data[:cut])
    assert not f.poll(), "nothing new to show: the half block waits"
    assert f.view.tracker is shown and f.notices == [f"{path}: the last event is still being written"]
    with open(path, "ab") as out:
        out.write(data[cut:])
    assert f.poll() and f.reads == {"whole": 1, "appended": 2}
    assert f.view.tracker.events[-1]["text"] == t.events[-1]["text"] and f.notices == []
    same_as_whole(f, path)
    # A full save (compaction) replaces the file: read whole.
    t.note("the Johnson calls")
    store.write_full(path, document(t.state, t.events, t.last_seq()))
    assert f.poll() and f.reads["whole"] == 2
    same_as_whole(f, path)
    # Rewritten in place (an editor keeping the inode), same length or not: read whole.
    text = path.read_bytes()
    i = text.rindex(b"Kaneda: ")
    with open(path, "r+b") as out:
        out.seek(i)
        out.write(b"KANEDA: ")
    assert os.stat(path).st_size == len(text)
    os.utime(path, ns=(time.time_ns(), time.time_ns() + 1_000_000))
    assert f.poll() and f.reads["whole"] == 3
    assert "KANEDA: " in json.dumps(f.view.tracker.events)


def test_appended_events_that_do_not_follow_from_the_state_are_read_whole_and_reported(tmp_path):
    t, path, f = followed_demo(tmp_path)
    good = f.view
    # An appended block whose change does not start from the state (a hand edit, another writer).
    n = len(t.events)
    t.spend_edge("kaneda", "push")
    ev = json.loads(json.dumps(t.events[n]))
    ev["changes"][0]["before"] = 99
    with open(path, "ab") as out:
        out.write(event_block(ev, "x").encode())
    assert f.poll()
    assert f.reads["whole"] == 2, "the append did not fit, so the file was read whole"
    assert f.problem is not None and "does not follow from the saved state" in f.problem
    assert f.view is good, "the last good view stays"


def test_read_appended_trusts_only_a_file_that_still_starts_and_ends_as_read(tmp_path):
    t = demo.demo_varjojuoksu()
    path = tmp_path / "night.toml"
    store.write_full(path, document(t.state, t.events, t.last_seq()))
    pos = store.load(path).position
    assert pos is not None and pos.end == path.stat().st_size
    n = len(t.events)
    t.note("the Johnson calls")
    block = event_block(t.events[n], "x").encode()
    data = path.read_bytes()
    with open(path, "ab") as out:
        out.write(block)
    got = store.read_appended(path, pos)
    assert got is not None and [e["text"] for e in got.events] == ["the Johnson calls"] and not got.torn
    assert got.position.end == len(data) + len(block)
    assert store.read_appended(path, got.position).events == [], "nothing more"
    # The same bytes appended, but the end of what was read changed in place (same file): not an append.
    changed = bytearray(data + block)
    changed[pos.end - 20] ^= 0x20
    with open(path, "r+b") as out:
        out.write(bytes(changed))
    assert store.read_appended(path, pos) is None
    # The start changed in place: not an append either.
    changed = bytearray(data + block)
    changed[3] ^= 0x20
    with open(path, "r+b") as out:
        out.write(bytes(changed))
    assert store.read_appended(path, pos) is None
    # Shorter than what was read: cut, not appended to.
    with open(path, "r+b") as out:
        out.truncate(pos.end - 1)
    assert store.read_appended(path, pos) is None
    # A file from before end marks has no position: it is always read whole.
    old = tmp_path / "old.toml"
    old.write_bytes(data.split(b"\n", 1)[1])
    assert store.load(old).position is None


SECRET = "Xq7Secret"
"""On everything the GM keeps: no reading, whole or appended, may let it reach the players."""


def test_no_secret_reaches_the_players_through_the_appended_path(tmp_path):
    t, path, f = followed_demo(tmp_path)
    gm, sf = open_session(path)

    def appended() -> str:
        sf.save_now(gm)
        assert f.poll() and f.last_read.startswith("appended"), f.last_read
        shown = json.dumps({"events": f.view.tracker.events, "state": f.view.tracker.state}, default=str)
        assert SECRET.lower() not in shown.lower(), "a secret reached the players"
        return shown

    try:
        with gm.gm_only():
            gm.rolls.roll_sr(SRSide(f"{SECRET} sniper", [], dice=6), threshold=2)
        assert json.loads(appended())["events"][-1]["text"] == "the GM rolls"
        gm.undo()
        appended()
        gm.note(f"{SECRET}: the Johnson is the sergeant")
        appended()
        gm.update_character("kaneda", "notes", f"owes {SECRET} money")
        appended()
        from polku.session.players.seats import ask_sr
        from polku.session.rolls import SRPool

        ask_sr(gm, "kaneda", SRPool(skill="Pistols", attribute="agility"), threshold=47, hidden=True)
        shown = appended()
        asked = {k: v for k, v in f.view.tracker.events[-1].items() if k not in ("t", "seq", "cmd", "at")}
        assert not re.search(r"(?<!\d)47(?!\d)", json.dumps(asked)), "a hidden threshold stays the GM's"
        gm.add_character(f"Mr {SECRET}", kind="npc", secret=True)
        appended()
        # A public character made secret later: every event about him before is the GM's from now on.
        gm.add_character("Ghost", kind="npc")
        gm.note("the Ghost watches")  # a note is the GM's anyway
        gm.update_character("ghost", "notes", "x")
        shown = appended()
        assert "Ghost" in shown
        gm.update_character("ghost", "secret", True)
        shown = appended()
        assert f.last_read == "appended, projected whole" and "Ghost" not in shown
        same_as_whole(f, path)
    finally:
        sf.close()
