"""The plain text Polku shows, written once for every front end: counts that agree with
their noun, dice faces, bars, and the words for a Rajapolku outcome.

The command line, the session report (export), the dice log and the app's screens all
word these the same way by calling here. This module is below every layer (it imports
nothing of Polku, and reads a result by its attributes), so the rules core can use it too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .i18n import N_, _, decimal

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

_IRREGULAR = {"die": "dice", "entry": "entries", "box": "boxes", "pass": "passes"}


def plural(n: int, noun: str, many: str | None = None) -> str:
    """``1 event``, ``2 events``, ``1 die``, ``3 dice``, ``0 charges``.

    Args:
        n: the count.
        noun: the singular.
        many: the plural, when it is neither ``noun + "s"`` nor a known irregular one.
    """
    if n == 1 or n == -1:
        return f"{n} {noun}"
    return f"{n} {many or _IRREGULAR.get(noun, noun + 's')}"


# -- dice -----------------------------------------------------------------------------

ABILITY_MARK = "✦"
"""Before an ability die's face (R7): told apart by the glyph as well as by colour."""

SOURCE_MARK = {"background": "ᵇ", "condition": "ᶜ", "ability": ABILITY_MARK, "edge": "ᵉ", "gm": "ᵍ",
               "helper": "ʰ", "exploded": "!"}
"""What marks a die's source beside its face (the ability mark goes before it); other sources
(action, die, charge, skill, attribute, modifier) have none."""

REROLLED_MARK = "↻"


NAMED_SOURCES = ("background", "condition")
"""Sources whose mark only says "a named thing gave this die": left out where the name is written."""


def die_text(face: int, source: str = "die", *, size: int | None = None, replaced: bool = False,
             named: bool = False) -> str:
    """One die as the log, the report and the roll screens show it: ``7``, ``✦7``, ``6!``,
    ``4ᵉ``, ``7/d10`` (with ``size``, where sizes differ), ``3↻`` (rerolled).

    ``named``: the caller writes the die's label beside it (the report), so a background or
    condition die needs no mark of its own.
    """
    body = f"{face}/d{size}" if size is not None else f"{face}"
    if source == "ability":
        body = f"{ABILITY_MARK}{body}"
    elif not (named and source in NAMED_SOURCES):
        body += SOURCE_MARK.get(source, "")
    return body + REROLLED_MARK if replaced else body


def logged_die_text(d: Any, system: str, *, replaced: bool = True, named: bool = False) -> str:
    """A die of a logged roll (``{face, size, source, replaced}``): its size is shown in
    Harhapolku (d8s and d10s mix) and for an unusual die anywhere."""
    size = d["size"]
    shown = size if system == "harhapolku" or size not in (6, 10) else None
    return die_text(d["face"], d.get("source", "die"), size=shown, replaced=replaced and bool(d.get("replaced")),
                    named=named)


def die_typed(face: int, ability: bool = False) -> str:
    """One die as it is typed on the command line: ``7``, or ``8*`` for an ability die (R7)."""
    return f"{face}*" if ability else str(face)


# -- bars -----------------------------------------------------------------------------

EIGHTHS = " ▏▎▍▌▋▊▉"


def bar(value: float, top: float, width: int) -> str:
    """A horizontal bar of ``value`` out of ``top`` in ``width`` cells, eighths of a cell included."""
    if top <= 0 or value <= 0:
        return ""
    cells = min(value / top, 1.0) * width
    full = int(cells)
    part = int(round((cells - full) * 8))
    if part == 8:
        full, part = full + 1, 0
    return "█" * full + (EIGHTHS[part] if part else "")


def split_cells(shares: Sequence[float], width: int) -> list[int]:
    """How many of ``width`` cells each share of a whole (probabilities summing to 1) gets;
    the last takes what is left, so the cells always add up to ``width``."""
    out: list[int] = []
    used = 0
    for i, p in enumerate(shares):
        n = round(p * width) if i < len(shares) - 1 else max(0, width - used)
        n = max(0, min(width - used, n))
        out.append(n)
        used += n
    return out


def split_bar(shares: Sequence[tuple[float, str]], width: int) -> str:
    """``███░░░``: each (probability, glyph) share of ``width`` cells."""
    cells = split_cells([p for p, _ in shares], width)
    return "".join(glyph * n for (_, glyph), n in zip(shares, cells))


# -- outcomes -------------------------------------------------------------------------


def glitch_text(hits: int, critical: bool = False, *, loud: bool = False, severity: str = "") -> str:
    """A glitch worded with its hits beside it, so the GM can size it (S5: with many hits a small
    embarrassment on the way to success, with one hit a serious one; S6: none, critical).

    ``severity`` is the rules core's size of the glitch (``rules.shadowrun.glitch_severity``:
    "minor", "serious" or "" for an ordinary one); this module only words it.

    ``glitch (3 hits)``, ``serious glitch (1 hit)``, ``MINOR GLITCH (6 hits)`` with ``loud``,
    ``critical glitch (0 hits)``.
    """
    word = "critical glitch" if critical else f"{severity} glitch" if severity in ("minor", "serious") else "glitch"
    return f"{word.upper() if loud else word} ({plural(hits, 'hit')})"


