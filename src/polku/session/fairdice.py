"""Program dice anyone can check afterwards: a committed secret per game session.

How a roll's faces come about (docs/verifiable-dice.md says the same for
someone reimplementing it):

1. At the start of a game session the GM's app draws a *dice secret*: 32
   random bytes (``os.urandom``), kept in the session file as 64 lowercase hex
   digits. The players' views show only its *commitment*,
   ``SHA-256(secret bytes)`` in hex, from before the first roll on.
2. Program rolls are numbered 1, 2, 3… per secret. Roll number ``n`` gets the
   seed ``int.from_bytes(HMAC-SHA256(key=secret bytes, msg=ASCII decimal n)[:4], "big")``
   (the first four bytes of the MAC, big-endian: a number below 2**32).
3. That seed seeds Python's ``random.Random`` (Mersenne Twister, ``init_by_array``
   of the seed's 32-bit words) and each die of ``size`` sides takes
   ``randint(1, size)``, in the order the roll throws its dice (the order a
   GM enters physical faces). The roll's log entry keeps the number
   (``roll_no``), which secret (``dice_key``), the seed and every draw as
   ``"size:face"`` (``draws``).
4. When the session ends (a new session starts) or the GM chooses, the secret
   is revealed in the file and the views, and a new one is committed for the
   rolls after. ``polku verify FILE`` then recomputes every roll.

Undoing a roll gives its number back: the next roll takes the same number,
so the same seed — undo cannot fish for better dice with the same pool.

No textual.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from collections.abc import Callable
from typing import cast

from ..rules.dice import DiceSource, RandomSource

SECRET_BYTES = 32


class NeedDiceKey(Exception):
    """Raised by a program source when no committed secret exists yet (an old file)."""


def new_secret(seed: int | None = None, key: int = 1) -> str:
    """A fresh secret as hex; with ``seed`` (tests, ``--seed``) a reproducible, *guessable* one."""
    if seed is None:
        return os.urandom(SECRET_BYTES).hex()
    return hashlib.sha256(f"polku fixed seed {seed} dice key {key}".encode("ascii")).hexdigest()


def _secret_bytes(secret_hex: str) -> bytes:
    try:
        raw = bytes.fromhex(secret_hex)
    except (TypeError, ValueError):
        raise ValueError("a dice secret is 64 hex digits") from None
    if len(raw) != SECRET_BYTES:
        raise ValueError("a dice secret is 64 hex digits")
    return raw


def commitment(secret_hex: str) -> str:
    """SHA-256 of the secret's bytes, in hex: what the players see before the rolls."""
    return hashlib.sha256(_secret_bytes(secret_hex)).hexdigest()


def roll_seed(secret_hex: str, n: int) -> int:
    """The seed of program roll number ``n`` (1, 2, …) made with this secret."""
    mac = hmac.new(_secret_bytes(secret_hex), str(n).encode("ascii"), hashlib.sha256).digest()
    return int.from_bytes(mac[:4], "big")


def replay_draws(seed: int, sizes: list[int]) -> list[int]:
    """The faces ``seed`` gives dice of these sizes, in order."""
    src = RandomSource(seed)
    return [src.roll(s) for s in sizes]


def parse_draw(text: object) -> tuple[int, int]:
    """``"6:5"`` → (6, 5); ValueError for anything else."""
    if not isinstance(text, str) or text.count(":") != 1:
        raise ValueError(f"draw {text!r} is not size:face")
    a, b = text.split(":")
    if not (a.isascii() and a.isdigit() and b.isascii() and b.isdigit()):
        raise ValueError(f"draw {text!r} is not size:face")
    return int(a), int(b)


def _draws_of(origin: dict[str, object]) -> list[str]:
    """The roll's ``draws`` list in its log fields, made there if it is not yet."""
    draws = origin.get("draws")
    if not isinstance(draws, list):
        draws = origin["draws"] = []
    return cast("list[str]", draws)  # only a source of this module appends to it: "size:face" texts


class ProgramSource(DiceSource):
    """The program's dice for one roll: its number and seed are taken at the first die.

    A command that throws no die (opening a narration contest) takes no number.
    ``origin`` is the roll's log fields; the seed, number and key are written into
    it at the first die and every draw is appended to its ``draws``.
    """

    manual = False

    def __init__(self, allocate: Callable[[], tuple[int, int, int]], origin: dict[str, object]) -> None:
        self._allocate = allocate
        self._rng: RandomSource | None = None
        self.origin = origin
        self.draws = _draws_of(origin)

    def roll(self, size: int) -> int:
        if self._rng is None:
            key, n, seed = self._allocate()
            self.origin.update(seed=seed, dice_key=key, roll_no=n)
            self._rng = RandomSource(seed)
        face = self._rng.roll(size)
        self.draws.append(f"{size}:{face}")
        return face


class FixedSeedSource(DiceSource):
    """The program's dice from a fixed test seed (a demo, ``polku --seed``): reproducible, and
    therefore no proof of fairness. Each draw is logged like a committed roll's, so
    ``polku verify`` can still check that the dice shown are the ones the seed gives."""

    manual = False

    def __init__(self, seed: int, origin: dict[str, object]) -> None:
        self._rng = RandomSource(seed)
        origin.update(seed=seed, fixed_seed=True)
        self.draws = _draws_of(origin)

    def roll(self, size: int) -> int:
        face = self._rng.roll(size)
        self.draws.append(f"{size}:{face}")
        return face


__all__ = ["FixedSeedSource", "NeedDiceKey", "ProgramSource", "commitment", "new_secret", "parse_draw", "replay_draws", "roll_seed"]
