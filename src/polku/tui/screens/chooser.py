"""The first screen without a file: recent sessions, continue, new campaign, the demos."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.markup import escape
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option

import polku

from ...config import session_file_name
from ...i18n import N_, _, ngettext, retell
from ...rules.dice import RulesError
from ...rules.system import (
    CHOICES,
    RAJA_WOUND_LEVELS,
    Choice,
    Settings,
    System,
    allowed_text,
    campaign_choices,
    raja_wound_level,
)
from ...session import files, store
from ...session.files import SessionOpenError
from ...session.tracker import Tracker
from ..host import host
from ..widgets.keyline import KeyLine
from .prompts import ChoicePrompt, ConfirmPrompt, TextPrompt

DEMOS: tuple[tuple[str, str], ...] = (
    ("rajapolku", "Rajapolku"),
    ("harhapolku", "Harhapolku"),
    ("varjojuoksu", "Varjojuoksu (Shadowrun 4e)"),
)
"""(file suffix, title) of each shipped demo: ``demo-<suffix>.toml``."""


def shipped_sessions_dir() -> Path:
    """Where the demos ship: the repository's ``sessions/`` folder, or the
    copy inside an installed wheel (``polku/data/sessions``)."""
    repo = Path(polku.__file__).resolve().parents[2] / "sessions"
    if (repo / "demo-rajapolku.toml").exists():
        return repo
    return Path(polku.__file__).resolve().parent / "data" / "sessions"


def find_demo(sessions_dir: Path, suffix: str) -> Path | None:
    """``demo-<suffix>.toml`` in the sessions folder first, else in the shipped one."""
    for folder in (Path(sessions_dir), shipped_sessions_dir()):
        path = folder / f"demo-{suffix}.toml"
        if path.is_file():
            return path
    return None


def continuation_name(path: Path, session: int, folder: Path) -> str:
    """A fresh ``<stem>-s<N>.toml`` in ``folder`` for the session after ``session``."""
    stem = re.sub(r"-s\d+$", "", path.stem)
    n = session + 1
    while (folder / f"{stem}-s{n}.toml").exists():
        n += 1
    return f"{stem}-s{n}.toml"


def check_file_name(name: str, folder: Path) -> str | None:
    """One line on what is wrong with a new session file name, or None."""
    name = name.strip()
    if not name:
        return _("file name: write one, e.g. my-campaign.toml")
    if "/" in name or "\\" in name or name.startswith("."):
        return _("file name: a plain name without folders; it goes in {folder}", folder=folder)
    if not name.endswith(".toml"):
        name += ".toml"
    if (folder / name).exists():
        return _("file name: {name} already exists in {folder}; pick another", name=name, folder=folder)
    return None


def toml_name(name: str) -> str:
    name = name.strip()
    return name if name.endswith(".toml") else name + ".toml"


def show_value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


class _Opener:
    """Opening a file from a screen: lock, read-only offer, one-line errors."""

    app: Any

    def open_path(self, path: Path, *, read_only: bool = False) -> None:
        app = self.app
        gm = host(app)
        try:
            tracker, sf = files.open_session(path, read_only=read_only, clock=gm.clock, seed=gm.seed)
        except store.LockedError as e:
            def answered(yes: bool | None) -> None:
                if yes:
                    self.open_path(path, read_only=True)

            app.push_screen(ConfirmPrompt(_("{holder} — open it read-only instead?", holder=escape(e.holder_text))), answered)
            return
        except (SessionOpenError, store.StoreError) as e:
            app.notify(str(e), severity="error", title=_("Cannot open"), timeout=12)
            return
        _remember(app, path)
        gm.show_session(tracker, sf)


def _remember(app: Any, path: Path) -> None:
    if getattr(app, "remember", False):
        from ... import config

        config.remember_recent(str(Path(path).resolve()))


class ChooserScreen(_Opener, Screen[None]):
    """The recently opened files and the sessions folders' files, plus new / continue / demo.

    Args:
        sessions_dir: where new session files are made (and listed).
        recent: recently opened files (from the preferences), listed first wherever they are.
        also: more folders whose session files are listed (``sessions/`` in the working directory).
    """

    BINDING_GROUP_TITLE = N_("Sessions")

    BINDINGS = [
        Binding("enter", "open", N_("Open"), id="chooser.open", tooltip=N_("Open the highlighted session file")),
        Binding("n", "new_campaign", N_("New campaign"), id="chooser.new", tooltip=N_("Start a new campaign file")),
        Binding("c", "continue_campaign", N_("Next session"), id="chooser.continue",
                tooltip=N_("The highlighted campaign's next game session, in a new file (that file stays as it is)")),
        Binding("d", "demo", N_("Demo"), id="chooser.demo", tooltip=N_("Play a copy of a demo session")),
        Binding("q", "app.quit_app", N_("Quit"), id="chooser.quit", tooltip=N_("Quit Polku")),
    ]

    def __init__(self, sessions_dir: Path, *, recent: Sequence[Path] = (), also: Sequence[Path] = ()) -> None:
        super().__init__()
        self.sessions_dir = Path(sessions_dir)
        self.recent = [Path(p) for p in recent]
        self.also = [Path(p) for p in also]
        self.entries: list[tuple[Path, files.Peek]] = []
        """Each listed file with what :func:`files.peek` found (or its ``error``)."""
        self._peeked: dict[Path, tuple[tuple[int, int, int], files.Peek]] = {}
        """What each file held when it was last read, by its identity, size and time: a file is read again
        only when it changed (listing ten long campaigns took seconds each time the screen came back)."""

    def where_text(self) -> str:
        folders = [self.sessions_dir, *self.also]
        where = ", ".join(str(f) for f in folders)  # no word between them: the sentence is translated whole
        return (_("Recent files, then the session files in {folder}", folder=where) if self.recent
                else _("Session files in {folder}", folder=where))

    def listed_paths(self) -> list[Path]:
        """Recent files that still exist, then each folder's files (newest first), each file once."""
        seen: set[Path] = set()
        out: list[Path] = []
        candidates = [p for p in self.recent if p.is_file()]
        for folder in (self.sessions_dir, *self.also):
            candidates.extend(files.recent_sessions(folder))
        for path in candidates:
            try:
                key = path.resolve()
            except OSError:
                continue
            if key not in seen:
                seen.add(key)
                out.append(path)
        return out

    def shown_path(self, path: Path) -> str:
        """The file name, with its folder when it is not in the sessions folder (``~`` for home)."""
        if path.parent == self.sessions_dir:
            return path.name
        home = str(Path.home())
        text = str(path)
        return "~" + text[len(home):] if text.startswith(home + "/") else text

    def compose(self) -> ComposeResult:
        yield Static(_("Polku · choose a session"), id="chooser-title", classes="screen-title")
        yield Static(self.where_text(), id="chooser-where", markup=False)
        yield Static(_("Enter: open · c: the next session, in a new file (this one stays as it is)"),
                     classes="form-hint", id="chooser-hint")
        yield OptionList(id="sessions")
        yield KeyLine()

    def on_mount(self) -> None:
        self.reload()
        self.query_one("#sessions", OptionList).focus()

    def on_screen_resume(self) -> None:
        self.reload()

    def reload(self) -> None:
        """List the folder again (a file may have been created or changed)."""
        self.entries = [(p, self.peek(p)) for p in self.listed_paths()]
        self.show_entries()

    def peek(self, path: Path) -> files.Peek:
        """What :func:`files.peek` says of ``path``, read again only if the file changed since."""
        try:
            st = path.stat()
        except OSError:
            return files.peek(path)  # gone meanwhile: peek says so
        key = (st.st_ino, st.st_size, st.st_mtime_ns)
        known = self._peeked.get(path)
        if known is not None and known[0] == key:
            return known[1]
        info = files.peek(path)
        self._peeked[path] = (key, info)
        return info

    def show_entries(self) -> None:
        """The list drawn from :attr:`entries` (at the screen's width), the highlight kept."""
        ol = self.query_one("#sessions", OptionList)
        keep = ol.highlighted
        options: list[Option] = []
        names = [info.name for _path, info in self.entries if info.error is None]
        for i, (path, info) in enumerate(self.entries):
            shared = info.error is None and names.count(info.name) > 1
            options.append(Option(self.entry_text(path, info, shared=shared), id=f"file:{i}"))
        if not options:
            options.append(Option(Text(_("No session files here yet."), style="dim"), id="empty", disabled=True))
        options.append(Option(Text(_("+ New campaign…  (n)")), id="action:new"))
        options.append(Option(Text(_("▶ Play a demo session…  (d)")), id="action:demo"))
        ol.set_options(options)
        if keep is not None and keep < len(options) and not options[keep].disabled:
            ol.highlighted = keep
        else:
            ol.highlighted = next((i for i, o in enumerate(options) if not o.disabled), None)

    def entry_text(self, path: Path, info: files.Peek, *, shared: bool = False) -> Text:
        """Two lines: name and system; file, position, size. ``shared``: another listed file has
        the same campaign name (a continued campaign, a copy), so the first line names the file too."""
        width = max(40, self.size.width - 4)

        def indented(text: str) -> str:
            return "\n".join(textwrap.wrap(text, width, initial_indent="  ", subsequent_indent="  "))

        t = Text()
        if info.error is not None:
            t.append("✗ ", style="bold")
            t.append(self.shown_path(path), style="bold")
            t.append(_("  cannot be opened\n"))
            t.append(indented(info.error), style="dim")
            return t
        story, session, scene = info.where
        try:
            system = System(info.system).display_name
        except ValueError:
            system = info.system
        t.append(info.name, style="bold")
        if shared:
            t.append(_(" · {name} · session {session}", name=path.name, session=session), style="bold")
        t.append(f" · {system}\n")
        t.append(indented(_("{path} · story {story}, session {session}, scene {scene}", path=self.shown_path(path), story=story,
                            session=session, scene=scene)
                          + " · " + ngettext("{n} event", "{n} events", info.events)
                          + " · " + ngettext("{n} character", "{n} characters", info.characters)), style="dim")
        return t

    def on_resize(self) -> None:
        if self.entries:
            self.show_entries()

    def highlighted_entry(self) -> tuple[Path, files.Peek] | None:
        opt = self.query_one("#sessions", OptionList).highlighted_option
        if opt is None or not opt.id or not opt.id.startswith("file:"):
            return None
        return self.entries[int(opt.id[5:])]

    @on(OptionList.OptionSelected, "#sessions")
    def chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        oid = event.option.id or ""
        if oid == "action:new":
            self.action_new_campaign()
        elif oid == "action:demo":
            self.action_demo()
        else:
            self.action_open()

    def action_open(self) -> None:
        entry = self.highlighted_entry()
        if entry is None:
            return
        path, info = entry
        if info.error is not None:
            self.notify(info.error, severity="error", title=_("Cannot open"), timeout=12)
            return
        demo = files.demo_suffix(path)
        if demo is not None:
            # A shipped demo is played as a copy, so the demo itself stays as shipped.
            self.play_demo(demo, path)
            return
        self.open_path(path)

    def action_new_campaign(self) -> None:
        self.app.push_screen(NewCampaignScreen(self.sessions_dir))

    def action_continue_campaign(self) -> None:
        entry = self.highlighted_entry()
        if entry is None:
            self.notify(_("Highlight the session file to continue from (arrows), then press c"), severity="warning")
            return
        path, info = entry
        if info.error is not None:
            self.notify(info.error, severity="error", title=_("Cannot continue"), timeout=12)
            return
        folder = self.sessions_dir
        default = continuation_name(path, info.where[1], folder)

        def named(name: str | None) -> None:
            if not name:
                return
            new_path = folder / toml_name(name)
            app = self.app
            gm = host(app)
            try:
                tracker, sf = files.continue_campaign(path, new_path, clock=gm.clock, seed=gm.seed)
            except (SessionOpenError, store.StoreError) as e:
                app.notify(str(e), severity="error", title=_("Cannot continue"), timeout=12)
                return
            _remember(app, new_path)
            gm.show_session(tracker, sf)

        self.app.push_screen(TextPrompt(
            _("Continue “{name}” in a new file: its name", name=escape(info.name)), default,
            hint=_("Starts session {n} from the end of {file}; that file stays as it is.", n=info.where[1] + 1,
                   file=escape(path.name)),
            check=lambda s: check_file_name(s, folder)), named)

    def action_demo(self) -> None:
        found: list[tuple[str, str, Path]] = []
        for suffix, title in DEMOS:
            path = find_demo(self.sessions_dir, suffix)
            if path is not None:
                found.append((suffix, title, path))
        if not found:
            self.notify(_("No demo files (demo-<system>.toml) in {folder} or {shipped}", folder=self.sessions_dir,
                          shipped=shipped_sessions_dir()),
                        severity="warning", timeout=10)
            return
        sources = {s: p for s, _name, p in found}

        def picked(suffix: str | None) -> None:
            if suffix:
                self.play_demo(suffix, sources[suffix])

        self.app.push_screen(ChoicePrompt(_("Play a demo — you play a copy; the demo itself stays as shipped"),
                                          [(s, t) for s, t, _path in found]), picked)

    def play_demo(self, suffix: str, source: Path) -> None:
        """Open ``demo-<suffix>-play.toml``, copying the demo there first if needed."""
        target = files.play_copy_path(self.sessions_dir, suffix)
        if not target.exists():
            if self.copy_demo(source, target):
                self.open_path(target)
            return

        def answered(choice: str | None) -> None:
            if choice == "reuse":
                self.open_path(target)
            elif choice == "reset" and self.copy_demo(source, target):
                self.open_path(target)

        self.app.push_screen(ChoicePrompt(
            _("You have played this demo before ({file})", file=escape(target.name)),
            [("reuse", _("Go on where you left off")), ("reset", _("Start again from the shipped demo"))]), answered)

    def copy_demo(self, source: Path, target: Path) -> bool:
        """Copy atomically, refusing while another Polku has the copy open."""
        try:
            files.copy_demo(source, target)
        except store.LockedError as e:
            self.notify(_("{holder} — close it there first", holder=e.holder_text), severity="error", title=_("Demo in use"),
                        timeout=12)
            return False
        except store.StoreError as e:
            self.notify(str(e), severity="error", timeout=12)
            return False
        return True


