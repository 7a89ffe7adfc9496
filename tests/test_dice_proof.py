"""The dice commitment and the revealed secrets in full (``H``): in the players' view, a seat and the
GM's app, at 80x24 and larger; the status line's 8 hex digits are only a label (issue 27)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app_fixtures import make_app, pilot_test, screen_text, until, until_quiet
from polku.session import demo, store
from polku.session.files import create_session, document
from polku.session.players.players_file import Follower, publish
from polku.session.players.public import dice_proof, public_dice
from polku.session.tracker import Tracker

THEMES = Path(__file__).resolve().parents[1] / "themes"


def _revealed_once() -> Tracker:
    """A Varjojuoksu demo whose first session's secret is revealed (a fixed secret: the pictures stay)."""
    t = demo.demo_varjojuoksu(seed=7)
    t.new_dice_secret(reveal=False)  # secret #1 from the fixed seed
    t.new_session()  # reveals #1, commits #2
    return t


def _write(path: Path, t: Tracker) -> Path:
    """The session file and the players' file the GM's app writes beside it (what the views read)."""
    store.write_full(path, document(t.state, t.events, t.last_seq()))
    publish(path, t)
    return path


def _watch(path: Path):
    from polku.tui.watch import WatchApp

    return WatchApp(path, follower=Follower(path, now=lambda: "20:15:00"), theme="polku-dark",
                    theme_dirs=[THEMES], interval=0.05)


async def _opened(pilot) -> None:
    from polku.tui.screens.dice_proof import DiceProof

    app = pilot.app
    await until(pilot, lambda: getattr(app, "_shown", True) is not None, "the first view")
    await until_quiet(pilot)
    await pilot.press("H")
    await until(pilot, lambda: isinstance(app.screen, DiceProof), "the dice proof")
    await until_quiet(pilot)


def test_the_lines_give_every_hex_digit_and_never_the_secret_in_use():
    t = _revealed_once()
    lines = dice_proof(public_dice(t.state))
    text = "\n".join(lines)
    d = t.state["dice"]
    assert f"  {d['commitment']}" in lines and d["secret"] not in text
    old = d["revealed"][0]
    assert f"  {old['secret']}" in lines and f"  {old['commitment']}" in lines
    assert all(len(line) <= 74 for line in lines), "fits the dialog at 80 columns"
    assert "No dice secret is committed" in dice_proof(None)[0]


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_h_in_the_players_view_shows_the_full_commitment(snap_compare, tmp_path, size):
    path = _write(tmp_path / "s.toml", _revealed_once())
    assert snap_compare(_watch(path), run_before=_opened, terminal_size=size)


def test_h_in_the_gms_app_shows_what_the_players_see(snap_compare, tmp_path):
    t = _revealed_once()
    sf = create_session(tmp_path / "gm.toml", t)
    try:
        assert snap_compare(make_app(t, sf, sessions_dir=tmp_path), run_before=_opened, terminal_size=(80, 24))
    finally:
        sf.close()


@pilot_test
async def test_a_seat_shows_it_too_and_h_closes_it(tmp_path):
    from polku.tui.screens.dice_proof import DiceProof
    from polku.tui.seat import SeatApp

    t = _revealed_once()
    path = _write(tmp_path / "s.toml", t)
    app = SeatApp(path, "kaneda", follower=Follower(path, now=lambda: "20:15:00"), theme="polku-dark",
                  theme_dirs=[THEMES], interval=0.05)
    async with app.run_test(size=(80, 24)) as pilot:
        await _opened(pilot)
        shown = screen_text(app)
        assert t.state["dice"]["commitment"] in shown and t.state["dice"]["secret"] not in shown
        assert t.state["dice"]["revealed"][0]["secret"] in shown
        await pilot.press("H")
        await until(pilot, lambda: not isinstance(app.screen, DiceProof), "the dialog to close")


def test_the_players_help_lists_the_key():
    from polku.tui.seat import SEAT_HELP
    from polku.tui.watch import PLAYER_HELP

    for text in (PLAYER_HELP, SEAT_HELP):
        assert "  H              the dice commitment and revealed secrets in full" in text
