"""Players' seats in the apps: ``polku play`` rolls what the GM asks, the GM's app applies it, no secret leaks."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from app_fixtures import (
    SIZE_IDS,
    SIZES,
    demo_session,
    freeze_cursors,
    make_app,
    pilot_test,
    screen_text,
    settle,
    until,
    until_quiet,
)
from polku.rules import shadowrun as sr
from polku.session import demo, store
from polku.session.files import document, load_tracker, open_session
from polku.session.players import seats
from polku.session.players.players_file import Follower, publish
from polku.session.rolls import SRPool, SRSide
from polku.session.table.gear import Weapon
from polku.session.tracker import Tracker
from polku.tui.screens.prompts import FacesPrompt
from polku.tui.watch import PlayerHelp

THEMES = Path(__file__).resolve().parents[1] / "themes"
PISTOLS = SRPool(skill="Pistols", attribute="agility")


def write(path: Path, t: Tracker) -> Path:
    """The session file, and the players' file the GM's app would write beside it (the seat reads only that)."""
    store.write_full(path, document(t.state, t.events, t.last_seq()))
    publish(path, t)
    return path


def gm_saves(sf, t) -> None:
    """The GM's app's save, headless: the session file, then the players' file (what the views read)."""
    sf.save_now(t)
    publish(sf.path, t)


def seat_app(path: Path, cid: str = "kaneda"):
    from polku.tui.seat import SeatApp

    return SeatApp(path, cid, follower=Follower(path, now=lambda: "20:15:00"), theme="polku-dark",
                   theme_dirs=[THEMES])


async def wait_until(pilot, predicate, what: str) -> None:
    """Until ``predicate()`` holds, then until the app has handled what that caused (a picture's state)."""
    await until(pilot, predicate, what)
    await until_quiet(pilot)


def gm_applies(path: Path) -> list[seats.SeatAnswer]:
    """The GM's side, headless: open the session, apply every waiting request, save."""
    t, sf = open_session(path)
    answers = [seats.handle(t, path, cid, p) for cid, p in seats.incoming(path)]
    gm_saves(sf, t)
    sf.close()
    return [a for a in answers if a is not None]


def offer_session(tmp_path: Path, *, threshold: int = 2, hidden: bool = False) -> Path:
    t = demo.demo_varjojuoksu()
    seats.ask_sr(t, "kaneda", PISTOLS, threshold=threshold, hidden=hidden)
    return write(tmp_path / "night.toml", t)


# ---------------------------------------------------------------------------
# the seat


@pilot_test
async def test_the_seat_shows_the_request_rolls_it_and_shows_the_result(tmp_path):
    path = offer_session(tmp_path, threshold=2)
    app = seat_app(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: "The GM asks you to roll" in screen_text(app), "the request")
        text = screen_text(app)
        assert "Pistols 4 + Agility 5 − 1 (wounds) = 8 dice" in text
        assert "threshold 2: success 80.5%" in text, "the exact odds of 8 dice for 2 hits"
        await pilot.press("r")
        await wait_until(pilot, lambda: seats.waiting(path, "kaneda"), "the request file")
        assert "waiting for the GM's app" in screen_text(app)
        assert load_tracker(path, read_only=True)[0].events[-1]["kind"] == "seat", "the seat wrote no session"
        [answer] = gm_applies(path)
        assert answer["ok"]
        roll = load_tracker(path, read_only=True)[0].events[-1]
        assert roll["seat"] == "kaneda"
        # the roll's line up to its first comma: a longer line (a glitch named by its size) wraps in the panel
        head = roll["text"].split(",")[0]
        await wait_until(pilot, lambda: f"✓ {head}" in screen_text(app), "the answer and the roll it made")
        text = screen_text(app)
        assert "The GM asks you to roll" not in text
        assert "e  Edge after" in text


