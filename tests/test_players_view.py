"""Issue 22, players' view (secrets and truth): what ``watch``, a seat and the players' export show.

Each case is checked through the view's real output: the screen of ``polku watch`` or
``polku play`` in the Textual pilot, and ``polku export`` (the players' report, Markdown
and HTML). The players' lines are projections of the events' facts
(:mod:`polku.session.players.public`); the property test in ``tests/test_secrets.py`` covers the
same cases over generated sessions.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app_fixtures import SIZE_IDS, SIZES, pilot_test, screen_text, until
from polku.session import demo, store
from polku.session.files import document, open_session
from polku.session.players import seats
from polku.session.players.players_file import Follower, publish
from polku.session.rolls import RajaSide, SRPool, SRSide
from polku.session.tracker import Tracker

THEMES = Path(__file__).resolve().parents[1] / "themes"


def write(path: Path, t: Tracker) -> Path:
    """The session file, and the players' file the GM's app would write beside it (all the views read)."""
    store.write_full(path, document(t.state, t.events, t.last_seq()))
    publish(path, t)
    return path


def gm_saves(sf, t) -> None:
    """The GM's app's save, headless: the session file, then the players' file (what the views read)."""
    sf.save_now(t)
    publish(sf.path, t)


def watch_app(path: Path):
    from polku.tui.watch import WatchApp

    return WatchApp(path, follower=Follower(path, now=lambda: "20:15:00"), theme="polku-dark",
                    theme_dirs=[THEMES], interval=0.05)


def seat_app(path: Path, cid: str = "kaneda"):
    from polku.tui.seat import SeatApp

    return SeatApp(path, cid, follower=Follower(path, now=lambda: "20:15:00"), theme="polku-dark",
                   theme_dirs=[THEMES], interval=0.05)


def told(app, text: str) -> bool:
    """A notification on screen says ``text``."""
    return any(text in n.message for n in app._notifications)


def log_numbers(app) -> list[int]:
    """The numbers at the start of every line of the players' dice log (all of it, not only what is in view)."""
    from polku.tui.render import event_line
    from polku.tui.widgets.dice_log import DiceLog

    log = app.screen.query_one(DiceLog)
    lines = [event_line(ev, {}, system=log.system, undone=log.is_undone(ev["seq"])).plain for ev in log.events]
    return [int(m.group(1)) for m in (re.match(r"\s*(\d+) ", line) for line in lines) if m]


def gm_does(path: Path, what) -> Tracker:
    """The GM's app, headless: open the session, do ``what``, save."""
    t, sf = open_session(path, seed=1)
    what(t)
    gm_saves(sf, t)
    sf.close()
    return t


# ---------------------------------------------------------------------------
# 12. The initiative line shows the scores in force, in order, as the turn pane does


def wounded_initiative() -> Tracker:
    """Kaneda (6 boxes: −2) rolls 3 hits (11 as rolled, 9 in force), Nyx 2 hits (10); the secret Ganger rolls too."""
    t = demo.demo_varjojuoksu()
    t.set_condition("kaneda", "physical", 6)
    t.update_character("ganger", "secret", True)
    t.rolls.roll_initiative([("kaneda", 1), ("nyx", 1), ("ganger", 1)],
                            faces=[5, 5, 6, 2, 2, 2, 2, 2] + [5, 5, 2, 2, 2, 2, 2, 2] + [6, 6, 6, 6, 6, 6])
    assert t.events[-3]["text"] == "Initiative: Ganger 12, Nyx 10, Kaneda 9", "the GM's line"
    return t


@pilot_test
async def test_watch_shows_the_initiative_in_force_in_order(tmp_path):
    """12: the players' log line reads as their turn pane (Nyx 10, Kaneda 9), not the raw 11 out of order."""
    path = write(tmp_path / "s.toml", wounded_initiative())
    app = watch_app(path)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app._shown is not None, "the view")
        text = screen_text(app)
        assert "order: Nyx 10, Kaneda 9 │" in text
        assert "Kaneda 11" not in text and "Ganger" not in text
        turns = re.findall(r"^ [·▶✓] +(\d+ \w+)", text, re.M)
        assert turns == ["10 Nyx", "9 Kaneda"], "the turn pane agrees"


