"""Turn log events and characters into Rich text for the panes.

Only formatting: every number shown here was computed by the rules core and
stored in the event. Ability dice differ by glyph (``✦``) as well as colour
(R7), rerolled dice show ``↻`` and what they replaced, exploded dice ``!``,
so the log reads the same with ``NO_COLOR``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.color import Color as RichColor
from rich.color import ColorParseError
from rich.text import Text

from .. import i18n, text
from ..i18n import N_
from ..rules.shadowrun import is_hit
from ..session import telling
from ..session.model import Event
from ..session.records import DieTable

SOURCE_MARK = text.SOURCE_MARK

SOURCE_NAME = {
    "action": N_("action die"),
    "die": N_("die"),
    "background": N_("background"),
    "condition": N_("condition"),
    "ability": N_("ability"),
    "edge": N_("Edge"),
    "gm": N_("GM bonus"),
    "charge": N_("spirit die (a charge left, R11)"),
    "skill": N_("pool"),
    "attribute": N_("pool"),
    "modifier": N_("modifier"),
    "helper": N_("teamwork"),
    "exploded": N_("rule of six"),
}
"""Where a logged die came from, in words (translated where shown)."""

MANUAL_MARK = "✍"
"""Before the dice of a roll whose faces were typed from physical dice. Every mark here is a glyph of
DejaVu Sans Mono, the font polku serve gives the browser (and a one-cell glyph in a terminal)."""

KIND_MARK = {
    "roll": "⚄",
    "resource": "◆",
    "reset": "↺",
    "wound": "✚",
    "structure": "§",
    "challenge": "▶",
    "character": "☺",
    "undo": "↶",
    "redo": "↷",
    "setting": "⚙",
    "note": "✎",
    "narration": "≡",
    "initiative": "⇅",
    "template": "❏",
    "combat": "»",
    "effect": "◌",
}


def styles_from_theme(variables: Mapping[str, str]) -> dict[str, str]:
    """Rich styles for the log, read from the theme's variables."""

    def v(name: str, fallback: str) -> str:
        value = variables.get(name, fallback) or fallback
        try:
            RichColor.parse(value)
        except ColorParseError:
            return fallback
        return value

    return {
        "ability": f"bold {v('ability-die', '#e0a0ff')}",
        "crit": f"bold {v('dice-crit', '#ff5555')}",
        "hit": f"bold {v('dice-hit', '#55dd55')}",
        "muted": v("text-muted", "#888888"),
        "win": f"bold {v('success', '#55dd55')}",
        "loss": f"bold {v('error', '#ff5555')}",
        "accent": f"bold {v('accent', '#ffaa00')}",
        "undone": f"strike {v('text-muted', '#888888')}",
        "time": v("text-muted", "#888888"),
    }


def plain_styles() -> dict[str, str]:
    """NO_COLOR: emphasis only; glyphs carry the meaning."""
    return {
        "ability": "bold", "crit": "bold underline", "hit": "bold", "muted": "", "win": "bold",
        "loss": "bold", "accent": "bold", "undone": "strike", "time": "",
    }


def die_text(d: DieTable, styles: Mapping[str, str], *, system: str = "", hit: bool = False) -> Text:
    face = d["face"]
    body = text.logged_die_text(d, system)
    style = styles.get("ability", "") if d.get("source", "die") == "ability" else ""
    if hit:
        style = style or styles.get("hit", "")
    if system == "shadowrun" and face == 1:
        style = styles.get("crit", "")
    return Text(body, style=style)


def dice_text(dice: Sequence[DieTable], styles: Mapping[str, str], *, system: str = "") -> Text:
    out = Text()
    for i, d in enumerate(dice):
        if i:
            out.append(" ")
        out.append_text(die_text(d, styles, system=system, hit=system == "shadowrun" and is_hit(d["face"])))
    return out


