"""``polku play FILE --as CHARACTER``: a player's seat.

Everything the players' view shows (:mod:`polku.tui.watch`: the challenges,
the characters' public status, the dice log, all without the GM's secrets),
plus the player's own character and a roll panel. When the GM asks this
character for a roll (a ``seat`` event, :mod:`polku.session.players.seats`), the panel
shows the pool, how it is built and its exact odds; the player may add Edge
before the roll when the rules allow it (S7), then rolls with the program's
dice (``r``) or types the faces of physical dice (``f``). After the roll the
rules' follow-ups for the player's own roll are offered (Edge after, negating
or reducing a glitch, an edge reroll). A Rajapolku player may spend a story
point (``s``, R12).

The seat never writes the session file, nor reads it: it reads the players'
file the GM's app publishes beside it (:mod:`polku.session.players.public`), and every
request is one small file in the seat's spool folder, which the GM's app picks
up, checks, applies and answers. Both the players' file and the answers are
waited for with inotify (:func:`polku.session.players.watching.follow`).

What the panel shows comes from structured data only: the players' projection
of the character (:func:`polku.session.players.public.public_view`, no notes), the
public side of the GM's request (:meth:`polku.session.players.seats.Offer.public`, no
hidden threshold), the odds of the pool, and the GM's app's answers.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial
from pathlib import Path
from typing import Any, Mapping

from rich.text import Text
from textual import on
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from ..i18n import N_, _, decimal, ngettext, tell, words_of
from ..rules.dice import RulesError
from ..session import telling
from ..session.model import Event
from ..session.players import seat_rolls, seats
from ..session.players.players_file import Follower
from ..session.telling import line_text
from ..session.tracker import Tracker, TrackerError
from ..text import percent, wound_label
from .watch import PLAYER_HELP, FileChanged, PlayerHelp, WatchApp, WatchScreen, run_view
from .widgets.dice_log import DiceLog
from .widgets.keyline import KeyLine
from .widgets.panes import ChallengeQueue, CharacterPane, TurnOrder

ANSWER_WAIT_NOTE = "sent — waiting for the GM's app (a request waits while it is closed)"


class SeatPanel(Static):
    """The player's own character and the roll the GM asked for."""

    DEFAULT_CSS = """
    SeatPanel { height: auto; padding: 0 1; }
    SeatPanel.-status { height: 1; text-wrap: nowrap; text-overflow: ellipsis; }
    """