def test_the_players_export_shows_the_initiative_in_force_in_order(tmp_path, capsys):
    """12: the players' report (Markdown and HTML) words the initiative as the GM's log, without the secret Ganger."""
    from polku.cli import main

    path = write(tmp_path / "s.toml", wounded_initiative())
    assert main(["export", str(path)]) == 0
    md = capsys.readouterr().out
    assert "→ **order: Nyx 10, Kaneda 9**" in md and "Ganger" not in md
    assert main(["export", str(path), "--format", "html"]) == 0
    assert "→ <strong>order: Nyx 10, Kaneda 9</strong>" in capsys.readouterr().out


# ---------------------------------------------------------------------------
# 13. Nothing of a GM-only roll reaches the players through the harm or damage that follows it


def harm_after_gm_roll() -> Tracker:
    """Igor loses a GM-only roll by 2 degrees (R6) and the GM confirms the proposed harm."""
    t = demo.demo_rajapolku()
    c = t.add_challenge("Cross the ice", ["igor-bondarenko"])
    with t.gm_only():
        ev = t.rolls.roll_raja(RajaSide("Igor Bondarenko", ["igor-bondarenko"]),
                               RajaSide("GM: the ice", [], backgrounds=["Thin"]), challenge=c["id"],
                               faces=([2], [9, 8]))["event"]
    assert ev["roll"]["outcome"]["degrees"] == 2
    t.damage.apply_harm(t.damage.harm_offer(ev))
    assert t.events[-1]["text"].startswith("Igor Bondarenko: Wounded → Mortally wounded; health: lost 'Cross the ice'")
    return t


def damage_after_gm_roll() -> Tracker:
    """The Ganger's GM-only attack hits Kaneda with 3 net hits; Kaneda resists Pistol 5P (8P in all)."""
    t = demo.demo_varjojuoksu()
    with t.gm_only():
        ev = t.rolls.roll_sr_opposed(SRSide("Ganger", ["ganger"], dice=6), SRSide("Kaneda", ["kaneda"], dice=3),
                                     faces=([5, 5, 6, 6, 1, 2], [5, 2, 3]))["event"]
    assert ev["roll"]["outcome"]["net_hits"] == 3
    t.damage.apply(ev, target="kaneda", dv=5, weapon="Pistol", armour=0, faces=[5, 1, 2, 3])
    assert "8P" in t.events[-1]["text"], "the GM's log keeps the DV with the net hits"
    return t


@pilot_test
async def test_watch_shows_nothing_of_a_gm_only_roll_through_the_harm_after_it(tmp_path):
    """13: the GM's harm line and its default note said "lost a challenge (2 degrees)"; the players see the
    wound in Igor's row and no number of the GM's roll."""
    path = write(tmp_path / "s.toml", harm_after_gm_roll())
    app = watch_app(path)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: "the GM rolls" in screen_text(app), "the view")
        text = screen_text(app)
        assert "(2 degrees)" not in text and "Wounded → Mortally wounded" not in text
        assert "lost 'Cross the ice'" in text, "Igor's health note, in the characters pane"


@pytest.mark.parametrize("made,secrets", [
    (harm_after_gm_roll, ("(2 degrees)", "Wounded → Mortally wounded")),
    (damage_after_gm_roll, ("8P", "Pistol 5P", "Kaneda takes")),
], ids=["harm", "damage"])
def test_the_players_export_shows_nothing_of_a_gm_only_roll_through_harm_or_damage(tmp_path, capsys, made, secrets):
    """13: neither the harm's degrees nor the damage's DV with the GM's net hits (8P) reach the players' report."""
    from polku.cli import main

    path = write(tmp_path / "s.toml", made())
    for fmt in ("md", "html"):
        assert main(["export", str(path), "--format", fmt]) == 0
        out = capsys.readouterr().out
        assert [w for w in secrets if w in out] == [], fmt


