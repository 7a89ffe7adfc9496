"""A player's own rolls from a seat (session layer): what is open to a character now, refused with the
reason when not, and applied as the GM's own command marked with the seat (issue 27)."""

from __future__ import annotations

import json
from typing import cast

import pytest

from polku.rules import shadowrun as sr
from polku.session import demo
from polku.session.players import seat_rolls, seats
from polku.session.players.players_file import players_text
from polku.session.table.gear import Weapon
from polku.session.tracker import Tracker

PREDATOR = Weapon("Ares Predator", 5, "physical", sr.parse_ap(-1), "Pistols", "ranged")


def table(acting: str = "kaneda") -> Tracker:
    """The Varjojuoksu demo's fight (Nyx 11, Kaneda 10, Ganger 7) with Kaneda armed, ``acting`` acting."""
    t = demo.demo_varjojuoksu()
    t.roster.set_weapon("kaneda", None, PREDATOR)
    while t.combat.acting() != acting:
        t.combat.next()
    return t


_ids = iter(range(1, 10**6))


def taken(cid: str, kind: str = "own", **fields) -> seats.Taken:
    rid = f"{next(_ids):016x}"
    # any fields, well-formed or not: cast, as the seats read a request from a file
    return seats.Taken(cid, rid, cast(seats.SeatRequest, {"v": 1, "id": rid, "seat": cid, "kind": kind, "at": 0, **fields}))


def own(t: Tracker, cid: str, test: str) -> list[seat_rolls.OwnRoll]:
    return [r for r in seat_rolls.own_rolls(t, cid) if r.test == test]


# ---------------------------------------------------------------------------
# a success test from a skill or a saved pool


def test_a_seat_rolls_a_success_test_with_a_skill_as_the_gms_roll_marked_with_the_seat_and_undoable():
    t = table()
    pistols = next(r for r in own(t, "kaneda", "sr-success") if r.key == "skill:Pistols")
    assert pistols.allowed and pistols.label == "Pistols + Agility: 8 dice"
    before = len(t.events)
    ans = seat_rolls.answer(t, taken("kaneda", test="sr-success", key="skill:Pistols", faces=[5, 6, 1, 2, 3, 3, 4, 2]))
    assert ans["ok"] and ans["text"] == "Kaneda rolls (the dice are in the log)"
    ev = t.event_by_seq(ans["roll"])
    assert ev["seat"] == "kaneda" and ev["roll"]["test"] == "shadowrun" and ev["roll"]["outcome"]["hits"] == 2
    assert [d["face"] for d in ev["roll"]["sides"][0]["dice"]] == [5, 6, 1, 2, 3, 3, 4, 2]
    assert any(a["name"] == "edge_after" for a in ans["actions"]), "the follow-ups of the seat's own roll"
    t.undo()
    assert t.is_undone(ev["seq"]) and len([e for e in t.events[before:] if e["kind"] == "roll"]) == 1


def test_a_saved_pool_is_a_seats_own_roll_with_its_name():
    t = table()
    t.roster.save_pool("kaneda", {"name": "Quiet shot", "mode": "attr+attr", "skill": "", "attribute": "agility",
                                  "second": "intuition", "count": 0})
    quiet = next(r for r in own(t, "kaneda", "sr-success") if r.key == "pool:Quiet shot")
    assert quiet.allowed and quiet.label.startswith("Quiet shot: ")
    ans = seat_rolls.answer(t, taken("kaneda", test="sr-success", key="pool:Quiet shot"))
    assert ans["ok"] and t.event_by_seq(ans["roll"])["seat"] == "kaneda"


