"""The tracker's commands on the characters: adding, editing and removing them, Rajapolku's
wounds, charges, abilities and story points (R9–R12), Varjojuoksu's Edge and condition monitors
(S7, S12), Harhapolku's edges (H7)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, cast

from ...i18n import N_, said
from ...rules.system import RAJA_WOUND_CARE, raja_wound_level
from ...text import wound_label
from .. import model
from ..host import TrackerError as TrackerError  # re-exported: callers import it from here
from ..host import Txn
from ..model import Challenge, Character
from ..records import HarhaCharacter, harha, raja, sr

if TYPE_CHECKING:
    pass

from .base import TrackerBase, _show, _Txn


class SheetCommands(TrackerBase):
    """The commands on characters and their resources (a part of :class:`~polku.session.tracker.Tracker`)."""

    # -- characters --------------------------------------------------------

    def add_character(self, name: str, *, kind: str = "pc", player: str = "", **fields: object) -> Character:
        name = name.strip()
        if not name:
            raise TrackerError(said(N_("a character needs a name")))
        if kind not in model.CHARACTER_KINDS:
            raise TrackerError(said(N_("kind must be one of {kinds}"), kinds=", ".join(model.CHARACTER_KINDS)))
        result: dict[str, Any] = {}

        def build(txn: _Txn) -> None:
            cid = model.slug(name)
            base, n = cid, 2
            while cid in self.characters:
                cid, n = f"{base}-{n}", n + 1
            ch = model.new_character(self.system, name, cid=cid, kind=kind, player=player,
                                     settings=self.settings, track=self.state["wound_track"], **fields)
            txn.set(["characters", cid], ch)
            model.validate_state(self.state)
            txn.emit("character", f"{name} joins ({kind}{', secret' if ch['secret'] else ''})", who=cid,
                     fact={"id": "character.joins", "name": name, "kind": kind,
                           "secret_character": bool(ch["secret"]) or None})
            result.update(ch)

        self.run(build)
        return self.character(result["id"])

    def update_character(self, cid: str, field_name: str, value: object, *, text: str | None = None,
                         edge: int | None = None) -> None:
        """Set any character field (the detail view); validated, logged, undoable.

        The log's line is told from a fact (:func:`sheet_edit_fact`): an ability gained, changed or lost,
        the edges or Harhapolku backgrounds listed, an edge (``edge``: its place) used or available again,
        else the field and its new value. ``text`` replaces the stored English line (no fact then).
        """
        ch = self.character(cid)
        if field_name in ("id",) or field_name not in ch:
            raise TrackerError(said(N_("'{field}' is not a field a GM can edit"), field=field_name))
        fact = sheet_edit_fact(ch, field_name, value, edge=edge)

        def build(txn: _Txn) -> None:
            txn.set(["characters", cid, field_name], value)
            model.validate_state(self.state)
            if text:
                txn.emit("character", text, who=cid)
            else:
                txn.emit("character", sheet_edit_text(fact), who=cid, fact=fact)

        self.run(build)

    def open_challenges_of(self, cid: str) -> list[Challenge]:
        """The challenges not yet resolved that ``cid`` takes part in (on either side)."""
        return [c for c in self.state["challenges"] if c["status"] != "resolved"
                and (cid in c.get("participants", []) or cid in c.get("opposition", []))]

    def remove_character(self, cid: str) -> None:
        """Remove a character, and drop them from every open challenge in the same command.

        A challenge still waiting for a roll cannot be rolled for someone who is
        gone; resolved ones keep the id as history (shown as "(removed)"). One
        undo brings the character back into those challenges too.
        """
        self.character(cid)
        self.run(lambda txn: self.remove_character_in(txn, cid))

    def remove_character_in(self, txn: Txn, cid: str) -> None:
        ch = self.character(cid)
        dropped = [c["title"] for c in self.open_challenges_of(cid)]
        txn.delete(["characters", cid])
        ini = [e for e in self.state["initiative"] if e["id"] != cid]
        txn.set(["initiative"], ini)
        self.combat.on_removed(txn, cid)
        for i, c in enumerate(self.state["challenges"]):
            if c["status"] == "resolved":
                continue
            for key, members in (("participants", c.get("participants", [])), ("opposition", c.get("opposition", []))):
                if cid in members:
                    txn.set(["challenges", i, key], [x for x in members if x != cid])
        text = f"{ch['name']} leaves the campaign"
        if dropped:
            text += f" (dropped from {', '.join(dropped)})"
        # The name stays on the event: statistics and filters still name who left.
        txn.emit("character", text, who=cid, name=ch["name"],
                 fact={"id": "character.leaves", "name": ch["name"], "dropped": dropped})

    def set_health(self, cid: str, note: str) -> None:
        ch = self.character(cid)
        self._simple(cid, "health", note, "wound", f"{ch['name']} health: {note or '(cleared)'}",
                     fact={"id": "character.health", "name": ch["name"], "note": note})

    def _simple(self, cid: str, key: str, value: object, kind: str, text: str, **data: object) -> None:
        ch = self.character(cid)
        if ch.get(key) == value:
            # A repeated key press that changes nothing is refused, so it logs nothing.
            values: dict[str, str | int] = {"name": ch["name"], "value": value if isinstance(value, int) else str(value)}
            if key == "health":
                raise TrackerError(said(N_("{name}'s health is already {value}; nothing changed"), **values) if value != ""
                                   else said(N_("{name}'s health is already empty; nothing changed"), name=ch["name"]))
            if key == "story_points":
                raise TrackerError(said(N_("{name}'s story points is already {value}; nothing changed"), **values))
            if key == "physical":
                raise TrackerError(said(N_("{name}'s physical boxes is already {value}; nothing changed"), **values))
            if key == "stun":
                raise TrackerError(said(N_("{name}'s stun boxes is already {value}; nothing changed"), **values))
            raise TrackerError(said(N_("{name}'s {key} is already {value}; nothing changed"), key=key, **values) if value != ""
                               else said(N_("{name}'s {key} is already empty; nothing changed"), key=key, name=ch["name"]))

        def build(txn: _Txn) -> None:
            txn.set(["characters", cid, key], value)
            model.validate_state(self.state)
            txn.emit(kind, text, who=cid, **data)

        self.run(build)

    # -- Rajapolku resources (R9–R12) ---------------------------------------

    def move_wound(self, cid: str, steps: int) -> None:
        """R9/R10: move a character down (+) or up (−) the wound track."""
        ch = raja(self.character(cid))
        track = self.state["wound_track"]
        i = track.index(ch["wound"]) if ch["wound"] in track else 0
        j = max(0, min(len(track) - 1, i + steps))
        if j == i:
            raise TrackerError(said(N_("{name} is already {level}"), name=ch["name"], level=wound_label(track[i])))
        verb = "worse" if j > i else "better"
        level = raja_wound_level(track[j]) or ""
        care = f"; {RAJA_WOUND_CARE[level]}" if level in RAJA_WOUND_CARE else ""
        self._simple(cid, "wound", track[j], "wound",
                     f"{ch['name']}: {track[i]} → {track[j]} ({verb}{care})", before=track[i], after=track[j],
                     fact={"id": "raja.wound", "name": ch["name"], "before": track[i], "after": track[j],
                           "worse": j > i, "care": level if level in RAJA_WOUND_CARE else None})

    def set_wound(self, cid: str, level: str) -> None:
        ch = raja(self.character(cid))
        if level not in self.state["wound_track"]:
            raise TrackerError(said(N_("'{level}' is not on this campaign's wound track"), level=level))
        r9 = raja_wound_level(level) or ""
        care = f" ({RAJA_WOUND_CARE[r9]})" if r9 in RAJA_WOUND_CARE else ""
        self._simple(cid, "wound", level, "wound", f"{ch['name']}: {ch['wound']} → {level}{care}",
                     fact={"id": "raja.wound_set", "name": ch["name"], "before": ch["wound"], "after": level,
                           "care": r9 if r9 in RAJA_WOUND_CARE else None})

    def spend_charges(self, cid: str, n: int, reason: str) -> None:
        """R11: spend charges (an ability, spirit combat…)."""
        ch = raja(self.character(cid))
        if n < 1:
            raise TrackerError(said(N_("spend at least 1 charge")))
        if ch["charges"] < n:
            raise TrackerError(said(N_("{name} has {charges} charges, not {n}"), name=ch["name"], charges=ch["charges"], n=n))
        self._simple(cid, "charges", ch["charges"] - n, "resource",
                     f"{ch['name']} spends {n} charge{'s' if n != 1 else ''}: {reason} "
                     f"({ch['charges'] - n}/{ch['charges_max']} left)", resource="charges", amount=-n,
                     fact={"id": "raja.charges_spent", "name": ch["name"], "n": n, "reason": reason,
                           "left": ch["charges"] - n, "max": ch["charges_max"]})

    def restore_charges(self, cid: str, n: int, reason: str = "rest") -> None:
        ch = raja(self.character(cid))
        new = min(ch["charges_max"], ch["charges"] + n)
        if new == ch["charges"]:
            raise TrackerError(said(N_("{name} already has all {max} charges"), name=ch["name"], max=ch["charges_max"]))
        self._simple(cid, "charges", new, "resource",
                     f"{ch['name']} regains {new - ch['charges']} charges: {reason} ({new}/{ch['charges_max']})",
                     resource="charges", amount=new - ch["charges"],
                     fact={"id": "raja.charges_regained", "name": ch["name"], "n": new - ch["charges"],
                           "reason": None if reason == "rest" else reason, "now": new, "max": ch["charges_max"]})

    def use_ability(self, cid: str, ability: str) -> None:
        """R11: pay an ability's cost — per use, once per scene, or nothing if always on."""
        ch = raja(self.character(cid))
        ab = next((a for a in ch.get("abilities", []) if a["name"] == ability), None)
        if ab is None:
            raise TrackerError(said(N_("{name} has no ability '{ability}'"), name=ch["name"], ability=ability))
        if ab["per"] == "always":
            raise TrackerError(said(N_("'{ability}' is always on and costs nothing"), ability=ability))
        if ab["per"] == "scene" and ability in ch["paid_this_scene"]:
            raise TrackerError(said(N_("'{ability}' is already paid for this scene"), ability=ability))
        cost = ab["cost"]
        if ch["charges"] < cost:
            raise TrackerError(said(N_("{name} has {charges} charges; '{ability}' costs {cost}"), name=ch["name"],
                                 charges=ch["charges"], ability=ability, cost=cost))

        def build(txn: _Txn) -> None:
            txn.set(["characters", cid, "charges"], ch["charges"] - cost)
            if ab["per"] == "scene":
                txn.set(["characters", cid, "paid_this_scene"], ch["paid_this_scene"] + [ability])
            per = "this scene" if ab["per"] == "scene" else "one use"
            txn.emit("resource", f"{ch['name']} uses {ability} ({per}): −{cost} charges "
                     f"({ch['charges']}/{ch['charges_max']} left)", who=cid, resource="charges", amount=-cost,
                     fact={"id": "raja.ability_used", "name": ch["name"], "ability": ability, "per": ab["per"],
                           "cost": cost, "left": ch["charges"], "max": ch["charges_max"]})

        self.run(build)

    def check_spend_story_point(self, cid: str) -> None:
        """Raise TrackerError if ``cid`` cannot spend a story point now (R12), before anyone asks what for."""
        ch = raja(self.character(cid))
        if ch["story_points"] < 1:
            raise TrackerError(said(N_("{name} has no story points left; a new story (T) brings new ones"), name=ch["name"]))

    def spend_story_point(self, cid: str, bought: str) -> None:
        """R12: spend a story point on what it bought."""
        ch = raja(self.character(cid))
        self.check_spend_story_point(cid)
        if not bought.strip():
            raise TrackerError(said(N_("say what the story point bought")))
        self._simple(cid, "story_points", ch["story_points"] - 1, "resource",
                     f"{ch['name']} spends a story point: {bought.strip()} ({ch['story_points'] - 1} left)",
                     resource="story_points", amount=-1, bought=bought.strip(),
                     fact={"id": "raja.story_point_spent", "name": ch["name"], "bought": bought.strip(),
                           "left": ch["story_points"] - 1})

    def award_story_point(self, cid: str, reason: str = "good roleplaying") -> None:
        ch = raja(self.character(cid))
        self._simple(cid, "story_points", ch["story_points"] + 1, "resource",
                     f"{ch['name']} is awarded a story point: {reason} ({ch['story_points'] + 1})",
                     resource="story_points", amount=1,
                     fact={"id": "raja.story_point_awarded", "name": ch["name"],
                           "reason": None if reason == "good roleplaying" else reason, "now": ch["story_points"] + 1})

    # -- Varjojuoksu resources (S3, S5–S7, S12) --------------------------------

    def check_spend_edge(self, cid: str) -> None:
        """Raise TrackerError if ``cid`` has no Edge point to spend now (S7), before anyone asks what for."""
        ch = sr(self.character(cid))
        if ch["edge"] < 1:
            raise TrackerError(said(N_("{name} has no Edge left this session; a new session (N) refreshes it"), name=ch["name"]))

    def spend_edge(self, cid: str, reason: str) -> None:
        ch = sr(self.character(cid))
        self.check_spend_edge(cid)
        self._simple(cid, "edge", ch["edge"] - 1, "resource",
                     f"{ch['name']} spends Edge: {reason} ({ch['edge'] - 1}/{ch['edge_rating']} left)",
                     resource="edge", amount=-1,
                     fact={"id": "sr.edge_spent", "name": ch["name"], "reason": reason, "left": ch["edge"] - 1,
                           "rating": ch["edge_rating"]})

    def set_condition(self, cid: str, track: str, boxes: int) -> None:
        """S12: set filled boxes on the physical or stun monitor."""
        if track not in ("physical", "stun"):
            raise TrackerError(said(N_("the condition monitor is 'physical' or 'stun'")))
        ch = sr(self.character(cid))
        size = self.condition_monitor(cid, track)
        if not 0 <= boxes <= size:
            raise TrackerError(said(N_("stun monitor has {size} boxes; {boxes} is out of range"), size=size, boxes=boxes)
                               if track == "stun" else
                               said(N_("physical monitor has {size} boxes; {boxes} is out of range"), size=size, boxes=boxes))
        before = ch["physical" if track == "physical" else "stun"]
        self._simple(cid, track, boxes, "wound", f"{ch['name']}: {track} {before} → {boxes}/{size} boxes",
                     fact={"id": "sr.monitor", "name": ch["name"], "track": track, "before": before, "boxes": boxes,
                           "size": size})

    # -- Harhapolku edges (H7) --------------------------------------------------

    def use_edge_reroll(self, cid: str, edge: str) -> None:
        """H7: mark ``cid``'s edge used for a reroll, as a command of its own."""
        self._edge_to_use(cid, edge)
        self.run(lambda txn: self.use_edge_reroll_in(txn, cid, edge))

    def use_edge_reroll_in(self, txn: Txn, cid: str, edge: str) -> None:
        """H7: mark ``cid``'s edge used, as part of the command of ``txn`` (the reroll it pays for)."""
        ch, idx = self._edge_to_use(cid, edge)
        txn.set(["characters", cid, "edges", idx, "used"], True)
        txn.emit("resource", f"{ch['name']} uses edge '{edge}' for a reroll", who=cid, resource="edge_reroll",
                 fact={"id": "harha.edge_used", "name": ch["name"], "edge": edge})

    def _edge_to_use(self, cid: str, edge: str) -> tuple[HarhaCharacter, int]:
        """The character and the index of an edge they may still use this session (H7), or a TrackerError."""
        ch = harha(self.character(cid))
        idx = next((i for i, e in enumerate(ch["edges"]) if e["name"] == edge), None)
        if idx is None:
            raise TrackerError(said(N_("{name} has no edge '{edge}'"), name=ch["name"], edge=edge))
        if ch["edges"][idx]["used"]:
            raise TrackerError(said(N_("{name}'s edge '{edge}' is already used this session"), name=ch["name"], edge=edge))
        return ch, idx