# ---------------------------------------------------------------------------
# 14. The players' numbers skip nothing: the GM's secrets are not counted


def noted_session() -> Tracker:
    """The Varjojuoksu demo with two of the GM's notes between public events."""
    t = demo.demo_varjojuoksu()
    t.note("the Johnson lies")
    t.spend_edge("kaneda", "a lucky break")
    t.note("the ganger has a second gun")
    t.new_scene("The docks")
    return t


@pilot_test
async def test_watch_numbers_the_players_events_one_by_one(tmp_path):
    """14: the GM's log numbers its notes; ``watch`` numbers what the players see 1, 2, 3 … without a gap."""
    t = noted_session()
    gm_seqs = [e["seq"] for e in t.events]
    path = write(tmp_path / "s.toml", t)
    app = watch_app(path)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: "The docks" in screen_text(app), "the view")
        numbers = log_numbers(app)
        assert numbers == list(range(1, len(numbers) + 1)), numbers
        assert len(numbers) < len(gm_seqs), "the notes are not shown"
        # Live: the GM notes again and rolls; the next number follows the last one shown.
        gm_does(path, lambda g: (g.note("a third secret"), g.spend_edge("nyx", "a second wind")))
        await until(pilot, lambda: "a second wind" in screen_text(app), "the appended events")
        assert log_numbers(app) == list(range(1, len(numbers) + 2))
        assert re.search(rf"\b{len(numbers) + 1} \S Nyx spends Edge: a second wind", screen_text(app))


def test_the_players_export_numbers_its_lines_as_watch_does(tmp_path, capsys):
    """14: the players' report (Markdown and HTML) numbers its lines 1, 2, 3 … like ``watch``; the GM's, its log's."""
    from polku.cli import main

    t = noted_session()
    path = write(tmp_path / "s.toml", t)
    assert main(["export", str(path)]) == 0
    md = capsys.readouterr().out
    numbers = [int(n) for n in re.findall(r"^- (\d+) · ", md, re.M)]
    assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) > 10, numbers
    assert f"· {len(numbers)} events" in md
    assert "Johnson" not in md and "second gun" not in md
    assert main(["export", str(path), "--format", "html"]) == 0
    html = capsys.readouterr().out
    assert [int(n) for n in re.findall(r"<li>(\d+) · ", html)] == numbers
    assert main(["export", str(path), "--gm"]) == 0
    gm = [int(n) for n in re.findall(r"^- (\d+) · ", capsys.readouterr().out, re.M)]
    assert gm == [e["seq"] for e in t.events], "the GM's report numbers the GM's log"


# ---------------------------------------------------------------------------
# 15. What the GM undid is gone from every players' view


def asked_session(tmp_path: Path) -> Path:
    t = demo.demo_varjojuoksu()
    seats.ask_sr(t, "kaneda", SRPool(skill="Pistols", attribute="agility"), threshold=2)
    return write(tmp_path / "night.toml", t)


def gm_applies(path: Path) -> list[seats.SeatAnswer]:
    t, sf = open_session(path, seed=1)
    answers = [seats.handle(t, path, cid, p) for cid, p in seats.incoming(path)]
    gm_saves(sf, t)
    sf.close()
    return [a for a in answers if a is not None]


