"""The log's sentences in the reader's language, made from each event's facts (issue 25).

An event records what happened as a language-neutral **fact**: ``event["fact"]``, a table with
the fact's kind (``id``, e.g. ``"sr.success"``) and named values (labels as the GM typed them,
numbers, outcomes as values: ``"winner": "a"``, ``"glitch_kind": "critical"``). The session file so
reads the same whoever wrote it: a Finnish GM's file shows English in an English ``watch``.

This module makes the sentences at display time, one **teller** per fact kind (:data:`TELLERS`):
whole sentences with named placeholders through :mod:`polku.i18n` (``ngettext`` for counts),
in the language in use. Every view asks here: :func:`event_text` (the event's line),
:func:`roll_summary` (a roll's outcome in a few words, the dice log's first words).

An event without a fact (a file from before facts, or a kind not converted yet) is shown as
stored: its English ``text`` and ``roll.summary``, which the tracker still writes beside the
fact for older readers. :func:`stored_only` tells a view so; it says :data:`OLD_NOTE` once per
file (:func:`old_note`). A fact a teller cannot read (a hand-edited file) falls back the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from .. import i18n
from ..i18n import N_, _, ngettext
from ..rules import shadowrun as sr
from ..rules.explain import SAYERS, Speaker, line, say, says, step_of
from ..text import builtin_label, kind_label, wound_label
from .model import whole

if TYPE_CHECKING:
    from ..rules.rajapolku import RajaResult

Fact = Mapping[str, object]
"""A fact as an event keeps it: JSON/TOML values of any kind, read back from a file (the public helpers
below narrow each value they use)."""

_Read = Mapping[str, Any]
"""A fact as one teller reads it: each teller knows its own kind's values (a value of another kind fails it
with KeyError/TypeError/ValueError, and :func:`told` shows the event as stored)."""


@dataclass(frozen=True, slots=True)
class Told:
    """What a teller makes of one fact."""

    text: str
    """The event's line."""
    summary: str = ""
    """A roll's outcome in a few words ("" for other kinds)."""


TELLERS: dict[str, Callable[[Fact], Told]] = {}
"""The teller of each fact kind (``fact["id"]``)."""

OLD_NOTE = N_("Entries without facts (from an older Polku) are shown as written, in English.")
"""The one line a view adds once per file when some of its events have no fact."""


def teller(fact_id: str) -> Callable[[Callable[[Fact], Told]], Callable[[Fact], Told]]:
    def register(fn: Callable[[Fact], Told]) -> Callable[[Fact], Told]:
        TELLERS[fact_id] = fn
        return fn
    return register


def fact_of(ev: Mapping[str, object]) -> Fact | None:
    """The event's fact if a teller knows its kind, else None."""
    fact = ev.get("fact")
    if isinstance(fact, Mapping) and isinstance(fact.get("id"), str) and fact["id"] in TELLERS:
        return fact
    return None


def told(ev: Mapping[str, object]) -> Told | None:
    """The event's sentences in the language in use, or None (no fact, or one that cannot be read)."""
    fact = fact_of(ev)
    if fact is None:
        return None
    try:
        return TELLERS[str(fact["id"])](fact)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, ArithmeticError):
        return None


def event_text(ev: Mapping[str, object]) -> str:
    """The event's line: told from its fact, else as stored."""
    t = told(ev)
    return t.text if t is not None else str(ev.get("text", ""))


def roll_summary(ev: Mapping[str, object]) -> str:
    """A roll's outcome in a few words: told from its fact, else as stored (``roll.summary``)."""
    t = told(ev)
    if t is not None and t.summary:
        return t.summary
    roll = ev.get("roll")
    return str(roll.get("summary", "")) if isinstance(roll, Mapping) else ""


def explain_lines(roll: Mapping[str, object]) -> list[str]:
    """A roll's explanation in the language in use: each line told from its step (``roll["steps"]``, the
    rules core's :mod:`polku.rules.explain`), else as stored (an older file's, or a line that is no step)."""
    stored = roll.get("explain", [])
    if not isinstance(stored, list):
        return []
    steps = roll.get("steps")
    steps = steps if isinstance(steps, list) and len(steps) == len(stored) else [None] * len(stored)
    return [step_line(step, str(text)) for step, text in zip(steps, stored)]


SAYER_MODULES = {"raja": "rajapolku", "harha": "harhapolku", "narr": "harhapolku"}
"""The rules module whose sayers word a step kind (by the id's first part): imported at the first such step, so
the app's first frame does without the other systems' rules (tests/test_layers.py)."""


def knows(step: object) -> bool:
    """Whether a sayer words ``step`` (importing its system's rules the first time)."""
    if not isinstance(step, Mapping) or not isinstance(step.get("id"), str):
        return False
    kind = str(step["id"]).split(".")[0]
    if step["id"] not in SAYERS and kind in SAYER_MODULES:
        import importlib

        importlib.import_module(f"polku.rules.{SAYER_MODULES[kind]}")
    return step["id"] in SAYERS


def step_line(step: object, fallback: str = "") -> str:
    """One explanation step in the language in use (``fallback`` when it is no step a sayer knows)."""
    if isinstance(step, Mapping) and knows(step):
        try:
            return say(i18n, step)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError, ArithmeticError):
            pass
    return fallback


def _said(step: Any) -> str:
    """A step a fact holds, in the language in use; a step no sayer knows fails the teller (shown as stored)."""
    if not knows(step):
        raise KeyError("no sayer for the step")
    return say(i18n, step)


def line_text(text: str) -> str:
    """A line the rules core made just now (``rules.explain.Line``) in the language in use; a plain one as it is."""
    return step_line(step_of(text), text)


def told_from_facts(ev: Mapping[str, object]) -> bool:
    """Whether events like ``ev`` are made with a fact now (a roll of the tests converted so far)."""
    roll = ev.get("roll")
    if ev.get("kind") != "roll" or not isinstance(roll, Mapping):
        return False
    test = str(roll.get("test", ""))
    return (test in ("rajapolku", "spirit", "initiative", "damage-resistance")
            or (test.startswith("shadowrun") and test != "shadowrun-initiative")
            or (test.startswith("harhapolku") and test != "harhapolku-narration"))


def stored_only(ev: Mapping[str, object]) -> bool:
    """Whether the event is one Polku now tells from a fact but shown as stored, in English: written by an
    older Polku (or its fact cannot be read), or a roll whose explanation has no steps (an older Polku's)."""
    if not told_from_facts(ev):
        return False
    roll = ev.get("roll")
    return told(ev) is None or (isinstance(roll, Mapping) and bool(roll.get("explain")) and "steps" not in roll)


def old_note(events: Iterable[Mapping[str, object]]) -> str:
    """:data:`OLD_NOTE` in the language in use if any of ``events`` is shown as stored, else ""."""
    return _(OLD_NOTE) if any(stored_only(ev) for ev in events) else ""


_int = whole
"""``int(value)`` of a fact's number (:func:`polku.session.model.whole`: TypeError or ValueError for a value that
is none, and the teller's caller shows the event as stored)."""


# -- words several tellers share --------------------------------------------------------------

def hits_words(n: int) -> str:
    return ngettext("{n} hit", "{n} hits", n)


def glitch_words(hits: int, glitch: str, *, loud: bool = False) -> str:
    """A glitch with its size and hits (S5, S6): ``serious glitch (1 hit)``, ``MINOR GLITCH (6 hits)``.

    ``glitch``: "critical" or "glitch" (its size comes from the hits, ``rules.shadowrun.glitch_severity``).
    """
    size = sr.glitch_severity(hits, glitch == "critical")
    word = {"critical": _("critical glitch"), "serious": _("serious glitch"), "minor": _("minor glitch")}.get(
        size, _("glitch"))
    if loud:
        word = word.upper()
    return ngettext("{word} ({n} hit)", "{word} ({n} hits)", hits, word=word)


