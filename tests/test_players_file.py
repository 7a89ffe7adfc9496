"""The players' file: the GM's app publishes what the players may see; the players' views read only that.

A seat, ``polku watch`` and ``polku serve`` never open the session file, which
holds the unrevealed dice secret, the notes and hidden thresholds. On every save
the GM's app replaces the players' file beside it (:mod:`polku.session.players.players_file`):
the players' projection as facts, projected only for the events appended since
the last save when it can. Every test compares what was published that way with
the projection of the whole session read back from disk: the players must never
see more, less, or other than that.
"""

from __future__ import annotations

import importlib.util
import json
import os
import random
import re
import stat
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from polku.session import demo, records, store
from polku.session.files import document, load_tracker, open_session
from polku.session.players import seats
from polku.session.players.players_file import (
    PLAYERS_VERSION,
    Follower,
    PlayersError,
    PlayersFile,
    _diff,
    _patched,
    _Reading,
    load_players,
    players_path,
    players_text,
)
from polku.session.players.public import public_view
from polku.session.rolls import SRPool, SRSide
from polku.session.rolls.shadowrun import SRTestRolled
from polku.session.tracker import Tracker

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "make_session.py"
MARK = "Q9Z"
"""In the name of a character made secret later: it must vanish from every event before too."""
SECRET = "Xq7Secret"
"""On everything the GM keeps: it must never be in the players' file."""


def make_session():
    spec = importlib.util.spec_from_file_location("polku_make_session", BENCH)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def read_as_players(data: bytes) -> tuple[dict, list]:
    """What a players' view reads from a players' file: its head (state, requests, own rolls, problems) and
    its standing events."""
    reading = _Reading("the players' file")
    reading.whole(data)
    return reading.head, list(reading.events)


def published_as_whole(path: Path) -> None:
    """The players' file on disk (written whole, then saves appended) reads as what projecting the whole
    session read back from disk gives."""
    full = load_tracker(path, read_only=True)[0]
    assert read_as_players(players_path(path).read_bytes()) == read_as_players(players_text(full).encode())


def saves(sf, pf: PlayersFile, t: Tracker) -> None:
    """As the GM's app saves: the session file, then the players' file (never ahead of it)."""
    sf.save_now(t)
    pf.publish_now(t)


def kaneda_rolls(t: Tracker, threshold: int = 2, **kw) -> SRTestRolled:
    ch = records.sr(t.character("kaneda"))
    return t.rolls.roll_sr(SRSide("Kaneda", ["kaneda"], skill_name="Pistols", skill=ch["skills"]["Pistols"],
                                  attribute_name="Agility", attribute=ch["attributes"]["agility"]),
                           threshold=threshold, **kw)


def saved_demo(tmp_path: Path, t: Tracker | None = None) -> Path:
    """``t`` (the Varjojuoksu demo if None) written whole to ``night.toml``."""
    t = t if t is not None else demo.demo_varjojuoksu()
    path = tmp_path / "night.toml"
    store.write_full(path, document(t.state, t.events, t.last_seq()))
    return path


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
def test_a_long_session_is_published_projecting_only_what_was_appended(long_session, tmp_path):
    path = tmp_path / "night.toml"
    path.write_bytes(long_session.read_bytes())
    gm, sf = open_session(path)
    pf = PlayersFile(path)
    try:
        saves(sf, pf, gm)  # opening publishes: the players' file exists before any command
        published_as_whole(path)
        f = Follower(path, now=lambda: "20:15:00")
        assert f.poll() and f.problem is None
        first = f.view.tracker.events[0]
        # A roll, then the GM's usual commands: an undo, a GM-only roll, a hidden threshold.
        kaneda_rolls(gm)
        saves(sf, pf, gm)
        assert pf._publisher._log.incremental, "only the roll was projected for the players"
        assert f.poll() and f.view.tracker.events[-1]["text"] == gm.events[-1]["text"]
        assert f.view.tracker.events[0] is first, "an event line read before is not parsed again"
        gm.undo()
        with gm.gm_only():
            kaneda_rolls(gm, threshold=3)
        kaneda_rolls(gm, threshold=4, hidden=True)
        saves(sf, pf, gm)
        assert pf._publisher._log.incremental
        assert f.poll() and f.view.tracker.events[-2]["text"] == "the GM rolls"
        assert "threshold" not in f.view.tracker.events[-1]["roll"]
        published_as_whole(path)
        # Made secret now: the projection of every earlier event changes, so it is built again.
        assert MARK.lower() in players_path(path).read_text().lower()
        johnson = next(cid for cid, ch in gm.characters.items() if MARK in ch["name"])
        gm.update_character(johnson, "secret", True)
        saves(sf, pf, gm)
        assert not pf._publisher._log.incremental
        assert MARK.lower() not in players_path(path).read_text().lower(), "his earlier events are the GM's now"
        published_as_whole(path)
    finally:
        sf.close()


