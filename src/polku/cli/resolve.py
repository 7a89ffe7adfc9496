"""``polku resolve SYSTEM A B``: judge faces already rolled (physical dice, or any roll)."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from polku.cli.common import (
    EDGE_MAX,
    EDGE_RATING,
    EXTENDED_MAX,
    HARHA_NAMES,
    HARHA_VARIANT_HELP,
    HARHA_VARIANTS,
    MAX_POOL,
    RAJA_NAMES,
    SR_NAMES,
    SR_OPPOSED_NAMES,
    THRESHOLD_OF,
    CliError,
    Parser,
    check_rating,
    check_threshold,
    difficult_flags,
    emit,
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
    sub,
    whole_arg,
    whole_number,
)
from polku.cli.pools import (
    NO_DICE,
    Place,
    at_place,
    parse_harha_faces,
    raja_faces,
    sr_faces,
)
from polku.cli.words import (
    harha_demand,
    harha_headline,
    harha_sum_headline,
    helpers_line,
    raja_headline,
    spirit_line,
    sr_extended_lines,
    sr_headline,
    sr_json,
    sr_opposed_headline,
    told,
)
from polku.i18n import N_, _, and_list, ngettext

if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence
    from typing import Any

    class _Common(argparse.Namespace):
        json: bool
        settings: list[str]

    class RajaResolveArgs(_Common):
        """``polku resolve rajapolku``'s arguments (typing only)."""

        a: str
        b: str
        spirit: bool
        charges: str | None
        wound: str | None
        b_wound: str | None

    class HarhaResolveArgs(_Common):
        """``polku resolve harhapolku``'s arguments (typing only)."""

        a: str
        b: str | None
        variant: str | None
        difficult: bool
        very_demanding: bool

    class SRResolveArgs(_Common):
        """``polku resolve shadowrun``'s arguments (typing only)."""

        faces: str
        threshold: int | None
        edge_before: int | None
        edge_after: int | None
        long_shot: int | None
        hurried: bool
        extended: str | None
        helper: list[str]
        leader_skill: int | None

    class SROpposedResolveArgs(_Common):
        """``polku resolve shadowrun-opposed``'s arguments (typing only)."""

        a: str
        b: str
        edge_before: int | None
        edge_after: int | None
        b_edge_before: int | None
        b_edge_after: int | None

    from polku.cli.common import Verbs
    from polku.rules.dice import Die
    from polku.rules.shadowrun import SRRoll, SuccessResult
    from polku.rules.system import Settings


RAJA_RESOLVE_JSON = N_("""\
JSON keys: system, winner (a|b|tie), degrees, degrees_rule (all|beyond), supernatural,
  narrow, visibly_supernatural (= deciding_die_is_ability), deciding_position, decided_by,
  degree_faces, tie_action, holds, a_faces, b_faces, a_dice, b_dice, settings, explain;
  with --spirit also loser, charge_loss (R11).""")

HARHA_RESOLVE_JSON = N_("""\
JSON keys: system, variant, winner (a|b|tie), a_positions, b_positions, positions, reason,
  tie_action, a_faces, b_faces, a_sizes, b_sizes, settings, explain; sum variant: a_count,
  a_roll, a_total, b_count, b_roll, b_total; with --difficult / --very-demanding also
  difficult {success, high, needed, won_comparison} (H8; unopposed: success, high, needed;
  under the sum variant the one die, or COUNT+ROLL), notice (harha.sum_difficult).""")

SR_RESOLVE_JSON = N_("""\
JSON keys: system, hits, glitch, critical_glitch, ones, dice_counted, pool, edge
  (before|after|long_shot|null), edge_dice, edge_spent, hurried, dice [{face, source, label,
  from}], settings, explain; with --threshold also threshold, success, net_hits; with
  --helper also helpers [hits], helper_dice (S11); with --extended the test: threshold,
  accumulated, intervals, done, ended, status, interval_thresholds, and rolls [...] (S10).""")

SR_OPPOSED_RESOLVE_JSON = N_("JSON keys: system, winner (a|b|tie), net_hits, winner_if_needed, a {...}, b {...} (each "
                             "as resolve shadowrun), settings, explain.")