@pilot_test
async def test_physical_dice_with_edge_before_are_asked_wave_by_wave(tmp_path):
    from polku.tui.screens.prompts import FacesPrompt

    path = offer_session(tmp_path, threshold=2)
    app = seat_app(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: "The GM asks you to roll" in screen_text(app), "the request")
        await pilot.press("e")
        await settle(pilot)
        assert "Edge before the roll: on" in screen_text(app)
        # 11 dice, rule of six: the odds of at least 1 hit are shown for the pool with Edge.
        assert "hits ≥1 98.8%" in screen_text(app)
        await pilot.press("f")
        await wait_until(pilot, lambda: isinstance(app.screen, FacesPrompt), "the faces prompt")
        assert app.screen.count == 11, "8 dice and 3 Edge dice (S7)"
        await pilot.press(*"6 6 1 2 3 4 5 2 3 4 1", "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, FacesPrompt) and app.screen.count == 2, "the sixes")
        await pilot.press(*"6 3", "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, FacesPrompt) and app.screen.count == 1, "a six again")
        await pilot.press("2", "enter")
        await wait_until(pilot, lambda: seats.waiting(path, "kaneda"), "the request file")
        req = json.loads(next(seats.seat_dir(path, "kaneda").glob("req-*.json")).read_text())
        assert req["faces"] == [6, 6, 1, 2, 3, 4, 5, 2, 3, 4, 1, 6, 3, 2] and req["edge_before"] is True
        [answer] = gm_applies(path)
        assert answer["ok"], answer
        t = load_tracker(path, read_only=True)[0]
        assert t.events[-1]["roll"]["manual"] is True and t.characters["kaneda"]["edge"] == 2


def raja_offer_session(tmp_path: Path, *, seed: int | None = 7) -> Path:
    """Alyosha asked for a Rajapolku challenge; ``seed=None``: a committed dice secret (random: no snapshots)."""
    from polku.session.rolls import RajaSide

    t = demo.demo_rajapolku(seed=seed)
    c = t.add_challenge("Over the gate", ["alyosha"])
    seats.ask_raja(t, "alyosha", RajaSide("Alyosha", backgrounds=["Runner", "Militia"]),
                   RajaSide("GM: the locked gate", backgrounds=["Heavy"]), challenge=c["id"])
    return write(tmp_path / "raja.toml", t)


def prompt_error(app) -> str:
    return str(app.screen.query_one("#prompt-error").render())


@pilot_test
async def test_a_rajapolku_seat_types_its_physical_dice_with_inline_errors(tmp_path):
    from polku.session.players.verify import verify
    from polku.tui.screens.prompts import FacesPrompt

    path = raja_offer_session(tmp_path, seed=None)
    app = seat_app(path, "alyosha")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: "The GM asks you to roll" in screen_text(app), "the request")
        assert "f your own dice" in screen_text(app)
        await pilot.press("f")
        await wait_until(pilot, lambda: isinstance(app.screen, FacesPrompt), "the faces prompt")
        assert app.screen.count == 3 and app.screen.sides == (10, 10, 10), "the action die and two backgrounds"
        await pilot.press(*"9 7", "enter")
        await wait_until(pilot, lambda: "3" in prompt_error(app), "the count's error")
        assert isinstance(app.screen, FacesPrompt), "a wrong count is said inline"
        await pilot.press("space", "1", "1", "enter")
        await wait_until(pilot, lambda: "11" in prompt_error(app), "the face's error")
        assert isinstance(app.screen, FacesPrompt), "a d10 cannot show 11"
        await pilot.press("backspace", "enter")
        await wait_until(pilot, lambda: seats.waiting(path, "alyosha"), "the request file")
        [answer] = gm_applies(path)
        assert answer["ok"], answer
        await wait_until(pilot, lambda: "✓ Alyosha" in screen_text(app), "the answer")
        row = next(line for line in screen_text(app).splitlines() if "✓ Alyosha" in line)
        assert row.rstrip().endswith("…"), "a result longer than the panel is cut with an ellipsis, not clipped"
    t = load_tracker(path, read_only=True)[0]
    roll = t.events[-1]["roll"]
    assert [d["face"] for d in roll["sides"][0]["dice"]] == [9, 7, 1] and roll["hand"] == ["a"]
    rep = verify(t.events, t.state, t.undone)
    assert rep.ok and any(h.startswith(f"seq {t.events[-1]['seq']} (side a;") for h in rep.hand)


@pilot_test
async def test_edge_after_a_physical_roll_asks_the_edge_dice_wave_by_wave(tmp_path):
    from polku.tui.screens.prompts import FacesPrompt

    path = offer_session(tmp_path, threshold=2)
    gm, sf = open_session(path)  # the GM's app stays open: Edge after works on a roll of this sitting (S7)

    def gm_applies_open() -> list[seats.SeatAnswer]:
        answers = [seats.handle(gm, path, cid, p) for cid, p in seats.incoming(path)]
        gm_saves(sf, gm)
        return [a for a in answers if a is not None]

    app = seat_app(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: "The GM asks you to roll" in screen_text(app), "the request")
        await pilot.press("f")
        await wait_until(pilot, lambda: isinstance(app.screen, FacesPrompt), "the faces prompt")
        await pilot.press(*"5 6 1 2 3 3 4 2", "enter")
        await wait_until(pilot, lambda: seats.waiting(path, "kaneda"), "the request file")
        gm_applies_open()
        await wait_until(pilot, lambda: "e  Edge after" in screen_text(app), "the follow-ups")
        await pilot.press("e")
        await wait_until(pilot, lambda: isinstance(app.screen, FacesPrompt), "the Edge dice prompt")
        assert app.screen.count == 3, "Edge rating 3 (S7)"
        await pilot.press(*"6 5 1", "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, FacesPrompt) and app.screen.count == 1, "the six's die")
        await pilot.press("4", "enter")
        await wait_until(pilot, lambda: seats.waiting(path, "kaneda"), "the action request")
        [answer] = gm_applies_open()
        assert answer["ok"], answer
    sf.close()
    t = load_tracker(path, read_only=True)[0]
    new = next(e for e in reversed(t.events) if e["kind"] == "roll")
    assert new["roll"]["manual"] is True and new["roll"]["outcome"]["hits"] == 4, "2 hits + the 6 and 5; 4 is no hit"
    assert t.characters["kaneda"]["edge"] == 2


@pilot_test
async def test_a_roll_shown_in_the_seat_asks_no_layout_pass_and_the_long_lived_heap_is_frozen(tmp_path):
    """Speed measures for the players' views (ARCHITECTURE.md): the one-row status lines change without a
    layout pass (which re-sent every scrollbar, ~0.9 KB a roll at 120x40), and after a whole reading the
    objects that live as long as the view are left out of the garbage collector's full passes."""
    import gc

    from textual.widgets import Static

    path = offer_session(tmp_path, threshold=2)
    app = seat_app(path)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: "The GM asks you to roll" in screen_text(app), "the request")
        assert gc.get_freeze_count() > 0, "the whole reading's objects are frozen"
        first = app.follower.view.tracker.events[0]
        layouts: list[bool] = []
        for widget in (app.screen.query_one("#status-line", Static), app.screen.query_one("#seat-status")):
            real = widget.refresh

            def spy(*args, real=real, **kwargs):
                layouts.append(bool(kwargs.get("layout")))
                return real(*args, **kwargs)

            widget.refresh = spy
        gm, sf = open_session(path)
        gm.rolls.roll_sr(gm.rolls.sr_side("nyx", SRPool(skill="Hacking", attribute="logic")), threshold=3)
        gm_saves(sf, gm)
        sf.close()
        last = gm.last_seq()
        await wait_until(pilot, lambda: f"· live · {last} events" in screen_text(app) or
                         f"live · {len(gm.events)} events" in screen_text(app), "the roll")
        assert layouts and not any(layouts), "the status lines changed without a layout pass"
        # The players' file is read whole, but an event line seen before is not parsed again.
        assert app.follower.view.tracker.events[0] is first


def test_every_seat_key_is_in_its_help():
    from polku.tui.seat import SEAT_HELP, SeatScreen

    for b in SeatScreen.BINDINGS:
        assert b.id and b.tooltip, b
        shown = {"question_mark": "?", "tab": "tab"}.get(b.key, b.key)
        assert any(line.lstrip().startswith(shown) or f" {shown} " in line or f"/ {shown}" in line
                   for line in SEAT_HELP.splitlines()), f"{b.key} ({b.description}) is not in the seat's help"


@pilot_test
async def test_the_seats_palette_offers_what_works_now(tmp_path):
    path = offer_session(tmp_path, threshold=2)
    app = seat_app(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: "The GM asks you to roll" in screen_text(app), "the request")
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert titles[:3] == ["Seat: Roll", "Seat: Physical dice", "Seat: Edge"]
        assert "Seat: Story point" not in titles and "Seat: Edge reroll" not in titles, "not Varjojuoksu rules"
        assert titles[-3:] == ["Theme", "Help", "Quit"]
        roll = next(c for c in app.get_system_commands(app.screen) if c.title == "Seat: Roll")
        roll.callback()
        await wait_until(pilot, lambda: seats.waiting(path, "kaneda"), "the request file")


# ---------------------------------------------------------------------------
# the GM's app


@pilot_test
async def test_the_gms_app_applies_a_seats_request_and_answers(tmp_path):
    tracker, sf = demo_session(tmp_path, "varjojuoksu")
    offer = seats.ask_sr(tracker, "kaneda", PISTOLS, threshold=2)["seq"]
    seats.seat_dir(sf.path, "kaneda").mkdir(parents=True)  # as Kaneda's seat makes it when it opens
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        rid = seats.write_request(sf.path, "kaneda", "roll", offer=offer, faces=[5, 6, 1, 2, 3, 3, 4, 2])
        await wait_until(pilot, lambda: seats.read_answer(sf.path, "kaneda", rid) is not None, "the answer")
        roll = tracker.events[-1]
        assert roll["seat"] == "kaneda" and roll["offer"] == offer and roll["text"] == "Kaneda: 2 hits, success, 0 net"
        await settle(pilot)
        text = screen_text(app)
        assert "2 hits, success, 0 net" in text, "in the GM's dice log"
        assert [(n.title, n.message) for n in app._notifications][-1] == (
            "Kaneda's seat", "Kaneda: 2 hits, success, 0 net"), "and the GM is told who rolled it"
        # The same request file is applied once; an undo on the GM's screen takes the roll back.
        await pilot.press("u")
        await settle(pilot)
        assert [o.seq for o in seats.pending_offers(tracker)] == [offer]
    saved = load_tracker(sf.path, read_only=True)[0]
    assert sum(1 for e in saved.events if e.get("seat") == "kaneda" and e["kind"] == "roll") == 1


@pilot_test
async def test_under_approve_a_seats_own_roll_waits_for_the_gms_a_and_a_refused_one_says_so(tmp_path):
    """seats.own_rolls = approve: the seat's own roll is checked, the seat told it waits, nothing rolled until
    the GM presses A; one the GM refuses (the palette) is answered so, one the character may not make is
    refused at once with its reason."""
    tracker, sf = demo_session(tmp_path, "varjojuoksu")
    tracker.set_setting("seats.own_rolls", "approve")
    tracker.roster.set_weapon("kaneda", None, Weapon("Ares Predator", 5, "physical", sr.parse_ap(0), "Pistols", "ranged"))
    seats.seat_dir(sf.path, "kaneda").mkdir(parents=True)
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        rolls = sum(1 for e in tracker.events if e["kind"] == "roll")
        first = seats.write_request(sf.path, "kaneda", "own", test="sr-success", key="skill:Pistols",
                                    faces=[5, 6, 1, 2, 3, 3, 4, 2])
        second = seats.write_request(sf.path, "kaneda", "own", test="sr-success", key="skill:Sneaking")
        never = seats.write_request(sf.path, "kaneda", "own", test="sr-attack", key="ganger")
        await wait_until(pilot, lambda: all(seats.read_answer(sf.path, "kaneda", r) for r in (first, second, never)),
                         "the answers")
        assert seats.read_answer(sf.path, "kaneda", first) == {
            "v": 1, "id": first, "ok": True, "waiting": True, "text": "waiting for the GM's approval",
            "what": "Pistols + Agility: 8 dice"}
        assert seats.read_answer(sf.path, "kaneda", never)["text"] == "not your turn: Nyx acts (S12)"
        assert sum(1 for e in tracker.events if e["kind"] == "roll") == rolls, "nothing rolled before the GM's A"
        await pilot.press("A")
        await wait_until(pilot, lambda: not (seats.read_answer(sf.path, "kaneda", first) or {}).get("waiting"),
                         "the roll's answer")
        ans = seats.read_answer(sf.path, "kaneda", first)
        ev = tracker.event_by_seq(ans["roll"])
        assert ans["ok"] and ev["seat"] == "kaneda" and ev["roll"]["outcome"]["hits"] == 2
        app.decide_seat_roll(app.seat_waiting[0], False)  # the palette's "Seat: refuse Kaneda's own roll"
        await wait_until(pilot, lambda: not (seats.read_answer(sf.path, "kaneda", second) or {}).get("waiting"),
                         "the refusal")
        assert seats.read_answer(sf.path, "kaneda", second)["text"] == "the GM said no to this roll; nothing was rolled"
        assert app.seat_waiting == [] and sum(1 for e in tracker.events if e["kind"] == "roll") == rolls + 1
        assert list(seats.seat_dir(sf.path, "kaneda").glob("held-*")) == [], "decided: held no more"
        # One still waiting when the GM quits stays waiting (held in the seat's folder) for the app's next start.
        last = seats.write_request(sf.path, "kaneda", "own", test="sr-success", key="skill:Sneaking")
        await wait_until(pilot, lambda: (seats.read_answer(sf.path, "kaneda", last) or {}).get("waiting"), "it waits")
        await wait_until(pilot, lambda: (seats.seat_dir(sf.path, "kaneda") / f"held-{last}.json").exists(), "held")
        await pilot.press("q")
    assert seats.read_answer(sf.path, "kaneda", last)["waiting"] is True


@pilot_test
async def test_an_own_roll_waiting_for_approval_survives_the_gms_app_killed_and_reopened(tmp_path):
    """seats.own_rolls = approve: the GM's app ends without quitting (killed) while a seat's own roll waits; the
    app opened again lists it as waiting (A approves it), the seat learns the outcome; one the character can
    no longer make is refused with the reason and held no more."""
    from polku.session.files import open_session

    tracker, sf = demo_session(tmp_path, "varjojuoksu")
    tracker.set_setting("seats.own_rolls", "approve")
    tracker.combat.next()  # Kaneda acts
    tracker.roster.set_weapon("kaneda", None, Weapon("Ares Predator", 5, "physical", sr.parse_ap(0), "Pistols", "ranged"))
    folder = seats.seat_dir(sf.path, "kaneda")
    folder.mkdir(parents=True)
    path = sf.path
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        rid = seats.write_request(path, "kaneda", "own", test="sr-success", key="skill:Pistols",
                                  faces=[5, 6, 1, 2, 3, 3, 4, 2])
        gone = seats.write_request(path, "kaneda", "own", test="sr-attack", key="ganger")
        await wait_until(pilot, lambda: len(list(folder.glob("held-*"))) == 2, "both held")
        assert seats.read_answer(path, "kaneda", rid)["waiting"] is True
    del app  # ended without q: nothing answered, nothing decided (a kill)
    assert seats.read_answer(path, "kaneda", rid)["waiting"] is True
    tracker, sf = open_session(path)
    rolls = sum(1 for e in tracker.events if e["kind"] == "roll")
    tracker.combat.next()  # no longer Kaneda's turn: the attack cannot be made now
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: len(app.seat_waiting) == 1, "the held roll waits again")
        assert (app.seat_waiting[0].cid, app.seat_waiting[0].rid) == ("kaneda", rid)
        await wait_until(pilot, lambda: not (folder / f"held-{gone}.json").exists(), "the refused one released")
        assert seats.read_answer(path, "kaneda", gone)["text"].startswith("not your turn")
        assert any(n.message.startswith("asks to roll: Pistols + Agility: 8 dice") for n in app._notifications), \
            "the GM is told again what waits"
        await pilot.press("A")
        await wait_until(pilot, lambda: not (seats.read_answer(path, "kaneda", rid) or {}).get("waiting"), "decided")
        ans = seats.read_answer(path, "kaneda", rid)
        ev = tracker.event_by_seq(ans["roll"])
        assert ans["ok"] and ev["seat"] == "kaneda" and [d["face"] for d in ev["roll"]["sides"][0]["dice"]] == [
            5, 6, 1, 2, 3, 3, 4, 2]
        assert sum(1 for e in tracker.events if e["kind"] == "roll") == rolls + 1
        await wait_until(pilot, lambda: list(folder.glob("held-*")) == [], "held no more")
        assert app.seat_waiting == []


