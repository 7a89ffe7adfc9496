"""The odds every consumer shows: one question, the settings whole, one answer.

A roll screen, a player's seat, ``polku odds`` and the review all describe the
test they mean as a question (the dice each side throws, the test's own facts:
a threshold, the helpers, an edge reroll's faces on the table) and ask
:func:`answer` with the one :class:`~polku.rules.system.Settings` value: the
campaign's for a roll still to be made, the roll's own stored settings
(:func:`polku.session.review.stats.roll_settings`) for a roll in the log. So a
setting reaches every consumer through this one door, and the numbers a
screen shows before a roll are the numbers the review judges it by.

The rules core (:mod:`polku.rules.odds`) computes; this module only chooses
which of its functions a question needs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..rules import odds as core
from ..rules.harhapolku import difficult_notice
from ..rules.odds import HarhaDifficultOdds, HarhaOdds, RajaOdds, SRExtendedOdds, SROdds, SROpposedOdds

if TYPE_CHECKING:
    from ..rules.system import Settings

RajaCounts = tuple[int, int]
"""A Rajapolku pool as ``(normal dice, ability dice)`` (R2–R7)."""
HarhaCounts = tuple[int, int]
"""A Harhapolku pool as ``(d8, d10)`` (H2); under the sum variant the dice it would have had (H6)."""


@dataclass(frozen=True, slots=True)
class RajaQuestion:
    """A Rajapolku challenge (R5–R7), or one exchange of a spirit combat (R11: the charges left as normal dice)."""

    a: RajaCounts
    b: RajaCounts
    degrees: bool = True
    """Also the degree distributions (R6, R7); the review needs only who wins."""


@dataclass(frozen=True, slots=True)
class SpiritFightQuestion:
    """A spirit combat fought to the end (R11), from the charges left after the entry charge."""

    a_left: int
    b_left: int
    a_penalty: int = 0
    """A's R9 wound penalty in dice (``raja.spirit_wounds`` says whether and how it counts)."""
    b_penalty: int = 0


@dataclass(frozen=True, slots=True)
class HarhaQuestion:
    """A Harhapolku roll: opposed (H3–H6), with H8's ``demand`` on the actor A, or unopposed
    (``b`` None: a difficult or very demanding action, H8)."""

    a: HarhaCounts
    b: HarhaCounts | None
    demand: str = ""
    """"", "difficult" or "very_demanding" (H8)."""


@dataclass(frozen=True, slots=True)
class HarhaRerollQuestion:
    """An opposed Harhapolku roll after ``side`` threw its whole roll again with an edge (H7):
    the other side's ``fixed`` faces stay on the table."""

    a: HarhaCounts
    b: HarhaCounts
    fixed: tuple[int, ...]
    side: str
    demand: str = ""


@dataclass(frozen=True, slots=True)
class SRQuestion:
    """A Varjojuoksu test (S4–S11) as the dice it throws.

    ``test``: "success" (S8; also one side of an opposed roll for its hits),
    "opposed" (S9: A's ``dice`` against the defender's ``b_dice``), "teamwork"
    (S11: the leader's ``dice`` and the ``helpers``' pools) or "extended" (S10:
    ``threshold`` hits to go, ``intervals`` followed).
    """

    dice: int
    test: str = "success"
    rule_of_six: bool = False
    """Edge before the roll or a Long Shot: every die follows the rule of six (S3, S7)."""
    b_dice: int = 0
    b_rule_of_six: bool = False
    helpers: tuple[int, ...] = ()
    leader_skill: int | None = None
    threshold: int = 1
    hurried: bool = False
    intervals: int = 40
    progress: int = 0
    """Extended: hits already accumulated (S10)."""


Question = RajaQuestion | SpiritFightQuestion | HarhaQuestion | HarhaRerollQuestion | SRQuestion
Answer = (core.RajaOdds | core.SpiritFightOdds | core.HarhaOdds | core.HarhaDifficultOdds | float
          | core.SROdds | core.SROpposedOdds | core.SRExtendedOdds)


