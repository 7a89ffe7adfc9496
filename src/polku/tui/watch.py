"""``polku watch FILE``: the players' read-only live view of a session.

It follows the players' file the GM's app writes beside the session on every save
(:class:`polku.session.players.players_file.Follower`), never the session file itself: the
operating system tells it when the file's folder changes (inotify, through
watchfiles: :func:`polku.session.players.watching.follow`; where that cannot work it
looks every ``interval`` seconds instead); when the file's identity, size or
modification time changed it reloads the file in a thread worker and shows the challenge queue, the characters' public status and the
dice log, as the GM's app projected them (:func:`polku.session.players.public.public_view`: no secret is in that file).
When the file disappears or breaks, the last good view stays on screen and
the status line says so.

Remote players connect with ``ssh -t HOST polku watch FILE`` (docs/remote-play.md),
often on a shared account, so the view offers only what a player needs — quit,
help, theme — and never writes a file: Textual's screenshot and key-panel
system commands are not in its palette, and the screenshot actions refuse.
"""

from __future__ import annotations

import gc
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.widgets import Static
from textual.widgets.option_list import Option

from ..i18n import N_, _
from ..session.model import Event
from ..session.players.players_file import Follower
from ..session.tracker import Tracker
from .heap import freeze_heap, settle_heap
from .review import ReadOnlyApp
from .widgets.dice_log import DiceLog
from .widgets.keyline import KeyLine
from .widgets.panes import ChallengeQueue, CharacterPane, TurnOrder, compose_panes


def _neutral_empty(pane: ChallengeQueue | CharacterPane, text: str, styles: dict[str, str]) -> None:
    """Replace a pane's GM hint ("press a to add one") by a line for players."""
    if pane.option_count == 1 and pane.get_option_at_index(0).id == "empty":
        pane.set_options([Option(Text(text, style=styles.get("muted", "")), id="empty", disabled=True)])


class FileChanged(Message):
    """Something changed in the session file's folder (or a polling tick came)."""


@dataclass
class Reloaded(Message):
    """The follower read the file (or found it missing or broken)."""

    changed: bool


class WatchScreen(Screen[None]):
    """Challenges and characters on the left, the dice log on the right."""

    DEFAULT_CSS = """
    WatchScreen #status-line { text-wrap: nowrap; text-overflow: ellipsis; }
    """

    BINDINGS = [
        Binding("1", "focus_pane('queue')", N_("Queue"), show=False, id="watch.focus_queue", tooltip=N_("Scroll the challenges")),
        Binding("2", "focus_pane('chars')", N_("Characters"), show=False, id="watch.focus_chars",
                tooltip=N_("Scroll the characters")),
        Binding("3", "focus_pane('log')", N_("Log"), show=False, id="watch.focus_log", tooltip=N_("Scroll the dice log")),
    ]

    def compose(self) -> ComposeResult:
        yield Static(id="status-line")
        log = DiceLog(id="log")
        log.page_follow = True
        yield from compose_panes(log, _("Dice log"))
        # One line of text: Textual's footer remounts a widget per key at every focus
        # change, and a player pasting "231" over and over grew the view by gigabytes.
        yield KeyLine(id="keys")

    def on_mount(self) -> None:
        self.query_one(DiceLog).focus()
        show = getattr(self.app, "show_view", None)
        if show is not None:
            show()

    def action_focus_pane(self, which: str) -> None:
        self.query_one({"queue": "#queue", "chars": "#chars", "log": "#log"}[which]).focus()


PLAYER_HELP = """\
The players' view of the session: it follows the GM's file as it is saved.
The GM's secrets are not here: notes, secret characters and the GM's own
rolls ("the GM rolls"), hidden thresholds.

  1 2 3          challenges · characters · dice log
  ↑ ↓ PgUp PgDn  move in the focused pane
  Enter          every die and number of the event under the cursor
  H              the dice commitment and revealed secrets in full
  ctrl+t         colour theme
  ctrl+p         the commands: Theme, Help, Quit
  ?              this help
  q              quit
"""


class PlayerHelp(ModalScreen[None]):
    """The players' keys (the view's only help; Escape, q or ? closes it)."""

    BINDINGS = [
        Binding("escape,q,question_mark", "close", N_("Close"), id="watch.help_close", tooltip=N_("Close the help")),
    ]

    DEFAULT_CSS = """
    PlayerHelp { align: center middle; }
    PlayerHelp > VerticalScroll { width: 78; max-width: 100%; height: auto; max-height: 100%;
                                  border: round $primary; background: $surface; padding: 0 1; }
    """

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(PLAYER_HELP)
        yield KeyLine()

    def action_close(self) -> None:
        self.dismiss(None)


