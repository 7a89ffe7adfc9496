"""Damaged and hand-edited files: every command refuses them in one line, the
app never draws an unchecked block, and no file is modified.

The named cases are the ones found crashing the app or ``polku export``; the
fuzz runs seeded random mutations (tests/mutations.py) through export, review,
watch and the app's open path.
"""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest

import mutations
from polku.session import store
from polku.session.files import SessionOpenError, load_tracker
from polku.session.integrity import check_event
from polku.session.model import StateError

DEMO = mutations.REPO / "sessions" / "demo-rajapolku.toml"


def demo_doc() -> dict[str, Any]:
    doc = store.load(DEMO).doc
    doc["event"] = list(doc["event"])
    return doc


def roll_index(doc: dict[str, Any]) -> int:
    return next(i for i, ev in enumerate(doc["event"]) if ev.get("roll"))


def set_in(doc: dict[str, Any], where: str, path: list[Any], value: Any) -> None:
    """Break event ``where`` ("old": one folded into the snapshot, "new": one replayed on load)."""
    events = doc["event"]
    i = roll_index(doc) if path[:1] == ["roll"] else 4
    if where == "new":
        doc["snapshot_seq"] = events[i]["seq"] - 1
    node = events[i]
    for key in path[:-1]:
        node = node[key]
    if value is DELETE:
        del node[path[-1]]
    else:
        node[path[-1]] = value


DELETE = object()
"""A case's value: the key is removed, not set."""

CASES: dict[str, tuple[list[Any], object, str]] = {
    "deep nesting in an event": (["extra"], mutations.DEEP, "nested more than"),
    "5,001-digit seq": (["seq"], mutations.BIG, "digits"),
    "list-valued seq": (["seq"], [1, 2], "seq"),
    "non-text text": (["text"], {"a": 1}, "text"),
    "missing seq": (["seq"], DELETE, "seq"),
    "missing face": (["roll", "sides", 0, "dice", 0, "face"], DELETE, "face"),
    "a table where a label is drawn": (["roll", "sides", 0, "label"], {"x": 1}, "label"),
    "who = 5": (["who"], 5, "who"),
    "a date as who": (["who"], date(2026, 12, 1), "who"),
    "challenge = [..]": (["challenge"], ["c1"], "challenge"),
    "a date as the time": (["t"], datetime(2026, 12, 1, 18, 0, tzinfo=UTC), "t"),
    "a number where a summary is drawn": (["roll", "summary"], 7, "summary"),
    "text where the roll says if its dice were typed": (["roll", "manual"], "yes", "manual: expected true or false"),
    "a table where a change held a number": (["changes", 0, "before"], {"a": 1}, "structure.scene"),
}


def broken_file(tmp_path: Path, case: str, where: str) -> Path:
    path_in, value, _ = CASES[case]
    doc = demo_doc()
    set_in(doc, where, path_in, value)
    path = tmp_path / "broken.toml"
    path.write_bytes(mutations.render(doc))
    return path


@pytest.mark.parametrize("where", ["old", "new"])
@pytest.mark.parametrize("case", list(CASES))
def test_a_damaged_block_is_refused_in_one_line_by_every_command(tmp_path, case, where):
    path = broken_file(tmp_path, case, where)
    before = path.read_bytes()
    for lazy in (False, True):
        if lazy and where == "old":
            continue  # lazily, an old block is checked when it is first read (below)
        with pytest.raises(SessionOpenError) as e:
            load_tracker(path, lazy=lazy)
        msg = str(e.value)
        assert "\n" not in msg and str(path) in msg and CASES[case][2] in msg, msg
    status, out, err = mutations.run_cli(["export", str(path)])
    assert status == 2 and out == "" and err.count("\n") == 1 and err.startswith("polku: error: ")
    assert mutations.check_cli(path) == []
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["broken.toml"]


@pytest.mark.parametrize("case", list(CASES))
def test_the_app_opens_an_old_damaged_block_read_only_and_draws_it_as_unreadable(tmp_path, monkeypatch, case):
    """Lazily, events folded into the snapshot are parsed when drawn or by the background check:
    each is checked first, shown as unreadable, and the app stops writing."""
    monkeypatch.setenv("POLKU_CONFIG_DIR", str(tmp_path / "config"))
    path = broken_file(tmp_path, case, "old")
    before = path.read_bytes()
    problems, opened = asyncio.run(mutations.check_app(path))
    assert problems == [] and path.read_bytes() == before
    if CASES[case][0] == ["seq"]:
        assert not opened  # the numbering is read at open: refused in one line
        return
    assert opened

    from polku.session.files import open_session

    tracker, sf = open_session(path)
    try:
        shown = [tracker.events[i] for i in range(len(tracker.events))]  # what the log pane would draw
        bad = [ev for ev in shown if ev["kind"] == "unreadable"]
        assert len(bad) == 1 and CASES[case][2] in bad[0]["text"] and "\n" not in bad[0]["text"]
        assert tracker.events.problems == [bad[0]["text"]]
    finally:
        sf.close()


