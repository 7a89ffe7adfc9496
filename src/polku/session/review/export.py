"""Session reports a GM can post for the group: Markdown, or one self-contained HTML file.

The report holds the characters at the end, the scenes in order with every
event (each roll with its challenge, pools, faces and outcome; resources
spent; story points and what they bought; wound changes), the challenges,
and the statistics summary (:mod:`polku.session.review.stats`).

By default the report is for the players and keeps the GM's secrets
(:mod:`polku.session.players.public`: secret characters, notes, hidden thresholds);
``gm=True`` shows everything.

The report is built once as a list of blocks (headings, paragraphs, lists,
tables, bar charts) of styled text runs, then written as Markdown or HTML, so
both formats say the same. Nothing volatile (the time of export, the version)
goes in, so a report of the same file is the same bytes.

No textual, no rich, no I/O: the CLI writes the text.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from typing import Sequence

from ... import i18n
from ...i18n import N_, _, decimal, ngettext, pgettext
from ...rules.system import System
from ...text import bar, builtin_label, dice_origin, logged_die_text, wound_label
from ..model import DiceKey, Event, condition_monitors
from ..players.public import public_dice, public_view, secret_ids
from ..records import Character, DieTable, harha, raja, sr
from ..telling import challenge_outcome, event_text, old_note, roll_summary
from ..tracker import Tracker
from . import stats as st
from .replay import Scene, scene_sections

Run = tuple[str, str]
"""A run of text and its style: ``""``, ``"b"`` (bold), ``"i"`` (italic) or ``"del"`` (undone)."""

Inline = list[Run]

FORMATS = ("md", "html")

def kind_word(kind: str) -> str:
    """Each kind of event's word in the report's log, in the language in use (a kind not known: its name)."""
    words = {
        "roll": pgettext("log entry", "Roll"), "resource": pgettext("log entry", "Resource"),
        "reset": pgettext("log entry", "Reset"), "wound": pgettext("log entry", "Wound"),
        "structure": pgettext("log entry", "Scene"), "challenge": pgettext("log entry", "Challenge"),
        "character": pgettext("log entry", "Character"), "undo": pgettext("log entry", "Undo"),
        "redo": pgettext("log entry", "Redo"), "setting": pgettext("log entry", "Setting"),
        "note": pgettext("log entry", "Note"), "narration": pgettext("log entry", "Narration"),
        "initiative": pgettext("log entry", "Initiative"), "dice": pgettext("log entry", "Dice"),
        "combat": pgettext("log entry", "Turn"), "effect": pgettext("log entry", "Effect"),
    }
    return words.get(kind, kind.title())



@dataclass
class Block:
    """One block of the report."""

    kind: str
    """``h1``, ``h2``, ``h3``, ``p``, ``ul``, ``table`` or ``bars``."""
    text: Inline = field(default_factory=list)
    items: list[Inline] = field(default_factory=list)
    """List items (``ul``)."""
    header: list[str] = field(default_factory=list)
    rows: list[list[Inline]] = field(default_factory=list)
    """Table rows (``table``)."""
    bars: list[tuple[str, float, float, str]] = field(default_factory=list)
    """``bars``: (label, value, reference, note) — a bar of ``value`` against a marker at ``reference``."""


def _p(*runs: Run) -> Block:
    return Block("p", list(runs))


def _plain(text: str) -> Inline:
    return [(text, "")]


# ---------------------------------------------------------------------------
# Building the report


def _dice_blocks(d: DiceKey | None) -> list[Block]:
    """The dice secrets' commitments (and the revealed secrets), so anyone can run polku verify."""
    if not d:
        return []
    out = [_p((f"Program dice: secret #{d['key']} (session {d['session']}), commitment SHA-256 {d['commitment']}.",
               ""))]
    for r in d.get("revealed", []):
        out.append(_p((f"Revealed dice secret #{r.get('key')} (session {r.get('session')}, {r.get('rolls', 0)} "
                       f"program rolls): {r.get('secret')}, commitment {r.get('commitment')}.", "")))
    return out


