"""Textual's footer, with its keys in the first frame and rebuilt only when they change."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.app import ComposeResult
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

if TYPE_CHECKING:
    from textual.screen import Screen


class PolkuFooter(Footer):
    """The same keys, look and clicks as :class:`textual.widgets.Footer`.

    Textual's footer composes empty, then rebuilds itself after the first
    refresh once the screen reports its bindings, and again on every later
    report (each focus change). A rebuild removes and mounts a dozen widgets
    inside a batch, and a frame painted during it is thrown away: at start
    that was a whole frame, painted twice. This one composes its keys at once
    and skips a rebuild when the keys it would show are the ones it shows;
    its keys start with the footer's ``compact`` instead of being restyled to it.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.set_reactive(Footer._bindings_ready, True)
        self._shown_key: tuple[Any, ...] | None = None

    def _bindings_key(self) -> tuple[Any, ...]:
        """What :meth:`compose` would show, for comparison."""
        palette = None
        active = self.screen.active_bindings
        if self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE:
            palette = active.get(self.app.COMMAND_PALETTE_BINDING)
        shown = tuple((b.binding, b.enabled, b.tooltip) for b in active.values() if b.binding.show)
        return (shown, palette, self.compact)

    def compose(self) -> ComposeResult:
        self._shown_key = self._bindings_key()
        compact = self.compact
        for widget in super().compose():
            if isinstance(widget, FooterKey):
                # A key starts compact and is then bound to the footer's value: two
                # restyles of every key as it mounts. Start it with that value (the
                # palette key is not bound: it keeps its own default, compact).
                value = True if widget.has_class("-command-palette") else compact
                widget.set_reactive(FooterKey.compact, value)
                widget.set_class(value, "-compact", update=False)
            yield widget

    def bindings_changed(self, screen: Screen) -> None:
        if (self._shown_key is not None and self.is_attached and screen is self.screen
                and self._bindings_key() == self._shown_key):
            return
        super().bindings_changed(screen)


__all__ = ["PolkuFooter"]
