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
from polku.session import demo, model
from polku.session.players import transcript
from polku.session.players.verify import verify
from polku.session.rolls import HarhaSide, RajaSide, SRSide
from polku.session.tracker import Tracker


def _check(t: Tracker):
    return verify(list(t.events), t.state, t.undone)


def _raja(clock) -> tuple[Tracker, model.Event]:
    t = Tracker.new("rajapolku", "R", clock=clock)
    ev = t.rolls.roll_raja(RajaSide("Igor"), RajaSide("Wall"), faces=([9], [7]))["event"]
    assert ev["text"].startswith("Igor vs Wall: Igor wins") and ev["roll"]["outcome"]["winner"] == "a"
    return t, ev


def _harha(variant: str, demand: str = ""):
    def make(clock) -> tuple[Tracker, model.Event]:
        t = Tracker.new("harhapolku", "H", clock=clock)
        t.add_character("Aino")
        faces = {"same_size": ([8, 7, 7, 6], [3, 2]), "sum": ([8], [3])}.get(variant, ([8, 7, 9], [3, 2]))
        ev = t.rolls.roll_harha(HarhaSide("Aino", ["aino"], general="x", special="y"), HarhaSide("Wolf", general="x"),
                                variant=variant, demand=demand, faces=faces)["event"]
        assert ev["roll"]["outcome"]["winner"] in ("a", "b"), ev["text"]
        return t, ev
    return make


def _harha_difficult(clock) -> tuple[Tracker, model.Event]:
    t = Tracker.new("harhapolku", "H", clock=clock)
    t.add_character("Aino")
    ev = t.rolls.roll_harha_difficult(HarhaSide("Aino", ["aino"], general="x"), faces=[7, 2])["event"]
    assert ev["text"] == "Aino, difficult action: success (1 of 1 needed 7+)"
    return t, ev


def _sr_opposed(clock) -> tuple[Tracker, model.Event]:
    t = Tracker.new("shadowrun", "S", clock=clock)
    ev = t.rolls.roll_sr_opposed(SRSide("Kaneda", dice=3), SRSide("Guard", dice=2), faces=([5, 6, 1], [2, 3]))["event"]
    assert ev["roll"]["outcome"]["winner"] == "a" and ev["roll"]["outcome"]["net_hits"] == 2
    return t, ev


def _sr_teamwork(clock) -> tuple[Tracker, model.Event]:
    t = Tracker.new("shadowrun", "S", clock=clock)
    t.add_character("Kaneda")
    t.add_character("Nyx")
    ev = t.rolls.roll_sr_teamwork(SRSide("Kaneda", ["kaneda"], dice=4), [SRSide("Nyx", ["nyx"], dice=2)],
                                  threshold=2, faces=[5, 1, 5, 2, 6, 3, 1])["event"]
    assert ev["roll"]["test"] == "shadowrun-teamwork" and ev["roll"]["outcome"]["hits"] == 2, ev["text"]
    return t, ev


def _sr_success(clock) -> tuple[Tracker, model.Event]:
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


# ---------------------------------------------------------------------------
# Initiative (S12), extended tests (S10), spirit combat (R11), the narration contest (H9), damage resistance


def _initiative(clock) -> tuple[Tracker, model.Event]:
    """Kaneda (8 dice, 2 hits, wounded −1) and Nyx (8 dice, 1 hit), literal faces."""
    t = demo.demo_varjojuoksu(clock, seed=None)
    ev = t.rolls.roll_initiative([("kaneda", 1), ("nyx", 1)],
                                 faces=[5, 6, 1, 1, 2, 2, 3, 3, 5, 1, 2, 2, 3, 3, 4, 4])["event"]
    assert [s["label"] for s in ev["roll"]["sides"]] == ["Kaneda 8+2=10", "Nyx 8+1=9"]
    assert ev["roll"]["summary"] == "order: Nyx 9, Kaneda 9", ev["roll"]["summary"]  # a tie: Edge, Reaction…
    return t, ev


def _extended(clock) -> tuple[Tracker, model.Event]:
    """Two intervals of a threshold-5 extended test: 2 hits (2/5), then 1 (3/5)."""
    t = demo.demo_varjojuoksu(clock, seed=None)
    cid = t.add_challenge("Crack the door", ["kaneda"], [])["id"]
    t.rolls.roll_sr_extended(SRSide("Kaneda", ["kaneda"], dice=3), cid, threshold=5, faces=[5, 6, 1])
    ev = t.rolls.roll_sr_extended(SRSide("Kaneda", ["kaneda"], dice=3), cid, faces=[5, 2, 3])["event"]
    assert ev["roll"]["summary"] == "interval 2: 1 hit, 3/5", ev["roll"]["summary"]
    return t, ev


