"""What the rules allow to be done to a roll now (R5, R11, H7, H9, S3–S7, S10, S11).

One pure function, :func:`roll_actions`, answers for every kind of roll the
app offers which follow-up actions exist and whether each is allowed *now*,
with a one-line reason. The session layer asks it with the roll on the table
and the roller's resources; the screens only show the answer.

Kinds (:data:`KINDS`):

* Rajapolku: ``raja`` (a challenge), ``raja-spirit`` (an exchange of spirit combat).
* Harhapolku: ``harha`` (an opposed comparison, H3–H6, also with H8),
  ``harha-difficult`` (unopposed, H8), ``harha-narration`` (background dice
  in hand, H9).
* Varjojuoksu: ``sr-success``, ``sr-opposed`` (either side), ``sr-group``
  (the group's roll, S9), ``sr-extended`` (one interval), ``sr-teamwork-leader``,
  ``sr-teamwork-helper``, ``sr-initiative``, ``sr-resistance`` (the damage
  resistance test, Body + armour: Edge may be spent "on any test", S7, so
  before or after it, and on its glitch, like a success test). A Long Shot
  (S3) is any of these rolled as one; the roll says so (``edge_when == "long_shot"``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..i18n import N_, said
from .dice import RulesError
from .rajapolku import RajaResult, SpiritFight
from .shadowrun import ExtendedTest, SRRoll, bought_hits
from .system import Settings

if TYPE_CHECKING:
    from typing import Any

SR_KINDS = ("sr-success", "sr-opposed", "sr-group", "sr-extended", "sr-teamwork-leader",
            "sr-teamwork-helper", "sr-initiative", "sr-resistance")
HARHA_KINDS = ("harha", "harha-difficult", "harha-narration")
RAJA_KINDS = ("raja", "raja-spirit")
KINDS = RAJA_KINDS + HARHA_KINDS + SR_KINDS
"""Every kind of roll :func:`roll_actions` knows."""

SR_BEFORE = ("edge_before", "long_shot", "buy_hits")
"""S3, S4, S7: choices made before a Varjojuoksu roll."""
SR_AFTER = ("edge_after", "negate_glitch", "reduce_critical")
"""S5–S7: Edge spent on a Varjojuoksu roll already on the table."""


@dataclass(frozen=True, slots=True)
class Action:
    """One follow-up the rules know for a roll."""

    name: str
    """"edge_before", "long_shot", "buy_hits", "edge_after", "negate_glitch",
    "reduce_critical", "next_interval", "spoil", "edge_reroll", "reroll_tie",
    "next_exchange" or "end_fight"."""
    allowed: bool
    reason: str
    """What it does when allowed; why not, when refused (one line)."""
    cost: int = 0
    """Edge points (S3–S7) or edge rerolls (H7) it uses."""

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "allowed": self.allowed, "reason": self.reason, "cost": self.cost}


_OVER = {
    "done": N_("the test is over: done (S10)"),
    "spoiled": N_("the test is over: spoiled (S10)"),
    "ended by a critical glitch": N_("the test is over: ended by a critical glitch (S10)"),
}
"""The reason an extended test takes no next interval, by its status (S10)."""


def _edge_block(has_character: bool, edge_left: int, edge_rating: int) -> str | None:
    if not has_character:
        return N_("Edge needs a character (a player character or a GM's NPC with Edge) (S7)")
    if edge_rating < 1:
        return N_("this character has no Edge rating (S7)")
    if edge_left < 1:
        return N_("no Edge left this session (S12)")
    return None


def _sr_before(pool: int, has_character: bool, edge_left: int, edge_rating: int) -> list[Action]:
    block = _edge_block(has_character, edge_left, edge_rating)
    out = []
    if pool <= 0:
        out.append(Action("edge_before", False, N_("pool 0 or less: take a Long Shot instead (S3)"), 1))
        out.append(Action("long_shot", block is None,
                          block or said(N_("1 Edge: roll {n} Edge dice, rule of six, no modifiers (S3)"), n=edge_rating), 1))
        out.append(Action("buy_hits", False, N_("pool 0 or less: no hits to buy (S3, S4)")))
        return out
    out.append(Action("edge_before", block is None,
                      block or said(N_("1 Edge: +{n} dice, the whole pool follows the rule of six (S7)"), n=edge_rating),
                      1))
    out.append(Action("long_shot", False, N_("the pool has dice: a Long Shot is only for an empty pool (S3)"), 1))
    out.append(Action("buy_hits", True, said(N_("the GM's call for a large pool: {n} hits, no roll, no glitch (S4)"),
                                            n=bought_hits(pool))))
    return out


def _sr_after(roll: SRRoll, has_character: bool, edge_left: int, edge_rating: int,
              too_late: str | None) -> list[Action]:
    block = too_late or _edge_block(has_character, edge_left, edge_rating)
    out = []
    if roll.auto_failed:
        why: str | None = N_("pool 0 or less: nothing was rolled (S3)")
    elif roll.bought is not None:
        why = N_("bought hits are not rolled (S4)")
    elif roll.edge_when == "long_shot":
        why = N_("a Long Shot already is the Edge for this test's dice (S3, S7)")
    elif roll.edge_dice:
        why = (N_("Edge already added dice to this test (before the roll): one Edge point per test for dice (S7)")
               if roll.edge_when == "before" else
               N_("Edge already added dice to this test (after the roll): one Edge point per test for dice (S7)")
               if roll.edge_when == "after" else
               said(N_("Edge already added dice to this test ({when} the roll): one Edge point per test for dice (S7)"),
                    when=str(roll.edge_when)))
    else:
        why = block
    out.append(Action("edge_after", why is None,
                      why or (said(N_("1 Edge: +{n} die that follows the rule of six; the sixes on the table do not explode"
                                      " (S7)"), n=edge_rating) if edge_rating == 1 else
                              said(N_("1 Edge: +{n} dice that follow the rule of six; the sixes on the table do not "
                                      "explode (S7)"), n=edge_rating)), 1))
    if roll.critical_glitch:
        out.append(Action("negate_glitch", False, N_("Edge cannot negate a critical glitch: reduce it (S6)"), 1))
        out.append(Action("reduce_critical", block is None,
                          block or N_("1 Edge: the critical glitch becomes a plain glitch (S6)"), 1))
        return out
    if roll.critical_reduced and roll.rolled_critical:
        why = N_("no further Edge may be spent on a reduced critical glitch (S6)")
    elif roll.glitch_negated:
        why = N_("the glitch is already negated (S5)")
    elif not roll.glitch:
        why = N_("there is no glitch to negate (S5)")
    else:
        why = block
    out.append(Action("negate_glitch", why is None, why or N_("1 Edge: the glitch is negated (S5)"), 1))
    out.append(Action("reduce_critical", False, N_("there is no critical glitch to reduce (S6)"), 1))
    return out


def roll_actions(
    kind: str,
    *,
    roll: SRRoll | None = None,
    pool: int | None = None,
    has_character: bool = True,
    edge_left: int = 0,
    edge_rating: int = 0,
    extended: ExtendedTest | None = None,
    leader_rolled: bool = False,
    latest: bool = True,
    edges_unused: int = 0,
    dice_in_hand: int = 0,
    raja: RajaResult | None = None,
    fight: SpiritFight | None = None,
    settings: Settings | None = None,
) -> tuple[Action, ...]:
    """The follow-ups the rules know for a roll of ``kind``, each allowed now or not.

    Args:
        kind: one of :data:`KINDS`.
        roll: Varjojuoksu: the roll on the table for the side asking; None
            before the roll, which answers Edge before / Long Shot / buying hits.
        pool: Varjojuoksu before the roll: the pool's size (S1–S3).
        has_character: the roller is a character (PC or NPC) who may have Edge.
        edge_left, edge_rating: the roller's Edge points now and Edge rating (S7).
        extended: ``sr-extended``: the test after this interval.
        leader_rolled: ``sr-teamwork-helper``: the leader has rolled, so the
            helper's hits are spent and its roll can no longer change (S11).
        latest: the roll is the latest of its test (an extended interval, an
            exchange): earlier ones are history.
        edges_unused: Harhapolku: the character's unused edges that help here (H7).
        dice_in_hand: ``harha-narration``: the participant's rolled dice in hand (H9).
        raja: ``raja``: the challenge's result (a tie may be rerolled, R5).
        fight: ``raja-spirit``: the fight after this exchange (R11).
        settings: campaign settings (defaults when None).

    Raises:
        RulesError: an unknown kind, or a Varjojuoksu question without a roll or pool.
    """
    settings = settings or Settings()
    if kind not in KINDS:
        raise RulesError(said(N_("unknown kind of roll '{kind}' (use one of: {KINDS})"), kind=str(kind), KINDS=str(', '.join(KINDS))))
    if kind in SR_KINDS:
        if roll is None:
            if pool is None:
                raise RulesError(said(N_("give the roll, or the pool before the roll")))
            return tuple(_sr_before(pool, has_character, edge_left, edge_rating))
        too_late = None
        if not latest:
            too_late = N_("only the latest roll of a test can take Edge")
        elif kind == "sr-teamwork-helper" and leader_rolled:
            too_late = N_("the leader has rolled: the helper's hits are already spent (S11)")
        elif kind == "sr-extended" and extended is not None and extended.spoiled:
            too_late = N_("the GM ruled the test spoiled (S10)")
        out = _sr_after(roll, has_character, edge_left, edge_rating, too_late)
        if kind == "sr-extended":
            if extended is None:
                raise RulesError(said(N_("an extended interval needs the test's state (S10)")))
            if extended.over:
                out.append(Action("next_interval", False, _OVER.get(extended.status)
                                  or said(N_("the test is over: {status} (S10)"), status=extended.status)))
            else:
                out.append(Action("next_interval", True,
                                  said(N_("roll the next interval: {accumulated}/{threshold} so far (S10)"),
                                       accumulated=extended.accumulated, threshold=extended.threshold)))
            can_spoil = extended.glitched and not extended.over
            out.append(Action("spoil", can_spoil,
                              N_("the GM rules the glitch spoils the test (S10)") if can_spoil
                              else N_("only a glitch on the latest interval can spoil the test (S10)")))
        return tuple(out)
    if kind in HARHA_KINDS:
        if kind == "harha-narration" and dice_in_hand < 1:
            return (Action("edge_reroll", False, N_("no rolled dice in hand to reroll (H7, H9)"), 1),)
        if not has_character:
            return (Action("edge_reroll", False, N_("only a character's edges give rerolls (H7)"), 1),)
        if edges_unused < 1:
            return (Action("edge_reroll", False, N_("no unused edge that helps here this session (H7)"), 1),)
        if not latest:
            return (Action("edge_reroll", False, N_("only the latest roll can be rerolled (H7)"), 1),)
        return (Action("edge_reroll", True, N_("throw the whole roll again with an edge, once per edge per session (H7)"),
                       1),)
    if kind == "raja":
        tie = raja is not None and raja.winner == "tie" and settings.raja_full_tie == "reroll"
        return (Action("reroll_tie", tie, N_("identical rolls: both sides reroll (R5, raja.full_tie)") if tie
                       else N_("only a full tie is rerolled (R5, raja.full_tie = reroll)")),)
    if fight is None:
        raise RulesError(said(N_("a spirit-combat exchange needs the fight's state (R11)")))
    if fight.over:
        return (Action("next_exchange", False, N_("the fight is over: the GM ended the fight (R11)") if fight.ended_by_gm
                       else N_("the fight is over: a side has no charges left (R11)")),
                Action("end_fight", False, N_("the fight is already over (R11)")))
    return (Action("next_exchange", True,
                   said(N_("roll the charges left: {a} vs {b} dice, no new entry charge (R11)"),
                        a=fight.a_charges, b=fight.b_charges)),
            Action("end_fight", True, N_("a side withdraws: the GM ends the fight (R11)")))


def allowed(actions: tuple[Action, ...]) -> tuple[str, ...]:
    """The names of the actions allowed now."""
    return tuple(a.name for a in actions if a.allowed)
