"""Every figure of the review and the report is right: statistics, filters, scenes, resets.

Each test reproduces a wrong figure a GM would have read after a session.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from pathlib import Path

import pytest

from app_fixtures import pilot_test, until_quiet
from polku.rules import harhapolku as harha
from polku.rules.dice import Die
from polku.session import demo, store
from polku.session.files import continue_campaign, create_session, document, load_tracker
from polku.session.review.export import export
from polku.session.review.replay import History
from polku.session.review.stats import EventPeople, compute, event_tags, judge_roll
from polku.session.rolls import HarhaSide, RajaSide, SRSide

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


# ---------------------------------------------------------------------------
# dice fairness: every die the log keeps, once (H7, S7)


def _harha_rerolled(reroll_faces=(4, 3, 1)):
    t = demo.demo_harhapolku()
    base = len(t.events)
    r = t.rolls.roll_harha(HarhaSide("Lena", ["lena"], general="Island girl", background="Thief"),
                     HarhaSide("Tuomas", ["tuomas"], general="Fisherman", background="Brawler"),
                     faces=([3, 2, 2], [7, 4, 4]))
    t.rolls.harha_edge_reroll(r["event"], "a", "lena", "Cold head", faces=list(reroll_faces))
    return t, base


def _hand_faces(t, size):
    return {f.size: f.counts for f in compute(t).faces if f.manual}.get(size, [0] * size)


def test_H7_fairness_counts_a_rerolled_die_that_shows_a_face_the_old_roll_had():
    """3,2,2 vs 7,4,4, then Lena's edge reroll of 4,3,1: nine dice thrown, nine counted."""
    before = _hand_faces(demo.demo_harhapolku(), 8)
    t, _ = _harha_rerolled()
    after = _hand_faces(t, 8)
    thrown = Counter([3, 2, 2, 7, 4, 4, 4, 3, 1])
    assert [a - b for a, b in zip(after, before)] == [thrown[f] for f in range(1, 9)]
    # undoing the reroll leaves the first roll's six dice
    t.undo()
    assert sum(_hand_faces(t, 8)) - sum(before) == 6


def test_S7_edge_after_the_roll_counts_only_the_edge_dice():
    t = demo.demo_varjojuoksu()
    before = sum(f.total for f in compute(t).faces if f.manual)
    r = t.rolls.roll_sr(SRSide("Kaneda", ["kaneda"], skill_name="Sneaking", skill=3, attribute_name="Agility",
                         attribute=5), threshold=2, faces=[5, 6, 1, 1, 2, 3, 4, 4])
    t.rolls.sr_post_roll(r["event"], "edge_after", faces=[6, 5, 6, 1, 2])  # 3 Edge dice, two sixes explode
    assert sum(f.total for f in compute(t).faces if f.manual) - before == 8 + 5


# ---------------------------------------------------------------------------
# luck: exact odds of what was really rolled (H7, S3)


def _lena_wins_against(fixed, n8=3):
    """P(Lena's fresh n8 d8 beat the faces lying on the table), by the rules' own comparison."""
    wins = 0
    for faces in itertools.product(range(1, 9), repeat=n8):
        r = harha.resolve([Die(8, f, "die") for f in faces], [Die(8, f, "die") for f in fixed], "ch23", None)
        wins += r.winner == "a"
    return wins / 8 ** n8


def test_H7_luck_of_a_rerolled_contest_is_conditional_on_the_faces_that_stayed():
    t, base = _harha_rerolled()
    reroll = t.events[-1]
    previous = next(e for e in t.events if e["seq"] == reroll["roll"]["rerolls"])["roll"]
    sides = judge_roll(reroll["roll"], t.settings, previous)
    p = _lena_wins_against((7, 4, 4))
    assert sides[0].p_win == pytest.approx(p, abs=1e-12)
    assert sides[1].p_win == pytest.approx(1 - p, abs=1e-12)
    # and the statistics use it: Lena's new contest adds exactly that expectation
    before = {c.cid: c.expected_wins for c in compute(demo.demo_harhapolku()).characters}
    after = {c.cid: c.expected_wins for c in compute(t).characters}
    assert after["lena"] - before["lena"] == pytest.approx(p, abs=1e-12)


def _six_hits(n, cap=80):
    """Hits of n dice under the rule of six: a 5 hits, a 6 hits and is thrown again (S7)."""
    one = [4 / 6] + [0.0] * cap
    for k in range(1, cap + 1):
        one[k] = (1 / 6) ** (k - 1) * (1 / 6) + (1 / 6) ** k * (4 / 6)
    dist = [1.0] + [0.0] * cap
    for _ in range(n):
        dist = [sum(dist[i] * one[k - i] for i in range(k + 1)) for k in range(cap + 1)]
    return dist


