"""An attack at a Varjojuoksu table: what the roll screen proposes, so the GM types little.

- :meth:`Attacks.roller`: in a fight, the fighter marked ▶ (the combat's acting fighter) rolls.
- :meth:`Attacks.default_test`: the test a character rolled last (success, opposed or teamwork),
  read from the log; before any, an opposed test in a fight for a character with a weapon.
- :meth:`Attacks.attack_pool`: the attacker's weapon skill (the weapon on the sheet it last
  attacked with, if the character has its skill) with its linked attribute.
- :meth:`Attacks.defences` / :meth:`Attacks.defence_pool`: the defender's pool by default
  (the rules core's defences, ``rules.shadowrun.defences_against``: Reaction; a full defence
  adds Dodge; parry or block against a melee attack), with a die off for each attack the
  defender already defended in this pass (``defence_penalty``). The choice is remembered per
  character (:meth:`Attacks.choose_defence`) while the app runs, and an opposed test keeps the one
  rolled on the defender's sheet (``defence``), so it is proposed again after the file is reopened.

The screens ask; nothing here changes the state, so nothing here is a command.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ..model import Event
from ..records import sr as sr_sheet
from .gear import wielded

if TYPE_CHECKING:
    from ..host import AttackHost
    from ..rolls import SRPool

# The rules core is imported where it is used: the app's first frame does without it (tests/test_layers.py).

_TESTS = {"shadowrun": "success", "shadowrun-opposed": "opposed", "shadowrun-teamwork": "teamwork"}
"""The roll screen's test type of a logged Varjojuoksu roll (an extended test belongs to its challenge)."""

OWN = "own"
"""The defender rolls the pool the GM builds (any pool: an attribute alone, a count, skill + attribute);
``rules.shadowrun.OWN_DEFENCE``."""

_WORDS = {"reaction": "Reaction", "full": "full defence", "parry": "parry", "block": "block"}


@dataclass(frozen=True, slots=True)
class Defence:
    """One defence a defender may roll against an attack."""

    name: str
    """One of ``rules.shadowrun.DEFENCES``."""
    label: str
    """As the roll screen shows it: ``Reaction 3``, ``full defence: Reaction 3 + Dodge 2``."""
    skill: str
    """The skill added to Reaction ("" for none), as the character's sheet spells it."""
    reaction: int = 0
    rating: int = 0
    """The skill's rating (0 without a skill)."""


