"""What every verb of the ``polku`` command shares: the parser that never exits,
the one-line error, bounded numbers, the flags several verbs take, the
settings given with ``--set``, and the output helpers.

Layering (DESIGN.md): this module imports only the standard library at import
time; the rules are imported inside the functions that need them.
"""

from __future__ import annotations

import argparse
import re
import sys
from typing import TYPE_CHECKING, cast

from polku.i18n import N_, _, retell

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from pathlib import Path
    from typing import Any, NoReturn, TypeAlias

    from polku.rules.system import Settings
    from polku.session.players.players_file import Follower
    from polku.session.tracker import Tracker

    class WoundArgs(argparse.Namespace):
        wound: str | None
        b_wound: str | None

    class HarhaArgs(argparse.Namespace):
        variant: str | None
        difficult: bool
        very_demanding: bool

    class JsonArgs(argparse.Namespace):
        json: bool

    Verbs: TypeAlias = "argparse._SubParsersAction[Parser]"
    """The verbs' subparsers, which each verb module's ``add_parser`` adds its parser to (typing only:
    the headless path imports no typing)."""

PROG = "polku"

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


class ParserExit(Exception):
    """Raised by :meth:`Parser.exit` so :func:`main` can return the status."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line and which never calls sys.exit.

    Its texts are translated when the help is shown, not when the parser is built (a verb that
    prints no help never asks which language): the description, the epilog and each argument's
    help are English messages marked with ``N_``; the headings and ``-h`` are argparse's own words,
    put in the language in use here.
    """

    def _in_language(self) -> None:
        from polku.i18n import _

        self._positionals.title = _("positional arguments")
        self._optionals.title = _("options")
        if self.description:
            self.description = _(self.description)
        if self.epilog:
            self.epilog = _(self.epilog)
        for action in self._actions:
            if isinstance(action, argparse._HelpAction):
                action.help = _("show this help message and exit")
            elif action.help and action.help is not argparse.SUPPRESS:
                action.help = _(action.help)
            if isinstance(action, argparse._SubParsersAction):
                for choice in action._choices_actions:
                    if choice.help and choice.help is not argparse.SUPPRESS:
                        choice.help = _(choice.help)

    def format_usage(self) -> str:
        self._in_language()
        return _usage_in_language(super().format_usage())

    def format_help(self) -> str:
        self._in_language()
        return _usage_in_language(super().format_help())

    def error(self, message: str) -> NoReturn:
        one_line = " ".join(str(message).split())
        print_error(f"{one_line} (try '{self.prog} --help')")
        raise ParserExit(2)

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        if message:
            sys.stderr.write(message)
        raise ParserExit(status)

    def _get_formatter(self) -> argparse.HelpFormatter:
        # argparse's HelpFormatter imports shutil (and bz2, lzma...) for the width;
        # every add_argument makes one, so the headless verbs paid for it.
        make: Callable[..., argparse.HelpFormatter] = self.formatter_class
        return make(prog=self.prog, width=terminal_columns() - 2)


def _usage_in_language(text: str) -> str:
    from polku.i18n import _

    prefix = "usage: "
    return _("usage: ") + text[len(prefix):] if text.startswith(prefix) else text


def terminal_columns() -> int:
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


def print_error(message: str) -> None:
    from polku.i18n import _

    text = " ".join(str(message).split()) or _("something went wrong")
    print(_("{prog}: error: {message}", prog=PROG, message=text), file=sys.stderr)


EDGE_RATING = N_("{flag} (the Edge rating)")
"""What a flag taking an Edge rating names in a refusal (:func:`whole_number`'s ``what``, with ``flag``)."""
THRESHOLD_OF = N_("{flag} (the threshold)")
"""What a flag taking an extended test's threshold names in a refusal (likewise)."""

HARHA_VARIANTS = ("ch23", "classic", "same_size", "sum")
HARHA_VARIANT_HELP = N_(
    "comparison (the same as --set harha.variant=V): ch23 (chapter 23, H4, default; A = actor, "
    "B = challenger), classic (H3; more positions wins, equal counts tie), same_size (H5: one die "
    "size, compared as ch23) or sum (H6: one die plus the die count, the challenger needs more)"
)