def test_a_held_request_is_read_back_as_safely_as_a_request_and_only_for_its_own_seat(tmp_path):
    """What lies in a seat's folder named like a held request is read without following a link, refused when
    it speaks for another seat, and never removed by reading it."""
    path = tmp_path / "s.toml"
    path.write_text("")
    req = {"v": 1, "id": "00000000000000b1", "seat": "kaneda", "kind": "own", "at": 0, "test": "sr-success",
           "key": "skill:Pistols"}
    seats.hold(path, "kaneda", req)
    seats.hold(path, "nyx", {**req, "id": "00000000000000b2"})  # Kaneda's request in Nyx's folder
    secret = tmp_path / "gm-notes.json"
    secret.write_text(json.dumps({**req, "id": "00000000000000b3", "seat": "nyx"}))
    (seats.seat_dir(path, "nyx") / "held-00000000000000b3.json").symlink_to(secret)
    look = seats.held_requests(path)
    got = {(t.cid, t.rid): (t.request, t.refused, t.held) for t in look.taken}
    assert got[("kaneda", "00000000000000b1")] == (req, "", True)
    assert got[("nyx", "00000000000000b2")][0] is None and "another seat" in got[("nyx", "00000000000000b2")][1]
    assert got[("nyx", "00000000000000b3")] == (None, "the request is a symbolic link, not a file", True)
    assert len(list(seats.spool_dir(path).glob("*/held-*"))) == 3, "reading removes nothing"
    seats.release(path, "kaneda", "00000000000000b1")
    assert [t.rid for t in seats.held_requests(path).taken if t.cid == "kaneda"] == []


