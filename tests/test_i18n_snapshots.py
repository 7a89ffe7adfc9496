"""The app in English and in Finnish at 80x24: the main screen and the roll screen of each system, a
player's seat and the players' view (watch).

The Finnish pictures are for reading with the rule texts beside them (docs/glossary.md): the game
terms are the texts' own. The dice log's rolls are told from their facts (session/telling.py); what
is still English in them is the log's other kinds, a challenge's stored outcome, a pool's source
lines (issue 25, part two) and what the GM typed (names).
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from textual.pilot import Pilot

from app_fixtures import (
    demo_session,
    isolated,
    isolated_here,
    make_app,
    screen_text,
    snapshot_keys,
    until,
    until_quiet,
)
from polku import i18n
from polku.session import demo, store
from polku.session.files import document
from polku.session.players import seats
from polku.session.players.players_file import Follower, publish
from polku.session.rolls import SRPool

THEMES = Path(__file__).resolve().parents[1] / "themes"
SESSIONS = Path("sessions")
SIZE = (80, 24)

pytestmark = pytest.mark.usefixtures(isolated.__name__, isolated_here.__name__)

languages = pytest.mark.parametrize("lang", ["en", "fi"])
systems = pytest.mark.parametrize("system", ["rajapolku", "harhapolku", "varjojuoksu"])

ROLL_KEYS = {"rajapolku": ("r",), "harhapolku": ("r",), "varjojuoksu": ("1", "end", "r")}
"""The roll screen of each demo: its active challenge; Varjojuoksu's success test on the last one."""


def gm_app(system: str, lang: str):
    i18n.set_language(lang)
    tracker, sf = demo_session(SESSIONS, system)
    return make_app(tracker, sf, sessions_dir=SESSIONS)


@languages
@systems
def test_main_screen(snap_compare, system, lang):
    """The status line (story, session, scene), the pane titles, the characters' wounds, charges, edges or
    Edge and monitors, and the key line in the language; names and the log's lines as stored."""
    assert snap_compare(gm_app(system, lang), run_before=snapshot_keys(), terminal_size=SIZE)


@languages
@systems
def test_roll_screen(snap_compare, system, lang):
    """Each system's roll screen: the sides, the rows (action die / 1d8 always / skill + attribute), the odds
    line, the hint and the key line in the language."""
    assert snap_compare(gm_app(system, lang), run_before=snapshot_keys(*ROLL_KEYS[system]), terminal_size=SIZE)


def _write(path: Path, t) -> Path:
    """The session file and the players' file the GM's app publishes beside it (what watch and seats read)."""
    store.write_full(path, document(t.state, t.events, t.last_seq()))
    publish(path, t)
    return path


@languages
def test_seat(snap_compare, tmp_path, lang):
    """Kaneda's seat: the GM's request (Pistols + Agility, threshold 2), the odds of hits and glitches, Edge
    before, and the keys, in the language."""
    from polku.tui.seat import SeatApp

    i18n.set_language(lang)
    t = demo.demo_varjojuoksu()
    seats.ask_sr(t, "kaneda", SRPool(skill="Pistols", attribute="agility"), threshold=2)
    path = _write(tmp_path / "night.toml", t)
    asks = i18n._("The GM asks you to roll")

    async def run_before(pilot: Pilot) -> None:
        await until(pilot, lambda: asks in screen_text(pilot.app), "the request")
        await until_quiet(pilot)

    app = SeatApp(path, "kaneda", follower=Follower(path, now=lambda: "20:15:00"), theme="polku-dark",
                  theme_dirs=[THEMES])
    assert snap_compare(app, run_before=run_before, terminal_size=SIZE)


@languages
def test_watch(snap_compare, tmp_path, lang):
    """The players' view of the Varjojuoksu demo: pane titles, status and keys in the language."""
    from polku.tui.watch import WatchApp

    i18n.set_language(lang)
    path = _write(tmp_path / "night.toml", demo.demo_varjojuoksu())

    async def run_before(pilot: Pilot) -> None:
        await until(pilot, lambda: isinstance(pilot.app, WatchApp) and pilot.app._shown is not None, "the view")
        await until_quiet(pilot)
        await pilot.wait_for_scheduled_animations()

    app = WatchApp(path, follower=Follower(path, now=lambda: "20:15:00"), theme="polku-dark", theme_dirs=[THEMES],
                   interval=0.05)
    assert snap_compare(app, run_before=run_before, terminal_size=SIZE)


# -- the character sheet, the new-character form, gear and the roster's prompts (Finnish) -----------------

def _gangers(app) -> None:
    """A Ganger template with a pistol and armour 4/2, and two gangers made from it."""
    from polku.session.commands import command
    from polku.session.table.gear import Armour, parse_weapon

    app.run_command(command("roster.save_template", "ganger"))
    app.run_command(command("roster.set_weapon", "Ganger", None, parse_weapon("Colt America L36, 4P, -, Pistols"),
                            template=True))
    app.run_command(command("roster.set_armour", "Ganger", Armour(4, 2), template=True))
    app.run_command(command("roster.add_from_template", "Ganger", 2))


SHEET_KEYS = {"rajapolku": ("down", "e"), "harhapolku": ("e",), "varjojuoksu": ("e",)}


