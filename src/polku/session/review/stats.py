"""Statistics of a session's log: per character results, dice fairness, luck.

Pure functions over the events a tracker holds; no textual, no rich, no I/O.

- Per character: rolls, wins / losses / ties, Rajapolku degrees (R6, R7),
  Varjojuoksu hits and net hits (S4, S8, S9), glitches (S5, S6), Edge, story
  points and charges spent (R11, R12, S7), Harhapolku edge rerolls (H7).
- Dice fairness: for each die size, how often each face came up, against the
  uniform expectation, with Pearson's chi-square goodness-of-fit statistic and
  its p-value ("are these dice fair?"), separately for the program's dice and
  dice entered by hand from physical dice.
- Luck: each character's wins against the exact probability of winning each
  contest they were in, and Varjojuoksu hits against the expected hits
  (:mod:`polku.rules.odds`).

Undone events are left out. A roll that another roll replaced (a Harhapolku
edge reroll, H7; Edge after a Varjojuoksu roll, S5–S7) counts once for
results, by its replacement; the dice the replacement added count once for
fairness.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Sequence, cast

from ...i18n import N_, _, decimal
from ...rules.dice import RulesError
from ...rules.shadowrun import count_hits
from ...rules.system import Settings
from .. import odds
from ..model import Challenge, Event, roll_of
from ..records import DieTable, RollSide, RollTable, SRTestOutcome
from ..rolls.common import roll_settings

if TYPE_CHECKING:
    from ..tracker import Tracker

# ---------------------------------------------------------------------------
# Chi-square


def _gamma_series(a: float, x: float) -> float:
    """Regularized lower incomplete gamma P(a, x) by its series (x < a + 1)."""
    term = total = 1.0 / a
    n = a
    for _step in range(10_000):
        n += 1.0
        term *= x / n
        total += term
        if abs(term) < abs(total) * 1e-15:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _gamma_cf(a: float, x: float) -> float:
    """Regularized upper incomplete gamma Q(a, x) by Lentz's continued fraction (x >= a + 1)."""
    tiny = 1e-300
    b = x + 1.0 - a
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        if abs(d) < tiny:
            d = tiny
        c = b + an / c
        if abs(c) < tiny:
            c = tiny
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def gamma_q(a: float, x: float) -> float:
    """The regularized upper incomplete gamma function Q(a, x) = Γ(a, x) / Γ(a)."""
    if a <= 0:
        raise ValueError("a must be positive")
    if x <= 0:
        return 1.0
    if x < a + 1.0:
        return max(0.0, 1.0 - _gamma_series(a, x))
    return min(1.0, _gamma_cf(a, x))


def chi2_sf(statistic: float, dof: int) -> float:
    """P(a chi-square variable with ``dof`` degrees of freedom ≥ ``statistic``)."""
    if dof < 1:
        raise ValueError("degrees of freedom must be at least 1")
    return gamma_q(dof / 2.0, statistic / 2.0)


def chi_square(counts: Sequence[int]) -> tuple[float, int, float]:
    """Pearson's goodness of fit of ``counts`` against a uniform distribution.

    Returns:
        ``(statistic, degrees of freedom, p-value)``; with no dice, ``(0.0, k-1, 1.0)``.
    """
    k = len(counts)
    n = sum(counts)
    dof = k - 1
    if n == 0 or k < 2:
        return 0.0, max(dof, 0), 1.0
    e = n / k
    stat = math.fsum((o - e) ** 2 / e for o in counts)
    return stat, dof, chi2_sf(stat, dof)


# ---------------------------------------------------------------------------
# Results


@dataclass
class FaceDistribution:
    """How often each face of one die size came up, program or hand dice."""

    size: int
    manual: bool
    counts: list[int]
    """``counts[f - 1]``: times face ``f`` came up."""

    @property
    def origin(self) -> str:
        return "entered by hand" if self.manual else "program"

    @property
    def total(self) -> int:
        return sum(self.counts)

    @property
    def expected(self) -> float:
        """Expected count of each face for fair dice."""
        return self.total / self.size if self.size else 0.0

    @property
    def fit(self) -> tuple[float, int, float]:
        """``(chi-square, degrees of freedom, p-value)``."""
        return chi_square(self.counts)

    @property
    def enough(self) -> bool:
        """At least 5 expected per face: the chi-square approximation holds."""
        return self.expected >= 5

    def verdict(self) -> str:
        """The test's figures and what they say, in the language in use."""
        stat, dof, p = self.fit
        if self.total == 0:
            return _("no dice")
        values = {"chi": decimal(stat, 2), "dof": dof, "p": decimal(p, 3)}
        if not self.enough:
            return _("χ² = {chi}, {dof} df, p = {p} — too few dice to judge (want ≥ {want})", want=5 * self.size,
                     **values)
        if p < 0.01:
            return _("χ² = {chi}, {dof} df, p = {p} — unlikely for fair dice", **values)
        if p < 0.05:
            return _("χ² = {chi}, {dof} df, p = {p} — a little odd", **values)
        return _("χ² = {chi}, {dof} df, p = {p} — consistent with fair dice", **values)


