"""``polku watch``: what players see, following a file as it is saved, the view, remote play over SSH."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from app_fixtures import pilot_test, until, until_quiet
from polku.session import demo, store
from polku.session.files import document, load_tracker, open_session
from polku.session.players import watching
from polku.session.players.players_file import Follower, players_path, publish
from polku.session.players.public import public_view
from polku.session.rolls import RajaSide, SRSide
from polku.session.tracker import Tracker
from sshd_fixture import needs_ssh_tools, needs_sshd, new_key, running_sshd, wait_for

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


def public_seqs(t: Tracker) -> list[int]:
    return [e["seq"] for e in public_view(t).events]


def hidden_threshold_session() -> Tracker:
    t = demo.demo_varjojuoksu()
    c = t.add_challenge("Spot the ambush", ["kaneda"])
    t.rolls.roll_sr(SRSide("Kaneda", ["kaneda"], skill_name="Perception", skill=3, attribute_name="Intuition",
                     attribute=4), threshold=3, hidden=True, challenge=c["id"], faces=[5, 6, 2, 3, 1, 4, 2])
    t.update_character("ganger", "notes", "works for the Lone Star sergeant")
    t.update_character("ganger", "secret", True)
    t.note("The sergeant is the one who sold them out")
    return t


# ---------------------------------------------------------------------------
# what the players see


def test_secret_characters_and_notes_are_hidden():
    t = demo.demo_rajapolku()
    v = public_view(t)
    assert "ghost-of-the-nurse" not in v.characters
    assert all(ch["notes"] == "" for ch in v.characters.values())
    texts = " ".join(e["text"] for e in v.events)
    assert "Ghost of the Nurse" not in texts
    nurse = next(c for c in v.state["challenges"] if c["title"] == "Spirit combat with the Nurse")
    assert nurse["opposition"] == []
    assert v.read_only


def test_hidden_threshold_shows_hits_but_not_the_outcome():
    """S8: the GM may keep the threshold hidden from the players."""
    t = hidden_threshold_session()
    full = next(e for e in t.events if e.get("roll", {}).get("hidden"))
    assert full["text"] == "Kaneda: 2 hits, failure"
    v = public_view(t)
    ev = next(e for e in v.events if e["seq"] == full["seq"])
    roll = ev["roll"]
    assert ev["text"] == "Kaneda: 2 hits, threshold hidden by the GM"
    assert "threshold" not in roll and "success" not in roll["outcome"] and "net_hits" not in roll["outcome"]
    assert not any("threshold 3" in line or "success" in line for line in roll["explain"])
    chal = next(c for c in v.state["challenges"] if c["title"] == "Spot the ambush")
    assert chal["outcome"] == "2 hits, threshold hidden by the GM"
    assert "Ganger" not in " ".join(ch["name"] for ch in v.characters.values())
    assert not any(e["kind"] == "note" for e in v.events)
    assert not any("Lone Star sergeant" in e["text"] for e in v.events)
    assert all(e["changes"] == [] for e in v.events)
    assert all(e["who"] == [] or "ganger" not in e["who"] for e in v.events if e.get("who"))


# ---------------------------------------------------------------------------
# following the file


def test_follower_keeps_the_last_good_view(tmp_path):
    path = write(tmp_path / "s.toml", demo.demo_rajapolku())
    f = Follower(path, now=lambda: "20:15:00")
    assert f.poll() and f.problem is None and f.view is not None
    assert not f.poll(), "nothing changed"
    good = f.view
    players = players_path(path)
    players.write_text("schema = [", encoding="utf-8")
    assert f.poll()
    assert f.view is good and "is not a players' file" in (f.problem or "")
    assert f.status().endswith("showing the last good view from 20:15:00")
    players.unlink()
    assert f.poll()
    assert f.view is good and f.problem and f.problem.endswith("is missing")
    assert f.short_status() == "file missing · last good view from 20:15:00"
    assert not f.poll(), "still missing: nothing new"
    t = demo.demo_rajapolku()
    t.award_story_point("alyosha")
    write(path, t)
    assert f.poll() and f.problem is None
    assert f.view.tracker.last_seq() == 18


def test_follower_on_a_newer_players_file(tmp_path):
    path = tmp_path / "s.toml"
    players_path(path).write_text('{"format": "polku-players", "version": 99}\n', encoding="utf-8")
    f = Follower(path)
    f.poll()
    assert f.view is None and "another Polku version" in (f.problem or "")


def test_follower_never_opens_the_session_file(tmp_path):
    """The players' views read the players' file only: the session file may be unreadable to them."""
    path = write(tmp_path / "s.toml", demo.demo_rajapolku())
    path.write_text("schema = [", encoding="utf-8")  # the GM's file, broken: the players never read it
    f = Follower(path, now=lambda: "20:15:00")
    assert f.poll() and f.problem is None
    assert [e["seq"] for e in f.view.tracker.events] == public_seqs(demo.demo_rajapolku())


WRITER = textwrap.dedent("""
    import sys
    from pathlib import Path
    from polku.session.files import open_session
    from polku.session.players.players_file import publish
    from polku.session.rolls import RajaSide

    t, sf = open_session(Path(sys.argv[1]), seed=5)
    for i in range(int(sys.argv[2])):
        if i % 9 == 0:
            t.needs_full_save = True  # a full, atomic rewrite now and then; appends otherwise
        if i % 4 == 1:
            t.award_story_point("alyosha", f"round {i}")
        elif i % 4 == 3:
            t.spend_story_point("alyosha", f"round {i}")
        else:
            t.rolls.roll_raja(RajaSide("Alyosha", ["alyosha"], backgrounds=["Runner"]),
                        RajaSide("GM: round %d" % i, [], backgrounds=["Heavy"]))
        sf.save_now(t)
        publish(sf.path, t)  # as the GM's app does after each save
    sf.close()
