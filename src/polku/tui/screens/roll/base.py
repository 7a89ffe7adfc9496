"""What the three systems' challenge screens share.

Each side is a list of rows; Enter toggles or edits the row under the cursor.
The screen asks the tracker (which asks the rules core) for the pools and the
odds engine for the odds on every change; rolling is a tracker command, so the
result lands in the log and the file like every other change.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable, Collection, Sequence

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ....i18n import N_, _, ngettext
from ....rules.dice import RulesError
from ....session import telling
from ....session.commands import Command, command
from ....session.model import Event
from ....session.records import SavedPool
from ....session.rolls import SRPool, settings_text
from ....session.telling import explain_lines
from ....session.tracker import Tracker, TrackerError
from ....text import die_text, percent, split_cells
from ...host import AppHost, host
from ...messages import RunCommand, TrackerChanged
from ...render import short_name
from ...widgets.keyline import KeyLine
from ..prompts import ChoicePrompt, TextPrompt, ask_faces

GM = ""


def _bar(parts: Sequence[tuple[float, str, str]], width: int = 30) -> Text:
    """A small proportional bar: (probability, glyph, style) per part."""
    out = Text()
    for (_p, glyph, style), n in zip(parts, split_cells([p for p, _g, _s in parts], width)):
        out.append(glyph * n, style=style)
    return out


def odds_line(a_label: str, a_wins: float, tie_word: str, tie: float, b_label: str, b_wins: float,
              styles: dict[str, str]) -> Text:
    """"Odds  A x%   tie y%   B z%  ███░░▒▒": a two-sided contest's chances, the same on every screen."""
    win, loss = styles.get("win", ""), styles.get("loss", "")
    t = Text(_("Odds") + "  ")
    t.append(f"{a_label} {percent(a_wins)}", style=win)
    t.append(f"   {tie_word} {percent(tie)}   ")
    t.append(f"{b_label} {percent(b_wins)}", style=loss)
    t.append("  ")
    t.append_text(_bar([(a_wins, "█", win), (tie, "░", ""), (b_wins, "▒", loss)], 20))
    return t


@dataclass
class Side:
    """What the GM has toggled for one side of the challenge."""

    role: str
    who: str = GM
    label: str = "GM"
    # Rajapolku
    backgrounds: dict[str, bool] = field(default_factory=dict)
    abilities: dict[str, bool] = field(default_factory=dict)
    helping: list[str] = field(default_factory=list)
    hindering: list[str] = field(default_factory=list)
    # Harhapolku: tier → claimed name
    claims: dict[str, str] = field(default_factory=dict)
    extra_backgrounds: list[tuple[str, str]] = field(default_factory=list)
    gm_bonus: bool = False
    always: bool = True
    """Harhapolku: H2's "1d8 always"; the GM may take it away (H4: no die at all fails)."""
    effects_off: set[str] = field(default_factory=set)
    """Rajapolku and Harhapolku: the character's effect rows turned off for this roll (Varjojuoksu
    keeps them in its pool, ``sr.effects_off``)."""
    # Varjojuoksu: the pool as the session takes it (skill or attributes, modifiers, Edge,
    # effect rows turned off), replaced whole on each change (``pool``)
    sr: SRPool = field(default_factory=SRPool)
    group: list[int] = field(default_factory=list)
    helpers: dict[str, bool] = field(default_factory=dict)
    helper_pools: dict[str, int] = field(default_factory=dict)
    """The GM's pool for a helper, replacing the helper's own (S11)."""
    pool_name: str = ""
    """The character's saved pool this side was filled from ("" = none)."""

    def pool(self, **changes: Any) -> None:
        """Change fields of the Varjojuoksu pool (:class:`SRPool`, frozen: a new value)."""
        self.sr = replace(self.sr, **changes)

    @property
    def short(self) -> str:
        """The label as shown (a long name cut with an ellipsis); the session gets the whole label."""
        return short_name(self.label)


