"""Exact odds for the three dice systems (docs/rules.md R5–R7, R11, H3, H4, H6–H8, S4–S11).

Every answer is computed exactly and returned as floats: the dynamic programmes
count outcomes as Python integers over a common denominator (``10**n`` for
Rajapolku, ``8**n8 * 10**n10`` for Harhapolku, powers of 6 for Shadowrun) and
divide once at the end, so each probability is the correctly rounded float of
the exact rational. The Shadowrun rule of six (S7) makes the hit count
unbounded: there the hits map stops where the exact tail mass is below
:data:`SR_TAIL` (``1e-15``); every entry that is kept is exact, and the glitch
and critical-glitch figures are exact finite sums. Opposed, teamwork and
extended Shadowrun tests combine those floats (``math.fsum`` where it
matters); the tests hold them to 1e-12 against Fraction oracles.

No I/O and no randomness; the functions are pure and fast (a few milliseconds
at most for the pools a table meets). Results are small frozen records with
a ``to_json()`` method giving plain JSON-able dicts.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb, fsum
from operator import mul
from typing import Any, Iterator, Literal, Sequence

from ..i18n import N_, said
from .dice import Die, RulesError
from .harhapolku import HIGH_FACE, check_variant
from .harhapolku import difficult_opposed as harha_difficult_opposed_result
from .harhapolku import resolve as harha_resolve
from .system import Settings

__all__ = [
    "RajaOdds",
    "HarhaOdds",
    "SROdds",
    "SROpposedOdds",
    "SRExtendedOdds",
    "SR_TAIL",
    "MAX_POOL",
    "raja_odds",
    "spirit_odds",
    "spirit_fight_odds",
    "SpiritFightOdds",
    "harha_odds",
    "harha_sum_odds",
    "harha_difficult",
    "harha_difficult_opposed",
    "harha_sum_difficult",
    "HarhaDifficultOdds",
    "harha_reroll_value",
    "harha_reroll_odds",
    "harha_reroll_contest",
    "sr_hits",
    "sr_opposed",
    "sr_teamwork",
    "sr_extended",
    "sr_edge_odds",
    "SREdgeOdds",
]

SR_TAIL = 1e-15
"""Largest hit-count tail mass the rule-of-six hits map may leave out (S7)."""

MAX_POOL = 200
"""Largest pool any function accepts (a guard against runaway input)."""


# ---------------------------------------------------------------------------
# Shared helpers


@lru_cache(maxsize=None)
def _binom_row(n: int) -> tuple[int, ...]:
    """Binomial coefficients ``C(n, 0..n)``."""
    return tuple(comb(n, k) for k in range(n + 1))


def _whole_in(value: object, lo: int, hi: int) -> bool:
    """``value`` is a whole number (not a bool) from ``lo`` to ``hi``."""
    return isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi


def _check_count(name: str, value: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(said(N_("{name} must be a whole number, not {value}"), name=name, value=repr(value)))
    if not 0 <= value <= MAX_POOL:
        raise RulesError(said(N_("{name} must be between 0 and {most}, not {value}"), name=name, most=MAX_POOL, value=value))
    return value


def _prob_map(values: Sequence[float], *, skip_zero: bool = False) -> dict[str, float]:
    """A JSON map ``"index" -> probability``."""
    return {str(i): p for i, p in enumerate(values) if not (skip_zero and p == 0.0)}


class _Contest:
    """Mixin for a two-sided result with ``a_wins``, ``b_wins``, ``tie``."""

    __slots__ = ()
    a_wins: float
    b_wins: float
    tie: float

    def __iter__(self) -> Iterator[float]:
        """Unpack as ``a_wins, b_wins, tie``."""
        return iter((self.a_wins, self.b_wins, self.tie))

    def to_json(self) -> dict[str, Any]:
        return {"a_wins": self.a_wins, "b_wins": self.b_wins, "tie": self.tie}


# ---------------------------------------------------------------------------
# Rajapolku


@dataclass(frozen=True, slots=True)
class RajaOdds(_Contest):
    """Exact odds of a Rajapolku challenge (R5–R7).

    ``a_degrees[d]`` is the probability that side A wins *with exactly d
    degrees* (a joint probability: ``sum(a_degrees) == a_wins``); likewise
    ``b_degrees``. Degrees count ability dice twice (R7), so an index may be
    unreachable and hold 0.0.
    """

    a_wins: float
    """P(side A wins)."""
    b_wins: float
    """P(side B wins)."""
    tie: float
    """P(tie): identical rolls, or equal so far with ``exhausted=False`` (R5)."""
    a_degrees: tuple[float, ...]
    """P(A wins with d degrees) at index d (R6, R7)."""
    b_degrees: tuple[float, ...]
    """P(B wins with d degrees) at index d (R6, R7)."""
    a_visible: float = 0.0
    """P(A wins visibly supernaturally): A's highest die is an ability die above all of B's (R7)."""
    b_visible: float = 0.0
    """P(B wins visibly supernaturally) (R7)."""

    @property
    def degrees(self) -> tuple[float, ...]:
        """P(someone wins with d degrees) at index d; sums to ``1 - tie``."""
        size = max(len(self.a_degrees), len(self.b_degrees))
        a = self.a_degrees + (0.0,) * (size - len(self.a_degrees))
        b = self.b_degrees + (0.0,) * (size - len(self.b_degrees))
        return tuple(x + y for x, y in zip(a, b))

    def degrees_given_win(self) -> tuple[float, ...]:
        """The winner's degrees conditioned on someone winning (sums to 1)."""
        won = self.a_wins + self.b_wins
        return tuple(p / won for p in self.degrees) if won else ()

    def to_json(self) -> dict[str, Any]:
        """A JSON-able dict; degree maps have string keys."""
        return {
            "a_wins": self.a_wins,
            "b_wins": self.b_wins,
            "tie": self.tie,
            "degrees": _prob_map(self.degrees),
            "a_degrees": _prob_map(self.a_degrees),
            "b_degrees": _prob_map(self.b_degrees),
            "a_visible": self.a_visible,
            "b_visible": self.b_visible,
        }


def _raja_result_counts(na: int, nb: int, exhausted: bool) -> tuple[int, int, int]:
    """Count A wins, B wins and ties among the ``10**(na+nb)`` rolls (R5).

    A DP over faces 10 down to 1 keeps only rolls that are still equal so far,
    i.e. both sides had the same number of dice at every higher face. At a
    face where the counts differ, the side with more dice there wins (or, if
    the other side has no dice left, the R5 ``exhausted`` choice decides), and
    every way of rolling the remaining dice below that face is counted at once.
    """
    a_win = b_win = tie = 0
    delta = na - nb
    states = {na: 1}  # remaining A dice -> ways (remaining B = ra - delta)
    for face in range(10, 0, -1):
        below = face - 1
        new_states: dict[int, int] = {}
        for ra, ways in states.items():
            rb = ra - delta
            if ra == 0 and rb == 0:
                tie += ways
                continue
            row_a, row_b = _binom_row(ra), _binom_row(rb)
            # a_c[c]: ways c of A's remaining dice show `face`, the rest lower.
            a_c = [row_a[c] * below ** (ra - c) for c in range(ra + 1)]
            b_c = [row_b[c] * below ** (rb - c) for c in range(rb + 1)]
            suf_a = [0] * (ra + 2)
            for c in range(ra, -1, -1):
                suf_a[c] = suf_a[c + 1] + a_c[c]
            suf_b = [0] * (rb + 2)
            for c in range(rb, -1, -1):
                suf_b[c] = suf_b[c + 1] + b_c[c]
            # A has more dice at this face than B.
            plain = sum(b_c[c] * suf_a[c + 1] for c in range(rb) if c + 1 <= ra)
            run_out = suf_a[rb + 1] if rb + 1 <= ra else 0  # B has no dice left
            a_win += ways * plain
            if exhausted:
                a_win += ways * run_out
            else:
                tie += ways * run_out
            plain = sum(a_c[c] * suf_b[c + 1] for c in range(ra) if c + 1 <= rb)
            run_out = suf_b[ra + 1] if ra + 1 <= rb else 0
            b_win += ways * plain
            if exhausted:
                b_win += ways * run_out
            else:
                tie += ways * run_out
            # Equal counts at this face: still equal, continue lower.
            for c in range(min(ra, rb) + 1):
                if face == 1 and (ra - c or rb - c):
                    continue  # nothing below face 1
                key = ra - c
                new_states[key] = new_states.get(key, 0) + ways * row_a[c] * row_b[c]
        states = new_states
    tie += sum(states.values())  # everything placed and equal throughout
    return a_win, b_win, tie


def _ability_decides(k: int, j: int, values: int) -> int:
    """Ways k normal and j ability dice, each on ``values`` faces, make an ability die the deciding one (R6).

    Under ``raja.degrees = beyond`` an ordinary die at the top face decides
    when there is one (R6: 9✦,9 vs 5 = 2 degrees), so an ability die
    decides only when the highest ability face is strictly above every
    normal face: ``sum over v of (v^j - (v-1)^j) * (v-1)^k``.
    """
    if j == 0:
        return 0
    return sum((v**j - (v - 1) ** j) * (v - 1) ** k for v in range(1, values + 1))