def _over_after(status: str, i: int, n: int) -> str:
    """``polku resolve --extended``'s refusal of ``n`` intervals after the test ended after interval ``i``, one
    sentence per status (S10)."""
    if status == "spoiled":
        return ngettext("the test was over after interval {i} (spoiled): {n} interval too many",
                        "the test was over after interval {i} (spoiled): {n} intervals too many", n, i=i)
    if status == "ended by a critical glitch":
        return ngettext("the test was over after interval {i} (ended by a critical glitch): {n} interval too many",
                        "the test was over after interval {i} (ended by a critical glitch): {n} intervals too many",
                        n, i=i)
    return ngettext("the test was over after interval {i} (done): {n} interval too many",
                    "the test was over after interval {i} (done): {n} intervals too many", n, i=i)

SR_FACES_ORDER = N_(
    "faces in the order they are taken from the dice: the pool, then the Edge dice, then the "
    "rule of six wave by wave (one new die per six, in table order)")


def add_parser(verbs: Verbs) -> None:
    res = verbs.add_parser(
        "resolve", help=N_("judge faces already rolled"),
        description=N_("Judge faces already rolled (physical dice, or any roll). "
                    "Faces are comma-separated, without spaces or quoted. Every rule setting "
                    "(docs/rules.md) can be given with --set KEY=VALUE."),
    )
    rsys = res.add_subparsers(dest="system", metavar="SYSTEM", required=True, parser_class=Parser)
    r = sub(rsys, "rajapolku", RAJA_NAMES[1:], N_("Rajapolku (R5-R7, R11)"),
             N_("Rajapolku challenge (R5-R7): A acts, B is the opposition. With --spirit, one exchange "
                "of spirit combat (R11): the faces are the charges each side has left."),
             settings_epilog("raja.") + "\n" + _(RAJA_RESOLVE_JSON))
    r.add_argument("a", metavar="A", help=N_("side A's faces (acting), comma-separated d10 faces 1-10 (0 = 10, as "
                                             "many d10s print it), e.g. 10,8*,7; a trailing * marks an ability die (R7)"))
    r.add_argument("b", metavar="B", help=N_("side B's faces (the opposition), the same way"))
    r.add_argument("--spirit", action="store_true",
                   help=N_("a spirit-combat exchange: say what the loser loses (R11, raja.spirit_loss)"))
    r.add_argument("--charges", metavar="A,B", default=None,
                   help=N_("spirit combat: each side's charges left before the exchange (default: its faces "
                        "count; needed when a wound changes the dice, R9)"))
    raja_wound_flags(r)
    finish(r, _resolve_raja)

    h = sub(rsys, "harhapolku", HARHA_NAMES[1:], N_("Harhapolku (H3-H6, H8)"),
             N_("Harhapolku comparison (H3-H6). In ch23, same_size and sum, A is the actor and B the "
                "challenger, who must win more positions (a larger total in sum). With --difficult, "
                "the actor must also show a die of 7+ (H8); B may then be left out (unopposed)."),
             settings_epilog("harha.") + "\n" + _(HARHA_RESOLVE_JSON))
    h.add_argument("a", metavar="A", help=N_(
        "side A's faces (the actor), comma-separated: a bare face 1-8 is a d8, 9-10 (or 0) a d10; give the size to "
        "be explicit: d10:7 or 10:7 (a 7 on a d10); a d10's 0 is its 10; sum variant: COUNT+ROLL, e.g. 4+2 or "
        "4+d10:7; - for no dice at all (H4: it fails)"))
    h.add_argument("b", metavar="B", nargs="?", help=N_("side B's faces (the challenger), the same way"))
    h.add_argument("--variant", choices=HARHA_VARIANTS, default=None, help=HARHA_VARIANT_HELP)
    difficult_flags(h)
    finish(h, _resolve_harha)

    s = sub(rsys, "shadowrun", SR_NAMES[1:], N_("Shadowrun roll (S3-S11)"),
             N_("Shadowrun 4e roll (S4-S7), a success test (S8) with --threshold, an extended test "
                "(S10) with --extended, or teamwork (S11) with --helper."),
             settings_epilog("sr.") + "\n" + _(SR_RESOLVE_JSON))
    s.add_argument("faces", metavar="FACES", help=N_(
        "comma-separated d6 faces, e.g. 1,1,5,6, in the order they are taken from the dice: the pool, then the Edge "
        "dice, then the rule of six wave by wave (one new die per six, in table order); with --extended, intervals "
        "separated by ';', an interval written h:... is hurried"))
    s.add_argument("--threshold", type=whole_arg("--threshold", 1, MAX_POOL), metavar="T",
                   help=N_("hits needed (S8)"))
    sr_edge_flags(s, "")
    s.add_argument("--long-shot", type=whole_arg(EDGE_RATING, 1, EDGE_MAX, flag="--long-shot"), metavar="E",
                   help=N_("a Long Shot (S3): every face is an Edge die (E = Edge rating) with the rule of six"))
    s.add_argument("--hurried", action="store_true", help=N_("2s count as 1s for glitches (S10)"))
    s.add_argument("--extended", metavar="T[,T...]",
                   help=N_("an extended test (S10): the threshold, or the threshold in force at each "
                        "interval (the last one stays)"))
    s.add_argument("--helper", action="append", default=[], metavar="FACES",
                   help=N_("teamwork (S11): a helper's faces, rolled before the leader (repeatable)"))
    s.add_argument("--leader-skill", type=whole_arg("--leader-skill", 0, MAX_POOL), metavar="S",
                   help=N_("teamwork: the leader's skill rating, the cap under sr.teamwork_cap=skill"))
    finish(s, _resolve_sr)

    so = sub(rsys, "shadowrun-opposed", SR_OPPOSED_NAMES[1:], N_("Shadowrun opposed test (S9)"),
              N_("Shadowrun opposed test (S9): more hits wins; on a tie the defender B wins if a winner "
                 "is needed. Either side may have spent Edge (S7)."),
              settings_epilog("sr.") + "\n" + _(SR_OPPOSED_RESOLVE_JSON))
    so.add_argument("a", metavar="A", help=N_(
        "side A's d6 faces, in the order they are taken from the dice: the pool, then the Edge dice, then the rule "
        "of six wave by wave (one new die per six, in table order)"))
    so.add_argument("b", metavar="B", help=N_("side B's (the defender's) d6 faces, the same way"))
    sr_edge_flags(so, "")
    sr_edge_flags(so, "b-")
    finish(so, _resolve_sr_opposed)


