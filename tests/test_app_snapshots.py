"""Snapshots of the whole app: chooser, main screen per system, every modal, themes.

Each picture is taken at 80x24 (the smallest terminal Polku supports, e.g. tmux
over SSH) and at 120x40. The sessions are the demo campaigns (fixed clock and
seed), written to a temporary ``sessions/`` folder; the app gets a fixed clock
and seed, the theme is pinned to ``polku-dark`` from the repository's
``themes/`` folder, nothing is remembered, the config folder is temporary and
Input cursors do not blink. Every key is pressed in ``run_before`` and the
autosave worker is awaited, so the status line always reads ``[saved]``.

Read ``snapshot_report.html`` before accepting a ``--snapshot-update``.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from textual.pilot import Pilot

from app_fixtures import (
    REPO,
    SIZE_IDS,
    SIZES,
    demo_session,
    isolated,
    isolated_here,
    make_app,
    settle,
    snapshot_keys,
    until_quiet,
)
from polku.tui.app import PolkuApp
from polku.tui.screens.roll import RollScreen

SESSIONS = Path("sessions")
"""Relative to the temporary working folder, so the chooser shows the same path on every machine."""

sizes = pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)


# Config and sessions in tmp_path, which is the working folder; colour on whatever the shell says.
pytestmark = pytest.mark.usefixtures(isolated.__name__, isolated_here.__name__)


def demo_app(system: str, theme: str = "polku-dark") -> PolkuApp:
    tracker, sf = demo_session(SESSIONS, system)
    return make_app(tracker, sf, sessions_dir=SESSIONS, theme=theme)


def typed(text: str) -> list[str]:
    """Key names that type ``text``."""
    names = {" ": "space", ",": "comma", "-": "minus"}
    return [names.get(c, c) for c in text]


# -- start -----------------------------------------------------------------------------------------


class TestChooser:
    @sizes
    def test_chooser_lists_the_demo_copies(self, snap_compare, size):
        """No file given: the chooser lists two demo copies (newest first) with system, position, events
        and characters, then "+ New campaign" and "▶ Play a demo session"; the footer shows n/c/d/q."""
        SESSIONS.mkdir()
        for i, name in enumerate(("demo-rajapolku.toml", "demo-varjojuoksu.toml")):
            copy = SESSIONS / name
            shutil.copyfile(REPO / "sessions" / name, copy)
            os.utime(copy, (1_800_000_000 + i, 1_800_000_000 + i))
        app = make_app(sessions_dir=SESSIONS)
        assert snap_compare(app, run_before=snapshot_keys(), terminal_size=size)


# -- the main screen per system --------------------------------------------------------------------


class TestMainScreen:
    @sizes
    def test_rajapolku(self, snap_compare, size):
        """Rajapolku demo: resolved challenges with their outcomes and the waiting spirit combat;
        Igor "Wounded −1d" with his health note, charges as pips, story points; the log ends at event 17."""
        assert snap_compare(demo_app("rajapolku"), run_before=snapshot_keys(), terminal_size=size)

    @sizes
    def test_harhapolku(self, snap_compare, size):
        """Harhapolku demo: Lena's used edge "○ Quick fingers" next to the unused "● Cold head",
        backgrounds rolled this scene; the edge reroll in the log with ↻ on the replaced dice."""
        assert snap_compare(demo_app("harhapolku"), run_before=snapshot_keys(), terminal_size=size)

    @sizes
    def test_varjojuoksu(self, snap_compare, size):
        """Varjojuoksu demo: the initiative order (⇅ 10 Kaneda, 7 Ganger) above the challenges;
        Edge current/rating, physical and stun monitors as boxes, Kaneda's wound modifier −1."""
        assert snap_compare(demo_app("varjojuoksu"), run_before=snapshot_keys(), terminal_size=size)


