"""The log's sentences are made from each event's facts, in the reader's language (issue 25, part two).

Every converted event kind keeps its English words in the file too (for older readers), so the
facts are checked against them: told in English, a fact says exactly what the tracker wrote, over
many rolls of every kind and outcome. Told in Finnish, the same fact says it in the rule texts'
words (docs/glossary.md), with no English left.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from polku import i18n
from polku.session import demo, records, telling
from polku.session.model import Event
from polku.session.rolls import HarhaSide, RajaSide, SRSide
from polku.session.tracker import Tracker, TrackerError

ENGLISH_WORDS = re.compile(
    r"\b(wins?|hits?|glitch|success|failure|net|tie|degrees?|reroll|interval|done|needed|action|vs|fails|"
    r"succeeds|stalemate|supernatural|visibly|narrowly|teamwork|helpers?|leads|extended|test|charges?|fight|"
    r"exchange|spirit|combat|threshold|hidden|automatic|pool|holds|both|dice|difficult|very|demanding)\b",
    re.IGNORECASE)
"""English words of the roll sentences; none may be left in a Finnish one (a name aside)."""


def _sr_rolls() -> Tracker:
    t = demo.demo_varjojuoksu(seed=5)
    kaneda = SRSide("Kaneda", ["kaneda"], dice=7)
    for n in range(0, 9):
        t.rolls.roll_sr(SRSide("Kaneda", ["kaneda"], dice=n), threshold=2)
        t.rolls.roll_sr(SRSide("Kaneda", ["kaneda"], dice=n))
        t.rolls.roll_sr_opposed(SRSide("Kaneda", ["kaneda"], dice=n), SRSide("Ganger", ["ganger"], dice=4))
    # Literal faces: a critical glitch, a serious glitch, a minor one, a tie, and each side's glitch.
    t.rolls.roll_sr(kaneda, threshold=1, faces=[1, 1, 1, 1, 2, 3, 4])
    t.rolls.roll_sr(kaneda, threshold=3, faces=[5, 1, 1, 1, 1, 3, 4])
    t.rolls.roll_sr(SRSide("Kaneda", ["kaneda"], dice=10), threshold=3, faces=[5, 5, 6, 5, 1, 1, 1, 1, 1, 1])
    t.rolls.roll_sr_opposed(SRSide("Kaneda", ["kaneda"], dice=3), SRSide("Ganger", ["ganger"], dice=3),
                            faces=([5, 1, 1], [6, 2, 3]))
    t.rolls.roll_sr_opposed(SRSide("Kaneda", ["kaneda"], dice=3), SRSide("Ganger", ["ganger"], dice=3),
                            faces=([5, 6, 2], [1, 1, 1]))
    t.rolls.roll_sr_opposed(SRSide("Kaneda", ["kaneda"], dice=2), SRSide("Ganger", ["ganger"], dice=2), group=[3, 2])
    t.rolls.roll_sr_teamwork(SRSide("Nyx", ["nyx"], skill_name="Hacking", skill=5, attribute_name="Logic",
                                    attribute=6), [SRSide("Kaneda", ["kaneda"], dice=4)], threshold=2)
    t.rolls.roll_sr_teamwork(SRSide("Nyx", ["nyx"], skill_name="Hacking", skill=5, attribute_name="Logic",
                                    attribute=6), [SRSide("Kaneda", ["kaneda"], dice=4)])
    chal = t.add_challenge("Climb the tower", ["kaneda"])["id"]
    side = SRSide("Kaneda", ["kaneda"], dice=10)
    t.rolls.roll_sr_extended(side, chal, threshold=4, faces=[5, 3, 3, 4, 4, 2, 3, 4, 3, 4])
    t.rolls.roll_sr_extended(side, chal, faces=[5, 1, 1, 1, 1, 1, 3, 4, 4, 2])
    t.rolls.roll_sr_extended(side, chal, faces=[5, 5, 6, 4, 4, 2, 3, 4, 3, 4])
    return t


def _raja_rolls() -> Tracker:
    t = demo.demo_rajapolku(seed=5)
    for _ in range(40):
        t.rolls.roll_raja(RajaSide("Alyosha", ["alyosha"], backgrounds=["Runner", "Street-wise"]),
                          RajaSide("The Pickpocket", ["the-pickpocket"], backgrounds=["Young and fast"]))
    t.rolls.roll_raja(RajaSide("Igor", ["igor-bondarenko"], abilities=["Ape-man strength"]),
                      RajaSide("GM: door", [], backgrounds=["Heavy"]))
    chal = t.state["challenges"][-2]["id"]
    for _ in range(12):
        fight = t.rolls.spirit_fight(chal)
        if fight is not None and fight.over:
            break
        t.rolls.roll_spirit("alyosha", "ghost-of-the-nurse", challenge=chal)
    return t


def _harha_rolls() -> Tracker:
    t = demo.demo_harhapolku(seed=5)
    ids = list(t.characters)
    a, b = ids[0], ids[1]
    for variant in ("ch23", "classic", "sum"):
        for _ in range(12):
            t.rolls.roll_harha(HarhaSide("A", [a], gm_bonus=True), HarhaSide("B", [b]), variant=variant)
    for demand in ("difficult", "very_demanding"):
        for _ in range(8):
            t.rolls.roll_harha(HarhaSide("A", [a], gm_bonus=True), HarhaSide("B", [b]), demand=demand)
    for very in (False, True):
        for _ in range(8):
            t.rolls.roll_harha_difficult(HarhaSide("A", [a], gm_bonus=True), very_demanding=very)
    return t


@pytest.fixture(scope="module")
def rolls() -> list[Event]:
    i18n.set_language("en")
    out: list[Event] = []
    for make in (_sr_rolls, _raja_rolls, _harha_rolls):
        out += [ev for ev in make().events if ev["kind"] == "roll" and ev.get("fact")]
    return out


def _kinds(events: list[Event]) -> set[str]:
    return {str(ev["fact"]["id"]) for ev in events}


def test_every_roll_of_every_system_has_a_fact(rolls: list[Event]) -> None:
    assert _kinds(rolls) == {"sr.success", "sr.opposed", "sr.teamwork", "sr.extended", "raja.roll", "raja.spirit",
                             "harha.contest", "harha.opposed_difficult", "harha.difficult", "initiative.order"}


def _as_told(stored: str) -> str:
    """The stored English as the teller says it: the one difference is the teller's plural, "+1 die from
    helpers" (the stored words say "+1 dice", and stay so: ``polku verify`` compares them as written)."""
    return stored.replace("(+1 dice from helpers)", "(+1 die from helpers)")