@dataclass
class CharacterStats:
    """One character's results over the log."""

    cid: str
    name: str
    kind: str = "pc"
    rolls: int = 0
    wins: int = 0
    losses: int = 0
    ties: int = 0
    degrees: int = 0
    """Rajapolku degrees of success won (R6, R7)."""
    hits: int = 0
    """Varjojuoksu hits (S4)."""
    net_hits: int = 0
    """Varjojuoksu net hits of successes and opposed wins (S8, S9)."""
    glitches: int = 0
    critical_glitches: int = 0
    edge_spent: int = 0
    story_points_spent: int = 0
    charges_spent: int = 0
    edge_rerolls: int = 0
    judged: int = 0
    """Contests with an exact win probability."""
    judged_wins: float = 0.0
    """Wins among the judged contests (a tie counts half)."""
    expected_wins: float = 0.0
    """Sum of the exact win probabilities of the judged contests."""
    hit_rolls: int = 0
    """Varjojuoksu rolls with an exact hit expectation."""
    judged_hits: int = 0
    expected_hits: float = 0.0
    story_bought: list[str] = field(default_factory=list)
    """What the story points bought (R12)."""

    @property
    def win_luck(self) -> float:
        """Wins above (+) or below (−) the exact expectation."""
        return self.judged_wins - self.expected_wins

    @property
    def hit_luck(self) -> float:
        return self.judged_hits - self.expected_hits


@dataclass
class SessionStats:
    """Everything :func:`compute` finds."""

    characters: list[CharacterStats]
    faces: list[FaceDistribution]
    rolls: int
    """Rolls that stand: not undone, and a replaced roll counted once, by its replacement."""
    events: int
    undone: int


@dataclass
class SideResult:
    """One side of one roll, judged."""

    role: str
    label: str
    who: list[str]
    result: str | None = None
    """``win``, ``loss``, ``tie`` or None (no contest: an initiative or extended roll)."""
    degrees: int = 0
    hits: int | None = None
    net_hits: int = 0
    glitch: bool = False
    critical_glitch: bool = False
    p_win: float | None = None
    """Exact probability of this side winning, where known."""
    p_tie: float = 0.0
    expected_hits: float | None = None


def _count_sizes(dice: Iterable[DieTable]) -> tuple[int, int]:
    n8 = sum(1 for d in dice if d.get("size") == 8)
    n10 = sum(1 for d in dice if d.get("size") == 10)
    return n8, n10


def _sr_expect(side_dice: Sequence[DieTable], outcome: SRTestOutcome, settings: Settings) -> tuple[float | None, Any]:
    """Expected hits and the odds object of a Varjojuoksu roll, or (None, None)."""
    if outcome.get("bought") or outcome.get("auto_failed"):
        return None, None
    base = [d for d in side_dice if d.get("source") != "exploded"]
    n = len(base)
    when = outcome.get("edge")
    try:
        if _sr_explodes(outcome):
            o = odds.sr(odds.SRQuestion(n, rule_of_six=True), settings)
            return o.mean(), o
        if when == "after":
            e = int(outcome.get("edge_dice", 0))
            return (odds.sr(odds.SRQuestion(max(n - e, 0)), settings).mean()
                    + odds.sr(odds.SRQuestion(e, rule_of_six=True), settings).mean()), None
        o = odds.sr(odds.SRQuestion(n), settings)
        return o.mean(), o
    except RulesError:
        return None, None