def _resolve_raja(parsed: argparse.Namespace) -> int:
    args = cast("RajaResolveArgs", parsed)
    from polku.rules import rajapolku

    settings, _given = settings_from_args(args, "rajapolku")
    a, b = raja_faces(args.a, "A"), raja_faces(args.b, "B")
    result = rajapolku.resolve(a, b, settings)
    out = {**rajapolku.result_json(result), "settings": settings_json(settings, "rajapolku")}
    lines = [raja_headline(result), *("  " + told(line) for line in result.explain())]
    a_pen, b_pen = raja_wound_penalties(args)
    if not args.spirit and (args.charges is not None or a_pen or b_pen or args.wound or args.b_wound):
        raise CliError(_("--charges, --wound and --b-wound are for a spirit-combat exchange (--spirit, R11)"))
    if args.spirit:
        if args.charges is not None:
            parts = str(args.charges).split(",")
            if len(parts) != 2:
                raise CliError(_("--charges: write A,B (each side's charges left), not '{text}'", text=str(args.charges)))
            ca, cb = (whole_number(x, "--charges", 1, MAX_POOL) for x in parts)
        elif (a_pen or b_pen) and settings.raja_spirit_wounds:
            raise CliError(_("a wound changes the dice of spirit combat (R9, raja.spirit_wounds): "
                             "give each side's charges left with --charges A,B"))
        else:
            ca, cb = len(a), len(b)
        step = rajapolku.SpiritFight(ca, cb, a_penalty=a_pen, b_penalty=b_pen).exchange(result, settings)
        out.update(loser=step.loser, charge_loss=step.loss,
                   a_charges_after=step.fight.a_charges, b_charges_after=step.fight.b_charges)
        lines.append("  " + spirit_line(step))
    if args.json:
        emit_json(out)
    else:
        emit_lines(lines)
    return 0


