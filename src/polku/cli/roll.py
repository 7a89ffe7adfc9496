"""``polku roll SYSTEM POOL_A [POOL_B]``: roll pools with a seed, then judge them as resolve does."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, cast

from polku.cli.common import (
    EXTENDED_MAX,
    HARHA_VARIANTS,
    INTERVALS_DEFAULT,
    INTERVALS_MAX,
    MAX_POOL,
    SEED_MAX,
    THRESHOLD_OF,
    CliError,
    check_rating,
    check_threshold,
    difficult_flags,
    emit_json,
    emit_lines,
    finish,
    h8_demand,
    harha_settings,
    raja_wound_flags,
    raja_wound_penalties,
    settings_epilog,
    settings_from_args,
    settings_json,
    sr_edge_flags,
    whole_arg,
)
from polku.cli.pools import (
    parse_harha_pool,
    parse_raja_pool,
    pool_list,
    sr_pool,
)
from polku.cli.words import (
    glyph,
    harha_demand,
    harha_headline,
    harha_sum_headline,
    helpers_line,
    raja_headline,
    raja_words,
    spirit_loss,
    sr_extended_lines,
    sr_headline,
    sr_json,
    sr_opposed_headline,
    told,
)
from polku.i18n import N_, _, ngettext

if TYPE_CHECKING:
    from typing import Any

    from polku.cli.common import Verbs
    from polku.rules.dice import DiceSource
    from polku.rules.shadowrun import SRRoll, SuccessResult
    from polku.rules.system import Settings

    Rolled = tuple[dict[str, Any], dict[str, Any], list[str]]
    """What a system's roller gives ``run``: the JSON, the faces rolled per side, the lines."""

    class RollArgs(argparse.Namespace):
        """What ``polku roll``'s parser (:func:`add_parser`) gives, by name and type (typing only)."""

        system: str
        pool_a: str
        pool_b: str | None
        seed: int | None
        variant: str | None
        difficult: bool
        very_demanding: bool
        spirit: bool
        wound: str | None
        b_wound: str | None
        edge_before: int | None
        edge_after: int | None
        b_edge_before: int | None
        b_edge_after: int | None
        threshold: int | None
        hurried: bool
        group: str | None
        helpers: str | None
        leader_skill: int | None
        extended: int | None
        intervals: int | None
        json: bool
        settings: list[str]


ROLL_EPILOG = N_("""\
pools:
  rajapolku   '3' (three d10) or '3+1*' (three d10 and one ability die); POOL_B needed;
              --spirit: the pools are each side's charges now, fought to the end (R11)
  harhapolku  '2d8+1d10' (or '3' for three d8); POOL_B needed unless --difficult;
              same_size and sum use one die size ('4' = 4 d8, '3d10'); sum throws one die
  shadowrun   a number of d6; with POOL_B an opposed test (B defends), --group adds B's
              companions (S9); --helpers N,N teamwork (S11); --extended T an extended test (S10)

JSON keys: seed, rolled, and the keys of 'polku resolve' for the same test.""")