def _spirit(clock) -> tuple[Tracker, model.Event]:
    """Igor 9,3,2,1 against the spirit's 7,2,1,1: Igor wins by 1 degree, the spirit loses 1 charge (3 left)."""
    t = Tracker.new("rajapolku", "R", clock=clock)
    a, b = t.add_character("Igor")["id"], t.add_character("Spirit")["id"]
    t.rolls.roll_spirit(a, b, faces=([9, 3, 2, 1], [7, 2, 1, 1]))
    ev = t.events[-1]
    assert ev["roll"]["summary"] == "Igor wins, 1 degree; Spirit loses 1 charge (3 left)", ev["roll"]["summary"]
    return t, ev


def _narration(clock) -> tuple[Tracker, dict[str, model.Event]]:
    """A scene's narration contest: Lena opens with 2+3, Tuomas usurps with 8+7+9+6 = 30, the GM's harm roll
    4d6 = 24 is not above it; Lena's new die 4 is thrown again with an edge: 8."""
    t = demo.demo_harhapolku(clock, seed=None)
    t.new_scene("Docks")
    r = t.rolls
    r.narration_roll_background("Lena", "Thief", 8, faces=[2])
    r.narration_roll_background("Lena", "Island girl", 8, faces=[3])
    r.narration_open("Lena", r.narration().hand("Lena"))
    for bg, face, size in (("Fisherman", 8, 8), ("Brawler", 7, 8), ("Sea-touched", 9, 10), ("Iron grip", 6, 8)):
        r.narration_roll_background("Tuomas", bg, size, faces=[face])
    r.narration_usurp("Tuomas", r.narration().hand("Tuomas"))
    r.narration_harm(faces=[6, 6, 6, 6])
    harm = t.events[-1]
    r.narration_roll_background("Lena", "Dream-walker", 8, faces=[4])
    r.narration_edge_reroll("Lena", "lena", "Cold head", faces=[8])
    reroll = t.events[-1]
    background = next(e for e in t.events if e.get("text") == "Lena rolls Thief: 2 on a d8")
    assert harm["text"] == "GM 6+6+6+6=24 is not above 30: Tuomas's character is unharmed (H9)"
    assert reroll["text"] == "Lena rerolls with an edge: 4 → 8 with edge 'Cold head' (H7)"
    return t, {"harm": harm, "reroll": reroll, "background": background}


def _resistance(clock) -> tuple[Tracker, model.Event]:
    """Kaneda (4 boxes filled) resists 6P + 1 net hit with 5,1,2,3: 1 hit, 6 boxes, 10/10: dying."""
    t = demo.demo_varjojuoksu(clock, seed=None)
    ev = t.damage.apply(None, target="kaneda", dv=6, net_hits=1, faces=[5, 1, 2, 3])["event"]
    assert ev["roll"]["outcome"]["physical"] == 10 and "6 boxes physical (10/10 physical" in ev["text"]
    return t, ev


def _narration_roll(which: str):
    def make(clock):
        t, evs = _narration(clock)
        return t, evs[which]
    return make


def _set_total(roll: dict, key: str, value: int, old: str, new: str) -> None:
    """A total changed by hand, its summary and log line changed to agree (only the faces disagree)."""
    roll["outcome"][key] = value
    roll["summary"] = roll["summary"].replace(old, new)