def test_S3_luck_of_a_long_shot_in_an_opposed_test_follows_the_rule_of_six():
    t = demo.demo_varjojuoksu()
    r = t.rolls.roll_sr_opposed(SRSide("Kaneda", ["kaneda"], long_shot=True), SRSide("Ganger", ["ganger"], dice=9),
                          faces=([6, 2, 3, 5], [1, 2, 3, 4, 5, 1, 2, 3, 4]))
    a, b = judge_roll(r["event"]["roll"], t.settings)
    mine = _six_hits(3)
    theirs = [math.comb(9, h) * (1 / 3) ** h * (2 / 3) ** (9 - h) for h in range(10)]
    p = sum(mine[h] * sum(theirs[:min(h, 10)]) for h in range(1, len(mine)))
    assert a.p_win == pytest.approx(p, abs=1e-9)
    assert round(a.p_win, 4) == 0.0961  # the figure of the independent check, not the plain 0.0573


# ---------------------------------------------------------------------------
# names of characters that left the campaign


def _ganger_removed():
    t = demo.demo_varjojuoksu()
    extra = t.add_character("Street Samurai", kind="npc", edge_rating=2, edge=2)
    t.update_character(extra["id"], "name", "Razor")
    t.spend_edge(extra["id"], "a lucky dodge")
    t.remove_character(extra["id"])
    t.remove_character("ganger")
    return t, extra["id"]


def test_a_removed_character_keeps_its_last_name_in_the_statistics(tmp_path):
    t, extra = _ganger_removed()
    names = {c.cid: c.name for c in compute(t).characters}
    assert names["ganger"] == "Ganger" and names[extra] == "Razor"
    path = tmp_path / "s.toml"
    store.write_full(path, document(t.state, t.events, t.last_seq()))
    loaded, _ = load_tracker(path, read_only=True)
    for gm in (True, False):
        text = export(loaded, "md", gm=gm)
        stats = text[text.index("## Statistics"):]
        assert "| **Ganger** |" in stats and "| **Razor** |" in stats, f"gm={gm}"
        assert "6+1" not in stats and extra not in stats
        assert "| Shoot-out at the garage | Kaneda vs Ganger (removed) |" in text, "the challenges name him too"


# ---------------------------------------------------------------------------
# the character filter finds every event about the character (H9, undo, redo)

THEMES = Path(__file__).resolve().parents[1] / "themes"
LENA_IN_THE_DEMO = [1, 5, 6, 7, 8, 9, 11, 12, 16, 17]
"""Her arrival, her challenges, her roll, edge and reroll, her background dice and her narration."""


def _lena_events(t):
    people = EventPeople(t)
    return [e["seq"] for e in t.events if "lena" in people.of(e)]


def test_H9_narration_events_name_their_characters_by_id():
    t = demo.demo_harhapolku()
    by_seq = {e["seq"]: e for e in t.events}
    assert by_seq[11]["who"] == ["lena"] and by_seq[11]["roll"]["sides"][0]["who"] == ["lena"]
    assert by_seq[16]["who"] == ["lena"]
    assert _lena_events(t) == LENA_IN_THE_DEMO
    # a usurpation names the usurper and the narrator whose dice burn
    hand = t.rolls.narration().hand("Tuomas")
    t.rolls.narration_usurp("Tuomas", list(hand))
    assert sorted(t.events[-1]["who"]) == ["lena", "tuomas"]


def test_H9_an_older_file_without_ids_is_read_by_name(tmp_path):
    t = demo.demo_harhapolku()
    for e in t.events:
        if e["kind"] == "narration":
            e.pop("who", None)
            for side in (e.get("roll") or {}).get("sides", []):
                side["who"] = []
    path = tmp_path / "old.toml"
    store.write_full(path, document(t.state, t.events, t.last_seq()))
    loaded, _ = load_tracker(path, read_only=True)
    assert _lena_events(loaded) == LENA_IN_THE_DEMO


def test_the_character_filter_finds_an_undo_and_a_redo_of_that_characters_command():
    t = demo.demo_harhapolku()
    t.rolls.narration_roll_background("Lena", "Island girl", 8, faces=[3])
    t.undo()
    t.redo()
    t.note("the keeper wakes")
    t.undo()
    seqs = _lena_events(t)
    assert seqs[-3:] == [18, 19, 20], "the background die, its undo and its redo"
    assert 22 not in seqs, "undoing a note is about nobody"
    # a roll changes nothing about Lena herself, yet its undo and redo are hers
    t.rolls.roll_harha(HarhaSide("Lena", ["lena"]), HarhaSide("Tuomas", ["tuomas"]), faces=([5], [4]))
    t.undo()
    t.redo()
    assert _lena_events(t)[-3:] == [23, 24, 25]


# ---------------------------------------------------------------------------
# the outcome filters (S5, S6)


def test_S6_a_critical_glitch_is_a_glitch_for_the_filter():
    t = demo.demo_varjojuoksu()
    r = t.rolls.roll_sr(SRSide("Kaneda", ["kaneda"], dice=4), faces=[1, 1, 2, 3])
    assert r["roll"].critical_glitch
    assert {"glitch", "critical glitch"} <= event_tags(t.events[-1], t.settings, "kaneda")
    r = t.rolls.roll_sr(SRSide("Kaneda", ["kaneda"], dice=4), faces=[1, 1, 5, 3])
    tags = event_tags(t.events[-1], t.settings, "kaneda")
    assert "glitch" in tags and "critical glitch" not in tags