def settings_epilog(prefix: str) -> str:
    """The [choice] settings of one system, for a subparser's --help."""
    from polku.rules.system import CHOICES, allowed_text

    lines = [_("settings (--set KEY=VALUE, repeatable; each explained in docs/rules.md):")]
    for c in CHOICES:
        if c.key.startswith(prefix):
            default = str(c.default).lower() if isinstance(c.default, bool) else str(c.default)
            lines.append(f"  {c.key:<21} " + _("{allowed}; default {default} ({rule})", allowed=retell(allowed_text(c)),
                                                   default=default, rule=c.rule))
    return "\n".join(lines)


def set_flag(p: argparse.ArgumentParser) -> None:
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", dest="settings",
                   help=N_("a rule setting (repeatable; the settings are listed below, explained in docs/rules.md)"))


def sub(parent: argparse._SubParsersAction[Parser], name: str, aliases: Sequence[str], help_: str, description: str, epilog: str) -> Parser:
    return parent.add_parser(name, aliases=list(aliases), help=help_, description=description,
                             epilog=epilog, formatter_class=argparse.RawDescriptionHelpFormatter)


def difficult_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument("--difficult", action="store_true",
                   help=N_("a difficult action: the actor needs a die of 7+ in the same roll (H8)"))
    p.add_argument("--very-demanding", action="store_true",
                   help=N_("a very demanding action: two dice of 7+ (H8)"))


def sr_edge_before_odds_flag(p: argparse.ArgumentParser, side: str) -> None:
    """``--edge-before E`` for ``odds``, as ``roll`` and ``resolve`` read it: +E dice, rule of six.

    Written bare (the older spelling, kept working), the pool given already includes the Edge dice.
    """
    who = "B" if side else "A"
    p.add_argument(f"--{side}edge-before", type=whole_arg(EDGE_RATING, 1, EDGE_MAX, flag=f"--{side}edge-before"),
                   nargs="?", const=0, default=None, metavar="E",
                   help=N_("B spent Edge before the roll, E = Edge rating: +E dice, rule of six (S7); bare, the pool "
                           "given already includes the Edge dice") if who == "B" else
                   N_("A spent Edge before the roll, E = Edge rating: +E dice, rule of six (S7); bare, the pool given "
                      "already includes the Edge dice"))


def raja_wound_flags(p: argparse.ArgumentParser) -> None:
    """--wound / --b-wound: each side's R9 wound level in spirit combat (raja.spirit_wounds)."""
    for flag, text in (("--wound", N_("spirit combat: side A's wound level (R9), e.g. 'Badly wounded'; it costs dice "
                                      "as raja.spirit_wounds and raja.wound_penalty say")),
                       ("--b-wound", N_("spirit combat: side B's wound level (R9), e.g. 'Badly wounded'; it costs "
                                        "dice as raja.spirit_wounds and raja.wound_penalty say"))):
        p.add_argument(flag, metavar="LEVEL", default=None, help=text)


def raja_wound_penalties(args: argparse.Namespace) -> tuple[int, int]:
    """The R9 penalties in dice of --wound and --b-wound (0 when not given)."""
    from polku.rules.system import RAJA_WOUND_LEVELS, RAJA_WOUND_PENALTY, raja_wound_level

    given = cast("WoundArgs", args)
    out = []
    for flag, value in (("--wound", given.wound), ("--b-wound", given.b_wound)):
        if value is None:
            out.append(0)
            continue
        level = raja_wound_level(str(value))  # R9's English name or the rule text's Finnish one
        if level is None:
            from polku.text import wound_label

            raise CliError(_("{flag}: unknown wound level '{value}' (use one of: {levels})", flag=flag,
                             value=quoted(value), levels=", ".join(wound_label(w) for w in RAJA_WOUND_LEVELS)))
        out.append(RAJA_WOUND_PENALTY[level])
    return out[0], out[1]


def sr_edge_flags(p: argparse.ArgumentParser, side: str) -> None:
    before = (N_("side B spent Edge before the roll, E = Edge rating: +E dice, rule of six (S7)") if side else
              N_("side A spent Edge before the roll, E = Edge rating: +E dice, rule of six (S7)"))
    after = (N_("side B spent Edge after the roll: +E dice at the end, rule of six on them (S7)") if side else
             N_("side A spent Edge after the roll: +E dice at the end, rule of six on them (S7)"))
    p.add_argument(f"--{side}edge-before", type=whole_arg(EDGE_RATING, 1, EDGE_MAX, flag=f"--{side}edge-before"),
                   metavar="E", help=before)
    p.add_argument(f"--{side}edge-after", type=whole_arg(EDGE_RATING, 1, EDGE_MAX, flag=f"--{side}edge-after"),
                   metavar="E", help=after)


