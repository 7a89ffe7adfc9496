"""The Polku Textual app: builds screens from a tracker and a session file, autosaves."""

from __future__ import annotations

import os
import threading
import traceback
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, cast

from textual import on, work
from textual.app import App, SystemCommand
from textual.await_complete import AwaitComplete
from textual.binding import Binding
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.markup import escape
from textual.screen import Screen

from ..i18n import N_, _, ngettext, said, shown, tell, told_error
from ..rules.dice import RulesError
from ..session import store, telling
from ..session.commands import Command, command
from ..session.files import SessionFile
from ..session.model import Event
from ..session.players.players_file import PlayersFile
from ..session.tracker import Clock, Tracker, TrackerError
from .compat import CoveringScreens, refresh_truecolor_filter
from .limits import InputLimits
from .messages import (
    LanguageChanged,
    RunCommand,
    SaveFailed,
    SeatRequestsAnswered,
    SeatRequestsArrived,
    SeatRequestsTaken,
    SessionSaved,
    TrackerChanged,
)
from .render import plain_styles, styles_from_theme
from .typeahead import TypeAhead

if TYPE_CHECKING:
    from ..session.players.seats import Look, SeatAnswer, Taken


class PolkuCommands(Provider):
    """Palette commands: the calling screen's own keys, and on the GM's screen roll for X, start Y."""

    def _commands(self) -> list[tuple[str, Callable[[], Any], str]]:
        app = self.app
        assert isinstance(app, PolkuApp)
        out: list[tuple[str, Callable[[], Any], str]] = []
        from .keys import run_row, screen_keys
        from .screens.main import MainScreen

        screen = self.screen
        t = app.tracker
        if isinstance(screen, MainScreen) and t is not None:
            from .screens.roll import roll_screen_for

            def roll_for(tracker: Tracker, cid: str) -> None:
                app.push_screen(roll_screen_for(tracker, None, actor=cid))

            for cid, ch in t.characters.items():
                out.append((_("Roll: for {name}", name=ch['name']), partial(roll_for, t, cid),
                            _("Build a pool for {name} and roll", name=ch['name'])))
                out.append((_("Character: edit {name}", name=ch['name']), partial(screen.open_detail, cid),
                            _("Open the detail view")))
            from ..session.players import seats

            for offer in seats.pending_offers(t):
                who = t.characters[offer.cid]["name"] if offer.cid in t.characters else offer.cid
                out.append((_("Seat: take back the roll request to {name}", name=who),
                            partial(app.run_command, command("seats.withdraw", offer_seq=offer.seq)), offer.text))
            for taken in app.seat_waiting:
                who = t.characters[taken.cid]["name"] if taken.cid in t.characters else taken.cid
                out.append((_("Seat: approve {name}'s own roll", name=who), partial(app.decide_seat_roll, taken, True),
                            _("Apply it now, as the GM's own roll would be")))
                out.append((_("Seat: refuse {name}'s own roll", name=who), partial(app.decide_seat_roll, taken, False),
                            _("Tell the seat the GM said no; nothing is rolled")))
            for c in t.state["challenges"]:
                if c["status"] != "resolved":
                    out.append((_("Challenge: start {title}", title=c['title']),
                                partial(app.run_command, command("start_challenge", c["id"])), _("Make it the active challenge")))
            values = t.settings.to_dotted()
            for choice in t.setting_choices():
                value = values[choice.key]
                shown = _("yes") if value is True else _("no") if value is False else str(value)
                out.append((_("Setting: {key} = {value} ({rule})", key=choice.key, value=shown, rule=choice.rule),
                            partial(screen.action_settings, choice.key), _("{label} — key: S", label=choice.label)))
        out.extend(language_commands(app))
        for row in screen_keys(screen):
            if row.action in ("command_palette", "app.command_palette"):
                continue
            title = f"{row.group}: {row.title}"
            out.append((title if row.enabled else _("{what} (not now)", what=title),
                        partial(app.call_later, run_row, row), _("key: {keys}", keys=row.key_text)))
        return out

    async def discover(self) -> Hits:
        for title, cb, help_text in self._commands():
            yield DiscoveryHit(title, cb, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, cb, help_text in self._commands():
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, matcher.highlight(title), cb, help=help_text)


def language_commands(app: App[Any]) -> list[tuple[str, Callable[[], Any], str]]:
    """The palette's "Language / Kieli: suomi" for every language but the one in use.

    Named in both languages (and the language in its own name), so that whoever cannot
    read the one in use finds it: typing "kieli", "language", "suomi" or "english" does.
    """
    from .. import i18n

    in_use = i18n.language()
    switch = getattr(app, "switch_language", None)
    if switch is None:
        return []
    return [(f"Language / Kieli: {name}", partial(switch, lang), _("Speak {language} from now on (remembered)",
                                                                  language=name))
            for lang, name in i18n.LANGUAGES.items() if lang != in_use]


