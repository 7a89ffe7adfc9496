"""The table in motion, by keys at 80x24: applying damage from an attack, harm from a
lost challenge, "add 4× Ganger" from a template, removing the fallen, copying
characters — plus snapshots of the damage and harm prompts at 80x24 and 120x40."""

from __future__ import annotations

from pathlib import Path
from typing import cast

import pytest
from textual.pilot import Pilot
from textual.widgets import OptionList

from app_fixtures import (
    SIZE_IDS,
    SIZES,
    demo_session,
    isolated,
    isolated_here,
    make_app,
    option_texts,
    pilot_test,
    settle,
    snapshot_keys,
    tracker_of,
)
from polku.session import records
from polku.session.commands import command
from polku.session.files import create_session, load_tracker
from polku.session.rolls import RajaSide, SRSide
from polku.tui.app import PolkuApp
from polku.tui.screens.damage import DamageScreen, HarmScreen
from polku.tui.screens.prompts import ChoicePrompt
from polku.tui.widgets.panes import CharacterPane

SIZE = (80, 24)
SESSIONS = Path("sessions")
sizes = pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)


# Config and sessions in tmp_path, which is the working folder; colour on whatever the shell says.
pytestmark = pytest.mark.usefixtures(isolated.__name__, isolated_here.__name__)


def demo_app(system: str) -> PolkuApp:
    tracker, sf = demo_session(SESSIONS, system)
    return make_app(tracker, sf, sessions_dir=SESSIONS)


def attack(app: PolkuApp, a_faces: list[int], b_faces: list[int]) -> None:
    """Kaneda shoots the Ganger (an opposed test, S9), as the roll screen would log it."""
    app.run_command(command("rolls.roll_sr_opposed", SRSide("Kaneda", ["kaneda"], dice=len(a_faces)),
                                                SRSide("Ganger", ["ganger"], dice=len(b_faces)),
                                                faces=(a_faces, b_faces)))


def chars(app: PolkuApp) -> list[str]:
    return option_texts(app.main_screen().query_one("#chars", CharacterPane))


async def select_char(pilot: Pilot, name: str) -> None:
    app = pilot.app
    assert isinstance(app, PolkuApp)
    pane = app.main_screen().query_one("#chars", CharacterPane)
    await pilot.press("2")
    for _ in range(pane.option_count):
        opt = pane.highlighted_option
        if opt is not None and name in str(opt.prompt):
            return
        await pilot.press("down")
    raise AssertionError(f"no {name} in the character pane")


@pilot_test
async def test_D_applies_damage_from_the_last_attack_with_entered_faces() -> None:
    """3 net hits + DV 5 typed in, armour 6 typed in, Body 4 + 6 = 10 faces entered: 4 hits → 4 boxes."""
    app = demo_app("varjojuoksu")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        attack(app, [5, 6, 5], [1, 2])
        await pilot.press("D")
        await settle(pilot)
        assert isinstance(app.screen, DamageScreen)
        # weapon row: name it; DV row: type 5; armour row: type 6
        await pilot.press("down", "enter", *"Predator", "enter")
        await pilot.press("down", "enter", "ctrl+u", "5", "enter")
        await pilot.press("down", "down", "down", "down", "enter", "ctrl+u", "6", "enter")
        await settle(pilot)
        assert "8P" in str(app.screen.query_one("#rows-preview").render())
        await pilot.press("f", *"5 6 1 2 3 5 4 2 1 6".replace(" ", ","), "enter")
        await settle(pilot)
        # the boxes are filled; the ganger still has Edge to spend on the roll (S7): e, g, c or Esc
        screen = app.screen
        assert isinstance(screen, DamageScreen) and screen.result is not None
        assert "resistance: 5 6 1 2 3 5 4 2 1 6 → 4 hits" in str(screen.query_one("#rows-preview").render())
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, DamageScreen)
        g = app.tracker.character("ganger")
        assert g["physical"] == 4 and g["armour"] == {"ballistic": 6, "impact": 0}
        assert "Ganger takes Predator 5P: 8P − 4 hits → 4 boxes physical" in app.tracker.events[-1]["text"]
        assert any("4/" in line and "Ganger" in line for line in chars(app)) or g["physical"] == 4
    reopened, _ = load_tracker(SESSIONS / "varjojuoksu.toml")
    assert reopened.character("kaneda")["weapons"][0]["name"] == "Predator", "the weapon is remembered on disk"