class NewCampaignScreen(Screen[None]):
    """A new campaign file: system, name, file name and every rule choice of that system.

    Args:
        sessions_dir: where the file is created.
    """

    BINDING_GROUP_TITLE = N_("New campaign")

    BINDINGS = [
        Binding("escape", "cancel", N_("Back"), id="newcamp.back", tooltip=N_("Back to the session list; nothing is created")),
        Binding("ctrl+s", "create", N_("Create"), id="newcamp.create", tooltip=N_("Create the file and start playing")),
        Binding("space", "cycle(1)", N_("Change"), id="newcamp.next",
                tooltip=N_("Next value of the highlighted setting (Enter does the same)")),
        Binding("right", "cycle(1)", N_("Next value"), show=False, id="newcamp.right",
                tooltip=N_("Next value of the highlighted setting")),
        Binding("left", "cycle(-1)", N_("Previous value"), show=False, id="newcamp.left",
                tooltip=N_("Previous value of the highlighted setting")),
    ]

    def __init__(self, sessions_dir: Path) -> None:
        super().__init__()
        self.sessions_dir = Path(sessions_dir)
        self.system = System.RAJAPOLKU
        self.values: dict[str, Any] = {c.key: c.default for c in CHOICES}
        """Every setting's value, kept across system changes."""
        self.wound_track: list[str] = list(RAJA_WOUND_LEVELS)
        self._auto_file = ""

    def compose(self) -> ComposeResult:
        yield Static(_("Polku · new campaign"), classes="screen-title")
        with Horizontal(classes="form-row"):
            yield Label(_("Campaign"), classes="form-label")
            yield Input(placeholder="its name, e.g. The Kyiv Files", id="nc-name", compact=True)
        with Horizontal(classes="form-row"):
            yield Label(_("File"), classes="form-label")
            yield Input(placeholder=f"name.toml, created in {self.sessions_dir}", id="nc-file", compact=True)
        yield Static(_("Enter: next field, then create · Tab: settings · Enter/space/←→: change one"),
                     classes="form-hint")
        yield OptionList(id="nc-settings")
        yield Static("", id="nc-error", classes="dialog--error")
        yield KeyLine()

    def on_mount(self) -> None:
        self.render_rows()
        self.query_one("#nc-settings", OptionList).highlighted = 0
        self.query_one("#nc-name", Input).focus()

    # -- rows -------------------------------------------------------------------

    def choices(self) -> list[Choice]:
        """The settings of the chosen system, in docs/rules.md order."""
        return list(campaign_choices(self.system))

    def render_rows(self) -> None:
        ol = self.query_one("#nc-settings", OptionList)
        keep = ol.highlighted
        options = [Option(self._row(_("System"), "", self.system.display_name,
                                    _("Which rules: Rajapolku, Harhapolku or Varjojuoksu (Shadowrun 4e)")), id="system")]
        for c in self.choices():
            value = self.values[c.key]
            shown = show_value(value) + (_("  (default)") if value == c.default else _("  (default {value})", value=show_value(c.default)))
            options.append(Option(self._row(c.key, c.rule, shown, c.label), id=f"set:{c.key}"))
        if self.system is System.RAJAPOLKU:
            default = self.wound_track == list(RAJA_WOUND_LEVELS)
            options.append(Option(self._row(_("wound track"), "R9", ", ".join(self.wound_track) + (
                _("  (default)") if default else ""), _("3 to 7 levels of the R9 list, in its order (Enter edits)")),
                id="wound_track"))
        options.append(Option(Text(_("✓ Create the campaign and start playing  (ctrl+s)"), style="bold"), id="create"))
        ol.set_options(options)
        if keep is not None:
            ol.highlighted = min(keep, len(options) - 1)

    def _row(self, name: str, rule: str, value: str, label: str) -> Text:
        width = max(40, self.size.width - 4)
        t = Text()
        t.append(f"{rule:<6}", style="dim")
        t.append(f"{name:<22}", style="bold")
        t.append("\n".join(textwrap.wrap(value, width - 28, subsequent_indent=" " * 28)) or " ")
        for line in textwrap.wrap(label, width - 6):
            t.append(f"\n      {line}", style="dim")
        return t

    def on_resize(self) -> None:
        self.render_rows()

    def highlighted_row(self) -> str | None:
        opt = self.query_one("#nc-settings", OptionList).highlighted_option
        return opt.id if opt is not None else None

    @on(OptionList.OptionSelected, "#nc-settings")
    def row_chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id == "create":
            self.action_create()
        else:
            self.action_cycle(1)

    def action_cycle(self, delta: int) -> None:
        """Step the highlighted setting through its allowed values; ask for numbers."""
        rid = self.highlighted_row()
        if rid is None or rid == "create":
            return
        if rid == "system":
            systems = list(System)
            self.system = systems[(systems.index(self.system) + delta) % len(systems)]
        elif rid == "wound_track":
            self.edit_wound_track()
            return
        else:
            choice = next(c for c in CHOICES if c.key == rid[4:])
            if choice.allowed is None:
                self.edit_number(choice)
                return
            allowed = list(choice.allowed)
            current = self.values[choice.key]
            self.values[choice.key] = allowed[(allowed.index(current) + delta) % len(allowed)]
        self.render_rows()

    def edit_number(self, choice: Choice) -> None:
        from .settings import ask_number_setting

        def done(value: Any) -> None:
            self.values[choice.key] = value
            self.render_rows()

        ask_number_setting(self.app, choice, self.values[choice.key],
                           f"{choice.rule} {choice.key}: {escape(choice.label)}",
                           _("{allowed}; default {default}", allowed=retell(allowed_text(choice)), default=choice.default), done)

    def edit_wound_track(self) -> None:
        def parse(text: str) -> list[str] | str:
            """The levels as written (English, or the rule text's Finnish: "Terve, Haavoittunut, …"),
            each known by its R9 level; a name given in any case is kept as R9's English name."""
            names: list[str] = []
            levels: list[str] = []
            for part in text.split(","):
                if not part.strip():
                    continue
                written = " ".join(part.split())
                lvl = raja_wound_level(written)
                if lvl is None:
                    return _("'{name}' is not an R9 level", name=part.strip())
                names.append(lvl if written.casefold() == lvl.casefold() else written)
                levels.append(lvl)
            if not 3 <= len(levels) <= 7:
                return _("{n} levels; R9 allows 3 to 7", n=len(levels))
            idx = [RAJA_WOUND_LEVELS.index(lvl) for lvl in levels]
            if idx != sorted(set(idx)):
                return _("keep the R9 order, each level once")
            return names

        def done(text: str | None) -> None:
            if text is not None:
                result = parse(text)
                if isinstance(result, list):
                    self.wound_track = result
                    self.render_rows()

        self.app.push_screen(TextPrompt(
            _("R9 wound track: the levels in use, comma-separated"), ", ".join(self.wound_track),
            hint=_("from: {levels} (or the rule text's names: Terve, Mustelmilla, …)",
                   levels=", ".join(RAJA_WOUND_LEVELS)),
            check=lambda s: r if isinstance(r := parse(s), str) else None), done)

    # -- name and file -------------------------------------------------------------

    @on(Input.Changed, "#nc-name")
    def name_changed(self, event: Input.Changed) -> None:
        """The file name follows the campaign name until the GM edits it."""
        box = self.query_one("#nc-file", Input)
        if box.value in ("", self._auto_file):
            self._auto_file = session_file_name(event.value) if event.value.strip() else ""
            box.value = self._auto_file

    @on(Input.Submitted)
    def field_submitted(self, event: Input.Submitted) -> None:
        """Enter in the name goes on to the file name; Enter there creates the campaign with the
        settings shown (Tab goes to them). Before, it went on to the settings, and a third Enter
        changed the system without a word."""
        event.stop()
        if event.input.id == "nc-file":
            self.action_create()
        else:
            self.focus_next()

    # -- creating -------------------------------------------------------------------

    def error(self, text: str) -> None:
        self.query_one("#nc-error", Static).update(text)

    def action_create(self) -> None:
        app = self.app
        gm = host(app)
        name = self.query_one("#nc-name", Input).value.strip()
        if not name:
            self.error(_("campaign: write its name"))
            self.query_one("#nc-name", Input).focus()
            return
        file_name = self.query_one("#nc-file", Input).value.strip() or session_file_name(name)
        problem = check_file_name(file_name, self.sessions_dir)
        if problem:
            self.error(problem)
            self.query_one("#nc-file", Input).focus()
            return
        path = self.sessions_dir / toml_name(file_name)
        try:
            settings = Settings.from_dotted({c.key: self.values[c.key] for c in self.choices()})
            tracker = Tracker.new(self.system, name, settings=settings,
                                  wound_track=self.wound_track if self.system is System.RAJAPOLKU else None,
                                  clock=gm.clock, seed=gm.seed)
            sf = files.create_session(path, tracker)
        except (RulesError, SessionOpenError, store.StoreError) as e:
            self.error(str(e))
            return
        except OSError as e:
            # the OS's reason (strerror) as the OS gives it, in a whole sentence in the reader's language
            self.error(_("cannot create {path}: {reason}", path=path, reason=e.strerror or e))
            return
        _remember(app, path)
        app.pop_screen()
        gm.show_session(tracker, sf)

    def action_cancel(self) -> None:
        self.app.pop_screen()


__all__ = ["ChooserScreen", "NewCampaignScreen", "find_demo", "continuation_name", "shipped_sessions_dir"]
