"""Exact odds (polku.rules.odds) against brute force, Fractions and icepool.

Oracles: every face combination of small pools (R5–R7, H3, H4, H6–H8,
S4–S6, S9–S11); for the rule of six (S7) an independent Fraction convolution
of per-die explosion chains cut at a depth whose left-out mass is far below
1e-12; icepool 2.1.3 for a few bigger pools (custom evaluators that see the
outcomes in descending order; icepool's ``sort_pair`` is not used because it
is wrong when the left pool is the smaller one, see MEASURED.md).
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from functools import lru_cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polku.rules.dice import RulesError
from polku.rules.odds import (
    SR_TAIL,
    harha_difficult,
    harha_odds,
    harha_reroll_value,
    harha_sum_odds,
    raja_odds,
    spirit_odds,
    sr_extended,
    sr_hits,
    sr_opposed,
    sr_teamwork,
)
from polku.rules.system import Settings

TOL = 1e-12
DEFAULT = Settings()


def H(variant: str, classic_extra: bool = True) -> Settings:
    """Settings with a Harhapolku comparison (and ``harha.classic_extra``)."""
    return Settings(harha_variant=variant, harha_classic_extra=classic_extra)


def close(x: float, y: float | Fraction, tol: float = TOL) -> bool:
    return abs(x - float(y)) <= tol


def assert_seq(got, want: dict, tol: float = TOL) -> None:
    """got: sequence indexed by key; want: dict key -> probability."""
    keys = set(range(len(got))) | set(want)
    for k in keys:
        g = got[k] if k < len(got) else 0.0
        assert close(g, want.get(k, 0), tol), (k, g, want.get(k, 0))


# ---------------------------------------------------------------------------
# Rajapolku brute force (R5, R6, R7)


def raja_outcome(a, b, exhausted=True):
    """Winner (+1 A, -1 B, 0 tie) and degrees, for dice given as (face, is_ability)."""
    sa = sorted((f for f, _ in a), reverse=True)
    sb = sorted((f for f, _ in b), reverse=True)
    res = 0
    for x, y in zip(sa, sb):
        if x != y:
            res = 1 if x > y else -1
            break
    if res == 0 and len(sa) != len(sb) and exhausted:
        res = 1 if len(sa) > len(sb) else -1
    if res == 0:
        return 0, 0
    win, lose = (a, sb) if res == 1 else (b, sa)
    top = lose[0] if lose else 0
    return res, sum(2 if ab else 1 for f, ab in win if f > top)


@lru_cache(maxsize=None)
def raja_side(normal: int, ability: int) -> tuple[tuple[tuple, int], ...]:
    """Each distinct roll of a side (sorted (face, ability) pairs) with its count."""
    kinds = [False] * normal + [True] * ability
    counts = Counter(
        tuple(sorted(zip(faces, kinds), reverse=True))
        for faces in itertools.product(range(1, 11), repeat=len(kinds))
    )
    return tuple(counts.items())


@lru_cache(maxsize=None)
def raja_brute(an, aa, bn, ba, exhausted=True):
    res = Counter()
    for ra, wa in raja_side(an, aa):
        for rb, wb in raja_side(bn, ba):
            res[raja_outcome(ra, rb, exhausted)] += wa * wb
    total = 10 ** (an + aa + bn + ba)
    return {k: Fraction(v, total) for k, v in res.items()}


def check_raja(an, aa, bn, ba, exhausted):
    want = raja_brute(an, aa, bn, ba, exhausted)
    got = raja_odds(an, aa, bn, ba, Settings(raja_exhausted=exhausted))
    assert close(got.a_wins, sum(p for (r, _), p in want.items() if r == 1))
    assert close(got.b_wins, sum(p for (r, _), p in want.items() if r == -1))
    assert close(got.tie, want.get((0, 0), 0))
    assert_seq(got.a_degrees, {d: p for (r, d), p in want.items() if r == 1})
    assert_seq(got.b_degrees, {d: p for (r, d), p in want.items() if r == -1})


RAJA_SIDES = [(0, 0), (1, 0), (2, 0), (3, 0), (0, 1), (1, 1), (2, 1), (0, 2)]


@pytest.mark.parametrize("exhausted", [True, False])
@pytest.mark.parametrize("a", RAJA_SIDES)
@pytest.mark.parametrize("b", [(0, 0), (1, 0), (2, 0), (1, 1), (0, 2)])
def test_raja_matches_brute_force(a, b, exhausted):
    check_raja(*a, *b, exhausted)


@pytest.mark.parametrize("exhausted", [True, False])
@pytest.mark.parametrize("a,b", [((3, 0), (3, 0)), ((2, 1), (3, 0)), ((2, 1), (2, 1)), ((1, 2), (3, 0))])
def test_raja_3v3_matches_brute_force(a, b, exhausted):
    check_raja(*a, *b, exhausted)


def test_raja_worked_examples_by_brute_force_helper():
    """The brute-force oracle itself follows EX A, EX B, EX C and R5's choices."""
    n = lambda *fs: [(f, False) for f in fs]  # noqa: E731
    assert raja_outcome(n(7, 7, 3), n(8, 5, 3)) == (-1, 1)  # EX A
    assert raja_outcome(n(7, 7, 3), n(7, 5, 3)) == (1, 0)  # EX B: a narrow win
    assert raja_outcome(n(10, 8, 7), n(6, 5)) == (1, 3)  # EX C
    assert raja_outcome(n(7, 5, 2), n(7, 5)) == (1, 0)
    assert raja_outcome(n(7, 5, 2), n(7, 5), exhausted=False) == (0, 0)
    assert raja_outcome([(9, True), (2, False)], n(5)) == (1, 2)  # R7


def test_raja_simple_closed_forms():
    one = raja_odds(1, 0, 1, 0, DEFAULT)
    assert close(one.a_wins, Fraction(45, 100)) and close(one.tie, Fraction(10, 100))
    # 1 die vs nothing: the side with dice wins when exhausted (R5) with 1 degree.
    lone = raja_odds(1, 0, 0, 0, DEFAULT)
    assert lone.a_wins == 1.0 and lone.a_degrees == (0.0, 1.0)
    assert raja_odds(1, 0, 0, 0, Settings(raja_exhausted=False)).tie == 1.0
    assert raja_odds(0, 0, 0, 0, DEFAULT).tie == 1.0
    assert raja_odds(0, 1, 0, 0, DEFAULT).a_degrees == (0.0, 0.0, 1.0)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 7), st.integers(0, 3), st.integers(0, 7), st.integers(0, 3), st.booleans()
)
def test_raja_properties(an, aa, bn, ba, exhausted):
    r = raja_odds(an, aa, bn, ba, Settings(raja_exhausted=exhausted))
    s = raja_odds(bn, ba, an, aa, Settings(raja_exhausted=exhausted))
    assert close(r.a_wins + r.b_wins + r.tie, 1)
    assert close(r.a_wins, s.b_wins) and close(r.b_wins, s.a_wins) and close(r.tie, s.tie)
    assert close(sum(r.a_degrees), r.a_wins) and close(sum(r.b_degrees), r.b_wins)
    assert close(sum(r.degrees), 1 - r.tie)
    assert all(p >= 0 for p in r.a_degrees + r.b_degrees)
    assert len(r.a_degrees) == an + 2 * aa + 1
    bare = raja_odds(an, aa, bn, ba, Settings(raja_exhausted=exhausted), degrees=False)
    assert (bare.a_wins, bare.b_wins, bare.tie) == (r.a_wins, r.b_wins, r.tie)
    # One more die never hurts (inserting a die makes a sorted roll
    # lexicographically no smaller).
    more = raja_odds(an + 1, aa, bn, ba, Settings(raja_exhausted=exhausted))
    assert more.a_wins >= r.a_wins - TOL


