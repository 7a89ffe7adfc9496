"""The app in English and in Finnish at 80x24: the main screen and the roll screen of each system, a
player's seat and the players' view (watch).

The Finnish pictures are for reading with the rule texts beside them (docs/glossary.md): the game
terms are the texts' own. The dice log's rolls are told from their facts (session/telling.py); what
is still English in them is the log's other kinds, a challenge's stored outcome, a pool's source
lines (issue 25, part two) and what the GM typed (names).
"""

from __future__ import annotations

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
        await until(pilot, lambda: pilot.app._shown is not None, "the view")
        await until_quiet(pilot)
        await pilot.wait_for_scheduled_animations()

    app = WatchApp(path, follower=Follower(path, now=lambda: "20:15:00"), theme="polku-dark", theme_dirs=[THEMES],
                   interval=0.05)
    assert snap_compare(app, run_before=run_before, terminal_size=SIZE)