def test_a_roll_the_character_may_not_make_is_refused_with_the_reason_and_nothing_changes():
    t = table(acting="nyx")
    n = len(t.events)
    # not Kaneda's turn: the attack is listed with its reason, and refused with it
    attack = own(t, "kaneda", "sr-attack")
    assert [r.key for r in attack] == ["nyx", "ganger"] and not attack[0].allowed
    assert attack[0].reason == "not your turn: Nyx acts (S12)"
    ans = seat_rolls.answer(t, taken("kaneda", test="sr-attack", key="ganger"))
    assert ans == {"v": 1, "id": ans["id"], "ok": False, "text": "not your turn: Nyx acts (S12)",
                   "words": ["not your turn: {name} acts (S12)", {"name": "Nyx"}]}, "the words: the seat's language"
    # a roll not open at all, a skill the character lacks, Edge where there is none left
    for fields, why in (({"test": "sr-resist", "key": "3"}, "that roll is not open to you now"),
                        ({"test": "sr-success", "key": "skill:Hacking"}, "that roll is not open to you now"),
                        ({"test": "sr-initiative", "key": ""}, "that roll is not open to you now"),
                        ({"test": "spell", "key": ""}, "a seat cannot roll that")):
        assert seat_rolls.answer(t, taken("kaneda", **fields))["text"] == why
    t.update_character("kaneda", "edge", 0)
    ans = seat_rolls.answer(t, taken("kaneda", test="sr-success", key="skill:Pistols", edge_before=True))
    assert ans["text"] == "Edge before the roll is not open to you on this roll (S7)"
    assert len(t.events) == n + 1  # only the GM's Edge change above


def test_a_secret_character_is_never_a_target_nor_named_in_a_refusal():
    t = table()
    t.add_character("Shade", kind="npc", secret=True, attributes=dict(t.character("ganger")["attributes"]))
    assert "shade" in t.characters
    assert "shade" not in [r.key for r in own(t, "kaneda", "sr-attack")]
    ans = seat_rolls.answer(t, taken("kaneda", test="sr-attack", key="shade"))
    assert ans["ok"] is False and "Shade" not in ans["text"]
    assert seat_rolls.answer(t, taken("shade", test="sr-success", key="skill:Clubs"))["text"] == \
        "no character has a seat in this folder"


# ---------------------------------------------------------------------------
# an attack, the defence, the damage resistance


def test_an_attack_at_a_player_character_waits_for_their_seat_to_defend_then_one_opposed_roll():
    t = table()
    ans = seat_rolls.answer(t, taken("kaneda", test="sr-attack", key="nyx", faces=[6, 6, 5, 1, 2, 3, 4, 2]))
    assert ans["ok"] and "roll" not in ans and ans["text"] == "Kaneda attacks: Nyx's seat defends"
    offer = seats.pending_offers(t, "nyx")[-1]
    assert offer.test == "sr-defend" and t.event_by_seq(offer.seq)["seat"] == "kaneda"
    # Another seat cannot roll Nyx's defence: the request is not open to it
    assert seats.pending_offers(t, "kaneda") == []
    assert seat_rolls.answer(t, taken("kaneda", "roll", offer=offer.seq))["ok"] is False
    ans = seat_rolls.answer(t, taken("nyx", "roll", offer=offer.seq, faces=[5, 1, 2]))
    assert ans["ok"] and ans["text"] == "Nyx defends (the dice are in the log)"
    ev = t.event_by_seq(ans["roll"])
    roll = ev["roll"]
    assert ev["seat"] == "nyx" and ev["offer"] == offer.seq and roll["test"] == "shadowrun-opposed"
    assert [[d["face"] for d in s["dice"]] for s in roll["sides"]] == [[6, 6, 5, 1, 2, 3, 4, 2], [5, 1, 2]]
    assert roll["outcome"]["winner"] == "a" and roll["outcome"]["net_hits"] == 2
    assert seats.pending_offers(t, "nyx") == [], "the defence closes the request"


def test_an_attack_at_an_npc_rolls_at_once_the_defence_with_the_programs_dice():
    t = table()
    ans = seat_rolls.answer(t, taken("kaneda", test="sr-attack", key="ganger", faces=[6, 6, 5, 1, 2, 3, 4, 2]))
    roll = t.event_by_seq(ans["roll"])["roll"]
    assert roll["test"] == "shadowrun-opposed" and roll["hand"] == ["a"] and roll["manual"]
    assert roll["draws"], "the defender's dice are the program's: verify checks them"
    assert [s["label"] for s in roll["sides"]] == ["Kaneda", "Ganger"]


