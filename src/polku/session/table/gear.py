"""Gear on a Varjojuoksu sheet: weapons and armour, on a character or an NPC template.

Stored on the character (or template) table, all optional (absent = none, which is how
older files load and how they played):

- ``weapons``: ``[{name, dv, damage, ap, skill, kind}]``; ``ap`` is a whole number
  (−1, +2; 0 for the books' "—") or the text ``"-half"``; ``skill`` (may be "") and
  ``kind`` (``ranged``, ``melee``, ``thrown``; decides which armour meets it) came with
  this feature, so an older weapon has neither (ranged, no skill).
- ``armour``: ``{ballistic, impact}``; an older file's single number stands for both.
- ``wielded``: the name of the weapon the character last attacked with (the damage
  prompt proposes it first).
- ``template``: on a character made from a template, the template's id. Such a character
  has no gear of its own until the GM gives it some: it shares its template's, so four
  gangers carry the one pistol written on the Ganger template.

The rules (AP as the books print it, which armour meets which weapon, armour after AP)
are in :mod:`polku.rules.shadowrun`; this module reads and words the stored gear.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...i18n import N_, said
from ...rules import shadowrun as sr
from ...rules.dice import RulesError
from .. import telling
from ..host import TrackerError
from ..model import State
from ..records import Character, SRArmour, SRWeapon

MAX_WEAPONS = 20
"""At most this many weapons on one sheet."""


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon on a sheet: Damage Value, physical or stun, Armour Penetration, skill and kind."""

    name: str = ""
    dv: int = 0
    damage: str = "physical"
    ap: sr.ArmourPenetration = sr.ArmourPenetration()
    skill: str = ""
    kind: str = "ranged"

    @property
    def armour(self) -> str:
        """The armour that meets it: "ballistic" or "impact"."""
        return sr.armour_against(self.kind)

    @property
    def text(self) -> str:
        """"Ares Predator IV 5P AP −1 (Pistols, ranged)"."""
        letter = "P" if self.damage == "physical" else "S"
        ap = f" AP {self.ap.text}" if self.ap != sr.ArmourPenetration() else ""
        how = ", ".join(x for x in (self.skill, self.kind) if x)
        return f"{self.name} {self.dv}{letter}{ap} ({how})"

    def to_table(self) -> SRWeapon:
        return {"name": self.name, "dv": self.dv, "damage": self.damage, "ap": self.ap.to_json(),
                "skill": self.skill, "kind": self.kind}

    @classmethod
    def from_table(cls, w: SRWeapon) -> Weapon:
        skill = w.get("skill", "")
        return cls(w["name"], w["dv"], w["damage"], sr.parse_ap(w["ap"]), skill,
                   w.get("kind") or sr.weapon_kind(skill))


@dataclass(frozen=True, slots=True)
class Armour:
    """Ballistic and impact armour ratings (SR4 core)."""

    ballistic: int = 0
    impact: int = 0

    def against(self, weapon_kind: str) -> int:
        return self.ballistic if sr.armour_against(weapon_kind) == "ballistic" else self.impact

    @property
    def text(self) -> str:
        return f"ballistic {self.ballistic} / impact {self.impact}"

    def to_table(self) -> SRArmour:
        return {"ballistic": self.ballistic, "impact": self.impact}

    @classmethod
    def from_stored(cls, value: SRArmour | int) -> Armour:
        """A stored ``armour``: the table, or an older file's one number (both kinds)."""
        if isinstance(value, dict):
            return cls(value["ballistic"], value["impact"])
        return cls(value, value)


def weapon_words(w: Weapon) -> str:
    """:attr:`Weapon.text` in the language in use: "Ares Predator IV 5P AP −1 (Pistols, kaukoase)"; the name
    and the skill as the GM wrote them."""
    return telling.weapon_words(w.to_table())


def armour_words(a: Armour) -> str:
    """:attr:`Armour.text` in the language in use: "ballistic 6 / impact 4"."""
    return telling.armour_words(a.to_table())


