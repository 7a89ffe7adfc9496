"""Running a challenge: a pool builder per system, live odds, roll or enter faces.

Each side is a list of rows; Enter toggles or edits the row under the cursor.
The screen asks the tracker (which asks the rules core) for the pools and the
odds engine for the odds on every change; rolling is a tracker command, so the
result lands in the log and the file like every other change.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Sequence

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ...rules import odds as odds_mod
from ...rules.dice import FaceError, RulesError, ascii_int, parse_faces
from ...rules.harhapolku import H4_REMINDER
from ...rules.system import System
from ...session.model import HARHA_TIER_LABELS, HARHA_TIERS, SR_ATTRIBUTES
from ...session.rolls import HarhaSide, RajaSide, SRPool, SRSide, settings_text
from ...session.tracker import Tracker, TrackerError
from ..render import dice_text
from ..widgets.keyline import KeyLine
from .prompts import ChoicePrompt, TextPrompt

if TYPE_CHECKING:
    from ..app import PolkuApp

GM = ""


def _bar(parts: Sequence[tuple[float, str, str]], width: int = 30) -> Text:
    """A small proportional bar: (probability, glyph, style) per part."""
    out = Text()
    used = 0
    for i, (p, glyph, style) in enumerate(parts):
        n = round(p * width) if i < len(parts) - 1 else max(0, width - used)
        n = max(0, min(width - used, n))
        out.append(glyph * n, style=style)
        used += n
    return out


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
    # Varjojuoksu
    mode: str = "skill"
    skill: str = ""
    attribute: str = "agility"
    second: str = "strength"
    dice: int = 6
    modifiers: list[tuple[str, int]] = field(default_factory=list)
    edge_before: bool = False
    long_shot: bool = False
    group: list[int] = field(default_factory=list)
    helpers: dict[str, bool] = field(default_factory=dict)
    helper_pools: dict[str, int] = field(default_factory=dict)
    """The GM's pool for a helper, replacing the helper's own (S11)."""


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
        self.set_options([Option(Text(label) if isinstance(label, str) else label,
                                 id=key if key != "info" else f"info-{i}", disabled=key == "info")
                          for i, (key, label) in enumerate(rows)])
        if keep is not None and rows:
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


class RollScreen(ModalScreen[None]):
    """Base of the three systems' challenge screens."""

    BINDINGS = [
        Binding("r", "roll", "Roll", id="roll.roll", tooltip="Roll the pools with the program's dice"),
        Binding("f", "enter_faces", "Enter faces", id="roll.faces", tooltip="Enter faces from physical dice"),
        Binding("w", "pick_who", "Who", id="roll.who", tooltip="Choose who this side is"),
        Binding("G", "toggle_gm_only", "GM only", show=False, id="roll.gm_only",
                tooltip="Keep the next roll from the players: they see \"the GM rolls\" and nothing else"),
        Binding("tab", "switch_side", "Other side", show=False, id="roll.switch", tooltip="Move to the other side"),
        Binding("escape", "close", "Close", id="roll.close", tooltip="Close (the roll, if any, is already logged)"),
    ]

    DEFAULT_CSS = """
    RollScreen { align: center middle; }
    RollScreen #roll-box { width: 100%; height: 100%; border: round $primary; background: $surface; padding: 0 1; }
    RollScreen #roll-title { height: auto; text-style: bold; color: $accent; }
    RollScreen #sides { height: 1fr; min-height: 5; }
    RollScreen .side-box { width: 1fr; height: 1fr; }
    RollScreen .side-title { height: 1; text-style: bold; background: $boost; padding: 0 1; }
    RollScreen SideList, RollScreen SideList:focus { border: none; background: $surface; padding: 0; }
    RollScreen SideList:focus { background: $boost; }
    RollScreen #pool { height: auto; }
    RollScreen #odds { height: auto; }
    RollScreen #result-box { height: auto; max-height: 7; border-top: solid $primary; scrollbar-gutter: stable; }
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
        self.last_event: dict[str, Any] | None = None
        self.gm_only = False
        """The next roll is the GM's only (RULES §4), as the tracker's :meth:`~Tracker.gm_only` logs it."""
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
    def papp(self) -> "PolkuApp":
        return self.app  # type: ignore[return-value]

    # -- to override -------------------------------------------------------------

    def init_sides(self) -> None:
        """Defaults after the sides' characters are known."""

    def rows(self, side: Side) -> list[tuple[str, Text | str]]:
        raise NotImplementedError

    def pool_text(self) -> Text:
        raise NotImplementedError

    def odds_text(self) -> Text:
        raise NotImplementedError

    def do_roll(self, faces: tuple[list[int], list[int]] | None) -> dict[str, Any] | None:
        raise NotImplementedError

    def face_counts(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """(dice, size) per side for entering faces; dice 0 = that side does not roll."""
        raise NotImplementedError

    def handle(self, side: Side, key: str) -> None:
        """Enter on a row."""

    def title_text(self) -> str:
        c = self.tracker.challenge(self.challenge_id) if self.challenge_id else None
        return f"{self.system_name}: " + (c["title"] if c else "free roll (no challenge)")

    def side_titles(self) -> tuple[str, str]:
        return (f"A: {self.a.label}", f"B: {self.b.label}")

    # -- shared --------------------------------------------------------------------

    def set_who(self, side: Side, cid: str) -> None:
        side.who = cid
        if cid == GM:
            side.label = "GM" if side.role == "b" else "GM"
        else:
            ch = self.tracker.character(cid)
            side.label = ch["name"]
        self.on_who_changed(side)

    def on_who_changed(self, side: Side) -> None:
        pass

    def compose(self) -> ComposeResult:
        with Vertical(id="roll-box"):
            yield Static(self.title_text(), id="roll-title")
            with Horizontal(id="sides"):
                with Vertical(classes="side-box"):
                    yield Static("", id="title-a", classes="side-title")
                    yield SideList("a", id="side-a")
                with Vertical(classes="side-box", id="box-b"):
                    yield Static("", id="title-b", classes="side-title")
                    yield SideList("b", id="side-b")
            yield Static("", id="pool")
            yield Static("", id="odds")
            with VerticalScroll(id="result-box"):
                yield Static("", id="result")
        yield KeyLine()

    def on_mount(self) -> None:
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
        self._update("#roll-title", self.title_text() + ("  · GM ONLY: players see \"the GM rolls\""
                                                         if self.gm_only else ""))
        ta, tb = self.side_titles()
        self._update("#title-a", ta)
        self._update("#title-b", tb)
        self.query_one("#side-a", SideList).show_rows(self.rows(self.a))
        self.query_one("#side-b", SideList).show_rows(self.rows(self.b))
        try:
            pool = self.pool_text()
            odds = self.odds_text()
        except RulesError as e:
            pool, odds = Text(f"⚠ {e}", style="bold"), Text("")
        self._update("#pool", pool)
        self._update("#odds", odds)
        self._update("#result", Text("\n".join(self._padded(self.result_lines))) if self.result_lines else
                     Text("r: roll   f: enter faces from physical dice   "
                          "Enter: toggle/edit row   w: who   G: GM only   Esc: close", style="dim"))

    def _update(self, selector: str, content: Text | str) -> None:
        """Update a Static only when its content changed (an update repaints and re-lays out)."""
        key = _content_key(content)
        if self._shown.get(selector) == key:
            return
        self._shown[selector] = key
        self.query_one(selector, Static).update(content)

    RESULT_ROWS = 20
    """A roll's result always takes this many rows (blank-padded) in its scrolling
    box, so one roll's text never changes the layout and costs a second frame."""

    def _padded(self, lines: list[str]) -> list[str]:
        lines = lines[: self.RESULT_ROWS]
        return lines + [""] * (self.RESULT_ROWS - len(lines))

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

    def action_pick_who(self) -> None:
        side = self.focused_side()
        choices = [(cid, f"{ch['name']} ({ch['kind']})") for cid, ch in self.tracker.characters.items()]
        choices.append(("__gm__", "GM / difficulty (no character)"))

        def done(value: str | None) -> None:
            if value is None:
                return
            self.set_who(side, GM if value == "__gm__" else value)
            self.refresh_view()

        self.app.push_screen(ChoicePrompt(f"Who is side {side.role.upper()}?", choices), done)

    def action_close(self) -> None:
        self.dismiss(None)

    def tracker_changed(self, events: list[dict[str, Any]]) -> None:
        if self.is_mounted:
            self.refresh_view()

    def action_roll(self) -> None:
        self._roll(None)

    def action_toggle_gm_only(self) -> None:
        self.gm_only = not self.gm_only
        self.refresh_view()

    def _roll(self, faces: tuple[list[int], list[int]] | None) -> None:
        def roll(t: Tracker) -> dict[str, Any] | None:
            with t.gm_only(self.gm_only):
                return self.do_roll(faces)

        out = self.papp.run_command(roll)
        if not out:
            return
        ev = out.get("event") if isinstance(out, dict) else None
        if ev is None:
            return
        self.last_event = ev
        roll = ev.get("roll", {})
        lines = [f"{ev['seq']}: {roll.get('summary', ev['text'])}"]
        for side in roll.get("sides", []):
            lines.append(f"  {side['label']}: " + " ".join(
                ("✦" if d.get("source") == "ability" else "") + str(d["face"]) + ("↻" if d.get("replaced") else "")
                for d in side["dice"]))
        lines.extend(self.after_roll_hints(ev))
        lines.extend(f"  {x}" for x in roll.get("explain", [])[:12])
        if roll.get("settings"):
            lines.append(f"  settings: {settings_text(roll['settings'])}")
        self.result_lines = lines
        self.refresh_view()
        self.query_one("#result-box", VerticalScroll).scroll_home(animate=False)

    def after_roll_hints(self, ev: dict[str, Any]) -> list[str]:
        return []

    def action_enter_faces(self) -> None:
        try:
            (na, sa), (nb, sb) = self.face_counts()
        except RulesError as e:
            self.notify(str(e), severity="error")
            return
        collected: list[list[int]] = []

        def ask(label: str, n: int, size: int, then: Callable[[list[int]], None]) -> None:
            if n == 0:
                then([])
                return

            def check(text: str) -> str | None:
                try:
                    faces = parse_faces(text, size)
                except FaceError as e:
                    return str(e)
                if len(faces) != n:
                    return f"{label} rolls {n} dice; you entered {len(faces)} faces"
                return None

            def done(text: str | None) -> None:
                if text is None:
                    return
                then([d.face for d in parse_faces(text, size)])

            self.app.push_screen(TextPrompt(f"Faces for {label}: {n}d{size}, in the order of the pool shown",
                                            placeholder="e.g. " + ",".join(str(min(size, 3 + i)) for i in range(n)),
                                            hint=self.faces_hint(), check=check), done)

        def got_b(faces: list[int]) -> None:
            collected.append(faces)
            self._roll((collected[0], collected[1]))

        def got_a(faces: list[int]) -> None:
            collected.append(faces)
            ask(self.b.label, nb, sb, got_b)

        ask(self.a.label, na, sa, got_a)

    def faces_hint(self) -> str:
        return "comma-separated; checked against the die"


# ---------------------------------------------------------------------------------
# Rajapolku


class RajaRollScreen(RollScreen):
    """R1–R7 pools (and R11 spirit combat), R5 resolution, R6 degrees."""

    system_name = "Rajapolku"
    BINDINGS = RollScreen.BINDINGS + [
        Binding("plus", "add_condition('help')", "+Condition", id="raja.help",
                tooltip="A circumstance that helps this side (R4)"),
        Binding("minus", "add_condition('hinder')", "−Condition", id="raja.hinder",
                tooltip="A circumstance that hinders this side: +1d10 to the opposition (R4)"),
        Binding("b", "add_background", "+Background", id="raja.background",
                tooltip="Claim another background for this side (R2, R3)"),
        Binding("k", "toggle_spirit", "Spirit", id="raja.spirit",
                tooltip="Spirit combat: charges become the dice (R11)"),
        Binding("x", "end_fight", "End fight", show=False, id="raja.end_fight",
                tooltip="The GM ends the spirit combat: a side withdraws (R11)"),
    ]

    def __init__(self, tracker: Tracker, challenge: str | None = None, *, actor: str | None = None) -> None:
        self.spirit = False
        super().__init__(tracker, challenge, actor=actor)

    def on_who_changed(self, side: Side) -> None:
        side.backgrounds, side.abilities = {}, {}
        if side.who:
            ch = self.tracker.character(side.who)
            side.backgrounds = {bg: False for bg in ch.get("backgrounds", [])}
            side.abilities = {ab["name"]: False for ab in ch.get("abilities", [])}

    def _raja_side(self, side: Side) -> RajaSide:
        return RajaSide(side.label, [side.who] if side.who else [],
                        backgrounds=[k for k, v in side.backgrounds.items() if v],
                        abilities=[k for k, v in side.abilities.items() if v],
                        helping=list(side.helping), hindering=list(side.hindering))

    def rows(self, side: Side) -> list[tuple[str, Text | str]]:
        rows: list[tuple[str, Text | str]] = [("who", f"Who: {side.label}  (Enter to change)")]
        if self.spirit:
            if side.who:
                ch = self.tracker.character(side.who)
                dice = self._spirit_dice()
                fight = self._fight()
                if dice is None:
                    # the reason (which side is short) is the session's message below the pools
                    rows.append(("info", f"charges {ch['charges']}: no fight can start now (R11)"))
                elif fight is not None:
                    rows.append(("info", f"charges {ch['charges']} left: rolls "
                                 f"{dice[0 if side.role == 'a' else 1]}d10 (entry paid)"))
                else:
                    rows.append(("info", f"charges {ch['charges']}: pays 1 to enter, rolls "
                                 f"{dice[0 if side.role == 'a' else 1]}d10"))
            else:
                rows.append(("info", "spirit combat needs a character (with charges)"))
            return rows
        if side.who:
            ch = self.tracker.character(side.who)
            pen = self.tracker.wound_penalty(side.who)
            rows.append(("info", f"{ch['wound']}" + (f": −{pen} dice (R9)" if pen else "") +
                         f"   charges {ch['charges']}/{ch['charges_max']}"))
        rows.append(("info", "[x] action die (R1)"))
        for bg, on_ in side.backgrounds.items():
            rows.append((f"bg:{bg}", f"{_check(on_)} {bg}"))
        for ab, on_ in side.abilities.items():
            cost = ""
            if side.who:
                spec = next((a for a in self.tracker.character(side.who)["abilities"] if a["name"] == ab), None)
                if spec:
                    cost = " (always on)" if spec["per"] == "always" else f" ({spec['cost']} charge/{spec['per']})"
            rows.append((f"ab:{ab}", Text(f"{_check(on_)} ✦ {ab}{cost}")))
        for c in side.helping:
            rows.append((f"help:{c}", f"[x] + {c} (helps)"))
        for c in side.hindering:
            rows.append((f"hinder:{c}", f"[x] − {c} (+1d10 to the other side)"))
        rows.append(("add-bg", "  … claim a background (b)"))
        rows.append(("add-help", "  … helping condition (+)"))
        rows.append(("add-hinder", "  … hindering condition (−)"))
        return rows

    def handle(self, side: Side, key: str) -> None:
        kind, _, name = key.partition(":")
        if kind == "bg":
            side.backgrounds[name] = not side.backgrounds[name]
        elif kind == "ab":
            side.abilities[name] = not side.abilities[name]
        elif kind == "help":
            side.helping.remove(name)
        elif kind == "hinder":
            side.hindering.remove(name)
        elif kind == "add-bg":
            self.action_add_background()
        elif kind == "add-help":
            self.action_add_condition("help")
        elif kind == "add-hinder":
            self.action_add_condition("hinder")

    def action_add_condition(self, which: str) -> None:
        side = self.focused_side()

        def done(text: str | None) -> None:
            if text and text.strip():
                (side.helping if which == "help" else side.hindering).append(text.strip())
                self.refresh_view()

        what = "helps" if which == "help" else "hinders"
        self.app.push_screen(TextPrompt(f"A circumstance that {what} {side.label}:",
                                        placeholder="e.g. running shoes" if which == "help" else "e.g. sprained ankle"),
                             done)

    def action_add_background(self) -> None:
        side = self.focused_side()

        def done(text: str | None) -> None:
            if text and text.strip():
                side.backgrounds[text.strip()] = True
                self.refresh_view()

        self.app.push_screen(TextPrompt(f"Background {side.label} claims:", placeholder="e.g. Street-wise"), done)

    def _fight(self) -> Any:
        return self.tracker.spirit_fight(self.challenge_id) if self.challenge_id else None

    def _spirit_dice(self) -> tuple[int, int] | None:
        """Each side's d10s in the next exchange (R11), or None when it cannot be fought."""
        if not (self.a.who and self.b.who) or self.a.who == self.b.who:
            return None
        try:
            return self.tracker.spirit_dice(self.a.who, self.b.who, self.challenge_id)
        except (RulesError, TrackerError):
            return None

    def action_toggle_spirit(self) -> None:
        self.spirit = not self.spirit
        self.result_lines = []
        self.refresh_view()

    def title_text(self) -> str:
        return super().title_text()

    def _pools(self) -> tuple[Any, Any]:
        return self.tracker.raja_pools(self._raja_side(self.a), self._raja_side(self.b))

    def pool_text(self) -> Text:
        t = Text()
        if self.spirit:
            fight = self._fight()
            if fight is None:
                t.append("Spirit combat (R11): each pays 1 charge to enter, once for the fight; the charges "
                         f"left are the dice; the loser of an exchange loses charges "
                         f"({self.tracker.settings.raja_spirit_loss}), the winner nothing.")
            else:
                t.append(f"Spirit combat (R11), exchange {fight.exchanges + 1}: each rolls the charges left; "
                         f"the loser loses charges ({self.tracker.settings.raja_spirit_loss}), the winner "
                         "nothing." + (" The fight is over." if fight.over else ""))
            return t
        pa, pb = self._pools()
        for side, pool in ((self.a, pa), (self.b, pb)):
            t.append(f"{side.label}: {len(pool)}d10  ", style="bold")
            t.append(", ".join(("✦" if s.source == "ability" else "") + (s.label or s.source) for s in pool))
            removed = self.tracker.raja_plan(self._raja_side(side)).removed
            if removed:
                t.append("; wounds remove " + ", ".join(("✦" if s.source == "ability" else "") + s.label
                                                        for s in removed), style="dim")
                if any(s.source == "ability" for s in removed):
                    t.append(" (no charge, R9)", style="dim")
            t.append("\n")
        return t

    def odds_text(self) -> Text:
        st = self.styles_map()
        ex = self.tracker.settings.raja_exhausted
        if self.spirit:
            if not (self.a.who and self.b.who):
                return Text("")
            dice = self._spirit_dice()
            if dice is None or not all(dice):
                return Text("a side needs at least 2 charges to enter (1 to pay, 1 to roll) (R11)")
            o = odds_mod.raja_odds(dice[0], 0, dice[1], 0, exhausted=ex)
        else:
            pa, pb = self._pools()
            aa = sum(1 for s in pa if s.source == "ability")
            ba = sum(1 for s in pb if s.source == "ability")
            o = odds_mod.raja_odds(len(pa) - aa, aa, len(pb) - ba, ba, exhausted=ex)
        t = Text("Odds  ")
        t.append(f"{self.a.label} {o.a_wins:.1%}", style=st.get("win", ""))
        t.append(f"   tie {o.tie:.1%}   ")
        t.append(f"{self.b.label} {o.b_wins:.1%}", style=st.get("loss", ""))
        t.append("  ")
        t.append_text(_bar([(o.a_wins, "█", st.get("win", "")), (o.tie, "░", ""), (o.b_wins, "▒", st.get("loss", ""))], 20))
        deg = o.degrees_given_win()
        if deg:
            t.append("\n degrees if someone wins: " + "  ".join(f"{d}:{p:.0%}" for d, p in enumerate(deg) if p >= 0.005))
        return t

    def face_counts(self) -> tuple[tuple[int, int], tuple[int, int]]:
        if self.spirit:
            dice = self._spirit_dice()
            if dice is None:
                raise RulesError("spirit combat needs two characters with at least 2 charges (R11)")
            return (dice[0], 10), (dice[1], 10)
        pa, pb = self._pools()
        return (len(pa), 10), (len(pb), 10)

    def faces_hint(self) -> str:
        return "comma-separated faces 1–10 in the pool's order (action die first); ability dice as listed"

    def do_roll(self, faces: tuple[list[int], list[int]] | None) -> dict[str, Any]:
        if self.spirit:
            if not (self.a.who and self.b.who):
                raise RulesError("spirit combat needs a character on both sides (R11)")
            out = self.tracker.roll_spirit(self.a.who, self.b.who, challenge=self.challenge_id, faces=faces)
            self.challenge_id = out.get("challenge", self.challenge_id)
            ev = self.tracker.events[-1]
            return {**out, "event": ev}
        return self.tracker.roll_raja(self._raja_side(self.a), self._raja_side(self.b),
                                      challenge=self.challenge_id, faces=faces)

    def after_roll_hints(self, ev: dict[str, Any]) -> list[str]:
        keys = {"reroll_tie": "r", "next_exchange": "r", "end_fight": "x"}
        return [f"  {keys[a.name]}: {a.reason}" for a in self.tracker.roll_actions(ev)
                if a.allowed and a.name in keys]

    def action_end_fight(self) -> None:
        ev = self.last_event
        acts = [a for a in self.tracker.roll_actions(ev) if a.name == "end_fight"] if ev else []
        if not acts:
            self.notify("No spirit combat under way (R11)", severity="warning")
            return
        if not acts[0].allowed:
            self.notify(acts[0].reason, severity="error", title="Not done")
            return
        if self.papp.run_command(lambda t: t.do_roll_action(ev, "end_fight")) is not None:
            self.result_lines = [f"  {self.tracker.events[-1]['text']}"]
            self.refresh_view()


# ---------------------------------------------------------------------------------
# Harhapolku


class HarhaRollScreen(RollScreen):
    """H2 pools, H4 (chapter 23) or H3 (classic) comparison, H8, H7 edge rerolls."""

    system_name = "Harhapolku"
    BINDINGS = RollScreen.BINDINGS + [
        Binding("v", "toggle_variant", "Variant", id="harha.variant",
                tooltip="Chapter 23 (H4), classic (H3), same-size dice (H5) or sum (H6) for this roll"),
        Binding("8", "cycle_demand", "H8", show=False, id="harha.demand",
                tooltip="An opposed roll that is also difficult / very demanding: the actor needs 7+ dice too (H8)"),
        Binding("d", "toggle_difficult", "Unopposed", id="harha.difficult",
                tooltip="An unopposed difficult action (H8): one die of 7+"),
        Binding("D", "toggle_demanding", "Very demanding", show=False, id="harha.demanding",
                tooltip="A very demanding action needs two dice of 7+ (H8)"),
        Binding("e", "edge_reroll", "Edge reroll", id="harha.edge", tooltip="Reroll a side's pool with an edge (H7)"),
        Binding("b", "add_background", "+Background", show=False, id="harha.background",
                tooltip="Claim an ad-hoc background for this side"),
    ]

    def __init__(self, tracker: Tracker, challenge: str | None = None, *, actor: str | None = None) -> None:
        self.variant = tracker.harha_variant()
        self.difficult = False
        self.demanding = False
        self.demand = ""
        """H8 on an opposed roll: "", "difficult" or "very_demanding"."""
        super().__init__(tracker, challenge, actor=actor)

    def side_titles(self) -> tuple[str, str]:
        if self.difficult:
            return (f"A: {self.a.label} (acts)", "— unopposed —")
        if self.variant != "classic":
            return (f"A (actor): {self.a.label}", f"B (challenger): {self.b.label}")
        return (f"A: {self.a.label}", f"B: {self.b.label}")

    def on_who_changed(self, side: Side) -> None:
        side.claims = {}

    def _backgrounds(self, side: Side) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        if side.who:
            out = [(bg["name"], bg["tier"]) for bg in self.tracker.character(side.who).get("backgrounds", [])]
        return out + side.extra_backgrounds

    def rows(self, side: Side) -> list[tuple[str, Text | str]]:
        if side.role == "b" and self.difficult:
            return [("info", "An unopposed action: no challenger.")]
        rows: list[tuple[str, Text | str]] = [("who", f"Who: {side.label}  (Enter to change)")]
        rows.append(("info", "[x] 1d8 always (H2)"))
        have = self._backgrounds(side)
        for name, tier in have:
            on_ = side.claims.get(tier) == name
            size = "d10" if "special" in tier else "d8"
            rows.append((f"bg:{tier}:{name}", f"{_check(on_)} {name} — {HARHA_TIER_LABELS[tier]} +1{size}"))
        for tier in HARHA_TIERS:
            if not any(t == tier for _, t in have):
                on_ = side.claims.get(tier) == "(unnamed)"
                size = "d10" if "special" in tier else "d8"
                rows.append((f"bg:{tier}:(unnamed)", f"{_check(on_)} a fitting {HARHA_TIER_LABELS[tier]} +1{size}"))
        rows.append(("gm", f"{_check(side.gm_bonus)} GM: spectacular action +1d10"))
        if side.who:
            edges = self.tracker.character(side.who).get("edges", [])
            if edges:
                rows.append(("info", "edges: " + ", ".join(e["name"] + (" (used)" if e["used"] else "") for e in edges)))
        return rows

    def handle(self, side: Side, key: str) -> None:
        if key == "gm":
            side.gm_bonus = not side.gm_bonus
        elif key.startswith("bg:"):
            _, tier, name = key.split(":", 2)
            if side.claims.get(tier) == name:
                del side.claims[tier]
            else:
                side.claims[tier] = name

    def action_add_background(self) -> None:
        side = self.focused_side()

        def done(text: str | None) -> None:
            if not text:
                return
            name, _, tier = text.partition(":")
            tier = tier.strip() or "plain"
            side.extra_backgrounds.append((name.strip(), tier))
            side.claims[tier] = name.strip()
            self.refresh_view()

        tiers = ", ".join(HARHA_TIERS)
        self.app.push_screen(TextPrompt("Background name:tier", placeholder="e.g. Thief:plain",
                                        hint=f"tiers: {tiers}",
                                        check=lambda s: None if s.strip() and (not s.partition(':')[2].strip() or
                                                                               s.partition(':')[2].strip() in HARHA_TIERS)
                                        else f"tier must be one of {tiers}"), done)

    def _harha_side(self, side: Side) -> HarhaSide:
        c = side.claims
        return HarhaSide(side.label, [side.who] if side.who else [], general=c.get("general"),
                         background=c.get("plain"), significant=c.get("significant"), special=c.get("special"),
                         significant_special=c.get("significant_special"), gm_bonus=side.gm_bonus)

    def _variant(self) -> str:
        """An unopposed difficult action (H8) rolls the H2 pool."""
        return "ch23" if self.difficult else self.variant

    def _counts(self, side: Side) -> tuple[int, int]:
        pool = self.tracker.harha_pool(self._harha_side(side), self._variant())
        return (sum(1 for s in pool.dice if s.size == 8), sum(1 for s in pool.dice if s.size == 10))

    VARIANT_TEXT = {
        "ch23": "chapter 23 (H4): the challenger must win more positions",
        "classic": "classic (H3): more positions wins",
        "same_size": "same-size dice (H5), compared as chapter 23: the challenger must win more positions",
        "sum": "sum (H6): one die + the dice count; the challenger needs the larger total",
    }

    def pool_text(self) -> Text:
        t = Text()
        sides = (self.a,) if self.difficult else (self.a, self.b)
        for side in sides:
            pool = self.tracker.harha_pool(self._harha_side(side), self._variant())
            n8, n10 = self._counts(side)
            t.append(f"{side.label}: {n8}d8" + (f"+{n10}d10" if n10 else "") + "  ", style="bold")
            if self._variant() == "sum":
                t.append(f"rolls 1d{pool.dice[0].size} + {len(pool.dice)}: ")
            t.append(", ".join(f"d{s.size} {s.label or s.source}" for s in pool.dice))
            t.append("\n")
        if self.difficult:
            mode = "unopposed, " + ("very demanding: two 7+ (H8)" if self.demanding else "difficult: one 7+ (H8)")
        else:
            mode = self.VARIANT_TEXT[self.variant]
            if self.demand:
                mode += ("; very demanding: the actor also needs two 7+ (H8)" if self.demand == "very_demanding"
                         else "; difficult: the actor also needs a 7+ (H8)")
        t.append(mode, style="dim")
        if self.variant != "classic" and not self.difficult:
            # The whole H4 reminder is on the help screen; one line here keeps the pools in view.
            t.append("\nH4: abilities and senses are questioned only on grounds already shown in play",
                     style="dim")
        return t

    def odds_text(self) -> Text:
        st = self.styles_map()
        if self.difficult:
            p = odds_mod.harha_difficult(self._counts(self.a), self.demanding)
            t = Text(f"Odds  success {p:.1%}  ")
            t.append_text(_bar([(p, "█", st.get("win", "")), (1 - p, "▒", st.get("loss", ""))], 20))
            return t
        o = odds_mod.harha_contest_odds(self._counts(self.a), self._counts(self.b), self.variant,
                                        self.tracker.settings.harha_classic_extra, self.demand)
        if isinstance(o, odds_mod.HarhaDifficultOdds):
            need = "two 7+ dice" if self.demand == "very_demanding" else "a 7+ die"
            t = Text(f"Odds  {self.a.label} wins with {need} {o.success:.1%}", style=st.get("win", ""))
            t.append(f"   wins without {o.won_without:.1%}   tie {o.tie:.1%}   ")
            t.append_text(_bar([(o.success, "█", st.get("win", "")), (o.won_without, "░", ""),
                                (1 - o.success - o.won_without, "▒", st.get("loss", ""))], 20))
            return t
        t = Text("Odds  ")
        t.append(f"{self.a.label} {o.a_wins:.1%}", style=st.get("win", ""))
        t.append(f"   tie {o.tie:.1%}   ")
        t.append(f"{self.b.label} {o.b_wins:.1%}", style=st.get("loss", ""))
        t.append("  ")
        t.append_text(_bar([(o.a_wins, "█", st.get("win", "")), (o.tie, "░", ""), (o.b_wins, "▒", st.get("loss", ""))], 20))
        return t

    def face_counts(self) -> tuple[tuple[int, int], tuple[int, int]]:
        raise RulesError("")  # replaced by action_enter_faces below

    def action_enter_faces(self) -> None:
        sides = (self.a,) if self.difficult else (self.a, self.b)
        pools = [self.tracker.harha_dice(self._harha_side(s), self._variant()) for s in sides]
        collected: list[list[int]] = []

        def ask(i: int) -> None:
            if i == len(sides):
                faces = (collected[0], collected[1] if len(collected) > 1 else [])
                self._roll(faces)
                return
            specs = pools[i]
            sizes = ",".join(f"d{s.size}" for s in specs)

            def parse(text: str) -> list[int]:
                items = [x.strip() for x in text.split(",")]
                if len(items) != len(specs):
                    raise FaceError(f"{sides[i].label} rolls {len(specs)} dice ({sizes}); you entered {len(items)}")
                out = []
                for item, spec in zip(items, specs):
                    out.extend(d.face for d in parse_faces(item, spec.size))
                return out

            def check(text: str) -> str | None:
                try:
                    parse(text)
                except FaceError as e:
                    return str(e)
                return None

            def done(text: str | None) -> None:
                if text is None:
                    return
                collected.append(parse(text))
                ask(i + 1)

            self.app.push_screen(TextPrompt(f"Faces for {sides[i].label}: {sizes} (in this order)", check=check,
                                            hint="comma-separated; each face is checked against its die"), done)

        ask(0)

    def do_roll(self, faces: tuple[list[int], list[int]] | None) -> dict[str, Any]:
        if self.difficult:
            return self.tracker.roll_harha_difficult(self._harha_side(self.a), very_demanding=self.demanding,
                                                     challenge=self.challenge_id,
                                                     faces=faces[0] if faces else None)
        return self.tracker.roll_harha(self._harha_side(self.a), self._harha_side(self.b), variant=self.variant,
                                       challenge=self.challenge_id, demand=self.demand, faces=faces)

    def action_toggle_variant(self) -> None:
        variants = ("ch23", "classic", "same_size", "sum")
        self.variant = variants[(variants.index(self.variant) + 1) % len(variants)]
        self.refresh_view()

    def action_cycle_demand(self) -> None:
        demands = ("", "difficult", "very_demanding")
        self.demand = demands[(demands.index(self.demand) + 1) % len(demands)]
        self.refresh_view()

    def action_toggle_difficult(self) -> None:
        self.difficult = not self.difficult
        self.refresh_view()

    def action_toggle_demanding(self) -> None:
        self.difficult = True
        self.demanding = not self.demanding
        self.refresh_view()

    def after_roll_hints(self, ev: dict[str, Any]) -> list[str]:
        out = []
        if ev.get("roll", {}).get("outcome", {}).get("winner") == "tie":
            out.append("  A tie: reroll with r (H3).")
        if any(a.allowed for a in self.tracker.roll_actions(ev) if a.name == "edge_reroll"):
            out.append("  e: reroll a side's whole pool with an edge (H7)")
            out.extend(self._reroll_values(ev))
        return out

    def _reroll_values(self, ev: dict[str, Any]) -> list[str]:
        """What an edge reroll is worth for each side that has an unused edge (exact, H7)."""
        roll = ev.get("roll", {})
        sides = {s["role"]: s for s in roll.get("sides", [])}
        variant = roll.get("variant", self.variant)
        if set(sides) != {"a", "b"} or variant not in ("ch23", "classic") or roll.get("demand"):
            return []

        def pool(role: str) -> tuple[int, int]:
            dice = sides[role]["dice"]
            return (sum(1 for d in dice if d["size"] == 8), sum(1 for d in dice if d["size"] == 10))

        lines = []
        roles = {a.role for a in self.tracker.roll_actions(ev) if a.name == "edge_reroll" and a.allowed}
        for role in sorted(roles):
            try:
                now, after = odds_mod.harha_reroll_value(
                    pool("a"), pool("b"), [d["face"] for d in sides["a"]["dice"]],
                    [d["face"] for d in sides["b"]["dice"]], variant,
                    self.tracker.settings.harha_classic_extra, side=role)  # type: ignore[arg-type]
            except RulesError:
                continue
            lines.append(f"    {sides[role]['label']}: chance to win {now:.0%} now, {after:.1%} after rerolling")
        return lines

    def action_edge_reroll(self) -> None:
        ev = self.last_event
        if ev is None or not str(ev.get("roll", {}).get("test", "")).startswith("harhapolku-"):
            self.notify("Roll first; an edge rerolls that roll (H7)", severity="warning")
            return
        acts = [a for a in self.tracker.roll_actions(ev) if a.name == "edge_reroll"]
        choices = [(f"{a.role}\x1f{a.who}\x1f{a.edge}", f"{a.label}: edge '{a.edge}' — reroll {a.label}'s whole roll")
                   for a in acts if a.allowed]
        if not choices:
            reason = next((a.reason for a in acts), "no edge reroll for this roll (H7)")
            self.notify(reason if acts else "No unused edges on either side this session (H7)", severity="warning")
            return

        def done(value: str | None) -> None:
            if value is None:
                return
            role, cid, edge = value.split("\x1f")
            out = self.papp.run_command(lambda t: t.harha_edge_reroll(self.last_event, role, cid, edge))
            if out:
                self.last_event = out["event"]
                self.result_lines = [f"{out['event']['seq']}: {out['event']['roll']['summary']} (after edge '{edge}')"] + [
                    f"  {x}" for x in out["event"]["roll"]["explain"][:10]]
                self.refresh_view()

        self.app.push_screen(ChoicePrompt("Which edge? (once per session, only where it helps)", choices), done)


# ---------------------------------------------------------------------------------
# Varjojuoksu


SR_TESTS = ("success", "opposed", "extended", "teamwork")

class SRRollScreen(RollScreen):
    """S1–S3 pools, S4–S8 success tests, S9 opposed, S10 extended, S11 teamwork."""

    system_name = "Varjojuoksu"
    BINDINGS = RollScreen.BINDINGS + [
        Binding("t", "cycle_test", "Test type", id="sr.test", tooltip="Success / opposed / extended / teamwork"),
        Binding("h", "set_threshold", "Threshold", id="sr.threshold", tooltip="Set the threshold (S8, S10)"),
        Binding("H", "toggle_hidden", "Hide thr.", show=False, id="sr.hidden", tooltip="Hide the threshold from players"),
        Binding("plus", "add_modifier", "+Modifier", id="sr.modifier", tooltip="A situational modifier in dice (S1)"),
        Binding("e", "post('edge_after')", "Edge after", id="sr.edge_after", tooltip="Spend Edge after the roll (S7)"),
        Binding("g", "post('negate_glitch')", "Negate glitch", show=False, id="sr.negate", tooltip="1 Edge negates a glitch (S5)"),
        Binding("c", "post('reduce_critical')", "Reduce crit", show=False, id="sr.reduce",
                tooltip="1 Edge turns a critical glitch into a glitch (S6)"),
        Binding("s", "spoil", "Spoil", show=False, id="sr.spoil", tooltip="The glitch spoils the extended test (S10)"),
        Binding("o", "helper_pool", "Helper pool", show=False, id="sr.helper_pool",
                tooltip="The GM sets a teamwork helper's pool (S11)"),
    ]

    def __init__(self, tracker: Tracker, challenge: str | None = None, *, actor: str | None = None) -> None:
        self.test = "success"
        self.threshold = 2
        self.hidden = False
        self.hurried = False
        super().__init__(tracker, challenge, actor=actor)
        c = tracker.challenge(challenge) if challenge else None
        if c and c.get("extended"):
            self.test = "extended"
            self.threshold = c["extended"]["threshold"]
            self.hurried = c["extended"]["hurried"]
        elif c and c.get("opposition"):
            self.test = "opposed"

    def on_who_changed(self, side: Side) -> None:
        side.helpers = {}
        if side.who:
            ch = self.tracker.character(side.who)
            skills = ch.get("skills", {})
            if skills and side.skill not in skills:
                side.skill = next(iter(skills))
                side.mode = "skill"
                side.attribute = self.tracker.sr_linked_attribute(side.skill, side.attribute)
            elif not skills:
                side.mode = "default" if side.skill else "attr+attr"

    def side_titles(self) -> tuple[str, str]:
        b = {"success": "— threshold test —", "opposed": f"B (defender): {self.b.label}",
             "extended": "— extended test —", "teamwork": "Helpers (roll first, S11)"}[self.test]
        return (f"A: {self.a.label}", b)

    def _spec(self, side: Side) -> SRPool:
        return SRPool(mode=side.mode, skill=side.skill, attribute=side.attribute, second=side.second,
                      dice=side.dice, modifiers=list(side.modifiers), edge_before=side.edge_before,
                      long_shot=side.long_shot)

    def _sr_side(self, side: Side) -> SRSide:
        return self.tracker.sr_side(side.who or None, self._spec(side), side.label)

    def _helper_side(self, cid: str) -> SRSide:
        return self.tracker.sr_helper_side(cid, self._spec(self.a), self.b.helper_pools.get(cid))

    def rows(self, side: Side) -> list[tuple[str, Text | str]]:
        if side.role == "b":
            if self.test in ("success", "extended"):
                rows: list[tuple[str, Text | str]] = [("thr", f"Threshold: {self.threshold}" +
                                                       (" (hidden from players)" if self.hidden else "") + "  (h)")]
                if self.test == "extended":
                    rows.append(("hurry", f"{_check(self.hurried)} hurried: 2s count as 1s for glitches (S10)"))
                    c = self.tracker.challenge(self.challenge_id) if self.challenge_id else None
                    if c and c.get("extended"):
                        e = c["extended"]
                        rows.append(("info", f"progress {e['accumulated']}/{e['threshold']} after {e['intervals']} "
                                     f"interval(s)" + (" — ended" if e.get("ended") else "")))
                return rows
            if self.test == "teamwork":
                rows = []
                for cid, ch in self.tracker.characters.items():
                    if cid == self.a.who:
                        continue
                    on_ = side.helpers.get(cid, False)
                    whose = "GM's pool" if cid in side.helper_pools else "own pool"
                    rows.append((f"helper:{cid}", f"{_check(on_)} {ch['name']} helps ({self._helper_pool(cid)} dice, "
                                 f"{whose})"))
                if rows:
                    rows.append(("info", "o: the GM sets a helper's pool (S11)"))
                return rows or [("info", "no other characters to help")]
        rows = [("who", f"Who: {side.label}  (Enter to change)")]
        if not side.who or side.mode == "dice":
            rows.append(("dice", f"Dice: {side.dice}  (Enter to set)"))
            if side.who:
                rows.append(("mode", "Pool from: a dice count (Enter: skill + attribute)"))
        else:
            ch = self.tracker.character(side.who)
            attrs = ch["attributes"]
            if side.mode == "skill":
                rows.append(("skill", f"Skill: {side.skill or '?'} {ch.get('skills', {}).get(side.skill, 0)}"))
                rows.append(("attr", f"+ {side.attribute.capitalize()} {attrs[side.attribute]}"))
            elif side.mode == "default":
                rows.append(("skill", f"No skill: defaulting on {side.attribute.capitalize()} −1 (S2)"))
                rows.append(("attr", f"Attribute: {side.attribute.capitalize()} {attrs[side.attribute]}"))
            else:
                rows.append(("skill", "Attribute + attribute (S1)"))
                rows.append(("attr", f"{side.attribute.capitalize()} {attrs[side.attribute]}"))
                rows.append(("attr2", f"+ {side.second.capitalize()} {attrs[side.second]}"))
            w = self.tracker.wound_penalty(side.who)
            if w:
                rows.append(("info", f"wounds −{w} (S12)"))
            rows.append(("edge", f"{_check(side.edge_before)} Edge before the roll: +{ch['edge_rating']} dice, "
                         f"rule of six (Edge {ch['edge']}/{ch['edge_rating']})"))
            rows.append(("long", f"{_check(side.long_shot)} Long Shot (S3): {ch['edge_rating']} dice, 1 Edge"))
        for i, (label, n) in enumerate(side.modifiers):
            rows.append((f"mod:{i}", f"[x] {label} {n:+d}  (Enter removes)"))
        rows.append(("add-mod", "  … add a modifier (+)"))
        if side.role == "b" and self.test == "opposed":
            for i, n in enumerate(side.group):
                rows.append((f"grp:{i}", f"[x] group member with {n} dice (Enter removes)"))
            rows.append(("add-grp", "  … a group member's pool (S9: +1 die each, max +5)"))
        return rows

    def _helper_pool(self, cid: str) -> int:
        return self.tracker.sr_plan(self._helper_side(cid)).size

    def handle(self, side: Side, key: str) -> None:
        kind, _, rest = key.partition(":")
        if kind == "thr":
            self.action_set_threshold()
        elif kind == "hurry":
            self.hurried = not self.hurried
        elif kind == "helper":
            side.helpers[rest] = not side.helpers.get(rest, False)
        elif kind == "edge":
            side.edge_before = not side.edge_before
            side.long_shot = False if side.edge_before else side.long_shot
        elif kind == "long":
            side.long_shot = not side.long_shot
            side.edge_before = False if side.long_shot else side.edge_before
        elif kind == "mod":
            del side.modifiers[int(rest)]
        elif kind == "add-mod":
            self.action_add_modifier()
        elif kind == "grp":
            del side.group[int(rest)]
        elif kind == "add-grp":
            self._ask_int("A group member's pool (dice):", lambda n: side.group.append(n), 1, 60)
        elif kind == "dice":
            self._ask_int(f"{side.label} rolls how many dice?", lambda n: setattr(side, "dice", n), 0, 60)
        elif kind == "mode":
            side.mode = "skill"
        elif kind == "skill":
            self._pick_skill(side)
        elif kind == "attr":
            self._pick_attr(side, "attribute")
        elif kind == "attr2":
            self._pick_attr(side, "second")

    def _ask_int(self, title: str, then: Callable[[int], None], lo: int, hi: int) -> None:
        def check(s: str) -> str | None:
            try:
                n = ascii_int(s)
            except ValueError:
                return "write a whole number"
            return None if lo <= n <= hi else f"between {lo} and {hi}"

        def done(s: str | None) -> None:
            if s is not None:
                then(ascii_int(s))
                self.refresh_view()

        self.app.push_screen(TextPrompt(title, check=check), done)

    def _pick_skill(self, side: Side) -> None:
        ch = self.tracker.character(side.who)
        choices = [(f"s:{k}", f"{k} {v}") for k, v in ch.get("skills", {}).items()]
        choices += [("default", "No skill: default on the attribute, −1 die (S2)"),
                    ("attr+attr", "Attribute + attribute (S1)"), ("dice", "A plain dice count")]

        def done(v: str | None) -> None:
            if v is None:
                return
            if v.startswith("s:"):
                side.mode, side.skill = "skill", v[2:]
                side.attribute = self.tracker.sr_linked_attribute(side.skill, side.attribute)
            else:
                side.mode = v
            self.refresh_view()

        self.app.push_screen(ChoicePrompt("Pool from", choices), done)

    def _pick_attr(self, side: Side, which: str) -> None:
        ch = self.tracker.character(side.who)
        choices = [(a, f"{a.capitalize()} {ch['attributes'][a]}") for a in SR_ATTRIBUTES]

        def done(v: str | None) -> None:
            if v:
                setattr(side, which, v)
                self.refresh_view()

        self.app.push_screen(ChoicePrompt("Attribute", choices), done)

    def action_add_modifier(self) -> None:
        side = self.focused_side()
        if side.role == "b" and self.test in ("success", "extended", "teamwork"):
            side = self.a

        def check(s: str) -> str | None:
            parts = s.rsplit(" ", 1)
            try:
                ascii_int(parts[-1], 3)
            except ValueError:
                return "end with the dice, e.g. 'snowy road -2'"
            return None

        def done(s: str | None) -> None:
            if s:
                label, _, n = s.strip().rpartition(" ")
                side.modifiers.append((label or "modifier", ascii_int(n, 3)))
                self.refresh_view()

        self.app.push_screen(TextPrompt(f"Modifier for {side.label} (label and dice):", placeholder="snowy road -2",
                                        check=check), done)

    def action_cycle_test(self) -> None:
        self.test = SR_TESTS[(SR_TESTS.index(self.test) + 1) % len(SR_TESTS)]
        self.result_lines = []
        self.refresh_view()

    def action_set_threshold(self) -> None:
        self._ask_int("Threshold (hits needed):", lambda n: setattr(self, "threshold", n), 1, 60)

    def action_toggle_hidden(self) -> None:
        self.hidden = not self.hidden
        self.refresh_view()

    def _pool_size(self, side: Side) -> int:
        return self.tracker.sr_plan(self._sr_side(side)).size

    def _dice(self, side: Side) -> int:
        """The dice the side throws: the pool (or the group's, S9) plus Edge before (S7)."""
        sr_side = self._sr_side(side)
        if side.role == "b" and side.group:
            return self.tracker.sr_group_dice(sr_side, side.group)
        return self.tracker.sr_pool_dice(sr_side)

    def _six(self, side: Side) -> bool:
        return self.tracker.sr_rule_of_six(self._sr_side(side))

    def pool_text(self) -> Text:
        t = Text()
        sides = [self.a] + ([self.b] if self.test == "opposed" else [])
        for side in sides:
            sr_side = self._sr_side(side)
            plan = self.tracker.sr_plan(sr_side)
            t.append(f"{side.label}: ", style="bold")
            t.append(" ".join(plan.explain()))
            extra = self.tracker.sr_pool_dice(sr_side) - plan.size
            if extra and not sr_side.long_shot:
                t.append(f" + {extra} Edge dice, rule of six")
            if side.role == "b" and side.group:
                t.append(f"; group: {self._dice(side)} dice")
            t.append("\n")
        if self.test == "teamwork":
            helpers = [cid for cid, on_ in self.b.helpers.items() if on_]
            t.append("helpers: " + (", ".join(f"{self.tracker.character(c)['name']} {self._helper_pool(c)}"
                                              for c in helpers) or "none"))
            if self.tracker.settings.sr_teamwork_cap == "skill":
                t.append(" (extra dice at most the leader's skill, S11)", style="dim")
        return t

    def odds_text(self) -> Text:
        st = self.styles_map()
        rerolls = self.tracker.settings.sr_glitch_rerolls
        n = self._dice(self.a)
        if n <= 0:
            return Text("pool 0 or less: automatic failure unless a Long Shot (S3)")
        t = Text("Odds  ")
        if self.test == "opposed":
            m = self._dice(self.b)
            o = odds_mod.sr_opposed(n, max(0, m), self._six(self.a), self._six(self.b))
            t.append(f"{self.a.label} {o.a_wins:.1%}", style=st.get("win", ""))
            t.append(f"   stalemate {o.tie:.1%}   ")
            t.append(f"{self.b.label} {o.b_wins:.1%}", style=st.get("loss", ""))
            t.append("  ")
            t.append_text(_bar([(o.a_wins, "█", st.get("win", "")), (o.tie, "░", ""), (o.b_wins, "▒", st.get("loss", ""))], 20))
            return t
        if self.test == "teamwork":
            helpers = [self._helper_pool(c) for c, on_ in self.b.helpers.items() if on_]
            o = odds_mod.sr_teamwork(n, [max(0, h) for h in helpers], rule_of_six=self._six(self.a),
                                     glitch_rerolls=rerolls)
        elif self.test == "extended":
            togo = max(1, self.threshold - self._accumulated())
            e = odds_mod.sr_extended(n, togo, 40, self.hurried)
            exp = e.expected_intervals()
            t.append(f"reach {self.threshold} ({togo} to go): {e.success_by(5):.0%} within 5 intervals, "
                     f"{e.success:.0%} within 40" + (f", about {exp:.1f} intervals" if exp else "") +
                     f"; critical glitch ends it first {e.critical_glitch:.1%}")
            return t
        else:
            o = odds_mod.sr_hits(n, rule_of_six=self._six(self.a), glitch_rerolls=rerolls)
        succ = o.success(self.threshold)
        t.append(f"success (≥{self.threshold}) {succ:.1%}", style=st.get("win", ""))
        t.append(f"   glitch {o.glitch:.1%}   critical {o.critical_glitch:.2%}", style=st.get("crit", ""))
        t.append(f"  mean {o.mean():.2f} hits\n  ")
        peak = max(o.hits[:16]) or 1
        for h, p in enumerate(o.hits[:16]):
            t.append("▁▂▃▄▅▆▇█"[min(7, int(p / peak * 7.999))], style=st.get("hit", "") if h >= self.threshold else "")
        t.append("  hits 0…15")
        return t

    def _accumulated(self) -> int:
        c = self.tracker.challenge(self.challenge_id) if self.challenge_id else None
        return c["extended"]["accumulated"] if c and c.get("extended") else 0

    def face_counts(self) -> tuple[tuple[int, int], tuple[int, int]]:
        raise RulesError("")

    def action_enter_faces(self) -> None:
        if self.a.edge_before or self.a.long_shot or self.b.edge_before:
            hint = "rule of six: after the pool's faces, enter the faces of the dice the sixes added, in order"
        else:
            hint = "comma-separated faces 1–6"
        n = self._pool_size(self.a)

        def check(text: str) -> str | None:
            try:
                parse_faces(text, 6)
            except FaceError as e:
                return str(e)
            return None

        if self.test == "opposed":
            def got_a(text: str | None) -> None:
                if text is None:
                    return
                fa = [d.face for d in parse_faces(text, 6)]

                def got_b(text_b: str | None) -> None:
                    if text_b is None:
                        return
                    self._roll((fa, [d.face for d in parse_faces(text_b, 6)]))

                self.app.push_screen(TextPrompt(f"Faces for {self.b.label} ({self._pool_size(self.b)}d6 + any group/Edge dice)",
                                                hint=hint, check=check), got_b)

            self.app.push_screen(TextPrompt(f"Faces for {self.a.label} ({n}d6 + any Edge dice)", hint=hint,
                                            check=check), got_a)
            return
        what = "helpers' dice first, then the leader's" if self.test == "teamwork" else f"{n}d6"

        def done(text: str | None) -> None:
            if text is not None:
                self._roll(([d.face for d in parse_faces(text, 6)], []))

        self.app.push_screen(TextPrompt(f"Faces for {self.a.label}: {what}", hint=hint, check=check), done)

    def do_roll(self, faces: tuple[list[int], list[int]] | None) -> dict[str, Any]:
        side_a = self._sr_side(self.a)
        fa = faces[0] if faces else None
        if self.test == "opposed":
            return self.tracker.roll_sr_opposed(side_a, self._sr_side(self.b), group=list(self.b.group),
                                                challenge=self.challenge_id, faces=faces)
        if self.test == "teamwork":
            helpers = [self._helper_side(cid) for cid, on_ in self.b.helpers.items() if on_]
            return self.tracker.roll_sr_teamwork(side_a, helpers, threshold=self.threshold,
                                                 challenge=self.challenge_id, faces=fa)
        if self.test == "extended":
            chid = self.challenge_id
            if chid is None:
                c = self.tracker.add_challenge(f"Extended test: {self.a.label}")
                chid = self.challenge_id = c["id"]
            return self.tracker.roll_sr_extended(side_a, chid, threshold=self.threshold, hurried=self.hurried,
                                                 faces=fa)
        return self.tracker.roll_sr(side_a, threshold=self.threshold, hidden=self.hidden,
                                    challenge=self.challenge_id, faces=fa)

    POST_KEYS = {"edge_after": "e", "negate_glitch": "g", "reduce_critical": "c", "spoil": "s",
                 "next_interval": "r"}

    def after_roll_hints(self, ev: dict[str, Any]) -> list[str]:
        acts = [a for a in self.tracker.roll_actions(ev) if a.allowed and a.name in self.POST_KEYS]
        several = len({a.role for a in acts if a.name in ("edge_after", "negate_glitch", "reduce_critical")}) > 1
        hints = []
        for a in acts:
            who = f"{a.label}: " if several and a.label else ""
            hints.append(f"  {self.POST_KEYS[a.name]}: {who}{a.reason}")
        return hints

    def action_post(self, what: str) -> None:
        ev = self.last_event
        if ev is None:
            self.notify("Roll first", severity="warning")
            return
        acts = [a for a in self.tracker.roll_actions(ev) if a.name == what]
        allowed = [a for a in acts if a.allowed]
        if not allowed:
            reason = acts[0].reason if acts else "that cannot be done to this roll"
            mine = next((a for a in acts if a.role == "a"), acts[0] if acts else None)
            if mine is not None and what != "spoil" and mine.who:
                ch = self.tracker.character(mine.who)
                if ch.get("edge", 1) < 1 and "Edge" in reason:
                    reason = f"{ch['name']} has no Edge left this session"
                else:
                    reason = mine.reason
            self.notify(reason, severity="error", title="Not done")
            return

        def run(role: str) -> None:
            out = self.papp.run_command(lambda t: t.sr_post_roll(self.last_event, what, role=role))
            if out:
                ev = out["event"]
                self.last_event = ev
                self.result_lines = [f"{ev['seq']}: {ev['roll']['summary']}"] + self.after_roll_hints(ev) + [
                    f"  {x}" for x in ev["roll"]["explain"][:12]]
                self.refresh_view()

        if len(allowed) == 1:
            run(allowed[0].role)
            return
        choices = [(a.role, f"{a.label}: {a.reason}") for a in allowed]

        def picked(role: str | None) -> None:
            if role is not None:
                run(role)

        self.app.push_screen(ChoicePrompt("Whose roll?", choices), picked)

    def action_spoil(self) -> None:
        if self.challenge_id:
            self.papp.run_command(lambda t: t.sr_extended_spoil(self.challenge_id))

    def action_helper_pool(self) -> None:
        """The GM sets (or clears) a highlighted helper's pool (S11)."""
        if self.test != "teamwork":
            self.notify("Helpers' pools are set in a teamwork test (t)", severity="warning")
            return
        opt = self.query_one("#side-b", SideList).highlighted_option
        if opt is None or not str(opt.id).startswith("helper:"):
            self.notify("Highlight a helper first (Tab to the helpers)", severity="warning")
            return
        cid = str(opt.id)[len("helper:"):]
        name = self.tracker.character(cid)["name"]

        def check(text: str) -> str | None:
            if not text.strip():
                return None
            try:
                n = int(text.strip())
            except ValueError:
                return "write a whole number, or leave it empty for the helper's own pool"
            return None if 0 <= n <= 60 else "between 0 and 60"

        def done(text: str | None) -> None:
            if text is None:
                return
            if text.strip():
                self.b.helper_pools[cid] = int(text.strip())
                self.b.helpers[cid] = True
            else:
                self.b.helper_pools.pop(cid, None)
            self.refresh_view()

        self.app.push_screen(TextPrompt(f"{name}'s pool as a helper (empty: their own, "
                                        f"{self.tracker.sr_plan(self.tracker.sr_helper_side(cid, self._spec(self.a))).size} dice):",
                                        str(self.b.helper_pools.get(cid, "")), check=check), done)


def roll_screen_for(tracker: Tracker, challenge: str | None, *, actor: str | None = None) -> RollScreen:
    system = tracker.system
    if system is System.RAJAPOLKU:
        return RajaRollScreen(tracker, challenge, actor=actor)
    if system is System.HARHAPOLKU:
        return HarhaRollScreen(tracker, challenge, actor=actor)
    return SRRollScreen(tracker, challenge, actor=actor)


class InitiativeScreen(ModalScreen[None]):
    """S12: pick who acts, their passes, and roll initiative."""

    BINDINGS = [
        Binding("r", "roll", "Roll initiative", id="ini.roll", tooltip="Reaction + Intuition + hits, highest first"),
        Binding("plus", "passes(1)", "+Pass", id="ini.more", tooltip="One more initiative pass"),
        Binding("minus", "passes(-1)", "−Pass", id="ini.less", tooltip="One initiative pass less"),
        Binding("escape", "close", "Close", id="ini.close", tooltip="Close"),
    ]

    def __init__(self, tracker: Tracker) -> None:
        super().__init__()
        self.tracker = tracker
        current = {e["id"]: e["passes"] for e in tracker.state["initiative"]}
        self.chosen = {cid: (cid in current or not current) for cid in tracker.characters}
        self.passes = {cid: current.get(cid, 1) for cid in tracker.characters}

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static("Initiative (S12): Enter toggles, +/− passes, r rolls", classes="dialog--title")
            yield OptionList(id="ini-list")
            yield Static("", id="ini-result")
        yield KeyLine()

    def on_mount(self) -> None:
        self._show()
        self.query_one(OptionList).focus()

    def _show(self) -> None:
        ol = self.query_one(OptionList)
        keep = ol.highlighted
        opts = []
        for cid, ch in self.tracker.characters.items():
            a = ch["attributes"]
            opts.append(Option(Text(f"{_check(self.chosen[cid])} {ch['name']}  R{a['reaction']}+I{a['intuition']}  "
                                    f"passes {self.passes[cid]}  Edge {ch['edge_rating']}"), id=cid))
        ol.set_options(opts)
        if opts:
            ol.highlighted = keep if keep is not None else 0

    @on(OptionList.OptionSelected)
    def _toggle(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        cid = event.option.id
        if cid:
            self.chosen[cid] = not self.chosen[cid]
            self._show()

    def action_passes(self, delta: int) -> None:
        opt = self.query_one(OptionList).highlighted_option
        if opt and opt.id:
            self.passes[opt.id] = max(1, min(4, self.passes[opt.id] + delta))
            self._show()

    def action_roll(self) -> None:
        entries = [(cid, self.passes[cid]) for cid, on_ in self.chosen.items() if on_]
        if not entries:
            self.notify("Pick at least one character", severity="warning")
            return
        out = self.app.run_command(lambda t: t.roll_initiative(entries))  # type: ignore[attr-defined]
        if out:
            self.query_one("#ini-result", Static).update(out["event"]["roll"]["summary"])

    def action_close(self) -> None:
        self.dismiss(None)


__all__ = ["roll_screen_for", "RollScreen", "RajaRollScreen", "HarhaRollScreen", "SRRollScreen", "InitiativeScreen",
           "dice_text"]