def test_told_in_english_a_fact_says_what_the_tracker_wrote(rolls: list[Event]) -> None:
    i18n.set_language("en")
    differ = [(ev["text"], telling.event_text(ev)) for ev in rolls if telling.event_text(ev) != _as_told(ev["text"])]
    differ += [(ev["roll"]["summary"], telling.roll_summary(ev)) for ev in rolls
               if telling.roll_summary(ev) != _as_told(ev["roll"]["summary"])]
    assert not differ, differ[:5]
    # The outcomes are many: every branch of a teller was taken.
    summaries = {telling.roll_summary(ev) for ev in rolls}
    for words in ("CRITICAL GLITCH", "SERIOUS GLITCH", "MINOR GLITCH", "stalemate", "wins narrowly", "supernatural",
                  "teamwork", "GM: spoil?", "(H6)", "reroll (H3)", "succeeds (difficult", "very demanding",
                  "charge", "failure", "success, "):
        assert any(words in s for s in summaries), words


def _finnish(rolls: list[Event]) -> Iterator[tuple[Event, str]]:
    i18n.set_language("fi")
    try:
        for ev in rolls:
            yield ev, telling.event_text(ev)
    finally:
        i18n.set_language("en")


def test_told_in_finnish_no_english_is_left(rolls: list[Event]) -> None:
    names = re.compile(r"Kaneda|Ganger|Nyx|Alyosha|The Pickpocket|GM: door|Igor|Ghost of the Nurse|\bA\b|\bB\b")
    left = [line for _ev, line in _finnish(rolls) if ENGLISH_WORDS.search(names.sub("", line))]
    assert not left, left[:5]


def test_told_in_finnish_the_rule_texts_words(rolls: list[Event]) -> None:
    lines = [line for _ev, line in _finnish(rolls)]
    for word in ("osuma", "kriittinen kämmi", "netto", "pidennetty testi", "ryhmätesti", "vaikea teko",
                 "erittäin vaativa teko", "henkitaistelu"):
        assert any(word in line.lower() for line in lines), word


def test_a_fact_in_finnish_names_the_same_numbers() -> None:
    t = demo.demo_varjojuoksu(seed=5)
    ev = t.rolls.roll_sr(SRSide("Kaneda", ["kaneda"], dice=7), threshold=1, faces=[5, 6, 1, 1, 1, 1, 3])["event"]
    assert telling.event_text(ev) == ev["text"] == "Kaneda: 2 hits, success, 1 net, GLITCH (2 hits)"
    i18n.set_language("fi")
    try:
        line = telling.event_text(ev)
    finally:
        i18n.set_language("en")
    assert line.startswith("Kaneda: 2 osumaa, onnistui, netto-osumia 1"), line
    assert "KÄMMI (2 osumaa)" in line


def test_an_event_without_a_fact_is_shown_as_stored_with_one_note() -> None:
    old: dict[str, Any] = {"seq": 1, "kind": "roll", "text": "Kaneda: 3 hits",
                           "roll": {"test": "shadowrun", "summary": "3 hits"}}
    assert telling.event_text(old) == "Kaneda: 3 hits" and telling.roll_summary(old) == "3 hits"
    assert telling.stored_only(old)
    assert telling.old_note([old]) == telling.OLD_NOTE
    note = {"seq": 2, "kind": "note", "text": "The bridge is out"}  # a kind not told from facts yet: no note
    assert telling.event_text(note) == "The bridge is out" and not telling.stored_only(note)
    t = demo.demo_varjojuoksu(seed=5)
    new = t.rolls.roll_sr(SRSide("Kaneda", ["kaneda"], dice=3), faces=[5, 2, 3])["event"]
    assert not telling.stored_only(new) and telling.old_note([new]) == ""


# -- each roll's explanation (the rules core's lines, kept as steps: rules/explain.py) -------------------

EXPLAINED = ("shadowrun", "rajapolku", "spirit", "harhapolku", "initiative", "damage-resistance")
"""The tests whose every explanation line is a step now (``roll["test"]`` starts with one of these)."""


def _explained(rolls: list[Event]) -> list[Event]:
    return [ev for ev in rolls if str(ev["roll"]["test"]).startswith(EXPLAINED)]