def _raja_degree_counts(
    w_normal: int, w_ability: int, l_dice: int, l_counts_as_loss: bool, beyond: bool = False
) -> list[int]:
    """Count rolls where the winner W's highest die beats the loser's highest (R6, R7).

    Returns ``counts[d]`` for ``d >= 1``: rolls (out of ``10**(all dice)``)
    where W has exactly ``d`` degrees, a normal die above the loser's highest
    counting 1 and an ability die 2. Any such roll is a win for W (its first
    position is higher), and every other win of W has 0 degrees, because then
    both highest dice are equal. ``l_counts_as_loss`` is False when the loser
    has no dice and the R5 ``exhausted`` choice makes that a tie. With
    ``beyond`` (``raja.degrees = beyond``) the deciding die, the winner's top
    die, is not counted: its weight (2 when it is an ability die) comes off;
    an ordinary die tied with an ability die at the top is the deciding one
    (:func:`polku.rules.rajapolku.deciding_die`).
    """
    size = w_normal + 2 * w_ability
    counts = [0] * (size + 1)
    if w_normal + w_ability == 0 or not l_counts_as_loss:
        return counts
    row_n, row_a = _binom_row(w_normal), _binom_row(w_ability)
    for top in range(0, 10):  # the loser's highest die (0: no dice)
        if l_dice == 0:
            l_ways = 1 if top == 0 else 0
        else:
            l_ways = top**l_dice - (top - 1) ** l_dice if top >= 1 else 0
        if not l_ways:
            continue
        above = 10 - top
        for k in range(w_normal + 1):
            wk = row_n[k] * above**k * top ** (w_normal - k)
            if not wk:
                continue
            for j in range(w_ability + 1):
                if k + j == 0:
                    continue
                wj = row_a[j] * above**j * top ** (w_ability - j)
                if not beyond:
                    counts[k + 2 * j] += l_ways * wk * wj
                    continue
                # the same rolls split by the kind of the deciding die above `top`
                lower = row_n[k] * row_a[j] * top ** (w_normal - k + w_ability - j)
                ab_top = lower * _ability_decides(k, j, above)
                if ab_top:
                    counts[k + 2 * j - 2] += l_ways * ab_top
                counts[k + 2 * j - 1] += l_ways * (wk * wj - ab_top)
    return counts


def _raja_visible_count(w_normal: int, w_ability: int, l_dice: int) -> int:
    """Rolls where W's top die is an ability die strictly above every loser die (R7).

    Out of ``10**(all dice)``; such a roll is always a win for W.
    """
    if w_ability == 0:
        return 0
    total = 0
    for top in range(0, 10):  # the loser's highest die (0: no dice)
        if l_dice == 0:
            l_ways = 1 if top == 0 else 0
        else:
            l_ways = top**l_dice - (top - 1) ** l_dice if top >= 1 else 0
        if not l_ways:
            continue
        # the highest ability die shows v > top, every normal die at most v
        w = sum((v**w_ability - (v - 1) ** w_ability) * v**w_normal for v in range(top + 1, 11))
        total += l_ways * w
    return total


def raja_odds(
    a_normal: int,
    a_ability: int,
    b_normal: int,
    b_ability: int,
    settings: Settings,
    *,
    degrees: bool = True,
) -> RajaOdds:
    """Exact odds of a Rajapolku challenge of d10 pools (R5, R6, R7).

    R5: both sides sort their dice from highest to lowest; the first position
    where they differ decides. If every compared position is equal and one
    side has dice left, that side wins under ``raja.exhausted``,
    otherwise it is a tie; identical rolls tie. R6: the winner gets a
    degree for each of its dice strictly higher than the loser's highest die
    (0 when the loser has no dice); R7: an ability die counts two degrees.
    Ability and normal dice compare by face only.

    Args:
        a_normal: Side A's normal dice (action, backgrounds, conditions).
        a_ability: Side A's ability dice.
        b_normal: Side B's normal dice.
        b_ability: Side B's ability dice.
        settings: The campaign's (or the roll's) settings, whole: ``raja.exhausted``
            (R5) and ``raja.degrees`` (R6: "all" counts every winner die above
            the loser's highest, "beyond" leaves out the deciding, top, die).
        degrees: Also compute the degree distributions (R6, R7) and the
            visibly supernatural wins (R7); when False, ``a_degrees`` and
            ``b_degrees`` are empty.

    Returns:
        The win, loss and tie probabilities and both sides' degree
        distributions; exact to float rounding.

    Raises:
        RulesError: a count is negative, not an integer, or above ``MAX_POOL``.
    """
    for name, value in (
        ("a_normal", a_normal), ("a_ability", a_ability),
        ("b_normal", b_normal), ("b_ability", b_ability),
    ):
        _check_count(name, value)
    na, nb = a_normal + a_ability, b_normal + b_ability
    total = 10 ** (na + nb)
    exhausted, degrees_rule = settings.raja_exhausted, settings.raja_degrees
    a_win, b_win, tie = _raja_result_counts(na, nb, exhausted)
    if not degrees:
        return RajaOdds(a_win / total, b_win / total, tie / total, (), ())
    if degrees_rule not in ("all", "beyond"):
        raise RulesError(said(N_("raja.degrees must be all or beyond, not {value}"), value=repr(degrees_rule)))
    beyond = degrees_rule == "beyond"
    a_deg = _raja_degree_counts(a_normal, a_ability, nb, exhausted or nb > 0, beyond)
    b_deg = _raja_degree_counts(b_normal, b_ability, na, exhausted or na > 0, beyond)
    # Every other win has no degrees (R6): its highest dice are equal.
    a_deg[0] = a_win - sum(a_deg[1:])
    b_deg[0] = b_win - sum(b_deg[1:])
    a_vis = _raja_visible_count(a_normal, a_ability, nb) if (exhausted or nb > 0) else 0
    b_vis = _raja_visible_count(b_normal, b_ability, na) if (exhausted or na > 0) else 0
    return RajaOdds(
        a_wins=a_win / total,
        b_wins=b_win / total,
        tie=tie / total,
        a_degrees=tuple(c / total for c in a_deg),
        b_degrees=tuple(c / total for c in b_deg),
        a_visible=a_vis / total,
        b_visible=b_vis / total,
    )


def spirit_odds(a_charges: int, b_charges: int, settings: Settings) -> RajaOdds:
    """Odds of one spirit-combat exchange (R11).

    Each side spends 1 charge and rolls the charges remaining as normal d10s,
    compared as a Rajapolku challenge (R5, R6).

    Args:
        a_charges: Side A's charges before spending.
        b_charges: Side B's charges before spending.
        settings: The settings, whole (``raja.exhausted``, R5; ``raja.degrees``, R6).

    Raises:
        RulesError: a side has no charge to spend.
    """
    for name, value in (("a_charges", a_charges), ("b_charges", b_charges)):
        _check_count(name, value)
        if value < 1:
            raise RulesError(said(N_("{name}: spirit combat needs a charge to spend (R11)"), name=name))
    return raja_odds(a_charges - 1, 0, b_charges - 1, 0, settings)


def _raja_plain_table(na: int, nb: int, exhausted: bool) -> list[list[tuple[float, float, float]]]:
    """R5 win / loss / tie probabilities of every pair of plain d10 pools up to ``na`` v ``nb``.

    ``table[a][b]`` is ``(P(A wins), P(B wins), P(tie))``. Built face by face:
    with each die uniform on 1..f, either the sides put as many dice on f and
    the rest is the same question on 1..f-1, or the side with more dice on f
    wins there (R5; when the other side has no dice left, ``raja.exhausted``
    decides). One table serves every exchange of a spirit combat (R11). In
    floats, each sum over a row one C-level ``sum(map(mul, …))``.
    """
    top = max(na, nb)

    # prev[d][p]: the pair (a, b) with a - b = d - nb and min(a, b) = p (one diagonal, so the
    # equal-count sum below reads one slice of it).
    def diag() -> list[list[float]]:
        return [[0.0] * (min(nb, na - (d - nb)) + 1 if d >= nb else min(na, nb + (d - nb)) + 1)
                for d in range(na + nb + 1)]

    pa_d, pb_d, pt_d = diag(), diag(), diag()
    pt_d[nb][0] = 1.0  # no dice against no dice: a tie
    for f in range(1, 11):
        hit, miss = 1.0 / f, (f - 1) / f
        # W[n][c]: n dice uniform on 1..f, exactly c of them on f; C[n][c] its running sum
        W = [[comb(n, c) * hit**c * miss ** (n - c) for c in range(n + 1)] for n in range(top + 1)]
        C = []
        for row in W:
            run, acc = 0.0, []
            for x in row:
                run += x
                acc.append(run)
            C.append(acc)
        na_d, nb_d, nt_d = diag(), diag(), diag()
        for a in range(na + 1):
            wa, ca_ = W[a], C[a]
            for b in range(nb + 1):
                wb, cb_ = W[b], C[b]
                # more dice on f than the other side: a win there (R5)
                a_win = sum(map(mul, wa[1:], cb_[:a] + [1.0] * max(0, a - b - 1))) if a else 0.0
                b_win = sum(map(mul, wb[1:], ca_[:b] + [1.0] * max(0, b - a - 1))) if b else 0.0
                tie = 0.0
                if not exhausted:
                    # more dice on f while the other side has none left: a tie (R5)
                    out_a = wb[b] * (1.0 - ca_[b]) if a > b else 0.0
                    out_b = wa[a] * (1.0 - cb_[a]) if b > a else 0.0
                    a_win -= out_a
                    b_win -= out_b
                    tie += out_a + out_b
                m = min(a, b)
                both = list(map(mul, wa[: m + 1], wb[: m + 1]))
                d = a - b + nb
                a_win += sum(map(mul, both, pa_d[d][m::-1]))
                b_win += sum(map(mul, both, pb_d[d][m::-1]))
                tie += sum(map(mul, both, pt_d[d][m::-1]))
                na_d[d][m], nb_d[d][m], nt_d[d][m] = a_win, b_win, tie
        pa_d, pb_d, pt_d = na_d, nb_d, nt_d
    return [[(pa_d[a - b + nb][min(a, b)], pb_d[a - b + nb][min(a, b)], pt_d[a - b + nb][min(a, b)])
             for b in range(nb + 1)] for a in range(na + 1)]


