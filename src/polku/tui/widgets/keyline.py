"""The main screen's key line: the footer's keys drawn as one line of text.

Textual's footer mounts a widget per key; on the main screen, the one every
session starts on, that cost about a tenth of the time to the first frame.
This widget shows the keys of its screen (:func:`polku.tui.keys.screen_keys`:
the bindings that are shown, in the order declared, most important first,
dimmed when disabled; the help and the palette keys pinned on the right) as
one Text, styled by the footer's theme variables, and still answers a click.
A key that does not fit whole is left out, never cut; every key is in the
help and the palette anyway. The way out (Escape), undo and quit are always
kept, at the right of the screen's own keys: others give way to them. Any
screen can use it, dialogs included.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import events
from textual.widget import Widget

if TYPE_CHECKING:
    from textual.screen import Screen


KEPT = ("undo", "redo", "quit_app", "quit", "escape")
"""The actions kept on every key line, by rank, at the right of the screen's own keys (``escape``:
the row whose first key is Escape, the way out of a dialog)."""


class KeyLine(Widget):
    """Every key of the screen in one line."""

    COMPONENT_CLASSES = {"keyline--key", "keyline--description"}

    DEFAULT_CSS = """
    KeyLine {
        dock: bottom;
        height: 1;
        width: 1fr;
        background: $footer-background;
        color: $footer-foreground;
        & > .keyline--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        & > .keyline--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._spans: list[tuple[int, int, str, bool]] = []
        self._shown: tuple[Any, ...] | None = None

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _keys(self) -> tuple[list[tuple[str, str, str, bool]], list[tuple[int, tuple[str, str, str, bool]]],
                             list[tuple[str, str, str, bool]]]:
        """(the screen's keys to show, most important first; the keys kept at their right, by rank:
        undo, redo, quit, then Escape; the keys pinned to the right)."""
        from ..keys import screen_keys

        keys: list[tuple[str, str, str, bool]] = []
        kept: list[tuple[int, tuple[str, str, str, bool]]] = []
        pinned: list[tuple[str, str, str, bool]] = []
        for row in screen_keys(self.screen):
            entry = (row.keys[0], row.displays[0], row.description, row.enabled)
            action = row.action.rsplit(".", 1)[-1]
            if row.action in ("help", "app.help", "command_palette", "app.command_palette"):
                pinned.append(entry)
            elif not row.show:
                continue
            elif row.keys[0] == "escape":
                kept.append((KEPT.index("escape"), entry))  # the way out, the key everyone tries anyway: last
            elif action in KEPT:
                kept.append((KEPT.index(action), entry))
            else:
                keys.append(entry)
        pinned.sort(key=lambda e: "palette" in e[2].lower() or e[0] == "ctrl+p")  # help first, then the palette
        return keys, sorted(kept, key=lambda k: k[0]), pinned

    def _bindings_changed(self, screen: Screen[Any]) -> None:
        if screen is not self.screen:
            return
        shown = self._keys()
        if shown != self._shown:
            self.refresh()

    def render(self) -> Text:
        keys, kept, pinned = self._keys()
        self._shown = (keys, kept, pinned)
        key_style = self.get_component_rich_style("keyline--key")
        desc_style = self.get_component_rich_style("keyline--description")
        width = self.size.width or 80
        tail = Text(no_wrap=True)
        tail_spans: list[tuple[int, int, str, bool]] = []
        for i, (key, display, description, enabled) in enumerate(pinned):
            start = len(tail)
            if i == 0:
                tail.append("▏", desc_style)
            tail.append(f" {display} ", key_style)
            tail.append(f"{description} ", desc_style)
            if not enabled:
                tail.stylize("dim", start)
            tail_spans.append((start, len(tail), key, enabled))

        def piece(entry: tuple[str, str, str, bool]) -> int:
            return len(entry[1]) + len(entry[2]) + 3

        # Undo, quit and Escape have their room first; redo only takes what the others leave.
        must = [(rank, e) for rank, e in kept if KEPT[rank] != "redo"]
        while must and sum(piece(e) for _, e in must) > width - len(tail):
            must = must[:-1]  # narrower than the kept keys themselves: Escape gives way first
        room = width - len(tail) - sum(piece(e) for _, e in must)
        text = Text(no_wrap=True, overflow="crop")
        spans: list[tuple[int, int, str, bool]] = []
        shown: list[tuple[str, str, str, bool]] = []
        used = 0
        for entry in keys:
            if used + piece(entry) > room:
                break  # a key is shown whole or not at all; the rest are in the help and the palette
            shown.append(entry)
            used += piece(entry)
        for rank, entry in kept:
            if KEPT[rank] == "redo" and used + piece(entry) <= room:
                must.append((rank, entry))
                used += piece(entry)
        for key, display, description, enabled in shown + [e for _, e in sorted(must, key=lambda k: k[0])]:
            start = len(text)
            text.append(f" {display} ", key_style)
            text.append(f"{description} ", desc_style)
            if not enabled:
                text.stylize("dim", start)
            spans.append((start, len(text), key, enabled))
        gap = width - len(text) - len(tail)
        if gap > 0:
            text.append(" " * gap)
        offset = len(text)
        text.append_text(tail)
        spans.extend((start + offset, end + offset, key, enabled) for start, end, key, enabled in tail_spans)
        self._spans = spans
        return text

    def on_click(self, event: events.Click) -> None:
        for start, end, key, enabled in self._spans:
            if start <= event.x < end:
                if enabled:
                    self.app.simulate_key(key)
                else:
                    self.app.bell()
                return


__all__ = ["KeyLine"]
