"""Check a session file's program dice against their committed secrets (``polku verify``).

For each dice secret (:mod:`polku.session.fairdice`): its SHA-256 must be the
commitment logged for the players, and that commitment must be logged before
the secret's first roll. For each program roll: its seed must be the one the
secret and the roll's number give, the seed must give every draw the roll
logged, and the dice the roll shows must be exactly those draws, in order
(a side entered by hand in the same roll, ``hand``, is skipped) —
for a follow-up (Edge after the roll, an edge reroll) the dice carried over
from the roll it replaces must be unchanged and the new ones must be the
draws. Undone rolls are checked too: they were rolled. Dice entered by hand
are listed as such; rolls older than verifiable dice are counted.

Every roll's result, of every kind, is judged again from its faces with the rules core and the
settings it kept (:mod:`polku.session.table.rejudge`, :mod:`polku.session.rolls.rejudge`), the
program's dice or dice entered by hand alike.

No textual.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ...i18n import N_, _, ngettext, retell, said
from ...rules.dice import RulesError
from ...rules.system import Settings
from .. import fairdice
from ..model import Event, State
from ..records import DieTable, RollSide, RollTable
from ..rolls.common import roll_settings
from ..rolls.rejudge import Known, Rejudged
from ..table.rejudge import rejudge


@dataclass
class Report:
    mismatches: list[str] = field(default_factory=list)
    hand: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    checked: int = 0
    before: int = 0
    """Program rolls from before verifiable dice (no secret to check them against)."""
    unrevealed: int = 0
    """Rolls checked with a secret the players have not seen yet."""
    seeded: int = 0
    """Program rolls from a fixed seed (a demo, ``polku --seed``): checked against their seed, proving nothing."""
    source: str = "file"
    """What was read: ``file`` (the GM's session file) or ``transcript`` (the players' dice transcript)."""
    numbers: dict[int, set[int]] = field(default_factory=dict)
    """dice key → the roll numbers checked against their secret."""
    not_checked: dict[str, list[str]] = field(default_factory=dict)
    """Why some program rolls could not be checked → the rolls (``seq N (roll #n of dice secret #k)``)."""

    @property
    def unchecked(self) -> int:
        return sum(len(v) for v in self.not_checked.values())

    @property
    def ok(self) -> bool:
        return not self.mismatches

    @property
    def status(self) -> int:
        """``polku verify``'s exit status: 1 any mismatch, 3 none but deliberately seeded dice, else 0."""
        return 1 if self.mismatches else 3 if self.seeded else 0

    def lines(self) -> list[str]:
        """The report's lines in the language in use (``--json`` keeps the English of its fields)."""
        out = [retell(n) for n in self.notes]
        if self.seeded:
            # Said once, agreeing with the exit status: a mismatch makes it 1, whatever the seed.
            tail = _(" (exit status 3)") if self.status == 3 else ""
            out.insert(0, _(SEEDED_ONE if self.seeded == 1 else SEEDED_MANY, n=self.seeded, tail=tail))
        out += [ngettext("checked: dice secret #{key}: program roll {numbers}",
                         "checked: dice secret #{key}: program rolls {numbers}", len(ns), key=k, numbers=_ranges(ns))
                for k, ns in sorted(self.numbers.items())]
        out += [_("not checked: {why}: {rolls}", why=retell(WHY_SAID.get(why, why)), rolls=_list([retell(r) for r in rolls]))
                for why, rolls in self.not_checked.items()]
        out += [_("by hand: {roll}", roll=retell(h)) for h in self.hand]
        out += [_("MISMATCH {what}", what=retell(m)) for m in self.mismatches]
        out.append(self.summary())
        return out

    def summary(self) -> str:
        total = self.checked + self.seeded
        parts = [ngettext("{n} program roll checked", "{n} program rolls checked", total),
                 ngettext("{n} mismatch", "{n} mismatches", len(self.mismatches)),
                 _("{n} entered by hand", n=len(self.hand))]
        if self.before:
            parts.append(_("{n} from before verifiable dice (not checkable)", n=self.before))
        if self.unrevealed:
            parts.append(_("{n} checked with a secret not revealed yet", n=self.unrevealed))
        if self.seeded:
            parts.append(_("{n} of them from a fixed seed (not a proof)", n=self.seeded))
        if self.unchecked:
            parts.append(_("{n} not checkable", n=self.unchecked))
        parts_text = ", ".join(parts)
        if not self.ok:
            return _("FAILED: {parts}", parts=parts_text)
        return _("SEEDED: {parts}", parts=parts_text) if self.seeded else _("OK: {parts}", parts=parts_text)


def _ranges(numbers: Iterable[int]) -> str:
    """``{1, 2, 3, 5}`` → ``#1–#3, #5``."""
    runs: list[tuple[int, int]] = []
    for n in sorted(numbers):
        if runs and runs[-1][1] == n - 1:
            runs[-1] = (runs[-1][0], n)
        else:
            runs.append((n, n))
    return ", ".join(f"#{a}" if a == b else f"#{a}–#{b}" for a, b in runs)


def _list(items: list[str], most: int = 8) -> str:
    more = _("; … {n} more", n=len(items) - most) if len(items) > most else ""
    return "; ".join(items[:most]) + more


NOT_REVEALED = N_("dice secret #{key} is not revealed yet (the GM reveals it when the session ends)")
NEVER_REVEALED = N_("dice secret #{key} was replaced by a new one without being revealed")
GM_ROLLS = N_("the GM's rolls (GM-only, or with a secret character): their dice are not in the transcript")
SECRET_FIGHTER = N_("initiative rolls with a secret fighter's dice, which the transcript leaves out")
NOT_BEFORE = N_("follow-ups of a roll the transcript does not hold")
WHY_SAID: dict[str, str] = {}
"""A reason not checked (the English key of ``Report.not_checked``, as ``--json`` keeps it) → its words made by
``said``, to tell it in the language in use."""


def _where(seq: object, n: object = None, key: object = None, undone: bool = False) -> str:
    """``seq 12 (roll #3 of dice secret #1) (undone)``: a roll named in a line (as said, told when printed)."""
    if n is None:
        return said(N_("seq {seq} (undone)"), seq=str(seq)) if undone else said(N_("seq {seq}"), seq=str(seq))
    values = {"seq": str(seq), "n": str(n), "key": str(key)}
    return (said(N_("seq {seq} (roll #{n} of dice secret #{key}) (undone)"), **values) if undone
            else said(N_("seq {seq} (roll #{n} of dice secret #{key})"), **values))


def _label(ev: Event) -> str:
    text = str(ev.get("text", ""))
    return text if len(text) <= 60 else text[:59] + "…"


def _shown(side: RollSide) -> list[DieTable]:
    dice = side.get("dice", []) if isinstance(side, dict) else []
    return [d for d in dice if isinstance(d, dict)] if isinstance(dice, list) else []


def _hand_sides(roll: RollTable) -> set[str]:
    """The sides of a roll entered by hand while the others were the program's (a seat's Rajapolku roll)."""
    hand = roll.get("hand")
    return {h for h in hand if isinstance(h, str)} if isinstance(hand, list) else set()


def _new_dice(roll: RollTable, before: RollTable | None) -> tuple[list[tuple[int, int, str]], list[str]]:
    """The program dice this roll threw (size, face, where), in throwing order, and carried dice that changed."""
    prev_sides = {s.get("role"): s for s in (before["sides"] if before else [])}
    new: list[tuple[int, int, str]] = []
    changed: list[str] = []
    by_hand = _hand_sides(roll)
    for side in roll.get("sides", []) if isinstance(roll.get("sides"), list) else []:
        if not isinstance(side, dict):
            continue
        role = side.get("role", "?")
        if role in by_hand:
            continue
        old = _shown(prev_sides[role]) if before is not None and role in prev_sides else []
        for i, d in enumerate(_shown(side)):
            where = said(N_("die {n} of side {role}"), n=i + 1, role=role)
            size, face = d.get("size"), d.get("face")
            if i < len(old):
                o = old[i]
                thrown_again = len(d.get("replaced", []) or []) > len(o.get("replaced", []) or [])
                if not thrown_again:
                    if (size, face) != (o.get("size"), o.get("face")):
                        changed.append(said(N_("{where} shows d{size}={face}, but the roll it follows showed "
                                                  "d{old_size}={old_face} and threw no new die for it"), where=where,
                                               size=size, face=face, old_size=o.get("size"), old_face=o.get("face")))
                    continue
            new.append((size if isinstance(size, int) else 0, face if isinstance(face, int) else 0, where))
    return new, changed


@dataclass
class _Keys:
    """The dice secrets a file (or a transcript) holds, and what the players were shown of them."""

    committed: dict[int, tuple[int, str]] = field(default_factory=dict)
    """dice key → (seq of its commitment, commitment)."""
    revealed: dict[int, str] = field(default_factory=dict)
    """dice key → the secret, revealed to the players."""
    secrets: dict[int, str] = field(default_factory=dict)
    """dice key → the secret, revealed or (in the GM's file) the one in use."""
    current: int | None = None
    """The key of the secret in use now."""


@dataclass
class _Walk:
    """What the check of one roll needs to know of the rest of the log."""

    keys: _Keys
    by_seq: dict[Any, Event]
    undone: set[int]
    player: bool
    used: dict[tuple[int, int], int] = field(default_factory=dict)
    """(dice key, roll number) → the seq that used it."""
    numbers: dict[int, set[int]] = field(default_factory=dict)
    """dice key → the roll numbers the log's program rolls carry."""


def _revealed_list(dice: Mapping[str, Any]) -> list[dict[str, Any]]:
    raw = dice.get("revealed")
    return [r for r in raw if isinstance(r, dict) and isinstance(r.get("key"), int)] if isinstance(raw, list) else []


def _keys(events: list[Event], dice: Mapping[str, Any], player: bool) -> _Keys:
    """The secrets of the log's dice events and of the state (the first one, the one in use, the revealed)."""
    keys = _Keys()
    for ev in events:
        dice_key = ev.get("dice_key")
        if ev.get("kind") != "dice" or not isinstance(dice_key, int):
            continue
        if isinstance(ev.get("revealed"), str):
            keys.revealed[dice_key] = ev["revealed"]
        elif isinstance(ev.get("commitment"), str):
            keys.committed.setdefault(dice_key, (ev["seq"], ev["commitment"]))
    for r in _revealed_list(dice):
        if isinstance(r.get("secret"), str):
            keys.revealed.setdefault(r["key"], r["secret"])
    keys.secrets = dict(keys.revealed)
    current = keys.current = dice.get("key") if isinstance(dice.get("key"), int) else None
    if current is not None and isinstance(dice.get("secret"), str) and not player:
        keys.secrets.setdefault(current, dice["secret"])
    if current is not None and current not in keys.committed and isinstance(dice.get("commitment"), str):
        # The first secret of a campaign is in its first state, not in an event.
        keys.committed[current] = (0, dice["commitment"])
    for r in _revealed_list(dice):
        if r["key"] not in keys.committed and isinstance(r.get("commitment"), str):
            keys.committed[r["key"]] = (0, r["commitment"])
    return keys


def _check_secrets(rep: Report, keys: _Keys, player: bool) -> None:
    """Each secret's SHA-256 is the commitment shown; a secret not revealed yet is said so."""
    for key, secret in sorted(keys.secrets.items()):
        shown = keys.committed.get(key)
        try:
            actual = fairdice.commitment(secret)
        except ValueError as e:
            rep.mismatches.append(said(N_("dice secret #{key}: {problem}"), key=key, problem=str(e)))
            continue
        if shown is None:
            rep.mismatches.append(said(N_("dice secret #{key}: no commitment was ever shown for it"), key=key))
        elif shown[1] != actual:
            rep.mismatches.append(said(N_("dice secret #{key}: its SHA-256 is {actual}, not the commitment {shown} "
                                          "shown to the players"), key=key, actual=actual, shown=shown[1]))
        if key not in keys.revealed:
            rep.notes.append(said(N_("dice secret #{key} is not revealed yet: its rolls are checked with the secret "
                                     "this file holds; the players can check them once it is revealed"), key=key))
    current = keys.current
    if player and current is not None and current not in keys.secrets:
        commitment = keys.committed[current][1] if current in keys.committed else said(N_("(none shown)"))
        rep.notes.append(said(N_("dice secret #{key} is not revealed yet: its commitment is {commitment}; its rolls "
                                 "can be checked once the GM reveals it (a new session, or V in the GM's app)"),
                              key=current, commitment=commitment))


def _list_withheld(rep: Report, walk: _Walk, withheld: Iterable[Mapping[str, Any]]) -> None:
    """The roll numbers a transcript lists without dice: counted as made, named as not checkable."""
    for w in withheld:
        w_key, w_n = w.get("dice_key"), w.get("roll_no")
        if not isinstance(w_key, int) or not isinstance(w_n, int):
            continue
        walk.numbers.setdefault(w_key, set()).add(w_n)
        why = SECRET_FIGHTER if w.get("why") == "secret fighter" else GM_ROLLS
        WHY_SAID.setdefault(why, said(why))
        rep.not_checked.setdefault(why, []).append(_where(w.get("seq"), w_n, w_key, bool(w.get("undone"))))


def verify(events: Iterable[Event], state: State, undone: Iterable[int] = (),
           withheld: Iterable[Mapping[str, object]] | None = None) -> Report:
    """Check every program roll of ``events`` (a loaded session's log and state).

    ``withheld`` given: ``events`` and ``state`` are a players' dice transcript
    (:mod:`polku.session.players.transcript`), ``withheld`` the roll numbers it lists
    without dice. Then the unrevealed secret is not there: its rolls, and the
    withheld ones, are named as not checkable, with the reason, not as mismatches.
    """
    player = withheld is not None
    rep = Report(source="transcript" if player else "file")
    events = list(events)
    raw = state.get("dice")
    dice: Mapping[str, Any] = raw if isinstance(raw, dict) else {}
    keys = _keys(events, dice, player)
    _check_secrets(rep, keys, player)
    walk = _Walk(keys, {ev.get("seq"): ev for ev in events if isinstance(ev, dict)}, set(undone), player)
    _judge_results(rep, events, walk.undone, _campaign_settings(state), _names(state))
    _list_withheld(rep, walk, withheld or ())
    for ev in events:
        roll = ev.get("roll")
        if isinstance(roll, dict):
            _check_roll(rep, walk, ev, roll, bool(dice))
    _check_numbering(rep, walk.numbers, dice, "transcript" if player else "log")
    if not rep.seeded and not keys.secrets and rep.before:
        rep.notes.insert(0, said(N_("this file predates verifiable dice: its program rolls have no committed "
                                    "secret to check them against")))
    return rep


def _names(state: Mapping[str, Any]) -> dict[str, str]:
    """Character id → name, of the characters the file (or the transcript) names."""
    chars = state.get("characters")
    if not isinstance(chars, Mapping):
        return {}
    return {str(cid): str(ch["name"]) for cid, ch in chars.items() if isinstance(ch, Mapping) and "name" in ch}


def _judge_results(rep: Report, events: list[Event], undone: set[int], campaign: Settings,
                   names: dict[str, str]) -> None:
    """Every roll's result judged again from its faces (a success test's hits first). An extended test's
    interval starts from the total the interval before it reached, as judged again (S10)."""
    totals: dict[Any, dict[int, int]] = {}
    """challenge → intervals → the hits accumulated after so many, as the faces give them."""
    for ev in events:
        note = " (undone)" if ev.get("seq") in undone else ""
        found = len(rep.mismatches)
        _check_outcome(rep, ev, note)
        if len(rep.mismatches) != found:
            continue
        roll = ev.get("roll")
        known = Known(names=names, text=str(ev.get("text", "")))
        ext = roll.get("outcome") if isinstance(roll, dict) and roll.get("test") == "shadowrun-extended" else None
        k = ext.get("intervals") if isinstance(ext, dict) else None
        if isinstance(k, int):
            known = Known(0 if k == 1 else totals.get(ev.get("challenge"), {}).get(k - 1), names, known.text)
        again = _rejudge(rep, ev, note, campaign, known)
        if isinstance(k, int) and again is not None and ev.get("seq") not in undone:
            accumulated = again.outcome.get("accumulated", 0)
            totals.setdefault(ev.get("challenge"), {})[k] = accumulated if isinstance(accumulated, int) else 0


def _list_by_hand(rep: Report, ev: Event, roll: RollTable, undone_note: str) -> bool:
    """A roll entered by hand is listed; True when nothing of it is the program's to check."""
    if not roll.get("manual"):
        return False
    seq = ev.get("seq")
    hand = _hand_sides(roll)
    if not hand:
        rep.hand.append(said(N_("{roll}: {label}"), roll=_where(seq, undone=bool(undone_note)), label=_label(ev)))
        return True
    # Some sides by hand, the others the program's dice: list the one, check the others.
    sides = ", ".join(sorted(hand))
    rep.hand.append(said(N_("{roll} (side {sides}; the other side's program dice are checked): {label}"),
                         roll=_where(seq, undone=bool(undone_note)), sides=sides, label=_label(ev)))
    return False


def _check_unnumbered(rep: Report, roll: RollTable, before_roll: RollTable | None, where: str) -> None:
    """A roll without a secret's number: a follow-up that threw nothing, or a roll older than verifiable dice."""
    if before_roll is not None and not roll.get("draws"):
        # A follow-up that threw nothing (negating a glitch): the dice must be the same.
        new, changed = _new_dice(roll, before_roll)
        rep.mismatches += [said(N_("{where}: {problem}"), where=where, problem=c) for c in changed]
        rep.mismatches += [said(N_("{where}: {die} is new but no die was thrown"), where=where, die=w) for _, _, w in new]
        return
    if roll.get("draws") or "seed" in roll:
        rep.before += 1


def _check_roll(rep: Report, walk: _Walk, ev: Event, roll: RollTable, has_dice: bool) -> None:
    """One logged roll's dice against its secret (or its fixed seed), with what it carried over."""
    seq = ev.get("seq")
    undone_note = " (undone)" if seq in walk.undone else ""
    if _list_by_hand(rep, ev, roll, undone_note):
        return
    roll_key, n = roll.get("dice_key"), roll.get("roll_no")
    prev_seq = roll.get("supersedes", roll.get("rerolls"))
    before = walk.by_seq.get(prev_seq) if isinstance(prev_seq, int) else None
    before_roll = before.get("roll") if isinstance(before, dict) and isinstance(before.get("roll"), dict) else None
    if walk.player and isinstance(prev_seq, int) and before_roll is None:
        # Which of its dice were carried over is in the roll the players were not shown.
        if isinstance(roll_key, int) and isinstance(n, int):
            walk.numbers.setdefault(roll_key, set()).add(n)
            WHY_SAID.setdefault(NOT_BEFORE, said(NOT_BEFORE))
            rep.not_checked.setdefault(NOT_BEFORE, []).append(_where(seq, n, roll_key, bool(undone_note)))
        return
    if roll.get("fixed_seed") and isinstance(roll.get("seed"), int):
        # Deliberately seeded (a demo, polku --seed): the faces must still be the seed's.
        rep.seeded += 1
        fixed = (said(N_("seq {seq} (fixed seed) (undone)"), seq=seq) if undone_note
                 else said(N_("seq {seq} (fixed seed)"), seq=seq))
        _check_draws(rep, fixed, roll["seed"], roll, before_roll)
        return
    if not isinstance(roll_key, int) or not isinstance(n, int):
        _check_unnumbered(rep, roll, before_roll, _where(seq, undone=bool(undone_note)))
        return
    where = _where(seq, n, roll_key, bool(undone_note))
    walk.numbers.setdefault(roll_key, set()).add(n)
    keys = walk.keys
    if walk.player and roll_key not in keys.secrets and (roll_key == keys.current or roll_key in keys.committed):
        why = NOT_REVEALED if roll_key == keys.current else NEVER_REVEALED
        WHY_SAID.setdefault(why.format(key=roll_key), said(why, key=roll_key))
        rep.not_checked.setdefault(why.format(key=roll_key), []).append(where)
        _note_reuse(rep, walk.used, roll_key, n, seq, walk.undone, where)
        return
    rep.checked += 1
    rep.numbers.setdefault(roll_key, set()).add(n)
    _note_reuse(rep, walk.used, roll_key, n, seq, walk.undone, where)
    if _check_seed(rep, keys, roll, roll_key, n, seq, where):
        _check_draws(rep, where, roll["seed"], roll, before_roll)
        if has_dice and roll_key not in keys.revealed:
            rep.unrevealed += 1


def _check_seed(rep: Report, keys: _Keys, roll: RollTable, key: int, n: int, seq: Any, where: str) -> bool:
    """The roll's secret is there and committed before it, and its seed is the one the secret and number give."""
    if key not in keys.secrets:
        rep.mismatches.append(said(N_("{where}: no dice secret #{key} in this file"), where=where, key=key)
                              if rep.source == "file" else
                              said(N_("{where}: no dice secret #{key} in this transcript"), where=where, key=key))
        return False
    shown = keys.committed.get(key)
    if shown is not None and isinstance(seq, int) and shown[0] > seq:
        rep.mismatches.append(said(N_("{where}: its secret was committed only later, at seq {seq}"), where=where,
                                   seq=shown[0]))
    try:
        want_seed = fairdice.roll_seed(keys.secrets[key], n)
    except ValueError as e:
        rep.mismatches.append(said(N_("{where}: {problem}"), where=where, problem=str(e)))
        return False
    if roll.get("seed") != want_seed:
        rep.mismatches.append(said(N_("{where}: seed {seed} is not the seed the secret gives ({want})"), where=where,
                                   seed=str(roll.get("seed")), want=want_seed))
        return False
    return True


def _note_reuse(rep: Report, used: dict[tuple[int, int], int], key: int, n: int, seq: Any, undone: set[int],
                where: str) -> None:
    """A roll number used twice: a mismatch, unless undo gave it back (then a note naming both rolls)."""
    earlier = used.get((key, n))
    if earlier is not None and seq not in undone and earlier not in undone:
        rep.mismatches.append(said(N_("{where}: roll #{n} was already used by seq {earlier}"), where=where, n=n,
                                   earlier=earlier))
    elif earlier is not None:
        # Undo gives a roll's number back: both rolls had the same seed, so the same first dice.
        first, then = (earlier, seq) if earlier in undone else (seq, earlier)
        values: dict[str, str | int] = {"n": n, "key": key, "first": str(first), "then": str(then)}
        rep.notes.append(said(N_("roll #{n} of dice secret #{key}: seq {first} was undone and seq {then} rolled with the "
                                 "same number (the same seed, so the same first dice); both checked"), **values)
                         if key in rep.numbers else
                         said(N_("roll #{n} of dice secret #{key}: seq {first} was undone and seq {then} rolled with the "
                                 "same number (the same seed, so the same first dice); to be checked once the secret "
                                 "is revealed"), **values))
    used[(key, n)] = seq if isinstance(seq, int) else -1


SEEDED_ONE = N_("deliberately seeded: {n} program roll came from a fixed seed (a demo or polku --seed): "
                "reproducible, not secret, so no proof of fair dice{tail}")
SEEDED_MANY = N_("deliberately seeded: {n} program rolls came from a fixed seed (a demo or polku --seed): "
                 "reproducible, not secret, so no proof of fair dice{tail}")
"""The one line ``polku verify`` says of a file whose program dice a fixed seed made (one roll, or more)."""


def _check_outcome(rep: Report, ev: Event, undone_note: str) -> None:
    """A Varjojuoksu success test's result, judged again from the faces it shows (S4, S8), and its log line.

    Hits are the faces of 5 or 6 (``rules.shadowrun.count_hits``); success is hits
    at least the threshold, net hits the hits above it; the log line must say the
    roll's summary. A result changed by hand in the file is a mismatch, whoever rolled the dice.
    """
    from ...rules.shadowrun import count_hits

    roll = ev.get("roll")
    if not isinstance(roll, dict) or roll.get("test") != "shadowrun":
        return
    outcome, sides = roll.get("outcome"), roll.get("sides")
    if not isinstance(outcome, dict) or not isinstance(sides, list) or len(sides) != 1:
        return
    if outcome.get("bought") or outcome.get("auto_failed"):
        return
    where = _where(ev.get("seq"), undone=bool(undone_note))
    faces = [d.get("face") for d in _shown(sides[0])]
    hits = count_hits(f for f in faces if isinstance(f, int))
    if outcome.get("hits") != hits:
        rep.mismatches.append(said(N_("{where}: the result says {said} hits, its dice show {hits} (S4)"), where=where,
                                   said=str(outcome.get("hits")), hits=hits))
        return
    thr = outcome.get("threshold", roll.get("threshold"))
    if "success" in outcome and isinstance(thr, int):
        success = hits >= thr
        net = hits - thr if success else 0
        if outcome.get("success") is not success or outcome.get("net_hits") != net:
            logged = said(N_("success")) if outcome.get("success") else said(N_("failure"))
            right = said(N_("a success with {net} net"), net=net) if success else said(N_("a failure"))
            rep.mismatches.append(said(N_("{where}: the result says {said} with {said_net} net hits; {hits} hits against "
                                          "threshold {threshold} are {right} (S8)"), where=where, said=logged,
                                       said_net=str(outcome.get("net_hits")), hits=hits, threshold=thr, right=right))
            return
    summary = roll.get("summary")
    head = f"{hits} hit{'s' * (hits != 1)}"
    if not isinstance(summary, str) or not summary.startswith(head) \
            or not str(ev.get("text", "")).endswith(summary):
        rep.mismatches.append(said(N_("{where}: its log line does not say its result ({head})"), where=where,
                                   head=head))


def _campaign_settings(state: Mapping[str, Any]) -> Settings:
    """The campaign's settings, for a roll that kept none of its own (the defaults when unreadable)."""
    raw = state.get("settings")
    try:
        return Settings.from_dotted(raw) if isinstance(raw, Mapping) else Settings()
    except RulesError:
        return Settings()


def _rejudge(rep: Report, ev: Event, undone_note: str, campaign: Settings, known: Known) -> Rejudged | None:
    """Every roll's result judged again from its faces with the rules core and the settings the roll
    kept (:func:`polku.session.table.rejudge.rejudge`): a changed outcome, summary, side label or log
    line is a mismatch. The result as judged again, or None."""
    roll = ev.get("roll")
    if not isinstance(roll, dict):
        return None
    where = _where(ev.get("seq"), undone=bool(undone_note))
    try:
        again = rejudge(roll, roll_settings(roll, campaign), known)
    except RulesError as e:
        rep.mismatches.append(said(N_("{where}: its faces break the rules it was made with: {problem}"), where=where,
                                   problem=str(e)))
        return None
    except (ValueError, TypeError, KeyError, AttributeError, IndexError):
        rep.mismatches.append(said(N_("{where}: its dice cannot be read as dice, so its result cannot be judged"),
                                   where=where))
        return None
    if again is None:
        return None
    _compare(rep, ev, roll, again, where)
    return again


def _compare(rep: Report, ev: Event, roll: Mapping[str, Any], again: Rejudged, where: str) -> None:
    """The logged result, summary, side labels and log line against what the faces give: one line for the first that differs."""
    labels = [str(s.get("label", "")) for s in roll.get("sides", []) if isinstance(s, dict)]
    wrong = [(i, a, b) for i, (a, b) in enumerate(zip(labels, again.labels)) if a != b]
    if again.labels and wrong:
        i, said_label, right = wrong[0]
        rep.mismatches.append(said(N_("{where}: side {n} says '{said}', its faces give '{right}' ({rules})"), where=where,
                                   n=i + 1, said=said_label, right=right, rules=again.rules))
        return
    logged = roll.get("summary")
    if roll.get("outcome") != again.outcome:
        changed = sorted(k for k in set(again.outcome) | set(roll.get("outcome") or {})
                         if (roll.get("outcome") or {}).get(k) != again.outcome.get(k))
        rep.mismatches.append(said(N_("{where}: its result does not follow from its faces ({rules}, the settings it was "
                                      "made with): the faces give '{right}', the log says '{said}' (changed: {changed})"),
                                   where=where, rules=again.rules, right=again.summary, said=str(logged),
                                   changed=", ".join(changed[:6])))
    elif logged != again.summary:
        rep.mismatches.append(said(N_("{where}: its summary says '{said}', its result is '{right}' ({rules})"),
                                   where=where, said=str(logged), right=again.summary, rules=again.rules))
    elif ev.get("text") != again.text:
        rep.mismatches.append(said(N_("{where}: its log line does not say its result ('{text}')"), where=where,
                                   text=again.text))


def _check_numbering(rep: Report, numbers: dict[int, set[int]], dice: Mapping[str, Any], where: str) -> None:
    """Every roll number of a secret, 1 up to the last one made, is in the log.

    The count made is the state's (``dice.rolls`` per key, and each revealed secret's
    ``rolls``): a program roll rewritten as entered by hand, or removed, leaves its number missing.
    """
    made: dict[int, int] = {}
    rolls = dice.get("rolls")
    if isinstance(rolls, dict):
        for k, v in rolls.items():
            if isinstance(k, str) and k.isdigit() and isinstance(v, int) and not isinstance(v, bool):
                made[int(k)] = v
    for r in dice.get("revealed", []) if isinstance(dice.get("revealed"), list) else []:
        if isinstance(r, dict) and isinstance(r.get("key"), int) and isinstance(r.get("rolls"), int):
            made[r["key"]] = max(made.get(r["key"], 0), r["rolls"])
    for key in sorted(set(made) | set(numbers)):
        seen = numbers.get(key, set())
        last = max([made.get(key, 0), *seen])
        missing = [n for n in range(1, last + 1) if n not in seen]
        if missing:
            shown = ", ".join(f"#{n}" for n in missing[:10]) + (" …" if len(missing) > 10 else "")
            values: dict[str, str | int] = {"key": key, "shown": shown, "last": last}
            if len(missing) == 1:
                rep.mismatches.append(
                    said(N_("dice secret #{key}: program roll {shown} of {last} made is not in the log (rewritten as "
                            "entered by hand, or removed)"), **values) if where == "log" else
                    said(N_("dice secret #{key}: program roll {shown} of {last} made is not in the transcript "
                            "(rewritten as entered by hand, or removed)"), **values))
            else:
                rep.mismatches.append(
                    said(N_("dice secret #{key}: program rolls {shown} of {last} made are not in the log (rewritten "
                            "as entered by hand, or removed)"), **values) if where == "log" else
                    said(N_("dice secret #{key}: program rolls {shown} of {last} made are not in the transcript "
                            "(rewritten as entered by hand, or removed)"), **values))


def _check_draws(rep: Report, where: str, seed: int, roll: RollTable, before_roll: RollTable | None) -> None:
    """The seed gives every logged draw, and the roll shows exactly those draws as its new dice."""
    draws_raw = roll.get("draws", [])
    try:
        draws = [fairdice.parse_draw(d) for d in (draws_raw if isinstance(draws_raw, list) else [None])]
    except ValueError as e:
        rep.mismatches.append(said(N_("{where}: {problem}"), where=where, problem=str(e)))
        return
    try:
        faces = fairdice.replay_draws(seed, [s for s, _ in draws])
    except ValueError:  # a die size no dice source knows (randint(1, 0))
        rep.mismatches.append(said(N_("{where}: a draw has a die size Polku does not roll"), where=where))
        return
    bad = [(i, s, f, g) for i, ((s, f), g) in enumerate(zip(draws, faces)) if f != g]
    for i, s, f, g in bad:
        rep.mismatches.append(said(N_("{where}: draw {n} is d{size}={face}, the seed gives {gave}"), where=where, n=i + 1,
                                   size=s, face=f, gave=g))
    new, changed = _new_dice(roll, before_roll)
    rep.mismatches += [said(N_("{where}: {problem}"), where=where, problem=c) for c in changed]
    if len(new) != len(draws):
        rep.mismatches.append(said(N_("{where}: the roll shows {new} new dice but threw {thrown}"), where=where,
                                   new=len(new), thrown=len(draws)))
    for (size, face, w), (ds, df) in zip(new, draws):
        if (size, face) != (ds, df):
            rep.mismatches.append(said(N_("{where}: {die} shows d{size}={face}, the seed gave d{seed_size}={seed_face}"),
                                       where=where, die=w, size=size, face=face, seed_size=ds, seed_face=df))


__all__ = ["Report", "verify"]