def sr_glitch_part(f: Fact, *, loud: bool = True) -> str:
    """The glitch clause of a Varjojuoksu roll's fact (``glitch_kind``: "critical", "glitch", "negated" or "")."""
    glitch = str(f.get("glitch_kind", ""))
    if glitch in ("critical", "glitch"):
        return glitch_words(_int(f["hits"]), glitch, loud=loud)
    if glitch == "negated":
        return _("glitch negated")
    return ""


def sr_roll_fact(r: sr.SRRoll) -> dict[str, object]:
    """The facts of one Varjojuoksu roll (``rules.shadowrun.SRRoll``): hits, auto failure, glitch."""
    glitch = "critical" if r.critical_glitch else "glitch" if r.glitch else "negated" if r.glitch_negated else ""
    out: dict[str, object] = {"hits": int(r.hits)}
    if r.auto_failed:
        out["auto_failed"] = True
    if glitch:
        out["glitch_kind"] = glitch
    return out


def _command_line(f: _Read) -> str:
    """The undone or redone command's first line: told from its own fact, or as written (a note)."""
    return TELLERS[str(f["of"]["id"])](f["of"]).text if "of" in f else str(f["line"])


@teller("log.undo")
def _undone(f: _Read) -> Told:
    return Told(_("Undid: {what}", what=_command_line(f)))


@teller("log.redo")
def _redone(f: _Read) -> Told:
    return Told(_("Redid: {what}", what=_command_line(f)))


@teller("gm.roll")
def _gm_roll(f: _Read) -> Told:
    """The players' whole line of a roll they may not see (docs/rules.md, secrets)."""
    return Told(_("the GM rolls"))


# -- Varjojuoksu rolls ---------------------------------------------------------------------

def _sr_outcome(f: _Read) -> str:
    if f.get("auto_failed"):
        return _("automatic failure (pool 0 or less, S3)")
    parts = [hits_words(int(f["hits"]))]
    if f.get("hidden_threshold"):
        parts.append(_("threshold hidden by the GM"))
    elif "threshold" in f:
        parts.append(_("success, {net} net", net=int(f["net_hits"])) if f.get("success") else _("failure"))
    glitch = sr_glitch_part(f)
    if glitch:
        parts.append(glitch)
    return ", ".join(parts)


@teller("sr.success")
def _sr_success(f: _Read) -> Told:
    """S1–S8: a success test, or a plain roll counting hits."""
    summary = _sr_outcome(f)
    return Told(_("{label}: {outcome}", label=f["label"], outcome=summary), summary)


@teller("sr.teamwork")
def _sr_teamwork(f: _Read) -> Told:
    """S11: the leader's roll with the helpers' dice."""
    summary = ngettext("teamwork (+{n} die from helpers): {outcome}", "teamwork (+{n} dice from helpers): {outcome}",
                       int(f["helper_dice"]), outcome=_sr_outcome(f))
    return Told(_("{label} leads: {outcome}", label=f["label"], outcome=summary), summary)


@teller("sr.opposed")
def _sr_opposed(f: _Read) -> Told:
    """S9: an opposed test, or one against a group."""
    a, b = str(f["a"]), str(f["b"])
    a_hits, b_hits = int(f["a_hits"]), int(f["b_hits"])
    winner = f["winner"]
    if winner == "tie":
        summary = _("stalemate {a_hits}–{b_hits} ({b} wins if needed)", a_hits=a_hits, b_hits=b_hits, b=b)
    else:
        glitches = []
        for label, side, hits in ((a, f.get("a_glitch"), a_hits), (b, f.get("b_glitch"), b_hits)):
            if side in ("critical", "glitch"):
                glitches.append(_("{label} {glitch}", label=label,
                                  glitch=glitch_words(hits, str(side), loud=side == "critical")))
        name = a if winner == "a" else b
        summary = ngettext("{name} wins {a_hits}–{b_hits}, {n} net", "{name} wins {a_hits}–{b_hits}, {n} net",
                           int(f["net_hits"]), name=name, a_hits=a_hits, b_hits=b_hits)
        if glitches:
            summary = _("{outcome} ({glitches})", outcome=summary, glitches=", ".join(glitches))
    return Told(_("{a} vs {b}: {outcome}", a=a, b=b, outcome=summary), summary)


@teller("sr.extended")
def _sr_extended(f: _Read) -> Told:
    """S10: one interval of an extended test."""
    hits = int(f["hits"])
    summary = ngettext("interval {interval}: {n} hit, {accumulated}/{threshold}",
                       "interval {interval}: {n} hits, {accumulated}/{threshold}", hits,
                       interval=int(f["interval"]), accumulated=int(f["accumulated"]),
                       threshold=int(f["threshold"]))
    glitch = f.get("glitch_kind")
    if glitch == "critical":
        summary = _("{outcome} — {glitch}, the test ends", outcome=summary, glitch=glitch_words(hits, "critical"))
    elif glitch == "glitch":
        summary = _("{outcome} — {glitch}, GM: spoil?", outcome=summary, glitch=glitch_words(hits, "glitch"))
    if f.get("done"):
        summary = _("{outcome} — done", outcome=summary)
    return Told(_("{label}, extended test: {outcome}", label=f["label"], outcome=summary), summary)


# -- Rajapolku rolls -------------------------------------------------------------------------

def raja_outcome(f: Fact) -> str:
    """R5–R7 in a few words: ``Aino wins, 2 degrees, 1 supernatural (visibly!)``."""
    a, b = str(f["a"]), str(f["b"])
    if f["winner"] == "tie":
        return _("tie — both reroll (R5)") if f.get("tie_action") == "reroll" else _("tie — {b} holds (R5)", b=b)
    name = a if f["winner"] == "a" else b
    degrees, supernatural = _int(f.get("degrees", 0)), _int(f.get("supernatural", 0))
    if not degrees:
        out = _("{name} wins narrowly (0 degrees)", name=name)
    else:
        out = ngettext("{name} wins, {n} degree", "{name} wins, {n} degrees", degrees, name=name)
    if supernatural:
        out = (_("{outcome}, {n} supernatural (visibly!)", outcome=out, n=supernatural) if f.get("visibly")
               else _("{outcome}, {n} supernatural", outcome=out, n=supernatural))
    return out


def raja_fact(result: RajaResult, a: str, b: str) -> dict[str, object]:
    """The facts of a Rajapolku result (``rules.rajapolku.RajaResult``) between sides labelled ``a`` and ``b``."""
    out: dict[str, object] = {"a": a, "b": b, "winner": result.winner, "degrees": int(result.degrees),
                           "supernatural": int(result.supernatural)}
    if result.winner == "tie":
        out["tie_action"] = str(result.tie_action)
    if result.supernatural and result.deciding_die_is_ability:
        out["visibly"] = True
    return out


@teller("raja.roll")
def _raja_roll(f: _Read) -> Told:
    summary = raja_outcome(f)
    return Told(_("{a} vs {b}: {outcome}", a=f["a"], b=f["b"], outcome=summary), summary)


@teller("raja.spirit")
def _raja_spirit(f: _Read) -> Told:
    """R11: one exchange of a spirit combat."""
    summary = raja_outcome(f)
    if f.get("loser"):
        summary = ngettext("{outcome}; {loser} loses {n} charge ({left} left)",
                           "{outcome}; {loser} loses {n} charges ({left} left)", int(f["loss"]),
                           outcome=summary, loser=f["loser"], left=int(f["left"]))
    if f.get("over"):
        summary = (_("{outcome} — the fight is over, {winner} wins", outcome=summary, winner=f["fight_winner"])
                   if f.get("fight_winner") else _("{outcome} — the fight is over", outcome=summary))
    return Told(_("Spirit combat {a} vs {b}, exchange {exchange}: {outcome}", a=f["a"], b=f["b"],
                  exchange=int(f["exchange"]), outcome=summary), summary)


