"""A whole fight run by keys at 80x24 (S12 turns, effects, holding, wounds), saved and reopened;
and a Rajapolku scene of three challenges walked with the same "next" key.

The four gangers come from a template by keys (+), and the damage from an opposed attack (D).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import OptionList

from app_fixtures import isolated, make_app, option_texts, panes, pilot_test, press, settle, typed, until, until_quiet
from polku.session import demo, files, records
from polku.session.tracker import Tracker
from polku.tui.app import PolkuApp
from polku.tui.screens.main import MainScreen
from polku.tui.screens.prompts import ChoicePrompt, FacesPrompt, TextPrompt
from polku.tui.screens.roll import InitiativeScreen

SIZE = (80, 24)
pytestmark = pytest.mark.usefixtures(isolated.__name__)
GANGERS = [f"Ganger {i}" for i in range(1, 5)]


def fight_campaign() -> Tracker:
    """Kaneda and Nyx, and four gangers made one by one."""
    t = fight_campaign_pcs()
    for name in GANGERS:
        t.add_character(name, kind="npc", skills={"Clubs": 3}, edge_rating=1, edge=1)
    return t


def faces(*hits_of: tuple[int, int]) -> str:
    """The faces for (dice, hits) per roll: the hits as 5s, the rest as 2s."""
    out: list[str] = []
    for dice, hits in hits_of:
        out += ["5"] * hits + ["2"] * (dice - hits)
    return " ".join(out)


def turn_lines(app: Any) -> list[str]:
    """The turn pane as drawn: the headline, then a row per fighter."""
    from polku.tui.widgets.panes import TurnOrder

    return app.main_screen().query_one("#turns", TurnOrder).lines


def order(app: Any) -> list[str]:
    """The fighters' rows of the turn pane: marker, score, name."""
    return [row[:5] + row[5:].split("  ")[0] for row in turn_lines(app)[1:]]


def combat(t: Tracker) -> tuple[int, int, str]:
    b = t.state["combat"]
    return b["turn"], b["pass"], b["acting"]


async def roll_initiative(pilot: Pilot, hits: list[int]) -> None:
    """On the initiative screen: type the faces (Kaneda 8 dice, Nyx 8, each ganger 6), roll, close."""
    app = pilot.app
    assert isinstance(app.screen, InitiativeScreen)
    await press(pilot, "f")
    assert isinstance(app.screen, FacesPrompt)
    dice = [8, 8, 6, 6, 6, 6]
    await press(pilot, *typed(faces(*zip(dice, hits))), "enter")
    await settle(pilot)
    assert isinstance(app.screen, InitiativeScreen)
    await press(pilot, "escape")
    assert isinstance(app.screen, MainScreen)


async def select_character(pilot: Pilot, name: str) -> None:
    app = pilot.app
    assert isinstance(app, PolkuApp) and app.tracker is not None
    await press(pilot, "2")
    chars = app.main_screen().query_one("#chars", OptionList)
    chars.highlighted = chars.get_option_index(app.tracker.find_character(name)["id"])
    await until_quiet(pilot)


def template_campaign(seed: int = 3) -> Tracker:
    """Kaneda and Nyx (PCs), and a "Ganger" template kept from an earlier fight (no ganger in play yet)."""
    t = fight_campaign_pcs(seed)
    t.add_character("Ganger", kind="npc", skills={"Clubs": 3}, edge_rating=1, edge=1)
    t.roster.save_template("ganger")
    t.remove_character("ganger")
    return t


def fight_campaign_pcs(seed: int = 3) -> Tracker:
    t = Tracker.new("shadowrun", "Night at the docks", clock=demo.fixed_clock(), seed=seed)
    t.add_character("Kaneda", player="Olli", attributes={
        "body": 4, "agility": 5, "reaction": 4, "strength": 3, "charisma": 2, "intuition": 4, "logic": 3,
        "willpower": 3}, skills={"Pistols": 4}, edge_rating=3, edge=3)
    t.add_character("Nyx", player="Sanna", attributes={
        "body": 2, "agility": 3, "reaction": 3, "strength": 2, "charisma": 3, "intuition": 5, "logic": 6,
        "willpower": 4}, skills={"Hacking": 5}, edge_rating=4, edge=4)
    return t


