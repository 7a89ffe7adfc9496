"""What the players may see of a session, and following a file as the GM saves it.

:func:`public_view` *projects* a loaded tracker onto what the players may see
(docs/rules.md, shared terms, secrets). The projection builds every public event and every
public table from the structured fields of the GM's log — who an event is
about, what kind it is, which fields it touches — and copies only fields it
knows to be public. Nothing is filtered out of finished text, so a new kind
of event, a new character field or a new roll field stays with the GM until
this module is taught to show it (unknown kinds are withheld).

Secret are:

- characters marked ``secret`` — now, or at the time of the event, or when
  last seen (a character made secret later is hidden in every event before
  too, a removed one keeps its secret; one the GM reveals again shows from
  then on). Their names never show, nor their ids (made from names). Their rows, initiative entries, resources,
  wounds and resets never reach the players; a roll with one on a side
  becomes "the GM rolls", with no dice, no names and no numbers;
- rolls the GM marked GM-only (an event's ``secret``): "the GM rolls", and
  nothing else of that command (the Edge or charges it spent, a reroll of it),
  nor of what follows from such a roll (or one with a secret character): the
  damage resisted after it is "the GM rolls" too, the harm proposed from it is
  withheld;
- every character's ``notes``, log notes (``note`` events), and any edit of
  a character's notes or secrecy;
- a hidden threshold (S8, ``hidden``): the roll shows its dice, hits and
  glitches, never the threshold, success or net hits;
- the before/after values of every change (``changes``);
- the current dice secret (:mod:`polku.session.fairdice`): the players see its
  commitment, and a secret only once it is revealed.

What the GM undid is gone from the players' view, and so are the undo and redo
lines: the players' log is the session as it stands (a redone command shows
again in its place). The players' events are numbered on their own (``n``: 1,
2, 3 … over what the players see), so a gap never counts the GM's secrets.
A challenge's outcome is shown only as the public line of the roll that
decided it.

The players' file (what the GM's app publishes and the players' views read) is
:mod:`polku.session.players.players_file`. This module is over 600 lines for one reason: the
projection (:class:`_Projection`) is one walk over an event, and every way a secret could reach a
player is a branch of it, kept in one place to be read whole.

No textual, no rich.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from ...i18n import _, ngettext
from ..model import (
    Campaign,
    Challenge,
    Character,
    Combat,
    DiceKey,
    Event,
    InitiativeEntry,
    Narration,
    RevealedKey,
    State,
    clone,
)
from ..records import DieTable, InitiativePlace, RollOutcome, RollSide, RollTable
from ..table.combat import order_words, sets_initiative_scores
from ..tracker import Tracker

if TYPE_CHECKING:
    from .seat_rolls import PublicOwnRoll
    from .seats import PublicOffer, RequestIndex

GM_ROLL = "the GM rolls"
"""The whole public line of a roll the players may not see."""

GM_DECIDED = "decided by the GM's roll"
"""A challenge's public outcome when the roll that decided it is the GM's."""

HIDDEN_SCORE_STEP = 1000
"""The gap between the stand-in scores of a GM-only initiative order: wider than any wound
modifier (S12), so the players' panes keep the GM's order while a fighter's wounds show."""

SECRET_CHARACTER_FIELDS = ("notes", "secret")
"""Character fields whose edits never reach the players."""

PUBLIC_CHARACTER_FIELDS = {
    "": ("id", "name", "player", "kind", "health", "effects"),
    "rajapolku": ("backgrounds", "abilities", "wound", "charges", "charges_max", "story_points",
                  "paid_this_scene"),
    "harhapolku": ("backgrounds", "edges", "rolled_this_scene"),
    "shadowrun": ("attributes", "skills", "edge_rating", "edge", "physical", "stun"),
}
"""The character fields the players see, common ones under ``""``; any other field stays with the GM."""

PUBLIC_CHALLENGE_FIELDS = ("id", "title", "status", "kind", "extended")
PUBLIC_ROLL_FIELDS = ("test", "summary", "outcome", "explain", "steps", "manual", "hand", "seed", "fixed_seed", "threshold",
                      "hidden", "variant", "rerolls", "supersedes", "dice_key", "roll_no", "draws",
                      "settings", "demand", "counts")
"""``settings`` (the [choice] settings the roll was made with), ``demand`` (H8) and ``counts`` (H6's dice counts):
the players' review and report judge each roll by them, as the GM's do."""
PUBLIC_SIDE_FIELDS = ("role", "label")
PUBLIC_DIE_FIELDS = ("size", "face", "source", "label", "replaced")
HIDDEN_OUTCOME_FIELDS = ("hits", "glitch", "critical_glitch", "glitch_negated", "auto_failed", "edge",
                         "edge_dice", "bought")
"""What a hidden-threshold roll (S8) keeps of its outcome: the dice's own results, not the test's."""

EVENT_FIELDS = ("seq", "t", "at", "kind", "cmd", "challenge")
"""Copied into every public event."""