def build(tracker: Tracker, *, gm: bool = False) -> list[Block]:
    """The report of a loaded session as blocks."""
    full = tracker
    view = full if gm else public_view(full)
    state = view.state
    system = full.system
    # A character that left keeps its last name, which only the full log's changes may know;
    # the players never learn a secret character's.
    hidden = set() if gm else secret_ids(full.state, full.events)
    known = {cid: name for cid, name in st.character_names(full).items() if cid not in hidden}
    names = {**{cid: f"{name} (removed)" for cid, name in known.items()},
             **{cid: ch["name"] for cid, ch in state["characters"].items()}}
    camp = state["campaign"]
    events = view.events
    blocks: list[Block] = [Block("h1", _plain(_("{campaign} — session report", campaign=camp["name"])))]
    when = ""
    if events:
        first, last = str(events[0].get("t", "")), str(events[-1].get("t", ""))
        when = f" · {_time(first, date=True)} – {_time(last)}"
    where = state["structure"]
    blocks.append(_p((ngettext("{system} · story {story}, session {session} · {n} event{when}",
                               "{system} · story {story}, session {session} · {n} events{when}", len(events),
                               system=system.display_name, story=where["story"], session=where["session"],
                               when=when), "i")))
    if camp.get("continues"):
        blocks.append(_p((f"Continues from {camp['continues']}.", "")))
    if not gm:
        blocks.append(_p((_("The GM's secrets (notes, secret characters, the GM's own rolls, hidden thresholds) are "
                            "left out."), "i")))
    blocks.extend(_dice_blocks(public_dice(full.state)))

    blocks.append(Block("h2", _plain(_("Characters"))))
    blocks.append(_characters_table(view, system))

    # Scenes come from the full log's scene changes that stand; the players' log is a part of it.
    blocks.extend(_scenes(view, system, scene_sections(full.events, full.is_undone, full.state["structure"])))

    if state["challenges"]:
        blocks.append(Block("h2", _plain(_("Challenges"))))
        rows = []
        for c in state["challenges"]:
            who = ", ".join(names.get(x, _("(removed)")) for x in c.get("participants", []))
            opp = ", ".join(names.get(x, _("(removed)")) for x in c.get("opposition", []))
            rows.append([_plain(c["title"]), _plain(_("{names} vs {opposition}", names=who, opposition=opp) if opp else who),
                         _plain(status_word(c["status"])), _plain(challenge_outcome(c) or "—")])
        blocks.append(Block("table", header=[pgettext("log entry", "Challenge"), _("Who"), _("Status"), _("Outcome")],
                            rows=rows))

    blocks.extend(_statistics(view, system, known))
    return blocks


def _time(t: str, *, date: bool = False) -> str:
    m = re.match(r"(\d{4}-\d\d-\d\d)T(\d\d:\d\d)", t)
    if not m:
        return t
    return f"{m.group(1)} {m.group(2)}" if date else m.group(2)


KIND_WORDS = {"pc": N_("pc"), "npc": N_("npc"), "opposition": N_("opposition")}
"""A character's kind as the report's table words it (the codes in English)."""


def status_word(status: str) -> str:
    """A challenge's status (``model.CHALLENGE_STATUS``) in the language in use."""
    return {"waiting": _("waiting"), "active": _("active"), "resolved": _("resolved")}.get(status, status)


