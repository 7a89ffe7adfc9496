"""The tracker's commands on the campaign's structure: a new scene, session or story and the
resets of docs/rules.md they bring, settings, notes, the challenge queue and the initiative order."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

from ...i18n import N_, said
from ...rules.dice import RulesError
from ...rules.system import Choice, SettingValue
from .. import model
from ..host import TrackerError as TrackerError  # re-exported: callers import it from here
from ..host import Txn
from ..model import Challenge, InitiativeEntry, clone

if TYPE_CHECKING:
    pass

from .base import TrackerBase, _show, _Txn


class StructureCommands(TrackerBase):
    """Scenes, sessions, stories, settings, notes, challenges, initiative (a part of
    :class:`~polku.session.tracker.Tracker`)."""

    # -- structure and the resets of docs/rules.md ------------------------------------

    def _scene_resets(self, txn: _Txn) -> None:
        for cid, ch in self.characters.items():
            if ch.get("paid_this_scene"):
                txn.set(["characters", cid, "paid_this_scene"], [])
                txn.emit("reset", f"{ch['name']}: per-scene ability costs reset", who=cid,
                         fact={"id": "reset.scene_costs", "name": ch["name"]})
            if ch.get("rolled_this_scene"):
                txn.set(["characters", cid, "rolled_this_scene"], [])
                txn.emit("reset", f"{ch['name']}: background dice available again", who=cid,
                         fact={"id": "reset.backgrounds", "name": ch["name"]})
        nar = self.state["narration"]
        if nar["table"] or nar["narrator"] or nar.get("burned") or nar.get("hands") or nar.get("rolled") \
                or nar.get("last"):
            # H9: a new scene opens the narration and every background may be rolled again,
            # so the hands, the rolled-this-scene pairs and the last usurpation go too.
            fresh = {k: v for k, v in nar.items() if k not in ("hands", "rolled", "last")}
            txn.set(["narration"], {**fresh, "narrator": "", "table": [], "burned": []})
            txn.emit("reset", "Narration contest cleared for the new scene", fact={"id": "reset.narration"})
        self.combat.on_new_scene(txn)

    def _session_resets(self, txn: _Txn) -> None:
        for cid, ch in self.characters.items():
            if "edge_rating" in ch and ch["edge"] != ch["edge_rating"]:
                txn.set(["characters", cid, "edge"], ch["edge_rating"])
                txn.emit("reset", f"{ch['name']}: Edge refreshed to {ch['edge_rating']}", who=cid,
                         fact={"id": "reset.edge", "name": ch["name"], "rating": ch["edge_rating"]})
            if "edges" in ch and any(e["used"] for e in ch["edges"]):
                txn.set(["characters", cid, "edges"], [{**e, "used": False} for e in ch["edges"]])
                txn.emit("reset", f"{ch['name']}: edge rerolls available again", who=cid,
                         fact={"id": "reset.edges", "name": ch["name"]})
        if self.state["initiative"]:
            # S12: initiative is rolled when a fight starts; a session never begins in the middle of one.
            who = [e["id"] for e in self.state["initiative"]]
            txn.set(["initiative"], [])
            txn.emit("reset", "Initiative cleared: the new session starts out of combat", who=who,
                     fact={"id": "reset.initiative"})
        self.combat.on_new_session(txn)

    def _story_resets(self, txn: _Txn) -> None:
        allot = self.settings.raja_story_points
        for cid, ch in self.characters.items():
            if "story_points" not in ch:
                continue
            # R12: every unspent point vanishes; only player characters get the new allotment.
            old = ch["story_points"]
            new = allot if ch["kind"] == "pc" else 0
            if ch["kind"] != "pc" and old == new:
                continue
            txn.set(["characters", cid, "story_points"], new)
            txn.emit("reset", f"{ch['name']}: story points {old} → {new} (unspent points vanish)", who=cid,
                     fact={"id": "reset.story_points", "name": ch["name"], "before": old, "after": new})

    def new_scene(self, title: str = "") -> None:
        st = self.state["structure"]

        def build(txn: _Txn) -> None:
            txn.set(["structure", "scene"], st["scene"] + 1)
            txn.set(["structure", "scene_title"], title.strip())
            txn.emit("structure", f"Scene {st['scene']}" + (f": {title.strip()}" if title.strip() else ""),
                     fact={"id": "structure.scene", "scene": st["scene"], "title": title.strip()})
            self._scene_resets(txn)

        self.run(build)
        self.needs_full_save = True

    def new_session(self) -> None:
        st = self.state["structure"]

        def build(txn: _Txn) -> None:
            txn.set(["structure", "session"], st["session"] + 1)
            txn.set(["structure", "scene"], 1)
            txn.set(["structure", "scene_title"], "")
            txn.emit("structure", f"Session {st['session']} begins",
                     fact={"id": "structure.session", "session": st["session"]})
            self._session_resets(txn)
            self._scene_resets(txn)

        self.run(build)
        if self.dice_key() is not None:
            # The last session is over: its dice secret is revealed, the new one committed.
            self.new_dice_secret(reveal=True)
        self.needs_full_save = True

    def new_story(self) -> None:
        st = self.state["structure"]

        def build(txn: _Txn) -> None:
            txn.set(["structure", "story"], st["story"] + 1)
            txn.emit("structure", f"Story {st['story']} begins", fact={"id": "structure.story", "story": st["story"]})
            self._story_resets(txn)

        self.run(build)
        self.needs_full_save = True

    def setting_choices(self) -> list[Choice]:
        """The [choice] settings of this campaign's system, in docs/rules.md order."""
        from ...rules.system import campaign_choices

        return list(campaign_choices(self.system))

    def next_setting_value(self, key: str, delta: int = 1) -> SettingValue | None:
        """The value after (``delta`` 1) or before (−1) the current one; None for a number setting."""
        choice = next((c for c in self.setting_choices() if c.key == key), None)
        if choice is None:
            raise TrackerError(said(N_("unknown setting '{key}' for {display_name}"), key=str(key), display_name=str(self.system.display_name)))
        if choice.allowed is None:
            return None
        allowed = list(choice.allowed)
        current = self.settings.to_dotted()[key]
        i = allowed.index(current) if current in allowed else 0
        return allowed[(i + delta) % len(allowed)]

    def set_setting(self, key: str, value: object) -> None:
        """Change a [choice] setting mid-campaign: logged and undoable; later rolls use it."""
        from ...rules.system import CHOICE_BY_KEY

        old = self.settings.to_dotted().get(key)
        try:
            same = self.settings.with_value(key, value).to_dotted()[key] == old
        except RulesError as e:
            raise TrackerError(*e.args) from None
        if same:
            # A repeated key press that changes nothing is refused, so it logs nothing.
            raise TrackerError(said(N_("{key} is already {old}; nothing changed"), key=str(key), old=str(_show(old))))

        def build(txn: _Txn) -> None:
            new = self.settings.with_value(key, value)
            txn.set(["settings", key], new.to_dotted()[key])
            rule = CHOICE_BY_KEY[key].rule
            txn.emit("setting", f"Setting {key} ({rule}): {_show(old)} → {_show(new.to_dotted()[key])}",
                     setting=key, fact={"id": "setting", "key": key, "rule": rule, "before": old,
                                        "after": new.to_dotted()[key]})

        self.run(build)

    def note(self, text: str) -> None:
        if not text.strip():
            raise TrackerError(said(N_("the note is empty")))
        self.run(lambda txn: txn.emit("note", text.strip()))

    # -- the challenge queue -------------------------------------------------------

    def add_challenge(self, title: str, participants: Iterable[str] = (), opposition: Iterable[str] = (),
                      kind: str = "") -> Challenge:
        title = title.strip()
        if not title:
            raise TrackerError(said(N_("a challenge needs a title")))
        parts, opp = list(participants), list(opposition)
        for cid in parts + opp:
            self.character(cid)
        out: dict[str, Any] = {}

        def build(txn: _Txn) -> None:
            chid = self.new_id(txn, "c")
            c = {"id": chid, "title": title, "status": "waiting", "kind": kind or "challenge",
                 "participants": parts, "opposition": opp, "outcome": ""}
            txn.insert(["challenges"], len(self.state["challenges"]), c)
            txn.emit("challenge", f"Challenge added: {title}", challenge=chid,
                     fact={"id": "challenge.added", "title": title})
            out.update(c)

        self.run(build)
        return self.challenge(out["id"])

    def remove_challenge(self, chid: str) -> None:
        c = self.challenge(chid)

        def build(txn: _Txn) -> None:
            txn.remove(["challenges"], self.challenge_index(chid))
            txn.emit("challenge", f"Challenge removed: {c['title']}", challenge=chid,
                     fact={"id": "challenge.removed", "title": c["title"]})

        self.run(build)

    def move_challenge(self, chid: str, delta: int) -> None:
        i = self.challenge_index(chid)
        items = self.state["challenges"]
        j = max(0, min(len(items) - 1, i + delta))
        if i == j:
            raise TrackerError(said(N_("the challenge cannot move further")))
        title = items[i]["title"]

        def build(txn: _Txn) -> None:
            item = clone(self.state["challenges"][i])
            txn.remove(["challenges"], i)
            txn.insert(["challenges"], j, item)
            txn.emit("challenge", f"Challenge moved {'up' if delta < 0 else 'down'}: {title}", challenge=chid,
                     fact={"id": "challenge.moved", "title": title, "up": delta < 0})

        self.run(build)

    def start_challenge(self, chid: str) -> None:
        c = self.challenge(chid)
        if c["status"] == "resolved":
            raise TrackerError(said(N_("'{title}' is already resolved"), title=str(c['title'])))
        if c["status"] == "active":
            raise TrackerError(said(N_("'{title}' is already active"), title=str(c['title'])))

        def build(txn: _Txn) -> None:
            for i, x in enumerate(self.state["challenges"]):
                if x["status"] == "active":
                    txn.set(["challenges", i, "status"], "waiting")
            txn.set(["challenges", self.challenge_index(chid), "status"], "active")
            txn.emit("challenge", f"Challenge started: {c['title']}", challenge=chid,
                     fact={"id": "challenge.started", "title": c["title"]})

        self.run(build)

    def resolve_challenge(self, chid: str, outcome: str) -> None:
        """Close a challenge with ``outcome``, as a command of its own (one ``challenge`` event)."""
        c = self.challenge(chid)

        def build(txn: _Txn) -> None:
            self.resolve_challenge_in(txn, chid, outcome)
            txn.emit("challenge", f"Challenge resolved: {c['title']} — {outcome}", challenge=chid,
                     fact={"id": "challenge.resolved", "title": c["title"], "outcome": outcome})

        self.run(build)

    def resolve_challenge_in(self, txn: Txn, chid: str, outcome: str, fact: dict[str, object] | None = None) -> None:
        """Close a challenge with ``outcome`` as part of the command of ``txn`` (the roll that settles it, whose
        event tells it). ``fact``: the outcome as a fact (the roll's), which the panes tell in the reader's
        language (:func:`polku.session.telling.challenge_outcome`); ``outcome`` is its English words."""
        i = self.challenge_index(chid)
        txn.set(["challenges", i, "status"], "resolved")
        txn.set(["challenges", i, "outcome"], outcome)
        if fact is not None:
            txn.set(["challenges", i, "outcome_fact"], {k: v for k, v in fact.items() if v is not None})
        elif "outcome_fact" in self.state["challenges"][i]:
            txn.delete(["challenges", i, "outcome_fact"])

    # -- initiative (S12) ---------------------------------------------------------

    def set_initiative(self, entries: list[InitiativeEntry], text: str = "Initiative set") -> None:
        for e in entries:
            self.character(e["id"])
        if list(entries) == list(self.state["initiative"]):
            raise TrackerError(said(N_("the initiative order is already that; nothing changed")))

        def build(txn: _Txn) -> None:
            txn.set(["initiative"], entries)
            model.validate_state(self.state)
            txn.emit("initiative", text)

        self.run(build)