PLAIN_KINDS: dict[str, tuple[str, ...]] = {
    "resource": ("resource", "amount", "bought"),
    "wound": ("before", "after"),
    "reset": (),
    "structure": (),
    "setting": (),
    "challenge": (),
    "character": (),
    "initiative": (),
    "seat": (),
    "dice": ("dice_key", "commitment", "revealed"),
    "combat": (),
    "effect": (),
}
"""Kinds shown as their line when no secret is in them, with the extra fields they keep
(a ``seat`` event's line never names a hidden threshold; its ``ask`` stays with the GM).
``roll``, ``narration``, ``undo`` and ``redo`` have their own projections; ``note``
and every kind not named here are withheld."""


def _strs(value: object) -> list[str]:
    if isinstance(value, str):
        return [value] if value else []
    if isinstance(value, (list, tuple)):
        return [v for v in value if isinstance(v, str)]
    return []


def _undo_flag(flags: dict[str, bool], change: object) -> None:
    """Step ``flags`` (character id → secret) back over one change."""
    if not isinstance(change, dict):
        return
    path = change.get("path")
    if not isinstance(path, list) or not path or path[0] != "characters":
        return
    had = "before" in change
    before = change.get("before")
    if len(path) == 1:
        flags.clear()
        if had and isinstance(before, dict):
            flags.update({str(c): isinstance(ch, dict) and bool(ch.get("secret")) for c, ch in before.items()})
        return
    cid = str(path[1])
    if len(path) == 2:
        if had and isinstance(before, dict):
            flags[cid] = bool(before.get("secret"))
        else:
            flags.pop(cid, None)
    elif len(path) == 3 and path[2] == "secret":
        flags[cid] = had and before is True


def _cmd(ev: Event, seq: int) -> int:
    """The command ``ev`` belongs to: its ``cmd``, else (a command's first event, an older file) its own ``seq``."""
    cmd = ev.get("cmd")
    return cmd if isinstance(cmd, int) else seq


def _named(table: Mapping[str, object], fields: Iterable[str]) -> list[tuple[str, object]]:
    """``(field, value)`` of ``table`` for each of ``fields`` it has, in the order of ``fields``."""
    return [(k, table[k]) for k in fields if k in table]


def hidden_fact(label: str, outcome: RollOutcome) -> dict[str, object]:
    """A hidden-threshold roll's public fact (S8): the label, hits and glitch, no threshold and no verdict;
    told as :func:`public_summary` words it."""
    fact: dict[str, object] = {"id": "sr.success", "label": label, "hidden_threshold": True,
                            "hits": int(outcome.get("hits", 0))}
    if outcome.get("auto_failed"):
        fact["auto_failed"] = True
    glitch = ("critical" if outcome.get("critical_glitch") else "glitch" if outcome.get("glitch")
              else "negated" if outcome.get("glitch_negated") else "")
    if glitch:
        fact["glitch_kind"] = glitch
    return fact


def public_summary(roll: RollTable) -> str:
    """A hidden-threshold roll's summary without the threshold: hits and glitches only (a glitch
    with its size, S5)."""
    from ...rules.shadowrun import glitch_words

    out = roll.get("outcome", {})
    if not isinstance(out, dict):
        out = {}
    if out.get("auto_failed"):
        return "automatic failure (pool 0 or less, S3)"
    hits = out.get("hits", 0)
    parts = [f"{hits} hit{'s' if hits != 1 else ''}", "threshold hidden by the GM"]
    if out.get("critical_glitch"):
        parts.append(glitch_words(hits, True, loud=True))
    elif out.get("glitch"):
        parts.append(glitch_words(hits, loud=True))
    elif out.get("glitch_negated"):
        parts.append("glitch negated")
    return ", ".join(parts)