class SideList(OptionList):
    """One side's rows."""

    DEFAULT_CSS = """
    SideList { height: 1fr; }
    """

    def __init__(self, role: str, *, id: str) -> None:
        super().__init__(id=id)
        self.role = role
        self._shown: list[tuple[str, Any]] | None = None

    def show_rows(self, rows: list[tuple[str, Text | str]]) -> None:
        key = [(k, _content_key(label)) for k, label in rows]
        if key == self._shown:
            return  # unchanged: no rebuild, no repaint
        self._shown = key
        keep = self.highlighted
        keep_id = self.highlighted_option.id if self.highlighted_option is not None else None
        options = [Option(Text(label) if isinstance(label, str) else label,
                          id=key if key != "info" else f"info-{i}", disabled=key == "info")
                   for i, (key, label) in enumerate(rows)]
        self.set_options(options)
        ids = [o.id for o in options]
        if keep_id in ids and not str(keep_id).startswith("info-"):
            # The same row stays under the cursor when rows are added or removed above it.
            self.highlighted = ids.index(keep_id)
        elif keep is not None and rows:
            self.highlighted = min(keep, len(rows) - 1)
        elif rows:
            self.highlighted = 0


def _content_key(content: Text | str) -> Any:
    """What a Static shows, comparable (rich's Text equality ignores the base style)."""
    if isinstance(content, Text):
        return (content.plain, tuple(content.spans), str(content.style), content.justify,
                content.overflow, content.no_wrap, content.end)
    return content


def _check(flag: bool) -> str:
    return "[x]" if flag else "[ ]"


class ResultBox(VerticalScroll):
    """The roll's result, scrolled by ``[`` and ``]``; its rule says when more is above or below."""

    def watch_scroll_y(self, old: float, new: float) -> None:
        super().watch_scroll_y(old, new)
        self._mark_more()

    def watch_virtual_size(self) -> None:
        self._mark_more()

    def on_resize(self) -> None:
        self._mark_more()

    def _mark_more(self) -> None:
        marks = ([_("[ up")] if self.scroll_y > 0 else []) + ([_("] more below")] if self.scroll_y < self.max_scroll_y else [])
        title = " · ".join(marks)
        if str(self.border_title or "") != title:
            self.border_title = title


def effect_rows(tracker: Tracker, side: Side, off: Collection[str]) -> list[tuple[str, Text | str]]:
    """A row per effect of the side's character that changes pools (the session says which and by how
    much), ticked unless the GM turned it off for this roll (``off``); Enter toggles it."""
    if not side.who or side.who not in tracker.characters:
        return []
    return [(f"eff:{label}", f"{_check(label not in off)} {label} " + f"{n:+d}".replace("-", "−"))
            for label, n in tracker.combat.effect_modifiers(side.who)]


