"""Keys typed ahead go where a slow typist's would (polku/tui/typeahead.py).

Over SSH a GM's keys arrive in bursts. Here a burst is every key of a
sequence put in the app's queue at once, exactly as the terminal driver does
with one read (the bytes parsed by Textual's own xterm parser). The same
sequence is also typed slowly on a second app made the same way, one key at
a time with the app settled after each; both must end with the same log, the
same screens and the same text in the fields. The real terminal is
tests/test_typeahead_pty.py.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.widgets import Input

from app_fixtures import demo_session, isolated, make_app, pilot_test, settle  # noqa: F401 (a fixture)
from polku.tui.app import PolkuApp
from polku.tui.compat import EscapeKeysParser  # the driver's parser in Polku: keys exactly as a terminal sends them
from polku.tui.screens.main import MainScreen
from polku.tui.typeahead import held_keys

pytestmark = pytest.mark.usefixtures("isolated")

ESC = "<esc>"
"""Escape, as its own key (a terminal cannot tell Escape followed at once by a letter from Alt+letter)."""


def keys_of(*parts: str) -> list[events.Key]:
    """The key events a terminal's bytes make; ``ESC`` is one Escape."""
    out: list[events.Key] = []
    for part in parts:
        if part == ESC:
            out.append(events.Key("escape", "\x1b"))
        else:
            parser = EscapeKeysParser()
            out.extend(m for m in [*parser.feed(part), *parser.feed("")] if isinstance(m, events.Key))
    return out


async def until(pilot: Any, done: Any, what: str) -> None:
    """Wait for a state (a generous bound only names what hung)."""
    for _ in range(6000):
        if done():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never happened: {what}")


async def burst(pilot: Any, *parts: str) -> None:
    """Every key in the app's queue at once (one read of the terminal), then wait until all are handled."""
    app = pilot.app
    for key in keys_of(*parts):
        app.post_message(key)
    await until(pilot, lambda: held_keys(app) == 0 and app.keys_at_rest(), "the burst handled")
    await settle(pilot)


async def slowly(pilot: Any, *parts: str) -> None:
    """One key at a time, each after the app has settled from the one before (a slow typist)."""
    for key in keys_of(*parts):
        pilot.app.post_message(key)
        await settle(pilot)
        await until(pilot, pilot.app.keys_at_rest, "the key handled")
        await settle(pilot)


def outcome(app: PolkuApp, before: int) -> dict[str, Any]:
    """What the GM would see: the new log lines, the screens, the focused field and every field's text."""
    t = app.tracker
    assert t is not None
    focused = app.focused
    return {
        "log": [(e["kind"], e["text"]) for e in t.events[before:]],
        "screens": [type(s).__name__ for s in app.screen_stack],
        "focused": (type(focused).__name__, focused.id) if focused is not None else None,
        "fields": {w.id: w.value for w in app.screen.query(Input)},
    }


async def typed_both_ways(tmp_path: Path, system: str, *parts: str, setup: tuple[str, ...] = ()) -> tuple[
        dict[str, Any], dict[str, Any]]:
    """The outcome of ``parts`` as one burst and typed slowly, each on a fresh copy of the demo."""
    results = []
    for how in (burst, slowly):
        folder = tmp_path / how.__name__
        folder.mkdir()
        tracker, sf = demo_session(folder, system)
        app = make_app(tracker, sf, sessions_dir=folder)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            if setup:
                await slowly(pilot, *setup)
            before = len(tracker.events)
            await how(pilot, *parts)
            results.append(outcome(app, before))
            assert app.is_running, f"{how.__name__}: the app ended"
    return results[0], results[1]


# -- the GM's reports, each as it was typed ------------------------------------------------


@pilot_test
async def test_enter_then_the_next_prompt(tmp_path: Path) -> None:
    """'Clue foundpRats': the keys after Enter went into the closing prompt."""
    fast, slow = await typed_both_ways(tmp_path, "rajapolku", "oClue found\roRats\r")
    assert fast == slow
    assert fast["log"] == [("note", "Clue found"), ("note", "Rats")]
    assert fast["screens"] == ["MainScreen"]