class _Projection:
    """One pass over a tracker's log and state, building what the players see.

    A public event is a new table of the fields named public, but their values (a roll's outcome,
    explanation and steps, a fact, a die's face…) are the GM's log's own, shared, not copied: copying
    them took a third of projecting a 10,000-event log. Nothing changes a logged value in place — the
    GM's log is history (a command appends new events, an undo its own), the projection builds new
    tables and lists wherever it leaves something out, and what reads the players' view only reads
    it — so a view shown before never changes (tests/test_secrets.py checks it over generated
    sessions). The state's tables, which the GM's commands do change in place, are copied.
    """

    def __init__(self, tracker: Tracker, *, events: Sequence[Event] | None = None) -> None:
        self.full = tracker
        state = tracker.state
        self.system = str(state.get("campaign", {}).get("system", ""))
        chars = state.get("characters", {})
        self.secret_now = {cid for cid, ch in chars.items() if ch.get("secret")}
        self.names: dict[str, str] = {}
        """Every character id the log or the state knows → its name."""
        events = tracker.events if events is None else events
        self.events = [events[i] for i in range(len(events))]
        self.around = self._secret_timeline(state)
        for cid, ch in chars.items():
            self.names[cid] = str(ch.get("name", cid))
        self.by_name = {name.lower(): cid for cid, name in self.names.items()}
        self.cmd_seqs: dict[int, list[int]] = {}
        self.secret_cmds: set[int] = set()
        self.cmd_of: dict[int, int] = {}
        """seq → the command (its first event's seq) that appended it."""
        self._commands(0)
        self.outcome_seqs: dict[str, list[int]] = {}
        """challenge id → the events that set its outcome, in log order."""
        self.initiative_seqs: list[int] = []
        """The events (not undo/redo lines) that set the initiative order, in log order."""
        self._state_events(0)
        public_now = {cid for cid, ch in chars.items() if not ch.get("secret")}
        self.unnamed = (self.secret_now | {c for around in self.around for c in around}) - public_now
        """Characters whose names (and ids, made from names) the players may not learn."""
        self.public: dict[int, Event | None] = {}
        """seq → the public event (None: withheld)."""
        self.mode: dict[int, str] = {}
        """seq → how a roll is shown: ``full``, ``hidden`` (S8) or ``gm`` (the GM rolls)."""

    # -- who is secret, when ------------------------------------------------------

    def _secret_timeline(self, state: State) -> list[frozenset[str]]:
        """For each event, the characters secret just before or just after it.

        Walks back from the current state over every event's changes (undo
        events carry theirs), so a file that starts from a continued
        campaign's state needs no history before it.
        """
        flags = {cid: bool(ch.get("secret")) for cid, ch in state.get("characters", {}).items()}
        out: list[frozenset[str]] = [frozenset()] * len(self.events)
        last: frozenset[str] = frozenset()
        for i in range(len(self.events) - 1, -1, -1):
            ev = self.events[i]
            after = {c for c, f in flags.items() if f}
            changes = ev.get("changes", [])
            for ch in reversed(changes if isinstance(changes, list) else []):
                self._learn_names(ch)
                _undo_flag(flags, ch)
            both = after | {c for c, f in flags.items() if f}
            if both != last:
                last = frozenset(both)
            out[i] = last
        return out

    def _learn_names(self, change: object) -> None:
        if not isinstance(change, dict):
            return
        path = change.get("path")
        if not isinstance(path, list) or len(path) != 2 or path[0] != "characters":
            return
        for key in ("before", "after"):
            ch = change.get(key)
            if isinstance(ch, dict) and isinstance(ch.get("name"), str):
                self.names.setdefault(str(path[1]), ch["name"])

    def _commands(self, start: int) -> None:
        """Which events each command appended, and which commands are GM-only (events from ``start`` on).

        A command is GM-only when one of its events is marked ``secret`` or
        when it rerolls or replaces a roll of a GM-only command (an edge
        reroll, Edge after the roll).
        """
        cmd_of = self.cmd_of
        for ev in self.events[start:]:
            seq = ev.get("seq")
            if not isinstance(seq, int) or ev.get("kind") in ("undo", "redo"):
                continue
            cmd = _cmd(ev, seq)
            cmd_of[seq] = cmd
            self.cmd_seqs.setdefault(cmd, []).append(seq)
            if ev.get("secret"):
                self.secret_cmds.add(cmd)
            roll = ev.get("roll")
            if isinstance(roll, dict):
                old = roll.get("rerolls", roll.get("supersedes"))
                if isinstance(old, int) and cmd_of.get(old) in self.secret_cmds:
                    self.secret_cmds.add(cmd)

    def _state_events(self, start: int) -> None:
        """Note which events (from ``start`` on) decide a challenge or set the initiative order."""
        for ev in self.events[start:]:
            seq = ev.get("seq")
            changes = ev.get("changes", [])
            if not isinstance(seq, int) or not isinstance(changes, list):
                continue
            paths: list[list[str | int]] = [ch["path"] for ch in changes
                                            if isinstance(ch, dict) and isinstance(ch.get("path"), list)]
            chal = ev.get("challenge")
            if isinstance(chal, str) and any(len(p) == 3 and p[0] == "challenges" and p[2] == "outcome"
                                             for p in paths):
                self.outcome_seqs.setdefault(chal, []).append(seq)
            if ev.get("kind") not in ("undo", "redo") and sets_initiative_scores(changes):
                self.initiative_seqs.append(seq)

    def _ids(self, values: Iterable[str]) -> set[str]:
        """Character ids of ``values``, which are ids or (narration) names."""
        out = set()
        for v in values:
            if v in self.names:
                out.add(v)
            elif v.lower() in self.by_name:
                out.add(self.by_name[v.lower()])
        return out

    def refs(self, ev: Event) -> set[str]:
        """The characters an event is about: who, the roll's sides, the state it changed."""
        out = self._ids(_strs(ev.get("who")))
        roll = ev.get("roll")
        if isinstance(roll, dict):
            for side in roll.get("sides", []) if isinstance(roll.get("sides"), list) else []:
                if isinstance(side, dict):
                    out |= self._ids(_strs(side.get("who")))
                    if ev.get("kind") == "narration":
                        out |= self._ids(_strs(side.get("label")))
        changes = ev.get("changes", [])
        for ch in changes if isinstance(changes, list) else []:
            if not isinstance(ch, dict) or not isinstance(ch.get("path"), list) or not ch["path"]:
                continue
            path = ch["path"]
            values = [v for _, v in _named(ch, ("before", "after", "insert", "remove"))]
            if path[0] == "characters":
                if len(path) >= 2:
                    out.add(str(path[1]))
                else:
                    out |= {str(c) for v in values if isinstance(v, dict) for c in v}
            elif path[0] == "initiative":
                for v in values:
                    for e in v if isinstance(v, list) else [v]:
                        if isinstance(e, dict) and isinstance(e.get("id"), str):
                            out.add(e["id"])
            elif path[0] == "narration":
                out |= self._ids(self._narration_names(values))
        return out

    @staticmethod
    def _narration_names(values: list[object]) -> list[str]:
        """Every name an H9 narration table holds (narrator, hands, burned dice, the last usurper)."""
        names: list[str] = []
        for v in values:
            if not isinstance(v, dict):
                continue
            names += _strs(v.get("narrator"))
            hands = v.get("hands")
            if isinstance(hands, dict):
                names += [str(k) for k in hands]
            names += [x.split("\x1f", 1)[0] for x in _strs(v.get("rolled"))]
            for b in v.get("burned", []) if isinstance(v.get("burned"), list) else []:
                if isinstance(b, dict):
                    names += _strs(b.get("owner")) + _strs(b.get("by"))
            last = v.get("last")
            if isinstance(last, dict):
                names += _strs(last.get("who")) + _strs(last.get("burned_owner"))
        return names

    # -- events -----------------------------------------------------------------

    def run(self, start: int = 0) -> list[Event]:
        """The public events of the log (from ``start`` on), each remembered by its seq."""
        out = []
        for i in range(start, len(self.events)):
            ev = self.events[i]
            pub = self.event(i, ev)
            seq = ev.get("seq")
            if isinstance(seq, int):
                self.public[seq] = pub
            if pub is not None:
                out.append(pub)
        return out

    def extend(self, tracker: Tracker, new: list[Event]) -> list[Event] | None:
        """Project only the events appended to the log (``tracker`` holds them last).

        Who is secret when is worked out from the end of the log backwards, so an
        append that changes a character's secrecy or name, adds or removes a character,
        or makes a command already shown GM-only changes what earlier events
        show: then None, and the whole log must be projected again.
        """
        for ev in new:
            changes = ev.get("changes", [])
            for ch in changes if isinstance(changes, list) else []:
                path = ch.get("path") if isinstance(ch, dict) else None
                if not isinstance(path, list) or not path:
                    return None
                if path[0] == "characters" and (len(path) <= 2 or path[2] in ("secret", "name")):
                    return None
            cmd = _cmd(ev, ev.get("seq"))
            if ev.get("secret") and cmd in self.cmd_seqs and cmd not in self.secret_cmds:
                return None
        start = len(self.events)
        self.full = tracker
        self.events.extend(new)
        self.around.extend([frozenset(self.secret_now)] * len(new))
        self._commands(start)
        self._state_events(start)
        return self.run(start)

    def event(self, i: int, ev: Event) -> Event | None:
        kind = ev.get("kind")
        fields: Mapping[str, object] = ev  # taken field by field, by name (shared, never copied: see _Projection)
        # An Event's own fields (``seq`` and ``kind`` always among them); every path that returns it sets ``text``.
        base = cast(Event, {k: fields[k] for k in EVENT_FIELDS if k in fields})
        base["changes"] = []
        if kind in ("undo", "redo"):
            return None  # what it undid is gone from the players' view (or shown again, redone)
        seq = ev.get("seq")
        cmd = _cmd(ev, seq)
        roll = ev.get("roll") if isinstance(ev.get("roll"), dict) else None
        if self._follows_gm_roll(ev, roll):
            # Damage or harm from a roll the players saw as "the GM rolls": its numbers are that roll's.
            return self._gm_roll(base, seq) if roll is not None else None
        if kind in ("roll", "narration"):
            secret = self.unnamed | self.around[i]
            if roll is not None and roll.get("test") == "initiative" and cmd not in self.secret_cmds:
                return self._initiative(base, ev, roll, secret)
            if cmd in self.secret_cmds or self.refs(ev) & secret:
                return self._gm_roll(base, seq) if roll is not None else None
            base["text"] = str(ev.get("text", ""))
            base["who"] = _strs(ev.get("who"))
            self._seat(base, ev)
            if roll is not None:
                hidden = bool(roll.get("hidden"))
                pub_roll = base["roll"] = self._roll(roll, hidden)
                if hidden:
                    sides = pub_roll["sides"]
                    label = sides[0].get("label", "?") if sides else "?"
                    base["text"] = f"{label}: {pub_roll.get('summary')}"
                    base["fact"] = hidden_fact(label, pub_roll.get("outcome", {}))
                else:
                    self._fact(base, ev)
                if isinstance(seq, int):
                    self.mode[seq] = "hidden" if hidden else "full"
            else:
                self._fact(base, ev)
            return base
        extra = PLAIN_KINDS.get(str(kind))
        if extra is None or cmd in self.secret_cmds:
            return None
        if self.refs(ev) & (self.unnamed | self.around[i]):
            return None
        if kind == "character" and self._touches_secret_fields(ev):
            return None
        base["text"] = str(ev.get("text", ""))
        base["who"] = _strs(ev.get("who"))
        self._seat(base, ev)
        self._fact(base, ev)
        kept: dict[str, object] = cast("dict[str, object]", base)  # an Event's own fields, by name
        for k in extra:
            if k in fields:
                kept[k] = fields[k]
        return base

    @staticmethod
    def _fact(base: Event, ev: Event) -> None:
        """The event's fact, for the players' own language (:mod:`polku.session.telling`): a fact holds what
        its event's line says and nothing more, so it is public wherever the line is."""
        fact = ev.get("fact")
        if isinstance(fact, dict):
            base["fact"] = fact

    def _follows_gm_roll(self, ev: Event, roll: RollTable | None) -> bool:
        """Whether the event takes its numbers from a roll the players saw as "the GM rolls" (a
        GM-only roll or one with a secret character): the damage resisted after that attack (S9,
        ``attack``) or the harm proposed from it (R8/R9, H9: ``harm_of``)."""
        source = roll.get("attack") if roll is not None else ev.get("harm_of")
        return isinstance(source, int) and self.mode.get(source) == "gm"

    def _seat(self, base: Event, ev: Event) -> None:
        """Which player's seat asked for the command (a character id; never a secret one)."""
        seat = ev.get("seat")
        if isinstance(seat, str) and seat and seat not in self.unnamed:
            base["seat"] = seat

    @staticmethod
    def _touches_secret_fields(ev: Event) -> bool:
        changes = ev.get("changes", [])
        for ch in changes if isinstance(changes, list) else []:
            path = ch.get("path") if isinstance(ch, dict) else None
            if isinstance(path, list) and len(path) >= 3 and path[0] == "characters" \
                    and path[2] in SECRET_CHARACTER_FIELDS:
                return True
        return False

    def _gm_roll(self, base: Event, seq: int) -> Event:
        if isinstance(seq, int):
            self.mode[seq] = "gm"
        base["kind"] = "roll"
        base["text"] = GM_ROLL
        base["fact"] = {"id": "gm.roll"}
        base["who"] = []
        return base

    def _initiative(self, base: Event, ev: Event, roll: RollTable,
                    secret: set[str] | frozenset[str]) -> Event:
        """S12: an initiative roll without the secret characters' dice and places.

        The line is worded from the roll's facts (its outcome's ``order``: who, the score in
        force), as the GM's is, so the players read the scores their turn pane shows, in order.
        An older roll without them shows the order alone (the scores it kept are as rolled).
        """
        pub = self._roll(roll, False)
        pub["sides"] = [s for s in pub["sides"] if not set(s["who"]) & secret]
        outcome = roll.get("outcome")
        order = outcome.get("order") if isinstance(outcome, dict) else None
        if isinstance(order, list):
            placed: list[InitiativePlace] = [
                {"id": str(e.get("id")), "current": e["current"]} for e in order
                if isinstance(e, dict) and isinstance(e.get("current"), int) and e.get("id") not in secret]
            facts = {str(e.get("id")): e for e in order if isinstance(e, dict)}
            for place in placed:
                # What a public fighter's place follows from (S12: the score rolled, the monitors' boxes, the
                # tie-breakers), as the players' panes show that fighter: a player's verify judges the order.
                logged = facts[place["id"]]
                score, monitors, tie = logged.get("score"), logged.get("monitors"), logged.get("tie")
                if isinstance(score, int):
                    place["score"] = score
                if isinstance(monitors, list):
                    place["monitors"] = [int(x) for x in monitors]
                if isinstance(tie, list):
                    place["tie"] = [int(x) for x in tie]
            names = order_words(placed, self.names)
            pub_outcome: RollOutcome = {"order": placed}
            pub["outcome"] = pub_outcome
            fact: dict[str, object] = {"id": "initiative.order", "order": [
                {"name": self.names.get(e["id"], e["id"]), "current": e["current"]} for e in placed]}
            base["fact"] = fact
            stunned = [c for c in _strs(outcome.get("surprised") if isinstance(outcome, dict) else None)
                       if c not in secret]
            if stunned:  # who is surprised this turn (a secret fighter never named)
                pub_outcome["surprised"] = stunned
                fact["surprised"] = [self.names.get(c, c) for c in stunned]
            if any(isinstance(e, dict) and e.get("id") in secret for e in order):
                pub["explain"], pub["steps"] = [], []  # its lines name who is surprised, spends Edge, acts astral
        else:
            listed: list[object] = []
            changes = ev.get("changes", [])
            for ch in changes if isinstance(changes, list) else []:
                after = ch.get("after") if isinstance(ch, dict) and ch.get("path") == ["initiative"] else None
                if isinstance(after, list):
                    listed = after
            names = ", ".join(self.names.get(str(e.get("id")), str(e.get("id"))) for e in listed
                              if isinstance(e, dict) and e.get("id") not in secret)
            pub["outcome"] = {}
        pub["summary"] = f"order: {names}"
        if len(pub["sides"]) != len(roll.get("sides", [])):
            # A secret fighter's dice are among the draws, and the seed gives them all.
            pub["explain"], pub["steps"] = [], []
            pub.pop("draws", None)
            pub.pop("seed", None)
            pub["withheld_sides"] = len(roll.get("sides", [])) - len(pub["sides"])
        base["roll"] = pub
        base["text"] = f"Initiative: {names}"
        base["who"] = [w for w in _strs(ev.get("who")) if w not in secret]
        if isinstance(base.get("seq"), int):
            self.mode[base["seq"]] = "full"
        return base

    @staticmethod
    def _roll(roll: RollTable, hidden: bool) -> RollTable:
        # The players' copy is made of the fields named public, each taken by its name: a RollTable's own
        # fields, each of the kind the GM's roll holds, and ``sides`` (each side's role, label, who, dice).
        out = cast(RollTable, dict(_named(roll, PUBLIC_ROLL_FIELDS)))
        sides: list[RollSide] = []
        for side in roll["sides"]:
            pub = cast(RollSide, dict(_named(side, PUBLIC_SIDE_FIELDS)))
            pub["who"] = _strs(side.get("who"))
            pub["dice"] = [cast(DieTable, dict(_named(d, PUBLIC_DIE_FIELDS))) for d in side["dice"]]
            sides.append(pub)
        out["sides"] = sides
        if hidden:
            out.pop("threshold", None)
            out["outcome"] = cast(RollOutcome, dict(_named(roll.get("outcome", {}), HIDDEN_OUTCOME_FIELDS)))
            out["summary"] = public_summary(roll)
            out["explain"], out["steps"] = [], []
        return out

    # -- the state ---------------------------------------------------------------

    def state(self) -> State:
        st = self.full.state
        secret = self.secret_now
        fields = PUBLIC_CHARACTER_FIELDS[""] + PUBLIC_CHARACTER_FIELDS.get(self.system, ())
        # The fields of a sheet the players may see, by name (PUBLIC_CHARACTER_FIELDS), so a plain table
        # that is still the campaign's kind of sheet.
        chars = {cid: cast(Character, {**{k: clone(v) for k, v in ch.items() if k in fields}, "notes": "", "secret": False})
                 for cid, ch in st["characters"].items() if cid not in secret}
        camp = st["campaign"]
        campaign: Campaign = {"name": camp["name"], "system": camp["system"]}
        if "created" in camp:
            campaign["created"] = camp["created"]
        if "continues" in camp:
            campaign["continues"] = camp["continues"]
        out: State = {
            "campaign": campaign,
            "settings": clone(st["settings"]),
            "wound_track": clone(st["wound_track"]),
            "structure": clone(st["structure"]),
            "characters": chars,
            "challenges": self._challenges(st["challenges"]),
            "initiative": self._initiative_order(chars),
            "narration": self._narration(st["narration"]),
            "next_id": st["next_id"],
        }
        dice = public_dice(st)
        if dice is not None:
            out["dice"] = dice
        fight = self._combat(st.get("combat"), chars)
        if fight is not None:
            out["combat"] = fight
        return out

    def _initiative_order(self, chars: dict[str, Any]) -> list[InitiativeEntry]:
        """The initiative entries the players see: as rolled, or — when the GM rolled them
        GM-only — the turn order in force with no score (a stand-in per place keeps the
        order whatever wound modifier follows; ``hidden`` tells the panes to show none)."""
        entries = [e for e in self.full.state["initiative"] if e["id"] in chars]
        if not self._initiative_is_gms():
            return [clone(e) for e in entries]
        order = [e.cid for e in self.full.combat.order() if e.cid in chars]
        passes = {e["id"]: e["passes"] for e in entries}
        step = HIDDEN_SCORE_STEP
        kinds = {e["id"]: e["kind"] for e in entries if "kind" in e}
        out: list[InitiativeEntry] = []
        for i, cid in enumerate(order):
            entry: InitiativeEntry = {"id": cid, "score": step * (len(order) - i), "passes": passes[cid], "hidden": True}
            if cid in kinds:
                entry["kind"] = kinds[cid]
            out.append(entry)
        return out

    def _initiative_is_gms(self) -> bool:
        """Whether the initiative in force was set by a GM-only command (the last one not undone)."""
        for seq in reversed(self.initiative_seqs):
            if not self.full.is_undone(seq):
                return self.cmd_of.get(seq, seq) in self.secret_cmds
        return False

    @staticmethod
    def _combat(block: Combat | None, chars: Mapping[str, object]) -> Combat | None:
        """The fight without the secret fighters: a secret one's turn is "the GM's turn" (``gm_turn``)."""
        if block is None:
            return None
        acting = block.get("acting", "")
        out: Combat = {"turn": block.get("turn", 1), "pass": block.get("pass", 1),
                       "acting": acting if acting in chars else "",
                       "acted": [c for c in _strs(block.get("acted")) if c in chars],
                       "held": [c for c in _strs(block.get("held")) if c in chars]}
        surprised = [c for c in _strs(block.get("surprised")) if c in chars]
        if surprised:
            out["surprised"] = surprised
        if acting and acting not in chars:
            out["gm_turn"] = True
        return out

    def _challenges(self, challenges: list[Challenge]) -> list[Challenge]:
        decider: dict[str, int] = {}
        for chal, seqs in self.outcome_seqs.items():
            last = next((seq for seq in reversed(seqs) if not self.full.is_undone(seq)), None)
            if last is not None:
                decider[chal] = last
        out: list[Challenge] = []
        for c in challenges:
            fields: Mapping[str, object] = c
            # The public fields, by name: a Challenge's own, id, title and status among them.
            pub = cast(Challenge, {k: clone(fields[k]) for k in PUBLIC_CHALLENGE_FIELDS if k in fields})
            pub["participants"] = [x for x in _strs(c.get("participants")) if x not in self.unnamed]
            pub["opposition"] = [x for x in _strs(c.get("opposition")) if x not in self.unnamed]
            outcome = pub["outcome"] = self._outcome(c, decider.get(c["id"]))
            fact = self._outcome_fact(c, outcome, decider.get(c["id"]))
            if fact is not None:
                pub["outcome_fact"] = fact
            out.append(pub)
        return out

    def _outcome(self, c: Challenge, seq: int | None) -> str:
        outcome = c.get("outcome", "")
        if not outcome or not isinstance(outcome, str):
            return ""
        if seq is None:
            # Decided before this file's log begins: shown unless a secret character took part.
            who = set(_strs(c.get("participants"))) | set(_strs(c.get("opposition")))
            return GM_DECIDED if who & self.secret_now else outcome
        pub = self.public.get(seq)
        mode = self.mode.get(seq)
        if pub is None or mode == "gm":
            return GM_DECIDED
        if mode == "hidden":
            return str(pub["roll"]["summary"])
        return outcome

    def _outcome_fact(self, c: Challenge, shown: str, seq: int | None) -> dict[str, Any] | None:
        """The fact of the outcome the players see (:meth:`_outcome`), for their own language: the GM's
        words, a hidden threshold's roll without it (its public fact), or the challenge's own."""
        if not shown:
            return None
        if shown == GM_DECIDED:
            return {"id": "gm.decided"}
        pub = self.public.get(seq) if seq is not None else None
        if pub is not None and seq is not None and self.mode.get(seq) == "hidden":
            fact = pub.get("fact")
            return clone(fact) if isinstance(fact, dict) else None
        own = c.get("outcome_fact")
        return clone(own) if isinstance(own, dict) and shown == c.get("outcome") else None

    def _narration(self, nar: Narration) -> Narration:
        secret = {self.names[c].lower() for c in self.unnamed if c in self.names}

        def ok(*names: object) -> bool:
            return all(isinstance(n, str) and n.lower() not in secret for n in names)

        out: Narration = {"narrator": "", "table": [], "burned": [], "kind": nar.get("kind", "brawl"),
                          "ability_fight": bool(nar.get("ability_fight", False))}
        if ok(nar.get("narrator", "")):
            out["narrator"] = nar.get("narrator", "")
            out["table"] = clone(nar.get("table", []))
        out["burned"] = [clone(b) for b in nar.get("burned", []) if ok(b.get("owner", ""), b.get("by", ""))]
        if "hands" in nar:
            out["hands"] = {k: clone(v) for k, v in nar["hands"].items() if ok(k)}
        if "rolled" in nar:
            out["rolled"] = [x for x in nar["rolled"] if ok(x.split("\x1f", 1)[0])]
        last = nar.get("last")
        if isinstance(last, dict) and ok(last.get("who", ""), last.get("burned_owner", "")):
            out["last"] = clone(last)
        return out