async def roll_group_initiative(pilot: Pilot, kaneda: int, nyx: int, gangers: int) -> None:
    """On the initiative screen: the faces of three rolls (Kaneda 8 dice, Nyx 8, the gangers' shared 6)."""
    app = pilot.app
    assert isinstance(app.screen, InitiativeScreen)
    rows = [str(o.prompt) for o in app.screen.query_one("#ini-list", OptionList)._options]
    assert all(r.startswith("[x]") for r in rows), "every fighter is proposed"
    assert [r.endswith("· Ganger: one roll") for r in rows] == [False, False, True, True, True, True]
    await press(pilot, "f")
    assert isinstance(app.screen, FacesPrompt)
    await press(pilot, *typed(faces((8, kaneda), (8, nyx), (6, gangers))), "enter")
    await settle(pilot)
    assert isinstance(app.screen, InitiativeScreen)
    await press(pilot, "escape")
    assert isinstance(app.screen, MainScreen)


async def kaneda_shoots_ganger_3(pilot: Pilot) -> None:
    """r (Kaneda selected), t: opposed, Tab, w 5: Ganger 3 defends on Reaction; f: 4 hits against 1; D: DV 5 typed,
    Body 3 resists with 2 hits typed in: 5 + 3 net − 2 = 6 boxes."""
    from polku.tui.screens.damage import DamageScreen
    from polku.tui.screens.roll import SRRollScreen

    app = pilot.app
    await select_character(pilot, "Kaneda")
    await press(pilot, "r")
    roll = app.screen
    assert isinstance(roll, SRRollScreen) and roll.a.who == "kaneda"
    await press(pilot, "t")
    assert roll.test == "opposed"
    await press(pilot, "tab", "w", "5")
    assert roll.b.who == "ganger-3"
    # Pistols 4 + Agility 5 = 9 dice against the ganger's defence by default, Reaction 3
    assert "Defence: Reaction 3  (d: next)" in option_texts(roll.query_one("#side-b"))
    await press(pilot, "f", *typed(faces((9, 4))), "enter", *typed(faces((3, 1))), "enter")
    await settle(pilot)
    assert roll.result_lines[0].endswith("Kaneda wins 4–1, 3 net"), roll.result_lines
    await press(pilot, "D")
    dmg = app.screen
    assert isinstance(dmg, DamageScreen) and dmg.target == "ganger-3" and dmg.net_hits == 3
    await press(pilot, "down", "enter", *typed("Predator"), "enter")  # weapon row: name it
    await press(pilot, "down", "enter", "ctrl+u", "5", "enter")  # DV row: 5
    preview = str(dmg.query_one("#rows-preview").render())
    assert "DV 5 + 3 net = 8P" in preview and "= 3 dice" in preview, preview
    await press(pilot, "f", *typed("5 5 2"), "enter")  # Body 3, no armour: 3 dice, 2 hits
    await settle(pilot)
    assert dmg.result is not None and app.screen is dmg, "the ganger could still spend Edge on the roll"
    await press(pilot, "escape")  # no: done
    assert app.screen is roll
    await press(pilot, "escape")
    assert isinstance(app.screen, MainScreen)


