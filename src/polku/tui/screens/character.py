"""Characters: the quick "new character" form and the full character sheet.

Neither screen changes state itself. The form returns the keyword arguments of
:meth:`Tracker.add_character`; the sheet turns every edit into one tracker
command it asks the app for (a posted ``RunCommand``), and re-renders when the
app reports new events (one ``TrackerChanged`` message per command).
"""

from __future__ import annotations

import re
import textwrap
from typing import Any, Callable, Sequence, cast

from rich.markup import escape
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from ...i18n import N_, _, ngettext, pgettext
from ...rules.dice import ascii_int
from ...rules.system import RAJA_WOUND_PENALTY, System, raja_wound_level
from ...session.commands import Command, command
from ...session.model import CHARACTER_KINDS, HARHA_TIER_LABELS, HARHA_TIERS, SR_ATTRIBUTES, condition_monitors
from ...session.records import SRCharacter
from ...session.records import sr as sr_sheet
from ...session.telling import WOUND_CARE, event_text
from ...session.tracker import Tracker, TrackerError
from ...text import builtin_label, wound_label
from ..messages import LanguageChanged, RunCommand, TrackerChanged
from ..render import boxes, pips
from ..widgets.keyline import KeyLine
from .prompts import ChoicePrompt, ConfirmPrompt, TextPrompt


class FieldError(ValueError):
    """One line saying which field is wrong and how to write it."""


KIND_LABELS = {"pc": N_("player character"), "npc": N_("NPC"), "opposition": N_("opposition")}
"""How each character kind reads on the sheet (translated where shown)."""


FORM_KINDS = {"pc": N_("pc"), "npc": N_("npc"), "opposition": N_("opposition")}
"""The kinds as the new-character form offers them (short: three on one row)."""


def kind_words(kind: str) -> str:
    """A character's kind as the sheet names it, in the language in use."""
    word = KIND_LABELS.get(kind)
    return _(word) if word is not None else kind


def attribute_short(attr: str) -> str:
    """The usual SR4 abbreviations, for the narrow attribute grid, in the language in use."""
    return {
        "body": pgettext("attribute", "Bod"), "agility": pgettext("attribute", "Agi"),
        "reaction": pgettext("attribute", "Rea"), "strength": pgettext("attribute", "Str"),
        "charisma": pgettext("attribute", "Cha"), "intuition": pgettext("attribute", "Int"),
        "logic": pgettext("attribute", "Log"), "willpower": pgettext("attribute", "Wil"),
    }[attr]


def attribute_word(attr: str) -> str:
    """``agility`` → ``Agility`` (``Ketteryys``): a sheet row's label."""
    return builtin_label(attr).capitalize()

_TIER_BY_TEXT = {**{t: t for t in HARHA_TIERS}, **{v: k for k, v in HARHA_TIER_LABELS.items()},
                 "significant-special": "significant_special", "background": "plain"}

# ---------------------------------------------------------------------------
# Parsing and formatting the one-line field formats (pure, testable).

def parse_int(text: str, what: str, lo: int, hi: int) -> int:
    """A whole number in ``lo..hi``.

    Raises:
        FieldError: naming ``what`` and the range.
    """
    try:
        value = ascii_int(text)
    except ValueError:
        raise FieldError(_("{what}: write a whole number from {lo} to {hi}, not '{text}'", what=what, lo=lo, hi=hi,
                           text=text.strip())) from None
    if not lo <= value <= hi:
        raise FieldError(_("{what}: {value} is outside {lo}–{hi}", what=what, value=value, lo=lo, hi=hi))
    return value

def parse_names(text: str) -> list[str]:
    """Comma-separated names, blanks dropped, duplicates kept once (first wins)."""
    out: list[str] = []
    for part in text.split(","):
        name = part.strip()
        if name and name not in out:
            out.append(name)
    return out

def parse_harha_backgrounds(text: str) -> list[dict[str, str]]:
    """``"Militia:plain, Old blood:special"``; a name without a tier is a plain background (H2).

    Raises:
        FieldError: an unknown tier, naming the ones allowed.
    """
    out: list[dict[str, str]] = []
    for part in text.split(","):
        if not part.strip():
            continue
        name, _colon, tier = part.partition(":")
        name = name.strip()
        key = harha_tier_key(tier)
        if not name:
            raise FieldError(_("backgrounds: '{part}' has no name before the ':'", part=part.strip()))
        if key is None:
            raise FieldError(_("backgrounds: '{tier}' is not a tier (use {tiers})", tier=tier.strip(),
                               tiers=harha_tier_words()))
        out.append({"name": name, "tier": key})
    return out

def harha_tier_key(text: str) -> str | None:
    """A tier as typed → its stored key (``model.HARHA_TIERS``); None if it names no tier.

    Polku's key or its English name in any language, or the name in the language in use
    ("yleistausta"); no tier at all is a plain background (H2).
    """
    tiers = {**{_(label).lower(): k for k, label in HARHA_TIER_LABELS.items()}, **_TIER_BY_TEXT}
    return tiers.get(" ".join(text.strip().lower().split()) or "plain")

def harha_tier_word(tier: str) -> str:
    """A stored tier key as a player reads and types it, in the language in use (``plain`` → "tausta")."""
    return builtin_label(HARHA_TIER_LABELS[tier])

