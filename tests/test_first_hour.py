"""What a new user meets in the first hour: ``python -m polku``, the app without a terminal, ``polku new``,
the README's own demo example, the lock notice, and the seat folders a session leaves behind."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from app_fixtures import demo_session, make_app, pilot_test, settle
from polku.session.files import load_tracker
from polku.session.players import seats
from polku.tui.run import open_for_app
from polku.tui.screens.chooser import ChooserScreen, NewCampaignScreen, shipped_sessions_dir

CHILD = 60
"""Seconds a child process may take before the test says it hung (generous: a loaded machine)."""


def polku(*args: str, stdin: int | None = subprocess.DEVNULL) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run([sys.executable, "-m", "polku", *args], stdin=stdin, capture_output=True,
                              text=True, timeout=CHILD)
    except subprocess.TimeoutExpired:
        pytest.fail(f"'python -m polku {' '.join(args)}' hung for {CHILD} s without a terminal")


def test_python_dash_m_polku_is_the_polku_command() -> None:
    done = polku("resolve", "rajapolku", "7,7,3", "8,5,3")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "Rajapolku: B wins, 1 degree"


@pytest.mark.parametrize("args", [(), ("new",), ("game.toml",), ("game.toml", "--read-only")],
                         ids=["chooser", "new", "file", "read-only"])
def test_the_app_without_a_terminal_refuses_in_one_line(tmp_path: Path, args: tuple[str, ...]) -> None:
    """`polku < /dev/null`, cron, a pipe: one line and status 2, no escape codes, no hang, no file."""
    done = subprocess.run([sys.executable, "-m", "polku", *args], stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=CHILD, cwd=tmp_path)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.splitlines() == [
        "polku: error: the GM's app needs a terminal (standard input and output are not one); "
        "run it in a terminal, or over SSH with 'ssh -t HOST polku FILE'"]
    assert list(tmp_path.iterdir()) == []


@pilot_test
async def test_polku_new_opens_the_new_campaign_form_over_the_chooser(tmp_path: Path) -> None:
    app = make_app(sessions_dir=tmp_path)
    app.start_new = True  # what `polku new` asks for (test_cli::test_app_routes: the verb passes it)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, NewCampaignScreen)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, ChooserScreen), "Escape leads to the chooser"


def test_polku_new_is_in_the_readme() -> None:
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    assert "| `polku new` |" in readme


# -- the README's own example: a shipped demo by path --------------------------------------------


def test_a_shipped_demo_by_path_is_played_as_a_copy(tmp_path: Path) -> None:
    demo = shipped_sessions_dir() / "demo-rajapolku.toml"
    shipped = demo.read_bytes()
    tracker, sf, opened, notices = open_for_app(demo, read_only=False, seed=None, sessions_dir=tmp_path)
    try:
        copy = tmp_path / "demo-rajapolku-play.toml"
        assert opened == copy and sf.path == copy and not sf.read_only
        assert notices == [f"{demo} is a shipped demo: you play a copy, {copy}; the demo stays as shipped"]
        tracker.new_scene()
        sf.save_now(tracker)
    finally:
        sf.close()
    assert demo.read_bytes() == shipped
    assert load_tracker(copy, read_only=True)[0].last_seq() == tracker.last_seq()
    # The next time: the same copy, where the GM left off.
    tracker2, sf2, opened, notices = open_for_app(demo, read_only=False, seed=None, sessions_dir=tmp_path)
    sf2.close()
    assert opened == copy and tracker2.last_seq() == tracker.last_seq()
    assert notices == [f"{demo} is a shipped demo: you go on with your copy {copy} "
                       "(the chooser's d starts it again from the demo)"]
    # Read-only, the demo itself (nothing is written anywhere).
    _, sf3, opened, notices = open_for_app(demo, read_only=True, seed=None, sessions_dir=tmp_path / "none")
    sf3.close()
    assert (opened, sf3.read_only, notices) == (demo, True, [])
    assert not (tmp_path / "none").exists()
    assert demo.read_bytes() == shipped


# -- a file another Polku holds -----------------------------------------------------------------

HOLDER = textwrap.dedent(
    """
    import sys, time
    from polku.session.store import SessionLock
    SessionLock(sys.argv[1]).acquire()
    print("locked", flush=True)
    time.sleep(120)
    """
)


def test_the_lock_notice_says_one_true_thing(tmp_path: Path) -> None:
    """Opened read-only because another Polku holds it: the notice does not also advise --read-only."""
    tracker, sf = demo_session(tmp_path, "rajapolku", "night")
    sf.close()
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(sf.path)], stdout=subprocess.PIPE, text=True,
                              env={**os.environ})
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        _, sf2, opened, notices = open_for_app(sf.path, read_only=False, seed=None, sessions_dir=tmp_path)
        sf2.close()
    finally:
        holder.kill()
        holder.wait(timeout=CHILD)

    assert sf2.read_only
    assert notices == [f"{sf.path} is open in another Polku (pid {holder.pid} on {socket.gethostname()}): "
                       "opened read-only here; close the other one to make changes"]


# -- seat folders only where a seat is -----------------------------------------------------------


@pilot_test
async def test_opening_a_session_leaves_no_folder_for_a_character_without_a_seat(tmp_path: Path) -> None:
    tracker, sf = demo_session(tmp_path, "varjojuoksu", "night")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        root = seats.spool_dir(sf.path)
        assert root.is_dir(), "the spool folder the seats write into"
        assert list(root.iterdir()) == [], "no character's folder until its seat opens"


# -- the same flag means the same thing in every verb --------------------------------------------


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    import json

    from polku.cli import main

    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_edge_before_E_adds_the_edge_dice_in_odds_as_in_roll(capsys: pytest.CaptureFixture[str]) -> None:
    """`--edge-before 3` is 3 Edge dice with the rule of six in roll, resolve and odds alike; bare (the older
    spelling of odds) the pool given already holds them."""
    with_e = _json(capsys, "odds", "shadowrun", "6", "--edge-before", "3", "--threshold", "2")
    bare = _json(capsys, "odds", "shadowrun", "9", "--edge-before", "--threshold", "2")
    plain = _json(capsys, "odds", "shadowrun", "9", "--threshold", "2")
    assert with_e == bare and with_e["rule_of_six"] is True and with_e != plain
    rolled = _json(capsys, "roll", "shadowrun", "6", "--edge-before", "3", "--seed", "4")
    assert (rolled["edge_dice"], rolled["edge"]) == (3, "before"), "6 dice and 3 Edge dice, rule of six"
    opposed = _json(capsys, "odds", "shadowrun-opposed", "6", "5", "--edge-before", "2", "--b-edge-before", "1")
    assert (opposed["a_dice"], opposed["b_dice"]) == (8, 6)
    assert opposed == _json(capsys, "odds", "shadowrun-opposed", "8", "6", "--edge-before", "--b-edge-before")


def test_intervals_defaults_to_the_same_number_in_roll_and_odds(capsys: pytest.CaptureFixture[str]) -> None:
    from polku.cli.common import INTERVALS_DEFAULT

    odds = _json(capsys, "odds", "shadowrun", "12", "--extended", "10000")
    rolled = _json(capsys, "roll", "shadowrun", "12", "--extended", "10000", "--seed", "1")
    assert odds["intervals"] == len(odds["success_at"]) == rolled["intervals"] == INTERVALS_DEFAULT == 20


@pytest.mark.parametrize("system", ["rajapolku", "harhapolku", "varjojuoksu"])
def test_the_shipped_demos_are_what_their_builder_writes_with_every_entry_told_from_facts(tmp_path, system):
    """A GM's first key (`d` in the chooser) opens a shipped demo. Written by an older builder, its log
    had no facts: the app said "entries from an older Polku are shown in English" on a fresh install,
    and a Finnish GM read the demo's log in English. The shipped files are the builder's, byte for byte
    (regenerate: ``python -m polku.session.demo sessions``), and every entry carries its fact."""
    from polku.session import store
    from polku.session.demo import write_demos

    write_demos(tmp_path)
    shipped = shipped_sessions_dir() / f"demo-{system}.toml"
    assert (tmp_path / shipped.name).read_bytes() == shipped.read_bytes(), (
        f"{shipped.name} is not what polku.session.demo builds: run 'python -m polku.session.demo sessions'")
    events = store.load(shipped).doc["event"]
    assert events and all("fact" in e for e in events), [e["text"] for e in events if "fact" not in e]