def test_told_in_english_an_explanation_says_what_the_tracker_wrote(rolls: list[Event], sessions: list[Event]) -> None:
    i18n.set_language("en")
    rolls = rolls + [ev for ev in sessions if isinstance(ev.get("roll"), dict)]
    differ = [(ev["roll"]["explain"], telling.explain_lines(ev["roll"])) for ev in rolls
              if telling.explain_lines(ev["roll"]) != ev["roll"]["explain"]]
    assert not differ, differ[:3]
    plain = [(ev["roll"]["test"], text) for ev in _explained(rolls)
             for step, text in zip(ev["roll"]["steps"], ev["roll"]["explain"]) if not step]
    assert not plain, plain[:5]
    lines = [x for ev in _explained(rolls) for x in ev["roll"]["explain"]]
    for words in ("rule of six: 6 →", "ones: ", "threshold 2: ", "A 2 hits vs B", "helper Kaneda: ",
                  "group of 3: largest pool + 2", "hits: ", "resistance: Body ", "wound modifier ",
                  "initiative = Reaction + Intuition"):
        assert any(words in x for x in lines), words


def test_told_in_finnish_an_explanation_has_no_english_left(rolls: list[Event], sessions: list[Event]) -> None:
    rolls = rolls + [ev for ev in sessions if isinstance(ev.get("roll"), dict)]
    names = re.compile(r"Kaneda|Ganger|Nyx|Hacking|Alyosha|The Pickpocket|Ghost of the Nurse|Igor|GM: door|"
                       r"Young and fast|Ape-man strength|\bA\b|\bB\b")
    i18n.set_language("fi")
    try:
        told = [x for ev in _explained(rolls) for x in telling.explain_lines(ev["roll"])]
    finally:
        i18n.set_language("en")
    extra = re.compile(r"\b(ones|twos|of|rule|six|from|after|before|roll|none|no|bought|group|largest|helper|with)\b")
    left = [x for x in told if ENGLISH_WORDS.search(names.sub("", x)) or extra.search(names.sub("", x))]
    assert not left, left[:5]
    assert any("kutosen sääntö" in x for x in told) and any(x.startswith("ykköset: ") for x in told)
    assert any(x.startswith("toimintanoppa (R1)") for x in told) and any(x.startswith("sija 1: ") for x in told)
    assert any(x.startswith("henkitaistelu: A:lla ") for x in told)
    assert any(x.startswith("sietotesti: keho ") for x in told) and any(x.startswith("initiatiivi = ") for x in told)
    assert any(x.startswith("tekijä: ") for x in told) and any(x.startswith("vaikea teko: vaatii 1 nopan 7+") for x in told)


def test_an_explanation_in_finnish_names_the_same_numbers() -> None:
    t = demo.demo_varjojuoksu(seed=5)
    ev = t.rolls.roll_sr(SRSide("Kaneda", ["kaneda"], skill_name="Pistols", skill=4, attribute_name="Agility",
                                attribute=3, modifiers=[("rain", -1)]), threshold=1, faces=[5, 6, 1, 1, 1, 3])["event"]
    assert ev["roll"]["explain"] == [
        "pool: 6", "dice: 5,6,1,1,1,3", "hits: 6,5 → 2",
        "ones: 3 of 6 → glitch (2 hits): dramatic or amusing, never catastrophic (S5)",
        "threshold 1: success, net hits 1", "Pistols 4 + Agility 3 − 1 (rain) = 6 dice"]
    i18n.set_language("fi")
    try:
        told = telling.explain_lines(ev["roll"])
    finally:
        i18n.set_language("en")
    assert told == [
        "noppakasa: 6", "nopat: 5,6,1,1,1,3", "osumat: 6,5 → 2",
        "ykköset: 3/6 → kämmi (2 osumaa): dramaattinen tai huvittava, ei koskaan katastrofi (S5)",
        "tavoite 1: onnistui, netto-osumia 1", "Pistols 4 + Ketteryys 3 − 1 (rain) = 6 noppaa"]


def test_an_explanation_without_steps_is_shown_as_written_with_the_note() -> None:
    t = demo.demo_varjojuoksu(seed=5)
    ev = t.rolls.roll_sr(SRSide("Kaneda", ["kaneda"], dice=3), faces=[5, 2, 3])["event"]
    old: dict[str, Any] = {**ev, "roll": {k: v for k, v in ev["roll"].items() if k != "steps"}}  # as the previous Polku wrote it
    i18n.set_language("fi")
    try:
        assert telling.explain_lines(old["roll"]) == old["roll"]["explain"] == ["pool: 3", "dice: 5,2,3", "hits: 5 → 1",
                                                                               "ones: 0 of 3 → no glitch",
                                                                               "Kaneda: 3 dice = 3 dice"]
        assert telling.stored_only(old) and telling.old_note([old])
        assert not telling.stored_only(ev) and telling.explain_lines(ev["roll"])[0] == "noppakasa: 3"
    finally:
        i18n.set_language("en")


def test_a_fact_a_teller_cannot_read_falls_back_to_the_stored_words() -> None:
    broken: dict[str, Any] = {"seq": 1, "kind": "roll", "text": "Kaneda: 3 hits",
                              "roll": {"test": "shadowrun", "summary": "3 hits"},
                              "fact": {"id": "sr.success", "label": "Kaneda", "hits": "three"}}
    assert telling.event_text(broken) == "Kaneda: 3 hits"
    assert telling.stored_only(broken)


# -- every kind of event, not only rolls -------------------------------------------------------------