def test_the_hit_character_resists_once_with_the_attackers_weapon():
    t = table()
    seat_rolls.answer(t, taken("kaneda", test="sr-attack", key="nyx", faces=[6, 6, 5, 1, 2, 3, 4, 2]))
    offer = seats.pending_offers(t, "nyx")[-1]
    hit = seat_rolls.answer(t, taken("nyx", "roll", offer=offer.seq, faces=[5, 1, 2]))["roll"]
    assert [r.key for r in own(t, "kaneda", "sr-resist")] == [], "only the one hit resists"
    resist = own(t, "nyx", "sr-resist")
    assert [r.key for r in resist] == [str(hit)]
    assert resist[0].label == "Resist Kaneda's Ares Predator (5P + 2 net): Body + ballistic armour, 2 dice"
    ans = seat_rolls.answer(t, taken("nyx", test="sr-resist", key=str(hit), faces=[5, 2]))
    ev = t.event_by_seq(ans["roll"])
    assert ev["seat"] == "nyx" and ev["roll"]["attack"] == hit
    assert t.character("nyx")["physical"] == 6  # 5 + 2 net = 7P, 1 hit resisted
    assert own(t, "nyx", "sr-resist") == [], "damage came from that attack: no second resistance"
    assert seat_rolls.answer(t, taken("nyx", test="sr-resist", key=str(hit)))["ok"] is False


# ---------------------------------------------------------------------------
# initiative


def test_a_seat_rolls_its_initiative_into_a_combat_turn_the_gm_began_without_it():
    t = demo.demo_varjojuoksu()
    t.combat.end()
    assert own(t, "kaneda", "sr-initiative") == [], "no fight: nothing to roll"
    t.rolls.roll_initiative([("ganger", 1)], faces=[1, 1, 1, 1, 1, 1])
    ini = own(t, "kaneda", "sr-initiative")
    assert len(ini) == 1 and ini[0].allowed and ini[0].label == "Initiative: Reaction + Intuition, 8 dice"
    ans = seat_rolls.answer(t, taken("kaneda", test="sr-initiative", key="", faces=[5, 6, 1, 1, 1, 1, 1, 1]))
    ev = t.event_by_seq(ans["roll"])
    assert ev["seat"] == "kaneda" and ev["roll"]["test"] == "initiative"
    assert [e["id"] for e in t.state["initiative"]] == ["kaneda", "ganger"]
    assert t.combat.acting() == "kaneda", "the higher score acts first: nobody had acted"
    assert own(t, "kaneda", "sr-initiative") == [], "rolled already"
    t.combat.next()
    nyx = own(t, "nyx", "sr-initiative")
    assert not nyx[0].allowed and nyx[0].reason.startswith("someone has acted in this combat turn")
    t.undo()
    t.undo()
    assert [e["id"] for e in t.state["initiative"]] == ["ganger"] and t.combat.acting() == "ganger"


# ---------------------------------------------------------------------------
# the setting and the players' file


def test_the_campaign_setting_says_whether_an_own_roll_waits_for_the_gm():
    t = table()
    req = taken("kaneda", test="sr-success", key="skill:Pistols").request
    assert not seat_rolls.needs_approval(t, req)
    t.set_setting("seats.own_rolls", "approve")
    assert seat_rolls.needs_approval(t, req)
    assert not seat_rolls.needs_approval(t, {**req, "kind": "roll"}), "the GM's requests apply at once"
    assert seat_rolls.check(t, "kaneda", req) == ""
    assert seat_rolls.check(t, "kaneda", {**req, "key": "skill:Hacking"}) == "that roll is not open to you now"


def test_the_players_file_lists_each_player_characters_own_rolls_and_no_npcs():
    t = table()
    t.add_character("Shade", kind="npc", secret=True, attributes=dict(t.character("ganger")["attributes"]))
    head = json.loads(players_text(t).split("\n", 1)[0])
    assert sorted(head["own"]) == ["kaneda", "nyx"]
    labels = [r["label"] for r in head["own"]["kaneda"]]
    assert "Attack Ganger (Pistols): 8 dice" in labels and not any("Shade" in x for x in labels)
    assert "Shade" not in json.dumps(head["own"])


