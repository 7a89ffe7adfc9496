"""The review's and the reports' figures equal counts taken straight from the session as it was played.

Hypothesis plays whole sessions of each system: contests between characters
with dice entered by hand, Harhapolku edge rerolls (H7), Edge after a
Varjojuoksu roll (S7), undo and redo, characters joining and leaving, and
every boundary (scene, session, story). Beside the tracker the test keeps its
own ledger, built only from what it entered and what each command returned:
the faces it typed, each contest's outcome as the command's event recorded
it, and an undo stack of its own. The review's statistics and scenes (from the
file, read-only, as ``polku review`` opens it), the GM's report and the
players' report must all say what the ledger says.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as hs
from rich.console import Console

from polku.session import model, store
from polku.session.files import document, load_tracker
from polku.session.records import harha, sr
from polku.session.review import stats as st
from polku.session.review.export import export
from polku.session.review.replay import History
from polku.session.rolls import HarhaSide, RajaSide, SRSide
from polku.session.tracker import Tracker
from polku.tui.review import results_table

NAMES = ["Aino", "Bruno", "Cecilia", "Daniel", "Eero", "Freja"]


class Ledger:
    """What the session should show, kept from the test's own inputs.

    Each command the test runs pushes one entry (possibly empty); undo moves
    the last one to a redo stack, redo moves it back, a new command clears
    the redo stack — the tracker's undo model, kept independently.
    """

    def __init__(self) -> None:
        self.done: list[dict[str, Any]] = []
        self.undone: list[dict[str, Any]] = []

    def push(self, **entry: Any) -> None:
        self.done.append(entry)
        self.undone.clear()

    def undo(self) -> None:
        self.undone.append(self.done.pop())

    def redo(self) -> None:
        self.done.append(self.undone.pop())

    def contests(self) -> dict[int, dict[str, Any]]:
        """Contest id → its outcome as it stands (a reroll replaces the outcome it rerolled)."""
        out: dict[int, dict[str, Any]] = {}
        for e in self.done:
            if "contest" in e:
                out[e["contest"]] = e
        return out

    def faces(self) -> Counter:
        return Counter(f for e in self.done for f in e.get("faces", ()))

    def scenes(self) -> list[str]:
        at, title = (1, 1, 1), ""
        out = ["Scene 1.1.1"]
        for e in self.done:
            if "boundary" in e:
                kind = e["boundary"]
                if kind == "scene":
                    at, title = (at[0], at[1], at[2] + 1), e["title"]
                elif kind == "session":
                    at, title = (at[0], at[1] + 1, 1), ""
                else:
                    at = (at[0] + 1, at[1], at[2])
                out.append("Scene " + ".".join(map(str, at)) + (f": {title}" if title else ""))
        return out


def _faces(data: Any, sizes: list[int]) -> list[int]:
    return [data.draw(hs.integers(1, size)) for size in sizes]


def _outcome_raja_harha(ev: model.Event) -> dict[str, str]:
    winner = ev["roll"]["outcome"].get("winner")
    a, b = (s["who"][0] for s in ev["roll"]["sides"])
    if winner == "tie":
        return {a: "tie", b: "tie"}
    return {a: "win", b: "loss"} if winner == "a" else {a: "loss", b: "win"}


def _glitches(ev: model.Event) -> dict[str, tuple[bool, bool]]:
    out = ev["roll"]["outcome"]
    if ev["roll"]["test"] == "shadowrun-opposed":
        sides = (out["a"], out["b"])
        return {s["who"][0]: (bool(o.get("glitch")), bool(o.get("critical_glitch")))
                for o, s in zip(sides, ev["roll"]["sides"])}
    return {ev["roll"]["sides"][0]["who"][0]: (bool(out.get("glitch")), bool(out.get("critical_glitch")))}


def _new_character(t: Tracker, system: str, name: str) -> str:
    if system == "rajapolku":
        ch = t.add_character(name, backgrounds=["Runner", "Boxer"])
    elif system == "harhapolku":
        ch = t.add_character(name, backgrounds=[{"name": "Sailor", "tier": "general"},
                                                {"name": "Thief", "tier": "plain"},
                                                {"name": "Seer", "tier": "special"}],
                             edges=[{"name": "Calm", "used": False}, {"name": "Quick", "used": False}])
    else:
        ch = t.add_character(name, edge_rating=2, edge=2)
    return ch["id"]


def play(data: Any, system: str, steps: int) -> tuple[Tracker, Ledger, dict[str, str]]:
    t = Tracker.new(system, "Property campaign", clock=lambda: "2026-11-28T18:00:00Z", seed=1)
    ledger = Ledger()
    names: dict[str, str] = {}
    for name in NAMES[:3]:
        names[_new_character(t, system, name)] = name
        ledger.push()
    contest = 0
    last_roll: model.Event | None = None
    for _ in range(steps):
        people = list(t.characters)
        choice = data.draw(hs.sampled_from(
            ["roll", "roll", "roll", "again", "undo", "undo", "redo", "scene", "session", "story", "leave",
             "join", "note"]))
        if choice in ("roll", "again") and len(people) < 2:
            choice = "join"
        if choice == "roll":
            a, b = data.draw(hs.permutations(people))[:2]
            contest += 1
            if system == "rajapolku":
                sa = RajaSide(t.characters[a]["name"], [a], backgrounds=data.draw(hs.sampled_from(
                    [[], ["Runner"], ["Runner", "Boxer"]])))
                sb = RajaSide(t.characters[b]["name"], [b], backgrounds=data.draw(hs.sampled_from([[], ["Boxer"]])))
                pa, pb = t.rolls.raja_pools(sa, sb)
                fa, fb = _faces(data, [d.size for d in pa]), _faces(data, [d.size for d in pb])
                ev = t.rolls.roll_raja(sa, sb, faces=(fa, fb))["event"]
                ledger.push(contest=contest, result=_outcome_raja_harha(ev), faces=[(10, f) for f in fa + fb])
            elif system == "harhapolku":
                ha = HarhaSide(t.characters[a]["name"], [a], general="Sailor",
                               background=data.draw(hs.sampled_from([None, "Thief"])),
                               special=data.draw(hs.sampled_from([None, "Seer"])))
                hb = HarhaSide(t.characters[b]["name"], [b], general=data.draw(hs.sampled_from([None, "Sailor"])))
                sizes_a = [d.size for d in t.rolls.harha_pool(ha).dice]
                sizes_b = [d.size for d in t.rolls.harha_pool(hb).dice]
                fa, fb = _faces(data, sizes_a), _faces(data, sizes_b)
                ev = t.rolls.roll_harha(ha, hb, faces=(fa, fb))["event"]
                ledger.push(contest=contest, result=_outcome_raja_harha(ev),
                            faces=list(zip(sizes_a, fa)) + list(zip(sizes_b, fb)))
            elif data.draw(hs.booleans()):
                na, nb = data.draw(hs.integers(1, 5)), data.draw(hs.integers(1, 5))
                fa, fb = _faces(data, [6] * na), _faces(data, [6] * nb)
                ev = t.rolls.roll_sr_opposed(SRSide(t.characters[a]["name"], [a], dice=na),
                                       SRSide(t.characters[b]["name"], [b], dice=nb), faces=(fa, fb))["event"]
                winner = ev["roll"]["outcome"]["winner"]
                result = {a: "tie", b: "tie"} if winner == "tie" else (
                    {a: "win", b: "loss"} if winner == "a" else {a: "loss", b: "win"})
                ledger.push(contest=contest, result=result, glitches=_glitches(ev),
                            faces=[(6, f) for f in fa + fb])
            else:
                n = data.draw(hs.integers(1, 6))
                fa = _faces(data, [6] * n)
                ev = t.rolls.roll_sr(SRSide(t.characters[a]["name"], [a], dice=n), threshold=data.draw(hs.integers(1, 3)),
                               faces=fa)["event"]
                ledger.push(contest=contest, result={a: "win" if ev["roll"]["outcome"]["success"] else "loss"},
                            glitches=_glitches(ev), faces=[(6, f) for f in fa])
            last_roll = ev
        elif choice == "again":
            # a reroll or Edge after the roll, on the roll just made (or just rerolled)
            if last_roll is None:
                continue
            entry = ledger.done[-1]
            if system == "harhapolku":
                role = data.draw(hs.sampled_from(["a", "b"]))
                side = last_roll["roll"]["sides"][0 if role == "a" else 1]
                cid = side["who"][0]
                if cid not in t.characters:
                    continue
                edge = next((e["name"] for e in harha(t.characters[cid])["edges"] if not e["used"]), None)
                if edge is None:
                    continue
                sizes = [d["size"] for d in side["dice"]]
                faces = _faces(data, sizes)
                ev = t.rolls.harha_edge_reroll(last_roll, role, cid, edge, faces=faces)["event"]
                ledger.push(contest=entry["contest"], result=_outcome_raja_harha(ev), faces=list(zip(sizes, faces)))
                last_roll = ev
            elif system == "shadowrun" and last_roll["roll"]["test"] == "shadowrun":
                cid = last_roll["roll"]["sides"][0]["who"][0]
                found = t.characters.get(cid)
                ch = None if found is None else sr(found)
                if ch is None or ch["edge"] < 1 or last_roll["roll"]["outcome"].get("edge"):
                    continue
                faces = []
                todo = ch["edge_rating"]
                while todo:  # S7: every 6 of the Edge dice is thrown again
                    new = _faces(data, [6] * todo)
                    faces += new
                    todo = new.count(6)
                ev = t.rolls.sr_post_roll(last_roll, "edge_after", faces=faces)["event"]
                ledger.push(contest=entry["contest"], result={cid: "win" if ev["roll"]["outcome"]["success"]
                                                              else "loss"},
                            glitches=_glitches(ev), faces=[(6, f) for f in faces])
                last_roll = ev
            else:
                continue
        elif choice == "undo":
            if not t.can_undo():
                continue
            t.undo()
            ledger.undo()
        elif choice == "redo":
            if not t.can_redo():
                continue
            t.redo()
            ledger.redo()
        elif choice == "scene":
            title = data.draw(hs.sampled_from(["", "The docks", "Night"]))
            t.new_scene(title)
            ledger.push(boundary="scene", title=title)
        elif choice == "session":
            t.new_session()
            ledger.push(boundary="session")
        elif choice == "story":
            t.new_story()
            ledger.push(boundary="story")
        elif choice == "leave":
            if not people:
                continue
            t.remove_character(data.draw(hs.sampled_from(people)))
            ledger.push()
        elif choice == "join":
            name = f"{data.draw(hs.sampled_from(NAMES))}{len(names)}"
            cid = _new_character(t, system, name)
            names[cid] = t.characters[cid]["name"]
            ledger.push()
        else:
            t.note("the GM thinks")
            ledger.push()
        if choice not in ("roll", "again"):
            last_roll = None
    return t, ledger, names


def expected_rows(ledger: Ledger, names: dict[str, str]) -> dict[str, tuple[int, ...]]:
    """Name → (rolls, won, lost, tied, glitches, critical) from the ledger."""
    rows: dict[str, list[int]] = {}
    for entry in ledger.contests().values():
        glitches = entry.get("glitches", {})
        for cid, result in entry["result"].items():
            row = rows.setdefault(cid, [0] * 6)
            row[0] += 1
            row[1 + ("win", "loss", "tie").index(result)] += 1
            glitch, critical = glitches.get(cid, (False, False))
            row[4] += int(glitch and not critical)
            row[5] += int(critical)
    return {names[cid]: tuple(r) for cid, r in rows.items()}


def report_rows(md: str) -> dict[str, list[str]]:
    """The statistics table of a Markdown report: name → its cells."""
    part = md[md.index("## Statistics"):]
    out = {}
    for line in part.splitlines():
        m = re.match(r"\| \*\*(.+?)\*\* \| (.*) \|$", line)
        if m:
            out[m.group(1)] = [c.strip() for c in m.group(2).split("|")]
    return out


def review_rows(s: st.SessionStats, system: str) -> dict[str, list[str]]:
    """The review's per-character table as the statistics screen draws it."""
    console = Console(width=200, no_color=True, record=True)
    console.print(results_table(s, system))
    k = _columns(system)
    out = {}
    for line in console.export_text().splitlines()[1:]:
        cells = line.split()
        if cells:
            out[" ".join(cells[:-k])] = cells[-k:]
    return out


