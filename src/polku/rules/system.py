"""The three systems and every **[choice]** of docs/rules.md as a named setting.

A campaign stores its settings by their dotted names (``raja.exhausted``);
:data:`CHOICES` describes each one (default, allowed values, the rule it
belongs to) so the app can show them all when a campaign is created.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import TYPE_CHECKING

from ..i18n import N_, said
from .dice import RulesError

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any


class System(StrEnum):
    RAJAPOLKU = "rajapolku"
    HARHAPOLKU = "harhapolku"
    SHADOWRUN = "shadowrun"

    @property
    def display_name(self) -> str:
        """The system's name as shown to the GM (``title`` would hide ``str.title``)."""
        return {
            "rajapolku": "Rajapolku",
            "harhapolku": "Harhapolku",
            "shadowrun": "Varjojuoksu (Shadowrun 4e)",
        }[self.value]


SYSTEM_ALIASES = {
    "rajapolku": System.RAJAPOLKU,
    "raja": System.RAJAPOLKU,
    "harhapolku": System.HARHAPOLKU,
    "harha": System.HARHAPOLKU,
    "shadowrun": System.SHADOWRUN,
    "varjojuoksu": System.SHADOWRUN,
    "sr": System.SHADOWRUN,
    "sr4": System.SHADOWRUN,
}


def parse_system(name: str) -> System:
    try:
        return SYSTEM_ALIASES[name.strip().lower()]
    except (KeyError, AttributeError):
        raise RulesError(
            said(N_("unknown system '{name}' (use rajapolku, harhapolku or shadowrun)"), name=str(name))
        ) from None


SettingValue = bool | int | str
"""The value of a [choice] setting: yes or no, a whole number, or one of its words."""


@dataclass(frozen=True, slots=True)
class Choice:
    """One [choice] of docs/rules.md."""

    key: str
    """Dotted name, e.g. ``raja.exhausted``."""
    attr: str
    """Attribute on :class:`Settings`."""
    rule: str
    default: SettingValue
    allowed: tuple[SettingValue, ...] | None
    """Allowed values, or None for an int range given by ``bounds``."""
    label: str
    bounds: tuple[int, int] | None = None


CHOICES: tuple[Choice, ...] = (
    Choice("raja.exhausted", "raja_exhausted", "R5", True, (True, False),
           "Equal so far and one side runs out of dice: the side with dice left wins"),
    Choice("raja.full_tie", "raja_full_tie", "R5", "reroll", ("reroll", "defender"),
           "Identical rolls: both reroll, or the defender / status quo holds"),
    Choice("raja.wound_penalty", "raja_wound_penalty", "R9", "remove", ("remove", "oppose"),
           "Wound penalty: remove dice from the wounded, or add dice to the opposition"),
    Choice("raja.spirit_loss", "raja_spirit_loss", "R11", "degrees", ("degrees", "one"),
           "Spirit combat: the loser loses charges equal to the winner's degrees (min 1), or 1"),
    Choice("raja.story_points", "raja_story_points", "R12", 3, None,
           "Story points given at the start of each story", (0, 20)),
    Choice("raja.default_charges", "raja_default_charges", "R11", 5, None,
           "Charges of a player character or important NPC", (0, 30)),
    Choice("raja.degrees", "raja_degrees", "R6", "all", ("all", "beyond"),
           "Degrees: every winner die above the loser's highest, or only those beyond the deciding die"),
    Choice("raja.spirit_wounds", "raja_spirit_wounds", "R11", True, (True, False),
           "Spirit combat: wound penalties (R9) count against the charges rolled (at least 1 die stays)"),
    Choice("harha.variant", "harha_variant", "H3/H4", "ch23", ("ch23", "classic", "same_size", "sum"),
           "Comparison: chapter 23 (default), classic, same-size dice, or sum"),
    Choice("harha.classic_extra", "harha_classic_extra", "H3", True, (True, False),
           "Classic comparison: a die facing no die counts for its side"),
    Choice("harha.sum_difficult", "harha_sum_difficult", "H8", "one_die", ("one_die", "refuse"),
           "Sum variant: a difficult action needs its one die to show 7+, or is not offered"),
    Choice("sr.glitch_rerolls", "sr_glitch_rerolls", "S5", True, (True, False),
           "Dice added by the rule of six count toward glitches"),
    Choice("sr.teamwork_cap", "sr_teamwork_cap", "S11", "none", ("none", "skill"),
           "Teamwork: no limit on the leader's extra dice, or at most the leader's skill rating"),
    Choice("sr.stun_conversion", "sr_stun_conversion", "S12", "below", ("below", "not_above", "never"),
           "Physical damage becomes stun when its DV is below the armour, not above it, or never"),
    Choice("sr.stun_overflow", "sr_stun_overflow", "S12", "box", ("box", "half"),
           "Stun beyond a full monitor: 1 physical box per box (4th edition), or per 2 boxes"),
    Choice("sr.initiative", "sr_initiative", "S12", "reroll", ("reroll", "keep"),
           "Each new combat turn: reroll initiative, or keep the scores"),
    Choice("seats.own_rolls", "seats_own_rolls", "seats", "at_once", ("at_once", "approve"),
           "A player's own roll from a seat: applied at once, or after the GM's approval (A)"),
)

