""""[saved]" is on the status line only while every event of the session is on disk.

Each time the main screen sets its status line, the test reads the session
file: whenever the line says "[saved]", the file holds every event the
tracker has (and so every event the dice log shows). Checked through the
commands that end a stretch of play (new session, new scene, new story,
undo) and a plain note, typed slowly and as one burst.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app_fixtures import demo_session, isolated, make_app, panes, pilot_test, settle  # noqa: F401 (a fixture)
from polku.session import store
from polku.tui.screens.main import MainScreen
from test_typeahead import burst, slowly

pytestmark = pytest.mark.usefixtures("isolated")

BOUNDARIES = {
    "new session": ("N", "y"),
    "new scene": ("n", "The docks\r"),
    "new story": ("T", "y"),
    "undo": ("oA note\r", "u"),
    "note": ("o", "Written\r"),
}


def on_disk(path: Path) -> int:
    """How many events the file holds (a torn tail, mid-append, is not counted)."""
    return len(store.load(path).doc["event"])


@pytest.mark.parametrize("how", [slowly, burst], ids=["slowly", "burst"])
@pytest.mark.parametrize("command", sorted(BOUNDARIES))
@pilot_test
async def test_saved_is_shown_only_when_the_file_holds_every_event(tmp_path: Path, command: str, how: Any) -> None:
    tracker, sf = demo_session(tmp_path, "rajapolku")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    seen: list[tuple[str, int, int]] = []
    real = MainScreen.refresh_status

    def checked(self: MainScreen) -> None:
        real(self)
        status = str(panes(app)["status"])
        seen.append((status[:9], len(tracker.events), on_disk(sf.path)))

    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        before = len(tracker.events)
        MainScreen.refresh_status = checked  # type: ignore[method-assign]
        try:
            await how(pilot, *BOUNDARIES[command])
            await settle(pilot)
        finally:
            MainScreen.refresh_status = real  # type: ignore[method-assign]
        assert len(tracker.events) > before, "the command made no event"
        wrong = [(shown, made, saved) for shown, made, saved in seen if shown.startswith("[saved]") and saved < made]
        assert not wrong, f"[saved] shown while the file lacked events (shown, events, on disk): {wrong}"
        assert any(shown.startswith("[saving") for shown, _, _ in seen), "the unsaved stretch was never shown"
        assert str(panes(app)["status"]).startswith("[saved]")
        assert on_disk(sf.path) == len(tracker.events)