def harha_tier_words() -> str:
    """Every tier, comma-separated, as a player may type it in the language in use (a hint's list)."""
    return ", ".join(harha_tier_word(t) for t in HARHA_TIERS)

def format_harha_backgrounds(backgrounds: Sequence[dict[str, Any]]) -> str:
    """The edit field's text: each tier in the language in use, which :func:`parse_harha_backgrounds` reads back."""
    return ", ".join(f"{b['name']}:{harha_tier_word(b['tier'])}" for b in backgrounds)

def parse_skills(text: str) -> dict[str, int]:
    """``"Pistols 4, Sneaking 3"`` → ``{"Pistols": 4, "Sneaking": 3}`` (ratings 0–12).

    Raises:
        FieldError: a skill without a rating, or a rating out of range.
    """
    out: dict[str, int] = {}
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        m = re.fullmatch(r"(.+?)\s*[:=]?\s*(-?[0-9]+)", part)
        if not m or not m.group(1).strip():
            raise FieldError(_("skills: write '{part}' as a name and a rating, e.g. 'Pistols 4'", part=part))
        out[m.group(1).strip()] = parse_int(m.group(2), _("skill {name}", name=m.group(1).strip()), 0, 12)
    return out

def format_skills(skills: dict[str, int]) -> str:
    return ", ".join(f"{name} {rating}" for name, rating in skills.items())

def parse_ability(text: str) -> dict[str, Any]:
    """An R11 ability: ``"Ape strength 1/scene"``, ``"Hex 2/use"``, ``"Night sight always"``.

    A bare number means per use.

    Raises:
        FieldError: how to write it.
    """
    text = " ".join(text.split())
    m = re.fullmatch(r"(.+?)\s+always", text, flags=re.IGNORECASE)
    if m:
        return {"name": m.group(1), "cost": 0, "per": "always"}
    m = re.fullmatch(r"(.+?)\s+([0-9]+)\s*(?:/\s*(use|scene))?", text, flags=re.IGNORECASE)
    if not m:
        raise FieldError(_("ability: write a name and its price, e.g. 'Ape strength 1/scene', "
                           "'Hex 2/use' or 'Night sight always'"))
    cost = parse_int(m.group(2), _("ability cost"), 0, 30)
    return {"name": m.group(1), "cost": cost, "per": (m.group(3) or "use").lower()}

def format_ability(ab: dict[str, Any]) -> str:
    if ab["per"] == "always":
        return f"{ab['name']} always"
    return f"{ab['name']} {ab['cost']}/{ab['per']}"

def ability_text(ab: dict[str, Any]) -> str:
    """How an ability's price reads on the sheet."""
    if ab["per"] == "always":
        return _("always on")
    if ab["per"] == "scene":
        return ngettext("{n} charge per scene", "{n} charges per scene", int(ab["cost"]))
    return ngettext("{n} charge per use", "{n} charges per use", int(ab["cost"]))

def wound_effect_words(level: str) -> str:
    """R9: a level's effect in the language in use (``−2 dice, worsens without hospital care``; "" for none)."""
    level = raja_wound_level(level) or level
    pen = RAJA_WOUND_PENALTY.get(level, 0)
    care = WOUND_CARE.get(level)
    if pen and level != "Dead":
        if care:
            return ngettext("−{n} die, {care}", "−{n} dice, {care}", pen, care=_(care))
        return ngettext("−{n} die", "−{n} dice", pen)
    return _(care) if care else ""

def _checker(parse: Callable[[str], Any]) -> Callable[[str], str | None]:
    """A TextPrompt ``check`` from a parser that raises :class:`FieldError`."""

    def check(text: str) -> str | None:
        try:
            parse(text)
        except FieldError as e:
            return str(e)
        return None

    return check

# ---------------------------------------------------------------------------
# A keyboard choice among a few words, readable without colour.