def parse_weapon(text: str) -> Weapon:
    """A weapon from one line: ``name, DV, AP, skill`` — "Ares Predator IV, 5P, -1, Pistols".

    DV is a number and P or S (physical or stun; none is physical); AP as the books print
    it ("-1", "+2", "-half", "-" for none; may be left out); skill may be left out. The kind
    (ranged, melee, thrown) follows the skill; a fifth part names it ("Bow, 4P, -, Archery,
    thrown"). Raises :class:`TrackerError` with one line saying what is wrong.
    """
    parts = [p.strip() for p in text.split(",")]
    if len(parts) < 2 or not parts[0]:
        raise TrackerError(said(N_("write a weapon as: name, DV, AP, skill (e.g. Ares Predator IV, 5P, -1, Pistols)")))
    if len(parts) > 5:
        raise TrackerError(said(N_("a weapon has at most five parts: name, DV, AP, skill, kind")))
    name, dv_text = parts[0], parts[1].replace(" ", "").upper()
    damage = "physical"
    if dv_text.endswith(("P", "S")):
        damage = "physical" if dv_text[-1] == "P" else "stun"
        dv_text = dv_text[:-1]
    if not dv_text.isdigit() or not 0 <= int(dv_text) <= 99:
        raise TrackerError(said(N_("a weapon's damage is a number 0–99 and P or S (e.g. 5P, 6S), not {text!r}"), text=parts[1]))
    try:
        ap = sr.parse_ap(parts[2] if len(parts) > 2 else "")
    except RulesError as e:
        raise TrackerError(*e.args) from None
    skill = parts[3] if len(parts) > 3 else ""
    kind = parts[4].lower() if len(parts) > 4 else sr.weapon_kind(skill)
    if kind not in sr.WEAPON_KINDS:
        raise TrackerError(said(N_("a weapon is {kinds}, not {text!r}"), kinds=", ".join(sr.WEAPON_KINDS), text=parts[4]))
    return Weapon(name[:60], int(dv_text), damage, ap, skill[:40], kind)


def format_weapon(w: Weapon) -> str:
    """The one-line form :func:`parse_weapon` reads back."""
    letter = "P" if w.damage == "physical" else "S"
    ap = "-half" if w.ap.half else (f"{w.ap.modifier:+d}" if w.ap.modifier else "-")
    kind = "" if w.kind == sr.weapon_kind(w.skill) else f", {w.kind}"
    return f"{w.name}, {w.dv}{letter}, {ap}, {w.skill}{kind}".rstrip(", ")


def parse_armour(text: str) -> Armour:
    """Armour from "6/4" (ballistic/impact) or one number for both. One line if not."""
    parts = [p.strip() for p in text.replace(",", "/").split("/")]
    if len(parts) == 1:
        parts = parts * 2
    if len(parts) != 2 or not all(p.isdigit() and int(p) <= 99 for p in parts):
        raise TrackerError(said(N_("armour is ballistic/impact, numbers 0–99 (e.g. 6/4), not {text!r}"), text=text.strip()))
    return Armour(int(parts[0]), int(parts[1]))


def gear_owner(state: State, ch: Character, key: str) -> Character | None:
    """The table whose ``key`` (``weapons`` or ``armour``) this character uses: its own, else its
    template's while it has none of its own; None if neither has any."""
    if key in ch:
        return ch
    tpl = state.get("templates", {}).get(ch.get("template", ""))
    if tpl is not None and key in tpl:
        return tpl
    return None


def weapons_of(state: State, ch: Character) -> list[Weapon]:
    """The weapons a character (or template) carries: its own, or its template's."""
    owner = gear_owner(state, ch, "weapons")
    if owner is None or "weapons" not in owner:  # only a Varjojuoksu sheet carries any
        return []
    return [Weapon.from_table(w) for w in owner["weapons"]]


def armour_of(state: State, ch: Character) -> Armour:
    owner = gear_owner(state, ch, "armour")
    if owner is None or "armour" not in owner:
        return Armour()
    return Armour.from_stored(owner["armour"])


def wielded(state: State, ch: Character) -> list[Weapon]:
    """The character's weapons, the one it last attacked with first (remembered per character)."""
    ws = weapons_of(state, ch)
    last = _sheet_wielded(ch).lower()
    return sorted(ws, key=lambda w: w.name.lower() != last)


def _sheet_wielded(ch: Character) -> str:
    return ch["wielded"] if "wielded" in ch else ""


def shared_from(state: State, ch: Character) -> str:
    """The template's name when a character's gear is its template's, else ""."""
    tpl = state.get("templates", {}).get(ch.get("template", ""))
    if tpl is None or ("weapons" in ch and "armour" in ch):
        return ""
    return tpl["name"] if ("weapons" in tpl or "armour" in tpl) else ""


__all__ = ["Armour", "MAX_WEAPONS", "Weapon", "armour_of", "format_weapon", "gear_owner", "parse_armour",
           "parse_weapon", "shared_from", "weapons_of", "wielded"]