def test_the_gm_app_publishes_on_opening_and_on_every_save(tmp_path):
    path = saved_demo(tmp_path)
    assert not players_path(path).exists()
    gm, sf = open_session(path)
    pf = PlayersFile(path)
    try:
        saves(sf, pf, gm)
        published_as_whole(path)
        stamp = players_path(path).stat().st_mtime_ns
        saves(sf, pf, gm)
        assert players_path(path).stat().st_mtime_ns == stamp, "nothing changed: not written again"
        kaneda_rolls(gm)
        saves(sf, pf, gm)
        published_as_whole(path)
        view, _ = load_players(path)
        assert view.events[-1]["text"] == gm.events[-1]["text"]
        gm.undo()
        saves(sf, pf, gm)
        published_as_whole(path)
        assert load_players(path)[0].events[-1]["seq"] < gm.events[-2]["seq"], "the undone roll left the file"
        gm.needs_full_save = True  # a compaction publishes too
        gm.note("the Johnson calls")
        saves(sf, pf, gm)
        published_as_whole(path)
    finally:
        sf.close()


def test_a_new_session_file_is_the_gms_alone_and_the_players_file_is_not(tmp_path):
    """The players' account reads the players' file; the session file is made without group or other rights."""
    old = os.umask(0o027)
    try:
        t = demo.demo_rajapolku()
        path = tmp_path / "night.toml"
        store.write_full(path, document(t.state, t.events, t.last_seq()))
        gm, sf = open_session(path)
        saves(sf, PlayersFile(path), gm)
        sf.close()
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(players_path(path).stat().st_mode) == 0o640


def test_a_players_file_that_cannot_be_written_leaves_the_session_saved_and_says_why(tmp_path):
    path = saved_demo(tmp_path)
    players_path(path).mkdir()  # a folder where the file should be: the replace fails
    gm, sf = open_session(path)
    pf = PlayersFile(path)
    try:
        kaneda_rolls(gm)
        saves(sf, pf, gm)
        assert load_tracker(path, read_only=True)[0].last_seq() == gm.last_seq(), "the session is saved"
        assert pf.problem.startswith("the players' file night.players.jsonl could not be written")
        players_path(path).rmdir()
        gm.note("x")
        saves(sf, pf, gm)
        assert pf.problem == ""
        published_as_whole(path)
    finally:
        sf.close()


def test_a_broken_or_foreign_players_file_is_said_in_one_line(tmp_path):
    path = tmp_path / "night.toml"
    with pytest.raises(PlayersError, match="is missing: the GM's app writes it when it opens the session"):
        load_players(path)
    players_path(path).write_text("schema = 1\n")
    with pytest.raises(PlayersError, match="is not a players' file"):
        load_players(path)
    t = demo.demo_rajapolku()
    text = players_text(t)
    players_path(path).write_text(text.rsplit("\n", 2)[0] + "\n")
    with pytest.raises(PlayersError, match="is cut short"):
        load_players(path)
    players_path(path).write_text(text.replace('"seq":', '"sex":', 1))
    with pytest.raises(PlayersError, match="is broken"):
        load_players(path)
    players_path(path).write_text(text)
    assert [e["seq"] for e in load_players(path)[0].events] == [e["seq"] for e in public_view(t).events]


