"""A removed character: open challenges drop them (one undoable command), and
every remaining reference (resolved challenges, older files) reads "(removed)"
instead of crashing a screen or a report."""

from __future__ import annotations

import shutil
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app_fixtures import make_app, panes, pilot_test, screen_text, settle
from polku.session import demo, files, store
from polku.session.commands import command
from polku.session.files import load_tracker, open_session
from polku.session.model import clone
from polku.session.review.export import export
from polku.session.tracker import TrackerError
from polku.tui.screens.main import MainScreen
from polku.tui.screens.roll import RajaRollScreen

DEMO = Path(__file__).resolve().parents[1] / "sessions" / "demo-rajapolku.toml"
SIZE = (80, 24)


def test_removing_a_character_drops_them_from_open_challenges_only_and_undo_brings_all_back():
    t = demo.DEMOS["rajapolku"]()
    before = clone(t.state)
    t.remove_character("alyosha")
    ev = t.events[-1]
    assert ev["text"] == ("Alyosha leaves the campaign (dropped from Spirit combat with the Nurse,"
                          " Find the poison ledger)")
    by_id = {c["id"]: c for c in t.state["challenges"]}
    assert by_id["c3"]["participants"] == [] and by_id["c4"]["participants"] == ["igor-bondarenko"]
    assert by_id["c1"]["participants"] == ["alyosha"]  # a resolved challenge keeps its history
    t.undo()
    assert t.state == before
    t.redo()
    assert "alyosha" not in t.characters
    assert {c["id"]: c for c in t.state["challenges"]}["c4"]["participants"] == ["igor-bondarenko"]


NAMES = ("alyosha", "igor-bondarenko", "the-pickpocket", "ghost-of-the-nurse")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(["remove", "undo", "redo", "challenge"]), st.sampled_from(NAMES)),
                max_size=12))
def test_open_challenges_never_name_a_missing_character(steps):
    t = demo.DEMOS["rajapolku"]()
    for what, cid in steps:
        try:
            if what == "remove":
                t.remove_character(cid)
            elif what == "undo":
                t.undo()
            elif what == "redo":
                t.redo()
            else:
                t.add_challenge(f"With {cid}", [cid], [])
        except TrackerError:
            pass
        for c in t.state["challenges"]:
            if c["status"] != "resolved":
                assert set(c["participants"] + c["opposition"]) <= set(t.characters)


def old_file_with_a_missing_participant(folder: Path) -> Path:
    """A file from before removals updated challenges: c3 and c4 still name Alyosha, who is gone."""
    doc = store.load(DEMO).doc
    del doc["state"]["characters"]["alyosha"]
    path = folder / "old.toml"
    store.write_full(path, doc)
    return path


def test_an_old_file_naming_a_removed_character_reads_removed(tmp_path):
    path = old_file_with_a_missing_participant(tmp_path)
    tracker, _ = load_tracker(path)
    for fmt in ("md", "html"):
        for gm in (False, True):
            text = export(tracker, fmt, gm=gm)
            assert "(removed)" in text


@pilot_test
async def test_the_roll_screen_opens_for_a_challenge_whose_participant_was_removed(tmp_path, monkeypatch):
    monkeypatch.setenv("POLKU_CONFIG_DIR", str(tmp_path / "config"))
    path = old_file_with_a_missing_participant(tmp_path)
    tracker, sf = open_session(path)
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        queue = panes(app)["queue"]
        assert any("Spirit combat with the Nurse  ((removed) vs Ghost of the Nurse)" in q for q in queue)
        app.run_command(command("start_challenge", "c3"))
        await pilot.press("r")  # roll for the active challenge
        await settle(pilot)
        assert isinstance(app.screen, RajaRollScreen)
        assert "Ghost of the Nurse" in screen_text(app)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)


@pilot_test
async def test_removing_from_the_sheet_then_rolling_the_challenge_works(tmp_path, monkeypatch):
    monkeypatch.setenv("POLKU_CONFIG_DIR", str(tmp_path / "config"))
    path = tmp_path / "s.toml"
    shutil.copyfile(DEMO, path)
    tracker, sf = open_session(path)
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2", "e")  # the first character's sheet: Alyosha
        await settle(pilot)
        await pilot.press("x")
        await settle(pilot)
        assert "They leave 2 open challenges too." in screen_text(app)
        await pilot.press("y")
        await settle(pilot)
        assert "alyosha" not in tracker.characters
        assert isinstance(app.screen, MainScreen)
        app.run_command(command("start_challenge", "c3"))
        await pilot.press("r")
        await settle(pilot)
        assert isinstance(app.screen, RajaRollScreen)
        assert "Spirit combat with the Nurse" in screen_text(app)
        await pilot.press("escape")
        await settle(pilot)
    reopened, _ = files.load_tracker(path)
    assert reopened.state == tracker.state