@lru_cache(maxsize=256)
def _binomial_columns(w: int) -> tuple[tuple[float, ...], ...]:
    """``cols[k][t]``: P(exactly k of w d10s are above t), t = 0..9 (see :func:`_plain_degree_probs`)."""
    rows = []
    for t in range(10):
        up = (10 - t) / 10
        rows.append([comb(w, k) * up**k * (1 - up) ** (w - k) for k in range(w + 1)])
    return tuple(tuple(rows[t][k] for t in range(10)) for k in range(w + 1))


def _plain_degree_probs(w: int, l_dice: int, beyond: bool) -> list[float]:
    """P(the winner W of plain d10s has exactly d degrees), d >= 1, over all rolls (R6).

    A roll where k >= 1 of W's ``w`` dice are above the loser's highest is a
    win with k degrees (k - 1 under ``raja.degrees = beyond``); the float twin
    of :func:`_raja_degree_counts` for pools without ability dice. Index 0 is
    left to the caller (the wins by a tie-break).
    """
    if l_dice == 0:
        p_top = [1.0] + [0.0] * 9  # no dice: "highest" 0
    else:
        p_top = [0.0] + [(t / 10) ** l_dice - ((t - 1) / 10) ** l_dice for t in range(1, 10)]
    cols = _binomial_columns(w)
    out = [0.0] * (w + 1)
    for k in range(1, w + 1):
        out[k - 1 if beyond else k] += sum(map(mul, p_top, cols[k]))
    out[0] = 0.0
    return out


@dataclass(frozen=True, slots=True)
class SpiritFightOdds:
    """Odds of a whole spirit combat from the charges left (R11); B is the defender."""

    a_charges: int
    """A's charges left (after the entry charge)."""
    b_charges: int
    exchange: RajaOdds
    """The next exchange alone."""
    a_wins: float
    """P(B runs out of charges first)."""
    b_wins: float
    """P(A runs out of charges first)."""
    expected_exchanges: float
    """Mean exchanges until a side has no charges (full ties, rerolled, counted too)."""
    a_charges_left: tuple[float, ...]
    """P(A ends the fight with c charges) at index c (0: A lost)."""
    b_charges_left: tuple[float, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "a_charges": self.a_charges,
            "b_charges": self.b_charges,
            "exchange": self.exchange.to_json(),
            "a_wins": self.a_wins,
            "b_wins": self.b_wins,
            "expected_exchanges": self.expected_exchanges,
            "a_charges_left": _prob_map(self.a_charges_left),
            "b_charges_left": _prob_map(self.b_charges_left),
        }


def spirit_fight_odds(
    a_charges: int,
    b_charges: int,
    settings: Settings,
    *,
    a_penalty: int = 0,
    b_penalty: int = 0,
) -> SpiritFightOdds:
    """Odds of a spirit combat fought to the end (R11).

    The entry charge is already paid: ``a_charges`` and ``b_charges`` are the
    charges left, each side's dice in every exchange (less a wounded side's R9
    penalty, or plus the other side's, under ``raja.spirit_wounds``:
    :func:`polku.rules.rajapolku.spirit_dice_counts`). A full tie costs nothing
    and is rolled again (or the defender holds: either way nothing changes),
    the winner of an exchange loses nothing and the loser loses the winner's
    degrees, at least 1 (``raja.spirit_loss = degrees``), or 1 (``one``). The
    fight ends when a side has no charges. Any number of charges a sheet holds
    (0–99) is answered; the whole table is floats (exact to rounding).

    Args:
        a_penalty, b_penalty: each side's R9 wound penalty in dice (0–3).

    Raises:
        RulesError: a side without charges, or more than MAX_POOL dice.
    """
    from .rajapolku import spirit_dice_counts

    for name, value in (("a_charges", a_charges), ("b_charges", b_charges)):
        _check_count(name, value)
        if value < 1:
            raise RulesError(said(N_("{name}: a spirit combat needs at least 1 charge left, not {value} (R11)"), name=name,
                                  value=value))
    exhausted, degrees_rule, spirit_loss = settings.raja_exhausted, settings.raja_degrees, settings.raja_spirit_loss
    if spirit_loss not in ("degrees", "one"):
        raise RulesError(said(N_("raja.spirit_loss must be degrees or one, not {value}"), value=repr(spirit_loss)))
    by_degrees = spirit_loss == "degrees"

    def counts(a: int, b: int) -> tuple[int, int]:
        return spirit_dice_counts(a, b, settings, a_penalty=a_penalty, b_penalty=b_penalty)

    top_a, top_b = counts(a_charges, b_charges)
    most_a = max(top_a, max((counts(a, 1)[0] for a in range(1, a_charges + 1)), default=0))
    most_b = max(top_b, max((counts(1, b)[1] for b in range(1, b_charges + 1)), default=0))
    for name, value in (("a", most_a), ("b", most_b)):
        _check_count(f"{name}'s dice", value)
    table = _raja_plain_table(most_a, most_b, exhausted)
    beyond = degrees_rule == "beyond"
    degree_cache: dict[tuple[int, int], list[float]] = {}

    def step(a: int, b: int) -> tuple[list[tuple[float, int, int]], float]:
        """Transitions ``(p, a', b')`` given no full tie, and P(full tie), at (a, b) charges."""
        da, db = counts(a, b)
        a_win, b_win, tie = table[da][db]
        won = a_win + b_win
        out: list[tuple[float, int, int]] = []
        if by_degrees:
            for side_win, winner, loser, lose_a in ((a_win, da, db, False), (b_win, db, da, True)):
                deg = degree_cache.get((winner, loser))
                if deg is None:
                    deg = degree_cache[(winner, loser)] = _plain_degree_probs(winner, loser, beyond)
                deg = [max(0.0, side_win - fsum(deg[1:]))] + deg[1:]
                for d, c in enumerate(deg):
                    if c > won * 1e-18:  # below float resolution of the rest: no state worth keeping
                        loss = max(1, d)
                        nxt = (max(0, a - loss), b) if lose_a else (a, max(0, b - loss))
                        out.append((c / won, *nxt))
        else:
            out = [(a_win / won, a, b - 1), (b_win / won, a - 1, b)]
        return out, tie / (won + tie)

    # Charges only go down, so each state depends on states with fewer charges.
    ends: dict[tuple[int, int], float] = {}
    mass: dict[tuple[int, int], float] = {(a_charges, b_charges): 1.0}
    expected = 0.0
    for total in range(a_charges + b_charges, 1, -1):
        for a in range(min(a_charges, total - 1), 0, -1):
            b = total - a
            if b < 1 or b > b_charges:
                continue
            m = mass.pop((a, b), 0.0)
            if not m:
                continue
            moves, tie = step(a, b)
            expected += m / (1.0 - tie)
            for p, a2, b2 in moves:
                key = (a2, b2)
                if a2 == 0 or b2 == 0:
                    ends[key] = ends.get(key, 0.0) + m * p
                else:
                    mass[key] = mass.get(key, 0.0) + m * p
    a_left = [0.0] * (a_charges + 1)
    b_left = [0.0] * (b_charges + 1)
    for (a, b), p in ends.items():
        a_left[a] += p
        b_left[b] += p
    return SpiritFightOdds(
        a_charges=a_charges,
        b_charges=b_charges,
        exchange=raja_odds(top_a, 0, top_b, 0, settings),
        a_wins=fsum(p for (a, b), p in ends.items() if b == 0),
        b_wins=fsum(p for (a, b), p in ends.items() if a == 0),
        expected_exchanges=expected,
        a_charges_left=tuple(a_left),
        b_charges_left=tuple(b_left),
    )


# ---------------------------------------------------------------------------
# Harhapolku


@dataclass(frozen=True, slots=True)
class HarhaOdds(_Contest):
    """Exact odds of a Harhapolku contest (H3, H4, H6); A is the actor."""

    a_wins: float
    """P(side A wins); in ch23 and sum rules A is the actor (H4, H6)."""
    b_wins: float
    """P(side B wins); B is the challenger (H4, H6)."""
    tie: float
    """P(tie, rerolled): only the classic comparison can tie (H3)."""


HarhaPool = tuple[int, int]
"""A Harhapolku pool as ``(number of d8, number of d10)`` (H2)."""



def _check_pool(name: str, pool: Sequence[int]) -> tuple[int, int]:
    try:
        n8, n10 = pool
    except (TypeError, ValueError):
        raise RulesError(said(N_("{name} must be a pair (d8 count, d10 count), not {value}"), name=name,
                              value=repr(pool))) from None
    return _check_count(f"{name} d8 count", n8), _check_count(f"{name} d10 count", n10)


class _RandomSide:
    """A side whose d8/d10 pool is still to be rolled (for the Harhapolku DP)."""

    __slots__ = ("n8", "n10", "n", "total")
    n8: int
    n10: int
    n: int
    total: int

    def __init__(self, n8: int, n10: int) -> None:
        self.n8, self.n10, self.n = n8, n10, n8 + n10
        self.total = 8**n8 * 10**n10

    def options(self, face: int, placed: int) -> list[tuple[int, int]]:
        """Ways ``(c, weight)`` that c more dice show ``face``, the rest lower."""
        free = (self.n10 if face > 8 else self.n) - placed
        if face == 1:
            return [(free, 1)]
        row = _binom_row(free)
        return [(c, row[c]) for c in range(free + 1)]

    def rest(self, face: int, placed: int) -> int:
        """Ways to roll the unplaced dice strictly below ``face``."""
        # int ** int is typed Any (a negative power is a float); these powers never are.
        ways: int = (face - 1) ** (self.n10 - placed) * 8**self.n8 if face > 8 else (face - 1) ** (self.n - placed)
        return ways

    def rest_high(self, face: int, placed: int, r: int) -> int:
        """Ways to roll the unplaced dice below ``face`` with at least ``r`` of them 7+ (H8)."""
        if r <= 0:
            return self.rest(face, placed)
        if face <= 7:
            return 0
        if face == 8:  # every unplaced die on 1..7: the 7 is its one high face
            u = self.n - placed
            row = _binom_row(u)
            return sum(row[i] * 6 ** (u - i) for i in range(r, u + 1))
        u10, hv = self.n10 - placed, face - 7  # d10s on 1..face-1, d8s on 1..8
        row10, row8 = _binom_row(u10), _binom_row(self.n8)
        total = 0
        for i in range(u10 + 1):
            w10 = row10[i] * hv**i * 6 ** (u10 - i)
            for j in range(max(0, r - i), self.n8 + 1):
                total += w10 * row8[j] * 2**j * 6 ** (self.n8 - j)
        return total