@pilot_test
async def test_edge_after_the_resistance_roll_in_the_damage_prompt_with_typed_faces() -> None:
    """S7 in the damage prompt: Kaneda's 3 net hits, DV 5 → 8P; Body 4 + armour 0 = 4 faces 5 1 2 3 → 1 hit,
    7 boxes; e: the ganger's Edge 1 adds one die, typed 6, and the six's die 5 → 3 hits, 5 boxes; Esc."""
    app = demo_app("varjojuoksu")
    assert app.tracker is not None
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        attack(app, [5, 6, 5], [1, 2])
        await pilot.press("D")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, DamageScreen)
        await pilot.press("f", *"5 1 2 3".replace(" ", ","), "enter")
        await settle(pilot)
        assert records.sr(app.tracker.character("ganger"))["physical"] == 7
        assert app.screen is screen and screen.result is not None
        rows = [str(o.prompt) for o in screen.query_one("#rows", OptionList)._options]
        assert rows[0].startswith("e  Edge after the roll") and "+1 die that follows" in rows[0]
        assert "no: there is no glitch to negate (S5)" in rows[1]
        await pilot.press("e")
        await settle(pilot)
        await pilot.press(*"6", "enter")  # the Edge die
        await settle(pilot)
        await pilot.press(*"5", "enter")  # the die its six adds
        await settle(pilot)
        g = records.sr(app.tracker.character("ganger"))
        assert (g["physical"], g["edge"]) == (5, 0)
        # the new roll is shown; the Edge is spent, so nothing more can be done to it
        assert app.screen is screen
        assert "8P − 3 hits → 5 boxes physical" in str(screen.query_one("#rows-title").render())
        assert "resistance: 5 1 2 3 6ᵉ 5! → 3 hits" in str(screen.query_one("#rows-preview").render())
        assert "nothing more can be spent" in str(screen.query_one(".rows-hint").render())
        await pilot.press("e")  # refused in one line, nothing logged
        await settle(pilot)
        assert any("one Edge point per test" in str(m.message) or "no Edge left" in str(m.message)
                   for m in app._notifications)
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, DamageScreen)
        assert "8P − 3 hits → 5 boxes physical" in app.tracker.events[-1]["text"]
        assert app.tracker.events[-1]["roll"]["supersedes"] == app.tracker.events[-3]["seq"]
        await pilot.press("u")
        await settle(pilot)
        assert app.tracker.character("ganger")["physical"] == 7, "one undo takes the Edge back"
    reopened, _ = load_tracker(SESSIONS / "varjojuoksu.toml")
    assert reopened.character("ganger")["physical"] == 7


@pilot_test
async def test_D_after_a_missed_attack_offers_a_hit_to_the_selected_character() -> None:
    app = demo_app("varjojuoksu")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        attack(app, [1, 2], [5])
        await select_char(pilot, "Nyx")
        await pilot.press("D")
        await settle(pilot)
        assert isinstance(app.screen, DamageScreen) and app.screen.target == "nyx"
        assert app.screen.roll_event is None
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, DamageScreen)


@pilot_test
async def test_D_after_a_lost_challenge_proposes_wound_steps_the_gm_edits() -> None:
    """EX C: 10,8,7 vs 6,5 → 3 degrees proposed; the GM takes one step back and confirms."""
    app = demo_app("rajapolku")
    assert app.tracker is not None
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.run_command(command("rolls.roll_raja", RajaSide("Alyosha", ["alyosha"], backgrounds=["a", "b"]),
                                              RajaSide("The Pickpocket", ["the-pickpocket"], backgrounds=["c"]),
                                              faces=([10, 8, 7], [6, 5])))
        await pilot.press("D")
        await settle(pilot)
        assert isinstance(app.screen, HarmScreen)
        assert "Healthy → Badly wounded" in str(app.screen.query_one("#rows-preview").render())
        await pilot.press("left", "y")
        await settle(pilot)
        assert records.raja(app.tracker.character("the-pickpocket"))["wound"] == "Wounded"