""")


@pytest.mark.slow
def test_a_follower_never_sees_a_torn_state_while_the_gm_saves(tmp_path):
    path = write(tmp_path / "s.toml", demo.demo_rajapolku())
    rounds = 300
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(path), str(rounds)],
                              stderr=subprocess.PIPE, text=True)
    f = Follower(path)
    seen: list[tuple[int, ...]] = []
    deadline = time.monotonic() + 120
    try:
        while writer.poll() is None and time.monotonic() < deadline:
            if f.poll():
                assert f.problem is None, f.problem
                seqs = tuple(e["n"] for e in f.view.tracker.events)
                assert seqs == tuple(range(1, len(seqs) + 1))
                if seen:
                    assert len(seqs) >= len(seen[-1]), "the view never goes back in time"
                seen.append(seqs)
    finally:
        if writer.poll() is None:
            writer.kill()
        writer.wait(timeout=30)
    assert writer.returncode == 0, writer.stderr.read()
    final, _ = load_tracker(path, read_only=True)
    assert final.last_seq() == 17 + rounds
    f.poll()
    assert f.view.tracker.state == public_view(final).state
    assert len(seen) >= 5, f"the follower saw only {len(seen)} versions; the race was not exercised"


# ---------------------------------------------------------------------------
# snapshots (80x24)


def watch_app(path: Path):
    from polku.tui.watch import WatchApp

    return WatchApp(path, follower=Follower(path, now=lambda: "20:15:00"), theme="polku-dark",
                    theme_dirs=[THEMES], interval=0.05)


async def shown(pilot, t: Tracker) -> None:
    """Until the view shows what the players may see of ``t``, painted."""
    app = pilot.app
    seqs = public_seqs(t)

    def there() -> bool:
        view = app.follower.view
        return view is not None and [e["seq"] for e in view.tracker.events] == seqs and app._shown is view.tracker

    await until(pilot, there, f"the players' view of the session up to event {t.last_seq()}")
    await until_quiet(pilot)
    await pilot.wait_for_scheduled_animations()


class TestWatchSnapshots:
    def test_live(self, snap_compare, tmp_path):
        """The players' view: no secret ghost, no notes; the dice log follows the newest event."""
        t = demo.demo_rajapolku()
        path = write(tmp_path / "s.toml", t)
        assert snap_compare(watch_app(path), run_before=lambda pilot: shown(pilot, t),
                            terminal_size=(80, 24))

    def test_hidden_threshold(self, snap_compare, tmp_path):
        """Varjojuoksu with a hidden threshold: hits shown, success and threshold not; Ganger (secret) gone."""
        t = hidden_threshold_session()
        path = write(tmp_path / "s.toml", t)
        assert snap_compare(watch_app(path), run_before=lambda pilot: shown(pilot, t),
                            terminal_size=(80, 24))

    def test_follows_a_save(self, snap_compare, tmp_path):
        """After the GM rolls and saves, the new roll is at the bottom of the log."""
        path = write(tmp_path / "s.toml", demo.demo_rajapolku())

        async def run_before(pilot):
            t, sf = open_session(path, seed=1)
            t.rolls.roll_raja(RajaSide("Alyosha", ["alyosha"], backgrounds=["Street-wise"]),
                        RajaSide("GM: the night watchman", [], backgrounds=["Cudgel"]), faces=([9, 4], [8, 2]))
            gm_saves(sf, t)
            sf.close()
            await shown(pilot, t)

        assert snap_compare(watch_app(path), run_before=run_before, terminal_size=(80, 24))

    def test_broken_file_keeps_the_last_view(self, snap_compare, tmp_path):
        """The players' file breaks: the last good view stays and the status line says so."""
        path = write(tmp_path / "s.toml", demo.demo_rajapolku())

        async def run_before(pilot):
            await shown(pilot, demo.demo_rajapolku())
            players_path(path).write_text("schema = [", encoding="utf-8")
            # Shown, not only read: the warning toast comes with the view, then goes.
            await until(pilot, lambda: pilot.app.follower.problem and pilot.app._told == pilot.app.follower.problem,
                        "the view to say the file is broken")
            pilot.app.clear_notifications()
            await until_quiet(pilot)

        assert snap_compare(watch_app(path), run_before=run_before, terminal_size=(80, 24))