class CycleField(Widget, can_focus=True):
    """Pick one of a few values with left/right or space; the chosen one is bracketed.

    Args:
        values: (value, label) pairs.
        value: the initial value.
    """

    DEFAULT_CSS = """
    CycleField { height: 1; width: 1fr; }
    """

    BINDINGS = [
        Binding("right,space", "step(1)", N_("Next"), show=False, id="cycle.next", tooltip=N_("Next value")),
        Binding("left", "step(-1)", N_("Previous"), show=False, id="cycle.previous", tooltip=N_("Previous value")),
    ]

    def __init__(self, values: Sequence[tuple[str, str]], value: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.values = list(values)
        self.index = next((i for i, (v, _) in enumerate(self.values) if v == value), 0)

    @property
    def value(self) -> str:
        """The chosen value."""
        return self.values[self.index][0]

    def render(self) -> Text:
        out = Text()
        for i, (_value, label) in enumerate(self.values):
            if i:
                out.append("  ")
            if i == self.index:
                out.append(f"[{label}]", style="bold reverse" if self.has_focus else "bold")
            else:
                out.append(f" {label} ")
        return out

    def action_step(self, delta: int) -> None:
        self.index = (self.index + delta) % len(self.values)
        self.refresh()
        self.post_message(CycleField.Changed(self))

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    class Changed(Message):
        """The chosen value changed."""

        def __init__(self, field: "CycleField") -> None:
            super().__init__()
            self.field = field

        @property
        def control(self) -> "CycleField":
            return self.field

# ---------------------------------------------------------------------------
# The new-character form.

class CharacterForm(ModalScreen[dict[str, Any] | None]):
    """Name, kind, player and the few fields a system needs at the table.

    Dismisses with the keyword arguments for :meth:`Tracker.add_character`, or None.

    Args:
        tracker: the campaign (its system decides the quick fields).
    """

    BINDINGS = [
        Binding("escape", "cancel", N_("Cancel"), id="charform.cancel", tooltip=N_("Close without adding anyone")),
        Binding("ctrl+s", "submit", N_("Add"), id="charform.submit", tooltip=N_("Add the character")),
        Binding("enter", "submit", N_("Add"), show=False, id="charform.enter", tooltip=N_("Add the character")),
    ]

    def __init__(self, tracker: Tracker) -> None:
        super().__init__()
        self.tracker = tracker
        self.system = tracker.system
        self._default_charges = tracker.settings.raja_default_charges

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog", id="charform"):
            yield Label(_("New character · {system}", system=self.system.display_name), classes="dialog--title")
            with Horizontal(classes="form-row"):
                yield Label(_("Name"), classes="form-label")
                yield Input(placeholder=_("e.g. Alyosha"), id="cf-name", compact=True)
            with Horizontal(classes="form-row"):
                yield Label(_("Player"), classes="form-label")
                yield Input(placeholder=_("blank for a GM character"), id="cf-player", compact=True)
            with Horizontal(classes="form-row"):
                yield Label(_("Kind"), classes="form-label")
                yield CycleField([(k, _(FORM_KINDS[k])) for k in CHARACTER_KINDS], "pc", id="cf-kind")
            if self.system is System.RAJAPOLKU:
                with Horizontal(classes="form-row"):
                    yield Label(_("Backgrounds"), classes="form-label")
                    yield Input(placeholder=_("Militia, Street-wise (R2)"), id="cf-backgrounds", compact=True)
                with Horizontal(classes="form-row"):
                    yield Label(_("Charges"), classes="form-label")
                    yield Input(str(self._default_charges), id="cf-charges", compact=True,
                                restrict=r"[0-9]*", max_length=2)
            elif self.system is System.HARHAPOLKU:
                with Horizontal(classes="form-row"):
                    yield Label(_("Backgrounds"), classes="form-label")
                    yield Input(placeholder=_("Villager:general, Smith, Old blood:special"), id="cf-backgrounds",
                                compact=True)
                yield Static(_("  tiers (H2): {tiers}; no tier = background", tiers=harha_tier_words()),
                             classes="dialog--hint")
                with Horizontal(classes="form-row"):
                    yield Label(_("Edges"), classes="form-label")
                    yield Input(placeholder=_("Quick hands, Lucky (H7)"), id="cf-edges", compact=True)
            else:
                with Grid(id="cf-attributes"):
                    for attr in SR_ATTRIBUTES:
                        with Horizontal(classes="attr-cell"):
                            yield Label(attribute_short(attr), classes="attr-label")
                            yield Input("3", id=f"cf-attr-{attr}", compact=True, restrict=r"[0-9]*", max_length=2,
                                        tooltip=attribute_word(attr))
                with Horizontal(classes="form-row"):
                    yield Label(_("Edge rating"), classes="form-label")
                    yield Input("2", id="cf-edge", compact=True, restrict=r"[0-9]*", max_length=1)
                with Horizontal(classes="form-row"):
                    yield Label(_("Skills"), classes="form-label")
                    yield Input(placeholder=_("Pistols 4, Sneaking 3"), id="cf-skills", compact=True)
            with Horizontal(classes="form-row"):
                # Secret from the start, so the players never see a "joins" line (docs/rules.md).
                yield Label(_("Secret"), classes="form-label")
                yield CycleField([("no", _("no")), ("yes", _("yes: GM only"))], "no", id="cf-secret")
            yield Static("", id="cf-error", classes="dialog--error")
            yield Static(_("Tab next field · ←/→ kind, secret · Enter add · Esc cancel"), classes="dialog--hint")
        yield KeyLine()

    def on_mount(self) -> None:
        self.query_one("#cf-name", Input).focus()

    def _text(self, wid: str) -> str:
        return self.query_one(f"#{wid}", Input).value

    @on(CycleField.Changed, "#cf-kind")
    def kind_changed(self, event: CycleField.Changed) -> None:
        """Opposition starts with 3 charges (R11); others with the campaign default."""
        if self.system is not System.RAJAPOLKU:
            return
        box = self.query_one("#cf-charges", Input)
        defaults = {str(self._default_charges), "3"}
        if box.value.strip() in defaults:
            box.value = "3" if event.field.value == "opposition" else str(self._default_charges)

    @on(Input.Submitted)
    def input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_submit()

    def collect(self) -> dict[str, Any]:
        """The add_character keyword arguments from the form.

        Raises:
            FieldError: the first field that is wrong.
        """
        name = self._text("cf-name").strip()
        if not name:
            raise FieldError(_("name: every character needs a name"))
        kind = self.query_one("#cf-kind", CycleField).value
        out: dict[str, Any] = {"name": name, "kind": kind, "player": self._text("cf-player").strip()}
        if self.query_one("#cf-secret", CycleField).value == "yes":
            out["secret"] = True
        if self.system is System.RAJAPOLKU:
            out["backgrounds"] = parse_names(self._text("cf-backgrounds"))
            raw = self._text("cf-charges").strip()
            charges = parse_int(raw, _("charges"), 0, 99) if raw else (3 if kind == "opposition" else self._default_charges)
            out["charges"] = charges
            out["charges_max"] = charges
        elif self.system is System.HARHAPOLKU:
            out["backgrounds"] = parse_harha_backgrounds(self._text("cf-backgrounds"))
            out["edges"] = [{"name": n, "used": False} for n in parse_names(self._text("cf-edges"))]
        else:
            attrs = {}
            for attr in SR_ATTRIBUTES:
                attrs[attr] = parse_int(self._text(f"cf-attr-{attr}") or "", builtin_label(attr), 1, 12)
            out["attributes"] = attrs
            edge = parse_int(self._text("cf-edge"), _("Edge rating"), 0, 9)
            out["edge_rating"] = edge
            out["edge"] = edge
            out["skills"] = parse_skills(self._text("cf-skills"))
        return out

    def action_submit(self) -> None:
        try:
            result = self.collect()
        except FieldError as e:
            self.query_one("#cf-error", Static).update(str(e))
            return
        self.dismiss(result)

    def action_cancel(self) -> None:
        self.dismiss(None)

# ---------------------------------------------------------------------------
# The character sheet.

INITIATIVE_LABELS = {"physical": N_("Initiative"), "astral": N_("Astral initiative"),
                     "matrix": N_("Matrix initiative")}
"""A Varjojuoksu sheet's initiative scores by name (SR4: physical, astral, matrix)."""

ROW_LABELS = {"physical": N_("Initiative"), "astral": N_("  astral"), "matrix": N_("  matrix")}
"""The sheet's initiative rows: astral and matrix right under the physical one (16 columns for a label)."""


def initiative_rows(t: Tracker, cid: str) -> list[tuple[str, str, str]]:
    """The sheet's initiative scores, the physical one always: their dice, bonus and passes."""
    a = sr_sheet(t.character(cid))["attributes"]
    out = []
    for kind in t.combat.initiative_kinds(cid):
        bonus, passes = t.combat.sheet_initiative(cid, kind)
        if kind == "astral":
            dice = _("Intuition {intuition} × 2", intuition=a["intuition"])
        elif kind == "matrix":
            dice = _("Intuition {intuition}", intuition=a["intuition"])
        else:
            dice = _("Reaction {reaction} + Intuition {intuition}", reaction=a["reaction"], intuition=a["intuition"])
        out.append(("initiative" if kind == "physical" else f"initiative:{kind}", _(ROW_LABELS[kind]),
                    dice + (f" + {bonus}" if bonus else "") + " · " + ngettext("{n} pass", "{n} passes", passes)
                    + _("  (Enter edits)")))
    return out


class CharacterDetail(ModalScreen[None]):
    """Everything about one character; Enter edits the highlighted row.

    Args:
        tracker: the campaign.
        cid: the character's id.
    """

    BINDINGS = [
        Binding("escape", "close", N_("Close"), id="detail.close", tooltip=N_("Back to the session")),
        Binding("plus,equals_sign", "adjust(1)", N_("+1"), id="detail.more",
                tooltip=N_("One more on a number row (charges, boxes, points…)")),
        Binding("minus", "adjust(-1)", N_("−1"), id="detail.less", tooltip=N_("One less on a number row")),
        Binding("x,delete", "remove", N_("Remove"), id="detail.remove",
                tooltip=N_("Remove the character (asks first; undo brings it back)")),
        Binding("u,ctrl+z", "undo", N_("Undo"), id="detail.undo", tooltip=N_("Undo the last command (this sheet or not)")),
        Binding("U,ctrl+y", "redo", N_("Redo"), id="detail.redo", tooltip=N_("Redo the last undone command")),
    ]

    BINDING_GROUP_TITLE = N_("Character sheet")

    def __init__(self, tracker: Tracker, cid: str) -> None:
        super().__init__()
        self.tracker = tracker
        self.cid = cid
        self._gone = False

    @property
    def ch(self) -> dict[str, Any]:
        # The sheet editor reads and edits any system's fields by name (the rows it builds).
        return cast("dict[str, Any]", self.tracker.characters[self.cid])

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="detail"):
            yield Label("", id="detail-title", classes="dialog--title", markup=False)
            yield OptionList(id="detail-rows")
            yield Static(_("Enter edit · +/− adjust · x remove · u undo · ? keys · Esc close"),
                         classes="dialog--hint", id="detail-hint")
        yield KeyLine()

    def on_mount(self) -> None:
        self.render_rows()
        rows = self.query_one("#detail-rows", OptionList)
        rows.highlighted = 0
        rows.focus()

    # -- rendering -------------------------------------------------------------

    @on(TrackerChanged)
    def _tracker_changed(self, message: TrackerChanged) -> None:
        """The app ran a command: redraw, or close if the character is gone."""
        if self.cid not in self.tracker.characters:
            self._close_gone()
            return
        self.render_rows()

    @on(LanguageChanged)
    def _language_changed(self) -> None:
        """Every word of the sheet again, in the language now in use."""
        self.query_one("#detail-hint", Static).update(
            _("Enter edit · +/− adjust · x remove · u undo · ? keys · Esc close"))
        if self.cid in self.tracker.characters:
            self.render_rows()

    def _close_gone(self) -> None:
        if self._gone:
            return
        self._gone = True
        if self.app.screen is self:
            self.dismiss(None)

    def on_resize(self) -> None:
        if self.cid in self.tracker.characters:
            self.render_rows()

    def on_screen_resume(self) -> None:
        if self.cid not in self.tracker.characters:
            self._gone = False
            self._close_gone()
        else:
            self.render_rows()

    def rows(self) -> list[tuple[str, str, Text | str]]:
        """(row id, label, value) for every field of the character's system."""
        ch = self.ch
        t = self.tracker
        muted = "dim"
        none = Text(_("(none)"), style=muted)
        out: list[tuple[str, str, Text | str]] = [
            ("name", _("Name"), ch["name"]),
            ("player", _("Player"), ch["player"] or Text(_("(GM)"), style=muted)),
            ("kind", _("Kind"), kind_words(ch["kind"])),
            ("health", _("Health"), ch["health"] or Text(_("(nothing noted)"), style=muted)),
        ]
        system = t.system
        if system is System.RAJAPOLKU:
            effect = wound_effect_words(ch["wound"])
            out.append(("wound", _("Wound (R9)"), wound_label(ch["wound"]) + (f"  {effect}" if effect else "")))
            out.append(("charges", _("Charges (R11)"),
                        f"{pips(ch['charges'], ch['charges_max'])} {ch['charges']}/{ch['charges_max']}"))
            out.append(("charges_max", _("Charges max"), str(ch["charges_max"])))
            out.append(("story_points", _("Story pts (R12)"), str(ch["story_points"])))
            out.append(("backgrounds", _("Backgrounds"), ", ".join(ch["backgrounds"]) or none))
            for i, ab in enumerate(ch["abilities"]):
                value = (_("{ability} — {price}  paid this scene", ability=ab["name"], price=ability_text(ab))
                         if ab["name"] in ch["paid_this_scene"]
                         else _("{ability} — {price}", ability=ab["name"], price=ability_text(ab)))
                out.append((f"ability:{i}", _("Ability ✦"), value))
            out.append(("ability:new", "", Text(_("+ add an ability…"), style=muted)))
            out.append(("paid_this_scene", _("Paid this scene"), ", ".join(ch["paid_this_scene"]) or none))
        elif system is System.HARHAPOLKU:
            for i, bg in enumerate(ch["backgrounds"]):
                out.append((f"background:{i}", _("Background"),
                            f"{bg['name']} ({builtin_label(HARHA_TIER_LABELS.get(bg['tier'], bg['tier']))})"))
            out.append(("backgrounds", "", Text(_("+ edit the background list…"), style=muted)))
            for i, edge in enumerate(ch["edges"]):
                value = (_("{edge}  ○ used this session", edge=edge["name"]) if edge["used"]
                         else _("{edge}  ● available", edge=edge["name"]))
                out.append((f"edge:{i}", _("Edge (H7)"), value))
            out.append(("edges", "", Text(_("+ edit the edge list…"), style=muted)))
            out.append(("rolled_this_scene", _("Rolled (H9)"),
                        ", ".join(ch["rolled_this_scene"]) or Text(_("(none this scene)"), style=muted)))
        else:
            attrs = ch["attributes"]
            for attr in SR_ATTRIBUTES:
                out.append((f"attr:{attr}", attribute_word(attr), str(attrs[attr])))
            out.append(("skills", _("Skills"), format_skills(ch["skills"]) or none))
            out.append(("edge_rating", _("Edge rating"), str(ch["edge_rating"])))
            out.append(("edge", _("Edge (S7)"), _("{left}/{rating} this session", left=ch["edge"],
                                                    rating=ch["edge_rating"])))
            phys, stun = condition_monitors(cast(SRCharacter, ch))
            out.append(("physical", _("Physical (S12)"), f"{boxes(ch['physical'], phys)} {ch['physical']}/{phys}"))
            out.append(("stun", _("Stun (S12)"), f"{boxes(ch['stun'], stun)} {ch['stun']}/{stun}"))
        if system is System.SHADOWRUN:
            down = t.damage.condition_words(self.cid)
            if down:
                out.append(("info:down", _("Condition"), down))
            from .gear import gear_rows

            out.extend(gear_rows(t, t.characters[self.cid]))
            out.extend(initiative_rows(t, self.cid))
        group = t.roster.group_of(self.cid)
        if group is not None:
            value = (_("{group}: shared initiative (Enter switches)", group=group["name"])
                     if group["initiative"] == "shared"
                     else _("{group}: separate initiative (Enter switches)", group=group["name"]))
            out.append(("group", _("Group"), value))
        for i, pool in enumerate(ch.get("pools", [])):
            out.append((f"pool:{i}", _("Saved pool"), _("{pool}  (Enter removes)",
                                                        pool=t.roster.pool_label(system, pool))))
        out.append(("notes", _("Notes"), ch["notes"] or none))
        out.append(("secret", _("Secret"), _("yes — hidden from players") if ch["secret"] else _("no")))
        return out

    def render_rows(self) -> None:
        ch = self.ch
        kind = kind_words(ch["kind"])
        if ch["player"]:
            title = _("{name} — {kind} · played by {player}", name=ch["name"], kind=kind, player=ch["player"])
        else:
            title = _("{name} — {kind}", name=ch["name"], kind=kind)
        if self.tracker.read_only:
            title = _("{title}  (read-only)", title=title)
        self.query_one("#detail-title", Label).update(title)
        rows = self.query_one("#detail-rows", OptionList)
        keep = rows.highlighted
        width = max(40, min(76, self.size.width) - 6)
        options = []
        for rid, label, value in self.rows():
            line = Text()
            line.append(f"{label:<16}", style="bold")
            if isinstance(value, str):
                value = Text("\n".join(textwrap.wrap(value, width - 16, subsequent_indent=" " * 16)) or " ")
            line.append_text(value)
            options.append(Option(line, id=rid))
        rows.set_options(options)
        if keep is not None and options:
            rows.highlighted = min(keep, len(options) - 1)

    def highlighted_row(self) -> str | None:
        opt = self.query_one("#detail-rows", OptionList).highlighted_option
        return opt.id if opt is not None else None

    # -- running commands -------------------------------------------------------

    def run(self, cmd: Command, then: Callable[[Any], object] | None = None) -> None:
        """Ask the app to run a command; this view redraws from the TrackerChanged that follows."""
        self.app.post_message(RunCommand(cmd, origin=self, then=then))

    def set_field(self, field: str, value: Any) -> None:
        """One ``update_character`` command; the tracker records what changed as a fact, told in the log."""
        self.run(command("update_character", self.cid, field, value))

    def ask_text(self, title: str, value: str, done: Callable[[str], None], *,
                 check: Callable[[str], str | None] | None = None, hint: str = "", placeholder: str = "") -> None:
        def answered(text: str | None) -> None:
            if text is not None:
                done(text)

        self.app.push_screen(TextPrompt(escape(title), value, check=check, hint=hint, placeholder=placeholder),
                             answered)

    def ask_int(self, title: str, value: int, lo: int, hi: int, done: Callable[[int], None]) -> None:
        self.ask_text(title, str(value), lambda s: done(parse_int(s, _("value"), lo, hi)),
                      check=_checker(lambda s: parse_int(s, _("value"), lo, hi)), hint=f"{lo}–{hi}")

    def ask_choice(self, title: str, choices: Sequence[tuple[str, str]], done: Callable[[str], None]) -> None:
        def answered(value: str | None) -> None:
            if value is not None:
                done(value)

        self.app.push_screen(ChoicePrompt(escape(title), choices), answered)

    # -- editing -------------------------------------------------------------------

    @on(OptionList.OptionSelected, "#detail-rows")
    def row_chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id:
            self.edit(event.option.id)

    def edit(self, rid: str) -> None:
        """Open the editor of one row."""
        ch = self.ch
        cid = self.cid
        name = ch["name"]
        if rid == "name":
            self.ask_text(_("Name"), ch["name"], lambda s: self.set_field("name", s.strip()),
                          check=lambda s: None if s.strip() else _("a character needs a name"))
        elif rid == "player":
            self.ask_text(_("{name}: player (blank for the GM)", name=name), ch["player"],
                          lambda s: self.set_field("player", s.strip()))
        elif rid == "kind":
            self.ask_choice(_("{name} is…", name=name), [(k, kind_words(k)) for k in CHARACTER_KINDS],
                            lambda v: self.set_field("kind", v))
        elif rid == "health":
            self.ask_text(_("{name}: health (R8, free text; blank clears)", name=name), ch["health"],
                          lambda s: self.run(command("set_health", cid, s.strip())),
                          placeholder=_("e.g. black eye, limping"))
        elif rid == "notes":
            self.ask_text(_("{name}: notes", name=name), ch["notes"], lambda s: self.set_field("notes", s.strip()))
        elif rid == "secret":
            self.set_field("secret", not ch["secret"])
        elif rid == "wound":
            track = self.tracker.state["wound_track"]
            self.ask_choice(_("{name}: wound level (now {level})", name=name, level=wound_label(ch["wound"])),
                            [(lvl, wound_label(lvl) + (f" — {wound_effect_words(lvl)}" if wound_effect_words(lvl)
                                                       else ""))
                             for lvl in track],
                            lambda v: self.run(command("set_wound", cid, v)))
        elif rid == "charges":
            self.ask_int(_("{name}: charges (max {max})", name=name, max=ch["charges_max"]), ch["charges"], 0,
                         ch["charges_max"], self.set_charges)
        elif rid == "charges_max":
            self.ask_int(_("{name}: maximum charges", name=name), ch["charges_max"], 0, 99, self.set_charges_max)
        elif rid == "story_points":
            self.ask_int(_("{name}: story points", name=name), ch["story_points"], 0, 99,
                         lambda n: self.set_field("story_points", n))
        elif rid == "backgrounds" and self.tracker.system is System.RAJAPOLKU:
            self.ask_text(_("{name}: backgrounds (R2), comma-separated", name=name), ", ".join(ch["backgrounds"]),
                          lambda s: self.set_field("backgrounds", parse_names(s)))
        elif rid == "backgrounds" or rid.startswith("background:"):
            self.ask_text(_("{name}: backgrounds (H2) as Name:tier, comma-separated", name=name),
                          format_harha_backgrounds(ch["backgrounds"]),
                          lambda s: self.set_field("backgrounds", parse_harha_backgrounds(s)),
                          check=_checker(parse_harha_backgrounds),
                          hint=_("tiers: {tiers}; no tier = background", tiers=harha_tier_words()))
        elif rid.startswith("ability:"):
            self.edit_ability(rid.split(":", 1)[1])
        elif rid == "paid_this_scene":
            self.ask_text(_("{name}: abilities already paid for this scene", name=name),
                          ", ".join(ch["paid_this_scene"]),
                          lambda s: self.set_field("paid_this_scene", parse_names(s)))
        elif rid.startswith("edge:"):
            self.toggle_edge(int(rid.split(":", 1)[1]))
        elif rid == "edges":
            self.ask_text(_("{name}: edges (H7), comma-separated", name=name), ", ".join(e["name"] for e in ch["edges"]),
                          self.set_edges)
        elif rid == "rolled_this_scene":
            self.ask_text(_("{name}: backgrounds already rolled this scene (H9)", name=name),
                          ", ".join(ch["rolled_this_scene"]),
                          lambda s: self.set_field("rolled_this_scene", parse_names(s)))
        else:
            self._edit_numbers_and_gear(rid)

    def _edit_numbers_and_gear(self, rid: str) -> None:
        """The editor of a row of the attributes, skills, Edge, monitors, group, pools or gear."""
        ch = self.ch
        cid = self.cid
        name = ch["name"]
        if rid.startswith("attr:"):
            attr = rid.split(":", 1)[1]
            self.ask_int(_("{name}: {attribute}", name=name, attribute=builtin_label(attr)), ch["attributes"][attr], 1, 12,
                         lambda n: self.set_field("attributes", {**self.ch["attributes"], attr: n}))
        elif rid == "skills":
            self.ask_text(_("{name}: skills", name=name), format_skills(ch["skills"]),
                          lambda s: self.set_field("skills", parse_skills(s)), check=_checker(parse_skills),
                          placeholder=_("Pistols 4, Sneaking 3"))
        elif rid == "edge_rating":
            self.ask_int(_("{name}: Edge rating", name=name), ch["edge_rating"], 0, 9, self.set_edge_rating)
        elif rid == "edge":
            self.ask_int(_("{name}: Edge points left this session", name=name), ch["edge"], 0, ch["edge_rating"],
                         lambda n: self.set_field("edge", n))
        elif rid == "group":
            group = self.tracker.roster.group_of(cid)
            if group is not None:
                other = "separate" if group["initiative"] == "shared" else "shared"
                self.run(command("roster.set_group_initiative", group["id"], other))
        elif rid.startswith("pool:"):
            pool = ch.get("pools", [])[int(rid[5:])]
            self.run(command("roster.remove_pool", cid, pool["name"]))
        elif rid == "initiative" or rid.startswith("initiative:"):
            self._edit_initiative(rid.partition(":")[2] or "physical")
        elif rid.startswith("gear:"):
            from .gear import edit_gear

            edit_gear(self, self.tracker, self.tracker.characters[self.cid], rid)
        elif rid in ("physical", "stun"):
            size = self.tracker.condition_monitor(cid, rid)
            self.ask_int(_("{name}: stun boxes filled (of {size})", name=name, size=size) if rid == "stun"
                         else _("{name}: physical boxes filled (of {size})", name=name, size=size), ch[rid], 0, size,
                         lambda n: self.run(command("set_condition", cid, rid, n)))

    def _edit_initiative(self, kind: str) -> None:
        """An initiative row: ``+2 2`` (its bonus and passes); on the physical row ``astral +0 3`` or
        ``matrix +4 3`` adds that score; on an astral or matrix row ``none`` takes it off the sheet."""
        from ...session.table.combat import parse_initiative_line

        cid, name = self.cid, self.ch["name"]
        gone = ("none", "ei", "-")

        def check(text: str) -> str | None:
            if kind != "physical" and text.strip().lower() in gone:
                return None
            try:
                parse_initiative_line(text, kind)
            except TrackerError as e:
                return str(e)
            return None

        def done(text: str) -> None:
            if kind != "physical" and text.strip().lower() in gone:
                self.run(command("combat.remove_initiative", cid, kind))
                return
            which, bonus, passes = parse_initiative_line(text, kind)
            self.run(command("combat.set_initiative", cid, bonus, passes, kind=which))

        bonus, passes = self.tracker.combat.sheet_initiative(cid, kind)
        if kind == "physical":
            title = _("{name}: initiative bonus and passes (augmentations, e.g. wired reflexes 2: +2 2; "
                      "'astral +0 3' or 'matrix +4 3' adds that score)", name=name)
        else:
            title = _("{name}: {score} bonus and passes (+0 3; 'none' takes it off the sheet)",
                      name=name, score=_(INITIATIVE_LABELS[kind]))
        self.ask_text(title, f"+{bonus} {passes}", done, check=check, placeholder="+2 2")

    def set_charges(self, n: int) -> None:
        """Spending and regaining are logged as such (R11)."""
        cid, now = self.cid, self.ch["charges"]
        if n < now:
            self.run(command("spend_charges", cid, now - n, "set on the character sheet"))
        elif n > now:
            self.run(command("restore_charges", cid, n - now, "set on the character sheet"))

    def set_charges_max(self, n: int) -> None:
        self._set_most("charges", "charges_max", n)

    def set_edge_rating(self, n: int) -> None:
        self._set_most("edge", "edge_rating", n)

    def _set_most(self, key: str, most_key: str, n: int) -> None:
        """A new maximum (charges, Edge rating); what is left now comes down to it if it was above."""
        self.run(command("set_maximum", self.cid, key, most_key, n))

    def set_edges(self, text: str) -> None:
        used = {e["name"]: e["used"] for e in self.ch["edges"]}
        names = parse_names(text)
        self.set_field("edges", [{"name": n, "used": used.get(n, False)} for n in names])

    def toggle_edge(self, index: int) -> None:
        edges = [dict(e) for e in self.ch["edges"]]
        edges[index]["used"] = not edges[index]["used"]
        self.run(command("update_character", self.cid, "edges", edges, edge=index))

    def edit_ability(self, which: str) -> None:
        ch = self.ch
        cid = self.cid
        hint = _("e.g. 'Ape strength 1/scene', 'Hex 2/use', 'Night sight always'")
        if which == "new":
            def added(s: str) -> None:
                self.set_field("abilities", self.ch["abilities"] + [parse_ability(s)])

            self.ask_text(_("{name}: new ability (R7/R11)", name=ch["name"]), "", added, check=_checker(parse_ability),
                          hint=hint)
            return
        i = int(which)
        ab = ch["abilities"][i]
        choices: list[tuple[str, str]] = []
        if ab["per"] != "always":
            choices.append(("use", _("Use it now: pay {price}", price=ability_text(ab))))
        choices += [("edit", _("Edit name and price…")), ("remove", _("Remove the ability"))]

        def picked(action: str) -> None:
            if action == "use":
                self.run(command("use_ability", cid, ab["name"]))
            elif action == "edit":
                def edited(s: str) -> None:
                    abilities = list(self.ch["abilities"])
                    abilities[i] = parse_ability(s)
                    self.set_field("abilities", abilities)

                self.ask_text(_("{name}: ability", name=ch["name"]), format_ability(ab), edited,
                              check=_checker(parse_ability), hint=hint)
            elif action == "remove":
                self.set_field("abilities", [a for j, a in enumerate(self.ch["abilities"]) if j != i])

        self.ask_choice(_("{name}: {ability} ({price})", name=ch["name"], ability=ab["name"], price=ability_text(ab)),
                        choices, picked)

    def action_adjust(self, delta: int) -> None:
        """+/−: step the number on the highlighted row."""
        rid = self.highlighted_row()
        ch = self.ch
        cid = self.cid
        if rid == "wound":
            self.run(command("move_wound", cid, delta))
        elif rid == "charges":
            self.set_charges(max(0, ch["charges"] + delta))
        elif rid == "charges_max":
            self.set_charges_max(max(0, ch["charges_max"] + delta))
        elif rid in ("story_points", "edge"):
            self.set_field(rid, ch[rid] + delta)
        elif rid == "edge_rating":
            self.set_edge_rating(max(0, ch["edge_rating"] + delta))
        elif rid in ("physical", "stun"):
            self.run(command("set_condition", cid, rid, ch[rid] + delta))
        elif rid is not None and rid.startswith("attr:"):
            attr = rid.split(":", 1)[1]
            self.set_field("attributes", {**ch["attributes"], attr: ch["attributes"][attr] + delta})
        else:
            self.notify(_("+ and − change number rows (charges, points, boxes, attributes)"), severity="warning")

    def action_remove(self) -> None:
        ch = self.ch
        cid = self.cid

        def done(yes: bool | None) -> None:
            if yes:
                self.run(command("remove_character", cid))

        n = len(self.tracker.open_challenges_of(cid))
        question = (ngettext("Remove {name} from the campaign? They leave {n} open challenge too. (u undoes it)",
                             "Remove {name} from the campaign? They leave {n} open challenges too. (u undoes it)", n,
                             name=escape(ch["name"])) if n
                    else _("Remove {name} from the campaign? (u undoes it)", name=escape(ch["name"])))
        self.app.push_screen(ConfirmPrompt(question), done)

    def action_undo(self) -> None:
        self.run(command("undo"), lambda ev: self.notify(event_text(ev), title=_("Undone")))

    def action_redo(self) -> None:
        self.run(command("redo"), lambda ev: self.notify(event_text(ev), title=_("Redone")))

    def action_close(self) -> None:
        self._gone = True
        self.dismiss(None)

__all__ = [
    "CharacterForm", "CharacterDetail", "CycleField", "FieldError", "harha_tier_key", "harha_tier_word", "harha_tier_words",
    "parse_ability", "parse_harha_backgrounds", "parse_int", "parse_names", "parse_skills",
]
