"""What a screen's keys are, read from its bindings: for the help, the palette and the key line.

One list feeds all three, so a key bound on any screen (a roll screen, a
dialog) is listed in that screen's help (``?``), offered in its command
palette (``ctrl+p``) and, room allowing, shown on its key line, without the
screen doing anything but declaring the binding.

Which bindings count: the ones that work right now on that screen — the
focused widget's, its ancestors' up to the screen (a modal screen stops
there, as Textual's key dispatch does), then the app's priority keys, which
work everywhere (help, the palette), and, below a non-modal screen, the
app's other keys. A binding whose ``check_action`` says ``False`` is not
there (it does not exist on this system); one that says ``None`` is listed
as disabled. A stock widget's keys without an id (arrows, Tab) are left to
the help's "Moving around" text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from textual.binding import Binding, BindingsMap

from ..i18n import N_, _
from .compat import action_state, app_bindings, binding_chain

if TYPE_CHECKING:
    from textual.app import App
    from textual.dom import DOMNode
    from textual.screen import Screen

TEXTUAL_WORDS = (N_("palette"), N_("Open the command palette"), N_("Quit"),
                 N_("Quit the app and return to the command prompt."))
"""Textual's own descriptions of the app keys it adds (the palette's ctrl+p, ctrl+q), marked for the
catalogue: a row translates every description as it is shown, theirs too."""

EVERYWHERE = N_("Everywhere")
"""The group of the app's own keys (in English: translated where a group's title is made)."""


@dataclass
class KeyRow:
    """One action of a screen with every key bound to it."""

    keys: list[str]
    """The bound keys as the binding names them (``less_than_sign``), first one first."""
    displays: list[str]
    """The same keys as typed (``<``, ``^z``)."""
    action: str
    namespace: "DOMNode"
    """Where the action runs (the screen, a widget or the app)."""
    description: str
    """The binding's description in the language in use (translated when the row is made, not at import)."""
    tooltip: str
    enabled: bool
    show: bool
    """Declared for the key line (``Binding.show``)."""
    group: str
    binding_id: str | None

    @property
    def key_text(self) -> str:
        return " / ".join(self.displays)

    @property
    def title(self) -> str:
        """What the action does, in words: the tooltip, else the description."""
        return self.tooltip or self.description


def _words(name: str) -> str:
    """``RajaRollScreen`` → ``Raja roll``, ``SRRollScreen`` → ``SR roll``."""
    name = re.sub(r"(Screen|Prompt)$", "", name) or name
    parts: list[str] = re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+", name)
    if not parts:
        return name
    words = [parts[0]] + [p if p.isupper() else p.lower() for p in parts[1:]]
    return " ".join(words)


def screen_title(screen: "Screen[Any]") -> str:
    """The group title of a screen's own keys, in the language in use."""
    title = getattr(screen, "BINDING_GROUP_TITLE", None)
    return _(title) if title else _words(type(screen).__name__)


def _group(node: "DOMNode", binding: Binding, screen: "Screen[Any]") -> str:
    if node is node.app:
        return _(EVERYWHERE)
    if binding.group is not None and binding.group.description:
        return _(binding.group.description)
    if node is screen:
        return screen_title(screen)
    title = getattr(node, "BINDING_GROUP_TITLE", None)
    return _(title) if title else _("In the {widget}", widget=_words(type(node).__name__).lower())


def _chain(screen: "Screen[Any]") -> tuple[list[tuple["DOMNode", BindingsMap]], bool]:
    """(namespace, bindings) from the focused widget up, and whether a modal cut it short."""
    chain = binding_chain(screen)  # the focused widget → ... → screen → app
    for index, (node, _bindings) in enumerate(chain, 1):
        if node.is_modal:
            return chain[:index], True
    return chain, False


def screen_keys(screen: "Screen[Any]") -> list[KeyRow]:
    """Every action that a key runs on ``screen`` right now, one row per action, in binding order."""
    app: App[Any] = screen.app
    chain, modal = _chain(screen)
    namespaces: list[tuple[DOMNode, BindingsMap, bool]] = [(node, bindings, False) for node, bindings in chain]
    if modal:
        # Textual still runs the app's priority keys above a modal screen.
        namespaces.append((app, app_bindings(app), True))
    rows: dict[tuple[int, str] | tuple[int, str, str], KeyRow] = {}
    """Rows by (node, action), and by (node, description, tooltip) for actions that say the same."""
    taken: set[str] = set()
    for node, bindings, priority_only in namespaces:
        for key, binding in bindings:
            if priority_only and not binding.priority:
                continue
            if not binding.description and not binding.tooltip:
                continue
            if node is not app and binding.id is None:
                continue
            if key in taken and not binding.priority:
                continue  # a nearer namespace has this key
            state = action_state(app, binding.action, node)
            if state is False:
                continue
            taken.add(key)
            display = app.get_key_display(Binding(key, binding.action, key_display=binding.key_display))
            # Keys of one action, or of two actions that say the same (``?`` and f1), share a row.
            same = (id(node), binding.description, binding.tooltip or "")
            row = rows.get((id(node), binding.action)) or rows.get(same)
            if row is None:
                row = rows[(id(node), binding.action)] = rows[same] = KeyRow(
                    keys=[], displays=[], action=binding.action, namespace=node,
                    description=_(binding.description) if binding.description else "",
                    tooltip=_(binding.tooltip) if binding.tooltip else "",
                    enabled=bool(state), show=binding.show, group=_group(node, binding, screen),
                    binding_id=binding.id)
            if key not in row.keys:
                if binding.show and not row.show:  # the key line shows the first key: a shown one
                    row.keys.insert(0, key)
                    row.displays.insert(0, display)
                else:
                    row.keys.append(key)
                    row.displays.append(display)
            row.show = row.show or binding.show
    unique: list[KeyRow] = []
    for row in rows.values():
        if not any(row is r for r in unique):
            unique.append(row)
    return unique


def grouped(screen: "Screen[Any]", rows: list[KeyRow] | None = None) -> list[tuple[str, list[KeyRow]]]:
    """The rows by group: the screen's own first, then the other groups as they come, the app's last."""
    rows = screen_keys(screen) if rows is None else rows
    groups: dict[str, list[KeyRow]] = {}
    first = screen_title(screen)
    for row in rows:
        groups.setdefault(row.group, []).append(row)
    everywhere = _(EVERYWHERE)
    order = sorted(groups, key=lambda t: 0 if t == first else 2 if t == everywhere else 1)
    return [(title, groups[title]) for title in order]


async def run_row(row: KeyRow) -> None:
    """Run a row's action where its key would run it."""
    await row.namespace.app.run_action(row.action, row.namespace)


__all__ = ["EVERYWHERE", "KeyRow", "grouped", "run_row", "screen_keys", "screen_title"]
