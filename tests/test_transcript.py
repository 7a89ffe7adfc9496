"""The players' dice transcript (``polku export FILE --transcript``, session/players/transcript.py) and
``polku verify TRANSCRIPT``: a player checks the program dice without the GM's file, and the
transcript holds nothing secret."""

from __future__ import annotations

import json
import re

import pytest

from polku.cli import main
from polku.session import demo, store
from polku.session.files import document
from polku.session.players import transcript
from polku.session.rolls import RajaSide, SRSide
from polku.session.tracker import Tracker

MARK = "QXMARK"


def _save(t: Tracker, path):
    store.write_full(path, document(t.state, t.events, t.last_seq()))
    return path


def _export(tmp_path, t: Tracker, capsys) -> tuple[str, str]:
    path = _save(t, tmp_path / "s.toml")
    out = tmp_path / "players.json"
    assert main(["export", str(path), "--transcript", "-o", str(out)]) == 0
    capsys.readouterr()
    return str(out), out.read_text(encoding="utf-8")


def _marked_session(clock) -> tuple[Tracker, dict]:
    """A Varjojuoksu session with a marker in every secret place, played over two game sessions."""
    t = Tracker.new("shadowrun", "Marked", clock=clock)
    t.add_character("Kaneda", kind="pc", player="P1")
    t.update_character("kaneda", "notes", f"{MARK}1 owes the fixer")
    mole = t.add_character(f"{MARK}2 Mole", kind="npc", secret=True)["id"]
    t.note(f"{MARK}3 the Johnson lies")
    t.rolls.roll_sr(SRSide("Kaneda", ["kaneda"], dice=6), threshold=2)
    # A hidden threshold (S8): the players see the dice and hits, never the threshold.
    hidden = t.rolls.roll_sr(SRSide("Kaneda", ["kaneda"], dice=5), threshold=4, hidden=True)["event"]
    with t.gm_only():
        gm = t.rolls.roll_sr(SRSide(f"{MARK}4 sniper", dice=9), threshold=3)["event"]
    mole_roll = t.rolls.roll_sr_opposed(SRSide("Kaneda", ["kaneda"], dice=4),
                                        SRSide(f"{MARK}2 Mole", [mole], dice=7))["event"]
    t.rolls.roll_initiative([("kaneda", 1), (mole, 1)])
    # Undo lines: a note and a GM-only roll undone (and one redone).
    t.note(f"{MARK}5 a twist")
    t.undo()
    with t.gm_only():
        t.rolls.roll_sr(SRSide(f"{MARK}6 guard", dice=4))
    t.undo()
    t.redo()
    first_secret = t.state["dice"]["secret"]
    t.new_session()  # reveals secret #1, commits #2
    t.rolls.roll_sr(SRSide("Kaneda", ["kaneda"], dice=3))
    with t.gm_only():
        later_gm = t.rolls.roll_sr(SRSide(f"{MARK}7 drone", dice=8))["event"]
    facts = {"hidden": hidden, "gm": gm, "mole_roll": mole_roll, "first_secret": first_secret,
             "unrevealed": t.state["dice"]["secret"], "later_gm": later_gm}
    return t, facts