# -- a field edited on the sheet: its fact, and the English line stored beside it ---------------------

_TIER_WORDS = model.HARHA_TIER_LABELS
_KIND_WORDS = {"pc": "PC", "npc": "NPC", "opposition": "opposition"}


def _tables(value: object) -> list[Mapping[str, object]] | None:
    """``value`` as a list of tables (abilities, edges, backgrounds), or None if it is not one."""
    if not isinstance(value, list) or not all(isinstance(x, dict) for x in value):
        return None
    return cast("list[Mapping[str, object]]", value)


def _whole(value: object, default: int) -> int:
    return value if isinstance(value, int) else default if value is None else int(str(value))


def _ability(ab: Mapping[str, object]) -> dict[str, object]:
    return {"name": str(ab["name"]), "cost": _whole(ab.get("cost"), 0), "per": str(ab.get("per", "use"))}


def sheet_edit_fact(ch: Mapping[str, object], field_name: str, value: object, *,
                    edge: int | None = None) -> dict[str, object]:
    """What an edit of ``ch``'s ``field_name`` to ``value`` did, as a fact (``session.telling`` tells it)."""
    name = str(ch["name"])
    old, new = _tables(ch.get(field_name)), _tables(value)
    if field_name == "abilities" and old is not None and new is not None:
        old_names = [str(a["name"]) for a in old]
        if len(new) == len(old) + 1 and new[:-1] == old:
            return {"id": "character.ability_gained", "name": name, "ability": _ability(new[-1])}
        if len(new) == len(old) - 1:
            kept = [str(a["name"]) for a in new]
            gone = [n for i, n in enumerate(old_names) if i >= len(kept) or kept[i] != n]
            if gone:
                return {"id": "character.ability_lost", "name": name, "ability": gone[0]}
        if len(new) == len(old):
            changed = [i for i, (a, b) in enumerate(zip(old, new)) if a != b]
            if len(changed) == 1:
                i = changed[0]
                return {"id": "character.ability_changed", "name": name, "before": old_names[i],
                        "ability": _ability(new[i])}
    if field_name == "edges" and new is not None:
        if edge is not None and 0 <= edge < len(new):
            return {"id": "character.edge_used", "name": name, "edge": str(new[edge]["name"]),
                    "used": bool(new[edge]["used"])}
        return {"id": "character.edges", "name": name, "edges": [str(e["name"]) for e in new]}
    if field_name == "backgrounds" and new is not None:
        return {"id": "character.backgrounds", "name": name,
                "backgrounds": [{"name": str(b["name"]), "tier": str(b["tier"])} for b in new]}
    return {"id": "character.field", "name": name, "field": field_name, "value": value}