@pytest.mark.parametrize("system", ["rajapolku", "harhapolku"])
def test_without_a_saved_pool_or_a_fight_the_other_systems_have_no_own_rolls(system):
    t = {"rajapolku": demo.demo_rajapolku, "harhapolku": demo.demo_harhapolku}[system]()
    assert all(seat_rolls.own_rolls(t, cid) == [] for cid in t.characters)


def test_the_roller_of_an_extended_test_rolls_each_next_interval_from_the_seat():
    from polku.session.rolls import SRPool

    t = table()
    hack = SRPool(skill="Hacking", attribute="logic")
    chal = t.add_challenge("Open the maglock")["id"]
    t.rolls.roll_sr_extended(t.rolls.sr_side("nyx", hack), chal, threshold=6, faces=[5, 1, 2, 2, 3, 4, 4, 3, 2, 2, 2],
                             pool=hack)
    ext = own(t, "nyx", "sr-extended")
    assert [(r.key, r.label, r.allowed) for r in ext] == [
        (chal, "Open the maglock: interval 2, 1/6 hits so far: 11 dice", True)]
    assert own(t, "kaneda", "sr-extended") == [], "only its roller rolls an extended test (S10)"
    ans = seat_rolls.answer(t, taken("nyx", test="sr-extended", key=chal, faces=[5, 5, 6, 6, 5, 1, 2, 2, 3, 3, 4]))
    ev = t.event_by_seq(ans["roll"])
    assert ev["seat"] == "nyx" and ev["roll"]["test"] == "shadowrun-extended"
    assert ev["roll"]["outcome"]["accumulated"] == 6 and ev["roll"]["outcome"]["done"]
    assert own(t, "nyx", "sr-extended") == [], "done: no next interval"
    assert seat_rolls.answer(t, taken("kaneda", test="sr-extended", key=chal))["ok"] is False


def test_a_harhapolku_seat_makes_a_difficult_action_with_a_saved_pool_then_an_edge_reroll():
    t = demo.demo_harhapolku()
    t.roster.save_pool("lena", {"name": "Slip the lock", "tiers": {"general": "Island girl", "plain": "Thief"}})
    rolls = seat_rolls.own_rolls(t, "lena")
    assert [(r.test, r.key, r.label) for r in rolls] == [
        ("harha-difficult", "pool:Slip the lock", "Slip the lock: a difficult action, 3 dice (H8)")]
    ans = seat_rolls.answer(t, taken("lena", test="harha-difficult", key="pool:Slip the lock", faces=[2, 3, 4]))
    ev = t.event_by_seq(ans["roll"])
    assert ev["seat"] == "lena" and ev["roll"]["outcome"]["success"] is False
    reroll = next(a for a in ans["actions"] if a["name"] == "edge_reroll")
    assert reroll["allowed"] and reroll["edge"] == "Cold head"
    again = seats.apply_request(t, "lena", {"v": 1, "id": "00000000000000ff", "seat": "lena", "kind": "action",
                                            "roll": ev["seq"], "action": "edge_reroll", "edge": "Cold head",
                                            "faces": [8, 3, 4]})
    assert again["ok"] and t.event_by_seq(again["roll"])["seat"] == "lena"
    assert seat_rolls.own_rolls(t, "tuomas") == [], "no saved pool: nothing of his own to roll"


def test_the_gm_attacks_a_player_character_and_their_seat_defends_against_that_roll():
    from polku.session.rolls import SRPool

    t = table(acting="nyx")
    ev = seat_rolls.ask_defence(t, "kaneda", "ganger", SRPool(skill="Clubs", attribute="strength"), label="Ganger")
    assert ev["text"] == "Ganger attacks Kaneda (7 dice): Kaneda defends" and "seat" not in ev
    [offer] = seats.pending_offers(t, "kaneda")
    assert offer.test == "sr-defend" and offer.public()["opposition"]["attack_kind"] == "melee"
    ans = seat_rolls.answer(t, taken("kaneda", "roll", offer=offer.seq, faces=[5, 6, 1]))
    roll = t.event_by_seq(ans["roll"])["roll"]
    assert roll["hand"] == ["b"], "the defender's faces typed, the GM's side the program's"
    assert [s["label"] for s in roll["sides"]] == ["Ganger", "Kaneda"]
    # the GM's own dice count against a seat, and what cannot be asked
    ev = seat_rolls.ask_defence(t, "nyx", None, SRPool(mode="dice", dice=9), label="Sniper")
    assert ev["text"] == "Sniper attacks Nyx (9 dice): Nyx defends"
    t.undo()  # the Sniper's attack taken back
    assert [o.cid for o in seats.pending_offers(t)] == []
    t.add_character("Shade", kind="npc", secret=True, attributes=dict(t.character("ganger")["attributes"]))
    with pytest.raises(seats.SeatError, match="the attacker is secret"):
        seat_rolls.ask_defence(t, "nyx", "shade", SRPool(mode="dice", dice=4))
    with pytest.raises(seats.SeatError, match="Shade is secret"):
        seat_rolls.ask_defence(t, "shade", "ganger", SRPool(mode="dice", dice=4))