# -- Harhapolku rolls ------------------------------------------------------------------------

def _demand_word(f: _Read) -> str:
    return _("very demanding") if f.get("very_demanding") else _("difficult")


@teller("harha.contest")
def _harha_contest(f: _Read) -> Told:
    """H3–H6: the comparison of two sides."""
    a, b = str(f["a"]), str(f["b"])
    winner = f["winner"]
    name = a if winner == "a" else b
    if f.get("variant") == "sum":
        if winner == "b":
            summary = _("{name} wins {a_total}–{b_total} (H6)", name=name, a_total=int(f["a_total"]),
                        b_total=int(f["b_total"]))
        else:
            summary = _("{name} wins: {b_total} is not above {a_total} (H6)", name=name,
                        a_total=int(f["a_total"]), b_total=int(f["b_total"]))
    elif winner == "tie":
        summary = _("tie {a_positions}–{b_positions}: reroll (H3)", a_positions=int(f["a_positions"]),
                    b_positions=int(f["b_positions"]))
    elif f.get("actor_no_dice"):
        summary = _("{name} wins: the actor has no dice (H4)", name=name)
    else:
        summary = _("{name} wins {a_positions}–{b_positions}", name=name, a_positions=int(f["a_positions"]),
                    b_positions=int(f["b_positions"]))
    return Told(_("{a} vs {b}: {outcome}", a=a, b=b, outcome=summary), summary)


@teller("harha.opposed_difficult")
def _harha_opposed_difficult(f: _Read) -> Told:
    """H8: a difficult or very demanding action against an opponent."""
    a, b = str(f["a"]), str(f["b"])
    what = _demand_word(f)
    high, needed = int(f["high"]), int(f["needed"])
    if f["winner"] == "tie":
        summary = _("tie: reroll (H3), {what}", what=what)
    elif f.get("success"):
        summary = _("{a} succeeds ({what}: wins and shows {high} of {needed} needed 7+)", a=a, what=what,
                    high=high, needed=needed)
    elif f.get("won_comparison"):
        summary = _("{a} fails ({what}: wins the comparison but shows {high} of {needed} needed 7+)", a=a,
                    what=what, high=high, needed=needed)
    else:
        summary = _("{b} wins; {a} fails ({what})", a=a, b=b, what=what)
    return Told(_("{a} vs {b}: {outcome}", a=a, b=b, outcome=summary), summary)


@teller("harha.difficult")
def _harha_difficult(f: _Read) -> Told:
    """H8: a difficult or very demanding action alone."""
    high, needed = int(f["high"]), int(f["needed"])
    summary = (_("success ({high} of {needed} needed 7+)", high=high, needed=needed) if f.get("success")
               else _("failure ({high} of {needed} needed 7+)", high=high, needed=needed))
    text = (_("{label}, very demanding action: {outcome}", label=f["label"], outcome=summary)
            if f.get("very_demanding") else
            _("{label}, difficult action: {outcome}", label=f["label"], outcome=summary))
    return Told(text, summary)


# -- characters, resources and wounds ---------------------------------------------------------

JOINS = {
    ("pc", False): N_("{name} joins (pc)"), ("npc", False): N_("{name} joins (npc)"),
    ("opposition", False): N_("{name} joins (opposition)"), ("pc", True): N_("{name} joins (pc, secret)"),
    ("npc", True): N_("{name} joins (npc, secret)"), ("opposition", True): N_("{name} joins (opposition, secret)"),
}
"""A character joining, by kind (``model.CHARACTER_KINDS``) and secrecy: each a whole sentence."""


@teller("character.joins")
def _character_joins(f: _Read) -> Told:
    return Told(_(JOINS[(str(f["kind"]), bool(f.get("secret_character")))], name=f["name"]))


@teller("character.leaves")
def _character_leaves(f: _Read) -> Told:
    dropped = [str(t) for t in f.get("dropped", [])]
    if dropped:
        return Told(_("{name} leaves the campaign (dropped from {titles})", name=f["name"],
                      titles=", ".join(dropped)))
    return Told(_("{name} leaves the campaign", name=f["name"]))


@teller("character.health")
def _character_health(f: _Read) -> Told:
    note = str(f.get("note", ""))
    if note:
        return Told(_("{name} health: {note}", name=f["name"], note=note))
    return Told(_("{name} health: (cleared)", name=f["name"]))


WOUND_CARE = {
    "Badly wounded": N_("worsens without hospital care"),
    "Mortally wounded": N_("dies without hospital care"),
    "Out of play": N_("mortally wounded and unconscious: dies without hospital care"),
}
"""R9: what a level does beyond its dice (``rules.system.RAJA_WOUND_CARE``, the same words), for the catalogue."""


@teller("raja.wound")
def _raja_wound(f: _Read) -> Told:
    """R9/R10: a step down or up the wound track."""
    values = {"name": f["name"], "before": wound_label(str(f["before"])), "after": wound_label(str(f["after"]))}
    care = f.get("care")
    if care:
        values["care"] = _(WOUND_CARE[str(care)])
        return Told(_("{name}: {before} → {after} (worse; {care})", **values) if f.get("worse")
                    else _("{name}: {before} → {after} (better; {care})", **values))
    return Told(_("{name}: {before} → {after} (worse)", **values) if f.get("worse")
                else _("{name}: {before} → {after} (better)", **values))


@teller("raja.wound_set")
def _raja_wound_set(f: _Read) -> Told:
    values = {"name": f["name"], "before": wound_label(str(f["before"])), "after": wound_label(str(f["after"]))}
    care = f.get("care")
    if care:
        return Told(_("{name}: {before} → {after} ({care})", care=_(WOUND_CARE[str(care)]), **values))
    return Told(_("{name}: {before} → {after}", **values))


SHEET_REASON = N_("set on the character sheet")
"""The reason the character sheet gives for charges set there (Polku's words: translated; a GM's own as typed)."""


def _charges_reason(reason: object) -> str:
    return _(SHEET_REASON) if reason == SHEET_REASON else str(reason)


@teller("raja.charges_spent")
def _raja_charges_spent(f: _Read) -> Told:
    return Told(ngettext("{name} spends {n} charge: {reason} ({left}/{max} left)",
                         "{name} spends {n} charges: {reason} ({left}/{max} left)", int(f["n"]), name=f["name"],
                         reason=_charges_reason(f["reason"]), left=int(f["left"]), max=int(f["max"])))


@teller("raja.charges_regained")
def _raja_charges_regained(f: _Read) -> Told:
    reason = _charges_reason(f.get("reason")) if f.get("reason") else _("rest")
    return Told(ngettext("{name} regains {n} charges: {reason} ({now}/{max})",
                         "{name} regains {n} charges: {reason} ({now}/{max})", int(f["n"]), name=f["name"],
                         reason=reason, now=int(f["now"]), max=int(f["max"])))


@teller("raja.ability_used")
def _raja_ability_used(f: _Read) -> Told:
    """R11: an ability's cost paid."""
    values = {"name": f["name"], "ability": f["ability"], "cost": int(f["cost"]), "left": int(f["left"]),
              "max": int(f["max"])}
    if f.get("per") == "scene":
        return Told(_("{name} uses {ability} (this scene): −{cost} charges ({left}/{max} left)", **values))
    return Told(_("{name} uses {ability} (one use): −{cost} charges ({left}/{max} left)", **values))