def public_dice(state: State) -> DiceKey | None:
    """The players' side of the dice secrets: the current one's commitment, the revealed ones whole."""
    d = state.get("dice")
    if not isinstance(d, dict) or not isinstance(d.get("commitment"), str):
        return None
    revealed: list[RevealedKey] = [cast("RevealedKey", {k: clone(r[k]) for k in ("key", "session", "commitment",
                                                                                  "secret", "rolls") if k in r})
                                   for r in d.get("revealed", []) if isinstance(r, dict)]
    out: DiceKey = {"key": d["key"], "session": d["session"], "commitment": d["commitment"], "revealed": revealed}
    return out


def dice_proof(dice: DiceKey | None) -> list[str]:
    """What a player checks the program dice against, whole (the status line's 8 hex digits are a
    label): the current secret's full commitment, then each revealed secret and its commitment.
    From the players' side of the dice (:func:`public_dice`): never the secret in use."""
    if not dice:
        return [_("No dice secret is committed in this session: its program dice cannot be checked."),
                _("(A file from before verifiable dice; the first program roll commits one.)")]
    out = [_("Dice secret #{key}, session {session}: its commitment, SHA-256 of the secret,",
             key=dice["key"], session=dice["session"]),
           _("shown before its first roll:"), "  " + str(dice["commitment"]), ""]
    revealed = [r for r in dice.get("revealed", []) if isinstance(r, dict)]
    if not revealed:
        out.append(_("No secret revealed yet: the GM reveals it when the session ends."))
    for r in reversed(revealed):
        out += [ngettext("Revealed dice secret #{key}, session {session}, {n} program roll:",
                         "Revealed dice secret #{key}, session {session}, {n} program rolls:", int(r.get("rolls", 0)),
                         key=r.get("key"), session=r.get("session")),
                _("  secret"), "  " + str(r.get("secret")), _("  its commitment"), "  " + str(r.get("commitment")), ""]
    out += [_("To check every roll: polku verify on the GM's dice transcript"),
            _("(polku export FILE --transcript; docs/verifiable-dice.md).")]
    return out