@pilot_test
async def test_story_point_then_another(tmp_path: Path) -> None:
    """'Igor spends a story point: Firstp'."""
    fast, slow = await typed_both_ways(tmp_path, "rajapolku", "pFirst\rpSecond\r")
    assert fast == slow
    assert [text for _, text in fast["log"]] == ["Alyosha spends a story point: First (1 left)",
                                                 "Alyosha spends a story point: Second (0 left)"]


@pilot_test
async def test_tab_between_the_fields_of_the_character_form(tmp_path: Path) -> None:
    """'MackeyJussi': name, Tab and player name all went into one field."""
    fast, slow = await typed_both_ways(tmp_path, "rajapolku", "cMackey\tJussi\r")
    assert fast == slow
    assert fast["log"] == [("character", "Mackey joins (pc)")]
    assert fast["screens"] == ["MainScreen"]


@pilot_test
async def test_a_new_session_confirmed_then_a_note(tmp_path: Path) -> None:
    fast, slow = await typed_both_ways(tmp_path, "rajapolku", "Ny", "oAfter\r")
    assert fast == slow
    assert fast["log"][-1] == ("note", "After")
    assert fast["screens"] == ["MainScreen"]


@pilot_test
async def test_escape_then_a_prompt(tmp_path: Path) -> None:
    fast, slow = await typed_both_ways(tmp_path, "rajapolku", "ojunk", ESC, "okept\r")
    assert fast == slow
    assert fast["log"] == [("note", "kept")]


@pilot_test
async def test_escape_read_together_with_the_next_key_is_both_keys(tmp_path: Path) -> None:
    """``tmux send-keys Escape u`` or a fast typist over SSH: Escape and the letter come in one read, which
    the terminal's parser reports as alt+u (bound to nothing: the dialog stayed open, the undo never came).
    Given back as Escape then the letter, the burst does what the two keys typed slowly do."""
    results = []
    for how, parts in ((burst, ("ojunk\x1bokept\r", "S\x1bu")), (slowly, ("ojunk", ESC, "okept\r", "S", ESC, "u"))):
        folder = tmp_path / how.__name__
        folder.mkdir()
        tracker, sf = demo_session(folder, "rajapolku")
        app = make_app(tracker, sf, sessions_dir=folder)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            before = len(tracker.events)
            await how(pilot, *parts)
            results.append(outcome(app, before))
    fast, slow = results
    assert fast == slow
    assert fast["log"] == [("note", "kept"), ("undo", "Undid: kept")], fast["log"]
    assert fast["screens"] == ["MainScreen"]  # the settings screen closed


def test_polku_binds_no_alt_key() -> None:
    """Escape and a letter read together are taken for the two keys, so an alt+letter binding could never be
    pressed: none may exist in Polku's own classes (every module of the app imported, every BINDINGS read)."""
    import importlib
    import inspect
    import pkgutil

    from textual.binding import Binding

    import polku.tui

    bound = []
    for info in pkgutil.walk_packages(polku.tui.__path__, "polku.tui."):
        for _name, cls in inspect.getmembers(importlib.import_module(info.name), inspect.isclass):
            if not cls.__module__.startswith("polku."):
                continue
            for b in vars(cls).get("BINDINGS", ()):
                keys = b.key if isinstance(b, Binding) else b[0]
                bound += [f"{cls.__name__}: {k}" for k in keys.split(",") if k.strip().startswith("alt+")]
    assert not bound, bound


@pilot_test
async def test_settings_opened_and_closed_then_enter_flips_nothing(tmp_path: Path) -> None:
    """An S opened the settings and an Enter flipped raja.exhausted: Escape closes them first."""
    fast, slow = await typed_both_ways(tmp_path, "rajapolku", "S", ESC, "\r", ESC)
    assert fast == slow
    assert all(kind != "setting" for kind, _ in fast["log"])


@pilot_test
async def test_charge_choice_then_a_confirm(tmp_path: Path) -> None:
    """``g Enter x Enter``: the pick, then the removal's confirmation (it crashed the app)."""
    fast, slow = await typed_both_ways(tmp_path, "rajapolku", "g\rx\r", setup=("1",))
    assert fast == slow
    assert fast["screens"] == ["MainScreen"]


@pilot_test
async def test_faces_typed_on_the_roll_screen_then_closed(tmp_path: Path) -> None:
    fast, slow = await typed_both_ways(tmp_path, "varjojuoksu", "r", "f", "1 2 3 4 5 1 2 3 4 5 1\r", ESC, "oDone\r")
    assert fast == slow
    assert fast["log"][-1] == ("note", "Done")


