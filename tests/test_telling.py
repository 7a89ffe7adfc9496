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
from polku.session import demo, telling
from polku.session.model import Event
from polku.session.rolls import HarhaSide, RajaSide, SRSide
from polku.session.tracker import Tracker

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
                             "harha.contest", "harha.opposed_difficult", "harha.difficult"}


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


def test_a_fact_a_teller_cannot_read_falls_back_to_the_stored_words() -> None:
    broken: dict[str, Any] = {"seq": 1, "kind": "roll", "text": "Kaneda: 3 hits",
                              "roll": {"test": "shadowrun", "summary": "3 hits"},
                              "fact": {"id": "sr.success", "label": "Kaneda", "hits": "three"}}
    assert telling.event_text(broken) == "Kaneda: 3 hits"
    assert telling.stored_only(broken)
