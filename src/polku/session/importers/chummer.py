"""A Varjojuoksu character (or template) from a Chummer 4 character file (``.chum``).

Chummer 4 is the Shadowrun 4th edition character generator; it saves a character as XML
in UTF-16 with a byte-order mark (UTF-8 is accepted too). What is read:

- the name (else the alias, else the file's name), the metatype and concept as the notes;
- the eight attributes at their augmented values (Chummer's ``totalvalue``) and Edge;
- every skill with a rating, with its linked attribute (kept in ``links`` where it is
  not the usual one), exotic skills named with their weapon;
- the condition monitors: boxes that augmentations add (``monitor_extra``) and boxes
  already filled;
- the weapons (DV, with Strength worked in for melee weapons, physical or stun, AP, the
  skill from Chummer's category, the kind) and the armour worn (the highest piece, what
  stacks on it, and augmentations), ballistic and impact;
- the initiative passes (1 + what augmentations and powers add), and for a magician the
  astral initiative score (SR4: Intuition × 2, 3 passes) beside the physical one.

What the sheet has no place for (Magic, spells, powers, cyberware as items, contacts,
qualities, weapons whose damage is not a number…) is listed in :attr:`Imported.unmapped`.

A file that is too big, not UTF-16/UTF-8, not well-formed, has a DTD or entities (an
entity bomb, an external entity: refused by defusedxml before anything is expanded), or
whose root is not ``<character>`` is refused with :class:`ImportRefused`, one line.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from xml.etree.ElementTree import Element, ParseError

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring

from ...i18n import N_, Said, said, said_list
from ...rules import shadowrun as sr
from ...rules.dice import RulesError
from ...rules.turns import MAX_PASSES
from ..table.gear import MAX_WEAPONS, Armour, Weapon
from . import Imported, ImportedSheet, ImportRefused

MAX_BYTES = 8 * 1024 * 1024
"""The largest file read: Chummer's own characters are under 200 KB (a portrait adds a few hundred)."""

_ATTRIBUTES = {"BOD": "body", "AGI": "agility", "REA": "reaction", "STR": "strength", "CHA": "charisma",
               "INT": "intuition", "LOG": "logic", "WIL": "willpower"}
"""Chummer's attribute abbreviations and Polku's names."""

_TITLED = {"body": N_("Body"), "agility": N_("Agility"), "reaction": N_("Reaction"), "strength": N_("Strength"),
           "charisma": N_("Charisma"), "intuition": N_("Intuition"), "logic": N_("Logic"), "willpower": N_("Willpower")}
"""Polku's attribute names as a sentence starts with them (the list of what was not mapped)."""

_OTHER_ATTRIBUTES = {"MAG": N_("Magic"), "RES": N_("Resonance")}

_SKILL_OF_CATEGORY = {
    "tasers": "Pistols", "holdouts": "Pistols", "light pistols": "Pistols", "heavy pistols": "Pistols",
    "machine pistols": "Pistols", "submachine guns": "Automatics", "assault rifles": "Automatics",
    "battle rifles": "Automatics", "shotguns": "Longarms", "sniper rifles": "Longarms", "sports rifles": "Longarms",
    "light machine guns": "Heavy Weapons", "medium machine guns": "Heavy Weapons",
    "heavy machine guns": "Heavy Weapons", "assault cannons": "Heavy Weapons", "grenade launchers": "Heavy Weapons",
    "missile launchers": "Heavy Weapons", "underbarrel weapons": "Heavy Weapons", "bows": "Archery",
    "crossbows": "Archery", "exotic ranged weapons": "Exotic Ranged Weapon", "blades": "Blades", "clubs": "Clubs",
    "unarmed": "Unarmed Combat", "exotic melee weapons": "Exotic Melee Weapon", "throwing weapons": "Throwing Weapons",
}
"""The skill a Chummer weapon category is used with (SR4 core, Combat Skills)."""