def _sum_side(text: str, side: str) -> tuple[int, Die | None]:
    """Sum variant (H6) faces ``COUNT+ROLL``: the die count and the one die rolled; ``-`` or ``0``
    is a side with no dice at all (count 0, no die: H4)."""
    if str(text).strip().lower() in (*NO_DICE, "0"):
        return 0, None
    count_txt, plus, roll_txt = str(text).strip().partition("+")
    if not plus or not count_txt.strip().isascii() or not count_txt.strip().isdigit():
        raise CliError(_("side {side}: the sum variant takes COUNT+ROLL, e.g. 4+2 or 4+d10:7, not '{text}'", side=side,
                          text=str(text)))
    dice = parse_harha_faces(roll_txt, side)
    if len(dice) != 1:
        raise CliError(_("side {side}: the sum variant rolls one die, not {n} (H6)", side=side, n=len(dice)))
    return int(count_txt.strip()), dice[0]


def _resolve_harha(parsed: argparse.Namespace) -> int:
    args = cast("HarhaResolveArgs", parsed)
    from polku.rules import harhapolku

    settings = harha_settings(args)
    variant = settings.harha_variant
    needed = h8_demand(args)
    notice = harhapolku.difficult_notice(variant, needed, settings)
    if args.b is None:
        if not needed:
            raise CliError(_("harhapolku needs B's faces, unless the action is --difficult or --very-demanding (H8)"))
        if variant == "sum" and (str(args.a).strip().lower() in (*NO_DICE, "0") or "+" in str(args.a)):
            count, die = _sum_side(args.a, "A")  # COUNT+ROLL: the one die (H6); no dice at all fail (H4)
            dice: tuple[Any, ...] = (die,) if count and die is not None else ()
        else:
            dice = parse_harha_faces(args.a, "A")
        alone = harhapolku.difficult(dice, needed == 2, variant)
        out = {"system": "harhapolku", "variant": variant, "opposed": False,
               "difficult": {"success": alone.success, "high": alone.high, "needed": alone.needed},
               "a_faces": [d.face for d in dice], "settings": settings_json(settings, "harhapolku"),
               "explain": alone.explain()}
        if notice:
            out["notice"] = notice
        head = f"Harhapolku: {'success' if alone.success else 'failure'} ({alone.high} of {alone.needed} needed 7+)"
        return emit(args, out, [head, *("  " + told(x) for x in alone.explain())])
    if variant == "sum":
        (ac, ad), (bc, bd) = _sum_side(args.a, "A"), _sum_side(args.b, "B")
        if bd is None:
            raise CliError(_("side B: the challenger rolls one die in the sum variant (H6): write COUNT+ROLL"))
        result = harhapolku.resolve([] if ad is None else [ad], [bd], settings=settings, a_count=ac, b_count=bc)
    else:
        result = harhapolku.resolve(parse_harha_faces(args.a, "A"), parse_harha_faces(args.b, "B"),
                                    settings=settings)
    head = harha_sum_headline(result) if isinstance(result, harhapolku.SumResult) else harha_headline(result)
    out = {**harhapolku.result_json(result), "settings": settings_json(settings, "harhapolku")}
    explain = result.explain()
    if needed:
        head, explain = harha_demand(result, needed, out, head)
    if notice:
        out["notice"] = notice
    return emit(args, out, [head, *("  " + told(x) for x in explain)])