def test_a_symlinked_session_and_its_target_share_one_players_file(tmp_path):
    path = saved_demo(tmp_path)
    link = tmp_path / "current.toml"
    link.symlink_to(path.name)
    assert players_path(link) == players_path(path) == tmp_path.resolve() / "night.players.jsonl"
    assert players_path(players_path(path)) == players_path(path), "a players' file given itself is its own"


def test_no_secret_reaches_the_players_file(tmp_path):
    """Markers in every secret place: a GM-only roll, a note, a character's notes, a hidden threshold of a
    request, a secret character, one made secret later, the dice secret in use."""
    path = saved_demo(tmp_path)
    gm, sf = open_session(path)
    pf = PlayersFile(path)

    def published() -> str:
        saves(sf, pf, gm)
        shown = players_path(path).read_text(encoding="utf-8")
        assert SECRET.lower() not in shown.lower(), "a secret reached the players"
        dice = gm.dice_key()
        if dice is not None:
            assert dice["secret"] not in shown, "the dice secret in use never reaches the players"
        return shown

    try:
        with gm.gm_only():
            gm.rolls.roll_sr(SRSide(f"{SECRET} sniper", [], dice=6), threshold=2)
        assert read_as_players(published().encode())[1][-1]["text"] == "the GM rolls"
        gm.undo()
        published()
        gm.note(f"{SECRET}: the Johnson is the sergeant")
        published()
        gm.update_character("kaneda", "notes", f"owes {SECRET} money")
        published()
        seats.ask_sr(gm, "kaneda", SRPool(skill="Pistols", attribute="agility"), threshold=47, hidden=True)
        shown = published()
        head, events = read_as_players(shown.encode())
        [offer] = head["offers"]["kaneda"]
        assert offer["hidden"] and "threshold" not in offer, "the seat sees its request, not the threshold"
        last = {k: v for k, v in events[-1].items() if k != "t"}  # its clock may read :47
        assert not re.search(r"(?<!\d)47(?!\d)", json.dumps(head["offers"]) + json.dumps(last))
        gm.add_character(f"Mr {SECRET}", kind="npc", secret=True)
        published()
        gm.add_character("Ghost", kind="npc")
        gm.update_character("ghost", "notes", "x")
        assert "Ghost" in published()
        gm.update_character("ghost", "secret", True)
        assert "Ghost" not in published()
        published_as_whole(path)
    finally:
        sf.close()


def test_a_request_against_a_character_made_secret_later_is_not_published(tmp_path):
    """Rajapolku: the GM's opposition names its characters; one made secret later takes the request off the file."""
    t = demo.demo_rajapolku()
    from polku.session.rolls import RajaSide

    t.add_character(f"{SECRET} Count", kind="npc")
    count = next(cid for cid, ch in t.characters.items() if SECRET in ch["name"])
    seats.ask_raja(t, "alyosha", RajaSide("Alyosha", ["alyosha"]), RajaSide("the Count", [count]))
    assert "alyosha" in json.loads(players_text(t).splitlines()[0])["offers"]
    t.update_character(count, "secret", True)
    text = players_text(t)
    assert "alyosha" not in json.loads(text.splitlines()[0])["offers"] and count not in text


def test_read_appended_trusts_only_a_file_that_still_starts_and_ends_as_read(tmp_path):
    """The store's reading of appended blocks (what a reader following the session file itself could use)."""
    from polku.session.store.format import event_block

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
    changed = bytearray(data + block)
    changed[pos.end - 20] ^= 0x20
    with open(path, "r+b") as out:
        out.write(bytes(changed))
    assert store.read_appended(path, pos) is None
    changed = bytearray(data + block)
    changed[3] ^= 0x20
    with open(path, "r+b") as out:
        out.write(bytes(changed))
    assert store.read_appended(path, pos) is None
    with open(path, "r+b") as out:
        out.truncate(pos.end - 1)
    assert store.read_appended(path, pos) is None
    old = tmp_path / "old.toml"
    old.write_bytes(data.split(b"\n", 1)[1])
    assert store.load(old).position is None


# ---------------------------------------------------------------------------
# Saves appended: a view reads what each save added, not the whole file again


