"""The dialog for a command that failed unexpectedly: what to report, nothing changed.

A tracker command that raises ``TrackerError`` or ``RulesError`` is refused in one "Not done"
line. Anything else is a fault in Polku: the tracker has rolled the command back and nothing
was saved, and this dialog says what happened in words the GM can paste into a report.
"""

from __future__ import annotations

import traceback
from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, Static

from ...i18n import N_, _
from ..widgets.keyline import KeyLine


def failure_report(exc: BaseException, command: str, session: Path | None) -> str:
    """The lines to report: the exception's type and message, where it was raised, the command
    (its name and arguments), the session file."""
    frames = traceback.extract_tb(exc.__traceback__)
    lines = [f"error: {type(exc).__qualname__}: {exc}"]
    if frames:
        last = frames[-1]
        lines.append(f"raised in: {Path(last.filename).name}:{last.lineno} ({last.name})")
    lines += [f"command: {command}",
              f"session file: {session if session is not None else '(none)'}"]
    return "\n".join(lines)


class CommandFailed(ModalScreen[None]):
    """A command failed in a way Polku did not foresee: it was undone; what to report. Enter or Escape closes."""

    BINDINGS = [
        Binding("enter,escape", "close", N_("Close"), id="failure.close",
                tooltip=N_("Close; the session is as it was before the command")),
    ]

    def __init__(self, report: str) -> None:
        super().__init__()
        self.report = report

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(_("Something went wrong: nothing was changed"), classes="dialog--title dialog--error")
            yield Static(Text(self.report), id="failure-report")
            yield Static(_("The command was rolled back: the session and its file are as they were. "
                           "This is a fault in Polku, not in what you did: please report it to Polku's "
                           "maintainers with the lines above. Enter or Escape: close."),
                         classes="dialog--hint")
        yield KeyLine()

    def action_close(self) -> None:
        self.dismiss(None)