def _sr_from_faces(dice: Sequence[Die], settings: Settings | None = None, *, hurried: bool = False,
                   edge_before: int | None = None, edge_after: int | None = None, long_shot: int | None = None,
                   helper_dice: int = 0, place: Place | None = None) -> SRRoll:
    """The roll that used exactly these faces, in the order the dice are taken (S3–S7, S11).

    The pool size is what makes the faces come out even: more pool dice
    always need more faces, so at most one size fits. A refusal names ``place`` (a side, a helper, an interval)
    with :func:`at_place`, its own line whole.
    """
    from polku.rules import shadowrun
    from polku.rules.dice import ManualSource, RulesError

    faces = [d.face for d in dice]
    edges = [("--edge-before", edge_before), ("--edge-after", edge_after), ("--long-shot", long_shot)]
    if sum(v is not None for _flag, v in edges) > 1:
        used = and_list([f for f, v in edges if v is not None])
        raise CliError(at_place(place, _("{flags}: one Edge point per test for dice (S7)", flags=used)))
    for flag, value in edges:
        check_rating(flag, value)
    if long_shot is not None:
        if helper_dice:
            raise CliError(at_place(place, _("a Long Shot has no modifiers, helper dice included (S3)")))
        src = ManualSource(faces)
        try:
            r = shadowrun.roll_long_shot(long_shot, src, settings=settings)
        except RulesError as exc:
            raise CliError(at_place(place, str(exc))) from None
        if src.remaining:
            raise CliError(at_place(place, ngettext(
                "{n} face more than a Long Shot of {dice} dice and its rule-of-six dice",
                "{n} faces more than a Long Shot of {dice} dice and its rule-of-six dice", src.remaining, dice=long_shot)))
        return _replace_roll(r, hurried=hurried)
    simple = edge_before is None and edge_after is None
    sizes = [len(faces) - helper_dice] if simple else range(len(faces) + 1)
    for n in sizes:
        if n < 0:
            break
        src = ManualSource(faces)
        try:
            r = shadowrun.roll(n, src, edge_before, settings=settings, hurried=hurried, helper_dice=helper_dice)
            if edge_after is not None:
                r = shadowrun.edge_after(r, edge_after, src)
        except RulesError as exc:
            if exc.args and str(exc.args[0]).startswith("not enough faces"):
                break
            continue
        if not src.remaining:
            return r
    raise CliError(at_place(place, _sr_faces_refusal(len(faces), helper_dice, simple=simple)))


def _sr_faces_refusal(n: int, helper_dice: int, *, simple: bool) -> str:
    """Why ``n`` faces make no roll of the pool (plus ``helper_dice``, S11), one line in the reader's language."""
    if simple and helper_dice:
        return ngettext("the leader rolls its own pool plus {helpers} helper dice: {n} face is too few (S11)",
                        "the leader rolls its own pool plus {helpers} helper dice: {n} faces are too few (S11)", n,
                        helpers=helper_dice)
    if simple:
        return ngettext("the leader rolls its own pool: {n} face is too few (S11)",
                        "the leader rolls its own pool: {n} faces are too few (S11)", n)
    order = _(SR_FACES_ORDER)
    if helper_dice:
        return ngettext("{n} face does not make a pool plus {helpers} helper dice, its Edge dice and their "
                        "rule-of-six dice (give the faces in the order rolled: {order})",
                        "{n} faces do not make a pool plus {helpers} helper dice, its Edge dice and their "
                        "rule-of-six dice (give the faces in the order rolled: {order})", n,
                        helpers=helper_dice, order=order)
    return ngettext("{n} face does not make a pool, its Edge dice and their rule-of-six dice (give the faces in "
                    "the order rolled: {order})", "{n} faces do not make a pool, its Edge dice and their rule-of-six "
                    "dice (give the faces in the order rolled: {order})", n, order=order)


def _replace_roll(r: SRRoll, *, hurried: bool) -> SRRoll:
    from dataclasses import replace

    return replace(r, hurried=hurried)


def _sr_side(text: str, args: SROpposedResolveArgs, prefix: str, settings: Settings, side: str | None = None,
             **kw: Any) -> SRRoll:
    place: Place | None = ("side", side) if side else None
    dice = sr_faces(text, place)
    return _sr_from_faces(dice, settings, edge_before=getattr(args, f"{prefix}edge_before"),
                          edge_after=getattr(args, f"{prefix}edge_after"), place=place, **kw)


