"""The game master's screen: challenge queue, characters, dice log, status line."""

from __future__ import annotations

from typing import Any, Callable, Sequence, cast

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Static
from textual.widgets.option_list import OptionDoesNotExist

from ...i18n import N_, _, ngettext
from ...rules.system import System
from ...session import telling
from ...session.commands import Command, command
from ...session.model import Event
from ...session.tracker import Tracker, TrackerError
from ..host import AppHost, host
from ..messages import LanguageChanged, RunCommand, TrackerChanged
from ..widgets.dice_log import DiceLog
from ..widgets.keyline import KeyLine
from ..widgets.panes import ChallengeQueue, CharacterPane, TurnOrder, compose_panes

# Groups of the help screen and the palette.
_CHALLENGES = Binding.Group(N_("Challenges"))
_CHARACTERS = Binding.Group(N_("Characters"))
_CONTESTS = Binding.Group(N_("Contests"))
_TURNS = Binding.Group(N_("Turns and effects"))
_STORY = Binding.Group(N_("Story, session, scene"))
_UNDO = Binding.Group(N_("Undo"))
_PANES = Binding.Group(N_("Panes"))


_FIGHT_STATE = frozenset({"combat", "initiative"})
"""State blocks only the fight pane shows (the queue and the characters show none of them)."""


def _fight_only(events: Sequence[Event] | None) -> bool:
    """True when ``events`` changed nothing but the fight's marker and scores ("next", hold, step in):
    the queue and the character pane stay as they are. An event that does not list its changes
    (an undo, a redo) or a full refresh (``None``) redraws everything."""
    if not events:
        return False
    for ev in events:
        changes = ev.get("changes")
        if ev["kind"] in ("undo", "redo") or not isinstance(changes, list):
            return False
        if any(not c.get("path") or c["path"][0] not in _FIGHT_STATE for c in changes):
            return False
    return True


def save_state_text(state: str) -> str:
    """The app's save state (``saved``, ``saving…``, ``save failed: …``) in the language in use."""
    if state.startswith("save failed: "):
        return _("save failed: {reason}", reason=state.split(": ", 1)[1])
    return _(state)


class StatusLine(Static):
    """Campaign, system, story/session/scene and the save state."""