CHOICE_BY_KEY = {c.key: c for c in CHOICES}

RAJA_WOUND_LEVELS = (
    "Healthy", "Bruised", "Wounded", "Badly wounded", "Mortally wounded", "Out of play", "Dead",
)
"""R9: every level the source lists, in order."""

RAJA_WOUND_PENALTY = {
    "Healthy": 0, "Bruised": 0, "Wounded": 1, "Badly wounded": 2,
    "Mortally wounded": 3, "Out of play": 3, "Dead": 3,
}

RAJA_WOUND_NAMES = {
    "Healthy": ("Terve",),
    "Bruised": ("Mustelmilla", "Ruhjeilla", "Mustelmilla/Ruhjeilla"),
    "Wounded": ("Haavoittunut",),
    "Badly wounded": ("Pahasti haavoittunut",),
    "Mortally wounded": ("Kuolettavasti haavoittunut",),
    "Out of play": ("Poissa pelistä",),
    "Dead": ("Kuollut",),
}
"""R9: each level's other names, the rule text's own (Finnish). A campaign's wound track may name a
level by any of them: the level (its place in R9's list) gives the effect, the name is a label,
shown as the campaign writes it."""


def raja_wound_level(name: object) -> str | None:
    """R9: the level a wound track entry names, by its English or its rule-text name (any case and
    spacing): ``"terve"`` → ``"Healthy"``, ``"Pahasti  haavoittunut"`` → ``"Badly wounded"``; else None."""
    if not isinstance(name, str):
        return None
    wanted = " ".join(name.split()).casefold()
    for level in RAJA_WOUND_LEVELS:
        if wanted == level.casefold() or any(wanted == other.casefold() for other in RAJA_WOUND_NAMES[level]):
            return level
    return None


RAJA_WOUND_CARE = {
    "Badly wounded": "worsens without hospital care",
    "Mortally wounded": "dies without hospital care",
    "Out of play": "mortally wounded and unconscious: dies without hospital care",
}
"""R9: what a level does beyond its dice, for the GM to act on."""


def raja_wound_effect(level: str) -> str:
    """R9: a level's effect in words: its dice and what happens without care (``""`` for none).

    ``Badly wounded`` → ``−2 dice, worsens without hospital care``.
    """
    level = raja_wound_level(level) or level
    pen = RAJA_WOUND_PENALTY.get(level, 0)
    parts = [f"−{pen} {'die' if pen == 1 else 'dice'}"] if pen and level != "Dead" else []
    if level in RAJA_WOUND_CARE:
        parts.append(RAJA_WOUND_CARE[level])
    return ", ".join(parts)


@dataclass(frozen=True, slots=True)
class Settings:
    """Every [choice] of docs/rules.md with the default given there."""

    raja_exhausted: bool = True
    raja_full_tie: str = "reroll"
    raja_degrees: str = "all"
    raja_wound_penalty: str = "remove"
    raja_spirit_loss: str = "degrees"
    raja_spirit_wounds: bool = True
    raja_story_points: int = 3
    raja_default_charges: int = 5
    harha_variant: str = "ch23"
    harha_classic_extra: bool = True
    harha_sum_difficult: str = "one_die"
    sr_glitch_rerolls: bool = True
    sr_teamwork_cap: str = "none"
    sr_stun_conversion: str = "below"
    sr_stun_overflow: str = "box"
    sr_initiative: str = "reroll"
    seats_own_rolls: str = "at_once"

    def to_dotted(self) -> dict[str, SettingValue]:
        values: dict[str, SettingValue] = {c.key: getattr(self, c.attr) for c in CHOICES}
        return values

    @classmethod
    def from_dotted(cls, data: Mapping[str, object]) -> "Settings":
        """Build settings from dotted keys, validating each value.

        Raises:
            RulesError: naming the key and what is wrong.
        """
        values: dict[str, Any] = {}  # by attribute: each checked for its choice (the fields' types differ)
        for key, value in data.items():
            choice = CHOICE_BY_KEY.get(key)
            if choice is None:
                raise RulesError(said(N_("unknown setting '{key}'"), key=str(key)))
            values[choice.attr] = validate_choice(choice, value)
        return cls(**values)

    def with_value(self, key: str, value: object) -> "Settings":
        choice = CHOICE_BY_KEY.get(key)
        if choice is None:
            raise RulesError(said(N_("unknown setting '{key}'"), key=str(key)))
        checked: dict[str, Any] = {choice.attr: validate_choice(choice, value)}  # the field's own type, checked
        return replace(self, **checked)