def character_status(tracker: Tracker, character: Character, system: System) -> str:
    """One line of a character's state in words (no colour, no glyphs needing a font)."""
    if system is System.RAJAPOLKU:
        ch = raja(character)
        parts = [wound_label(ch["wound"]), _("charges {n}/{max}", n=ch["charges"], max=ch["charges_max"])]
        if ch["kind"] == "pc" or ch["story_points"]:
            parts.append(_("story points {n}", n=ch["story_points"]))
        if ch.get("health"):
            parts.append(ch["health"])
        return ", ".join(parts)
    if system is System.HARHAPOLKU:
        hch = harha(character)
        edges = ", ".join(_("{edge} (used)", edge=e["name"]) if e["used"] else e["name"] for e in hch["edges"])
        bgs = ", ".join(f"{b['name']} ({builtin_label(b['tier'])})" for b in hch["backgrounds"])
        return "; ".join(x for x in (_("backgrounds {names}", names=bgs) if bgs else "",
                                     _("edges {names}", names=edges) if edges else "") if x)
    sch = sr(character)
    phys, stun = condition_monitors(sch)
    return _("Edge {edge}/{rating}, physical {physical}/{physical_max}, stun {stun}/{stun_max}", edge=sch["edge"],
             rating=sch["edge_rating"], physical=sch["physical"], physical_max=phys, stun=sch["stun"], stun_max=stun)


def _characters_table(view: Tracker, system: System) -> Block:
    rows = []
    for ch in view.characters.values():
        rows.append([[(ch["name"], "b")], _plain(ch.get("player") or "—"), _plain(_(KIND_WORDS[ch["kind"]]) if ch["kind"] in KIND_WORDS else ch["kind"]),
                     _plain(character_status(view, ch, system))])
    if not rows:
        return _p((_("No characters."), "i"))
    return Block("table", header=[pgettext("log entry", "Character"), _("Player"), _("Kind"), _("At the end")],
                 rows=rows)


def die_words(d: DieTable, system: System) -> str:
    face = logged_die_text(d, system.value, replaced=False, named=True)
    label = d.get("label", "")
    if label and d.get("source") not in ("exploded",) and label != "action":
        face = f"{label} {face}"
    if d.get("replaced"):
        face += f" (was {', '.join(str(x) for x in d['replaced'])})"
    return face


def _roll_runs(ev: Event, system: System, challenges: dict[str, str]) -> Inline:
    roll = ev["roll"]
    runs: Inline = []
    chal = ev.get("challenge")
    if chal and chal in challenges:
        runs.append((challenges[chal], "i"))
        runs.append((": ", ""))
    for i, side in enumerate(roll.get("sides", [])):
        if i:
            runs.append((_(" vs "), ""))
        runs.append((side.get("label", "?"), "b"))
        dice = ", ".join(die_words(d, system) for d in side.get("dice", []))
        runs.append((f" ({dice})" if dice else _(" (no dice)"), ""))
    summary = roll_summary(ev)
    if summary:
        runs.append((" → ", ""))
        runs.append((summary, "b"))
    origin = dice_origin(roll, short=True)
    if ev.get("kind") == "roll" or roll.get("sides"):
        runs.append((f" — {origin}", "i"))
    return runs