def public_view(tracker: Tracker) -> Tracker:
    """A read-only tracker holding only what the players may see (see the module docstring)."""
    return PublicLog(tracker).view


class PublicLog:
    """The players' view of a tracker, kept up to date as events are appended to its log.

    ``extend`` projects only the appended events when nothing in them changes
    what the earlier ones show (see :meth:`_Projection.extend`), and the whole
    log again otherwise; either way ``view`` is what :func:`public_view` gives.
    """

    def __init__(self, tracker: Tracker) -> None:
        self._p = _Projection(tracker)
        self._events = self._p.run()
        self._standing: list[Event] = []
        self._standing_of: tuple[list[Event], int, frozenset[int]] | None = None
        """What :meth:`_numbered` last gave was made of: the projected events, how many, what was undone."""
        self.view = self._view(tracker)
        self.incremental = False
        """Whether the last :meth:`extend` projected only the appended events."""

    def _view(self, tracker: Tracker) -> Tracker:
        view = Tracker(self._p.state(), [], read_only=True)
        # A new list (the one shown before must not change under a reader) of what stands, numbered.
        view.events = self._numbered(tracker)
        return view

    def _numbered(self, tracker: Tracker) -> list[Event]:
        """The public events that stand (none undone), each with its number in the players' log (``n``).

        An event whose number changed is replaced by a copy, so a view shown before keeps its own.
        When only events were appended since the last call (the same projection, nothing undone or
        redone), only those are numbered: a roll's cost does not grow with the session.
        """
        undone = frozenset(tracker.undone)
        done = self._standing_of
        if done is not None and done[0] is self._events and done[1] <= len(self._events) and done[2] == undone:
            out, start = list(self._standing), done[1]
        else:
            out, start = [], 0
        for i in range(start, len(self._events)):
            ev = self._events[i]
            if ev["seq"] in undone:
                continue
            if ev.get("n") != len(out) + 1:
                ev = self._events[i] = ev.copy()
                ev["n"] = len(out) + 1
            out.append(ev)
        self._standing, self._standing_of = out, (self._events, len(self._events), undone)
        return list(out)

    def extend(self, tracker: Tracker, new: list[Event]) -> Tracker:
        """The view after ``new`` (the last events of ``tracker``'s log) were appended."""
        more = self._p.extend(tracker, new) if new else []
        self.incremental = more is not None
        if more is None:
            self._p = _Projection(tracker)
            self._events = self._p.run()
        else:
            self._events.extend(more)
        self.view = self._view(tracker)
        return self.view