def answer(question: Question, settings: Settings) -> Answer:
    """The exact odds of ``question`` under ``settings`` (whole), from the rules core.

    Raises:
        RulesError: a pool or fact the rules do not allow (one line).
    """
    if isinstance(question, RajaQuestion):
        return core.raja_odds(*question.a, *question.b, settings, degrees=question.degrees)
    if isinstance(question, SpiritFightQuestion):
        return core.spirit_fight_odds(question.a_left, question.b_left, settings,
                                      a_penalty=question.a_penalty, b_penalty=question.b_penalty)
    if isinstance(question, (HarhaQuestion, HarhaRerollQuestion)) and question.demand:
        # H8 under the sum variant as the campaign reads it (harha.sum_difficult): refused, or one die
        difficult_notice(settings.harha_variant, 2 if question.demand == "very_demanding" else 1, settings)
    if isinstance(question, HarhaQuestion):
        if question.b is None:
            return core.harha_difficult(question.a, question.demand == "very_demanding", settings.harha_variant)
        return core.harha_contest_odds(question.a, question.b, settings, question.demand)
    if isinstance(question, HarhaRerollQuestion):
        return core.harha_reroll_contest(question.a, question.b, question.fixed, settings, question.demand,
                                         side="a" if question.side == "a" else "b")
    if question.test == "opposed":
        return core.sr_opposed(question.dice, question.b_dice, settings, question.rule_of_six, question.b_rule_of_six)
    if question.test == "teamwork":
        return core.sr_teamwork(question.dice, question.helpers, settings, rule_of_six=question.rule_of_six,
                                leader_skill=question.leader_skill)
    if question.test == "extended":
        return core.sr_extended(question.dice, question.threshold, settings, question.intervals, question.hurried,
                                question.progress)
    return core.sr_hits(question.dice, settings, question.rule_of_six)


def raja(question: RajaQuestion, settings: Settings) -> core.RajaOdds:
    """:func:`answer` for a Rajapolku challenge, typed."""
    out = answer(question, settings)
    assert isinstance(out, core.RajaOdds)
    return out


def spirit_fight(question: SpiritFightQuestion, settings: Settings) -> core.SpiritFightOdds:
    out = answer(question, settings)
    assert isinstance(out, core.SpiritFightOdds)
    return out


def harha(question: HarhaQuestion | HarhaRerollQuestion,
          settings: Settings) -> core.HarhaOdds | core.HarhaDifficultOdds | float:
    out = answer(question, settings)
    assert isinstance(out, (core.HarhaOdds, core.HarhaDifficultOdds, float))
    return out


def sr(question: SRQuestion, settings: Settings) -> core.SROdds:
    """:func:`answer` for a success or teamwork test (hits, glitches), typed."""
    out = answer(question, settings)
    assert isinstance(out, core.SROdds)
    return out


def opposed(question: SRQuestion, settings: Settings) -> core.SROpposedOdds:
    out = answer(question, settings)
    assert isinstance(out, core.SROpposedOdds)
    return out


def extended(question: SRQuestion, settings: Settings) -> core.SRExtendedOdds:
    out = answer(question, settings)
    assert isinstance(out, core.SRExtendedOdds)
    return out


def reroll_value(question: HarhaRerollQuestion, current: tuple[tuple[int, ...], tuple[int, ...]],
                       settings: Settings) -> tuple[float, float]:
    """H7: the rerolling side's chance to win with the faces on the table, and after rerolling."""
    return core.harha_reroll_value(question.a, question.b, current[0], current[1], settings,
                                   side="a" if question.side == "a" else "b")


def success_of(result: core.HarhaOdds | core.HarhaDifficultOdds | float) -> tuple[float, float, float]:
    """``(P(A succeeds), P(B wins), P(tie))`` of a Harhapolku answer (H3–H8)."""
    if isinstance(result, float):
        return result, 1.0 - result, 0.0
    if isinstance(result, core.HarhaDifficultOdds):
        return result.success, result.failure, result.tie
    return result.a_wins, result.b_wins, result.tie


__all__ = [
    "HarhaDifficultOdds", "HarhaOdds", "RajaOdds", "SRExtendedOdds", "SROdds", "SROpposedOdds",
    "Answer", "HarhaQuestion", "HarhaRerollQuestion", "Question", "RajaQuestion", "SRQuestion",
    "SpiritFightQuestion", "answer", "extended", "harha", "opposed", "raja", "reroll_value", "spirit_fight", "sr",
    "success_of",
]
