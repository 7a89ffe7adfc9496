"""Commands with names: a screen posts which tracker call it wants and with what, not a closure.

The app's ``message_hook`` records what the screens post, so a test asserts the intent
(the command's name and arguments) beside what the user then sees.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.message import Message

from app_fixtures import demo_session, make_app, pilot_test, press, settle, tracker_of, until
from polku.session import demo
from polku.session.commands import FUNCTIONS, TRACKER_COMMANDS, Command, command, function
from polku.session.rolls import SRSide
from polku.session.tracker import Tracker
from polku.tui.messages import RunCommand
from polku.tui.screens.failure import CommandFailed
from polku.tui.screens.main import MainScreen
from polku.tui.screens.roll import SRRollScreen

SIZE = (80, 24)


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("POLKU_CONFIG_DIR", str(tmp_path / "config"))


def posted(messages: list[Message]) -> list[Command]:
    return [m.command for m in messages if isinstance(m, RunCommand)]


@pilot_test
async def test_r_on_a_roll_screen_posts_a_roll_command_naming_its_side(tmp_path: Path) -> None:
    """On a Varjojuoksu roll screen, r asks for a roll by name with the pool side A shows (who
    rolls, skill and attribute), and the roll is then in the log."""
    tracker, sf = demo_session(tmp_path, "varjojuoksu")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    assert app.tracker is not None
    messages: list[Message] = []
    async with app.run_test(size=SIZE, message_hook=messages.append) as pilot:
        await settle(pilot)
        await press(pilot, "1", "end", "r")
        screen = app.screen
        assert isinstance(screen, SRRollScreen) and screen.a.who
        shown = screen._sr_side(screen.a)
        name = {"success": "rolls.roll_sr", "opposed": "rolls.roll_sr_opposed"}[screen.test]
        rolls_before = sum(ev["kind"] == "roll" for ev in app.tracker.events)
        await press(pilot, "r")
        await until(pilot, lambda: sum(ev["kind"] == "roll" for ev in tracker_of(app).events) > rolls_before,
                    "the roll in the log")
    [cmd] = posted(messages)
    assert cmd.name == name
    side = cmd.args[0]
    assert isinstance(side, SRSide)
    assert (side.label, side.who, side.skill_name, side.skill, side.attribute) == \
        (shown.label, [screen.a.who], shown.skill_name, shown.skill, shown.attribute)
    assert side.skill is not None and side.attribute > 0, "a pool of a skill and an attribute"
    assert cmd.gm_only is False


@pilot_test
async def test_undo_posts_the_undo_command_and_the_undone_command_is_found_from_its_event(tmp_path: Path) -> None:
    """u on the GM's screen posts ``undo``; the undo event names the command it reverts by its
    number (``target``), whose events say what it was by their kind, no text parsed."""
    tracker, sf = demo_session(tmp_path, "rajapolku")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    assert app.tracker is not None
    messages: list[Message] = []
    async with app.run_test(size=SIZE, message_hook=messages.append) as pilot:
        await settle(pilot)
        app.run_command(command("note", "The ferryman asks for two coins"))
        await settle(pilot)
        await press(pilot, "u")
        await until(pilot, lambda: tracker_of(app).events[-1]["kind"] == "undo", "the undo event")
        undo = app.tracker.events[-1]
        reverted = [app.tracker.event_by_seq(q) for q in app.tracker.cmd_seqs(undo["target"])]
    assert [c.name for c in posted(messages)] == ["undo"]
    assert [ev["kind"] for ev in reverted] == ["note"]


def test_a_command_of_no_known_name_is_refused_when_it_is_made() -> None:
    with pytest.raises(ValueError, match="no command named 'rolls.roll_dice'"):
        command("rolls.roll_dice", 3)


def test_a_command_reads_as_its_call() -> None:
    assert repr(command("set_condition", "kaneda", "stun", 3)) == "set_condition('kaneda', 'stun', 3)"
    assert repr(command("rolls.narration_harm", faces=[10, 9], gm_only=True)) == \
        "rolls.narration_harm(faces=[10, 9]) [GM only]"


@pytest.mark.parametrize("system", sorted(demo.DEMOS))
def test_every_command_name_is_a_call_the_session_has(system: str) -> None:
    """A name that no longer resolves (a tracker method renamed) fails here, not at the table."""
    t: Any = demo.DEMOS[system]()
    for name in TRACKER_COMMANDS:
        target = t
        for part in name.split("."):
            target = getattr(target, part)
        assert callable(target), name
    for name in FUNCTIONS:
        assert callable(function(name)), name


def test_a_command_runs_its_call_on_the_tracker_and_gm_only_marks_its_events_secret() -> None:
    t = demo.DEMOS["rajapolku"]()
    command("note", "open").run(t)
    command("note", "hidden", gm_only=True).run(t)
    assert [(ev["text"], bool(ev.get("secret"))) for ev in t.events[-2:]] == [("open", False), ("hidden", True)]


@pilot_test
async def test_a_command_that_fails_unexpectedly_is_rolled_back_and_reported_in_one_dialog(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A fault in Polku (here a ValueError halfway through a note, after it changed the state) is
    not a refusal: the command is rolled back, one dialog says what to report (the error, the
    command, the session file), the file is as it was and the app goes on."""
    tracker, sf = demo_session(tmp_path, "rajapolku")
    app = make_app(tracker, sf, sessions_dir=tmp_path)

    def broken_note(self: Tracker, text: str) -> None:
        def build(txn: Any) -> None:
            txn.set(["campaign", "name"], "half-written")
            raise ValueError("the ink ran dry")

        self.run(build)

    monkeypatch.setattr(Tracker, "note", broken_note)
    assert app.tracker is not None
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        state = repr(app.tracker.state)
        events = len(app.tracker.events)
        saved = sf.path.read_bytes()
        app.post_message(RunCommand(command("note", "The ferryman asks for two coins"), origin=app.screen))
        await until(pilot, lambda: isinstance(app.screen, CommandFailed), "the failure dialog")
        report = str(app.screen.query_one("#failure-report").render())
        await settle(pilot)
        assert (repr(app.tracker.state), len(app.tracker.events)) == (state, events)
        assert sf.path.read_bytes() == saved
        await press(pilot, "enter")
        await until(pilot, lambda: isinstance(app.screen, MainScreen), "the GM's screen again")
        app.run_command(command("add_challenge", "Cross the river"))  # the app goes on
        await settle(pilot)
        assert app.tracker.state["challenges"][-1]["title"] == "Cross the river"
    lines = report.splitlines()
    assert lines[0] == "error: ValueError: the ink ran dry"
    assert lines[1].startswith("raised in: test_commands.py:")
    assert lines[2:] == ["command: note('The ferryman asks for two coins')", f"session file: {sf.path}"]
