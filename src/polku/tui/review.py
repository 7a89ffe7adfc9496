"""``polku review FILE``: step through a saved session, read-only.

The timeline is every event of the log (undone ones struck through); moving
the cursor shows the challenge queue and the characters *as they were right
after that event*, rebuilt from the log (:class:`polku.session.review.replay.History`).
Filters narrow the timeline by character, scene, kind and outcome; ``S``
opens the statistics with terminal bar charts (:mod:`polku.session.review.stats`).

The file is opened without a lock and never written.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable, Iterable

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from ..i18n import N_, _, decimal, ngettext, pgettext
from ..session.model import Event, State
from ..session.review import stats as st
from ..session.review.replay import History, ReplayError
from ..session.tracker import Tracker
from ..text import bar
from .limits import InputLimits
from .render import KIND_MARK, plain_styles, styles_from_theme
from .screens.prompts import ChoicePrompt
from .typeahead import TypeAhead
from .widgets.dice_log import DiceLog
from .widgets.keyline import KeyLine
from .widgets.panes import ChallengeQueue, CharacterPane, TurnOrder, compose_panes

REVIEW_CSS = """
#stats-body { height: 1fr; background: $surface; padding: 0 1; scrollbar-size-vertical: 1; }
#stats-body:focus { background: $surface; }
.stats-part { height: auto; margin-bottom: 1; }
"""


class ReadOnlyApp(TypeAhead, InputLimits, App[None]):
    """Base of the read-only viewers: Polku's CSS and themes, nothing saved.

    Args:
        theme: a theme name to use (else the remembered one, else the bundled default).
        theme_dirs: folders of theme files (default: the shipped and the user's folders).
    """

    CSS_PATH = "app.tcss"
    CSS = REVIEW_CSS

    BINDINGS = [
        Binding("q", "quit", N_("Quit"), id="viewer.quit", tooltip=N_("Leave")),
        Binding("ctrl+t", "change_theme", N_("Theme"), show=False, id="viewer.theme", tooltip=N_("Switch the colour theme")),
    ]

    def __init__(self, *, theme: str | None = None, theme_dirs: Iterable[Path] | None = None) -> None:
        super().__init__()
        self._forced_theme = theme
        self.theme_dirs = list(theme_dirs) if theme_dirs is not None else None

    def get_theme_variable_defaults(self) -> dict[str, str]:
        from .themes import POLKU_VARIABLE_DEFAULTS

        return dict(POLKU_VARIABLE_DEFAULTS)

    def load_themes(self) -> None:
        """Register theme files and pick one; never writes the preferences."""
        from .. import config
        from .themes import BUNDLED_FALLBACK, load_user_themes

        dirs = self.theme_dirs if self.theme_dirs is not None else config.themes_dirs()
        themes, _errors = load_user_themes(dirs)
        for theme in themes:
            self.register_theme(theme)
        wanted = self._forced_theme
        if wanted is None and self.theme_dirs is None:
            wanted = config.load_config().get("theme")
        wanted = wanted or BUNDLED_FALLBACK
        if wanted not in self.available_themes:
            wanted = BUNDLED_FALLBACK if BUNDLED_FALLBACK in self.available_themes else "textual-dark"
        self.theme = wanted

    def log_styles(self) -> dict[str, str]:
        if os.environ.get("NO_COLOR"):
            return plain_styles()
        try:
            return styles_from_theme(self.theme_variables)
        except AttributeError:  # asked before App.__init__ has set the theme's variables
            return styles_from_theme({})

    def watch_theme(self, name: str) -> None:
        for screen in self.screen_stack:
            restyle = getattr(screen, "restyle", None)
            if restyle is not None:
                restyle()


class TimelineLog(DiceLog):
    """The dice log, telling the screen about every cursor move (Home and End too)."""

    def action_cursor_to(self, where: int) -> None:
        super().action_cursor_to(where)
        ev = self.selected_event()
        if ev is not None:
            self.post_message(self.Selected(ev))

    def select_seq(self, seq: int) -> bool:
        """Put the cursor on the visible event ``seq`` (or the nearest visible one after it)."""
        for pos, i in enumerate(self._visible):
            if self.events[i]["seq"] >= seq:
                self.cursor = pos
                self._scroll_to_cursor()
                self._cache.clear()
                self.refresh()
                self.post_message(self.Selected(self.events[i]))
                return True
        return False


EVENT_KINDS = {
    "roll": N_("roll"), "character": N_("character"), "wound": N_("wound"), "resource": N_("resource"),
    "challenge": N_("challenge"), "structure": N_("structure"), "note": N_("note"), "setting": N_("setting"),
    "template": N_("template"), "combat": N_("combat"), "dice": N_("dice"), "reset": N_("reset"),
    "undo": N_("undo"), "redo": N_("redo"), "narration": N_("narration"), "initiative": N_("initiative"),
    "effect": N_("effect"), "seat": N_("seat"),
}
"""The log's kinds of event (``model.EVENT_KINDS``) as the kind filter names them (translated where shown)."""


def event_kind_word(kind: str) -> str:
    word = EVENT_KINDS.get(kind)
    return _(word) if word is not None else kind


OUTCOME_WORDS = {"win": N_("win"), "loss": N_("loss"), "glitch": N_("glitch"), "critical glitch": N_("critical glitch"),
                 "burn": N_("burn")}
"""The outcome filter's tags (``stats.OUTCOME_TAGS``) in words."""


def outcome_word(tag: str) -> str:
    word = OUTCOME_WORDS.get(tag)
    return _(word) if word is not None else tag


def scene_choice(s: Any) -> str:
    """A scene in the review's choosers: ``scene 1.1.2: The docks (14 events)``; its title as the GM typed it."""
    where = ".".join(str(x) for x in s.at)
    if s.title:
        return ngettext("scene {where}: {title} ({n} event)", "scene {where}: {title} ({n} events)", s.events,
                        where=where, title=s.title)
    return ngettext("scene {where} ({n} event)", "scene {where} ({n} events)", s.events, where=where)


def view_tracker(state: State) -> Tracker:
    """A read-only tracker over a rebuilt state, for the panes."""
    return Tracker(state, [], read_only=True)


class ReviewScreen(Screen[None]):
    """Timeline, the state as it was at the selected event, and filters."""

    BINDING_GROUP_TITLE = N_("Review")

    BINDINGS = [
        Binding("c", "filter_character", N_("Who"), id="review.character", tooltip=N_("Show only one character's events")),
        Binding("s", "filter_scene", N_("Scene"), id="review.scene", tooltip=N_("Show only one scene's events")),
        Binding("f", "filter_kind", N_("Kind"), id="review.kind", tooltip=N_("Show only one kind of event")),
        Binding("o", "filter_outcome", N_("Outcome"), id="review.outcome",
                tooltip=N_("Show only wins, losses, glitches, critical glitches or burns")),
        Binding("u", "toggle_undone", N_("Undone in/out"), show=False, id="review.undone",
                tooltip=N_("Outcome filters: also show undone rolls and rolls a reroll or Edge replaced")),
        Binding("x", "clear_filters", N_("Clear"), id="review.clear", tooltip=N_("Show every event again")),
        Binding("g", "jump_scene", N_("Go to"), id="review.jump", tooltip=N_("Jump to the start of a scene")),
        Binding("left_square_bracket", "step_scene(-1)", N_("Prev scene"), show=False, id="review.prev_scene",
                tooltip=N_("Jump to the previous scene")),
        Binding("right_square_bracket", "step_scene(1)", N_("Next scene"), show=False, id="review.next_scene",
                tooltip=N_("Jump to the next scene")),
        Binding("S", "statistics", N_("Stats"), id="review.stats", tooltip=N_("Statistics with bar charts")),
    ]

    def __init__(self, tracker: Tracker, path: Path | None = None) -> None:
        super().__init__()
        self.tracker = tracker
        self.path = path
        self.history = History.of(tracker)
        self.scenes = self.history.scenes(tracker.is_undone)
        self.filters: dict[str, Any] = {}
        """Active filters: ``character`` (id), ``scene`` (a :class:`Scene`), ``kind``, ``outcome``."""
        self.with_undone = False
        """Whether outcome filters also show undone rolls and rolls that another roll replaced."""
        self.people = st.EventPeople(tracker)
        self.names = self.people.names
        self.replaced = st.superseded(tracker.events, tracker.is_undone)
        self.selected_seq = tracker.last_seq()

    @property
    def vapp(self) -> ReadOnlyApp:
        return self.app  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        yield Static(id="status-line")
        yield from compose_panes(TimelineLog(id="log"), _("Timeline"), queue_title=_("State"),
                                 queue_title_id="state-title")
        yield KeyLine()

    def on_mount(self) -> None:
        log = self.query_one(TimelineLog)
        log.set_events(self.tracker.events, system=self.tracker.system.value,
                       is_undone=self.tracker.is_undone, styles=self.vapp.log_styles())
        for pane in (self.query_one("#queue"), self.query_one("#chars")):
            pane.can_focus = False
        log.focus()
        self.show_state(self.tracker.last_seq())
        self.refresh_status()

    def restyle(self) -> None:
        self.query_one(TimelineLog).restyle(self.vapp.log_styles())
        self.show_state(self.selected_seq)

    # -- the state at an event ------------------------------------------------------

    @on(DiceLog.Selected)
    def event_selected(self, message: DiceLog.Selected) -> None:
        self.show_state(message.event["seq"])

    def show_state(self, seq: int) -> None:
        """Show the queue and characters as they were right after event ``seq``."""
        self.selected_seq = seq
        styles = self.vapp.log_styles()
        title = self.query_one("#state-title", Static)
        try:
            state = self.history.state_at(seq)
        except ReplayError as e:
            title.update(Text(_("Cannot rebuild: {reason}", reason=e), style="bold"))
            return
        view = view_tracker(state)
        self.query_one("#turns", TurnOrder).show(view, styles)
        self.query_one("#queue", ChallengeQueue).show(view, styles)
        self.query_one("#chars", CharacterPane).show(view, styles)
        ev = next((e for e in self.tracker.events if e["seq"] == seq), None)
        where = ".".join(str(x) for x in (ev.get("at", self.tracker.where) if ev else self.tracker.where))
        text = Text(_("After event {seq}", seq=seq), style="bold")
        text.append(_(" · scene {where}", where=where))
        if ev is not None and self.tracker.is_undone(seq):
            text.append(_(" · undone later"), style=styles.get("loss", ""))
        title.update(text)
        self.refresh_status()

    def refresh_status(self) -> None:
        t = self.tracker
        line = Text()
        line.append(f" {t.state['campaign']['name']} ", style="bold")
        line.append(_("· event {seq}/{last} · review", seq=self.selected_seq, last=t.last_seq()))
        desc = self.filter_text()
        if desc:
            line.append(_(" · only {filters}", filters=desc), style="bold")
        self.query_one("#status-line", Static).update(line)
        log = self.query_one(TimelineLog)
        log_title = self.query_one("#log-title", Static)
        if desc and log.visible_count == 0:
            log_title.update(Text(_("Timeline — no events match; x clears the filters")))
        elif desc:
            values = {"shown": log.visible_count, "n": len(t.events)}
            if "outcome" not in self.filters:
                title = _("Timeline — {shown} of {n} events", **values)
            elif self.with_undone:
                title = _("Timeline — {shown} of {n} events · undone too", **values)
            else:
                title = _("Timeline — {shown} of {n} events · rolls that stand", **values)
            log_title.update(Text(title))
        else:
            log_title.update(Text(ngettext("Timeline — {n} event", "Timeline — {n} events", len(t.events))))

    # -- filters ----------------------------------------------------------------------

    def filter_text(self) -> str:
        parts = []
        f = self.filters
        if "character" in f:
            parts.append(self.name_of(f["character"]))
        if "scene" in f:
            parts.append(_("scene {where}", where=".".join(str(x) for x in f["scene"].at)))
        if "kind" in f:
            parts.append(event_kind_word(f["kind"]))
        if "outcome" in f:
            word = outcome_word(f["outcome"])
            parts.append(_("{outcome} +undone", outcome=word) if self.with_undone else word)
        return " · ".join(parts)

    def name_of(self, cid: str) -> str:
        """A character's name now, or the last one it had before it left the campaign."""
        return self.names.get(cid, cid)

    def stands(self, ev: Event) -> bool:
        """Not undone, and not replaced by a later roll (an edge reroll, Edge after the roll)."""
        return not self.tracker.is_undone(ev["seq"]) and ev["seq"] not in self.replaced

    def predicate(self) -> Callable[[Event], bool] | None:
        f = dict(self.filters)
        if not f:
            return None
        settings = self.tracker.settings

        def keep(ev: Event) -> bool:
            cid = f.get("character")
            if cid is not None and cid not in self.people.of(ev):
                return False
            if "scene" in f and not f["scene"].holds(ev["seq"]):
                return False
            if "kind" in f and ev.get("kind") != f["kind"]:
                return False
            if "outcome" in f:
                if not self.with_undone and not self.stands(ev):
                    return False
                if f["outcome"] not in st.event_tags(ev, settings, cid):
                    return False
            return True

        return keep

    def set_filter(self, key: str, value: Any) -> None:
        """Set (or with None, drop) one filter and show the timeline again."""
        if value is None:
            self.filters.pop(key, None)
        else:
            self.filters[key] = value
        log = self.query_one(TimelineLog)
        log.set_filter(self.predicate())
        log.cursor = -1
        ev = log.selected_event()
        if ev is not None:
            self.show_state(ev["seq"])
        self.refresh_status()

    def _choose(self, title: str, choices: list[tuple[str, str]], done: Callable[[str], None]) -> None:
        def picked(value: str | None) -> None:
            if value is not None:
                done(value)

        self.app.push_screen(ChoicePrompt(title, choices), picked)

    def action_filter_character(self) -> None:
        ids: list[str] = list(self.tracker.characters)
        for ev in self.tracker.events:
            for cid in sorted(self.people.of(ev)):
                if cid not in ids:
                    ids.append(cid)
        choices = [("*", _("Everyone"))] + [(cid, self.name_of(cid)) for cid in ids]
        self._choose(_("Show the events of…"), choices,
                     lambda v: self.set_filter("character", None if v == "*" else v))

    def _scene_choices(self) -> list[tuple[str, str]]:
        return [(str(i), scene_choice(s)) for i, s in enumerate(self.scenes)]

    def action_filter_scene(self) -> None:
        choices = [("*", _("Every scene"))] + self._scene_choices()
        self._choose(_("Show the events of the scene…"), choices,
                     lambda v: self.set_filter("scene", None if v == "*" else self.scenes[int(v)]))

    def action_filter_kind(self) -> None:
        kinds: list[str] = []
        for ev in self.tracker.events:
            if ev.get("kind") not in kinds:
                kinds.append(ev.get("kind", ""))
        choices = [("*", _("Every kind"))] + [(k, f"{KIND_MARK.get(k, '·')} {event_kind_word(k)}") for k in kinds]
        self._choose(_("Show only events of the kind…"), choices,
                     lambda v: self.set_filter("kind", None if v == "*" else v))

    def action_filter_outcome(self) -> None:
        choices = [("*", _("Any outcome"))] + [(o, _("{outcome} — {meaning}", outcome=outcome_word(o),
                                                      meaning=_(st.OUTCOME_MEANING[o]))) for o in st.OUTCOME_TAGS]
        who = self.filters.get("character")
        title = _("Show only {name}'s…", name=self.name_of(who)) if who else _("Show only rolls with a…")
        hint = (_("Undone rolls and rolls a reroll or Edge replaced are in (u leaves them out)") if self.with_undone
                else _("Only rolls that stand: undone and replaced rolls are left out (u puts them in)"))
        self.app.push_screen(ChoicePrompt(title, choices, hint=hint),
                             lambda v: None if v is None else self.set_filter("outcome", None if v == "*" else v))

    def action_toggle_undone(self) -> None:
        self.with_undone = not self.with_undone
        self.notify(_("Outcome filters now show undone and replaced rolls too") if self.with_undone
                    else _("Outcome filters now show only rolls that stand"), timeout=3)
        self.set_filter("outcome", self.filters.get("outcome"))

    def action_clear_filters(self) -> None:
        self.filters.clear()
        self.with_undone = False
        self.set_filter("kind", None)

    # -- jumping -------------------------------------------------------------------------

    def jump_to(self, seq: int) -> None:
        """Select event ``seq`` (dropping filters that hide it)."""
        log = self.query_one(TimelineLog)
        if not log.select_seq(seq):
            self.filters.clear()
            log.set_filter(None)
            log.select_seq(seq)
        self.refresh_status()

    def action_jump_scene(self) -> None:
        def go(value: str) -> None:
            self.jump_to(self.scenes[int(value)].first_seq)

        self._choose(_("Jump to the scene…"), self._scene_choices(), go)

    def action_step_scene(self, delta: int) -> None:
        index = next((i for i, s in enumerate(self.scenes) if s.holds(self.selected_seq)), len(self.scenes) - 1)
        target = max(0, min(len(self.scenes) - 1, index + delta))
        if self.scenes:
            self.jump_to(self.scenes[target].first_seq)

    def action_statistics(self) -> None:
        self.app.push_screen(StatsScreen(self.tracker))


# ---------------------------------------------------------------------------
# Statistics




def face_chart(dist: st.FaceDistribution, styles: dict[str, str], width: int = 40) -> Text:
    """Faces of one die size as bars, with ``│`` where fair dice would reach."""
    top = max(max(dist.counts), dist.expected, 1)
    ref = min(width - 1, int(round(dist.expected / top * width)))
    out = Text()
    for face, n in enumerate(dist.counts, 1):
        cells = list(bar(n, top, width).ljust(width))
        out.append(f"{face:>3} ", style=styles.get("muted", ""))
        out.append("".join(cells[:ref]), style=styles.get("hit", ""))
        out.append("│", style=styles.get("accent", ""))
        out.append("".join(cells[ref + 1:]), style=styles.get("hit", ""))
        out.append(f" {n}\n")
    out.rstrip()
    return out


def luck_chart(people: list[st.CharacterStats], styles: dict[str, str], half: int = 14) -> Text:
    """Wins above or below the exact expectation, as bars either side of zero."""
    out = Text()
    charts: list[tuple[str, list[st.CharacterStats], Callable[[st.CharacterStats], float],
                       Callable[[st.CharacterStats], str]]] = [
        (_("Wins against the exact odds (− unlucky │ lucky +)"), [c for c in people if c.judged],
         lambda c: c.win_luck, lambda c: _(" {won} won of {n}, {expected} expected", won=decimal(c.judged_wins, None),
                                           n=c.judged, expected=decimal(c.expected_wins, 2))),
        (_("Hits against the expected hits"), [c for c in people if c.hit_rolls], lambda c: c.hit_luck,
         lambda c: ngettext(" {n} hit, {expected} expected", " {n} hits, {expected} expected", c.judged_hits,
                            expected=decimal(c.expected_hits, 1))),
    ]
    for i, (title, rows, luck, note) in enumerate((x for x in charts if x[1])):
        if i:
            out.append("\n")
        top = max(max(abs(luck(c)) for c in rows), 0.5)
        out.append(title + "\n", style="bold")
        for c in rows:
            _diverging(out, c.name, luck(c), top, half, styles, note(c))
    out.rstrip()
    return out


def _diverging(out: Text, name: str, value: float, top: float, half: int, styles: dict[str, str], note: str) -> None:
    out.append(f"{name[:14]:<14} ")
    b = "█" * int(round(min(abs(value) / top, 1.0) * half))
    if value < 0:
        out.append(f"{b:>{half}}", style=styles.get("loss", ""))
        out.append("│" + " " * half)
    else:
        out.append(" " * half + "│")
        out.append(f"{b:<{half}}", style=styles.get("win", ""))
    out.append(" " + decimal(value, 2, plus=True), style="bold")
    out.append(f"{note}\n", style=styles.get("muted", ""))


def results_table(s: st.SessionStats, system: str) -> Table:
    table = Table(box=None, pad_edge=False, show_edge=False, header_style="bold")
    table.add_column(_("Character"))
    for name in (_("Rolls"), _("Won"), _("Lost"), _("Tied")):
        table.add_column(name, justify="right")
    extra: list[tuple[str, Callable[[st.CharacterStats], int]]]
    if system == "rajapolku":
        extra = [(pgettext("column", "Degr."), lambda c: c.degrees), (pgettext("column", "Charges"), lambda c: c.charges_spent),
                 (pgettext("column", "Story"), lambda c: c.story_points_spent)]
    elif system == "harhapolku":
        extra = [(_("Edge rerolls"), lambda c: c.edge_rerolls)]
    else:
        extra = [(_("Hits"), lambda c: c.hits), (pgettext("column", "Net"), lambda c: c.net_hits),
                 (pgettext("column", "Glitch"), lambda c: c.glitches),
                 (pgettext("column", "Crit."), lambda c: c.critical_glitches), (_("Edge"), lambda c: c.edge_spent)]
    for name, _rest in extra:
        table.add_column(name, justify="right")
    for c in s.characters:
        if not (c.rolls or c.edge_spent or c.story_points_spent or c.charges_spent or c.edge_rerolls):
            continue
        table.add_row(c.name[:16], *(str(x) for x in (c.rolls, c.wins, c.losses, c.ties)),
                      *(str(fn(c)) for _name, fn in extra))
    return table


def wins_chart(s: st.SessionStats, styles: dict[str, str], width: int = 30) -> Text:
    out = Text()
    people = [c for c in s.characters if c.wins or c.losses or c.ties]
    top = max([c.wins + c.losses + c.ties for c in people] + [1])
    for c in people:
        out.append(f"{c.name[:14]:<14} ")
        out.append(bar(c.wins, top, width) if c.wins else "", style=styles.get("win", ""))
        out.append("░" * int(round(c.losses / top * width)), style=styles.get("loss", ""))
        out.append((_("  {won} won, {lost} lost, {tied} tied", won=c.wins, lost=c.losses, tied=c.ties) if c.ties
                    else _("  {won} won, {lost} lost", won=c.wins, lost=c.losses)) + "\n")
    out.rstrip()
    return out


class StatsScreen(Screen[None]):
    """The statistics of the session, with pictures."""

    BINDINGS = [
        Binding("escape,S", "app.pop_screen", N_("Back"), id="stats.back", tooltip=N_("Back to the timeline")),
    ]

    def __init__(self, tracker: Tracker) -> None:
        super().__init__()
        self.tracker = tracker
        self.stats = st.compute(tracker)

    def compose(self) -> ComposeResult:
        t = self.tracker
        yield Static(Text(" " + ngettext("{name} · statistics · {n} roll", "{name} · statistics · {n} rolls", self.stats.rolls,
                                   name=t.state['campaign']['name']),
                          style="bold"), id="status-line")
        with VerticalScroll(id="stats-body"):
            yield Static(id="stats-results", classes="stats-part")
            yield Static(id="stats-luck", classes="stats-part")
            yield Static(id="stats-faces", classes="stats-part")
        yield KeyLine()

    def on_mount(self) -> None:
        self.restyle()
        self.query_one("#stats-body").focus()

    def restyle(self) -> None:
        styles = self.app.log_styles() if hasattr(self.app, "log_styles") else plain_styles()
        s = self.stats
        system = self.tracker.system.value
        head = Text(_("Per character"), style="bold")
        if s.undone:
            head.append(ngettext("  ({n} undone event left out)", "  ({n} undone events left out)", s.undone),
                        style=styles.get("muted", ""))
        self.query_one("#stats-results", Static).update(
            Group(head, results_table(s, system), Text(""), wins_chart(s, styles)))
        luck = luck_chart(s.characters, styles)
        self.query_one("#stats-luck", Static).update(luck if luck.plain else Text(_("No contests with exact odds yet.")))
        parts: list[Any] = [Text(_("Are the dice fair? Faces against a fair die (│)"), style="bold")]
        for d in s.faces:
            values = {"size": d.size, "total": d.total, "expected": decimal(d.expected, 1)}
            parts.append(Text("\n" + (_("d{size} · dice entered by hand · {total} dice · │ fair: {expected} each",
                                         **values) if d.manual
                                       else _("d{size} · program dice · {total} dice · │ fair: {expected} each",
                                              **values)),
                              style="bold"))
            parts.append(Text(d.verdict(), style=styles.get("accent", "")))
            parts.append(face_chart(d, styles))
        if not s.faces:
            parts.append(Text(_("No dice rolled yet.")))
        self.query_one("#stats-faces", Static).update(Group(*parts))


class ReviewApp(ReadOnlyApp):
    """``polku review``: one read-only session."""

    TITLE = "Polku review"

    BINDINGS = [
        # As in the GM's app: every screen's keys, above the statistics screen too.
        Binding("question_mark,f1", "help", N_("Keys"), priority=True, id="review.help",
                tooltip=N_("Every key of this screen")),
    ]

    def action_help(self) -> None:
        from .screens.help import HelpScreen

        if isinstance(self.screen, HelpScreen):
            self.screen.dismiss(None)
        else:
            self.push_screen(HelpScreen(guide=False, title=N_("Polku review — keys")))

    def __init__(self, tracker: Tracker, path: Path | None = None, *, notices: Iterable[str] = (),
                 theme: str | None = None, theme_dirs: Iterable[Path] | None = None) -> None:
        super().__init__(theme=theme, theme_dirs=theme_dirs)
        self.tracker = tracker
        self.path = path
        self.notices = list(notices)

    def on_mount(self) -> None:
        self.load_themes()
        self.push_screen(ReviewScreen(self.tracker, self.path))
        for note in self.notices:
            self.notify(note, severity="warning", timeout=10)


def run_review(path: Path, tracker: Tracker, *, notices: Iterable[str] = (), theme: str | None = None) -> int:
    """Run the review of an already loaded tracker until the user quits."""
    from .. import config

    config.use_language()  # the preference, POLKU_LANG, the locale
    app = ReviewApp(tracker, path, notices=notices, theme=theme)
    app.run()
    return app.return_code or 0


__all__ = ["ReadOnlyApp", "ReviewApp", "ReviewScreen", "StatsScreen", "TimelineLog", "run_review"]