class _FixedSide:
    """A side whose faces are known (for the reroll question, H7)."""

    __slots__ = ("counts", "n", "total")
    counts: list[int]
    n: int
    total: int

    def __init__(self, faces: Sequence[int]) -> None:
        self.counts = [0] * 11
        for f in faces:
            self.counts[f] += 1
        self.n = len(faces)
        self.total = 1

    def options(self, face: int, placed: int) -> list[tuple[int, int]]:
        return [(self.counts[face], 1)]

    def rest(self, face: int, placed: int) -> int:
        return 1


def _harha_counts(  # noqa: C901 - one exact-count loop nest (27 paths), described whole below; cut
    # into helpers it would make a call per state transition of every Harhapolku odds figure
    side_a: _RandomSide | _FixedSide,
    side_b: _RandomSide | _FixedSide,
    variant: str,
    classic_extra: bool,
    needed: int = 0,
) -> tuple[int, int, int, int]:
    """Count A wins, B wins, ties, and A wins showing ``needed`` dice of 7+ (H8),
    over ``side_a.total * side_b.total`` rolls.

    Both sorted rolls are built together, face 10 down to 1: at each face each
    side puts ``c`` dice at its next positions. A position whose two dice are
    both known is scored; a position where only one side has a die so far is
    already won by that side, because the other side's die there (if any) will
    be lower. So after each face every position below the longer prefix is
    scored, and the state is (A dice placed, B dice placed) with a dense list
    of counts by score ``A - B``. As soon as the open positions cannot change
    the outcome, every completion of the roll is counted at once (prefix sums
    over the score list make that O(1) per transition).

    For H8 (``needed`` > 0, A a :class:`_RandomSide`) the state also keeps
    ``h``: 1 when A has placed ``needed`` dice of 7+. On faces 7+ every placed
    die is high, so a win settled there counts the completions in which
    enough of A's unplaced dice still land on 7+ (:meth:`_RandomSide.rest_high`);
    below 7 ``h`` is final, and the rolls without enough 7+ dice are dropped:
    such a run counts only the fourth number, the wins with the 7+ dice.
    (Without ``needed``, ``h`` is 1 throughout.)
    """
    na, nb = side_a.n, side_b.n
    high_a: _RandomSide | None = None  # A's dice still to roll, when H8 counts its 7+ dice
    if needed:
        if not isinstance(side_a, _RandomSide):
            raise RulesError(said(N_("H8's 7+ dice are counted only on dice still to be rolled")))
        high_a = side_a
    ch23 = variant == "ch23"
    # Positions that can score: all of them in classic with extras (a die
    # facing no die counts for its side), else only the shorter roll's.
    cap = max(na, nb) if (classic_extra and not ch23) else min(na, nb)
    off = max(na, nb)  # list index = score + off
    width = 2 * off + 1
    a_step = 0 if ch23 else 1  # classic: A needs a score above the open positions
    a_win = b_win = tie = a_high = 0
    states: dict[tuple[int, int, int], list[int]] = {(0, 0, 0): [0] * off + [1] + [0] * off}
    for face in range(10, 0, -1):
        face_is_high = face >= HIGH_FACE
        # Per side and dice placed so far: (placed after, ways, ways x rest[, x rest with 7+]).
        opts_a = [
            [(p + c, w, w * side_a.rest(face, p + c),
              w * high_a.rest_high(face, p + c, needed - p - c) if (high_a is not None and face_is_high) else 0)
             for c, w in side_a.options(face, p)]
            for p in range(na + 1)
        ]
        opts_b = [
            [(p + c, w, w * side_b.rest(face, p + c)) for c, w in side_b.options(face, p)]
            for p in range(nb + 1)
        ]
        new_states: dict[tuple[int, int, int], list[int]] = {}
        for (pa, pb, h), scores in states.items():
            prefix = [0]
            run = 0
            for x in scores:
                run += x
                prefix.append(run)
            if not run:
                continue
            lo_i = 0
            while not scores[lo_i]:
                lo_i += 1
            hi_i = width
            while not scores[hi_i - 1]:
                hi_i -= 1
            top = pa if pa > pb else pb
            ob = opts_b[pb]
            h_done = h == 1
            for pa2, wa, wra, wra_hi in opts_a[pa]:
                h2 = (1 if pa2 >= needed else 0) if face_is_high else h
                for pb2, wb, wrb in ob:
                    if pa2 >= pb2:
                        start = pb2 if pb2 > top else top
                        end = pa2 if pa2 < cap else cap
                        delta = end - start if end > start else 0
                        opn = cap - pa2 if cap > pa2 else 0
                    else:
                        start = pa2 if pa2 > top else top
                        end = pb2 if pb2 < cap else cap
                        delta = start - end if end > start else 0
                        opn = cap - pb2 if cap > pb2 else 0
                    # Old score index i has new score i - off + delta. B settles
                    # when new < -opn (i < b_hi); A when new >= opn (ch23) or
                    # new > opn (classic) (i >= a_lo); the rest continue.
                    b_hi = off - opn - delta
                    if b_hi < 0:
                        b_hi = 0
                    a_lo = off + opn - delta + a_step
                    if a_lo > width:
                        a_lo = width
                    if b_hi > lo_i or a_lo < hi_i or opn == 0:
                        rest = wra * wrb
                        if b_hi > lo_i:
                            b_win += rest * prefix[b_hi if b_hi < width else width]
                        if a_lo < hi_i:
                            won = run - prefix[a_lo if a_lo > 0 else 0]
                            a_win += rest * won
                            if not needed:
                                pass
                            elif face_is_high:
                                a_high += wra_hi * wrb * won
                            elif h_done:
                                a_high += rest * won
                        if a_lo <= b_hi:
                            continue
                        if opn == 0:
                            # classic only: the score is final and equal
                            tie += rest * (prefix[a_lo] - prefix[b_hi])
                            continue
                    i0 = b_hi if b_hi > lo_i else lo_i
                    i1 = a_lo if a_lo < hi_i else hi_i
                    if i0 >= i1 or (needed and face <= HIGH_FACE and not h2):
                        continue  # (an H8 run drops rolls that can no longer show the 7+ dice)
                    key = (pa2, pb2, h2)
                    target = new_states.get(key)
                    if target is None:
                        target = new_states[key] = [0] * width
                    w = wa * wb
                    if w == 1:
                        for i in range(i0, i1):
                            target[i + delta] += scores[i]
                    else:
                        for i in range(i0, i1):
                            target[i + delta] += w * scores[i]
        states = new_states
    assert not states
    return a_win, b_win, tie, (a_high if needed else a_win)


def _comparison(variant: str, a: tuple[int, int], b: tuple[int, int]) -> Literal["ch23", "classic"]:
    """The comparison a ``harha.variant`` uses: same_size is chapter 23 on one die size (H5)."""
    if variant == "same_size":
        sizes = {size for size, n in ((8, a[0] + b[0]), (10, a[1] + b[1])) if n}
        if len(sizes) > 1:
            raise RulesError(said(N_("the same-size variant uses one die size, not d8 and d10 (H5)")))
        return "ch23"
    if variant == "sum":
        raise RulesError(said(N_("the sum variant compares totals: use harha_sum_odds (H6)")))
    check_variant(variant)
    return "classic" if variant == "classic" else "ch23"


def _faces_winner(a_faces: Sequence[int], b_faces: Sequence[int], comparison: str, settings: Settings) -> int:
    """+1 if A wins, -1 if B wins, 0 for a tie, for known faces: the rules' own comparison (H3, H4)."""
    a_dice = [Die(10, f) for f in a_faces]
    b_dice = [Die(10, f) for f in b_faces]
    winner = harha_resolve(a_dice, b_dice, comparison, settings).winner
    return 1 if winner == "a" else -1 if winner == "b" else 0


def _harha_special(na: int, nb: int, comparison: str, settings: Settings) -> tuple[int, int, int] | None:
    """Outcome (as 0/1 flags) when a side has no dice, else None.

    A side without dice decides the comparison whatever the other side's faces
    show (H3: a die facing no die; H4: an actor without dice), so any faces
    give the outcome.
    """
    if na and nb:
        return None
    winner = _faces_winner([1] * na, [1] * nb, comparison, settings)
    return (int(winner == 1), int(winner == -1), int(winner == 0))


def harha_odds(a: HarhaPool, b: HarhaPool, settings: Settings) -> HarhaOdds:
    """Exact odds of a Harhapolku contest of mixed d8/d10 pools (H3, H4).

    H3 classic: both rolls sorted from highest to lowest, each position goes to
    the higher die (equal: nobody); with ``classic_extra`` a die facing no die
    counts for its side; more positions wins, equal counts tie (reroll).
    H4 chapter 23: A is the actor, B the challenger; only the smaller pool's
    number of positions is compared; B wins iff B has more positions than A,
    otherwise A wins (no ties); an actor with no dice loses.

    Args:
        a: Side A's pool as ``(d8 count, d10 count)``; the actor in ch23.
        b: Side B's pool; the challenger in ch23.
        settings: The settings, whole: ``harha.variant`` ``"ch23"`` (H4),
            ``"classic"`` (H3) or ``"same_size"`` (H5: chapter 23 on pools of
            one die size), and ``harha.classic_extra`` (H3).

    Returns:
        The exact odds.

    Raises:
        RulesError: a bad pool or variant.
    """
    a8, a10 = _check_pool("a", a)
    b8, b10 = _check_pool("b", b)
    comparison = _comparison(settings.harha_variant, (a8, a10), (b8, b10))
    special = _harha_special(a8 + a10, b8 + b10, comparison, settings)
    if special is not None:
        return HarhaOdds(*(float(x) for x in special))
    side_a, side_b = _RandomSide(a8, a10), _RandomSide(b8, b10)
    a_win, b_win, tie, _ = _harha_counts(side_a, side_b, comparison, settings.harha_classic_extra)
    total = side_a.total * side_b.total
    return HarhaOdds(a_win / total, b_win / total, tie / total)


