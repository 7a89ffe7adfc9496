"""Pilot tests of whole game-night flows at 80x24, by keyboard alone.

Each flow starts from a demo campaign written to tmp_path, presses the keys a
GM would press, and checks three things: the tracker (what happened), the
panes (what the GM sees) and the file on disk (what survives a quit).
``message_hook`` records the app's messages, so saves are seen as
``SessionSaved`` / ``SaveFailed`` events rather than guessed from timing.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any

import pytest
from textual.message import Message

from app_fixtures import (
    demo_session,
    isolated,
    log_lines,
    make_app,
    panes,
    pilot_test,
    press,
    screen_text,
    settle,
    typed,
)
from polku.session import files, records, store
from polku.session.commands import command
from polku.session.model import clone
from polku.tui.messages import SaveFailed, SessionSaved
from polku.tui.render import plain_styles
from polku.tui.screens.main import MainScreen
from polku.tui.screens.prompts import ChoicePrompt, FacesPrompt, TextPrompt
from polku.tui.screens.roll import HarhaRollScreen, RajaRollScreen, SideList, SRRollScreen

SIZE = (80, 24)
pytestmark = pytest.mark.usefixtures(isolated.__name__)


def notes(app: Any) -> list[tuple[str, str, str]]:
    """(severity, title, message) of every notification still shown."""
    return [(n.severity, n.title, n.message) for n in app._notifications]


def of_kind(messages: list[Message], kind: type) -> list[Any]:
    return [m for m in messages if isinstance(m, kind)]


def highlighted_row(screen: Any, side: str = "a") -> str | None:
    option = screen.query_one(f"#side-{side}", SideList).highlighted_option
    return option.id if option is not None else None


def line_of(app: Any, seq: int) -> str:
    """The visible dice-log line of event ``seq`` (clipped to the pane, as the GM sees it)."""
    lines = [line for line in log_lines(app) if line.lstrip().startswith(f"{seq} ")]
    assert lines, f"event {seq} is not visible in the log: {log_lines(app)}"
    return lines[0]


def struck(app: Any, seq: int) -> bool:
    """Whether the log draws event ``seq`` struck through (undone)."""
    from polku.tui.widgets.dice_log import DiceLog

    log = app.main_screen().query_one(DiceLog)
    for y in range(log.scrollable_content_region.height):
        strip = log.render_line(y)
        if strip.text.lstrip().startswith(f"{seq} "):
            return any(seg.style is not None and seg.style.strike for seg in strip if seg.text.strip())
    raise AssertionError(f"event {seq} is not visible in the log")


def character_row(app: Any, name: str) -> str:
    rows = [r for r in panes(app)["chars"] if r.startswith(name)]
    assert rows, f"{name} not in the character pane"
    return rows[0]


# -- (a) Harhapolku: pool, faces, edge reroll, undo, quit, reopen ---------------------------------------


@pilot_test
async def test_harhapolku_roll_edge_reroll_undo_quit_and_reopen(tmp_path: Path) -> None:
    tracker, sf = demo_session(tmp_path, "harhapolku")
    path = sf.path
    messages: list[Message] = []
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=SIZE, message_hook=messages.append) as pilot:
        await settle(pilot)
        # r on the waiting challenge; Lena (actor) against Tuomas (challenger)
        await press(pilot, "r")
        roll = app.screen
        assert isinstance(roll, HarhaRollScreen) and roll.challenge_id is not None
        challenge = tracker.challenge(roll.challenge_id)
        assert challenge["title"] == "Tuomas questions Lena's dream-sight"
        assert (roll.a.label, roll.b.label) == ("Lena", "Tuomas")

        # toggle Lena's Thief background: the pool grows to 2d8
        await press(pilot, "down", "down")
        assert highlighted_row(roll) == "bg:plain:Thief"
        await press(pilot, "enter")
        assert roll.a.claims == {"plain": "Thief"}
        assert "Lena: 2d8  d8 always, d8 Thief" in screen_text(app)

        # physical dice: Lena 2,3 and Tuomas 6
        await press(pilot, "f")
        assert isinstance(app.screen, FacesPrompt)
        await press(pilot, *typed("2,3"), "enter")
        assert isinstance(app.screen, FacesPrompt)  # now Tuomas's faces
        await press(pilot, "6", "enter")
        await settle(pilot)
        assert app.screen is roll
        first = tracker.events[-1]
        assert first["kind"] == "roll" and first["roll"]["manual"]
        assert [[d["face"] for d in s["dice"]] for s in first["roll"]["sides"]] == [[2, 3], [6]]
        assert first["roll"]["summary"] == "Tuomas wins 0–1"
        shown = screen_text(app)
        assert f"{first['seq']}: Tuomas wins 0–1" in shown
        assert "Lena: 2 3" in shown and "Tuomas: 6" in shown
        # the hint is the result's last line (at 80x24 it is below the fold of the result box)
        # hints come before the explanation; the roll was typed, so the reroll is typed too
        assert ("  e: reroll a side's whole pool with an edge (H7), typing the new faces"
                in roll.result_lines[:4])

        # e: Lena rerolls her pool with the edge Cold head, throwing her two physical d8s again
        await press(pilot, "e")
        assert isinstance(app.screen, ChoicePrompt)
        assert [v.split("\x1f")[2] for v, _ in app.screen.choices] == ["Cold head", "Iron grip"]
        await press(pilot, "1")
        await settle(pilot)
        assert isinstance(app.screen, FacesPrompt) and app.screen.count == 2
        await press(pilot, "5", "space", "9", "enter")  # a d8 cannot show 9: said, the prompt stays
        await settle(pilot)
        assert isinstance(app.screen, FacesPrompt) and "die 2 (d8)" in screen_text(app)
        await press(pilot, "backspace", "4", "enter")
        await settle(pilot)
        assert app.screen is roll
        spent, reroll = tracker.events[-2], tracker.events[-1]
        assert spent["kind"] == "resource" and spent["text"] == "Lena uses edge 'Cold head' for a reroll"
        assert reroll["roll"]["rerolls"] == first["seq"]
        lena, tuomas = reroll["roll"]["sides"]
        assert [d["replaced"] for d in lena["dice"]] == [[2], [3]]
        assert [d["face"] for d in lena["dice"]] == [5, 4] and reroll["roll"]["manual"]
        assert [d["face"] for d in tuomas["dice"]] == [6] and "replaced" not in tuomas["dice"][0]
        assert f"{reroll['seq']}: {reroll['roll']['summary']} (after edge 'Cold head')" in screen_text(app)

        # back on the main screen: the edge is used, the log shows the reroll
        await press(pilot, "escape")
        assert isinstance(app.screen, MainScreen)
        assert "edges ○ Cold head ○ Quick" in character_row(app, "Lena")
        assert "↻" in line_of(app, reroll["seq"])
        # the outcome comes first so a narrow pane shows who won; then the faces
        assert "Tuomas wins 0–1 │ ✍ Lena 2/d8 3/d8ᵇ" in line_of(app, first["seq"])

        # u undoes the reroll (both of its events): the edge is free again
        await press(pilot, "u")
        await settle(pilot)
        assert tracker.is_undone(reroll["seq"]) and tracker.is_undone(spent["seq"])
        assert not tracker.is_undone(first["seq"])
        assert records.harha(tracker.characters["lena"])["edges"][0] == {"name": "Cold head", "used": False}
        assert struck(app, reroll["seq"]) and not struck(app, first["seq"])
        assert "edges ● Cold head ○ Quick" in character_row(app, "Lena")
        # The toast names the whole command undone: the edge spent and the roll it bought.
        assert ("information", "Undone", f"Lena uses edge 'Cold head' for a reroll\n{reroll['text']}") in notes(app)
        assert of_kind(messages, SessionSaved) and not of_kind(messages, SaveFailed)
        assert panes(app)["status"].startswith("[saved]")

        seen = panes(app)
        state = clone(tracker.state)
        events = [dict(e) for e in tracker.events]
        undone = set(tracker.undone)
        await press(pilot, "q")
    assert app.return_code == 0

    # the file holds exactly what the app had
    reloaded, notices = files.load_tracker(path)
    assert notices == []
    assert reloaded.state == state
    assert [dict(e) for e in reloaded.events] == events
    assert set(reloaded.undone) == undone

    # a new app on the same file shows the same screen
    tracker2, sf2 = files.open_session(path)
    app2 = make_app(tracker2, sf2, sessions_dir=tmp_path)
    async with app2.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app2.screen, MainScreen)
        assert panes(app2) == seen
        await press(pilot, "q")


# -- (b) Rajapolku: add, start, roll, resolved ----------------------------------------------------------


@pilot_test
async def test_rajapolku_add_start_roll_resolves_the_challenge(tmp_path: Path) -> None:
    tracker, sf = demo_session(tmp_path, "rajapolku")
    messages: list[Message] = []
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=SIZE, message_hook=messages.append) as pilot:
        await settle(pilot)
        await press(pilot, "a")
        assert isinstance(app.screen, TextPrompt)
        await press(pilot, *typed("Pick the lock"), "enter")
        await settle(pilot)
        added = tracker.state["challenges"][-1]
        assert (added["title"], added["status"]) == ("Pick the lock", "waiting")
        assert "○ Pick the lock" in panes(app)["queue"]

        # 1 focuses the queue, End highlights the new challenge, s starts it
        await press(pilot, "1", "end", "s")
        await settle(pilot)
        assert tracker.challenge(added["id"])["status"] == "active"
        assert "▶ Pick the lock" in panes(app)["queue"]

        # r opens its roll screen (Alyosha against the GM), r rolls
        await press(pilot, "r")
        roll = app.screen
        assert isinstance(roll, RajaRollScreen) and roll.challenge_id == added["id"]
        assert (roll.a.label, roll.b.label) == ("Alyosha", "GM")
        await press(pilot, "r")
        await settle(pilot)
        ev = tracker.events[-1]
        assert ev["kind"] == "roll" and ev["challenge"] == added["id"]
        outcome = ev["roll"]["summary"]
        resolved = tracker.challenge(added["id"])
        assert (resolved["status"], resolved["outcome"]) == ("resolved", outcome)
        assert f"{ev['seq']}: {outcome}" in screen_text(app)

        await press(pilot, "escape")
        assert f"✓ Pick the lock — {outcome}" in panes(app)["queue"]
        assert line_of(app, ev["seq"]).split()[2] == "Alyosha"
        assert len(of_kind(messages, SessionSaved)) >= 3  # add, start, roll: each saved
        assert not of_kind(messages, SaveFailed)
    reloaded, _ = files.load_tracker(sf.path)
    assert reloaded.challenge(added["id"])["outcome"] == outcome


# -- (c) Varjojuoksu: Edge before the roll; Edge after with none left --------------------------------------


@pilot_test
async def test_varjojuoksu_long_shot_and_edge_before_exclude_each_other(tmp_path: Path) -> None:
    """S3 and S7: ticking Long Shot unticks Edge before, and ticking Edge before unticks Long Shot."""
    tracker, sf = demo_session(tmp_path, "varjojuoksu")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "1", "end", "r")
        roll = app.screen
        assert isinstance(roll, SRRollScreen)
        await press(pilot, "down", "down", "down")
        assert highlighted_row(roll) == "edge"
        await press(pilot, "enter", "down")
        assert highlighted_row(roll) == "long"
        await press(pilot, "enter")
        assert "[x] Long Shot" in screen_text(app) and "[ ] Edge before" in screen_text(app)
        await press(pilot, "up", "enter")
        assert "[x] Edge before" in screen_text(app) and "[ ] Long Shot" in screen_text(app)
        assert roll.a.sr.edge_before and not roll.a.sr.long_shot


@pilot_test
async def test_varjojuoksu_edge_before_the_roll_and_none_left_after(tmp_path: Path) -> None:
    tracker, sf = demo_session(tmp_path, "varjojuoksu")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert "Edge 3/3" in character_row(app, "Kaneda")
        await press(pilot, "1", "end", "r", "w", "1")  # r opens on the ▶ fighter (Nyx); w 1 picks Kaneda
        roll = app.screen
        assert isinstance(roll, SRRollScreen) and roll.test == "success" and roll.challenge_id is not None
        assert tracker.challenge(roll.challenge_id)["title"] == "Sneak past the Lone Star patrol"
        await press(pilot, "down", "down", "down")
        assert highlighted_row(roll) == "edge"
        await press(pilot, "enter")
        assert roll.a.sr.edge_before
        assert "[x] Edge before (Edge 3/3): +3 dice" in screen_text(app)
        await press(pilot, "r")
        await settle(pilot)
        spent, ev = tracker.events[-2], tracker.events[-1]
        assert spent["kind"] == "resource" and spent["text"].startswith("Kaneda spends Edge")
        assert any(d["source"] == "edge" for d in ev["roll"]["sides"][0]["dice"])
        assert records.sr(tracker.characters["kaneda"])["edge"] == 2
        # Edge already added dice before the roll: e after it is refused in one line (S7)
        count = len(tracker.events)
        await press(pilot, "e")
        assert app.screen is roll and len(tracker.events) == count
        assert ("error", "Not done", "Edge already added dice to this test (before the roll): "
                "one Edge point per test for dice (S7)") in notes(app)
        await press(pilot, "escape")
        assert "Edge 2/3" in character_row(app, "Kaneda")

        # the Ganger spends his only Edge point (E on the character pane), then rolls without Edge:
        # e (Edge after) has nothing to spend and says so in one line
        await press(pilot, "2", "home", "down", "down")
        main = app.screen
        assert isinstance(main, MainScreen)
        picked = main.selected_character()
        assert picked is not None and picked["id"] == "ganger"
        await press(pilot, "E", *typed("dodge a bullet"), "enter")
        await settle(pilot)
        assert records.sr(tracker.characters["ganger"])["edge"] == 0
        await press(pilot, "r")
        ganger_roll = app.screen
        assert isinstance(ganger_roll, SRRollScreen)
        await press(pilot, "w")
        assert isinstance(app.screen, ChoicePrompt)
        await press(pilot, "3")
        assert ganger_roll.a.who == "ganger" and not ganger_roll.a.sr.edge_before
        await press(pilot, "r")
        await settle(pilot)
        assert tracker.events[-1]["roll"]["sides"][0]["label"] == "Ganger"
        assert not any("Edge after the roll" in line for line in ganger_roll.result_lines)  # no hint without Edge
        count = len(tracker.events)
        await press(pilot, "e")
        await settle(pilot)
        assert app.screen is ganger_roll and app.is_running
        assert len(tracker.events) == count
        assert notes(app)[-1] == ("error", "Not done", "Ganger has no Edge left this session")
        await press(pilot, "escape")
        assert "Edge 0/1" in character_row(app, "Ganger")


# -- (d) NO_COLOR -------------------------------------------------------------------------------------------------


@pilot_test
async def test_no_color_roll_shows_the_ability_glyph(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    tracker, sf = demo_session(tmp_path, "rajapolku")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.no_color and app.log_styles() == plain_styles()
        await press(pilot, "r", "down", "down", "down", "down")
        roll = app.screen
        assert isinstance(roll, RajaRollScreen)
        assert highlighted_row(roll) == "ab:Second sight"
        await press(pilot, "enter", "r")
        await settle(pilot)
        ev = tracker.events[-1]
        assert ev["kind"] == "roll"
        assert [d["source"] for d in ev["roll"]["sides"][0]["dice"]] == ["action", "ability"]
        assert f"  Alyosha: {ev['roll']['sides'][0]['dice'][0]['face']} ✦" in screen_text(app)
        await press(pilot, "escape")
        assert isinstance(app.screen, MainScreen)
        assert "✦" in line_of(app, ev["seq"])


# -- (e) a failed save ----------------------------------------------------------------------------------------


@pilot_test
async def test_a_failed_save_is_shown_kept_and_saved_later(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tracker, sf = demo_session(tmp_path, "rajapolku")
    error = f"could not save {sf.path}: No space left on device; the last good file is untouched"

    def disk_full(fd: int, data: bytes) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    messages: list[Message] = []
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=SIZE, message_hook=messages.append) as pilot:
        await settle(pilot)
        with monkeypatch.context() as patch:
            patch.setattr(store.atomic, "write_all", disk_full)
            await press(pilot, "o")
            assert isinstance(app.screen, TextPrompt)
            await press(pilot, *typed("Rain on the window"), "enter")
            await settle(pilot)
            assert [m.error for m in of_kind(messages, SaveFailed)] == [error]
            assert app.is_running and isinstance(app.screen, MainScreen)
            status = panes(app)["status"]
            # The reason is short, so the campaign and the scene stay on the one status line.
            assert status.startswith("[save failed: disk full] Helsink") and status.endswith("The old hospital")
            assert screen_text(app).startswith(" [save failed")
            assert any(sev == "error" and title == "Not saved" and error in msg and "free space" in msg
                       for sev, title, msg in notes(app))
            assert tracker.events[-1]["text"] == "Rain on the window"
            on_disk, _ = files.load_tracker(sf.path)
            assert all(e["text"] != "Rain on the window" for e in on_disk.events)
        saved_before = len(of_kind(messages, SessionSaved))
        await press(pilot, "ctrl+s")
        await settle(pilot)
        assert len(of_kind(messages, SessionSaved)) == saved_before + 1
        assert panes(app)["status"].startswith("[saved]")
        on_disk, _ = files.load_tracker(sf.path)
        assert on_disk.events[-1]["text"] == "Rain on the window"
        assert on_disk.state == tracker.state


@pilot_test
async def test_a_long_log_line_keeps_its_ellipsis_when_the_log_outgrows_its_pane(tmp_path):
    """The dice log's scrollbar shows up once the log is longer than its pane: the lines already drawn
    are cut again to the narrower width, still ending in "…", instead of losing it under the scrollbar."""
    from polku.tui.widgets.dice_log import DiceLog

    tracker, sf = demo_session(tmp_path, "varjojuoksu")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        log = app.main_screen().query_one(DiceLog)
        assert not log.show_vertical_scrollbar

        def cut() -> dict[str, str]:
            """The visible lines that were cut, by their sequence number."""
            return {line.split()[0]: line for line in log_lines(app) if line.endswith("…")}

        before = cut()
        assert before, "the demo has lines longer than the pane"
        n = 0
        while not log.show_vertical_scrollbar and n < 40:
            app.run_command(command("note", f"short {n}"))
            await settle(pilot)
            n += 1
        assert log.show_vertical_scrollbar
        after = {line.split()[0]: line for line in log_lines(app) if line.split() and line.split()[0] in before}
        assert after, "some of those lines are still in view"
        assert all(line.endswith("…") for line in after.values()), after


@pilot_test
async def test_commands_run_back_to_back_each_get_their_own_log_line(tmp_path):
    """Three commands before the GM's screen hears of the first (as a seat's requests are picked up):
    the log shows each once, in order, not the newest three times."""
    tracker, sf = demo_session(tmp_path, "varjojuoksu")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for word in ("first", "second", "third"):
            app.run_command(command("note", f"note the {word}"))
        await settle(pilot)
        notes = [line.split("✎")[-1].strip() for line in log_lines(app) if "note the" in line]
        assert notes == ["note the first", "note the second", "note the third"], log_lines(app)
