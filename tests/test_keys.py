"""Every key of every screen can be found: in that screen's help (?), its palette (ctrl+p) and the key line.

The walk below opens each screen of the GM's app on a demo campaign of each
dice system and checks every binding the screen declares (and every binding
with an id of the widgets it can focus): a key that works there must be
listed in the help, as typed, and offered by the palette.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any, Callable

import pytest
from rich.console import Console
from textual.binding import Binding
from textual.command import CommandPalette
from textual.keys import key_to_character
from textual.screen import Screen
from textual.widget import Widget

from app_fixtures import SYSTEMS, demo_session, make_app, pilot_test, screen_text, settle
from polku.rules.dice import Die
from polku.tui.app import PolkuCommands
from polku.tui.keys import screen_keys
from polku.tui.screens.character import CharacterDetail, CharacterForm
from polku.tui.screens.chooser import ChooserScreen, NewCampaignScreen
from polku.tui.screens.help import HelpScreen
from polku.tui.screens.main import MainScreen
from polku.tui.screens.narration import DicePicker, NarrationScreen
from polku.tui.screens.prompts import ChoicePrompt, ConfirmPrompt, TextPrompt
from polku.tui.screens.roll import InitiativeScreen, RollScreen, SRRollScreen, roll_screen_for
from polku.tui.screens.settings import SettingsScreen
from polku.tui.widgets.keyline import KeyLine


def _binding(b: Binding | tuple[str, ...]) -> Binding:
    """A class's BINDINGS entry, which Polku always writes as a Binding (not Textual's tuple form)."""
    assert isinstance(b, Binding), b
    return b


@pytest.fixture(autouse=True)
def _no_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("POLKU_CONFIG_DIR", str(tmp_path / "config"))


def _screens(system: str, tracker: Any, sessions: Path) -> list[tuple[str, Callable[[], Screen[Any]]]]:
    cid = next(iter(tracker.characters))
    chid = tracker.state["challenges"][0]["id"] if tracker.state["challenges"] else None
    out: list[tuple[str, Callable[[], Screen[Any]]]] = [
        ("roll", lambda: roll_screen_for(tracker, chid)),
        ("character form", lambda: CharacterForm(tracker)),
        ("character sheet", lambda: CharacterDetail(tracker, cid)),
        ("text prompt", lambda: TextPrompt("Note for the log:")),
        ("choice prompt", lambda: ChoicePrompt("Who?", [("a", "A"), ("b", "B")])),
        ("confirm prompt", lambda: ConfirmPrompt("Sure?")),
        ("chooser", lambda: ChooserScreen(sessions)),
        ("new campaign", lambda: NewCampaignScreen(sessions)),
        ("settings", lambda: SettingsScreen(tracker)),
    ]
    if system == "harhapolku":
        out.append(("narration", lambda: NarrationScreen(tracker)))
        out.append(("dice picker", lambda: DicePicker("Pick", [Die(8, 5, "background"), Die(10, 3, "special")])))
    if system == "varjojuoksu":
        from polku.tui.screens.damage import DamageScreen

        out.append(("initiative", lambda: InitiativeScreen(tracker)))
        out.append(("damage", lambda: DamageScreen(tracker, None, target=cid)))
    return out


def _help_text(app: Any) -> str:
    assert isinstance(app.screen, HelpScreen)
    console = Console(width=100, record=True, color_system=None, file=io.StringIO())
    console.print(app.screen.help_renderable())
    return console.export_text()


async def _palette_titles(screen: Screen[Any]) -> dict[str, str]:
    provider = PolkuCommands(screen)
    return {str(hit.text): hit.help or "" async for hit in provider.discover()}


NAVIGATION = {("DiceLog", action) for action in ("cursor(-1)", "cursor(1)", "cursor(-10)", "cursor(10)",
                                                 "cursor_to(0)", "cursor_to(-1)")}
"""Polku's bindings left out of the help and the palette, by class and action: the dice log's cursor
keys move in a list the way Textual's own lists' keys do, and those are not listed either."""


def _unlisted(node: Any) -> list[str]:
    """Bindings that Polku's own classes of ``node`` declare without an id or without help text:
    the help and the palette leave them out, so no one would learn the key. (Textual's widgets
    bring their own bindings, without ids; those are Textual's to document.)"""
    bad = []
    for cls in type(node).__mro__:
        if not cls.__module__.startswith("polku.") or "BINDINGS" not in vars(cls):
            continue
        for b in vars(cls)["BINDINGS"]:
            if not isinstance(b, Binding):
                bad.append(f"{cls.__name__}: {b!r} (a tuple: no id, no help text)")
            elif (cls.__name__, b.action) in NAVIGATION:
                continue
            elif b.id is None or not (b.description or b.tooltip):
                bad.append(f"{cls.__name__}: {b.key} → {b.action} (id {b.id!r}, help text {b.tooltip or b.description!r})")
    return bad


def _declared(node: Any) -> list[tuple[str, Binding]]:
    bad = _unlisted(node)
    assert not bad, "bindings the help and the palette would leave out (give each an id and a tooltip):\n" + \
        "\n".join(bad)
    return [(key, b) for key, b in node._bindings if b.id is not None and (b.description or b.tooltip)]


async def _check_screen(app: Any, pilot: Any, name: str) -> int:
    """Every declared binding of the current screen and of the widgets it can focus: listed and offered."""
    screen = app.screen
    checked: set[tuple[int, str]] = set()
    wanted: set[tuple[int, str]] = set()
    focusable: list[Widget | None] = [None] + [w for w in screen.query("*") if w.focusable]
    for widget in focusable:
        if widget is not None:
            widget.focus()
            await settle(pilot)
        nodes: list[Any] = [screen] + ([widget] if widget is not None else [])
        palette = await _palette_titles(screen)
        rows = screen_keys(screen)
        await pilot.press("f1")
        await settle(pilot)
        text = _help_text(app)
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is screen, f"{name}: escape did not close the help"
        for node in nodes:
            for key, binding in _declared(node):
                state = app._check_action_state(binding.action, node)
                if state is False:
                    continue  # not on this system: neither listed nor offered
                wanted.add((id(node), key))
                if any(key in r.keys for r in rows if r.namespace is not node):
                    continue  # shadowed by a nearer widget's key
                focused = screen.focused
                if focused is not None and focused is not node and focused.check_consume_key(
                        key, key_to_character(key)):
                    continue  # typed into the focused text field, so not a key here
                display = app.get_key_display(Binding(key, binding.action))
                row = [r for r in rows if key in r.keys and r.namespace is node]
                assert row, f"{name}: {key} ({binding.id}) missing from the screen's keys"
                listed = [line for line in text.splitlines()
                          if binding.description in line and display in line.split()]
                assert listed, f"{name}: {display} {binding.description!r} not in the help:\n{text}"
                offered = [t for t, h in palette.items() if (binding.tooltip or binding.description) in t
                           and display in h.removeprefix("key: ").split(" / ")]
                assert offered, f"{name}: {display} {binding.id} not offered by the palette: {sorted(palette)}"
                checked.add((id(node), key))
    assert wanted <= checked, f"{name}: keys that never work, whatever has the focus: {wanted - checked}"
    # The app's keys that work everywhere are listed and offered on every screen.
    for needed in ("?", "f1"):
        assert any(needed in line.split() for line in text.splitlines()), f"{name}: {needed} not in its help"
    return len(checked)


@pytest.mark.parametrize("system", SYSTEMS)
@pilot_test
async def test_every_binding_of_every_screen_is_in_its_help_and_palette(tmp_path: Path, system: str) -> None:
    tracker, sf = demo_session(tmp_path, system)
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    seen: dict[str, int] = {}
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        seen["main"] = await _check_screen(app, pilot, "main")
        for name, build in _screens(system, tracker, tmp_path):
            app.push_screen(build())
            await settle(pilot)
            seen[name] = await _check_screen(app, pilot, name)
            app.pop_screen()
            await settle(pilot)
            assert isinstance(app.screen, MainScreen)
    # Each screen declares keys; an empty walk would prove nothing.
    assert all(n > 0 for n in seen.values()), seen
    assert seen["main"] >= 20 and seen["roll"] >= 8


@pilot_test
async def test_every_dialog_shows_its_own_keys_not_those_of_the_screen_under_it(tmp_path: Path) -> None:
    """While a prompt, form or sheet is open, the bottom line names the keys that work there."""
    from polku.tui.screens.prompts import FacesPrompt

    tracker, sf = demo_session(tmp_path, "harhapolku")
    cid = next(iter(tracker.characters))
    dialogs: list[tuple[Callable[[], Screen[Any]], tuple[str, ...]]] = [
        (lambda: TextPrompt("Note for the log:"), ("Accept", "Cancel")),
        (lambda: FacesPrompt("Lena's dice", 3, 8), ("Accept", "Cancel")),
        (lambda: ChoicePrompt("Who?", [("a", "A"), ("b", "B")]), ("Pick", "Cancel")),
        (lambda: ConfirmPrompt("Sure?"), ("Yes", "No")),
        (lambda: CharacterForm(tracker), ("Add", "Cancel")),
        (lambda: CharacterDetail(tracker, cid), ("Remove", "Close")),
        (lambda: DicePicker("Pick", [Die(8, 5, "background")]), ("Toggle", "Done")),
        (lambda: HelpScreen(), ("Close",)),
    ]
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        main_line = screen_text(app).splitlines()[-1]
        assert "Challenge+" in main_line
        for build, words in dialogs:
            dialog = build()
            app.push_screen(dialog)
            await settle(pilot)
            line = screen_text(app).splitlines()[-1]
            assert all(w in line for w in words) and "Challenge+" not in line, (type(dialog).__name__, line)
            assert "? Keys" in line  # the help works there too
            app.pop_screen()
            await settle(pilot)


@pilot_test
async def test_question_mark_opens_the_help_in_a_roll_screen_and_lists_its_keys(tmp_path: Path) -> None:
    tracker, sf = demo_session(tmp_path, "rajapolku")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r")
        await settle(pilot)
        assert isinstance(app.screen, RollScreen)
        await pilot.press("question_mark")
        await settle(pilot)
        text = _help_text(app)
        assert text.splitlines()[0].startswith("Raja roll")  # the roll screen's own keys come first
        assert any(line.split()[:2] == ["k", "Spirit"] for line in text.splitlines())
        await pilot.press("question_mark")  # ? closes the help again
        await settle(pilot)
        assert isinstance(app.screen, RollScreen)


@pilot_test
async def test_question_mark_is_typed_into_a_text_field(tmp_path: Path) -> None:
    tracker, sf = demo_session(tmp_path, "rajapolku")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("o", *"why?", "enter")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        assert tracker.events[-1]["text"].endswith("why?")


@pilot_test
async def test_palette_in_a_roll_screen_offers_the_roll_screens_actions_with_keys_as_typed(tmp_path: Path) -> None:
    tracker, sf = demo_session(tmp_path, "varjojuoksu")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r", "t", "t")  # the demo's extended test, then a success test: its threshold can be hidden
        await settle(pilot)
        assert isinstance(app.screen, SRRollScreen)
        roll = app.screen
        assert getattr(roll, "test", None) == "success"
        await pilot.press("ctrl+p")
        await settle(pilot)
        assert isinstance(app.screen, CommandPalette)
        await pilot.press(*"hide the thres")
        await settle(pilot)
        await pilot.pause(0.3)
        shown = screen_text(app)
        assert "Hide the threshold from players" in shown and "key: H" in shown
        assert "Roll: for" not in shown  # the main screen's commands stay on the main screen
        before = roll.hidden if hasattr(roll, "hidden") else None
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is roll
        if before is not None:
            assert roll.hidden != before
    # The main screen's palette shows "<", not Textual's key name.
    tracker2, sf2 = demo_session(tmp_path / "b", "rajapolku")
    app2 = make_app(tracker2, sf2, sessions_dir=tmp_path)
    async with app2.run_test(size=(80, 24)) as pilot:
        titles = await _palette_titles(app2.screen)
        helps = [h for t, h in titles.items() if "Move the selected challenge up" in t]
        assert helps == ["key: <"]


@pytest.mark.parametrize("size", [(80, 24), (60, 20), (120, 40)])
@pytest.mark.parametrize("system", SYSTEMS)
@pilot_test
async def test_key_line_never_cuts_a_key_and_keeps_help_and_palette(tmp_path: Path, system: str,
                                                                    size: tuple[int, int]) -> None:
    tracker, sf = demo_session(tmp_path, system)
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=size) as pilot:
        for keys in ([], ["r"]):
            await pilot.press(*keys)
            await settle(pilot)
            line = app.screen.query_one(KeyLine)
            text = line.render().plain
            assert len(text) <= size[0]
            assert "? Keys" in text and "^p Commands" in text
            pinned = ("help", "command_palette")
            shown = [r for r in screen_keys(app.screen) if r.show and r.action not in pinned]
            drawn = [r for r in shown if f" {r.displays[0]} {r.description} " in text]
            # Whole keys only: a description appears in full or not at all.
            for r in shown:
                if r not in drawn:
                    assert f" {r.displays[0]} {r.description[:3]}" not in text, (r.description, text)
            # The way out (Escape), undo and quit are always kept; of the others, the first keys
            # declared are the ones drawn (most important first).
            def kept(r: Any) -> bool:
                return r.keys[0] == "escape" or r.action.rsplit(".", 1)[-1] in ("undo", "quit_app", "quit")

            def redo(r: Any) -> bool:  # kept beside undo when there is room left
                return r.action.rsplit(".", 1)[-1] == "redo"

            order = [r for r in shown if not kept(r) and not redo(r)]
            drawn_first = [r for r in drawn if not kept(r) and not redo(r)]
            assert drawn_first == order[: len(drawn_first)]
            assert [r for r in shown if kept(r)] == [r for r in drawn if kept(r)], text
            assert len(drawn) >= 3