def _rerolled_role(roll: RollTable, previous: RollTable | None) -> int | None:
    """Which side (by position) an edge reroll threw again: the one whose dice are not the previous roll's."""
    if previous is None:
        return None
    new_sides, old_sides = list(roll.get("sides", [])), list(previous.get("sides", []))
    if len(new_sides) != len(old_sides):
        return None
    changed = [i for i, (a, b) in enumerate(zip(new_sides, old_sides))
               if Counter(map(_die_key, a.get("dice", []))) != Counter(map(_die_key, b.get("dice", [])))]
    return changed[0] if len(changed) == 1 else None


def _sr_explodes(sub: SRTestOutcome) -> bool:
    """S3, S7: Edge before the roll and a Long Shot make every die follow the rule of six."""
    return sub.get("edge") in ("before", "long_shot")


def _harha_pools(roll: RollTable, sides: Sequence[RollSide], variant: str) -> list[tuple[int, int]]:
    """Each side's pool as (d8, d10); under the sum variant the dice it had, of its die's size (H6)."""
    pools = [_count_sizes(s.get("dice", [])) for s in sides]
    counts = roll.get("counts")
    if variant != "sum" or not isinstance(counts, list) or len(counts) != len(sides):
        return pools
    out = []
    for (_n8, n10), count in zip(pools, counts):
        out.append((0, int(count)) if n10 else (int(count), 0))
    return out


def judge_roll(roll: RollTable, campaign: Settings,
               previous: RollTable | None = None) -> list[SideResult]:
    """Each side's result, degrees, hits, glitches and exact odds, from a stored roll.

    The odds are asked of :mod:`polku.session.odds` with the settings the roll
    was made with (:func:`roll_settings`; ``campaign``, the campaign's settings
    now, only for a roll that kept none), so a setting changed later does not
    change how an old roll is judged. ``previous`` is the roll this one
    replaced (an edge reroll, H7): the side that did not reroll kept its faces,
    so the odds are conditional on them.
    """
    settings = roll_settings(roll, campaign)
    test = str(roll.get("test", ""))
    sides = list(roll.get("sides", []))
    outcome = roll.get("outcome", {}) or {}
    out = [SideResult(s.get("role", "?"), s.get("label", "?"), list(s.get("who", []))) for s in sides]
    if test in ("rajapolku", "spirit") and len(sides) == 2:
        winner = outcome.get("winner")
        try:
            (an, aa), (bn, ba) = [(sum(1 for d in s.get("dice", []) if d.get("source") != "ability"),
                                   sum(1 for d in s.get("dice", []) if d.get("source") == "ability")) for s in sides]
            o = odds.raja(odds.RajaQuestion((an, aa), (bn, ba), degrees=False), settings)
            out[0].p_win, out[1].p_win = o.a_wins, o.b_wins
            out[0].p_tie = out[1].p_tie = o.tie
        except RulesError:
            pass
        _two_sided(out, winner)
        if winner in ("a", "b"):
            out[0 if winner == "a" else 1].degrees = int(outcome.get("degrees", 0) or 0)
    elif test.startswith("harhapolku-") and test != "harhapolku-difficult" and len(sides) == 2:
        winner = outcome.get("winner")
        variant = str(roll.get("variant", test.split("-", 1)[1]))
        demand = str(roll.get("demand") or "")
        pa, pb = _harha_pools(roll, sides, variant)
        again = _rerolled_role(roll, previous) if roll.get("rerolls") is not None else None
        question: odds.HarhaQuestion | odds.HarhaRerollQuestion
        try:
            if again is None:
                question = odds.HarhaQuestion(pa, pb, demand)
            else:
                fixed = tuple(int(d.get("face", 0)) for d in sides[1 - again].get("dice", []))
                question = odds.HarhaRerollQuestion(pa, pb, fixed, "a" if again == 0 else "b", demand)
            p_a, p_b, p_tie = odds.success_of(odds.harha(question, replace(settings, harha_variant=variant)))
            out[0].p_win, out[1].p_win = p_a, p_b
            out[0].p_tie = out[1].p_tie = p_tie
        except (RulesError, ValueError):
            pass
        _two_sided(out, winner)
    elif test == "harhapolku-difficult" and sides:
        out[0].result = "win" if outcome.get("success") else "loss"
        try:
            demand = "very_demanding" if outcome.get("very_demanding") else "difficult"
            question = odds.HarhaQuestion(_count_sizes(sides[0].get("dice", [])), None, demand)
            used = replace(settings, harha_variant=str(roll.get("variant", "ch23")))
            out[0].p_win = odds.success_of(odds.harha(question, used))[0]
        except (RulesError, ValueError):
            pass
    elif test in ("shadowrun", "shadowrun-extended", "shadowrun-teamwork") and sides:
        lead = out[-1]
        dice = sides[-1].get("dice", [])
        lead.hits = int(outcome.get("hits", 0))
        lead.glitch = bool(outcome.get("glitch"))
        lead.critical_glitch = bool(outcome.get("critical_glitch"))
        if test != "shadowrun-teamwork":
            lead.expected_hits, o = _sr_expect(dice, outcome, settings)
        else:
            o = None
        if "success" in outcome:
            lead.result = "win" if outcome["success"] else "loss"
            lead.net_hits = int(outcome.get("net_hits", 0))
            thr = outcome.get("threshold", roll.get("threshold"))
            if o is not None and isinstance(thr, int):
                lead.p_win = o.success(thr)
        for r, s in zip(out[:-1], sides[:-1]):  # teamwork helpers
            r.hits = count_hits(d.get("face", 0) for d in s.get("dice", []))
    elif test == "shadowrun-opposed" and len(sides) == 2:
        winner = outcome.get("winner")
        none: SRTestOutcome = {}
        sa, sb = outcome.get("a") or none, outcome.get("b") or none
        for r, sub, s in ((out[0], sa, sides[0]), (out[1], sb, sides[1])):
            r.hits = int(sub.get("hits", 0))
            r.glitch = bool(sub.get("glitch"))
            r.critical_glitch = bool(sub.get("critical_glitch"))
            r.expected_hits, _rest = _sr_expect(s.get("dice", []), sub, settings)
        _two_sided(out, winner)
        if winner in ("a", "b"):
            out[0 if winner == "a" else 1].net_hits = int(outcome.get("net_hits", 0))
        try:
            na = sum(1 for d in sides[0].get("dice", []) if d.get("source") != "exploded")
            nb = sum(1 for d in sides[1].get("dice", []) if d.get("source") != "exploded")
            if "after" not in (sa.get("edge"), sb.get("edge")) and not (sa.get("bought") or sb.get("bought")):
                so = odds.opposed(odds.SRQuestion(na, "opposed", _sr_explodes(sa), nb, _sr_explodes(sb)), settings)
                out[0].p_win, out[1].p_win = so.a_wins, so.b_wins
                out[0].p_tie = out[1].p_tie = so.tie
        except RulesError:
            pass
    elif test == "initiative":
        for r, s in zip(out, sides):
            dice = s.get("dice", [])
            r.hits = count_hits(d.get("face", 0) for d in dice)
            # Edge on the roll (S7): its dice were thrown with the rule of six, whose sixes' dice are no pool of their own.
            thrown = [d for d in dice if d.get("source") != "exploded"]
            edged = any(d.get("source") == "edge" for d in dice)
            r.expected_hits = odds.sr(odds.SRQuestion(len(thrown), rule_of_six=edged), settings).mean()
    return out