def test_the_defender_may_add_edge_before_the_defence():
    t = table()
    seat_rolls.answer(t, taken("kaneda", test="sr-attack", key="nyx"))
    offer = seats.pending_offers(t, "nyx")[-1]
    [edge] = seat_rolls.offer_choices(t, offer)
    assert edge.name == "edge_before" and edge.allowed
    # Reaction 3 + Edge 4, the rule of six: 7 faces (no six, no wave)
    ans = seat_rolls.answer(t, taken("nyx", "roll", offer=offer.seq, edge_before=True, faces=[5, 5, 1, 2, 3, 4, 2]))
    assert ans["ok"] and t.character("nyx")["edge"] == 2, "one Edge spent (3 left before)"
    roll = t.event_by_seq(ans["roll"])["roll"]
    assert roll["outcome"]["b"]["hits"] == 2 and roll["outcome"]["b"]["edge_dice"] == 4
    seat_rolls.answer(t, taken("kaneda", test="sr-attack", key="nyx"))
    offer = seats.pending_offers(t, "nyx")[-1]
    t.update_character("nyx", "edge", 0)
    ans = seat_rolls.answer(t, taken("nyx", "roll", offer=offer.seq, edge_before=True))
    assert ans["text"] == "Edge before the roll is not open to you on this roll (S7)"


def test_a_hit_long_past_is_the_gms_to_apply_not_read_from_the_whole_log_at_each_save():
    t = table()
    seat_rolls.answer(t, taken("kaneda", test="sr-attack", key="nyx", faces=[6, 6, 5, 1, 2, 3, 4, 2]))
    offer = seats.pending_offers(t, "nyx")[-1]
    seat_rolls.answer(t, taken("nyx", "roll", offer=offer.seq, faces=[5, 1, 2]))
    for i in range(seat_rolls.HIT_LOOKBACK - 1):
        t.note(f"a long talk {i}")
    assert len(own(t, "nyx", "sr-resist")) == 1, "still among the newest events"
    t.note("and one more")
    assert own(t, "nyx", "sr-resist") == []


def test_polku_verify_checks_every_roll_a_seat_made_and_finds_nothing_wrong():
    """The seats' rolls are the GM's commands: verify recomputes each (the typed side of a mixed roll skipped)."""
    from polku.session.players.verify import verify

    t = table()
    seat_rolls.answer(t, taken("kaneda", test="sr-attack", key="ganger", faces=[6, 6, 5, 1, 2, 3, 4, 2]))
    seat_rolls.answer(t, taken("kaneda", test="sr-success", key="skill:Sneaking"))
    seat_rolls.answer(t, taken("kaneda", test="sr-attack", key="nyx"))
    offer = seats.pending_offers(t, "nyx")[-1]
    hit = seat_rolls.answer(t, taken("nyx", "roll", offer=offer.seq))
    if t.event_by_seq(hit["roll"])["roll"]["outcome"]["winner"] == "a":
        assert seat_rolls.answer(t, taken("nyx", test="sr-resist", key=str(hit["roll"])))["ok"]
    t.rolls.roll_initiative([("ganger", 1)])
    assert seat_rolls.answer(t, taken("kaneda", test="sr-initiative", key=""))["ok"]
    seated = [e for e in t.events if e.get("kind") == "roll" and e.get("seat")]
    assert len(seated) >= 5
    report = verify(t.events, t.state, t.undone)
    assert report.mismatches == []


