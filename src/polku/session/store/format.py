"""The text of a session file: the header line, the ``[state]`` table and ``[[event]]`` blocks with end marks."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from datetime import datetime, timezone
from typing import Any

import tomli_w

from ... import __version__
from ...i18n import N_, said
from ..model import Event
from .errors import StoreError, cut
from .events import EventLog

SCHEMA = 2
"""The schema this version writes and reads (older ones are migrated)."""

APP = f"polku {__version__}"

HEADER = (
    "# Polku session file. Each [[event]] block ends with its '# end of event N' line;"
    " keep those lines when editing.\n"
)
"""First line of every file :func:`write_full` writes; it switches on the end-mark check."""

HEADER_BYTES = HEADER.encode("utf-8")

COMMENT_AREA_MAX = 64 * 1024
"""How much of the top of a file is searched for the GM's own comments."""

EVENT_HEADER = re.compile(rb"^\[\[event\]\][ \t]*\r?$", re.MULTILINE)
END_MARK = re.compile(r"^# end of event (-?\d+)[ \t]*\r?$")


def check_seq(ev: Any, where: str) -> int:
    if not isinstance(ev, dict):
        raise StoreError(said(N_("{where}: an event must be a table, not {found}"), where=where, found=type(ev).__name__))
    seq = ev.get("seq")
    if not isinstance(seq, int) or isinstance(seq, bool):
        raise StoreError(cut(said(N_("{where}: every event needs a whole-number 'seq' (found {found})"), where=where,
                                 found=repr(seq)), 300))
    return seq


def dumps(data: dict[str, Any], where: str) -> str:
    try:
        return tomli_w.dumps(data)
    except (TypeError, ValueError) as e:
        raise StoreError(said(N_("could not save {where}: {error} (TOML has no null; use \"\" or leave the key out)"),
                              where=where, error=str(e))) from None


def event_block(ev: Event, where: str) -> str:
    seq = check_seq(ev, where)
    # tomli_w writes a list of short tables inline (``event = [{…}]``), which
    # cannot be appended to; render the event as the table ``[event]`` (its
    # sub-tables become ``[event.x]``) and turn the header into ``[[event]]``.
    text = dumps({"event": ev}, where)
    if not text.startswith("[event]\n"):  # a plain check, not an assert: it must hold under -O too
        raise StoreError(said(N_("could not save {where}: event {seq} did not render as a table"), where=where, seq=seq))
    return "\n" + text[:-1].replace("[event]", "[[event]]", 1) + f"\n# end of event {seq}\n"


def kept_comments(path: str | os.PathLike[str]) -> list[str]:
    """The GM's own comment lines at the top of a session file, which a full rewrite keeps.

    The top of the file, from its first line to ``[state]``, is the place for
    hand-written notes (``# the Nurse's name is Aino``): the writer puts every
    comment line found there back under :data:`HEADER`. Comments inside an
    ``[[event]]`` block are kept too (the blocks are copied as they are);
    ``[state]`` is written from memory, so comments in it are not. Reading the
    top of the file costs microseconds; keeping comments anywhere (tomlkit)
    would cost a parse of the whole file on every full save.
    """
    try:
        with open(path, "rb") as f:
            top = f.read(COMMENT_AREA_MAX)
    except OSError:
        return []
    cut = top.find(b"\n[state]")
    if cut < 0:
        return []
    out = []
    for raw in top[:cut].split(b"\n"):
        line = raw.rstrip(b"\r").decode("utf-8", "replace")
        if line.startswith("#") and line + "\n" != HEADER:
            out.append(line)
    return out


def render(doc: dict[str, Any], where: str = "session", comments: Iterable[str] = ()) -> bytes:
    """The exact bytes :func:`write_full` writes for ``doc`` (schema/app/saved filled).

    ``comments`` (whole ``#`` lines, see :func:`kept_comments`) go right under :data:`HEADER`.
    """
    doc = dict(doc)
    schema = doc.setdefault("schema", SCHEMA)
    if schema != SCHEMA:
        raise StoreError(said(N_("could not save {where}: schema {schema} given, this version writes schema {known}"),
                              where=where, schema=repr(schema), known=SCHEMA))
    doc.setdefault("app", APP)
    doc.setdefault("saved", datetime.now(timezone.utc).replace(microsecond=0))
    snap = doc.get("snapshot_seq")
    if not isinstance(snap, int) or isinstance(snap, bool) or snap < 0:
        raise StoreError(said(N_("could not save {where}: 'snapshot_seq' must be a whole number ≥ 0 (found {found})"),
                              where=where, found=repr(snap)))
    state = doc.pop("state", None)
    if not isinstance(state, dict):
        raise StoreError(said(N_("could not save {where}: 'state' must be a table (found {found})"), where=where,
                              found=type(state).__name__))
    events = doc.pop("event", None) or []
    if not isinstance(events, (list, EventLog)):
        raise StoreError(said(N_("could not save {where}: 'event' must be a list of tables"), where=where))
    # Top-level keys in a fixed, readable order; unknown extra keys are kept.
    head: dict[str, Any] = {}
    for key in ("schema", "app", "saved", "snapshot_seq"):
        head[key] = doc.pop(key)
    head.update(doc)
    kept = "".join(f"{c}\n" for c in comments if c.startswith("#") and "\n" not in c and "\r" not in c)
    parts = [HEADER, kept, dumps(head, where), "\n", dumps({"state": state}, where)]
    if isinstance(events, EventLog):
        for i in range(len(events)):
            raw = events.raw(i)
            parts.append("\n" + raw.decode("utf-8").strip("\n") + "\n" if raw is not None
                         else event_block(events[i], where))
    else:
        parts.extend(event_block(ev, where) for ev in events)
    return "".join(parts).encode("utf-8")


# ---------------------------------------------------------------------------
# Writing