class WatchApp(ReadOnlyApp):
    """``polku watch``: follow a session file and show what the players may see.

    Args:
        path: the session file.
        interval: seconds between looks at the file where the operating system
            cannot tell when it changes (no inotify).
        follower: a ready follower (tests inject one with a fixed clock).
        polling: look every ``interval`` seconds instead of being told (tests).
    """

    TITLE = "Polku watch"

    BINDINGS = ReadOnlyApp.BINDINGS + [
        Binding("question_mark", "help", N_("Help"), id="watch.help", tooltip=N_("The keys of the players' view")),
        Binding("H", "dice_proof", N_("Dice proof"), show=False, id="watch.dice_proof",
                tooltip=N_("The dice commitment and the revealed secrets in full, to check the dice")),
    ]

    def __init__(self, path: Path, *, interval: float = 0.3, follower: Follower | None = None,
                 theme: str | None = None, theme_dirs: Iterable[Path] | None = None,
                 polling: bool = False) -> None:
        super().__init__(theme=theme, theme_dirs=theme_dirs)
        self.path = Path(path)
        self.interval = interval
        self.polling = polling
        self.watch_mode = ""
        """How changes are noticed: "inotify" or "polling" (empty until watching starts)."""
        self._stop_watching = threading.Event()
        self.follower = follower or Follower(self.path)
        self._loading = False
        self._shown: Tracker | None = None
        self._told: str | None = None
        self._whole_reads = 0
        self._status_text: Text | None = None

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """Only what a player needs: no screenshot, no key panel, nothing that writes."""
        yield SystemCommand(_("Theme"), _("Change the colour theme"), self.action_change_theme)
        yield SystemCommand(_("Help"), _("The keys of the players' view"), self.action_help)
        yield SystemCommand(_("Quit"), _("Leave the players' view"), self.action_quit)

    def action_help(self) -> None:
        if not any(isinstance(s, PlayerHelp) for s in self.screen_stack):
            self.push_screen(PlayerHelp())

    def action_show_help_panel(self) -> None:
        self.action_help()

    def action_dice_proof(self) -> None:
        """The full commitment and the revealed secrets (the status line's 8 hex digits are a label)."""
        from .screens.dice_proof import DiceProof

        if not any(isinstance(s, DiceProof) for s in self.screen_stack):
            shown = self._shown
            self.push_screen(DiceProof(shown.state.get("dice") if shown is not None else None))

    def action_screenshot(self, filename: str | None = None, path: str | None = None) -> None:
        self.notify(_("The players' view never writes files"), severity="warning")

    def deliver_screenshot(self, *args: Any, **kwargs: Any) -> str | None:
        self.action_screenshot()
        return None

    def save_screenshot(self, *args: Any, **kwargs: Any) -> str:
        raise PermissionError(_("the players' view never writes files"))

    def on_mount(self) -> None:
        self.load_themes()
        self.follower.reload()
        self._whole_reads = self.follower.whole_reads
        self.push_screen(self.first_screen())
        # Collect once the first frame is up (a pause of its own before it, at 10,000 events), then let the
        # collector run again (``run_watch`` and ``run_seat`` keep it off until then, as ``run_app`` does).
        self.call_after_refresh(self._first_frame_shown)
        # A plain thread, not a worker: it runs as long as the app (waiting for the workers must not wait for it).
        threading.Thread(target=self._follow, name="polku-watch", daemon=True).start()
        # A safety net for file systems that do not report every change (network mounts).
        self.set_interval(max(self.interval, SAFETY_LOOK), self.tick, name="watch-file")

    def first_screen(self) -> Screen[Any]:
        return WatchScreen()

    gc_after_first_frame = False
    """Turn the garbage collector on once the first frame is on screen (:func:`run_view` turned it off)."""

    def _first_frame_shown(self) -> None:
        settle_heap()
        if self.gc_after_first_frame:
            gc.enable()

    def watched_folders(self) -> set[Path]:
        """The players' file's folder (and the session link's, when FILE is a symlink the GM may re-point)."""
        return {self.path.absolute().parent, self.follower.file.parent}

    def changed_paths(self, paths: set[str]) -> None:
        """Called by the watching thread: tell the UI when the players' file (or anything, when polling) changed."""
        names = {self.path.name, self.follower.file.name}
        if not paths or any(Path(p).name in names for p in paths):
            self.post_message(FileChanged())

    def _follow(self) -> None:
        from ..session.players.watching import follow

        def started(mode: str) -> None:
            self.watch_mode = mode
            self.post_message(FileChanged())  # what changed before the watches were set

        follow(sorted(self.watched_folders()), self.changed_paths, self._stop_watching, interval=self.interval,
               started=started, force_polling=self.polling)

    @on(FileChanged)
    def _file_changed(self) -> None:
        self.tick()

    def on_unmount(self) -> None:
        self._stop_watching.set()

    def tick(self) -> None:
        """Look at the file; reload it off the UI thread when it changed."""
        if self._loading or not self.follower.changed():
            return
        self._loading = True
        self._reload()

    @work(thread=True, exclusive=True, group="watch", exit_on_error=False)
    def _reload(self) -> None:
        changed = False
        try:
            changed = self.follower.update()
        finally:
            self.post_message(Reloaded(changed))

    @on(Reloaded)
    def _reloaded(self, message: Reloaded) -> None:
        self._loading = False
        if self.follower.whole_reads != self._whole_reads:
            self._whole_reads = self.follower.whole_reads
            freeze_heap()  # read whole again (a new GM's app, a compaction, an undo): its objects too
        self.show_view()
        if self.follower.changed():
            self.tick()  # it changed again while it was being read

    def restyle(self) -> None:
        self.show_view(force=True)

    def show_view(self, force: bool = False) -> None:
        """Put the follower's current view (or its problem) on screen."""
        watching = [s for s in self.screen_stack if isinstance(s, WatchScreen)]
        if not watching:
            return
        screen = watching[-1]  # the top one: the current screen when it is a WatchScreen
        if not screen.query("#status-line"):
            return  # not composed yet: its on_mount shows the view
        styles = self.log_styles()
        f = self.follower
        view = f.view.tracker if f.view is not None else None
        status = Text()
        if f.problem is not None:
            status.append(f" ⚠ {f.short_status()} ", style="bold reverse")
            if f.problem != self._told:
                self.notify(f.status(), title=_("Not live"), severity="warning", timeout=8)
        if view is not None:
            st = view.state["structure"]
            status.append(f" {view.state['campaign']['name']} ", style="bold")
            status.append(_("· scene {scene}", scene=st['scene']))
            if st.get("scene_title"):
                status.append(f": {st['scene_title']}")
            dice = view.state.get("dice")
            if dice:
                # The commitment's start; the log and the report show it whole.
                status.append(" · " + _("dice #{key} {commitment}", key=dice['key'], commitment=dice['commitment'][:8]), style=styles.get("muted", ""))
        if f.problem is None:
            status.append(f" · {f.status()}", style=styles.get("muted", ""))
        self._told = f.problem
        line = screen.query_one("#status-line", Static)
        if force or status != self._status_text:
            # One row high whatever it says: no layout pass (which repaints every scrollbar on the wire).
            line.update(status, layout=False)
            self._status_text = status
        if view is None or (view is self._shown and not force):
            return
        # The fight pane compares what it shows itself (the marker, wounds and turn order).
        for turns in screen.query("#turns").results(TurnOrder):  # a seat's screen has none
            turns.show(view, styles)
        old = self._shown
        now, before = view.state, (old.state if old is not None else None)
        # A pane is repainted only when what it shows changed: a players' view is often
        # a terminal over SSH, where every repainted line is bytes on the wire.
        if force or before is None or (now["challenges"], now["initiative"]) != (before["challenges"],
                                                                               before["initiative"]):
            queue = screen.query_one("#queue", ChallengeQueue)
            queue.show(view, styles)
            _neutral_empty(queue, _("No challenges yet"), styles)
        if force or before is None or now["characters"] != before["characters"]:
            chars = screen.query_one("#chars", CharacterPane)
            chars.show(view, styles)
            _neutral_empty(chars, _("No characters yet"), styles)
        self._show_log(screen.query_one(DiceLog), view, styles, force)
        self._shown = view

    def _show_log(self, log: DiceLog, view: Tracker, styles: dict[str, str], force: bool) -> None:
        old = self._shown
        new_seqs = _seqs(view.events)
        old_seqs = _seqs(old.events) if old is not None else None
        if (old is None or force or old_seqs != new_seqs[: len(old_seqs or [])]
                or old.state["campaign"] != view.state["campaign"]):
            log.set_events(view.events, system=view.system.value, is_undone=view.is_undone, styles=styles)
            return
        count = len(new_seqs) - len(old_seqs or [])
        flipped = tuple(sorted(old.undone ^ view.undone))
        log.events = view.events
        log.is_undone = view.is_undone
        if count or flipped:
            log.appended(count, changed_seqs=flipped)