def secret_ids(state: State, events: Sequence[Event]) -> set[str]:
    """Characters whose names the players may not learn: secret now, or secret at some
    point of the log and not a public character now (a removed one keeps its secret)."""
    return _Projection(Tracker(state, [], read_only=True), events=events).unnamed


def projected_events(tracker: Tracker) -> list[Event]:
    """Every event of the log as the players may see it, undone ones too, unnumbered and in log order.

    What the players' dice transcript (:mod:`polku.session.players.transcript`) is made of: a roll the
    GM undid was rolled in front of the players, and its number was given back. Undo and redo
    lines, notes and every withheld kind are not in it.
    """
    return _Projection(tracker).run()


def public_events(tracker: Tracker) -> list[Event]:
    """The log the players see (what stands, numbered on its own)."""
    log = PublicLog(tracker)
    return log._numbered(tracker)


def seat_offers_public(tracker: Tracker, unnamed: set[str], index: RequestIndex | None = None) -> dict[str, list[PublicOffer]]:
    """The open roll requests of every public character, as its seat may see them (never a hidden
    threshold); a request whose opposition holds a character the players may not learn is left out.
    ``index``: the requests as kept over copies of the log (:func:`.seats.pending_offers`)."""
    from .seats import pending_offers

    out: dict[str, list[PublicOffer]] = {}
    for offer in pending_offers(tracker, index=index):
        ch = tracker.characters.get(offer.cid)
        if ch is None or ch.get("secret") or offer.cid in unnamed:
            continue
        who = offer.opposition.get("who", [])
        if isinstance(who, list) and any(str(w) in unnamed or (str(w) in tracker.characters
                                                                and tracker.characters[str(w)].get("secret"))
                                         for w in who):
            continue
        out.setdefault(offer.cid, []).append(offer.public())
    return out


def own_rolls_public(tracker: Tracker, unnamed: set[str]) -> dict[str, list[PublicOwnRoll]]:
    """What each public player character's seat may roll of its own accord now (:mod:`.seat_rolls`)."""
    from .seat_rolls import published

    return published(tracker, frozenset(unnamed))


__all__ = ["GM_DECIDED", "GM_ROLL", "PublicLog", "dice_proof", "own_rolls_public", "projected_events", "public_dice",
           "public_events", "public_summary", "public_view", "seat_offers_public", "secret_ids"]