def _raja_session() -> Tracker:
    t = demo.demo_rajapolku(seed=5)
    t.move_wound("alyosha", 3)      # Badly wounded: with the care it needs
    t.move_wound("alyosha", -1)
    t.move_wound("alyosha", 1)
    t.set_wound("alyosha", "Mortally wounded")
    t.set_wound("alyosha", "Bruised")
    t.set_health("alyosha", "a sprained ankle")
    t.set_health("alyosha", "")
    t.spend_charges("alyosha", 1, "the ward")
    t.spend_charges("alyosha", 2, "the seal")
    t.restore_charges("alyosha", 2)
    t.restore_charges("alyosha", 1, "a night's sleep") if records.raja(t.characters["alyosha"])["charges"] < 5 else None
    t.use_ability("alyosha", "Second sight")
    t.use_ability("igor-bondarenko", "Ape-man strength")
    t.spend_story_point("alyosha", "a lucky break")
    t.award_story_point("alyosha")
    t.award_story_point("igor-bondarenko", "a fine speech")
    t.set_setting("raja.exhausted", not t.settings.to_dotted()["raja.exhausted"])
    t.set_setting("raja.full_tie", "defender")
    chal = t.add_challenge("Bar the door", ["alyosha"])["id"]
    t.move_challenge(chal, -1)
    t.move_challenge(chal, 1)
    t.start_challenge(chal)
    t.resolve_challenge(chal, "the door holds")
    other = t.add_challenge("Forget this one")["id"]
    t.remove_challenge(other)
    t.new_scene("The rooftops")
    t.new_scene()
    t.new_session()
    t.new_story()
    t.add_character("Vera", kind="npc")
    t.add_character("Mole", kind="opposition", secret=True)
    t.add_challenge("Catch Vera", ["alyosha"], ["vera"])
    t.remove_character("vera")
    t.add_character("Lazar")
    t.remove_character("lazar")
    from polku.session.players import seats

    seats.ask_raja(t, "alyosha", RajaSide("Alyosha", ["alyosha"]), RajaSide("GM: the wall", [], backgrounds=["High"]))
    # R8/R9: the harm of a lost challenge, as the GM confirms it (a step down the track and a note).
    lost = t.rolls.roll_raja(RajaSide("Alyosha", ["alyosha"]), RajaSide("GM: the guard", [], backgrounds=["Big"]),
                             faces=([2], [9, 8]))["event"]
    offer = t.damage.harm_offer(lost)
    if offer.allowed:
        t.damage.apply_harm(offer, steps=1, note="a cut lip")
    return t


def _sr_session() -> Tracker:
    t = demo.demo_varjojuoksu(seed=None)  # the program's own dice: a dice secret committed, then revealed
    t.spend_edge("kaneda", "a lucky dodge")
    t.set_condition("kaneda", "stun", 3)
    t.set_condition("kaneda", "physical", 6)
    t.rolls.roll_sr(SRSide("Kaneda", ["kaneda"], dice=1, long_shot=True))
    ev = t.rolls.roll_sr(SRSide("Nyx", ["nyx"], dice=6), threshold=2, faces=[1, 1, 1, 1, 5, 2])["event"]
    t.rolls.sr_post_roll(ev, "negate_glitch")
    ev = t.rolls.roll_sr(SRSide("Nyx", ["nyx"], dice=4), threshold=2, faces=[2, 3, 4, 5])["event"]
    t.rolls.sr_post_roll(ev, "edge_after", faces=[6, 2, 3, 4, 5])
    # A fight: a fighter acts, one holds the action and steps in, the passes and the turn run out, it ends;
    # effects counted in passes, turns and scenes, or until removed, come and go.
    t.combat.add_effect("kaneda", "Smoke", -2, "pass", 1)
    t.combat.add_effect("kaneda", "Blessed", 1, "removed")
    t.combat.add_effect("nyx", "Stunned", -1, "turn", 2)
    t.combat.add_effect("nyx", "Hidden", 0, "scene", 1)
    t.combat.add_effect("ganger", "Rattled", -1, "session", 1)
    t.combat.remove_effect("kaneda", 1)
    t.combat.next()
    t.combat.delay()
    block = t.combat.block
    assert block is not None
    t.combat.step_in(block["held"][0])
    for _ in range(12):
        try:
            t.combat.next()
        except TrackerError:
            break
    t.combat.end()
    t.rolls.roll_initiative([("kaneda", 1), ("nyx", 1), ("ganger", 1)])
    # Damage: resisted with a glitch, then knocked out, then past the monitor (dying).
    for a_faces, dv, faces in (([5, 6, 5], 5, [5, 1, 1, 1, 1, 1, 2, 3, 4, 6]), ([5, 5, 5], 4, [2, 2, 2, 3, 4, 3, 2, 3]),
                               ([5, 5, 5, 5], 9, [2, 2, 2, 2])):
        ev = t.rolls.roll_sr_opposed(SRSide("Kaneda", ["kaneda"], dice=len(a_faces)),
                                     SRSide("Ganger", ["ganger"], dice=1), faces=(a_faces, [1]))["event"]
        t.damage.apply(ev, target="ganger", dv=dv, armour=len(faces) - 4, faces=faces,
                       damage="stun" if dv == 4 else "physical")
    from polku.session.players import seats
    from polku.session.rolls import SRPool

    asked = seats.ask_sr(t, "kaneda", SRPool(skill="Pistols", attribute="agility"), threshold=2)
    seats.withdraw(t, asked[0]["seq"] if isinstance(asked, list) else asked["seq"])
    t.new_session()
    return t