def finish(p: argparse.ArgumentParser, handler: Callable[[argparse.Namespace], int]) -> None:
    """What ends every system's subparser: --set, --json and the handler."""
    set_flag(p)
    json_flag(p)
    p.set_defaults(handler=handler)


def json_flag(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help=N_("print JSON instead of the explanation"))


# --------------------------------------------------------------------------- parsing input


def quoted(text: object) -> str:
    t = str(text)
    return t if len(t) <= 40 else t[:39] + "…"


def whole_number(text: object, what: str, lo: int, hi: int, **values: object) -> int:
    """A whole number written in ASCII digits, within ``lo`` … ``hi``, or a one-line CliError.

    ``what`` names the number: a flag (``"--seed"``, shown as it is) or a whole label marked ``N_`` with its
    placeholders filled from ``values`` (``N_("{flag} (the Edge rating)")``, ``flag="--edge"``), translated whole.
    ``int()`` alone would read fullwidth and Arabic-Indic digits, underscores,
    and a 5,000-digit count (then take minutes rolling it).
    """
    return whole_number_named(text, _(what, **values), lo, hi)


def whole_number_named(text: object, what: str, lo: int, hi: int) -> int:
    """:func:`whole_number` with ``what`` already in the reader's language (a label made by the caller)."""
    t = str(text).strip()
    if not re.fullmatch(r"[+-]?[0-9]+", t):
        raise CliError(_("{what}: '{text}' is not a whole number (write it with the digits 0-9)", what=what,
                         text=quoted(text)))
    digits = t.lstrip("+-").lstrip("0")
    if len(digits) > len(str(max(abs(lo), abs(hi)))):
        n = None
    else:
        n = int(t)
    if n is None or not lo <= n <= hi:
        if n is not None and n < 0 <= lo:
            raise CliError(_("{what}: cannot be negative ({n})", what=what, n=n))
        raise CliError(_("{what}: {text} is out of range (from {lo} to {hi})", what=what, text=quoted(t), lo=lo, hi=hi))
    return n


def whole_arg(what: str, lo: int, hi: int, **values: object) -> Callable[[str], int]:
    """An argparse ``type=`` for :func:`whole_number` (``what`` and ``values`` as there)."""
    def parse(text: str) -> int:
        return whole_number(text, what, lo, hi, **values)

    parse.__name__ = "whole number"
    return parse


def seconds(text: str) -> float:
    """``--interval``: decimal seconds in ASCII digits, from 0.05 to 60."""
    t = str(text).strip()
    if not re.fullmatch(r"[0-9]{1,3}(?:\.[0-9]{0,6})?|\.[0-9]{1,6}", t):
        raise CliError(_("--interval: '{text}' is not a number of seconds (e.g. 0.3)", text=quoted(text)))
    value = float(t)
    if not 0.05 <= value <= 60:
        raise CliError(_("--interval: {t} seconds is out of range (from 0.05 to 60)", t=t))
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

INTERVALS_DEFAULT = 20
"""``--intervals`` when not given, the same in ``roll`` (roll at most K) and ``odds`` (finish within K)."""


def emit_json(data: dict[str, Any]) -> None:
    import json  # here: the app's start never needs it

    print(json.dumps(data, indent=2))


def emit_lines(lines: Sequence[str]) -> None:
    for line in lines:
        print(line)


SYSTEM_PREFIX = {"rajapolku": "raja.", "harhapolku": "harha.", "shadowrun": "sr."}


def settings_from_args(args: argparse.Namespace, system: str) -> tuple[Settings, set[str]]:
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
            raise CliError(_("setting '{key}' is not a {system} setting (its settings: {own})", key=key, system=system,
                             own=own))
        settings = settings.with_value(key, value)
        given.add(key)
    return settings, given


def settings_json(settings: Settings, system: str) -> dict[str, Any]:
    prefix = SYSTEM_PREFIX[system]
    return {k: v for k, v in settings.to_dotted().items() if k.startswith(prefix)}