@pilot_test
async def test_the_gm_is_told_which_seat_its_answer_could_not_be_written_into(tmp_path, monkeypatch):
    """A seat folder the GM's account may not write into (its group's w missing): the request is applied
    as ever, and the GM reads one line naming the seat and what to fix, instead of nothing."""
    import errno
    import os

    tracker, sf = demo_session(tmp_path, "varjojuoksu")
    offer = seats.ask_sr(tracker, "kaneda", PISTOLS, threshold=2)["seq"]
    seats.seat_dir(sf.path, "kaneda").mkdir(parents=True)
    real_open = os.open

    def no_answer(name, flags, *args, **kwargs):
        if isinstance(name, str) and name.startswith(".ans-") and flags & os.O_CREAT:
            raise PermissionError(errno.EACCES, "Permission denied")
        return real_open(name, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", no_answer)
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        rid = seats.write_request(sf.path, "kaneda", "roll", offer=offer, faces=[5, 6, 1, 2, 3, 3, 4, 2])
        await wait_until(pilot, lambda: any(n.message == seats.SEAT_CANNOT_ANSWER for n in app._notifications),
                         "the GM's line")
        told = [(n.title, n.message) for n in app._notifications if n.severity == "warning"]
        assert told == [("Kaneda's seat", seats.SEAT_CANNOT_ANSWER)], told
        assert "chmod 2770" in told[0][1], "the fix"
        assert tracker.events[-1]["seat"] == "kaneda", "the roll stands"
        assert seats.read_answer(sf.path, "kaneda", rid) is None and seats.waiting(sf.path, "kaneda") == []
        await pilot.press("q")


def test_an_answer_that_cannot_be_written_is_named_with_its_reason(tmp_path, monkeypatch):
    """deliver: a folder replaced by a file, a full disk, a refused folder: each seat's one line."""
    import errno

    path = offer_session(tmp_path)
    seats.spool_dir(path).mkdir()
    (seats.spool_dir(path) / "nyx").write_text("not a folder")
    real = seats.write_answer

    def full(session_path, cid, answer):
        if cid == "ganger":
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(session_path, cid, answer)

    monkeypatch.setattr(seats, "write_answer", full)
    ok = {"v": 1, "id": "0123456789abcdef", "ok": True, "text": "x"}
    lost = seats.deliver(path, [("kaneda", ok), ("nyx", ok), ("ganger", ok)])
    assert lost == {"nyx": seats.SEAT_NOT_A_FOLDER,
                    "ganger": seats.SEAT_ANSWER_FAILED.format(why="No space left on device")}, lost
    assert seats.read_answer(path, "kaneda", "0123456789abcdef") == ok


@pilot_test
async def test_the_roll_screens_key_sends_the_pool_to_the_seat(tmp_path):
    from polku.tui.screens.roll import SRRollScreen

    tracker, sf = demo_session(tmp_path, "varjojuoksu")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        from polku.tui.screens.roll import roll_screen_for

        app.push_screen(roll_screen_for(tracker, None, actor="kaneda"))
        await settle(pilot)
        assert isinstance(app.screen, SRRollScreen)
        for _ in range(6):  # Kaneda is in the fight with a pistol: the screen opens on an opposed test
            if app.screen.test == "success":
                break
            await pilot.press("t")
            await settle(pilot)
        assert app.screen.test == "success", "t reaches the success test"
        app.screen.hidden = True
        app.screen.threshold = 3
        await pilot.press("P")
        await settle(pilot)
        assert not isinstance(app.screen, SRRollScreen), "sent: the roll screen closes"
    [offer] = seats.pending_offers(tracker)
    assert offer.cid == "kaneda" and offer.threshold == 3 and offer.hidden
    assert tracker.events[-1]["text"].endswith("threshold hidden by the GM")


@pilot_test
async def test_the_gms_attack_at_a_player_character_goes_to_the_defenders_seat(tmp_path):
    """P on an opposed test whose defender is a player character: the attack waits for that seat's defence."""
    from polku.tui.screens.roll import SRRollScreen, roll_screen_for

    tracker, sf = demo_session(tmp_path, "varjojuoksu")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        app.push_screen(roll_screen_for(tracker, None, actor="ganger"))
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, SRRollScreen)
        while screen.test != "opposed":
            await pilot.press("t")
            await settle(pilot)
        screen.set_who(screen.b, "kaneda")
        await pilot.press("P")
        await settle(pilot)
        assert not isinstance(app.screen, SRRollScreen), "sent: the roll screen closes"
        assert [(n.title, n.message) for n in app._notifications][-1] == (
            "Roll request sent", "Kaneda's player rolls it from their seat (polku play)")
    [offer] = seats.pending_offers(tracker)
    assert offer.cid == "kaneda" and offer.test == "sr-defend" and offer.opposition["who"] == ["ganger"]


# ---------------------------------------------------------------------------
# secrets


MARK = "QXSECRET"


def secret_session(tmp_path: Path) -> Path:
    """Every kind of secret carries a marker: a secret character, notes, a log note, a GM-only roll,
    a hidden threshold (47, a number nothing else on the screen shows)."""
    t = demo.demo_varjojuoksu()
    t.add_character(f"Mr {MARK} Johnson", kind="npc", secret=True)
    t.update_character("kaneda", "notes", f"owes {MARK}-notes money")
    t.note(f"{MARK}-lognote: the Johnson is the sergeant")
    with t.gm_only():
        t.rolls.roll_sr(SRSide(f"{MARK}-gmroll", [], dice=4), threshold=1)
    seats.ask_sr(t, "kaneda", PISTOLS, threshold=47, hidden=True)
    return write(tmp_path / "night.toml", t)


