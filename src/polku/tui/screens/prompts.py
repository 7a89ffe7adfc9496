"""Small keyboard-first modals: ask for text or the faces of physical dice, pick one of a list, confirm."""

from __future__ import annotations

import re
from typing import Any, Callable, Generic, Sequence, TypeVar

from rich.text import Text
from textual import events, on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from ...i18n import N_, _, ngettext
from ...rules.dice import Die, FaceError, parse_faces
from ..widgets.keyline import KeyLine

_R = TypeVar("_R")


class _LinePrompt(ModalScreen[_R | None], Generic[_R]):
    """Ask for one line; Enter accepts what :meth:`answer` makes of it, Escape cancels (None).

    Args:
        title: the question.
        value: the initial text.
        check: returns an error line for a bad answer (shown; the modal stays).
    """

    BINDINGS = [
        # The field takes Enter itself; this row puts it in the key line, the help and the palette.
        Binding("enter", "submit", N_("Accept"), id="prompt.accept", tooltip=N_("Accept what is typed")),
        Binding("escape", "cancel", N_("Cancel"), id="prompt.cancel", tooltip=N_("Close without changing anything")),
    ]

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
        # Its own key line: the screen below's keys do not work while the prompt is open.
        yield KeyLine()

    @on(Input.Submitted)
    def submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_submit(event.value)

    def action_submit(self, text: str | None = None) -> None:
        """Accept ``text`` (by default what the field holds), or say under the field what is wrong."""
        if text is None:
            text = self.query_one("#prompt-input", Input).value
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

    BINDINGS = [
        Binding("enter", "pick", N_("Pick"), id="choice.pick", tooltip=N_("Pick the highlighted option (or press its number)")),
        Binding("escape", "cancel", N_("Cancel"), id="choice.cancel", tooltip=N_("Close without picking")),
    ]

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
        yield KeyLine()

    def on_mount(self) -> None:
        ol = self.query_one(OptionList)
        if self.choices:
            ol.highlighted = 0
        ol.focus()

    @on(OptionList.OptionSelected)
    def selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)

    def action_pick(self) -> None:
        ol = self.query_one(OptionList)
        if ol.highlighted is not None:
            self.dismiss(ol.get_option_at_index(ol.highlighted).id)

    def on_key(self, event: events.Key) -> None:  # digits pick directly
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
        Binding("y,enter", "answer(True)", N_("Yes"), id="confirm.yes", tooltip=N_("Yes, do it")),
        Binding("n,escape", "answer(False)", N_("No"), id="confirm.no", tooltip=N_("No, change nothing")),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(Text(self.question), classes="dialog--title")
            yield Static(_("y / Enter: yes    n / Escape: no"), classes="dialog--hint")
        yield KeyLine()

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


def read_faces(text: str, size: int | Sequence[int], *, allow_ability: bool = False) -> list[Die]:
    """Faces typed from physical dice, separated by commas or spaces (``7,4 10``).

    ``size`` is every die's sides, or one size per die in the order typed (then the
    count is checked first, since each face is read against its own die).

    Raises:
        FaceError: one line naming the bad face.
    """
    items = [x for x in re.split(r"[,\s]+", text.strip()) if x]
    if isinstance(size, int):
        return list(parse_faces(",".join(items), size, allow_ability=allow_ability))
    sizes = list(size)
    if not items:
        raise FaceError(_("no faces given (write them separated by commas or spaces, e.g. 7 4 3)"))
    if len(items) != len(sizes):
        raise FaceError(_count_error(len(sizes), len(items)))
    out: list[Die] = []
    for n, (item, s) in enumerate(zip(items, sizes), 1):
        try:
            out.extend(parse_faces(item, s, allow_ability=allow_ability))
        except FaceError as e:
            raise FaceError(_("die {n} (d{size}): {reason}", n=n, size=s, reason=e)) from None
    return out


def _count_error(want: int, got: int) -> str:
    rolled = ngettext("{n} die was rolled", "{n} dice were rolled", want)
    return ngettext("{rolled}; you entered {n} face", "{rolled}; you entered {n} faces", got, rolled=rolled)


def _dice_text(count: int, size: int | Sequence[int]) -> str:
    """``3d6``, or ``d8 d8 d10`` when the dice differ."""
    if isinstance(size, int):
        return f"{count}d{size}"
    sizes = list(size)
    if len(set(sizes)) == 1:
        return f"{count}d{sizes[0]}"
    return " ".join(f"d{s}" for s in sizes)


class FacesPrompt(_LinePrompt[list[Die]]):
    """Ask for the faces of ``count`` physical dice of ``size`` sides; dismisses with the dice.

    A wrong count or a face the die cannot show is said under the field, and the
    prompt stays open with what was typed, so one slip is fixed with one key.

    Args:
        title: what is rolled (``"Lena's Thief die"``).
        count: how many dice; the answer must have exactly this many faces.
        size: the dice's sides, or each die's sides in the order they are typed.
        allow_ability: ``*`` after a face marks an ability die (Rajapolku).
        hint: the line under the field (default: how to separate the faces).
    """

    def __init__(self, title: str, count: int, size: int | Sequence[int], *, allow_ability: bool = False,
                 hint: str = "") -> None:
        self.count = count
        self.sides = size if isinstance(size, int) else tuple(size)
        self.allow_ability = allow_ability
        top = size if isinstance(size, int) else max(size, default=6)
        example = " ".join(str(min(top, 3 + i)) for i in range(min(count, 6)))
        super().__init__(_("{title}: {dice_text} — the faces of the physical dice", title=title, dice_text=_dice_text(count, size)),
                         placeholder=f"e.g. {example}",
                         hint=hint or _("separated by commas or spaces; Escape cancels"), check=self._check)

    def _check(self, text: str) -> str | None:
        try:
            dice = read_faces(text, self.sides, allow_ability=self.allow_ability)
        except FaceError as e:
            return str(e)
        if len(dice) != self.count:
            return _count_error(self.count, len(dice))
        return None

    def answer(self, text: str) -> list[Die]:
        return read_faces(text, self.sides, allow_ability=self.allow_ability)


def ask_faces(app: App[Any], title: str, count: int, size: int | Sequence[int], then: Callable[[list[int]], None],
              *, wave: Callable[[list[int]], int] | None = None, hint: str = "") -> None:
    """Ask for the faces of physical dice, then one more prompt per wave of dice the faces add.

    ``wave(faces)`` says how many dice the next wave throws after ``faces`` (the
    session's ``sr_six_wave`` for the rule of six); 0 ends. ``then`` gets every face
    in the order typed, which is the order a roll command's ``faces=`` takes; it is
    not called when the GM cancels a prompt (nothing was rolled). ``count`` 0 calls
    ``then([])`` at once.
    """
    collected: list[int] = []

    def ask(n: int, sizes: int | Sequence[int], k: int) -> None:
        if n == 0:
            then(collected)
            return

        def typed(dice: list[Die] | None) -> None:
            if dice is None:
                return
            faces = [d.face for d in dice]
            collected.extend(faces)
            more = wave(faces) if wave is not None else 0
            if more:
                die = size if isinstance(size, int) else 6
                ask(more, die, k + 1)
            else:
                then(collected)

        label = title if k == 0 else _("{title}, rule of six wave {n} (one die per six)", title=title, n=k)
        app.push_screen(FacesPrompt(label, n, sizes, hint=hint if k == 0 else ""), typed)

    ask(count, size, 0)