def _two_sided(out: list[SideResult], winner: object) -> None:
    if winner == "a":
        out[0].result, out[1].result = "win", "loss"
    elif winner == "b":
        out[0].result, out[1].result = "loss", "win"
    elif winner == "tie":
        out[0].result = out[1].result = "tie"


# ---------------------------------------------------------------------------
# Event tags (the review's outcome filter)

OUTCOME_TAGS = ("win", "loss", "glitch", "critical glitch", "burn")
"""The outcomes the review can filter by."""

OUTCOME_MEANING = {
    "win": N_("rolls won"),
    "loss": N_("rolls lost"),
    "glitch": N_("glitches, critical glitches included (S5, S6)"),
    "critical glitch": N_("critical glitches only (S6)"),
    "burn": N_("narration usurpations that burned the table's dice (H9)"),
}
"""What each outcome filter shows, in words for the filter's chooser (translated where shown)."""


def _who_list(ev: Event) -> list[str]:
    who = ev.get("who", [])
    if isinstance(who, str):
        return [who] if who else []
    return list(who)


def event_characters(ev: Event) -> set[str]:
    """Ids of the characters an event names (its ``who`` and its roll's sides) or changes."""
    out = set(_who_list(ev))
    for side in roll_of(ev).get("sides", []):
        out.update(side.get("who", []))
    for ch in ev.get("changes", []):
        path = ch.get("path", [])
        if len(path) >= 2 and path[0] == "characters" and isinstance(path[1], str):
            out.add(path[1])
    return out