@teller("raja.story_point_spent")
def _raja_story_point_spent(f: _Read) -> Told:
    return Told(_("{name} spends a story point: {bought} ({left} left)", name=f["name"], bought=f["bought"],
                  left=int(f["left"])))


@teller("raja.story_point_awarded")
def _raja_story_point_awarded(f: _Read) -> Told:
    reason = f.get("reason") or _("good roleplaying")
    return Told(_("{name} is awarded a story point: {reason} ({now})", name=f["name"], reason=reason,
                  now=int(f["now"])))


EDGE_REASONS = {
    "long_shot": N_("Long Shot (S3)"),
    "edge_before": N_("Edge before the roll: rule of six (S7)"),
    "negate_glitch": N_("negate a glitch (S5)"),
    "reduce_critical": N_("reduce a critical glitch to a glitch (S6)"),
    "resist_edge": N_("Edge on the damage resistance test (S7)"),
    "initiative_edge": N_("Edge on the initiative roll (S7)"),
    "resist_negate_glitch": N_("negate a glitch (S5) on the damage resistance test"),
    "resist_reduce_critical": N_("reduce a critical glitch to a glitch (S6) on the damage resistance test"),
}
"""Why Polku spends Edge in a roll (``spend_edge_in``'s reasons), by id; the GM's own reason is shown as typed."""


def edge_reason(f: Fact, t: Speaker = i18n) -> str:
    """The reason of an ``sr.edge_spent`` fact in words (speaker ``t``, ``rules.explain``): Polku's own by its id,
    or the GM's as typed."""
    why = f.get("why")
    if why == "edge_after":
        return t._("Edge after the roll: +{dice} dice, rule of six on them (S7)", dice=_int(f["edge_dice"]))
    if why == "resist_edge_after":
        return t.ngettext("Edge after the roll: +{n} die, rule of six on them (S7) on the damage resistance test",
                          "Edge after the roll: +{n} dice, rule of six on them (S7) on the damage resistance test",
                          _int(f["edge_dice"]))
    if why in EDGE_REASONS:
        return t._(EDGE_REASONS[str(why)])
    return str(f["reason"])


# -- the lines a Varjojuoksu roll's explanation gets from the session (rules.explain) ------------------

@says("sr.edge_used")
def _say_edge_used(t: Speaker, v: _Read) -> str:
    return t._("{name}: {reason}", name=v["name"], reason=edge_reason(v, t))


@says("sr.threshold_kept")
def _say_threshold_kept(t: Speaker, v: _Read) -> str:
    values = {"threshold": int(v["threshold"]), "net": int(v["net_hits"])}
    if v.get("hidden"):
        return (t._("threshold {threshold} (hidden from players): success, net hits {net}", **values) if v["success"]
                else t._("threshold {threshold} (hidden from players): failure, net hits {net}", **values))
    return (t._("threshold {threshold}: success, net hits {net}", **values) if v["success"]
            else t._("threshold {threshold}: failure, net hits {net}", **values))


@says("sr.helper")
def _say_helper(t: Speaker, v: _Read) -> str:
    # English says "dice" for one die too (as it always has); the plural form is for the other language.
    return t.ngettext("helper {label}: {hits} ({n} dice: {pool})", "helper {label}: {hits} ({n} dice: {pool})",
                      int(v["size"]), label=v["label"], hits=t.ngettext("{n} hit", "{n} hits", int(v["hits"])),
                      pool=" ".join(say(t, s) if isinstance(s, Mapping) else str(s) for s in v["lines"]))


@says("vs")
def _say_vs(t: Speaker, v: _Read) -> str:
    """The line between two sides' pools (Rajapolku, Harhapolku)."""
    return t._("vs {label}:", label=v["label"])


@says("harha.edge_reroll")
def _say_edge_reroll(t: Speaker, v: _Read) -> str:
    return t._("{name} rerolls the whole roll with edge '{edge}' (H7)", name=v["name"], edge=v["edge"])


@says("raja.spirit_entry")
def _say_spirit_entry(t: Speaker, v: _Read) -> str:
    return t._("entry: each participant paid 1 charge, once for the whole fight (R11)")


@says("raja.spirit_wounds")
def _say_spirit_wounds(t: Speaker, v: _Read) -> str:
    return t._("wounds (R9, raja.spirit_wounds): {a} rolls {a_count}, {b} {b_count} of their charges' dice",
               a=v["a"], a_count=int(v["a_count"]), b=v["b"], b_count=int(v["b_count"]))


@says("init.rule")
def _say_init_rule(t: Speaker, v: _Read) -> str:
    return t._("initiative = Reaction + Intuition (+ a sheet's initiative bonus) + hits (S12)")


@says("init.ties")
def _say_init_ties(t: Speaker, v: _Read) -> str:
    return t._("highest first; ties by Edge, then Reaction, then Intuition")


@says("init.wounds")
def _say_init_wounds(t: Speaker, v: _Read) -> str:
    return t._("wound modifiers lower the score (S12)")


@says("init.kind")
def _say_init_kind(t: Speaker, v: _Read) -> str:
    names = ", ".join(str(n) for n in v["names"])
    if v["kind"] == "astral":
        return t._("astral initiative = Intuition × 2 (+ bonus) + hits (SR4): {names}", names=names)
    return t._("matrix initiative = Intuition + the device's Response + hits (SR4): {names}", names=names)


@says("init.edge")
def _say_init_edge(t: Speaker, v: _Read) -> str:
    return t._("Edge before the roll: + Edge rating dice, rule of six (S7): {names}",
               names=", ".join(str(n) for n in v["names"]))


@says("init.surprised")
def _say_init_surprised(t: Speaker, v: _Read) -> str:
    return t._("surprised, no action in pass 1: {names} (SR4)", names=", ".join(str(n) for n in v["names"]))


@says("init.joins")
def _say_init_joins(t: Speaker, v: _Read) -> str:
    return t._("{name} joins this combat turn's order", name=v["name"])


@says("sr.resistance")
def _say_resistance(t: Speaker, v: _Read) -> str:
    which = str(v["which"])
    values = {"body": int(v["body"]), "armour": int(v["armour_now"]),
              "which": t._(ARMOUR_WORDS[which]) if which in ARMOUR_WORDS else which}
    if v.get("ap"):
        pool = t.ngettext("resistance: Body {body} + {which} {armour} ({worn}, AP {ap}) = {n} dice",
                          "resistance: Body {body} + {which} {armour} ({worn}, AP {ap}) = {n} dice", int(v["size"]),
                          worn=int(v["worn"]), ap=v["ap"], **values)
    else:
        pool = t.ngettext("resistance: Body {body} + {which} {armour} = {n} dice",
                          "resistance: Body {body} + {which} {armour} = {n} dice", int(v["size"]), **values)
    if not int(v.get("edge_dice", 0)):
        return pool
    if v["when"] == "before":
        return t._("{pool} + {edge} Edge (before the roll)", pool=pool, edge=int(v["edge_dice"]))
    return t._("{pool} + {edge} Edge (after the roll)", pool=pool, edge=int(v["edge_dice"]))


ARMOUR_WORDS = {"armour": N_("armour"), "ballistic": N_("ballistic"), "impact": N_("impact")}
"""Which armour meets a weapon (``rules.shadowrun.armour_against``), in words."""


@says("sr.threshold_changed")
def _say_threshold_changed(t: Speaker, v: _Read) -> str:
    return t._("threshold changed {before} → {after} (S10)", before=int(v["before"]), after=int(v["after"]))


@says("sr.hurried_now")
def _say_hurried_now(t: Speaker, v: _Read) -> str:
    return t._("now hurried: 2s count as 1s for glitches (S10)") if v["hurried"] else t._("no longer hurried (S10)")


