"""The dice log: every event, newest last, rendering only the visible lines.

A :class:`~textual.scroll_view.ScrollView` using the Line API: a session of
10,000 events costs the same per frame as an empty one, because only the
rows on screen are formatted (and cached).
"""

from __future__ import annotations

from typing import Callable, Sequence

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.binding import Binding
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ... import i18n
from ...i18n import N_
from ...session import telling
from ...session.model import Event
from ..render import event_details, event_line


class DiceLog(ScrollView, can_focus=True):
    """The log pane. Enter expands the event under the cursor."""

    BINDINGS = [
        Binding("up,k", "cursor(-1)", N_("Up"), show=False),
        Binding("down,j", "cursor(1)", N_("Down"), show=False),
        Binding("pageup", "cursor(-10)", N_("Page up"), show=False),
        Binding("pagedown", "cursor(10)", N_("Page down"), show=False),
        Binding("home", "cursor_to(0)", N_("First"), show=False),
        Binding("end", "cursor_to(-1)", N_("Last"), show=False),
        Binding("enter,space", "toggle_expand", N_("Expand"), id="log.expand", tooltip=N_("Show every die and number of the event")),
    ]

    DEFAULT_CSS = """
    DiceLog { height: 1fr; }
    """

    cursor: reactive[int] = reactive(-1, always_update=True)
    """Index into the visible events of the selected event (-1: follow the newest)."""

    class Selected(Message):
        """The cursor moved to an event."""

        def __init__(self, event: Event) -> None:
            super().__init__()
            self.event = event

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.events: Sequence[Event] = []
        self.system = ""
        self.styles_map: dict[str, str] = {}
        self.is_undone: Callable[[int], bool] = lambda seq: False
        self.expanded: set[int] = set()
        self._rows: list[tuple[int, int]] = []
        self._cache: dict[tuple[int, int], Strip] = {}
        self._cache_width = 0
        self._seen = 0
        """How many of ``events`` the rows hold (the rest are new)."""
        self._row_start: list[int] = []
        self.filter: Callable[[Event], bool] | None = None
        self._visible: list[int] = []
        self._line_style: Style | None = None
        self._old_noted = False
        """Whether the note on entries shown as stored (an older file's, in English) was given."""

    # -- data ---------------------------------------------------------------

    def set_events(self, events: Sequence[Event], *, system: str, is_undone: Callable[[int], bool],
                   styles: dict[str, str]) -> None:
        self.events = events
        self.system = system
        self.is_undone = is_undone
        self.styles_map = styles
        self._pad_rows = 0
        self._rebuild()
        self.scroll_end(animate=False, immediate=True)

    page_follow = False
    """Players' views: when the newest event no longer fits, jump so that it sits near the top
    and leave the rest of the pane blank, instead of scrolling a line per event. Most new events
    then repaint one or two lines rather than the whole pane: bytes over SSH."""

    _pad_rows = 0
    """Blank rows below the last event after such a jump (part of the scrollable size)."""

    def appended(self, count: int = 1, *, changed_seqs: tuple[int, ...] = ()) -> None:
        """New events were appended to the list (and maybe older ones were undone)."""
        follow = self.cursor < 0 or self.cursor >= len(self._visible) - 1
        at_end = self.scroll_offset.y >= self.max_scroll_y - 1
        old_rows = len(self._rows)
        cur = self._cursor_index()
        old_cursor_row = self._row_start[cur] if cur >= 0 else old_rows
        # From the first event not shown yet: several commands may run before the screen hears of
        # the first (a seat's requests, a script), and each message's count is its own events only.
        start = self._seen if self._seen <= len(self.events) else len(self.events) - count
        self._seen = len(self.events)
        for seq in changed_seqs:
            for key in [k for k in self._cache if k[0] < len(self.events) and self.events[k[0]]["seq"] == seq]:
                del self._cache[key]
        for i in range(start, len(self.events)):
            if self.filter is None or self.filter(self.events[i]):
                self._visible.append(i)
                self._row_start.append(len(self._rows))
                self._rows.append((i, 0))
        if self.page_follow and (follow or at_end) and not changed_seqs:
            self._page_to_newest(old_rows, old_cursor_row, follow)
            return
        self._resize()
        if changed_seqs:
            self._drop_changed(changed_seqs)
        if follow:
            self.cursor = -1
        if at_end or follow:
            self.scroll_end(animate=False, immediate=True)
            # The new rows count in max_scroll_y only after the next layout: without this the
            # view stops one row short the first time the log outgrows its pane.
            self.call_after_refresh(self.scroll_end, animate=False, immediate=True)
        self.refresh()

    def _page_to_newest(self, old_rows: int, old_cursor_row: int, follow: bool) -> None:
        if follow:
            self.set_reactive(DiceLog.cursor, -1)
        height = self.scrollable_content_region.height or 1
        y = self.scroll_offset.y
        if len(self._rows) <= y + height:
            self._resize()
            first = min(old_cursor_row, old_rows)
            # Only the new lines and the one the cursor left.
            self.refresh(Region(0, first - y, self.size.width, len(self._rows) - first))
            return
        top = max(0, len(self._rows) - max(1, height // 4))
        self._pad_rows = top + height
        self._resize()
        # The new scrollable size is laid out first; scrolling before would stop at the old end.
        self.call_after_refresh(self._jump, top)

    def _jump(self, top: int) -> None:
        self.scroll_to(y=top, animate=False, immediate=True)
        self.refresh()

    def _drop_changed(self, seqs: tuple[int, ...]) -> None:
        wanted = set(seqs)
        self._cache = {k: v for k, v in self._cache.items() if self.events[k[0]]["seq"] not in wanted}

    def restyle(self, styles: dict[str, str]) -> None:
        self.styles_map = styles
        self._cache.clear()
        self.refresh()

    def set_filter(self, predicate: Callable[[Event], bool] | None) -> None:
        self.filter = predicate
        self._rebuild()
        self.scroll_end(animate=False, immediate=True)

    def _rebuild(self) -> None:
        if self.filter is None:
            self._visible = list(range(len(self.events)))
        else:
            self._visible = [i for i, ev in enumerate(self.events) if self.filter(ev)]
        self._seen = len(self.events)
        self._rows = []
        self._row_start = []
        for i in self._visible:
            self._row_start.append(len(self._rows))
            self._rows.append((i, 0))
            if i in self.expanded:
                n = len(self._details(i))
                self._rows.extend((i, k + 1) for k in range(n))
        self._cache.clear()
        self._resize()
        self.refresh()

    def _resize(self) -> None:
        size = Size(self.scrollable_content_region.width or 1, max(len(self._rows), self._pad_rows))
        old = self.virtual_size
        if size == old:
            return
        height = self.scrollable_content_region.height
        if (self.is_mounted and size.width == old.width and self.show_vertical_scrollbar
                and min(size.height, old.height) > height > 0):
            # The pane's own size is set by the layout, not by its content, and the scrollbar
            # stays shown: only the scrollbar's range changes. ``virtual_size`` is a layout
            # reactive, and a layout pass re-renders every widget of the screen (about 13 KB to
            # a 120x40 terminal per logged line); here the log and its scrollbar repaint alone.
            self.set_reactive(DiceLog.virtual_size, size)
            self.vertical_scrollbar.window_virtual_size = size.height
            self.refresh()
            return
        self.virtual_size = size

    names: Callable[[], tuple[dict[str, str], dict[str, str]]] | None = None
    """Character names and challenge titles by id, for the expanded lines (else ids are shown)."""

    def _details(self, index: int) -> list[Text]:
        names, titles = self.names() if self.names is not None else ({}, {})
        return event_details(self.events[index], self.styles_map, system=self.system, names=names, titles=titles)

    @property
    def visible_count(self) -> int:
        return len(self._visible)

    # -- cursor ----------------------------------------------------------------

    def _cursor_index(self) -> int:
        if not self._visible:
            return -1
        return len(self._visible) - 1 if self.cursor < 0 else min(self.cursor, len(self._visible) - 1)

    def action_cursor(self, delta: int) -> None:
        if not self._visible:
            return
        cur = self._cursor_index()
        new = max(0, min(len(self._visible) - 1, cur + delta))
        self.cursor = new
        self._scroll_to_cursor()
        self.post_message(self.Selected(self.events[self._visible[new]]))
        self._cache.clear()
        self.refresh()

    def action_cursor_to(self, where: int) -> None:
        if not self._visible:
            return
        self.cursor = where if where >= 0 else -1
        self._scroll_to_cursor()
        self._cache.clear()
        self.refresh()

    def _scroll_to_cursor(self) -> None:
        cur = self._cursor_index()
        if cur < 0:
            return
        row = self._row_start[cur]
        height = self.scrollable_content_region.height or 1
        top = self.scroll_offset.y
        if row < top:
            self.scroll_to(y=row, animate=False, immediate=True)
        elif row >= top + height:
            self.scroll_to(y=row - height + 1, animate=False, immediate=True)

    def action_toggle_expand(self) -> None:
        cur = self._cursor_index()
        if cur < 0:
            return
        i = self._visible[cur]
        if i in self.expanded:
            self.expanded.discard(i)
        else:
            self.expanded.add(i)
        keep = self.cursor
        self._rebuild()
        self.cursor = keep
        self._scroll_to_cursor()
        if i in self.expanded:
            n = len(self._details(i))
            row = self._row_start[cur] + n
            height = self.scrollable_content_region.height or 1
            if row >= self.scroll_offset.y + height:
                self.scroll_to(y=min(self._row_start[cur], row - height + 1), animate=False, immediate=True)

    def selected_event(self) -> Event | None:
        cur = self._cursor_index()
        return None if cur < 0 else self.events[self._visible[cur]]

    # -- rendering ---------------------------------------------------------------

    def render_lines(self, crop: Region) -> list[Strip]:
        # The pane's style, worked out once per paint rather than once per line
        # (``rich_style`` walks every ancestor's styles).
        self._line_style = self.rich_style
        try:
            return super().render_lines(crop)
        finally:
            self._line_style = None

    def render_line(self, y: int) -> Strip:
        _, scroll_y = self.scroll_offset
        row = scroll_y + y
        width = self.scrollable_content_region.width
        style = self._line_style if self._line_style is not None else self.rich_style
        if row >= len(self._rows):
            return Strip.blank(width, style)
        if width != self._cache_width:
            # Lines are cut to the width they were drawn at (with an ellipsis): the scrollbar
            # showing up narrows the lines without resizing the widget.
            self._cache.clear()
            self._cache_width = width
        index, sub = self._rows[row]
        cur = self._cursor_index()
        selected = cur >= 0 and self._visible[cur] == index and self.has_focus
        key = (index, sub)
        strip = self._cache.get(key) if not selected else None
        if strip is None:
            ev = self.events[index]
            if sub == 0:
                text = event_line(ev, self.styles_map, system=self.system, undone=self.is_undone(ev["seq"]))
                if not self._old_noted and telling.stored_only(ev):
                    self._note_stored(ev)
            else:
                details = self._details(index)
                text = details[sub - 1] if sub - 1 < len(details) else Text("")
            text = text.copy()
            if selected:
                text.stylize("reverse")
            text.truncate(max(1, width), overflow="ellipsis")
            segments = list(Segment.apply_style(text.render(self.app.console, end=""), style))
            strip = Strip(segments)
            if not selected:
                self._cache[key] = strip
        return strip.crop_extend(0, width, style)

    def on_resize(self) -> None:
        self._resize()
        self._cache.clear()
        if self.cursor < 0:
            # Following the newest event: keep it in view once the pane has its size.
            self.scroll_end(animate=False, immediate=True)

    def on_focus(self) -> None:
        self.refresh()

    def _note_stored(self, ev: Event) -> None:
        """Once per log: its file has entries from before facts, shown in English as written."""
        self._old_noted = True
        self.call_later(self.notify, telling.old_note([ev]), title=i18n._("Older entries"))

    def on_blur(self) -> None:
        self.refresh()


__all__ = ["DiceLog", "Segment"]