@pilot_test
async def test_add_four_gangers_from_a_template_and_remove_the_fallen_by_keys() -> None:
    app = demo_app("varjojuoksu")
    assert app.tracker is not None
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await select_char(pilot, "Ganger")
        await pilot.press("t", "enter")  # template "Ganger"
        await pilot.press("plus", "enter")  # 4 is proposed
        await settle(pilot)
        await pilot.press("enter")  # shared initiative
        await settle(pilot)
        names = [c["name"] for c in app.tracker.characters.values()]
        assert [n for n in names if n.startswith("Ganger ")] == ["Ganger 1", "Ganger 2", "Ganger 3", "Ganger 4"]
        assert sum(line.startswith(("Ganger 1", "Ganger 2", "Ganger 3", "Ganger 4")) for line in chars(app)) == 4
        assert app.tracker.roster.initiative_groups()[0][0]["initiative"] == "shared"
        # two fall
        for cid in ("ganger-2", "ganger-4"):
            app.run_command(command("set_condition", cid, "stun", app.tracker.condition_monitor(cid, "stun")))
        await pilot.press("F")  # one key
        await settle(pilot)
        left = [c["name"] for c in app.tracker.characters.values() if c["name"].startswith("Ganger ")]
        assert left == ["Ganger 1", "Ganger 3"]
        await pilot.press("u")
        await settle(pilot)
        assert "ganger-2" in app.tracker.characters, "one undo brings the fallen back"
    reopened, _ = load_tracker(SESSIONS / "varjojuoksu.toml")
    assert [c for _, m in reopened.roster.initiative_groups() for c in m] == [
        "ganger-1", "ganger-2", "ganger-3", "ganger-4"]


@pilot_test
async def test_C_copies_a_character_from_another_file() -> None:
    from polku.session import demo

    other = demo.demo_varjojuoksu()
    other.add_character("Rigger Ray", player="Ola")
    create_session(Path("other.toml").resolve(), other).close()
    app = demo_app("varjojuoksu")
    assert app.tracker is not None
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("C", *str(Path("other.toml").resolve()), "enter")
        await settle(pilot)
        texts = [str(o.prompt) for o in app.screen.query_one(OptionList)._options]
        i = next(i for i, t in enumerate(texts) if "Rigger Ray" in t)
        await pilot.press(*["down"] * i, "enter")
        await settle(pilot)
        assert "Rigger Ray" in [c["name"] for c in app.tracker.characters.values()]
        assert "Copied from other.toml: Rigger Ray" in app.tracker.events[-1]["text"]


# -- snapshots ---------------------------------------------------------------------------------


class TestDamagePrompts:
    @sizes
    def test_damage_prompt(self, snap_compare, size):
        """The damage rows after an attack with 3 net hits: target, remembered weapon, DV, damage, AP,
        armour, Edge; the preview line names the DV, the monitor and the resistance dice."""
        def before(app: PolkuApp) -> None:
            attack(app, [5, 6], [1, 2])
            first = tracker_of(app).events[-1]
            app.run_command(command("damage.apply", first, target="ganger", dv=5, ap=-1, armour=6,
                                                     weapon="Ares Predator", faces=[5, 5, 5, 5, 5, 5, 1, 1, 2]))
            attack(app, [5, 6, 5], [1, 2])

        assert snap_compare(demo_app("varjojuoksu"), run_before=snapshot_keys("D", before=before), terminal_size=size)

    @sizes
    def test_damage_prompt_after_the_resistance_roll(self, snap_compare, size):
        """After the resistance roll (faces 5 1 2 3 typed: 1 hit, 7 boxes): the title is the logged line, the
        dice and hits under it, and what the ganger's Edge can still do, each allowed or why not (S5–S7)."""
        def before(app: PolkuApp) -> None:
            attack(app, [5, 6, 5], [1, 2])

        keys = ("D", "f", "5", "comma", "1", "comma", "2", "comma", "3", "enter")
        assert snap_compare(demo_app("varjojuoksu"), run_before=snapshot_keys(*keys, before=before), terminal_size=size)

    @sizes
    def test_harm_prompt(self, snap_compare, size):
        """The harm proposal after EX C (3 degrees): Healthy → Badly wounded and the health note."""
        def before(app: PolkuApp) -> None:
            app.run_command(command("rolls.roll_raja",
                RajaSide("Alyosha", ["alyosha"], backgrounds=["a", "b"]),
                RajaSide("The Pickpocket", ["the-pickpocket"], backgrounds=["c"]), faces=([10, 8, 7], [6, 5])))

        assert snap_compare(demo_app("rajapolku"), run_before=snapshot_keys("D", before=before), terminal_size=size)