def test_raja_json():
    data = raja_odds(2, 1, 2, 0, DEFAULT).to_json()
    assert set(data) >= {"a_wins", "b_wins", "tie", "degrees"}
    assert close(data["a_wins"] + data["b_wins"] + data["tie"], 1)
    assert close(sum(data["degrees"].values()), 1 - data["tie"])
    assert all(isinstance(k, str) for k in data["degrees"])


def test_raja_conditional_degrees():
    r = raja_odds(3, 0, 3, 0, DEFAULT)
    assert close(sum(r.degrees_given_win()), 1)


def test_spirit_odds_uses_remaining_charges():
    s = spirit_odds(5, 3, DEFAULT)
    r = raja_odds(4, 0, 2, 0, DEFAULT)
    assert (s.a_wins, s.b_wins, s.tie, s.a_degrees) == (r.a_wins, r.b_wins, r.tie, r.a_degrees)
    assert spirit_odds(1, 1, DEFAULT).tie == 1.0
    with pytest.raises(RulesError):
        spirit_odds(0, 3, DEFAULT)


@pytest.mark.parametrize("bad", [-1, 1.5, True, 10_000])
def test_raja_rejects_bad_counts(bad):
    with pytest.raises(RulesError):
        raja_odds(bad, 0, 1, 0, DEFAULT)


# ---------------------------------------------------------------------------
# Harhapolku brute force (H3, H4)


def harha_outcome(fa, fb, variant, extra):
    """+1 A wins, -1 B wins, 0 tie, straight from H3 / H4."""
    sa, sb = sorted(fa, reverse=True), sorted(fb, reverse=True)
    a_pos = sum(x > y for x, y in zip(sa, sb))
    b_pos = sum(x < y for x, y in zip(sa, sb))
    if variant == "ch23":
        if not sa:
            return -1
        return -1 if b_pos > a_pos else 1
    if extra:
        a_pos += max(0, len(sa) - len(sb))
        b_pos += max(0, len(sb) - len(sa))
    return (a_pos > b_pos) - (a_pos < b_pos)


@lru_cache(maxsize=None)
def harha_side(pool):
    sizes = [8] * pool[0] + [10] * pool[1]
    counts = Counter(
        tuple(sorted(faces, reverse=True))
        for faces in itertools.product(*(range(1, s + 1) for s in sizes))
    )
    return tuple(counts.items())


@lru_cache(maxsize=None)
def harha_brute(a, b):
    """{(variant, extra): (P(A), P(B), P(tie))} for all four rule readings."""
    acc = {key: Counter() for key in itertools.product(("ch23", "classic"), (True, False))}
    for ra, wa in harha_side(a):
        for rb, wb in harha_side(b):
            for (variant, extra), c in acc.items():
                c[harha_outcome(ra, rb, variant, extra)] += wa * wb
    total = 8 ** (a[0] + b[0]) * 10 ** (a[1] + b[1])
    return {
        key: (Fraction(c[1], total), Fraction(c[-1], total), Fraction(c[0], total))
        for key, c in acc.items()
    }


def test_harha_worked_examples_by_brute_force_helper():
    assert harha_outcome([7, 4, 4], [6, 5, 3], "classic", True) == 1  # EX D
    assert harha_outcome([6, 5, 3], [7, 4, 4], "ch23", True) == -1  # EX E (B challenges)
    assert harha_outcome([5, 2, 2], [4, 3, 1, 1, 1, 1, 1, 1], "ch23", True) == 1  # EX F
    assert harha_outcome([8], [8, 8, 8, 3], "ch23", True) == 1  # EX G


HARHA_POOLS = [(0, 0), (1, 0), (0, 1), (2, 0), (1, 1), (0, 2), (2, 1), (1, 2), (3, 0)]


@pytest.mark.parametrize("a", HARHA_POOLS)
@pytest.mark.parametrize("b", [(0, 0), (1, 0), (0, 1), (1, 1), (2, 0), (0, 2)])
def test_harha_matches_brute_force(a, b):
    want = harha_brute(a, b)
    for (variant, extra), exp in want.items():
        got = harha_odds(a, b, H(variant, extra))
        assert all(close(g, e) for g, e in zip(got, exp)), (variant, extra, tuple(got), exp)


@pytest.mark.parametrize("a,b", [((2, 1), (1, 2)), ((3, 0), (0, 3)), ((1, 2), (2, 1))])
def test_harha_3v3_matches_brute_force(a, b):
    for (variant, extra), exp in harha_brute(a, b).items():
        got = harha_odds(a, b, H(variant, extra))
        assert all(close(g, e) for g, e in zip(got, exp)), (variant, extra)


@settings(max_examples=40, deadline=None)
@given(
    st.tuples(st.integers(0, 4), st.integers(0, 3)),
    st.tuples(st.integers(0, 4), st.integers(0, 3)),
    st.booleans(),
)
def test_harha_properties(a, b, extra):
    for variant in ("ch23", "classic"):
        r = harha_odds(a, b, H(variant, extra))
        assert close(r.a_wins + r.b_wins + r.tie, 1)
        assert min(r) >= 0
    ch = harha_odds(a, b, H("ch23"))
    assert ch.tie == 0.0
    cl, lc = harha_odds(a, b, H("classic", extra)), harha_odds(b, a, H("classic", extra))
    assert close(cl.a_wins, lc.b_wins) and close(cl.tie, lc.tie)
    # H4: B needs strictly more positions, so ch23's actor does at least as
    # well as a classic side that must win outright (positions beyond the
    # smaller pool never help B in ch23).
    if sum(a) and sum(b):
        assert ch.a_wins >= harha_odds(a, b, H("classic", False)).a_wins - TOL


def test_harha_empty_pools():
    assert tuple(harha_odds((0, 0), (2, 1), DEFAULT)) == (0.0, 1.0, 0.0)  # H4: actor has no dice
    assert tuple(harha_odds((1, 0), (0, 0), DEFAULT)) == (1.0, 0.0, 0.0)
    assert tuple(harha_odds((0, 0), (0, 0), H("classic"))) == (0.0, 0.0, 1.0)
    assert tuple(harha_odds((2, 0), (0, 0), H("classic"))) == (1.0, 0.0, 0.0)
    assert tuple(harha_odds((2, 0), (0, 0), H("classic", False))) == (0.0, 0.0, 1.0)


def test_harha_rejects_bad_input():
    with pytest.raises(RulesError):
        harha_odds((1, 0), (1, 0), H("sum"))
    with pytest.raises(RulesError):
        harha_odds((1,), (1, 0), DEFAULT)  # type: ignore[arg-type]
    with pytest.raises(RulesError):
        harha_odds((-1, 0), (1, 0), DEFAULT)


