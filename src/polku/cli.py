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
  polku resolve rajapolku A B                    faces '10,8*,7' (* = ability die)
  polku resolve harhapolku A B [--variant V]     faces '7,4,4' or '10:9,8'
  polku resolve shadowrun FACES [--threshold T]
  polku resolve shadowrun-opposed A B            B is the defender
  polku roll SYSTEM POOL_A [POOL_B] [--seed N]   roll, then judge as resolve does
  polku odds SYSTEM POOL_A [POOL_B]              exact odds
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
HARHA_VARIANT_HELP = (
    "comparison: ch23 (chapter 23, H4, default; A = actor, B = challenger) or "
    "classic (H3; more positions wins, equal counts tie)"
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


def _verb_resolve(verbs: Any) -> None:
    res = verbs.add_parser(
        "resolve", help="judge faces already rolled",
        description="Judge faces already rolled (physical dice, or any roll). "
                    "Faces are comma-separated, without spaces or quoted.",
    )
    rsys = res.add_subparsers(dest="system", metavar="SYSTEM", required=True, parser_class=Parser)
    r = rsys.add_parser("rajapolku", aliases=list(RAJA_NAMES[1:]), help="Rajapolku (R5-R7)",
                        description="Rajapolku challenge (R5-R7): A acts, B is the opposition.")
    r.add_argument("a", metavar="A", help=RAJA_FACES_HELP.format(side="A (acting)"))
    r.add_argument("b", metavar="B", help=RAJA_FACES_HELP.format(side="B (opposition)"))
    _json_flag(r)
    r.set_defaults(handler=_resolve_raja)

    h = rsys.add_parser("harhapolku", aliases=list(HARHA_NAMES[1:]), help="Harhapolku (H3, H4)",
                        description="Harhapolku comparison (H3, H4). In ch23, A is the actor "
                                    "and B the challenger, who must win more positions.")
    h.add_argument("a", metavar="A", help=HARHA_FACES_HELP.format(side="A (actor)"))
    h.add_argument("b", metavar="B", help=HARHA_FACES_HELP.format(side="B (challenger)"))
    h.add_argument("--variant", choices=("ch23", "classic"), default="ch23", help=HARHA_VARIANT_HELP)
    _json_flag(h)
    h.set_defaults(handler=_resolve_harha)

    s = rsys.add_parser("shadowrun", aliases=list(SR_NAMES[1:]), help="Shadowrun roll (S4-S8)",
                        description="Shadowrun 4e roll (S4-S6), or a success test (S8) with --threshold.")
    s.add_argument("faces", metavar="FACES", help="comma-separated d6 faces, e.g. 1,1,5,6")
    s.add_argument("--threshold", type=_whole_arg("--threshold", 1, MAX_POOL), metavar="T",
                   help="hits needed (S8)")
    _json_flag(s)
    s.set_defaults(handler=_resolve_sr)

    so = rsys.add_parser("shadowrun-opposed", aliases=list(SR_OPPOSED_NAMES[1:]),
                         help="Shadowrun opposed test (S9)",
                         description="Shadowrun opposed test (S9): more hits wins; "
                                     "on a tie the defender B wins if a winner is needed.")
    so.add_argument("a", metavar="A", help="side A's d6 faces, comma-separated")
    so.add_argument("b", metavar="B", help="side B's (the defender's) d6 faces")
    _json_flag(so)
    so.set_defaults(handler=_resolve_sr_opposed)


def _verb_roll(verbs: Any) -> None:
    roll = verbs.add_parser(
        "roll", help="roll pools with a seed, then judge",
        description=(
            "Roll pools with the program's dice, then judge them as resolve does. "
            "The seed is printed; the same seed gives the same faces."
        ),
        epilog=(
            "pools:\n"
            "  rajapolku   '3' (three d10) or '3+1*' (three d10 and one ability die); POOL_B needed\n"
            "  harhapolku  '2d8+1d10' (or '3' for three d8); POOL_B needed\n"
            "  shadowrun   a number of d6; with POOL_B an opposed test (B defends),\n"
            "              --edge-before RATING adds RATING dice to A with the rule of six (S7)\n"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    roll.add_argument("system", metavar="SYSTEM", help="rajapolku, harhapolku or shadowrun (or an alias)")
    roll.add_argument("pool_a", metavar="POOL_A", help="side A's pool")
    roll.add_argument("pool_b", metavar="POOL_B", nargs="?", help="side B's pool")
    roll.add_argument("--seed", type=_whole_arg("--seed", 0, SEED_MAX), metavar="N",
                      help="seed (default: a random one, printed)")
    roll.add_argument("--variant", choices=("ch23", "classic"), default=None,
                      help="harhapolku only: " + HARHA_VARIANT_HELP)
    roll.add_argument("--edge-before", type=_whole_arg("--edge-before (the Edge rating)", 1, EDGE_MAX), metavar="E",
                      help="shadowrun only: spend Edge before the roll, E = Edge rating (S7)")
    roll.add_argument("--threshold", type=_whole_arg("--threshold", 1, MAX_POOL), metavar="T",
                      help="shadowrun only, one pool: hits needed (S8)")
    _json_flag(roll)
    roll.set_defaults(handler=_roll)


def _verb_odds(verbs: Any) -> None:
    odds = verbs.add_parser("odds", help="exact odds",
                            description="Exact odds of a challenge or a roll.")
    osys = odds.add_subparsers(dest="system", metavar="SYSTEM", required=True, parser_class=Parser)
    o = osys.add_parser("rajapolku", aliases=list(RAJA_NAMES[1:]), help="Rajapolku (R5-R7)",
                        description="Odds of a Rajapolku challenge (R5-R7).")
    o.add_argument("a", metavar="POOL_A", help="side A's pool: '3' (d10s) or '3+1*' (and one ability die)")
    o.add_argument("b", metavar="POOL_B", help="side B's pool, the same way")
    _json_flag(o)
    o.set_defaults(handler=_odds_raja)

    oh = osys.add_parser("harhapolku", aliases=list(HARHA_NAMES[1:]), help="Harhapolku (H3, H4)",
                         description="Odds of a Harhapolku comparison (H3, H4).")
    oh.add_argument("a", metavar="POOL_A", help="side A's pool (the actor in ch23), e.g. 2d8+1d10")
    oh.add_argument("b", metavar="POOL_B", help="side B's pool (the challenger in ch23)")
    oh.add_argument("--variant", choices=("ch23", "classic"), default="ch23", help=HARHA_VARIANT_HELP)
    _json_flag(oh)
    oh.set_defaults(handler=_odds_harha)

    os_ = osys.add_parser("shadowrun", aliases=list(SR_NAMES[1:]), help="Shadowrun roll (S4-S8)",
                          description="Odds of a Shadowrun 4e roll (S4-S8).")
    os_.add_argument("n", metavar="N", help="dice in the pool (with Edge, include the Edge dice)")
    os_.add_argument("--threshold", type=_whole_arg("--threshold", 1, MAX_POOL), metavar="T",
                     help="also the chance of at least T hits (S8)")
    os_.add_argument("--edge-before", action="store_true",
                     help="Edge spent before the roll: the rule of six is on (S7)")
    _json_flag(os_)
    os_.set_defaults(handler=_odds_sr)

    oso = osys.add_parser("shadowrun-opposed", aliases=list(SR_OPPOSED_NAMES[1:]),
                          help="Shadowrun opposed test (S9)",
                          description="Odds of a Shadowrun opposed test (S9); B is the defender.")
    oso.add_argument("n", metavar="N", help="side A's dice")
    oso.add_argument("m", metavar="M", help="side B's (the defender's) dice")
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


# --------------------------------------------------------------------------- resolve


def _resolve_raja(args: argparse.Namespace) -> int:
    from polku.rules import rajapolku

    result = rajapolku.resolve(_raja_faces(args.a, "A"), _raja_faces(args.b, "B"))
    if args.json:
        _emit_json(rajapolku.result_json(result))
    else:
        _emit_lines([_raja_headline(result), *("  " + line for line in result.explain())])
    return 0


def _resolve_harha(args: argparse.Namespace) -> int:
    from polku.rules import harhapolku

    result = harhapolku.resolve(parse_harha_faces(args.a, "A"), parse_harha_faces(args.b, "B"),
                                variant=args.variant)
    if args.json:
        _emit_json(harhapolku.result_json(result))
    else:
        _emit_lines([_harha_headline(result), *("  " + line for line in result.explain())])
    return 0


def _check_threshold(threshold: int | None) -> None:
    if threshold is not None and threshold < 1:
        raise CliError(f"--threshold must be 1 or more, not {threshold}")


def _sr_from_faces(dice):
    from polku.rules import shadowrun
    from polku.rules.dice import ManualSource

    return shadowrun.roll(len(dice), ManualSource([d.face for d in dice]))


def _resolve_sr(args: argparse.Namespace) -> int:
    from polku.rules import shadowrun

    _check_threshold(args.threshold)
    result: Any = _sr_from_faces(_sr_faces(args.faces))
    if args.threshold is not None:
        result = shadowrun.success_test(result, args.threshold)
    if args.json:
        _emit_json(_sr_json(result))
    else:
        _emit_lines([_sr_headline(result), *("  " + line for line in result.explain())])
    return 0


def _resolve_sr_opposed(args: argparse.Namespace) -> int:
    from polku.rules import shadowrun

    result = shadowrun.opposed(_sr_from_faces(_sr_faces(args.a, "A")),
                               _sr_from_faces(_sr_faces(args.b, "B")))
    if args.json:
        _emit_json(_sr_json(result))
    else:
        _emit_lines([_sr_opposed_headline(result), *("  " + line for line in result.explain())])
    return 0


# --------------------------------------------------------------------------- roll


def _system_of(name: str) -> str:
    from polku.rules.system import parse_system

    return parse_system(name).value


def _new_seed() -> int:
    import secrets

    return secrets.randbelow(2**32)


def _roll(args: argparse.Namespace) -> int:
    from polku.rules.dice import DieSpec, RandomSource, Src, roll_specs

    system = _system_of(args.system)
    if system != "shadowrun":
        for flag, value in (("--edge-before", args.edge_before), ("--threshold", args.threshold)):
            if value is not None:
                raise CliError(f"{flag} is only for shadowrun")
        if args.pool_b is None:
            raise CliError(f"{system} needs two pools: polku roll {system} POOL_A POOL_B")
    if system != "harhapolku" and args.variant is not None:
        raise CliError("--variant is only for harhapolku")
    seed = args.seed if args.seed is not None else _new_seed()
    source = RandomSource(seed)
    again = f"polku roll {' '.join(_reproduce_args(args, system, seed))}"

    if system == "rajapolku":
        from polku.rules import rajapolku

        pools = []
        for side, text in (("A", args.pool_a), ("B", args.pool_b)):
            normal, ability = parse_raja_pool(text, side)
            pools.append([DieSpec(10, Src.DIE)] * normal + [DieSpec(10, Src.ABILITY)] * ability)
        a = roll_specs(pools[0], source)
        b = roll_specs(pools[1], source)
        result = rajapolku.resolve(a, b)
        rolled = {"a": [_glyph(d) for d in a], "b": [_glyph(d) for d in b]}
        if args.json:
            _emit_json({"seed": seed, "rolled": rolled, **rajapolku.result_json(result)})
            return 0
        lines = [_raja_headline(result), *("  " + line for line in result.explain())]
    elif system == "harhapolku":
        from polku.rules import harhapolku

        variant = args.variant or "ch23"
        pools = []
        for side, text in (("A", args.pool_a), ("B", args.pool_b)):
            n8, n10 = parse_harha_pool(text, side)
            pools.append([DieSpec(8, Src.DIE)] * n8 + [DieSpec(10, Src.DIE)] * n10)
        a = roll_specs(pools[0], source)
        b = roll_specs(pools[1], source)
        result = harhapolku.resolve(a, b, variant=variant)
        rolled = {"a": [f"d{d.size}:{d.face}" for d in a], "b": [f"d{d.size}:{d.face}" for d in b]}
        if args.json:
            _emit_json({"seed": seed, "rolled": rolled, **harhapolku.result_json(result)})
            return 0
        lines = [_harha_headline(result), *("  " + line for line in result.explain())]
    else:
        from polku.rules import shadowrun

        if args.edge_before is not None and args.edge_before < 1:
            raise CliError(f"--edge-before is the Edge rating, 1 or more, not {args.edge_before}")
        _check_threshold(args.threshold)
        n = _sr_pool(args.pool_a, "A" if args.pool_b is not None else "")
        result: Any
        if args.pool_b is None:
            result = shadowrun.roll(n, source, args.edge_before)
            rolled = {"a": [d.face for d in result.dice]}
            if args.threshold is not None:
                result = shadowrun.success_test(result, args.threshold)
            headline = _sr_headline(result)
        else:
            if args.threshold is not None:
                raise CliError("--threshold is for one pool; an opposed test has no threshold (S9)")
            m = _sr_pool(args.pool_b, "B")
            ra = shadowrun.roll(n, source, args.edge_before)
            rb = shadowrun.roll(m, source)
            result = shadowrun.opposed(ra, rb)
            rolled = {"a": [d.face for d in ra.dice], "b": [d.face for d in rb.dice]}
            headline = _sr_opposed_headline(result)
        if args.json:
            _emit_json({"seed": seed, "rolled": rolled, **_sr_json(result)})
            return 0
        lines = [headline, *("  " + line for line in result.explain())]

    rolled_lines = [f"rolled {side.upper()}: {','.join(str(f) for f in faces) or 'no dice'}"
                    for side, faces in rolled.items()]
    _emit_lines([f"seed: {seed}", *rolled_lines, *lines, f"again: {again}"])
    return 0


def _glyph(d) -> str:
    return f"{d.face}*" if d.is_ability else str(d.face)


def _reproduce_args(args: argparse.Namespace, system: str, seed: int) -> list[str]:
    out = [system, args.pool_a]
    if args.pool_b is not None:
        out.append(args.pool_b)
    out += ["--seed", str(seed)]
    if args.variant:
        out += ["--variant", args.variant]
    if args.edge_before is not None:
        out += ["--edge-before", str(args.edge_before)]
    if args.threshold is not None:
        out += ["--threshold", str(args.threshold)]
    return out


# --------------------------------------------------------------------------- odds


def _bar(p: float, width: int = BAR_WIDTH) -> str:
    filled = max(0, min(width, round(p * width)))
    return "█" * filled + "░" * (width - filled)


def _pct_line(label: str, p: float, width: int = 16) -> str:
    return f"  {label:<{width}} {100 * p:7.3f}%  {_bar(p)}"


def _odds_raja(args: argparse.Namespace) -> int:
    from polku.rules import odds

    an, aa = parse_raja_pool(args.a, "A")
    bn, ba = parse_raja_pool(args.b, "B")
    result = odds.raja_odds(an, aa, bn, ba)
    if args.json:
        out = {"system": "rajapolku", "a": {"normal": an, "ability": aa},
               "b": {"normal": bn, "ability": ba}}
        out.update(result.to_json())
        _emit_json(out)
        return 0

    def pool_text(n: int, ab: int) -> str:
        return f"{n}d10" + (f" + {ab} ability" if ab else "")

    lines = [
        f"Rajapolku odds: A {pool_text(an, aa)} vs B {pool_text(bn, ba)}",
        _pct_line("A wins", result.a_wins),
        _pct_line("B wins", result.b_wins),
        _pct_line("tie (reroll)", result.tie),
        "winner's degrees of success (R6, ability dice count 2):",
    ]
    for d, p in enumerate(result.degrees):
        if p > 0:
            label = "0 (narrow)" if d == 0 else str(d)
            lines.append(_pct_line(label, p))
    _emit_lines(lines)
    return 0


def _odds_harha(args: argparse.Namespace) -> int:
    from polku.rules import odds

    a = parse_harha_pool(args.a, "A")
    b = parse_harha_pool(args.b, "B")
    result = odds.harha_odds(a, b, variant=args.variant)
    if args.json:
        out = {"system": "harhapolku", "variant": args.variant,
               "a": {"d8": a[0], "d10": a[1]}, "b": {"d8": b[0], "d10": b[1]}}
        out.update(result.to_json())
        _emit_json(out)
        return 0

    def pool_text(p: tuple[int, int]) -> str:
        parts = [f"{n}d{s}" for n, s in ((p[0], 8), (p[1], 10)) if n]
        return "+".join(parts) or "no dice"

    a_name, b_name = (("A (actor)", "B (challenger)") if args.variant == "ch23" else ("A", "B"))
    lines = [
        f"Harhapolku odds ({args.variant}): {a_name} {pool_text(a)} vs {b_name} {pool_text(b)}",
        _pct_line(f"{a_name.split()[0]} wins", result.a_wins),
        _pct_line(f"{b_name.split()[0]} wins", result.b_wins),
    ]
    if args.variant == "classic":
        lines.append(_pct_line("tie (reroll)", result.tie))
    else:
        lines.append("  (ch23 never ties: the challenger needs more positions than the actor)")
    _emit_lines(lines)
    return 0


def _odds_sr(args: argparse.Namespace) -> int:
    from polku.rules import odds

    n = _sr_pool(args.n)
    _check_threshold(args.threshold)
    result = odds.sr_hits(n, rule_of_six=args.edge_before)
    if args.json:
        out = {"system": "shadowrun", "rule_of_six": args.edge_before, "tail": result.tail}
        out.update(result.to_json(args.threshold))
        _emit_json(out)
        return 0
    six = ", rule of six (Edge before the roll)" if args.edge_before else ""
    lines = [f"Shadowrun odds: {_plural(n, 'die').replace('dies', 'dice')}{six}",
             f"  mean hits: {result.mean():.3f}", "hits:"]
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
    from polku.rules import odds

    n, m = _sr_pool(args.n, "A"), _sr_pool(args.m, "B")
    result = odds.sr_opposed(n, m)
    if args.json:
        out = {"system": "shadowrun", "a_dice": n, "b_dice": m}
        out.update(result.to_json())
        out["b_wins_if_needed"] = result.b_wins_if_needed
        _emit_json(out)
        return 0
    _emit_lines([
        f"Shadowrun opposed odds: A {n} dice vs B (defender) {m} dice",
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
