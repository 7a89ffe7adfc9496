"""``polku verify`` judges every roll's result again from its faces (session/rolls.py ``rejudge``):
Rajapolku and Harhapolku challenges (every variant, H8's demand, difficult actions), Varjojuoksu
success, opposed and teamwork tests, each with the settings the roll kept. Literal faces; each test
changes the result, the summary or the log line as a hand editing the file would."""

from __future__ import annotations

import copy
import json

import pytest

from polku.cli import main
from polku.rules.system import Settings
from polku.session.players import transcript
from polku.session.players.verify import verify
from polku.session.rolls import HarhaSide, RajaSide, SRSide
from polku.session.tracker import Tracker


def _check(t: Tracker):
    return verify(list(t.events), t.state, t.undone)


def _raja(clock) -> tuple[Tracker, dict]:
    t = Tracker.new("rajapolku", "R", clock=clock)
    ev = t.rolls.roll_raja(RajaSide("Igor"), RajaSide("Wall"), faces=([9], [7]))["event"]
    assert ev["text"].startswith("Igor vs Wall: Igor wins") and ev["roll"]["outcome"]["winner"] == "a"
    return t, ev


def _harha(variant: str, demand: str = ""):
    def make(clock) -> tuple[Tracker, dict]:
        t = Tracker.new("harhapolku", "H", clock=clock)
        t.add_character("Aino")
        faces = {"same_size": ([8, 7, 7, 6], [3, 2]), "sum": ([8], [3])}.get(variant, ([8, 7, 9], [3, 2]))
        ev = t.rolls.roll_harha(HarhaSide("Aino", ["aino"], general="x", special="y"), HarhaSide("Wolf", general="x"),
                                variant=variant, demand=demand, faces=faces)["event"]
        assert ev["roll"]["outcome"]["winner"] in ("a", "b"), ev["text"]
        return t, ev
    return make


def _harha_difficult(clock) -> tuple[Tracker, dict]:
    t = Tracker.new("harhapolku", "H", clock=clock)
    t.add_character("Aino")
    ev = t.rolls.roll_harha_difficult(HarhaSide("Aino", ["aino"], general="x"), faces=[7, 2])["event"]
    assert ev["text"] == "Aino, difficult action: success (1 of 1 needed 7+)"
    return t, ev


def _sr_opposed(clock) -> tuple[Tracker, dict]:
    t = Tracker.new("shadowrun", "S", clock=clock)
    ev = t.rolls.roll_sr_opposed(SRSide("Kaneda", dice=3), SRSide("Guard", dice=2), faces=([5, 6, 1], [2, 3]))["event"]
    assert ev["roll"]["outcome"]["winner"] == "a" and ev["roll"]["outcome"]["net_hits"] == 2
    return t, ev


def _sr_teamwork(clock) -> tuple[Tracker, dict]:
    t = Tracker.new("shadowrun", "S", clock=clock)
    t.add_character("Kaneda")
    t.add_character("Nyx")
    ev = t.rolls.roll_sr_teamwork(SRSide("Kaneda", ["kaneda"], dice=4), [SRSide("Nyx", ["nyx"], dice=2)],
                                  threshold=2, faces=[5, 1, 5, 2, 6, 3, 1])["event"]
    assert ev["roll"]["test"] == "shadowrun-teamwork" and ev["roll"]["outcome"]["hits"] == 2, ev["text"]
    return t, ev


def _sr_success(clock) -> tuple[Tracker, dict]:
    t = Tracker.new("shadowrun", "S", clock=clock)
    ev = t.rolls.roll_sr(SRSide("Kaneda", dice=4), threshold=1, faces=[1, 1, 1, 5])["event"]
    assert ev["roll"]["outcome"]["glitch"] is True and ev["roll"]["outcome"]["success"] is True
    return t, ev


def _flip_winner(roll: dict) -> None:
    roll["outcome"]["winner"] = {"a": "b"}.get(roll["outcome"]["winner"], "a")


KINDS = {
    "rajapolku": (_raja, _flip_winner, "R5–R7"),
    "harhapolku-ch23": (_harha("ch23"), _flip_winner, "H2–H8"),
    "harhapolku-classic": (_harha("classic"), _flip_winner, "H2–H8"),
    "harhapolku-same_size": (_harha("same_size"), _flip_winner, "H2–H8"),
    "harhapolku-sum": (_harha("sum"), lambda r: r["outcome"].update(a_total=r["outcome"]["a_total"] + 3), "H2–H8"),
    "harhapolku-difficult-opposed": (_harha("ch23", "difficult"), lambda r: r["outcome"].update(success=False),
                                     "H2–H8"),
    "harhapolku-difficult": (_harha_difficult, lambda r: r["outcome"].update(success=False, high=0), "H8"),
    "shadowrun-opposed": (_sr_opposed, lambda r: r["outcome"].update(net_hits=4), "S4–S9"),
    "shadowrun-teamwork": (_sr_teamwork, lambda r: r["outcome"].update(glitch=True), "S4–S8, S11"),
    "shadowrun-glitch": (_sr_success, lambda r: r["outcome"].update(glitch=False), "S4–S8, S11"),
}


