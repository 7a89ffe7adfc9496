"""``polku odds SYSTEM POOL_A [POOL_B]``: exact odds of every test the app offers."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from polku.cli.common import (
    EDGE_MAX,
    EDGE_RATING,
    EXTENDED_MAX,
    HARHA_NAMES,
    HARHA_VARIANT_HELP,
    HARHA_VARIANTS,
    INTERVALS_DEFAULT,
    INTERVALS_MAX,
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
    sr_edge_before_odds_flag,
    sub,
    whole_arg,
)
from polku.cli.pools import (
    parse_harha_pool,
    parse_raja_pool,
    pool_list,
    sr_pool,
)
from polku.cli.words import (
    harha_pool_text,
    pct_line,
)
from polku.i18n import N_, _, and_list, decimal, ngettext
from polku.text import percent

if TYPE_CHECKING:
    import argparse
    from typing import Any

    class _Common(argparse.Namespace):
        json: bool
        settings: list[str]

    class RajaOddsArgs(_Common):
        """``polku odds rajapolku``'s arguments (typing only)."""

        a: str
        b: str
        spirit: bool
        in_fight: bool
        wound: str | None
        b_wound: str | None

    class HarhaOddsArgs(_Common):
        """``polku odds harhapolku``'s arguments (typing only)."""

        a: str
        b: str | None
        variant: str | None
        difficult: bool
        very_demanding: bool

    class SROddsArgs(_Common):
        """``polku odds shadowrun``'s arguments (typing only)."""

        n: str
        threshold: int | None
        edge_before: int | None
        edge: int | None
        extended: int | None
        intervals: int | None
        progress: int
        hurried: bool
        helpers: str | None
        leader_skill: int | None

    class SROpposedOddsArgs(_Common):
        """``polku odds shadowrun-opposed``'s arguments (typing only)."""

        n: str
        m: str
        group: str | None
        edge_before: int | None
        b_edge_before: int | None

    from polku.cli.common import Verbs
    from polku.rules.system import Settings


ODDS_RAJA_JSON = N_("""\
JSON keys: system, a {normal, ability}, b {normal, ability}, settings, a_wins, b_wins, tie,
  degrees {d: p}, a_degrees, b_degrees, a_visible, b_visible (R7 visibly supernatural wins);
  with --spirit / --in-fight: a_charges, b_charges (left), exchange {...} (the keys above),
  a_wins, b_wins (the whole fight), expected_exchanges, a_charges_left, b_charges_left.""")

ODDS_HARHA_JSON = N_("""\
JSON keys: system, variant, a {d8, d10}, b {d8, d10}, settings, a_wins, b_wins, tie;
  with --difficult / --very-demanding: success, failure, tie, won_without (H8; unopposed:
  success only), and notice when the sum variant leaves a very demanding action no chance
  (harha.sum_difficult).""")

ODDS_SR_OPPOSED_JSON = N_("JSON keys: system, a_dice, b_dice, group, a_wins, b_wins, tie, b_wins_if_needed.")

ODDS_SR_JSON = N_("""\
JSON keys: system, dice, rule_of_six, settings, hits {h: p}, glitch, critical_glitch, tail,
  threshold and success with --threshold; --edge: edge_rating, none / before / after
  {success, glitch, critical_glitch, mean_hits}, after_spent; --extended: threshold,
  progress, success (within --intervals), success_at {i: p}, critical_glitch, glitch,
  unfinished; --helpers: helpers, leader_skill, cap, and the hits keys for the leader.""")