def _check_faces(name: str, faces: Sequence[int], pool: tuple[int, int]) -> list[int]:
    faces = list(faces)
    n8, n10 = pool
    if len(faces) != n8 + n10:
        raise RulesError(said(N_("{name}: {n} faces for a pool of {dice} dice"), name=name, n=len(faces), dice=n8 + n10))
    for f in faces:
        if not _whole_in(f, 1, 10):
            raise RulesError(said(N_("{name}: {face} is not a face of a d8 or d10"), name=name, face=repr(f)))
    if sum(1 for f in faces if f > 8) > n10:
        raise RulesError(said(N_("{name}: more faces above 8 than the pool has d10s"), name=name))
    return faces


def harha_reroll_value(
    a: HarhaPool,
    b: HarhaPool,
    current_a_faces: Sequence[int],
    current_b_faces: Sequence[int],
    settings: Settings,
    *,
    side: Literal["a", "b"] = "a",
) -> tuple[float, float]:
    """Is an edge reroll worth it? (H7)

    Args:
        a: Side A's pool ``(d8, d10)``; the actor in ch23 (H4).
        b: Side B's pool; the challenger in ch23.
        current_a_faces: A's faces on the table.
        current_b_faces: B's faces on the table.
        settings: The settings, whole (``harha.variant``: ch23, classic or
            same_size, H5: ch23 on one die size; ``harha.classic_extra``, H3).
        side: The side that rerolls its whole pool; the probabilities are
            that side's wins (a tie is not a win).

    Returns:
        ``(P(win now), P(win after rerolling))``: the first is 0.0 or 1.0;
        the second is over a fresh roll of the rerolling side's pool against
        the other side's faces as they lie.

    Raises:
        RulesError: bad pools, faces or variant.
    """
    if side not in ("a", "b"):
        raise RulesError(said(N_("side must be 'a' or 'b', not {side}"), side=repr(side)))
    pa, pb = _check_pool("a", a), _check_pool("b", b)
    comparison = _comparison(settings.harha_variant, pa, pb)
    fa = _check_faces("current_a_faces", current_a_faces, pa)
    fb = _check_faces("current_b_faces", current_b_faces, pb)
    sign = 1 if side == "a" else -1
    now = 1.0 if _faces_winner(fa, fb, comparison, settings) == sign else 0.0
    after = harha_reroll_odds(a, b, fb if side == "a" else fa, settings, side=side)
    return now, after.a_wins if side == "a" else after.b_wins


def harha_reroll_odds(
    a: HarhaPool,
    b: HarhaPool,
    fixed_faces: Sequence[int],
    settings: Settings,
    *,
    side: Literal["a", "b"] = "a",
) -> HarhaOdds:
    """Exact odds of a contest in which one side rerolls its whole pool (H7).

    The other side's faces stay on the table, so this is the contest's
    probability conditional on them, not the odds of two fresh rolls.

    Args:
        a: Side A's pool ``(d8, d10)``; the actor in ch23 (H4).
        b: Side B's pool; the challenger in ch23.
        fixed_faces: the faces of the side that does not reroll.
        settings: The settings, whole (``harha.variant``: ch23, classic or
            same_size; ``harha.classic_extra``, H3).
        side: The side that rerolls.

    Raises:
        RulesError: bad pools, faces or variant.
    """
    if side not in ("a", "b"):
        raise RulesError(said(N_("side must be 'a' or 'b', not {side}"), side=repr(side)))
    pa, pb = _check_pool("a", a), _check_pool("b", b)
    comparison = _comparison(settings.harha_variant, pa, pb)
    fixed = _check_faces("fixed_faces", fixed_faces, pb if side == "a" else pa)
    special = _harha_special(sum(pa), sum(pb), comparison, settings)
    if special is not None:
        return HarhaOdds(*(float(x) for x in special))
    if side == "a":
        side_a: _RandomSide | _FixedSide = _RandomSide(*pa)
        side_b: _RandomSide | _FixedSide = _FixedSide(fixed)
    else:
        side_a, side_b = _FixedSide(fixed), _RandomSide(*pb)
    a_win, b_win, tie, _ = _harha_counts(side_a, side_b, comparison, settings.harha_classic_extra)
    total = side_a.total * side_b.total
    return HarhaOdds(a_win / total, b_win / total, tie / total)


@dataclass(frozen=True, slots=True)
class HarhaDifficultOdds:
    """Odds of a difficult action that is opposed (H8); A is the actor."""

    success: float
    """P(the actor wins the comparison and shows the 7+ die or dice)."""
    failure: float
    """P(the actor fails: loses the comparison, or wins it without the 7+ dice)."""
    tie: float
    """P(a classic tie, rerolled) (H3)."""
    won_without: float
    """P(the actor wins the comparison but lacks the 7+ dice): part of ``failure``."""

    def to_json(self) -> dict[str, Any]:
        return {"success": self.success, "failure": self.failure, "tie": self.tie,
                "won_without": self.won_without}


def harha_difficult_opposed(
    a: HarhaPool,
    b: HarhaPool,
    settings: Settings,
    very_demanding: bool = False,
) -> HarhaDifficultOdds:
    """Exact odds of an opposed difficult (or very demanding) action (H8).

    The actor A succeeds only by winning the comparison (H3/H4/H5) *and*
    showing at least one die of 7+ (two when very demanding) in the same roll.
    Two comparison DPs: one counts the wins and ties, the other the wins
    with enough 7+ dice (see :func:`_harha_counts`).
    """
    a8, a10 = _check_pool("a", a)
    b8, b10 = _check_pool("b", b)
    comparison = _comparison(settings.harha_variant, (a8, a10), (b8, b10))
    classic_extra = settings.harha_classic_extra
    needed = 2 if very_demanding else 1
    special = _harha_special(a8 + a10, b8 + b10, comparison, settings)
    if special is not None:
        # an empty pool fixes the comparison; only A's 7+ dice are left to chance
        a_wins, _b, tie = (float(x) for x in special)
        success = a_wins * harha_difficult((a8, a10), very_demanding) if a8 + a10 else 0.0
        return HarhaDifficultOdds(success, 1.0 - success - tie, tie, a_wins - success)
    side_a, side_b = _RandomSide(a8, a10), _RandomSide(b8, b10)
    a_win, _b_win, tie, _ = _harha_counts(side_a, side_b, comparison, classic_extra)
    a_high = _harha_counts(side_a, side_b, comparison, classic_extra, needed)[3]
    total = side_a.total * side_b.total
    success = a_high / total
    return HarhaDifficultOdds(success, (total - a_high - tie) / total, tie / total, (a_win - a_high) / total)


def harha_reroll_contest(
    a: HarhaPool,
    b: HarhaPool,
    fixed_faces: Sequence[int],
    settings: Settings,
    demand: str = "",
    *,
    side: Literal["a", "b"] = "a",
) -> HarhaOdds | HarhaDifficultOdds:
    """Exact odds of an opposed roll after one side threw its whole roll again (H7),
    under any ``harha.variant``, with H8's demand on the actor A.

    The other side's faces stay on the table. With a demand the actor succeeds
    only by winning and showing its 7+ dice (H8): when the challenger rerolls,
    the actor's 7+ dice are already known. Under the sum variant (H6) the
    rerolling side throws its one die again, and each face it can show is
    resolved by the rules themselves.

    Raises:
        RulesError: bad pools, faces, variant or demand.
    """
    if demand not in ("", "difficult", "very_demanding"):
        raise RulesError(said(N_("unknown demand {demand}: difficult or very_demanding (H8)"), demand=repr(demand)))
    if side not in ("a", "b"):
        raise RulesError(said(N_("side must be 'a' or 'b', not {side}"), side=repr(side)))
    pa, pb = _check_pool("a", a), _check_pool("b", b)
    very = demand == "very_demanding"
    if check_variant(settings.harha_variant) == "sum":
        return _sum_reroll(pa, pb, fixed_faces, settings, demand, side)
    plain = harha_reroll_odds(a, b, fixed_faces, settings, side=side)
    if not demand:
        return plain
    needed = 2 if very else 1
    if side == "b":  # the actor's faces stay: its 7+ dice are known
        high = sum(1 for f in _check_faces("fixed_faces", fixed_faces, pa) if f >= HIGH_FACE)
        success = plain.a_wins if high >= needed else 0.0
    elif not (sum(pa) and sum(pb)):  # an empty pool fixes the comparison; only A's 7+ dice are left to chance
        success = plain.a_wins * harha_difficult(pa, very) if sum(pa) else 0.0
    else:
        comparison = _comparison(settings.harha_variant, pa, pb)
        side_a, side_b = _RandomSide(*pa), _FixedSide(_check_faces("fixed_faces", fixed_faces, pb))
        a_high = _harha_counts(side_a, side_b, comparison, settings.harha_classic_extra, needed)[3]
        success = a_high / (side_a.total * side_b.total)
    return HarhaDifficultOdds(success, 1.0 - success - plain.tie, plain.tie, plain.a_wins - success)