@pilot_test
async def test_l_picks_a_saved_pool_and_L_keeps_one_in_the_roll_screen() -> None:
    """Kaneda's "Ram the door (Body + Strength)" fills side A with one key; L keeps the next pool by name."""
    from polku.tui.screens.roll import SRRollScreen

    app = demo_app("varjojuoksu")
    assert app.tracker is not None
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.run_command(command("roster.save_pool", "kaneda", {
            "name": "Ram the door", "mode": "attr+attr", "skill": "", "attribute": "body",
            "second": "strength", "count": 0}))
        # The active challenge is Nyx's extended test, which keeps its roller (S10): t t makes it a
        # success test (extended → teamwork → success), then w 1 picks Kaneda for side A.
        await pilot.press("r", "t", "t", "w", "1")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, SRRollScreen) and screen.a.who == "kaneda"
        assert "l: 1 saved pool" in str(screen.query_one("#title-a").render())
        await pilot.press("l")
        await settle(pilot)
        assert (screen.a.sr.mode, screen.a.sr.attribute, screen.a.sr.second) == ("attr+attr", "body", "strength")
        assert "Ram the door" in str(screen.query_one("#title-a").render())
        a = records.sr(app.tracker.character("kaneda"))["attributes"]
        side = app.tracker.rolls.sr_side("kaneda", screen._spec(screen.a))
        assert app.tracker.rolls.sr_plan(side).size == a["body"] + a["strength"] - app.tracker.wound_penalty("kaneda")
        screen.a.pool(mode="skill", skill="Pistols")
        await pilot.press("L", "ctrl+u", *"Pistols", "enter")
        await settle(pilot)
        assert [p["name"] for p in app.tracker.roster.pools("kaneda")] == ["Ram the door", "Pistols"]
    reopened, _ = load_tracker(SESSIONS / "varjojuoksu.toml")
    assert cast(records.SRPoolTable, reopened.roster.pools("kaneda")[1])["skill"] == "Pistols"


@pilot_test
async def test_D_in_the_roll_screen_after_an_opposed_attack() -> None:
    from polku.tui.screens.roll import SRRollScreen

    app = demo_app("varjojuoksu")
    assert app.tracker is not None
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.push_screen(SRRollScreen(app.tracker, None, actor="kaneda"))  # a free roll
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, SRRollScreen)
        assert screen.test == "opposed"  # the test Kaneda rolled last (the demo's shoot-out)
        screen.set_who(screen.b, "ganger")
        screen.a.pool(mode="dice", dice=3)
        screen.b.pool(mode="dice", dice=2)
        screen.refresh_view()
        # Kaneda's wounds take a die off his 3 (the session says how many)
        na, nb = (app.tracker.rolls.sr_plan(screen._sr_side(x)).size for x in (screen.a, screen.b))
        screen._roll(([5] * na, [1] * nb))
        await settle(pilot)
        await pilot.press("D")
        await settle(pilot)
        assert isinstance(app.screen, DamageScreen) and app.screen.net_hits == na
        await pilot.press("r")
        await settle(pilot)
        await pilot.press("escape")  # done: the ganger keeps their Edge
        await settle(pilot)
        assert isinstance(app.screen, SRRollScreen)
        assert app.tracker.events[-1]["roll"]["test"] == "damage-resistance"