def add_parser(verbs: Verbs) -> None:
    odds = verbs.add_parser("odds", help=N_("exact odds"),
                            description=N_("Exact odds of a challenge or a roll, for every test the app offers."))
    osys = odds.add_subparsers(dest="system", metavar="SYSTEM", required=True, parser_class=Parser)
    o = sub(osys, "rajapolku", RAJA_NAMES[1:], N_("Rajapolku (R5-R7, R11)"),
             N_("Odds of a Rajapolku challenge (R5-R7), or of a spirit combat (R11)."),
             settings_epilog("raja.") + "\n" + _(ODDS_RAJA_JSON))
    o.add_argument("a", metavar="POOL_A",
                   help=N_("side A's pool: '3' (d10s) or '3+1*' (and one ability die); charges with --spirit"))
    o.add_argument("b", metavar="POOL_B", help=N_("side B's pool, the same way"))
    o.add_argument("--spirit", action="store_true",
                   help=N_("spirit combat: the pools are each side's charges now; each pays 1 to enter (R11)"))
    o.add_argument("--in-fight", action="store_true",
                   help=N_("spirit combat under way: the pools are the charges left (entry paid)"))
    raja_wound_flags(o)
    finish(o, _odds_raja)

    oh = sub(osys, "harhapolku", HARHA_NAMES[1:], N_("Harhapolku (H3-H6, H8)"),
              N_("Odds of a Harhapolku comparison (H3-H6), or of a difficult action (H8), opposed or not."),
              settings_epilog("harha.") + "\n" + _(ODDS_HARHA_JSON))
    oh.add_argument("a", metavar="POOL_A", help=N_("side A's pool (the actor), e.g. 2d8+1d10"))
    oh.add_argument("b", metavar="POOL_B", nargs="?", help=N_("side B's pool (the challenger)"))
    oh.add_argument("--variant", choices=HARHA_VARIANTS, default=None, help=HARHA_VARIANT_HELP)
    difficult_flags(oh)
    finish(oh, _odds_harha)

    os_ = sub(osys, "shadowrun", SR_NAMES[1:], N_("Shadowrun roll (S3-S11)"),
               N_("Odds of a Shadowrun 4e roll (S4-S8); what Edge is worth (S7); an extended test (S10); "
                  "teamwork (S11)."),
               settings_epilog("sr.") + "\n" + _(ODDS_SR_JSON))
    os_.add_argument("n", metavar="N", help=N_("dice in the pool (without Edge dice; --edge-before E adds them)"))
    os_.add_argument("--threshold", type=whole_arg("--threshold", 1, MAX_POOL), metavar="T",
                     help=N_("also the chance of at least T hits (S8)"))
    sr_edge_before_odds_flag(os_, "")
    os_.add_argument("--edge", type=whole_arg(EDGE_RATING, 1, EDGE_MAX, flag="--edge"), metavar="E",
                     help=N_("compare no Edge, Edge before and Edge after (spent when the roll falls short) "
                          "for Edge rating E; needs --threshold (S7)"))
    os_.add_argument("--extended", type=whole_arg(THRESHOLD_OF, 1, EXTENDED_MAX, flag="--extended"), metavar="T",
                     help=N_("an extended test to T hits (S10)"))
    os_.add_argument("--intervals", type=whole_arg("--intervals", 1, INTERVALS_MAX), metavar="K", default=None,
                     help=N_("extended: the chance to finish within K intervals (default 20)"))
    os_.add_argument("--progress", type=whole_arg("--progress", 0, EXTENDED_MAX), metavar="P", default=0,
                     help=N_("extended: hits already accumulated (a test under way)"))
    os_.add_argument("--hurried", action="store_true", help=N_("extended: 2s count as 1s for glitches (S10)"))
    os_.add_argument("--helpers", metavar="N,N", help=N_("teamwork: each helper's own pool (S11)"))
    os_.add_argument("--leader-skill", type=whole_arg("--leader-skill", 0, MAX_POOL), metavar="S",
                     help=N_("teamwork: the leader's skill (the cap under sr.teamwork_cap=skill)"))
    finish(os_, _odds_sr)

    oso = sub(osys, "shadowrun-opposed", SR_OPPOSED_NAMES[1:], N_("Shadowrun opposed test (S9)"),
               N_("Odds of a Shadowrun opposed test (S9); B is the defender, alone or leading a group."),
               settings_epilog("sr.") + "\n" + _(ODDS_SR_OPPOSED_JSON))
    oso.add_argument("n", metavar="N", help=N_("side A's dice"))
    oso.add_argument("m", metavar="M", help=N_("side B's (the defender's) dice"))
    oso.add_argument("--group", metavar="N,N",
                     help=N_("B's companions' pools: B rolls the largest pool + 1 per extra member, at most +5 (S9)"))
    sr_edge_before_odds_flag(oso, "")
    sr_edge_before_odds_flag(oso, "b-")
    finish(oso, _odds_sr_opposed)