def test_a_finnish_seat_words_the_published_rolls_in_finnish_and_the_log_stays_english():
    from polku import i18n

    t = table(acting="nyx")
    published = [seat_rolls.OwnRoll.from_public(r) for r in seat_rolls.published(t, frozenset())["kaneda"]]
    attack = next(r for r in published if r.key == "ganger")
    assert (attack.label, attack.reason) == ("Attack Ganger (Pistols): 8 dice", "not your turn: Nyx acts (S12)")
    i18n.set_language("fi")
    try:
        assert attack.told() == ("Hyökkää: Ganger (Pistols): 8 noppaa", "ei vuorosi: Nyx toimii (S12)")
    finally:
        i18n.set_language("en")
    assert attack.told() == (attack.label, attack.reason)


# ---------------------------------------------------------------------------
# Rajapolku: the challenge under way with a saved pool, a spirit combat's exchange (R1–R11)


def raja_table(opposition: tuple[str, ...] = ("the-pickpocket",)) -> tuple[Tracker, str]:
    """The Rajapolku demo with Alyosha's saved pool 'Chase' and a new challenge under way against ``opposition``."""
    t = demo.demo_rajapolku()
    t.roster.save_pool("alyosha", {"name": "Chase", "backgrounds": ["Runner", "Street-wise"], "abilities": []})
    c = t.add_challenge("Catch him again", ["alyosha"], list(opposition))["id"]
    t.start_challenge(c)
    return t, c


def test_a_rajapolku_seat_rolls_the_challenge_under_way_with_a_saved_pool_against_the_opposing_sheet():
    t, c = raja_table()
    [chase] = seat_rolls.own_rolls(t, "alyosha")
    # R1-R3: the action die and her two backgrounds against the Pickpocket's action die and his two backgrounds
    assert (chase.test, chase.key, chase.allowed) == ("raja-challenge", f"pool:Chase@{c}", True)
    assert chase.label == "Chase: 3 dice against The Pickpocket's 3 (Catch him again)"
    ans = seat_rolls.answer(t, taken("alyosha", test="raja-challenge", key=f"pool:Chase@{c}", faces=[7, 7, 3]))
    assert ans["ok"] and ans["text"] == "Alyosha rolls (the dice are in the log)"
    ev = t.event_by_seq(ans["roll"])
    roll = ev["roll"]
    assert ev["seat"] == "alyosha" and ev["challenge"] == c and roll["test"] == "rajapolku"
    assert [d["face"] for d in roll["sides"][0]["dice"]] == [7, 7, 3] and roll["hand"] == ["a"]
    assert [s["label"] for s in roll["sides"]] == ["Alyosha", "The Pickpocket"]
    assert [d["label"] for d in roll["sides"][1]["dice"]][1:] == ["Young and fast", "Street-wise"]
    assert roll["draws"], "the GM's side is the program's dice: verify checks them"
    t.undo()
    assert t.is_undone(ev["seq"]) and t.challenge(c)["status"] == "active"
    # A request for this challenge is not rolled into another one the GM started meanwhile (approve: it waited)
    t.start_challenge(t.add_challenge("Another", ["alyosha"], ["the-pickpocket"])["id"])
    assert seat_rolls.check(t, "alyosha", {"test": "raja-challenge", "key": f"pool:Chase@{c}"}) == \
        "that roll is not open to you now"


