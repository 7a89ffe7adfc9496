"""The ``polku`` command: the app, and headless verbs for dice, outcomes and odds.

::

    polku [FILE] [--read-only] [--seed N]     open the app (a session file, or none)
    polku new [--seed N]                      the app, starting a new campaign
    polku resolve SYSTEM A B ...              judge faces already rolled
    polku roll SYSTEM POOL_A [POOL_B] ...     roll pools with a seed, then judge
    polku odds SYSTEM POOL_A [POOL_B] ...     exact odds
    polku review FILE                         step through a saved session (read-only)
    polku watch FILE                          the players' live view of a session
    polku export FILE --format md|html        a session report for the group

Every headless verb prints a short human explanation, or JSON with ``--json``.
Bad input ends with exit status 2 and one line on stderr,
``polku: error: <what is wrong>``.

Layering (DESIGN.md): this module imports only the standard library at import
time. The rules modules are imported inside the verb handlers, and the app
(``polku.tui.run``, which imports textual) only when the app is started, so
headless verbs never import textual or rich.
"""

from __future__ import annotations

import argparse
import re
import sys
TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (issue 7)
if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path
    from typing import Any, NoReturn

PROG = "polku"

VERBS = ("new", "resolve", "roll", "odds", "review", "watch", "export")
"""A first argument naming one of these is a verb; anything else is a FILE."""

# System names and aliases (kept in step with polku.rules.system.SYSTEM_ALIASES,
# which a test checks; not imported here so that building the parser stays cheap).
RAJA_NAMES = ("rajapolku", "raja")
HARHA_NAMES = ("harhapolku", "harha")
SR_NAMES = ("shadowrun", "varjojuoksu", "sr", "sr4")
SR_OPPOSED_NAMES = tuple(f"{n}-opposed" for n in SR_NAMES)
ALL_SYSTEM_NAMES = RAJA_NAMES + HARHA_NAMES + SR_NAMES + SR_OPPOSED_NAMES

BAR_WIDTH = 30


class CliError(Exception):
    """A one-line user error raised by the handlers (exit status 2)."""


class _Exit(Exception):
    """Raised by :meth:`Parser.exit` so :func:`main` can return the status."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line and which never calls sys.exit."""

    def error(self, message: str) -> NoReturn:
        one_line = " ".join(str(message).split())
        _print_error(f"{one_line} (try '{self.prog} --help')")
        raise _Exit(2)

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        if message:
            sys.stderr.write(message)
        raise _Exit(status)

    def _get_formatter(self) -> argparse.HelpFormatter:
        # argparse's HelpFormatter imports shutil (and bz2, lzma...) for the width;
        # every add_argument makes one, so the headless verbs paid for it.
        return self.formatter_class(prog=self.prog, width=_terminal_columns() - 2)


def _terminal_columns() -> int:
    """``shutil.get_terminal_size().columns``, without importing shutil."""
    import os

    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
        columns = columns or 80
    return columns


def _print_error(message: str) -> None:
    text = " ".join(str(message).split()) or "something went wrong"
    print(f"{PROG}: error: {text}", file=sys.stderr)


# --------------------------------------------------------------------------- parsers

APP_DESCRIPTION = """\
A game master's session tracker for Rajapolku, Harhapolku and Varjojuoksu
(Shadowrun 4e dice).

Without a verb, polku opens the app: with FILE, that session file; without,
no file yet. A first argument that is a verb (new, resolve, roll, odds, review,
watch, export) is the verb; anything else is a FILE (write ./new to open a file
called 'new').
"""

APP_EPILOG = """\
headless verbs (never start the app; add --json for JSON):
  polku new [--seed N]                           start the app on a new campaign
  polku resolve rajapolku A B [--spirit]         faces '10,8*,7' (* = ability die)
  polku resolve harhapolku A B [--variant V]     faces '7,4,4' or '10:9,8'; --difficult (H8)
  polku resolve shadowrun FACES [--threshold T]  --edge-before/--edge-after E, --extended T,
                                                 --helper FACES (teamwork)
  polku resolve shadowrun-opposed A B            B is the defender
  polku roll SYSTEM POOL_A [POOL_B] [--seed N]   roll, then judge as resolve does
  polku odds SYSTEM POOL_A [POOL_B]              exact odds (--spirit, --difficult, --edge E,
                                                 --extended T, --helpers N,N, --group N,N)
  ... --set KEY=VALUE                            any [choice] setting of RULES.md (resolve,
                                                 roll, odds; see their --help)
  polku export FILE --format md|html [-o OUT]    a session report (no app)
other verbs: polku review FILE (the past, read-only), polku watch FILE (players' view)
systems: rajapolku (raja), harhapolku (harha), shadowrun (varjojuoksu, sr, sr4)
try 'polku resolve --help', 'polku roll --help', 'polku odds --help'
"""

RAJA_FACES_HELP = (
    "side {side}'s faces, comma-separated d10 faces 1-10, e.g. 10,8*,7; "
    "a trailing * marks an ability die (R7)"
)
HARHA_FACES_HELP = (
    "side {side}'s faces, comma-separated: a bare face 1-8 is a d8, 9-10 a d10; "
    "give the size to be explicit: d10:7 or 10:7 (a 7 on a d10)"
)
HARHA_VARIANTS = ("ch23", "classic", "same_size", "sum")
HARHA_VARIANT_HELP = (
    "comparison (the same as --set harha.variant=V): ch23 (chapter 23, H4, default; A = actor, "
    "B = challenger), classic (H3; more positions wins, equal counts tie), same_size (H5: one die "
    "size, compared as ch23) or sum (H6: one die plus the die count, the challenger needs more)"
)


def _version() -> str:
    from polku import __version__

    return __version__