def _note(notice: str) -> str:
    return "  " + _("note: {notice}", notice=_(notice))


def _odds_raja(parsed: argparse.Namespace) -> int:
    args = cast("RajaOddsArgs", parsed)
    from polku.session import odds

    settings, _given = settings_from_args(args, "rajapolku")
    if args.spirit or args.in_fight:
        return _odds_spirit(args, settings)
    if args.wound is not None or args.b_wound is not None:
        raise CliError(_("--wound and --b-wound are for spirit combat (--spirit or --in-fight, R11)"))
    an, aa = parse_raja_pool(args.a, "A")
    bn, ba = parse_raja_pool(args.b, "B")
    result = odds.raja(odds.RajaQuestion((an, aa), (bn, ba)), settings)
    if args.json:
        out = {"system": "rajapolku", "a": {"normal": an, "ability": aa},
               "b": {"normal": bn, "ability": ba}, "settings": settings_json(settings, "rajapolku")}
        out.update(result.to_json())
        emit_json(out)
        return 0

    def pool_text(n: int, ab: int) -> str:
        return _("{n}d10 + {ability} ability", n=n, ability=ab) if ab else f"{n}d10"

    tie = _("tie (B holds)") if settings.raja_full_tie == "defender" else _("tie (reroll)")
    lines = [
        _("Rajapolku odds: A {a} vs B {b}", a=pool_text(an, aa), b=pool_text(bn, ba)),
        pct_line(_("A wins"), result.a_wins),
        pct_line(_("B wins"), result.b_wins),
        pct_line(tie, result.tie),
        _("winner's degrees of success (R6, ability dice count 2, beyond the deciding die (raja.degrees)):")
        if settings.raja_degrees == "beyond" else _("winner's degrees of success (R6, ability dice count 2):"),
    ]
    for d, p in enumerate(result.degrees):
        if p > 0:
            label = "0" if d == 0 else str(d)
            lines.append(pct_line(label, p))
    if aa or ba:
        lines.append(_("visibly supernatural wins (R7):"))
        if aa:
            lines.append(pct_line("A", result.a_visible))
        if ba:
            lines.append(pct_line("B", result.b_visible))
    emit_lines(lines)
    return 0


def _odds_spirit(args: RajaOddsArgs, settings: Settings) -> int:
    from polku.session import odds

    charges = []
    for side, text in (("A", args.a), ("B", args.b)):
        normal, ability = parse_raja_pool(text, side)
        if ability:
            raise CliError(_("side {side}: in spirit combat the dice are the charges, no ability dice (R11)", side=side))
        left = normal if args.in_fight else normal - 1
        if left < 1:
            raise CliError(ngettext("side {side}: {n} charge: after the 1-charge entry none would remain (R11)",
                                    "side {side}: {n} charges: after the 1-charge entry none would remain (R11)", normal,
                                    side=side))
        charges.append(left)
    a_pen, b_pen = raja_wound_penalties(args)
    result = odds.spirit_fight(odds.SpiritFightQuestion(charges[0], charges[1], a_pen, b_pen), settings)
    if args.json:
        emit_json({"system": "rajapolku", "test": "spirit", "settings": settings_json(settings, "rajapolku"),
                    **result.to_json()})
        return 0
    ex = result.exchange
    wounds = []
    if (a_pen or b_pen) and settings.raja_spirit_wounds:
        from polku.rules.rajapolku import spirit_dice_counts

        da, db = spirit_dice_counts(charges[0], charges[1], settings, a_penalty=a_pen, b_penalty=b_pen)
        wounds = ["  " + _("wounds (R9, raja.spirit_wounds = true, raja.wound_penalty = {penalty}): "
                           "A rolls {a}, B {b} dice now", penalty=settings.raja_wound_penalty, a=da, b=db)]
    elif a_pen or b_pen:
        wounds = ["  " + _("wounds do not count in spirit combat (raja.spirit_wounds = false)")]
    head = (_("Spirit combat odds (R11): A {a} vs B {b} charges left", a=charges[0], b=charges[1]) if args.in_fight
            else _("Spirit combat odds (R11): A {a} vs B {b} charges left after each pays 1 to enter", a=charges[0],
                   b=charges[1]))
    lines = [head, *wounds,
             _("the next exchange:"),
             pct_line(_("A wins"), ex.a_wins), pct_line(_("B wins"), ex.b_wins),
             pct_line(_("full tie (free)"), ex.tie),
             _("the whole fight (the winner of an exchange loses nothing):"),
             pct_line(_("A wins"), result.a_wins), pct_line(_("B wins"), result.b_wins),
             "  " + _("expected exchanges: {n}", n=decimal(result.expected_exchanges, 2))]
    emit_lines(lines)
    return 0