def test_a_rajapolku_own_roll_pays_the_saved_pools_ability_and_is_refused_without_the_charges():
    t, c = raja_table()
    t.roster.save_pool("alyosha", {"name": "Sight", "backgrounds": ["Street-wise"], "abilities": ["Second sight"]})
    sight = next(r for r in seat_rolls.own_rolls(t, "alyosha") if r.key == f"pool:Sight@{c}")
    assert sight.label == "Sight: 3 dice against The Pickpocket's 3 (Catch him again), charges −1 (R11)"
    ans = seat_rolls.answer(t, taken("alyosha", test="raja-challenge", key=f"pool:Sight@{c}", faces=[2, 9, 4]))
    assert ans["ok"] and t.character("alyosha")["charges"] == 4, "R11: 1 charge for the scene"
    die = t.event_by_seq(ans["roll"])["roll"]["sides"][0]["dice"][2]
    assert (die["source"], die["label"], die["face"]) == ("ability", "Second sight", 4)
    t.undo()
    t.update_character("alyosha", "charges", 0)
    sight = next(r for r in seat_rolls.own_rolls(t, "alyosha") if r.key == f"pool:Sight@{c}")
    assert not sight.allowed and sight.reason == "Alyosha has 0 charges; the pool's abilities cost 1 (R11)"
    n = len(t.events)
    ans = seat_rolls.answer(t, taken("alyosha", test="raja-challenge", key=f"pool:Sight@{c}"))
    assert ans["text"] == sight.reason and len(t.events) == n


def test_a_rajapolku_own_roll_the_gm_must_build_is_refused_with_the_reason_never_naming_a_secret():
    t, c = raja_table(("ghost-of-the-nurse",))
    [chase] = seat_rolls.own_rolls(t, "alyosha")
    assert not chase.allowed and chase.reason == "the GM rolls this challenge at the GM's screen (R3)"
    ans = seat_rolls.answer(t, taken("alyosha", test="raja-challenge", key="pool:Chase"))
    assert ans["ok"] is False and "Nurse" not in json.dumps(ans) and "Ghost" not in json.dumps(ans)
    assert "Ghost" not in json.dumps(seat_rolls.published(t, frozenset()))
    for opposition, why in (((), "the GM builds the opposing pool of this challenge (R3): the GM asks you to roll"),
                            (("igor-bondarenko",), "Igor Bondarenko is a player character: the GM asks you both to "
                                                   "roll (R5)"),
                            (("the-pickpocket", "igor-bondarenko"),
                             "several characters oppose you: the GM builds the opposing pool (R3)")):
        t, c = raja_table(opposition)
        assert seat_rolls.check(t, "alyosha", {"test": "raja-challenge", "key": "pool:Chase"}) == why
    t, c = raja_table()
    assert seat_rolls.check(t, "igor-bondarenko", {"test": "raja-challenge", "key": f"pool:Chase@{c}"}) == \
        "that roll is not open to you now", "a pool saved on another sheet"
    t.move_wound("alyosha", 5)  # Out of play (R9)
    [chase] = seat_rolls.own_rolls(t, "alyosha")
    assert chase.reason == "Alyosha is out of the fight (R9)"


def test_a_fighter_rolls_the_next_exchange_of_a_spirit_combat_the_gm_began():
    t = demo.demo_rajapolku()
    c = t.add_challenge("Spirit combat with the Pickpocket", ["alyosha"], ["the-pickpocket"])["id"]
    assert seat_rolls.own_rolls(t, "alyosha") == [], "no fight under way"
    # The GM begins it: each pays the entry charge (R11), Alyosha 5 -> 4, the Pickpocket 3 -> 2; a full tie
    first = t.rolls.roll_spirit("alyosha", "the-pickpocket", challenge=c, faces=([8, 5, 3, 1], [8, 5]))
    assert first["result"].winner == "a"
    [ex] = seat_rolls.own_rolls(t, "alyosha")
    assert (ex.test, ex.key, ex.allowed) == ("raja-spirit", c, True)
    loss = 5 - 1 - t.character("alyosha")["charges"]
    assert ex.label == f"Spirit combat with The Pickpocket, exchange 2: your {4 - loss} dice against " \
        f"{t.character('the-pickpocket')['charges']} (R11)"
    ans = seat_rolls.answer(t, taken("alyosha", test="raja-spirit", key=c, faces=[10, 9, 2, 1][:ex.dice()]))
    ev = t.event_by_seq(ans["roll"])
    assert ans["ok"] and ev["seat"] == "alyosha" and ev["roll"]["test"] == "spirit" and ev["roll"]["hand"] == ["a"]
    assert ev["roll"]["outcome"]["fight"]["exchanges"] == 2
    t.undo()
    assert seat_rolls.own_rolls(t, "alyosha")[0].label == ex.label