def test_a_lowered_snapshot_number_is_a_damaged_file_not_a_double_replay(tmp_path):
    doc = demo_doc()
    for snap in (0, doc["snapshot_seq"] - 5):
        doc["snapshot_seq"] = snap
        path = tmp_path / f"s{snap}.toml"
        path.write_bytes(mutations.render(doc))
        for lazy in (False, True):
            with pytest.raises(SessionOpenError, match="does not follow from the saved state"):
                load_tracker(path, lazy=lazy)
        status, out, err = mutations.run_cli(["export", str(path)])
        assert status == 2 and out == "" and "snapshot_seq" in err


def test_a_raised_snapshot_number_is_a_damaged_file(tmp_path):
    doc = demo_doc()
    doc["snapshot_seq"] += 3
    path = tmp_path / "s.toml"
    path.write_bytes(mutations.render(doc))
    with pytest.raises(SessionOpenError, match="the snapshot number does not fit the log"):
        load_tracker(path)


def test_two_challenges_with_one_id_are_refused(tmp_path):
    doc = demo_doc()
    doc["state"]["challenges"][1]["id"] = doc["state"]["challenges"][0]["id"]
    path = tmp_path / "s.toml"
    path.write_bytes(mutations.render(doc))
    with pytest.raises(SessionOpenError, match="two challenges have the id 'c1'"):
        load_tracker(path)


def _nested(levels: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(levels):
        value = [value]
    return value


FIRST_PROBLEM: list[tuple[dict[str, Any], str]] = [
    # A bound problem anywhere comes before a key's kind, named by the block's number (the second block).
    ({"seq": 9, "kind": "roll", "text": 5, "at": [1, 10**30]}, "event.2.at.1: the whole number is too large"),
    ({"seq": 9, "kind": "k", "text": 5, "x": _nested(30)}, "event.2.x.0.0…: nested more than 24 levels deep"),
    # A missing key or a bad seq before a key's kind.
    ({"seq": 9, "kind": "roll", "who": 5}, "event 2: key 'text' is missing"),
    ({"seq": 0, "kind": "x", "text": 5}, "event 2: 'seq' = 0 (events are numbered from 1)"),
    # The first value of the wrong kind, named by the event's seq: a table's keys before what is below them.
    ({"seq": 9, "kind": "roll", "text": "t", "roll": {"hits": "x"}, "who": 5},
     "event.9.who: expected a list, found a whole number 5"),
    ({"seq": 9, "kind": "roll", "text": "t", "roll": {"hits": "x", "explain": [1]}},
     "event.9.roll.hits: expected a whole number, found text 'x'"),
    ({"seq": 9, "kind": "k", "text": "t", "at": [1, True]}, "event.9.at.1: expected a whole number, found true/false True"),
    # A fact names its values in its own words; a roll's glitch is true or false.
    ({"seq": 9, "kind": "roll", "text": "t", "fact": {"id": "x", "glitch": "critical"}}, ""),
    ({"seq": 9, "kind": "roll", "text": "t", "roll": {"glitch": "critical"}},
     "event.9.roll.glitch: expected true or false, found text 'critical'"),
]


@pytest.mark.parametrize(("event", "problem"), FIRST_PROBLEM)
def test_a_damaged_block_is_named_by_its_first_problem(event, problem):
    """The one line a damaged block is refused with names its first problem, whatever else is wrong in it."""
    if not problem:
        check_event(event, 1)
        return
    with pytest.raises(StateError) as refused:
        check_event(event, 1)
    assert str(refused.value).startswith(problem)


def test_the_shipped_and_generated_sessions_pass_every_check():
    for source in mutations.SOURCES:
        for lazy in (False, True):
            tracker, notices = load_tracker(source, lazy=lazy)
            assert notices == []
            assert all(tracker.events[i]["kind"] != "unreadable" for i in range(len(tracker.events)))


@pytest.mark.slow
def test_mutated_files_through_the_headless_commands():
    """A quick fuzz: 120 mutated files through export (md, html, --gm), review and watch."""
    rng = random.Random(20261201)
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "m.toml"
        for i in range(120):
            what, data = mutations.mutate(rng)
            path.write_bytes(data)
            assert mutations.check_cli(path) == [], (i, what)
            assert path.read_bytes() == data, (i, what)


@pytest.mark.slow
def test_mutated_files_through_the_app(tmp_path, monkeypatch):
    """The app's open path, headless, on 16 mutated files: no crash, nothing written."""
    monkeypatch.setenv("POLKU_CONFIG_DIR", str(tmp_path / "config"))
    rng = random.Random(1201)
    for i in range(16):
        what, data = mutations.mutate(rng)
        path = tmp_path / f"m{i}.toml"
        path.write_bytes(data)
        problems, _ = asyncio.run(mutations.check_app(path))
        assert problems == [], (i, what)
        after = path.read_bytes()
        if after != data:  # only the designed repair: a torn tail dropped and rewritten
            original = tmp_path / "original.toml"
            original.write_bytes(data)
            assert any("cut off by a crash" in n for n in store.load(original).notices), (i, what)
            original.unlink()
