"""What the roll commands of all three systems share: the dice a roll is thrown with (the
program's seeded dice or faces the GM entered), the ``roll`` event every roll appends, the
settings it keeps, and "what can be done to this roll now" (:class:`RollAction`), answered by
the system whose roll it is (the table :attr:`RollsBase.actions_of`, filled by each system's
class, never a test name compared here beyond :func:`logged_system`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypedDict, cast, overload

from ...i18n import N_, _, said
from ...rules import harhapolku as harha
from ...rules.dice import DiceSource, Die, DieSpec, ManualSource, RulesError, roll_specs
from ...rules.explain import step_of
from ...rules.system import CHOICE_BY_KEY, Settings
from ...text import plural
from ..host import TrackerError
from ..model import Event, roll_of
from ..records import DieTable, RollTable

if TYPE_CHECKING:
    from ...rules.actions import Action as RulesAction
    from ..host import RollHost, Txn


def die_dict(d: Die) -> DieTable:
    out: DieTable = {"size": d.size, "face": d.face, "source": str(d.source)}
    if d.label:
        out["label"] = d.label
    if d.replaced:
        out["replaced"] = list(d.replaced)
    return out


def die_from(d: DieTable) -> Die:
    return Die(d["size"], d["face"], d.get("source", "die"), d.get("label", ""), tuple(d.get("replaced", ())))


def explain_steps(lines: Sequence[str]) -> list[dict[str, object]]:
    """The facts of a roll's explanation lines (``rules.explain``): each line's step, ``{}`` for a plain line."""
    return [toml_safe(step_of(x) or {}) for x in lines]


@overload
def toml_safe(value: Mapping[str, object]) -> dict[str, object]: ...


@overload
def toml_safe(value: object) -> object: ...


def toml_safe(value: object) -> object:
    """Drop None (TOML has no null) and stringify odd keys, recursively."""
    if isinstance(value, dict):
        return {str(k): toml_safe(v) for k, v in cast("dict[object, object]", value).items() if v is not None}
    if isinstance(value, (list, tuple)):
        return [toml_safe(v) for v in cast("Sequence[object]", value) if v is not None]
    if isinstance(value, (frozenset, set)):
        # A set in a roll's record holds names or numbers, which sort.
        return sorted(cast("frozenset[str]", value))
    return value


class Rolled(TypedDict, total=False):
    """What a roll command returns, filled in by the command it ran (``event`` always): the roll's event.
    Each system's commands add what the rules core made of it (:class:`.harhapolku.HarhaRolled`…)."""

    event: Event


@dataclass(frozen=True, slots=True)
class RollAction:
    """One thing that can be done to a roll now (or why not), for one side of it.

    The session layer's answer to "what can be done to this roll now"; the
    rules core decides (:func:`polku.rules.actions.roll_actions`).
    """

    name: str
    """"edge_after", "negate_glitch", "reduce_critical", "next_interval", "spoil",
    "edge_reroll", "reroll_tie", "next_exchange", "end_fight" (after a roll);
    "edge_before", "long_shot", "buy_hits" (before it)."""
    allowed: bool
    reason: str
    """What it does, or why it cannot be done now: one line for the GM."""
    cost: int = 0
    role: str = "a"
    """Which side of the roll: "a", "b", "helper:0"…"""
    who: str = ""
    """The character who would pay (Edge, an edge), or ""."""
    label: str = ""
    edge: str = ""
    """Harhapolku: the edge an ``edge_reroll`` would use."""

    @classmethod
    def of(cls, action: RulesAction, role: str, who: str, label: str) -> "RollAction":
        return cls(action.name, action.allowed, action.reason, action.cost, role, who, label)