@systems
def test_character_sheet_in_finnish(snap_compare, system):
    """Each system's sheet: the row labels (haavataso, lataukset, tarinapisteet; taustat ja terät; ominaisuudet,
    kyvyt, Edge, vauriomittarit, initiatiivi), the kinds and the hint in Finnish; names and typed labels as typed."""
    assert snap_compare(gm_app(system, "fi"), run_before=snapshot_keys(*SHEET_KEYS[system]), terminal_size=SIZE)


def test_character_form_in_finnish(snap_compare):
    """c on Varjojuoksu: the new-character form's labels, the attributes' short names and the hint."""
    assert snap_compare(gm_app("varjojuoksu", "fi"), run_before=snapshot_keys("c", "D", "o", "d", "g", "e", "r"),
                        terminal_size=SIZE)


def test_sheet_gear_rows_in_finnish(snap_compare):
    """Ganger 1's sheet at its gear: shared from the template, the pistol (kaukoase), the armour (luoti/isku)."""
    def setup(app) -> None:
        _gangers(app)
        app.main_screen().open_detail("ganger-1")

    assert snap_compare(gm_app("varjojuoksu", "fi"), run_before=snapshot_keys("end", before=setup), terminal_size=SIZE)


def test_template_gear_screen_in_finnish(snap_compare):
    """K: the template's gear, its title counting the characters sharing it, the hint."""
    assert snap_compare(gm_app("varjojuoksu", "fi"), run_before=snapshot_keys("K", before=_gangers), terminal_size=SIZE)


def test_add_from_template_in_finnish(snap_compare):
    """+ with two templates: which template, then how many (the prompt and its hint)."""
    def setup(app) -> None:
        from polku.session.commands import command

        _gangers(app)
        app.run_command(command("roster.save_template", "kaneda", "Samurai"))

    assert snap_compare(gm_app("varjojuoksu", "fi"), run_before=snapshot_keys("plus", "enter", before=setup),
                        terminal_size=SIZE)


# -- the review: timeline, filters and statistics (Finnish) -------------------------------------------------

def _review(lang: str):
    from polku.tui.review import ReviewApp

    i18n.set_language(lang)
    return ReviewApp(demo.demo_varjojuoksu(), Path("demo.toml"), theme="polku-dark", theme_dirs=[THEMES])


def _pressed(*presses: str):
    async def run_before(pilot: Pilot) -> None:
        await until_quiet(pilot)
        for key in presses:
            await pilot.press(key)
            await until_quiet(pilot)
        await pilot.wait_for_scheduled_animations()

    return run_before


def test_review_filtered_in_finnish(snap_compare):
    """Only Kaneda's wins: the status line's filters, the timeline's count, the state pane's title in Finnish."""
    assert snap_compare(_review("fi"), run_before=_pressed("c", "2", "o", "2"), terminal_size=SIZE)


def test_review_outcome_filter_in_finnish(snap_compare):
    """o: the outcomes and what each shows, the hint."""
    assert snap_compare(_review("fi"), run_before=_pressed("o"), terminal_size=SIZE)


def test_review_statistics_in_finnish(snap_compare):
    """S: the per-character table's headers, wins and losses, luck against the exact odds."""
    assert snap_compare(_review("fi"), run_before=_pressed("S"), terminal_size=SIZE)


def test_review_statistics_dice_in_finnish(snap_compare):
    """S then End: the faces against a fair die, the chi-square verdict in Finnish."""
    assert snap_compare(_review("fi"), run_before=_pressed("S", "end"), terminal_size=SIZE)


@systems
def test_the_roll_screens_result_speaks_the_gms_language(system):
    """A Finnish GM's roll: the result box's headline is the roll told from its fact (``Alyosha voittaa, 1 aste``),
    never the English the file keeps beside it (``Alyosha wins, 1 degree`` was shown), and the settings line too."""
    from polku.session import telling
    from polku.tui.screens.roll.base import RollScreen
    from test_telling import ENGLISH_WORDS

    app = gm_app(system, "fi")

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await snapshot_keys(*ROLL_KEYS[system])(pilot)
            roll = app.screen
            assert isinstance(roll, RollScreen)
            before = len(app.tracker.events)
            await pilot.press("r")
            await until(pilot, lambda: roll.result_lines and len(app.tracker.events) > before, "the roll's result")
            ev = app.tracker.events[-1]
            head = roll.result_lines[0]
            assert head == f"{ev['seq']}: {telling.roll_summary(ev)}", head
            assert ev["roll"]["summary"] not in head  # the stored English
            names = re.compile("|".join(re.escape(c["name"]) for c in app.tracker.characters.values()) + r"|\b[AB]\b")
            assert not ENGLISH_WORDS.search(names.sub("", head)), head
            # What can be done to the roll now (Edge after it, a reroll, the next interval) and the explanation.
            # (The settings line names each setting and value as --set takes them: raja.full_tie = reroll.)
            left = [line for line in roll.result_lines
                    if ENGLISH_WORDS.search(names.sub("", line)) and not line.startswith("  asetukset:")]
            assert not left, left
            settings = [line for line in roll.result_lines if "raja." in line or "harha." in line or "sr." in line]
            assert all(line.strip().startswith("asetukset:") and not re.search(r"\b(yes|no)\b", line)
                       for line in settings), settings

    asyncio.run(go())