def leaks(text: str) -> list[str]:
    """Secret markers in drawn text; the threshold 47 as a number of its own (not inside an id)."""
    found = [m for m in (MARK, "Johnson", "sergeant") if m in text]
    return found + (["47"] if re.search(r"(?<![0-9a-f])47(?![0-9a-f])", text) else [])


RANDOM_KEYS = ("id", "t", "time", "at", "sent", "seed")
"""Spool fields made of random hex or clock digits, where '47' can show by chance."""


def json_leaks(node: Any, key: str = "") -> list[str]:
    """Secret markers in a spool file's values: any 47, any marker in a text (random ids and times aside)."""
    if isinstance(node, dict):
        return [m for k, v in node.items() for m in json_leaks(v, str(k))]
    if isinstance(node, list):
        return [m for v in node for m in json_leaks(v, key)]
    if isinstance(node, bool):
        return []
    if isinstance(node, (int, float)):
        return ["47"] if node == 47 and key not in RANDOM_KEYS else []
    if isinstance(node, str):
        return [] if key in RANDOM_KEYS and not leaks(node.replace("47", "")) else leaks(node)
    return []


@pilot_test
async def test_no_secret_reaches_the_seats_screen_or_its_answers(tmp_path):
    path = secret_session(tmp_path)
    for size in ((120, 40), (80, 24)):
        app = seat_app(path)
        async with app.run_test(size=size) as pilot:
            await wait_until(pilot, lambda app=app: "The GM asks you to roll" in screen_text(app), "the request")
            assert "the GM keeps the threshold hidden" in screen_text(app)
            assert leaks(screen_text(app)) == []
            await pilot.press("question_mark")
            await wait_until(pilot, lambda app=app: isinstance(app.screen, PlayerHelp), "the help")
            assert leaks(screen_text(app)) == []
            await pilot.press("escape")
            await wait_until(pilot, lambda app=app: not isinstance(app.screen, PlayerHelp), "the seat again")
            if size == (80, 24):
                # While the seat runs, the GM's app logs more secrets: the players' file it publishes
                # holds none of them, and the seat shows none.
                gm, sf = open_session(path)
                with gm.gm_only():
                    gm.rolls.roll_sr(SRSide(f"{MARK}-second-gmroll", [], dice=3), threshold=1)
                gm.note(f"{MARK}-second-note")
                gm.undo()
                gm_saves(sf, gm)
                sf.close()
                reads = app.follower.reads
                await wait_until(pilot, lambda app=app, reads=reads: app.follower.reads > reads,
                                 "the players' file published after those events")
                assert leaks(screen_text(app)) == []
                await pilot.press("r")
                await wait_until(pilot, lambda: seats.waiting(path, "kaneda"), "the request file")
                answers = gm_applies(path)
                await wait_until(pilot, lambda app=app: "✓ Kaneda:" in screen_text(app), "the answer")
                assert leaks(screen_text(app)) == []
                for name in ("1", "2", "3", "4"):
                    await pilot.press(name)
                    await until_quiet(pilot)
                    assert leaks(screen_text(app)) == []
    full = load_tracker(path, read_only=True)[0]
    assert full.events[-1]["roll"]["threshold"] == 47, "the GM's log keeps the threshold"
    folder = seats.seat_dir(path, "kaneda")
    spooled = [json.loads(p.read_text()) for p in folder.iterdir()]
    assert answers and spooled and json_leaks(spooled) == [], "no secret in the seat's spool"
    assert json_leaks(answers) == []


def test_a_seat_is_refused_for_a_secret_or_unknown_character_and_without_a_terminal(tmp_path):
    path = secret_session(tmp_path)

    def play(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "polku.cli", "play", str(path), *args], capture_output=True,
                              text=True, timeout=60, stdin=subprocess.DEVNULL)

    secret = play("--as", f"Mr {MARK} Johnson")
    assert secret.returncode == 2 and secret.stderr.strip() == (
        "polku: error: no character 'Mr QXSECRET Johnson' in Neo-Helsinki 2072: Kylmä sade "
        "(players' characters: Ganger, Kaneda, Nyx)"), "a secret character is not even named"
    assert play("--as", "Nobody").returncode == 2
    no_tty = play("--as", "Kaneda")
    assert no_tty.returncode == 2 and no_tty.stderr.strip() == (
        "polku: error: play needs a terminal; connect with 'ssh -t HOST polku play FILE --as NAME'")
    assert not seats.spool_dir(path).exists(), "a refused seat writes nothing"


# ---------------------------------------------------------------------------
# snapshots


class TestSeatSnapshots:
    def test_request_80x24(self, snap_compare, tmp_path):
        """Kaneda's seat at 80x24: the GM's request with a hidden threshold, the odds of hits, Edge before."""
        path = offer_session(tmp_path, threshold=3, hidden=True)

        async def run_before(pilot):
            await wait_until(pilot, lambda: "The GM asks you to roll" in screen_text(pilot.app), "the request")

        assert snap_compare(seat_app(path), run_before=run_before, terminal_size=(80, 24))

    def test_after_the_roll_120x40(self, snap_compare, tmp_path):
        """At 120x40 after the roll: the result, and what the rules still allow (Edge after)."""
        path = offer_session(tmp_path, threshold=2)

        async def run_before(pilot):
            await wait_until(pilot, lambda: "The GM asks you to roll" in screen_text(pilot.app), "the request")
            t = load_tracker(path, read_only=True)[0]
            rid = seats.write_request(path, "kaneda", "roll", offer=t.last_seq(), faces=[5, 6, 1, 2, 3, 3, 4, 2])
            pilot.app.sent, pilot.app.sent_what = rid, "your roll"
            gm_applies(path)
            await wait_until(pilot, lambda: "✓ Kaneda:" in screen_text(pilot.app), "the answer")

        assert snap_compare(seat_app(path), run_before=run_before, terminal_size=(120, 40))


def own_rolls_session(tmp_path: Path, *, attack_nyx: bool = False, approve: bool = False) -> Path:
    """The Varjojuoksu demo's fight with Kaneda armed and acting (and, with ``attack_nyx``, Kaneda's seat's
    attack at Nyx waiting for Nyx's seat to defend)."""
    from polku.session.players import seat_rolls

    t = demo.demo_varjojuoksu()
    t.roster.set_weapon("kaneda", None, Weapon("Ares Predator", 5, "physical", sr.parse_ap(-1), "Pistols", "ranged"))
    t.combat.next()
    if approve:
        t.set_setting("seats.own_rolls", "approve")
    if attack_nyx:
        rid = "00000000000000a1"
        seat_rolls.answer(t, seats.Taken("kaneda", rid, {"v": 1, "id": rid, "seat": "kaneda", "kind": "own",
                                                         "test": "sr-attack", "key": "nyx", "at": 0}))
    return write(tmp_path / "own.toml", t)