class EventPeople:
    """Who each event of a log is about, by character id, for the review's character filter.

    Beyond what :func:`event_characters` reads off an event: a challenge event
    is about the challenge's participants and opposition; an undo or redo is
    about everyone the command it undid or redid was about; and a narration
    event of an older file, which named its people only by name (H9), is read
    by those names.

    Args:
        tracker: the session (its events, state and undo bookkeeping).
    """

    def __init__(self, tracker: Tracker) -> None:
        self.tracker = tracker
        self.names = character_names(tracker)
        self.by_name: dict[str, str] = {}
        for cid, name in self.names.items():
            self.by_name.setdefault(name.strip().lower(), cid)
        for cid, sheet in tracker.state["characters"].items():
            self.by_name[sheet["name"].strip().lower()] = cid
        self.challenges: dict[str, set[str]] = {}
        for ev in tracker.events:
            for ch in ev.get("changes", []):
                for value in (ch.get("insert"), ch.get("after"), ch.get("before"), ch.get("remove")):
                    for c in value if isinstance(value, list) else [value]:
                        if isinstance(c, dict) and "participants" in c and isinstance(c.get("id"), str):
                            self._challenge(cast(Challenge, c))  # a challenge's table: it has participants
        for c in tracker.state.get("challenges", []):
            self._challenge(c)
        self._cache: dict[int, set[str]] = {}

    def _challenge(self, c: Challenge) -> None:
        people = self.challenges.setdefault(c["id"], set())
        people.update(x for x in list(c.get("participants", [])) + list(c.get("opposition", []))
                      if isinstance(x, str))

    def _named(self, name: object) -> set[str]:
        cid = self.by_name.get(name.strip().lower()) if isinstance(name, str) else None
        return {cid} if cid else set()

    def of(self, ev: Event) -> set[str]:
        """Ids of the characters ``ev`` is about."""
        seq = ev.get("seq")
        if isinstance(seq, int) and seq in self._cache:
            return self._cache[seq]
        out = event_characters(ev)
        kind = ev.get("kind")
        if kind == "challenge" and ev.get("challenge") in self.challenges:
            out |= self.challenges[ev["challenge"]]
        if kind == "narration" and not ev.get("who"):
            for side in roll_of(ev).get("sides", []):
                if side.get("role") != "gm":
                    out |= self._named(side.get("label"))
            for ch in ev.get("changes", []):
                if list(ch.get("path", [])) == ["narration"] and isinstance(ch.get("after"), dict):
                    after, before = _table(ch.get("after")), _table(ch.get("before"))
                    if after.get("narrator") != before.get("narrator"):
                        out |= self._named(after.get("narrator")) | self._named(before.get("narrator"))
                    last = _table(after.get("last"))
                    if last != _table(before.get("last")):
                        out |= self._named(last.get("who"))
        if kind in ("undo", "redo") and isinstance(ev.get("target"), int):
            for q in self.tracker.cmd_seqs(ev["target"]):
                target = self.tracker.event_by_seq(q)
                if target.get("kind") not in ("undo", "redo"):
                    out |= self.of(target)
        if isinstance(seq, int):
            self._cache[seq] = out
        return out


def event_tags(ev: Event, settings: Settings, cid: str | None = None) -> set[str]:
    """Outcome tags of an event (``win``, ``loss``, ``glitch``, ``critical glitch``, ``burn``, ``tie``).

    With ``cid``, win / loss / glitches are those of that character's side;
    without, of any side that has a character on it. A critical glitch is a
    glitch too (S6), so it carries both tags.
    """
    tags: set[str] = set()
    roll = ev.get("roll")
    if ev.get("kind") == "narration" and _burned(ev):
        tags.add("burn")
    if not roll:
        return tags
    for side in judge_roll(roll, settings):
        if cid is not None and cid not in side.who:
            continue
        if cid is None and not side.who:
            continue
        if side.result:
            tags.add(side.result)
        if side.critical_glitch:
            tags.update(("glitch", "critical glitch"))
        elif side.glitch:
            tags.add("glitch")
    return tags


def _table(value: object) -> Mapping[str, object]:
    """A changed value read as a table (a narration, its last usurpation); an empty one if it is none."""
    return cast("Mapping[str, object]", value) if isinstance(value, dict) else {}