# -- double and triple Enter / Escape on every dialog: one dismissal each ------------------

DIALOGS = {
    # system, keys that open it (from the main screen, the characters pane focused)
    "note prompt": ("rajapolku", "o"),
    "challenge prompt": ("rajapolku", "a"),
    "choice list": ("rajapolku", "g"),
    "confirm": ("rajapolku", "N"),
    "character form": ("rajapolku", "c"),
    "character sheet": ("rajapolku", "e"),
    "settings": ("rajapolku", "S"),
    "roll screen": ("rajapolku", "r"),
    "help": ("rajapolku", "?"),
    "narration": ("harhapolku", "h"),
    "initiative": ("varjojuoksu", "i"),
    "damage": ("varjojuoksu", "D"),
}


@pytest.mark.parametrize("dialog", sorted(DIALOGS))
@pilot_test
async def test_double_and_triple_enter_and_escape_never_crash(tmp_path: Path, dialog: str) -> None:
    """The dialog opened, then Enter twice, opened, Enter thrice, then the same with Escape: all in one burst."""
    system, opener = DIALOGS[dialog]
    fast, slow = await typed_both_ways(tmp_path, system, opener, "\r\r", opener, "\r\r\r",
                                       opener, ESC, ESC, opener, ESC, ESC, ESC)
    assert fast == slow
    assert fast["screens"][0] == "MainScreen"


@pilot_test
async def test_a_burst_to_the_chooser_opens_the_file_and_goes_on_in_it(tmp_path: Path) -> None:
    """Enter opens the highlighted file; the keys after it go to the session's main screen."""
    from polku.session import files

    tracker, sf = demo_session(tmp_path, "rajapolku", "camp")
    sf.close()
    app = make_app(sessions_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await burst(pilot, "\roFrom the chooser\r")
        assert isinstance(app.screen, MainScreen)
        assert app.tracker is not None and app.tracker.events[-1]["text"] == "From the chooser"
    reloaded, _ = files.load_tracker(tmp_path / "camp.toml")
    assert reloaded.events[len(reloaded.events) - 1]["text"] == "From the chooser"


@pilot_test
async def test_a_dialog_dismissed_twice_leaves_the_session_open(tmp_path: Path) -> None:
    """Whatever dismisses a dialog a second time, the main screen stays and the app runs."""
    from polku.tui.screens.prompts import ConfirmPrompt

    tracker, sf = demo_session(tmp_path, "rajapolku")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        dialog = ConfirmPrompt("Sure?")
        await app.push_screen(dialog)
        dialog.dismiss(True)
        dialog.dismiss(True)
        await settle(pilot)
        assert app.is_running and [type(s).__name__ for s in app.screen_stack] == ["MainScreen"]


@pilot_test
async def test_the_pilot_waiting_for_the_app_waits_for_held_keys_too(tmp_path: Path) -> None:
    """A test's pilot.press returns once the app has handled its keys, held ones included (the
    pilot's wait is a callback after every queued message; held keys count as queued)."""
    tracker, sf = demo_session(tmp_path, "rajapolku")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for key in keys_of("oClue\roRats\r"):
            app.post_message(key)
        await pilot.press("2")  # after the burst, as the pilot presses: its wait covers the burst
        assert held_keys(app) == 0
        assert [e["text"] for e in tracker.events[-2:]] == ["Clue", "Rats"]


@pilot_test
async def test_a_pasted_line_is_not_held_a_quarter_second_a_key(tmp_path: Path) -> None:
    """A line typed ahead into a prompt (a paste, or SSH's one read): each held key goes to the
    field as soon as the one before is handled. The wait for the app's queues once kept its own
    callback until the burst was over, so every key after the first waited a whole look
    (LOOK_AGAIN_S): 40 letters took ten seconds. A few looks may time out on a loaded machine;
    one per key may not."""
    tracker, sf = demo_session(tmp_path, "rajapolku")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    line = "the warehouse by the river at midnight!!"
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await burst(pilot, "o")  # a note's prompt
        await until(pilot, lambda: isinstance(app.focused, Input), "the note's prompt up")
        before = app.looks_timed_out
        await burst(pilot, line)
        assert isinstance(app.focused, Input) and app.focused.value == line
        assert app.looks_timed_out - before <= len(line) // 4
