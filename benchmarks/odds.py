"""Benchmark: exact odds in polku.rules.odds against icepool 2.1.3 on the same questions.

Usage::

    python benchmarks/odds.py [--json] [--quick] [--timeout SECONDS]

Each question is answered by polku (median of several calls in this warm
process) and by icepool (median of up to three runs, each in a freshly forked
child so that icepool's caches start cold, as they would for a new question;
a run longer than ``--timeout`` is stopped and shown as ``> N s``). Every
icepool answer is checked against polku's (``max diff``: the largest
absolute difference over every probability both report).

icepool formulations:

* Rajapolku without degrees: ``pool_a.leximax('cmp', pool_b)`` (R5, the
  longer roll wins an equal prefix, i.e. ``raja.exhausted``).
* Rajapolku with degrees: a ``MultisetEvaluator`` over four pools (A normal,
  A ability, B normal, B ability) in descending order returning
  ``(winner, degrees)`` (R5–R7).
* Harhapolku: a ``MultisetEvaluator`` over the two mixed d8/d10 pools in
  descending order scoring positions as H3/H4 do. icepool's ``sort_pair`` is
  not used: it is wrong when the left pool is the smaller (MEASURED.md).
* Shadowrun, rule of six (S5–S7): ``d6`` mapped to vectors
  ``(hit, glitch margin, six)``, exploded on sixes to depth 22 (the mass left
  out is below n·6^-23 < 1e-16), then ``n @`` the hits and the margins
  separately, and the critical glitch from ``n @`` a die counting ones among
  dice showing 1–4. (Summing the joint vector instead took 11 s for 12 dice.)
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import statistics
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable

try:
    import polku  # noqa: F401
except ImportError:  # running from a checkout without an install
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import icepool

from polku.rules.odds import (
    harha_difficult_opposed,
    harha_odds,
    harha_sum_difficult,
    raja_odds,
    spirit_fight_odds,
    sr_edge_odds,
    sr_extended,
    sr_hits,
    sr_opposed,
    sr_teamwork,
)

# ---------------------------------------------------------------------------
# icepool formulations
# (tests/test_odds.py loads these two, checks them against brute force, then
# checks the engine against them on pools too big to enumerate.)


class RajaEval(icepool.MultisetEvaluator):
    """(winner, degrees) of a Rajapolku challenge (R5–R7)."""

    def initial_state(self, order, outcomes, *sizes, exhausted=True):
        if order != icepool.Order.Descending:
            raise icepool.UnsupportedOrder()
        # placed A, placed B, result, trailing side's placed count at the
        # decision, first side seen, its degrees, other side not seen yet
        return (0, 0, 0, 0, 0, 0, True)

    def next_state(self, state, order, outcome, an, aa, bn, ba):
        pa, pb, res, tdone, leader, deg, opn = state
        ca, cb = an + aa, bn + ba
        if opn:
            if leader == 0:
                if ca and cb:
                    opn = False
                elif ca:
                    leader, deg = 1, an + 2 * aa
                elif cb:
                    leader, deg = -1, bn + 2 * ba
            elif leader == 1:
                opn, deg = (False, deg) if cb else (True, deg + an + 2 * aa)
            else:
                opn, deg = (False, deg) if ca else (True, deg + bn + 2 * ba)
        pa2, pb2 = pa + ca, pb + cb
        if res == 0 and ca != cb:
            res = 1 if ca > cb else -1
            tdone = pb2 if res > 0 else pa2
        return (pa2, pb2, res, tdone, leader, deg, opn)

    def final_outcome(self, state, order, outcomes, an, aa, bn, ba, *, exhausted=True):
        pa, pb, res, tdone, leader, deg, opn = state
        if res == 0:
            return (0, 0)
        if tdone == (bn + ba if res > 0 else an + aa) and not exhausted:
            return (0, 0)
        return (res, deg if leader == res else 0)


class HarhaEval(icepool.MultisetEvaluator):
    """+1 / -1 / 0 for a Harhapolku contest (H3, H4)."""

    def initial_state(self, order, outcomes, na, nb, *, variant="ch23", extra=True):
        if order != icepool.Order.Descending:
            raise icepool.UnsupportedOrder()
        return (0, 0, 0, max(na, nb) if (variant == "classic" and extra) else min(na, nb))

    def next_state(self, state, order, outcome, ca, cb):
        pa, pb, diff, cap = state
        top = max(pa, pb)
        pa2, pb2 = pa + ca, pb + cb
        hi, lo, sign = (pa2, pb2, 1) if pa2 >= pb2 else (pb2, pa2, -1)
        return (pa2, pb2, diff + sign * max(0, min(hi, cap) - max(lo, top)), cap)

    def final_outcome(self, state, order, outcomes, na, nb, *, variant="ch23", extra=True):
        diff = state[2]
        if variant == "ch23":
            return -1 if na == 0 or diff < 0 else 1
        return (diff > 0) - (diff < 0)


def ip_raja_wins(n: int, m: int):
    die = icepool.d10.pool(n).leximax("cmp", icepool.d10.pool(m))
    return die


def ip_raja_wins_summary(die) -> dict[str, float]:
    return {
        "a_wins": float(die.probability(1)),
        "b_wins": float(die.probability(-1)),
        "tie": float(die.probability(0)),
    }


def ip_raja_degrees(n: int, m: int):
    d10 = icepool.d10
    return RajaEval().evaluate(d10.pool(n), d10.pool(0), d10.pool(m), d10.pool(0))


def ip_raja_degrees_summary(die) -> dict[str, float]:
    out: dict[str, float] = {}
    for (res, deg), p in zip(die.outcomes(), die.probabilities()):
        key = {1: f"a{deg}", -1: f"b{deg}", 0: "tie"}[res]
        out[key] = float(p)
    return out


def ip_harha(a: tuple[int, int], b: tuple[int, int], variant: str):
    pool = lambda p: icepool.Pool([icepool.d8] * p[0] + [icepool.d10] * p[1])  # noqa: E731
    return HarhaEval().evaluate(pool(a), pool(b), variant=variant, extra=True)


def ip_sr_six(n: int):
    base = icepool.d6.map(
        lambda f: icepool.Vector((int(f >= 5), 1 if f == 1 else -1, int(f == 6)))
    )
    chain = base.explode(lambda v: v[2] >= 1, depth=22)
    hits = n @ chain.map(lambda v: v[0])
    glitch = (n @ chain.map(lambda v: v[1])) >= 0
    ones_without_hits = n @ icepool.Die({1: 1, 0: 3})  # ones among dice showing 1-4
    crit = Fraction(2, 3) ** n * (ones_without_hits * 2 >= n).probability(True)
    return hits, glitch, crit


def ip_sr_summary(result) -> dict[str, float]:
    hits, glitch, crit = result
    out = {f"h{h}": float(p) for h, p in zip(hits.outcomes(), hits.probabilities())}
    out["glitch"] = float(glitch.probability(True))
    out["critical_glitch"] = float(crit)
    return out


# ---------------------------------------------------------------------------
# polku answers as comparable dicts


def raja_summary(r, with_degrees: bool) -> dict[str, float]:
    if not with_degrees:
        return {"a_wins": r.a_wins, "b_wins": r.b_wins, "tie": r.tie}
    out = {"tie": r.tie}
    out.update({f"a{d}": p for d, p in enumerate(r.a_degrees)})
    out.update({f"b{d}": p for d, p in enumerate(r.b_degrees)})
    return out


def harha_summary(r) -> dict[str, float]:
    return {"a_wins": r.a_wins, "b_wins": r.b_wins, "tie": r.tie}


def harha_ip_summary(die) -> dict[str, float]:
    return {
        "a_wins": float(die.probability(1)),
        "b_wins": float(die.probability(-1)),
        "tie": float(die.probability(0)),
    }


def sr_summary(r) -> dict[str, float]:
    out = {f"h{h}": p for h, p in enumerate(r.hits)}
    out["glitch"] = r.glitch
    out["critical_glitch"] = r.critical_glitch
    return out


class Question:
    def __init__(
        self,
        name: str,
        polku: Callable[[], Any],
        polku_summary: Callable[[Any], dict[str, float]],
        ip: Callable[[], Any] | None,
        ip_summary: Callable[[Any], dict[str, float]] | None,
    ) -> None:
        self.name = name
        self.polku = polku
        self.polku_summary = polku_summary
        self.ip = ip
        self.ip_summary = ip_summary


def questions() -> list[Question]:
    qs: list[Question] = []
    for n in (3, 5, 10, 20):
        qs.append(Question(
            f"Rajapolku {n}v{n}",
            lambda n=n: raja_odds(n, 0, n, 0, degrees=False),
            lambda r: raja_summary(r, False),
            lambda n=n: ip_raja_wins(n, n),
            ip_raja_wins_summary,
        ))
        qs.append(Question(
            f"Rajapolku {n}v{n} + degrees",
            lambda n=n: raja_odds(n, 0, n, 0),
            lambda r: raja_summary(r, True),
            lambda n=n: ip_raja_degrees(n, n),
            ip_raja_degrees_summary,
        ))
    for a, b, label in (((2, 1), (1, 2), "3v3 2d8+1d10 vs 1d8+2d10"),
                        ((4, 2), (3, 3), "6v6 4d8+2d10 vs 3d8+3d10")):
        for variant in ("ch23", "classic"):
            qs.append(Question(
                f"Harhapolku {label} {variant}",
                lambda a=a, b=b, v=variant: harha_odds(a, b, v),
                harha_summary,
                lambda a=a, b=b, v=variant: ip_harha(a, b, v),
                harha_ip_summary,
            ))
    for n in (12, 30, 50):
        qs.append(Question(
            f"Shadowrun {n} dice, rule of six",
            lambda n=n: sr_hits(n, rule_of_six=True),
            sr_summary,
            lambda n=n: ip_sr_six(n),
            ip_sr_summary,
        ))
    # Questions with no icepool formulation here: tests/test_odds.py holds each
    # to 1e-12 against brute force or a Fraction recursion instead.
    for name, fn in (
        ("Rajapolku 5+1* v 5 + degrees beyond (R6, R7)",
         lambda: raja_odds(5, 1, 5, 0, degrees_rule="beyond")),
        ("Rajapolku spirit combat 5v5 charges, to the end", lambda: spirit_fight_odds(4, 4)),
        ("Rajapolku spirit combat 7v5 charges, to the end", lambda: spirit_fight_odds(6, 4)),
        ("Harhapolku 3v3 difficult, opposed, ch23 (H8)",
         lambda: harha_difficult_opposed((2, 1), (1, 2), "ch23")),
        ("Harhapolku 6v6 very demanding, opposed, classic",
         lambda: harha_difficult_opposed((4, 2), (3, 3), "classic", very_demanding=True)),
        ("Harhapolku sum 4d8 vs 3d10, difficult (H6, H8)", lambda: harha_sum_difficult(4, 8, 3, 10)),
        ("Shadowrun Edge 5 worth on 12 dice, threshold 4 (S7)", lambda: sr_edge_odds(12, 5, 4)),
        ("Shadowrun extended 8 dice to 16, 20 intervals (S10)", lambda: sr_extended(8, 16, 20)),
        ("Shadowrun teamwork 6 + helpers 5,5,4 (S11)", lambda: sr_teamwork(6, [5, 5, 4])),
        ("Shadowrun opposed 12 v group 10,8,8 = 12 (S9)", lambda: sr_opposed(12, 12)),
    ):
        qs.append(Question(name, fn, generic_summary, None, None))
    return qs


def generic_summary(r) -> dict[str, float]:
    """Every float of a result's JSON, flattened, for the record."""
    out: dict[str, float] = {}

    def walk(prefix: str, value: Any) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                walk(f"{prefix}{k}.", v)
        elif isinstance(value, float):
            out[prefix.rstrip(".")] = value

    walk("", r.to_json())
    return out