def _app_parser() -> Parser:
    p = Parser(
        prog=PROG,
        description=APP_DESCRIPTION,
        epilog=APP_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file", nargs="?", metavar="FILE", help="a session file to open")
    p.add_argument("--read-only", action="store_true", help="open FILE without changing it")
    p.add_argument("--seed", type=_whole_arg("--seed", 0, SEED_MAX), metavar="N",
                   help="seed the program's dice (reproducible rolls)")
    p.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    return p


def _verb_parser(only: str | None = None) -> Parser:
    """The verbs' parser; with ``only``, just that verb's subparser (cheaper to build)."""

    def want(verb: str) -> bool:
        return only is None or only == verb

    p = Parser(prog=PROG, description=APP_DESCRIPTION, epilog=APP_EPILOG,
               formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    verbs = p.add_subparsers(dest="verb", metavar="VERB", required=True, parser_class=Parser)

    # new
    if want("new"):
        _verb_new(verbs)
    if want("review"):
        _verb_review(verbs)
    if want("watch"):
        _verb_watch(verbs)
    if want("export"):
        _verb_export(verbs)
    if want("resolve"):
        _verb_resolve(verbs)
    if want("roll"):
        _verb_roll(verbs)
    if want("odds"):
        _verb_odds(verbs)
    return p


def _verb_new(verbs: Any) -> None:
    new = verbs.add_parser("new", help="start the app on a new campaign",
                           description="Start the app on a new campaign.")
    new.add_argument("--seed", type=_whole_arg("--seed", 0, SEED_MAX), metavar="N", help="seed the program's dice")



def _verb_review(verbs: Any) -> None:
    rev = verbs.add_parser("review", help="step through a saved session, read-only",
                           description="Open a saved session read-only: the timeline, the state at any event, "
                                       "filters and statistics. Takes no lock and never writes.")
    rev.add_argument("file", metavar="FILE", help="a session file")
    rev.add_argument("--theme", metavar="NAME", help="colour theme")
    rev.set_defaults(handler=_review)


def _verb_watch(verbs: Any) -> None:
    wat = verbs.add_parser("watch", help="the players' live view of a session",
                           description="A read-only live view of a session the GM's app is saving: challenges, "
                                       "characters' public status and the dice log, without the GM's secrets. "
                                       "Remote players: ssh -t HOST polku watch FILE.")
    wat.add_argument("file", metavar="FILE", help="a session file")
    wat.add_argument("--theme", metavar="NAME", help="colour theme")
    wat.add_argument("--interval", type=_seconds, default=0.3, metavar="SECONDS",
                     help="how often to look at the file (default 0.3)")
    wat.set_defaults(handler=_watch)


def _verb_export(verbs: Any) -> None:
    exp = verbs.add_parser("export", help="a session report, Markdown or HTML",
                           description="Write a session report a GM can post for the group: scenes, challenges, "
                                       "rolls, resources and statistics. The GM's secrets are left out unless --gm.")
    exp.add_argument("file", metavar="FILE", help="a session file")
    exp.add_argument("--format", "-f", choices=("md", "html"), default="md", help="md (default) or html")
    exp.add_argument("-o", "--output", metavar="OUT", help="write to OUT instead of standard output")
    exp.add_argument("--gm", action="store_true", help="include the GM's secrets (notes, hidden thresholds)")
    exp.set_defaults(handler=_export)


def _settings_epilog(prefix: str) -> str:
    """The [choice] settings of one system, for a subparser's --help."""
    from polku.rules.system import CHOICES, allowed_text

    lines = ["settings (--set KEY=VALUE, repeatable):"]
    for c in CHOICES:
        if c.key.startswith(prefix):
            default = str(c.default).lower() if isinstance(c.default, bool) else str(c.default)
            lines.append(f"  {c.key:<21} {allowed_text(c)}; default {default} ({c.rule})")
    return "\n".join(lines)


def _set_flag(p: argparse.ArgumentParser) -> None:
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", dest="settings",
                   help="a [choice] setting of RULES.md (repeatable; the settings are listed below)")


def _sub(parent: Any, name: str, aliases: Sequence[str], help_: str, description: str, epilog: str) -> Parser:
    return parent.add_parser(name, aliases=list(aliases), help=help_, description=description,
                             epilog=epilog, formatter_class=argparse.RawDescriptionHelpFormatter)


RAJA_RESOLVE_JSON = """\
JSON keys: system, winner (a|b|tie), degrees, degrees_rule (all|beyond), supernatural,
  narrow, visibly_supernatural (= deciding_die_is_ability), deciding_position, decided_by,
  degree_faces, tie_action, holds, a_faces, b_faces, a_dice, b_dice, settings, explain;
  with --spirit also loser, charge_loss (R11)."""

HARHA_RESOLVE_JSON = """\
JSON keys: system, variant, winner (a|b|tie), a_positions, b_positions, positions, reason,
  tie_action, a_faces, b_faces, a_sizes, b_sizes, settings, explain; sum variant: a_count,
  a_roll, a_total, b_count, b_roll, b_total; with --difficult / --very-demanding also
  difficult {success, high, needed, won_comparison} (H8; unopposed: success, high, needed)."""

SR_RESOLVE_JSON = """\
JSON keys: system, hits, glitch, critical_glitch, ones, dice_counted, pool, edge
  (before|after|long_shot|null), edge_dice, edge_spent, hurried, dice [{face, source, label,
  from}], settings, explain; with --threshold also threshold, success, net_hits; with
  --helper also helpers [hits], helper_dice (S11); with --extended the test: threshold,
  accumulated, intervals, done, ended, status, interval_thresholds, and rolls [...] (S10)."""

SR_FACES_ORDER = (
    "faces in the order they are taken from the dice: the pool, then the Edge dice, then the "
    "rule of six wave by wave (one new die per six, in table order)")


def _verb_resolve(verbs: Any) -> None:
    res = verbs.add_parser(
        "resolve", help="judge faces already rolled",
        description="Judge faces already rolled (physical dice, or any roll). "
                    "Faces are comma-separated, without spaces or quoted. Every [choice] setting "
                    "of RULES.md can be given with --set KEY=VALUE.",
    )
    rsys = res.add_subparsers(dest="system", metavar="SYSTEM", required=True, parser_class=Parser)
    r = _sub(rsys, "rajapolku", RAJA_NAMES[1:], "Rajapolku (R5-R7, R11)",
             "Rajapolku challenge (R5-R7): A acts, B is the opposition. With --spirit, one exchange "
             "of spirit combat (R11): the faces are the charges each side has left.",
             _settings_epilog("raja.") + "\n" + RAJA_RESOLVE_JSON)
    r.add_argument("a", metavar="A", help=RAJA_FACES_HELP.format(side="A (acting)"))
    r.add_argument("b", metavar="B", help=RAJA_FACES_HELP.format(side="B (opposition)"))
    r.add_argument("--spirit", action="store_true",
                   help="a spirit-combat exchange: say what the loser loses (R11, raja.spirit_loss)")
    _set_flag(r)
    _json_flag(r)
    r.set_defaults(handler=_resolve_raja)

    h = _sub(rsys, "harhapolku", HARHA_NAMES[1:], "Harhapolku (H3-H6, H8)",
             "Harhapolku comparison (H3-H6). In ch23, same_size and sum, A is the actor and B the "
             "challenger, who must win more positions (a larger total in sum). With --difficult, "
             "the actor must also show a die of 7+ (H8); B may then be left out (unopposed).",
             _settings_epilog("harha.") + "\n" + HARHA_RESOLVE_JSON)
    h.add_argument("a", metavar="A", help=HARHA_FACES_HELP.format(side="A (actor)")
                   + "; sum variant: COUNT+ROLL, e.g. 4+2 or 4+d10:7")
    h.add_argument("b", metavar="B", nargs="?", help=HARHA_FACES_HELP.format(side="B (challenger)"))
    h.add_argument("--variant", choices=HARHA_VARIANTS, default=None, help=HARHA_VARIANT_HELP)
    _difficult_flags(h)
    _set_flag(h)
    _json_flag(h)
    h.set_defaults(handler=_resolve_harha)

    s = _sub(rsys, "shadowrun", SR_NAMES[1:], "Shadowrun roll (S3-S11)",
             "Shadowrun 4e roll (S4-S7), a success test (S8) with --threshold, an extended test "
             "(S10) with --extended, or teamwork (S11) with --helper.",
             _settings_epilog("sr.") + "\n" + SR_RESOLVE_JSON)
    s.add_argument("faces", metavar="FACES",
                   help="comma-separated d6 faces, e.g. 1,1,5,6: " + SR_FACES_ORDER
                   + "; with --extended, intervals separated by ';', an interval written h:... is hurried")
    s.add_argument("--threshold", type=_whole_arg("--threshold", 1, MAX_POOL), metavar="T",
                   help="hits needed (S8)")
    _sr_edge_flags(s, "")
    s.add_argument("--long-shot", type=_whole_arg("--long-shot (the Edge rating)", 1, EDGE_MAX), metavar="E",
                   help="a Long Shot (S3): every face is an Edge die (E = Edge rating) with the rule of six")
    s.add_argument("--hurried", action="store_true", help="2s count as 1s for glitches (S10)")
    s.add_argument("--extended", metavar="T[,T...]",
                   help="an extended test (S10): the threshold, or the threshold in force at each "
                        "interval (the last one stays)")
    s.add_argument("--helper", action="append", default=[], metavar="FACES",
                   help="teamwork (S11): a helper's faces, rolled before the leader (repeatable)")
    s.add_argument("--leader-skill", type=_whole_arg("--leader-skill", 0, MAX_POOL), metavar="S",
                   help="teamwork: the leader's skill rating, the cap under sr.teamwork_cap=skill")
    _set_flag(s)
    _json_flag(s)
    s.set_defaults(handler=_resolve_sr)

    so = _sub(rsys, "shadowrun-opposed", SR_OPPOSED_NAMES[1:], "Shadowrun opposed test (S9)",
              "Shadowrun opposed test (S9): more hits wins; on a tie the defender B wins if a winner "
              "is needed. Either side may have spent Edge (S7).",
              _settings_epilog("sr.") + "\nJSON keys: system, winner (a|b|tie), net_hits, winner_if_needed, "
              "a {...}, b {...} (each as resolve shadowrun), settings, explain.")
    so.add_argument("a", metavar="A", help="side A's d6 faces: " + SR_FACES_ORDER)
    so.add_argument("b", metavar="B", help="side B's (the defender's) d6 faces, the same way")
    _sr_edge_flags(so, "")
    _sr_edge_flags(so, "b-")
    _set_flag(so)
    _json_flag(so)
    so.set_defaults(handler=_resolve_sr_opposed)


def _difficult_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument("--difficult", action="store_true",
                   help="a difficult action: the actor needs a die of 7+ in the same roll (H8)")
    p.add_argument("--very-demanding", action="store_true",
                   help="a very demanding action: two dice of 7+ (H8)")


def _sr_edge_flags(p: argparse.ArgumentParser, side: str) -> None:
    who = "side B" if side else "side A"
    p.add_argument(f"--{side}edge-before", type=_whole_arg(f"--{side}edge-before (the Edge rating)", 1, EDGE_MAX),
                   metavar="E",
                   help=f"{who} spent Edge before the roll, E = Edge rating: +E dice, rule of six (S7)")
    p.add_argument(f"--{side}edge-after", type=_whole_arg(f"--{side}edge-after (the Edge rating)", 1, EDGE_MAX),
                   metavar="E",
                   help=f"{who} spent Edge after the roll: +E dice at the end, rule of six on them (S7)")


ROLL_EPILOG = """\
pools:
  rajapolku   '3' (three d10) or '3+1*' (three d10 and one ability die); POOL_B needed;
              --spirit: the pools are each side's charges now, fought to the end (R11)
  harhapolku  '2d8+1d10' (or '3' for three d8); POOL_B needed unless --difficult;
              same_size and sum use one die size ('4' = 4 d8, '3d10'); sum throws one die
  shadowrun   a number of d6; with POOL_B an opposed test (B defends), --group adds B's
              companions (S9); --helpers N,N teamwork (S11); --extended T an extended test (S10)

""" + "JSON keys: seed, rolled, and the keys of 'polku resolve' for the same test."


def _verb_roll(verbs: Any) -> None:
    roll = verbs.add_parser(
        "roll", help="roll pools with a seed, then judge",
        description=(
            "Roll pools with the program's dice, then judge them as resolve does. "
            "The seed is printed; the same seed gives the same faces."
        ),
        epilog=ROLL_EPILOG + "\n" + "\n".join(_settings_epilog(p) for p in ("raja.", "harha.", "sr.")),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    roll.add_argument("system", metavar="SYSTEM", help="rajapolku, harhapolku or shadowrun (or an alias)")
    roll.add_argument("pool_a", metavar="POOL_A", help="side A's pool")
    roll.add_argument("pool_b", metavar="POOL_B", nargs="?", help="side B's pool")
    roll.add_argument("--seed", type=_whole_arg("--seed", 0, SEED_MAX), metavar="N",
                      help="seed (default: a random one, printed)")
    roll.add_argument("--variant", choices=HARHA_VARIANTS, default=None,
                      help="harhapolku only: " + HARHA_VARIANT_HELP)
    _difficult_flags(roll)
    roll.add_argument("--spirit", action="store_true",
                      help="rajapolku only: spirit combat to the end, the pools are charges (R11)")
    _sr_edge_flags(roll, "")
    _sr_edge_flags(roll, "b-")
    roll.add_argument("--threshold", type=_whole_arg("--threshold", 1, MAX_POOL), metavar="T",
                      help="shadowrun only, one pool: hits needed (S8)")
    roll.add_argument("--hurried", action="store_true", help="shadowrun: 2s count as 1s for glitches (S10)")
    roll.add_argument("--group", metavar="N,N", help="shadowrun opposed: B's companions' pools (S9)")
    roll.add_argument("--helpers", metavar="N,N", help="shadowrun: teamwork, each helper's own pool (S11)")
    roll.add_argument("--leader-skill", type=_whole_arg("--leader-skill", 0, MAX_POOL), metavar="S",
                      help="shadowrun teamwork: the leader's skill (the cap under sr.teamwork_cap=skill)")
    roll.add_argument("--extended", type=_whole_arg("--extended (the threshold)", 1, EXTENDED_MAX), metavar="T",
                      help="shadowrun: an extended test to T hits (S10)")
    roll.add_argument("--intervals", type=_whole_arg("--intervals", 1, INTERVALS_MAX), metavar="K", default=None,
                      help="extended: roll at most K intervals (default 20)")
    _set_flag(roll)
    _json_flag(roll)
    roll.set_defaults(handler=_roll)


ODDS_RAJA_JSON = """\
JSON keys: system, a {normal, ability}, b {normal, ability}, settings, a_wins, b_wins, tie,
  degrees {d: p}, a_degrees, b_degrees, a_visible, b_visible (R7 visibly supernatural wins);
  with --spirit / --in-fight: a_charges, b_charges (left), exchange {the keys above},
  a_wins, b_wins (the whole fight), expected_exchanges, a_charges_left, b_charges_left."""

ODDS_HARHA_JSON = """\
JSON keys: system, variant, a {d8, d10}, b {d8, d10}, settings, a_wins, b_wins, tie;
  with --difficult / --very-demanding: success, failure, tie, won_without (H8; unopposed:
  success only)."""

ODDS_SR_JSON = """\
JSON keys: system, dice, rule_of_six, settings, hits {h: p}, glitch, critical_glitch, tail,
  threshold and success with --threshold; --edge: edge_rating, none / before / after
  {success, glitch, critical_glitch, mean_hits}, after_spent; --extended: threshold,
  progress, success (within --intervals), success_at {i: p}, critical_glitch, glitch,
  unfinished; --helpers: helpers, leader_skill, cap, and the hits keys for the leader."""


def _verb_odds(verbs: Any) -> None:
    odds = verbs.add_parser("odds", help="exact odds",
                            description="Exact odds of a challenge or a roll, for every test the app offers.")
    osys = odds.add_subparsers(dest="system", metavar="SYSTEM", required=True, parser_class=Parser)
    o = _sub(osys, "rajapolku", RAJA_NAMES[1:], "Rajapolku (R5-R7, R11)",
             "Odds of a Rajapolku challenge (R5-R7), or of a spirit combat (R11).",
             _settings_epilog("raja.") + "\n" + ODDS_RAJA_JSON)
    o.add_argument("a", metavar="POOL_A",
                   help="side A's pool: '3' (d10s) or '3+1*' (and one ability die); charges with --spirit")
    o.add_argument("b", metavar="POOL_B", help="side B's pool, the same way")
    o.add_argument("--spirit", action="store_true",
                   help="spirit combat: the pools are each side's charges now; each pays 1 to enter (R11)")
    o.add_argument("--in-fight", action="store_true",
                   help="spirit combat under way: the pools are the charges left (entry paid)")
    _set_flag(o)
    _json_flag(o)
    o.set_defaults(handler=_odds_raja)

    oh = _sub(osys, "harhapolku", HARHA_NAMES[1:], "Harhapolku (H3-H6, H8)",
              "Odds of a Harhapolku comparison (H3-H6), or of a difficult action (H8), opposed or not.",
              _settings_epilog("harha.") + "\n" + ODDS_HARHA_JSON)
    oh.add_argument("a", metavar="POOL_A", help="side A's pool (the actor), e.g. 2d8+1d10")
    oh.add_argument("b", metavar="POOL_B", nargs="?", help="side B's pool (the challenger)")
    oh.add_argument("--variant", choices=HARHA_VARIANTS, default=None, help=HARHA_VARIANT_HELP)
    _difficult_flags(oh)
    _set_flag(oh)
    _json_flag(oh)
    oh.set_defaults(handler=_odds_harha)

    os_ = _sub(osys, "shadowrun", SR_NAMES[1:], "Shadowrun roll (S3-S11)",
               "Odds of a Shadowrun 4e roll (S4-S8); what Edge is worth (S7); an extended test (S10); "
               "teamwork (S11).",
               _settings_epilog("sr.") + "\n" + ODDS_SR_JSON)
    os_.add_argument("n", metavar="N", help="dice in the pool (with --edge-before, include the Edge dice)")
    os_.add_argument("--threshold", type=_whole_arg("--threshold", 1, MAX_POOL), metavar="T",
                     help="also the chance of at least T hits (S8)")
    os_.add_argument("--edge-before", action="store_true",
                     help="Edge spent before the roll: the rule of six is on (S7)")
    os_.add_argument("--edge", type=_whole_arg("--edge (the Edge rating)", 1, EDGE_MAX), metavar="E",
                     help="compare no Edge, Edge before and Edge after (spent when the roll falls short) "
                          "for Edge rating E; needs --threshold (S7)")
    os_.add_argument("--extended", type=_whole_arg("--extended (the threshold)", 1, EXTENDED_MAX), metavar="T",
                     help="an extended test to T hits (S10)")
    os_.add_argument("--intervals", type=_whole_arg("--intervals", 1, INTERVALS_MAX), metavar="K", default=None,
                     help="extended: the chance to finish within K intervals (default 10)")
    os_.add_argument("--progress", type=_whole_arg("--progress", 0, EXTENDED_MAX), metavar="P", default=0,
                     help="extended: hits already accumulated (a test under way)")
    os_.add_argument("--hurried", action="store_true", help="extended: 2s count as 1s for glitches (S10)")
    os_.add_argument("--helpers", metavar="N,N", help="teamwork: each helper's own pool (S11)")
    os_.add_argument("--leader-skill", type=_whole_arg("--leader-skill", 0, MAX_POOL), metavar="S",
                     help="teamwork: the leader's skill (the cap under sr.teamwork_cap=skill)")
    _set_flag(os_)
    _json_flag(os_)
    os_.set_defaults(handler=_odds_sr)

    oso = _sub(osys, "shadowrun-opposed", SR_OPPOSED_NAMES[1:], "Shadowrun opposed test (S9)",
               "Odds of a Shadowrun opposed test (S9); B is the defender, alone or leading a group.",
               _settings_epilog("sr.") + "\nJSON keys: system, a_dice, b_dice, group, a_wins, b_wins, tie, "
               "b_wins_if_needed.")
    oso.add_argument("n", metavar="N", help="side A's dice")
    oso.add_argument("m", metavar="M", help="side B's (the defender's) dice")
    oso.add_argument("--group", metavar="N,N",
                     help="B's companions' pools: B rolls the largest pool + 1 per extra member, at most +5 (S9)")
    oso.add_argument("--edge-before", action="store_true", help="A spent Edge before the roll (N includes it)")
    oso.add_argument("--b-edge-before", action="store_true", help="B spent Edge before the roll (M includes it)")
    _set_flag(oso)
    _json_flag(oso)
    oso.set_defaults(handler=_odds_sr_opposed)


def _json_flag(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print JSON instead of the explanation")


# --------------------------------------------------------------------------- parsing input


def _raja_faces(text: str, side: str):
    from polku.rules.dice import parse_faces

    try:
        return parse_faces(text, 10, allow_ability=True)
    except ValueError as exc:
        raise CliError(f"side {side}: {exc}") from None


def _sr_faces(text: str, side: str | None = None):
    from polku.rules.dice import parse_faces

    try:
        return parse_faces(text, 6)
    except ValueError as exc:
        raise CliError(f"side {side}: {exc}" if side else str(exc)) from None


_SIZED = re.compile(r"^(?:d?([0-9]{1,4})\s*:)?\s*(.*)$", re.IGNORECASE)


def parse_harha_faces(text: str, side: str = "A"):
    """Harhapolku faces: bare 1-8 → d8, 9-10 → d10; ``d10:7`` / ``10:7`` give the size."""
    from polku.rules.dice import Die, Src, check_face

    if text is None or not str(text).strip():
        raise CliError(f"side {side}: no faces given (write them comma-separated, e.g. 7,4,4)")
    dice = []
    for raw in str(text).split(","):
        item = raw.strip()
        if not item:
            raise CliError(f"side {side}: empty face in '{text}' (write them comma-separated, e.g. 7,4,4)")
        m = _SIZED.match(item)
        assert m is not None
        size_txt, face_txt = m.group(1), m.group(2).strip()
        if ":" in item and size_txt is None:
            raise CliError(f"side {side}: '{_quoted(item)}': write the size as d8:7 or d10:7")
        if not re.fullmatch(r"[0-9]{1,4}", face_txt):
            raise CliError(f"side {side}: '{_quoted(item)}' is not a face (a whole number, 1-8 on a d8,"
                           " 1-10 on a d10)")
        face = int(face_txt)
        if size_txt is None:
            size = 8 if face <= 8 else 10
        else:
            size = int(size_txt)
            if size not in (8, 10):
                raise CliError(f"side {side}: '{item}': Harhapolku uses d8s and d10s, not a d{size}")
        try:
            check_face(face, size)
        except ValueError as exc:
            raise CliError(f"side {side}: {exc}") from None
        dice.append(Die(size, face, Src.DIE))
    return tuple(dice)


def _quoted(text: object) -> str:
    t = str(text)
    return t if len(t) <= 40 else t[:39] + "…"


def whole_number(text: object, what: str, lo: int, hi: int) -> int:
    """A whole number written in ASCII digits, within ``lo`` … ``hi``, or a one-line CliError.

    ``int()`` alone would read fullwidth and Arabic-Indic digits, underscores,
    and a 5,000-digit count (then take minutes rolling it).
    """
    t = str(text).strip()
    if not re.fullmatch(r"[+-]?[0-9]+", t):
        raise CliError(f"{what}: '{_quoted(text)}' is not a whole number (write it with the digits 0-9)")
    digits = t.lstrip("+-").lstrip("0")
    if len(digits) > len(str(max(abs(lo), abs(hi)))):
        n = None
    else:
        n = int(t)
    if n is None or not lo <= n <= hi:
        if n is not None and n < 0 <= lo:
            raise CliError(f"{what}: cannot be negative ({n})")
        raise CliError(f"{what}: {_quoted(t)} is out of range (from {lo} to {hi})")
    return n


def _whole_arg(what: str, lo: int, hi: int):
    """An argparse ``type=`` for :func:`whole_number`."""
    def parse(text: str) -> int:
        return whole_number(text, what, lo, hi)

    parse.__name__ = "whole number"
    return parse


def _seconds(text: str) -> float:
    """``--interval``: decimal seconds in ASCII digits, from 0.05 to 60."""
    t = str(text).strip()
    if not re.fullmatch(r"[0-9]{1,3}(?:\.[0-9]{0,6})?|\.[0-9]{1,6}", t):
        raise CliError(f"--interval: '{_quoted(text)}' is not a number of seconds (e.g. 0.3)")
    value = float(t)
    if not 0.05 <= value <= 60:
        raise CliError(f"--interval: {t} seconds is out of range (from 0.05 to 60)")
    return value


MAX_POOL = 200
"""The most dice one side may roll (a Rajapolku, Harhapolku or Shadowrun pool)."""

SEED_MAX = 2**64 - 1
EDGE_MAX = 9
"""The largest Edge rating (the app's character sheet allows 0-9)."""

EXTENDED_MAX = 10_000
"""The largest extended-test threshold (S10) the headless verbs take."""

INTERVALS_MAX = 1000
"""The most intervals of an extended test the headless verbs roll or follow."""


def _count(text: str, what: str) -> int:
    t = str(text).strip()
    if t.startswith("-") and re.fullmatch(r"-[0-9]+", t):
        raise CliError(f"{what}: a pool cannot be negative ({_quoted(t)})")
    return whole_number(t, what, 0, MAX_POOL)


def parse_raja_pool(text: str, side: str) -> tuple[int, int]:
    """Rajapolku pool ``"3"`` or ``"3+1*"`` → (ordinary d10s, ability d10s)."""
    t = str(text).strip().replace(" ", "")
    m = re.fullmatch(r"([0-9]{1,4})?(?:\+?([0-9]{1,4})\*)?", t)
    if not t or m is None or (m.group(1) is None and m.group(2) is None):
        if t.startswith("-"):
            raise CliError(f"side {side}: a pool cannot be negative ('{_quoted(text)}')")
        if re.fullmatch(r"[0-9]+(?:\+?[0-9]+\*)?", t):
            raise CliError(f"side {side}: '{_quoted(text)}' is more dice than this tracker rolls ({MAX_POOL})")
        raise CliError(f"side {side}: '{_quoted(text)}' is not a Rajapolku pool (write 3, or 3+1* for one ability die)")
    if m.group(1) is None and t[0] == "+":
        raise CliError(f"side {side}: '{_quoted(text)}' is not a Rajapolku pool (write 3, or 3+1* for one ability die)")
    normal = int(m.group(1) or 0)
    ability = int(m.group(2) or 0)
    if normal + ability < 1:
        raise CliError(f"side {side}: a Rajapolku pool has at least the action die (R1)")
    if normal + ability > 200:
        raise CliError(f"side {side}: {normal + ability} dice is more than this tracker rolls (200)")
    return normal, ability


def parse_harha_pool(text: str, side: str) -> tuple[int, int]:
    """Harhapolku pool ``"2d8+1d10"`` (or ``"d8+d10"``, or ``"3"`` = 3d8) → (d8s, d10s)."""
    t = str(text).strip().lower().replace(" ", "")
    bad = CliError(f"side {side}: '{_quoted(text)}' is not a Harhapolku pool (write e.g. 2d8+1d10)")
    if not t:
        raise bad
    if t.startswith("-"):
        raise CliError(f"side {side}: a pool cannot be negative ('{text}')")
    if re.fullmatch(r"[0-9]+", t):
        n8, n10 = whole_number(t, f"side {side}", 0, MAX_POOL), 0
    else:
        n8 = n10 = 0
        for term in t.split("+"):
            m = re.fullmatch(r"([0-9]{0,4})d([0-9]{1,4})", term)
            if m is None:
                if re.fullmatch(r"[0-9]*d[0-9]+", term):
                    raise CliError(f"side {side}: '{_quoted(term)}' is more dice than this tracker rolls ({MAX_POOL})")
                raise bad
            n = int(m.group(1)) if m.group(1) else 1
            size = int(m.group(2))
            if size == 8:
                n8 += n
            elif size == 10:
                n10 += n
            else:
                raise CliError(f"side {side}: Harhapolku uses d8s and d10s, not a d{size}")
    if n8 + n10 > 200:
        raise CliError(f"side {side}: {n8 + n10} dice is more than this tracker rolls (200)")
    return n8, n10


def _sr_pool(text: str, side: str = "") -> int:
    t = str(text).strip()
    if re.fullmatch(r"[0-9]+", t) and (len(t.lstrip("0")) > 3 or int(t) > MAX_POOL):
        raise CliError(f"{_quoted(t)} dice is more than this tracker rolls ({MAX_POOL})")
    return _count(text, f"side {side} pool" if side else "pool")


# --------------------------------------------------------------------------- output


def _emit_json(data: dict[str, Any]) -> None:
    import json  # here: the app's start never needs it

    print(json.dumps(data, indent=2))


def _emit_lines(lines: Sequence[str]) -> None:
    for line in lines:
        print(line)


def _side_name(side: str, variant: str | None = None) -> str:
    if variant in ("ch23", "same_size", "sum"):
        return {"a": "A (actor)", "b": "B (challenger)"}.get(side, side)
    return {"a": "A", "b": "B"}.get(side, side)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _raja_headline(result) -> str:
    if result.winner == "tie":
        what = "the defender (B) holds" if result.tie_action == "defender" else "both sides reroll"
        return f"Rajapolku: tie — {what}"
    text = f"Rajapolku: {result.winner.upper()} wins with {_plural(result.degrees, 'degree')}"
    if result.narrow:
        text += " (a narrow win)"
    if result.supernatural:
        text += f", {_plural(result.supernatural, 'supernatural feature')}"
    return text


def _harha_headline(result) -> str:
    if result.winner == "tie":
        return f"Harhapolku ({result.variant}): tie {result.a_positions} to {result.b_positions} — reroll"
    name = _side_name(result.winner, result.variant)
    return (f"Harhapolku ({result.variant}): {name} wins, positions "
            f"A {result.a_positions} – B {result.b_positions}")


def _sr_headline(result) -> str:
    roll = getattr(result, "roll", result)
    parts = [_plural(roll.hits, "hit")]
    if roll.critical_glitch:
        parts.append("CRITICAL GLITCH")
    elif roll.glitch:
        parts.append("glitch")
    if hasattr(result, "threshold"):
        verdict = f"success, {_plural(result.net_hits, 'net hit')}" if result.success else "failure"
        parts.append(f"threshold {result.threshold}: {verdict}")
    return "Shadowrun: " + ", ".join(parts)


def _sr_opposed_headline(result) -> str:
    if result.winner == "tie":
        return "Shadowrun opposed: tie (stalemate); if a winner is needed, B (defender) wins"
    return f"Shadowrun opposed: {result.winner.upper()} wins with {_plural(result.net_hits, 'net hit')}"


def _sr_json(result) -> dict[str, Any]:
    from polku.rules import shadowrun

    out: dict[str, Any] = {"system": "shadowrun"}
    out.update(shadowrun.result_json(result))
    out["explain"] = shadowrun.explain(result)
    return out


# --------------------------------------------------------------------------- settings

SYSTEM_PREFIX = {"rajapolku": "raja.", "harhapolku": "harha.", "shadowrun": "sr."}


def _settings(args: argparse.Namespace, system: str):
    """The campaign settings for a headless verb: the defaults, changed by each ``--set KEY=VALUE``.

    Returns ``(settings, keys given)``. A key of another system is refused,
    so a typo never silently does nothing.
    """
    from polku.rules.system import CHOICES, Settings, parse_setting

    settings = Settings()
    given: set[str] = set()
    prefix = SYSTEM_PREFIX[system]
    for text in getattr(args, "settings", None) or []:
        key, value = parse_setting(text)
        if not key.startswith(prefix):
            own = ", ".join(c.key for c in CHOICES if c.key.startswith(prefix))
            raise CliError(f"setting '{key}' is not a {system} setting (its settings: {own})")
        settings = settings.with_value(key, value)
        given.add(key)
    return settings, given


def _settings_json(settings, system: str) -> dict[str, Any]:
    prefix = SYSTEM_PREFIX[system]
    return {k: v for k, v in settings.to_dotted().items() if k.startswith(prefix)}


def _harha_settings(args: argparse.Namespace):
    """Settings with ``--variant`` folded in; a --variant that contradicts --set is refused."""
    settings, given = _settings(args, "harhapolku")
    if args.variant is not None:
        if "harha.variant" in given and settings.harha_variant != args.variant:
            raise CliError(f"--variant {args.variant} and --set harha.variant={settings.harha_variant} disagree")
        settings = settings.with_value("harha.variant", args.variant)
    return settings


def _needed(args: argparse.Namespace) -> int:
    """H8: 0 for an ordinary comparison, 1 difficult, 2 very demanding."""
    return 2 if args.very_demanding else 1 if args.difficult else 0


# --------------------------------------------------------------------------- resolve


def _resolve_raja(args: argparse.Namespace) -> int:
    from polku.rules import rajapolku

    settings, _ = _settings(args, "rajapolku")
    a, b = _raja_faces(args.a, "A"), _raja_faces(args.b, "B")
    result = rajapolku.resolve(a, b, settings)
    out = {**rajapolku.result_json(result), "settings": _settings_json(settings, "rajapolku")}
    lines = [_raja_headline(result), *("  " + line for line in result.explain())]
    if args.spirit:
        step = rajapolku.SpiritFight(len(a), len(b)).exchange(result, settings)
        out.update(loser=step.loser, charge_loss=step.loss,
                   a_charges_after=step.fight.a_charges, b_charges_after=step.fight.b_charges)
        lines.append("  " + _spirit_line(step))
    if args.json:
        _emit_json(out)
    else:
        _emit_lines(lines)
    return 0


def _spirit_line(step) -> str:
    f = step.fight
    if step.loser is None:
        return f"spirit combat: a full tie costs nothing (A {f.a_charges}, B {f.b_charges} charges) (R11)"
    end = "; the fight is over" if f.over else ""
    return (f"spirit combat: {step.loser.upper()} loses {_plural(step.loss, 'charge')}, the winner nothing "
            f"(A {f.a_charges}, B {f.b_charges} left{end}) (R11)")


def _sum_side(text: str, side: str):
    """Sum variant (H6) faces ``COUNT+ROLL``: the die count and the one die rolled."""
    count_txt, plus, roll_txt = str(text).strip().partition("+")
    if not plus or not count_txt.strip().isascii() or not count_txt.strip().isdigit():
        raise CliError(f"side {side}: the sum variant takes COUNT+ROLL, e.g. 4+2 or 4+d10:7, not '{text}'")
    dice = parse_harha_faces(roll_txt, side)
    if len(dice) != 1:
        raise CliError(f"side {side}: the sum variant rolls one die, not {len(dice)} (H6)")
    return int(count_txt.strip()), dice[0]


def _resolve_harha(args: argparse.Namespace) -> int:
    from polku.rules import harhapolku

    settings = _harha_settings(args)
    variant = settings.harha_variant
    needed = _needed(args)
    if args.b is None:
        if not needed:
            raise CliError("harhapolku needs B's faces, unless the action is --difficult or --very-demanding (H8)")
        dice = parse_harha_faces(args.a, "A")
        alone = harhapolku.difficult(dice, needed == 2)
        out = {"system": "harhapolku", "variant": variant, "opposed": False,
               "difficult": {"success": alone.success, "high": alone.high, "needed": alone.needed},
               "a_faces": [d.face for d in dice], "settings": _settings_json(settings, "harhapolku"),
               "explain": alone.explain()}
        head = f"Harhapolku: {'success' if alone.success else 'failure'} ({alone.high} of {alone.needed} needed 7+)"
        return _emit(args, out, [head, *("  " + x for x in alone.explain())])
    if variant == "sum":
        (ac, ad), (bc, bd) = _sum_side(args.a, "A"), _sum_side(args.b, "B")
        result: Any = harhapolku.resolve([ad], [bd], settings=settings, a_count=ac, b_count=bc)
        head = _harha_sum_headline(result)
    else:
        result = harhapolku.resolve(parse_harha_faces(args.a, "A"), parse_harha_faces(args.b, "B"),
                                    settings=settings)
        head = _harha_headline(result)
    out = {**harhapolku.result_json(result), "settings": _settings_json(settings, "harhapolku")}
    explain = result.explain()
    if needed:
        tail, explain = _harha_demand(result, needed, out)
        head += tail
    return _emit(args, out, [head, *("  " + x for x in explain)])


def _harha_demand(result, needed: int, out: dict[str, Any]) -> tuple[str, list[str]]:
    """H8 on an opposed roll: the JSON part, the headline's tail and the explanation."""
    from polku.rules import harhapolku

    d = harhapolku.difficult_opposed(result, needed == 2)
    out["difficult"] = {"success": d.success, "high": d.high, "needed": d.needed,
                        "won_comparison": d.won_comparison, "tie": d.tie}
    out["explain"] = explain = d.explain()
    kind = "very demanding" if needed == 2 else "difficult"
    verdict = "a tie, reroll" if d.tie else "success" if d.success else "failure"
    return f"; {kind}: {verdict} ({d.high} of {d.needed} needed 7+)", explain


def _harha_sum_headline(result) -> str:
    who = _side_name(result.winner, "sum")
    return f"Harhapolku (sum): {who} wins, totals A {result.a_total} – B {result.b_total}"


def _emit(args: argparse.Namespace, out: dict[str, Any], lines: Sequence[str]) -> int:
    if args.json:
        _emit_json(out)
    else:
        _emit_lines(lines)
    return 0


def _check_threshold(threshold: int | None) -> None:
    if threshold is not None and threshold < 1:
        raise CliError(f"--threshold must be 1 or more, not {threshold}")


def _check_rating(flag: str, value: int | None) -> None:
    if value is not None and not 1 <= value <= EDGE_MAX:
        raise CliError(f"{flag} is the Edge rating, 1 to {EDGE_MAX}, not {value}")


def _sr_from_faces(dice, settings=None, *, hurried: bool = False, edge_before: int | None = None,
                   edge_after: int | None = None, long_shot: int | None = None, helper_dice: int = 0,
                   what: str = ""):
    """The roll that used exactly these faces, in the order the dice are taken (S3–S7, S11).

    The pool size is what makes the faces come out even: more pool dice
    always need more faces, so at most one size fits.
    """
    from polku.rules import shadowrun
    from polku.rules.dice import ManualSource, RulesError

    faces = [d.face for d in dice]
    edges = [("--edge-before", edge_before), ("--edge-after", edge_after), ("--long-shot", long_shot)]
    if sum(v is not None for _, v in edges) > 1:
        used = " and ".join(f for f, v in edges if v is not None)
        raise CliError(f"{what}{used}: one Edge point per test for dice (S7)")
    for flag, value in edges:
        _check_rating(flag, value)
    if long_shot is not None:
        if helper_dice:
            raise CliError(f"{what}a Long Shot has no modifiers, helper dice included (S3)")
        src = ManualSource(faces)
        try:
            r = shadowrun.roll_long_shot(long_shot, src, settings=settings)
        except RulesError as exc:
            raise CliError(f"{what}{exc}") from None
        if src.remaining:
            raise CliError(f"{what}{src.remaining} face(s) more than a Long Shot of {long_shot} dice "
                           "and its rule-of-six dice")
        return _replace_roll(r, hurried=hurried)
    simple = edge_before is None and edge_after is None
    sizes = [len(faces) - helper_dice] if simple else range(0, len(faces) + 1)
    for n in sizes:
        if n < 0:
            break
        src = ManualSource(faces)
        try:
            r = shadowrun.roll(n, src, edge_before, settings=settings, hurried=hurried, helper_dice=helper_dice)
            if edge_after is not None:
                r = shadowrun.edge_after(r, edge_after, src)
        except RulesError as exc:
            if str(exc).startswith("not enough faces"):
                break
            continue
        if not src.remaining:
            return r
    extra = f" plus {helper_dice} helper dice" if helper_dice else ""
    if simple:
        raise CliError(f"{what}the leader rolls its own pool{extra}: {len(faces)} faces are too few (S11)")
    raise CliError(f"{what}{len(faces)} faces do not make a pool{extra}, its Edge dice and their rule-of-six "
                   f"dice (give the faces in the order rolled: {SR_FACES_ORDER})")


def _replace_roll(r, **changes):
    from polku.rules.record import replace

    return replace(r, **changes)


def _sr_side(text: str, args: argparse.Namespace, prefix: str, settings, side: str | None = None,
             **kw):
    dice = _sr_faces(text, side)
    return _sr_from_faces(dice, settings, edge_before=getattr(args, f"{prefix}edge_before"),
                          edge_after=getattr(args, f"{prefix}edge_after"),
                          what=f"side {side}: " if side else "", **kw)


def _resolve_sr(args: argparse.Namespace) -> int:
    from polku.rules import shadowrun

    settings, _ = _settings(args, "shadowrun")
    _check_threshold(args.threshold)
    if args.extended is not None:
        return _resolve_sr_extended(args, settings)
    helpers = []
    for i, text in enumerate(args.helper):
        helpers.append(_sr_from_faces(_sr_faces(text, f"helper {i + 1}"), settings,
                                      what=f"helper {i + 1}: "))
    if args.leader_skill is not None and not helpers:
        raise CliError("--leader-skill is for teamwork: give the helpers' faces with --helper (S11)")
    bonus = shadowrun.teamwork_bonus(helpers, args.leader_skill, settings) if helpers else 0
    dice = _sr_faces(args.faces)
    result: Any = _sr_from_faces(dice, settings, hurried=args.hurried, edge_before=args.edge_before,
                                 edge_after=args.edge_after, long_shot=args.long_shot, helper_dice=bonus)
    if args.threshold is not None:
        result = shadowrun.success_test(result, args.threshold)
    out = {**_sr_json(result), "settings": _settings_json(settings, "shadowrun")}
    lines = [_sr_headline(result)]
    if helpers:
        hits = [h.hits for h in helpers]
        out.update(helpers=hits, helper_dice=bonus)
        capped = " (capped at the leader's skill, sr.teamwork_cap)" if bonus < sum(hits) else ""
        lines.append(f"  helpers' hits: {', '.join(map(str, hits))} → +{bonus} dice for the leader{capped} (S11)")
    lines += ["  " + line for line in result.explain()]
    return _emit(args, out, lines)


def _resolve_sr_extended(args: argparse.Namespace, settings) -> int:
    from polku.rules import shadowrun

    for flag in ("edge_before", "edge_after", "long_shot", "threshold"):
        if getattr(args, flag) is not None:
            name = "--" + flag.replace("_", "-")
            raise CliError(f"{name} is for one roll; in an extended test write it on the interval "
                           "(eb3: Edge before, ea3: Edge after, h: hurried), e.g. 'h:eb3:5,6,2;3,3,1'")
    if args.helper:
        raise CliError("--helper is for teamwork, not an extended test")
    thresholds = [whole_number(part, "--extended (a threshold)", 1, EXTENDED_MAX)
                  for part in str(args.extended).split(",")]
    test = shadowrun.ExtendedTest(thresholds[0])
    intervals = [x for x in str(args.faces).split(";")]
    rolls = []
    for i, text in enumerate(intervals):
        if test.over:
            raise CliError(f"the test was over after interval {i} ({test.status}): "
                           f"{len(intervals) - i} interval(s) too many")
        flags, roll_text = _interval_flags(text, i + 1, args.hurried)
        dice = _sr_faces(roll_text, f"interval {i + 1}")
        r = _sr_from_faces(dice, settings, hurried=flags["h"], edge_before=flags["eb"],
                           edge_after=flags["ea"], what=f"interval {i + 1}: ")
        test = test.add(r, threshold=thresholds[min(i, len(thresholds) - 1)], hurried=flags["h"])
        rolls.append(test.history[-1])
    out = {"system": "shadowrun", "test": "extended", **test.to_json(),
           "rolls": [r.to_json() for r in rolls], "settings": _settings_json(settings, "shadowrun"),
           "explain": test.explain()}
    lines = [f"Shadowrun extended: {test.accumulated}/{test.threshold} hits after "
             f"{_plural(test.intervals, 'interval')} — {test.status}"]
    for i, r in enumerate(rolls):
        lines.append(f"  interval {i + 1} (threshold {test.interval_thresholds[i]}"
                     f"{', hurried' if r.hurried else ''}): {_sr_headline(r)[len('Shadowrun: '):]}")
    lines += ["  " + x for x in test.explain()]
    return _emit(args, out, lines)


def _interval_flags(text: str, index: int, hurried: bool) -> tuple[dict[str, Any], str]:
    """``h:eb3:5,6,2`` → ({h: True, eb: 3, ea: None}, "5,6,2") for one extended interval."""
    parts = str(text).strip().split(":")
    flags: dict[str, Any] = {"h": hurried, "eb": None, "ea": None}
    for p in parts[:-1]:
        p = p.strip().lower()
        if p == "h":
            flags["h"] = True
        elif p[:2] in ("eb", "ea") and p[2:]:
            flags[p[:2]] = whole_number(p[2:], f"interval {index}: {p[:2]} (the Edge rating)", 1, EDGE_MAX)
        else:
            raise CliError(f"interval {index}: '{p}:' is not h: (hurried), ebE: or eaE: (Edge before / after)")
    return flags, parts[-1]


def _resolve_sr_opposed(args: argparse.Namespace) -> int:
    from polku.rules import shadowrun

    settings, _ = _settings(args, "shadowrun")
    ra = _sr_side(args.a, args, "", settings, "A")
    rb = _sr_side(args.b, args, "b_", settings, "B")
    result = shadowrun.opposed(ra, rb)
    out = {**_sr_json(result), "settings": _settings_json(settings, "shadowrun")}
    return _emit(args, out, [_sr_opposed_headline(result), *("  " + line for line in result.explain())])


# --------------------------------------------------------------------------- roll


def _system_of(name: str) -> str:
    from polku.rules.system import parse_system

    return parse_system(name).value


def _new_seed() -> int:
    import secrets

    return secrets.randbelow(2**32)


ROLL_ONLY = {
    "rajapolku": ("spirit",),
    "harhapolku": ("variant", "difficult", "very_demanding"),
    "shadowrun": ("edge_before", "edge_after", "b_edge_before", "b_edge_after", "threshold", "hurried",
                  "group", "helpers", "leader_skill", "extended", "intervals"),
}
"""Which options of ``polku roll`` belong to which system."""


def _roll(args: argparse.Namespace) -> int:
    from polku.rules.dice import RandomSource

    system = _system_of(args.system)
    for other, names in ROLL_ONLY.items():
        if other == system:
            continue
        for name in names:
            if getattr(args, name) not in (None, False):
                raise CliError(f"--{name.replace('_', '-')} is only for {other}")
    seed = args.seed if args.seed is not None else _new_seed()
    source = RandomSource(seed)
    again = f"polku roll {' '.join(_reproduce_args(args, system, seed))}"
    handler = {"rajapolku": _roll_raja, "harhapolku": _roll_harha, "shadowrun": _roll_sr}[system]
    out, rolled, lines = handler(args, source)
    if args.json:
        _emit_json({"seed": seed, "rolled": rolled, **out})
        return 0
    def text(item: Any) -> str:
        if isinstance(item, list):  # one roll of several (spirit exchanges, extended intervals)
            return "[" + ",".join(str(f) for f in item) + "]"
        return str(item)

    rolled_lines = [f"rolled {side.upper() if len(side) == 1 else side}: {','.join(text(f) for f in faces) or 'no dice'}"
                    for side, faces in rolled.items()]
    _emit_lines([f"seed: {seed}", *rolled_lines, *lines, f"again: {again}"])
    return 0


def _roll_raja(args: argparse.Namespace, source) -> tuple[dict[str, Any], dict[str, Any], list[str]]:
    from polku.rules import rajapolku
    from polku.rules.dice import DieSpec, Src, roll_specs

    settings, _ = _settings(args, "rajapolku")
    if args.pool_b is None:
        raise CliError("rajapolku needs two pools: polku roll rajapolku POOL_A POOL_B")
    if args.spirit:
        return _roll_spirit(args, source, settings)
    pools = []
    for side, text in (("A", args.pool_a), ("B", args.pool_b)):
        normal, ability = parse_raja_pool(text, side)
        pools.append([DieSpec(10, Src.DIE)] * normal + [DieSpec(10, Src.ABILITY)] * ability)
    a = roll_specs(pools[0], source)
    b = roll_specs(pools[1], source)
    result = rajapolku.resolve(a, b, settings)
    rolled = {"a": [_glyph(d) for d in a], "b": [_glyph(d) for d in b]}
    out = {**rajapolku.result_json(result), "settings": _settings_json(settings, "rajapolku")}
    return out, rolled, [_raja_headline(result), *("  " + line for line in result.explain())]


MAX_EXCHANGES = 100
"""``polku roll rajapolku --spirit`` stops a fight after this many exchanges."""


def _roll_spirit(args: argparse.Namespace, source, settings):
    from polku.rules import rajapolku
    from polku.rules.dice import roll_specs

    charges = []
    for side, text in (("A", args.pool_a), ("B", args.pool_b)):
        normal, ability = parse_raja_pool(text, side)
        if ability:
            raise CliError(f"side {side}: in spirit combat the dice are the charges, no ability dice (R11)")
        charges.append(normal)
    fight = rajapolku.begin_spirit_fight(*charges)
    lines = [f"spirit combat: A {charges[0]} and B {charges[1]} charges; each pays 1 to enter, "
             f"once (R11): A {fight.a_charges}, B {fight.b_charges} left"]
    exchanges = []
    rolled: dict[str, list[list[int]]] = {"a": [], "b": []}
    while not fight.over and fight.exchanges < MAX_EXCHANGES:
        a = roll_specs(fight.dice("a"), source)
        b = roll_specs(fight.dice("b"), source)
        step = fight.exchange(rajapolku.resolve(a, b, settings), settings)
        rolled["a"].append([d.face for d in a])
        rolled["b"].append([d.face for d in b])
        exchanges.append({**rajapolku.result_json(step.result), "loser": step.loser,
                          "charge_loss": step.loss, "a_charges": step.fight.a_charges,
                          "b_charges": step.fight.b_charges})
        faces_a = ",".join(map(str, rolled["a"][-1]))
        faces_b = ",".join(map(str, rolled["b"][-1]))
        lines.append(f"exchange {step.fight.exchanges}: A {faces_a} vs B {faces_b} — "
                     + _raja_headline(step.result)[len("Rajapolku: "):] + "; " + _spirit_line(step)[len("spirit combat: "):])
        fight = step.fight
    if not fight.over:
        fight = fight.end()
        lines.append(f"stopped after {MAX_EXCHANGES} exchanges")
    lines.append("  " + fight.explain()[0])
    out = {"system": "rajapolku", "test": "spirit", "winner": fight.winner, "fight": fight.to_json(),
           "exchanges": exchanges, "settings": _settings_json(settings, "rajapolku")}
    return out, rolled, lines


def _roll_harha(args: argparse.Namespace, source):
    from polku.rules import harhapolku
    from polku.rules.dice import DieSpec, Src, roll_specs

    settings = _harha_settings(args)
    variant = settings.harha_variant
    needed = _needed(args)
    if args.pool_b is None and not needed:
        raise CliError("harhapolku needs two pools unless the action is --difficult or --very-demanding (H8)")
    pools = []
    for side, text in (("A", args.pool_a), ("B", args.pool_b)):
        if text is None:
            continue
        n8, n10 = parse_harha_pool(text, side)
        if variant in ("same_size", "sum") and n8 and n10:
            raise CliError(f"side {side}: the {variant.replace('_', '-')} variant uses one die size (H5)")
        pools.append(harhapolku.HarhaPool(tuple([DieSpec(8, Src.DIE)] * n8 + [DieSpec(10, Src.DIE)] * n10), ()))
    settings_out = _settings_json(settings, "harhapolku")
    if args.pool_b is None:
        dice = roll_specs(pools[0].dice, source)
        alone = harhapolku.difficult(dice, needed == 2)
        out = {"system": "harhapolku", "variant": variant, "opposed": False, "a_faces": [d.face for d in dice],
               "difficult": {"success": alone.success, "high": alone.high, "needed": alone.needed},
               "settings": settings_out, "explain": alone.explain()}
        head = f"Harhapolku: {'success' if alone.success else 'failure'} ({alone.high} of {alone.needed} needed 7+)"
        return out, {"a": [f"d{d.size}:{d.face}" for d in dice]}, [head, *("  " + x for x in alone.explain())]
    a = roll_specs(harhapolku.variant_dice(pools[0], variant), source)
    b = roll_specs(harhapolku.variant_dice(pools[1], variant), source)
    if variant == "sum":
        result: Any = harhapolku.resolve(a, b, settings=settings, a_count=harhapolku.pool_count(pools[0]),
                                         b_count=harhapolku.pool_count(pools[1]))
        head = _harha_sum_headline(result)
    else:
        result = harhapolku.resolve(a, b, settings=settings)
        head = _harha_headline(result)
    rolled = {"a": [f"d{d.size}:{d.face}" for d in a], "b": [f"d{d.size}:{d.face}" for d in b]}
    out = {**harhapolku.result_json(result), "settings": settings_out}
    explain = result.explain()
    if needed:
        tail, explain = _harha_demand(result, needed, out)
        head += tail
    return out, rolled, [head, *("  " + x for x in explain)]


def _pool_list(text: str | None, what: str) -> list[int]:
    if text is None:
        return []
    return [_sr_pool(part, what) for part in str(text).split(",")]


def _roll_sr(args: argparse.Namespace, source):
    from polku.rules import shadowrun

    settings, _ = _settings(args, "shadowrun")
    _check_threshold(args.threshold)
    for flag in ("edge_before", "edge_after", "b_edge_before", "b_edge_after"):
        _check_rating("--" + flag.replace("_", "-"), getattr(args, flag))
    for side in ("", "b_"):
        if getattr(args, f"{side}edge_before") is not None and getattr(args, f"{side}edge_after") is not None:
            raise CliError("one Edge point per test for dice: before or after the roll, not both (S7)")
    n = _sr_pool(args.pool_a, "A" if args.pool_b is not None else "")
    out_set = _settings_json(settings, "shadowrun")

    def one(pool: int, prefix: str, **kw):
        r = shadowrun.roll(pool, source, getattr(args, f"{prefix}edge_before"), settings=settings, **kw)
        after = getattr(args, f"{prefix}edge_after")
        if after is not None:
            r = shadowrun.edge_after(r, after, source)
        return r

    if args.extended is not None:
        if args.pool_b is not None or args.helpers or args.threshold is not None:
            raise CliError("--extended is one character's test: one pool, no --threshold (S10)")
        limit = args.intervals if args.intervals is not None else 20
        test = shadowrun.ExtendedTest(args.extended, hurried=args.hurried)
        while not test.over and test.intervals < limit:
            test = test.add(one(n, "", hurried=args.hurried))
        rolls = test.history
        out = {"system": "shadowrun", "test": "extended", **test.to_json(),
               "rolls": [r.to_json() for r in rolls], "settings": out_set, "explain": test.explain()}
        lines = [f"Shadowrun extended: {test.accumulated}/{test.threshold} hits after "
                 f"{_plural(test.intervals, 'interval')} — {test.status}"]
        lines += [f"  interval {i + 1}: {_sr_headline(r)[len('Shadowrun: '):]}" for i, r in enumerate(rolls)]
        return out, {"a": [r.faces for r in rolls]}, lines
    if args.intervals is not None:
        raise CliError("--intervals is for an extended test (--extended T)")
    if args.helpers:
        if args.pool_b is not None:
            raise CliError("teamwork is one test: one leader's pool and the helpers' pools (S11)")
        helpers = [shadowrun.roll(h, source, settings=settings) for h in _pool_list(args.helpers, "helper")]
        bonus = shadowrun.teamwork_bonus(helpers, args.leader_skill, settings)
        leader = one(n, "", helper_dice=bonus, hurried=args.hurried)
        result: Any = shadowrun.success_test(leader, args.threshold) if args.threshold is not None else leader
        out = {**_sr_json(result), "helpers": [h.hits for h in helpers], "helper_dice": bonus, "settings": out_set}
        rolled = {f"helper {i + 1}": [d.face for d in h.dice] for i, h in enumerate(helpers)}
        rolled["a"] = [d.face for d in leader.dice]
        lines = [_sr_headline(result), f"  helpers' hits: {', '.join(str(h.hits) for h in helpers)} "
                 f"→ +{bonus} dice for the leader (S11)", *("  " + x for x in result.explain())]
        return out, rolled, lines
    if args.leader_skill is not None:
        raise CliError("--leader-skill is for teamwork (--helpers N,N)")
    if args.pool_b is None:
        if args.group:
            raise CliError("--group is for an opposed test: give B's pool too (S9)")
        if args.b_edge_before is not None or args.b_edge_after is not None:
            raise CliError("--b-edge-* is for an opposed test: give B's pool too")
        r = one(n, "", hurried=args.hurried)
        result = shadowrun.success_test(r, args.threshold) if args.threshold is not None else r
        out = {**_sr_json(result), "settings": out_set}
        return out, {"a": [d.face for d in r.dice]}, [_sr_headline(result), *("  " + x for x in result.explain())]
    if args.threshold is not None:
        raise CliError("--threshold is for one pool; an opposed test has no threshold (S9)")
    if args.hurried:
        raise CliError("--hurried is for an extended test (S10)")
    m = _sr_pool(args.pool_b, "B")
    group = _pool_list(args.group, "group member")
    m_total = shadowrun.group_pool([m, *group]) if group else m
    ra = one(n, "")
    rb = one(m_total, "b_")
    result = shadowrun.opposed(ra, rb)
    out = {**_sr_json(result), "settings": out_set}
    lines = [_sr_opposed_headline(result)]
    if group:
        out["group"] = {"pools": [m, *group], "b_dice": m_total}
        lines.append(f"  B leads a group of {len(group) + 1}: largest pool + {min(5, len(group))} = {m_total} (S9)")
    lines += ["  " + line for line in result.explain()]
    return out, {"a": [d.face for d in ra.dice], "b": [d.face for d in rb.dice]}, lines


def _glyph(d) -> str:
    return f"{d.face}*" if d.is_ability else str(d.face)


def _reproduce_args(args: argparse.Namespace, system: str, seed: int) -> list[str]:
    out = [system, args.pool_a]
    if args.pool_b is not None:
        out.append(args.pool_b)
    out += ["--seed", str(seed)]
    for name in ("variant", "edge_before", "edge_after", "b_edge_before", "b_edge_after", "threshold",
                 "group", "helpers", "leader_skill", "extended", "intervals"):
        value = getattr(args, name)
        if value is not None:
            out += ["--" + name.replace("_", "-"), str(value)]
    for name in ("spirit", "difficult", "very_demanding", "hurried"):
        if getattr(args, name):
            out.append("--" + name.replace("_", "-"))
    for text in getattr(args, "settings", None) or []:
        out += ["--set", text]
    return out


# --------------------------------------------------------------------------- odds


def _bar(p: float, width: int = BAR_WIDTH) -> str:
    filled = max(0, min(width, round(p * width)))
    return "█" * filled + "░" * (width - filled)


def _pct_line(label: str, p: float, width: int = 16) -> str:
    return f"  {label:<{width}} {100 * p:7.3f}%  {_bar(p)}"


def _odds_raja(args: argparse.Namespace) -> int:
    from polku.rules import odds

    settings, _ = _settings(args, "rajapolku")
    if args.spirit or args.in_fight:
        return _odds_spirit(args, settings)
    an, aa = parse_raja_pool(args.a, "A")
    bn, ba = parse_raja_pool(args.b, "B")
    result = odds.raja_odds(an, aa, bn, ba, exhausted=settings.raja_exhausted,
                            degrees_rule=settings.raja_degrees)
    if args.json:
        out = {"system": "rajapolku", "a": {"normal": an, "ability": aa},
               "b": {"normal": bn, "ability": ba}, "settings": _settings_json(settings, "rajapolku")}
        out.update(result.to_json())
        _emit_json(out)
        return 0

    def pool_text(n: int, ab: int) -> str:
        return f"{n}d10" + (f" + {ab} ability" if ab else "")

    tie = "tie (B holds)" if settings.raja_full_tie == "defender" else "tie (reroll)"
    beyond = ", beyond the deciding die (raja.degrees)" if settings.raja_degrees == "beyond" else ""
    lines = [
        f"Rajapolku odds: A {pool_text(an, aa)} vs B {pool_text(bn, ba)}",
        _pct_line("A wins", result.a_wins),
        _pct_line("B wins", result.b_wins),
        _pct_line(tie, result.tie),
        f"winner's degrees of success (R6, ability dice count 2{beyond}):",
    ]
    for d, p in enumerate(result.degrees):
        if p > 0:
            label = "0" if d == 0 else str(d)
            lines.append(_pct_line(label, p))
    if aa or ba:
        lines.append("visibly supernatural wins (R7):")
        if aa:
            lines.append(_pct_line("A", result.a_visible))
        if ba:
            lines.append(_pct_line("B", result.b_visible))
    _emit_lines(lines)
    return 0


def _odds_spirit(args: argparse.Namespace, settings) -> int:
    from polku.rules import odds

    charges = []
    for side, text in (("A", args.a), ("B", args.b)):
        normal, ability = parse_raja_pool(text, side)
        if ability:
            raise CliError(f"side {side}: in spirit combat the dice are the charges, no ability dice (R11)")
        left = normal if args.in_fight else normal - 1
        if left < 1:
            raise CliError(f"side {side}: {normal} charge(s): after the 1-charge entry none would remain (R11)")
        charges.append(left)
    result = odds.spirit_fight_odds(*charges, exhausted=settings.raja_exhausted,
                                    degrees_rule=settings.raja_degrees, spirit_loss=settings.raja_spirit_loss)
    if args.json:
        _emit_json({"system": "rajapolku", "test": "spirit", "settings": _settings_json(settings, "rajapolku"),
                    **result.to_json()})
        return 0
    entry = "charges left" if args.in_fight else "charges left after each pays 1 to enter"
    ex = result.exchange
    lines = [f"Spirit combat odds (R11): A {charges[0]} vs B {charges[1]} {entry}",
             "the next exchange:",
             _pct_line("A wins", ex.a_wins), _pct_line("B wins", ex.b_wins),
             _pct_line("full tie (free)", ex.tie),
             "the whole fight (the winner of an exchange loses nothing):",
             _pct_line("A wins", result.a_wins), _pct_line("B wins", result.b_wins),
             f"  expected exchanges: {result.expected_exchanges:.2f}"]
    _emit_lines(lines)
    return 0


def _harha_pool_text(p: tuple[int, int]) -> str:
    parts = [f"{n}d{s}" for n, s in ((p[0], 8), (p[1], 10)) if n]
    return "+".join(parts) or "no dice"


def _odds_harha(args: argparse.Namespace) -> int:
    from polku.rules import odds

    settings = _harha_settings(args)
    variant = settings.harha_variant
    needed = _needed(args)
    a = parse_harha_pool(args.a, "A")
    out: dict[str, Any] = {"system": "harhapolku", "variant": variant, "a": {"d8": a[0], "d10": a[1]},
                           "settings": _settings_json(settings, "harhapolku")}
    if args.b is None:
        if not needed:
            raise CliError("harhapolku needs POOL_B, unless the action is --difficult or --very-demanding (H8)")
        p = odds.harha_difficult(a, needed == 2)
        out.update(opposed=False, success=p)
        kind = "very demanding" if needed == 2 else "difficult"
        return _emit(args, out, [f"Harhapolku odds: {kind} action, unopposed, {_harha_pool_text(a)} (H8)",
                                 _pct_line("success", p)])
    b = parse_harha_pool(args.b, "B")
    out["b"] = {"d8": b[0], "d10": b[1]}
    if variant == "sum":
        sizes = []
        for side, pool in (("A", a), ("B", b)):
            if pool[0] and pool[1]:
                raise CliError(f"side {side}: the sum variant uses one die size (H6)")
            sizes.append((pool[0] + pool[1], 10 if pool[1] else 8))
        (ac, asz), (bc, bsz) = sizes
        plain = odds.harha_sum_odds(ac, asz, bc, bsz)
        diff = odds.harha_sum_difficult(ac, asz, bc, bsz, needed == 2) if needed else None
    else:
        plain = odds.harha_odds(a, b, variant=variant, classic_extra=settings.harha_classic_extra)
        diff = (odds.harha_difficult_opposed(a, b, variant, settings.harha_classic_extra, needed == 2)
                if needed else None)
    out.update(plain.to_json())
    if diff is not None:
        out.update(diff.to_json())
    if args.json:
        _emit_json(out)
        return 0
    classic = variant == "classic"
    a_name, b_name = ("A", "B") if classic else ("A (actor)", "B (challenger)")
    lines = [f"Harhapolku odds ({variant}): {a_name} {_harha_pool_text(a)} vs {b_name} {_harha_pool_text(b)}",
             _pct_line("A wins", plain.a_wins), _pct_line("B wins", plain.b_wins)]
    if classic:
        lines.append(_pct_line("tie (reroll)", plain.tie))
    else:
        lines.append("  (the actor keeps the action unless the challenger wins more: no ties)")
    if diff is not None:
        kind = "very demanding" if needed == 2 else "difficult"
        lines += [f"{kind}, opposed (H8): the actor must win and show {needed} {'die' if needed == 1 else 'dice'} of 7+",
                  _pct_line("success", diff.success), _pct_line("won without 7+", diff.won_without)]
    _emit_lines(lines)
    return 0


def _odds_sr(args: argparse.Namespace) -> int:
    from polku.rules import odds

    settings, _ = _settings(args, "shadowrun")
    n = _sr_pool(args.n)
    _check_threshold(args.threshold)
    out: dict[str, Any] = {"system": "shadowrun", "settings": _settings_json(settings, "shadowrun")}
    modes = [f for f, v in (("--edge", args.edge), ("--extended", args.extended), ("--helpers", args.helpers))
             if v is not None]
    if len(modes) > 1:
        raise CliError(f"{' and '.join(modes)}: one question at a time")
    for flag, value in (("--intervals", args.intervals), ("--progress", args.progress or None),
                        ("--hurried", args.hurried or None)):
        if value is not None and args.extended is None:
            raise CliError(f"{flag} is for an extended test (--extended T)")
    if args.leader_skill is not None and args.helpers is None:
        raise CliError("--leader-skill is for teamwork (--helpers N,N)")
    if args.edge is not None:
        if args.threshold is None:
            raise CliError("--edge compares Edge before and after the roll for a threshold: give --threshold T")
        if args.edge_before:
            raise CliError("--edge already compares Edge before the roll; leave out --edge-before")
        _check_rating("--edge", args.edge)
        worth = odds.sr_edge_odds(n, args.edge, args.threshold, settings.sr_glitch_rerolls)
        out.update(worth.to_json())
        if args.json:
            _emit_json(out)
            return 0
        lines = [f"What Edge {args.edge} is worth on {_plural(n, 'die').replace('dies', 'dice')}, "
                 f"threshold {args.threshold} (S7):",
                 f"  {'':<22} {'success':>9} {'glitch':>9} {'critical':>9} {'mean hits':>10}"]
        for label, v in (("no Edge", worth.none), ("Edge before the roll", worth.before),
                         ("Edge after, if short", worth.after)):
            lines.append(f"  {label:<22} {100 * v[0]:8.3f}% {100 * v[1]:8.3f}% {100 * v[2]:8.3f}% {v[3]:10.3f}")
        lines.append(f"  (after the roll the point is spent only when the roll falls short: "
                     f"{100 * worth.after_spent:.1f}% of the time)")
        _emit_lines(lines)
        return 0
    if args.extended is not None:
        if args.threshold is not None or args.edge_before:
            raise CliError("an extended test takes --extended T (its threshold), not --threshold or --edge-before")
        k = args.intervals if args.intervals is not None else 10
        ext = odds.sr_extended(n, args.extended, max_intervals=k, hurried=args.hurried, progress=args.progress)
        out.update(ext.to_json(), dice=n, progress=args.progress, intervals=k, hurried=args.hurried)
        if args.json:
            _emit_json(out)
            return 0
        lines = [f"Shadowrun extended test odds: {_plural(n, 'die').replace('dies', 'dice')} per interval, "
                 f"{args.progress}/{args.extended} hits so far{', hurried' if args.hurried else ''} (S10)"]
        run = 0.0
        for i, p in enumerate(ext.success_at):
            run += p
            if p > 0 or i < 3:
                lines.append(_pct_line(f"done by {i + 1}", run))
        lines += [_pct_line(f"within {k}", ext.success), _pct_line("critical glitch", ext.critical_glitch),
                  _pct_line("some glitch", ext.glitch)]
        _emit_lines(lines)
        return 0
    if args.helpers is not None:
        helpers = _pool_list(args.helpers, "helper")
        cap = None
        if settings.sr_teamwork_cap == "skill":
            if args.leader_skill is None:
                raise CliError("sr.teamwork_cap=skill caps the helpers' dice at the leader's skill: give --leader-skill S")
            cap = args.leader_skill
        result = odds.sr_teamwork(n, helpers, rule_of_six=args.edge_before,
                                  glitch_rerolls=settings.sr_glitch_rerolls, max_bonus=cap)
        out.update(result.to_json(args.threshold), helpers=helpers, leader_skill=args.leader_skill, cap=cap,
                   rule_of_six=args.edge_before, tail=result.tail)
        head = (f"Shadowrun teamwork odds: leader {n} dice + the hits of helpers "
                f"{', '.join(map(str, helpers))}" + (f", at most {cap} dice (sr.teamwork_cap)" if cap is not None else ""))
    else:
        result = odds.sr_hits(n, rule_of_six=args.edge_before, glitch_rerolls=settings.sr_glitch_rerolls)
        out.update(result.to_json(args.threshold), rule_of_six=args.edge_before, tail=result.tail)
        six = ", rule of six (Edge before the roll)" if args.edge_before else ""
        head = f"Shadowrun odds: {_plural(n, 'die').replace('dies', 'dice')}{six}"
    if args.json:
        _emit_json(out)
        return 0
    lines = [head, f"  mean hits: {result.mean():.3f}", "hits:"]
    for h, p in enumerate(result.hits):
        if p >= 5e-6 or h == 0:
            lines.append(_pct_line(str(h), p))
    lines.append(_pct_line("glitch", result.glitch))
    lines.append(_pct_line("critical glitch", result.critical_glitch))
    if args.threshold is not None:
        lines.append(_pct_line(f"success (≥{args.threshold})", result.success(args.threshold)))
    _emit_lines(lines)
    return 0


def _odds_sr_opposed(args: argparse.Namespace) -> int:
    from polku.rules import odds, shadowrun

    settings, _ = _settings(args, "shadowrun")
    n, m = _sr_pool(args.n, "A"), _sr_pool(args.m, "B")
    group = _pool_list(args.group, "group member")
    m_total = shadowrun.group_pool([m, *group]) if group else m
    if m_total > 200:
        raise CliError(f"{m_total} dice is more than this tracker rolls (200)")
    result = odds.sr_opposed(n, m_total, args.edge_before, args.b_edge_before)
    if args.json:
        out = {"system": "shadowrun", "a_dice": n, "b_dice": m_total,
               "group": [m, *group] if group else None, "settings": _settings_json(settings, "shadowrun")}
        out.update(result.to_json())
        out["b_wins_if_needed"] = result.b_wins_if_needed
        _emit_json(out)
        return 0
    grp = f" (a group of {len(group) + 1}: largest + {min(5, len(group))}, S9)" if group else ""
    _emit_lines([
        f"Shadowrun opposed odds: A {n} dice vs B (defender) {m_total} dice{grp}",
        _pct_line("A wins", result.a_wins),
        _pct_line("B wins", result.b_wins),
        _pct_line("tie", result.tie),
        _pct_line("B if needed", result.b_wins_if_needed),
    ])
    return 0


# --------------------------------------------------------------------------- review, watch, export


def _load_read_only(file: str):
    """Load a session file read-only (no lock, no write); errors become one line."""
    from pathlib import Path

    from polku.session.files import SessionOpenError, load_tracker

    try:
        tracker, notices = load_tracker(Path(file), read_only=True)
    except SessionOpenError as exc:
        raise CliError(str(exc)) from None
    return tracker, notices


def _export(args: argparse.Namespace) -> int:
    from polku.session.export import export

    tracker, notices = _load_read_only(args.file)
    for note in notices:
        print(f"{PROG}: note: {' '.join(note.split())}", file=sys.stderr)
    text = export(tracker, args.format, gm=args.gm)
    if args.output:
        try:
            from pathlib import Path

            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise CliError(f"could not write {args.output}: {exc.strerror or exc}") from None
    else:
        sys.stdout.write(text)
    return 0


def _needs_terminal(verb: str) -> None:
    """The full-screen verbs refuse to run without a terminal (they would hang and write escape codes)."""
    import os

    served = bool(os.environ.get("TEXTUAL_DRIVER"))  # textual-serve runs the app without a terminal
    if not served and not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise CliError(f"{verb} needs a terminal; connect with 'ssh -t HOST polku {verb} FILE'"
                       + (", or write a report with 'polku export FILE'" if verb == "review" else ""))


def _review(args: argparse.Namespace) -> int:
    tracker, notices = _load_read_only(args.file)
    _needs_terminal("review")
    from polku.tui.review import run_review

    from pathlib import Path

    return int(run_review(Path(args.file), tracker, notices=notices, theme=args.theme) or 0)


def _watch(args: argparse.Namespace) -> int:
    import os

    served = bool(os.environ.get("TEXTUAL_DRIVER"))  # textual-serve runs the app without a terminal
    if not served and not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise CliError("watch needs a terminal; connect with 'ssh -t HOST polku watch FILE'")
    if args.interval <= 0:
        raise CliError("--interval must be above 0 seconds")
    _load_read_only(args.file)
    from polku.tui.watch import run_watch

    from pathlib import Path

    return int(run_watch(Path(args.file), theme=args.theme, interval=args.interval) or 0)


# --------------------------------------------------------------------------- app


def _run_app(path: Path | None, *, read_only: bool, seed: int | None) -> int:
    from polku.tui.run import run_app

    status = run_app(path, read_only=read_only, seed=seed)
    return int(status or 0)


# --------------------------------------------------------------------------- main


def _normalise(argv: list[str]) -> list[str]:
    """Lower-case the SYSTEM word of resolve/odds, and name an unknown system plainly."""
    if len(argv) >= 2 and argv[0] in ("resolve", "odds") and not argv[1].startswith("-"):
        name = argv[1].strip().lower()
        if name not in ALL_SYSTEM_NAMES:
            if name.endswith("-opposed"):
                raise CliError(f"unknown system '{argv[1]}' (use shadowrun-opposed)")
            raise CliError(f"unknown system '{argv[1]}' (use rajapolku, harhapolku, shadowrun "
                           "or shadowrun-opposed)")
        argv = [argv[0], name, *argv[2:]]
    return argv


def _safe_streams() -> None:
    """Never crash on a terminal that cannot show '→' or '█'."""
    for stream in (sys.stdout, sys.stderr):
        enc = (getattr(stream, "encoding", None) or "").lower().replace("-", "")
        if enc not in ("utf8", "utf16", "utf32") and hasattr(stream, "reconfigure"):
            try:
                stream.reconfigure(errors="replace")
            except Exception:  # pragma: no cover - odd streams
                pass


def main(argv: list[str] | None = None) -> int:
    """Run the ``polku`` command; returns the exit status (0 ok, 2 bad input)."""
    _safe_streams()
    args_list = list(sys.argv[1:] if argv is None else argv)
    try:
        if args_list and args_list[0] in VERBS:
            try:
                args = _verb_parser(args_list[0]).parse_args(_normalise(args_list))
                if args.verb != "new":
                    return int(args.handler(args))
            except _Exit as done:
                return done.status
            except (CliError, ValueError) as exc:  # RulesError is a ValueError
                _print_error(str(exc))
                return 2
            return _run_app(None, read_only=False, seed=args.seed)
        try:
            args = _app_parser().parse_args(args_list)
        except _Exit as done:
            return done.status
        except CliError as exc:
            _print_error(str(exc))
            return 2
    except BrokenPipeError:  # pragma: no cover - `polku odds ... | head`
        return 0
    from pathlib import Path

    path = Path(args.file) if args.file else None
    return _run_app(path, read_only=args.read_only, seed=args.seed)


if __name__ == "__main__":
    raise SystemExit(main())