@pilot_test
async def test_D_in_the_narration_contest_after_a_harm_roll_writes_the_harm_note() -> None:
    """H9: Tuomas usurps with 4 dice (26 > 13); a firefight's GM roll 10+10+9+1 = 30 harms him; D, y."""
    from polku.tui.screens.narration import NarrationScreen

    app = demo_app("harhapolku")
    assert app.tracker is not None
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.run_command(command("rolls.narration_conflict", "firefight", False))
        app.run_command(command("rolls.narration_roll_background", "Tuomas", "Harbour rat", 8, faces=[8]))
        app.run_command(command("rolls.narration_usurp", "Tuomas", list(app.tracker.rolls.narration().hand("Tuomas"))))
        app.run_command(command("rolls.narration_harm", faces=[10, 10, 9, 1]))
        await pilot.press("h")
        await settle(pilot)
        assert isinstance(app.screen, NarrationScreen)
        await pilot.press("D")
        await settle(pilot)
        assert isinstance(app.screen, HarmScreen)
        await pilot.press("y")
        await settle(pilot)
        # The prompt gave the totals; the note, which outlives the roll, tells none of them.
        assert app.tracker.character("tuomas")["health"] == "harmed in the narration contest"


@pilot_test
async def test_the_sheet_shows_the_group_and_saved_pools_and_switches_the_groups_initiative() -> None:
    from textual.widgets import OptionList

    from polku.tui.screens.character import CharacterDetail

    app = demo_app("varjojuoksu")
    assert app.tracker is not None
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.run_command(command("roster.save_template", "ganger"))
        app.run_command(command("roster.add_from_template", "Ganger", 2))
        app.run_command(command("roster.save_pool", "ganger-1", {
            "name": "Knife", "mode": "skill", "skill": "Blades", "attribute": "agility", "second": "strength",
            "count": 0}))
        app.main_screen().open_detail("ganger-1")
        await settle(pilot)
        sheet = app.screen
        assert isinstance(sheet, CharacterDetail)
        rows = sheet.query_one("#detail-rows", OptionList)
        texts = option_texts(rows)
        assert any("Ganger: shared initiative" in x for x in texts)
        assert any("Knife (Blades + Agility)" in x for x in texts)
        rows.highlighted = rows.get_option_index("group")
        await pilot.press("enter")
        await settle(pilot)
        assert app.tracker.roster.groups["grp-ganger"]["initiative"] == "separate"
        rows.highlighted = rows.get_option_index("pool:0")
        await pilot.press("enter")
        await settle(pilot)
        assert app.tracker.roster.pools("ganger-1") == []


@pilot_test
async def test_minus_deletes_a_template_the_characters_stay_and_undo_brings_it_back() -> None:
    app = demo_app("varjojuoksu")
    assert app.tracker is not None
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("minus")  # none yet: said in one line, nothing logged
        await settle(pilot)
        assert any("No templates to delete" in str(m.message) for m in app._notifications)
        app.run_command(command("roster.save_template", "ganger"))
        app.run_command(command("roster.save_template", "nyx", "Hacker"))
        app.run_command(command("roster.add_from_template", "Ganger", 2))
        await settle(pilot)
        n = len(app.tracker.events)
        await pilot.press("minus")
        await settle(pilot)
        assert isinstance(app.screen, ChoicePrompt)
        assert [label for _, label in app.screen.choices] == ["Ganger", "Hacker"]
        await pilot.press("1")
        await settle(pilot)
        assert [x["name"] for x in app.tracker.roster.templates.values()] == ["Hacker"]
        assert {"ganger-1", "ganger-2"} <= set(app.tracker.characters), "the characters made from it stay"
        assert app.tracker.events[-1]["text"] == "Template Ganger removed" and len(app.tracker.events) == n + 1
        assert any("Template Ganger deleted" in str(m.message) for m in app._notifications)
    reopened, _ = load_tracker(SESSIONS / "varjojuoksu.toml")
    assert [x["name"] for x in reopened.roster.templates.values()] == ["Hacker"]
    app2 = PolkuApp(reopened, None, sessions_dir=SESSIONS, remember=False)
    async with app2.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("u")
        await settle(pilot)
        assert sorted(x["name"] for x in reopened.roster.templates.values()) == ["Ganger", "Hacker"]