class RollsBase:
    """What every system's roll commands use: ``self.tracker`` (the :class:`RollHost`), the dice, the event.

    Each command runs as one tracker command (``tracker.run``), so it is
    logged and undone like any other.
    """

    def __init__(self, tracker: RollHost) -> None:
        self.tracker = tracker
        self.actions_of: dict[str | None, ActionsOf] = {}
        """What may follow a roll, by the system of its logged test (:func:`logged_system`)."""
        self.doers: dict[str, DoAction] = {}
        """Who carries out an action of :meth:`roll_actions`, by its name; one missing is done by rolling again."""

    def dice_source(self, faces: Sequence[int] | None) -> tuple[DiceSource, dict[str, object]]:
        if faces is not None:
            return ManualSource(list(faces)), {"manual": True}
        return self.tracker.program_source()

    def _roll_two(self, specs_a: Sequence[DieSpec], specs_b: Sequence[DieSpec],
                  faces: tuple[Sequence[int] | None, Sequence[int] | None] | None
                  ) -> tuple[tuple[Die, ...], tuple[Die, ...], dict[str, object]]:
        """Roll both sides' pools: one seeded source, or each side's entered faces (checked, all used).

        A side whose faces are None is thrown with the program's dice while the
        other side's faces were entered by hand (a player's seat types its own
        dice; the GM's opposition is the program's). The log then says which
        sides were entered by hand (``hand``), so the program's dice of the
        other side can still be checked (``polku verify``).
        """
        if faces is not None:
            fa, fb = faces
            if fa is not None and fb is not None:
                src_a, origin = self.dice_source(fa)
                src_b, _ = self.dice_source(fb)
            else:
                program, origin = self.dice_source(None)
                src_a = ManualSource(list(fa)) if fa is not None else program
                src_b = ManualSource(list(fb)) if fb is not None else program
                hand = [role for role, f in (("a", fa), ("b", fb)) if f is not None]
                if hand:
                    origin.update(manual=True, hand=hand)
            dice_a, dice_b = roll_specs(specs_a, src_a), roll_specs(specs_b, src_b)
            self.check_faces_used(src_a)
            self.check_faces_used(src_b)
            return dice_a, dice_b, origin
        src, origin = self.dice_source(None)
        return roll_specs(specs_a, src), roll_specs(specs_b, src), origin

    def emit_roll(self, txn: "Txn", test: str, sides: list[dict[str, object]], summary: str,
                  outcome: Mapping[str, object], explain: list[str], origin: dict[str, object],
                  challenge: str | None, text: str, resolved_with: Settings | None = None,
                  fact: Mapping[str, object] | None = None, **extra: object) -> Event:
        """Emit the roll; ``resolved_with``: the settings it was resolved with when not the campaign's
        (a Harhapolku roll's own comparison, :meth:`settings_for`). ``settings`` in ``extra`` replaces the
        kept settings (a damage resistance roll keeps its own). ``fact``: what the roll came to, language-neutral
        (:mod:`polku.session.telling` tells it in the reader's language); ``text`` and ``summary`` are its English
        words, kept for older readers."""
        roll: dict[str, object] = {"test": test, "sides": sides, "summary": summary, "outcome": toml_safe(outcome),
                                   "explain": [str(x) for x in explain], "steps": explain_steps(explain), **origin}
        used = self.roll_settings(test, resolved_with or self.tracker.settings)
        if used:
            roll["settings"] = used
        roll.update({k: toml_safe(v) for k, v in extra.items() if v is not None})
        who = sorted({w for s in sides for w in cast("list[str]", s.get("who", []))})
        return txn.emit("roll", text, roll=roll, who=who, challenge=challenge,
                        fact=toml_safe(fact) if fact is not None else None)

    def settings_for(self, variant: str | None = None) -> Settings:
        """The settings a roll is made with, whole: the campaign's, with a Harhapolku roll's own
        comparison (``v`` on the roll screen, H3–H6) as ``harha.variant``. The roll is resolved by
        them and keeps them; its odds (:mod:`polku.session.odds`) are asked with them."""
        settings = self.tracker.settings
        return settings if variant is None else settings.with_value("harha.variant", harha.check_variant(variant or settings.harha_variant))

    @staticmethod
    def roll_settings(test: str, settings: Settings) -> dict[str, bool | int | str]:
        """The [choice] settings a roll of ``test`` is resolved with, to keep in its log entry."""
        if test == "harhapolku-classic":
            keys: tuple[str, ...] = ("harha.variant", "harha.classic_extra")
        elif test == "harhapolku-sum":
            keys = ("harha.variant", "harha.sum_difficult")
        else:
            keys = next((k for prefix, k in _ROLL_SETTINGS if test.startswith(prefix)), ())
        values = settings.to_dotted()
        return {k: values[k] for k in keys if k in values}

    def _resolve_challenge_in(self, txn: "Txn", challenge: str | None, outcome: str,
                              fact: dict[str, object] | None = None) -> None:
        if challenge:
            self.tracker.resolve_challenge_in(txn, challenge, outcome, fact)

    def _refuse(self, message: str) -> Exception:
        """A command refused before it starts: the same one-line TrackerError as inside ``run``."""
        return TrackerError(message)

    def check_faces_used(self, source: DiceSource) -> None:
        if isinstance(source, ManualSource) and source.remaining:
            raise RulesError(said(N_("{remaining} more than the pool has dice; check what you entered"), remaining=str(plural(source.remaining, 'face'))))

    def effect_dice(self, who: Sequence[str], off: Sequence[str] = ()) -> list[tuple[str, int]]:
        """``(label, dice)`` of the effects of the side's character that change pools, without those
        turned off: the pool builder's effect rows, each on by default."""
        cid = who[0] if who else ""
        if not cid or cid not in self.tracker.characters:
            return []
        return [m for m in self.tracker.combat.effect_modifiers(cid) if m[0] not in off]

    # -- what can be done to a roll now -------------------------------------------------

    def latest_roll_seq(self) -> int | None:
        for i in range(len(self.tracker.events) - 1, -1, -1):
            ev = self.tracker.events[i]
            if ev.get("kind") == "roll" and not self.tracker.is_undone(ev["seq"]):
                return int(ev["seq"])
        return None

    def roll_actions(self, roll_event: Event | None) -> list[RollAction]:
        """Everything that can be done to this roll now, for each side, allowed or not with a reason.

        Varjojuoksu: Edge after the roll, negating a glitch, reducing a critical glitch
        (S5–S7) for each side that rolled, plus the next interval and spoiling for an
        extended test (S10). Harhapolku: an edge reroll per unused edge of each side
        (H7). Rajapolku: rerolling a full tie (R5), the next exchange or the end of a
        spirit combat (R11). The answers come from :func:`polku.rules.actions.roll_actions`,
        asked by the system whose roll it is (:attr:`actions_of`).
        """
        if not roll_event or roll_event.get("kind") != "roll":
            return []
        roll = roll_of(roll_event)
        answer = self.actions_of.get(logged_system(str(roll.get("test", ""))))
        if answer is None:
            return []
        return answer(roll_event, roll, roll_event["seq"] == self.latest_roll_seq())

    def do_roll_action(self, roll_event: Event, name: str, *, role: str = "a",
                       edge: str = "", faces: Sequence[int] | None = None) -> Rolled:
        """Carry out one of :meth:`roll_actions` (refused in one line when not allowed now), by the
        system that offers it (:attr:`doers`)."""
        acts = [a for a in self.roll_actions(roll_event) if a.name == name and a.role == role
                and (not edge or a.edge == edge)]
        if not acts:
            raise self._refuse(f"'{name}' cannot be done to this roll")
        act = next((a for a in acts if a.allowed), acts[0])
        if not act.allowed:
            raise self._refuse(act.reason)
        do = self.doers.get(name)
        if do is None:
            raise self._refuse(f"'{name}' is done by rolling again (r)")
        return do(roll_event, act, faces)