@says("sr.group")
def _say_group(t: Speaker, v: _Read) -> str:
    return t._("group of {members}: largest pool + {bonus} = {size} (S9)", members=int(v["members"]),
               bonus=int(v["bonus"]), size=int(v["size"]))


@says("sr.teamwork_cap")
def _say_teamwork_cap(t: Speaker, v: _Read) -> str:
    return t._("helpers' hits {total}, at most the leader's skill {skill}: +{extra} dice (S11, sr.teamwork_cap = skill)",
               total=int(v["total"]), skill=int(v["skill"]), extra=int(v["extra"]))


@teller("sr.edge_spent")
def _sr_edge_spent(f: _Read) -> Told:
    return Told(_("{name} spends Edge: {reason} ({left}/{rating} left)", name=f["name"], reason=edge_reason(f),
                  left=int(f["left"]), rating=int(f["rating"])))


@teller("sr.monitor")
def _sr_monitor(f: _Read) -> Told:
    """S12: boxes filled on a condition monitor."""
    values = {"name": f["name"], "before": int(f["before"]), "boxes": int(f["boxes"]), "size": int(f["size"])}
    if f["track"] == "stun":
        return Told(_("{name}: stun {before} → {boxes}/{size} boxes", **values))
    return Told(_("{name}: physical {before} → {boxes}/{size} boxes", **values))


@teller("harha.edge_used")
def _harha_edge_used(f: _Read) -> Told:
    return Told(_("{name} uses edge '{edge}' for a reroll", name=f["name"], edge=f["edge"]))


# -- a field edited on the character sheet (the English stored beside: tracker.sheets.sheet_edit_text) --------

def ability_price(ab: Fact) -> str:
    """``always on``, ``1 charge per use``, ``2 charges per scene`` (R11)."""
    if ab["per"] == "always":
        return _("always on")
    if ab["per"] == "scene":
        return ngettext("{n} charge per scene", "{n} charges per scene", _int(ab["cost"]))
    return ngettext("{n} charge per use", "{n} charges per use", _int(ab["cost"]))


@teller("character.ability_gained")
def _ability_gained(f: _Read) -> Told:
    ab = f["ability"]
    return Told(_("{name} gains the ability {ability} ({price})", name=f["name"], ability=ab["name"],
                  price=ability_price(ab)))


@teller("character.ability_lost")
def _ability_lost(f: _Read) -> Told:
    return Told(_("{name} loses the ability {ability}", name=f["name"], ability=f["ability"]))


@teller("character.ability_changed")
def _ability_changed(f: _Read) -> Told:
    ab = f["ability"]
    return Told(_("{name}: ability {before} is now {ability} ({price})", name=f["name"], before=f["before"],
                  ability=ab["name"], price=ability_price(ab)))


@teller("character.edge_used")
def _edge_used(f: _Read) -> Told:
    if f["used"]:
        return Told(_("{name}: edge '{edge}' used", name=f["name"], edge=f["edge"]))
    return Told(_("{name}: edge '{edge}' available again", name=f["name"], edge=f["edge"]))


@teller("character.edges")
def _edges(f: _Read) -> Told:
    return Told(_("{name}: edges → {edges}", name=f["name"], edges=", ".join(str(e) for e in f["edges"]) or _("(none)")))


@teller("character.backgrounds")
def _backgrounds(f: _Read) -> Told:
    from .model import HARHA_TIER_LABELS

    shown = ", ".join(_("{background} ({tier})", background=b["name"],
                        tier=builtin_label(HARHA_TIER_LABELS.get(str(b["tier"]), str(b["tier"]))))
                      for b in f["backgrounds"])
    return Told(_("{name}: backgrounds → {backgrounds}", name=f["name"], backgrounds=shown or _("(none)")))


SHEET_FIELDS = {
    "name": N_("name"), "player": N_("player"), "kind": N_("kind"), "notes": N_("notes"), "secret": N_("secret"),
    "story_points": N_("story_points"), "backgrounds": N_("backgrounds"), "paid_this_scene": N_("paid_this_scene"),
    "rolled_this_scene": N_("rolled_this_scene"), "attributes": N_("attributes"), "skills": N_("skills"),
    "edge": N_("edge"), "edge_rating": N_("edge_rating"), "charges": N_("charges"), "charges_max": N_("charges_max"),
    "abilities": N_("abilities"), "edges": N_("edges"),
}
"""A sheet's fields as the log names them (the English is the field's own name, as older files wrote it)."""


def field_value(field: str, value: object) -> str:
    """A sheet field's new value as the log shows it: yes or no, a kind, a list, attributes and ratings."""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if field == "kind":
        return kind_label(str(value))
    if isinstance(value, list):
        return ", ".join(field_value("", v) for v in cast("list[object]", value)) or _("(none)")
    if isinstance(value, Mapping):
        return ", ".join(f"{builtin_label(str(k)) if field == 'attributes' else k} {v}"
                         for k, v in cast("Mapping[object, object]", value).items())
    return str(value)


@teller("character.field")
def _character_field(f: _Read) -> Told:
    field = str(f["field"])
    word = _(SHEET_FIELDS[field]) if field in SHEET_FIELDS else field
    return Told(_("{name}: {field} → {value}", name=f["name"], field=word, value=field_value(field, f["value"])))


# -- gear on a Varjojuoksu sheet or template (tracker.roster: set_weapon, remove_weapon, set_armour) -------------

GEAR_LINES = {
    ("gear.weapon_added", False): N_("{name} gains {weapon}"),
    ("gear.weapon_added", True): N_("Template {name} gains {weapon}"),
    ("gear.weapon_changed", False): N_("{name} now carries {weapon}"),
    ("gear.weapon_changed", True): N_("Template {name} now carries {weapon}"),
    ("gear.weapon_dropped", False): N_("{name} drops {weapon}"),
    ("gear.weapon_dropped", True): N_("Template {name} drops {weapon}"),
    ("gear.armour", False): N_("{name}: armour {armour}"),
    ("gear.armour", True): N_("Template {name}: armour {armour}"),
}
"""A gear edit's line by its kind and whether a template's gear changed."""


WEAPON_KINDS = {"ranged": N_("ranged"), "melee": N_("melee"), "thrown": N_("thrown")}
"""A weapon's kind (``rules.shadowrun.WEAPON_KINDS``) in words."""


def weapon_words(w: Fact) -> str:
    """A weapon as a sheet keeps it (``table.gear.Weapon.to_table``) in words: "Ares Predator IV 5P AP −1 (Pistols,
    ranged)"; its name and skill as the GM wrote them."""
    letter = "P" if w["damage"] == "physical" else "S"
    raw_ap = w["ap"]
    ap = sr.parse_ap(raw_ap if isinstance(raw_ap, (int, str)) else str(raw_ap))
    shown_ap = f" AP {ap.text}" if ap != sr.ArmourPenetration() else ""
    kind = str(w.get("kind") or sr.weapon_kind(str(w.get("skill", ""))))
    how = ", ".join(x for x in (str(w.get("skill", "")), _(WEAPON_KINDS[kind]) if kind in WEAPON_KINDS else kind) if x)
    return f"{w['name']} {_int(w['dv'])}{letter}{shown_ap} ({how})"


def armour_words(a: Fact) -> str:
    """Armour as a sheet keeps it (``{ballistic, impact}``) in words: "ballistic 6 / impact 4"."""
    return _("ballistic {ballistic} / impact {impact}", ballistic=_int(a["ballistic"]), impact=_int(a["impact"]))