def test_harha_json():
    data = harha_odds((2, 1), (1, 2), H("classic")).to_json()
    assert set(data) == {"a_wins", "b_wins", "tie"}
    assert close(sum(data.values()), 1)


def reroll_brute(a, b_faces, variant, extra):
    sizes = [8] * a[0] + [10] * a[1]
    wins = total = 0
    for fa in itertools.product(*(range(1, s + 1) for s in sizes)):
        total += 1
        wins += harha_outcome(fa, b_faces, variant, extra) == 1
    return Fraction(wins, total)


@pytest.mark.parametrize("variant", ["ch23", "classic"])
@pytest.mark.parametrize(
    "a,b,fa,fb",
    [
        ((3, 0), (3, 0), [6, 5, 3], [7, 4, 4]),  # EX E: the actor lost
        ((1, 2), (2, 0), [10, 2, 1], [8, 7]),
        ((2, 1), (3, 1), [1, 1, 9], [8, 8, 8, 3]),
        ((1, 0), (0, 2), [4], [9, 2]),
    ],
)
def test_harha_reroll_value(variant, a, b, fa, fb):
    now, after = harha_reroll_value(a, b, fa, fb, H(variant))
    assert now == float(harha_outcome(fa, fb, variant, True) == 1)
    assert close(after, reroll_brute(a, fb, variant, True))
    # The other side rerolling: its win probability by brute force.
    now_b, after_b = harha_reroll_value(a, b, fa, fb, H(variant), side="b")
    sizes = [8] * b[0] + [10] * b[1]
    outs = [
        harha_outcome(fa, fbb, variant, True)
        for fbb in itertools.product(*(range(1, s + 1) for s in sizes))
    ]
    assert now_b == float(harha_outcome(fa, fb, variant, True) == -1)
    assert close(after_b, Fraction(outs.count(-1), len(outs)))


def test_harha_reroll_value_worked_examples():
    assert harha_reroll_value((3, 0), (3, 0), [6, 5, 3], [7, 4, 4], DEFAULT)[0] == 0.0  # EX E
    assert harha_reroll_value((3, 0), (8, 0), [5, 2, 2], [4, 3, 1, 1, 1, 1, 1, 1], DEFAULT)[0] == 1.0  # EX F
    assert harha_reroll_value((1, 0), (4, 0), [8], [8, 8, 8, 3], DEFAULT)[0] == 1.0  # EX G
    assert harha_reroll_value((3, 0), (3, 0), [7, 4, 4], [6, 5, 3], H("classic"))[0] == 1.0  # EX D
    with pytest.raises(RulesError):
        harha_reroll_value((1, 0), (1, 0), [9], [3], DEFAULT)  # a d8 cannot show 9
    with pytest.raises(RulesError):
        harha_reroll_value((2, 0), (1, 0), [3], [3], DEFAULT)


@pytest.mark.parametrize("a_bonus,a_size,b_bonus,b_size", [(4, 6, 3, 6), (0, 8, 0, 10), (2, 10, 5, 8), (0, 6, 9, 6)])
def test_harha_sum_odds(a_bonus, a_size, b_bonus, b_size):
    # an actor without a single die fails (H4), as resolve_sum judges it
    b_wins = sum(
        a_bonus < 1 or b_bonus + y > a_bonus + x for x in range(1, a_size + 1) for y in range(1, b_size + 1)
    )
    r = harha_sum_odds(a_bonus, a_size, b_bonus, b_size)
    assert close(r.b_wins, Fraction(b_wins, a_size * b_size))
    assert close(r.a_wins + r.b_wins, 1) and r.tie == 0.0


def test_harha_sum_worked_example():
    # EX H: 2 + 2 + roll 2 = 6 vs 3 + roll 5 = 8: the special background wins.
    assert 3 + 5 > 4 + 2
    assert harha_sum_odds(4, 6, 3, 6).b_wins > 0


@pytest.mark.parametrize("pool", [(0, 0), (1, 0), (0, 1), (2, 1), (1, 2), (3, 0), (0, 3)])
def test_harha_difficult(pool):
    sizes = [8] * pool[0] + [10] * pool[1]
    rolls = list(itertools.product(*(range(1, s + 1) for s in sizes)))
    high = [sum(f >= 7 for f in r) for r in rolls]
    assert close(harha_difficult(pool), Fraction(sum(h >= 1 for h in high), len(rolls)))
    assert close(harha_difficult(pool, True), Fraction(sum(h >= 2 for h in high), len(rolls)))


# ---------------------------------------------------------------------------
# Shadowrun (S4–S11)


@lru_cache(maxsize=None)
def sr_brute(n):
    hits, glitch, crit = Counter(), 0, 0
    for faces in itertools.product(range(1, 7), repeat=n):
        h = sum(f >= 5 for f in faces)
        g = 2 * faces.count(1) >= n
        hits[h] += 1
        glitch += g
        crit += g and h == 0
    total = 6**n
    return {h: Fraction(c, total) for h, c in hits.items()}, Fraction(glitch, total), Fraction(crit, total)


@pytest.mark.parametrize("n", range(1, 7))
def test_sr_plain_matches_brute_force(n):
    hits, glitch, crit = sr_brute(n)
    r = sr_hits(n, DEFAULT)
    assert_seq(r.hits, hits)
    assert close(r.glitch, glitch) and close(r.critical_glitch, crit)
    assert r.tail == 0.0
    for t in range(0, n + 2):
        assert close(r.success(t), sum(p for h, p in hits.items() if h >= t))


@lru_cache(maxsize=None)
def six_oracle(n, glitch_rerolls, depth=24):
    """Rule of six (S7) by convolving per-die explosion chains, in Fractions.

    A die rolls k sixes and then a last face 1–5 with probability 6^-(k+1);
    chains longer than ``depth`` sixes are left out, at most n·6^-(depth+1)
    of mass (< 1e-18 here). Per die: hits, and the glitch margin
    2·ones − dice counted (S5), the extra dice counting only with
    ``glitch_rerolls``.
    """
    die = Counter()
    for k in range(depth + 1):
        p = Fraction(1, 6 ** (k + 1))
        for last in range(1, 6):
            hits = k + (last == 5)
            if glitch_rerolls:
                margin = 2 * (last == 1) - (k + 1)
            else:
                margin = 2 * (k == 0 and last == 1) - 1
            die[hits, margin] += p
    dist = Counter({(0, 0): Fraction(1)})
    for _ in range(n):
        new = Counter()
        for (h, m), p in dist.items():
            for (h2, m2), q in die.items():
                new[h + h2, m + m2] += p * q
        dist = new
    hits, glitch, crit = Counter(), Fraction(0), Fraction(0)
    for (h, m), p in dist.items():
        hits[h] += p
        if m >= 0:
            glitch += p
            crit += p if h == 0 else 0
    return hits, glitch, crit


@pytest.mark.parametrize("glitch_rerolls", [True, False])
@pytest.mark.parametrize("n", [1, 2, 3, 4, 6])
def test_sr_rule_of_six_matches_fraction_oracle(n, glitch_rerolls):
    hits, glitch, crit = six_oracle(n, glitch_rerolls)
    r = sr_hits(n, Settings(sr_glitch_rerolls=glitch_rerolls), rule_of_six=True)
    assert_seq(r.hits, {h: p for h, p in hits.items() if h < len(r.hits)})
    assert close(r.glitch, glitch) and close(r.critical_glitch, crit)
    # The left-out tail is what the oracle has beyond the last kept entry.
    beyond = sum(p for h, p in hits.items() if h >= len(r.hits))
    assert r.tail < SR_TAIL and close(r.tail, beyond, 1e-17)