MORE_KINDS = {
    # kind: (make, [(what, tamper(roll), the start of the one MISMATCH line after "seq N: ")])
    "initiative": (_initiative, [
        ("face", lambda r: r["sides"][0]["dice"][2].update(face=5),
         "side 1 says 'Kaneda 8+2=10', its faces give 'Kaneda 8+3=11' (S12)"),
        ("outcome", lambda r: r["outcome"]["order"][1].update(current=12),
         "its result does not follow from its faces (S12"),
        ("total", lambda r: r["sides"][1].update(label="Nyx 8+1=11"),
         "side 2 says 'Nyx 8+1=11', its faces give 'Nyx 8+1=9' (S12)"),
        # Kaneda's score lowered past his wound modifier (−1: 10 → 9), his line saying so
        ("wound", lambda r: (r["outcome"]["order"][1].update(current=8),
                             r.update(summary="order: Nyx 9, Kaneda 8")),
         "its result does not follow from its faces (S12"),
        # his monitors' boxes changed (no wound): the order his score gives is 10 first
        ("monitors", lambda r: r["outcome"]["order"][1].update(monitors=[0, 0]),
         "its result does not follow from its faces (S12"),
        # the tie at 9 broken the other way: Nyx's Edge 4 against Kaneda's 3 puts her first
        ("tie", lambda r: (r["outcome"]["order"].reverse(), r.update(summary="order: Kaneda 9, Nyx 9")),
         "its result does not follow from its faces (S12"),
    ]),
    "extended": (_extended, [
        ("face", lambda r: r["sides"][0]["dice"][1].update(face=6), "its result does not follow from its faces "
                                                                    "(S4–S7, S10"),
        ("outcome", lambda r: r["outcome"].update(done=True), "its result does not follow from its faces (S4–S7, S10"),
        ("total", lambda r: _set_total(r, "accumulated", 4, "3/5", "4/5"),
         "its result does not follow from its faces (S4–S7, S10"),
    ]),
    "spirit": (_spirit, [
        ("face", lambda r: r["sides"][1]["dice"][0].update(face=10), "its result does not follow from its faces "
                                                                     "(R5–R7, R11"),
        ("outcome", lambda r: r["outcome"].update(charge_loss=2), "its result does not follow from its faces "
                                                                  "(R5–R7, R11"),
        ("total", lambda r: (r["outcome"]["fight"].update(b_charges=4),
                             r.update(summary=r["summary"].replace("3 left", "4 left"))),
         "its result does not follow from its faces (R5–R7, R11"),
    ]),
    "narration-background": (_narration_roll("background"), [
        ("face", lambda r: r["sides"][0]["dice"][0].update(face=7),
         "its summary says 'Lena rolls Thief: 2 on a d8', its result is 'Lena rolls Thief: 7 on a d8' (H9)"),
    ]),
    "narration-reroll": (_narration_roll("reroll"), [
        ("face", lambda r: r["sides"][0]["dice"][0].update(face=3),
         "its summary says 'Lena rerolls with an edge: 4 → 8 (H7)', its result is "
         "'Lena rerolls with an edge: 4 → 3 (H7)' (H7, H9)"),
    ]),
    "narration-harm": (_narration_roll("harm"), [
        ("face", lambda r: r["sides"][0]["dice"][0].update(face=1), "its result does not follow from its faces (H9"),
        ("outcome", lambda r: r["outcome"]["harm"].update(harmed=True), "its result does not follow from its faces "
                                                                        "(H9"),
        ("total", lambda r: r["outcome"]["harm"].update(gm_total=31), "its result does not follow from its faces (H9"),
    ]),
    "damage-resistance": (_resistance, [
        ("face", lambda r: r["sides"][0]["dice"][1].update(face=6), "its result does not follow from its faces "
                                                                    "(S4–S7, S12"),
        ("outcome", lambda r: r["outcome"].update(boxes=5), "its result does not follow from its faces (S4–S7, S12"),
        ("total", lambda r: (r["outcome"].update(physical=9), r.update(summary=r["summary"].replace("10/10", "9/10"))),
         "its result does not follow from its faces (S4–S7, S12"),
    ]),
}
CASES = [(kind, what) for kind, (_, tampers) in MORE_KINDS.items() for what, _, _ in tampers]


def _tamper(kind: str, what: str):
    make, tampers = MORE_KINDS[kind]
    _, tamper, says = next(x for x in tampers if x[0] == what)
    return make, tamper, says


@pytest.mark.parametrize(("kind", "what"), CASES, ids=[f"{k}-{w}" for k, w in CASES])
def test_a_changed_face_outcome_or_total_of_the_other_kinds_is_a_mismatch(clock, kind, what):
    make, tamper, says = _tamper(kind, what)
    t, ev = make(clock)
    assert _check(t).ok, _check(t).mismatches
    tamper(ev["roll"])
    if ev["roll"]["summary"] != ev["text"] and ev["roll"]["summary"].split(": ")[-1] not in ev["text"]:
        ev["text"] = ev["roll"]["summary"]  # a consistent hand: the log line says what the summary says
    bad = _check(t).mismatches
    assert len(bad) == 1, bad
    assert bad[0].startswith(f"seq {ev['seq']}: {says}"), bad