def event_line(ev: Event, styles: Mapping[str, str], *, system: str = "", undone: bool = False,
               names: Mapping[str, str] | None = None) -> Text:
    """The one compact line of an event.

    It starts with the event's number: in a players' view the number the projection gave it
    (``n``, over what the players see: :mod:`polku.session.players.public`), in the GM's its ``seq``.
    """
    kind = ev.get("kind", "")
    mark = KIND_MARK.get(kind, "·")
    line = Text()
    number = f"{ev.get('n', ev.get('seq', 0)):>4} "
    line.append(number, style=styles.get("muted", ""))
    line.append(f"{mark} ")
    if ev.get("secret"):
        # A GM-only command (docs/rules.md): the players saw "the GM rolls" and nothing more.
        line.append("[GM only] ", style=styles.get("accent", ""))
    roll = ev.get("roll")
    if roll:
        # The outcome first, so a narrow pane still shows who won; the dice follow.
        summary = telling.roll_summary(ev)
        if summary and roll.get("test") != "narration":
            style = styles.get("accent", "")
            out = roll.get("outcome", {})
            if out.get("critical_glitch") or out.get("glitch") or any(
                    isinstance(v, dict) and (v.get("glitch") or v.get("critical_glitch")) for v in out.values()):
                style = styles.get("crit", "")
            line.append(summary, style=style)
            line.append(" │ ", style=styles.get("muted", ""))
        elif summary:
            line.append(summary)
            line.append(" │ ", style=styles.get("muted", ""))
        if roll.get("manual"):
            line.append(MANUAL_MARK + " ", style=styles.get("muted", ""))
        sides = roll.get("sides", [])
        for i, side in enumerate(sides):
            if i:
                line.append(i18n._(" vs "), style=styles.get("muted", ""))
            line.append(f"{short_name(str(side.get('label', '?')))} ", style="bold")
            line.append_text(dice_text(side.get("dice", []), styles, system=system))
    else:
        line.append(telling.event_text(ev))
    if undone:
        body_start = len(f"{number}{mark} ")
        line.stylize(styles.get("undone", "strike"), body_start)
        line = line[:body_start] + Text(i18n._("(undone) "), style=styles.get("muted", "")) + line[body_start:]
    return line


def event_details(ev: Event, styles: Mapping[str, str], *, system: str = "",
                  names: Mapping[str, str] | None = None, titles: Mapping[str, str] | None = None) -> list[Text]:
    """The expanded explanation of an event: every die with size and source, the numbers."""
    out: list[Text] = []
    pad = "       "
    roll = ev.get("roll")
    out.append(Text(pad + i18n._("{time}  scene {at}  {text}", time=ev.get("t", ""),
                                 at=".".join(str(x) for x in ev.get("at", [])), text=telling.event_text(ev)),
                    style=styles.get("muted", "")))
    if roll:
        origin = text.dice_origin(roll)
        out.append(Text(f"{pad}{roll.get('test', '')}: {origin}", style=styles.get("muted", "")))
        if roll.get("settings"):
            from ..session.rolls import settings_text

            out.append(Text(pad + i18n._("settings: {settings}", settings=settings_text(roll["settings"])),
                            style=styles.get("muted", "")))
        for side in roll.get("sides", []):
            out.append(Text(f"{pad}{side.get('label', '?')}:", style="bold"))
            for d in side.get("dice", []):
                source = d.get("source", "die")
                src = i18n._(SOURCE_NAME[source]) if source in SOURCE_NAME else str(source)
                label = f" {d['label']}" if d.get("label") and d.get("label") != d.get("source") else ""
                rep = ""
                if d.get("replaced"):
                    rep = i18n._("  (rerolled; replaced {faces})", faces=", ".join(str(x) for x in d["replaced"]))
                glyph = "✦ " if d.get("source") == "ability" else "  "
                t = Text(f"{pad}  {glyph}" + i18n._("{face} on d{size}", face=f"{d['face']:>2}", size=d["size"])
                         + f"  {src}{label}{rep}")
                if d.get("source") == "ability":
                    t.stylize(styles.get("ability", ""))
                out.append(t)
        for line in telling.explain_lines(roll):
            out.append(Text(f"{pad}{line}"))
    for sentence in change_sentences(ev, names=names, titles=titles)[:12]:
        out.append(Text(f"{pad}{sentence}", style=styles.get("muted", "")))
    return out


FIELD_WORDS = {
    "charges_max": "maximum charges", "story_points": "story points", "physical": "physical boxes",
    "stun": "stun boxes", "edge": "Edge", "edge_rating": "Edge rating", "scene_title": "scene title",
    "ability_fight": "fight with abilities", "kind": "kind", "hands": "dice in hand", "table": "dice on the table",
    "initiative": "initiative order", "extended": "extended test", "accumulated": "hits so far",
    "next_id": "", "used": "used", "edges": "edge", "abilities": "ability", "backgrounds": "backgrounds",
    "rolled": "", "spirit": "spirit fight", "a": "side A", "b": "side B",
    "combat": "fight:", "acting": "acting", "acted": "have acted", "held": "holding an action",
}
"""How a field of the state reads in a sentence (an empty word: not worth a line)."""


def _value(v: Any, names: Mapping[str, str] | None = None) -> str:
    """A value as a reader would write it: yes/no, dice as 6/d8, names of listed things, never a dict."""
    names = names or {}
    if isinstance(v, str) and v in names:
        return names[v]  # a character's id reads as their name
    if isinstance(v, bool):
        return "yes" if v else "no"
    if v is None or v == "" or v == [] or v == {}:
        return "—"
    if isinstance(v, dict):
        if "face" in v and "size" in v:
            return f"{v['face']}/d{v['size']}"
        if "id" in v and "score" in v:  # an initiative entry
            return f"{names.get(str(v['id']), str(v['id']))} {v['score']}"
        for key in ("name", "title", "label"):
            if v.get(key):
                return _short(v[key])
        return f"{len(v)} entr{'y' if len(v) == 1 else 'ies'}"
    if isinstance(v, list):
        if all(isinstance(x, dict) and "face" in x and "size" in x for x in v):
            return _short(" + ".join(_value(x) for x in v))
        if all(isinstance(x, (str, int, float)) for x in v):
            return _short(", ".join(names.get(x, x) if isinstance(x, str) else str(x) for x in v))
        return _short(", ".join(_value(x, names) for x in v))
    return _short(v)