@pytest.mark.skipif(not watching.available(), reason="watchfiles is not installed (pip install -c constraints.txt -e .)")
@pilot_test
async def test_watch_is_told_of_a_save_instead_of_polling(tmp_path):
    """With inotify the view follows a save at once; the safety look every 2 s plays no part."""
    from polku.tui.watch import WatchApp

    path = write(tmp_path / "s.toml", demo.demo_rajapolku())
    app = WatchApp(path, follower=Follower(path, now=lambda: "20:15:00"), theme="polku-dark",
                   theme_dirs=[THEMES], interval=600)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.watch_mode, "the view to start watching")
        assert app.watch_mode == "inotify"
        t, sf = open_session(path, seed=1)
        t.rolls.roll_raja(RajaSide("Alyosha", ["alyosha"], backgrounds=["Street-wise"]),
                    RajaSide("GM: the night watchman", [], backgrounds=["Cudgel"]), faces=([9, 4], [8, 2]))
        gm_saves(sf, t)
        sf.close()
        # Polling would look again only after 600 s: inotify told the view (how fast: benchmarks/seats.py).
        await until(pilot, lambda: app._shown is not None and app._shown.last_seq() == public_seqs(t)[-1],
                    "the save to reach the view")
        assert "Alyosha wins" in app._shown.events[-1]["text"]