def test_no_secret_reaches_the_transcript(tmp_path, capsys, clock):
    """A marker in every secret place (a secret character, notes, log notes, GM-only labels, undo lines),
    a hidden threshold, GM-only dice and the unrevealed secret: none is in the transcript."""
    t, f = _marked_session(clock)
    _, text = _export(tmp_path, t, capsys)
    assert MARK in export_gm(t), "the markers are in the GM's file"
    assert MARK not in text
    assert "mole" not in text.lower(), "not even the secret character's id"
    assert f["unrevealed"] not in text, "grep finds no unrevealed secret"
    assert f["first_secret"] in text, "the revealed one is there"
    doc = json.loads(text)
    assert "secret" not in doc["dice"] and doc["dice"]["commitment"] == t.state["dice"]["commitment"]
    by_seq = {e["seq"]: e for e in doc["events"]}
    # The GM's rolls: only which numbers they took, no dice, no seed, no text.
    for ev in (f["gm"], f["mole_roll"], f["later_gm"]):
        assert ev["seq"] not in by_seq
        item = next(w for w in doc["withheld"] if w["seq"] == ev["seq"])
        assert set(item) <= {"seq", "dice_key", "roll_no", "why", "undone"}
        for draw in (ev["roll"]["seed"],):
            assert not re.search(rf"\b{draw}\b", text), "the GM-only roll's seed"
    # The hidden threshold: dice and hits, no threshold, no success.
    hid = by_seq[f["hidden"]["seq"]]["roll"]
    assert "threshold" not in hid and not {"success", "net_hits", "threshold"} & set(hid["outcome"])
    assert "success" not in by_seq[f["hidden"]["seq"]]["text"] and "failure" not in by_seq[f["hidden"]["seq"]]["text"]
    # The initiative roll with the secret fighter: its number only, no draws, no seed.
    init = next(e for e in doc["events"] if e["roll"].get("test") == "initiative")
    assert not {"draws", "seed", "roll_no"} & set(init["roll"])
    assert any(w["why"] == "secret fighter" and w["seq"] == init["seq"] for w in doc["withheld"])
    assert not [e for e in doc["events"] if e["kind"] in ("undo", "redo", "note")]


def export_gm(t: Tracker) -> str:
    from polku.session.review.export import export

    return export(t, "md", gm=True)


def test_verify_on_the_transcript_alone_checks_what_it_can_and_says_why_not_the_rest(tmp_path, capsys, clock):
    t, f = _marked_session(clock)
    path, _ = _export(tmp_path, t, capsys)
    (tmp_path / "s.toml").unlink()  # no session file: the player has only the transcript
    assert main(["verify", path]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1].startswith("OK: ") and "0 mismatches" in out[-1] and "not checkable" in out[-1], out[-1]
    # Secret #1 is revealed: its public rolls are checked; the GM's are named, not checked.
    checked = next(x for x in out if x.startswith("checked: dice secret #1: program rolls #"))
    gm_line = next(x for x in out if x.startswith("not checked: the GM's rolls"))
    assert f"seq {f['gm']['seq']} (roll #{f['gm']['roll']['roll_no']} of dice secret #1)" in gm_line
    assert f"seq {f['later_gm']['seq']} (roll #2 of dice secret #2)" in gm_line
    assert any(x.startswith("not checked: initiative rolls with a secret fighter's dice") for x in out)
    # Secret #2 is not revealed: its roll is named as not checkable yet, its commitment shown.
    assert any(x.startswith("not checked: dice secret #2 is not revealed yet") for x in out), out
    assert any(t.state["dice"]["commitment"] in x for x in out)
    # Every number of secret #1 is accounted for: the two public rolls checked, #3–#6 the GM's.
    assert checked == "checked: dice secret #1: program rolls #1–#2"
    assert not [x for x in out if x.startswith("MISMATCH")]