def _words(parts: list[Any]) -> str:
    out: list[str] = []
    for part in parts:
        if isinstance(part, int):
            out.append(str(part + 1))  # the 2nd edge, not edges.1
            continue
        word = FIELD_WORDS.get(part, str(part).replace("_", " "))
        if word:
            out.append(word)
    return " ".join(out)


def change_sentences(ev: Mapping[str, Any], *, names: Mapping[str, str] | None = None,
                     titles: Mapping[str, str] | None = None) -> list[str]:
    """What an event changed, one plain sentence per change: ``Igor's charges 5 → 4``.

    Args:
        names: character id → name (a removed character's id reads as its id).
        titles: challenge id → title, for changes of a challenge.
    """
    names = names or {}
    titles = titles or {}
    out: list[str] = []

    def subject(path: list[Any]) -> tuple[str, list[Any]]:
        if len(path) >= 2 and path[0] == "characters":
            who = names.get(str(path[1]), str(path[1]))
            return f"{who}'s", path[2:]
        if len(path) >= 2 and path[0] == "challenges":
            title = titles.get(str(ev.get("challenge", "")), "")
            return (f"“{title}”" if title else f"challenge {int(path[1]) + 1}" if isinstance(path[1], int)
                    else "challenge"), path[2:]
        if path and path[0] in ("structure", "campaign"):
            return "", path[1:]
        if path and path[0] == "settings":
            return "setting", path[1:]
        return "", path

    def table(v: Any) -> bool:
        return isinstance(v, dict) and not ({"face", "name", "title", "score"} & set(v))

    def line(path: list[Any], before: Any, after: Any, depth: int = 0) -> None:
        if depth < 3 and (table(before) or table(after)) and (table(before) or before is None) and (
                table(after) or after is None):
            # A whole table changed: one line per entry that differs, never the dicts themselves.
            b, a = before or {}, after or {}
            for key in list(a) + [k for k in b if k not in a]:
                if b.get(key) != a.get(key) and (b.get(key) or a.get(key)):
                    line([*path, key], b.get(key), a.get(key), depth + 1)
            return
        if path and FIELD_WORDS.get(path[-1]) == "":
            return  # bookkeeping that another line says better
        who, rest = subject(path)
        what = _words(rest) if rest else ""
        head = " ".join(x for x in (who, what) if x).strip()
        if not head:
            return
        out.append(f"{head[:1].upper()}{head[1:]} {_value(before, names)} → {_value(after, names)}")

    for ch in ev.get("changes", []):
        if not isinstance(ch, dict):
            continue
        path = list(ch.get("path", []))
        if path == ["next_id"]:
            continue
        if "insert" in ch or "remove" in ch:
            item = ch.get("insert", ch.get("remove"))
            what = "added" if "insert" in ch else "removed"
            kind = {"challenges": "challenge", "characters": "character"}.get(str(path[0]) if path else "", "")
            out.append(f"{kind or _words(path[:1]) or 'entry'} {what}: {_value(item)}".capitalize()
                       if not kind else f"{kind.capitalize()} {what}: {_value(item)}")
            continue
        if len(path) == 2 and path[0] == "characters" and "before" not in ch:
            out.append(f"Character added: {_value(ch.get('after'))}")
            continue
        if len(path) == 2 and path[0] == "characters" and "after" not in ch:
            out.append(f"Character removed: {_value(ch.get('before'))}")
            continue
        line(path, ch.get("before"), ch.get("after"))
    return out


NAME_CELLS = 24
"""How much of a name a pane, a log line or a roll screen shows before cutting it with an ellipsis."""


def short_name(name: str, width: int = NAME_CELLS) -> str:
    """``name`` cut to ``width`` characters with an ellipsis: a very long name cannot push the
    rest of its line (the dice, the status, the other side) off the screen."""
    return name if len(name) <= width else name[: width - 1].rstrip() + "…"


def _short(v: Any) -> str:
    s = str(v)
    return s if len(s) <= 40 else s[:37] + "…"


def pips(current: int, maximum: int) -> str:
    """Charges as pips: ●●●○○ (R11)."""
    current = max(0, current)
    if maximum > 12:
        return f"{current}/{maximum}"
    return "●" * min(current, maximum) + "○" * max(0, maximum - current)


def boxes(filled: int, size: int) -> str:
    """A condition monitor: ■ filled, □ empty (S12)."""
    return "■" * filled + "□" * max(0, size - filled)