def test_every_key_the_readme_names_for_the_gms_screen_is_bound_there() -> None:
    import re

    from polku.tui.app import PolkuApp

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    para = readme.split("On the GM's screen:", 1)[1].split("\n\n", 1)[0]
    named = set(re.findall(r"`([^`]+)`", para))
    named = {k for part in named for k in part.split("/")} - {"Enter"}
    bound: set[str] = set()
    for b in [*MainScreen.BINDINGS, *PolkuApp.BINDINGS]:
        assert isinstance(b, Binding)
        bound.update(PolkuApp().get_key_display(Binding(k, b.action)) for k in b.key.split(","))
    bound.update(k for b in [*MainScreen.BINDINGS, *PolkuApp.BINDINGS] for k in _binding(b).key.split(","))
    assert len(named) >= 30
    assert named <= bound, named - bound


def test_every_key_the_readme_names_for_the_roll_screens_and_the_contest_is_bound_there() -> None:
    import re

    from polku.tui.app import PolkuApp
    from polku.tui.screens.roll import HarhaRollScreen, RajaRollScreen, SRRollScreen

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    app = PolkuApp()
    for start, classes in (("In a roll screen", (RajaRollScreen, HarhaRollScreen, SRRollScreen)),
                           ("The narration contest (`h`", (NarrationScreen,))):
        para = readme.split(start, 1)[1].split("\n\n", 1)[0]
        named = {k for part in re.findall(r"`([^`]+)`", para) for k in part.split("/")} - {"Enter", "h"}
        bound = {app.get_key_display(Binding(k, _binding(b).action)) for cls in classes for b in cls.BINDINGS
                 for k in _binding(b).key.split(",")}
        assert len(named) >= 7, named
        assert named <= bound, (start, named - bound)


@pilot_test
async def test_the_review_has_the_same_help_for_its_screens(tmp_path: Path) -> None:
    from polku.session import demo
    from polku.tui.review import ReviewApp

    app = ReviewApp(demo.DEMOS["varjojuoksu"](), theme_dirs=[])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        await settle(pilot)
        text = _help_text(app)
        assert text.splitlines()[0].startswith("Review")
        for key, what in (("c", "Who"), ("S", "Stats"), ("[", "Prev scene"), ("q", "Quit")):
            assert any(key in line.split()[:3] and what in line for line in text.splitlines()), (key, text)
        assert "How a session runs" not in text
        await pilot.press("escape", "S", "question_mark")  # the statistics screen's own keys
        await settle(pilot)
        text = _help_text(app)
        assert any("Back" in line and line.split()[0] in ("esc", "esc /") for line in text.splitlines()), text
