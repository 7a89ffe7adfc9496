"""One data flow in the app: a command runs once, every screen hears of it once (one
TrackerChanged message), and a key press in a roll screen computes the odds once and
redraws the screen once."""

from __future__ import annotations

from typing import Any

from app_fixtures import demo_session, log_lines, make_app, pilot_test, settle

from polku.tui.messages import TrackerChanged
from polku.tui.screens.main import MainScreen
from polku.tui.screens.roll import RollScreen


def _count(obj: Any, name: str, calls: dict[str, int]) -> None:
    real = getattr(obj, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[name] = calls.get(name, 0) + 1
        return real(*args, **kwargs)

    setattr(obj, name, counted)


@pilot_test
async def test_a_roll_computes_the_odds_once_and_redraws_the_roll_screen_once(tmp_path):
    tracker, sf = demo_session(tmp_path, "rajapolku")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("r")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, RollScreen)
        heard: list[tuple[str, int]] = []
        for s in app.screen_stack:
            real = s.post_message

            def spy(message: Any, s: Any = s, real: Any = real) -> bool:
                if isinstance(message, TrackerChanged):
                    heard.append((type(s).__name__, len(message.events)))
                return bool(real(message))

            s.post_message = spy  # type: ignore[method-assign]
        calls: dict[str, int] = {}
        for name in ("odds_text", "refresh_view"):
            _count(screen, name, calls)
        before = len(tracker.events)
        await pilot.press("r")
        await settle(pilot)
        assert len(tracker.events) > before, "the key rolled"
        assert calls == {"odds_text": 1, "refresh_view": 1}
        assert "rolls" in str(screen.query_one("#result-box").render()) or screen.result_lines
        # every screen on the stack heard of the command once, with all its events
        n = len(tracker.events) - before
        assert sorted(heard) == sorted((type(s).__name__, n) for s in app.screen_stack)


@pilot_test
async def test_the_main_screen_shows_a_command_run_from_another_screen(tmp_path):
    tracker, sf = demo_session(tmp_path, "rajapolku")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        main = app.screen
        assert isinstance(main, MainScreen)
        app.run_command(lambda t: t.note("The ferryman asks for two coins"))
        await settle(pilot)
        assert any("two coins" in line for line in log_lines(app))