def _scenes(view: Tracker, system: System, scenes: Sequence[Scene]) -> list[Block]:
    blocks: list[Block] = []
    titles: dict[str, str] = {}
    for ev in view.events:
        for ch in ev.get("changes", []):
            after = ch.get("after")
            if ch.get("path") == ["challenges"] and isinstance(after, list):
                for c in after:
                    titles.setdefault(c.get("id"), c.get("title"))
        m = re.match(r"Challenge added: (.*)", str(ev.get("text", "")))
        if m and ev.get("challenge"):
            titles.setdefault(ev["challenge"], m.group(1))
    for c in view.state["challenges"]:
        titles.setdefault(c["id"], c["title"])
    current: Scene | None = None
    items: list[Inline] = []
    index = 0

    def flush() -> None:
        if current is not None and items:
            where = ".".join(str(x) for x in current.at)
            blocks.append(Block("h3", _plain(_("Scene {where}: {title}", where=where, title=current.title)
                                             if current.title else _("Scene {where}", where=where))))
            blocks.append(Block("ul", items=list(items)))
        items.clear()

    blocks.append(Block("h2", _plain(_("Scenes"))))
    note = old_note(view.events)
    if note:
        blocks.append(_p((note, "i")))
    for ev in view.events:
        while index < len(scenes) and scenes[index].last_seq < ev["seq"]:
            index += 1
        scene = scenes[index] if index < len(scenes) else current
        if scene is not current:
            flush()
            current = scene
        if ev.get("kind") in ("undo", "redo"):
            runs: Inline = [(event_text(ev), "i")]
        elif ev.get("roll"):
            runs = _roll_runs(ev, system, titles)
        else:
            runs = [(event_text(ev), "")]
        if view.is_undone(ev["seq"]):
            runs = [(text, "del") for text, _style in runs] + [(_(" (undone)"), "i")]
        word = kind_word(str(ev.get("kind", "")))
        # The players' report numbers what the players see (as watch and the seats do), the GM's its own log.
        number = ev.get("n", ev["seq"])
        items.append([(f"{number} · {_time(str(ev.get('t', '')))} ", ""), (f"{word}: ", "b")] + runs)
    flush()
    if len(blocks) == 1:
        blocks.append(_p((_("The log is empty."), "i")))
    return blocks


def _statistics(view: Tracker, system: System, names: dict[str, str] | None = None) -> list[Block]:
    s = st.compute(view, names)
    rolls = ngettext("{n} roll", "{n} rolls", s.rolls)
    counted = (ngettext("{rolls}; {n} undone event left out.", "{rolls}; {n} undone events left out.", s.undone,
                        rolls=rolls) if s.undone else _("{rolls}.", rolls=rolls))
    blocks = [Block("h2", _plain(_("Statistics"))), _p((counted, ""))]
    people = [c for c in s.characters if c.rolls or c.edge_spent or c.story_points_spent or c.charges_spent
              or c.edge_rerolls]
    if people:
        header = [_("Character"), _("Rolls"), _("Won"), _("Lost"), _("Tied")]
        if system is System.RAJAPOLKU:
            header += [_("Degrees"), _("Charges spent"), _("Story points spent")]
        elif system is System.HARHAPOLKU:
            header += [_("Edge rerolls")]
        else:
            header += [_("Hits"), _("Net hits"), _("Glitches"), pgettext("glitches", "Critical"), _("Edge spent")]
        rows = []
        for c in people:
            row = [[(c.name, "b")]] + [_plain(str(x)) for x in (c.rolls, c.wins, c.losses, c.ties)]
            if system is System.RAJAPOLKU:
                row += [_plain(str(x)) for x in (c.degrees, c.charges_spent, c.story_points_spent)]
            elif system is System.HARHAPOLKU:
                row += [_plain(str(c.edge_rerolls))]
            else:
                row += [_plain(str(x)) for x in (c.hits, c.net_hits, c.glitches, c.critical_glitches, c.edge_spent)]
            rows.append(row)
        blocks.append(Block("table", header=header, rows=rows))
    bought = [(c.name, b) for c in s.characters for b in c.story_bought]
    if bought:
        blocks.append(Block("h3", _plain(_("What the story points bought"))))
        blocks.append(Block("ul", items=[[(n, "b"), (f": {b}", "")] for n, b in bought]))
    lucky = [c for c in s.characters if c.judged or c.hit_rolls]
    if lucky:
        blocks.append(Block("h3", _plain(_("Luck: results against the exact odds"))))
        items = []
        for c in lucky:
            parts: Inline = [(c.name, "b"), (": ", "")]
            bits = []
            if c.judged:
                bits.append(ngettext("won {won} of {n} contest, {expected} expected ({luck})",
                                     "won {won} of {n} contests, {expected} expected ({luck})", c.judged,
                                     won=_num(c.judged_wins), expected=decimal(c.expected_wins, 2),
                                     luck=decimal(c.win_luck, 2, plus=True)))
            if c.hit_rolls:
                bits.append(ngettext("{hits} in {n} roll, {expected} expected ({luck})",
                                     "{hits} in {n} rolls, {expected} expected ({luck})", c.hit_rolls,
                                     hits=ngettext("{n} hit", "{n} hits", c.judged_hits),
                                     expected=decimal(c.expected_hits, 2), luck=decimal(c.hit_luck, 2, plus=True)))
            parts.append(("; ".join(bits), ""))
            items.append(parts)
        blocks.append(Block("ul", items=items))
    if s.faces:
        blocks.append(Block("h3", _plain(_("Are the dice fair?"))))
        for f in s.faces:
            head = (ngettext("d{size}, entered by hand: {n} die. ", "d{size}, entered by hand: {n} dice. ", f.total,
                             size=f.size) if f.manual
                    else ngettext("d{size}, program: {n} die. ", "d{size}, program: {n} dice. ", f.total, size=f.size))
            blocks.append(_p((head, "b"), (f.verdict(), "")))
            blocks.append(Block("bars", bars=[(str(i + 1), float(n), f.expected, str(n))
                                              for i, n in enumerate(f.counts)]))
    return blocks


