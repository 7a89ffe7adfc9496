"""What the players may see of a session, and following a file as the GM saves it.

:func:`public_view` takes a loaded tracker and returns a read-only tracker
with the GM's secrets removed:

- characters marked ``secret`` are gone (and with them their statistics, their
  initiative entries and the log lines about their resources and wounds);
- every character's ``notes`` field is empty, log notes (``note`` events) and
  edits of notes are left out;
- a Varjojuoksu roll with a hidden threshold (S8, ``hidden = true``) shows its
  dice, hits and glitches, but not the threshold, success or net hits — in
  the log line, the explanation and the challenge's outcome;
- a roll with a secret character on a side keeps its dice but loses its
  explanation (which names the pool's backgrounds, skills and attributes);
- events lose their ``changes`` (the before/after values of the state).

:class:`Follower` re-reads a session file whenever its identity, size or
modification time changes. Full saves replace the file atomically and appended
events end with a ``# end of event N`` mark, so a reader never sees a torn
file: :func:`polku.session.store.load` drops a last event still being written.
When the file disappears or breaks, the follower keeps its last good view and
says so.

No textual, no rich.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

from .files import SessionOpenError, load_tracker
from .model import clone
from .tracker import Tracker

SECRET_CHANGE_KEYS = ("notes", "secret")
"""Character fields whose edits never reach the players."""


def _who(ev: dict[str, Any]) -> list[str]:
    who = ev.get("who", [])
    if isinstance(who, str):
        return [who] if who else []
    return [w for w in who if isinstance(w, str)]


def secret_ids(state: dict[str, Any], events: Iterable[dict[str, Any]] = ()) -> set[str]:
    """Ids of characters the GM keeps secret (now, or when they were last seen in the log)."""
    out = {cid for cid, ch in state.get("characters", {}).items() if ch.get("secret")}
    for ev in events:
        for ch in ev.get("changes", []):
            path = ch.get("path", [])
            if len(path) == 2 and path[0] == "characters" and isinstance(ch.get("after"), dict):
                if ch["after"].get("secret"):
                    out.add(path[1])
            if len(path) == 3 and path[0] == "characters" and path[2] == "secret" and ch.get("after") is True:
                out.add(path[1])
    return out


def public_summary(roll: dict[str, Any]) -> str:
    """A hidden-threshold roll's summary without the threshold: hits and glitches only."""
    out = roll.get("outcome", {})
    if out.get("auto_failed"):
        return "automatic failure (pool 0 or less, S3)"
    hits = out.get("hits", 0)
    parts = [f"{hits} hit{'s' if hits != 1 else ''}", "threshold hidden by the GM"]
    if out.get("critical_glitch"):
        parts.append("CRITICAL GLITCH")
    elif out.get("glitch"):
        parts.append("GLITCH")
    elif out.get("glitch_negated"):
        parts.append("glitch negated")
    return ", ".join(parts)


def _public_roll(ev: dict[str, Any], secret: set[str]) -> dict[str, Any]:
    roll = dict(ev["roll"])
    if roll.get("hidden"):
        summary = public_summary(roll)
        outcome = roll.get("outcome", {})
        roll["outcome"] = {k: outcome[k] for k in ("hits", "glitch", "critical_glitch", "glitch_negated",
                                                   "auto_failed") if k in outcome}
        roll.pop("threshold", None)
        roll["summary"] = summary
        roll["explain"] = [line for line in roll.get("explain", []) if "threshold" not in line
                           and "success" not in line and "failure" not in line]
        label = roll.get("sides", [{}])[0].get("label", "?")
        ev["text"] = f"{label}: {summary}"
    if any(w in secret for side in roll.get("sides", []) for w in side.get("who", [])):
        roll["explain"] = []
        roll["sides"] = [{**side, "who": [w for w in side.get("who", []) if w not in secret]}
                         for side in roll.get("sides", [])]
        ev["who"] = [w for w in _who(ev) if w not in secret]
    ev["roll"] = roll
    return ev


def public_events(events: list[dict[str, Any]], secret: set[str]) -> list[dict[str, Any]]:
    """The log the players see (see the module docstring)."""
    out = []
    for ev in events:
        kind = ev.get("kind", "")
        if kind == "note":
            continue
        who = _who(ev)
        if kind != "roll" and who and all(w in secret for w in who):
            continue
        touched = [ch.get("path", []) for ch in ev.get("changes", [])]
        if kind == "character" and any(len(p) >= 3 and p[0] == "characters" and p[2] in SECRET_CHANGE_KEYS
                                       for p in touched):
            continue
        pub = {k: v for k, v in ev.items() if k != "changes"}
        pub["changes"] = []
        if pub.get("roll"):
            pub = _public_roll(pub, secret)
        out.append(pub)
    return out