@pytest.mark.parametrize("n", [1, 5, 12, 30, 50])
def test_sr_rule_of_six_tail_bound(n):
    r = sr_hits(n, DEFAULT, rule_of_six=True)
    assert 0 <= r.tail < SR_TAIL
    assert close(sum(r.hits) + r.tail, 1, 1e-13)
    # Mean hits per die under the rule of six: 2/6 + (1/6)·(mean of a new die) = 0.4.
    assert close(r.mean(), 0.4 * n, 1e-9)
    # The rule of six never lowers the chance of any threshold.
    plain = sr_hits(n, DEFAULT)
    assert all(r.success(t) >= plain.success(t) - TOL for t in range(n + 3))


def test_sr_rule_of_six_exact_entries():
    # One die: P(0) = 4/6, P(j) = (10/6)·6^-j for j >= 1.
    r = sr_hits(1, DEFAULT, rule_of_six=True)
    assert r.hits[0] == 4 / 6
    for j in range(1, len(r.hits)):
        assert close(r.hits[j], Fraction(10, 6) / 6**j, 1e-18)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 50), st.booleans(), st.booleans())
def test_sr_properties(n, ros, gr):
    r = sr_hits(n, Settings(sr_glitch_rerolls=gr), ros)
    assert close(sum(r.hits) + r.tail, 1)
    assert 0 <= r.critical_glitch <= r.glitch <= 1
    assert r.critical_glitch <= r.hits[0] + TOL
    assert r.success(0) == 1.0
    data = r.to_json(threshold=2)
    assert close(data["success"], r.success(2)) and "glitch" in data and "critical_glitch" in data


def test_sr_glitch_is_half_or_more():
    # S5: 2 dice glitch on a single 1 (half), 3 dice need two.
    assert close(sr_hits(2, DEFAULT).glitch, 1 - Fraction(25, 36))
    assert close(sr_hits(3, DEFAULT).glitch, Fraction(3 * 5 + 1, 216))
    assert sr_hits(0, DEFAULT).hits == (1.0,) and sr_hits(0, DEFAULT).glitch == 0.0


def opposed_oracle(n, m, ros_a, ros_b):
    ha = six_oracle(n, True)[0] if ros_a else sr_brute(n)[0]
    hb = six_oracle(m, True)[0] if ros_b else sr_brute(m)[0]
    a = b = t = Fraction(0)
    for x, p in ha.items():
        for y, q in hb.items():
            if x > y:
                a += p * q
            elif x < y:
                b += p * q
            else:
                t += p * q
    return a, b, t


@pytest.mark.parametrize(
    "n,m,ros_a,ros_b",
    [(1, 1, False, False), (3, 2, False, False), (2, 4, False, False), (3, 3, True, False), (2, 3, True, True)],
)
def test_sr_opposed(n, m, ros_a, ros_b):
    got = sr_opposed(n, m, DEFAULT, ros_a, ros_b)
    want = opposed_oracle(n, m, ros_a, ros_b)
    assert all(close(g, w) for g, w in zip(got, want)), (tuple(got), want)
    a, b, t = got
    assert close(a + b + t, 1)
    assert close(got.b_wins_if_needed, b + t)
    assert set(got.to_json()) == {"a_wins", "b_wins", "tie"}


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 30), st.integers(0, 30), st.booleans(), st.booleans())
def test_sr_opposed_properties(n, m, ra, rb):
    r, s = sr_opposed(n, m, DEFAULT, ra, rb), sr_opposed(m, n, DEFAULT, rb, ra)
    assert close(r.a_wins + r.b_wins + r.tie, 1)
    assert close(r.a_wins, s.b_wins) and close(r.tie, s.tie)


@pytest.mark.parametrize("leader,helpers", [(2, [1]), (1, [2, 1]), (3, []), (0, [2])])
def test_sr_teamwork(leader, helpers):
    # Helpers' summed hits by brute force, then the leader's roll by brute force.
    bonus = Counter()
    for faces in itertools.product(range(1, 7), repeat=sum(helpers)):
        bonus[sum(f >= 5 for f in faces)] += Fraction(1, 6 ** sum(helpers))
    hits, glitch, crit = Counter(), Fraction(0), Fraction(0)
    for extra, p in bonus.items():
        if leader + extra == 0:
            hits[0] += p
            continue
        h, g, c = sr_brute(leader + extra)
        for k, q in h.items():
            hits[k] += p * q
        glitch += p * g
        crit += p * c
    r = sr_teamwork(leader, helpers, DEFAULT)
    assert_seq(r.hits, hits)
    assert close(r.glitch, glitch) and close(r.critical_glitch, crit)


def test_sr_teamwork_cap():
    capped = sr_teamwork(2, [6, 6], Settings(sr_teamwork_cap="skill"), leader_skill=1)
    one_more = sr_teamwork(2, [6, 6], Settings(sr_teamwork_cap="skill"), leader_skill=100)
    assert close(sum(capped.hits), 1) and len(capped.hits) == 4
    assert one_more.success(3) > capped.success(3)


def extended_oracle(n, threshold, intervals, hurried):
    """Straightforward recursion in Fractions over brute-force single rolls (S10)."""
    roll = Counter()
    for faces in itertools.product(range(1, 7), repeat=n):
        bad = sum(f == 1 or (hurried and f == 2) for f in faces)
        roll[sum(f >= 5 for f in faces), n > 0 and 2 * bad >= n] += Fraction(1, 6**n)
    success_at = [Fraction(0)] * intervals
    crit = glitch = unfinished = Fraction(0)
    frontier = Counter({(0, False): Fraction(1)})
    for i in range(intervals):
        nxt = Counter()
        for (acc, dirty), p in frontier.items():
            for (h, g), q in roll.items():
                w = p * q
                if g and h == 0:
                    crit += w
                    glitch += w if dirty else 0
                elif acc + h >= threshold:
                    success_at[i] += w
                    glitch += w if (dirty or g) else 0
                else:
                    nxt[acc + h, dirty or g] += w
        frontier = nxt
    for (_acc, dirty), p in frontier.items():
        unfinished += p
        glitch += p if dirty else 0
    return success_at, crit, glitch, unfinished


@pytest.mark.parametrize("n,threshold,intervals,hurried", [(2, 3, 6, False), (3, 4, 5, True), (1, 2, 8, False), (4, 6, 4, True)])
def test_sr_extended(n, threshold, intervals, hurried):
    success_at, crit, glitch, unfinished = extended_oracle(n, threshold, intervals, hurried)
    r = sr_extended(n, threshold, DEFAULT, max_intervals=intervals, hurried=hurried)
    assert len(r.success_at) == intervals
    assert all(close(g, w) for g, w in zip(r.success_at, success_at))
    assert close(r.critical_glitch, crit) and close(r.glitch, glitch)
    assert close(r.unfinished, unfinished)
    assert close(r.success + r.critical_glitch + r.unfinished, 1)
    data = r.to_json()
    assert close(data["success"], r.success)