def _seqs(events: Sequence[Event]) -> list[int]:
    """The events' numbers (a players' file's lines give theirs without being parsed)."""
    got = getattr(events, "seqs", None)
    return list(got) if isinstance(got, list) else [e["seq"] for e in events]


SAFETY_LOOK = 2.0
"""Seconds between looks at the file even when the operating system reports changes."""


def run_watch(path: Path, *, theme: str | None = None, interval: float = 0.3,
              follower_factory: Callable[[Path], Follower] | None = None) -> int:
    """Run the players' view until they quit (q)."""
    from .. import config

    config.use_language()  # the preference, POLKU_LANG, the locale
    follower = follower_factory(path) if follower_factory else None
    app = WatchApp(path, interval=interval, follower=follower, theme=theme)
    run_view(app)
    return app.return_code or 0


def run_view(app: WatchApp) -> None:
    """Run a players' view with the garbage collector off until its first frame is on screen.

    Reading a long session's players' file makes some 190,000 objects at once; with the collector
    on, every full pass before the first frame walked them all (a quarter of a second each on a
    loaded machine) and found nothing to free. The view turns it on again after the first frame.
    """
    was = gc.isenabled()
    app.gc_after_first_frame = was
    gc.disable()
    try:
        app.run()
    finally:
        if was:
            gc.enable()


__all__ = ["WatchApp", "WatchScreen", "Reloaded", "run_view", "run_watch"]