def harha_settings(args: argparse.Namespace) -> Settings:
    """Settings with ``--variant`` folded in; a --variant that contradicts --set is refused."""
    settings, given = settings_from_args(args, "harhapolku")
    variant = cast("HarhaArgs", args).variant
    if variant is not None:
        if "harha.variant" in given and settings.harha_variant != variant:
            raise CliError(_("--variant {variant} and --set harha.variant={set} disagree", variant=variant,
                             set=settings.harha_variant))
        settings = settings.with_value("harha.variant", variant)
    return settings


def h8_demand(args: argparse.Namespace) -> int:
    """H8: 0 for an ordinary comparison, 1 difficult, 2 very demanding."""
    flags = cast("HarhaArgs", args)
    return 2 if flags.very_demanding else 1 if flags.difficult else 0


# --------------------------------------------------------------------------- resolve


def emit(args: argparse.Namespace, out: dict[str, Any], lines: Sequence[str]) -> int:
    if cast("JsonArgs", args).json:
        emit_json(out)
    else:
        emit_lines(lines)
    return 0


def check_threshold(threshold: int | None) -> None:
    if threshold is not None and threshold < 1:
        raise CliError(_("--threshold must be 1 or more, not {threshold}", threshold=threshold))


def check_rating(flag: str, value: int | None) -> None:
    if value is not None and not 1 <= value <= EDGE_MAX:
        raise CliError(_("{flag} is the Edge rating, 1 to {max}, not {value}", flag=flag, max=EDGE_MAX, value=value))


def load_read_only(file: str) -> tuple[Tracker, list[str]]:
    """Load a session file read-only (no lock, no write); errors become one line."""
    from pathlib import Path

    from polku.session.files import SessionOpenError, load_tracker

    try:
        tracker, notices = load_tracker(Path(file), read_only=True)
    except SessionOpenError as exc:
        raise CliError(str(exc)) from None
    return tracker, notices


def load_players(file: str) -> tuple[Tracker, dict[str, list[dict[str, object]]]]:
    """The players' view of a session from the players' file beside it (never the session file itself:
    the players' account need not read it); errors become one line."""
    from polku.session.players.players_file import PlayersError
    from polku.session.players.players_file import load_players as load

    try:
        return load(file)
    except PlayersError as exc:
        from polku.i18n import told_error

        raise CliError(told_error(exc)) from None


def follow_players(file: str) -> Follower:
    """A follower of the players' file beside a session, read once (the view starts from this reading: a
    long session's file is read whole once, not twice); errors become one line."""
    from pathlib import Path as _Path

    from polku.session.players.players_file import Follower

    follower = Follower(_Path(file))
    follower.reload()
    if follower.view is None or follower.problem is not None:
        load_players(file)  # says why, in one line
        raise CliError(follower.problem or _("cannot read the players' file of {file}", file=file))
    return follower


def print_notices(notices: list[str]) -> None:
    """What the loader noticed (a repaired tail, an old format), one line each on standard error."""
    for note in notices:
        print(_("{prog}: note: {note}", prog=PROG, note=" ".join(note.split())), file=sys.stderr)


def needs_terminal(verb: str) -> None:
    """The full-screen verbs refuse to run without a terminal (they would hang and write escape codes)."""
    import os

    served = bool(os.environ.get("TEXTUAL_DRIVER"))  # textual-serve runs the app without a terminal
    if not served and not (sys.stdin.isatty() and sys.stdout.isatty()):
        if verb == "play":
            raise CliError(_("{verb} needs a terminal; connect with 'ssh -t HOST polku {verb} FILE --as NAME'", verb=verb))
        if verb == "review":
            raise CliError(_("{verb} needs a terminal; connect with 'ssh -t HOST polku {verb} FILE', or write a report "
                             "with 'polku export FILE'", verb=verb))
        raise CliError(_("{verb} needs a terminal; connect with 'ssh -t HOST polku {verb} FILE'", verb=verb))


def run_app(path: Path | None, *, read_only: bool, seed: int | None, new: bool = False) -> int:
    """Start the full-screen app (the one place the CLI imports textual); ``new``: on the new-campaign form."""
    from polku.tui.run import run_app as run

    return int(run(path, read_only=read_only, seed=seed, new=new) or 0)