@pilot_test
async def test_a_seat_drops_a_result_the_gm_undid_live_and_on_reopen(tmp_path):
    """15: the seat rolls, the GM applies it, then undoes it: the result leaves the seat's panel and log."""
    path = asked_session(tmp_path)
    app = seat_app(path)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: "The GM asks you to roll" in screen_text(app), "the request")
        await pilot.press("r")
        await until(pilot, lambda: seats.waiting(path, "kaneda"), "the request file")
        [answer] = gm_applies(path)
        assert answer["ok"]
        await until(pilot, lambda: "✓ Kaneda:" in screen_text(app), "the answer")
        result = gm_does(path, lambda g: None).events[-1]
        assert result["seat"] == "kaneda"
        summary = result["roll"]["summary"]
        assert summary in screen_text(app)
        gm_does(path, lambda g: g.undo())
        await until(pilot, lambda: app.full() is not None and app._shown_roll(app.full(), result["seq"]) is None,
                    "the undo in the players' file")
        await until(pilot, lambda: told(app, "The GM undid your roll"), "the seat to say so")
        text = screen_text(app)
        assert summary not in text and "✓ Kaneda:" not in text and "Undid" not in text
        assert "The GM asks you to roll" in text, "the request is open again"
    again = seat_app(path)
    async with again.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: "The GM asks you to roll" in screen_text(again), "the reopened seat")
        assert summary not in screen_text(again)


@pilot_test
async def test_watch_drops_what_the_gm_undid_live_and_on_reopen(tmp_path):
    """15: an undone roll and its undo line are not in ``watch``; a redo brings the roll back in its place."""
    t = demo.demo_varjojuoksu()
    path = write(tmp_path / "s.toml", t)
    app = watch_app(path)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app._shown is not None, "the view")
        before = log_numbers(app)
        gm_does(path, lambda g: g.spend_edge("nyx", "a desperate dodge"))
        await until(pilot, lambda: "a desperate dodge" in screen_text(app), "the spending")
        gm_does(path, lambda g: g.undo())
        await until(pilot, lambda: "a desperate dodge" not in screen_text(app), "the undo")
        assert log_numbers(app) == before and "Undid" not in screen_text(app)
        gm_does(path, lambda g: g.redo())
        await until(pilot, lambda: "a desperate dodge" in screen_text(app), "the redo")
        assert "Redid" not in screen_text(app) and log_numbers(app) == before + [len(before) + 1]
        gm_does(path, lambda g: g.undo())
        await until(pilot, lambda: "a desperate dodge" not in screen_text(app), "the second undo")
    again = watch_app(path)
    async with again.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: again._shown is not None, "the reopened view")
        assert "a desperate dodge" not in screen_text(again) and log_numbers(again) == before


# ---------------------------------------------------------------------------
# Pictures (80x24 and 120x40)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
class TestPictures:
    def test_seat_after_the_gm_undid_its_roll(self, snap_compare, tmp_path, size):
        """15: Kaneda rolled, the GM undid it: the result leaves the panel (a notification says why), the request
        is asked again; the roll is not in the log."""
        path = asked_session(tmp_path)

        async def run_before(pilot):
            app = pilot.app
            await until(pilot, lambda: "The GM asks you to roll" in screen_text(app), "the request")
            await pilot.press("r")
            await until(pilot, lambda: seats.waiting(path, "kaneda"), "the request file")
            gm_applies(path)
            await until(pilot, lambda: "✓ Kaneda:" in screen_text(app), "the answer")
            gm_does(path, lambda g: g.undo())
            await until(pilot, lambda: told(app, "The GM undid your roll") and "✓ Kaneda:" not in screen_text(app),
                        "the undo")
            await pilot.wait_for_scheduled_animations()

        assert snap_compare(seat_app(path), run_before=run_before, terminal_size=size)

    def test_watch_numbers_the_players_lines(self, snap_compare, tmp_path, size):
        """14: two of the GM's notes between public events; the players' lines are numbered without a gap."""
        path = write(tmp_path / "s.toml", noted_session())

        async def run_before(pilot):
            await until(pilot, lambda: "The docks" in screen_text(pilot.app), "the view")
            await pilot.wait_for_scheduled_animations()

        assert snap_compare(watch_app(path), run_before=run_before, terminal_size=size)