def _num(x: float) -> str:
    return decimal(x, None)


# ---------------------------------------------------------------------------
# Markdown

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]<>|#~])")


def _md_escape(text: str) -> str:
    return _MD_SPECIAL.sub(r"\\\1", text)


def _md_inline(runs: Inline) -> str:
    out = []
    for text, style in runs:
        if not text:
            continue
        lead = len(text) - len(text.lstrip(" "))
        trail = len(text) - len(text.rstrip(" "))
        core = _md_escape(text.strip(" "))
        if core and style:
            mark = {"b": "**", "i": "*", "del": "~~"}[style]
            core = f"{mark}{core}{mark}"
        out.append(" " * lead + core + " " * trail if core else text)
    return "".join(out)


BAR_WIDTH = 30


def _bar(value: float, top: float, width: int = BAR_WIDTH) -> str:
    return bar(value, top, width)


def to_markdown(blocks: Sequence[Block]) -> str:
    lines: list[str] = []
    for b in blocks:
        if b.kind in ("h1", "h2", "h3"):
            lines += [f"{'#' * int(b.kind[1])} {_md_inline(b.text)}", ""]
        elif b.kind == "p":
            lines += [_md_inline(b.text), ""]
        elif b.kind == "ul":
            lines += [f"- {_md_inline(item)}" for item in b.items] + [""]
        elif b.kind == "table":
            lines.append("| " + " | ".join(_md_escape(h) for h in b.header) + " |")
            lines.append("|" + "|".join("---" for _header in b.header) + "|")
            for row in b.rows:
                lines.append("| " + " | ".join(_md_inline(cell) for cell in row) + " |")
            lines.append("")
        elif b.kind == "bars":
            top = max([bar[1] for bar in b.bars] + [bar[2] for bar in b.bars] + [1])
            ref = b.bars[0][2] if b.bars else 0
            lines.append("```")
            width = max(len(bar[0]) for bar in b.bars)
            for label, value, _ref, note in b.bars:
                lines.append(f"{label:>{width}} {_bar(value, top):<{BAR_WIDTH + 1}} {note}")
            lines.append(f"{'':>{width}} " + _("fair: {expected} each", expected=format(ref, ".1f")))
            lines.append("```")
            lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


# ---------------------------------------------------------------------------
# HTML

