"""The challenge queue / initiative pane and the character pane.

Both only render tracker state; every key they answer becomes a tracker
command in the screen.
"""

from __future__ import annotations

from typing import Any, Mapping, cast
from weakref import WeakKeyDictionary

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option, OptionDoesNotExist

from ...i18n import _, ngettext
from ...session.model import Challenge, condition_monitors
from ...session.records import Character, SRCharacter
from ...session.table.combat import effect_short
from ...session.telling import challenge_outcome
from ...session.tracker import Tracker
from ...text import kind_label, wound_label
from ..render import boxes, pips, short_name

STATUS_MARK = {"waiting": "○", "active": "▶", "resolved": "✓"}


def _key(option: Option) -> tuple[Any, ...]:
    prompt = option.prompt
    if isinstance(prompt, Text):
        return (option.id, option.disabled, prompt.plain, tuple(prompt.spans), str(prompt.style))
    return (option.id, option.disabled, prompt)


_shown_keys: WeakKeyDictionary[OptionList, list[tuple[Any, ...]]] = WeakKeyDictionary()
"""What each option list shows, by :func:`_key` of its options (kept beside the
widget, not set on it: an attribute of ours on a Textual widget could collide
with one of Textual's)."""


def sync_options(option_list: OptionList, options: list[Option]) -> bool:
    """Show ``options``, touching only what changed; True when the list was rebuilt.

    Rebuilding (``set_options``) resets the highlight and the scroll and repaints
    the pane; when the same options are shown again (most commands change one
    character at most) nothing is done, and changed prompts are replaced in place.
    """
    old = _shown_keys.get(option_list)
    new = [_key(o) for o in options]
    _shown_keys[option_list] = new
    if old is not None and len(old) == len(new) and all(a[:2] == b[:2] for a, b in zip(old, new)):
        changed = [i for i, (a, b) in enumerate(zip(old, new)) if a != b]
        for i in changed:
            option_list.replace_option_prompt_at_index(i, options[i].prompt)
        if changed and option_list.highlighted is not None:
            option_list.scroll_to_highlight()
        return False
    option_list.set_options(options)
    return True


def compose_panes(log: Widget, log_title: str, *, queue_title: str | None = None,
                  queue_title_id: str = "queue-title") -> ComposeResult:
    """The three panes of every view of a session (the GM's screen, review, the
    players' view): challenges and characters on the left, ``log`` on the right.
    The titles are in the language in use (``queue_title``: "Challenges" unless given)."""
    with Horizontal(id="panes"):
        with Vertical(id="left"):
            yield TurnOrder(id="turns", classes="-idle")
            yield Static(_("Challenges") if queue_title is None else queue_title, classes="pane-title",
                         id=queue_title_id)
            yield ChallengeQueue(id="queue")
            yield Static(_("Characters"), classes="pane-title", id="chars-title")
            yield CharacterPane(id="chars")
        with Vertical(id="right"):
            yield Static(log_title, classes="pane-title", id="log-title")
            yield log