def _broken_line(problems: list[str], backup: Path | None) -> str:
    """The notification of a session file with broken events: the first problem, how many more, that the file is
    opened read-only and, when there is one, the previous good file; one whole sentence for each case."""
    more = len(problems) - 1
    if more and backup is not None:
        return ngettext("{problem} (and {n} more); opened read-only so nothing is written; the previous good file is "
                        "{path}", "{problem} (and {n} more); opened read-only so nothing is written; the previous good "
                        "file is {path}", more, problem=problems[0], path=backup)
    if more:
        return ngettext("{problem} (and {n} more); opened read-only so nothing is written",
                        "{problem} (and {n} more); opened read-only so nothing is written", more, problem=problems[0])
    if backup is not None:
        return _("{problem}; opened read-only so nothing is written; the previous good file is {path}",
                 problem=problems[0], path=backup)
    return _("{problem}; opened read-only so nothing is written", problem=problems[0])


def switch_language(app: App[Any], lang: str, *, remember: bool) -> None:
    """Speak ``lang`` in ``app`` from now on: every screen redraws its words, and (``remember``) the
    preference is saved for the next start."""
    from .. import i18n

    code = i18n.set_language(lang)
    if remember:
        from .. import config

        problem = config.remember_language(code)
        if problem is not None:
            app.notify(problem, severity="warning", markup=False)
    from .widgets.keyline import KeyLine

    for screen in app.screen_stack:
        screen.post_message(LanguageChanged())
        for line in screen.query(KeyLine):
            line.refresh()
        screen.refresh_bindings()


SEAT_SAFETY_LOOK = 2.0
"""Seconds between looks into the seats' spool even when the system reports changes."""
SEAT_POLL = 0.25
"""Seconds between looks into the spool where the system cannot report changes."""