def raja_outcome(result: Any, a: str, b: str) -> str:
    """A Rajapolku result (R5-R7) in a few words, with the sides' names.

    ``Aino wins, 2 degrees, 1 supernatural (visibly!)``, ``Aino wins narrowly (0 degrees)``,
    ``tie — both reroll (R5)`` or ``tie — B holds (R5)``.
    """
    if result.winner == "tie":
        return "tie — both reroll (R5)" if result.tie_action == "reroll" else f"tie — {b} holds (R5)"
    name = a if result.winner == "a" else b
    extra = ""
    if result.supernatural:
        extra = f", {result.supernatural} supernatural"
        if result.deciding_die_is_ability:
            extra += " (visibly!)"
    if not result.degrees:
        return f"{name} wins narrowly (0 degrees){extra}"
    return f"{name} wins, {plural(result.degrees, 'degree')}{extra}"


def dice_origin(roll: Any, *, short: bool = False) -> str:
    """Where a logged roll's dice came from: the program's (its seed), typed in by hand, or both.

    Args:
        roll: a roll event's ``roll`` table (``manual``, ``hand``: the sides typed in, ``seed``).
        short: the few words of a report line instead of the dice log's details.
    """
    hand = roll.get("hand") if roll.get("manual") else None
    if isinstance(hand, list) and hand:
        sides = ", ".join(str(h).upper() for h in hand)
        if short:
            return _("side {sides} entered by hand, the other program dice", sides=sides)
        return _("side {sides} entered by hand from physical dice, the other program dice, seed {seed}", sides=sides,
                 seed=roll.get("seed", "?"))
    if roll.get("manual"):
        return _("dice entered by hand") if short else _("entered by hand from physical dice")
    return _("program dice") if short else _("program dice, seed {seed}", seed=roll.get("seed", "?"))


def percent(p: float, digits: int = 1) -> str:
    """A chance as the GM reads it: ``42.3%`` (in Finnish ``42,3%``: the language's decimal sign; the sign stays
    next to its number, as the odds lines' columns are as wide in both languages); ``> 99.9%`` / ``< 0.1%`` when
    it only rounds to 100% / 0%.

    Only a certain outcome reads ``100%`` and only an impossible one ``0%``, so a
    chance that is merely close to 1 never looks like a sure thing.

    Args:
        p: the probability, 0–1.
        digits: decimals shown.
    """
    if p >= 1 - 1e-12:
        return "100%"
    if p <= 1e-12:
        return "0%"
    step = 10.0 ** -digits
    shown = round(p * 100, digits)
    if shown >= 100:
        return f"> {decimal(100 - step, digits)}%"
    if shown <= 0:
        return f"< {decimal(step, digits)}%"
    return f"{decimal(p * 100, digits)}%"


__all__ = ["ABILITY_MARK", "SOURCE_MARK", "bar", "die_text", "die_typed", "logged_die_text", "percent", "plural",
           "raja_outcome", "split_bar", "split_cells"]


# -- built-in labels ------------------------------------------------------------------

WOUND_LEVEL_WORDS = (N_("Healthy"), N_("Bruised"), N_("Wounded"), N_("Badly wounded"), N_("Mortally wounded"),
                     N_("Out of play"), N_("Dead"))
"""R9's levels as Polku names them (``rules.system.RAJA_WOUND_LEVELS``), marked for the catalogue."""

KIND_WORDS = {"pc": N_("PC"), "npc": N_("NPC"), "opposition": N_("opposition")}
"""A character's kind (``session.model.CHARACTER_KINDS``) in words."""


BUILTIN_WORDS = frozenset({
    # a die's label from the rules (rules.rajapolku, rules.harhapolku)
    N_("action"), N_("always"), N_("charge"), N_("harm"),
    # Harhapolku's background tiers (session.model.HARHA_TIER_LABELS)
    N_("general"), N_("background"), N_("significant"), N_("special"), N_("significant special"),
    # how often an ability costs (session.model.ABILITY_PER)
    N_("use"), N_("scene"),
    # Varjojuoksu's attributes (session.model.SR_ATTRIBUTES)
    N_("body"), N_("agility"), N_("reaction"), N_("strength"), N_("charisma"), N_("intuition"), N_("logic"),
    N_("willpower"),
})
"""Words Polku gives a die, a tier or an attribute: translated where shown (a GM's own word is not)."""


def builtin_label(word: str) -> str:
    """One of :data:`BUILTIN_WORDS` in the language in use; anything else (a name the GM wrote) as written."""
    return _(word) if word in BUILTIN_WORDS else word


def wound_label(level: str) -> str:
    """A wound level in the language in use: R9's own names translated, a campaign's own name as written."""
    return _(level) if level in WOUND_LEVEL_WORDS else level


def kind_label(kind: str) -> str:
    """``npc`` → ``NPC`` (``SH`` in Finnish: sivuhahmo)."""
    word = KIND_WORDS.get(kind)
    return _(word) if word is not None else kind