class SeatScreen(WatchScreen):
    """The players' view with the seat's panel above the dice log."""

    DEFAULT_CSS = """
    SeatScreen #seat-scroll { height: 50%; }
    SeatScreen #seat-scroll:focus { background: $boost; }
    """

    BINDINGS = [
        Binding("r", "roll", N_("Roll"), id="seat.roll", tooltip=N_("Roll the requested pool with the program's dice")),
        Binding("f", "faces", N_("Physical dice"), id="seat.faces", tooltip=N_("Type the faces of physical dice you rolled")),
        Binding("e", "edge", N_("Edge"), id="seat.edge",
                tooltip=N_("Before the roll: add Edge (S7); after it: spend Edge on more dice")),
        Binding("g", "follow('negate_glitch')", N_("Negate glitch"), id="seat.negate",
                tooltip=N_("1 Edge negates a glitch on your roll (S5)")),
        Binding("c", "follow('reduce_critical')", N_("Reduce crit"), show=False, id="seat.reduce",
                tooltip=N_("1 Edge turns a critical glitch into a glitch (S6)")),
        Binding("x", "reroll", N_("Edge reroll"), id="seat.reroll", tooltip=N_("Throw your whole roll again with an edge (H7)")),
        Binding("s", "story_point", N_("Story point"), id="seat.story", tooltip=N_("Spend a story point (R12)")),
        Binding("o", "own", N_("Own roll"), id="seat.own",
                tooltip=N_("Roll for your character: a test, an attack, resisting a hit, initiative")),
        Binding("tab", "next_offer", N_("Next request"), show=False, id="seat.next",
                tooltip=N_("Show the next roll request, when the GM sent several")),
    ] + WatchScreen.BINDINGS + [
        Binding("4", "focus_pane('seat')", N_("Your roll"), show=False, id="seat.focus_panel",
                tooltip=N_("Scroll your character and roll")),
    ]

    def compose(self) -> ComposeResult:
        yield Static(id="status-line")
        with Horizontal(id="panes"):
            with Vertical(id="left"):
                yield TurnOrder(id="turns", classes="-idle")  # the fight, as watch shows it (S12)
                yield Static(_("Challenges"), classes="pane-title", id="queue-title")
                yield ChallengeQueue(id="queue")
                yield Static(_("Characters"), classes="pane-title", id="chars-title")
                yield CharacterPane(id="chars")
            with Vertical(id="right"):
                yield Static(_("You"), classes="pane-title", id="seat-title")
                with VerticalScroll(id="seat-scroll"):
                    yield SeatPanel(id="seat-sheet")
                    yield SeatPanel(id="seat-status", classes="-status")
                    yield SeatPanel(id="seat-body")
                yield Static(_("Dice log"), classes="pane-title", id="log-title")
                log = DiceLog(id="log")
                log.page_follow = True
                yield log
        yield KeyLine(id="keys")

    def action_focus_pane(self, which: str) -> None:
        if which == "seat":
            self.query_one("#seat-scroll").focus()
            return
        super().action_focus_pane(which)

    @property
    def seat_app(self) -> "SeatApp":
        app = self.app
        assert isinstance(app, SeatApp)
        return app

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Keys that do nothing now are shown dimmed (the rules' reasons are in the panel)."""
        app = self.app
        if not isinstance(app, SeatApp):
            return True
        return app.can(action, parameters)

    def action_roll(self) -> None:
        self.seat_app.roll(None)

    def action_faces(self) -> None:
        self.seat_app.ask_faces()

    def action_edge(self) -> None:
        self.seat_app.edge()

    def action_follow(self, name: str) -> None:
        self.seat_app.follow_up(name)

    def action_reroll(self) -> None:
        self.seat_app.reroll()

    def action_story_point(self) -> None:
        self.seat_app.story_point()

    def action_own(self) -> None:
        self.seat_app.choose_own()

    def action_next_offer(self) -> None:
        self.seat_app.next_offer()


SEAT_HELP = PLAYER_HELP.replace("  1 2 3          challenges · characters · dice log\n",
                                "  1 2 3 4        challenges · characters · dice log · your roll\n") + """
Your seat (the GM's app applies what you ask; a request waits while it is closed):
  r              roll the pool the GM asked for, with the program's dice
  f              type the faces of physical dice you rolled
  e              Edge: before the roll, +Edge dice with the rule of six (S7);
                 after it, Edge dice that follow the rule of six
  g / c          negate a glitch (S5) / reduce a critical glitch (S6)
  x              throw your whole roll again with an unused edge (H7)
  s              spend a story point: say what it buys (R12)
  o              a roll of your own: a test with a saved pool or a skill, an
                 attack, resisting a hit on you, initiative (Varjojuoksu);
                 a saved pool (Harhapolku); the challenge under way with a
                 saved pool, a spirit combat's exchange (Rajapolku);
                 then r or f rolls it (the GM may approve it first)
  tab            the next roll request, when the GM sent several
"""


class SeatHelp(PlayerHelp):
    """The seat's keys."""

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(SEAT_HELP)


class SeatApp(WatchApp):
    """``polku play FILE --as CHARACTER``.

    Args:
        path: the session file.
        cid: the character's id (the seat's folder in the spool).
        follower, theme, theme_dirs, interval, polling: as :class:`WatchApp`.
    """

    TITLE = "Polku seat"

    def __init__(self, path: Path, cid: str, *, follower: Follower | None = None, theme: str | None = None,
                 theme_dirs: Any = None, interval: float = 0.3, polling: bool = False) -> None:
        super().__init__(path, interval=interval, follower=follower, theme=theme, theme_dirs=theme_dirs,
                         polling=polling)
        self.cid = cid
        self.offer_index = 0
        self.edge_before = False
        self.sent: str | None = None
        """The id of the request waiting for its answer."""
        self.sent_what = ""
        self.answer: dict[str, Any] | None = None
        """The last answer of the GM's app."""
        self.problem_line = ""
        """Why the seat could not send (the spool cannot be written), or ""."""
        self._panel_shown: dict[str, Text] = {}
        self._pending_of: object = None
        self._pending_list: list[seats.Offer] = []
        self._title_shown = ""
        self._roll_seen: int | None = None
        """The roll of the last answer, once the players' file showed it (gone again: undone)."""
        self.own: seat_rolls.OwnRoll | None = None
        """The roll of the player's own the panel shows (``o``), rolled with ``r`` or ``f``."""
        self.approval = False
        """The request sent waits for the GM's approval (``seats.own_rolls = approve``)."""

    # -- the screens --------------------------------------------------------------

    def first_screen(self) -> Screen[Any]:
        return SeatScreen()

    def action_help(self) -> None:
        if not any(isinstance(s, PlayerHelp) for s in self.screen_stack):
            self.push_screen(SeatHelp())

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """The seat's own keys that work now (the same answer as the key line's), then the view's."""
        seat = next((s for s in reversed(self.screen_stack) if isinstance(s, SeatScreen)), None)
        if seat is not None:
            for b in SeatScreen.BINDINGS:
                if not isinstance(b, Binding) or not (b.id or "").startswith("seat.") or b.id == "seat.focus_panel":
                    continue
                name, _sep, arg = b.action.partition("(")
                params: tuple[object, ...] = (arg.rstrip(")").strip("'"),) if arg else ()
                if self.can(name, params):
                    yield SystemCommand(_("Seat: {description}", description=_(b.description)),
                                        _("{tooltip} — key: {key}", tooltip=_(b.tooltip or ""), key=b.key),
                                        partial(self.call_later, seat.run_action, b.action))
        yield from super().get_system_commands(screen)

    def watched_folders(self) -> set[Path]:
        folders = super().watched_folders()
        try:
            folder = seats.seat_dir(self.path, self.cid)
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            # the OS's reason (strerror) as the OS gives it, in a whole sentence in the reader's language
            self.problem_line = _("cannot use the seat folder: {reason}", reason=e.strerror or e)
        else:
            folders.add(folder)
        return folders

    def changed_paths(self, paths: set[str]) -> None:
        super().changed_paths(paths)
        if self.sent is not None and (not paths or any(Path(p).name == f"ans-{self.sent}.json" for p in paths)):
            self.post_message(FileChanged())

    @on(FileChanged)
    def _seat_file_changed(self) -> None:
        self._check_answer()

    # -- what the seat knows ------------------------------------------------------------

    def full(self) -> Tracker | None:
        """The players' view of the session, as the GM's app published it (no secret is in it)."""
        view = self.follower.view
        return view.tracker if view is not None else None

    def _pending(self) -> list[seats.Offer]:
        """The character's open requests, worked out once per reading of the file (every key asks)."""
        view = self.follower.view
        if self._pending_of is not view:
            self._pending_of = view
            try:
                mine = view.offers.get(self.cid, []) if view is not None else []
                self._pending_list = [seats.Offer.from_public(o) for o in mine if isinstance(o, dict)]
            except (KeyError, TypeError, ValueError):
                self._pending_list = []
        return self._pending_list

    def offers(self) -> list[seats.PublicOffer]:
        full = self.full()
        if full is None or self.cid not in full.characters:
            return []
        return [o.public() for o in self._pending()]

    def current_offer(self) -> seats.Offer | None:
        full = self.full()
        if full is None or self.cid not in full.characters or self.own is not None:
            return None
        pending = self._pending()
        if not pending:
            return None
        return pending[min(self.offer_index, len(pending) - 1)]

    def roll_actions(self) -> list[dict[str, Any]]:
        """What the GM's app said the player may still do to the last roll (while that roll is the latest)."""
        ans = self.answer
        full = self.full()
        if not ans or not ans.get("ok") or not isinstance(ans.get("roll"), int) or full is None:
            return []
        seq = ans["roll"]
        if self._shown_roll(full, seq) is None:
            return []  # not in the players' file yet, or undone
        later_rolls = [e for e in full.events[-20:] if e.get("kind") == "roll" and e.get("seq", 0) > seq]
        if later_rolls:
            return []
        return [a for a in ans.get("actions", []) if isinstance(a, dict)]

    def can(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """True: the key works now; None: shown dimmed (not now); False: not in this system at all."""
        full = self.full()
        system = full.system.value if full is not None else ""
        if action == "story_point" and system != "rajapolku":
            return False
        if action == "reroll" and system != "harhapolku":
            return False
        if action in ("edge", "follow") and system != "shadowrun":
            return False
        waiting = self.sent is not None
        offer = self.current_offer()
        if action == "own":
            return True if not waiting and self.own_rolls() else None
        if action in ("roll", "faces"):
            if self.own is not None:
                return None if waiting or not self.own.allowed else True
            return None if (offer is None or waiting) else True
        if action == "edge":
            if waiting:
                return None
            if self.own is not None:
                return True if self.own.edge or self.edge_before else None
            if offer is not None:
                acts = seat_rolls.offer_choices(full, offer) if full is not None else []
                return True if any(a.allowed for a in acts) or self.edge_before else None
            return True if self._allowed("edge_after") else None
        if action == "follow":
            return True if not waiting and self._allowed(str(parameters[0])) else None
        if action == "reroll":
            return True if not waiting and self._allowed("edge_reroll") else None
        if action == "story_point":
            ch = full.characters.get(self.cid) if full is not None else None
            return True if not waiting and ch is not None and "story_points" in ch else None
        if action == "next_offer":
            return True if len(self.offers()) > 1 else None
        return True

    def _allowed(self, name: str) -> dict[str, Any] | None:
        return next((a for a in self.roll_actions() if a.get("name") == name and a.get("allowed")), None)

    # -- the requests -------------------------------------------------------------------

    def _send(self, kind: str, what: str, **fields: Any) -> None:
        try:
            self.sent = seats.write_request(self.path, self.cid, kind, **fields)
        except (OSError, seats.SeatError) as e:
            # the OS's reason (strerror) as the OS gives it, in a whole sentence in the reader's language
            reason = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
            self.notify(_("Could not send the request: {reason}", reason=reason), severity="error", title=_("Not sent"))
            return
        self.sent_what = what
        self.answer = None
        self._told_of_problem()  # known already: no waiting for an answer that cannot come
        self.refresh_seat()
        self._check_answer()

    def _check_answer(self) -> None:
        if self.sent is None:
            return
        ans = seats.read_answer(self.path, self.cid, self.sent)
        if ans is None:
            return
        if ans.get("waiting"):
            # The GM's app took it; it waits for the GM's approval (the final answer replaces this one).
            if not self.approval:
                self.approval = True
                self.refresh_seat()
            return
        self.sent = None
        self.approval = False
        self.answer = ans
        self.edge_before = False
        if not ans.get("ok"):
            self.notify(told_answer(ans) or _("refused"), severity="warning", title=_("Not done"), markup=False)
        self.refresh_seat()
        self.refresh_bindings()

    def roll(self, faces: list[int] | None) -> None:
        own = self.own
        if own is not None:
            if self.sent is None and own.allowed:
                self.own = None
                self._send("own", own.told()[0], test=own.test, key=own.key, edge_before=self.edge_before, faces=faces)
            return
        offer = self.current_offer()
        if offer is None or self.sent is not None:
            return
        self._send("roll", _("your roll"), offer=offer.seq, edge_before=self.edge_before, faces=faces)

    def ask_faces(self) -> None:
        """Ask the faces of physical dice (the pool, then each rule-of-six wave), then send them.

        How many dice of which sizes is the session layer's answer
        (:func:`polku.session.players.seats.faces_plan`); the GM's app checks them again.
        """
        offer = self.current_offer()
        full = self.full()
        if (offer is None and self.own is None) or full is None or self.sent is not None:
            return
        try:
            if self.own is not None:
                plan = seat_rolls.own_plan(full, self.cid, self.own, edge_before=self.edge_before)
            elif offer is not None and offer.test == seat_rolls.DEFEND_TEST:
                plan = seat_rolls.defence_plan(full, offer, edge_before=self.edge_before)
            else:
                assert offer is not None
                plan = seats.faces_plan(full, offer, edge_before=self.edge_before)
        except (seats.SeatError, RulesError, TrackerError, KeyError) as e:
            self.notify(str(e), severity="error", title=_("Not rolled"))
            return
        what = _("Your pool and Edge dice") if self.edge_before else _("Your pool")
        gm_side = offer is not None and offer.test == "raja"
        self._type_faces(full, what, plan, lambda faces: self.roll(faces), gm_side=gm_side)

    def _type_faces(self, full: Tracker, title: str, plan: seats.FacesPlan, then: Any, *, gm_side: bool = False) -> None:
        """The GM's roll screens' faces prompts: a wrong count or face is said inline, the prompt stays.
        ``gm_side``: the hint says the GM's side rolls the program's dice (a Rajapolku challenge, R5)."""
        from .screens.prompts import ask_faces

        if plan.rule_of_six:
            hint = _("rule of six: a prompt follows for the dice the sixes add")
        elif plan.order:
            order = ", ".join(plan.order)
            hint = (_("in this order: {order} (the GM's side: the program's dice, R5)", order=order) if gm_side
                    else _("in this order: {order}", order=order))
        else:
            hint = (_("commas or spaces; Escape cancels (the GM's side: the program's dice, R5)") if gm_side
                    else _("commas or spaces; Escape cancels"))
        ask_faces(self, title, plan.count, plan.sizes, then,
                  wave=full.rolls.sr_six_wave if plan.rule_of_six else None, hint=hint)

    def edge(self) -> None:
        if self.sent is not None:
            return
        if self.own is not None:
            if self.own.edge or self.edge_before:
                self.edge_before = not self.edge_before
                self.refresh_seat()
                self.refresh_bindings()
            return
        offer = self.current_offer()
        full = self.full()
        if offer is not None and full is not None:
            acts = seat_rolls.offer_choices(full, offer)
            if not self.edge_before and not any(a.allowed for a in acts):
                self.notify(acts[0].reason if acts else _("no Edge on this roll"), severity="warning")
                return
            self.edge_before = not self.edge_before
            self.refresh_seat()
            self.refresh_bindings()
            return
        self.follow_up("edge_after")

    def follow_up(self, name: str, edge: str = "") -> None:
        act = self._allowed(name)
        ans = self.answer
        if act is None or ans is None or self.sent is not None:
            return
        what = str(act.get("reason", name))
        edge = edge or str(act.get("edge", ""))

        def send(faces: list[int] | None) -> None:
            self._send("action", what, roll=ans["roll"], action=name, edge=edge, faces=faces)

        full = self.full()
        ev = self._my_roll(full)
        if full is None or ev is None or not seats.physical(ev):
            send(None)
            return
        # The roll was made with physical dice: so are the dice its follow-up throws.
        plan = seats.follow_up_plan(full, ev, name, self.cid)
        if plan.count == 0:
            send(None)
            return
        title = _("Your reroll, edge '{edge}'", edge=edge) if name == "edge_reroll" else _("Your Edge dice")
        self._type_faces(full, title, plan, send)

    def _my_roll(self, full: Tracker | None) -> Event | None:
        """The roll the last answer was about, as the players' file has it."""
        seq = (self.answer or {}).get("roll")
        if full is None or not isinstance(seq, int):
            return None
        return self._shown_roll(full, seq)

    @staticmethod
    def _shown_roll(full: Tracker, seq: int) -> Event | None:
        """The players' event ``seq``, or None (not published yet, or undone)."""
        try:
            return full.event_by_seq(seq)
        except KeyError:
            return None

    def _forget_undone_roll(self) -> None:
        """The GM undid the roll the last answer was about: its result leaves the seat (once seen, now gone)."""
        ans, full = self.answer, self.full()
        seq = (ans or {}).get("roll")
        if full is None or not isinstance(seq, int) or not (ans or {}).get("ok"):
            return
        if self._shown_roll(full, seq) is not None:
            self._roll_seen = seq
        elif self._roll_seen == seq:
            self.answer = None
            self._roll_seen = None
            self.notify(_("The GM undid your roll"), title=_("Undone"), timeout=6)

    def reroll(self) -> None:
        rerolls = [a for a in self.roll_actions() if a.get("name") == "edge_reroll" and a.get("allowed")]
        if not rerolls or self.sent is not None:
            return
        if len(rerolls) == 1:
            self.follow_up("edge_reroll", str(rerolls[0].get("edge", "")))
            return
        from .screens.prompts import ChoicePrompt

        def chosen(edge: str | None) -> None:
            if edge:
                self.follow_up("edge_reroll", edge)

        self.push_screen(ChoicePrompt(_("Reroll with which edge? (H7)"),
                                      [(str(a["edge"]), str(a["edge"])) for a in rerolls]), chosen)

    def story_point(self) -> None:
        from .screens.prompts import TextPrompt

        def bought(text: str | None) -> None:
            if text and text.strip():
                self._send("story_point", _("a story point"), bought=" ".join(text.split())[:seats.MAX_TEXT])

        self.push_screen(TextPrompt(_("Spend a story point: what does it buy? (R12)"),
                                    placeholder=_("a sewer hatch opens")), bought)

    def own_rolls(self) -> list[seat_rolls.OwnRoll]:
        """The rolls this seat may make of its own accord, as the GM's app published them."""
        view = self.follower.view
        mine = view.own.get(self.cid, []) if view is not None else []
        out = []
        for d in mine:
            try:
                out.append(seat_rolls.OwnRoll.from_public(d))
            except (KeyError, TypeError, ValueError):
                continue
        return out

    def choose_own(self) -> None:
        """Pick a roll of one's own; one the player may not make now says why (the GM's app's reason)."""
        from .screens.prompts import ChoicePrompt

        rolls = self.own_rolls()
        if not rolls or self.sent is not None:
            return
        choices = []
        for i, r in enumerate(rolls):
            label, reason = r.told()
            choices.append((str(i), label if r.allowed else _("{label} — not now: {reason}", label=label,
                                                                  reason=reason)))
        if self.own is not None:  # last: each roll keeps its number, whatever is chosen now
            choices.append(("-", _("none: back to the GM's requests")))

        def chosen(value: str | None) -> None:
            if value is None:
                return
            self.edge_before = False
            if value == "-":
                self.own = None
            else:
                r = rolls[int(value)]
                if not r.allowed:
                    self.notify(r.told()[1], severity="warning", title=_("Not now"), markup=False)
                    return
                self.own = r
            self.refresh_seat()
            self.refresh_bindings()

        self.push_screen(ChoicePrompt(_("Roll for your character"), choices), chosen)

    def _follow_own(self) -> None:
        """The players' file changed: the roll of one's own shown is taken again from it (gone: not shown)."""
        if self.own is None:
            return
        now = next((r for r in self.own_rolls() if (r.test, r.key) == (self.own.test, self.own.key)), None)
        if now != self.own:
            self.own = now if now is not None and now.allowed else None
            if self.own is None:
                self.edge_before = False

    def next_offer(self) -> None:
        n = len(self.offers())
        if n > 1:
            self.offer_index = (self.offer_index + 1) % n
            self.edge_before = False
            self.refresh_seat()

    # -- showing --------------------------------------------------------------------------

    def show_view(self, force: bool = False) -> None:
        super().show_view(force)
        self._follow_own()
        self._forget_undone_roll()
        self._told_of_problem()
        self.refresh_seat(force)

    def my_turn(self) -> bool:
        """Whether this seat's character acts now in the fight (the marker of the turn order, S12)."""
        view = self.follower.view
        fight = view.tracker.state.get("combat") if view is not None else None
        return isinstance(fight, dict) and fight.get("acting") == self.cid

    def seat_problem(self) -> str:
        """What keeps the GM's app from taking this seat's requests, as its players' file says (or "")."""
        view = self.follower.view
        return view.seat_problems.get(self.cid, "") if view is not None else ""

    def _told_of_problem(self) -> None:
        """The GM's app cannot take this seat's requests: a request sent stops waiting, and the seat says why."""
        problem = self.seat_problem()
        if problem and self.sent is not None:
            self.sent = None
            self.answer = {"ok": False, "text": problem, "words": [problem, {}]}
            self.edge_before = False
            self.notify(tell(None, problem), severity="error", title=_("Not taken by the GM's app"), timeout=15,
                        markup=False)
            self.refresh_bindings()

    def refresh_seat(self, force: bool = False) -> None:
        """Show the panel and the title again (each only when it changed)."""
        screen = next((s for s in reversed(self.screen_stack) if isinstance(s, SeatScreen)), None)
        if screen is None or not screen.query("#seat-body"):
            return  # not composed yet: its on_mount shows everything
        styles = self.log_styles()
        for name, text in zip(("sheet", "status", "body"), self.panel_parts(styles)):
            if force or text != self._panel_shown.get(name):
                # Only when it changed: each repaint is bytes to a player's terminal.
                panel = screen.query_one(f"#seat-{name}", SeatPanel)
                panel.update(text, layout=name != "status")  # the status line is one row whatever it says
                self._panel_shown[name] = text
        view = self.follower.view
        if view is not None:
            ch = view.tracker.characters.get(self.cid)
            title = _("You: {name}", name=ch['name']) if ch is not None else _("You")
            if ch is not None and self.my_turn():
                title = _("You: {name} · your turn", name=ch["name"])
            if title != self._title_shown:
                screen.query_one("#seat-title", Static).update(title)
                self._title_shown = title
        screen.refresh_bindings()

    def panel_text(self, styles: dict[str, str]) -> Text:
        """The whole panel as one text (tests, and the seat's own checks)."""
        out = Text()
        for i, part in enumerate(p for p in self.panel_parts(styles) if p.plain):
            if i:
                out.append("\n")
            out.append_text(part)
        return out

    def panel_parts(self, styles: dict[str, str]) -> tuple[Text, Text, Text]:
        """(sheet, status line, body) from the public projection and the seat module's answers only.

        Three parts, so that a request sent or answered repaints one line, not the panel.
        """
        muted, accent, bad = styles.get("muted", ""), styles.get("accent", ""), styles.get("error", "")
        view = self.follower.view
        if view is None:
            return Text(_("waiting for the session file"), style=muted), Text(), Text()
        ch = view.tracker.characters.get(self.cid)
        if ch is None:
            return (Text(_("Your character is not in this session now (the GM removed it or made it secret)."),
                         style=bad), Text(), Text())
        offer = self.current_offer()
        turn = Text()
        if self.my_turn():
            turn.append("▶ " + _("Your turn") + "\n", style=f"bold {accent}".strip())
        # Short while a roll is asked (it must fit at 80x24).
        sheet = turn + sheet_line(ch, view.tracker.system.value,
                                  short=offer is not None or self.sent is not None or self.own is not None)
        if self.problem_line:
            sheet.append(f"\n⚠ {self.problem_line}", style=bad)
        if self.seat_problem():
            sheet.append("\n⚠ " + _("Your requests cannot reach the GM (the GM is told): {problem}",
                                     problem=tell(None, self.seat_problem())), style=bad)
        status = Text()
        if self.sent is not None and self.approval:
            status.append(_("waiting for the GM's approval: {what}", what=self.sent_what), style=accent)
        elif self.sent is not None:
            status.append(f"{self.sent_what.capitalize()}: {ANSWER_WAIT_NOTE}", style=accent)
        elif self.answer is not None:
            ok = bool(self.answer.get("ok"))
            seq = self.answer.get("roll")
            shown_roll = self._shown_roll(view.tracker, seq) if ok and isinstance(seq, int) else None
            if shown_roll is not None:
                status.append(f"✓ {telling.event_text(shown_roll)}", style="bold")
            else:
                status.append(("✓ " if ok else "✗ ") + told_answer(self.answer), style="" if ok else bad)
        # One row whatever it says (no layout pass when it changes); cut with an ellipsis.
        status.no_wrap, status.overflow = True, "ellipsis"
        body = Text()
        full = self.full()
        pending = self.offers()
        if self.own is not None and full is not None:
            head = (_("Your own roll (the GM approves it first)") if full.settings.seats_own_rolls == "approve"
                    else _("Your own roll"))
            body.append(head + "\n", style="bold")
            body.append_text(own_lines(full, self.cid, self.own, self.edge_before, styles))
        elif offer is not None and full is not None:
            shown = next((o for o in pending if o["seq"] == offer.seq), None)
            n = len(pending)
            which = {"i": self.offer_index % n + 1, "n": n}
            if offer.test == seat_rolls.DEFEND_TEST:
                head = (_("An attack on you: defend ({i} of {n}, tab: next)", **which) if n > 1
                        else _("An attack on you: defend"))
            else:
                head = (_("The GM asks you to roll ({i} of {n}, tab: next)", **which) if n > 1
                        else _("The GM asks you to roll"))
            body.append(f"{head}\n", style="bold")
            body.append_text(offer_lines(full, offer, shown, self.edge_before, styles))
        elif self.answer is not None and self.roll_actions():
            for i, a in enumerate(self.roll_actions()):
                mark = "•" if a.get("allowed") else "·"
                name = ACTION_NAMES.get(str(a.get("name")), str(a.get("name")))
                edge = f" '{a['edge']}'" if a.get("edge") else ""
                body.append(("\n" if i else "") + f"{mark} {name}{edge}: {tell(a.get('words'), str(a.get('reason', '')))}",
                            style="" if a.get("allowed") else muted)
        else:
            body.append(_("No roll asked of you now. When the GM asks, it shows here."), style=muted)
            ready = sum(1 for r in self.own_rolls() if r.allowed)
            if ready:
                body.append("\n" + ngettext("o  a roll of your own: {n} open now", "o  a roll of your own: {n} open now",
                                             ready), style=accent)
        return sheet, status, body


ACTION_NAMES = {"edge_after": "e  Edge after", "negate_glitch": "g  negate glitch",
                "reduce_critical": "c  reduce critical", "edge_reroll": "x  edge reroll"}


def told_answer(ans: Mapping[str, Any]) -> str:
    """An answer's line in the reader's language: its words (the GM's app's catalogue message and values), else
    its text (translated when the catalogue has it as it is)."""
    return tell(ans.get("words"), str(ans.get("text", "")))


def sheet_line(ch: Mapping[str, Any], system: str, *, short: bool = False) -> Text:
    """The player's own character, from its public fields (``short``: the resources only, while a roll waits)."""
    t = Text()
    t.append(str(ch.get("name", "")), style="bold")
    if ch.get("player"):
        t.append(f" ({ch['player']})")
    if system == "shadowrun":
        attrs = ch.get("attributes", {})
        t.append(" · " + _("Edge {edge}/{rating} · physical {physical} · stun {stun}", edge=ch.get('edge', 0),
                       rating=ch.get('edge_rating', 0), physical=ch.get('physical', 0), stun=ch.get('stun', 0)))
        if short:
            return t
        t.append("\n")
        t.append(" ".join(f"{k[:3].capitalize()} {v}" for k, v in attrs.items()))
        skills = ch.get("skills", {})
        if skills:
            t.append("\n" + ", ".join(f"{k} {v}" for k, v in skills.items()))
    elif system == "harhapolku":
        edges = ch.get("edges", [])
        if edges:
            t.append(" · " + _("edges: {edges}", edges=", ".join(_("{edge} (used)", edge=e["name"]) if e.get("used")
                                                                 else str(e["name"]) for e in edges)))
        if short:
            return t
        t.append("\n" + ", ".join(f"{b['name']} ({b.get('tier', '')})" for b in ch.get("backgrounds", [])))
    else:
        t.append(" · " + _("{wound} · charges {charges}/{most} · story points {points}", wound=wound_label(ch.get('wound', '')),
                       charges=ch.get('charges', 0), most=ch.get('charges_max', 0), points=ch.get('story_points', 0)))
        if short:
            return t
        t.append("\n" + ", ".join(str(b) for b in ch.get("backgrounds", [])))
    return t


def _hit_odds(at_least: Iterable[float]) -> str:
    """``hits ≥1 96.1% ≥2 80.5% …``: the chance of at least k hits, as one sentence in the language in use."""
    return _("hits {odds}", odds=" ".join(f"≥{k} {percent(p)}" for k, p in enumerate(at_least, 1)))


def offer_lines(full: Tracker, offer: seats.Offer, shown: seats.PublicOffer | None, edge_before: bool,
                styles: dict[str, str]) -> Text:
    """The requested pool and its odds (the seat module computes them; only formatting here)."""
    muted = styles.get("muted", "")
    t = Text()
    if offer.test == seat_rolls.DEFEND_TEST:
        return defence_lines(full, offer, edge_before, styles)
    try:
        odds = seats.offer_odds(full, offer, edge_before=edge_before)
    except (TrackerError, RulesError, KeyError) as e:  # a pool the character can no longer roll (a skill removed)
        t.append(_("this request cannot be rolled now: {reason}", reason=e), style=styles.get("error", ""))
        return t
    for line in odds.explain:
        t.append(line_text(line) + "\n")
    if offer.test == "sr-success":
        if shown is not None and shown.get("threshold") is not None:
            t.append(_("threshold {threshold}: success {percent}", threshold=shown['threshold'], percent=percent(odds.success or 0.0)) + "\n", style="bold")
        elif shown is not None and shown["hidden"]:
            t.append(_("the GM keeps the threshold hidden") + "\n", style="bold")
        t.append(_hit_odds(odds.at_least) + "\n")
        t.append(_("mean {mean} hits · glitch {glitch} · critical {critical}", mean=decimal(odds.expected or 0, 1),
                   glitch=percent(odds.glitch or 0), critical=percent(odds.critical_glitch or 0)) + "\n", style=muted)
        acts = seats.offer_choices(full, offer)
        if edge_before:
            t.append(_("✦ Edge before the roll: on (e: off)") + "\n", style=styles.get("accent", ""))
        elif acts:
            a = acts[0]
            why = tell(words_of(a.reason), a.reason)
            t.append((_("e  Edge before: {reason}", reason=why) if a.allowed else _("·  Edge before: {reason}", reason=why)) + "\n",
                     style="" if a.allowed else muted)
    elif offer.test == "raja":
        label = str(shown["opposition"].get("label", "the GM")) if shown is not None else "the GM"
        t.append(ngettext("against {label}: {n} die", "against {label}: {n} dice", odds.against or 0, label=label) + "\n")
        t.append(_("you win {win} · full tie {tie}", win=percent(odds.success or 0.0), tie=percent(odds.tie or 0.0)) + "\n", style="bold")
        t.append(_("r roll (the program's dice) · f your own dice; the GM's side is the program's (R5)"),
                 style=styles.get("accent", ""))
        return t
    else:
        what = _("very demanding (two 7+ dice)") if offer.very_demanding else _("difficult (one 7+ die)")
        t.append(_("{what}: success {percent}", what=what, percent=percent(odds.success or 0.0)) + "\n", style="bold")
    t.append(_("r roll (the program's dice) · f your own dice"), style=styles.get("accent", ""))
    return t


def defence_lines(full: Tracker, offer: seats.Offer, edge_before: bool, styles: dict[str, str]) -> Text:
    """An attack made at the player's character: their defence and its odds (the seat module computes them)."""
    t = Text()
    try:
        odds = seat_rolls.defence_odds(full, offer, edge_before=edge_before)
    except (TrackerError, RulesError, KeyError) as e:
        t.append(_("this request cannot be rolled now: {reason}", reason=e), style=styles.get("error", ""))
        return t
    label = str(offer.opposition.get("label", ""))
    t.append(_("{attacker} attacks you: {n} dice", attacker=label, n=odds.against or 0) + "\n")
    for line in odds.explain:
        t.append(line_text(line) + "\n")
    if odds.success is not None:
        t.append(_("the attack misses or stalls: {percent}", percent=percent(odds.success)) + "\n", style="bold")
    acts = seat_rolls.offer_choices(full, offer)
    if edge_before:
        t.append(_("✦ Edge before the roll: on (e: off)") + "\n", style=styles.get("accent", ""))
    elif acts:
        a = acts[0]
        why = tell(words_of(a.reason), a.reason)
        t.append((_("e  Edge before: {reason}", reason=why) if a.allowed else
                  _("·  Edge before: {reason}", reason=why)) + "\n", style="" if a.allowed else styles.get("muted", ""))
    t.append(_("r defend (the program's dice) · f your own dice; the attacker's dice are thrown with yours (S9)"),
             style=styles.get("accent", ""))
    return t


def own_lines(full: Tracker, cid: str, own: seat_rolls.OwnRoll, edge_before: bool, styles: dict[str, str]) -> Text:
    """A roll of the player's own: what it is, its dice and odds (the seat module computes them)."""
    muted = styles.get("muted", "")
    t = Text()
    t.append(own.told()[0] + "\n")
    try:
        odds = seat_rolls.own_odds(full, cid, own, edge_before=edge_before)
    except (TrackerError, RulesError, KeyError) as e:
        t.append(_("this roll cannot be made now: {reason}", reason=e), style=styles.get("error", ""))
        return t
    if not own.plain:
        for line in odds.explain:
            t.append(line_text(line) + "\n")
    if own.test in ("raja-challenge", "raja-spirit"):
        t.append(_("you win {win} · full tie {tie}", win=percent(odds.success or 0.0), tie=percent(odds.tie or 0.0)) + "\n",
                 style="bold")
        t.append(_("r roll (the program's dice) · f your own dice; the other side is the program's (R5)"),
                 style=styles.get("accent", ""))
        return t
    if own.test == "harha-difficult":
        t.append(_("{what}: success {percent}", what=_("difficult (one 7+ die)"), percent=percent(odds.success or 0.0))
                 + "\n", style="bold")
        t.append(_("r roll (the program's dice) · f your own dice · o another roll"), style=styles.get("accent", ""))
        return t
    t.append(_hit_odds(odds.at_least) + "\n")
    t.append(_("mean {mean} hits · glitch {glitch} · critical {critical}", mean=decimal(odds.expected or 0, 1),
               glitch=percent(odds.glitch or 0), critical=percent(odds.critical_glitch or 0)) + "\n", style=muted)
    if edge_before:
        t.append(_("✦ Edge before the roll: on (e: off)") + "\n", style=styles.get("accent", ""))
    elif own.edge:
        t.append(_("e  Edge before the roll (S7)") + "\n", style=muted)
    t.append(_("r roll (the program's dice) · f your own dice · o another roll"), style=styles.get("accent", ""))
    return t


def run_seat(path: Path, cid: str, *, theme: str | None = None, follower: Follower | None = None) -> int:
    """Run a player's seat until they quit (q); ``follower``: the players' file as read already."""
    from .. import config

    config.use_language()  # the preference, POLKU_LANG, the locale
    app = SeatApp(path, cid, theme=theme, follower=follower)
    run_view(app)
    return app.return_code or 0


__all__ = ["SeatApp", "SeatPanel", "SeatScreen", "run_seat"]