class PolkuApp(TypeAhead, InputLimits, CoveringScreens):
    """Polku: run a tabletop session from one terminal window."""

    CSS_PATH = "app.tcss"
    TITLE = "Polku"
    COMMANDS = App.COMMANDS | {PolkuCommands}
    ENABLE_COMMAND_PALETTE = True

    BINDINGS = [
        # Priority, so that they work above the dialogs and the roll screens too; a text field
        # still takes a typed ``?`` (Textual gives it the keys it consumes), f1 works there too.
        Binding("question_mark,f1", "help", N_("Keys"), priority=True, id="app.help",
                tooltip=N_("Every key of this screen, and how a session runs")),
        Binding("ctrl+p", "command_palette", N_("Commands"), show=False, priority=True, id="app.palette",
                tooltip=N_("Find any action of this screen by name")),
        Binding("q", "quit_app", N_("Quit"), id="app.quit", tooltip=N_("Save and quit")),
        # Textual's ctrl+q (priority: it works in a text field too), made the same command as q.
        Binding("ctrl+q", "quit_app", N_("Quit"), show=False, priority=True, id="app.quit_anywhere",
                tooltip=N_("Save and quit")),
        Binding("ctrl+t", "pick_theme", N_("Theme"), show=False, id="app.theme", tooltip=N_("Switch the colour theme")),
        Binding("A", "approve_seat", N_("Approve"), show=False, id="app.approve_seat",
                tooltip=N_("Apply the oldest roll a player's seat made that waits for your approval")),
    ]

    def __init__(self, tracker: Tracker | None = None, session_file: SessionFile | None = None, *,
                 sessions_dir: Path | None = None, theme_dirs: Iterable[Path] | None = None,
                 remember: bool = True, clock: Clock | None = None, seed: int | None = None,
                 notices: Iterable[str] = (), theme: str | None = None,
                 more_sessions_dirs: Iterable[Path] = (), start_new: bool = False) -> None:
        super().__init__()
        self.start_new = start_new and tracker is None
        """Open on the new-campaign form (over the chooser, where Escape leads): ``polku new``."""
        self.tracker = tracker
        self.session_file = session_file
        self.sessions_dir = Path(sessions_dir) if sessions_dir else Path("sessions")
        self.more_sessions_dirs = [Path(p) for p in more_sessions_dirs]
        """Folders the chooser lists besides :attr:`sessions_dir` (``sessions/`` in the working directory)."""
        self.theme_dirs = list(theme_dirs) if theme_dirs is not None else None
        self.remember = remember
        self.clock = clock
        self.seed = seed
        self.save_state = N_("read-only") if (session_file is not None and session_file.read_only) else N_("saved")
        self._saving = False
        self._dirty = False
        self._replaced = False
        self._start_notices = list(notices)
        self._forced_theme = theme
        self._theme_ready = False
        self._apply_start_theme()
        self._check_hurry = threading.Event()
        self._seats_stop = threading.Event()
        self._seats_started = False
        self._spool_busy = False
        self._spool_again = False
        self._spool_problem = ""
        self._seat_problems: dict[str, str] = {}
        self.seat_waiting: list[Taken] = []
        """Own rolls of the seats that wait for the GM's approval (``seats.own_rolls = approve``), oldest first:
        the requests as taken (``seats.Taken``); their seats were told they wait, and each is held in its seat's
        folder (``seats.hold``) until decided, so it waits again when the app is next opened."""
        self._held_read = False
        self._players_problem = ""
        self._players: tuple[SessionFile, PlayersFile] | None = None
        self._players_whole = 0
        """How many times the players' file had been written whole at the last save's end."""
        self.unsaved_on_exit: str | None = None
        """Set when the app ended (not by q) with a save that failed: ``run_app`` prints it."""
        self.after_first_frame: list[Callable[[], Any]] = []
        """Called once the first frame is on screen (``run_app`` turns the garbage collector back on)."""

    # -- themes -------------------------------------------------------------------

    def get_theme_variable_defaults(self) -> dict[str, str]:
        from .themes import POLKU_VARIABLE_DEFAULTS

        return dict(POLKU_VARIABLE_DEFAULTS)

    def _theme_folders(self) -> list[Path]:
        from .. import config

        return list(self.theme_dirs) if self.theme_dirs is not None else config.themes_dirs()

    def _apply_start_theme(self) -> None:
        """Load only the theme to start with, and make it the app's before any CSS is parsed.

        Setting ``App.theme`` once the app runs re-parses every stylesheet and
        restyles every widget (and Textual's re-parse leaves its parse cache
        empty, so the next widget class parses everything once more). Here,
        in the constructor, nothing is parsed or mounted yet: the theme is set
        without its watcher, and what the watcher would do is done by hand
        (the CSS variables, the classes, the ANSI colour filter). The other
        theme files are loaded after the first frame (:meth:`_load_themes`).
        """
        from .. import config
        from .themes import BUNDLED_FALLBACK, load_theme_named

        folders = self._theme_folders()
        wanted = self._forced_theme
        if wanted is None and self.remember:
            wanted = config.load_config().get("theme")
        wanted = wanted or BUNDLED_FALLBACK
        theme = load_theme_named(folders, wanted)
        if theme is None and wanted not in self.available_themes:
            wanted = BUNDLED_FALLBACK
            theme = load_theme_named(folders, wanted)
            if theme is None and wanted not in self.available_themes:
                wanted = "textual-dark"
        if theme is not None:
            self.register_theme(theme)
        self.set_reactive(App.theme, wanted)
        current = self.current_theme
        self.update_classes({**{name: False for name in self.classes if name.startswith("-theme-")},
                             f"-theme-{current.name}": True, "-dark-mode": current.dark,
                             "-light-mode": not current.dark}, update=False)
        refresh_truecolor_filter(self, self.ansi_theme)
        self.stylesheet.set_variables(self.get_css_variables())
        self._theme_ready = True

    def _load_themes(self) -> None:
        """Register every theme file (after the first frame) and report the broken ones."""
        from .themes import load_user_themes

        themes, errors = load_user_themes(self._theme_folders())
        for theme in themes:
            if theme.name != self.theme:  # the active one is registered already, from the same file
                self.register_theme(theme)
        if errors:
            names = "; ".join(f"{p.name}: {msg}" for p, msg in errors)
            self.notify(ngettext("Skipped a broken theme file: {names}", "Skipped broken theme files: {names}",
                                 len(errors), names=names), severity="warning", timeout=10)

    def watch_theme(self, name: str) -> None:
        if self._theme_ready and self.remember:
            from .. import config

            config.remember_theme(name)
        screen = self.main_screen()
        if screen is not None:
            screen.restyle()

    def log_styles(self) -> dict[str, str]:
        try:
            variables = self.theme_variables
        except AttributeError:  # asked before App.__init__ has set the theme's variables
            variables = {}
        if getattr(self, "no_color", False) or os.environ.get("NO_COLOR"):
            return plain_styles()
        return styles_from_theme(variables)

    def action_pick_theme(self) -> None:
        self.action_change_theme()

    def switch_language(self, lang: str) -> None:
        """The palette's and the settings' language switch: at once, and remembered (unless the app
        remembers nothing, as in the tests)."""
        switch_language(self, lang, remember=self.remember)

    # -- the palette's system commands ------------------------------------------------

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """Textual's own palette commands, as far as they serve a GM, each working.

        The theme, the keys (help) and quit are Polku's own keys, which the palette
        lists already (:class:`PolkuCommands`); Textual's versions of them would be
        listed twice (the theme) or do something else (its "Keys" panel, which
        Escape does not close). Kept: maximizing the focused pane (Escape restores
        it) and a screenshot, saved where a folder exists.
        """
        if screen.maximized is not None:
            yield SystemCommand(_("Minimize"), _("Back to every pane (Escape does the same)"), screen.action_minimize)
        elif screen.focused is not None and screen.focused.allow_maximize:
            yield SystemCommand(_("Maximize"), _("The focused pane fills the screen; Escape restores it"),
                                screen.action_maximize)
        yield SystemCommand(_("Screenshot"), _("Save an SVG picture of the screen (in Downloads, else the working folder)"),
                            partial(self.call_after_refresh, self.action_save_screenshot))

    def action_save_screenshot(self) -> None:
        """Save an SVG picture of the screen in the user's Downloads folder, or else the working folder."""
        import platformdirs

        folder = platformdirs.user_downloads_path()
        if not folder.is_dir():
            folder = Path.cwd()
        try:
            saved = self.save_screenshot(path=str(folder))
        except OSError as e:
            # the OS's reason (strerror) as the OS gives it, in a whole sentence in the reader's language
            self.notify(_("No screenshot: cannot write in {folder}: {reason}", folder=folder, reason=e.strerror or e), severity="error",
                        title=_("Screenshot"), timeout=10)
            return
        self.notify(_("Saved {saved}", saved=saved), title=_("Screenshot"), timeout=8)

    # -- lifecycle -----------------------------------------------------------------

    def on_mount(self) -> None:
        self.call_after_refresh(self._first_frame_shown)
        self.call_after_refresh(self._load_themes)
        for note in self._start_notices:
            self.notify(shown(note), severity="warning", timeout=10)
        if self.tracker is not None:
            self._session_shown(self.tracker, self.session_file)  # its screen is the default screen
        else:
            from .screens.chooser import ChooserScreen, NewCampaignScreen

            self.push_screen(ChooserScreen(self.sessions_dir, recent=self.recent_files(),
                                           also=self.more_sessions_dirs))
            if self.start_new:
                self.push_screen(NewCampaignScreen(self.sessions_dir))

    def recent_files(self) -> list[Path]:
        """The recently opened files from the preferences (none when nothing is remembered)."""
        if not self.remember:
            return []
        from .. import config

        return [Path(p) for p in config.load_recent()]

    def get_default_screen(self) -> Screen[Any]:
        """The main screen, when the app starts with a session; else Textual's blank screen.

        As the default screen, the main screen is composed while the app starts,
        as a bare app's widgets are, and painted once when the app is ready.
        Pushed from ``on_mount`` instead, it was laid out and painted while the
        app was still starting (a frame Textual throws away), then painted again.
        """
        if self.tracker is None:
            return super().get_default_screen()
        from .screens.main import MainScreen

        self._set_session(self.tracker, self.session_file)
        return MainScreen(self.tracker)

    def _first_frame_shown(self) -> None:
        hooks, self.after_first_frame = self.after_first_frame, []
        for hook in hooks:
            hook()

    def _set_session(self, tracker: Tracker, session_file: SessionFile | None) -> None:
        self.tracker = tracker
        self.session_file = session_file
        self.save_state = N_("read-only") if (session_file is None or session_file.read_only) else N_("saved")

    def show_session(self, tracker: Tracker, session_file: SessionFile | None) -> None:
        from .screens.main import MainScreen

        self._set_session(tracker, session_file)
        self.push_screen(MainScreen(tracker))
        self._session_shown(tracker, session_file)

    def _session_shown(self, tracker: Tracker, session_file: SessionFile | None) -> None:
        """Notices, the first autosave and the background check, once the main screen is up."""
        if session_file is not None:
            for note in session_file.notices:
                self.notify(shown(note), severity="warning", timeout=10)
            if not session_file.read_only:
                self.call_after_refresh(self.request_save)
                self.call_after_refresh(self._start_seats)
        if isinstance(tracker.events, store.EventLog) and len(tracker.events):
            # Started once the first frame is on screen (a thread and its pool
            # need not be made before it).
            self.call_after_refresh(self._start_check_log, tracker.events)

    def _start_check_log(self, events: store.EventLog) -> None:
        self._check_log(events)

    @work(thread=True, group="check-log", exit_on_error=False)
    def _check_log(self, events: store.EventLog, first_frame: threading.Event | None = None) -> None:
        """Parse every old event in the background; a broken one stops writing.

        It starts after the first frame, keeps no parsed event unless the app
        writes the players' file (which parses and keeps them all anyway), and
        pauses between slices of ~2 ms so keys are answered at once while it
        runs (it shares the GIL with the UI); quitting makes it hurry.
        """
        from ..session.model import validate_event

        if first_frame is not None:
            first_frame.wait(1.0)
        # What it parses is kept while the app writes the players' file: that projection parses every event too
        # and keeps them all (its copy of the log shares the parsed events), so one parse serves both.
        sf = self.session_file
        keep = sf is not None and not sf.read_only
        problems = events.check_all(validate_event, keep=keep, pause=0.002, hurry=self._check_hurry.is_set)
        if problems:
            self.call_from_thread(self._log_broken, problems)

    def _log_broken(self, problems: list[str]) -> None:
        sf = self.session_file
        bak = store.backup_path(sf.path) if sf is not None else None
        if sf is not None and not sf.read_only:
            sf.read_only = True
            if self.tracker is not None:
                self.tracker.read_only = True
            self._set_save_state(N_("read-only: broken event in file"))
        self.notify(_broken_line(problems, bak if bak is not None and bak.exists() else None),
                    severity="error", title=_("Damaged session file"), timeout=30)

    def pop_screen(self) -> AwaitComplete:
        """Pop the top screen, never the last one.

        Keys reach a dialog in turn (:mod:`.typeahead`), so a dialog is dismissed once; should
        anything dismiss one a second time, that must not take the session's own screen with it
        (it ended the app with ``ScreenStackError: Can't pop screen``).
        """
        if len(self.screen_stack) <= 1:
            self.log.warning("pop_screen with one screen left: ignored")
            done: AwaitComplete = AwaitComplete.nothing()  # type: ignore[no-untyped-call]  # untyped in Textual
            return done
        return super().pop_screen()

    def main_screen(self) -> Any:
        from .screens.main import MainScreen

        for screen in reversed(self.screen_stack):
            if isinstance(screen, MainScreen):
                return screen
        return None

    # -- commands -------------------------------------------------------------------

    def run_command(self, command: Command, origin: Any = None) -> Any:
        """Run a tracker command, tell every screen (one TrackerChanged each), autosave.

        The app's own callers (the palette, the seats' requests) use it; a screen posts a
        :class:`RunCommand` instead. Returns what the command returned (or its last event),
        None when it failed: errors become one line.
        """
        done = self._run(command, origin)
        if done is None:
            return None
        result, new = done
        return result if result is not None else (new[-1] if new else None)

    @on(RunCommand)
    def _run_requested(self, message: RunCommand) -> None:
        done = self._run(message.command, message.origin)
        then = message.then
        if done is None or then is None:
            return

        def reply() -> None:
            # Whatever the reply returns is dropped: a screen's dismiss() must not be awaited
            # from the screen's own message handler.
            then(done[0])

        # Queued behind the origin's TrackerChanged: it replies to a screen that has redrawn.
        message.origin.call_later(reply)

    def _run(self, command: Command, origin: Any) -> tuple[Any, list[Event]] | None:
        if self.tracker is None:
            return None
        before = len(self.tracker.events)
        try:
            result = command.run(self.tracker)
        except (TrackerError, RulesError) as e:
            self.notify(str(e), severity="error", title=_("Not done"))
            return None
        except Exception as e:
            # Not a refusal but a fault in Polku: the tracker has rolled the command back. The one
            # place that catches it, so the GM sees what to report (CommandFailed) and the app goes on.
            self._command_failed(command, e)
            if len(self.tracker.events) > before:  # what a command of several calls made before it failed
                self._tell(self.tracker.events[before:], origin)
            return None
        new = self.tracker.events[before:]
        self._tell(new, origin)
        return result, new

    def _tell(self, new: list[Event], origin: Any) -> None:
        if new:
            for screen in self.screen_stack:
                screen.post_message(TrackerChanged(new, origin))
        self.request_save()

    def _command_failed(self, command: Command, exc: Exception) -> None:
        from .screens.failure import CommandFailed, failure_report

        sf = self.session_file
        self.log.error(f"command {command!r} failed:\n" + "".join(traceback.format_exception(exc)))
        self.push_screen(CommandFailed(failure_report(exc, repr(command), sf.path if sf is not None else None)))

    # -- players' seats ------------------------------------------------------------------

    def _start_seats(self) -> None:
        """Pick up the seats' requests: at once, whenever the spool changes, and every few seconds."""
        from ..session.players import seats

        sf = self.session_file
        if sf is None or sf.read_only or self._seats_started:
            return
        self._seats_started = True
        try:
            # Only the spool folder, which the watch below needs: a seat makes its own
            # character's folder when it opens (``SeatApp.watched_folders``), long before
            # its first request, so no folder is left for a character without a seat.
            root = seats.prepare_spool(sf.path, [])
        except (OSError, seats.SpoolError) as e:
            # the OS's reason (strerror) as the OS gives it, in a whole sentence in the reader's language
            reason = str(e) if isinstance(e, seats.SpoolError) else (e.strerror or str(e))
            self.notify(_("Players' seats are off: {reason}", reason=reason), severity="warning", title=_("Seats"), timeout=10,
                        markup=False)
            return
        # A plain thread, not a worker: it runs as long as the app, and waiting for the
        # workers (quitting, the tests' settling) must not wait for it.
        threading.Thread(target=self._follow_seats, args=(root,), name="polku-seats", daemon=True).start()
        self.set_interval(SEAT_SAFETY_LOOK, self.pick_up_requests, name="seat-spool")
        self.pick_up_requests()

    def _follow_seats(self, root: Path) -> None:
        from ..session.players.watching import follow

        def changed(paths: set[str]) -> None:
            if not paths or any(Path(p).name.startswith("req-") or Path(p).parent == root for p in paths):
                self.post_message(SeatRequestsArrived())

        follow([root], changed, self._seats_stop, recursive=True, interval=SEAT_POLL)

    @on(SeatRequestsArrived)
    def _seat_requests(self) -> None:
        self.pick_up_requests()

    def pick_up_requests(self) -> None:
        """Look into the spool in a thread; the requests it took are applied here, on the UI thread.

        One look at a time: a change during a look asks for another once it ends.
        """
        sf, t = self.session_file, self.tracker
        if sf is None or t is None or sf.read_only or t.read_only:
            return
        if self._spool_busy:
            self._spool_again = True
            return
        self._spool_busy = True
        self._spool_again = False
        path = sf.path
        self.run_worker(partial(self._look_into_spool, path), thread=True, group="seat-spool",
                        exit_on_error=False)

    def _look_into_spool(self, path: Path) -> None:
        """Worker: take the waiting requests (reading nothing outside the spool), hand them to the UI thread."""
        from ..session.players import seats

        try:
            look = seats.take_requests(path)
        except OSError as e:
            # the OS's reason (strerror) as the OS gives it, in a whole sentence in the GM's language
            look = seats.Look(problem=_("the seats' folder cannot be read: {reason}", reason=e.strerror or e))
        if not self._held_read:
            # The first look: the own rolls that waited for the GM's approval when the app last ran (a quit or
            # a crash) wait again, before the new requests.
            self._held_read = True
            look.taken[:0] = seats.held_requests(path).taken
        self.post_message(SeatRequestsTaken(path, look))

    @on(SeatRequestsTaken)
    def _apply_requests(self, message: SeatRequestsTaken) -> None:
        from ..session.players import seat_rolls, seats

        look = message.look
        t = self.tracker
        if look.problem and look.problem != self._spool_problem:
            self.notify(_("Players' seats: {problem}", problem=look.problem), severity="warning", title=_("Seats"), timeout=10,
                        markup=False)
        self._spool_problem = look.problem
        self._seat_folder_problems(look)
        answers: list[tuple[str, SeatAnswer]] = []
        holds: list[Taken] = []
        released: list[tuple[str, str]] = []
        refused: dict[str, list[str]] = {}
        for taken in look.taken:
            if taken.request is None or t is None:
                answer: Any = seats.refusal(taken)
            elif seat_rolls.needs_approval(t, taken.request):
                answer = self._hold_for_approval(taken)
            else:
                answer = self.run_command(command("seat_rolls.answer", taken=taken))
            if not isinstance(answer, dict):
                continue
            answers.append((taken.cid, cast("SeatAnswer", answer)))  # made by seats or seat_rolls
            if answer.get("waiting"):
                holds.append(taken)
            elif taken.held:
                released.append((taken.cid, taken.rid))
            ch = t.characters.get(taken.cid) if t is not None else None
            # A folder that is no seat (no such character, or a secret one) is named as the folder.
            name = (_("{name}'s seat", name=ch["name"]) if ch is not None and not ch.get("secret")
                    else _("seat folder {folder}", folder=taken.cid))
            if answer.get("waiting"):
                self.notify(_("asks to roll: {what} — A approves (ctrl+p: refuse)", what=answer.get("what", "")),
                            title=escape(name), timeout=10, markup=False)
            elif answer.get("ok"):
                seq = answer.get("roll")
                line = telling.event_text(t.event_by_seq(seq)) if t is not None and isinstance(seq, int) else str(answer["text"])
                self.notify(line, title=escape(name), timeout=6, markup=False)
            else:
                refused.setdefault(name, []).append(tell(answer.get("words"), str(answer.get("text", ""))))
        for name, why in refused.items():
            line = (_("Refused: {reason}", reason=why[0]) if len(why) == 1 else
                    ngettext("Refused: {reason} ({n} request refused)", "Refused: {reason} ({n} requests refused)",
                             len(why), reason=why[0]))
            self.notify(line, title=escape(name), severity="warning", timeout=8, markup=False)
        self.run_worker(partial(self._write_answers, message.path, answers, look.more, holds, released), thread=True,
                        group="seat-spool", exit_on_error=False)

    def _hold_for_approval(self, taken: Taken) -> SeatAnswer:
        """An own roll under ``seats.own_rolls = approve``: checked now (refused at once, with its reason, if the
        character may not make it), else kept until the GM approves it (A) and answered that it waits."""
        from ..session.players import seat_rolls, seats

        t, request = self.tracker, taken.request
        assert t is not None and request is not None  # needs_approval said it is an own roll
        why = seat_rolls.check(t, taken.cid, request)
        if why:
            return seats.refusal(seats.Taken(taken.cid, taken.rid, None, why))  # its words, for the seat
        self.seat_waiting.append(taken)
        own = seat_rolls.find(t, taken.cid, request)
        return {"v": 1, "id": taken.rid, "ok": True, "waiting": True, "text": seat_rolls.WAITING, "what": own.told()[0]}

    def action_approve_seat(self) -> None:
        if self.seat_waiting:
            self.decide_seat_roll(self.seat_waiting[0], True)

    def decide_seat_roll(self, taken: Taken, approve: bool) -> None:
        """The GM approves (the roll is made now, checked again) or refuses a seat's own roll that waits."""
        from ..session.players import seat_rolls, seats

        if taken not in self.seat_waiting or self.session_file is None:
            return
        self.seat_waiting.remove(taken)
        answer: SeatAnswer
        if approve:
            got = self.run_command(command("seat_rolls.answer", taken=taken))
            if not isinstance(got, dict):
                answer = seats.refusal(seats.Taken(taken.cid, taken.rid, None, N_("the GM's app could not make it")))
            else:
                answer = cast("SeatAnswer", got)  # seat_rolls.answer's
                if not answer["ok"]:
                    self.notify(tell(answer.get("words"), answer["text"]), title=_("Not done"), severity="warning",
                                markup=False)
        else:
            answer = seats.refusal(seats.Taken(taken.cid, taken.rid, None, seat_rolls.REFUSED))
        self.run_worker(partial(self._write_decided, self.session_file.path, taken.cid, answer),
                        thread=True, group="seat-answer", exit_on_error=False)

    @staticmethod
    def _write_decided(path: Path, cid: str, answer: SeatAnswer) -> None:
        """Worker: the final answer to a roll that waited for the GM, over the one that said it waits."""
        from ..session.players import seats

        try:
            seats.write_answer(path, cid, answer)
        except (OSError, seats.SeatError):
            pass  # the seat keeps waiting; the command itself stands in the log
        seats.release(path, cid, str(answer.get("id", "")))

    def _seat_folder_problems(self, look: Look) -> None:
        """A seat whose requests the GM's app may not take (a group permission missing): one line to the GM
        naming the seat and what to fix, once; and to that seat, through the players' file, so it stops
        waiting. A problem gone at a later look is taken back."""
        now = {cid: text for cid, text in self._seat_problems.items() if cid not in look.looked}
        now.update(look.seat_problems)
        sf = self.session_file
        for cid, text in look.seat_problems.items():
            if self._seat_problems.get(cid) == text:
                continue
            self.notify(text, title=escape(self._seat_title(cid)), severity="warning", timeout=15, markup=False)
        self._seat_problems = now
        if sf is not None and self._players_file(sf).set_seat_problems(now):
            self.request_save()

    def _seat_title(self, cid: str) -> str:
        """A seat named for the GM: its character's, or the folder's when that is no seat (no such
        character, or a secret one)."""
        t = self.tracker
        ch = t.characters.get(cid) if t is not None else None
        return (_("{name}'s seat", name=ch["name"]) if ch is not None and not ch.get("secret")
                else _("seat folder {folder}", folder=cid))

    def _write_answers(self, path: Path, answers: list[tuple[str, SeatAnswer]], more: bool,
                       holds: list[Taken], released: list[tuple[str, str]]) -> None:
        """Worker: hold each own roll that waits for the GM's approval in its seat's folder (it outlives the app;
        one already held is written again, the same), release the held ones decided now, write each answer into
        its seat's folder, then let the next look begin."""
        from ..session.players import seats

        for taken in holds:
            if taken.request is None:  # never: only a checked own roll waits
                continue
            try:
                seats.hold(path, taken.cid, taken.request)
            except (OSError, seats.SeatError):
                pass  # it waits while the app runs; only a crash would lose it
        for cid, rid in released:
            seats.release(path, cid, rid)
        self.post_message(SeatRequestsAnswered(more, seats.deliver(path, answers)))

    @on(SeatRequestsAnswered)
    def _requests_answered(self, message: SeatRequestsAnswered) -> None:
        self._spool_busy = False
        for cid, text in message.lost.items():
            # The seat keeps waiting for this answer; the command itself stands in the log.
            self.notify(text, title=escape(self._seat_title(cid)), severity="warning", timeout=15, markup=False)
        if message.more or self._spool_again:
            self.pick_up_requests()

    # -- autosave ------------------------------------------------------------------------

    def request_save(self) -> None:
        """Save now in a worker; if a save is in flight, save again when it ends.

        The status line says "saved" only while every event is on disk: from the
        moment a command's events exist until their save has ended it says
        "saving…". A save that ends before the screen is next painted shows no
        "saving…" at all (both changes fall in one frame).
        """
        sf, t = self.session_file, self.tracker
        if sf is None or t is None or sf.read_only:
            return
        if self._saving:
            self._dirty = True
            self._set_save_state(N_("saving…"))
            return
        job = sf.snapshot(t)
        players = self._players_file(sf).snapshot(t)  # what is saved now, never what is still pending
        if job is None and players is None:
            return
        self._saving = True
        if job is not None:
            self._set_save_state(N_("saving…"))
        self._save_worker(sf, job, players)

    def _players_file(self, sf: SessionFile) -> PlayersFile:
        """The players' file of the session open now (what watch, the seats and serve read)."""
        if self._players is None or self._players[0] is not sf:
            self._players = (sf, PlayersFile(sf.path))
        return self._players[1]

    def all_saved(self) -> bool:
        """Every event of the session is on disk (no save in flight, nothing pending)."""
        t = self.tracker
        return not self._saving and not self._dirty and (t is None or (not t.unsaved and not t.needs_full_save))

    @work(thread=True, group="autosave", exit_on_error=False)
    def _save_worker(self, sf: SessionFile, job: Any, players: Any = None) -> None:
        try:
            if job is not None:
                sf.save(job)
        except store.StoreError as e:
            self.post_message(SaveFailed(str(e), job, e))
        except OSError as e:
            # The reason is the system's own words (e.strerror), inside a whole translated sentence.
            err = store.StoreError(said(N_("could not save {path}: {reason}"), path=str(sf.path),
                                        reason=e.strerror or str(e)), e.errno)
            self.post_message(SaveFailed(str(err), job, err))
        else:
            if players is not None:
                self._players_file(sf).write(players)  # after the session: never ahead of it
            self.post_message(SessionSaved(len(job.events) if job is not None else 0))

    @on(SessionSaved)
    def _saved(self, message: SessionSaved) -> None:
        self._saving = False
        self._after_saved()
        again, self._dirty = self._dirty, False
        t = self.tracker
        if t is not None and (t.unsaved or t.needs_full_save or again):
            # Events made while that save ran ("saving…" still), or the players' file asked for again.
            self.request_save()
        if not self._saving:
            self._set_save_state(N_("saved"))

    def _after_saved(self) -> None:
        sf = self.session_file
        self._replaced = False
        whole = self._players_file(sf).whole_writes if sf is not None else 0
        if whole != self._players_whole:
            # The players' projection of the whole session was just made (the app's first save, an undo):
            # out of the garbage collector's full passes, which walked it all (380 ms on a loaded machine)
            # at random saves. Collected first only the first time (one pause, right after opening).
            from .heap import freeze_heap, settle_heap

            (freeze_heap if self._players_whole else settle_heap)()
            self._players_whole = whole
        problem = self._players_file(sf).problem if sf is not None else ""
        if problem and problem != self._players_problem:
            self.notify(_("{problem}; the players' views show the last one written", problem=problem),
                        severity="warning", title=_("Players' file"), timeout=10, markup=False)
        self._players_problem = problem
        if sf is not None and sf.kept_aside is not None:
            self.notify(_("Saved your session as {name}; the other file is kept as {name2}", name=sf.path.name, name2=sf.kept_aside.name),
                        title=_("Saved"), timeout=15)
            sf.kept_aside = None

    @on(SaveFailed)
    def _save_failed(self, message: SaveFailed) -> None:
        self._saving = False
        self._dirty = False
        if self.tracker is not None and self.session_file is not None:
            self.session_file.give_back(self.tracker, message.job)
        self._report_save_error(message.error, message.exc)

    def _report_save_error(self, error: str, exc: BaseException | None, *, quitting: bool = False) -> None:
        """A short reason on the status line (it must fit); the whole line and what to do in a notification."""
        short, todo = store.save_advice(exc) if exc is not None else ("not saved", "press ctrl+s to try again")
        self._replaced = isinstance(exc, store.ReplacedError)
        self._set_save_state(f"save failed: {short}")
        if self._replaced:
            text = error
        elif quitting:
            text = _("{error} — not quitting, and your changes are kept in memory: {todo}, then press q again",
                     error=error, todo=todo)
        else:
            text = _("{error} — your changes are kept in memory: {todo}", error=error, todo=todo)
        self.notify(text, severity="error", title=_("Not saved"), timeout=20)
        self.log.error(text)

    def _set_save_state(self, text: str) -> None:
        self.save_state = text
        screen = self.main_screen()
        if screen is not None:
            screen.refresh_status()

    def save_sync(self) -> store.StoreError | None:
        """A final save on the UI thread (quitting). Returns the error, or None.

        A failed save keeps its events pending (``SessionFile.save_now``), so
        trying again later writes them.
        """
        sf, t = self.session_file, self.tracker
        if sf is None or t is None or sf.read_only:
            return None
        try:
            sf.save_now(t)
        except store.StoreError as e:
            return e
        except OSError as e:
            # the OS's reason (strerror) as the OS gives it, in a whole sentence in the reader's language
            return store.StoreError(said(N_("could not save {path}: {reason}"), path=str(sf.path), reason=str(e.strerror or e)),
                                    e.errno)
        self._players_file(sf).publish_now(t)
        if sf.kept_aside is not None:
            self._after_saved()
        return None

    def action_save(self) -> None:
        sf = self.session_file
        if self._replaced and sf is not None:
            # The GM has read that the file was replaced and asks to save anyway.
            sf.overwrite_replaced = True
            if self.tracker is not None:
                self.tracker.needs_full_save = True
        self.request_save()

    async def action_quit_app(self) -> None:
        self._check_hurry.set()
        self._seats_stop.set()
        await self.workers.wait_for_complete()
        err = self.save_sync()
        if err is not None:
            self._report_save_error(str(err), err, quitting=True)
            return
        self._close_waiting()
        if self.session_file is not None:
            self.session_file.close()
        self.exit()

    def _close_waiting(self) -> None:
        """Quitting: each seat's own roll still waiting for the GM's approval stays held in its seat's folder
        (``seats.hold``), and waits again for the GM's ``A`` when the app next opens this session."""
        self.seat_waiting = []

    async def action_quit(self) -> None:
        """Textual's own quit (ctrl+q, the palette) saves first, as q does."""
        await self.action_quit_app()

    def action_help(self) -> None:
        """Open the help on the current screen's keys; on the help itself, close it."""
        from .screens.help import HelpScreen

        if isinstance(self.screen, HelpScreen):
            self.screen.dismiss(None)
        elif not any(isinstance(s, HelpScreen) for s in self.screen_stack):
            # One help screen at a time, whatever opened it (a key, the palette, a dialog above it).
            self.push_screen(HelpScreen())

    def on_unmount(self) -> None:
        self._seats_stop.set()
        if self.session_file is not None:
            err = self.save_sync()
            if err is not None:
                self.unsaved_on_exit = told_error(err)
            self.session_file.close()

    BINDINGS.append(Binding("ctrl+s", "save", N_("Save"), show=False, id="app.save", tooltip=N_("Save now (autosave does this after every command)")))
