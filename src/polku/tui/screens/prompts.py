"""Small keyboard-first modals: ask for text or the faces of physical dice, pick one of a list, confirm."""

from __future__ import annotations

import re
from typing import Callable, Generic, Sequence, TypeVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from ...rules.dice import Die, FaceError, parse_faces


_R = TypeVar("_R")


class _LinePrompt(ModalScreen[_R | None], Generic[_R]):
    """Ask for one line; Enter accepts what :meth:`answer` makes of it, Escape cancels (None).

    Args:
        title: the question.
        value: the initial text.
        check: returns an error line for a bad answer (shown; the modal stays).
    """

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="prompt.cancel")]

    def __init__(self, title: str, value: str = "", *, placeholder: str = "", hint: str = "",
                 check: Callable[[str], str | None] | None = None) -> None:
        super().__init__()
        self.title_text = title
        self.value = value
        self.placeholder = placeholder
        self.hint = hint
        self.check = check

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(Text(self.title_text), classes="dialog--title")
            yield Input(self.value, placeholder=self.placeholder, id="prompt-input")
            yield Static(Text(self.hint), classes="dialog--hint")
            yield Static("", id="prompt-error", classes="dialog--error")

    @on(Input.Submitted)
    def submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value
        if self.check is not None:
            err = self.check(text)
            if err:
                self.query_one("#prompt-error", Static).update(Text(err))
                return
        self.dismiss(self.answer(text))

    def answer(self, text: str) -> _R:
        raise NotImplementedError

    def action_cancel(self) -> None:
        self.dismiss(None)


class TextPrompt(_LinePrompt[str]):
    """Ask for one line of text. Enter accepts, Escape cancels."""

    def answer(self, text: str) -> str:
        return text


class ChoicePrompt(ModalScreen[str | None]):
    """Pick one option (by arrow keys and Enter, or its number)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="choice.cancel")]

    def __init__(self, title: str, choices: Sequence[tuple[str, str]], *, hint: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.choices = list(choices)
        self.hint = hint

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(Text(self.title_text), classes="dialog--title")
            yield OptionList(*[Option(Text(f"{i}. {label}" if i < 10 else label), id=value)
                              for i, (value, label) in enumerate(self.choices, 1)], id="choice-list")
            if self.hint:
                yield Static(self.hint, classes="dialog--hint")

    def on_mount(self) -> None:
        ol = self.query_one(OptionList)
        if self.choices:
            ol.highlighted = 0
        ol.focus()

    @on(OptionList.OptionSelected)
    def selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)

    def on_key(self, event) -> None:  # digits pick directly
        if event.character and event.character.isdigit():
            n = int(event.character)
            if 1 <= n <= len(self.choices):
                event.stop()
                self.dismiss(self.choices[n - 1][0])

    def action_cancel(self) -> None:
        self.dismiss(None)


class ConfirmPrompt(ModalScreen[bool]):
    """Yes / no. y or Enter confirms, n or Escape declines."""

    BINDINGS = [
        Binding("y,enter", "answer(True)", "Yes", id="confirm.yes"),
        Binding("n,escape", "answer(False)", "No", id="confirm.no"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(Text(self.question), classes="dialog--title")
            yield Static("y / Enter: yes    n / Escape: no", classes="dialog--hint")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


def read_faces(text: str, size: int, *, allow_ability: bool = False) -> list[Die]:
    """Faces typed from physical dice, separated by commas or spaces (``7,4 10``).

    Raises:
        FaceError: one line naming the bad face.
    """
    items = [x for x in re.split(r"[,\s]+", text.strip()) if x]
    return list(parse_faces(",".join(items), size, allow_ability=allow_ability))


class FacesPrompt(_LinePrompt[list[Die]]):
    """Ask for the faces of ``count`` physical dice of ``size`` sides; dismisses with the dice.

    A wrong count or a face the die cannot show is said under the field, and the
    prompt stays open with what was typed, so one slip is fixed with one key.

    Args:
        title: what is rolled (``"Lena's Thief die"``).
        count: how many dice; the answer must have exactly this many faces.
        size: the dice's sides.
        allow_ability: ``*`` after a face marks an ability die (Rajapolku).
    """

    def __init__(self, title: str, count: int, size: int, *, allow_ability: bool = False, hint: str = "") -> None:
        self.count = count
        self.sides = size
        self.allow_ability = allow_ability
        example = " ".join(str(min(size, 3 + i)) for i in range(min(count, 6)))
        super().__init__(f"{title}: {count}d{size} — the faces of the physical dice", placeholder=f"e.g. {example}",
                         hint=hint or "separated by commas or spaces; Escape cancels", check=self._check)

    def _check(self, text: str) -> str | None:
        try:
            dice = read_faces(text, self.sides, allow_ability=self.allow_ability)
        except FaceError as e:
            return str(e)
        if len(dice) != self.count:
            return (f"{self.count} {'die was' if self.count == 1 else 'dice were'} rolled; "
                    f"you entered {len(dice)} {'face' if len(dice) == 1 else 'faces'}")
        return None

    def answer(self, text: str) -> list[Die]:
        return read_faces(text, self.sides, allow_ability=self.allow_ability)
