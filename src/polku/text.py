"""Small helpers for the words Polku shows: counts that agree with their noun."""

from __future__ import annotations

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


__all__ = ["plural"]