def ability_words(ab: Mapping[str, object]) -> str:
    """An ability's price in the log's English: ``always on``, ``1 charge per use``, ``2 charges per scene``."""
    if ab["per"] == "always":
        return "always on"
    return f"{ab['cost']} {'charge' if ab['cost'] == 1 else 'charges'} per {ab['per']}"


def sheet_edit_text(f: Mapping[str, object]) -> str:
    """The English line stored beside a sheet edit's fact (for older readers; what the English teller says)."""
    name, kind, ability = f["name"], f["id"], f.get("ability")
    ab: Mapping[str, object] = cast("Mapping[str, object]", ability) if isinstance(ability, dict) else {}
    if kind == "character.ability_gained":
        return f"{name} gains the ability {ab['name']} ({ability_words(ab)})"
    if kind == "character.ability_lost":
        return f"{name} loses the ability {ability}"
    if kind == "character.ability_changed":
        return f"{name}: ability {f['before']} is now {ab['name']} ({ability_words(ab)})"
    if kind == "character.edge_used":
        return f"{name}: edge '{f['edge']}' {'used' if f['used'] else 'available again'}"
    if kind == "character.edges":
        edges = f["edges"]
        return f"{name}: edges → {', '.join(str(e) for e in (edges if isinstance(edges, list) else [])) or '(none)'}"
    if kind == "character.backgrounds":
        return f"{name}: backgrounds → " + (", ".join(
            f"{b['name']} ({_TIER_WORDS.get(str(b['tier']), b['tier'])})" for b in _tables(f["backgrounds"]) or [])
            or "(none)")
    value = f["value"]
    if f["field"] == "kind":
        value = _KIND_WORDS.get(str(value), value)
    return f"{name}: {f['field']} → {_show(value)}"