@pilot_test
async def test_the_seat_sends_its_own_roll_and_says_when_it_waits_for_the_gm(tmp_path):
    """o, 2, r: the Pistols test is sent as the seat's own roll; an answer saying it waits keeps the seat
    waiting (and says so), the GM's refusal then ends the wait with its reason."""
    path = own_rolls_session(tmp_path, approve=True)
    app = seat_app(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: "a roll of your own" in screen_text(app), "the seat")
        await pilot.press("o")
        await wait_until(pilot, lambda: "Roll for your character" in screen_text(app), "the list")
        await pilot.press("2")
        await wait_until(pilot, lambda: "Your own roll (the GM approves it first)" in screen_text(app),
                         "the campaign's setting said")
        await pilot.press("r")
        await wait_until(pilot, lambda: seats.waiting(path, "kaneda"), "the request file")
        [rid] = seats.waiting(path, "kaneda")
        sent = json.loads((seats.seat_dir(path, "kaneda") / f"req-{rid}.json").read_text())
        assert {k: sent[k] for k in ("kind", "test", "key", "edge_before", "faces")} == {
            "kind": "own", "test": "sr-success", "key": "skill:Pistols", "edge_before": False, "faces": None}
        seats.write_answer(path, "kaneda", {"v": 1, "id": rid, "ok": True, "waiting": True,
                                            "text": "waiting for the GM's approval", "what": "Pistols"})
        await wait_until(pilot, lambda: "waiting for the GM's approval" in screen_text(app), "the wait said")
        assert app.sent == rid, "still waiting for the roll itself"
        seats.write_answer(path, "kaneda", {"v": 1, "id": rid, "ok": False,
                                            "text": "the GM said no to this roll; nothing was rolled"})
        await wait_until(pilot, lambda: "✗ the GM said no to this roll" in screen_text(app), "the refusal")
        assert app.sent is None and app.own is None


@pilot_test
async def test_each_own_roll_keeps_its_number_when_one_is_already_chosen(tmp_path):
    """o 2 picks Pistols; then o 3 r, typed at once as a player who knows the list: Sneaking is sent.
    (The "none" entry was listed first once a roll was chosen, which moved every roll down one: 3 was
    Pistols again.)"""
    path = own_rolls_session(tmp_path)
    app = seat_app(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: "a roll of your own" in screen_text(app), "the seat")
        await pilot.press("o")
        await wait_until(pilot, lambda: "Roll for your character" in screen_text(app), "the list")
        await pilot.press("2")
        await wait_until(pilot, lambda: app.own is not None and app.own.key == "skill:Pistols", "Pistols chosen")
        await pilot.press("o", "3", "r")
        await wait_until(pilot, lambda: seats.waiting(path, "kaneda"), "the request file")
        [rid] = seats.waiting(path, "kaneda")
        sent = json.loads((seats.seat_dir(path, "kaneda") / f"req-{rid}.json").read_text())
        assert (sent["test"], sent["key"]) == ("sr-success", "skill:Sneaking")


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
class TestOwnRollSnapshots:
    """A player's own rolls in the seat (issue 27), at 80x24 and 120x40."""

    def test_the_own_rolls_open_now(self, snap_compare, tmp_path, size):
        """o: Kaneda's rolls of his own on his turn: his skills' success tests and an attack at each fighter."""
        path = own_rolls_session(tmp_path)

        async def run_before(pilot):
            await wait_until(pilot, lambda: "a roll of your own" in screen_text(pilot.app), "the seat")
            await pilot.press("o")
            await wait_until(pilot, lambda: "Roll for your character" in screen_text(pilot.app), "the list")

        assert snap_compare(seat_app(path), run_before=run_before, terminal_size=size)

    def test_an_own_roll_picked_with_edge_before(self, snap_compare, tmp_path, size):
        """2, e: the Pistols test shown with its pool, Edge before on and the odds that follow from it."""
        path = own_rolls_session(tmp_path)

        async def run_before(pilot):
            await wait_until(pilot, lambda: "a roll of your own" in screen_text(pilot.app), "the seat")
            await pilot.press("o")
            await wait_until(pilot, lambda: "Roll for your character" in screen_text(pilot.app), "the list")
            await pilot.press("2")
            await wait_until(pilot, lambda: "Your own roll" in screen_text(pilot.app), "the roll")
            await pilot.press("e")
            await wait_until(pilot, lambda: "Edge before the roll: on" in screen_text(pilot.app), "Edge on")

        assert snap_compare(seat_app(path), run_before=run_before, terminal_size=size)

    def test_nyx_is_asked_to_defend(self, snap_compare, tmp_path, size):
        """Nyx's seat after Kaneda's seat attacked her: the attacker's dice, her defence and its odds."""
        path = own_rolls_session(tmp_path, attack_nyx=True)

        async def run_before(pilot):
            await wait_until(pilot, lambda: "Kaneda attacks you" in screen_text(pilot.app), "the defence")

        assert snap_compare(seat_app(path, "nyx"), run_before=run_before, terminal_size=size)


async def still_cursor(pilot) -> None:
    """The field's cursor stops blinking (shown), so a picture does not depend on when it is taken."""
    freeze_cursors(pilot.app)
    await until_quiet(pilot)


def harha_offer_session(tmp_path: Path) -> Path:
    from polku.session.rolls import HarhaSide

    t = demo.demo_harhapolku()
    seats.ask_harha(t, "lena", HarhaSide("Lena", general="Island girl", background="Thief", special="Dream-walker"))
    return write(tmp_path / "harha.toml", t)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
class TestPhysicalDiceSnapshots:
    """The seat's screens for physical dice, at 80x24 and 120x40."""

    def test_rajapolku_request(self, snap_compare, tmp_path, size):
        """Alyosha's seat: the GM's Rajapolku challenge, her odds against the gate's 2 dice, and both keys
        (r: the program's dice, f: her own; the GM's side is always the program's, R5)."""
        path = raja_offer_session(tmp_path)

        async def run_before(pilot):
            await wait_until(pilot, lambda: "The GM asks you to roll" in screen_text(pilot.app), "the request")

        assert snap_compare(seat_app(path, "alyosha"), run_before=run_before, terminal_size=size)

    def test_rajapolku_faces_with_an_inline_error(self, snap_compare, tmp_path, size):
        """The GM's faces prompt on the seat: 3d10 in the pool's order (action, Runner, Militia), and a face a
        d10 cannot show said under the field, the prompt still open with what was typed."""
        path = raja_offer_session(tmp_path)

        async def run_before(pilot):
            await wait_until(pilot, lambda: "The GM asks you to roll" in screen_text(pilot.app), "the request")
            await pilot.press("f")
            await wait_until(pilot, lambda: isinstance(pilot.app.screen, FacesPrompt), "the faces prompt")
            await pilot.press(*"9 7 12", "enter")
            await wait_until(pilot, lambda: "12" in prompt_error(pilot.app), "the error under the field")
            await still_cursor(pilot)

        assert snap_compare(seat_app(path, "alyosha"), run_before=run_before, terminal_size=size)

    def test_harhapolku_faces_one_prompt_for_d8s_and_d10(self, snap_compare, tmp_path, size):
        """Lena's difficult action: one prompt for 3d8 + 1d10, each die named in order (H2)."""
        path = harha_offer_session(tmp_path)

        async def run_before(pilot):
            await wait_until(pilot, lambda: "The GM asks you to roll" in screen_text(pilot.app), "the request")
            await pilot.press("f")
            await wait_until(pilot, lambda: isinstance(pilot.app.screen, FacesPrompt), "the faces prompt")
            await still_cursor(pilot)

        assert snap_compare(seat_app(path, "lena"), run_before=run_before, terminal_size=size)

    def test_edge_after_a_physical_roll(self, snap_compare, tmp_path, size):
        """After a roll typed from physical dice, Edge after asks Kaneda for his 3 Edge dice (S7)."""
        path = offer_session(tmp_path, threshold=2)
        gm, sf = open_session(path)

        async def run_before(pilot):
            await wait_until(pilot, lambda: "The GM asks you to roll" in screen_text(pilot.app), "the request")
            t = load_tracker(path, read_only=True)[0]
            rid = seats.write_request(path, "kaneda", "roll", offer=t.last_seq(), faces=[5, 6, 1, 2, 3, 3, 4, 2])
            pilot.app.sent, pilot.app.sent_what = rid, "your roll"
            for cid, p in seats.incoming(path):
                seats.handle(gm, path, cid, p)
            gm_saves(sf, gm)
            await wait_until(pilot, lambda: "e  Edge after" in screen_text(pilot.app), "the follow-ups")
            await pilot.press("e")
            await wait_until(pilot, lambda: isinstance(pilot.app.screen, FacesPrompt), "the Edge dice prompt")
            await still_cursor(pilot)

        try:
            assert snap_compare(seat_app(path), run_before=run_before, terminal_size=size)
        finally:
            sf.close()