@pytest.mark.parametrize("tamper, says", [
    ("face", "die 1 of side a shows"),
    ("draw", "draw 1 is"),
    ("secret", "its SHA-256 is"),
    ("commitment", "not the commitment"),
    ("drop", "is not in the transcript"),
], ids=["face", "draw", "secret", "commitment", "dropped-roll"])
def test_a_tampered_transcript_fails_with_a_clear_message(tmp_path, capsys, clock, tamper, says):
    t, f = _marked_session(clock)
    path, text = _export(tmp_path, t, capsys)
    doc = json.loads(text)
    rolls = [e for e in doc["events"] if e["kind"] == "roll" and e["roll"].get("roll_no") and e["roll"]["dice_key"] == 1]
    ev = rolls[0]
    if tamper == "face":
        die = ev["roll"]["sides"][0]["dice"][0]
        die["face"] = die["face"] % 6 + 1
    elif tamper == "draw":
        size, face = ev["roll"]["draws"][0].split(":")
        ev["roll"]["draws"][0] = f"{size}:{int(face) % 6 + 1}"
    elif tamper == "secret":
        doc["dice"]["revealed"][0]["secret"] = "00" * 31 + "01"
        for e in doc["events"]:
            if e.get("revealed"):
                e["revealed"] = "00" * 31 + "01"
    elif tamper == "commitment":
        doc["dice"]["revealed"][0]["commitment"] = "ab" * 32
        for e in doc["events"]:
            if e["kind"] == "dice" and e.get("dice_key") == 1:
                e["commitment"] = "ab" * 32
    else:
        doc["events"].remove(ev)
    with open(path, "w", encoding="utf-8") as out:
        json.dump(doc, out)
    assert main(["verify", path]) == 1
    out = capsys.readouterr().out.splitlines()
    bad = [x for x in out if x.startswith("MISMATCH ")]
    assert any(says in b for b in bad), bad
    if tamper in ("face", "draw"):
        assert all(re.match(rf"MISMATCH seq {ev['seq']}[ :]", b) for b in bad), bad
    assert out[-1].startswith("FAILED: ")


@pytest.mark.parametrize("content, says", [
    (b"{not json", "not JSON"),
    (b'{"x": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", "nested too deep"),
    (b"{" + b'"a":' * 0 + b'"format": "polku dice transcript", "version": 1, "events": 3, "withheld": []}',
     "events are not a list"),
    (b'{"format": "something else"}', "not a Polku dice transcript"),
    (b'{"format": "polku dice transcript", "version": 1, "events": [], "withheld": [], '
     b'"dice": {"key": 1, "secret": "ab"}}', "holds an unrevealed dice secret"),
], ids=["broken", "deep", "shape", "other", "with-secret"])
def test_a_bad_transcript_is_one_line_and_status_2(tmp_path, capsys, content, says):
    path = tmp_path / "t.json"
    path.write_bytes(content)
    assert main(["verify", str(path)]) == 2
    captured = capsys.readouterr()
    err = captured.err.strip().splitlines()
    assert len(err) == 1 and says in err[0], err
    assert not captured.out


def test_deeply_nested_transcript_is_refused_not_a_crash(tmp_path, capsys):
    depth = 50_000
    path = tmp_path / "deep.json"
    path.write_bytes(b'{"format": "polku dice transcript", "version": 1, "withheld": [], "events": '
                     + b"[" * depth + b"]" * depth + b"}")
    assert main(["verify", str(path)]) == 2
    err = capsys.readouterr().err
    assert "nested too deep" in err or "not a list" in err


def test_export_transcript_refuses_gm_and_format(tmp_path, capsys, clock):
    t = demo.demo_varjojuoksu(seed=None)
    path = _save(t, tmp_path / "s.toml")
    for extra in (["--gm"], ["--format", "html"]):
        assert main(["export", str(path), "--transcript", *extra]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "--transcript" in err[0]


def test_the_transcript_of_the_same_file_is_the_same_bytes(tmp_path, capsys, clock):
    t, _ = _marked_session(clock)
    assert transcript.text(t) == transcript.text(t)


def test_a_rajapolku_transcript_verifies(tmp_path, capsys, clock):
    t = Tracker.new("rajapolku", "Raja", clock=clock)
    t.add_character("Ann")
    for _ in range(3):
        t.rolls.roll_raja(RajaSide("Ann", ["ann"]), RajaSide("Wall"))
    t.rolls.roll_raja(RajaSide("Ann", ["ann"]), RajaSide("Wall"), faces=([3], [4]))
    t.new_dice_secret()
    path, _ = _export(tmp_path, t, capsys)
    assert main(["verify", path]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "checked: dice secret #1: program rolls #1–#3" in out
    assert out[-1].startswith("OK: 3 program rolls checked, 0 mismatches, 1 entered by hand")