class MainScreen(Screen[None]):
    """Where a whole game night is run, by keyboard alone."""

    BINDING_GROUP_TITLE = N_("Session")
    AUTO_FOCUS = "#chars"
    """The character pane has the focus at start (focusing the queue first restyled both)."""

    BINDINGS = [
        Binding("r", "roll", N_("Roll"), group=_CHALLENGES, id="main.roll", tooltip=N_("Build pools and roll for the active or selected challenge")),
        Binding("a", "add_challenge", N_("Challenge+"), group=_CHALLENGES, id="main.add_challenge", tooltip=N_("Add a challenge to the queue")),
        Binding("s", "start_challenge", N_("Start"), group=_CHALLENGES, id="main.start_challenge", tooltip=N_("Make the selected challenge active")),
        Binding("x", "remove_challenge", N_("Remove"), show=False, group=_CHALLENGES, id="main.remove_challenge", tooltip=N_("Remove the selected challenge")),
        Binding("less_than_sign", "move_challenge(-1)", N_("Move up"), show=False, group=_CHALLENGES, id="main.move_up", tooltip=N_("Move the selected challenge up")),
        Binding("greater_than_sign", "move_challenge(1)", N_("Move down"), show=False, group=_CHALLENGES, id="main.move_down", tooltip=N_("Move the selected challenge down")),
        Binding("c", "add_character", N_("Char+"), group=_CHARACTERS, id="main.add_character", tooltip=N_("Add a character")),
        Binding("e", "edit_character", N_("Edit"), show=False, group=_CHARACTERS, id="main.edit_character", tooltip=N_("Edit the selected character")),
        Binding("w", "wound(1)", N_("Wound"), show=False, group=_CHARACTERS, id="main.wound_worse", tooltip=N_("Wound worse (R9) / one more physical box (S12)")),
        Binding("W", "wound(-1)", N_("Heal"), show=False, group=_CHARACTERS, id="main.wound_better", tooltip=N_("Wound better (R10) / one physical box less")),
        Binding("m", "stun(1)", N_("Stun+"), show=False, group=_CHARACTERS, id="main.stun_more", tooltip=N_("One more stun box (S12)")),
        Binding("M", "stun(-1)", N_("Stun−"), show=False, group=_CHARACTERS, id="main.stun_less", tooltip=N_("One stun box less (S12)")),
        Binding("g", "spend_charge", N_("Charge"), show=False, group=_CHARACTERS, id="main.spend_charge", tooltip=N_("Spend charges or pay for an ability (R11)")),
        Binding("G", "restore_charge", N_("Charge+"), show=False, group=_CHARACTERS, id="main.restore_charge", tooltip=N_("Restore a charge")),
        Binding("p", "story_point", N_("Story pt"), show=False, group=_CHARACTERS, id="main.story_point", tooltip=N_("Spend a story point on something (R12)")),
        Binding("P", "award_point", N_("Award"), show=False, group=_CHARACTERS, id="main.award_point", tooltip=N_("Award a story point (R12)")),
        Binding("E", "spend_edge", N_("Edge"), show=False, group=_CHARACTERS, id="main.spend_edge", tooltip=N_("Spend an Edge point (S3–S7)")),
        Binding("D", "damage", N_("Damage"), show=False, group=_CHARACTERS, id="main.damage",
                tooltip=N_("Damage from the last attack (S12) or harm from the last lost challenge / harm roll (R8, H9)")),
        Binding("plus", "add_group", N_("Add N×"), show=False, group=_CHARACTERS, id="main.add_group",
                tooltip=N_("Add several numbered characters from a template, as one group")),
        Binding("t", "save_template", N_("Template"), show=False, group=_CHARACTERS, id="main.save_template",
                tooltip=N_("Save the selected character's stat block as a template")),
        Binding("minus", "remove_template", N_("Template−"), show=False, group=_CHARACTERS, id="main.remove_template",
                tooltip=N_("Delete an NPC template (the characters made from it stay; undoable)")),
        Binding("K", "template_gear", N_("Template gear"), show=False, group=_CHARACTERS, id="main.template_gear",
                tooltip=N_("Weapons and armour of an NPC template (Varjojuoksu); the characters made from it share them")),
        Binding("I", "import_chummer", N_("Import"), show=False, group=_CHARACTERS, id="main.import_chummer",
                tooltip=N_("Import from Chummer: a Varjojuoksu character or template from a Chummer 4 file (.chum)")),
        Binding("F", "remove_fallen", N_("Fallen"), show=False, group=_CHARACTERS, id="main.remove_fallen",
                tooltip=N_("Remove every non-player character out of the fight, in one undoable step")),
        Binding("C", "copy_characters", N_("Copy"), show=False, group=_CHARACTERS, id="main.copy_characters",
                tooltip=N_("Copy characters and templates from another session file")),
        Binding("h", "narration", N_("Narration"), show=False, group=_CONTESTS, id="main.narration", tooltip=N_("The narration contest (H9)")),
        Binding("i", "initiative", N_("Initiative"), show=False, group=_CONTESTS, id="main.initiative", tooltip=N_("Roll initiative: start a fight or its next combat turn (S12)")),
        Binding("space", "next_turn", N_("Next"), group=_TURNS, id="main.next_turn", tooltip=N_("Next in the turn order (pass by pass); out of a fight, start the next challenge")),
        Binding("d", "delay", N_("Delay"), show=False, group=_TURNS, id="main.delay", tooltip=N_("The acting fighter holds the action; the next one acts")),
        Binding("j", "step_in", N_("Step in"), show=False, group=_TURNS, id="main.step_in", tooltip=N_("The selected fighter steps in with the held action, now")),
        Binding("X", "end_combat", N_("End fight"), show=False, group=_TURNS, id="main.end_combat", tooltip=N_("Leave combat: the turn order and fight-long effects end")),
        Binding("f", "effects", N_("Effects"), show=False, group=_TURNS, id="main.effects", tooltip=N_("Effects on the selected character: add one (name, dice, duration) or remove one")),
        Binding("n", "new_scene", N_("Scene+"), group=_STORY, id="main.new_scene", tooltip=N_("Start a new scene (per-scene resets)")),
        Binding("N", "new_session", N_("Session+"), show=False, group=_STORY, id="main.new_session", tooltip=N_("Start a new game session (Edge, edges reset)")),
        Binding("T", "new_story", N_("Story+"), show=False, group=_STORY, id="main.new_story", tooltip=N_("Start a new story (story points replaced)")),
        Binding("V", "reveal_dice", N_("Reveal dice"), show=False, group=_STORY, id="main.reveal_dice", tooltip=N_("Reveal the dice secret to the players, commit a new one")),
        Binding("H", "dice_proof", N_("Dice proof"), show=False, group=_STORY, id="main.dice_proof",
                tooltip=N_("The dice commitment and the revealed secrets in full, as the players see them")),
        Binding("o", "note", N_("Note"), show=False, group=_STORY, id="main.note", tooltip=N_("Write a note into the log")),
        Binding("S", "settings", N_("Settings"), show=False, group=_STORY, id="main.settings",
                tooltip=N_("Change a rule setting of this campaign (logged, undoable)")),
        Binding("u,ctrl+z", "undo", N_("Undo"), group=_UNDO, id="main.undo", tooltip=N_("Undo the last command")),
        Binding("U,ctrl+y", "redo", N_("Redo"), group=_UNDO, id="main.redo", tooltip=N_("Redo the last undone command")),
        Binding("1", "focus_pane('queue')", N_("Queue"), show=False, group=_PANES, id="main.focus_queue", tooltip=N_("Focus the challenge queue")),
        Binding("2", "focus_pane('chars')", N_("Characters"), show=False, group=_PANES, id="main.focus_chars", tooltip=N_("Focus the characters")),
        Binding("3", "focus_pane('log')", N_("Log"), show=False, group=_PANES, id="main.focus_log", tooltip=N_("Focus the dice log")),
    ]

    def __init__(self, tracker: Tracker) -> None:
        super().__init__()
        self.tracker = tracker
        self._status_key: Any = None
        self._stale = False
        self._pending: list[Event] = []
        self._resumed = False

    @property
    def papp(self) -> AppHost:
        return host(self.app)

    def compose(self) -> ComposeResult:
        # The status line is built with its text so that the first frame is complete.
        status = self._status_text()
        self._status_key = (status.plain, tuple(status.spans))
        yield StatusLine(status, id="status-line")
        yield from compose_panes(DiceLog(id="log"), _("Dice log"))
        yield KeyLine(id="keys")

    def on_mount(self) -> None:
        log = self.query_one(DiceLog)
        log.names = self._names
        log.set_events(self.tracker.events, system=self.tracker.system.value,
                       is_undone=self.tracker.is_undone, styles=self.papp.log_styles())
        self.refresh_all()
        self.query_one("#chars", CharacterPane).focus()

    # -- refreshing from the tracker ---------------------------------------------

    @on(TrackerChanged)
    def _tracker_changed(self, message: TrackerChanged) -> None:
        self.refresh_all(message.events)

    @on(LanguageChanged)
    def _language_changed(self) -> None:
        """Every word of the screen again, in the language now in use."""
        self.query_one("#queue-title", Static).update(_("Challenges"))
        self.query_one("#chars-title", Static).update(_("Characters"))
        self.query_one("#log-title", Static).update(_("Dice log"))
        self._status_key = None
        self.refresh_all()

    def refresh_all(self, events: list[Event] | None = None) -> None:
        if self._hidden():
            # Covered by a screen that paints every cell (the roll screen): catch
            # up when shown again, rather than rebuild panes nobody sees per roll.
            self._stale = True
            self._pending.extend(events or ())
            return
        if self._pending:
            events = self._pending + list(events or ())
            self._pending = []
        self._stale = False
        styles = self.papp.log_styles()
        self.query_one("#turns", TurnOrder).show(self.tracker, styles)
        if not _fight_only(events):
            self.query_one("#queue", ChallengeQueue).show(self.tracker, styles)
            self.query_one("#chars", CharacterPane).show(self.tracker, styles)
        if events:
            changed = tuple(seq for ev in events if ev["kind"] in ("undo", "redo")
                            for seq in self._cmd_seqs(ev["target"]))
            self.query_one(DiceLog).appended(len(events), changed_seqs=changed)
        self.refresh_status()

    def _names(self) -> tuple[dict[str, str], dict[str, str]]:
        """Names by character id and titles by challenge id, for the log's expanded entries."""
        t = self.tracker
        return ({cid: ch["name"] for cid, ch in t.characters.items()},
                {c["id"]: c["title"] for c in t.state["challenges"]})

    def _hidden(self) -> bool:
        """True while another screen covers this one entirely (it is not current)."""
        return self.is_mounted and self.app.screen is not self and not self.is_current

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        if not self._resumed:
            # Runs before Textual's own handler. The first resume comes as the screen
            # has just mounted, every widget styled as it mounted: restyling the
            # whole tree again (what Textual does on every resume) changes nothing.
            self._resumed = True
            event.refresh_styles = False
        if self._stale:
            self.refresh_all()

    def _cmd_seqs(self, cmd: int) -> list[int]:
        return self.tracker.cmd_seqs(cmd)

    def _status_text(self) -> Text:
        t = self.tracker
        st = t.state["structure"]
        camp = t.state["campaign"]
        save = self.papp.save_state
        line = Text()
        line.append(f"[{save_state_text(save)}] ",
                    style="bold reverse" if save.startswith("save failed") else "bold")
        where = " · " + _("{system} · story {story} · session {session} · scene {scene}",
                          system=t.system.display_name.split(' (')[0], story=st['story'], session=st['session'],
                          scene=st['scene'])
        name = camp["name"]
        width = self.size.width or 80
        room = width - 2 - len(line.plain) - len(where) - 1  # 2: the status line's padding
        if len(name) > room:
            name = name[: max(6, room - 1)] + "…"
        line.append(name, style="bold")
        line.append(where)
        if st.get("scene_title"):
            line.append(f": {st['scene_title']}")
        line.no_wrap = True
        line.overflow = "ellipsis"
        return line

    def refresh_status(self) -> None:
        if not self.is_mounted:
            return
        line = self._status_text()
        key = (line.plain, tuple(line.spans))
        if key == self._status_key:
            return  # unchanged: an update would repaint and re-lay out the screen
        self._status_key = key
        # One row high whatever it says (#status-line: height 1): no layout pass for a new text.
        self.query_one(StatusLine).update(line, layout=False)

    def restyle(self) -> None:
        self.query_one(DiceLog).restyle(self.papp.log_styles())
        self.refresh_all()

    # -- helpers -----------------------------------------------------------------

    def run(self, cmd: Command, then: Callable[[Any], object] | None = None) -> None:
        """Ask the app to run a command; ``then`` gets its result once this screen has redrawn
        (so it may select what the command made); not called when the command failed."""
        self.app.post_message(RunCommand(cmd, origin=self, then=then))

    def selected_character(self, *, quiet: bool = False) -> dict[str, Any] | None:
        cid = self.query_one("#chars", CharacterPane).selected_character_id()
        if cid is None:
            if not quiet:
                self.notify(_("Select a character first (press 2, then arrows)"), severity="warning")
            return None
        return cast("dict[str, Any] | None", self.tracker.characters.get(cid))  # the GM's keys read any system's fields

    def _allowed(self, check: Callable[[Tracker], None]) -> bool:
        """Ask the tracker whether a command may run before prompting for it; say why not."""
        try:
            check(self.tracker)
        except TrackerError as e:
            self.notify(str(e), severity="warning", title=_("Not now"))
            return False
        return True

    def selected_challenge_id(self) -> str | None:
        return self.query_one("#queue", ChallengeQueue).selected_challenge_id()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        system = self.tracker.system
        raja_only = {"spend_charge", "restore_charge", "story_point", "award_point", "new_story"}
        sr_only = {"spend_edge", "initiative", "stun", "delay", "step_in", "end_combat"}
        harha_only = {"narration"}
        if action in raja_only and system is not System.RAJAPOLKU:
            return False
        if action in sr_only and system is not System.SHADOWRUN:
            return False
        if action in harha_only and system is not System.HARHAPOLKU:
            return False
        if action in ("wound", "remove_fallen") and system is System.HARHAPOLKU:
            return False
        if self.tracker.read_only and action not in ("focus_pane",):
            return False
        return True

    def action_focus_pane(self, which: str) -> None:
        target = {"queue": "#queue", "chars": "#chars", "log": "#log"}[which]
        self.query_one(target).focus()

    # -- challenges --------------------------------------------------------------

    def action_add_challenge(self) -> None:
        from .prompts import TextPrompt

        def done(title: str | None) -> None:
            if title:
                self.run(command("add_challenge", title))

        self.app.push_screen(TextPrompt(_("New challenge: what is at stake?"), placeholder=_("e.g. Catch the pickpocket"),
                                        check=lambda s: None if s.strip() else _("write a title")), done)

    def action_start_challenge(self) -> None:
        chid = self.selected_challenge_id()
        if chid is None:
            self.notify(_("Select a challenge first (press 1, then arrows)"), severity="warning")
            return
        self.run(command("start_challenge", chid))

    def action_remove_challenge(self) -> None:
        from .prompts import ConfirmPrompt

        chid = self.selected_challenge_id()
        if chid is None:
            self.notify(_("Select a challenge first (press 1)"), severity="warning")
            return
        title = self.tracker.challenge(chid)["title"]

        def done(yes: bool | None) -> None:
            if yes:
                self.run(command("remove_challenge", chid))

        self.app.push_screen(ConfirmPrompt(_("Remove challenge '{title}'? (undo brings it back)", title=title)), done)

    def action_move_challenge(self, delta: int) -> None:
        chid = self.selected_challenge_id()
        if chid is None:
            self.notify(_("Select a challenge first (press 1)"), severity="warning")
            return
        self.run(command("move_challenge", chid, delta))

    # -- characters --------------------------------------------------------------

    def action_add_character(self) -> None:
        from .character import CharacterForm

        def done(result: dict[str, Any] | None) -> None:
            if result:
                def made(ch: dict[str, Any]) -> None:
                    if ch.get("id") in self.tracker.characters:
                        self.select_character(ch["id"])

                self.run(command("add_character", **result), made)

        self.app.push_screen(CharacterForm(self.tracker), done)

    def action_edit_character(self) -> None:
        from .character import CharacterDetail

        ch = self.selected_character()
        if ch is not None:
            self.app.push_screen(CharacterDetail(self.tracker, ch["id"]))

    def select_character(self, cid: str) -> None:
        """Highlight ``cid`` in the character pane (a new character is the one the GM works on next)."""
        pane = self.query_one("#chars", CharacterPane)
        try:
            pane.highlighted = pane.get_option_index(cid)
        except OptionDoesNotExist:  # the pane was not refreshed yet
            return

    def open_detail(self, cid: str) -> None:
        """Open the character sheet of ``cid`` (the palette's "Character: edit X")."""
        from .character import CharacterDetail

        if cid in self.tracker.characters:
            self.app.push_screen(CharacterDetail(self.tracker, cid))

    @on(CharacterPane.OptionSelected, "#chars")
    def character_chosen(self) -> None:
        self.action_edit_character()

    @on(ChallengeQueue.OptionSelected, "#queue")
    def challenge_chosen(self) -> None:
        self.action_roll()

    def action_wound(self, steps: int) -> None:
        ch = self.selected_character()
        if ch is None:
            return
        if self.tracker.system is System.RAJAPOLKU:
            self.run(command("move_wound", ch["id"], steps))
        else:
            self.run(command("set_condition", ch["id"], "physical", ch["physical"] + steps))

    def action_stun(self, steps: int) -> None:
        ch = self.selected_character()
        if ch is not None:
            self.run(command("set_condition", ch["id"], "stun", ch["stun"] + steps))

    def action_spend_charge(self) -> None:
        from .prompts import ChoicePrompt, TextPrompt

        ch = self.selected_character()
        if ch is None:
            return
        per = {"use": _("per use"), "scene": _("per scene")}
        choices = [(f"ab:{a['name']}", ngettext("{name} — {n} charge {per}", "{name} — {n} charges {per}", a['cost'],
                                                name=a['name'], per=per.get(a['per'], a['per'])))
                   for a in ch["abilities"] if a["per"] != "always"]
        choices.append(("plain", _("Spend 1 charge for something else…")))

        def picked(value: str | None) -> None:
            if value is None:
                return
            if value.startswith("ab:"):
                self.run(command("use_ability", ch["id"], value[3:]))
                return

            def reason(text: str | None) -> None:
                if text:
                    self.run(command("spend_charges", ch["id"], 1, text.strip()))

            self.app.push_screen(TextPrompt(_("{name} spends 1 charge on…", name=ch['name']),
                                            check=lambda s: None if s.strip() else _("say what for")), reason)

        self.app.push_screen(ChoicePrompt(_("{name}: charges {charges}/{charges_max}", name=ch['name'], charges=ch['charges'], charges_max=ch['charges_max']), choices), picked)

    def action_restore_charge(self) -> None:
        ch = self.selected_character()
        if ch is not None:
            self.run(command("restore_charges", ch["id"], 1))

    def _spend(self, check: Callable[[Tracker, str], None], spend: str,
               question: Callable[[dict[str, Any]], str], need: str, placeholder: str = "") -> None:
        """Spend one of the selected character's points on what the GM writes: asked only when
        the tracker says there is one to spend."""
        from .prompts import TextPrompt

        ch = self.selected_character()
        if ch is None or not self._allowed(lambda t: check(t, ch["id"])):
            return

        def done(text: str | None) -> None:
            if text:
                self.run(command(spend, ch["id"], text.strip()))

        self.app.push_screen(TextPrompt(question(ch), placeholder=placeholder,
                                        check=lambda s: None if s.strip() else need), done)

    def action_story_point(self) -> None:
        self._spend(Tracker.check_spend_story_point, "spend_story_point",
                    lambda ch: _("{name} spends a story point ({left} left). What does it buy?", name=ch['name'],
                                 left=ch['story_points']),
                    _("say what it bought"), placeholder=_("e.g. a sewer hatch full of rats opens"))

    def action_award_point(self) -> None:
        from .prompts import TextPrompt

        ch = self.selected_character()
        if ch is None:
            return

        def done(text: str | None) -> None:
            if text is not None:
                self.run(command("award_story_point", ch["id"], text.strip() or _("good roleplaying")))

        self.app.push_screen(TextPrompt(_("Award {name} a story point for…", name=ch['name']), _("good roleplaying")), done)

    def action_spend_edge(self) -> None:
        self._spend(Tracker.check_spend_edge, "spend_edge",
                    lambda ch: _("{name} spends Edge ({edge}/{rating}) on…", name=ch['name'], edge=ch['edge'],
                                 rating=ch['edge_rating']), _("say what for"))

    # -- rolls and contests ------------------------------------------------------

    def action_roll(self) -> None:
        from .roll import roll_screen_for

        chid = self.selected_challenge_id()
        active = self.tracker.active_challenge()
        if chid is not None and self.tracker.challenge(chid)["status"] == "resolved":
            chid = None
        if chid is None and active is not None:
            chid = active["id"]
        if not self.tracker.characters:
            self.notify(_("Add a character first (c)"), severity="warning")
            return
        # The selected character is side A, unless the challenge names who takes part and it is
        # someone else (an extended test goes on with its own roller), or names them as opposition.
        selected = self.selected_character(quiet=True)
        # In a fight the fighter marked ▶ rolls (the session says who); w on the roll screen changes it.
        actor = self.tracker.attacks.roller(selected["id"] if selected is not None else None)
        if actor is not None and chid is not None:
            c = self.tracker.challenge(chid)
            parts = c.get("participants", [])
            if actor in c.get("opposition", []) or (parts and actor not in parts):
                actor = None
        self.app.push_screen(roll_screen_for(self.tracker, chid, actor=actor))

    def action_damage(self) -> None:
        from .roster import damage_or_harm

        damage_or_harm(self)

    def action_add_group(self) -> None:
        from .roster import add_from_template

        add_from_template(self)

    def action_save_template(self) -> None:
        from .roster import save_template

        save_template(self)

    def action_template_gear(self) -> None:
        from .roster import template_gear

        template_gear(self)

    def action_import_chummer(self) -> None:
        from .roster import import_chummer

        import_chummer(self)

    def action_remove_template(self) -> None:
        from .roster import remove_template

        remove_template(self)

    def action_remove_fallen(self) -> None:
        from .roster import remove_fallen

        remove_fallen(self)

    def action_copy_characters(self) -> None:
        from .roster import copy_characters

        copy_characters(self)

    def action_narration(self) -> None:
        from .narration import NarrationScreen

        self.app.push_screen(NarrationScreen(self.tracker))

    def action_settings(self, key: str | None = None) -> None:
        from .settings import SettingsScreen

        self.app.push_screen(SettingsScreen(self.tracker, key))

    def action_initiative(self) -> None:
        from .roll import InitiativeScreen

        self.app.push_screen(InitiativeScreen(self.tracker))

    # -- turns and effects ----------------------------------------------------------

    def action_next_turn(self) -> None:
        b = self.tracker.combat.block
        if b is not None and b["pass"] == 0:
            # The combat turn is over and initiative is rerolled each turn: roll it now.
            self.action_initiative()
            return
        def moved(_: object) -> None:
            b = self.tracker.combat.block
            if b is not None and b["pass"] == 0:
                self.action_initiative()

        self.run(command("combat.next"), moved)

    def action_delay(self) -> None:
        self.run(command("combat.delay"))

    def _fighter(self) -> str | None:
        """The fighter the GM points at: the selected character."""
        ch = self.selected_character(quiet=True)
        return ch["id"] if ch is not None else None

    def action_step_in(self) -> None:
        block = self.tracker.combat.block
        held = block["held"] if block else []
        cid = self._fighter()
        if cid not in held and len(held) == 1:
            cid = held[0]  # only one holds: no need to point at them
        if cid is None or cid not in held:
            names = ", ".join(self.tracker.character(h)["name"] for h in held) or _("nobody")
            self.notify(_("Select who steps in (holding: {names}), then j", names=names), severity="warning", title=_("Not now"))
            return
        self.run(command("combat.step_in", cid))

    def action_end_combat(self) -> None:
        from .prompts import ConfirmPrompt

        if not self.tracker.combat.active:
            self.notify(_("No fight is going on (i rolls initiative)"), severity="warning", title=_("Not now"))
            return

        def done(yes: bool | None) -> None:
            if yes:
                self.run(command("combat.end"))

        self.app.push_screen(ConfirmPrompt(_("End the fight? The turn order goes; effects counted in passes or "
                                           "turns end (undo brings them back).")), done)

    def action_effects(self) -> None:
        """Add an effect to the selected character, or (when it carries some) pick one to remove."""
        from ...session.table.combat import effect_text
        from .prompts import ChoicePrompt

        ch = self.selected_character()
        if ch is None:
            return
        effects = ch.get("effects", [])
        if not effects:
            self._add_effect(ch)
            return

        def done(value: str | None) -> None:
            if value == "add":
                self._add_effect(ch)
            elif value is not None:
                self.run(command("combat.remove_effect", ch["id"], int(value)))

        choices = [("add", _("Add an effect…"))] + [(str(i), _("Remove {effect}", effect=effect_text(e)))
                                                     for i, e in enumerate(effects)]
        self.app.push_screen(ChoicePrompt(_("Effects on {name}", name=ch['name']), choices), done)

    def _add_effect(self, ch: dict[str, Any]) -> None:
        from ...session.table.combat import parse_effect
        from .prompts import TextPrompt

        def check(text: str) -> str | None:
            try:
                parse_effect(text)
            except TrackerError as e:
                return str(e)
            return None

        def done(text: str | None) -> None:
            if text:
                name, dice, unit, count = parse_effect(text)
                self.run(command("combat.add_effect", ch["id"], name, dice, unit, count))

        self.app.push_screen(TextPrompt(_("Effect on {name}: name, dice, duration", name=ch['name']),
                                        placeholder=_("e.g. Smoke -2 3 passes · Stunned 1 turn · Blessed +1"),
                                        hint=_("no duration: until removed; units: passes, turns, scenes, sessions"),
                                        check=check), done)

    # -- structure ---------------------------------------------------------------

    def action_new_scene(self) -> None:
        from .prompts import TextPrompt

        def done(title: str | None) -> None:
            if title is not None:
                self.run(command("new_scene", title))

        self.app.push_screen(TextPrompt(_("New scene — its title (optional):"), placeholder=_("e.g. The docks at night")), done)

    def action_new_session(self) -> None:
        from .prompts import ConfirmPrompt

        def done(yes: bool | None) -> None:
            if yes:
                self.run(command("new_session"))

        self.app.push_screen(ConfirmPrompt(_("Start a new game session in this file? Edge and edge rerolls reset.")), done)

    def action_reveal_dice(self) -> None:
        from .prompts import ConfirmPrompt

        d = self.tracker.dice_key()
        key = f" #{d['key']}" if d else ""

        def done(yes: bool | None) -> None:
            if yes:
                self.run(command("new_dice_secret", reveal=True))

        self.app.push_screen(ConfirmPrompt(_("Reveal dice secret{key} to the players now and commit a new one? (A new session does this too; it cannot be undone.)", key=key)), done)

    def action_dice_proof(self) -> None:
        from ...session.players.public import public_dice
        from .dice_proof import DiceProof

        self.app.push_screen(DiceProof(public_dice(self.tracker.state)))

    def action_new_story(self) -> None:
        from .prompts import ConfirmPrompt

        n = self.tracker.settings.raja_story_points

        def done(yes: bool | None) -> None:
            if yes:
                self.run(command("new_story"))

        self.app.push_screen(ConfirmPrompt(_("Start a new story? Unspent story points vanish; each PC gets {n}.", n=n)), done)

    def action_note(self) -> None:
        from .prompts import TextPrompt

        def done(text: str | None) -> None:
            if text and text.strip():
                self.run(command("note", text))

        self.app.push_screen(TextPrompt(_("Note for the log:")), done)

    def action_undo(self) -> None:
        self.run(command("undo"), lambda ev: self.notify(self.command_text(ev), title=_("Undone")))

    def action_redo(self) -> None:
        self.run(command("redo"), lambda ev: self.notify(self.command_text(ev), title=_("Redone")))

    def command_text(self, ev: Event) -> str:
        """Every line of the command an undo or redo event names (a spirit fight is two), not just the first."""
        seqs = self.tracker.cmd_seqs(ev["target"]) if isinstance(ev.get("target"), int) else []
        texts = [telling.event_text(self.tracker.event_by_seq(q)) for q in seqs]
        if len(texts) <= 1:
            return telling.event_text(ev)
        return "\n".join(texts)


__all__ = ["MainScreen", "TrackerError"]