HTML_STYLE = """
body { font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem;
       line-height: 1.45; color: #1d1d1f; background: #fdfdfb; }
h1 { font-size: 1.6rem; border-bottom: 2px solid #888; padding-bottom: .3rem; }
h2 { font-size: 1.3rem; margin-top: 2rem; border-bottom: 1px solid #bbb; }
h3 { font-size: 1.05rem; margin-top: 1.4rem; }
table { border-collapse: collapse; margin: .5rem 0 1rem; }
th, td { border: 1px solid #ccc; padding: .2rem .5rem; text-align: left; vertical-align: top; }
th { background: #eee; }
ul { padding-left: 1.2rem; }
li { margin: .15rem 0; }
del { color: #888; }
.bars { display: grid; grid-template-columns: max-content 20rem max-content; gap: 2px .5rem;
        align-items: center; margin: .3rem 0 1rem; font-variant-numeric: tabular-nums; }
.track { position: relative; height: 1rem; background: #f0f0f0; }
.fill { position: absolute; left: 0; top: 0; bottom: 0; background: #5f87af; }
.ref { position: absolute; top: -2px; bottom: -2px; width: 2px; background: #d75f00; }
.legend { color: #555; font-size: .9rem; }
@media (prefers-color-scheme: dark) {
  body { color: #e4e4e4; background: #1c1c1c; } th { background: #333; } th, td { border-color: #555; }
  .track { background: #333; } del { color: #999; } .legend { color: #aaa; }
}
"""


def _html_inline(runs: Inline) -> str:
    out = []
    for text, style in runs:
        t = html.escape(text, quote=False)
        if style:
            tag = {"b": "strong", "i": "em", "del": "del"}[style]
            t = f"<{tag}>{t}</{tag}>"
        out.append(t)
    return "".join(out)


def to_html(blocks: Sequence[Block]) -> str:
    title = _plain_text(blocks[0].text) if blocks else "Session report"
    body: list[str] = []
    for b in blocks:
        if b.kind in ("h1", "h2", "h3"):
            body.append(f"<{b.kind}>{_html_inline(b.text)}</{b.kind}>")
        elif b.kind == "p":
            body.append(f"<p>{_html_inline(b.text)}</p>")
        elif b.kind == "ul":
            body.append("<ul>")
            body += [f"  <li>{_html_inline(item)}</li>" for item in b.items]
            body.append("</ul>")
        elif b.kind == "table":
            body.append("<table>")
            body.append("  <tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in b.header) + "</tr>")
            for row in b.rows:
                body.append("  <tr>" + "".join(f"<td>{_html_inline(c)}</td>" for c in row) + "</tr>")
            body.append("</table>")
        elif b.kind == "bars":
            top = max([bar[1] for bar in b.bars] + [bar[2] for bar in b.bars] + [1])
            ref = b.bars[0][2] if b.bars else 0
            body.append('<div class="bars">')
            for label, value, reference, note in b.bars:
                body.append(f'  <span>{html.escape(label)}</span><span class="track">'
                            f'<span class="fill" style="width:{value / top * 100:.1f}%"></span>'
                            f'<span class="ref" style="left:{reference / top * 100:.1f}%"></span></span>'
                            f"<span>{html.escape(note)}</span>")
            body.append("</div>")
            body.append('<p class="legend">' + html.escape(_("The line marks fair dice: {expected} of each face.",
                                                                 expected=decimal(ref, 1))) + "</p>")
    return (f"<!DOCTYPE html>\n<html lang=\"{i18n.language()}\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<title>{html.escape(title)}</title>\n<style>{HTML_STYLE}</style>\n</head>\n<body>\n"
            + "\n".join(body) + "\n</body>\n</html>\n")


def _plain_text(runs: Inline) -> str:
    return "".join(t for t, _ in runs)


def export(tracker: Tracker, fmt: str, *, gm: bool = False) -> str:
    """The report of ``tracker`` as ``md`` or ``html`` text.

    Raises:
        ValueError: an unknown format.
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown format '{fmt}' (use md or html)")
    blocks = build(tracker, gm=gm)
    return to_markdown(blocks) if fmt == "md" else to_html(blocks)


__all__ = ["Block", "FORMATS", "build", "character_status", "die_words", "export", "to_html", "to_markdown"]