def _roster_session() -> Tracker:
    t = demo.demo_varjojuoksu(seed=5)
    t.roster.save_template("ganger")
    t.roster.save_template("ganger", "Ganger")
    t.roster.save_template("nyx", "Hacker")
    t.roster.remove_template("Hacker")
    made = t.roster.add_from_template("Ganger", 3)
    t.roster.add_from_template("Ganger", 1, group="Lookout", initiative="separate")
    gid = t.characters[made[0]]["group"]
    t.roster.set_group_initiative(gid, "separate")
    t.roster.set_group_initiative(gid, "shared")
    t.set_condition(made[0], "physical", t.condition_monitor(made[0], "physical"))
    t.roster.remove_fallen()
    t.roster.copy_characters([t.characters["nyx"].copy()], source="last week")
    t.roster.save_pool("kaneda", {"name": "Pistols", "mode": "skill", "skill": "Pistols", "attribute": "agility",
                                  "second": "strength", "count": 6})
    t.roster.save_pool("kaneda", {"name": "Pistols", "mode": "skill", "skill": "Pistols", "attribute": "agility",
                                  "second": "strength", "count": 6})
    t.roster.remove_pool("kaneda", "Pistols")
    return t


def _harha_session() -> Tracker:
    t = demo.demo_harhapolku(seed=5)  # its narration contest: backgrounds rolled, the narration taken
    t.rolls.narration_conflict("armed", True)
    hand = sorted(t.rolls.narration().hand("Tuomas"), key=lambda d: -d.face)[:2]
    t.rolls.narration_usurp("Tuomas", hand)  # 9+5 burns Lena's 6+7: a parry
    t.use_edge_reroll("lena", "Cold head")
    from polku.session.players import seats

    seats.ask_harha(t, "lena", HarhaSide("Lena", ["lena"], gm_bonus=True))
    seats.ask_harha(t, "lena", HarhaSide("Lena", ["lena"]), very_demanding=True)
    t.new_scene("The shore")
    t.new_session()
    return t


def _sheet_session() -> Tracker:
    """Fields edited on the character sheet and gear edited on a sheet or a template, as the sheet's editors
    send them (``update_character``, ``roster.set_weapon``…); and the other two systems' sheets."""
    from polku.session.table.gear import parse_armour, parse_weapon

    t = demo.demo_varjojuoksu(seed=5)
    t.update_character("kaneda", "player", "Mika")
    t.update_character("kaneda", "kind", "npc")
    t.update_character("kaneda", "secret", True)
    t.update_character("kaneda", "notes", "owes the fixer")
    t.update_character("kaneda", "skills", {"Pistols": 5, "Sneaking": 2})
    t.update_character("kaneda", "attributes", {**records.sr(t.characters["kaneda"])["attributes"], "agility": 5})
    t.update_character("kaneda", "edge", 1)
    t.update_character("kaneda", "name", "Kaneda Jr")
    t.roster.set_weapon("kaneda", None, parse_weapon("Ares Predator IV, 5P, -1, Pistols"))
    t.roster.set_weapon("kaneda", 0, parse_weapon("Katana, 7P, -1, Blades"))
    t.roster.set_weapon("kaneda", None, parse_weapon("Shuriken, 2P, -, Throwing Weapons, thrown"))
    t.roster.remove_weapon("kaneda", 0)
    t.roster.set_armour("kaneda", parse_armour("6/4"))
    t.roster.save_template("ganger", "Ganger")
    t.roster.set_weapon("Ganger", None, parse_weapon("Knife, 3P, -, Blades"), template=True)
    t.roster.set_weapon("Ganger", 0, parse_weapon("Club, 4S, -, Clubs"), template=True)
    t.roster.set_armour("Ganger", parse_armour("2"), template=True)
    t.roster.remove_weapon("Ganger", 0, template=True)
    return t


def _sheet_raja_session() -> Tracker:
    r = demo.demo_rajapolku(seed=5)
    abilities = records.raja(r.characters["alyosha"])["abilities"]
    r.update_character("alyosha", "abilities", abilities + [{"name": "Hex", "cost": 2, "per": "use"}])
    r.update_character("alyosha", "abilities", records.raja(r.characters["alyosha"])["abilities"] + [
        {"name": "Night sight", "cost": 0, "per": "always"}])
    changed = [dict(a) for a in records.raja(r.characters["alyosha"])["abilities"]]
    changed[-2] = {"name": "Curse", "cost": 1, "per": "scene"}
    r.update_character("alyosha", "abilities", changed)
    r.update_character("alyosha", "abilities", records.raja(r.characters["alyosha"])["abilities"][1:])
    r.update_character("alyosha", "backgrounds", ["Runner", "Thief"])
    r.update_character("alyosha", "backgrounds", [])
    r.update_character("alyosha", "story_points", 3)
    r.update_character("alyosha", "paid_this_scene", ["Curse"])
    r.spend_charges("alyosha", 1, "set on the character sheet")
    r.restore_charges("alyosha", 1, "set on the character sheet")
    return r


def _sheet_harha_session() -> Tracker:
    h = demo.demo_harhapolku(seed=5)
    h.update_character("lena", "backgrounds", [{"name": "Smith", "tier": "plain"},
                                               {"name": "Old blood", "tier": "significant_special"}])
    h.update_character("lena", "edges", [{"name": "Cold head", "used": False}, {"name": "Lucky", "used": False}])
    edges = [dict(e) for e in records.harha(h.characters["lena"])["edges"]]
    edges[1]["used"] = True
    h.update_character("lena", "edges", edges, edge=1)
    edges = [dict(e) for e in records.harha(h.characters["lena"])["edges"]]
    edges[1]["used"] = False
    h.update_character("lena", "edges", edges, edge=1)
    h.update_character("lena", "edges", [])
    h.update_character("lena", "rolled_this_scene", ["Smith"])
    return h


