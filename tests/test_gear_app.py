"""Gear and Chummer import in the GM's app, by keys at 80x24: weapons and armour on a sheet and on
a template, a group sharing its template's gear in the damage prompt (w picks the weapon, the armour
of its kind is named), importing a Chummer file from the app — plus snapshots at 80x24 and 120x40."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import OptionList

from app_fixtures import (
    SIZE_IDS,
    SIZES,
    demo_session,
    isolated,
    isolated_here,
    make_app,
    pilot_test,
    settle,
    snapshot_keys,
    until_quiet,
)
from polku.session import records
from polku.session.commands import command
from polku.session.rolls import SRSide
from polku.session.table.gear import Armour, parse_weapon
from polku.tui.app import PolkuApp
from polku.tui.screens.character import CharacterDetail
from polku.tui.screens.damage import DamageScreen
from polku.tui.screens.gear import TemplateGearScreen

SIZE = (80, 24)
SESSIONS = Path("sessions")
CHUMMER = Path(__file__).parent / "data" / "chummer"
sizes = pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)

pytestmark = pytest.mark.usefixtures(isolated.__name__, isolated_here.__name__)


def demo_app() -> PolkuApp:
    tracker, sf = demo_session(SESSIONS, "varjojuoksu")
    return make_app(tracker, sf, sessions_dir=SESSIONS)


def rows(app: App[Any], selector: str) -> list[str]:
    ol = app.screen.query_one(selector, OptionList)
    return [str(ol.get_option_at_index(i).prompt) for i in range(ol.option_count)]


async def to_row(pilot: Pilot, selector: str, text: str) -> None:
    """Move the highlight to the first row holding ``text``."""
    texts = rows(pilot.app, selector)
    i = next(i for i, t in enumerate(texts) if text in t)
    ol = pilot.app.screen.query_one(selector, OptionList)
    steps = i - (ol.highlighted or 0)
    await pilot.press(*(["down"] * steps if steps > 0 else ["up"] * -steps))


def gangers(app: PolkuApp) -> None:
    """A Ganger template with a pistol and armour 4/2, and two gangers made from it."""
    app.run_command(command("roster.save_template", "ganger"))
    app.run_command(command("roster.set_weapon", "Ganger", None, parse_weapon("Colt America L36, 4P, -, Pistols"),
                                                  template=True))
    app.run_command(command("roster.set_armour", "Ganger", Armour(4, 2), template=True))
    app.run_command(command("roster.add_from_template", "Ganger", 2))


@pilot_test
async def test_a_weapon_and_armour_typed_on_the_sheet() -> None:
    """e on Kaneda, Enter on '+ add a weapon…', one line; Enter on Armour, 6/4. A bad AP is refused in
    the prompt in one line and nothing changes."""
    app = demo_app()
    assert app.tracker is not None
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.main_screen().open_detail("kaneda")
        await settle(pilot)
        assert isinstance(app.screen, CharacterDetail)
        await to_row(pilot, "#detail-rows", "+ add a weapon")
        await pilot.press("enter", *"Katana, 7P, x, Blades", "enter")
        await until_quiet(pilot)
        assert "AP must be" in str(app.screen.query(".dialog--error").first().render())
        await pilot.press("ctrl+u", *"Katana, 7P, -1, Blades", "enter")
        await settle(pilot)
        assert isinstance(app.screen, CharacterDetail)
        assert any("Katana 7P AP −1 (Blades, melee)" in r for r in rows(app, "#detail-rows"))
        await to_row(pilot, "#detail-rows", "Armour")
        await pilot.press("enter", "ctrl+u", *"6/4", "enter")
        await settle(pilot)
        assert records.sr(app.tracker.character("kaneda"))["armour"] == {"ballistic": 6, "impact": 4}
        assert any("ballistic 6 / impact 4" in r for r in rows(app, "#detail-rows"))
        w = app.tracker.damage.weapons("kaneda")
        assert [x.name for x in w] == ["Katana"] and w[0].ap.modifier == -1


@pilot_test
async def test_K_edits_the_templates_gear_and_the_group_shares_it_in_the_damage_prompt() -> None:
    """K opens the Ganger template's gear; a knife added there is every ganger's. A ganger's attack on
    Kaneda (armour 6/4): the damage prompt proposes the pistol against ballistic 6; w takes the knife,
    the armour row says impact 4 and the preview counts it."""
    app = demo_app()
    assert app.tracker is not None
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        gangers(app)
        app.run_command(command("roster.set_armour", "kaneda", Armour(6, 4)))
        await settle(pilot)
        await pilot.press("K")
        await settle(pilot)
        assert isinstance(app.screen, TemplateGearScreen)
        assert "shared by 2 characters" in str(app.screen.query_one("#tplgear-title").render())
        await to_row(pilot, "#tplgear-rows", "+ add a weapon")
        await pilot.press("enter", *"Knife, 3P, -, Blades", "enter")
        await settle(pilot)
        assert any("Knife 3P (Blades, melee)" in r for r in rows(app, "#tplgear-rows"))
        await pilot.press("escape")
        await settle(pilot)
        assert [w.name for w in app.tracker.damage.weapons("ganger-2")] == ["Colt America L36", "Knife"]
        app.run_command(command("rolls.roll_sr_opposed", SRSide("Ganger 1", ["ganger-1"], dice=3),
                                                          SRSide("Kaneda", ["kaneda"], dice=2),
                                                          faces=([5, 6, 5], [1, 2])))
        await settle(pilot)
        await pilot.press("D")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, DamageScreen)
        texts = rows(app, "#rows")
        assert any("Colt America L36" in r and "1/2 on the sheet" in r for r in texts)
        assert any("Armour: ballistic" in r and "6" in r for r in texts)
        await pilot.press("w")
        await until_quiet(pilot)
        texts = rows(app, "#rows")
        assert any("Knife" in r and "2/2 on the sheet" in r for r in texts)
        assert any("Armour: impact" in r and "4  (impact meets a melee weapon)" in r for r in texts)
        assert "impact armour 4" in str(screen.query_one("#rows-preview").render())
        await pilot.press("r")
        await settle(pilot)
        assert records.sr(app.tracker.character("ganger-1"))["wielded"] == "Knife"
        assert "weapons" not in app.tracker.character("ganger-1"), "the knife was the template's: still shared"


@pilot_test
async def test_I_imports_a_chummer_file_as_a_template_and_says_what_it_could_not_map() -> None:
    app = demo_app()
    assert app.tracker is not None
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        shutil.copy(CHUMMER / "Street Samurai.chum", SESSIONS / "sam.chum")
        await pilot.press("I")
        await until_quiet(pilot)
        await pilot.press(*"sam.chum", "enter")
        await settle(pilot)
        assert "Not mapped: specialisations: Perception (Visual)" in str(
            app.screen.query(".dialog--hint").first().render())
        await pilot.press("2")
        await settle(pilot)
        tpl = records.sr(app.tracker.roster.template("Street Samurai"))
        assert tpl["attributes"]["agility"] == 8 and tpl["initiative_passes"] == 3
        assert app.tracker.events[-1]["text"] == "Template Street Samurai imported from sam.chum"


@pilot_test
async def test_I_refuses_a_hostile_file_in_one_line_and_changes_nothing() -> None:
    app = demo_app()
    assert app.tracker is not None
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        shutil.copy(CHUMMER / "broken" / "entity-bomb.chum", SESSIONS / "bomb.chum")
        n = len(app.tracker.events)
        await pilot.press("I")
        await until_quiet(pilot)
        await pilot.press(*"bomb.chum", "enter")
        await settle(pilot)
        assert len(app.tracker.events) == n
        notes = [str(x.message) for x in app._notifications]
        assert any("declares a DTD or entities" in m and "\n" not in m for m in notes)


# -- snapshots ---------------------------------------------------------------------------------


class TestGearScreens:
    @sizes
    def test_sheet_gear_rows(self, snap_compare, size):
        """Ganger 1's sheet at its gear: shared from the template, the pistol and the knife, armour 4/2."""
        def before(app: PolkuApp) -> None:
            gangers(app)
            app.run_command(command("roster.set_weapon", "Ganger", None, parse_weapon("Knife, 3P, -, Blades"),
                                                          template=True))
            app.main_screen().open_detail("ganger-1")

        assert snap_compare(demo_app(), run_before=snapshot_keys(*["end"], before=before), terminal_size=size)

    @sizes
    def test_template_gear_screen(self, snap_compare, size):
        def before(app: PolkuApp) -> None:
            gangers(app)

        assert snap_compare(demo_app(), run_before=snapshot_keys("K", before=before), terminal_size=size)

    @sizes
    def test_damage_prompt_with_a_melee_weapon_from_the_sheet(self, snap_compare, size):
        """Kaneda attacks the Ganger (armour 6/2) with his katana: impact armour 2 meets it, AP −1."""
        def before(app: PolkuApp) -> None:
            app.run_command(command("roster.set_weapon", "kaneda", None, parse_weapon("Katana, 7P, -1, Blades")))
            app.run_command(command("roster.set_armour", "ganger", Armour(6, 2)))
            app.run_command(command("rolls.roll_sr_opposed", SRSide("Kaneda", ["kaneda"], dice=3),
                                                              SRSide("Ganger", ["ganger"], dice=2),
                                                              faces=([5, 6, 5], [1, 2])))

        assert snap_compare(demo_app(), run_before=snapshot_keys("D", before=before), terminal_size=size)

    @sizes
    def test_import_choice_with_what_is_not_mapped(self, snap_compare, size):
        def before(app: PolkuApp) -> None:
            shutil.copy(CHUMMER / "Street Samurai.chum", SESSIONS / "sam.chum")

        keys = ("I", "s", "a", "m", "full_stop", "c", "h", "u", "m", "enter")
        assert snap_compare(demo_app(), run_before=snapshot_keys(*keys, before=before), terminal_size=size)


@pilot_test
async def test_a_skill_imported_with_its_own_link_builds_its_pool_on_that_attribute() -> None:
    """Chummer links Swimming to Strength (Polku's usual link is Body): the roll screen for the imported
    character starts Swimming on Strength (S1's pool default follows the sheet)."""
    from polku.session.importers.chummer import read_chummer
    from polku.tui.screens.roll import roll_screen_for

    app = demo_app()
    assert app.tracker is not None
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        block = read_chummer(CHUMMER / "Street Samurai.chum").character
        assert block["links"]["Swimming"] == "strength"
        block = {**block, "skills": {"Swimming": 3}}
        cid = app.tracker.roster.add_imported(block, source="x")
        await settle(pilot)
        assert app.tracker.rolls.sr_linked_attribute("Swimming", "body", cid) == "strength"
        assert app.tracker.rolls.sr_linked_attribute("Swimming", "body", "kaneda") == "body"
        app.push_screen(roll_screen_for(app.tracker, None, actor=cid))
        await settle(pilot)
        side = app.screen.a  # type: ignore[attr-defined]
        assert (side.sr.skill, side.sr.attribute) == ("Swimming", "strength")