def _gear(f: _Read) -> Told:
    line = GEAR_LINES[(str(f["id"]), bool(f.get("template")))]
    if f["id"] == "gear.armour":
        return Told(_(line, name=f["name"], armour=armour_words(f["armour"])))
    weapon = f["weapon_name"] if f["id"] == "gear.weapon_dropped" else weapon_words(f["weapon"])
    return Told(_(line, name=f["name"], weapon=weapon))


for _gear_id in ("gear.weapon_added", "gear.weapon_changed", "gear.weapon_dropped", "gear.armour"):
    TELLERS[_gear_id] = _gear


# -- resets, structure, dice secrets, settings --------------------------------------------

@teller("reset.scene_costs")
def _reset_scene_costs(f: _Read) -> Told:
    return Told(_("{name}: per-scene ability costs reset", name=f["name"]))


@teller("reset.backgrounds")
def _reset_backgrounds(f: _Read) -> Told:
    return Told(_("{name}: background dice available again", name=f["name"]))


@teller("reset.narration")
def _reset_narration(f: _Read) -> Told:
    return Told(_("Narration contest cleared for the new scene"))


@teller("reset.edge")
def _reset_edge(f: _Read) -> Told:
    return Told(_("{name}: Edge refreshed to {rating}", name=f["name"], rating=int(f["rating"])))


@teller("reset.edges")
def _reset_edges(f: _Read) -> Told:
    return Told(_("{name}: edge rerolls available again", name=f["name"]))


@teller("reset.initiative")
def _reset_initiative(f: _Read) -> Told:
    return Told(_("Initiative cleared: the new session starts out of combat"))


@teller("reset.story_points")
def _reset_story_points(f: _Read) -> Told:
    return Told(_("{name}: story points {before} → {after} (unspent points vanish)", name=f["name"],
                  before=int(f["before"]), after=int(f["after"])))


@teller("structure.scene")
def _structure_scene(f: _Read) -> Told:
    if f.get("title"):
        return Told(_("Scene {scene}: {title}", scene=int(f["scene"]), title=f["title"]))
    return Told(_("Scene {scene}", scene=int(f["scene"])))


@teller("structure.session")
def _structure_session(f: _Read) -> Told:
    return Told(_("Session {session} begins", session=int(f["session"])))


@teller("structure.story")
def _structure_story(f: _Read) -> Told:
    return Told(_("Story {story} begins", story=int(f["story"])))


@teller("dice.committed")
def _dice_committed(f: _Read) -> Told:
    return Told(_("Dice secret #{key} committed for session {session}: SHA-256 {commitment}", key=int(f["key"]),
                  session=int(f["session"]), commitment=f["commitment"]))


@teller("dice.revealed")
def _dice_revealed(f: _Read) -> Told:
    return Told(ngettext("Dice secret #{key} revealed ({n} program roll): {secret} — anyone can check them with "
                         "polku verify",
                         "Dice secret #{key} revealed ({n} program rolls): {secret} — anyone can check them with "
                         "polku verify", int(f["rolls"]), key=int(f["key"]), secret=f["revealed"]))


def setting_value(value: object) -> str:
    """A setting's value as the log shows it: yes or no, else as it is kept."""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return str(value)


@teller("setting")
def _setting(f: _Read) -> Told:
    return Told(_("Setting {key} ({rule}): {before} → {after}", key=f["key"], rule=f["rule"],
                  before=setting_value(f["before"]), after=setting_value(f["after"])))


# -- the challenge queue ----------------------------------------------------------------------

@teller("challenge.added")
def _challenge_added(f: _Read) -> Told:
    return Told(_("Challenge added: {title}", title=f["title"]))


@teller("challenge.removed")
def _challenge_removed(f: _Read) -> Told:
    return Told(_("Challenge removed: {title}", title=f["title"]))


@teller("challenge.moved")
def _challenge_moved(f: _Read) -> Told:
    return Told(_("Challenge moved up: {title}", title=f["title"]) if f.get("up")
                else _("Challenge moved down: {title}", title=f["title"]))


@teller("challenge.started")
def _challenge_started(f: _Read) -> Told:
    return Told(_("Challenge started: {title}", title=f["title"]))


@teller("challenge.resolved")
def _challenge_resolved(f: _Read) -> Told:
    return Told(_("Challenge resolved: {title} — {outcome}", title=f["title"], outcome=f["outcome"]))


# -- the fight (S12) ------------------------------------------------------------------------------

def order_text(f: Fact) -> str:
    """``Razor 9, Byte 7``: an initiative order's names and scores in force, best first."""
    order = f["order"]
    if not isinstance(order, list):
        raise TypeError("an initiative order is a list")
    return ", ".join(f"{e['name']} {int(e['current'])}" for e in order)


@teller("initiative.order")
def _initiative_order(f: _Read) -> Told:
    names = order_text(f)
    summary = _("order: {names}", names=names)
    if f.get("joins"):
        return Told(_("Initiative: {name} joins: {names}", name=f["joins"], names=names), summary)
    if f.get("surprised"):
        return Told(_("Initiative: {names}; surprised: {surprised}", names=names,
                      surprised=", ".join(str(n) for n in f["surprised"])), summary)
    return Told(_("Initiative: {names}", names=names), summary)


@teller("combat.turn_begins")
def _combat_turn_begins(f: _Read) -> Told:
    values = {"turn": int(f["turn"]), "name": f.get("name") or _("nobody")}
    if f.get("pass"):  # everyone who could act in pass 1 is surprised
        return Told(_("Combat turn {turn} begins, pass {pass_} (nobody acts in pass 1: surprised): {name} acts",
                      pass_=int(f["pass"]), **values))
    if f.get("kept"):
        return Told(_("Combat turn {turn} begins (initiative kept): {name} acts", **values))
    return Told(_("Combat turn {turn} begins: {name} acts", **values))


@teller("character.initiative")
def _character_initiative(f: _Read) -> Told:
    """A sheet's initiative score set (S12; astral and matrix SR4): its bonus and passes."""
    kind, bonus, passes, name = str(f["kind"]), int(f["bonus"]), int(f["passes"]), f["name"]
    if kind == "astral":
        text = ngettext("{name}: astral initiative +{bonus}, {n} pass", "{name}: astral initiative +{bonus}, {n} passes",
                        passes, name=name, bonus=bonus)
    elif kind == "matrix":
        text = ngettext("{name}: matrix initiative +{bonus}, {n} pass", "{name}: matrix initiative +{bonus}, {n} passes",
                        passes, name=name, bonus=bonus)
    else:
        text = ngettext("{name}: initiative +{bonus}, {n} pass", "{name}: initiative +{bonus}, {n} passes",
                        passes, name=name, bonus=bonus)
    return Told(text + (f" ({f['why']})" if f.get("why") else ""))


@teller("character.initiative_removed")
def _character_initiative_removed(f: _Read) -> Told:
    if f["kind"] == "astral":
        return Told(_("{name}: no astral initiative", name=f["name"]))
    return Told(_("{name}: no matrix initiative", name=f["name"]))


@teller("combat.acts")
def _combat_acts(f: _Read) -> Told:
    return Told(_("Turn {turn}, pass {pass_}: {name} acts", turn=int(f["turn"]), pass_=int(f["pass"]),
                  name=f["name"]))


@teller("combat.pass_begins")
def _combat_pass_begins(f: _Read) -> Told:
    return Told(_("Turn {turn}, pass {pass_} begins: {name} acts", turn=int(f["turn"]), pass_=int(f["pass"]),
                  name=f["name"]))


@teller("combat.turn_acts")
def _combat_turn_acts(f: _Read) -> Told:
    return Told(_("Combat turn {turn}: {name} acts", turn=int(f["turn"]), name=f["name"]))


