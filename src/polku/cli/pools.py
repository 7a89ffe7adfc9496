"""Reading what the user typed: faces already rolled, and pools to roll."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from polku.cli.common import (
    MAX_POOL,
    CliError,
    quoted,
    whole_number,
    whole_number_named,
)
from polku.i18n import N_, _

if TYPE_CHECKING:
    from polku.rules.dice import Die


Place = tuple[str, "int | str"]
"""Where a refusal points: ``("side", "A")``, ``("helper", 2)``, ``("interval", 3)``."""


def at_place(place: Place | None, problem: str) -> str:
    """``problem`` (a whole line in the reader's language) said of one side, helper or interval: one message per
    kind of place, the place and the problem in it as placeholders, never a label glued onto the line."""
    if place is None:
        return problem
    kind, n = place
    if kind == "helper":
        return _("helper {n}: {problem}", n=n, problem=problem)
    if kind == "interval":
        return _("interval {n}: {problem}", n=n, problem=problem)
    return _("side {side}: {problem}", side=n, problem=problem)


def count_arg(text: str, what: str) -> int:
    """A pool's count; ``what`` names the pool in the reader's language (a whole label, made by the caller)."""
    t = str(text).strip()
    if t.startswith("-") and re.fullmatch(r"-[0-9]+", t):
        raise CliError(_("{what}: a pool cannot be negative ({text})", what=what, text=quoted(t)))
    return whole_number_named(t, what, 0, MAX_POOL)


def raja_faces(text: str, side: str) -> tuple[Die, ...]:
    from polku.rules.dice import parse_faces

    try:
        return parse_faces(text, 10, allow_ability=True)
    except ValueError as exc:
        raise CliError(_("side {side}: {problem}", side=side, problem=str(exc))) from None


def sr_faces(text: str, place: Place | None = None) -> tuple[Die, ...]:
    from polku.rules.dice import parse_faces

    try:
        return parse_faces(text, 6)
    except ValueError as exc:
        raise CliError(at_place(place, str(exc))) from None


_SIZED = re.compile(r"^(?:d?([0-9]{1,4})\s*:)?\s*(.*)$", re.IGNORECASE)


NO_DICE = ("-", "none")
"""How a side with no dice at all is written (H4: a pool of 0 dice is valid and fails)."""


def parse_harha_faces(text: str | None, side: str = "A") -> tuple[Die, ...]:
    """Harhapolku faces: bare 1-8 → d8, 9-10 → d10; ``d10:7`` / ``10:7`` give the size.

    ``-`` (or ``none``) is a side with no dice at all (H4: an actor who cannot
    roll a single die fails).
    """
    from polku.rules.dice import Die, Src, check_face, typed_face

    if text is not None and str(text).strip().lower() in NO_DICE:
        return ()
    if text is None or not str(text).strip():
        raise CliError(_("side {side}: no faces given (write them comma-separated, e.g. 7,4,4, or - for no dice at all)", side=side))
    dice = []
    for raw in str(text).split(","):
        item = raw.strip()
        if not item:
            raise CliError(_("side {side}: empty face in '{text}' (write them comma-separated, e.g. 7,4,4)", side=side, text=text))
        m = _SIZED.match(item)
        assert m is not None
        size_txt, face_txt = m.group(1), m.group(2).strip()
        if ":" in item and size_txt is None:
            raise CliError(_("side {side}: '{item}': write the size as d8:7 or d10:7", side=side, item=quoted(item)))
        if not re.fullmatch(r"[0-9]{1,4}", face_txt):
            raise CliError(_("side {side}: '{item}' is not a face (a whole number, 1-8 on a d8, 1-10 on a d10)", side=side, item=quoted(item)))
        face = int(face_txt)
        if size_txt is None:
            size = 8 if 1 <= face <= 8 else 10  # a bare 0 is a d10's 10 (no d8 shows 0)
        else:
            size = int(size_txt)
            if size not in (8, 10):
                raise CliError(_("side {side}: '{item}': Harhapolku uses d8s and d10s, not a d{size}", side=side, item=item, size=size))
        face = typed_face(face, size)
        if face == 0:
            raise CliError(_("side {side}: face 0 cannot show on a d{size} (1–{size}; only a d10's 0 means 10)", side=side, size=size))
        try:
            check_face(face, size)
        except ValueError as exc:
            raise CliError(_("side {side}: {problem}", side=side, problem=str(exc))) from None
        dice.append(Die(size, face, Src.DIE))
    return tuple(dice)


def parse_raja_pool(text: str, side: str) -> tuple[int, int]:
    """Rajapolku pool ``"3"`` or ``"3+1*"`` → (ordinary d10s, ability d10s)."""
    t = str(text).strip().replace(" ", "")
    m = re.fullmatch(r"([0-9]{1,4})?(?:\+?([0-9]{1,4})\*)?", t)
    if not t or m is None or (m.group(1) is None and m.group(2) is None):
        if t.startswith("-"):
            raise CliError(_("side {side}: a pool cannot be negative ('{text}')", side=side, text=quoted(text)))
        if re.fullmatch(r"[0-9]+(?:\+?[0-9]+\*)?", t):
            raise CliError(_("side {side}: '{text}' is more dice than this tracker rolls ({max})", side=side, text=quoted(text), max=MAX_POOL))
        raise CliError(_("side {side}: '{text}' is not a Rajapolku pool (write 3, or 3+1* for one ability die)", side=side, text=quoted(text)))
    if m.group(1) is None and t[0] == "+":
        raise CliError(_("side {side}: '{text}' is not a Rajapolku pool (write 3, or 3+1* for one ability die)", side=side, text=quoted(text)))
    normal = int(m.group(1) or 0)
    ability = int(m.group(2) or 0)
    if normal + ability < 1:
        raise CliError(_("side {side}: a Rajapolku pool has at least the action die (R1)", side=side))
    if normal + ability > 200:
        raise CliError(_("side {side}: {n} dice is more than this tracker rolls (200)", side=side, n=normal + ability))
    return normal, ability


def parse_harha_pool(text: str, side: str) -> tuple[int, int]:
    """Harhapolku pool ``"2d8+1d10"`` (or ``"d8+d10"``, or ``"3"`` = 3d8) → (d8s, d10s)."""
    t = str(text).strip().lower().replace(" ", "")
    bad = CliError(_("side {side}: '{text}' is not a Harhapolku pool (write e.g. 2d8+1d10)", side=side, text=quoted(text)))
    if not t:
        raise bad
    if t.startswith("-"):
        raise CliError(_("side {side}: a pool cannot be negative ('{text}')", side=side, text=text))
    if re.fullmatch(r"[0-9]+", t):
        n8, n10 = whole_number(t, N_("side {side}"), 0, MAX_POOL, side=side), 0
    else:
        n8 = n10 = 0
        for term in t.split("+"):
            m = re.fullmatch(r"([0-9]{0,4})d([0-9]{1,4})", term)
            if m is None:
                if re.fullmatch(r"[0-9]*d[0-9]+", term):
                    raise CliError(_("side {side}: '{term}' is more dice than this tracker rolls ({max})", side=side, term=quoted(term), max=MAX_POOL))
                raise bad
            n = int(m.group(1)) if m.group(1) else 1
            size = int(m.group(2))
            if size == 8:
                n8 += n
            elif size == 10:
                n10 += n
            else:
                raise CliError(_("side {side}: Harhapolku uses d8s and d10s, not a d{size}", side=side, size=size))
    if n8 + n10 > 200:
        raise CliError(_("side {side}: {n} dice is more than this tracker rolls (200)", side=side, n=n8 + n10))
    return n8, n10


def sr_pool(text: str, side: str = "", *, what: str = "") -> int:
    """A Shadowrun pool's dice; a refusal names side ``side``'s pool, or ``what`` (a whole label marked ``N_``:
    ``N_("a helper's pool")``), or the pool."""
    t = str(text).strip()
    if re.fullmatch(r"[0-9]+", t) and (len(t.lstrip("0")) > 3 or int(t) > MAX_POOL):
        raise CliError(_("{text} dice is more than this tracker rolls ({max})", text=quoted(t), max=MAX_POOL))
    return count_arg(text, _(what) if what else _("side {side} pool", side=side) if side else _("pool"))


# --------------------------------------------------------------------------- output


def pool_list(text: str | None, what: str) -> list[int]:
    """Comma-separated pools (``--helpers``, ``--group``); ``what`` names one of them, marked ``N_``."""
    if text is None:
        return []
    return [sr_pool(part, what=what) for part in str(text).split(",")]
