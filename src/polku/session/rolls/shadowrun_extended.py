"""Varjojuoksu's extended test (S10): who rolls every interval, an interval's roll (the threshold,
the pool or hurrying may change between intervals), and the GM spoiling the test after a glitch.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...rules import shadowrun as sr
from ..model import Event, ExtendedProgress, ExtendedRollerTable, roll_of
from ..telling import line
from .common import DoAction, RollAction, Rolled, die_dict
from .shadowrun import SREmit, SRPool, SRRecord, SRRolls, SRSide, pool_from, pool_json

if TYPE_CHECKING:
    from ..host import Txn


@dataclass(frozen=True, slots=True)
class ExtendedRoller:
    """Who rolls every interval of an extended test, and the pool last rolled (S10).

    The GM may change the threshold, the pool or hurrying between intervals;
    the roller stays the one who began the test.
    """

    who: str
    """The character's id, or "" for the GM's dice count."""
    name: str
    pool: SRPool | None
    """The pool of the last interval (None: not known, an older file)."""

    @property
    def reason(self) -> str:
        """One line: why the roller cannot change."""
        return f"{self.name} rolls every interval of this extended test (S10): add a new challenge for another roller"


def extended_summary(test: sr.ExtendedTest) -> str:
    """An interval's log line after ``test.add`` (S10): its hits, the running total against the threshold,
    a glitch, the end."""
    judged = test.history[-1]
    return (f"interval {test.intervals}: {judged.hits} hit{'s' if judged.hits != 1 else ''}, "
            f"{test.accumulated}/{test.threshold}"
            + (f" — {sr.glitch_words(judged.hits, True)}, the test ends" if judged.critical_glitch else
               f" — {sr.glitch_words(judged.hits)}, GM: spoil?" if judged.glitch else "")
            + (" — done" if test.done else ""))


def extended_outcome(test: sr.ExtendedTest) -> dict[str, object]:
    """An interval's logged outcome after ``test.add`` (S10): the roll as judged, and the test's progress."""
    outcome = sr.result_json(test.history[-1])
    outcome.pop("dice", None)
    outcome.update({"accumulated": test.accumulated, "threshold": test.threshold,
                    "intervals": test.intervals, "done": test.done, "ended": test.ended})
    return outcome


class SRExtendedRolls(SRRolls):
    """The extended test's commands (``tracker.rolls.roll_sr_extended``, ``sr_extended_spoil``…)."""

    def sr_extended_doers(self) -> dict[str, DoAction]:
        return {"spoil": self._do_spoil}

    def sr_emitters(self) -> dict[str, SREmit]:
        return {**super().sr_emitters(), "sr-extended": self._emit_extended}

    def _emit_extended(self, txn: "Txn", rec: SRRecord, origin: dict[str, object],
                       extra_explain: Sequence[str], supersedes: int | None) -> Event:
        """One interval of an extended test: the hits added, the test done or ended (S10)."""
        chal = rec.challenge
        side, plan, r = rec.sides["a"]
        assert chal is not None and rec.ext_before is not None
        ext = rec.ext_before
        test = sr.ExtendedTest(ext["threshold"], ext.get("interval", "interval"), ext["hurried"],
                               ext["accumulated"], ext["intervals"], ext["ended"], ext["spoiled"])
        test = test.add(r)
        idx = self.tracker.challenge_index(chal)
        txn.set(["challenges", idx, "extended"], {**ext, "accumulated": test.accumulated,
                                                  "intervals": test.intervals, "ended": test.ended,
                                                  "glitched": test.glitched})
        judged = test.history[-1]
        summary = extended_summary(test)
        fact: dict[str, object] = {"id": "sr.extended", "label": side.label, "interval": test.intervals, "hits": judged.hits,
                "accumulated": test.accumulated, "threshold": test.threshold, "done": test.done,
                "glitch_kind": "critical" if judged.critical_glitch else "glitch" if judged.glitch else None}
        if test.done or test.ended:
            self.tracker.resolve_challenge_in(txn, chal, summary, fact)
        elif rec.status_before is not None and self.tracker.challenge(chal)["status"] == "resolved":
            # Edge turned an ending critical glitch into a glitch: the test goes on.
            txn.set(["challenges", idx, "status"], rec.status_before)
            txn.set(["challenges", idx, "outcome"], "")
            if "outcome_fact" in self.tracker.challenge(chal):
                txn.delete(["challenges", idx, "outcome_fact"])
        outcome = extended_outcome(test)
        ev = self.emit_roll(txn, "shadowrun-extended", [
            {"role": "a", "label": side.label, "who": side.who, "dice": [die_dict(d) for d in r.dice]}],
            summary, outcome, list(extra_explain) + list(rec.lines) + test.explain() + judged.explain()
            + list(plan.explain()), origin, chal, f"{side.label}, extended test: {summary}", fact=fact,
            supersedes=supersedes)
        return ev

    def _do_spoil(self, roll_event: Event, act: RollAction, faces: Sequence[int] | None) -> Rolled:
        self.sr_extended_spoil(roll_event["challenge"])
        return {}

    def sr_extended_roller(self, challenge: str | None) -> ExtendedRoller | None:
        """Who rolls the extended test of ``challenge`` (S10), or None before its first interval
        (or when its roller has left the campaign).

        Kept on the challenge (``roller``, never shown to the players); a test begun
        with an older version is read from its last interval in the log.
        """
        if not challenge:
            return None
        c = self.tracker.challenge(challenge)
        if not c.get("extended"):
            return None
        kept = c.get("roller")
        who: str | None = None
        pool = None
        if isinstance(kept, dict) and isinstance(kept.get("who"), str):
            who, pool = kept["who"], pool_from(kept.get("pool"))
        else:
            for ev in reversed(self.tracker.events):
                roll = roll_of(ev)
                if (ev.get("kind") == "roll" and ev.get("challenge") == challenge
                        and roll.get("test") == "shadowrun-extended" and not self.tracker.is_undone(ev["seq"])):
                    who = next(iter(roll["sides"][0].get("who") or []), "") if roll["sides"] else ""
                    break
        if who is None or (who and who not in self.tracker.characters):
            return None
        return ExtendedRoller(who, self.tracker.character(who)["name"] if who else "The GM", pool)

    def roll_sr_extended(self, side: SRSide, challenge: str, *, threshold: int | None = None,
                         hurried: bool | None = None, interval: str = "interval",
                         faces: Sequence[int] | None = None, pool: SRPool | None = None) -> Rolled:
        """S10: one interval of an extended test; progress is kept on the challenge.

        ``threshold``, ``hurried`` and the side's pool are what is in force for this
        interval: the GM may change them between intervals (None keeps the current
        ones), and the progress is judged against the threshold in force now. The
        roller stays: the character who rolled the first interval rolls every one
        (refused in one line otherwise). ``pool``, the GM's choice the side was
        built from, is kept so the next interval starts from it.
        """
        c = self.tracker.challenge(challenge)
        ext = c.get("extended")
        who = side.who[0] if side.who else ""
        roller = self.sr_extended_roller(challenge)
        if roller is not None and roller.who != who:
            raise self._refuse(roller.reason)
        changed: list[str] = []
        if ext is None:
            if threshold is None:
                raise self._refuse("an extended test needs a threshold (4 to 16+) (S10)")
            ext = {"threshold": threshold, "accumulated": 0, "intervals": 0, "hurried": bool(hurried),
                   "ended": False, "spoiled": False, "interval": interval, "restarts": 0}
        else:
            ext = ExtendedProgress(**ext)  # a copy: the state's own table is changed only by txn.set
            if threshold is not None and threshold != ext["threshold"]:
                changed.append(line("sr.threshold_changed", before=ext["threshold"], after=threshold))
                ext["threshold"] = threshold
            if hurried is not None and hurried != ext["hurried"]:
                changed.append(line("sr.hurried_now", hurried=bool(hurried)))
                ext["hurried"] = hurried
        if ext["ended"]:
            raise self._refuse("this extended test is over; restart it or add a new challenge (S10)")
        if ext["accumulated"] >= ext["threshold"]:
            raise self._refuse(f"{ext['accumulated']} hits already reach the threshold {ext['threshold']}: "
                               "the extended test is done (S10)")
        out: Rolled = {}

        def build(txn: "Txn") -> None:
            src, origin = self.dice_source(faces)
            plan, r = self._sr_roll_side(txn, side, src, hurried=ext["hurried"])
            self.check_faces_used(src)
            kept: ExtendedRollerTable = {"who": who}
            if pool is not None:
                kept["pool"] = pool_json(pool)
            if c.get("roller") != kept:
                txn.set(["challenges", self.tracker.challenge_index(challenge), "roller"], kept)
            rec = SRRecord("sr-extended", {"a": (side, plan, r)}, challenge=challenge, lines=tuple(changed),
                            ext_before=ext, status_before=c["status"])
            out["event"] = self._sr_emit(txn, rec, origin)

        self.tracker.run(build)
        return out

    def sr_extended_spoil(self, challenge: str) -> None:
        c = self.tracker.challenge(challenge)
        ext = c.get("extended")
        if not ext or not ext.get("glitched"):
            raise self._refuse("only a glitch can spoil an extended test (S10)")
        if ext.get("ended"):
            raise self._refuse("the extended test is already over (S10)")

        def build(txn: "Txn") -> None:
            idx = self.tracker.challenge_index(challenge)
            txn.set(["challenges", idx, "extended"], {**ext, "spoiled": True, "ended": True})
            self.tracker.resolve_challenge_in(txn, challenge, "spoiled by a glitch", {"id": "sr.spoiled"})
            txn.emit("challenge", f"{c['title']}: the GM rules the glitch spoils the extended test (S10)",
                     challenge=challenge, fact={"id": "sr.spoiled", "title": c["title"]})

        self.tracker.run(build)