def _odds_harha(parsed: argparse.Namespace) -> int:
    args = cast("HarhaOddsArgs", parsed)
    from polku.rules.harhapolku import difficult_notice
    from polku.session import odds

    settings = harha_settings(args)
    variant = settings.harha_variant
    needed = h8_demand(args)
    notice = difficult_notice(variant, needed, settings)
    demand = {0: "", 1: "difficult", 2: "very_demanding"}[needed]
    a = parse_harha_pool(args.a, "A")
    out: dict[str, Any] = {"system": "harhapolku", "variant": variant, "a": {"d8": a[0], "d10": a[1]},
                           "settings": settings_json(settings, "harhapolku")}
    if notice:
        out["notice"] = notice
    if args.b is None:
        if not needed:
            raise CliError(_("harhapolku needs POOL_B, unless the action is --difficult or --very-demanding (H8)"))
        p = odds.success_of(odds.harha(odds.HarhaQuestion(a, None, demand), settings))[0]
        out.update(opposed=False, success=p)
        alone = harha_pool_text(a)
        if needed == 2:
            head = (_("Harhapolku odds: very demanding action, unopposed, {pool}, one die (sum variant) (H8)", pool=alone)
                    if variant == "sum" else _("Harhapolku odds: very demanding action, unopposed, {pool} (H8)", pool=alone))
        else:
            head = (_("Harhapolku odds: difficult action, unopposed, {pool}, one die (sum variant) (H8)", pool=alone)
                    if variant == "sum" else _("Harhapolku odds: difficult action, unopposed, {pool} (H8)", pool=alone))
        return emit(args, out, [head, pct_line(_("success"), p), *([_note(notice)] if notice else [])])
    b = parse_harha_pool(args.b, "B")
    out["b"] = {"d8": b[0], "d10": b[1]}
    if variant == "sum":
        for side, pool in (("A", a), ("B", b)):
            if pool[0] and pool[1]:
                raise CliError(_("side {side}: the sum variant uses one die size (H6)", side=side))
    plain = odds.harha(odds.HarhaQuestion(a, b), settings)
    diff = odds.harha(odds.HarhaQuestion(a, b, demand), settings) if needed else None
    assert isinstance(plain, odds.HarhaOdds) and (diff is None or isinstance(diff, odds.HarhaDifficultOdds))
    out.update(plain.to_json())
    if diff is not None:
        out.update(diff.to_json())
    if args.json:
        emit_json(out)
        return 0
    classic = variant == "classic"
    pools = {"variant": variant, "a": harha_pool_text(a), "b": harha_pool_text(b)}
    lines = [_("Harhapolku odds ({variant}): A {a} vs B {b}", **pools) if classic
             else _("Harhapolku odds ({variant}): A (actor) {a} vs B (challenger) {b}", **pools),
             pct_line(_("A wins"), plain.a_wins), pct_line(_("B wins"), plain.b_wins)]
    if classic:
        lines.append(pct_line(_("tie (reroll)"), plain.tie))
    else:
        lines.append("  " + _("(the actor keeps the action unless the challenger wins more: no ties)"))
    if diff is not None:
        lines += [ngettext("very demanding, opposed (H8): the actor must win and show {n} die of 7+",
                           "very demanding, opposed (H8): the actor must win and show {n} dice of 7+", needed)
                  if needed == 2 else
                  ngettext("difficult, opposed (H8): the actor must win and show {n} die of 7+",
                           "difficult, opposed (H8): the actor must win and show {n} dice of 7+", needed),
                  pct_line(_("success"), diff.success), pct_line(_("won without 7+"), diff.won_without)]
        if notice:
            lines.append(_note(notice))
    emit_lines(lines)
    return 0


