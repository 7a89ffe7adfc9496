"""The three demo campaigns shipped in ``sessions/``: a living session per system.

``python -m polku.session.demo [FOLDER]`` writes them again (fixed seed and
clock, so the files are reproducible). Tests use the same builders as fixtures.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Callable

from .rolls import HarhaSide, RajaSide, SRSide
from .tracker import Tracker


def fixed_clock(start: str = "2026-11-28T18:00:00Z") -> Callable[[], str]:
    """A clock that advances one minute per event: reproducible timestamps."""
    import datetime as dt

    t0 = dt.datetime.fromisoformat(start.replace("Z", "+00:00"))
    n = [0]

    def clock() -> str:
        value = t0 + dt.timedelta(minutes=n[0])
        n[0] += 1
        return value.isoformat().replace("+00:00", "Z")

    return clock


def demo_rajapolku(clock: Callable[[], str] | None = None, seed: int | None = 7) -> Tracker:
    t = Tracker.new("rajapolku", "Helsinki 1936: Varjojen kaupunki", clock=clock or fixed_clock(), seed=seed)
    t.add_character("Alyosha", player="Anna", backgrounds=["Militia", "Runner", "Street-wise"],
                    abilities=[{"name": "Second sight", "cost": 1, "per": "scene"}])
    t.add_character("Igor Bondarenko", player="Ville", backgrounds=["Dock worker", "Boxer"],
                    abilities=[{"name": "Ape-man strength", "cost": 1, "per": "use"}])
    t.add_character("The Pickpocket", kind="npc", backgrounds=["Young and fast", "Street-wise"],
                    charges=3, charges_max=3)
    t.add_character("Ghost of the Nurse", kind="npc", charges=6, charges_max=6, secret=True,
                    notes="Haunts the old hospital; knows who poisoned her.")
    t.new_scene("The market at dawn")
    c1 = t.add_challenge("Catch the pickpocket", ["alyosha"], ["the-pickpocket"])
    t.start_challenge(c1["id"])
    t.rolls.roll_raja(RajaSide("Alyosha", ["alyosha"], backgrounds=["Runner", "Street-wise"], helping=["running shoes"]),
                RajaSide("The Pickpocket", ["the-pickpocket"], backgrounds=["Young and fast", "Street-wise"]),
                challenge=c1["id"])
    c2 = t.add_challenge("Force the warehouse door", ["igor-bondarenko"])
    t.rolls.roll_raja(RajaSide("Igor Bondarenko", ["igor-bondarenko"], backgrounds=["Dock worker"],
                         abilities=["Ape-man strength"]),
                RajaSide("GM: rusted iron door", [], backgrounds=["Heavy", "Locked"]), challenge=c2["id"],
                faces=([6, 9, 10], [7, 5, 2]))
    t.move_wound("igor-bondarenko", 2)
    t.set_health("igor-bondarenko", "cut forearm from the door's iron")
    t.spend_story_point("alyosha", "a patrol hears the noise and scares the guards off")
    t.new_scene("The old hospital")
    t.add_challenge("Spirit combat with the Nurse", ["alyosha"], ["ghost-of-the-nurse"])
    t.add_challenge("Find the poison ledger", ["alyosha", "igor-bondarenko"])
    return t


def demo_harhapolku(clock: Callable[[], str] | None = None, seed: int | None = 11) -> Tracker:
    t = Tracker.new("harhapolku", "Unien saari", clock=clock or fixed_clock(), seed=seed)
    t.add_character("Lena", player="Maija", backgrounds=[
        {"name": "Island girl", "tier": "general"}, {"name": "Thief", "tier": "plain"},
        {"name": "Lighthouse keeper's daughter", "tier": "significant"},
        {"name": "Dream-walker", "tier": "special"}],
        edges=[{"name": "Cold head", "used": False}, {"name": "Quick fingers", "used": False}])
    t.add_character("Tuomas", player="Jari", backgrounds=[
        {"name": "Fisherman", "tier": "general"}, {"name": "Brawler", "tier": "plain"},
        {"name": "Sea-touched", "tier": "special"}],
        edges=[{"name": "Iron grip", "used": False}])
    t.add_character("The Ferryman", kind="npc", backgrounds=[
        {"name": "Old as the sea", "tier": "significant_special"}, {"name": "Boatman", "tier": "plain"}])
    t.new_scene("The lighthouse at night")
    c1 = t.add_challenge("Lena picks the keeper's lock", ["lena"], ["tuomas"])
    t.start_challenge(c1["id"])
    r = t.rolls.roll_harha(HarhaSide("Lena", ["lena"], general="Island girl", background="Thief"),
                     HarhaSide("Tuomas", ["tuomas"], general="Fisherman", background="Brawler"),
                     challenge=c1["id"], faces=([3, 2, 2], [7, 4, 4]))
    t.rolls.harha_edge_reroll(r["event"], "a", "lena", "Quick fingers", faces=[8, 6, 5])
    t.rolls.roll_harha_difficult(HarhaSide("Tuomas", ["tuomas"], general="Fisherman", special="Sea-touched"),
                           challenge=None)
    t.rolls.narration_roll_background("Lena", "Thief", 8, faces=[6])
    t.rolls.narration_roll_background("Lena", "Dream-walker", 10, faces=[7])
    t.rolls.narration_roll_background("Tuomas", "Brawler", 8, faces=[5])
    t.rolls.narration_roll_background("Tuomas", "Fisherman", 8, faces=[4])
    t.rolls.narration_roll_background("Tuomas", "Sea-touched", 10, faces=[9])
    hand = t.rolls.narration().hand("Lena")
    t.rolls.narration_open("Lena", list(hand))
    t.add_challenge("Tuomas questions Lena's dream-sight", ["lena"], ["tuomas"])
    return t


def demo_varjojuoksu(clock: Callable[[], str] | None = None, seed: int | None = 23) -> Tracker:
    t = Tracker.new("shadowrun", "Neo-Helsinki 2072: Kylmä sade", clock=clock or fixed_clock(), seed=seed)
    t.add_character("Kaneda", player="Olli", attributes={
        "body": 4, "agility": 5, "reaction": 4, "strength": 3, "charisma": 2, "intuition": 4, "logic": 3,
        "willpower": 3}, skills={"Pistols": 4, "Pilot Ground Craft": 3, "Sneaking": 3}, edge_rating=3, edge=3)
    t.add_character("Nyx", player="Sanna", attributes={
        "body": 2, "agility": 3, "reaction": 3, "strength": 2, "charisma": 3, "intuition": 5, "logic": 6,
        "willpower": 4}, skills={"Hacking": 5, "Computer": 4, "Electronic Warfare": 3}, edge_rating=4, edge=4)
    t.add_character("Ganger", kind="npc", attributes={
        "body": 4, "agility": 3, "reaction": 3, "strength": 4, "charisma": 2, "intuition": 3, "logic": 2,
        "willpower": 2}, skills={"Clubs": 3, "Pistols": 2}, edge_rating=1, edge=1)
    t.new_scene("Getaway on the icy ring road")
    c1 = t.add_challenge("Lose the pursuers", ["kaneda"], [])
    t.start_challenge(c1["id"])
    t.rolls.roll_sr(SRSide("Kaneda", ["kaneda"], skill_name="Pilot Ground Craft", skill=3, attribute_name="Reaction",
                     attribute=4, modifiers=[("snowy road", -2)]), threshold=2, challenge=c1["id"])
    t.rolls.roll_initiative([("kaneda", 1), ("nyx", 1), ("ganger", 1)])
    c2 = t.add_challenge("Shoot-out at the garage", ["kaneda"], ["ganger"])
    t.rolls.roll_sr_opposed(SRSide("Kaneda", ["kaneda"], skill_name="Pistols", skill=4, attribute_name="Agility",
                             attribute=5),
                      SRSide("Ganger", ["ganger"], attribute_name="Reaction", attribute=3, dice=3),
                      challenge=c2["id"])
    t.set_condition("kaneda", "physical", 4)
    c3 = t.add_challenge("Crack the garage host", ["nyx"])
    t.rolls.roll_sr_extended(SRSide("Nyx", ["nyx"], skill_name="Hacking", skill=5, attribute_name="Logic", attribute=6),
                       c3["id"], threshold=10)
    t.rolls.roll_sr(SRSide("Nyx", ["nyx"], skill_name="Hacking", skill=5, attribute_name="Logic", attribute=6,
                     edge_before=True), threshold=3)
    t.add_challenge("Sneak past the Lone Star patrol", ["kaneda", "nyx"])
    return t


DEMOS = {
    "rajapolku": demo_rajapolku,
    "harhapolku": demo_harhapolku,
    "varjojuoksu": demo_varjojuoksu,
}


def write_demos(folder: Path) -> list[Path]:
    from . import store
    from .files import SessionFile, document

    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for name, build in DEMOS.items():
        t = build()
        path = folder / f"demo-{name}.toml"
        doc = document(t.state, t.events, t.last_seq())
        doc["saved"] = "2026-11-28T22:00:00Z"
        store.write_full(path, doc)
        SessionFile(path)
        out.append(path)
    return out


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("sessions")
    for p in write_demos(target):
        print(p)