@pilot_test
async def test_the_players_log_pages_instead_of_scrolling_a_line_per_event(tmp_path):
    """The newest event is always in view; a new event moves nothing until the pane is full again."""
    from polku.tui.watch import WatchApp
    from polku.tui.widgets.dice_log import DiceLog

    path = write(tmp_path / "s.toml", demo.demo_rajapolku())
    app = WatchApp(path, follower=Follower(path, now=lambda: "20:15:00"), theme="polku-dark",
                   theme_dirs=[THEMES], interval=0.05, polling=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await shown(pilot, demo.demo_rajapolku())
        log = app.screen.query_one(DiceLog)
        height = log.scrollable_content_region.height
        t, sf = open_session(path, seed=1)
        offsets = []
        for i in range(height + 3):
            t.note(f"note {i}")  # withheld from players: only the roll lines below reach the view
            t.rolls.roll_raja(RajaSide("Alyosha", ["alyosha"], backgrounds=["Street-wise"]),
                              RajaSide("GM", [], backgrounds=["Cudgel"]), faces=([9, 4], [8, 2]))
            gm_saves(sf, t)
            await shown(pilot, t)
            rows = len(log._rows)
            y = log.scroll_offset.y
            assert y <= rows - 1 < y + height, f"the newest event is out of view after roll {i}"
            offsets.append(y)
        sf.close()
    moves = sum(1 for a, b in zip(offsets, offsets[1:]) if a != b)
    assert 1 <= moves <= 2, f"the log jumped {moves} times in {len(offsets)} rolls (a scrolling log moves every time)"


def test_watch_without_a_terminal_is_refused():
    proc = subprocess.run([sys.executable, "-m", "polku.cli", "watch", "whatever.toml"],
                          capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60)
    assert proc.returncode == 2
    assert proc.stderr.strip() == ("polku: error: watch needs a terminal; connect with 'ssh -t HOST polku watch FILE'")
    assert proc.stdout == ""


# ---------------------------------------------------------------------------
# remote play through a real OpenSSH server

@pytest.mark.slow
@needs_sshd
@needs_ssh_tools
def test_remote_play_over_ssh(tmp_path):
    """A player key restricted to ``polku watch FILE`` sees the view change when the GM rolls; no shell."""
    session = write(tmp_path / "night.toml", demo.demo_rajapolku())
    player_key = new_key(tmp_path / "player_ed25519")
    with running_sshd(tmp_path, {player_key: f"{sys.executable} -m polku.cli watch {session}"}) as sshd:
        tmux = ["tmux", "-L", f"polku-test-{os.getpid()}-{sshd.port}", "-f", os.devnull]
        try:
            # The same key cannot run a shell: the forced command runs instead, and without a terminal it refuses.
            shell = subprocess.run(sshd.ssh(player_key, "id"), capture_output=True, text=True, timeout=60,
                                   stdin=subprocess.DEVNULL)
            assert "uid=" not in shell.stdout + shell.stderr
            assert shell.returncode == 2
            assert "watch needs a terminal" in shell.stderr

            env = {**os.environ, "TERM": "xterm-256color"}
            subprocess.run(tmux + ["new-session", "-d", "-s", "player", "-x", "100", "-y", "30",
                                   " ".join(sshd.ssh(player_key, tty=True))], check=True, env=env)

            def screen() -> str:
                out = subprocess.run(tmux + ["capture-pane", "-p", "-t", "player"], capture_output=True, text=True)
                return out.stdout

            wait_for(lambda: "Dice log" in screen() and "The old hospital" in screen(), 60, "the watch view over ssh")
            assert "Ghost of the Nurse" not in screen()
            assert "uid=" not in screen()

            t, sf = open_session(session, seed=3)
            t.rolls.roll_raja(RajaSide("Alyosha", ["alyosha"], backgrounds=["Runner"]),
                        RajaSide("GM: the locked gate", [], backgrounds=["Heavy"]), faces=([9, 8], [3, 2]))
            gm_saves(sf, t)
            sf.close()
            wait_for(lambda: "Alyosha wins, 2 degrees" in screen(), 30, "the new roll to reach the player")

            subprocess.run(tmux + ["send-keys", "-t", "player", "q"], check=True)
            wait_for(lambda: subprocess.run(tmux + ["has-session", "-t", "player"],
                                             capture_output=True).returncode != 0, 30, "the player's view to close")
        finally:
            subprocess.run(tmux + ["kill-server"], capture_output=True)


def test_the_newest_roll_shows_even_when_the_log_outgrows_its_pane(tmp_path):
    """Each roll the GM saves is on the players' screen before the next one, also the roll
    that first makes the dice log longer than its pane (the view used to stop one row short)."""
    import asyncio

    from app_fixtures import screen_text
    from polku.session.files import open_session
    from polku.session.rolls import SRSide
    from polku.tui.watch import WatchApp

    path = tmp_path / "t.toml"
    t = demo.demo_varjojuoksu()
    write(path, t)
    tracker, sf = open_session(path)

    async def run() -> None:
        app = WatchApp(path, interval=0.05, theme="polku-dark",
                       theme_dirs=[Path(__file__).resolve().parents[1] / "themes"])
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app._shown is not None, "the first view")
            for i in range(14):
                label = f"Z{i:02d}"  # short: the line also names the glitch, and the row is 80 wide
                tracker.rolls.roll_sr(SRSide(label, dice=2), faces=[5, 1])
                gm_saves(sf, tracker)
                def drawn(label: str = label) -> bool:
                    return label in screen_text(app)

                await until(pilot, drawn, f"roll {i} on the players' screen")

    try:
        asyncio.run(run())
    finally:
        sf.close()
