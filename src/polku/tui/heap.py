"""Keeping a long session's objects out of the garbage collector's full passes.

A 10,000-event session is some 190,000 objects that live as long as the app;
every full collection of the cyclic garbage collector walks them all (140 ms at
a time, 380 ms on a loaded machine, at random moments: a roll shown late, a key
answered late, a players' file written late). Frozen (:func:`gc.freeze`), they
are skipped; what a later reading drops is still freed by reference counting.
"""

from __future__ import annotations

import gc


def settle_heap() -> None:
    """After reading a whole session: collect once, then leave what is alive out of later collections
    (the next call unfreezes and collects before freezing again)."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()


def freeze_heap() -> None:
    """Leave what is alive now out of later collections, without a collection first (no pause: after a
    whole reading that replaced an earlier one, whose objects reference counting frees)."""
    gc.freeze()


__all__ = ["freeze_heap", "settle_heap"]