SHEETS = (_sheet_session, _sheet_raja_session, _sheet_harha_session)


SHEET_KINDS = {"character.field", "character.ability_gained", "character.ability_changed", "character.ability_lost",
               "character.edges", "character.edge_used", "character.backgrounds", "gear.weapon_added",
               "gear.weapon_changed", "gear.weapon_dropped", "gear.armour"}


def test_sheet_and_gear_edits_are_facts_told_as_the_tracker_wrote_them() -> None:
    i18n.set_language("en")
    events = [ev for make in SHEETS for ev in make().events if ev.get("fact", {}).get("id") in SHEET_KINDS]
    assert {str(ev["fact"]["id"]) for ev in events} == SHEET_KINDS
    texts = [ev["text"] for ev in events]
    assert "Kaneda: kind → NPC" in texts and "Kaneda: secret → yes" in texts
    assert "Kaneda Jr gains Ares Predator IV 5P AP −1 (Pistols, ranged)" in texts  # the name changed first
    assert "Kaneda Jr now carries Katana 7P AP −1 (Blades, melee)" in texts
    assert "Template Ganger: armour ballistic 2 / impact 2" in texts
    assert "Alyosha gains the ability Hex (2 charges per use)" in texts
    assert "Alyosha: ability Hex is now Curse (1 charge per scene)" in texts
    assert "Lena: backgrounds → Smith (background), Old blood (significant special)" in texts
    assert "Lena: edge 'Lucky' used" in texts and "Lena: edge 'Lucky' available again" in texts
    assert [telling.event_text(ev) for ev in events] == texts
    i18n.set_language("fi")
    try:
        told = {ev["text"]: telling.event_text(ev) for ev in events}
        left = [line for ev in events
                if re.search(r"\b(gains|loses|drops|carries|armour|ballistic|impact|ability|edges?|used|available|"
                             r"backgrounds?|kind|ranged|melee|thrown|charges?|per|use|scene|always|Template|now|"
                             r"player|secret|yes|notes|skills|attributes|story_points|general|significant|special|"
                             r"body|agility)\b",
                             line := telling.event_text({**ev, "fact": _typed_words_hidden(dict(ev["fact"]))}))]
    finally:
        i18n.set_language("en")
    assert not left, left
    assert told["Kaneda: kind → NPC"] == "Kaneda: laji → SH"
    assert told["Kaneda Jr now carries Katana 7P AP −1 (Blades, melee)"] == \
        "Kaneda Jr: nyt aseena Katana 7P AP −1 (Blades, lähitaisteluase)"
    assert told["Template Ganger: armour ballistic 2 / impact 2"] == \
        "Malli Ganger: luotipanssari 2 / iskupanssari 2"
    assert told["Alyosha gains the ability Hex (2 charges per use)"] == "Alyosha saa kyvyn Hex (2 latausta / käyttökerta)"
    assert told["Lena: edge 'Lucky' used"] == "Lena: terä 'Lucky' käytetty"
    assert told["Lena: backgrounds → Smith (background), Old blood (significant special)"] == \
        "Lena: taustat → Smith (tausta), Old blood (merkittävä erikoinen tausta)"


@pytest.fixture(scope="module")
def sessions() -> list[Event]:
    i18n.set_language("en")
    out: list[Event] = []
    for make in (_raja_session, _sr_session, _harha_session, _roster_session, *SHEETS):
        out += [ev for ev in make().events if ev.get("fact")]
    return out


def test_every_kind_of_event_tells_in_english_what_the_tracker_wrote(sessions: list[Event]) -> None:
    i18n.set_language("en")
    differ = [(ev["text"], telling.event_text(ev)) for ev in sessions if telling.event_text(ev) != _as_told(ev["text"])]
    differ += [(ev["roll"]["summary"], telling.roll_summary(ev)) for ev in sessions
               if "roll" in ev and telling.roll_summary(ev) != _as_told(ev["roll"]["summary"])]
    assert not differ, differ[:5]
    assert {"character.joins", "character.leaves", "character.health", "raja.wound", "raja.wound_set",
            "raja.charges_spent", "raja.charges_regained", "raja.ability_used", "raja.story_point_spent",
            "raja.story_point_awarded", "sr.edge_spent", "sr.monitor", "harha.edge_used", "reset.scene_costs",
            "reset.backgrounds", "reset.edge", "reset.edges", "reset.initiative", "reset.story_points",
            "structure.scene", "structure.session", "structure.story", "dice.committed", "dice.revealed", "setting",
            "challenge.added", "challenge.removed", "challenge.moved", "challenge.started",
            "challenge.resolved", "initiative.order", "combat.acts", "combat.holds", "combat.steps_in",
            "combat.ends", "raja.ability_paid", "seat.withdrawn", "harm.applied", "template.saved",
            "template.removed", "group.joins", "group.initiative", "character.fallen_leave", "character.copied",
            "pool.saved", "pool.removed", "sr.damage", "effect.added", "effect.removed", "effect.worn_off",
            "effect.counting", "harha.narration_roll", "harha.narration_open", "harha.narration_step", "seat.ask_harha",
            "seat.ask_raja",
            "seat.ask_sr"} <= _kinds(sessions)
    reasons = {ev["fact"].get("why") for ev in sessions if ev["fact"]["id"] == "sr.edge_spent"}
    assert {None, "long_shot", "edge_before", "negate_glitch", "edge_after"} <= reasons