def test_a_spirit_combat_with_a_secret_opponent_is_the_gms_to_roll_and_never_names_it():
    t = demo.demo_rajapolku()
    t.rolls.roll_spirit("alyosha", "ghost-of-the-nurse", faces=([6, 5, 3, 1], [9, 8, 7, 4, 2]))
    [ex] = seat_rolls.own_rolls(t, "alyosha")
    assert not ex.allowed and ex.reason == "the GM rolls this spirit combat at the GM's screen (R11)"
    assert ex.label == "Spirit combat: the next exchange" and "Nurse" not in json.dumps(ex.public())
    ans = seat_rolls.answer(t, taken("alyosha", test="raja-spirit", key=ex.key))
    assert ans["ok"] is False and "Nurse" not in json.dumps(ans)


def test_polku_verify_finds_nothing_wrong_in_a_rajapolku_seats_rolls():
    from polku.session.players.verify import verify

    t, c = raja_table()
    assert seat_rolls.answer(t, taken("alyosha", test="raja-challenge", key=f"pool:Chase@{c}"))["ok"]
    assert seat_rolls.answer(t, taken("alyosha", test="raja-challenge", key=f"pool:Chase@{c}", faces=[1, 1, 1]))["ok"] \
        or t.challenge(c)["status"] == "resolved"
    s = t.add_challenge("Spirit combat", ["alyosha"], ["the-pickpocket"])["id"]
    t.rolls.roll_spirit("alyosha", "the-pickpocket", challenge=s)
    if seat_rolls.own_rolls(t, "alyosha")[-1].allowed:
        assert seat_rolls.answer(t, taken("alyosha", test="raja-spirit", key=s))["ok"]
    assert [e for e in t.events if e.get("kind") == "roll" and e.get("seat") == "alyosha"]
    assert verify(t.events, t.state, t.undone).mismatches == []


def test_answers_and_refusals_carry_their_words_and_a_finnish_seat_tells_them_in_finnish():
    """Every answer's line and refusal keeps its catalogue message and values (the log and the answer's text stay
    English); a seat tells them in its reader's language, the rules core's reasons quoted to it too."""
    from polku import i18n

    t = table(acting="nyx")
    rolled = seat_rolls.answer(t, taken("kaneda", test="sr-success", key="skill:Pistols", faces=[5, 6, 1, 2, 3, 3, 4, 2]))
    turn = seat_rolls.answer(t, taken("kaneda", test="sr-attack", key="ganger"))
    edge_after = next(a for a in rolled["actions"] if a["name"] == "edge_after")
    t.update_character("kaneda", "edge", 0)
    no_edge = seats.apply_request(t, "kaneda", {"v": 1, "id": "00000000000000c1", "seat": "kaneda", "kind": "action",
                                                "roll": rolled["roll"], "action": "edge_after"})
    broken = seats.refusal(seats.Taken("kaneda", "00000000000000c2", None,
                                       seats.reason_of(_parse_error(b'{"v": 1}', "kaneda", "00000000000000c2"))))
    assert (rolled["text"], turn["text"], no_edge["text"], edge_after["reason"]) == (
        "Kaneda rolls (the dice are in the log)", "not your turn: Nyx acts (S12)", "no Edge left this session (S12)",
        "1 Edge: +3 dice that follow the rule of six; the sixes on the table do not explode (S7)")
    i18n.set_language("fi")
    try:
        told = [i18n.tell(a.get("words"), a["text"]) for a in (rolled, turn, no_edge, broken)]
        assert told == ["Kaneda heittää (nopat ovat lokissa)", "ei vuorosi: Nyx toimii (S12)",
                        "Edgeä ei ole jäljellä tässä sessiossa (S12)", "tuntematon pyynnön laji"]
        assert i18n.tell(edge_after.get("words"), edge_after["reason"]) == (
            "1 Edge: +3 noppaa, joihin pätee kutosen sääntö; pöydällä jo olevat kutoset eivät räjähdä (S7)")
    finally:
        i18n.set_language("en")


def _parse_error(data: bytes, cid: str, rid: str) -> seats.SeatError:
    with pytest.raises(seats.SeatError) as got:
        seats.parse_request(data, cid, rid)
    return got.value