def _burned(ev: Event) -> bool:
    for ch in ev.get("changes", []):
        if list(ch.get("path", [])) == ["narration"]:
            before = _table(ch.get("before")).get("burned")
            after = _table(ch.get("after")).get("burned")
            if len(after if isinstance(after, list) else []) > len(before if isinstance(before, list) else []):
                return True
    return " burns " in str(ev.get("text", ""))


# ---------------------------------------------------------------------------
# The whole log


def superseded(events: Sequence[Event], is_undone: Callable[[int], bool]) -> dict[int, int]:
    """Roll seq → the seq of the (not undone) roll that replaced it."""
    out: dict[int, int] = {}
    for ev in events:
        roll = roll_of(ev)
        old = roll.get("rerolls", roll.get("supersedes"))
        if isinstance(old, int) and not is_undone(ev["seq"]):
            out[old] = ev["seq"]
    return out


def _die_key(d: DieTable) -> tuple[Any, ...]:
    """A die as the log keeps it: size, source, label, face and the faces it replaced."""
    return (d.get("size"), d.get("source", ""), d.get("label", ""), d.get("face"), tuple(d.get("replaced", ())))


def new_dice(roll: RollTable, previous: RollTable | None) -> list[DieTable]:
    """The dice a roll threw itself, each once, from what the log records of every die.

    A roll that replaces ``previous`` (an edge reroll, H7; Edge after the roll,
    S7) keeps the dice it did not throw exactly as they lay. A die it threw
    again records the face it ``replaced``: the new face is this roll's, the
    replaced one was counted with ``previous``. Without ``previous`` every die
    is new, and so is every face it replaced.
    """
    dice = [d for s in roll.get("sides", []) for d in s.get("dice", [])]
    old = Counter(_die_key(d) for s in (previous["sides"] if previous else []) for d in s.get("dice", []))
    kept = Counter[tuple[Any, ...]]()
    fresh = []
    for d in dice:
        key = _die_key(d)
        if kept[key] < old[key]:
            kept[key] += 1
        else:
            fresh.append(d)
    left = old - kept
    out: list[DieTable] = []
    for d in fresh:
        out.append(d)
        history = list(d.get("replaced", ()))
        if history:
            before = (d.get("size"), d.get("source", ""), d.get("label", ""), history[-1], tuple(history[:-1]))
            if left[before] > 0:
                left[before] -= 1
                continue
        out.extend({"size": d.get("size"), "face": f} for f in history)
    return out


def log_names(events: Iterable[Event]) -> dict[str, tuple[str, str]]:
    """Character id → (last name, kind) the log knows, for characters that left the campaign.

    A character's addition, edits and removal record its fields in their
    changes; a removal also names the character on the event itself, so a log
    without changes (the players' view) still knows who left.
    """
    out: dict[str, tuple[str, str]] = {}
    for ev in events:
        name = ev.get("name")
        if isinstance(name, str) and name:
            for cid in _who_list(ev):
                out[cid] = (name, out.get(cid, (name, "pc"))[1])
        for ch in ev.get("changes", []):
            path = list(ch.get("path", []))
            if len(path) < 2 or path[0] != "characters" or not isinstance(path[1], str):
                continue
            cid = path[1]
            if len(path) == 2:
                value = ch.get("after", ch.get("before"))
                if isinstance(value, dict) and isinstance(value.get("name"), str):
                    out[cid] = (value["name"], str(value.get("kind", "pc")))
            elif len(path) == 3 and path[2] in ("name", "kind") and isinstance(after := ch.get("after"), str):
                name, kind = out.get(cid, (cid, "pc"))
                out[cid] = (after, kind) if path[2] == "name" else (name, after)
    return out


def character_names(tracker: Tracker) -> dict[str, str]:
    """Every character's name: as it is now, or the last one it had before it left."""
    names = {cid: name for cid, (name, _kind) in log_names(tracker.events).items()}
    names.update({cid: ch.get("name", cid) for cid, ch in tracker.state.get("characters", {}).items()})
    return names