def review(t):
    from polku.tui.review import ReviewApp

    return ReviewApp(t, Path("demo.toml"), theme="polku-dark", theme_dirs=[THEMES])


def _visible(app):
    from polku.tui.review import TimelineLog

    log = app.screen.query_one(TimelineLog)
    return [log.events[i]["seq"] for i in log._visible]


@pilot_test
async def test_outcome_filters_leave_undone_and_replaced_rolls_out_unless_asked():
    t = demo.demo_harhapolku()
    t.rolls.roll_harha(HarhaSide("Lena", ["lena"], general="Island girl"), HarhaSide("Tuomas", ["tuomas"]),
                 faces=([1, 1], [8]))
    undone_loss = t.events[-1]["seq"]
    t.undo()
    app = review(t)
    async with app.run_test(size=(80, 24)) as pilot:
        await until_quiet(pilot)
        await pilot.press("c", "2")  # Lena
        await until_quiet(pilot)
        await pilot.press("o")
        await until_quiet(pilot)
        hint = str(app.screen.query_one(".dialog--hint").render())
        assert "undone and replaced rolls are left out" in hint
        await pilot.press("3")  # loss
        await until_quiet(pilot)
        assert _visible(app) == [], "her only lost roll was replaced by the edge reroll; the other is undone"
        await pilot.press("u")
        await until_quiet(pilot)
        assert _visible(app) == [7, undone_loss]
        title = str(app.screen.query_one("#log-title").render())
        assert "undone too" in title
        await pilot.press("u", "o", "2")  # win, rolls that stand
        await until_quiet(pilot)
        assert _visible(app) == [9]
        assert "rolls that stand" in str(app.screen.query_one("#log-title").render())


# ---------------------------------------------------------------------------
# scenes come from the scene changes that stand


def _false_lead():
    """Scene 4 'The false lead' is begun, rolled in, and undone; then scene 4 'The river' stands."""
    t = demo.demo_rajapolku()
    t.new_scene("The false lead")
    t.rolls.roll_raja(RajaSide("Alyosha", ["alyosha"]), RajaSide("GM", []), faces=([9], [2]))
    t.undo()
    t.undo()
    t.note("the GM changes her mind")
    t.new_scene("The river")
    river = t.events[-1]["seq"] if t.events[-1]["kind"] == "structure" else next(
        e["seq"] for e in reversed(t.events) if e["kind"] == "structure")
    t.note("the current is strong")
    return t, river


def _headings(md):
    return [line[4:] for line in md.splitlines() if line.startswith("### Scene")]


def test_an_undone_scene_change_begins_no_scene_in_the_report(tmp_path):
    t, river = _false_lead()
    path = tmp_path / "s.toml"
    store.write_full(path, document(t.state, t.events, t.last_seq()))
    loaded, _ = load_tracker(path, read_only=True)
    for gm in (True, False):
        md = export(loaded, "md", gm=gm)
        assert _headings(md) == ["Scene 1.1.1", "Scene 1.1.2: The market at dawn", "Scene 1.1.3: The old hospital",
                                 "Scene 1.1.4: The river"], f"gm={gm}"
        hospital = md[md.index("### Scene 1.1.3"):md.index("### Scene 1.1.4")]
        if gm:
            assert "~~Scene 4: The false lead~~ *(undone)*" in hospital
        else:
            assert "The false lead" not in md, "what the GM undid is not in the players' report"
        assert "the GM changes her mind" in hospital or not gm  # notes are the GM's
        assert "the current is strong" in md[md.index("### Scene 1.1.4"):] or not gm


def test_the_scenes_of_the_review_are_those_that_stand():
    t, river = _false_lead()
    scenes = History.of(t).scenes(t.is_undone)
    assert [(s.at, s.title) for s in scenes] == [
        ((1, 1, 1), ""), ((1, 1, 2), "The market at dawn"), ((1, 1, 3), "The old hospital"), ((1, 1, 4), "The river")]
    assert scenes[3].first_seq == river and scenes[3].last_seq == t.last_seq()
    undone = [e["seq"] for e in t.events if t.is_undone(e["seq"])]
    assert undone and all(scenes[2].holds(q) for q in undone)
    assert sum(s.events for s in scenes) == len(t.events)


@pilot_test
async def test_the_scene_chooser_names_and_jumps_to_the_scene_that_stands():
    t, river = _false_lead()
    app = review(t)
    async with app.run_test(size=(80, 24)) as pilot:
        await until_quiet(pilot)
        await pilot.press("home", "g")
        await until_quiet(pilot)
        labels = [str(o.prompt) for o in app.screen.query_one("OptionList")._options]
        assert labels[-1].startswith("4. scene 1.1.4: The river")
        assert not any("false lead" in x for x in labels)
        await pilot.press("4")
        await until_quiet(pilot)
        assert app.screen.selected_seq == river
        await pilot.press("s", "4")  # only the hospital (scene 3 of the chooser: '4' is 'Every scene' + 3)
        await until_quiet(pilot)
        hospital = History.of(t).scenes(t.is_undone)[2]
        assert _visible(app) == list(range(hospital.first_seq, hospital.last_seq + 1))