def test_the_wound_care_words_are_the_rules(sessions: list[Event]) -> None:
    from polku.rules.system import RAJA_WOUND_CARE

    assert telling.WOUND_CARE == RAJA_WOUND_CARE


CODES = {"id", "kind", "track", "per", "why", "winner", "glitch_kind", "a_glitch", "b_glitch", "variant", "tie_action",
         "care", "before", "after", "initiative", "letter", "state", "unit", "field", "tier", "damage", "ap"}
"""A fact's values that are codes (or R9's own wound levels), not words the GM typed."""


def _typed_words_hidden(fact: dict[str, Any]) -> dict[str, Any]:
    """The fact with every text the GM typed (names, titles, reasons…) as ``«»``: what is left is Polku's words."""
    codes = CODES - {"before", "after"} if fact["id"] == "setting" else CODES  # a setting's values as --set takes them

    def hide(key: str, value: Any) -> Any:
        if isinstance(value, str) and key not in codes:
            return "«»"
        if isinstance(value, list):
            return [hide(key, v) for v in value]
        if isinstance(value, dict):
            return {k: hide(k, v) for k, v in value.items()}
        return value
    return {k: hide(k, v) for k, v in fact.items()}


def test_every_kind_of_event_in_finnish_has_no_english_left(sessions: list[Event], rolls: list[Event]) -> None:
    i18n.set_language("fi")
    try:
        left = []
        for ev in sessions + rolls:
            line = telling.event_text({**ev, "fact": _typed_words_hidden(dict(ev["fact"]))})
            if ENGLISH_WORDS.search(line) or re.search(r"\b(joins|leaves|spends|uses|Scene|Session|Story|begins|"
                                                       r"Challenge|added|started|resolved|Setting|secret|"
                                                       r"refreshed|available|again|reset|cleared|regains|"
                                                       r"awarded|physical|stun|boxes|left|acts|turn|pass|order|initiative|holds|nobody|rolls|takes|"
                                                       r"narration|wears|off|removed)\b", line):
                left.append(line)
        assert not left, left[:8]
    finally:
        i18n.set_language("en")


def test_the_facts_survive_the_session_file_and_its_checks(tmp_path, sessions: list[Event], rolls: list[Event]) -> None:
    """Written and read back with every check of a loaded file (model.validate_event, the integrity check of
    each key's type wherever it appears): each fact as it was, told the same."""
    from polku.session import store
    from polku.session.files import document, load_tracker

    for make in (_raja_session, _sr_session, _harha_session, _roster_session, *SHEETS, _sr_rolls, _raja_rolls,
                 _harha_rolls):
        t = make()
        path = tmp_path / f"{make.__name__}.toml"
        store.write_full(path, document(t.state, t.events, t.last_seq()))
        loaded, problems = load_tracker(path)
        assert not problems, problems
        facts = [ev.get("fact") for ev in t.events]
        assert [ev.get("fact") for ev in loaded.events] == facts
        assert [telling.event_text(ev) for ev in loaded.events] == [telling.event_text(ev) for ev in t.events]


def test_a_challenges_outcome_is_told_from_the_deciding_rolls_fact() -> None:
    """The challenge pane's outcome: in English the words the file keeps, in Finnish the rule texts'; the players'
    view has the outcome they may see as a fact (a hidden threshold's without it, the GM's roll as the GM's)."""
    from polku.session.players.public import public_view

    i18n.set_language("en")
    trackers = [_sr_rolls(), _raja_rolls(), _harha_rolls(), _raja_session(), demo.demo_varjojuoksu()]
    resolved = [c for t in trackers for c in t.state["challenges"] if c["status"] == "resolved"]
    assert len(resolved) >= 5 and all("outcome_fact" in c for c in resolved if c["outcome"] != "the door holds")
    assert [telling.challenge_outcome(c) for c in resolved] == [_as_told(c["outcome"]) for c in resolved]
    t = demo.demo_varjojuoksu(seed=5)
    hidden = t.add_challenge("Spot the ambush", ["kaneda"])["id"]
    t.rolls.roll_sr(SRSide("Kaneda", ["kaneda"], dice=5), threshold=3, hidden=True, challenge=hidden,
                    faces=[5, 6, 2, 3, 1])
    mine = t.add_challenge("The GM's own", ["kaneda"])["id"]
    with t.gm_only():
        t.rolls.roll_sr(SRSide("Kaneda", ["kaneda"], dice=3), threshold=1, challenge=mine, faces=[5, 2, 3])
    public = {c["id"]: c for c in public_view(t).state["challenges"]}
    assert "threshold" not in public[hidden]["outcome_fact"]
    assert telling.challenge_outcome(public[hidden]) == public[hidden]["outcome"] == \
        "2 hits, threshold hidden by the GM"
    assert telling.challenge_outcome(public[mine]) == public[mine]["outcome"] == "decided by the GM's roll"
    i18n.set_language("fi")
    try:
        assert telling.challenge_outcome(public[hidden]) == "2 osumaa, pelinjohtaja piilottaa tavoitteen"
        assert telling.challenge_outcome(t.challenge(hidden)) == "2 osumaa, epäonnistui"
        assert telling.challenge_outcome(public[mine]) == "ratkaistu pelinjohtajan heitolla"
    finally:
        i18n.set_language("en")