def _sum_reroll(
    pa: tuple[int, int], pb: tuple[int, int], fixed_faces: Sequence[int], settings: Settings,
    demand: str, side: str,
) -> HarhaOdds | HarhaDifficultOdds:
    """H6 after an edge reroll: every face of the rerolling side's one die, resolved by the rules (H7, H8)."""
    counts = (sum(pa), sum(pb))
    sizes = (10 if pa[1] else 8, 10 if pb[1] else 8)
    roller = 0 if side == "a" else 1
    throws = [bool(counts[0]), True]  # the challenger always throws its die; an actor without dice none (H4)
    fixed = list(fixed_faces)
    if len(fixed) != int(throws[1 - roller]):
        raise RulesError(said(N_("fixed_faces: the sum variant throws one die a side (H6), not {n}"), n=len(fixed)))
    faces: list[int | None] = list(range(1, sizes[roller] + 1)) if throws[roller] else [None]
    tally = {"a": 0, "b": 0, "tie": 0, "won_without": 0}
    for x in faces:
        rolled = [Die(sizes[roller], x)] if x is not None else []
        other = [Die(sizes[1 - roller], f) for f in fixed]
        dice_a, dice_b = (rolled, other) if roller == 0 else (other, rolled)
        result = harha_resolve(dice_a, dice_b, "sum", settings, a_count=counts[0], b_count=counts[1])
        if demand:
            h8 = harha_difficult_opposed_result(result, demand == "very_demanding")
            tally[h8.winner] += 1
            tally["won_without"] += int(h8.won_comparison and not h8.success)
        else:
            tally[result.winner] += 1
    n = len(faces)
    if demand:
        return HarhaDifficultOdds(tally["a"] / n, tally["b"] / n, tally["tie"] / n, tally["won_without"] / n)
    return HarhaOdds(tally["a"] / n, tally["b"] / n, tally["tie"] / n)


def harha_sum_difficult(
    a_bonus: int, a_size: int, b_bonus: int, b_size: int, very_demanding: bool = False
) -> HarhaDifficultOdds:
    """H8 opposed under the sum variant (H6): the actor's one die must show 7+.

    A very demanding action needs two dice of 7+, which one die cannot show:
    it always fails under this variant.
    """
    odds = harha_sum_odds(a_bonus, a_size, b_bonus, b_size)
    if very_demanding or a_size < 7 or a_bonus < 1:
        return HarhaDifficultOdds(0.0, 1.0, 0.0, odds.a_wins)
    win_high = 0
    for x in range(7, a_size + 1):
        need = a_bonus + x - b_bonus  # B wins with y > need
        win_high += max(0, min(b_size, need))
    success = win_high / (a_size * b_size)
    return HarhaDifficultOdds(success, 1.0 - success, 0.0, odds.a_wins - success)


def harha_sum_odds(a_bonus: int, a_size: int, b_bonus: int, b_size: int) -> HarhaOdds:
    """Odds of the sum variant (H6): one die plus a bonus each side.

    The challenger B needs a strictly larger total; otherwise the actor A wins.

    Args:
        a_bonus: The actor's bonus (the dice it would have had).
        a_size: The actor's die size.
        b_bonus: The challenger's bonus.
        b_size: The challenger's die size.

    Raises:
        RulesError: a die size below 1.
    """
    for name, size in (("a_size", a_size), ("b_size", b_size)):
        if not _whole_in(size, 1, 1000):
            raise RulesError(said(N_("{name} must be a die size from 1 to 1000, not {value}"), name=name, value=repr(size)))
    if a_bonus < 1:  # H4: an actor without a single die fails
        return HarhaOdds(0.0, 1.0, 0.0)
    b_win = 0
    for x in range(1, a_size + 1):
        # B's roll y wins when b_bonus + y > a_bonus + x.
        need = a_bonus + x - b_bonus + 1
        b_win += max(0, min(b_size, b_size - need + 1))
    total = a_size * b_size
    return HarhaOdds((total - b_win) / total, b_win / total, 0.0)


def harha_difficult(pool: HarhaPool, very_demanding: bool = False, variant: str = "ch23") -> float:
    """P(success) of an unopposed difficult action (H8).

    A difficult action needs at least one die of 7+; a very demanding one two.
    Under the sum variant (H6, ``harha.sum_difficult = one_die``) the action
    rolls one die of the pool's size: a difficult action needs it to show 7+,
    a very demanding one cannot succeed. A pool of no dice fails (H4).

    Args:
        pool: ``(d8 count, d10 count)``.
        very_demanding: Need two dice of 7+.
        variant: The ``harha.variant`` in force.
    """
    n8, n10 = _check_pool("pool", pool)
    if variant == "sum":
        if n8 and n10:
            raise RulesError(said(N_("the sum variant uses one die size (H6)")))
        if very_demanding or not n8 + n10:
            return 0.0
        size = 10 if n10 else 8
        return (size - HIGH_FACE + 1) / size
    p8, p10 = Fraction(2, 8), Fraction(4, 10)
    q8, q10 = 1 - p8, 1 - p10
    none = q8**n8 * q10**n10
    if not very_demanding:
        return float(1 - none)
    one = n8 * p8 * q8 ** max(n8 - 1, 0) * q10**n10 + n10 * p10 * q10 ** max(n10 - 1, 0) * q8**n8
    return float(1 - none - one)


# ---------------------------------------------------------------------------
# Shadowrun


@dataclass(frozen=True, slots=True)
class SROdds:
    """Exact odds of one Shadowrun 4e roll (S4–S7).

    ``hits[h]`` is P(exactly h hits). With the rule of six the list stops where
    the left-out tail mass (``tail``) is below :data:`SR_TAIL`.
    """

    dice: int
    """Dice in the pool before any explosion."""
    hits: tuple[float, ...]
    """P(exactly h hits) at index h (S4, S7)."""
    glitch: float
    """P(glitch): half or more of the dice counted show 1 (S5)."""
    critical_glitch: float
    """P(glitch with no hits) (S6)."""
    tail: float = 0.0
    """Mass of the hit counts left out of ``hits`` (below ``SR_TAIL``)."""

    def success(self, threshold: int) -> float:
        """P(hits >= threshold) (S8); threshold 0 or less always succeeds."""
        if threshold <= 0:
            return 1.0
        return fsum(self.hits[threshold:]) + self.tail

    def mean(self) -> float:
        """Expected hits (over the hits kept)."""
        return fsum(h * p for h, p in enumerate(self.hits))

    def to_json(self, threshold: int | None = None) -> dict[str, Any]:
        """A JSON-able dict; ``success`` is included when a threshold is given."""
        out: dict[str, Any] = {
            "dice": self.dice,
            "hits": _prob_map(self.hits),
            "glitch": self.glitch,
            "critical_glitch": self.critical_glitch,
        }
        if threshold is not None:
            out["threshold"] = threshold
            out["success"] = self.success(threshold)
        return out


@dataclass(frozen=True, slots=True)
class SROpposedOdds(_Contest):
    """Odds of a Shadowrun opposed test (S9); B is the defender."""

    a_wins: float
    """P(A has more hits)."""
    b_wins: float
    """P(B has more hits)."""
    tie: float
    """P(equal hits): a stalemate, or the defender B's win if one is needed."""

    @property
    def b_wins_if_needed(self) -> float:
        """P(defender wins) when a winner is needed (S9)."""
        return self.b_wins + self.tie


@dataclass(frozen=True, slots=True)
class SRExtendedOdds:
    """Odds of a Shadowrun extended test (S10)."""

    threshold: int
    """Hits to accumulate."""
    success_at: tuple[float, ...]
    """P(the threshold is first reached at interval i+1) at index i."""
    critical_glitch: float
    """P(a critical glitch ends the test before the threshold is reached)."""
    glitch: float
    """P(at least one plain glitch among the rolls made before the test ends)."""
    unfinished: float
    """P(neither success nor critical glitch within the intervals computed)."""
    any_glitch: float = 0.0
    """P(at least one glitch, a critical glitch included (S6: a glitch with no hits), among the rolls made)."""

    @property
    def success(self) -> float:
        """P(the threshold is reached within the intervals computed)."""
        return fsum(self.success_at)

    def success_by(self, intervals: int) -> float:
        """P(the threshold is reached within ``intervals`` intervals)."""
        return fsum(self.success_at[: max(intervals, 0)])

    def expected_intervals(self) -> float | None:
        """Mean intervals needed, given success within the computed range."""
        s = self.success
        return fsum((i + 1) * p for i, p in enumerate(self.success_at)) / s if s else None

    def to_json(self) -> dict[str, Any]:
        return {
            "threshold": self.threshold,
            "success": self.success,
            "success_at": {str(i + 1): p for i, p in enumerate(self.success_at)},
            "critical_glitch": self.critical_glitch,
            "glitch": self.glitch,
            "any_glitch": self.any_glitch,
            "unfinished": self.unfinished,
        }