def logged_system(test: str) -> str | None:
    """Whose rules say what may follow a logged roll of ``test`` (its ``roll.test``): "shadowrun",
    "harhapolku", "rajapolku", "spirit", or None (an initiative roll, a narration step, a damage
    resistance roll: nothing follows them). The one place a roll's logged name picks its system; the
    system's class answers from there (:attr:`RollsBase.actions_of`)."""
    if test.startswith("shadowrun") and test != "shadowrun-initiative":
        return "shadowrun"
    if test.startswith("harhapolku") and test != "harhapolku-narration":
        return "harhapolku"
    return test if test in ("rajapolku", "spirit") else None


ActionsOf = Callable[[Event, RollTable, bool], list[RollAction]]
"""A system's answer to :meth:`RollsBase.roll_actions`: (the roll's event, its ``roll`` table, whether it is
the latest roll) → what can be done to it now."""
DoAction = Callable[[Event, RollAction, "Sequence[int] | None"], Rolled]
"""A system carrying out one :class:`RollAction` it offered: (the roll's event, the action, faces entered)."""


_ROLL_SETTINGS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("rajapolku", ("raja.exhausted", "raja.full_tie", "raja.degrees", "raja.wound_penalty")),
    ("spirit", ("raja.exhausted", "raja.full_tie", "raja.degrees", "raja.spirit_loss", "raja.spirit_wounds",
                "raja.wound_penalty")),
    ("harhapolku-difficult", ()),
    ("harhapolku", ("harha.variant",)),
    ("shadowrun-teamwork", ("sr.glitch_rerolls", "sr.teamwork_cap")),
    ("damage-resistance", ("sr.glitch_rerolls", "sr.stun_conversion", "sr.stun_overflow")),
    ("shadowrun", ("sr.glitch_rerolls",)),
)
"""Which settings each kind of roll depends on (by test name prefix, first match)."""


def roll_settings(roll: Mapping[str, object], campaign: Settings) -> Settings:
    """The settings a logged roll was made with, whole: the ones it kept (:meth:`RollsBase.roll_settings`),
    the defaults for the rest (a setting it did not keep did not bear on it, or did not exist yet).

    A roll that kept none (a file older than that, or a roll no setting bears on) is judged by
    ``campaign``, the campaign's settings now: the best left to know.
    """
    kept = roll.get("settings")
    if not isinstance(kept, Mapping) or not kept:
        return campaign
    try:
        return Settings.from_dotted({k: v for k, v in cast("Mapping[str, object]", kept).items() if k in CHOICE_BY_KEY})
    except RulesError:
        return campaign



def settings_text(used: Mapping[str, object]) -> str:
    """``raja.exhausted = yes, raja.full_tie = reroll``: a roll's settings as one line."""
    return ", ".join(f"{k} = {_('yes') if v is True else _('no') if v is False else v}" for k, v in used.items())