@pytest.fixture(autouse=True)
def _no_user_config(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


@pilot_test
async def test_a_seat_and_watch_never_open_the_session_file(tmp_path):
    """The players' account may not read the session file (docs/remote-play.md): here it is not even there
    (made a folder, which no read can open); the seat shows the request and sends its roll all the same."""
    from polku.tui.watch import WatchApp

    path = offer_session(tmp_path, threshold=2)
    path.unlink()
    path.mkdir()
    app = seat_app(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: "The GM asks you to roll" in screen_text(app), "the request")
        assert "threshold 2: success 80.5%" in screen_text(app)
        await pilot.press("r")
        await wait_until(pilot, lambda: seats.waiting(path, "kaneda"), "the request file")
    watch = WatchApp(path, follower=Follower(path, now=lambda: "20:15:00"), theme="polku-dark", theme_dirs=[THEMES])
    async with watch.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: "Kaneda" in screen_text(watch) and "live" in screen_text(watch), "the view")


def test_a_request_the_gm_app_may_not_remove_or_a_folder_it_may_not_open_is_a_seat_problem(tmp_path, monkeypatch):
    """A group permission missing on a seat's folder: the look names the seat and what to fix, and takes
    (applies) nothing it could not remove, since it would be applied again at every look."""
    import errno
    import os

    path = offer_session(tmp_path, threshold=2)
    rid = seats.write_request(path, "kaneda", "story_point", bought="x")
    real_unlink = os.unlink

    def no_unlink(name, *args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(os, "unlink", no_unlink)
    look = seats.take_requests(path)
    assert look.taken == [] and look.seat_problems == {"kaneda": seats.SEAT_CANNOT_REMOVE}
    assert seats.waiting(path, "kaneda") == [rid], "left where it was, not applied"
    monkeypatch.setattr(os, "unlink", real_unlink)
    real_open = os.open

    def no_folder(name, flags, *args, **kwargs):
        if name == "kaneda" and flags & os.O_DIRECTORY:
            raise PermissionError(errno.EACCES, "Permission denied")
        return real_open(name, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", no_folder)
    look = seats.take_requests(path)
    assert look.seat_problems == {"kaneda": seats.SEAT_CANNOT_OPEN} and "kaneda" in look.looked
    monkeypatch.setattr(os, "open", real_open)
    look = seats.take_requests(path)
    assert look.seat_problems == {} and [t.rid for t in look.taken] == [rid], "fixed: taken at the next look"


@pilot_test
async def test_the_gm_is_told_which_seat_cannot_be_read_and_the_seat_stops_waiting(tmp_path, monkeypatch):
    """The GM's app shows one line naming the seat and what to fix; the seat, told through the players'
    file, stops saying it waits and says why."""
    from polku.session.players.players_file import load_players

    path = offer_session(tmp_path, threshold=2)
    seat = seat_app(path)
    async with seat.run_test(size=(80, 24)) as seat_pilot:
        await wait_until(seat_pilot, lambda: "The GM asks you to roll" in screen_text(seat), "the request")
        await seat_pilot.press("r")
        await wait_until(seat_pilot, lambda: seats.waiting(path, "kaneda"), "the request file")
        assert "waiting for the GM's app" in screen_text(seat)

        stuck = seats.Look(seat_problems={"kaneda": seats.SEAT_CANNOT_REMOVE}, looked={"kaneda"})
        monkeypatch.setattr(seats, "take_requests", lambda *a, **k: stuck)
        gm_tracker, sf = open_session(path)
        gm = make_app(gm_tracker, sf, sessions_dir=tmp_path)
        async with gm.run_test(size=(100, 30)) as gm_pilot:
            await until(gm_pilot, lambda: any(n.title == "Kaneda's seat" and n.message == seats.SEAT_CANNOT_REMOVE
                                              for n in gm._notifications), "the GM's line naming the seat")
            await until(gm_pilot, lambda: load_players(path)[1] is not None and gm.all_saved()
                        and "kaneda" in json.loads(players_head(path)).get("seat_problems", {}),
                        "the players' file telling the seat")
            assert [n.message for n in gm._notifications].count(seats.SEAT_CANNOT_REMOVE) == 1, "said once"
            await wait_until(seat_pilot, lambda: "waiting for the GM's app" not in screen_text(seat),
                             "the seat to stop waiting")
            assert "cannot reach the GM" in screen_text(seat)
            assert seat.sent is None
            await gm_pilot.press("q")


def players_head(path: Path) -> str:
    """The players' file's head as a view reads it now (written whole, then saves appended), as JSON."""
    from polku.session.players.players_file import _Reading, players_path

    reading = _Reading("the players' file")
    reading.whole(players_path(path).read_bytes())
    return json.dumps(reading.head)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_picture_the_seat_shows_the_turn_order_and_says_your_turn(snap_compare, tmp_path, size):
    """In a fight the seat shows the turn order as watch does; Nyx acts (▶): her seat says it is her turn."""
    path = write(tmp_path / "night.toml", demo.demo_varjojuoksu())

    async def run_before(pilot):
        app = pilot.app
        await wait_until(pilot, lambda: "Your turn" in screen_text(app) and "Combat turn 1" in screen_text(app),
                         "the fight and the seat's turn")
        await pilot.wait_for_scheduled_animations()

    assert snap_compare(seat_app(path, "nyx"), run_before=run_before, terminal_size=size)


@pilot_test
async def test_only_the_acting_characters_seat_says_your_turn(tmp_path):
    path = write(tmp_path / "night.toml", demo.demo_varjojuoksu())
    app = seat_app(path, "kaneda")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: "Combat turn 1" in screen_text(app), "the fight")
        assert "Your turn" not in screen_text(app) and "your turn" not in screen_text(app)
        gm, sf = open_session(path)
        gm.combat.next()  # Nyx has acted: the marker moves on
        gm_saves(sf, gm)
        sf.close()
        acting = gm.state["combat"]["acting"]
        assert acting == "kaneda", acting
        await wait_until(pilot, lambda: "Your turn" in screen_text(app), "Kaneda's turn")
        assert "You: Kaneda · your turn" in screen_text(app)


def gm_applies_own(path: Path) -> list[seats.SeatAnswer]:
    """The GM's side, headless, as the GM's app does it: take every waiting request, answer it (a seat's own
    roll with seat_rolls.answer, the GM's named command), write the answers, save."""
    from polku.session.players import seat_rolls

    t, sf = open_session(path)
    answers = []
    for taken in seats.take_requests(path).taken:
        ans = seat_rolls.answer(t, taken)
        seats.write_answer(path, taken.cid, ans)
        answers.append(ans)
    gm_saves(sf, t)
    sf.close()
    return answers


def raja_own_session(tmp_path: Path) -> Path:
    """The Rajapolku demo with Alyosha's saved pool 'Chase' and a challenge under way against the Pickpocket."""
    t = demo.demo_rajapolku()
    t.roster.save_pool("alyosha", {"name": "Chase", "backgrounds": ["Runner", "Street-wise"], "abilities": []})
    t.start_challenge(t.add_challenge("Catch him again", ["alyosha"], ["the-pickpocket"])["id"])
    return write(tmp_path / "raja.toml", t)


@pilot_test
async def test_a_rajapolku_seat_rolls_its_own_challenge_with_physical_dice(tmp_path):
    """o, 1, f, 7 7 3: Alyosha's own roll of the challenge under way with her saved pool, her faces typed; the GM's
    app makes it (the Pickpocket's side with the program's dice) and the seat shows the result."""
    from polku.session.players.verify import verify

    path = raja_own_session(tmp_path)
    app = seat_app(path, "alyosha")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: "a roll of your own" in screen_text(app), "the seat")
        await pilot.press("o")
        await wait_until(pilot, lambda: "Roll for your character" in screen_text(app), "the list")
        assert "Chase: 3 dice against The Pickpocket's 3 (Catch him again)" in screen_text(app)
        await pilot.press("1")
        await wait_until(pilot, lambda: "Your own roll" in screen_text(app), "the roll")
        assert "you win" in screen_text(app) and "full tie" in screen_text(app), "the exact odds (R5)"
        await pilot.press("f")
        await wait_until(pilot, lambda: isinstance(app.screen, FacesPrompt), "the faces prompt")
        assert app.screen.count == 3 and app.screen.sides == (10, 10, 10)
        await pilot.press(*"7 7 3", "enter")
        await wait_until(pilot, lambda: seats.waiting(path, "alyosha"), "the request file")
        [answer] = gm_applies_own(path)
        assert answer["ok"], answer
        await wait_until(pilot, lambda: "✓ Alyosha" in screen_text(app), "the answer")
    t = load_tracker(path, read_only=True)[0]
    ev = t.events[-1]
    assert ev["seat"] == "alyosha" and ev["roll"]["test"] == "rajapolku"
    assert [d["face"] for d in ev["roll"]["sides"][0]["dice"]] == [7, 7, 3] and ev["roll"]["hand"] == ["a"]
    assert verify(t.events, t.state, t.undone).mismatches == []