def _odds_sr(parsed: argparse.Namespace) -> int:
    args = cast("SROddsArgs", parsed)
    from polku.rules import odds as core
    from polku.session import odds

    settings, _given = settings_from_args(args, "shadowrun")
    n = sr_pool(args.n) + (args.edge_before or 0)
    rule_of_six = args.edge_before is not None
    check_threshold(args.threshold)
    out: dict[str, Any] = {"system": "shadowrun", "settings": settings_json(settings, "shadowrun")}
    modes = [f for f, v in (("--edge", args.edge), ("--extended", args.extended), ("--helpers", args.helpers))
             if v is not None]
    if len(modes) > 1:
        raise CliError(_("{flags}: one question at a time", flags=and_list(modes)))
    for flag, value in (("--intervals", args.intervals), ("--progress", args.progress or None),
                        ("--hurried", args.hurried or None)):
        if value is not None and args.extended is None:
            raise CliError(_("{flag} is for an extended test (--extended T)", flag=flag))
    if args.leader_skill is not None and args.helpers is None:
        raise CliError(_("--leader-skill is for teamwork (--helpers N,N)"))
    if args.edge is not None:
        if args.threshold is None:
            raise CliError(_("--edge compares Edge before and after the roll for a threshold: give --threshold T"))
        if rule_of_six:
            raise CliError(_("--edge already compares Edge before the roll; leave out --edge-before"))
        check_rating("--edge", args.edge)
        worth = core.sr_edge_odds(n, args.edge, args.threshold, settings)
        out.update(worth.to_json())
        if args.json:
            emit_json(out)
            return 0
        lines = [ngettext("What Edge {edge} is worth on {n} die, threshold {threshold} (S7):",
                          "What Edge {edge} is worth on {n} dice, threshold {threshold} (S7):", n, edge=args.edge,
                          threshold=args.threshold)]
        heads = (_("success"), _("glitch"), _("critical"), _("mean hits"))
        rows = ((_("no Edge"), worth.none), (_("Edge before the roll"), worth.before),
                (_("Edge after, if short"), worth.after))
        w = [max(22, *(len(label) for label, _v in rows))] + [max(9, len(h)) for h in heads[:3]] + [max(10, len(heads[3]))]
        lines.append(f"  {'':<{w[0]}} {heads[0]:>{w[1]}} {heads[1]:>{w[2]}} {heads[2]:>{w[3]}} {heads[3]:>{w[4]}}")
        for label, v in rows:
            lines.append(f"  {label:<{w[0]}} {percent(v[0], 3):>{w[1]}} {percent(v[1], 3):>{w[2]}} {percent(v[2], 3):>{w[3]}} "
                         f"{v[3]:{w[4]}.3f}")
        lines.append("  " + _("(after the roll the point is spent only when the roll falls short: {p} of the time)",
                              p=percent(worth.after_spent)))
        emit_lines(lines)
        return 0
    if args.extended is not None:
        if args.threshold is not None or rule_of_six:
            raise CliError(_("an extended test takes --extended T (its threshold), not --threshold or --edge-before"))
        k = args.intervals if args.intervals is not None else INTERVALS_DEFAULT
        ext = odds.extended(odds.SRQuestion(n, "extended", threshold=args.extended, hurried=args.hurried,
                                               intervals=k, progress=args.progress), settings)
        out.update(ext.to_json(), dice=n, progress=args.progress, intervals=k, hurried=args.hurried)
        if args.json:
            emit_json(out)
            return 0
        so_far = {"progress": args.progress, "threshold": args.extended}
        lines = [ngettext("Shadowrun extended test odds: {n} die per interval, {progress}/{threshold} hits so far, "
                          "hurried (S10)", "Shadowrun extended test odds: {n} dice per interval, {progress}/{threshold} "
                          "hits so far, hurried (S10)", n, **so_far) if args.hurried else
                 ngettext("Shadowrun extended test odds: {n} die per interval, {progress}/{threshold} hits so far (S10)",
                          "Shadowrun extended test odds: {n} dice per interval, {progress}/{threshold} hits so far "
                          "(S10)", n, **so_far)]
        run = 0.0
        for i, p in enumerate(ext.success_at):
            run += p
            if p > 0 or i < 3:
                lines.append(pct_line(_("done by {i}", i=i + 1), run))
        lines += [pct_line(_("within {k}", k=k), ext.success), pct_line(_("critical glitch"), ext.critical_glitch),
                  pct_line(_("some glitch"), ext.any_glitch)]
        emit_lines(lines)
        return 0
    if args.helpers is not None:
        helpers = pool_list(args.helpers, N_("a helper's pool"))
        cap = None
        if settings.sr_teamwork_cap == "skill":
            if args.leader_skill is None:
                raise CliError(_("sr.teamwork_cap=skill caps the helpers' dice at the leader's skill: give --leader-skill S"))
            cap = args.leader_skill
        result = odds.sr(odds.SRQuestion(n, "teamwork", rule_of_six, helpers=tuple(helpers),
                                         leader_skill=args.leader_skill), settings)
        out.update(result.to_json(args.threshold), helpers=helpers, leader_skill=args.leader_skill, cap=cap,
                   rule_of_six=rule_of_six, tail=result.tail)
        named = {"n": n, "helpers": ", ".join(map(str, helpers))}
        head = (_("Shadowrun teamwork odds: leader {n} dice + the hits of helpers {helpers}", **named) if cap is None
                else _("Shadowrun teamwork odds: leader {n} dice + the hits of helpers {helpers}, at most {cap} dice "
                       "(sr.teamwork_cap)", cap=cap, **named))
    else:
        result = odds.sr(odds.SRQuestion(n, rule_of_six=rule_of_six), settings)
        out.update(result.to_json(args.threshold), rule_of_six=rule_of_six, tail=result.tail)
        head = (ngettext("Shadowrun odds: {n} die, rule of six (Edge before the roll)",
                         "Shadowrun odds: {n} dice, rule of six (Edge before the roll)", n) if rule_of_six
                else ngettext("Shadowrun odds: {n} die", "Shadowrun odds: {n} dice", n))
    if args.json:
        emit_json(out)
        return 0
    lines = [head, "  " + _("mean hits: {mean}", mean=decimal(result.mean(), 3)), _("hits:")]
    for h, p in enumerate(result.hits):
        if p >= 5e-6 or h == 0:
            lines.append(pct_line(str(h), p))
    lines.append(pct_line(_("glitch"), result.glitch))
    lines.append(pct_line(_("critical glitch"), result.critical_glitch))
    if args.threshold is not None:
        lines.append(pct_line(_("success (≥{threshold})", threshold=args.threshold), result.success(args.threshold)))
    emit_lines(lines)
    return 0