def _columns(system: str) -> int:
    return {"rajapolku": 7, "harhapolku": 5, "shadowrun": 9}[system]


@pytest.mark.slow
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(data=hs.data(), system=hs.sampled_from(["rajapolku", "harhapolku", "shadowrun"]),
       steps=hs.integers(5, 30))
def test_review_and_reports_count_what_was_played(tmp_path_factory, data, system, steps):
    t, ledger, names = play(data, system, steps)
    path = tmp_path_factory.mktemp("p") / "s.toml"
    store.write_full(path, document(t.state, t.events, t.last_seq()))
    loaded, _ = load_tracker(path, read_only=True)  # as polku review opens it

    rerolled = sum(1 for e in t.events if (e.get("roll") or {}).get("rerolls", (e.get("roll") or {}).get("supersedes"))
                   is not None)
    event(f"{system}: rerolls {'yes' if rerolled else 'no'}")
    event(f"undone events {'yes' if t.undone else 'no'}")
    event(f"a character left {'yes' if set(names) - set(t.characters) else 'no'}")
    event(f"undone boundary {'yes' if any(e['kind'] == 'structure' and t.is_undone(e['seq']) for e in t.events) else 'no'}")
    want = expected_rows(ledger, names)
    s = st.compute(loaded)
    got = {c.name: (c.rolls, c.wins, c.losses, c.ties, c.glitches, c.critical_glitches)
           for c in s.characters if c.rolls}
    assert got == want
    assert s.rolls == len(ledger.contests())
    faces = Counter((f.size, face) for f in s.faces for face, n in enumerate(f.counts, 1) for _ in range(n))
    assert faces == ledger.faces(), "every die entered by hand, each once"
    assert all(f.manual for f in s.faces)

    # the review's table, the GM's report and the players' report say the same
    table = review_rows(s, system)
    gm, players = export(loaded, "md", gm=True), export(loaded, "md", gm=False)
    for md in (gm, players):
        rows = report_rows(md)
        assert {n: tuple(int(x) for x in cells[:4]) for n, cells in rows.items()} == {
            n: w[:4] for n, w in want.items()}
        assert rows == {n: table[n] for n in rows}
        assert f"\n{len(ledger.contests())} roll" in md
        if md is players and not any(e["kind"] not in ("undo", "redo") and not loaded.is_undone(e["seq"])
                                     for e in loaded.events):
            # everything was undone: the players' report (which leaves out what was undone) is empty
            assert "*The log is empty.*" in md and "### Scene" not in md
        else:
            assert [line[4:] for line in md.splitlines() if line.startswith("### Scene")] == ledger.scenes()
    if system == "shadowrun":
        assert {n: (int(c[6]), int(c[7])) for n, c in report_rows(gm).items()} == {n: w[4:] for n, w in want.items()}
    assert [("Scene " + ".".join(map(str, sc.at)) + (f": {sc.title}" if sc.title else ""))
            for sc in History.of(loaded).scenes(loaded.is_undone)] == ledger.scenes()


def test_the_review_rows_parser_reads_names_with_spaces():
    """A guard for the helper above: the review's table keeps multi-word names whole."""
    t = Tracker.new("rajapolku", "x", clock=lambda: "2026-11-28T18:00:00Z")
    a = _new_character(t, "rajapolku", "Anna Maria")
    b = _new_character(t, "rajapolku", "Bo")
    t.rolls.roll_raja(RajaSide("Anna Maria", [a]), RajaSide("Bo", [b]), faces=([9], [3]))
    rows = review_rows(st.compute(t), "rajapolku")
    assert rows["Anna Maria"][:4] == ["1", "1", "0", "0"] and rows["Bo"][:4] == ["1", "0", "1", "0"]