@teller("combat.holds")
def _combat_holds(f: _Read) -> Told:
    return Told(_("{name} holds the action", name=f["name"]))


@teller("combat.steps_in")
def _combat_steps_in(f: _Read) -> Told:
    return Told(_("Turn {turn}, pass {pass_}: {name} steps in with the held action", turn=int(f["turn"]),
                  pass_=int(f["pass"]), name=f["name"]))


@teller("combat.held_lost")
def _combat_held_lost(f: _Read) -> Told:
    return Told(_("{name}'s held action is lost: the pass is over", name=f["name"]))


@teller("combat.turn_over")
def _combat_turn_over(f: _Read) -> Told:
    return Told(_("Combat turn {turn} is over: roll initiative for combat turn {next}", turn=int(f["turn"]),
                  next=int(f["turn"]) + 1))


@teller("combat.turn_ends_early")
def _combat_turn_ends_early(f: _Read) -> Told:
    return Told(_("Combat turn {turn} ends early: initiative is rolled again", turn=int(f["turn"])))


@teller("combat.ends")
def _combat_ends(f: _Read) -> Told:
    return Told(ngettext("The fight ends after {n} combat turn", "The fight ends after {n} combat turns",
                         int(f["turns"])))


# -- a challenge's outcome ------------------------------------------------------------------------

@teller("sr.spoiled")
def _sr_spoiled(f: _Read) -> Told:
    """S10: the GM rules a glitch spoils an extended test (the challenge's line, and its outcome)."""
    return Told(_("{title}: the GM rules the glitch spoils the extended test (S10)", title=f.get("title", "")),
                _("spoiled by a glitch"))


@teller("raja.spirit_ended")
def _raja_spirit_ended(f: _Read) -> Told:
    """R11: the GM ends a spirit combat (the challenge's line, and its outcome)."""
    outcome = ngettext("the GM ends the spirit combat after {n} exchange (R11)",
                       "the GM ends the spirit combat after {n} exchanges (R11)", int(f["exchanges"]))
    return Told(_("{title}: {outcome}", title=f.get("title", ""), outcome=outcome), outcome)


@teller("gm.decided")
def _gm_decided(f: _Read) -> Told:
    """The players' outcome of a challenge the GM's own roll decided."""
    words = _("decided by the GM's roll")
    return Told(words, words)


def challenge_outcome(challenge: Mapping[str, object]) -> str:
    """A resolved challenge's outcome in the language in use: told from its ``outcome_fact`` (the deciding
    roll's), else as stored (typed by the GM, or an older file's)."""
    fact = challenge.get("outcome_fact")
    if isinstance(fact, Mapping):
        t = told({"fact": fact})
        if t is not None and t.summary:
            return t.summary
    return str(challenge.get("outcome", ""))


# -- more of Rajapolku and Harhapolku, the seats ----------------------------------------------

@teller("raja.ability_paid")
def _raja_ability_paid(f: _Read) -> Told:
    """R11: an ability die rolled, its cost paid."""
    return Told(ngettext("{name} pays {n} charge for {ability} ({left}/{max} left)",
                         "{name} pays {n} charges for {ability} ({left}/{max} left)", int(f["cost"]),
                         name=f["name"], ability=f["ability"], left=int(f["left"]), max=int(f["max"])))


@teller("raja.spirit_begins")
def _raja_spirit_begins(f: _Read) -> Told:
    return Told(_("Spirit combat begins: {a} and {b} each pay the entry charge, once for the fight (R11)",
                  a=f["a"], b=f["b"]))


@teller("seat.withdrawn")
def _seat_withdrawn(f: _Read) -> Told:
    return Told(_("The GM takes back the roll request to {name}", name=f["name"]))


@teller("harm.applied")
def _harm_applied(f: _Read) -> Told:
    """R8/R9, H9: the harm a lost challenge or contest did, as the GM confirmed it."""
    bits = []
    if "after" in f:
        bits.append(_("{before} → {after}", before=wound_label(str(f["before"])), after=wound_label(str(f["after"]))))
    if "note" in f:
        bits.append(_("health: {note}", note=f["note"]) if f["note"] else _("health: (cleared)"))
    return Told(_("{name}: {changes}", name=f["name"], changes="; ".join(bits)))


# -- the roster: templates, groups, copies, imports, saved pools --------------------------------------

@teller("template.saved")
def _template_saved(f: _Read) -> Told:
    values = {"name": f["name"], "source": f["from"]}
    if f.get("was_replaced"):
        text = (_("Template {name} replaced from {source} (secret)", **values) if f.get("secret_template")
                else _("Template {name} replaced from {source}", **values))
    else:
        text = (_("Template {name} saved from {source} (secret)", **values) if f.get("secret_template")
                else _("Template {name} saved from {source}", **values))
    return Told(text)


@teller("template.removed")
def _template_removed(f: _Read) -> Told:
    return Told(_("Template {name} removed", name=f["name"]))


GROUP_JOINS = {
    ("shared", False): N_("{n}× {template} join as {group} ({names}, shared initiative)"),
    ("separate", False): N_("{n}× {template} join as {group} ({names}, separate initiative)"),
    ("shared", True): N_("{n}× {template} join as {group} ({names}, shared initiative, secret)"),
    ("separate", True): N_("{n}× {template} join as {group} ({names}, separate initiative, secret)"),
}
"""NPCs from a template joining as a group, by its initiative (``model.GROUP_INITIATIVE``) and secrecy."""


@teller("group.joins")
def _group_joins(f: _Read) -> Told:
    """A group of NPCs from a template: how many, the names they got, whether they roll initiative as one."""
    names = f"{f['first']}–{f['last']}" if f.get("last") else str(f["first"])
    return Told(_(GROUP_JOINS[(str(f["initiative"]), bool(f.get("secret_group")))], n=int(f["count"]),
                  template=f["template"], group=f["group"], names=names))


@teller("group.initiative")
def _group_initiative(f: _Read) -> Told:
    if f["initiative"] == "separate":
        return Told(_("{group}: separate initiative", group=f["group"]))
    return Told(_("{group}: shared initiative", group=f["group"]))


@teller("character.fallen_leave")
def _fallen_leave(f: _Read) -> Told:
    return Told(_("The fallen leave: {names}", names=", ".join(str(n) for n in f["names"])))


@teller("character.copied")
def _copied(f: _Read) -> Told:
    names = ", ".join(str(n) for n in f.get("names", [])) or _("templates only")
    if f.get("source"):
        return Told(_("Copied from {source}: {names}", source=f["source"], names=names))
    return Told(_("Copied: {names}", names=names))


@teller("character.imported")
def _character_imported(f: _Read) -> Told:
    if f.get("source"):
        return Told(_("Character {name} imported from {source}", name=f["name"], source=f["source"]))
    return Told(_("Character {name} imported", name=f["name"]))


@teller("template.imported")
def _template_imported(f: _Read) -> Told:
    if f.get("source"):
        return Told(_("Template {name} imported from {source}", name=f["name"], source=f["source"]))
    return Told(_("Template {name} imported", name=f["name"]))


@teller("pool.saved")
def _pool_saved(f: _Read) -> Told:
    if f.get("was_replaced"):
        return Told(_("{name}: pool '{pool}' replaced", name=f["name"], pool=f["pool_name"]))
    return Told(_("{name}: pool '{pool}' saved", name=f["name"], pool=f["pool_name"]))


@teller("pool.removed")
def _pool_removed(f: _Read) -> Told:
    return Told(_("{name}: pool '{pool}' removed", name=f["name"], pool=f["pool_name"]))


# -- damage (SR4 core, S12) ----------------------------------------------------------------------