@pilot_test
async def test_the_gms_app_makes_a_rajapolku_seats_own_roll_as_its_own_command(tmp_path):
    """The request reaches the running GM's app: checked against the same list, made as the GM's roll marked with the
    seat (one undoable event), and one the character may not make is refused with the reason."""
    tracker, sf = demo_session(tmp_path, "rajapolku")
    tracker.roster.save_pool("alyosha", {"name": "Chase", "backgrounds": ["Runner", "Street-wise"], "abilities": []})
    seats.seat_dir(sf.path, "alyosha").mkdir(parents=True)
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        early = seats.write_request(sf.path, "alyosha", "own", test="raja-challenge", key="pool:Chase")
        await wait_until(pilot, lambda: seats.read_answer(sf.path, "alyosha", early) is not None, "the refusal")
        assert seats.read_answer(sf.path, "alyosha", early)["text"] == \
            "no challenge is under way: the GM declares one (R1)"
        c = tracker.add_challenge("Catch him again", ["alyosha"], ["the-pickpocket"])["id"]
        tracker.start_challenge(c)
        n = len(tracker.events)
        rid = seats.write_request(sf.path, "alyosha", "own", test="raja-challenge", key=f"pool:Chase@{c}",
                                  faces=[9, 2, 2])
        await wait_until(pilot, lambda: seats.read_answer(sf.path, "alyosha", rid) is not None, "the answer")
        ans = seats.read_answer(sf.path, "alyosha", rid)
        assert ans["ok"] and len(tracker.events) == n + 1, "one event: the roll (resolving the challenge in it)"
        ev = tracker.event_by_seq(ans["roll"])
        assert ev["seat"] == "alyosha" and [d["face"] for d in ev["roll"]["sides"][0]["dice"]] == [9, 2, 2]
        await pilot.press("u")
        await settle(pilot)
        assert tracker.is_undone(ev["seq"])


@pilot_test
async def test_a_finnish_seat_shows_the_gms_refusal_in_finnish(tmp_path):
    """o, 2, e, r: Kaneda's own Pistols test with Edge before; the GM's app, the Edge gone meanwhile, refuses it
    with the reason, which the Finnish seat shows in Finnish (the answer's text stays English)."""
    from polku import i18n
    from polku.session.players import seat_rolls

    path = own_rolls_session(tmp_path)
    i18n.set_language("fi")
    app = seat_app(path)
    async with app.run_test(size=(80, 24)) as pilot:
        from polku.tui.screens.prompts import ChoicePrompt

        await wait_until(pilot, lambda: bool(app.own_rolls()), "the seat")
        await pilot.press("o")
        await wait_until(pilot, lambda: isinstance(app.screen, ChoicePrompt), "the list")
        await pilot.press("2", "e", "r")
        await wait_until(pilot, lambda: seats.waiting(path, "kaneda"), "the request file")
        t, sf = open_session(path)
        t.update_character("kaneda", "edge", 0)
        [taken] = seats.take_requests(path).taken
        ans = seat_rolls.answer(t, taken)
        seats.write_answer(path, "kaneda", ans)
        gm_saves(sf, t)
        sf.close()
        assert ans["text"] == "Edge before the roll is not open to you on this roll (S7)"
        await wait_until(pilot, lambda: "✗ Edge ennen heittoa ei ole käytettävissäsi" in screen_text(app),
                         "the refusal in Finnish")