def public_state(state: dict[str, Any], events: list[dict[str, Any]], secret: set[str]) -> dict[str, Any]:
    """The state the players see: no secret characters, no notes, hidden outcomes blanked."""
    st = clone(state)
    st["characters"] = {cid: {**ch, "notes": ""} for cid, ch in st.get("characters", {}).items()
                        if cid not in secret}
    st["initiative"] = [e for e in st.get("initiative", []) if e.get("id") not in secret]
    hidden_outcome: dict[str, str] = {}
    for ev in events:
        roll = ev.get("roll")
        chal = ev.get("challenge")
        if roll and chal:
            if roll.get("hidden"):
                hidden_outcome[chal] = public_summary(roll)
            else:
                hidden_outcome.pop(chal, None)
    for c in st.get("challenges", []):
        c["participants"] = [x for x in c.get("participants", []) if x not in secret]
        c["opposition"] = [x for x in c.get("opposition", []) if x not in secret]
        if c.get("id") in hidden_outcome and c.get("outcome"):
            c["outcome"] = hidden_outcome[c["id"]]
    return st


def public_view(tracker: Tracker) -> Tracker:
    """A read-only tracker holding only what the players may see."""
    secret = secret_ids(tracker.state, tracker.events)
    state = public_state(tracker.state, tracker.events, secret)
    view = Tracker(state, [], read_only=True)
    view.events = public_events(tracker.events, secret)
    undone = set(tracker.undone)
    view.undone = undone
    return view


# ---------------------------------------------------------------------------
# Following a file


@dataclass
class View:
    """One good reading of the file."""

    tracker: Tracker
    """The public view (see :func:`public_view`)."""
    full: Tracker
    """The tracker as loaded (with the secrets; never shown to players)."""
    loaded_at: str
    """When it was read, as the follower's clock shows it (``HH:MM:SS``)."""


class Follower:
    """Re-read a session file when it changes; keep the last good view when it breaks.

    Args:
        path: the session file.
        now: the local time of day as text (injected in tests).
    """

    def __init__(self, path: str | os.PathLike[str], *,
                 now: Callable[[], str] = lambda: time.strftime("%H:%M:%S")) -> None:
        self.path = Path(path)
        self.now = now
        self.view: View | None = None
        """The last good view, or None before the first good reading."""
        self.problem: str | None = None
        """One line: why the file cannot be shown now (the last good view stays)."""
        self.notices: list[str] = []
        """Notices of the last reading (a last event still being written, dropped)."""
        self._seen: tuple[int, int, int, int] | None = None

    def _stat(self) -> tuple[int, int, int, int] | None:
        try:
            st = os.stat(self.path)
        except OSError:
            return None
        return (st.st_ino, st.st_dev, st.st_size, st.st_mtime_ns)

    def changed(self) -> bool:
        """Has the file changed since the last reading (or gone missing)?"""
        sig = self._stat()
        if sig is None:
            return self._seen is not None or self.problem is None
        return sig != self._seen

    def reload(self) -> bool:
        """Read the file now. Returns True when the view changed (or a problem appeared)."""
        sig = self._stat()
        if sig is None:
            was = self.problem
            self.problem = f"{self.path} is missing"
            self._seen = None
            return was != self.problem
        try:
            full, notices = load_tracker(self.path, read_only=True)
        except SessionOpenError as e:
            self._seen = sig
            self.problem = str(e)
            return True
        except OSError as e:  # pragma: no cover - a race with the file system
            self._seen = None
            self.problem = f"could not read {self.path}: {e.strerror or e}"
            return True
        self._seen = sig
        self.problem = None
        self.notices = list(notices)
        self.view = View(public_view(full), full, self.now())
        return True

    def poll(self) -> bool:
        """Reload if the file changed. Returns True when there is something new to show."""
        if not self.changed():
            return False
        return self.reload()

    def status(self) -> str:
        """One line for the players: what is shown and whether it is current."""
        if self.problem is None:
            if self.view is None:
                return f"waiting for {self.path.name}"
            return f"live · {self.view.full.last_seq()} events"
        if self.view is None:
            return f"{self.problem}"
        return f"{self.problem} — showing the last good view from {self.view.loaded_at}"

    def short_status(self) -> str:
        """:meth:`status` in a few words, for a one-line status bar."""
        if self.problem is None:
            return self.status()
        what = "file missing" if self.problem.endswith("is missing") else "file unreadable"
        if self.view is None:
            return what
        return f"{what} · last good view from {self.view.loaded_at}"


__all__ = ["Follower", "View", "public_view", "public_events", "public_state", "public_summary", "secret_ids"]