class TestSmallTerminal:
    """60x20, below the 80x24 the app is laid out for: nothing crashes, keys are whole, the panes keep rows."""

    @pytest.mark.parametrize("system", ["rajapolku", "harhapolku", "varjojuoksu"])
    def test_main_screen(self, snap_compare, system):
        """The GM's screen at 60x20: status line, queue, characters and log still share the screen; the key
        line shows whole keys only, with ? Keys and ^p Commands on the right."""
        assert snap_compare(demo_app(system), run_before=snapshot_keys(), terminal_size=(60, 20))

    @pytest.mark.parametrize("system", ["rajapolku", "harhapolku", "varjojuoksu"])
    def test_roll_screen(self, snap_compare, system):
        """A roll screen at 60x20: both sides' rows one line each (cut with …), the pool and the odds; the
        result box is 4 rows so the lists keep theirs; the key line shows whole keys."""
        assert snap_compare(demo_app(system), run_before=snapshot_keys("r"), terminal_size=(60, 20))

    def test_varjojuoksu_result(self, snap_compare):
        """Kaneda's success test rolled at 60x20 (Nyx acts, ▶: w 1 is Kaneda): the 4-row result box shows
        the headline, the dice and the first hint; the pools above have not moved."""
        assert snap_compare(demo_app("varjojuoksu"), run_before=snapshot_keys("1", "end", "r", "w", "1", "r"),
                            terminal_size=(60, 20))


# -- the roll modals ---------------------------------------------------------------------------------


class TestRollModals:
    @sizes
    def test_rajapolku_background_toggled(self, snap_compare, size):
        """Rajapolku on "Spirit combat with the Nurse" as a plain contest: Alyosha's [x] Militia is toggled,
        the pool line reads "Alyosha: 2d10 action, Militia", odds with a bar and the degrees are shown."""
        assert snap_compare(demo_app("rajapolku"), run_before=snapshot_keys("r", "down", "enter"), terminal_size=size)

    @sizes
    def test_rajapolku_spirit_combat(self, snap_compare, size):
        """k switches to spirit combat (R11): each side's charges minus one are its d10s (4 vs 5);
        the pool text explains the rule and the odds follow the charges."""
        assert snap_compare(demo_app("rajapolku"), run_before=snapshot_keys("r", "k"), terminal_size=size)

    @sizes
    def test_harhapolku_chapter23(self, snap_compare, size):
        """Harhapolku on "Tuomas questions Lena's dream-sight": actor and challenger (H4), Lena's Thief
        toggled (2d8 vs 1d8), the chapter-23 reminder and the odds with a bar."""
        assert snap_compare(demo_app("harhapolku"), run_before=snapshot_keys("r", "down", "down", "enter"),
                            terminal_size=size)

    @sizes
    def test_harhapolku_unopposed(self, snap_compare, size):
        """d: an unopposed difficult action (H8): side B reads "— unopposed —", one 7+ needed,
        the success odds with a bar; Lena's Dream-walker d10 is claimed."""
        assert snap_compare(demo_app("harhapolku"), run_before=snapshot_keys("r", "d", "down", "down", "down",
                                                                    "down", "enter"), terminal_size=size)

    @sizes
    def test_varjojuoksu_success(self, snap_compare, size):
        """A success test on "Sneak past the Lone Star patrol" (highlighted in the queue with 1 and End):
        Kaneda's Pistols 4 + Agility 5, the wound modifier −1 (S12), threshold 2, hit distribution. The
        roll screen opens on Nyx, who acts (▶): w 1 makes it Kaneda's."""
        assert snap_compare(demo_app("varjojuoksu"), run_before=snapshot_keys("1", "end", "r", "w", "1"), terminal_size=size)

    @sizes
    def test_varjojuoksu_opposed(self, snap_compare, size):
        """t turns the same roll into an opposed test: B is the defending GM with a dice count (6),
        both pools are listed and the odds show Kaneda / stalemate / GM with a bar."""
        assert snap_compare(demo_app("varjojuoksu"), run_before=snapshot_keys("1", "end", "r", "w", "1", "t"), terminal_size=size)

    @sizes
    def test_varjojuoksu_extended(self, snap_compare, size):
        """r on "Crack the garage host" opens its extended test: threshold 10, progress 1/10 after
        1 interval, the hurried toggle and the odds of reaching the threshold."""
        assert snap_compare(demo_app("varjojuoksu"), run_before=snapshot_keys("r"), terminal_size=size)

    @sizes
    def test_varjojuoksu_edge_before_waves(self, snap_compare, size):
        """Edge before the roll typed from physical dice: Kaneda's 11 dice with two sixes, the wave of 2
        with one six, the last wave of 1; the result box (13 rows at 120x40) lists all 14 dice, the hits
        and what can be done next."""
        run = snapshot_keys("1", "end", "r", "w", "1", "down", "down", "down", "enter", "f", *typed("6 6 5 1 2 3 4 2 3 4 3"), "enter",
                   *typed("6 1"), "enter", "5", "enter")
        assert snap_compare(demo_app("varjojuoksu"), run_before=run, terminal_size=size)

    @pytest.mark.parametrize("system", ["rajapolku", "harhapolku", "varjojuoksu"])
    def test_long_name(self, snap_compare, system):
        """A 177-character name on side A at 80x24: cut with … in the side title, the Who row, the pool
        and the odds; the pools and the odds stay on screen."""
        long = "Bartholomew " + "Quintessential-" * 9 + "Vanderhuysen the Unconquerable"

        async def run(pilot: Pilot) -> None:
            await settle(pilot)
            await pilot.press("r")
            await until_quiet(pilot)
            app, roll = pilot.app, pilot.app.screen
            assert isinstance(app, PolkuApp) and app.tracker is not None and isinstance(roll, RollScreen)
            who = roll.a.who  # side A of the roll r opens
            await pilot.press("escape")
            app.tracker.update_character(who, "name", long)
            await snapshot_keys("r")(pilot)

        assert snap_compare(demo_app(system), run_before=run, terminal_size=(80, 24))

    @sizes
    def test_roll_result_from_entered_faces(self, snap_compare, size):
        """Rajapolku with physical dice: Militia and the ability Second sight toggled, f, faces 7,4,10
        for Alyosha and 9 for the Nurse; the result box lists "Alyosha: 7 4 ✦10" and the explanation."""
        run = snapshot_keys("r", "down", "enter", "down", "down", "down", "enter",
                   "f", *typed("7,4,10"), "enter", "9", "enter")
        assert snap_compare(demo_app("rajapolku"), run_before=run, terminal_size=size)


