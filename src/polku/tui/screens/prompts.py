"""Small keyboard-first modals: ask for text, pick one of a list, confirm."""

from __future__ import annotations

from typing import Callable, Sequence

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option


class TextPrompt(ModalScreen[str | None]):
    """Ask for one line of text. Enter accepts, Escape cancels.

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
        self.dismiss(text)

    def action_cancel(self) -> None:
        self.dismiss(None)


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
