"""Every figure of the review and the report is right: statistics, filters, scenes, resets.

Each test reproduces a wrong figure a GM would have read after a session.
"""

from __future__ import annotations

import pytest

from polku.session import demo
from polku.session.files import continue_campaign, create_session
from polku.session.tracker import Tracker


# ---------------------------------------------------------------------------
# resets (R12, S12)


def test_R12_a_new_story_clears_an_npcs_awarded_story_points():
    t = demo.demo_rajapolku()
    t.award_story_point("the-pickpocket", "a clever escape")
    t.award_story_point("the-pickpocket", "another")
    assert t.character("the-pickpocket")["story_points"] == 2
    n = len(t.events)
    t.new_story()
    assert t.character("the-pickpocket")["story_points"] == 0
    assert t.character("alyosha")["story_points"] == 3
    resets = [e for e in t.events[n:] if e["kind"] == "reset" and e["who"] == "the-pickpocket"]
    assert [e["text"] for e in resets] == ["The Pickpocket: story points 2 → 0 (unspent points vanish)"]
    t.undo()
    assert t.character("the-pickpocket")["story_points"] == 2


def test_S12_a_new_session_starts_out_of_combat():
    t = demo.demo_varjojuoksu()
    assert len(t.state["initiative"]) == 3
    n = len(t.events)
    t.new_session()
    assert t.state["initiative"] == []
    reset = [e for e in t.events[n:] if e["kind"] == "reset" and "Initiative" in e["text"]]
    assert len(reset) == 1 and sorted(reset[0]["who"]) == ["ganger", "kaneda", "nyx"]
    t.undo()
    assert [e["id"] for e in t.state["initiative"]] == [e["id"] for e in demo.demo_varjojuoksu().state["initiative"]]


def test_S12_continuing_a_campaign_leaves_the_old_fight_behind(tmp_path):
    old = demo.demo_varjojuoksu()
    first = tmp_path / "one.toml"
    sf = create_session(first, old)
    sf.close()
    t, sf2 = continue_campaign(first, tmp_path / "two.toml")
    sf2.close()
    assert t.state["initiative"] == []
    assert t.where[1] == 2
