"""One data flow in the app: a command runs once, every screen hears of it once (one
TrackerChanged message), and a key press in a roll screen computes the odds once and
redraws the screen once."""

from __future__ import annotations

from typing import Any

from app_fixtures import demo_session, log_lines, make_app, panes, pilot_test, settle, until_quiet
from polku.session.commands import command
from polku.session.rolls import RajaSide
from polku.tui.messages import TrackerChanged
from polku.tui.screens.damage import HarmScreen
from polku.tui.screens.main import MainScreen
from polku.tui.screens.roll import RollScreen


def _count(obj: Any, name: str, calls: dict[str, int]) -> None:
    real = getattr(obj, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[name] = calls.get(name, 0) + 1
        return real(*args, **kwargs)

    setattr(obj, name, counted)


def _listen(app: Any) -> list[tuple[str, TrackerChanged]]:
    """(screen class, message) of every TrackerChanged posted to a screen on the stack from now on."""
    heard: list[tuple[str, TrackerChanged]] = []
    for s in app.screen_stack:
        real = s.post_message

        def spy(message: Any, s: Any = s, real: Any = real) -> bool:
            if isinstance(message, TrackerChanged):
                heard.append((type(s).__name__, message))
            return bool(real(message))

        s.post_message = spy
    return heard


async def _on_the_roll_screen(app: Any, pilot: Any, counted: tuple[str, ...]
                              ) -> tuple[RollScreen, list[tuple[str, TrackerChanged]], dict[str, int]]:
    """Open the roll screen (r), then listen to every screen and count the screen's methods named."""
    await settle(pilot)
    await pilot.press("r")
    await settle(pilot)
    screen = app.screen
    assert isinstance(screen, RollScreen)
    calls: dict[str, int] = {}
    for name in counted:
        _count(screen, name, calls)
    return screen, _listen(app), calls


@pilot_test
async def test_a_roll_computes_the_odds_once_and_redraws_the_roll_screen_once(tmp_path):
    tracker, sf = demo_session(tmp_path, "rajapolku")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen, heard, calls = await _on_the_roll_screen(app, pilot, ("odds_text", "refresh_view"))
        before = len(tracker.events)
        await pilot.press("r")
        await settle(pilot)
        assert len(tracker.events) > before, "the key rolled"
        assert calls == {"odds_text": 1, "refresh_view": 1}
        assert "rolls" in str(screen.query_one("#result-box").render()) or screen.result_lines
        # every screen on the stack heard of the command once, with all its events
        n = len(tracker.events) - before
        assert sorted((name, len(m.events)) for name, m in heard) == sorted((type(s).__name__, n)
                                                                             for s in app.screen_stack)


@pilot_test
async def test_the_main_screen_shows_a_command_run_from_another_screen(tmp_path):
    tracker, sf = demo_session(tmp_path, "rajapolku")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        main = app.screen
        assert isinstance(main, MainScreen)
        app.run_command(command("note", "The ferryman asks for two coins"))
        await settle(pilot)
        assert any("two coins" in line for line in log_lines(app))


@pilot_test
async def test_a_refused_command_changes_nothing_and_redraws_nothing(tmp_path):
    """A session turned read-only under an open roll screen (a broken event found by the
    background check): the roll key says "Not done" in one line, logs nothing, tells no
    screen, and the screen neither redraws nor shows a result."""
    tracker, sf = demo_session(tmp_path, "rajapolku")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen, heard, calls = await _on_the_roll_screen(app, pilot, ("odds_text", "refresh_view", "show_result"))
        tracker.read_only = True
        before = list(tracker.events)
        await pilot.press("r")
        await settle(pilot)
        assert tracker.events == before
        assert heard == [] and calls == {}
        assert screen.last_event is None and not screen.result_lines
        refusals = [n for n in app._notifications if n.title == "Not done"]
        assert len(refusals) == 1 and "\n" not in refusals[0].message and refusals[0].severity == "error"


@pilot_test
async def test_a_refused_command_leaves_its_dialog_open_with_one_line(tmp_path):
    """The harm prompt's confirm (y) in a session turned read-only while it was open (a broken
    event found by the background check): refused in one line, the prompt stays open, the log
    is as it was and no screen hears of a change."""
    tracker, sf = demo_session(tmp_path, "rajapolku")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.run_command(command("rolls.roll_raja", RajaSide("Alyosha", ["alyosha"], backgrounds=["a", "b"]),
                                                    RajaSide("The Pickpocket", ["the-pickpocket"], backgrounds=["c"]),
                                                    faces=([10, 8, 7], [6, 5])))  # EX C: 3 degrees
        await settle(pilot)
        await pilot.press("D")
        await until_quiet(pilot)
        assert isinstance(app.screen, HarmScreen)
        before = list(tracker.events)
        heard = _listen(app)
        tracker.read_only = True
        await pilot.press("y")
        await settle(pilot)
        assert isinstance(app.screen, HarmScreen), "the prompt closed on a refused command"
        assert tracker.events == before and heard == []
        refusals = [n.message for n in app._notifications if n.title == "Not done"]
        assert refusals == ["this session is open read-only; nothing was changed"]


def _fight_app(tmp_path: Any) -> Any:
    """The Varjojuoksu demo in a fight, with more log lines than the pane has rows (its scrollbar shows)."""
    tracker, sf = demo_session(tmp_path, "varjojuoksu")
    for i in range(40):
        tracker.note(f"the rain keeps falling ({i})")
    tracker.combat.roll_initiative([(cid, 1) for cid in tracker.characters])
    job = sf.snapshot(tracker)
    assert job is not None
    sf.save(job)
    return tracker, make_app(tracker, sf, sessions_dir=tmp_path)


@pilot_test
async def test_next_redraws_the_fight_pane_and_the_log_alone_without_a_layout_pass(tmp_path):
    """space moves the marker: the queue and the character pane are not rebuilt, and the dice log takes
    its new line without asking for a layout pass of the screen (a layout pass re-renders every widget)."""
    from polku.tui.widgets.dice_log import DiceLog
    from polku.tui.widgets.panes import ChallengeQueue, CharacterPane, TurnOrder

    tracker, app = _fight_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        main = app.main_screen()
        log = main.query_one(DiceLog)
        assert log.show_vertical_scrollbar, "the log is longer than its pane"
        calls: dict[str, int] = {}
        _count(main.query_one("#queue", ChallengeQueue), "show", calls)
        _count(main.query_one("#chars", CharacterPane), "show", calls)
        layouts: list[bool] = []
        for widget in (log, main.query_one("#turns", TurnOrder)):
            real = widget.refresh

            def spy(*args: Any, real: Any = real, **kwargs: Any) -> Any:
                layouts.append(bool(kwargs.get("layout")))
                return real(*args, **kwargs)

            widget.refresh = spy  # type: ignore[method-assign]
        acting = tracker.combat.acting()
        await pilot.press("space")
        await settle(pilot)
        assert tracker.combat.acting() != acting, "the marker moved"
        assert calls == {}, "the queue and the characters were left alone"
        assert layouts and not any(layouts), "no layout pass for the log's new line or the marker"
        assert tracker.events[-1]["text"][:20] in log_lines(app)[-1], "the new line is the last one shown"
        assert log.scroll_offset.y == log.max_scroll_y, "the log follows its newest line"
        # a command that changes a character redraws the character pane (once)
        main.query_one("#chars", CharacterPane).focus()
        await pilot.press("w")
        await settle(pilot)
        assert calls.get("show") == 2, calls


@pilot_test
async def test_the_status_line_says_saving_until_the_events_are_on_disk(tmp_path, monkeypatch):
    """A command's events are shown with "saving…" until their save has ended, however quick
    (tests/test_saved_status.py checks it against the file); a slow save keeps saying so."""
    import threading

    from polku.session.files import SessionFile

    tracker, app = _fight_app(tmp_path)
    states: list[str] = []
    real_set = app._set_save_state

    def record(text: str) -> None:
        states.append(text)
        real_set(text)

    app._set_save_state = record  # type: ignore[method-assign]
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        states.clear()
        await pilot.press("space")
        await settle(pilot)
        assert states == ["saving…", "saved"]
        release = threading.Event()
        real_save = SessionFile.save
        started = threading.Event()

        def slow_save(self: Any, job: Any) -> Any:
            started.set()
            release.wait(30)
            return real_save(self, job)

        monkeypatch.setattr(SessionFile, "save", slow_save)
        states.clear()
        await pilot.press("space")
        while not started.is_set():
            await pilot.pause()
        await pilot.press("space")  # a second command while the first one's save runs
        assert panes(app)["status"].startswith("[saving…]")
        release.set()
        await settle(pilot)
        assert panes(app)["status"].startswith("[saved]")
        assert states[-1] == "saved" and "saved" not in states[:-1], states


@pilot_test
async def test_the_reply_comes_after_the_screen_has_drawn_what_the_command_made(tmp_path):
    """A new character from the form (c) is highlighted in the character pane at once: the
    main screen's reply selects it after the screen redrew from its TrackerChanged."""
    from polku.tui.screens.character import CharacterForm
    from polku.tui.widgets.panes import CharacterPane

    tracker, sf = demo_session(tmp_path, "rajapolku")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        pane = app.screen.query_one("#chars", CharacterPane)
        first = pane.selected_character_id()
        await pilot.press("c")
        await settle(pilot)
        assert isinstance(app.screen, CharacterForm)
        await pilot.press(*"Zinaida", "enter")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        new = next(cid for cid, ch in tracker.characters.items() if ch["name"] == "Zinaida")
        assert first != new and pane.selected_character_id() == new
