"""Snapshots of the fight: the turn order in the queue pane, the effects prompts, initiative by physical dice.

The Varjojuoksu demo ends in combat turn 1 with Nyx acting, Kaneda wounded (−1);
 each picture is taken at 80x24 and 120x40 like the others
(fixed clock and seed, pinned theme, no blinking cursors).
"""

from __future__ import annotations

from pathlib import Path
from typing import cast

import pytest

from app_fixtures import SIZE_IDS, SIZES, Setup, isolated, isolated_here, snapshot_keys, typed
from polku.session.commands import Command
from test_app_snapshots import demo_app

sizes = pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)


# Config and sessions in tmp_path, which is the working folder; colour on whatever the shell says.
pytestmark = pytest.mark.usefixtures(isolated.__name__, isolated_here.__name__)


class TestTurns:
    @sizes
    def test_a_held_action_and_a_wounded_fighter(self, snap_compare, size):
        """d: Nyx holds (‖) and Kaneda acts (▶, his 10 lowered to 9 by his wounds)."""
        assert snap_compare(demo_app("varjojuoksu"), run_before=snapshot_keys("d"), terminal_size=size)

    @sizes
    def test_end_of_turn_opens_the_initiative_screen(self, snap_compare, size):
        """space three times: the turn is over and the initiative screen for combat turn 2 opens by itself."""
        assert snap_compare(demo_app("varjojuoksu"), run_before=snapshot_keys("space", "space", "space"),
                            terminal_size=size)

    @sizes
    def test_initiative_by_physical_dice(self, snap_compare, size):
        """i, f: the faces prompt names how many dice each fighter throws, in order."""
        assert snap_compare(demo_app("varjojuoksu"), run_before=snapshot_keys("i", "f"), terminal_size=size)


class TestEffects:
    @sizes
    def test_add_an_effect(self, snap_compare, size):
        """f on Nyx (no effects yet): the one-line effect prompt, "Stunned -1 1 turn" typed."""
        run = snapshot_keys("2", "down", "f", *typed("Stunned -1 1 turn"))
        assert snap_compare(demo_app("varjojuoksu"), run_before=run, terminal_size=size)

    @sizes
    def test_a_bad_effect_is_named_under_the_field(self, snap_compare, size):
        """f on Nyx, "Stunned 3 bananas", Enter: the error line says what a duration looks like; nothing logged."""
        run = snapshot_keys("2", "down", "f", *typed("Stunned 3 bananas"), "enter")
        assert snap_compare(demo_app("varjojuoksu"), run_before=run, terminal_size=size)

    @sizes
    def test_the_effects_chooser(self, snap_compare, size):
        """f on the ganger after smoke was put on him: add another, or remove the smoke."""
        run = snapshot_keys("2", "down", "down", "f", *typed("Smoke -2 1 pass"), "enter", "f")
        assert snap_compare(demo_app("varjojuoksu"), run_before=run, terminal_size=size)


def _secret_turn_file(tmp_path: Path) -> Path:
    """The Varjojuoksu demo with the ganger secret and acting (Nyx and Kaneda have acted)."""
    from polku.session import demo

    t = demo.demo_varjojuoksu()
    t.update_character("ganger", "secret", True)
    t.combat.next()
    t.combat.next()
    assert t.state["combat"]["acting"] == "ganger"
    path = tmp_path / "fight.toml"
    from test_watch import write

    return write(path, t)  # the session and the players' file the views read


class TestWatch:
    def test_the_gm_s_turn(self, snap_compare, tmp_path):
        """polku watch in a fight: the secret ganger's turn reads "the GM's turn"; no row, no name of his."""
        from polku.session.files import load_tracker
        from test_watch import shown, watch_app

        path = _secret_turn_file(tmp_path)
        gm = load_tracker(path, read_only=True)[0]
        assert snap_compare(watch_app(path), run_before=lambda pilot: shown(pilot, gm), terminal_size=(80, 24))


def test_watch_shows_whose_turn_it_is_without_the_secret_fighter(tmp_path):
    import asyncio

    from polku.session.files import load_tracker
    from polku.tui.widgets.panes import TurnOrder
    from test_watch import shown, watch_app

    async def run() -> list[str]:
        app = watch_app(_secret_turn_file(tmp_path))
        async with app.run_test(size=(80, 24)) as pilot:
            await shown(pilot, load_tracker(app.path, read_only=True)[0])
            return app.screen.query_one("#turns", TurnOrder).lines

    lines = asyncio.run(run())
    assert lines[:2] == ["» Combat turn 1 · pass 1", "▶ the GM's turn"]
    assert [line[:1] for line in lines[2:]] == ["✓", "✓"]  # Nyx and Kaneda have acted; the ganger has no row
    assert "Ganger" not in " ".join(lines)


def setup_then(setup, *presses: str):
    """A run_before: run ``setup(tracker)`` as the app runs commands, then press each key, then settle."""

    # Setup stands in for a named Command (app_fixtures.Setup): it has the name and run() the app calls
    return snapshot_keys(*presses, before=lambda app: app.run_command(cast(Command, Setup(setup))))


def _gangers(t) -> None:
    t.roster.save_template("ganger")
    t.roster.add_from_template("Ganger", 3, initiative="shared")


def _templates(t) -> None:
    t.roster.save_template("ganger")
    t.roster.save_template("nyx", "Hacker")


class TestTableInMotion:
    @sizes
    def test_initiative_with_a_shared_group(self, snap_compare, size):
        """3× Ganger added mid-fight (shared initiative): i lists them ticked for the next combat turn, each
        row saying the group rolls once."""
        assert snap_compare(demo_app("varjojuoksu"), run_before=setup_then(_gangers, "i"), terminal_size=size)

    @sizes
    def test_delete_a_template(self, snap_compare, size):
        """-: which template to delete (the characters made from it stay; u brings it back)."""
        assert snap_compare(demo_app("varjojuoksu"), run_before=setup_then(_templates, "minus"), terminal_size=size)

    @sizes
    def test_a_rajapolku_pool_with_an_effect_row(self, snap_compare, size):
        """Alyosha is Blessed (+1): her pool has the effect's row, ticked, and its die (R4)."""
        run = setup_then(lambda t: t.combat.add_effect("alyosha", "Blessed", 1, "scene", 1), "r")
        assert snap_compare(demo_app("rajapolku"), run_before=run, terminal_size=size)

    @sizes
    def test_a_harhapolku_pool_with_an_effect_that_takes_dice(self, snap_compare, size):
        """Lena is Soaked (−1): her row is ticked and Tuomas, the challenger, rolls one more d8."""
        run = setup_then(lambda t: t.combat.add_effect("lena", "Soaked", -1, "scene", 1), "r")
        assert snap_compare(demo_app("harhapolku"), run_before=run, terminal_size=size)