@teller("sr.damage")
def _sr_damage(f: _Read) -> Told:
    """A damage resistance roll: the DV less the hits, the boxes filled, the monitors after, the wound
    modifier, the state, a glitch."""
    hits, boxes = int(f["hits"]), int(f["boxes"])
    filled = (ngettext("{n} box stun", "{n} boxes stun", boxes) if f["track"] == "stun"
              else ngettext("{n} box physical", "{n} boxes physical", boxes))
    values = {"physical": int(f["physical_now"]), "physical_max": int(f["physical_max"]),
              "stun": int(f["stun_now"]), "stun_max": int(f["stun_max"])}
    monitors = (_("({physical}/{physical_max} physical, {stun}/{stun_max} stun, overflow {overflow})",
                  overflow=int(f["overflow_now"]), **values) if f.get("overflow_now")
                else _("({physical}/{physical_max} physical, {stun}/{stun_max} stun)", **values))
    parts = [_("{dv}{letter} − {hits} → {filled} {monitors}", dv=int(f["dv"]), letter=f["letter"],
               hits=hits_words(hits), filled=filled, monitors=monitors),
             _("wound {modifier}", modifier=str(int(f["wound_modifier"])).replace("-", "−"))]
    state = f.get("state")
    if state == "dead":
        parts.append(_("dead"))
    elif state == "dying":
        parts.append(_("dying (overflow {overflow}/{body})", overflow=int(f["dying_overflow"]),
                       body=int(f["body_rating"])))
    elif state == "unconscious":
        parts.append(_("unconscious"))
    if f.get("glitch_kind") in ("critical", "glitch"):
        parts.append(glitch_words(hits, str(f["glitch_kind"])))
    # The log's line names who took the hit first: the roll's summary is the whole sentence.
    text = _("{name} takes {what}: {outcome}", name=f["name"], what=f["what"], outcome=", ".join(parts))
    return Told(text, text)


# -- effects on a character (S12 and the GM's own) ---------------------------------------------------

def effect_words(e: Fact) -> str:
    """``Stunned (−2 dice, 2 passes left)``, ``Blessed (until removed)``: an effect's fact in words."""
    parts = []
    dice = _int(e.get("modifier", 0))
    if dice:
        parts.append(ngettext("+{n} die", "+{n} dice", dice) if dice > 0
                     else ngettext("−{n} die", "−{n} dice", -dice))
    unit, left = str(e["unit"]), _int(e.get("count", 0))
    if unit == "removed":
        parts.append(_("until removed"))
    elif unit == "pass":
        parts.append(ngettext("{n} pass left", "{n} passes left", left))
    elif unit == "turn":
        parts.append(ngettext("{n} combat turn left", "{n} combat turns left", left))
    elif unit == "scene":
        parts.append(ngettext("{n} scene left", "{n} scenes left", left))
    else:
        parts.append(ngettext("{n} session left", "{n} sessions left", left))
    return _("{name} ({parts})", name=e["effect_name"], parts=", ".join(parts))


@teller("effect.added")
def _effect_added(f: _Read) -> Told:
    return Told(_("{name}: {effect}", name=f["name"], effect=effect_words(f["effect"])))


@teller("effect.removed")
def _effect_removed(f: _Read) -> Told:
    return Told(_("{name}: {effect} removed", name=f["name"], effect=f["effect_name"]))


@teller("effect.counting")
def _effect_counting(f: _Read) -> Told:
    return Told(_("{name}: {effect}", name=f["name"], effect=", ".join(effect_words(e) for e in f["effects"])))


@teller("effect.worn_off")
def _effect_worn_off(f: _Read) -> Told:
    """An effect's count ran out, or the fight ended it."""
    values = {"effect": f["effect_name"], "name": f["name"]}
    why = f.get("why")
    if why == "pass":
        return Told(_("{effect} wears off {name}: pass {number} is over", number=int(f["number"]), **values))
    if why == "turn":
        return Told(_("{effect} wears off {name}: combat turn {number} is over", number=int(f["number"]), **values))
    if why == "scene":
        return Told(_("{effect} wears off {name}: the scene is over", **values))
    if why == "session":
        return Told(_("{effect} wears off {name}: the session is over", **values))
    return Told(_("{effect} wears off {name}: the fight is over", **values))


# -- Harhapolku's narration contest (H9) ----------------------------------------------------------

@teller("harha.narration_roll")
def _narration_roll(f: _Read) -> Told:
    """H9: a background's die rolled into a hand."""
    text = _("{who} rolls {background}: {face} on a d{size}", who=f["who"], background=f["background"],
             face=int(f["face"]), size=int(f["size"]))
    return Told(text, text)


@teller("harha.narration_open")
def _narration_open(f: _Read) -> Told:
    """H9: the narration taken with two dice on the empty table."""
    faces = [int(x) for x in f["faces_taken"]]
    dice = "+".join(str(x) for x in faces) + (f"={sum(faces)}" if len(faces) > 1 else "")
    return Told(_("{narrator} takes the narration with {dice} (H9)", narrator=f["narrator"], dice=dice))


@teller("harha.narration_step")
def _narration_step(f: _Read) -> Told:
    """H9: a step of the narration contest as the rules core worded it (usurping, burning, harm, conflict…)."""
    text = _said(f["step"])
    return Told(text, text)


@teller("harha.narration_edge")
def _narration_edge(f: _Read) -> Told:
    """H7 in H9: an edge rerolls the background dice in hand."""
    s = f["step"]
    text = _("{who} rerolls with an edge: {old} → {new} with edge '{edge}' (H7)", who=s["who"],
             old=",".join(str(x) for x in s["old"]), new=",".join(str(x) for x in s["new"]), edge=f["edge"])
    return Told(text, _said(s))


@teller("seat.ask_harha")
def _seat_ask_harha(f: _Read) -> Told:
    """H8: the GM asks a seat to roll a difficult or very demanding action."""
    if f.get("very_demanding"):
        return Told(ngettext("The GM asks {name} to roll a very demanding action: {n} dice",
                             "The GM asks {name} to roll a very demanding action: {n} dice", int(f["dice_count"]),
                             name=f["name"]))
    return Told(ngettext("The GM asks {name} to roll a difficult action: {n} dice",
                         "The GM asks {name} to roll a difficult action: {n} dice", int(f["dice_count"]),
                         name=f["name"]))


@teller("seat.ask_sr")
def _seat_ask_sr(f: _Read) -> Told:
    """S1–S8: the GM asks a seat to roll a Varjojuoksu test: its pool, the threshold (or that it is hidden)."""
    values = {"name": f["name"], "pool": _said(f["pool_line"])}
    if f.get("hidden_threshold"):
        return Told(_("The GM asks {name} to roll: {pool}, threshold hidden by the GM", **values))
    if "threshold" in f:
        return Told(_("The GM asks {name} to roll: {pool}, threshold {threshold}", threshold=int(f["threshold"]),
                      **values))
    return Told(_("The GM asks {name} to roll: {pool}", **values))


@teller("seat.ask_raja")
def _seat_ask_raja(f: _Read) -> Told:
    """R1–R7: the GM asks a seat to roll against the opposition's pool."""
    return Told(ngettext("The GM asks {name} to roll: {n} dice against {opposition}'s {b_count}",
                         "The GM asks {name} to roll: {n} dice against {opposition}'s {b_count}", int(f["a_count"]),
                         name=f["name"], opposition=f["opposition_label"], b_count=int(f["b_count"])))


__all__ = ["OLD_NOTE", "TELLERS", "Told", "challenge_outcome", "event_text", "explain_lines", "fact_of", "glitch_words",
           "line", "line_text", "old_note", "raja_fact", "roll_summary", "says", "sr_roll_fact", "step_line", "stored_only",
           "teller", "told"]