def _sr_plain_counts(n: int) -> tuple[list[int], int, int, int]:
    """Exact counts for n d6 without the rule of six, out of ``6**n`` (S4–S6).

    Returns ``(hits counts, glitch count, critical-glitch count, 6**n)``.
    """
    row = _binom_row(n)
    hits = [row[h] * 2**h * 4 ** (n - h) for h in range(n + 1)]
    glitch = crit = 0
    # ones o, hits h, others (faces 2-4) n-o-h: C(n,o) C(n-o,h) 1^o 2^h 3^rest
    for o in range((n + 1) // 2, n + 1):
        row_o = _binom_row(n - o)
        ways_h = sum(row_o[h] * 2**h * 3 ** (n - o - h) for h in range(n - o + 1))
        glitch += row[o] * ways_h
        crit += row[o] * 3 ** (n - o)
    return hits, glitch, crit, 6**n


def _sr_six_hits(n: int) -> tuple[list[float], float]:
    """P(h hits) for n >= 1 d6 under the rule of six (S7), with the tail left out.

    Each die is a chain: k sixes (each a hit that rolls again), then a last
    face 1–5. The sixes over all n chains number K ~ NegBin(n, 1/6) and the
    last faces are independent of them, uniform on 1–5, so the fives F are
    Binomial(n, 1/5). Hits = K + F, hence, exactly,
    ``P(H = h) = sum_f C(n,f) 4^(n-f) 6^f C(n+h-f-1, h-f) / 6^(n+h)``.
    The list stops once the exact tail ``1 - P(H <= h)`` (kept as an integer
    numerator) is below ``SR_TAIL``.
    """
    row = _binom_row(n)
    fives = [row[f] * 4 ** (n - f) * 6**f for f in range(n + 1)]
    probs: list[float] = []
    cum = 0  # numerator of P(H <= h) over 6**(n+h)
    denom = 6**n
    h = 0
    while True:
        num = 0
        for f in range(min(n, h) + 1):
            num += fives[f] * comb(n + h - f - 1, h - f)
        probs.append(num / denom)
        cum += num
        tail = denom - cum
        if tail * 10**15 < denom:  # tail < 1e-15, exactly
            return probs, tail / denom
        h += 1
        cum *= 6
        denom *= 6


def _sr_six_glitch(n: int, glitch_rerolls: bool) -> tuple[float, float]:
    """Exact P(glitch) and P(critical glitch) under the rule of six (S5–S7).

    With ``glitch_rerolls``: ones O ~ Binomial(n, 1/5) (last faces of the
    chains) and sixes K ~ NegBin(n, 1/6) are independent; a glitch is
    ``2·O >= n + K``, so only ``K <= n`` matters and the sum is finite:
    ``P(O=o, K=k) = C(n,o) 4^(n-o) C(n+k-1,k) / 6^(n+k)``. Without it only the
    original n faces count: O' ~ Binomial(n, 1/6). Either way a critical
    glitch needs no hit, hence no six, so it is the same as without the rule.
    """
    if n == 0:
        return 0.0, 0.0
    row = _binom_row(n)
    _hits, plain_glitch, crit, total = _sr_plain_counts(n)
    if not glitch_rerolls:
        return plain_glitch / total, crit / total
    denom = 6 ** (2 * n)
    num = 0
    for o in range((n + 1) // 2, n + 1):
        wo = row[o] * 4 ** (n - o)
        for k in range(0, 2 * o - n + 1):
            num += wo * comb(n + k - 1, k) * 6 ** (n - k)
    return num / denom, crit / total


def sr_hits(n: int, settings: Settings, rule_of_six: bool = False) -> SROdds:
    """Exact hits, glitch and critical-glitch odds of n Shadowrun dice (S4–S7).

    Without the rule of six: hits ~ Binomial(n, 1/3), a glitch when
    ``2·ones >= n`` (S5), a critical glitch is a glitch with no hit (S6).
    With the rule of six (S7, Edge before the roll) every 6 is a hit and is
    rolled again, without limit. ``sr.glitch_rerolls`` in ``settings``
    makes the extra dice count in both the ones and the total.

    Args:
        n: Dice in the pool (0 means no roll: no hits, no glitch).
        settings: The settings, whole (``sr.glitch_rerolls``, S5).
        rule_of_six: Sixes explode (S7).

    Returns:
        The odds; with the rule of six, ``hits`` stops where the exact tail
        mass is below ``SR_TAIL`` (``tail`` holds that mass).

    Raises:
        RulesError: a negative or too large pool.
    """
    _check_count("n", n)
    if n == 0:
        return SROdds(0, (1.0,), 0.0, 0.0)
    if not rule_of_six:
        hits, glitch, crit, total = _sr_plain_counts(n)
        return SROdds(n, tuple(h / total for h in hits), glitch / total, crit / total)
    probs, tail = _sr_six_hits(n)
    glitch_p, crit_p = _sr_six_glitch(n, settings.sr_glitch_rerolls)
    return SROdds(n, tuple(probs), glitch_p, crit_p, tail)


def sr_opposed(
    n: int,
    m: int,
    settings: Settings,
    rule_of_six_a: bool = False,
    rule_of_six_b: bool = False,
) -> SROpposedOdds:
    """Odds of an opposed test, A's n dice against defender B's m dice (S9).

    More hits wins; equal hits is a tie (the defender wins if a winner is
    needed: see :attr:`SROpposedOdds.b_wins_if_needed`). Unpacks as
    ``a_wins, b_wins, tie``.

    Args:
        n: A's pool.
        m: B's pool (for a group: the largest pool plus 1 per extra member,
            at most +5; the caller builds it).
        settings: The settings, whole.
        rule_of_six_a: A spent Edge before the roll (S7).
        rule_of_six_b: B spent Edge before the roll.
    """
    a = sr_hits(n, settings, rule_of_six_a).hits
    b = sr_hits(m, settings, rule_of_six_b).hits
    cdf_b: list[float] = []
    run = 0.0
    for p in b:
        run += p
        cdf_b.append(run)
    last = cdf_b[-1]
    a_win = fsum(p * (cdf_b[h - 1] if h - 1 < len(b) else last) for h, p in enumerate(a) if h)
    tie = fsum(p * b[h] for h, p in enumerate(a) if h < len(b))
    b_win = fsum(q * fsum(a[: min(h, len(a))]) for h, q in enumerate(b) if h)
    return SROpposedOdds(a_win, b_win, tie)


@dataclass(frozen=True, slots=True)
class SREdgeOdds:
    """What Edge is worth on one test (S7): the same pool without Edge, with Edge
    before the roll, and with Edge after the roll spent only when the roll
    falls short of the threshold."""

    dice: int
    edge_rating: int
    threshold: int
    none: tuple[float, float, float, float]
    """(success, glitch, critical glitch, mean hits) without Edge."""
    before: tuple[float, float, float, float]
    """The same with Edge before the roll: +rating dice, the whole pool follows the rule of six."""
    after: tuple[float, float, float, float]
    """The same with Edge after the roll when it failed: +rating dice that follow the rule of six."""
    after_spent: float
    """P(the roll falls short, so the Edge point after it is spent)."""

    def to_json(self) -> dict[str, Any]:
        def part(v: tuple[float, float, float, float]) -> dict[str, float]:
            return {"success": v[0], "glitch": v[1], "critical_glitch": v[2], "mean_hits": v[3]}

        return {"dice": self.dice, "edge_rating": self.edge_rating, "threshold": self.threshold,
                "none": part(self.none), "before": part(self.before), "after": part(self.after),
                "after_spent": self.after_spent}


def _negbin_cdf(r: int, upto: int) -> list[Fraction]:
    """P(K <= k) for k = 0..upto, K the sixes over r rule-of-six chains (NegBin(r, 1/6))."""
    out: list[Fraction] = []
    run = Fraction(0)
    base = Fraction(5, 6) ** r
    for k in range(upto + 1):
        run += comb(r + k - 1, k) * base / 6**k if r else (1 if k == 0 else 0)
        out.append(run)
    return out


def sr_edge_odds(n: int, edge_rating: int, threshold: int, settings: Settings) -> SREdgeOdds:
    """Exact odds of a success test with and without Edge (S4–S8).

    *none*: n plain dice. *before*: n + rating dice, all following the rule
    of six (S7). *after*: n plain dice; when they show fewer hits than the
    threshold, 1 Edge adds rating dice that follow the rule of six (the sixes
    already on the table do not explode). Glitches count every die thrown
    (``sr.glitch_rerolls``) or only the dice not thrown again by the rule of six.

    After the roll the dice it adds are chains of k sixes and a last face
    1–5, so their hits are K + F and, per chain, the glitch margin is
    2·[last is 1] − (k + 1) (or 2·[k = 0 and last is 1] − 1 without
    ``glitch_rerolls``); the sums are finite and are done in Fractions.

    Raises:
        RulesError: a bad pool, Edge rating or threshold.
    """
    _check_count("n", n)
    if not _whole_in(edge_rating, 1, 20):
        raise RulesError(said(N_("Edge rating must be 1 to 20, not {value}"), value=repr(edge_rating)))
    if not _whole_in(threshold, 1, 100):
        raise RulesError(said(N_("threshold must be 1 to 100, not {value}"), value=repr(threshold)))
    e, t = edge_rating, threshold
    glitch_rerolls = settings.sr_glitch_rerolls
    plain = sr_hits(n, settings)
    none = (plain.success(t), plain.glitch, plain.critical_glitch, n / 3)
    six = sr_hits(n + e, settings, rule_of_six=True)
    before = (six.success(t), six.glitch, six.critical_glitch, 0.4 * (n + e))

    # Plain roll, exact: P(h hits, o ones) over 6**n.
    row = _binom_row(n)
    ways = {}
    for h in range(n + 1):
        row_h = _binom_row(n - h)
        for o in range(n - h + 1):
            ways[h, o] = row[h] * row_h[o] * 2**h * 3 ** (n - h - o)
    denom = 6**n
    # The Edge dice after the roll.
    short_exact = _sr_six_hits_exact(e, t)
    cdf_k = _negbin_cdf(e, n + e + 1)
    row_e = _binom_row(e)

    def glitch_with_edge(c: int) -> Fraction:
        """P(the Edge dice's glitch margin >= c) (S5)."""
        total = Fraction(0)
        if glitch_rerolls:  # 2·O − e − K >= c, O ~ Bin(e, 1/5) independent of K
            for o2 in range(e + 1):
                kmax = 2 * o2 - e - c
                if kmax >= 0:
                    total += Fraction(row_e[o2] * 4 ** (e - o2), 5**e) * cdf_k[min(kmax, len(cdf_k) - 1)]
        else:  # 2·O' − e >= c, O' first faces showing 1 ~ Bin(e, 1/6)
            for o2 in range(e + 1):
                if 2 * o2 - e >= c:
                    total += Fraction(row_e[o2] * 5 ** (e - o2), 6**e)
        return total

    success = Fraction(0)
    glitch = Fraction(0)
    crit = Fraction(0)
    spent = Fraction(0)
    mean = Fraction(0)
    for (h, o), w in ways.items():
        p = Fraction(w, denom)
        if h >= t:
            success += p
            glitch += p if 2 * o >= n else 0
            mean += p * h
            continue
        spent += p
        success += p * short_exact[t - h]
        mean += p * (h + Fraction(2, 5) * e)
        glitch += p * glitch_with_edge(n - 2 * o)
        if h == 0:
            # no hit at all: no six and no five among the Edge dice (last faces 1–4)
            for o2 in range(e + 1):
                if 2 * (o + o2) >= n + e:
                    crit += p * Fraction(row_e[o2] * 3 ** (e - o2), 6**e)
    after = (float(success), float(glitch), float(crit), float(mean))
    return SREdgeOdds(n, e, t, none, before, after, float(spent))


def _sr_six_hits_exact(r: int, upto: int) -> list[Fraction]:
    """P(X >= x) for x = 0..upto, X the hits of r rule-of-six dice (S7), exactly.

    ``P(X = h) = sum_f C(r,f) 4^(r-f) 6^f C(r+h-f-1, h-f) / 6^(r+h)`` as in
    :func:`_sr_six_hits`; the complement of a finite sum is exact.
    """
    row = _binom_row(r)
    below = Fraction(0)
    out: list[Fraction] = []
    for h in range(upto + 1):
        out.append(1 - below)
        num = sum(row[f] * 4 ** (r - f) * 6**f * comb(r + h - f - 1, h - f)
                  for f in range(min(r, h) + 1)) if r else (1 if h == 0 else 0)
        below += Fraction(num, 6 ** (r + h))
    return out


def _hits_sum(pools: Sequence[int], settings: Settings) -> list[float]:
    """Distribution of the summed hits of several plain rolls (S11 helpers)."""
    dist = [1.0]
    for n in pools:
        h = sr_hits(n, settings).hits
        new = [0.0] * (len(dist) + len(h) - 1)
        for i, p in enumerate(dist):
            for j, q in enumerate(h):
                new[i + j] += p * q
        dist = new
    return dist


def sr_teamwork(
    leader_n: int,
    helper_ns: Sequence[int],
    settings: Settings,
    *,
    rule_of_six: bool = False,
    leader_skill: int | None = None,
) -> SROdds:
    """Odds of the leader's roll in a teamwork test (S11).

    The helpers roll first (plain rolls); the sum of their hits becomes extra
    dice for the leader, whose roll is the official result.

    Args:
        leader_n: The leader's own pool.
        helper_ns: Each helper's pool.
        settings: The settings, whole: ``sr.glitch_rerolls`` (S5) and
            ``sr.teamwork_cap`` ("skill": the extra dice are at most the
            leader's skill rating, as in SR4 core; "none": no cap).
        rule_of_six: The leader spent Edge before the roll (S7).
        leader_skill: The leader's rating in the skill, the cap under
            ``sr.teamwork_cap = skill`` (None: no skill, so no extra dice).

    Raises:
        RulesError: a bad pool or skill rating.

    Returns:
        The leader's roll, mixed over the helpers' hits; ``dice`` is
        ``leader_n``.
    """
    _check_count("leader_n", leader_n)
    for i, h in enumerate(helper_ns):
        _check_count(f"helper {i + 1}", h)
    bonus_dist = _hits_sum(helper_ns, settings)
    if settings.sr_teamwork_cap == "skill":
        cap = leader_skill or 0  # a leader without the skill: no extra dice (as the roll, S11)
        if not _whole_in(cap, 0, MAX_POOL):
            raise RulesError(said(N_("the leader's skill rating must be a whole number, not {value} (S11)"),
                                  value=repr(leader_skill)))
        if len(bonus_dist) > cap + 1:
            bonus_dist = bonus_dist[:cap] + [fsum(bonus_dist[cap:])]
    size = 0
    parts: list[tuple[float, SROdds]] = []
    for bonus, p in enumerate(bonus_dist):
        if p == 0.0:
            continue
        roll = sr_hits(min(leader_n + bonus, MAX_POOL), settings, rule_of_six)
        parts.append((p, roll))
        size = max(size, len(roll.hits))
    hits = [fsum(p * r.hits[h] for p, r in parts if h < len(r.hits)) for h in range(size)]
    return SROdds(
        dice=leader_n,
        hits=tuple(hits),
        glitch=fsum(p * r.glitch for p, r in parts),
        critical_glitch=fsum(p * r.critical_glitch for p, r in parts),
        tail=fsum(p * r.tail for p, r in parts),
    )


def _sr_roll_outcomes(n: int, hurried: bool) -> list[tuple[int, bool, float]]:
    """``(hits, glitched, probability)`` of one plain roll (S4–S6, S10).

    Hurried (S10): 2s count as 1s for glitches.
    """
    bad = 2 if hurried else 1
    other = 6 - 2 - bad
    row = _binom_row(n)
    total = 6**n
    acc: dict[tuple[int, bool], int] = {}
    for g in range(n + 1):
        row_g = _binom_row(n - g)
        glitched = 2 * g >= n and n > 0
        for h in range(n - g + 1):
            ways = row[g] * row_g[h] * bad**g * 2**h * other ** (n - g - h)
            key = (h, glitched)
            acc[key] = acc.get(key, 0) + ways
    return [(h, gl, w / total) for (h, gl), w in acc.items() if w]


def sr_extended(
    n: int,
    threshold: int,
    settings: Settings,
    max_intervals: int = 100,
    hurried: bool = False,
    progress: int = 0,
) -> SRExtendedOdds:
    """Odds of an extended test: n dice each interval until the hits total
    reaches ``threshold`` (S10).

    A critical glitch (no hits, half or more ones) ends the test; a plain
    glitch does not (the GM decides what it spoils), but its probability is
    reported: ``glitch`` for a plain glitch, ``any_glitch`` for any glitch, the
    critical one that ends the test included. Hurried: 2s count as 1s for glitches.

    Args:
        n: Dice rolled each interval.
        threshold: Hits to accumulate (at least 1).
        settings: The settings, whole.
        max_intervals: Intervals to follow.
        hurried: The hurried interval (S10).
        progress: Hits already accumulated (S10: from a test under way, with
            the threshold, pool and hurrying now in force).

    Raises:
        RulesError: a bad pool, threshold or interval count.
    """
    _check_count("n", n)
    if not _whole_in(threshold, 1, 10_000):
        raise RulesError(said(N_("threshold must be a whole number from 1 to 10000, not {value}"), value=repr(threshold)))
    if not _whole_in(max_intervals, 1, 10_000):
        raise RulesError(said(N_("max_intervals must be from 1 to 10000, not {value}"), value=repr(max_intervals)))
    if not _whole_in(progress, 0, threshold - 1):
        raise RulesError(said(N_("progress must be a whole number from 0 to {most} (below the threshold), not {value}"),
                              most=threshold - 1, value=repr(progress)))
    outcomes = _sr_roll_outcomes(n, hurried)
    # state: (accumulated hits < threshold, a plain glitch so far) -> probability
    states = [[0.0] * threshold, [0.0] * threshold]
    states[0][progress] = 1.0
    success_at: list[float] = []
    crit: list[float] = []
    glitched: list[float] = []  # mass that glitched and then ended
    crit_first: list[float] = []  # mass whose first glitch is the critical one that ends it
    for _ in range(max_intervals):
        new = [[0.0] * threshold, [0.0] * threshold]
        done: list[float] = []
        for dirty in (0, 1):
            row = states[dirty]
            for acc in range(threshold):
                mass = row[acc]
                if mass == 0.0:
                    continue
                for h, gl, p in outcomes:
                    q = mass * p
                    if gl and h == 0:  # critical glitch: the test ends (S6, S10)
                        crit.append(q)
                        (glitched if dirty else crit_first).append(q)
                    elif acc + h >= threshold:
                        done.append(q)
                        if dirty or gl:
                            glitched.append(q)
                    else:
                        new[1 if (dirty or gl) else 0][acc + h] += q
        success_at.append(fsum(done))
        states = new
        if not any(states[0]) and not any(states[1]):
            break
    still_dirty = fsum(states[1])
    return SRExtendedOdds(
        threshold=threshold,
        success_at=tuple(success_at) + (0.0,) * (max_intervals - len(success_at)),
        critical_glitch=fsum(crit),
        glitch=fsum(glitched) + still_dirty,
        unfinished=fsum(states[0]) + still_dirty,
        any_glitch=fsum(glitched) + still_dirty + fsum(crit_first),
    )


def harha_contest_odds(
    a: HarhaPool,
    b: HarhaPool,
    settings: Settings,
    demand: str = "",
) -> HarhaOdds | HarhaDifficultOdds:
    """The odds of one opposed Harhapolku roll under any ``harha.variant`` (H3–H6),
    with H8's demand on the actor A when ``demand`` is "difficult" or "very_demanding".

    Pools are (d8, d10) counts. Under "same_size" and "sum" a pool has one die size
    (H5, H6); the sum variant throws one die of that size.
    """
    if demand not in ("", "difficult", "very_demanding"):
        raise RulesError(said(N_("unknown demand {demand}: difficult or very_demanding (H8)"), demand=repr(demand)))
    very = demand == "very_demanding"
    variant = check_variant(settings.harha_variant)
    if variant == "sum":
        (a8, a10), (b8, b10) = _check_pool("a", a), _check_pool("b", b)
        sizes = (10 if a10 else 8, 10 if b10 else 8)  # an empty pool: d8 (it throws no die)
        if demand:
            return harha_sum_difficult(a8 + a10, sizes[0], b8 + b10, sizes[1], very)
        return harha_sum_odds(a8 + a10, sizes[0], b8 + b10, sizes[1])
    if demand:
        return harha_difficult_opposed(a, b, settings, very)
    return harha_odds(a, b, settings)