def _odds_sr_opposed(parsed: argparse.Namespace) -> int:
    args = cast("SROpposedOddsArgs", parsed)
    from polku.rules import shadowrun
    from polku.session import odds

    settings, _given = settings_from_args(args, "shadowrun")
    n, m = sr_pool(args.n, "A") + (args.edge_before or 0), sr_pool(args.m, "B")
    group = pool_list(args.group, N_("a group member's pool"))
    m_total = (shadowrun.group_pool([m, *group]) if group else m) + (args.b_edge_before or 0)
    if m_total > 200:
        raise CliError(_("{n} dice is more than this tracker rolls (200)", n=m_total))
    result = odds.opposed(odds.SRQuestion(n, "opposed", args.edge_before is not None, m_total,
                                             args.b_edge_before is not None), settings)
    if args.json:
        out = {"system": "shadowrun", "a_dice": n, "b_dice": m_total,
               "group": [m, *group] if group else None, "settings": settings_json(settings, "shadowrun")}
        out.update(result.to_json())
        out["b_wins_if_needed"] = result.b_wins_if_needed
        emit_json(out)
        return 0
    sides = {"a": n, "b": m_total}
    emit_lines([
        _("Shadowrun opposed odds: A {a} dice vs B (defender) {b} dice (a group of {size}: largest + {extra}, S9)",
          size=len(group) + 1, extra=min(5, len(group)), **sides) if group
        else _("Shadowrun opposed odds: A {a} dice vs B (defender) {b} dice", **sides),
        pct_line(_("A wins"), result.a_wins),
        pct_line(_("B wins"), result.b_wins),
        pct_line(_("tie"), result.tie),
        pct_line(_("B if needed"), result.b_wins_if_needed),
    ])
    return 0


# --------------------------------------------------------------------------- review, watch, export