_DV = re.compile(r"^(?:(?P<n>\d+)|\(STR/2(?:\+(?P<a>\d+))?\)(?:\+(?P<b>\d+))?)(?P<kind>[PS])(?P<rest>.*)$")
"""A Damage Value as Chummer prints it: "5P", "6S(e)", "(STR/2+3)P", "(STR/2)+1P", "12P(f) (-1/m)"."""


def read_chummer(path: str | Path) -> Imported:
    """Read a Chummer 4 file from disk (at most :data:`MAX_BYTES`). Raises :class:`ImportRefused`."""
    path = Path(path).expanduser()
    try:
        with path.open("rb") as f:
            data = f.read(MAX_BYTES + 1)
    except OSError as e:
        # the OS's reason (strerror) as the OS gives it, in a whole sentence in the reader's language
        raise ImportRefused(said(N_("{path}: cannot read it ({problem})"), path=str(path), problem=str(e.strerror or e))) from None
    return parse_chummer(data, path.name)


def decode(data: bytes, name: str = "the file") -> str:
    """The file's text: UTF-16 with its byte-order mark (as Chummer 4 writes), or UTF-8."""
    if len(data) > MAX_BYTES:
        raise ImportRefused(said(N_("{name}: bigger than {mb} MB; a Chummer character file is far smaller"), name=name,
                                 mb=MAX_BYTES // (1024 * 1024)))
    if not data.strip():
        raise ImportRefused(said(N_("{name}: the file is empty"), name=name))
    try:
        if data.startswith((b"\xff\xfe", b"\xfe\xff")):
            return data.decode("utf-16")
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ImportRefused(said(N_("{name}: not UTF-16 (with its byte-order mark) or UTF-8 text"), name=name)) from None


def parse_chummer(data: bytes, name: str = "the file") -> Imported:
    """A Varjojuoksu character from a Chummer 4 file's bytes. Raises :class:`ImportRefused`, one line."""
    text = decode(data, name)
    # The declaration names the encoding the bytes had; the text is decoded already.
    text = re.sub(r"^\s*<\?xml[^>]*\?>", "", text, count=1)
    try:
        root = fromstring(text, forbid_dtd=True)
    except DefusedXmlException as e:
        raise ImportRefused(said(N_("{name}: refused: the file declares a DTD or entities ({what}); a Chummer file has "
                                    "none"), name=name, what=type(e).__name__)) from None
    except ParseError as e:
        raise ImportRefused(said(N_("{name}: not well-formed XML ({problem})"), name=name, problem=str(e)[:150])) from None
    if root.tag != "character":
        raise ImportRefused(said(N_("{name}: not a Chummer character file (the root element is <{tag}>, not "
                                    "<character>)"), name=name, tag=root.tag[:40]))
    return _Reader(root, name).read()


def _int(text: str | None, what: str, name: str) -> int:
    try:
        return int((text or "0").strip())
    except ValueError:
        raise ImportRefused(said(N_("{name}: {what} is {text}, not a whole number"), name=name, what=said(what),
                                 text=repr(str(text)[:30]))) from None


class _Reader:
    """One file's character, and the list of what it could not map."""

    def __init__(self, root: Element, name: str) -> None:
        self.root = root
        self.name = name
        self.unmapped: list[str] = []

    def text(self, tag: str) -> str:
        return (self.root.findtext(tag) or "").strip()

    def flag(self, tag: str) -> bool:
        return self.text(tag).lower() == "true"

    def read(self) -> Imported:
        totals = self.attributes()
        attrs: dict[str, int] = {}
        for abbr, polku in _ATTRIBUTES.items():
            value = totals.get(abbr)
            if value is None:
                raise ImportRefused(said(N_("{name}: no {abbr} attribute (is it a Chummer 4 character file?)"),
                                         name=self.name, abbr=abbr))
            attrs[polku] = min(12, max(1, value))
            if attrs[polku] != value:
                self.unmapped.append(said(N_("{attribute} {value} (the sheet holds 1–12: kept as {kept})"),
                                          attribute=said(_TITLED[polku]), value=value, kept=attrs[polku]))
        edge = totals.get("EDG", 0)
        rating = min(9, max(0, edge))
        if rating != edge:
            self.unmapped.append(said(N_("Edge {value} (the sheet holds 0–9: kept as {kept})"), value=edge, kept=rating))
        for abbr, label in _OTHER_ATTRIBUTES.items():
            on = self.flag("magenabled" if abbr == "MAG" else "resenabled")
            if on and totals.get(abbr, 0) > 0:
                self.unmapped.append(said("{attribute} {value}", attribute=said(label), value=totals[abbr]))
        skills, links = self.skills()
        improvements = self.improvements()
        extra = {"physical": sum(improvements.get("PhysicalCM", [])), "stun": sum(improvements.get("StunCM", []))}
        extra = {k: max(-8, min(12, v)) for k, v in extra.items() if v}
        phys = sr.condition_monitor(attrs["body"]) + extra.get("physical", 0)
        stun = sr.condition_monitor(attrs["willpower"]) + extra.get("stun", 0)
        passes = 1 + max(improvements.get("InitiativePass", [0])) + sum(improvements.get("InitiativePassAdd", []))
        if passes > MAX_PASSES:
            self.unmapped.append(said(N_("{n} initiative passes (kept as {kept}, the most S12 allows)"), n=passes,
                                      kept=MAX_PASSES))
            passes = MAX_PASSES
        self.improvement_notes(improvements)
        name = self.text("name") or self.text("alias") or Path(self.name).stem or "Chummer character"
        notes = " · ".join(x for x in (self.text("metatype"), self.text("concept")) if x)
        ch: ImportedSheet = {
            "name": name[:60], "player": self.text("playername")[:60], "kind": "npc", "health": "",
            "notes": (f"From Chummer: {notes}" if notes else "From Chummer")[:200], "secret": False,
            "attributes": attrs, "skills": skills, "edge_rating": rating, "edge": rating,
            "physical": min(phys, max(0, _int(self.text("physicalcmfilled"), "physicalcmfilled", self.name))),
            "stun": min(stun, max(0, _int(self.text("stuncmfilled"), "stuncmfilled", self.name))),
        }
        if links:
            ch["links"] = links
        if extra:
            ch["monitor_extra"] = extra
        if passes != 1:
            ch["initiative_passes"] = passes
        if self.flag("magician"):
            # SR4: a magician may project; astral initiative is Intuition × 2 with 3 passes.
            ch["initiative_scores"] = {"astral": {"bonus": 0, "passes": sr.INITIATIVE_KIND_PASSES["astral"]}}
        weapons = self.weapons(attrs["strength"])
        if weapons:
            ch["weapons"] = [w.to_table() for w in weapons]
        armour = self.armour(improvements)
        if armour != Armour():
            ch["armour"] = armour.to_table()
        self.lists()
        return Imported(ch, self.unmapped, self.name)

    def attributes(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for a in self.root.iterfind("attributes/attribute"):
            abbr = (a.findtext("name") or "").strip()
            total = a.findtext("totalvalue")
            if total is None:
                total = a.findtext("value")
            if abbr:
                out[abbr] = _int(total, abbr, self.name)
        return out

    def skills(self) -> tuple[dict[str, int], dict[str, str]]:
        skills: dict[str, int] = {}
        links: dict[str, str] = {}
        unlinked: list[str] = []
        specs: list[str] = []
        for s in self.root.iterfind("skills/skill"):
            rating = _int(s.findtext("rating"), N_("a skill rating"), self.name)
            name = (s.findtext("name") or "").strip()
            if rating <= 0 or not name:
                continue
            spec = (s.findtext("spec") or "").strip()
            if (s.findtext("exotic") or "").strip().lower() == "true" and spec:
                name, spec = f"{name} ({spec})", ""
            name = name[:60]
            if rating > 12:
                self.unmapped.append(said(N_("{skill} {rating} (kept as 12)"), skill=name, rating=rating))
                rating = 12
            if name in skills:
                continue
            skills[name] = rating
            if spec:
                specs.append(f"{name} ({spec})")
            abbr = (s.findtext("attribute") or "").strip()
            attr = _ATTRIBUTES.get(abbr)
            if attr is None:
                if abbr:
                    unlinked.append(said("{skill} ({attribute})", skill=name, attribute=said(_OTHER_ATTRIBUTES.get(abbr, abbr))))
            elif sr.linked_attribute(name, "") != attr:
                links[name] = attr
        if unlinked:
            self.unmapped.append(said(N_("skills linked to an attribute the sheet does not hold: {skills}"),
                                      skills=said_list(unlinked)))
        if specs:
            self.unmapped.append(said(N_("specialisations: {skills}"), skills=", ".join(specs)))
        return skills, links

    def improvements(self) -> dict[str, list[int]]:
        out: dict[str, list[int]] = {}
        for imp in self.root.iterfind("improvements/improvement"):
            kind = (imp.findtext("improvementttype") or imp.findtext("improvementtype") or "").strip()
            try:
                value = int((imp.findtext("val") or "0").strip())
            except ValueError:
                continue
            if kind:
                out.setdefault(kind, []).append(value)
        return out

    def improvement_notes(self, improvements: dict[str, list[int]]) -> None:
        notes = {"DamageResistance": N_("damage resistance {n} dice"), "CMThreshold": N_("wound modifier every {n} boxes"),
                 "CMThresholdOffset": N_("wound modifiers start {n} boxes later"), "CMOverflow": N_("overflow {n} boxes"),
                 "Initiative": N_("initiative {n}"), "MatrixInitiativePass": N_("matrix initiative passes {n}"),
                 "UnarmedDV": N_("unarmed DV {n}"), "Reach": N_("reach {n}")}
        for kind, words in notes.items():
            total = sum(improvements.get(kind, []))
            if total:
                self.unmapped.append(said(words, n=f"{total:+d}"))

    def weapons(self, strength: int) -> list[Weapon]:
        out: list[Weapon] = []
        skipped: list[Said] = []
        for w in self.root.iterfind("weapons/weapon"):
            name = (w.findtext("name") or "").strip()[:60]
            if not name:
                continue
            weapon = self.weapon(w, name, strength, skipped)
            if weapon is None:
                continue
            if any(x.name.lower() == weapon.name.lower() for x in out):
                if weapon not in out:
                    skipped.append(said(N_("{weapon} (a second one, with other values)"), weapon=name))
                continue
            if len(out) >= MAX_WEAPONS:
                skipped.append(said(N_("{weapon} (more than {n} weapons)"), weapon=name, n=MAX_WEAPONS))
                continue
            out.append(weapon)
        if skipped:
            self.unmapped.append(said(N_("weapons: {weapons}"), weapons=said_list(skipped)))
        return out

    def weapon(self, w: Element, name: str, strength: int, skipped: list[Said]) -> Weapon | None:
        damage = (w.findtext("damage") or "").strip()
        m = _DV.match(damage)
        if m is None:
            skipped.append(said(N_("{weapon} (damage {damage})"), weapon=name, damage=repr(damage or "none")))
            return None
        if m.group("n") is not None:
            dv = int(m.group("n"))
        else:
            dv = math.ceil(strength / 2) + int(m.group("a") or m.group("b") or 0)
        rest = m.group("rest").strip()
        if rest.startswith("/"):
            skipped.append(said(N_("{weapon} (damage {damage}: two modes)"), weapon=name, damage=repr(damage)))
            return None
        ap_text = (w.findtext("ap") or "").strip()
        try:
            ap = sr.parse_ap(ap_text)
        except RulesError:
            skipped.append(said(N_("{weapon} (AP {ap})"), weapon=name, ap=repr(ap_text)))
            return None
        category = (w.findtext("category") or "").strip()
        use = (w.findtext("useskill") or "").strip()
        low = category.lower().removeprefix("cyberware ").strip()
        melee = (w.findtext("type") or "").strip().lower() == "melee"
        skill = use or _SKILL_OF_CATEGORY.get(low) or ("Unarmed Combat" if melee else "")
        kind = "melee" if melee else sr.weapon_kind(skill)
        if kind == "melee" and not melee:
            kind = "ranged"
        if rest and not rest.startswith("(e)"):
            self.unmapped.append(said(N_("{weapon} {dv}: {rest} not kept"), weapon=name, dv=f"{dv}{m.group('kind')}", rest=rest))
        return Weapon(name, min(dv, 99), "physical" if m.group("kind") == "P" else "stun", ap, skill, kind)

    def armour(self, improvements: dict[str, list[int]]) -> Armour:
        best = {"b": 0, "i": 0}
        stacking = {"b": 0, "i": 0}
        clothing = {"b": 0, "i": 0}
        for a in self.root.iterfind("armors/armor"):
            if (a.findtext("equipped") or "True").strip().lower() != "true":
                continue
            form_fitting = (a.findtext("name") or "").startswith("Form-Fitting")
            clothes = (a.findtext("category") or "").strip() == "Clothing"
            for key in ("b", "i"):
                raw = (a.findtext(key) or "0").strip()
                value = _int(raw.lstrip("+") or "0", N_("an armour rating"), self.name)
                for mod in a.iterfind("armormods/armormod"):
                    if (mod.findtext("equipped") or "True").strip().lower() == "true":
                        value += _int((mod.findtext(key) or "0").strip().lstrip("+") or "0", N_("an armour mod"),
                                      self.name)
                if raw.startswith("+") and clothes:
                    clothing[key] += value
                elif raw.startswith("+") or form_fitting:
                    stacking[key] += value
                else:
                    best[key] = max(best[key], value)
        b = max(best["b"], clothing["b"]) + stacking["b"] + sum(improvements.get("BallisticArmor", []))
        i = max(best["i"], clothing["i"]) + stacking["i"] + sum(improvements.get("ImpactArmor", []))
        return Armour(max(0, min(99, b)), max(0, min(99, i)))

    def lists(self) -> None:
        """The parts of the file the sheet has no place for, counted and named."""
        parts = [("spells/spell", N_("{n} spells: {names}")), ("powers/power", N_("{n} adept powers: {names}")),
                 ("techprograms/techprogram", N_("{n} complex forms: {names}")),
                 ("spirits/spirit", N_("{n} spirits and sprites: {names}")), ("foci/focus", N_("{n} foci: {names}")),
                 ("martialarts/martialart", N_("{n} martial arts: {names}")),
                 ("qualities/quality", N_("{n} qualities: {names}")), ("contacts/contact", N_("{n} contacts: {names}")),
                 ("cyberwares/cyberware",
                  N_("{n} cyberware and bioware (their bonuses are in the values above): {names}")),
                 ("gears/gear", N_("{n} other gear: {names}")), ("vehicles/vehicle", N_("{n} vehicles and drones: {names}")),
                 ("critterpowers/critterpower", N_("{n} critter powers: {names}")),
                 ("metamagics/metamagic", N_("{n} metamagics: {names}"))]
        for path, label in parts:
            names = [(e.findtext("name") or "").strip() for e in self.root.iterfind(path)]
            names = [n for n in names if n]
            if names:
                shown: list[object] = list(names[:6])
                if len(names) > 6:
                    shown.append(said(N_("… ({n} more)"), n=len(names) - 6))
                self.unmapped.append(said(label, n=len(names), names=said_list(shown)))


__all__ = ["MAX_BYTES", "decode", "parse_chummer", "read_chummer"]