class TurnOrder(Static):
    """The fight (S12): the combat turn and pass, the fighters in order, the marker on who acts.

    A plain text of its own, apart from the challenge queue, so that moving the
    marker redraws these few rows and never the queue (and no layout pass when
    the number of rows stays the same); hidden out of a fight.
    """

    DEFAULT_CSS = """
    TurnOrder { height: auto; max-height: 9; padding: 0 1; }
    TurnOrder.-idle { display: none; }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__("", id=id, classes=classes)
        self._shown: tuple[Any, ...] = ()

    def show(self, tracker: Tracker, styles: dict[str, str]) -> None:
        rows = turn_rows(tracker, styles)
        self.set_class(not rows, "-idle")
        key = tuple((r.plain, tuple(r.spans), str(r.style)) for r in rows)
        if key == self._shown:
            return
        grew = len(key) != len(self._shown)
        self._shown = key
        self.update(Text("\n").join(rows), layout=grew)

    @property
    def lines(self) -> list[str]:
        """The rows as shown, in plain text."""
        return [plain for plain, _, _ in self._shown]


class ChallengeQueue(OptionList):
    """Challenges waiting, the active one and resolved ones."""

    DEFAULT_CSS = """
    ChallengeQueue { height: auto; max-height: 40%; min-height: 3; }
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._rows: dict[tuple[Any, ...], Option] = {}
        """Each challenge's row by what it shows: a command that changes one challenge builds one row."""

    def _row(self, tracker: Tracker, c: Challenge, styles: dict[str, str]) -> Option:
        chars = tracker.characters

        def name(x: str) -> str:
            return chars[x]["name"] if x in chars else _("(removed)")

        key = (c["id"], c["status"], c["title"], challenge_outcome(c),
               tuple(name(x) for x in c.get("participants", [])), tuple(name(x) for x in c.get("opposition", [])),
               styles.get("accent", ""), styles.get("muted", ""))
        row = self._rows.get(key)
        if row is None:
            row = self._rows[key] = self._build_row(tracker, c, styles)
        return row

    def show(self, tracker: Tracker, styles: dict[str, str]) -> None:
        keep = self.highlighted_option.id if self.highlighted_option is not None else None
        options: list[Option] = [self._row(tracker, c, styles) for c in tracker.state["challenges"]]
        if len(self._rows) > 4 * len(options) + 64:
            live = {id(o) for o in options}
            self._rows = {k: v for k, v in self._rows.items() if id(v) in live}
        if not options:
            options.append(Option(Text(_("No challenges yet — press a to add one"), style=styles.get("muted", "")),
                                  id="empty", disabled=True))
        self._show_options(tracker, options, keep)

    @staticmethod
    def _build_row(tracker: Tracker, c: Challenge, styles: dict[str, str]) -> Option:
        t = Text()
        mark = STATUS_MARK.get(c["status"], "?")
        style = "bold" if c["status"] == "active" else (styles.get("muted", "") if c["status"] == "resolved" else "")
        t.append(f"{mark} ", style=styles.get("accent", "") if c["status"] == "active" else "")
        t.append(c["title"], style=style)
        if c["status"] == "resolved" and c.get("outcome"):
            t.append(f" — {challenge_outcome(c)}", style=styles.get("muted", ""))
        elif c.get("participants") or c.get("opposition"):
            chars = tracker.characters
            names = [chars[x]["name"] if x in chars else _("(removed)") for x in c.get("participants", [])]
            opp = [chars[x]["name"] if x in chars else _("(removed)") for x in c.get("opposition", [])]
            who = (_("{names} vs {opposition}", names=", ".join(names), opposition=", ".join(opp)) if opp
                   else ", ".join(names))
            if who:
                t.append(f"  ({who})", style=styles.get("muted", ""))
        return Option(t, id=f"ch:{c['id']}")

    def _show_options(self, tracker: Tracker, options: list[Option], keep: str | None) -> None:
        if not sync_options(self, options) and self.highlighted is not None:
            return
        if keep is not None:
            try:
                self.highlighted = self.get_option_index(keep)
            except OptionDoesNotExist:
                keep = None
        if keep is None and any(not o.disabled for o in options):
            active = next((i for i, o in enumerate(options) if o.id and o.id.startswith("ch:")
                           and tracker.challenge(o.id[3:])["status"] == "active"), None)
            waiting = next((i for i, o in enumerate(options) if o.id and o.id.startswith("ch:")
                            and tracker.challenge(o.id[3:])["status"] == "waiting"), None)
            self.highlighted = active if active is not None else (waiting if waiting is not None else 0)

    def selected_challenge_id(self) -> str | None:
        opt = self.highlighted_option
        if opt is None or not opt.id or not opt.id.startswith("ch:"):
            return None
        return opt.id[3:]


TURN_MARK = {"acting": "▶", "held": "‖", "acted": "✓", "waiting": "·", "out": " ", "down": "✗", "surprised": "!"}
"""The turn marker and each fighter's place in the pass (a glyph, never colour alone)."""


def turn_rows(tracker: Tracker, styles: dict[str, str]) -> list[Text]:
    """The fight: a headline, then the fighters in turn order with the marker on who acts."""
    combat = tracker.combat
    rows = combat.rows()
    if not rows and not combat.active:
        return []
    muted, accent = styles.get("muted", ""), styles.get("accent", "")
    head = Text("» ", style=accent)
    head.append(combat.headline() or _("Initiative"), style="bold")
    out = [head]
    if (block := combat.block) is not None and block.get("gm_turn"):
        # The players' view: a secret fighter acts; neither a row nor a name of theirs is shown.
        out.append(Text.assemble(("▶ ", accent), (_("the GM's turn"), "bold")))
    for r in rows:
        t = Text(no_wrap=True, overflow="ellipsis")
        t.append(f"{TURN_MARK[r.status]} ", style=accent if r.status in ("acting", "held") else "")
        t.append(" ? " if r.hidden else f"{r.current:>2} ", style="bold")
        t.append(short_name(r.name), style="bold" if r.status == "acting" else
                 (muted if r.status in ("acted", "out", "down", "surprised") else ""))
        extra = [r.condition.split(' (')[0]] if r.condition else []  # unconscious, dying, dead: skipped
        if r.status == "surprised":
            extra.append(_("surprised"))
        if r.kind == "astral":
            extra.append(_("astral"))
        elif r.kind == "matrix":
            extra.append(_("matrix"))
        if r.wound and not r.condition:
            extra.append(_("−{n} wounds", n=-r.wound))
        if r.passes != 1:
            extra.append(ngettext("{n} pass", "{n} passes", r.passes))
        if r.status == "held":
            extra.append(_("holding"))
        if extra:
            t.append("  " + ", ".join(extra), style=muted)
        out.append(t)
    return out