# ---------------------------------------------------------------------------
# timing


def time_polku(q: Question, runs: int) -> tuple[float, dict[str, float]]:
    result = q.polku()  # warm: caches of binomial rows, imports
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        result = q.polku()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000, q.polku_summary(result)


def _ip_child(q: Question, conn) -> None:
    t0 = time.perf_counter()
    result = q.ip()
    elapsed = time.perf_counter() - t0
    conn.send((elapsed, q.ip_summary(result)))
    conn.close()


def time_icepool_once(q: Question, timeout: float) -> tuple[float, dict[str, float]] | None:
    ctx = mp.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_ip_child, args=(q, child))
    proc.start()
    child.close()
    try:
        if parent.poll(timeout):
            return parent.recv()
        return None
    finally:
        if proc.is_alive():
            proc.terminate()
        proc.join()


def time_icepool(q: Question, runs: int, timeout: float, slow: float):
    """Median ms over up to ``runs`` cold runs (one run when it is slow), or None."""
    times, summary = [], None
    for _ in range(runs):
        got = time_icepool_once(q, timeout)
        if got is None:
            return None, None
        elapsed, summary = got
        times.append(elapsed)
        if elapsed > slow:
            break
    return statistics.median(times) * 1000, summary


def max_diff(a: dict[str, float], b: dict[str, float]) -> float:
    keys = set(a) | set(b)
    return max(abs(a.get(k, 0.0) - b.get(k, 0.0)) for k in keys)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--quick", action="store_true", help="fewer runs")
    parser.add_argument("--timeout", type=float, default=60.0, help="icepool limit per run, s")
    args = parser.parse_args(argv)
    polku_runs = 5 if args.quick else 21
    ip_runs = 1 if args.quick else 3
    rows = []
    for q in questions():
        p_ms, p_sum = time_polku(q, polku_runs)
        if q.ip is None:
            i_ms, i_sum = None, None
        else:
            i_ms, i_sum = time_icepool(q, ip_runs, args.timeout, slow=2.0)
        row = {
            "question": q.name,
            "polku_ms": p_ms,
            "icepool_ms": i_ms,
            "icepool_timeout_s": None if (i_ms is not None or q.ip is None) else args.timeout,
            "ratio": (i_ms / p_ms) if i_ms is not None else None,
            "max_abs_diff": max_diff(p_sum, i_sum) if i_sum is not None else None,
        }
        rows.append(row)
        if not args.json:
            if len(rows) == 1:
                print(_header())
            print(_fmt_row(row), flush=True)
    if args.json:
        print(json.dumps({"python": sys.version.split()[0], "icepool": icepool.__version__, "rows": rows}, indent=2))
        return 0
    slow = [r["question"] for r in rows if r["polku_ms"] >= 10]
    weak = [r["question"] for r in rows if r["ratio"] is not None and r["ratio"] < 20]
    bad = [r["question"] for r in rows if r["max_abs_diff"] is not None and r["max_abs_diff"] > 1e-12]
    print()
    print(f"polku >= 10 ms: {slow or 'none'}; ratio < 20x: {weak or 'none'}; "
          f"icepool disagrees (> 1e-12): {bad or 'none'}")
    return 0


def _header() -> str:
    head = f"| {'question':<46} | {'polku ms':>9} | {'icepool ms':>11} | {'ratio':>8} | {'max diff':>10} |"
    rule = "|" + "|".join("-" * len(c) for c in head.split("|")[1:-1]) + "|"
    return head + "\n" + rule


def _fmt_row(row: dict[str, Any]) -> str:
    if row["icepool_ms"] is None and row["icepool_timeout_s"] is None:
        ip, ratio, diff = "—", "—", "tests"
    elif row["icepool_ms"] is None:
        ip = f"> {row['icepool_timeout_s']:.0f} s"
        ratio = f"> {row['icepool_timeout_s'] * 1000 / row['polku_ms']:.0f}x"
        diff = "n/a"
    else:
        ip = f"{row['icepool_ms']:.1f}"
        ratio = f"{row['ratio']:.0f}x"
        diff = f"{row['max_abs_diff']:.1e}"
    return f"| {row['question']:<46} | {row['polku_ms']:>9.3f} | {ip:>11} | {ratio:>8} | {diff:>10} |"


if __name__ == "__main__":
    raise SystemExit(main())
