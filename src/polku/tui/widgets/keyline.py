"""The main screen's key line: the footer's keys drawn as one line of text.

Textual's footer mounts a widget per key; on the main screen, the one every
session starts on, that cost about a tenth of the time to the first frame.
This widget shows the same keys (the screen's active bindings that are
shown, dimmed when disabled, the command palette key on the right) as one
Text, styled by the footer's theme variables, and still answers a click.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import events
from textual.widget import Widget

if TYPE_CHECKING:
    from textual.screen import Screen


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

    def _keys(self) -> tuple[list[tuple[str, str, str, bool]], tuple[str, str, str, bool] | None]:
        active = self.screen.active_bindings
        seen: set[str] = set()
        keys = []
        for _node, binding, enabled, _tooltip in active.values():
            if not binding.show or binding.action in seen:
                continue
            seen.add(binding.action)
            keys.append((binding.key, self.app.get_key_display(binding), binding.description, enabled))
        palette = None
        if self.app.ENABLE_COMMAND_PALETTE:
            found = active.get(self.app.COMMAND_PALETTE_BINDING)
            if found is not None:
                _node, binding, enabled, _tooltip = found
                palette = (binding.key, self.app.get_key_display(binding), binding.description, enabled)
        return keys, palette

    def _bindings_changed(self, screen: Screen) -> None:
        if screen is not self.screen:
            return
        shown = self._keys()
        if shown != self._shown:
            self.refresh()

    def render(self) -> Text:
        keys, palette = self._keys()
        self._shown = (keys, palette)
        key_style = self.get_component_rich_style("keyline--key")
        desc_style = self.get_component_rich_style("keyline--description")
        text = Text(no_wrap=True, overflow="crop")
        spans: list[tuple[int, int, str, bool]] = []
        for key, display, description, enabled in keys:
            start = len(text)
            text.append(f" {display} ", key_style)
            text.append(f"{description} ", desc_style)
            if not enabled:
                text.stylize("dim", start)
            spans.append((start, len(text), key, enabled))
        if palette is not None:
            key, display, description, enabled = palette
            tail = Text.assemble(("▏", desc_style), (f"{display}", key_style), (f" {description} ", desc_style))
            width = self.size.width or 80
            room = width - len(tail)
            if len(text) > room:
                # Keep the palette key visible, as Textual's footer does.
                text.truncate(max(0, room))
                spans = [sp for sp in spans if sp[1] <= room]
            gap = width - len(text) - len(tail)
            if gap > 0:
                text.append(" " * gap)
            start = len(text)
            text.append_text(tail)
            spans.append((start, len(text), key, enabled))
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