def following(tmp_path: Path, t: Tracker | None = None):
    """A saved demo (or ``t``), its players' file as the GM's app writes it on opening, and a view following it."""
    path = saved_demo(tmp_path, t)
    gm, sf = open_session(path)
    pf = PlayersFile(path)
    saves(sf, pf, gm)
    f = Follower(path, now=lambda: "20:15:00")
    assert f.reload() and f.problem is None and f.whole_reads == 1
    return path, gm, sf, pf, f


def test_a_view_parses_an_event_line_when_it_first_shows_it(tmp_path):
    """A seat's start at 10,000 events parsed every line before its first frame; it shows one page."""
    path, gm, sf, pf, f = following(tmp_path)
    try:
        events = f.view.tracker.events
        assert len(events) > 10 and f.lines_parsed == 0
        last = events[-1]
        assert f.lines_parsed == 1 and events[-1] is last
        assert f.view.tracker.event_by_seq(events[0]["seq"]) is events[0] and f.lines_parsed == 2
        assert [e["seq"] for e in events] == [e["seq"] for e in read_as_players(players_text(
            load_tracker(path, read_only=True)[0]).encode())[1]]
    finally:
        sf.close()


def test_a_view_reads_only_what_each_save_appended(tmp_path):
    path, gm, sf, pf, f = following(tmp_path)
    try:
        for threshold in (2, 3, 4):
            size = players_path(path).stat().st_size
            read = f.bytes_read
            kaneda_rolls(gm, threshold=threshold)
            saves(sf, pf, gm)
            added = players_path(path).stat().st_size - size
            assert 0 < added < size / 4, "the save was appended, the file not written again"
            assert f.poll() and f.view.tracker.events[-1]["text"] == gm.events[-1]["text"]
            assert f.bytes_read - read == added, "the view read the save's bytes and nothing else"
        assert pf.whole_writes == 1 and f.whole_reads == 1
        assert f.view.tracker.event_by_seq(gm.events[-1]["seq"])["text"] == gm.events[-1]["text"]
        published_as_whole(path)
        assert not f.poll(), "nothing new: nothing read"
    finally:
        sf.close()


