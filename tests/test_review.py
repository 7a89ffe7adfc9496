"""``polku review``: the state at any event (replay), statistics, the review screens."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from app_fixtures import until_quiet
from polku.cli import main
from polku.rules.system import Settings
from polku.session import demo, store
from polku.session.files import document, load_tracker
from polku.session.model import clone
from polku.session.review.replay import History, ReplayError, states_forward
from polku.session.review.stats import chi2_sf, chi_square, compute, event_tags, gamma_q
from polku.session.rolls import RajaSide
from polku.session.tracker import Tracker

THEMES = Path(__file__).resolve().parents[1] / "themes"


def recorded_build(build, monkeypatch):
    """Build a demo, recording the state after every command."""
    states: dict[int, dict] = {}
    orig = Tracker._append

    def _append(self, events):
        out = orig(self, events)
        states[out[-1]["seq"]] = clone(self.state)
        return out

    monkeypatch.setattr(Tracker, "_append", _append)
    t = build()
    t.undo()
    t.undo()
    t.redo()
    monkeypatch.setattr(Tracker, "_append", orig)
    return t, states


# ---------------------------------------------------------------------------
# replay


@pytest.mark.parametrize("name", sorted(demo.DEMOS))
@pytest.mark.parametrize("every", [1, 3, 64])
def test_history_matches_the_state_after_every_command(name, every, monkeypatch):
    t, states = recorded_build(demo.DEMOS[name], monkeypatch)
    h = History.of(t, every=every)
    assert h.error is None
    for seq, state in states.items():
        assert h.state_at(seq) == state, f"state after event {seq}"
    # stepping backwards and forwards through the cache gives the same states
    for seq in sorted(states, reverse=True):
        assert h.state_at(seq) == states[seq]


def test_history_backwards_agrees_with_forwards_replay(monkeypatch):
    t, _ = recorded_build(demo.demo_varjojuoksu, monkeypatch)
    h = History.of(t)
    assert h.initial is not None and h.initial["characters"] == {}
    for seq, state in states_forward(h.initial, t.events):
        assert h.state_at(seq) == state
    assert h.state_at(t.last_seq()) == t.state
    assert h.state_at(0) == h.initial


def test_history_of_a_file_with_a_snapshot_in_the_middle(tmp_path, monkeypatch):
    """A file folds early events into [state]; the past is still rebuilt from the log."""
    t, states = recorded_build(demo.demo_rajapolku, monkeypatch)
    path = tmp_path / "s.toml"
    snap_seq = 9
    store.write_full(path, document(states[snap_seq], [e for e in t.events if e["seq"] <= snap_seq], snap_seq))
    store.append_events(path, [e for e in t.events if e["seq"] > snap_seq])
    loaded, _ = load_tracker(path, read_only=True)
    h = History.of(loaded, every=4)
    for seq, state in states.items():
        assert h.state_at(seq) == state


def test_history_of_a_hand_edited_log_stops_with_one_line():
    t = demo.demo_rajapolku()
    events = clone(t.events)
    events[4]["changes"] = [{"path": ["no", "such"], "before": 1, "after": 2}]
    h = History(t.state, events)
    assert h.error and h.error.startswith("event 5:")
    assert h.earliest_seq == 5
    assert h.state_at(t.last_seq()) == t.state
    with pytest.raises(ReplayError):
        h.state_at(2)


def test_scenes_have_their_titles():
    h = History.of(demo.demo_rajapolku())
    assert [(s.at, s.first_seq, s.title) for s in h.scenes()] == [
        ((1, 1, 1), 1, ""), ((1, 1, 2), 5, "The market at dawn"), ((1, 1, 3), 15, "The old hospital")]


# ---------------------------------------------------------------------------
# statistics


def test_chi_square_survival_function_known_values():
    assert chi2_sf(3.841458820694124, 1) == pytest.approx(0.05, abs=1e-12)
    assert chi2_sf(11.070497693516351, 5) == pytest.approx(0.05, abs=1e-12)
    assert chi2_sf(21.665994333461924, 9) == pytest.approx(0.01, abs=1e-12)
    assert chi2_sf(2.0, 2) == pytest.approx(0.36787944117144233, abs=1e-14)  # exp(-1)
    assert chi2_sf(0.0, 3) == 1.0
    assert gamma_q(1.0, 5.0) == pytest.approx(0.006737946999085467)  # exp(-5)


def test_chi_square_of_perfectly_even_and_of_loaded_dice():
    assert chi_square([10] * 6) == (0.0, 5, 1.0)
    stat, dof, p = chi_square([0, 0, 0, 0, 0, 60])
    assert (stat, dof) == (300.0, 5) and p < 1e-60


def test_statistics_per_character():
    s = {c.cid: c for c in compute(demo.demo_rajapolku()).characters}
    assert (s["alyosha"].rolls, s["alyosha"].wins, s["alyosha"].degrees, s["alyosha"].story_points_spent) == (1, 1, 1, 1)
    assert s["alyosha"].story_bought == ["a patrol hears the noise and scares the guards off"]
    assert (s["igor-bondarenko"].degrees, s["igor-bondarenko"].charges_spent) == (3, 1)
    assert s["the-pickpocket"].losses == 1
    # luck: the exact chance of Alyosha's 4 dice against the pickpocket's 3
    assert s["alyosha"].expected_wins + s["the-pickpocket"].expected_wins == pytest.approx(1.0)
    v = {c.cid: c for c in compute(demo.demo_varjojuoksu()).characters}
    assert v["nyx"].edge_spent == 1 and v["kaneda"].net_hits == 3


def test_a_rerolled_roll_counts_once():
    """H7: the edge reroll replaces the roll; its copied dice are not counted twice."""
    s = compute(demo.demo_harhapolku())
    people = {c.cid: c for c in s.characters}
    assert people["lena"].rolls == 1 and people["lena"].edge_rerolls == 1
    hand = sum(f.total for f in s.faces if f.manual)
    assert hand == 6 + 3 + 5  # the first roll, the reroll's 3 new dice, 5 narration dice


def test_undone_rolls_are_left_out():
    t = demo.demo_rajapolku()
    t.rolls.roll_raja(RajaSide("Alyosha", ["alyosha"], backgrounds=["Runner"]), RajaSide("GM", []), faces=([9, 8], [1]))
    before = {c.cid: c.wins for c in compute(t).characters}
    t.undo()
    after = compute(t)
    assert {c.cid: c.wins for c in after.characters}["alyosha"] == before["alyosha"] - 1
    assert after.undone == 1


def test_outcome_tags():
    t = demo.demo_rajapolku()
    roll = next(e for e in t.events if e["seq"] == 8)
    assert event_tags(roll, Settings()) == {"win", "loss"}
    assert event_tags(roll, Settings(), "alyosha") == {"win"}
    assert event_tags(roll, Settings(), "the-pickpocket") == {"loss"}


# ---------------------------------------------------------------------------
# the CLI


def test_review_of_a_bad_file_is_one_line_and_status_2(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text("schema = [", encoding="utf-8")
    for path in (bad, tmp_path / "missing.toml"):
        assert main(["review", str(path)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("polku: error: ") and err.count("\n") == 1


def test_review_error_path_does_not_import_textual(tmp_path):
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(f"""
        import contextlib, io, json, sys
        from polku.cli import main
        with contextlib.redirect_stderr(io.StringIO()):
            status = main(["review", {str(tmp_path / 'nope.toml')!r}])
        print(json.dumps({{"status": status, "ui": [m for m in sys.modules if m.split('.')[0] in ('textual', 'rich')]}}))
    """)], capture_output=True, text=True, timeout=60)
    data = json.loads(proc.stdout)
    assert data == {"status": 2, "ui": []}


@pytest.mark.parametrize("module", ["polku.session.review.replay", "polku.session.review.stats", "polku.session.review.export",
                                    "polku.session.players.public", "polku.session.players.players_file"])
def test_pure_modules_never_import_the_ui(module):
    proc = subprocess.run([sys.executable, "-c", f"import {module}, sys, json; "
                           "print(json.dumps([m for m in sys.modules if m.split('.')[0] in ('textual', 'rich')]))"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == []


# ---------------------------------------------------------------------------
# snapshots (80x24)


def review_app(build=demo.demo_varjojuoksu):
    from polku.tui.review import ReviewApp

    return ReviewApp(build(), Path("demo.toml"), theme="polku-dark", theme_dirs=[THEMES])


def pressed(*keys: str):
    """A run_before: each key once the app has handled the one before (a list a key opens is up), then quiet."""

    async def run_before(pilot) -> None:
        await until_quiet(pilot)
        for key in keys:
            await pilot.press(key)
            await until_quiet(pilot)
        await pilot.wait_for_scheduled_animations()

    return run_before


class TestReviewSnapshots:
    def test_timeline_late(self, snap_compare):
        """The last event is selected: the state pane shows the session's final state."""
        assert snap_compare(review_app(), run_before=pressed(), terminal_size=(80, 24))

    def test_timeline_early(self, snap_compare):
        """Event 7: the first roll is selected; nobody has rolled initiative and Kaneda is unhurt."""
        assert snap_compare(review_app(), run_before=pressed("home", *["down"] * 6),
                            terminal_size=(80, 24))

    def test_timeline_early_rajapolku_undone(self, snap_compare):
        """Rajapolku at event 11 (Igor's ability roll): one charge spent, still Healthy; the undone story point is struck."""

        def build():
            t = demo.demo_rajapolku()
            t.spend_story_point("igor-bondarenko", "a crowbar in the gutter")
            t.undo()
            return t

        assert snap_compare(review_app(build), run_before=pressed("home", *["down"] * 10), terminal_size=(80, 24))

    def test_filter_character_and_outcome(self, snap_compare):
        """Only Kaneda's wins: c then 2 (Kaneda), o then 2 (win)."""
        assert snap_compare(review_app(), run_before=pressed("c", "2", "o", "2"), terminal_size=(80, 24))

    def test_filter_kind(self, snap_compare):
        """Only rolls: f picks the kind from a list."""
        assert snap_compare(review_app(), run_before=pressed("f", "5"), terminal_size=(80, 24))

    def test_statistics(self, snap_compare):
        """S: the per character table, wins and losses, luck against the exact odds."""
        assert snap_compare(review_app(), run_before=pressed("S"), terminal_size=(80, 24))

    def test_statistics_dice(self, snap_compare):
        """S then End: the d6 faces against the fair expectation, with the chi-square verdict."""
        assert snap_compare(review_app(), run_before=pressed("S", "end"), terminal_size=(80, 24))