def compute(tracker: Tracker, names: Mapping[str, str] | None = None) -> SessionStats:
    """The statistics of a tracker's log (final state for names, settings for odds).

    Args:
        tracker: the session (or the players' view of it).
        names: names to use for characters the log no longer holds (a removed
            character's last name when the log at hand has lost its changes).
    """
    events = list(tracker.events)
    is_undone = tracker.is_undone
    settings = tracker.settings
    chars: dict[str, CharacterStats] = {}
    state_chars = tracker.state.get("characters", {})
    for cid, ch in state_chars.items():
        chars[cid] = CharacterStats(cid, ch.get("name", cid), ch.get("kind", "pc"))
    departed = log_names(events)

    def stat(cid: str, label: str = "") -> CharacterStats:
        if cid not in chars:
            name, kind = departed.get(cid, ((names or {}).get(cid, "") or label or cid, "pc"))
            chars[cid] = CharacterStats(cid, (names or {}).get(cid, name), kind)
        return chars[cid]

    by_seq = {ev["seq"]: ev for ev in events}
    replaced = superseded(events, is_undone)
    faces: dict[tuple[bool, int], list[int]] = {}
    rolls = undone = 0
    for ev in events:
        if ev.get("kind") in ("undo", "redo"):
            continue
        if is_undone(ev["seq"]):
            undone += 1
            continue
        roll = ev.get("roll")
        if roll:
            old = roll.get("rerolls", roll.get("supersedes"))
            prev = by_seq[old].get("roll") if isinstance(old, int) and old in by_seq else None
            manual = bool(roll.get("manual"))
            hand = roll.get("hand") if manual else None
            # A roll with one side typed in and the other the program's (a seat's Rajapolku roll).
            by_hand = {id(d) for side in roll.get("sides", []) if side.get("role") in hand
                       for d in side.get("dice", [])} if isinstance(hand, list) else None
            for d in new_dice(roll, prev):
                size, face = d.get("size"), d.get("face")
                if isinstance(size, int) and isinstance(face, int) and 1 <= face <= size:
                    typed = manual if by_hand is None else id(d) in by_hand
                    faces.setdefault((typed, size), [0] * size)[face - 1] += 1
            if ev.get("kind") == "roll" and ev["seq"] not in replaced:
                rolls += 1
                _credit(roll, settings, stat, prev)
        if ev.get("kind") == "resource":
            _resource(ev, stat)
    dists = [FaceDistribution(size, manual, counts) for (manual, size), counts in sorted(faces.items())]
    order = {"pc": 0, "npc": 1, "opposition": 2}
    people = sorted(chars.values(), key=lambda c: (order.get(c.kind, 3), list(chars).index(c.cid)))
    return SessionStats(people, dists, rolls, len(events), undone)


def _credit(roll: RollTable, settings: Settings, stat: Callable[..., CharacterStats],
            previous: RollTable | None = None) -> None:
    seen: set[str] = set()
    for side in judge_roll(roll, settings, previous):
        for cid in side.who:
            c = stat(cid, side.label)
            if cid not in seen:
                c.rolls += 1
                seen.add(cid)
            if side.result == "win":
                c.wins += 1
            elif side.result == "loss":
                c.losses += 1
            elif side.result == "tie":
                c.ties += 1
            c.degrees += side.degrees
            if side.hits is not None:
                c.hits += side.hits
            c.net_hits += side.net_hits
            c.glitches += int(side.glitch and not side.critical_glitch)
            c.critical_glitches += int(side.critical_glitch)
            if side.p_win is not None and side.result is not None:
                c.judged += 1
                c.expected_wins += side.p_win + side.p_tie / 2
                c.judged_wins += {"win": 1.0, "tie": 0.5}.get(side.result, 0.0)
            if side.expected_hits is not None and side.hits is not None:
                c.hit_rolls += 1
                c.judged_hits += side.hits
                c.expected_hits += side.expected_hits


def _resource(ev: Event, stat: Callable[..., CharacterStats]) -> None:
    res = ev.get("resource")
    amount = ev.get("amount", 0)
    amount = amount if isinstance(amount, int) and not isinstance(amount, bool) else 0
    for cid in _who_list(ev):
        c = stat(cid)
        if res == "edge" and amount < 0:
            c.edge_spent += -amount
        elif res == "story_points" and amount < 0:
            c.story_points_spent += -amount
            if ev.get("bought"):
                c.story_bought.append(str(ev["bought"]))
        elif res == "charges" and amount < 0:
            c.charges_spent += -amount
        elif res == "edge_reroll":
            c.edge_rerolls += 1


__all__ = [
    "CharacterStats", "EventPeople", "FaceDistribution", "SessionStats", "SideResult", "OUTCOME_MEANING",
    "OUTCOME_TAGS",
    "character_names", "chi2_sf", "chi_square", "compute", "event_characters", "event_tags", "gamma_q",
    "judge_roll", "log_names", "new_dice", "roll_settings", "superseded",
]