def test_sr_extended_long_run():
    r = sr_extended(8, 10, DEFAULT)
    assert close(r.success + r.critical_glitch + r.unfinished, 1)
    assert r.unfinished < 1e-12
    assert 3 < r.expected_intervals() < 6
    assert sr_extended(8, 10, DEFAULT, hurried=True).critical_glitch > r.critical_glitch
    with pytest.raises(RulesError):
        sr_extended(5, 0, DEFAULT)


# ---------------------------------------------------------------------------
# icepool on bigger pools (custom evaluators: descending order, no sort_pair)

icepool = pytest.importorskip("icepool")


def _benchmark_evaluators():
    """The icepool evaluators of benchmarks/odds.py (one formulation, used by both):
    checked here against brute force, then against the engine on bigger pools."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "odds.py"
    spec = importlib.util.spec_from_file_location("polku_benchmark_odds", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.RajaEval, module.HarhaEval


_RajaEval, _HarhaEval = _benchmark_evaluators()


def test_icepool_evaluators_agree_with_brute_force():
    d10 = icepool.d10
    for a, b in [((1, 1), (2, 0)), ((2, 0), (0, 1))]:
        for exhausted in (True, False):
            die = _RajaEval().evaluate(
                d10.pool(a[0]), d10.pool(a[1]), d10.pool(b[0]), d10.pool(b[1]), exhausted=exhausted
            )
            want = raja_brute(*a, *b, exhausted)
            for o in die.outcomes():
                assert die.probability(o) == want[o]
    pool = lambda p: icepool.Pool([icepool.d8] * p[0] + [icepool.d10] * p[1])  # noqa: E731
    for a, b in [((2, 0), (1, 1)), ((0, 1), (2, 0))]:
        for variant in ("ch23", "classic"):
            die = _HarhaEval().evaluate(pool(a), pool(b), variant=variant, extra=True)
            want = harha_brute(a, b)[variant, True]
            assert (die.probability(1), die.probability(-1), die.probability(0)) == want


@pytest.mark.parametrize("a,b", [((5, 0), (5, 0)), ((3, 2), (4, 0)), ((6, 0), (4, 1))])
def test_raja_matches_icepool(a, b):
    d10 = icepool.d10
    die = _RajaEval().evaluate(d10.pool(a[0]), d10.pool(a[1]), d10.pool(b[0]), d10.pool(b[1]))
    r = raja_odds(*a, *b, DEFAULT)
    for (res, deg), p in zip(die.outcomes(), die.probabilities()):
        if res == 1:
            assert close(r.a_degrees[deg], p)
        elif res == -1:
            assert close(r.b_degrees[deg], p)
        else:
            assert close(r.tie, p)
    # icepool's own lexicographic comparison agrees on who wins.
    lex = d10.pool(sum(a)).leximax("cmp", d10.pool(sum(b)))
    assert close(r.a_wins, lex.probability(1)) and close(r.tie, lex.probability(0))


@pytest.mark.parametrize("a,b", [((3, 1), (2, 2)), ((2, 2), (4, 1))])
def test_harha_matches_icepool(a, b):
    pool = lambda p: icepool.Pool([icepool.d8] * p[0] + [icepool.d10] * p[1])  # noqa: E731
    for variant in ("ch23", "classic"):
        die = _HarhaEval().evaluate(pool(a), pool(b), variant=variant, extra=True)
        got = harha_odds(a, b, H(variant))
        assert close(got.a_wins, die.probability(1)) and close(got.b_wins, die.probability(-1))
        assert close(got.tie, die.probability(0))


def test_sr_rule_of_six_matches_icepool():
    n = 12
    base = icepool.d6.map(lambda f: icepool.Vector((int(f >= 5), 1 if f == 1 else -1, int(f == 6))))
    chain = base.explode(lambda v: v[2] >= 1, depth=22)  # left out: 12·6^-23 < 1e-16
    hits = n @ chain.map(lambda v: v[0])
    margin = n @ chain.map(lambda v: v[1])
    r = sr_hits(n, DEFAULT, rule_of_six=True)
    for h in range(len(r.hits)):
        assert close(r.hits[h], hits.probability(h))
    assert close(r.glitch, (margin >= 0).probability(True))


# ---------------------------------------------------------------------------
# New questions: R6 raja.degrees = beyond, R7 visibly supernatural, R11 a whole
# spirit combat, H5 same size, H8 opposed, S7 Edge before / after / none, S10
# from a test under way. Each against brute force of its own.


def raja_outcome_full(a, b, exhausted=True):
    """(winner, degrees all, degrees beyond, visible) straight from R5–R7 on (face, ability) pairs."""
    # ability dice first among equal faces, as the rules module sorts
    sa = sorted(a, key=lambda d: (-d[0], not d[1]))
    sb = sorted(b, key=lambda d: (-d[0], not d[1]))
    res, _ = raja_outcome(a, b, exhausted)
    if res == 0:
        return 0, 0, 0, False
    win, lose = (sa, sb) if res == 1 else (sb, sa)
    top = lose[0][0] if lose else 0
    counted = [d for d in win if d[0] > top]
    weight = [2 if ab else 1 for _, ab in counted]
    visible = bool(win) and win[0][1] and win[0][0] > top
    # beyond: an ordinary die tied with an ability die at the top face is the deciding one (R6)
    at_top = [ab for f, ab in counted if f == counted[0][0]] if counted else []
    deciding = 0 if not counted else 1 if not all(at_top) else 2
    return res, sum(weight), sum(weight) - deciding, visible


@lru_cache(maxsize=None)
def raja_brute_full(an, aa, bn, ba, exhausted=True):
    res = Counter()
    for ra, wa in raja_side(an, aa):
        for rb, wb in raja_side(bn, ba):
            res[raja_outcome_full(ra, rb, exhausted)] += wa * wb
    total = 10 ** (an + aa + bn + ba)
    return {k: Fraction(v, total) for k, v in res.items()}


@pytest.mark.parametrize("exhausted", [True, False])
@pytest.mark.parametrize("a,b", [((2, 0), (1, 0)), ((1, 1), (2, 0)), ((2, 1), (1, 1)), ((0, 2), (1, 0)),
                                 ((1, 2), (2, 0)), ((0, 1), (0, 1)), ((3, 0), (2, 1)), ((1, 1), (1, 0)),
                                 ((2, 2), (1, 0))])
def test_raja_degrees_beyond_and_visible_match_brute_force(a, b, exhausted):
    want = raja_brute_full(*a, *b, exhausted)
    got = raja_odds(*a, *b, Settings(raja_exhausted=exhausted, raja_degrees="beyond"))
    assert close(got.a_wins, sum(p for (r, *_), p in want.items() if r == 1))
    assert_seq(got.a_degrees, _marg(want, 1, 2))
    assert_seq(got.b_degrees, _marg(want, -1, 2))
    assert close(got.a_visible, sum(p for (r, _, _, v), p in want.items() if r == 1 and v))
    assert close(got.b_visible, sum(p for (r, _, _, v), p in want.items() if r == -1 and v))
    full = raja_odds(*a, *b, Settings(raja_exhausted=exhausted))
    assert_seq(full.a_degrees, _marg(want, 1, 1))
    assert close(full.a_visible, got.a_visible)


def _marg(want, side, index):
    out: dict[int, Fraction] = {}
    for key, p in want.items():
        if key[0] == side:
            out[key[index]] = out.get(key[index], 0) + p
    return out


def test_raja_worked_examples_beyond():
    # EX C's pools: a win over 6,5 by 10,8,7 has 3 degrees, 2 beyond the deciding die
    assert raja_outcome_full(((10, False), (8, False), (7, False)), ((6, False), (5, False)))[1:3] == (3, 2)
    assert raja_outcome_full(((7, False), (7, False), (3, False)), ((8, False), (5, False), (3, False)))[1:3] == (1, 0)
    # R7: 8*,7 vs 8,5 is not visible, 8*,8 vs 5 is
    assert not raja_outcome_full(((8, True), (7, False)), ((8, False), (5, False)))[3]
    assert raja_outcome_full(((8, True), (8, False)), ((5, False),))[3]
    # R6 beyond: 9✦,9 vs 5 = 2 degrees (the ordinary 9 decides, the 9✦ counts two)
    assert raja_outcome_full(((9, True), (9, False)), ((5, False),))[1:4] == (3, 2, True)
    assert raja_outcome_full(((9, True), (5, False)), ((3, False),))[1:4] == (3, 1, True)


def spirit_fight_oracle(a, b, exhausted=True, loss_rule="degrees", degrees_rule="all", wounds=(0, 0, "")):
    """R11 to the end, in Fractions, over brute-force exchanges (ties change nothing).

    ``wounds`` = (A's R9 penalty, B's, "remove" | "oppose" | "" for raja.spirit_wounds = false).
    """
    from polku.rules.rajapolku import SpiritFight

    pa_, pb_, how = wounds

    def dice(x, y):
        if how == "remove":
            return max(1, x - pa_), max(1, y - pb_)
        if how == "oppose":
            return x + pb_, y + pa_
        return x, y

    @lru_cache(maxsize=None)
    def win(x, y):
        if y == 0:
            return Fraction(1), Fraction(0)
        if x == 0:
            return Fraction(0), Fraction(1)
        dx, dy = dice(x, y)
        dist = raja_brute_full(dx, 0, dy, 0, exhausted)
        tie = sum(p for k, p in dist.items() if k[0] == 0)
        pa = pe = Fraction(0)
        for (r, d_all, d_beyond, _), p in dist.items():
            if r == 0:
                continue
            d = d_all if degrees_rule == "all" else d_beyond
            loss = 1 if loss_rule == "one" else max(1, d)
            nxt = (x, max(0, y - loss)) if r == 1 else (max(0, x - loss), y)
            w, _ = win(*nxt)
            pa += p / (1 - tie) * w
        pe = 1 - pa
        return pa, pe

    assert SpiritFight(a, b).a_charges == a
    return win(a, b)


@pytest.mark.parametrize("a,b,exhausted,loss,rule", [
    (1, 1, True, "degrees", "all"), (2, 1, True, "degrees", "all"), (3, 2, True, "degrees", "beyond"),
    (2, 3, False, "one", "all"), (3, 3, True, "one", "all"), (3, 1, False, "degrees", "beyond"),
])
def test_spirit_fight_matches_an_exact_recursion(a, b, exhausted, loss, rule):
    from polku.rules.odds import spirit_fight_odds

    pa, pb = spirit_fight_oracle(a, b, exhausted, loss, rule)
    got = spirit_fight_odds(a, b, Settings(raja_exhausted=exhausted, raja_degrees=rule, raja_spirit_loss=loss))
    assert close(got.a_wins, pa) and close(got.b_wins, pb)
    assert close(sum(got.a_charges_left) , 1) and got.a_charges_left[a] > 0
    # the winner loses nothing in the exchange it wins; it never ends with more than it began
    assert len(got.a_charges_left) == a + 1
    assert got.to_json()["exchange"]["a_wins"] == got.exchange.a_wins


def test_spirit_fight_expected_exchanges_one_charge_each():
    from polku.rules.odds import spirit_fight_odds

    # 1 v 1: every exchange that is not a full tie ends it; ties (1/10) are rolled again
    got = spirit_fight_odds(1, 1, DEFAULT)
    assert close(got.expected_exchanges, Fraction(10, 9))
    assert close(got.a_wins, Fraction(1, 2))
    with pytest.raises(RulesError, match="at least 1 charge left"):
        spirit_fight_odds(0, 3, DEFAULT)


@pytest.mark.parametrize("a,b,wounds,spirit_wounds,penalty", [
    (3, 2, (1, 0), True, "remove"), (2, 3, (2, 1), True, "remove"), (3, 2, (1, 0), True, "oppose"),
    (2, 2, (0, 2), True, "oppose"), (3, 2, (2, 0), False, "remove"), (2, 2, (3, 3), True, "remove"),
])
def test_spirit_fight_with_wounds_matches_an_exact_recursion(a, b, wounds, spirit_wounds, penalty):
    """R11 with R9 (raja.spirit_wounds): a wounded side rolls fewer charges (at least 1) under remove,
    the other side more under oppose; false ignores the wounds. Charges (hit points) are not lost."""
    from polku.rules.odds import spirit_fight_odds

    how = penalty if spirit_wounds else ""
    pa, pb = spirit_fight_oracle(a, b, wounds=(*wounds, how))
    settings = Settings(raja_spirit_wounds=spirit_wounds, raja_wound_penalty=penalty)
    got = spirit_fight_odds(a, b, settings, a_penalty=wounds[0], b_penalty=wounds[1])
    assert close(got.a_wins, pa) and close(got.b_wins, pb)
    if spirit_wounds and wounds[0] != wounds[1]:  # a wound on one side changes the odds
        plain = spirit_fight_odds(a, b, settings)
        assert got.a_wins != plain.a_wins


def test_spirit_fight_odds_take_more_than_30_charges():
    """R11: powerful beings have far more charges; odds take any number the sheet allows (0–99)."""
    from polku.rules.odds import spirit_fight_odds

    got = spirit_fight_odds(40, 2, DEFAULT)
    assert got.a_wins > 0.999 and close(got.a_wins + got.b_wins, 1)
    assert len(got.a_charges_left) == 41
    even = spirit_fight_odds(35, 35, DEFAULT)
    assert close(even.a_wins, 0.5, 1e-9) and close(sum(even.b_charges_left), 1, 1e-9)


@pytest.mark.parametrize("pool, want", [((2, 0), Fraction(2, 8)), ((0, 3), Fraction(4, 10)), ((1, 0), Fraction(1, 4)),
                                        ((0, 0), Fraction(0))])
def test_harha_difficult_under_the_sum_variant_rolls_one_die(pool, want):
    """H8 under H6 (harha.sum_difficult = one_die): the one die of the pool's size must show 7+,
    however many dice the pool counts; a very demanding action has no chance; no dice fail (H4)."""
    assert close(harha_difficult(pool, False, "sum"), want)
    assert harha_difficult(pool, True, "sum") == 0.0
    # the same pool outside the sum variant rolls every die
    if pool[0] + pool[1] > 1:
        assert harha_difficult(pool, False, "ch23") > harha_difficult(pool, False, "sum")


def harha_difficult_opposed_brute(a, b, variant, extra, needed):
    """(success, tie) of H8 opposed straight from the faces; A is the actor."""
    sizes_a = [8] * a[0] + [10] * a[1]
    total = succ = tie = Fraction(0)
    for fa in itertools.product(*(range(1, s + 1) for s in sizes_a)):
        high = sum(f >= 7 for f in fa)
        for rb, wb in harha_side(b):
            res = harha_outcome(list(fa), list(rb), variant, extra)
            total += wb
            if res == 1 and high >= needed:
                succ += wb
            if res == 0:
                tie += wb
    return succ / total, tie / total


@pytest.mark.parametrize("a,b", [((1, 0), (1, 0)), ((2, 0), (1, 0)), ((1, 1), (2, 0)), ((0, 2), (1, 1)),
                                 ((2, 1), (1, 0)), ((3, 0), (2, 0)), ((0, 0), (1, 0)), ((2, 0), (0, 0))])
@pytest.mark.parametrize("variant,extra", [("ch23", True), ("classic", True), ("classic", False)])
@pytest.mark.parametrize("very", [False, True])
def test_harha_difficult_opposed_matches_brute_force(a, b, variant, extra, very):
    from polku.rules.odds import harha_difficult_opposed

    succ, tie = harha_difficult_opposed_brute(a, b, variant, extra, 2 if very else 1)
    got = harha_difficult_opposed(a, b, H(variant, extra), very)
    assert close(got.success, succ) and close(got.tie, tie)
    assert close(got.success + got.failure + got.tie, 1)
    plain = harha_odds(a, b, H(variant, extra))
    assert close(got.won_without, plain.a_wins - got.success)


def test_harha_same_size_is_chapter_23_on_one_die_size():
    assert harha_odds((3, 0), (2, 0), H("same_size")) == harha_odds((3, 0), (2, 0), H("ch23"))
    assert harha_odds((0, 2), (0, 3), H("same_size")) == harha_odds((0, 2), (0, 3), H("ch23"))
    with pytest.raises(RulesError, match="one die size"):
        harha_odds((1, 1), (2, 0), H("same_size"))


@pytest.mark.parametrize("a_bonus,a_size,b_bonus,b_size,very", [(4, 8, 3, 8, False), (2, 10, 3, 8, False),
                                                                (3, 8, 3, 8, True), (0, 8, 1, 8, False)])
def test_harha_sum_difficult_matches_brute_force(a_bonus, a_size, b_bonus, b_size, very):
    from polku.rules.harhapolku import difficult_opposed, resolve_sum
    from polku.rules.odds import harha_sum_difficult

    succ = Fraction(0)
    for x in range(1, a_size + 1):
        for y in range(1, b_size + 1):
            r = difficult_opposed(resolve_sum(a_bonus, x, b_bonus, y), very)
            succ += r.success
    got = harha_sum_difficult(a_bonus, a_size, b_bonus, b_size, very)
    assert close(got.success, succ / (a_size * b_size))


def edge_after_oracle(n, e, t, glitch_rerolls, depth=22):
    """Edge after a failed roll (S7), in Fractions: every plain roll times Edge chains."""
    chain = Counter()  # (hits, glitch margin) of one rule-of-six die
    for k in range(depth + 1):
        p = Fraction(1, 6 ** (k + 1))
        for last in range(1, 6):
            ones = (last == 1) if glitch_rerolls else (k == 0 and last == 1)
            counted = (k + 1) if glitch_rerolls else 1
            chain[k + (last == 5), 2 * ones - counted] += p
    edge = Counter({(0, 0): Fraction(1)})
    for _ in range(e):
        nxt = Counter()
        for (h, m), p in edge.items():
            for (h2, m2), q in chain.items():
                nxt[h + h2, m + m2] += p * q
        edge = nxt
    succ = glitch = crit = Fraction(0)
    for faces in itertools.product(range(1, 7), repeat=n):
        p = Fraction(1, 6**n)
        h = sum(f >= 5 for f in faces)
        margin = 2 * sum(f == 1 for f in faces) - n
        if h >= t:
            succ += p
            glitch += p if margin >= 0 else 0
            continue
        for (h2, m2), q in edge.items():
            if h + h2 >= t:
                succ += p * q
            if margin + m2 >= 0:
                glitch += p * q
                crit += p * q if h + h2 == 0 else 0
    return succ, glitch, crit


@pytest.mark.parametrize("n,e,t,gr", [(1, 1, 1, True), (2, 2, 1, True), (3, 2, 2, False), (2, 3, 3, True),
                                      (4, 1, 2, False), (0, 2, 1, True)])
def test_sr_edge_after_matches_an_oracle(n, e, t, gr):
    from polku.rules.odds import sr_edge_odds

    succ, glitch, crit = edge_after_oracle(n, e, t, gr)
    got = sr_edge_odds(n, e, t, Settings(sr_glitch_rerolls=gr))
    assert close(got.after[0], succ) and close(got.after[1], glitch) and close(got.after[2], crit)
    before = sr_hits(n + e, Settings(sr_glitch_rerolls=gr), rule_of_six=True)
    assert got.before[:3] == (before.success(t), before.glitch, before.critical_glitch)
    assert got.none[0] == sr_hits(n, DEFAULT).success(t)
    # Edge never hurts the chance of success, whenever it is spent
    assert got.before[0] >= got.none[0] and got.after[0] >= got.none[0]
    assert close(got.after_spent, 1 - got.none[0])


def test_sr_edge_odds_json_and_bounds():
    from polku.rules.odds import sr_edge_odds

    data = sr_edge_odds(6, 3, 2, DEFAULT).to_json()
    assert set(data) == {"dice", "edge_rating", "threshold", "none", "before", "after", "after_spent"}
    assert set(data["after"]) == {"success", "glitch", "critical_glitch", "mean_hits"}
    with pytest.raises(RulesError, match="Edge rating"):
        sr_edge_odds(6, 0, 2, DEFAULT)


def test_sr_extended_from_progress_under_way():
    # with progress p the test is the same as a fresh one with threshold - p
    for n, thr, p in ((3, 6, 2), (2, 4, 3), (4, 8, 5)):
        now = sr_extended(n, thr, DEFAULT, max_intervals=6, progress=p)
        fresh = sr_extended(n, thr - p, DEFAULT, max_intervals=6)
        assert all(close(x, y) for x, y in zip(now.success_at, fresh.success_at))
        assert close(now.critical_glitch, fresh.critical_glitch)
    with pytest.raises(RulesError, match="below the threshold"):
        sr_extended(3, 4, DEFAULT, progress=4)


def test_harha_reroll_value_same_size_is_chapter_23():
    # H7 under H5: an edge reroll of the actor's 3d8 against the challenger's 7,4,4
    same = harha_reroll_value((3, 0), (3, 0), [6, 5, 3], [7, 4, 4], H("same_size"))
    assert same == harha_reroll_value((3, 0), (3, 0), [6, 5, 3], [7, 4, 4], H("ch23"))
    assert same[0] == 0.0 and 0 < same[1] < 1
    with pytest.raises(RulesError, match="one die size"):
        harha_reroll_value((1, 1), (2, 0), [6, 9], [7, 4], H("same_size"))


def test_H8_contest_odds_literal_one_die_each() -> None:
    """1d8 actor vs 1d8 challenger, chapter 23, difficult: the actor keeps a win
    unless the challenger rolls higher (H4), and must show a 7+ (H8):
    P = P(a=7, b<=7) + P(a=8) = 7/64 + 8/64."""
    from polku.rules.odds import HarhaDifficultOdds, harha_contest_odds

    o = harha_contest_odds((1, 0), (1, 0), H("ch23"), demand="difficult")
    assert isinstance(o, HarhaDifficultOdds)
    assert abs(o.success - 15 / 64) < 1e-12
    # the actor wins the comparison with a 1–6 die too, but that is a failure under H8
    assert abs(o.won_without - sum(a / 64 for a in range(1, 7))) < 1e-12
    very = harha_contest_odds((1, 0), (1, 0), H("ch23"), demand="very_demanding")
    assert isinstance(very, HarhaDifficultOdds) and very.success == 0.0


def test_H3_to_H6_contest_odds_pick_the_variant_the_campaign_uses() -> None:
    from polku.rules.dice import RulesError
    from polku.rules.odds import harha_contest_odds, harha_odds, harha_sum_odds

    assert harha_contest_odds((2, 1), (1, 2), H("classic", True)) == harha_odds((2, 1), (1, 2), H("classic", True))
    assert harha_contest_odds((3, 0), (2, 0), H("same_size")) == harha_odds((3, 0), (2, 0), H("ch23"))
    assert harha_contest_odds((0, 3), (2, 0), H("sum")) == harha_sum_odds(3, 10, 2, 8)
    with pytest.raises(RulesError):
        harha_contest_odds((2, 1), (1, 0), H("same_size"))
    with pytest.raises(RulesError):
        harha_contest_odds((1, 0), (1, 0), H("ch23"), demand="hard")


# ---------------------------------------------------------------------------
# H7 + H8 + H6: the odds of a contest after an edge reroll, any variant and demand


def _reroll_brute(pa, pb, fixed, st, demand, side):
    """Every roll of the rerolling side against the faces on the table, resolved by the rules (H3–H8)."""
    from polku.rules import harhapolku as hp
    from polku.rules.dice import Die

    sum_variant = st.harha_variant == "sum"
    counts = (pa[0] + pa[1], pb[0] + pb[1])
    size_of = [10 if p[1] else 8 for p in (pa, pb)]
    roller = 0 if side == "a" else 1
    if sum_variant:
        sizes = [size_of[roller]] if (roller == 1 or counts[0]) else []
    else:
        sizes = [8] * (pa, pb)[roller][0] + [10] * (pa, pb)[roller][1]
    tally = Counter()
    for faces in itertools.product(*[range(1, s + 1) for s in sizes]):
        rolled = [Die(s, f) for s, f in zip(sizes, faces)]
        lying = [Die(size_of[1 - roller] if sum_variant else 10, f) for f in fixed]
        da, db = (rolled, lying) if roller == 0 else (lying, rolled)
        kw = {"a_count": counts[0], "b_count": counts[1]} if sum_variant else {}
        r = hp.resolve(da, db, None, st, **kw)
        if demand:
            r = hp.difficult_opposed(r, demand == "very_demanding")
        tally[r.winner] += 1
    n = sum(tally.values())
    return tally["a"] / n, tally["b"] / n, tally["tie"] / n


@pytest.mark.parametrize("variant,extra", [("ch23", True), ("classic", True), ("classic", False)])
@pytest.mark.parametrize("demand", ["", "difficult", "very_demanding"])
@pytest.mark.parametrize("pa,pb,fa,fb", [((2, 1), (1, 1), (7, 3, 10), (8, 2)), ((1, 0), (2, 0), (7,), (6, 1)),
                                          ((0, 2), (1, 0), (9, 7), (5,)), ((2, 0), (0, 0), (8, 1), ()),
                                          ((0, 0), (1, 1), (), (3, 9))])
def test_harha_reroll_contest_matches_brute_force(variant, extra, demand, pa, pb, fa, fb):
    from polku.rules.odds import harha_reroll_contest

    st = H(variant, extra)
    for side, fixed in (("a", fb), ("b", fa)):
        got = harha_reroll_contest(pa, pb, fixed, st, demand, side=side)
        g = (got.success, got.failure, got.tie) if demand else (got.a_wins, got.b_wins, got.tie)
        want = _reroll_brute(pa, pb, fixed, st, demand, side)
        assert all(close(x, y) for x, y in zip(g, want)), (side, g, want)


@pytest.mark.parametrize("demand", ["", "difficult"])
@pytest.mark.parametrize("pa,pb,fa,fb", [((3, 0), (2, 0), (7,), (4,)), ((0, 2), (1, 0), (3,), (8,)),
                                          ((0, 0), (0, 3), (), (9,))])
def test_harha_reroll_contest_under_the_sum_variant_matches_the_rules(demand, pa, pb, fa, fb):
    from polku.rules.odds import harha_reroll_contest

    st = H("sum")
    for side, fixed in (("a", fb), ("b", fa)):
        got = harha_reroll_contest(pa, pb, fixed, st, demand, side=side)
        g = (got.success, got.failure, got.tie) if demand else (got.a_wins, got.b_wins, got.tie)
        want = _reroll_brute(pa, pb, fixed, st, demand, side)
        assert all(close(x, y) for x, y in zip(g, want)), (side, g, want)


# ---------------------------------------------------------------------------
# S10: the chance of any glitch in an extended test, the critical one included


def _extended_glitch_brute(n: int, threshold: int, intervals: int) -> tuple[Fraction, Fraction]:
    """(P(a plain glitch among the rolls made), P(any glitch, a critical one included)), by enumeration."""
    outcomes: Counter[tuple[int, bool]] = Counter()
    for faces in itertools.product(range(1, 7), repeat=n):
        hits = sum(f >= 5 for f in faces)
        glitch = 2 * sum(f == 1 for f in faces) >= n
        outcomes[hits, glitch] += 1
    total = 6**n
    plain = anyg = Fraction(0)
    states = {(0, False, False): Fraction(1)}  # (hits so far, plain glitch seen, any glitch seen)
    for _ in range(intervals):
        nxt: dict = {}
        for (acc, pg, ag), p in states.items():
            for (h, gl), w in outcomes.items():
                q = p * Fraction(w, total)
                if gl and h == 0:  # critical glitch: the test ends
                    plain += q if pg else 0
                    anyg += q
                elif acc + h >= threshold:
                    plain += q if (pg or gl) else 0
                    anyg += q if (ag or gl) else 0
                else:
                    key = (acc + h, pg or gl, ag or gl)
                    nxt[key] = nxt.get(key, 0) + q
        states = nxt
    for (_acc, pg, ag), p in states.items():
        plain += p if pg else 0
        anyg += p if ag else 0
    return plain, anyg


@pytest.mark.parametrize("n,threshold,intervals", [(1, 2, 3), (2, 3, 3), (3, 2, 2), (2, 1, 4)])
def test_sr_extended_any_glitch_counts_the_critical_glitch(n, threshold, intervals):
    plain, anyg = _extended_glitch_brute(n, threshold, intervals)
    got = sr_extended(n, threshold, DEFAULT, max_intervals=intervals)
    assert close(got.glitch, plain) and close(got.any_glitch, anyg)
    assert got.any_glitch > got.glitch