# -- the other modals --------------------------------------------------------------------------------


class TestOtherModals:
    @sizes
    def test_narration_contest(self, snap_compare, size):
        """h, then u: Tuomas burns Lena's table (6+7=13) with 5+9=14; the view shows the new narrator,
        the burned dice, the tier ("may prevent or parry") and what is left in hand."""
        run = snapshot_keys("h", "u", "1", "enter", "down", "down", "enter", "d")
        assert snap_compare(demo_app("harhapolku"), run_before=run, terminal_size=size)

    @sizes
    def test_character_form(self, snap_compare, size):
        """c on Varjojuoksu: the new-character form with name "Dodger" typed, kind, player and the
        eight attributes in a grid, Edge and skills."""
        run = snapshot_keys("c", *typed("Dodger"))
        assert snap_compare(demo_app("varjojuoksu"), run_before=run, terminal_size=size)

    @sizes
    def test_character_sheet(self, snap_compare, size):
        """e on Igor: the Rajapolku sheet with every field as a row — wound level with its penalty,
        charges as pips, story points, health note, backgrounds and the ability."""
        run = snapshot_keys("down", "e")
        assert snap_compare(demo_app("rajapolku"), run_before=run, terminal_size=size)

    @sizes
    def test_help(self, snap_compare, size):
        """?: every key of the main screen grouped (Session, Everywhere) and "How a session runs"."""
        assert snap_compare(demo_app("rajapolku"), run_before=snapshot_keys("question_mark"), terminal_size=size)

    @sizes
    def test_text_prompt(self, snap_compare, size):
        """a: the one-line "New challenge" prompt over the dimmed main screen, "Bribe the doorman" typed."""
        run = snapshot_keys("a", *typed("Bribe the doorman"))
        assert snap_compare(demo_app("rajapolku"), run_before=run, terminal_size=size)


# -- themes --------------------------------------------------------------------------------------------


class TestThemes:
    @sizes
    def test_high_contrast(self, snap_compare, size):
        """The Varjojuoksu main screen in the shipped high-contrast theme (chosen at start)."""
        assert snap_compare(demo_app("varjojuoksu", theme="high-contrast"), run_before=snapshot_keys(),
                            terminal_size=size)

    @sizes
    def test_switch_to_rajapolku_pulp(self, snap_compare, size):
        """The Rajapolku main screen after switching from polku-dark to the shipped rajapolku-pulp
        theme while running: panes and log colours follow the new theme."""

        def switch(pilot: Pilot) -> None:
            pilot.app.theme = "rajapolku-pulp"

        assert snap_compare(demo_app("rajapolku"), run_before=snapshot_keys(then=switch), terminal_size=size)
