"""The players' dice transcript: what a player needs to check the program dice, and nothing more.

``polku export FILE --transcript`` writes it; ``polku verify TRANSCRIPT`` checks it
without the GM's session file (docs/verifiable-dice.md). It is built from the
public projection (:func:`polku.session.public.projected_events`, the same
structured view ``watch`` draws from), never by filtering text:

- every public roll the players saw (undone ones too, marked: they were rolled
  in front of the players and their numbers given back), with its number, secret,
  seed, draws, faces, outcome and the settings it was made with;
- the names of the characters the players see (an initiative order names its fighters by id), and
  each roll's challenge (an extended test's intervals add up per challenge);
- the commitments as the log published them, and each secret once revealed
  (:func:`polku.session.public.public_dice`);
- for each roll the players saw as "the GM rolls" (a GM-only roll, or one with a
  secret character), and for an initiative roll with a secret fighter's dice,
  only which roll number it took: so a gap in the numbering is explained, and
  nothing of its dice, its pool or who rolled it is told.

Never in it: the unrevealed secret, a GM-only roll's dice or labels, notes, hidden
thresholds, secret characters, undo lines, the before/after of changes.

The file is JSON (one object; ``TRANSCRIPT_FORMAT`` names it). :func:`read` checks
its shape and size and raises :class:`TranscriptError` with one line.

No textual.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TypedDict, cast

from ...i18n import N_, said
from ..model import DiceKey, Event, State, clone
from ..tracker import Tracker
from .public import GM_ROLL, projected_events, public_dice, public_view
from .verify import Report, verify

TRANSCRIPT_FORMAT = "polku dice transcript"
VERSION = 1
MAX_BYTES = 64 * 1024 * 1024
"""A transcript bigger than this is refused (a 10,000-event session's is a few MB)."""

EVENT_KEYS = ("seq", "kind", "text", "roll", "dice_key", "commitment", "revealed")
"""What a transcript event keeps of the public event (roll events their ``roll``, dice events the rest)."""


class TranscriptError(ValueError):
    """A file that is not a readable transcript (one line)."""


class _WithheldBase(TypedDict):
    seq: int
    dice_key: int
    roll_no: int
    why: str
    """``gm`` (the GM rolls) or ``secret fighter`` (an initiative roll with a secret fighter's dice)."""


class WithheldRoll(_WithheldBase, total=False):
    """A roll the players saw as "the GM rolls" (or only partly): which number it took, nothing of its dice."""

    undone: bool


class Transcript(TypedDict):
    """A dice transcript as :func:`build` makes it (:func:`text` writes it as JSON)."""

    format: str
    version: int
    campaign: str
    system: str
    dice: DiceKey | None
    settings: dict[str, bool | int | str]
    names: dict[str, str]
    """Character id → name, of every character the players see."""
    events: list[dict[str, object]]
    """Each public roll (``seq``, ``kind``, ``text``, ``challenge``, ``roll``, ``undone``) and dice event."""
    withheld: list[WithheldRoll]


def _number(full: Tracker, seq: int) -> tuple[int, int] | None:
    """The (dice key, roll number) of the GM's program roll ``seq``: a typed fact, no dice."""
    if not isinstance(seq, int):
        return None
    try:
        ev = full.event_by_seq(seq)
    except (KeyError, IndexError, LookupError):
        return None
    roll = ev.get("roll") if isinstance(ev, dict) else None
    if not isinstance(roll, dict):
        return None
    key, n = roll.get("dice_key"), roll.get("roll_no")
    return (key, n) if isinstance(key, int) and isinstance(n, int) else None


def build(tracker: Tracker) -> Transcript:
    """The transcript of a loaded session (the GM's tracker) as a JSON-ready dict."""
    state = tracker.state
    undone = set(tracker.undone)
    events: list[dict[str, object]] = []
    withheld: list[WithheldRoll] = []
    for pub in projected_events(tracker):
        kind, seq = pub["kind"], pub["seq"]
        roll = pub.get("roll")
        fields: Mapping[str, object] = pub  # copied field by field, by name
        if kind == "dice":
            events.append({k: clone(fields[k]) for k in EVENT_KEYS if k in fields})
            continue
        if kind not in ("roll", "narration"):
            continue
        number = _number(tracker, seq)
        gm = roll is None and pub.get("text") == GM_ROLL
        partial = isinstance(roll, dict) and roll.get("withheld_sides")
        if gm or partial:
            if number is not None:
                item: WithheldRoll = {"seq": seq, "dice_key": number[0], "roll_no": number[1],
                                      "why": "gm" if gm else "secret fighter"}
                if seq in undone:
                    item["undone"] = True
                withheld.append(item)
            if gm:
                continue
        if not isinstance(roll, dict):
            continue
        out = {k: clone(fields[k]) for k in ("seq", "kind", "text", "challenge") if k in fields}
        out["roll"] = kept = clone(roll)
        if partial:
            # Its number is listed as withheld: the public fighters' dice alone cannot be checked.
            kept.pop("dice_key", None)
            kept.pop("roll_no", None)
        if seq in undone:
            out["undone"] = True
        events.append(out)
    camp = state.get("campaign", {})
    return {
        "format": TRANSCRIPT_FORMAT,
        "version": VERSION,
        "campaign": str(camp.get("name", "")),
        "system": str(camp.get("system", "")),
        "dice": public_dice(state),
        "settings": clone(state.get("settings", {})),
        # Who the fighters of an initiative order are (its sides name them by name, the order by id).
        "names": {cid: str(ch["name"]) for cid, ch in public_view(tracker).state["characters"].items()},
        "events": events,
        "withheld": withheld,
    }


def text(tracker: Tracker) -> str:
    """The transcript as the file's text: JSON, one event a line (easy to read and to grep), the same
    bytes for the same file."""
    doc = build(tracker)

    def one(value: object) -> str:
        return json.dumps(value, ensure_ascii=False, sort_keys=True)

    fields: Mapping[str, object] = doc
    lines = []
    for key in ("format", "version", "campaign", "system", "settings", "names", "dice"):
        lines.append(f" {one(key)}: {one(fields[key])},")
    rows: list[dict[str, object]] | list[WithheldRoll]
    for key, rows in (("events", doc["events"]), ("withheld", doc["withheld"])):
        items = ",\n".join(f"  {one(item)}" for item in rows)
        lines.append(f" {one(key)}: [\n{items}\n ]," if items else f" {one(key)}: [],")
    lines[-1] = lines[-1].rstrip(",")
    return "{\n" + "\n".join(lines) + "\n}\n"


def looks_like(head: bytes) -> bool:
    """Whether a file starting with ``head`` is meant as a transcript (JSON), not a session file (TOML)."""
    return head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{")


def read(data: bytes) -> Mapping[str, object]:
    """A transcript's content, its shape checked as far as :func:`check` relies on it (the format and
    version, the events, the withheld rolls and the dice secrets); TranscriptError (one line) otherwise."""
    if len(data) > MAX_BYTES:
        raise TranscriptError(said(N_("the transcript is over {n} MB"), n=MAX_BYTES // (1024 * 1024)))
    try:
        doc = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise TranscriptError(said(N_("the transcript is not UTF-8 text"))) from None
    except RecursionError:
        raise TranscriptError(said(N_("the transcript is nested too deep to be one Polku wrote"))) from None
    except ValueError as e:
        raise TranscriptError(said(N_("the transcript is not JSON ({problem})"), problem=str(e).split(':')[0])) from None
    if not isinstance(doc, dict) or doc.get("format") != TRANSCRIPT_FORMAT:
        raise TranscriptError(said(N_("not a Polku dice transcript (no \"format\": \"{format}\")"), format=TRANSCRIPT_FORMAT))
    if doc.get("version") != VERSION:
        raise TranscriptError(said(N_("transcript version {found}: this polku reads version {version}"),
                                   found=repr(doc.get('version')), version=VERSION))
    events, withheld, dice = doc.get("events"), doc.get("withheld"), doc.get("dice")
    if not isinstance(events, list) or not all(isinstance(e, dict) and isinstance(e.get("seq"), int)
                                               for e in events):
        raise TranscriptError(said(N_("the transcript's events are not a list of numbered events")))
    if not isinstance(withheld, list) or not all(isinstance(w, dict) for w in withheld):
        raise TranscriptError(said(N_("the transcript's withheld rolls are not a list")))
    if dice is not None and not isinstance(dice, dict):
        raise TranscriptError(said(N_("the transcript's dice secrets are not a table")))
    if isinstance(dice, dict) and "secret" in dice:
        raise TranscriptError(said(N_("the transcript holds an unrevealed dice secret: it is the GM's, not a transcript "
                                      "Polku wrote")))
    return doc


def check(doc: Mapping[str, object]) -> Report:
    """``polku verify`` on a transcript (as :func:`read` gives it): every roll it can check, and why it cannot
    check the others."""
    # read() checked these two: a list of numbered tables and a list of tables; verify trusts no field of them.
    events = list(cast("list[Event]", doc["events"]))
    withheld = cast("list[Mapping[str, object]]", doc["withheld"])
    names = doc.get("names")
    state: dict[str, object] = {"settings": doc.get("settings"),
                                "characters": {str(cid): {"name": str(n)} for cid, n in names.items()}
                                if isinstance(names, dict) else {}}
    if doc.get("dice"):
        state["dice"] = doc["dice"]
    undone = {e["seq"] for e in events if cast("Mapping[str, object]", e).get("undone")}
    # A state of the transcript's names, settings and dice secrets: all verify reads of one, each read warily.
    return verify(events, cast(State, state), undone, withheld=withheld)


__all__ = ["MAX_BYTES", "TRANSCRIPT_FORMAT", "TranscriptError", "build", "check", "looks_like", "read", "text"]