@pytest.mark.parametrize("kind", list(KINDS))
def test_a_changed_outcome_of_every_kind_is_a_mismatch(clock, kind):
    make, tamper, rules = KINDS[kind]
    t, ev = make(clock)
    assert _check(t).ok, _check(t).mismatches
    tamper(ev["roll"])
    rep = _check(t)
    bad = rep.mismatches
    assert len(bad) == 1, bad
    assert bad[0].startswith(f"seq {ev['seq']}: its result does not follow from its faces ({rules}"), bad
    assert f"the log says '{ev['roll']['summary']}'" in bad[0]


@pytest.mark.parametrize("kind", list(KINDS))
def test_a_changed_summary_or_log_line_of_every_kind_is_a_mismatch(clock, kind):
    make, _, _ = KINDS[kind]
    t, ev = make(clock)
    right = ev["roll"]["summary"]
    ev["roll"]["summary"] = "Wolf wins big"
    ev["text"] = ev["text"].replace(right, "Wolf wins big")
    bad = _check(t).mismatches
    # (A success test's hits are checked first, S4: its summary no longer says them.)
    assert len(bad) == 1 and bad[0].startswith(f"seq {ev['seq']}: "), bad
    assert f"its summary says 'Wolf wins big', its result is '{right}'" in bad[0] \
        or (kind == "shadowrun-glitch" and "its log line does not say its result" in bad[0]), bad
    ev["roll"]["summary"] = right
    ev["text"] = "Igor vs Wall: a clean win"
    bad = _check(t).mismatches
    assert len(bad) == 1 and bad[0].startswith(f"seq {ev['seq']}: its log line does not say its result"), bad


def test_a_roll_is_judged_by_the_settings_it_kept_not_the_campaigns_now(clock):
    """R5's full tie: under raja.full_tie = defender the defender (B) wins a full tie; the roll kept that."""
    t = Tracker.new("rajapolku", "R", clock=clock, settings=Settings.from_dotted({"raja.full_tie": "defender"}))
    ev = t.rolls.roll_raja(RajaSide("Igor"), RajaSide("Wall"), faces=([5], [5]))["event"]
    assert ev["roll"]["settings"]["raja.full_tie"] == "defender"
    t.state["settings"]["raja.full_tie"] = "reroll"  # the campaign changed its mind later
    assert _check(t).ok
    ev["roll"]["settings"]["raja.full_tie"] = "reroll"  # the kept setting edited: the result no longer follows
    assert any("does not follow from its faces" in m for m in _check(t).mismatches)


def test_a_tampered_result_in_a_transcript_fails_polku_verify(tmp_path, capsys, clock):
    t, ev = _raja(clock)
    t.rolls.roll_raja(RajaSide("Igor"), RajaSide("Wall"))
    t.new_dice_secret()
    doc = json.loads(transcript.text(t))
    shown = next(e for e in doc["events"] if e["seq"] == ev["seq"])
    _flip_winner(shown["roll"])
    path = tmp_path / "t.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["verify", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    bad = [x for x in out if x.startswith("MISMATCH")]
    assert bad == [f"MISMATCH seq {ev['seq']}: its result does not follow from its faces (R5–R7, the settings it was "
                   f"made with): the faces give 'Igor wins, 1 degree', the log says 'Igor wins, 1 degree' "
                   f"(changed: winner)"] or (len(bad) == 1 and "winner" in bad[0]), bad


def test_dice_that_are_not_dice_are_named(clock):
    t, ev = _raja(clock)
    ev2 = copy.deepcopy(ev)
    ev["roll"]["sides"][0]["dice"] = "lots"
    bad = _check(t).mismatches
    assert any(m.startswith(f"seq {ev2['seq']}: its dice cannot be read as dice") for m in bad), bad


def test_the_rule_of_six_dice_are_judged_as_thrown(clock):
    """S5 without rerolled dice counted (sr.glitch_rerolls = false), Edge before the roll (S7): the
    two dice a six threw are not counted for the glitch; verify counts as the roll did."""
    t = Tracker.new("shadowrun", "S", clock=clock, settings=Settings.from_dotted({"sr.glitch_rerolls": False}))
    t.add_character("Kaneda")
    ev = t.rolls.roll_sr(SRSide("Kaneda", ["kaneda"], dice=2, edge_before=True), faces=[6, 1, 1, 6, 1, 1])["event"]
    assert ev["roll"]["outcome"]["dice_counted"] == 4 and ev["text"].startswith("Kaneda: 2 hits, GLITCH")
    assert _check(t).ok, _check(t).mismatches
    ev["roll"]["sides"][0]["dice"][4]["source"] = "die"  # a rule-of-six die passed off as a thrown one
    assert any("does not follow from its faces" in m and "dice_counted" in m for m in _check(t).mismatches)