def test_a_save_torn_by_a_crash_is_not_shown_until_it_is_complete(tmp_path):
    """A GM's app killed in the middle of an append: the view shows the saves before it, never half of
    one; the rest arriving shows it; a GM's app opening the session again writes the file whole."""
    path, gm, sf, pf, f = following(tmp_path)
    try:
        file = players_path(path)
        before = file.read_bytes()
        shown = list(f.view.tracker.events)
        kaneda_rolls(gm)
        saves(sf, pf, gm)
        save = file.read_bytes()[len(before):]
        assert save.count(b"\n") >= 2, "the roll's line and the save's line"
        for cut in (len(save) // 2, len(save) - 1):  # in the roll's line; all but the save line's end
            file.write_bytes(before + save[:cut])
            f.reload()
            assert f.problem is None and list(f.view.tracker.events) == shown, "a torn save is not shown"
        file.write_bytes(before + save)
        assert f.poll() and f.problem is None and f.view.tracker.events[-1]["text"] == gm.events[-1]["text"]
        assert f.whole_reads == 1
        file.write_bytes(before + save + save[: len(save) // 3])  # killed mid-append again
        again = PlayersFile(path)  # the GM's app opened again
        saves(sf, again, gm)
        assert again.whole_writes == 1 and file.read_bytes().endswith(b"\n")
        assert f.poll() and f.whole_reads == 2 and f.problem is None
        published_as_whole(path)
    finally:
        sf.close()


def test_an_undo_or_a_compaction_writes_the_file_whole_and_the_view_reads_it_whole(tmp_path, monkeypatch):
    from polku.session.players import players_file

    path, gm, sf, pf, f = following(tmp_path)
    try:
        rolled = kaneda_rolls(gm, threshold=3)["event"]["seq"]
        saves(sf, pf, gm)
        assert f.poll() and pf.whole_writes == 1 and f.view.tracker.event_by_seq(rolled) is not None
        line = players_path(path).read_bytes().split(b"\n")[-3]  # the roll's line, before its save's
        assert json.loads(line)["seq"] == rolled
        gm.undo()
        saves(sf, pf, gm)
        assert pf.whole_writes == 2, "an undone roll leaves the players' file, not only their screen"
        assert line not in players_path(path).read_bytes()
        assert f.poll() and f.whole_reads == 2 and rolled not in [e["seq"] for e in f.view.tracker.events]
        monkeypatch.setattr(players_file, "COMPACT_AT", 0)
        size = players_path(path).stat().st_size
        for _ in range(100):
            gm.note("the Johnson calls")  # not the players'
            seq = kaneda_rolls(gm)["event"]["seq"]
            saves(sf, pf, gm)
            assert f.poll() and f.view.tracker.event_by_seq(seq) is not None
            if pf.whole_writes == 3:
                break
        assert pf.whole_writes == 3, "the appended saves outgrew the file: written whole again"
        assert players_path(path).stat().st_size < 2 * size + 4096
        assert f.whole_reads == 3
        published_as_whole(path)
    finally:
        sf.close()


def test_every_save_the_players_see_undo_and_redo_included_reads_as_the_whole_session(tmp_path):
    """The GM's app does not copy the whole state at each save: the players' file's writer keeps its own copy
    and brings it up to date with each saved event's changes, as loading the session file does. Whatever the
    GM does, an undo and a redo included, the players read the state (a spent Edge, a condition monitor, a
    challenge) that the whole session, read back from its file, shows them."""
    path, gm, sf, pf, f = following(tmp_path)
    try:
        steps = [
            lambda: gm.spend_edge("kaneda", "a push"),
            lambda: gm.set_condition("kaneda", "physical", 3),
            lambda: gm.add_challenge("The rooftop", ["kaneda"]),
            gm.undo,  # the challenge, gone again
            gm.undo,  # the boxes back to what they were
            gm.redo,
            lambda: kaneda_rolls(gm, threshold=3),
            lambda: gm.set_condition("kaneda", "stun", 2),
            gm.undo,
        ]
        for step in steps:
            step()
            saves(sf, pf, gm)
            assert f.poll()
            published_as_whole(path)
        seen, gms = records.sr(f.view.tracker.character("kaneda")), records.sr(gm.character("kaneda"))
        assert (seen["edge"], seen["physical"], seen["stun"]) == (gms["edge"], gms["physical"], gms["stun"]) \
            == (gms["edge_rating"] - 1, 3, 0)
        assert [c["title"] for c in f.view.tracker.state["challenges"]] == \
            [c["title"] for c in gm.state["challenges"]] and "The rooftop" not in str(gm.state["challenges"])
    finally:
        sf.close()


def test_a_players_file_of_another_version_is_said_in_one_line(tmp_path):
    path = tmp_path / "night.toml"
    head, _, rest = players_text(demo.demo_rajapolku()).partition("\n")
    players_path(path).write_text(head.replace(f'"version":{PLAYERS_VERSION}', '"version":1') + "\n" + rest)
    with pytest.raises(PlayersError, match=r"is of another Polku version \(players' file version 1\): the GM's app"):
        load_players(path)
    f = Follower(path)
    f.reload()
    assert f.view is None and "players' file version 1" in f.status() and "\n" not in f.status()


def test_a_character_made_secret_later_leaves_every_byte_of_the_appended_file(tmp_path):
    """Whatever the state no longer shows the players (a character made secret) must leave the whole file,
    not only the head a view patches: the lines appended before hold it, so that save writes the file
    whole. The character here is named by no event line (in the saved state only, as an imported sheet
    is), so only the head's change withdraws him."""
    t = demo.demo_varjojuoksu()
    t.state["characters"]["johnson"] = {**t.character("kaneda"), "id": "johnson", "name": f"Mr {MARK} Johnson",
                                         "player": "", "kind": "npc"}
    path, gm, sf, pf, f = following(tmp_path, t)
    try:
        assert "johnson" in f.view.tracker.characters
        kaneda_rolls(gm)
        saves(sf, pf, gm)
        file = players_path(path)
        assert MARK.encode() in file.read_bytes() and pf.whole_writes == 1, "shown, and a save appended"
        lines = file.read_bytes().count(b"\n")
        gm.update_character("johnson", "secret", True)
        saves(sf, pf, gm)
        data = file.read_bytes()
        assert MARK.encode() not in data and b"johnson" not in data, "no line of the players' file names him now"
        assert pf.whole_writes == 2 and data.count(b"\n") < lines
        assert f.poll() and "johnson" not in f.view.tracker.characters and f.whole_reads == 2
        published_as_whole(path)
    finally:
        sf.close()


def test_a_save_the_players_see_nothing_of_appends_nothing_and_the_next_sends_only_its_own_change(tmp_path):
    """A GM's note changes nothing the players see: the file stays as it was and no view reads again. A save
    appends what changed since the last save, not since the file was written whole."""
    path, gm, sf, pf, f = following(tmp_path)
    try:
        file = players_path(path)
        gm.add_character("Mr Vantaa", kind="npc")  # a new line and a change to the head
        saves(sf, pf, gm)
        assert f.poll() and any(ch["name"] == "Mr Vantaa" for ch in f.view.tracker.characters.values())
        size = file.stat().st_size
        gm.note("the Johnson calls")  # the GM's only
        saves(sf, pf, gm)
        assert file.stat().st_size == size, "nothing appended"
        assert not f.poll(), "no view reads again"
        kaneda_rolls(gm)
        saves(sf, pf, gm)
        assert b"Vantaa" not in file.read_bytes()[size:], "the head's change of the save before is not sent again"
        assert f.poll() and pf.whole_writes == 1
        published_as_whole(path)
    finally:
        sf.close()


def test_a_players_file_changed_by_another_hand_since_the_last_save_is_written_whole_again(tmp_path):
    """The GM's app appends only to the file it wrote last, as it left it: bytes added by someone else (or a
    file put in its place) make the next save write it whole, and the views read it."""
    path, gm, sf, pf, f = following(tmp_path)
    try:
        file = players_path(path)
        copy = tmp_path / "copy"
        for other in ("torn", "replaced"):
            whole = pf.whole_writes
            if other == "torn":
                file.write_bytes(file.read_bytes() + b'{"seq":')  # a torn line after the last save
            else:
                copy.write_bytes(file.read_bytes())
                os.replace(copy, file)  # the same bytes, another file in its place
            kaneda_rolls(gm)
            saves(sf, pf, gm)
            assert pf.whole_writes == whole + 1
            assert f.poll() and f.problem is None and f.view.tracker.events[-1]["text"] == gm.events[-1]["text"]
            published_as_whole(path)
    finally:
        sf.close()



_JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from(["a", "b"]),
                     lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.sampled_from("xyz"), inner, max_size=3),
                     max_leaves=12)


@settings(max_examples=300, deadline=None)
@example({"p": ["a"]}, {"p": ["a", "a"]})
@example({"p": ["a", "b", "a"]}, {"p": ["a", "a"]})
@given(st.dictionaries(st.sampled_from("pqr"), _JSON, max_size=3), st.dictionaries(st.sampled_from("pqr"), _JSON, max_size=3))
def test_a_saves_changes_turn_the_head_a_view_has_into_the_new_one(old, new):
    """Whatever changed in the head (a list changed in part is spliced), a view that applies the save has the
    new head, and the head it showed before is not changed under it."""
    sets: list = []
    dels: list = []
    splices: list = []
    _diff(old, new, [], sets, dels, splices)
    kept = json.loads(json.dumps(old))
    assert _patched(old, sets, dels, splices) == new
    assert old == kept


def test_a_change_to_one_challenge_of_many_appends_that_challenge_not_the_list(tmp_path):
    """A session with many challenges: starting one sent the whole list to every view (48 KB at 10,000
    events); the save now carries the challenges that changed."""
    t = demo.demo_varjojuoksu()
    for i in range(60):
        t.add_challenge(f"Challenge {i}", ["kaneda"])
    path, gm, sf, pf, f = following(tmp_path, t)
    try:
        file = players_path(path)
        listed = len(json.dumps(gm.state["challenges"], separators=(",", ":")))
        for step in (lambda: gm.start_challenge(gm.state["challenges"][30]["id"]),
                     lambda: gm.move_challenge(gm.state["challenges"][10]["id"], 1),
                     lambda: gm.add_challenge("One more", ["kaneda"])):
            size = file.stat().st_size
            step()
            saves(sf, pf, gm)
            assert 0 < file.stat().st_size - size < listed / 10, "a part of the list, not all of it"
            assert f.poll() and f.view.tracker.state["challenges"] == public_view(gm).state["challenges"]
        assert pf.whole_writes == 1 and f.whole_reads == 1
        published_as_whole(path)
    finally:
        sf.close()



def test_a_save_whose_only_change_is_part_of_a_list_is_appended(tmp_path):
    """A change to the head alone (no new event line: a GM's-only command can change what the players see)
    that splices a list still reaches the views."""
    path, gm, sf, pf, f = following(tmp_path)
    try:
        written = pf._written
        assert written is not None
        head = json.loads(json.dumps(written.head))
        head["offers"] = {"kaneda": [{"seq": 1}, {"seq": 2}]}
        assert pf._append(head, list(written.events))
        head["offers"] = {"kaneda": [{"seq": 1}, {"seq": 3}]}
        size = players_path(path).stat().st_size
        assert pf._append(head, list(written.events))
        assert players_path(path).stat().st_size > size
        assert f.poll() and f.view.offers == {"kaneda": [{"seq": 1}, {"seq": 3}]}
    finally:
        sf.close()


@pytest.mark.parametrize("collecting", [True, False])
def test_the_garbage_collector_waits_while_the_whole_log_is_projected_and_only_then(tmp_path, monkeypatch, collecting):
    """The whole projection (the GM app's first save) makes objects that live as long as the app: the
    cyclic garbage collector, which would walk them all again and again for nothing, waits meanwhile and
    collects again afterwards; a later save (appended) leaves it on. Off before (the app's start), it stays
    off."""
    import gc

    from polku.session.players.players_file import PlayersPublisher

    seen: list[bool] = []
    build = PlayersPublisher.build

    def spy(self, tracker, seat_problems=None):
        seen.append(gc.isenabled())
        return build(self, tracker, seat_problems)

    monkeypatch.setattr(PlayersPublisher, "build", spy)
    path = saved_demo(tmp_path)
    gm, sf = open_session(path)
    pf = PlayersFile(path)
    was = gc.isenabled()
    (gc.enable if collecting else gc.disable)()
    try:
        saves(sf, pf, gm)
        kaneda_rolls(gm)
        saves(sf, pf, gm)
        assert seen == [False, collecting] and gc.isenabled() == collecting
        assert pf.whole_writes == 1 and pf.problem == ""
    finally:
        (gc.enable if was else gc.disable)()
        sf.close()


def test_the_whole_projection_hands_the_interpreter_over_often_and_an_appended_save_does_not(tmp_path, monkeypatch):
    """The GM's app projects the whole log in its save worker when it opens a session (seconds at 10,000
    events): meanwhile the UI thread gets the interpreter within half a millisecond, not 5 ms, at each turn;
    a later save (appended, or an undo written whole from the projection kept) changes nothing; the setting
    is the same afterwards."""
    import sys

    from polku.session.players.players_file import GIL_SLICE_S, PlayersPublisher

    seen: list[float] = []
    build = PlayersPublisher.build

    def spy(self, tracker, seat_problems=None):
        seen.append(sys.getswitchinterval())
        return build(self, tracker, seat_problems)

    monkeypatch.setattr(PlayersPublisher, "build", spy)
    before = sys.getswitchinterval()
    path = saved_demo(tmp_path)
    gm, sf = open_session(path)
    pf = PlayersFile(path)
    try:
        saves(sf, pf, gm)
        kaneda_rolls(gm)
        saves(sf, pf, gm)
        gm.undo()
        saves(sf, pf, gm)
        assert seen == [GIL_SLICE_S, before, before] and pf.whole_writes == 2
        assert sys.getswitchinterval() == before
    finally:
        sf.close()