def test_the_players_copy_of_a_hidden_threshold_roll_has_no_steps_either() -> None:
    """The steps say what the lines say: where the players' file leaves out the lines (a hidden threshold), it
    leaves out the steps too."""
    from polku.session.players.public import public_view

    t = demo.demo_varjojuoksu(seed=5)
    t.rolls.roll_sr(SRSide("Kaneda", ["kaneda"], dice=3), threshold=3, hidden=True, faces=[5, 2, 3])
    gm = t.events[-1]["roll"]
    assert any(s.get("id") == "sr.threshold_kept" and s["threshold"] == 3 for s in gm["steps"])
    pub = public_view(t).events[-1]["roll"]
    assert pub["explain"] == [] and pub["steps"] == []


def test_a_varjojuoksu_seat_request_is_told_from_its_pool_and_never_holds_a_hidden_threshold() -> None:
    from polku.session.players import seats
    from polku.session.rolls import SRPool

    t = demo.demo_varjojuoksu(seed=5)
    shown = seats.ask_sr(t, "kaneda", SRPool(skill="Pistols", attribute="agility"), threshold=2)
    hidden = seats.ask_sr(t, "kaneda", SRPool(skill="Pistols", attribute="agility"), threshold=4, hidden=True)
    assert telling.event_text(shown) == shown["text"] == ("The GM asks Kaneda to roll: Pistols 4 + Agility 5 − 1 (wounds) = 8 dice, "
                                                                     "threshold 2")
    assert telling.event_text(hidden) == hidden["text"]
    assert "threshold" not in hidden["fact"] and hidden["fact"]["hidden_threshold"] is True
    i18n.set_language("fi")
    try:
        assert telling.event_text(shown) == ("Pelinjohtaja pyytää hahmoa Kaneda heittämään: Pistols 4 + Ketteryys 5 − 1 "
                                             "(haavat) = 8 noppaa, tavoite 2")
        assert telling.event_text(hidden).endswith("pelinjohtaja piilottaa tavoitteen")
    finally:
        i18n.set_language("en")


def test_the_command_lines_roll_in_the_users_language_and_its_json_stays_english(capsys) -> None:
    """polku resolve/roll: a Finnish user reads the headline and the explanation in Finnish; English (what scripts
    parse) and --json are the same words in either language."""
    import json

    from polku.cli import main

    def run(*argv: str) -> str:
        main(list(argv))
        return capsys.readouterr().out

    english = run("resolve", "shadowrun", "5,6,1,1,2", "--threshold", "2")
    assert english.splitlines()[:3] == ["Shadowrun: 2 hits, threshold 2: success, 0 net hits", "  pool: 5",
                                        "  dice: 5,6,1,1,2"]
    as_json = run("resolve", "shadowrun", "5,6,1,1,2", "--threshold", "2", "--json")
    i18n.set_language("fi")
    try:
        finnish = run("resolve", "shadowrun", "5,6,1,1,2", "--threshold", "2")
        raja = run("resolve", "rajapolku", "10,8,7", "6,5")
        assert json.loads(run("resolve", "shadowrun", "5,6,1,1,2", "--threshold", "2", "--json")) == json.loads(as_json)
    finally:
        i18n.set_language("en")
    assert finnish.splitlines()[:3] == ["Varjojuoksu: 2 osumaa, tavoite 2: onnistui, 0 netto-osumaa",
                                        "  noppakasa: 5", "  nopat: 5,6,1,1,2"]
    assert raja.splitlines()[0] == "Rajapolku: A voittaa, 3 astetta" and "  sija 1: 10 > 6 → A" in raja.splitlines()
    assert not ENGLISH_WORDS.search(re.sub(r"\b[AB]\b", "", finnish + raja))


@pytest.mark.parametrize("bad", [float("inf"), float("-inf"), float("nan"), "many", [3]])
def test_a_facts_number_that_is_no_number_is_shown_as_stored(rolls: list[Event], bad: object) -> None:
    """A hand-edited file whose fact holds ``inf`` (TOML has it), ``nan``, text or a list where a number was:
    the line is the stored one, never a crash (``int(inf)`` raised OverflowError, which no caller caught)."""
    changed = 0
    for ev in rolls:
        fact = ev.get("fact")
        if not isinstance(fact, dict):
            continue
        for key, value in fact.items():
            if isinstance(value, int) and not isinstance(value, bool):
                broken: Any = {**ev, "fact": {**fact, key: bad}}
                assert isinstance(telling.event_text(broken), str)
                assert isinstance(telling.roll_summary(broken), str)
                changed += 1
    assert changed > 20


def test_an_undo_and_a_redo_line_read_in_the_readers_language() -> None:
    """The main screen's notice and the dice log's line of an undo: Finnish for a Finnish GM, the words the
    tracker wrote in English, the undone command told from its own fact (a note as the GM wrote it)."""
    t = demo.demo_varjojuoksu()
    t.spend_edge("kaneda", "push")
    undone = t.undo()
    redone = t.redo()
    t.note("the Johnson calls")
    note_undone = t.undo()
    assert [telling.event_text(e) for e in (undone, redone, note_undone)] == [
        str(undone["text"]), str(redone["text"]), "Undid: the Johnson calls"]
    i18n.set_language("fi")
    try:
        assert telling.event_text(undone) == "Peruttu: Kaneda käyttää Edgeä: push (2/3 jäljellä)"
        assert telling.event_text(redone) == "Tehty uudelleen: Kaneda käyttää Edgeä: push (2/3 jäljellä)"
        assert telling.event_text(note_undone) == "Peruttu: the Johnson calls"
    finally:
        i18n.set_language("en")