class Attacks:
    """The attack and defence defaults of the Varjojuoksu roll screen (``tracker.attacks``)."""

    def __init__(self, tracker: AttackHost) -> None:
        self._t = tracker
        self._chosen: dict[str, str] = {}
        """Character id → the defence chosen for them this sitting (not rolled yet: the sheet keeps
        the one last rolled)."""

    # -- who rolls, which test ----------------------------------------------------------

    def roller(self, selected: str | None) -> str | None:
        """Side A of a new roll: in a fight, the fighter marked ▶; else ``selected``."""
        acting = self._t.combat.acting() if self._t.combat.active else None
        return acting if acting and acting in self._t.characters else selected

    def default_test(self, cid: str | None) -> str:
        """The test type the roll screen opens with for side A ``cid``: the one they rolled last
        (success, opposed or teamwork); before any, opposed in a fight when their sheet has a
        weapon, else success."""
        if not cid:
            return "success"
        t = self._t
        for i in range(len(t.events) - 1, -1, -1):
            ev = t.events[i]
            roll = ev.get("roll")
            if not isinstance(roll, dict) or roll.get("test") not in _TESTS or t.is_undone(ev["seq"]):
                continue
            sides = roll.get("sides", [])
            lead = next((s for s in sides if isinstance(s, dict) and s.get("role") == "a"), None)
            if lead is not None and cid in (lead.get("who") or []):
                return _TESTS[roll["test"]]
        ch = t.characters.get(cid)
        if ch is not None and t.combat.active and wielded(t.state, ch):
            return "opposed"
        return "success"

    def attack_pool(self, cid: str) -> SRPool | None:
        """The attacker's pool from the weapon on their sheet they last attacked with (its skill and
        the skill's linked attribute, S1), or None when no weapon's skill is on their sheet."""
        from ..rolls import SRPool

        ch = sr_sheet(self._t.character(cid))
        skills = {k.lower(): k for k in ch["skills"]}
        for w in wielded(self._t.state, ch):
            skill = skills.get(w.skill.lower())
            if skill:
                return SRPool(mode="skill", skill=skill,
                              attribute=self._t.rolls.sr_linked_attribute(skill, "agility", cid))
        return None

    @staticmethod
    def attack_kind(pool: SRPool) -> str:
        """The kind of attack a pool makes: its skill's weapon kind (melee, thrown, ranged)."""
        from ...rules import shadowrun as sr

        return sr.weapon_kind(pool.skill) if pool.mode == "skill" and pool.skill else "ranged"

    # -- the defence --------------------------------------------------------------------

    def defences(self, cid: str, kind: str) -> list[Defence]:
        """The defences ``cid`` may roll against an attack of this kind, those needing a skill only
        when the sheet has one of its skills (the highest is used); Reaction always."""
        from ...rules import shadowrun as sr

        ch = sr_sheet(self._t.character(cid))
        skills = {k.lower(): (k, v) for k, v in ch["skills"].items()}
        reaction = ch["attributes"][sr.DEFENCE_ATTRIBUTE]
        out = []
        for name in sr.defences_against(kind):
            named = [skills[s.lower()] for s in sr.DEFENCE_SKILLS[name] if skills.get(s.lower(), ("", 0))[1] > 0]
            if sr.DEFENCE_SKILLS[name] and not named:
                continue
            skill, rating = max(named, key=lambda x: x[1]) if named else ("", 0)
            pool = f"Reaction {reaction}" + (f" + {skill} {rating}" if skill else "")
            out.append(Defence(name, pool if name == "reaction" else f"{_WORDS[name]}: {pool}", skill, reaction, rating))
        return out

    def choice(self, cid: str) -> str:
        """The defence chosen for ``cid``: this sitting's (d), else the one their sheet keeps from the
        last opposed test they defended (``defence``), else Reaction."""
        return self._chosen.get(cid) or sr_sheet(self._t.character(cid)).get("defence", "reaction")

    def defence(self, cid: str, kind: str) -> Defence | None:
        """The defence proposed for ``cid``: the one chosen for them (:meth:`choice`) if open against
        this kind of attack, else Reaction; None when the GM chose their own pool for them ("own")."""
        chosen = self.choice(cid)
        if chosen == OWN:
            return None
        ds = self.defences(cid, kind)
        return next((d for d in ds if d.name == chosen), ds[0])

    def next_defence(self, cid: str, kind: str) -> Defence | None:
        """Choose (and remember for ``cid``) the defence after the one proposed now: Reaction,
        full defence, parry, block (those open), then their own pool (None), then Reaction again."""
        ds: list[Defence | None] = [*self.defences(cid, kind), None]
        d = ds[(ds.index(self.defence(cid, kind)) + 1) % len(ds)]
        self._chosen[cid] = d.name if d is not None else OWN
        return d

    def choose_defence(self, cid: str, name: str) -> None:
        """Remember ``name`` (a defence, or "own": the GM's own pool) as ``cid``'s choice."""
        self._chosen[cid] = name

    def defended_this_pass(self, cid: str) -> int:
        """Opposed tests ``cid`` defended (was side B of) since this pass began; 0 out of a fight."""
        t = self._t
        if not t.combat.active:
            return 0
        n = 0
        for i in range(len(t.events) - 1, -1, -1):
            ev = t.events[i]
            if _begins_pass(ev):
                break
            roll = ev.get("roll")
            if not isinstance(roll, dict) or roll.get("test") != "shadowrun-opposed" or t.is_undone(ev["seq"]):
                continue
            if any(isinstance(s, dict) and s.get("role") == "b" and cid in (s.get("who") or [])
                   for s in roll.get("sides", [])):
                n += 1
        return n

    def defence_pool(self, cid: str, kind: str, own: SRPool) -> SRPool:
        """The defender's pool: the proposed defence (Reaction, + its skill), a die off for each
        attack already defended this pass, and what the GM chose on top (``own``: modifiers, Edge
        before or a Long Shot, effect rows turned off)."""
        from ...rules import shadowrun as sr

        d = self.defence(cid, kind)
        if d is None:
            return replace(own, defence=OWN)
        before = self.defended_this_pass(cid)
        mods = list(own.modifiers)
        if before:
            mods.insert(0, (f"defended {before} before this pass", sr.defence_penalty(before)))
        if d.skill:
            return replace(own, mode="skill", skill=d.skill, attribute=sr.DEFENCE_ATTRIBUTE, modifiers=mods,
                           defence=d.name)
        return replace(own, mode="attribute", skill="", attribute=sr.DEFENCE_ATTRIBUTE, modifiers=mods,
                       defence=d.name)


def _begins_pass(ev: Event) -> bool:
    """The event began a combat turn or a pass (the combat block set whole)."""
    return any(isinstance(c, dict) and c.get("path") == ["combat"] for c in ev.get("changes", []))


__all__ = ["Attacks", "Defence", "OWN"]
