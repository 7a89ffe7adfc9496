"""NPC templates and groups, copied characters and saved pools.

Used by :class:`~polku.session.tracker.Tracker` by composition (``tracker.roster``).
Every method that changes state is one logged, undoable command.

- A *template* (``state.templates``) is a character's stat block kept per
  campaign: attributes, skills, backgrounds, abilities, edges, saved pools and
  remembered weapons, with its per-fight values fresh (no boxes filled, Edge
  and charges full, Healthy). "Add 4× Ganger" makes four characters from it
  with numbered names (Ganger 1…4, numbering on after those already in play).
  They share the template's gear (``character.template``; :mod:`polku.session.table.gear`)
  until one is given gear of its own: the pistol written once on the template is
  every ganger's.
- *Gear* (Varjojuoksu): weapons and armour on a character's or a template's sheet
  (:meth:`Roster.set_weapon`, :meth:`Roster.remove_weapon`, :meth:`Roster.set_armour`).
- A *group* (``state.groups``) ties those characters together: its
  ``initiative`` is ``"shared"`` (one initiative roll for every member) or
  ``"separate"``; each member names its group in ``character.group``.
- *Remove the fallen*: every non-player character out of the fight
  (Varjojuoksu: a full monitor; Rajapolku: Out of play or Dead) leaves in one
  command; a group left empty goes with them.
- *Copy characters* read from another campaign's session file, or from the
  same campaign's previous file (:func:`polku.session.copying.read_characters`,
  validated like any open).
- *Saved pools* (``character.pools``): "Pistols (Agility)", "Ram the door
  (Body + Strength)", a Harhapolku background set, a Rajapolku background
  set; the roll screen fills a side from one.

Secrets: a template made from a secret character is secret and makes secret
characters; templates and groups are never part of the players' view.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, TypedDict, cast

from ...i18n import N_, _, ngettext, said
from ...rules.system import System
from ...text import builtin_label
from .. import model
from ..host import TrackerError
from ..model import State, by_name_or_id, clone
from ..records import (
    Character,
    HarhaEdge,
    HarhaPool,
    RajaPool,
    SavedPool,
    SRArmour,
    SRCharacter,
    SRPoolTable,
    SRWeapon,
    sr,
)
from ..records import raja as raja_sheet
from .gear import MAX_WEAPONS, Armour, Weapon, armour_of, armour_words, gear_owner, weapons_of

if TYPE_CHECKING:
    from ..host import TableHost, Txn
    from ..rolls import SRPool

MAX_GROUP_ADD = 20
"""At most this many characters from one "add N×"."""

_FRESH_SKIP = ("id", "name", "player", "health", "group", "effects", "template", "wielded")
"""Character fields a template does not keep (who plays it, its wounds note, its group)."""


def _fresh(system: System, block: Mapping[str, object], healthy: str = "Healthy") -> dict[str, object]:
    """A stat block with its per-fight and per-session values reset (S12, R9, R11, H7); ``healthy``: the
    first level of the campaign's wound track, by the name it gives it.

    The block is a sheet's fields in the sheet's order, some left out or still to add (the caller
    validates the whole state after it has stored the result), hence a plain table here."""
    b = dict(clone(block))
    if system is System.SHADOWRUN:
        b.update({"physical": 0, "stun": 0, "edge": b.get("edge_rating", 0)})
        b.pop("overflow", None)
    elif system is System.RAJAPOLKU:
        b.update({"wound": healthy, "charges": b.get("charges_max", 0), "paid_this_scene": []})
    else:
        edges = cast("list[HarhaEdge]", b.get("edges", []))  # a Harhapolku sheet's, checked at load
        b.update({"edges": [{**e, "used": False} for e in edges], "rolled_this_scene": []})
    return b


def numbered_names(base: str, taken: Iterable[str], count: int) -> list[str]:
    """``count`` names "Base N", numbering on after the highest "Base N" already taken."""
    pat = re.compile(rf"^{re.escape(base.strip())} (\d+)$", re.IGNORECASE)
    high = max((int(m.group(1)) for n in taken if (m := pat.match(n.strip()))), default=0)
    return [f"{base.strip()} {high + i}" for i in range(1, count + 1)]


class Roster:
    """Templates, groups, copies and saved pools of one tracker."""

    def __init__(self, tracker: TableHost) -> None:
        self.t = tracker

    # -- reading -------------------------------------------------------------------

    @property
    def templates(self) -> dict[str, Character]:
        tpls: dict[str, Character] = self.t.state.get("templates", {})
        return tpls

    @property
    def groups(self) -> dict[str, model.Group]:
        groups: dict[str, model.Group] = self.t.state.get("groups", {})
        return groups

    def template(self, name_or_id: str) -> Character:
        tpls = self.templates
        tpl = by_name_or_id(tpls, name_or_id)
        if tpl is not None:
            return tpl
        if tpls:
            raise TrackerError(said(N_("no template named '{name}' (templates: {templates})"), name=name_or_id,
                                 templates=", ".join(x["name"] for x in tpls.values())))
        raise TrackerError(said(N_("no template named '{name}' (save one from a character first)"), name=name_or_id))

    def members(self, gid: str) -> list[str]:
        """The group's characters in name order (numbered names sort by number)."""
        chars = self.t.characters
        ids = [cid for cid, ch in chars.items() if ch.get("group") == gid]
        return sorted(ids, key=lambda c: _name_key(chars[c]["name"]))

    def initiative_groups(self) -> list[tuple[model.Group, list[str]]]:
        """Each group with its members: ``group["initiative"]`` is "shared" or "separate"."""
        return [(g, self.members(gid)) for gid, g in self.groups.items()]

    def group_of(self, cid: str) -> model.Group | None:
        gid = self.t.character(cid).get("group")
        return self.groups.get(gid) if gid else None

    def is_fallen(self, cid: str) -> bool:
        """Out of the fight: a full Varjojuoksu monitor (unconscious, dying, dead), or Out of play / Dead (R9)."""
        from ...rules import rajapolku as raja

        t = self.t
        ch = t.character(cid)
        if t.system is System.SHADOWRUN:
            return bool(t.damage.condition_text(cid))  # the fighter who cannot act (Combat.down)
        if t.system is System.RAJAPOLKU:
            return raja.is_fallen(raja_sheet(ch)["wound"])
        return False

    def fallen(self) -> list[str]:
        """Non-player characters out of the fight (player characters stay)."""
        return [cid for cid, ch in self.t.characters.items() if ch["kind"] != "pc" and self.is_fallen(cid)]

    # -- templates -----------------------------------------------------------------

    def save_template(self, cid: str, name: str = "") -> Character:
        """Keep a character's stat block as a template (a template of that name is replaced)."""
        t = self.t
        ch = t.character(cid)
        name = (name or re.sub(r"\s+\d+$", "", ch["name"])).strip()
        if not name:
            raise TrackerError(said(N_("a template needs a name")))
        old = next((x for x in self.templates.values() if x["name"].lower() == name.lower()), None)
        out: dict[str, str] = {}

        def build(txn: Txn) -> None:
            if "templates" not in t.state:
                txn.set(["templates"], {})
            tid = old["id"] if old else self._free_id("tpl-" + model.slug(name), self.templates)
            block = _fresh(t.system, {k: v for k, v in ch.items() if k not in _FRESH_SKIP},
                           *t.state["wound_track"][:1])
            if t.system is System.SHADOWRUN:
                block.update(_gear_tables(t.state, ch))
            block.update({"id": tid, "name": name, "player": "", "health": ""})
            txn.set(["templates", tid], block)
            model.validate_state(t.state)
            verb = "replaced" if old else "saved"
            txn.emit("template", f"Template {name} {verb} from {ch['name']}"
                     + (" (secret)" if block.get("secret") else ""), template=tid,
                     fact={"id": "template.saved", "name": name, "from": ch["name"], "was_replaced": bool(old) or None,
                           "secret_template": bool(block.get("secret")) or None})
            out["id"] = tid

        t.run(build)
        return self.templates[out["id"]]

    def remove_template(self, name_or_id: str) -> None:
        """Delete a template (one undoable command); the characters made from it and their group stay."""
        t = self.t
        tpl = self.template(name_or_id)

        def build(txn: Txn) -> None:
            for cid, ch in t.characters.items():
                if ch.get("template") == tpl["id"]:
                    for key, value in _gear_tables(t.state, ch).items():
                        if key not in ch:
                            txn.set(["characters", cid, key], value)
                    txn.delete(["characters", cid, "template"])
            txn.delete(["templates", tpl["id"]])
            txn.emit("template", f"Template {tpl['name']} removed", template=tpl["id"],
                     fact={"id": "template.removed", "name": tpl["name"]})

        t.run(build)

    def add_from_template(self, name_or_id: str, count: int, *, group: str = "",
                          initiative: str = "shared", kind: str = "") -> list[str]:
        """"Add 4× Ganger": ``count`` numbered characters from a template, in one group.

        ``group`` names the group (default: the template's name, plural-free);
        an existing group of that name takes the newcomers, keeping its
        initiative choice. Returns the new character ids.
        """
        t = self.t
        tpl = self.template(name_or_id)
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_GROUP_ADD:
            raise TrackerError(said(N_("add 1 to {most} at once, not {count}"), most=MAX_GROUP_ADD, count=count))
        if initiative not in model.GROUP_INITIATIVE:
            raise TrackerError(said(N_("a group's initiative is 'shared' or 'separate'")))
        gname = (group or tpl["name"]).strip()
        existing = next((g for g in self.groups.values() if g["name"].lower() == gname.lower()), None)
        names = numbered_names(tpl["name"], [c["name"] for c in t.characters.values()], count)
        kind = kind or (tpl["kind"] if tpl["kind"] != "pc" else "npc")
        if kind not in model.CHARACTER_KINDS:
            raise TrackerError(said(N_("kind must be one of {kinds}"), kinds=", ".join(model.CHARACTER_KINDS)))
        made: list[str] = []

        def build(txn: Txn) -> None:
            if "groups" not in t.state:
                txn.set(["groups"], {})
            if existing is None:
                gid = self._free_id("grp-" + model.slug(gname), self.groups)
                txn.set(["groups", gid], {"id": gid, "name": gname, "initiative": initiative,
                                          "template": tpl["id"]})
            else:
                gid = existing["id"]
            for name in names:
                cid = self._free_id(model.slug(name), t.characters)
                ch = {k: clone(v) for k, v in tpl.items() if k not in ("weapons", "armour")}
                ch.update({"id": cid, "name": name, "kind": kind, "group": gid})
                if t.system is System.SHADOWRUN:
                    ch["template"] = tpl["id"]
                txn.set(["characters", cid], ch)
                made.append(cid)
            model.validate_state(t.state)
            shared = (existing or {"initiative": initiative})["initiative"]
            txn.emit("character", f"{count}× {tpl['name']} join as {gname} ({names[0]}"
                     + (f"–{names[-1].rsplit(' ', 1)[-1]}" if count > 1 else "") + f", {shared} initiative"
                     + (", secret" if tpl.get("secret") else "") + ")", who=list(made), group_id=gid,
                     fact={"id": "group.joins", "count": count, "template": tpl["name"], "group": gname,
                           "first": names[0], "last": names[-1].rsplit(" ", 1)[-1] if count > 1 else None,
                           "initiative": shared, "secret_group": bool(tpl.get("secret")) or None})

        t.run(build)
        return made

    def set_group_initiative(self, gid: str, initiative: str) -> None:
        """One initiative roll for the whole group ("shared") or one per member ("separate")."""
        t = self.t
        g = self.groups.get(gid)
        if g is None:
            raise TrackerError(said(N_("no group '{group}'"), group=gid))
        if initiative not in model.GROUP_INITIATIVE:
            raise TrackerError(said(N_("a group's initiative is 'shared' or 'separate'")))
        if g["initiative"] == initiative:
            raise TrackerError(said(N_("{group} already rolls shared initiative; nothing changed"), group=g["name"])
                               if initiative == "shared" else
                               said(N_("{group} already rolls separate initiative; nothing changed"), group=g["name"]))

        def build(txn: Txn) -> None:
            txn.set(["groups", gid, "initiative"], initiative)
            txn.emit("character", f"{g['name']}: {initiative} initiative", who=self.members(gid), group_id=gid,
                     fact={"id": "group.initiative", "group": g["name"], "initiative": initiative})

        t.run(build)

    def remove_fallen(self) -> list[str]:
        """Every non-player character out of the fight leaves, in one command; empty groups go too."""
        t = self.t
        gone = self.fallen()
        if not gone:
            raise TrackerError(said(N_("nobody has fallen: no non-player character is out of the fight")))
        names = [t.character(c)["name"] for c in gone]

        def build(txn: Txn) -> None:
            groups = {str(g) for c in gone if (g := t.character(c).get("group"))}
            for cid in gone:
                t.remove_character_in(txn, cid)
            for gid in sorted(groups):
                if not self.members(gid):
                    txn.delete(["groups", gid])
            txn.emit("character", f"The fallen leave: {', '.join(names)}", who=list(gone),
                     fact={"id": "character.fallen_leave", "names": list(names)})

        t.run(build)
        return gone

    # -- copying characters ----------------------------------------------------------

    def copy_characters(self, characters: Sequence[Character], *, source: str = "",
                        templates: Sequence[Character] = ()) -> list[str]:
        """Add copies of characters (and templates) read from another file, in one command.

        Each gets a free id and a name not already in play ("Nyx (2)"); group
        membership stays behind. Everything is validated as this campaign's.
        """
        t = self.t
        if not characters and not templates:
            raise TrackerError(said(N_("nothing to copy")))
        made: list[str] = []

        def build(txn: Txn) -> None:
            taken = {c["name"].lower() for c in t.characters.values()}
            for src in characters:
                # Edited as a plain table: keys go and come in the sheet's order; validated below.
                ch: dict[str, object] = dict(clone(src))
                ch.pop("group", None)
                ch.pop("effects", None)
                if "template" in ch:
                    from_tpl = next((x for x in templates if x["id"] == ch["template"]), None)
                    if from_tpl is not None:
                        ch.update({k: clone(v) for k, v in from_tpl.items() if k in ("weapons", "armour") and k not in ch})
                    del ch["template"]
                name, n = str(ch.get("name", "")).strip(), 2
                base = name
                while name.lower() in taken:
                    name, n = f"{base} ({n})", n + 1
                taken.add(name.lower())
                cid = self._free_id(model.slug(name), t.characters)
                ch.update({"id": cid, "name": name})
                txn.set(["characters", cid], ch)
                made.append(cid)
            for tpl in templates:
                if "templates" not in t.state:
                    txn.set(["templates"], {})
                if any(x["name"].lower() == tpl["name"].lower() for x in self.templates.values()):
                    continue
                tid = self._free_id(tpl["id"], self.templates)
                txn.set(["templates", tid], {**clone(tpl), "id": tid})
            model.validate_state(t.state)
            names = ", ".join(t.character(c)["name"] for c in made) or "templates only"
            txn.emit("character", f"Copied{f' from {source}' if source else ''}: {names}", who=list(made) or None,
                     fact={"id": "character.copied", "source": source or None,
                           "names": [t.character(c)["name"] for c in made]})

        t.run(build)
        return made

    def add_imported(self, block: Mapping[str, object], *, template: bool = False, source: str = "") -> str:
        """A character (or, with ``template``, a template) read from another program's file
        (:mod:`polku.session.importers`), in one command; validated as this campaign's. A name
        already in play gets a number ("Street Samurai (2)"); a template's name must be free.
        Returns the new id."""
        t = self.t
        if t.system is not System.SHADOWRUN:
            raise TrackerError(said(N_("a Chummer character is a Varjojuoksu one; this campaign is {system}"),
                                 system=t.system.display_name))
        name = str(block.get("name", "")).strip() or "Imported"
        made: dict[str, str] = {}

        def build(txn: Txn) -> None:
            if template:
                if any(x["name"].lower() == name.lower() for x in self.templates.values()):
                    raise TrackerError(said(N_("a template named {name} exists already: remove it first (or import as a character)"), name=repr(name)))
                if "templates" not in t.state:
                    txn.set(["templates"], {})
                tid = self._free_id("tpl-" + model.slug(name), self.templates)
                tpl: dict[str, object] = dict(model.new_character(t.system, name, cid=tid, kind="npc", settings=t.settings))
                tpl.update({k: clone(v) for k, v in block.items() if k not in ("id", "name", "player")})
                txn.set(["templates", tid], _fresh(t.system, tpl))
                made["id"] = tid
            else:
                taken = {c["name"].lower() for c in t.characters.values()}
                final, n = name, 2
                while final.lower() in taken:
                    final, n = f"{name} ({n})", n + 1
                cid = self._free_id(model.slug(final), t.characters)
                ch: dict[str, object] = dict(model.new_character(t.system, final, cid=cid, kind="npc", settings=t.settings))
                ch.update({k: clone(v) for k, v in block.items() if k not in ("id", "name")})
                txn.set(["characters", cid], ch)
                made["id"] = cid
            try:
                model.validate_state(t.state)
            except model.StateError as e:
                raise TrackerError(said(N_("the imported character does not fit the sheet: {e}"), e=str(e))) from None
            what = "Template" if template else "Character"
            txn.emit("template" if template else "character",
                     f"{what} {name} imported" + (f" from {source}" if source else ""),
                     **({"template": made["id"]} if template else {"who": made["id"]}),
                     fact={"id": "template.imported" if template else "character.imported", "name": name,
                           "source": source or None})

        t.run(build)
        return made["id"]

    # -- gear (Varjojuoksu) -------------------------------------------------------------

    def gear_holder(self, owner: str, *, template: bool = False) -> SRCharacter:
        """The character (or, with ``template``, the template) whose sheet holds gear."""
        if self.t.system is not System.SHADOWRUN:
            raise TrackerError(said(N_("weapons and armour are on Varjojuoksu sheets")))
        return sr(self.template(owner) if template else self.t.character(owner))

    def set_weapon(self, owner: str, index: int | None, weapon: Weapon, *, template: bool = False) -> None:
        """Add a weapon (``index`` None) or replace the one at ``index``, one command. A character
        sharing its template's weapons gets its own list (the template's and this one)."""
        t = self.t
        holder = self.gear_holder(owner, template=template)
        sheet = weapons_of(t.state, holder)
        if index is None:
            if len(sheet) >= MAX_WEAPONS:
                raise TrackerError(said(N_("{name} carries {most} weapons already"), name=holder["name"], most=MAX_WEAPONS))
            if any(w.name.lower() == weapon.name.lower() for w in sheet):
                raise TrackerError(said(N_("{name} already has a weapon named {weapon!r}"), name=holder["name"],
                                     weapon=weapon.name))
            new, verb, what = sheet + [weapon], "gains", "gear.weapon_added"
        else:
            if not 0 <= index < len(sheet):
                raise TrackerError(said(N_("{name} has no weapon {number}"), name=holder["name"], number=index + 1))
            new, verb, what = sheet[:index] + [weapon] + sheet[index + 1:], "now carries", "gear.weapon_changed"
        t.run(self._gear(holder, template, "weapons", [w.to_table() for w in new],
                          f"{holder['name']} {verb} {weapon.text}",
                          {"id": what, "name": holder["name"], "weapon": weapon.to_table()}))

    def remove_weapon(self, owner: str, index: int, *, template: bool = False) -> None:
        t = self.t
        holder = self.gear_holder(owner, template=template)
        sheet = weapons_of(t.state, holder)
        if not 0 <= index < len(sheet):
            raise TrackerError(said(N_("{name} has no weapon {number}"), name=holder["name"], number=index + 1))
        t.run(self._gear(holder, template, "weapons", [w.to_table() for i, w in enumerate(sheet) if i != index],
                          f"{holder['name']} drops {sheet[index].name}",
                          {"id": "gear.weapon_dropped", "name": holder["name"], "weapon_name": sheet[index].name}))

    def set_armour(self, owner: str, armour: Armour, *, template: bool = False) -> None:
        """Ballistic and impact armour on a sheet, one command."""
        holder = self.gear_holder(owner, template=template)
        if armour == armour_of(self.t.state, holder) and "armour" in holder:
            raise TrackerError(said(N_("{name} already wears {armour}; nothing changed"), name=holder["name"],
                                 armour=armour_words(armour)))
        self.t.run(self._gear(holder, template, "armour", armour.to_table(),
                               f"{holder['name']}: armour {armour.text}",
                               {"id": "gear.armour", "name": holder["name"], "armour": armour.to_table()}))

    def _gear(self, holder: SRCharacter, template: bool, key: str, value: list[SRWeapon] | SRArmour,
              text: str, fact: dict[str, object]) -> Callable[[Txn], None]:
        """The command that sets a sheet's ``weapons`` or ``armour`` and logs ``text``, told from ``fact``
        (``session.telling``; a template's says so: ``template``)."""
        t = self.t
        table = "templates" if template else "characters"

        def build(txn: Txn) -> None:
            txn.set([table, holder["id"], key], value)
            model.validate_state(t.state)
            if template:
                txn.emit("template", f"Template {text}", template=holder["id"], fact={**fact, "template": True})
            else:
                txn.emit("character", text, who=holder["id"], fact=fact)

        return build

    # -- saved pools --------------------------------------------------------------------

    def pools(self, cid: str) -> list[SavedPool]:
        """The pools saved on ``cid``'s sheet (its system's kind)."""
        out: list[SavedPool] = []
        out.extend(self.t.character(cid).get("pools", []))
        return out

    def save_pool(self, cid: str, pool: Mapping[str, object]) -> None:
        """Keep a pool on the character (one of the same name is replaced); validated (a pool of the
        character's system: :func:`polku.session.model.validate_state`)."""
        t = self.t
        ch = t.character(cid)
        name = str(pool.get("name", "")).strip()
        if not name:
            raise TrackerError(said(N_("a saved pool needs a name")))
        pool = {**clone(pool), "name": name}
        kept = [p for p in ch.get("pools", []) if p["name"].lower() != name.lower()]
        replaced = len(kept) != len(ch.get("pools", []))

        def build(txn: Txn) -> None:
            txn.set(["characters", cid, "pools"], kept + [pool])
            model.validate_state(t.state)
            txn.emit("character", f"{ch['name']}: pool '{name}' {'replaced' if replaced else 'saved'}", who=cid,
                     fact={"id": "pool.saved", "name": ch["name"], "pool_name": name, "was_replaced": replaced or None})

        t.run(build)

    def remove_pool(self, cid: str, name: str) -> None:
        t = self.t
        ch = t.character(cid)
        kept = [p for p in ch.get("pools", []) if p["name"].lower() != name.strip().lower()]
        if len(kept) == len(ch.get("pools", [])):
            raise TrackerError(said(N_("{name} has no saved pool '{pool}'"), name=ch["name"], pool=name))

        def build(txn: Txn) -> None:
            txn.set(["characters", cid, "pools"], kept)
            txn.emit("character", f"{ch['name']}: pool '{name.strip()}' removed", who=cid,
                     fact={"id": "pool.removed", "name": ch["name"], "pool_name": name.strip()})

        t.run(build)

    def sr_pool(self, saved: SavedPool) -> SRPool:
        """A saved Varjojuoksu pool as the roll screen's :class:`~polku.session.rolls.SRPool`."""
        from ..rolls import SRPool

        pool = cast(SRPoolTable, saved)
        return SRPool(mode=pool["mode"], skill=pool["skill"], attribute=pool["attribute"],
                      second=pool["second"], dice=pool["count"])

    @staticmethod
    def pool_label(system: System, saved: SavedPool) -> str:
        """"Pistols (Agility)", "Ram the door (Body + Strength)", "Shadows (background: Thief)"."""
        name = saved["name"]
        # The campaign's system says which kind of pool a sheet saves (checked at load).
        if system is System.SHADOWRUN:
            pool = cast(SRPoolTable, saved)
            mode = pool["mode"]
            attribute = builtin_label(pool["attribute"]).capitalize()
            if mode == "skill":
                what = f"{pool['skill']} + {attribute}"
            elif mode == "default":
                what = _("{attribute} − 1, defaulting", attribute=attribute)
            elif mode == "attr+attr":
                what = f"{attribute} + {builtin_label(pool['second']).capitalize()}"
            elif mode == "attribute":
                what = _("{attribute} alone", attribute=attribute)
            else:
                what = ngettext("{n} die", "{n} dice", int(pool["count"]))
            return f"{name} ({what})" if what.lower() != name.lower() else name
        if system is System.HARHAPOLKU:
            bits = [f"{builtin_label(model.HARHA_TIER_LABELS[k])}: {v}"
                    for k, v in cast(HarhaPool, saved)["tiers"].items() if v]
        else:
            raja = cast(RajaPool, saved)
            bits = list(raja["backgrounds"]) + [f"{a}✦" for a in raja["abilities"]]
        return f"{name} ({', '.join(bits)})" if bits else name

    # -- helpers -------------------------------------------------------------------

    @staticmethod
    def _free_id(base: str, taken: Mapping[str, object]) -> str:
        cid, n = base, 2
        while cid in taken:
            cid, n = f"{base}-{n}", n + 1
        return cid


class _Gear(TypedDict, total=False):
    """The gear tables of a Varjojuoksu sheet."""

    weapons: list[SRWeapon]
    armour: SRArmour | int


def _gear_tables(state: State, ch: Character) -> _Gear:
    """The gear a character carries (its own or its template's) as tables to store."""
    out: _Gear = {}
    weapons, armour = gear_owner(state, ch, "weapons"), gear_owner(state, ch, "armour")
    if weapons is not None and "weapons" in weapons:
        out["weapons"] = clone(weapons["weapons"])
    if armour is not None and "armour" in armour:
        out["armour"] = clone(armour["armour"])
    return out


def _name_key(name: str) -> tuple[str, int]:
    m = re.match(r"^(.*?)(\d+)$", name.strip())
    return (m.group(1).lower(), int(m.group(2))) if m else (name.lower(), 0)


__all__ = ["MAX_GROUP_ADD", "Roster", "numbered_names"]