@pilot_test
async def test_four_combat_turns_by_keys_then_reopen_at_the_same_marker(tmp_path: Path) -> None:
    """S12 by keys at 80x24: 4× Ganger from a template (shared initiative), an effect that expires, a held
    action stepped back in, damage from an opposed attack (D: resistance roll, boxes fill), the wounded
    ganger's initiative drops; four combat turns; the file reopens at the same turn, pass and marker."""
    t = template_campaign()
    sf = files.create_session(tmp_path / "docks.toml", t)
    path = sf.path
    app = make_app(t, sf, sessions_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        # -- "add 4× Ganger" from the template: +, the count proposed (4), shared initiative
        await press(pilot, "plus")
        assert isinstance(app.screen, TextPrompt)
        await press(pilot, "enter")
        assert isinstance(app.screen, ChoicePrompt)
        await press(pilot, "enter")  # the first choice: shared
        await settle(pilot)
        assert [row.split("  ")[0] for row in panes(app)["chars"] if row.startswith("Ganger")] == [
            f"{name} [NPC]" for name in GANGERS]
        (group, members), = t.roster.initiative_groups()
        assert group["initiative"] == "shared" and members == [f"ganger-{i}" for i in range(1, 5)]

        # -- combat turn 1: Kaneda gets 2 passes; the faces are typed in; the gangers roll once
        await press(pilot, "i")
        assert isinstance(app.screen, InitiativeScreen)
        await press(pilot, "plus")  # the highlighted row is Kaneda's
        await roll_group_initiative(pilot, 3, 1, 3)  # 11, 9, and 9 for every ganger
        assert combat(t) == (1, 1, "kaneda")
        # Nyx and the gangers all have 9: Nyx's Edge 4 beats their 1 (S12); one roll, one score for the group
        assert order(app) == ["▶ 11 Kaneda", "·  9 Nyx", "·  9 Ganger 1", "·  9 Ganger 2", "·  9 Ganger 3",
                              "·  9 Ganger 4"]
        assert turn_lines(app)[0] == "» Combat turn 1 · pass 1"

        # Kaneda acts: he shoots Ganger 3, who takes 6 boxes: −2 wound modifier, 9 → 7, last of all
        await kaneda_shoots_ganger_3(pilot)
        g3 = records.sr(t.character("ganger-3"))
        assert (g3["physical"], g3["stun"]) == (6, 0)
        g3_row = next(row for row in panes(app)["chars"] if row.startswith("Ganger 3"))
        assert "wounds −2" in g3_row and "P ■■■■■■□□□□" in g3_row, g3_row
        assert order(app)[-2:] == ["·  9 Ganger 4", "·  7 Ganger 3"]
        assert any("Ganger 3 takes Predator 5P" in line for line in panes(app)["log"]), "\n".join(panes(app)["log"])

        # an effect that lasts one pass, with a dice modifier, on Nyx (f, typed in one line)
        await select_character(pilot, "Nyx")
        await press(pilot, "f")
        assert isinstance(app.screen, TextPrompt)
        await press(pilot, *typed("Smoke -2 1 pass"), "enter")
        assert t.character("nyx")["effects"] == [{"name": "Smoke", "modifier": -2, "unit": "pass", "left": 1}]
        assert any("◌ Smoke −2 · 1 pass" in row for row in panes(app)["chars"])

        await press(pilot, "space")  # Kaneda done → Nyx
        assert combat(t)[2] == "nyx"
        await press(pilot, "d")  # Nyx holds the action → Ganger 1
        assert combat(t)[2] == "ganger-1" and t.state["combat"]["held"] == ["nyx"]
        assert "‖  9 Nyx" in order(app)
        await press(pilot, "space")  # → Ganger 2
        await press(pilot, "j")  # Nyx steps in before Ganger 2 goes
        assert combat(t)[2] == "nyx" and t.state["combat"]["held"] == []
        assert order(app)[:3] == ["✓ 11 Kaneda", "▶  9 Nyx", "✓  9 Ganger 1"]

        await press(pilot, "space")  # Nyx done → Ganger 2 (interrupted) acts
        assert combat(t)[2] == "ganger-2"
        await press(pilot, "space", "space")  # Ganger 4, then the wounded Ganger 3
        assert combat(t)[2] == "ganger-3"
        await press(pilot, "space")  # pass 1 over: the smoke clears; pass 2 is Kaneda's alone
        assert combat(t) == (1, 2, "kaneda")
        assert t.character("nyx")["effects"] == []
        assert not any("Smoke" in row for row in panes(app)["chars"])
        assert any("Smoke wears off Nyx" in line for line in panes(app)["log"])
        assert order(app)[0] == "▶ 11 Kaneda"

        # -- combat turns 2 and 3: the turn ends on space and the initiative screen opens by itself
        for turn, hits in ((2, (0, 2, 1)), (3, (1, 1, 1))):
            await press(pilot, "space")
            await roll_group_initiative(pilot, *hits)
            assert combat(t)[:2] == (turn, 1)
            assert turn_lines(app)[0] == f"» Combat turn {turn} · pass 1"
            steps = 0
            while t.state["combat"]["pass"] != 0 and steps < 20:
                await press(pilot, "space")
                steps += 1
            assert steps == 7  # six fighters in pass 1, Kaneda again in pass 2
            # the wound still counts: Ganger 3 is 2 below the group's shared score, last
            assert order(app)[-1].endswith("Ganger 3")

        # -- combat turn 4: two actions in, then the GM quits
        await roll_group_initiative(pilot, 2, 0, 0)  # Kaneda 10, Nyx 8, gangers 6 (Ganger 3: 4)
        assert combat(t) == (4, 1, "kaneda")
        await press(pilot, "space", "space")
        assert combat(t) == (4, 1, "ganger-1")
        await settle(pilot)
        seen = panes(app)
        seen_turns = turn_lines(app)
        assert seen_turns[0] == "» Combat turn 4 · pass 1"
        assert order(app) == ["✓ 10 Kaneda", "✓  8 Nyx", "▶  6 Ganger 1", "·  6 Ganger 2", "·  6 Ganger 4",
                              "·  4 Ganger 3"]
        await press(pilot, "q")
    assert app.return_code == 0

    reloaded, notices = files.load_tracker(path)
    assert notices == []
    assert reloaded.state["combat"] == {"turn": 4, "pass": 1, "acting": "ganger-1", "acted": ["kaneda", "nyx"],
                                        "held": []}
    assert reloaded.state == t.state
    assert records.sr(reloaded.character("ganger-3"))["physical"] == 6
    assert records.sr(reloaded.character("kaneda"))["weapons"][0]["name"] == "Predator"
    resist = next(e for e in reloaded.events if e.get("roll", {}).get("test") == "damage-resistance")
    attack = reloaded.event_by_seq(resist["roll"]["attack"])
    assert attack["roll"]["test"] == "shadowrun-opposed" and attack["roll"]["manual"]
    assert [c for _, m in reloaded.roster.initiative_groups() for c in m] == [f"ganger-{i}" for i in range(1, 5)]

    # the reopened app shows the same turn, pass and marker
    tracker2, sf2 = files.open_session(path)
    app2 = make_app(tracker2, sf2, sessions_dir=tmp_path)
    async with app2.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert panes(app2)["queue"] == seen["queue"]
        assert panes(app2)["chars"] == seen["chars"]
        assert turn_lines(app2) == seen_turns
        await press(pilot, "space")  # and goes on from there
        assert combat(tracker2) == (4, 1, "ganger-2")
        assert "▶  6 Ganger 2" in order(app2)
        await press(pilot, "q")


async def raja_roll(pilot: Pilot, a: str, b: str) -> None:
    """r on the active challenge, f: Alyosha's and the GM's faces typed in, then back to the GM's screen."""
    from polku.tui.screens.roll import RajaRollScreen

    await press(pilot, "r")
    assert isinstance(pilot.app.screen, RajaRollScreen)
    await press(pilot, "f", *typed(a), "enter", *typed(b), "enter")
    await settle(pilot)
    await press(pilot, "escape")
    assert isinstance(pilot.app.screen, MainScreen)


@pilot_test
async def test_a_rajapolku_scene_of_three_challenges_walked_with_next(tmp_path: Path) -> None:
    t = Tracker.new("rajapolku", "Docks", clock=demo.fixed_clock(), seed=3)
    t.add_character("Alyosha", backgrounds=["Runner"])
    titles = ["Chase the pickpocket", "Talk past the guard", "Find the ledger"]
    for title in titles:
        t.add_challenge(title, ["alyosha"])
    sf = files.create_session(tmp_path / "raja.toml", t)
    path = sf.path
    app = make_app(t, sf, sessions_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for title, (a, b) in zip(titles[:2], (("9", "3"), ("8", "4"))):
            await press(pilot, "space")  # the queue's next challenge starts: the marker is on it
            active = t.active_challenge()
            assert active is not None and active["title"] == title
            assert f"▶ {title}  (Alyosha)" in panes(app)["queue"]
            await raja_roll(pilot, a, b)
            assert t.active_challenge() is None
            assert any(row.startswith(f"✓ {title} — ") for row in panes(app)["queue"])
        await press(pilot, "space")
        active = t.active_challenge()
        assert active is not None and active["title"] == titles[2]
        await settle(pilot)
        seen = panes(app)["queue"]
        await press(pilot, "q")

    tracker2, sf2 = files.open_session(path)
    active = tracker2.active_challenge()
    assert active is not None and active["title"] == titles[2]
    app2 = make_app(tracker2, sf2, sessions_dir=tmp_path)
    async with app2.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert panes(app2)["queue"] == seen
        await raja_roll(pilot, "2", "7")
        assert [c["status"] for c in tracker2.state["challenges"]] == ["resolved"] * 3
        n = len(tracker2.events)
        await press(pilot, "space")  # nothing waits: refused in one line, nothing logged
        assert len(tracker2.events) == n
        assert any("no challenge waits" in str(m.message) for m in app2._notifications)
        await press(pilot, "q")


@pilot_test
async def test_an_effect_s_dice_are_a_row_of_the_pool_on_by_default(tmp_path: Path) -> None:
    """S1: an effect's modifier is its own row in the pool builder, on by default, toggled with Enter."""
    from polku.tui.screens.roll import SideList, SRRollScreen

    t = fight_campaign()
    t.combat.add_effect("nyx", "Smoke", -2, "pass", 2)
    sf = files.create_session(tmp_path / "docks.toml", t)
    app = make_app(t, sf, sessions_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await select_character(pilot, "Nyx")
        await press(pilot, "r")
        roll = app.screen
        assert isinstance(roll, SRRollScreen) and roll.a.who == "nyx"
        side = roll.query_one("#side-a", SideList)
        row = side.get_option_index("eff:effect: Smoke")
        assert "[x] effect: Smoke −2" in str(side.get_option_at_index(row).prompt)
        assert "− 2 (effect: Smoke)" in roll.pool_text().plain
        side.focus()
        side.highlighted = row
        await press(pilot, "enter")
        assert roll.a.sr.effects_off == ("effect: Smoke",)
        assert "effect: Smoke" not in roll.pool_text().plain
        await press(pilot, "enter")  # on again
        assert "− 2 (effect: Smoke)" in roll.pool_text().plain
        await press(pilot, "r")
        await settle(pilot)
        ev = next(e for e in reversed(t.events) if "roll" in e)
        assert "effect: Smoke" in " ".join(ev["roll"]["explain"])
        await press(pilot, "escape", "q")


# -- issue 26: the night a veteran GM expects -------------------------------------------------------


def armed_campaign(seed: int = 3) -> Tracker:
    """Kaneda (Pistols 4, an Ares Predator IV 5P AP −1 on his sheet, 2 passes), Nyx, and four
    gangers from the "Ganger" template, whose Colt America L36 (4P) and armour 4/2 they share; a fight is on,
    rolled by the session: Kaneda 11 acts (▶), Nyx 9, the gangers 9."""
    from polku.session.table.gear import Armour, parse_weapon

    t = fight_campaign_pcs(seed)
    t.add_character("Ganger", kind="npc", skills={"Pistols": 3, "Clubs": 3}, edge_rating=1, edge=1)
    t.roster.save_template("ganger")
    t.remove_character("ganger")
    t.roster.set_weapon("Ganger", None, parse_weapon("Colt America L36, 4P, -, Pistols"), template=True)
    t.roster.set_armour("Ganger", Armour(4, 2), template=True)
    t.roster.add_from_template("Ganger", 4, initiative="shared")
    t.roster.set_weapon("kaneda", None, parse_weapon("Ares Predator IV, 5P, -1, Pistols"))
    t.roster.set_armour("nyx", Armour(6, 4))
    entries = [(cid, 2 if cid == "kaneda" else passes) for cid, (on, passes) in t.combat.default_fighters().items() if on]
    t.combat.roll_initiative(entries, faces=[int(f) for f in faces((8, 3), (8, 1), (6, 3)).split()])
    return t


@pilot_test
async def test_one_opposed_attack_with_damage_takes_nine_keys(tmp_path: Path) -> None:
    """Keystrokes for one opposed attack with damage, weapon and armour already on the sheets: 9 (was about
    21: select the attacker, t, the defender, a dice count typed for the defence, the weapon named and its DV
    typed in the damage prompt).

    The 9 keys: ``r`` (the roll screen opens on Kaneda, marked ▶, on an opposed test with his Predator's
    Pistols + Agility), ``tab`` ``w`` ``5`` (Ganger 3 defends: Reaction by default), ``r`` (rolled; a hit),
    ``D`` (offered after the hit: the Predator's 5P AP −1 against the ganger's ballistic 4), ``r`` (Body +
    armour resists), ``escape`` (done), ``escape`` (back to the table).
    """
    from polku.tui.screens.damage import DamageScreen
    from polku.tui.screens.roll import SRRollScreen

    t = armed_campaign(seed=4)  # the program's dice: Kaneda hits 3–0
    sf = files.create_session(tmp_path / "docks.toml", t)
    app = make_app(t, sf, sessions_dir=tmp_path)
    keys: list[str] = []

    async def key(*ks: str) -> None:
        keys.extend(ks)
        await press(pilot, *ks)

    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert combat(t)[2] == "kaneda"
        await key("r")
        roll = app.screen
        assert isinstance(roll, SRRollScreen) and roll.a.who == "kaneda" and roll.test == "opposed"
        assert "Kaneda: Pistols 4 + Agility 5 = 9 dice" in str(roll.pool_text())
        await key("tab", "w", "5")
        assert roll.b.who == "ganger-3"
        assert "Defence: Reaction 3  (d: next)" in option_texts(roll.query_one("#side-b"))
        await key("r")
        await settle(pilot)
        ev = roll.last_event
        assert ev is not None
        assert ev["roll"]["outcome"]["winner"] == "a", ev["roll"]["summary"]
        assert any(line.startswith("  D: damage to Ganger 3") for line in roll.result_lines), roll.result_lines
        await key("D")
        dmg = app.screen
        assert isinstance(dmg, DamageScreen) and dmg.weapon == "Ares Predator IV" and dmg.dv == 5
        assert (dmg.armour, dmg.which) == (4, "ballistic")
        await key("r")
        await settle(pilot)
        assert dmg.result is not None and records.sr(t.character("ganger-3"))["physical"] > 0
        await key("escape", "escape")
        assert isinstance(app.screen, MainScreen)
    assert keys == ["r", "tab", "w", "5", "r", "D", "r", "escape", "escape"]
    assert len(keys) <= 12


async def ganger_1_shoots_nyx(pilot: Pilot, *, picture: bool = False) -> None:
    """Ganger 1 acts (▶): r opens on his template's Colt (Pistols 3 + Agility 3 = 6 dice, opposed);
    Tab, w 2: Nyx defends on Reaction 3; down down Enter: Edge before on that Reaction-only pool (S7)."""
    from polku.tui.screens.roll import SRRollScreen

    app = pilot.app
    await press(pilot, "r")
    roll = app.screen
    assert isinstance(roll, SRRollScreen) and roll.a.who == "ganger-1" and roll.test == "opposed"
    await press(pilot, "tab", "w", "2", "down", "down", "enter")
    await until_quiet(pilot)
    assert roll.b.who == "nyx" and roll.b.sr.edge_before


@pilot_test
async def test_a_ganger_shares_his_templates_pistol_and_nyx_defends_on_reaction_with_edge_before(
        tmp_path: Path) -> None:
    """The grown fight (issue 26), by keys at 80x24: Kaneda (▶, wired reflexes: 2 passes) done, Nyx holds
    nothing, Ganger 1 shoots her with the template's Colt America L36 (4P); she defends on Reaction 3 with
    Edge before: 3 + 4 Edge dice, rule of six, typed; the ganger hits 3–1; D: the Colt against her
    ballistic 6; then pass 2 is Kaneda's alone (the second pass of his wired reflexes)."""
    from polku.tui.screens.damage import DamageScreen
    from polku.tui.screens.roll import SRRollScreen

    t = armed_campaign()
    sf = files.create_session(tmp_path / "docks.toml", t)
    app = make_app(t, sf, sessions_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert combat(t) == (1, 1, "kaneda")
        await press(pilot, "space", "space")  # Kaneda done, Nyx done
        assert combat(t)[2] == "ganger-1"
        await ganger_1_shoots_nyx(pilot)
        roll = app.screen
        assert isinstance(roll, SRRollScreen)
        assert "Defence: Reaction 3  (d: next)" in option_texts(roll.query_one("#side-b"))
        pools = str(roll.pool_text())
        assert "Ganger 1: Pistols 3 + Agility 3 = 6 dice" in pools, pools
        assert "Nyx: Reaction: 3 dice = 3 dice + 4 Edge dice, rule of six" in pools, pools
        # the ganger 3 hits of 6; Nyx's 7 dice: one six (a hit that explodes into a 2), no other hit
        await press(pilot, "f", *typed("5 5 6 2 2 3"), "enter", *typed("6 2 2 3 4 3 2"), "enter",
                    *typed("2"), "enter")
        await settle(pilot)
        ev = roll.last_event
        assert ev is not None
        assert ev["roll"]["summary"] == "Ganger 1 wins 3–1, 2 net", ev["roll"]["summary"]
        assert records.sr(t.character("nyx"))["edge"] == 3, "1 Edge spent before the roll"
        await press(pilot, "D")
        dmg = app.screen
        assert isinstance(dmg, DamageScreen) and dmg.target == "nyx"
        assert (dmg.weapon, dmg.dv, dmg.armour, dmg.which) == ("Colt America L36", 4, 6, "ballistic")
        # Body 2 + ballistic 6 = 8 dice, 3 hits: 4 + 2 net = 6P, not below the armour: 3 boxes physical
        await press(pilot, "f", *typed("5 5 5 2 2 2 2 2"), "enter")
        await settle(pilot)
        assert dmg.result is not None and records.sr(t.character("nyx"))["physical"] == 3, t.character("nyx")
        await press(pilot, "escape", "escape")
        for _ in range(4):  # Ganger 1 … Ganger 4 done
            await press(pilot, "space")
        assert combat(t) == (1, 2, "kaneda"), "the second pass is Kaneda's (2 passes)"
        assert order(app)[0] == "▶ 11 Kaneda"
        await press(pilot, "q")


class TestFightPictures:
    @pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
    def test_a_ganger_s_attack_on_nyx_defending_on_reaction_with_edge_before(self, snap_compare, size, tmp_path):
        """Ganger 1 (▶) shoots with the template's pistol: his Pistols pool; Nyx's defence row (Reaction 3, d:
        next) with Edge before ticked: 3 dice + 4 Edge dice, rule of six; the odds of the two pools."""
        from app_fixtures import freeze_cursors

        t = armed_campaign()
        t.combat.next()
        t.combat.next()
        sf = files.create_session(tmp_path / "docks.toml", t)

        async def run_before(pilot: Pilot) -> None:
            await settle(pilot)
            await ganger_1_shoots_nyx(pilot)
            freeze_cursors(pilot.app)
            await settle(pilot)

        assert snap_compare(make_app(t, sf, sessions_dir=tmp_path), run_before=run_before, terminal_size=size)


def ambush_campaign() -> Tracker:
    """Kaneda (R4 + I4, Edge 3), Nyx (R3 + I5, Edge 4) and a Ganger (every attribute 3), out of a fight."""
    t = fight_campaign_pcs()
    t.add_character("Ganger", kind="npc", skills={"Clubs": 3}, edge_rating=1, edge=1)
    return t


async def ambush_initiative(pilot: Pilot) -> None:
    """On the initiative screen (Kaneda highlighted): s +, Kaneda is surprised, 2 passes; down, e k: Nyx
    spends Edge and acts on her astral score (10 dice + Edge 4, 3 passes)."""
    app = pilot.app
    assert isinstance(app.screen, InitiativeScreen)
    await press(pilot, "s", "plus", "down", "e", "k")
    rows = option_texts(app.screen.query_one("#ini-list"))
    assert rows[0].endswith("passes 2  Edge 3  SURPRISED") and "astral 10 dice  passes 3  Edge 4  EDGE +4" in rows[1], rows


@pilot_test
async def test_an_ambush_by_keys_kaneda_surprised_nyx_astral_with_edge(tmp_path: Path) -> None:
    """Issue 26 by keys at 80x24: Nyx's sheet gets an astral score on its Initiative row ('astral +0 3');
    the initiative screen (i) marks Kaneda surprised (s; 2 passes, +), and Nyx spends Edge (e) on her astral
    roll (k):
    Intuition 5 × 2 + Edge 4 = 14 dice, rule of six; f asks each roll's faces, Nyx's sixes one wave more.
    Kaneda keeps his place in the order but is skipped in pass 1 ('!', surprised); in pass 2 he and Nyx act
    (her 3 astral passes, his 2), the ganger does not. Undo takes the roll back with Nyx's Edge point."""
    from polku.tui.screens.character import CharacterDetail

    t = ambush_campaign()
    sf = files.create_session(tmp_path / "ambush.toml", t)
    app = make_app(t, sf, sessions_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await select_character(pilot, "Nyx")
        await press(pilot, "e")
        sheet = app.screen
        assert isinstance(sheet, CharacterDetail)
        rows = sheet.query_one("#detail-rows", OptionList)
        rows.highlighted = rows.get_option_index("initiative")
        await press(pilot, "enter")
        assert isinstance(app.screen, TextPrompt)
        await press(pilot, "ctrl+u", *typed("astral +0"), "enter")  # passes left out: astral's 3
        await settle(pilot)
        assert records.sr(t.character("nyx"))["initiative_scores"] == {"astral": {"bonus": 0, "passes": 3}}
        assert "  astral        Intuition 5 × 2 · 3 passes" in str(rows.get_option("initiative:astral").prompt)
        await press(pilot, "escape", "i")
        await ambush_initiative(pilot)
        await press(pilot, "f")
        # Kaneda 8 dice, 2 hits; Nyx 14 dice: 6 6 5 and 11 misses, the two sixes roll 5 and 2; the ganger 6, 1 hit
        assert isinstance(app.screen, FacesPrompt)
        await press(pilot, *typed(faces((8, 2))), "enter")
        await press(pilot, *typed("6 6 5 " + faces((11, 0))), "enter")
        assert isinstance(app.screen, FacesPrompt), "the rule of six: one wave for Nyx's two sixes"
        await press(pilot, *typed("5 2"), "enter")
        await press(pilot, *typed(faces((6, 1))), "enter")
        await settle(pilot)
        assert isinstance(app.screen, InitiativeScreen)
        await press(pilot, "escape")
        assert [(e["id"], e["score"]) for e in t.state["initiative"]] == [("nyx", 14), ("kaneda", 10), ("ganger", 7)]
        assert t.character("nyx")["edge"] == 3, "1 Edge spent on the roll"
        assert order(app) == ["▶ 14 Nyx", "! 10 Kaneda", "·  7 Ganger"]
        assert "surprised" in turn_lines(app)[2] and "astral" in turn_lines(app)[1]
        await press(pilot, "space")
        assert combat(t) == (1, 1, "ganger"), "Kaneda is skipped in pass 1"
        await press(pilot, "space")
        assert combat(t) == (1, 2, "nyx") and order(app)[1] == "· 10 Kaneda", "pass 2: Kaneda acts again"
        await press(pilot, "space")
        assert combat(t) == (1, 2, "kaneda")
        for _ in range(4):  # three turns of the marker, then the roll
            await press(pilot, "u")
        await until(pilot, lambda: "combat" not in t.state, "the roll undone")
        assert t.character("nyx")["edge"] == 4
        await press(pilot, "i")
        assert isinstance(app.screen, InitiativeScreen)
        assert "astral" not in option_texts(app.screen.query_one("#ini-list"))[1], "a new fight starts physical"
        await press(pilot, "escape", "q")


class TestAmbushPictures:
    @pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
    def test_the_initiative_screen_with_surprise_edge_and_an_astral_score(self, snap_compare, size, tmp_path):
        """The initiative screen: Kaneda SURPRISED (2 passes), Nyx on her astral score (10 dice, 3 passes) with
        EDGE +4."""
        from app_fixtures import freeze_cursors

        t = ambush_campaign()
        t.combat.set_initiative("nyx", 0, 3, kind="astral")
        sf = files.create_session(tmp_path / "ambush.toml", t)

        async def run_before(pilot: Pilot) -> None:
            await settle(pilot)
            await press(pilot, "i")
            await ambush_initiative(pilot)
            freeze_cursors(pilot.app)
            await settle(pilot)

        assert snap_compare(make_app(t, sf, sessions_dir=tmp_path), run_before=run_before, terminal_size=size)

    @pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
    def test_the_turn_order_with_kaneda_surprised_in_pass_1(self, snap_compare, size, tmp_path):
        """The table: Nyx (astral) acts, Kaneda keeps his place marked '!' and surprised, the ganger waits."""
        t = ambush_campaign()
        t.combat.set_initiative("nyx", 0, 3, kind="astral")
        t.rolls.roll_initiative([("kaneda", 2), ("nyx", 3), ("ganger", 1)], kinds={"nyx": "astral"},
                                surprised=["kaneda"], edge=["nyx"],
                                faces=[int(f) for f in (faces((8, 2)) + " 6 6 5 " + faces((11, 0)) + " 5 2 "
                                                        + faces((6, 1))).split()])
        sf = files.create_session(tmp_path / "ambush.toml", t)

        async def run_before(pilot: Pilot) -> None:
            await settle(pilot)

        assert snap_compare(make_app(t, sf, sessions_dir=tmp_path), run_before=run_before, terminal_size=size)