def _resolve_sr(parsed: argparse.Namespace) -> int:
    args = cast("SRResolveArgs", parsed)
    from polku.rules import shadowrun

    settings, _given = settings_from_args(args, "shadowrun")
    check_threshold(args.threshold)
    if args.extended is not None:
        return _resolve_sr_extended(args, settings)
    helpers = []
    for i, text in enumerate(args.helper):
        helpers.append(_sr_from_faces(sr_faces(text, ("helper", i + 1)), settings, place=("helper", i + 1)))
    if args.leader_skill is not None and not helpers:
        raise CliError(_("--leader-skill is for teamwork: give the helpers' faces with --helper (S11)"))
    bonus = shadowrun.teamwork_bonus(helpers, args.leader_skill, settings) if helpers else 0
    dice = sr_faces(args.faces)
    rolled = _sr_from_faces(dice, settings, hurried=args.hurried, edge_before=args.edge_before,
                            edge_after=args.edge_after, long_shot=args.long_shot, helper_dice=bonus)
    result: SRRoll | SuccessResult = (shadowrun.success_test(rolled, args.threshold) if args.threshold is not None
                                      else rolled)
    out = {**sr_json(result), "settings": settings_json(settings, "shadowrun")}
    lines = [sr_headline(result)]
    if helpers:
        hits = [h.hits for h in helpers]
        out.update(helpers=hits, helper_dice=bonus)
        lines.append(helpers_line(hits, bonus, capped=bonus < sum(hits)))
    lines += ["  " + told(line) for line in result.explain()]
    return emit(args, out, lines)


def _resolve_sr_extended(args: SRResolveArgs, settings: Settings) -> int:
    from polku.rules import shadowrun

    for flag in ("edge_before", "edge_after", "long_shot", "threshold"):
        if getattr(args, flag) is not None:
            name = "--" + flag.replace("_", "-")
            raise CliError(_("{flag} is for one roll; in an extended test write it on the interval "
                             "(eb3: Edge before, ea3: Edge after, h: hurried), e.g. 'h:eb3:5,6,2;3,3,1'", flag=name))
    if args.helper:
        raise CliError(_("--helper is for teamwork, not an extended test"))
    thresholds = [whole_number(part, THRESHOLD_OF, 1, EXTENDED_MAX, flag="--extended")
                  for part in str(args.extended).split(",")]
    test = shadowrun.ExtendedTest(thresholds[0])
    intervals = [x for x in str(args.faces).split(";")]
    rolls = []
    for i, text in enumerate(intervals):
        if test.over:
            raise CliError(_over_after(test.status, i, len(intervals) - i))
        flags, roll_text = _interval_flags(text, i + 1, args.hurried)
        dice = sr_faces(roll_text, ("interval", i + 1))
        r = _sr_from_faces(dice, settings, hurried=flags["h"], edge_before=flags["eb"],
                           edge_after=flags["ea"], place=("interval", i + 1))
        test = test.add(r, threshold=thresholds[min(i, len(thresholds) - 1)], hurried=flags["h"])
        rolls.append(test.history[-1])
    out = {"system": "shadowrun", "test": "extended", **test.to_json(),
           "rolls": [r.to_json() for r in rolls], "settings": settings_json(settings, "shadowrun"),
           "explain": test.explain()}
    lines = sr_extended_lines(test, thresholds=True)
    lines += ["  " + told(x) for x in test.explain()]
    return emit(args, out, lines)


def _interval_flags(text: str, index: int, hurried: bool) -> tuple[dict[str, Any], str]:
    """``h:eb3:5,6,2`` → ({h: True, eb: 3, ea: None}, "5,6,2") for one extended interval."""
    parts = str(text).strip().split(":")
    flags: dict[str, Any] = {"h": hurried, "eb": None, "ea": None}
    for p in parts[:-1]:
        p = p.strip().lower()
        if p == "h":
            flags["h"] = True
        elif p[:2] in ("eb", "ea") and p[2:]:
            flags[p[:2]] = whole_number(p[2:], N_("interval {n}: {flag} (the Edge rating)"), 1, EDGE_MAX, n=index,
                                        flag=p[:2])
        else:
            raise CliError(_("interval {n}: '{part}:' is not h: (hurried), ebE: or eaE: (Edge before / after)", n=index,
                             part=p))
    return flags, parts[-1]


def _resolve_sr_opposed(parsed: argparse.Namespace) -> int:
    args = cast("SROpposedResolveArgs", parsed)
    from polku.rules import shadowrun

    settings, _given = settings_from_args(args, "shadowrun")
    ra = _sr_side(args.a, args, "", settings, "A")
    rb = _sr_side(args.b, args, "b_", settings, "B")
    result = shadowrun.opposed(ra, rb)
    out = {**sr_json(result), "settings": settings_json(settings, "shadowrun")}
    return emit(args, out, [sr_opposed_headline(result), *("  " + told(line) for line in result.explain())])


# --------------------------------------------------------------------------- roll