TRANSCRIPT_CASES = [(k, "total") for k in ("initiative", "extended", "spirit", "narration-harm", "damage-resistance")] + [
    ("initiative", "wound"), ("initiative", "monitors"), ("initiative", "tie")]


@pytest.mark.parametrize(("kind", "what"), TRANSCRIPT_CASES, ids=[f"{k}-{w}" for k, w in TRANSCRIPT_CASES])
def test_a_changed_total_of_the_other_kinds_fails_polku_verify_on_the_transcript(tmp_path, capsys, clock, kind, what):
    """The players' path: polku export --transcript, a total (an initiative's wound or tie-break) changed in it,
    polku verify on it alone."""
    make, tamper, says = _tamper(kind, what)
    t, ev = make(clock)
    t.new_dice_secret()
    honest = tmp_path / "honest.json"
    honest.write_text(transcript.text(t), encoding="utf-8")
    assert main(["verify", str(honest)]) == 0, capsys.readouterr().out
    capsys.readouterr()
    doc = json.loads(transcript.text(t))
    shown = next(e for e in doc["events"] if e["seq"] == ev["seq"])
    tamper(shown["roll"])
    path = tmp_path / "t.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["verify", str(path)]) == 1
    bad = [x for x in capsys.readouterr().out.splitlines() if x.startswith("MISMATCH")]
    assert len(bad) == 1 and bad[0].startswith(f"MISMATCH seq {ev['seq']}: {says}"), bad


def test_each_interval_of_an_extended_test_starts_from_the_total_its_faces_gave(clock):
    """Every interval's total raised by one, each agreeing with its own hits: each is named, since the
    first interval's faces give 2, not 3."""
    t, ev = _extended(clock)
    first = next(e for e in t.events if e.get("roll", {}).get("test") == "shadowrun-extended")
    _set_total(first["roll"], "accumulated", 3, "2/5", "3/5")
    first["text"] = f"Kaneda, extended test: {first['roll']['summary']}"
    _set_total(ev["roll"], "accumulated", 4, "3/5", "4/5")
    ev["text"] = f"Kaneda, extended test: {ev['roll']['summary']}"
    bad = _check(t).mismatches
    assert [m.split(":")[0] for m in bad] == [f"seq {first['seq']}", f"seq {ev['seq']}"], bad


def test_polku_verify_speaks_the_users_language_and_its_json_stays_english(clock):
    """The findings, the MISMATCH lines and the summary in Finnish; the report's fields (what --json prints) in
    English whatever the language, so a script reads the same words."""
    import re

    from polku import i18n

    t, ev = _raja(clock)
    t.rolls.roll_raja(RajaSide("Igor"), RajaSide("Wall"))
    ev["roll"]["outcome"]["winner"] = "b"  # a hand editing the file
    english = _check(t)
    assert english.lines()[-1].startswith("FAILED: 1 program roll checked, 1 mismatch, 1 entered by hand")
    i18n.set_language("fi")
    try:
        rep = _check(t)
        lines = rep.lines()
    finally:
        i18n.set_language("en")
    assert [str(m) for m in rep.mismatches] == [str(m) for m in english.mismatches]
    assert rep.mismatches[0].startswith("seq 1: its result does not follow from its faces")
    assert lines[-1].startswith("EPÄONNISTUI: 1 ohjelman heitto tarkistettu, 1 ristiriita, 1 syötetty käsin")
    mismatch = next(x for x in lines if x.startswith("RISTIRIITA "))
    assert mismatch.startswith("RISTIRIITA seq 1: sen tulos ei seuraa sen silmäluvuista")
    # Polku's own words are Finnish: what is left in English is the roll's own log text, quoted as written.
    left = re.sub(r"'[^']*'", "", " ".join(lines))
    assert not re.search(r"\b(checked|mismatch|its|the|result|faces|roll|secret|dice)\b", left), left


def test_polku_verify_says_a_seeded_file_in_finnish_too():
    from polku import i18n

    t = demo.demo_varjojuoksu(seed=5)
    i18n.set_language("fi")
    try:
        lines = _check(t).lines()
    finally:
        i18n.set_language("en")
    assert lines[0].startswith("tarkoituksella siemennetty: 5 ohjelman heittoa tuli kiinteästä siemenestä")
    assert lines[0].endswith("(paluuarvo 3)") and lines[-1].startswith("SIEMENNETTY: 5 ohjelman heittoa tarkistettu")
