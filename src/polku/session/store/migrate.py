"""Schema migrations: an older session file's document mapped to the schema this version writes."""

from __future__ import annotations

from typing import Any

from ...i18n import N_, said
from .errors import CorruptError
from .format import APP, SCHEMA


def migrate_v1(doc: dict[str, Any], where: str = "schema 1 file") -> dict[str, Any]:
    """Map a schema 1 document to schema 2.

    Schema 1 (Polku before the event log with snapshots)::

        schema = 1
        app = "…"; saved = …          (optional)
        [campaign]                     {name, system, …}
        [settings]                     {"raja.exhausted" = true, …}
        [[character]]                  each with an `id` (string or int)
        [[challenge]]                  the queue, in order
        [[log]]                        past events, oldest first, no snapshot

    Schema 2: ``state = {campaign, settings, characters: {id: {…, id}},
    challenges: [...], …unknown top-level keys kept…}``, ``event`` = the log
    entries (``seq`` 1..n given where missing), ``snapshot_seq`` = the last
    seq, since the schema 1 tables already hold the state after every logged
    event. Semantic checks are ``model.py``'s business.

    Raises:
        CorruptError: naming the key whose shape is wrong.
    """
    src = dict(doc)
    src.pop("schema", None)
    out: dict[str, Any] = {"schema": SCHEMA}
    out["app"] = src.pop("app", APP)
    if "saved" in src:
        out["saved"] = src.pop("saved")

    def table(key: str) -> dict[str, Any]:
        value = src.pop(key, {})
        if not isinstance(value, dict):
            raise CorruptError(said(N_("{where}: schema 1 key '{key}' must be a table, found {found}"), where=where, key=key,
                                     found=type(value).__name__))
        return value

    def tables(key: str) -> list[dict[str, Any]]:
        value = src.pop(key, [])
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise CorruptError(said(N_("{where}: schema 1 key '{key}' must be [[{key}]] tables"), where=where, key=key))
        return value

    campaign = table("campaign")
    settings = table("settings")
    characters: dict[str, Any] = {}
    for i, ch in enumerate(tables("character")):
        cid = ch.get("id")
        if isinstance(cid, bool) or not isinstance(cid, (str, int)) or cid == "":
            raise CorruptError(said(N_("{where}: character {n} has no 'id'"), where=where, n=i + 1))
        cid = str(cid)
        if cid in characters:
            raise CorruptError(said(N_("{where}: two characters have the id '{id}'"), where=where, id=cid))
        characters[cid] = {**ch, "id": cid}
    challenges = tables("challenge")
    events = []
    last = 0
    for i, entry in enumerate(tables("log")):
        ev = dict(entry)
        seq = ev.get("seq")
        if seq is None:
            seq = last + 1
        elif isinstance(seq, bool) or not isinstance(seq, int) or seq <= last:
            raise CorruptError(said(N_("{where}: log entry {n} has 'seq' = {found}; seqs must increase"), where=where, n=i + 1,
                                     found=repr(seq)))
        ev["seq"] = seq
        last = seq
        events.append(ev)
    state: dict[str, Any] = {
        "campaign": campaign,
        "settings": settings,
        "characters": characters,
        "challenges": challenges,
    }
    for key, value in src.items():
        state.setdefault(key, value)
    out["snapshot_seq"] = last
    out["state"] = state
    out["event"] = events
    return out


# ---------------------------------------------------------------------------