def choices_for(system: System | str | None = None) -> tuple[Choice, ...]:
    """The [choice] settings of one system (by its key prefix), or all of them."""
    if system is None:
        return CHOICES
    prefix = {"rajapolku": "raja.", "harhapolku": "harha.", "shadowrun": "sr."}[System(system).value]
    return tuple(c for c in CHOICES if c.key.startswith(prefix))


SHARED_PREFIX = "seats."
"""The settings of every system: how the table plays, not a rule of its dice (the players' seats)."""


def campaign_choices(system: System | str) -> tuple[Choice, ...]:
    """A campaign's settings: its system's [choice] settings, then the shared ones."""
    return choices_for(system) + tuple(c for c in CHOICES if c.key.startswith(SHARED_PREFIX))


def allowed_text(choice: Choice) -> str:
    """The values a setting takes, as a user would write them: ``"true, false"``, ``"0–20"``."""
    if choice.allowed is None:
        lo, hi = choice.bounds or (0, 10**6)
        return said(N_("a whole number {lo}–{hi}"), lo=lo, hi=hi)  # a Said: told again in the reader's language
    return ", ".join(str(v).lower() if isinstance(v, bool) else str(v) for v in choice.allowed)


def parse_setting(text: str) -> tuple[str, SettingValue]:
    """Parse ``KEY=VALUE`` as typed on a command line into a checked ``(key, value)``.

    ``true``/``false`` (also yes/no, on/off, 1/0) for a yes-or-no setting, a
    whole number for a counted one, else one of the allowed words.

    Raises:
        RulesError: one line naming the valid keys, or the valid values of the key.
    """
    key, sep, raw = str(text).partition("=")
    key, raw = key.strip().lower(), raw.strip()
    choice = CHOICE_BY_KEY.get(key)
    if not sep or choice is None:
        keys = ", ".join(c.key for c in CHOICES)
        if sep:
            raise RulesError(said(N_("unknown setting '{key}' (valid settings: {keys})"), key=key, keys=keys))
        raise RulesError(said(N_("'{text}' is not KEY=VALUE (valid settings: {keys})"), text=str(text), keys=keys))
    value: SettingValue
    low = raw.lower()
    if isinstance(choice.default, bool):
        truth = {"true": True, "yes": True, "on": True, "1": True,
                 "false": False, "no": False, "off": False, "0": False}
        if low not in truth:
            raise RulesError(said(N_("setting '{key}' must be one of {choice}, not '{raw}'"), key=str(key), choice=str(allowed_text(choice)), raw=str(raw)))
        value = truth[low]
    elif choice.allowed is None:
        if not raw.isascii() or not raw.lstrip("+-").isdigit():
            raise RulesError(said(N_("setting '{key}' must be {choice}, not '{raw}'"), key=str(key), choice=allowed_text(choice), raw=str(raw)))
        value = int(raw, 10)
    else:
        if low not in choice.allowed:
            raise RulesError(said(N_("setting '{key}' must be one of {choice}, not '{raw}'"), key=str(key), choice=str(allowed_text(choice)), raw=str(raw)))
        value = low
    return key, validate_choice(choice, value)


def validate_choice(choice: Choice, value: object) -> SettingValue:
    if choice.allowed is not None:
        if isinstance(choice.default, bool):
            if not isinstance(value, bool):
                raise RulesError(said(N_("setting '{key}' must be true or false, not {value}"), key=str(choice.key), value=repr(value)))
            return value
        allowed = next((a for a in choice.allowed if a == value), None)
        if allowed is None:
            opts = ", ".join(str(a) for a in choice.allowed)
            raise RulesError(said(N_("setting '{key}' must be one of {opts}, not {value}"), key=str(choice.key), opts=str(opts), value=repr(value)))
        return value if isinstance(value, (bool, int, str)) else allowed
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(said(N_("setting '{key}' must be a whole number, not {value}"), key=str(choice.key), value=repr(value)))
    lo, hi = choice.bounds or (0, 10**6)
    if not lo <= value <= hi:
        raise RulesError(said(N_("setting '{key}' must be between {lo} and {hi}, not {value}"), key=str(choice.key), lo=str(lo), hi=str(hi), value=str(value)))
    return value