class CharacterPane(OptionList):
    """Every character with its system's status at a glance."""

    DEFAULT_CSS = """
    CharacterPane { height: 1fr; }
    """

    def show(self, tracker: Tracker, styles: dict[str, str]) -> None:
        keep = self.highlighted_option.id if self.highlighted_option is not None else None
        system = tracker.system.value
        options = [Option(character_text(tracker, ch, system, styles), id=cid)
                   for cid, ch in tracker.characters.items()]
        if not options:
            options.append(Option(Text(_("No characters yet — press c to add one"), style=styles.get("muted", "")),
                                  id="empty", disabled=True))
        if not sync_options(self, options) and self.highlighted is not None:
            return
        if keep is not None and keep in tracker.characters:
            self.highlighted = self.get_option_index(keep)
        elif self.highlighted is None and tracker.characters:
            self.highlighted = 0

    def selected_character_id(self) -> str | None:
        opt = self.highlighted_option
        if opt is None or opt.id in (None, "empty"):
            return None
        return opt.id


def character_text(tracker: Tracker, ch: Character, system: str, styles: dict[str, str]) -> Text:
    t = _character_text(tracker, ch, system, styles)
    for e in ch.get("effects", []):
        t.append(f"\n  ◌ {effect_short(e)}", style=styles.get("accent", ""))
    return t


def _character_text(tracker: Tracker, ch: Mapping[str, Any], system: str, styles: dict[str, str]) -> Text:
    t = Text()
    t.append(short_name(ch["name"]), style="bold")
    if ch.get("player"):
        t.append(f" ({ch['player']})", style=styles.get("muted", ""))
    elif ch["kind"] != "pc":
        t.append(f" [{kind_label(ch['kind']).upper()}]", style=styles.get("muted", ""))
    if ch.get("secret"):
        # Only the GM's panes ever hold a secret character (the players' view leaves it out).
        t.append(" [" + _("SECRET") + "]", style=styles.get("accent", ""))
    if system == "rajapolku":
        pen = tracker.wound_penalty(ch["id"])
        wound = wound_label(ch["wound"]) + (f" −{pen}d" if pen else "")
        t.append(f"  {wound}", style=styles.get("loss", "") if pen else "")
        t.append("\n  " + _("charges") + " ")
        t.append(pips(ch["charges"], ch["charges_max"]), style=styles.get("accent", ""))
        t.append(f" {ch['charges']}/{ch['charges_max']}")
        if ch["kind"] == "pc" or ch["story_points"]:
            t.append("  " + _("story {n}", n=ch['story_points']))
        if ch.get("health"):
            t.append(f"\n  {ch['health']}", style=styles.get("muted", ""))
    elif system == "harhapolku":
        edges = ch.get("edges", [])
        if edges:
            t.append("\n  " + _("edges") + " ")
            for i, e in enumerate(edges):
                if i:
                    t.append(" ")
                t.append(("○ " if e["used"] else "● ") + e["name"],
                         style=styles.get("muted", "") if e["used"] else styles.get("accent", ""))
        if ch.get("rolled_this_scene"):
            t.append("\n  " + _("rolled: {backgrounds}", backgrounds=", ".join(ch["rolled_this_scene"])),
                     style=styles.get("muted", ""))
    else:
        phys, stun = condition_monitors(cast(SRCharacter, ch))
        pen = tracker.wound_penalty(ch["id"])
        t.append("  " + _("Edge {edge}/{rating}", edge=ch['edge'], rating=ch['edge_rating']),
                 style=styles.get("accent", ""))
        if pen:
            t.append("  " + _("wounds −{n}", n=pen), style=styles.get("loss", ""))
        t.append("\n  " + _("P {boxes}", boxes=boxes(ch['physical'], phys)) + "\n  "
                 + _("S {boxes}", boxes=boxes(ch['stun'], stun)))
        down = tracker.damage.condition_words(ch["id"])
        if down:
            t.append(f"\n  {down}", style=styles.get("loss", ""))
    return t