def add_parser(verbs: Verbs) -> None:
    roll = verbs.add_parser(
        "roll", help=N_("roll pools with a seed, then judge"),
        description=(
            N_("Roll pools with the program's dice, then judge them as resolve does. "
            "The seed is printed; the same seed gives the same faces.")
        ),
        epilog=_(ROLL_EPILOG) + "\n" + "\n".join(settings_epilog(p) for p in ("raja.", "harha.", "sr.")),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    roll.add_argument("system", metavar="SYSTEM", help=N_("rajapolku, harhapolku or shadowrun (or an alias)"))
    roll.add_argument("pool_a", metavar="POOL_A", help=N_("side A's pool"))
    roll.add_argument("pool_b", metavar="POOL_B", nargs="?", help=N_("side B's pool"))
    roll.add_argument("--seed", type=whole_arg("--seed", 0, SEED_MAX), metavar="N",
                      help=N_("seed (default: a random one, printed)"))
    roll.add_argument("--variant", choices=HARHA_VARIANTS, default=None,
                      help=N_("harhapolku only: the comparison (the same as --set harha.variant=V): ch23 (chapter 23, "
                              "H4, default; A = actor, B = challenger), classic (H3; more positions wins, equal "
                              "counts tie), same_size (H5: one die size, compared as ch23) or sum (H6: one die plus "
                              "the die count, the challenger needs more)"))
    difficult_flags(roll)
    roll.add_argument("--spirit", action="store_true",
                      help=N_("rajapolku only: spirit combat to the end, the pools are charges (R11)"))
    raja_wound_flags(roll)
    sr_edge_flags(roll, "")
    sr_edge_flags(roll, "b-")
    roll.add_argument("--threshold", type=whole_arg("--threshold", 1, MAX_POOL), metavar="T",
                      help=N_("shadowrun only, one pool: hits needed (S8)"))
    roll.add_argument("--hurried", action="store_true", help=N_("shadowrun: 2s count as 1s for glitches (S10)"))
    roll.add_argument("--group", metavar="N,N", help=N_("shadowrun opposed: B's companions' pools (S9)"))
    roll.add_argument("--helpers", metavar="N,N", help=N_("shadowrun: teamwork, each helper's own pool (S11)"))
    roll.add_argument("--leader-skill", type=whole_arg("--leader-skill", 0, MAX_POOL), metavar="S",
                      help=N_("shadowrun teamwork: the leader's skill (the cap under sr.teamwork_cap=skill)"))
    roll.add_argument("--extended", type=whole_arg(THRESHOLD_OF, 1, EXTENDED_MAX, flag="--extended"), metavar="T",
                      help=N_("shadowrun: an extended test to T hits (S10)"))
    roll.add_argument("--intervals", type=whole_arg("--intervals", 1, INTERVALS_MAX), metavar="K", default=None,
                      help=N_("extended: roll at most K intervals (default 20)"))
    finish(roll, run)


def _system_of(name: str) -> str:
    from polku.rules.system import parse_system

    return parse_system(name).value


def _new_seed() -> int:
    import secrets

    return secrets.randbelow(2**32)


ROLL_ONLY = {
    "rajapolku": ("spirit", "wound", "b_wound"),
    "harhapolku": ("variant", "difficult", "very_demanding"),
    "shadowrun": ("edge_before", "edge_after", "b_edge_before", "b_edge_after", "threshold", "hurried",
                  "group", "helpers", "leader_skill", "extended", "intervals"),
}
"""Which options of ``polku roll`` belong to which system."""


def run(parsed: argparse.Namespace) -> int:
    args = cast("RollArgs", parsed)
    from polku.rules.dice import RandomSource

    system = _system_of(args.system)
    for other, names in ROLL_ONLY.items():
        if other == system:
            continue
        for name in names:
            if getattr(args, name) not in (None, False):
                raise CliError(_("{flag} is only for {system}", flag="--" + name.replace('_', '-'), system=other))
    seed = args.seed if args.seed is not None else _new_seed()
    source = RandomSource(seed)
    again = f"polku roll {' '.join(_reproduce_args(args, system, seed))}"
    handler = {"rajapolku": _roll_raja, "harhapolku": _roll_harha, "shadowrun": _roll_sr}[system]
    out, rolled, lines = handler(args, source)
    if args.json:
        emit_json({"seed": seed, "rolled": rolled, **out})
        return 0
    def text(item: object) -> str:
        if isinstance(item, list):  # one roll of several (spirit exchanges, extended intervals)
            return "[" + ",".join(str(f) for f in item) + "]"
        return str(item)

    rolled_lines = [_rolled_line(side, ",".join(text(f) for f in faces) or _("no dice")) for side, faces in rolled.items()]
    emit_lines([_("seed: {seed}", seed=seed), *rolled_lines, *lines, _("again: {command}", command=again)])
    return 0


def _rolled_line(side: str, faces: str) -> str:
    """``rolled A: 5,6,2``: the faces one side (``"a"``, ``"b"``) or helper (``"helper 2"``, as the JSON names it)
    rolled, one message each."""
    if side.startswith("helper "):
        return _("rolled helper {n}: {faces}", n=side.removeprefix("helper "), faces=faces)
    return _("rolled {side}: {faces}", side=side.upper(), faces=faces)


def _roll_raja(args: RollArgs, source: DiceSource) -> Rolled:
    from polku.rules import rajapolku
    from polku.rules.dice import DieSpec, Src, roll_specs

    settings, _given = settings_from_args(args, "rajapolku")
    if args.pool_b is None:
        raise CliError(_("rajapolku needs two pools: polku roll rajapolku POOL_A POOL_B"))
    if args.spirit:
        return _roll_spirit(args, source, settings, args.pool_b)
    if args.wound is not None or args.b_wound is not None:
        raise CliError(_("--wound and --b-wound are for spirit combat (--spirit, R11)"))
    pools = []
    for side, text in (("A", args.pool_a), ("B", args.pool_b)):
        normal, ability = parse_raja_pool(text, side)
        pools.append([DieSpec(10, Src.DIE)] * normal + [DieSpec(10, Src.ABILITY)] * ability)
    a = roll_specs(pools[0], source)
    b = roll_specs(pools[1], source)
    result = rajapolku.resolve(a, b, settings)
    rolled = {"a": [glyph(d) for d in a], "b": [glyph(d) for d in b]}
    out = {**rajapolku.result_json(result), "settings": settings_json(settings, "rajapolku")}
    return out, rolled, [raja_headline(result), *("  " + told(line) for line in result.explain())]


MAX_EXCHANGES = 100
"""``polku roll rajapolku --spirit`` stops a fight after this many exchanges."""


def _roll_spirit(args: RollArgs, source: DiceSource, settings: Settings, pool_b: str) -> Rolled:
    from polku.rules import rajapolku
    from polku.rules.dice import roll_specs

    charges = []
    for side, text in (("A", args.pool_a), ("B", pool_b)):
        normal, ability = parse_raja_pool(text, side)
        if ability:
            raise CliError(_("side {side}: in spirit combat the dice are the charges, no ability dice (R11)", side=side))
        charges.append(normal)
    a_pen, b_pen = raja_wound_penalties(args)
    fight = rajapolku.begin_spirit_fight(*charges, a_penalty=a_pen, b_penalty=b_pen)
    lines = [_("spirit combat: A {a} and B {b} charges; each pays 1 to enter, once (R11): A {a_left}, B {b_left} left",
               a=charges[0], b=charges[1], a_left=fight.a_charges, b_left=fight.b_charges)]
    if fight.dice_counts(settings) != (fight.a_charges, fight.b_charges):
        da, db = fight.dice_counts(settings)
        lines.append(ngettext("wounds (R9, raja.spirit_wounds): A rolls {a}, B {n} die in the first exchange",
                              "wounds (R9, raja.spirit_wounds): A rolls {a}, B {n} dice in the first exchange", db, a=da))
    exchanges = []
    rolled: dict[str, list[list[int]]] = {"a": [], "b": []}
    while not fight.over and fight.exchanges < MAX_EXCHANGES:
        a = roll_specs(fight.dice("a", settings), source)
        b = roll_specs(fight.dice("b", settings), source)
        step = fight.exchange(rajapolku.resolve(a, b, settings), settings)
        rolled["a"].append([d.face for d in a])
        rolled["b"].append([d.face for d in b])
        exchanges.append({**rajapolku.result_json(step.result), "loser": step.loser,
                          "charge_loss": step.loss, "a_charges": step.fight.a_charges,
                          "b_charges": step.fight.b_charges})
        faces_a = ",".join(map(str, rolled["a"][-1]))
        faces_b = ",".join(map(str, rolled["b"][-1]))
        lines.append(_("exchange {n}: A {a} vs B {b} — {outcome}; {loss}", n=step.fight.exchanges, a=faces_a, b=faces_b,
                       outcome=raja_words(step.result), loss=spirit_loss(step)))
        fight = step.fight
    if not fight.over:
        fight = fight.end()
        lines.append(ngettext("stopped after {n} exchange", "stopped after {n} exchanges", MAX_EXCHANGES))
    lines.append("  " + told(fight.explain()[0]))
    out = {"system": "rajapolku", "test": "spirit", "winner": fight.winner, "fight": fight.to_json(),
           "exchanges": exchanges, "settings": settings_json(settings, "rajapolku")}
    return out, rolled, lines


def _roll_harha(args: RollArgs, source: DiceSource) -> Rolled:
    from polku.rules import harhapolku
    from polku.rules.dice import DieSpec, Src, roll_specs

    settings = harha_settings(args)
    variant = settings.harha_variant
    needed = h8_demand(args)
    notice = harhapolku.difficult_notice(variant, needed, settings)
    if args.pool_b is None and not needed:
        raise CliError(_("harhapolku needs two pools unless the action is --difficult or --very-demanding (H8)"))
    pools = []
    for side, text in (("A", args.pool_a), ("B", args.pool_b)):
        if text is None:
            continue
        n8, n10 = parse_harha_pool(text, side)
        if variant in ("same_size", "sum") and n8 and n10:
            raise CliError(_("side {side}: the {variant} variant uses one die size (H5)", side=side,
                             variant=variant.replace('_', '-')))
        pools.append(harhapolku.HarhaPool(tuple([DieSpec(8, Src.DIE)] * n8 + [DieSpec(10, Src.DIE)] * n10), ()))
    settings_out = settings_json(settings, "harhapolku")
    if args.pool_b is None:
        # under the sum variant the action rolls one die (H6, harha.sum_difficult = one_die)
        dice = roll_specs(harhapolku.variant_dice(pools[0], variant) if variant == "sum" else pools[0].dice, source)
        alone = harhapolku.difficult(dice, needed == 2, variant)
        out = {"system": "harhapolku", "variant": variant, "opposed": False, "a_faces": [d.face for d in dice],
               "difficult": {"success": alone.success, "high": alone.high, "needed": alone.needed},
               "settings": settings_out, "explain": alone.explain()}
        if notice:
            out["notice"] = notice
        head = f"Harhapolku: {'success' if alone.success else 'failure'} ({alone.high} of {alone.needed} needed 7+)"
        return out, {"a": [f"d{d.size}:{d.face}" for d in dice]}, [head, *("  " + told(x) for x in alone.explain())]
    a = roll_specs(harhapolku.variant_dice(pools[0], variant), source)
    b = roll_specs(harhapolku.variant_dice(pools[1], variant), source)
    result = harhapolku.resolve(a, b, settings=settings, a_count=harhapolku.pool_count(pools[0]),
                                b_count=harhapolku.pool_count(pools[1])) if variant == "sum" \
        else harhapolku.resolve(a, b, settings=settings)
    head = harha_sum_headline(result) if isinstance(result, harhapolku.SumResult) else harha_headline(result)
    rolled = {"a": [f"d{d.size}:{d.face}" for d in a], "b": [f"d{d.size}:{d.face}" for d in b]}
    out = {**harhapolku.result_json(result), "settings": settings_out}
    explain = result.explain()
    if needed:
        head, explain = harha_demand(result, needed, out, head)
    if notice:
        out["notice"] = notice
    return out, rolled, [head, *("  " + told(x) for x in explain)]


def _roll_sr(args: RollArgs, source: DiceSource) -> Rolled:
    """Shadowrun: which test the flags ask for (S8-S11), each rolled by its own function."""
    settings, _given = settings_from_args(args, "shadowrun")
    check_threshold(args.threshold)
    for flag in ("edge_before", "edge_after", "b_edge_before", "b_edge_after"):
        check_rating("--" + flag.replace("_", "-"), getattr(args, flag))
    for side in ("", "b_"):
        if getattr(args, f"{side}edge_before") is not None and getattr(args, f"{side}edge_after") is not None:
            raise CliError(_("one Edge point per test for dice: before or after the roll, not both (S7)"))
    n = sr_pool(args.pool_a, "A" if args.pool_b is not None else "")
    one = _SrRoller(args, source, settings)
    if args.extended is not None:
        if args.pool_b is not None or args.helpers or args.threshold is not None:
            raise CliError(_("--extended is one character's test: one pool, no --threshold (S10)"))
        return _roll_sr_extended(args, one, n, args.extended)
    if args.intervals is not None:
        raise CliError(_("--intervals is for an extended test (--extended T)"))
    if args.helpers:
        if args.pool_b is not None:
            raise CliError(_("teamwork is one test: one leader's pool and the helpers' pools (S11)"))
        return _roll_sr_teamwork(args, one, n)
    if args.leader_skill is not None:
        raise CliError(_("--leader-skill is for teamwork (--helpers N,N)"))
    if args.pool_b is None:
        if args.group:
            raise CliError(_("--group is for an opposed test: give B's pool too (S9)"))
        if args.b_edge_before is not None or args.b_edge_after is not None:
            raise CliError(_("--b-edge-* is for an opposed test: give B's pool too"))
        return _roll_sr_one(args, one, n)
    if args.threshold is not None:
        raise CliError(_("--threshold is for one pool; an opposed test has no threshold (S9)"))
    if args.hurried:
        raise CliError(_("--hurried is for an extended test (S10)"))
    return _roll_sr_opposed(args, one, n, args.pool_b)


class _SrRoller:
    """Rolls one Shadowrun pool with the Edge a side spent (``prefix`` "" for A, "b_" for B)."""

    def __init__(self, args: RollArgs, source: DiceSource, settings: Settings) -> None:
        self.args, self.source, self.settings = args, source, settings
        self.settings_out = settings_json(settings, "shadowrun")

    def __call__(self, pool: int, prefix: str, **kw: Any) -> SRRoll:
        from polku.rules import shadowrun

        r = shadowrun.roll(pool, self.source, getattr(self.args, f"{prefix}edge_before"),
                           settings=self.settings, **kw)
        after = getattr(self.args, f"{prefix}edge_after")
        if after is not None:
            r = shadowrun.edge_after(r, after, self.source)
        return r


def _roll_sr_extended(args: RollArgs, one: _SrRoller, n: int, threshold: int) -> Rolled:
    from polku.rules import shadowrun

    limit = args.intervals if args.intervals is not None else INTERVALS_DEFAULT
    test = shadowrun.ExtendedTest(threshold, hurried=args.hurried)
    while not test.over and test.intervals < limit:
        test = test.add(one(n, "", hurried=args.hurried))
    rolls = test.history
    out = {"system": "shadowrun", "test": "extended", **test.to_json(),
           "rolls": [r.to_json() for r in rolls], "settings": one.settings_out, "explain": test.explain()}
    lines = sr_extended_lines(test, thresholds=False)
    return out, {"a": [r.faces for r in rolls]}, lines


def _roll_sr_teamwork(args: RollArgs, one: _SrRoller, n: int) -> Rolled:
    from polku.rules import shadowrun

    helpers = [shadowrun.roll(h, one.source, settings=one.settings) for h in pool_list(args.helpers, N_("a helper's pool"))]
    bonus = shadowrun.teamwork_bonus(helpers, args.leader_skill, one.settings)
    leader = one(n, "", helper_dice=bonus, hurried=args.hurried)
    result: SRRoll | SuccessResult = (shadowrun.success_test(leader, args.threshold) if args.threshold is not None
                                      else leader)
    out = {**sr_json(result), "helpers": [h.hits for h in helpers], "helper_dice": bonus,
           "settings": one.settings_out}
    rolled = {f"helper {i + 1}": [d.face for d in h.dice] for i, h in enumerate(helpers)}
    rolled["a"] = [d.face for d in leader.dice]
    lines = [sr_headline(result), helpers_line([h.hits for h in helpers], bonus, capped=False),
             *("  " + told(x) for x in result.explain())]
    return out, rolled, lines


def _roll_sr_one(args: RollArgs, one: _SrRoller, n: int) -> Rolled:
    from polku.rules import shadowrun

    r = one(n, "", hurried=args.hurried)
    result = shadowrun.success_test(r, args.threshold) if args.threshold is not None else r
    out = {**sr_json(result), "settings": one.settings_out}
    return out, {"a": [d.face for d in r.dice]}, [sr_headline(result), *("  " + told(x) for x in result.explain())]


def _roll_sr_opposed(args: RollArgs, one: _SrRoller, n: int, pool_b: str) -> Rolled:
    from polku.rules import shadowrun

    m = sr_pool(pool_b, "B")
    group = pool_list(args.group, N_("a group member's pool"))
    m_total = shadowrun.group_pool([m, *group]) if group else m
    ra = one(n, "")
    rb = one(m_total, "b_")
    result = shadowrun.opposed(ra, rb)
    out = {**sr_json(result), "settings": one.settings_out}
    lines = [sr_opposed_headline(result)]
    if group:
        out["group"] = {"pools": [m, *group], "b_dice": m_total}
        lines.append(f"  B leads a group of {len(group) + 1}: largest pool + {min(5, len(group))} = {m_total} (S9)")
    lines += ["  " + told(line) for line in result.explain()]
    return out, {"a": [d.face for d in ra.dice], "b": [d.face for d in rb.dice]}, lines


def _reproduce_args(args: RollArgs, system: str, seed: int) -> list[str]:
    out = [system, args.pool_a]
    if args.pool_b is not None:
        out.append(args.pool_b)
    out += ["--seed", str(seed)]
    for name in ("variant", "edge_before", "edge_after", "b_edge_before", "b_edge_after", "threshold",
                 "group", "helpers", "leader_skill", "extended", "intervals", "wound", "b_wound"):
        value = getattr(args, name)
        if value is not None:
            out += ["--" + name.replace("_", "-"), repr(str(value)) if " " in str(value) else str(value)]
    for name in ("spirit", "difficult", "very_demanding", "hurried"):
        if getattr(args, name):
            out.append("--" + name.replace("_", "-"))
    for text in getattr(args, "settings", None) or []:
        out += ["--set", text]
    return out


# --------------------------------------------------------------------------- odds