class RollScreen(ModalScreen[None]):
    """Base of the three systems' challenge screens."""

    BINDINGS = [
        Binding("r", "roll", N_("Roll"), id="roll.roll", tooltip=N_("Roll the pools with the program's dice")),
        Binding("f", "enter_faces", N_("Enter faces"), id="roll.faces", tooltip=N_("Enter faces from physical dice")),
        Binding("w", "pick_who", N_("Who"), id="roll.who", tooltip=N_("Choose who this side is")),
        Binding("G", "toggle_gm_only", N_("GM only"), show=False, id="roll.gm_only",
                tooltip=N_("Keep the next roll from the players: they see \"the GM rolls\" and nothing else")),
        Binding("tab", "switch_side", N_("Other side"), show=False, id="roll.switch", tooltip=N_("Move to the other side")),
        Binding("P", "ask_seat", N_("Ask player"), show=False, id="roll.ask_seat",
                tooltip=N_("Send this roll to a player's seat (polku play): side A's pool, or an attack to its defender")),
        Binding("l", "next_pool", N_("Saved pool"), show=False, id="roll.pool",
                tooltip=N_("Fill the focused side from its character's saved pools (each press: the next one)")),
        Binding("L", "save_pool", N_("Save pool"), show=False, id="roll.save_pool",
                tooltip=N_("Keep the focused side's pool on its character under a name")),
        Binding("right_square_bracket", "scroll_result(1)", N_("Result down"), show=False, id="roll.result_down",
                tooltip=N_("Scroll the result box down a page (a long result; the whole of it is also in the log)")),
        Binding("left_square_bracket", "scroll_result(-1)", N_("Result up"), show=False, id="roll.result_up",
                tooltip=N_("Scroll the result box up a page")),
        Binding("escape", "close", N_("Close"), id="roll.close", tooltip=N_("Close (the roll, if any, is already logged)")),
        Binding("q", "app.quit_app", N_("Quit"), id="roll.quit", tooltip=N_("Save and quit Polku")),
    ]

    DEFAULT_CSS = """
    RollScreen { align: center middle; }
    RollScreen #roll-box { width: 100%; height: 100%; border: round $primary; background: $surface; padding: 0 1; }
    RollScreen #roll-title { height: auto; text-style: bold; color: $accent; }
    RollScreen #sides { height: 1fr; min-height: 5; }
    RollScreen .side-box { width: 1fr; height: 1fr; }
    RollScreen #box-a { padding-right: 1; }
    RollScreen .side-title { height: 1; text-style: bold; background: $boost; padding: 0 1; }
    RollScreen SideList, RollScreen SideList:focus { border: none; background: $surface; padding: 0; }
    RollScreen SideList:focus { background: $boost; }
    /* One row per line, cut with an ellipsis: a longer name, pool or percentage never re-wraps
       these lines, so the rows around them stay put and the pool lists keep their rows. */
    RollScreen #pool { height: auto; text-wrap: nowrap; text-overflow: ellipsis; }
    RollScreen #odds { height: auto; text-wrap: nowrap; text-overflow: ellipsis; }
    RollScreen SideList { text-wrap: nowrap; text-overflow: ellipsis; }
    RollScreen #result-box { height: 5; border-top: solid $primary; }
    """

    system_name = ""

    covers_screen = True
    """#roll-box paints every cell: the app does not repaint the screens below (PolkuApp)."""

    def __init__(self, tracker: Tracker, challenge: str | None = None, *, actor: str | None = None) -> None:
        super().__init__()
        self.tracker = tracker
        self.challenge_id = challenge
        self.a = Side("a")
        self.b = Side("b")
        self.last_event: Event | None = None
        self.gm_only = False
        """The next roll is the GM's only (docs/rules.md), as the tracker's :meth:`~Tracker.gm_only` logs it."""
        self.result_lines: list[str] = []
        self._shown: dict[str, Any] = {}
        c = tracker.challenge(challenge) if challenge else None
        # A participant removed from the campaign (an older file) is left out, not rolled for.
        parts = [x for x in c.get("participants", []) if x in tracker.characters] if c else []
        opp = [x for x in c.get("opposition", []) if x in tracker.characters] if c else []
        first = actor or (parts[0] if parts else None)
        if first is None and tracker.characters:
            pcs = [cid for cid, ch in tracker.characters.items() if ch["kind"] == "pc"]
            first = pcs[0] if pcs else next(iter(tracker.characters))
        if first:
            self.set_who(self.a, first)
        if opp:
            self.set_who(self.b, opp[0])
        self.init_sides()

    @property
    def papp(self) -> AppHost:
        return host(self.app)

    # -- to override -------------------------------------------------------------

    def init_sides(self) -> None:
        """Defaults after the sides' characters are known."""

    def rows(self, side: Side) -> list[tuple[str, Text | str]]:
        raise NotImplementedError

    def pool_text(self) -> Text:
        raise NotImplementedError

    def odds_text(self) -> Text:
        raise NotImplementedError

    def roll_command(self, faces: tuple[list[int], list[int]] | None) -> Command:
        """The command rolling this screen's pools (``faces``: the faces typed for side A and B).

        Raises ``RulesError`` (said in one line, nothing rolled) when the pools cannot be rolled.
        """
        raise NotImplementedError

    def rolled(self, out: dict[str, Any] | None) -> dict[str, Any] | None:
        """What the roll command returned, as :meth:`show_result` wants it (``event``: the roll)."""
        return out

    def face_counts(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """(dice, size) per side for entering faces; dice 0 = that side does not roll."""
        raise NotImplementedError

    def handle(self, side: Side, key: str) -> None:
        """Enter on a row."""

    def title_text(self) -> str:
        c = self.tracker.challenge(self.challenge_id) if self.challenge_id else None
        return f"{self.system_name}: " + (c["title"] if c else _("free roll (no challenge)"))

    def side_titles(self) -> tuple[str, str]:
        return (f"A: {self.a.short}", f"B: {self.b.short}")

    # -- shared --------------------------------------------------------------------

    def set_who(self, side: Side, cid: str) -> None:
        side.who = cid
        side.pool_name = ""
        side.label = "GM" if cid == GM else self.tracker.character(cid)["name"]
        self.on_who_changed(side)

    def on_who_changed(self, side: Side) -> None:
        pass

    def compose(self) -> ComposeResult:
        with Vertical(id="roll-box"):
            yield Static(self.title_text(), id="roll-title")
            with Horizontal(id="sides"):
                with Vertical(classes="side-box", id="box-a"):
                    yield Static("", id="title-a", classes="side-title")
                    yield SideList("a", id="side-a")
                with Vertical(classes="side-box", id="box-b"):
                    yield Static("", id="title-b", classes="side-title")
                    yield SideList("b", id="side-b")
            yield Static("", id="pool")
            yield Static("", id="odds")
            with ResultBox(id="result-box"):
                yield Static("", id="result")
        yield KeyLine()

    def on_mount(self) -> None:
        self.on_resize()
        self.refresh_view()
        self.query_one("#side-a", SideList).focus()

    def side_of(self, role: str) -> Side:
        return self.a if role == "a" else self.b

    def focused_side(self) -> Side:
        focused = self.focused
        if isinstance(focused, SideList):
            return self.side_of(focused.role)
        return self.a

    def refresh_view(self) -> None:
        self._update("#roll-title", self.title_text() + ("  · " + _("GM ONLY: players see \"the GM rolls\"")
                                                         if self.gm_only else ""))
        ta, tb = self.side_titles()
        self._update("#title-a", ta + self._pool_hint(self.a))
        self._update("#title-b", tb + self._pool_hint(self.b))
        self.query_one("#side-a", SideList).show_rows(self.rows(self.a))
        self.query_one("#side-b", SideList).show_rows(self.rows(self.b))
        try:
            pool = self.pool_text()
            odds = self.odds_text()
        except RulesError as e:
            pool, odds = Text(f"⚠ {e}", style="bold"), Text("")
        pool.rstrip()  # no blank row under the pools: at 80x24 every row is the lists'
        self._update("#pool", pool)
        self._update("#odds", odds)
        self._update("#result", Text("\n".join(self.result_lines)) if self.result_lines else
                     Text(self.idle_hint(), style="dim"))

    def idle_hint(self) -> str:
        """The result box before a roll: the keys to start with."""
        return _("r roll · f physical dice · Enter toggle a row · w who · G GM only · ? keys")

    def _update(self, selector: str, content: Text | str) -> None:
        """Update a Static only when its content changed (an update repaints and re-lays out)."""
        key = _content_key(content)
        if self._shown.get(selector) == key:
            return
        self._shown[selector] = key
        self.query_one(selector, Static).update(content)

    def result_rows(self, height: int) -> int:
        """The result box's height (with its top rule) for a terminal ``height`` rows tall.

        Fixed for a given terminal, whatever a roll prints, so a result never moves
        the pools; small terminals leave the rows to the pool lists (the whole
        explanation is also in the log), a tall one shows more of the result.
        """
        return max(4, min(16, 5 + (height - 24) // 2))

    def on_resize(self) -> None:
        rows = self.result_rows(self.app.size.height)
        box = self.query_one("#result-box", VerticalScroll)
        if box.styles.height is None or box.styles.height.value != rows:
            box.styles.height = rows

    def styles_map(self) -> dict[str, str]:
        return self.papp.log_styles()

    @on(OptionList.OptionSelected)
    def _row_chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if not isinstance(event.option_list, SideList) or event.option.id is None:
            return
        side = self.side_of(event.option_list.role)
        key = event.option.id
        if key == "who":
            self.action_pick_who()
            return
        if key.startswith("info-"):
            return
        self.handle(side, key)
        self.refresh_view()

    def action_switch_side(self) -> None:
        a = self.query_one("#side-a", SideList)
        b = self.query_one("#side-b", SideList)
        (b if self.focused is a else a).focus()

    def side_has_who(self, side: Side) -> bool:
        """Whether the side is a character or the GM now (side B of a threshold, extended or unopposed
        roll is not: who-keys then act on side A)."""
        return True

    def who_fixed(self, side: Side) -> str | None:
        """Why this side's character cannot change now (the session's line), or None."""
        return None

    def action_pick_who(self) -> None:
        side = self.focused_side()
        if not self.side_has_who(side):
            side = self.a
        fixed = self.who_fixed(side)
        if fixed is not None:
            self.notify(fixed, severity="warning", title=_("Not now"))
            return
        choices = [(cid, f"{short_name(ch['name'])} ({ch['kind']})") for cid, ch in self.tracker.characters.items()]
        choices.append(("__gm__", _("GM / difficulty (no character)")))

        def done(value: str | None) -> None:
            if value is None:
                return
            self.set_who(side, GM if value == "__gm__" else value)
            self.refresh_view()

        self.app.push_screen(ChoicePrompt(_("Who is side {side}?", side=side.role.upper()), choices), done)

    def action_close(self) -> None:
        self.dismiss(None)

    # -- saved pools (the character's, kept by the session: tracker.roster) ---------------

    def pool_of(self, side: Side) -> dict[str, Any] | None:
        """The side's pool as a saved pool (without its name), or None if this side cannot keep one."""
        return None

    def apply_pool(self, side: Side, pool: SavedPool) -> None:
        """Fill the side's rows from a saved pool."""

    def _pool_hint(self, side: Side) -> str:
        if not side.who or side.who not in self.tracker.characters:
            return ""
        pools = self.tracker.roster.pools(side.who)
        if side.pool_name:
            return " · " + _("{pool} (l: next)", pool=side.pool_name) if len(pools) > 1 else f" · {side.pool_name}"
        return " · " + ngettext("l: {n} saved pool", "l: {n} saved pools", len(pools)) if pools else ""

    def action_next_pool(self) -> None:
        side = self.focused_side()
        if not side.who:
            self.notify(_("This side is the GM's: saved pools belong to a character (w picks one)"),
                        severity="warning", title=_("No saved pools"))
            return
        pools = self.tracker.roster.pools(side.who)
        if not pools:
            self.notify(_("{label} has no saved pools yet: L keeps this one", label=side.label), severity="warning",
                        title=_("No saved pools"))
            return
        names = [p["name"] for p in pools]
        i = (names.index(side.pool_name) + 1) % len(pools) if side.pool_name in names else 0
        self.apply_pool(side, pools[i])
        side.pool_name = pools[i]["name"]
        self.refresh_view()

    def action_save_pool(self) -> None:
        side = self.focused_side()
        pool = self.pool_of(side) if side.who else None
        if pool is None:
            self.notify(_("Saved pools belong to a character: pick who this side is (w)"), severity="warning",
                        title=_("Not saved"))
            return

        def done(name: str | None) -> None:
            if name and name.strip():
                def kept(_: object) -> None:
                    side.pool_name = name.strip()
                    self.refresh_view()

                self.run(command("roster.save_pool", side.who, {**pool, "name": name.strip()}), kept)

        self.app.push_screen(TextPrompt(_("Keep {label}'s pool as:", label=side.label), side.pool_name,
                                        placeholder=_("e.g. Pistols, Ram the door, Shadows"),
                                        check=lambda s: None if s.strip() else _("write a name")), done)

    def run(self, cmd: Command, then: Callable[[Any], object] | None = None) -> None:
        """Ask the app to run a command; ``then`` gets its result (not called when it failed)."""
        self.app.post_message(RunCommand(cmd, origin=self, then=then))

    @on(TrackerChanged)
    def _tracker_changed(self, message: TrackerChanged) -> None:
        # A command this screen asked for is redrawn with its result in its ``then``
        # (one redraw, one odds computation per key); redraw for the others' commands.
        if self.is_mounted and message.origin is not self:
            self.refresh_view()

    def action_roll(self) -> None:
        self._roll(None)

    def action_toggle_gm_only(self) -> None:
        self.gm_only = not self.gm_only
        self.refresh_view()

    def _roll(self, faces: tuple[list[int], list[int]] | None) -> None:
        try:
            cmd = replace(self.roll_command(faces), gm_only=self.gm_only)
        except (RulesError, TrackerError) as e:
            self.notify(str(e), severity="error", title=_("Not done"))
            return

        def rolled(out: dict[str, Any] | None) -> None:
            out = self.rolled(out)
            ev = out.get("event") if out else None
            if ev is not None:
                self.show_result(ev)

        self.run(cmd, rolled)

    def show_result(self, ev: Event, note: str = "") -> None:
        """Show a roll (or a follow-up's new roll) in the result box: the headline, each side's
        dice, what can be done to it now, the explanation and the settings it was resolved with."""
        self.last_event = ev
        roll = ev.get("roll", {})
        lines = [f"{ev['seq']}: {telling.roll_summary(ev) or telling.event_text(ev)}{note}"]
        for side in roll.get("sides", []):
            if not side["dice"]:
                continue  # bought hits, an automatic failure: nothing was thrown
            lines.append(f"  {short_name(side['label'])}: " + " ".join(
                die_text(d["face"], "ability" if d.get("source") == "ability" else "die", replaced=bool(d.get("replaced")))
                for d in side["dice"]))
        lines.extend(self.after_roll_hints(ev))
        lines.extend(f"  {x}" for x in explain_lines(roll)[:12])
        if roll.get("settings"):
            lines.append("  " + _("settings: {settings}", settings=settings_text(roll['settings'])))
        self.result_lines = lines
        self.refresh_view()
        self.query_one("#result-box", VerticalScroll).scroll_home(animate=False)

    def action_scroll_result(self, pages: int) -> None:
        box = self.query_one("#result-box", VerticalScroll)
        box.scroll_to(y=box.scroll_y + pages * max(1, box.scrollable_content_region.height - 1), animate=False)

    def after_roll_hints(self, ev: Event) -> list[str]:
        return []

    def seat_request(self) -> Command | None:
        """The command asking side A's player to roll this pool from their seat; None (said why) if it cannot."""
        self.app.notify(_("This roll is made here: a player's seat rolls a Varjojuoksu success test, a "
                        "Harhapolku difficult action or a Rajapolku challenge"), severity="warning", title=_("Not sent"))
        return None

    def seat_label(self) -> str:
        """Whose seat :meth:`seat_request` asks: side A's."""
        return self.a.label

    def action_ask_seat(self) -> None:
        cmd = self.seat_request()
        if cmd is None:
            return
        def sent(_result: object) -> None:
            self.app.notify(_("{label}'s player rolls it from their seat (polku play)", label=self.seat_label()),
                            title=_("Roll request sent"))
            self.dismiss(None)

        self.run(cmd, sent)

    def physical_follow_up(self, ev: Event | None = None) -> bool:
        """A follow-up (Edge after, an edge reroll) throws physical dice when the roll did."""
        ev = ev if ev is not None else self.last_event
        return bool(ev and ev.get("roll", {}).get("manual"))

    def action_enter_faces(self) -> None:
        try:
            (na, sa), (nb, sb) = self.face_counts()
        except RulesError as e:
            self.notify(str(e), severity="error")
            return

        def got_a(fa: list[int]) -> None:
            ask_faces(self.app, _("Faces for {short}, in the order of the pool shown", short=self.b.short), nb, sb,
                      lambda fb: self._roll((fa, fb)), hint=self.faces_hint())

        ask_faces(self.app, _("Faces for {short}, in the order of the pool shown", short=self.a.short), na, sa, got_a,
                  hint=self.faces_hint())

    def faces_hint(self) -> str:
        return _("separated by commas or spaces; each face is checked against its die (a d10's 0 is 10)")
