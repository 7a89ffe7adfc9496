"""Session files through the tracker: whole sessions saved and reopened exactly,
generated command sequences, continuing a campaign, the lock, and files with
valid TOML but wrong values."""

from __future__ import annotations

import copy
import tempfile
from pathlib import Path
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from polku.session import demo, files, store
from polku.session.files import SessionOpenError, continue_campaign, create_session, load_tracker, open_session
from polku.session.rolls import HarhaSide, RajaSide, SRSide
from polku.session.tracker import Tracker, TrackerError


def assert_same(t: Tracker, loaded: Tracker) -> None:
    """The reopened tracker is the one that was saved, undo history included."""
    assert loaded.state == t.state
    assert list(loaded.events) == list(t.events)
    assert loaded.last_seq() == t.last_seq()
    assert {e["seq"] for e in loaded.events if loaded.is_undone(e["seq"])} == \
        {e["seq"] for e in t.events if t.is_undone(e["seq"])}
    assert (loaded.can_undo(), loaded.can_redo()) == (t.can_undo(), t.can_redo())
    assert (loaded.undo_text(), loaded.redo_text()) == (t.undo_text(), t.redo_text())


class Saver:
    """Save after every command, mixing appends and forced full rewrites."""

    def __init__(self, sf: files.SessionFile, t: Tracker, full_every: int = 3) -> None:
        self.sf, self.t, self.full_every, self.n, self.fulls, self.appends = sf, t, full_every, 0, 0, 0

    def __call__(self, command: Callable[[Tracker], Any]) -> Any:
        out = command(self.t)
        self.n += 1
        if self.n % self.full_every == 0:
            self.t.needs_full_save = True
        job = self.sf.snapshot(self.t)
        if job is not None:
            if job.full:
                self.fulls += 1
            else:
                self.appends += 1
            self.sf.save(job)
        assert self.t.unsaved == [] and not self.t.needs_full_save
        return out


def _rajapolku_session(s: Saver) -> None:
    s(lambda t: t.start_challenge("c3"))
    s(lambda t: t.rolls.roll_spirit("alyosha", "ghost-of-the-nurse", challenge="c3",
                              faces=([9, 8, 2, 1], [7, 6, 5, 4, 3])))
    s(lambda t: t.use_ability("alyosha", "Second sight"))
    s(lambda t: t.rolls.roll_raja(RajaSide("Igor", ["igor-bondarenko"], backgrounds=["Boxer"],
                                     abilities=["Ape-man strength"]),
                            RajaSide("GM: the guard", [], backgrounds=["Big"]), challenge="c4"))
    s(lambda t: t.spend_charges("igor-bondarenko", 1, "rage"))
    s(lambda t: t.undo())
    s(lambda t: t.undo())
    s(lambda t: t.redo())
    s(lambda t: t.set_health("alyosha", "ectoplasm burns"))
    s(lambda t: t.update_character("ghost-of-the-nurse", "notes", "Rests — for now.\nLine two, \"quoted\"."))
    s(lambda t: t.add_character("Vera Äijälä", player="Pia", backgrounds=["Nurse"]))
    s(lambda t: t.new_scene("Dawn at the harbour"))
    s(lambda t: t.new_session())
    s(lambda t: t.award_story_point(t.find_character("Vera Äijälä")["id"]))
    s(lambda t: t.new_story())
    s(lambda t: t.move_wound("igor-bondarenko", -1))
    s(lambda t: t.set_setting("raja.full_tie", "defender"))
    s(lambda t: t.undo())
    s(lambda t: t.note("End of the evening"))
    s(lambda t: t.undo())


def _harhapolku_session(s: Saver) -> None:
    r = s(lambda t: t.rolls.roll_harha(HarhaSide("Tuomas", ["tuomas"], general="Fisherman"),
                                 HarhaSide("Lena", ["lena"], background="Thief"), challenge="c2",
                                 faces=([2, 1], [7, 4])))
    s(lambda t: t.rolls.harha_edge_reroll(r["event"], "a", "tuomas", "Iron grip", faces=[8, 8]))
    s(lambda t: t.rolls.narration_roll_background("Tuomas", "Harbour rat", 8, faces=[8]))
    s(lambda t: t.rolls.narration_usurp("Tuomas", list(t.rolls.narration().hand("Tuomas"))))
    s(lambda t: t.rolls.narration_harm(faces=[6, 6, 6, 6]))
    s(lambda t: t.undo())
    s(lambda t: t.redo())
    s(lambda t: t.rolls.narration_conflict("armed", False))
    s(lambda t: t.rolls.roll_harha_difficult(HarhaSide("Lena", ["lena"], special="Dream-walker")))
    s(lambda t: t.new_scene("The shore"))
    s(lambda t: t.rolls.narration_roll_background("Lena", "Thief", 8, faces=[3]))
    s(lambda t: t.new_session())
    s(lambda t: t.use_edge_reroll("lena", "Cold head"))
    s(lambda t: t.undo())


def _varjojuoksu_session(s: Saver) -> None:
    ev = s(lambda t: t.rolls.roll_sr(SRSide("Kaneda", ["kaneda"], dice=4), threshold=1, faces=[1, 1, 5, 3]))["event"]
    s(lambda t: t.rolls.sr_post_roll(ev, "negate_glitch"))
    s(lambda t: t.rolls.roll_sr_opposed(SRSide("Kaneda", ["kaneda"], dice=3), SRSide("Ganger", ["ganger"], dice=3),
                                  challenge="c4"))
    s(lambda t: t.rolls.roll_sr_extended(SRSide("Nyx", ["nyx"], skill_name="Hacking", skill=5, attribute_name="Logic",
                                          attribute=6), "c3", faces=[1, 1, 1, 1, 1, 1, 2, 3, 5, 6, 2]))
    s(lambda t: t.rolls.roll_sr_teamwork(SRSide("Nyx", ["nyx"], dice=3), [SRSide("Kaneda", ["kaneda"], dice=2)],
                                   threshold=2))
    s(lambda t: t.rolls.roll_initiative([("kaneda", 2), ("nyx", 1)]))
    s(lambda t: t.set_condition("nyx", "stun", 5))
    s(lambda t: t.undo())
    s(lambda t: t.remove_character("ganger"))
    s(lambda t: t.spend_edge("kaneda", "dodge"))
    s(lambda t: t.new_session())
    s(lambda t: t.undo())
    s(lambda t: t.redo())
    s(lambda t: t.rolls.roll_sr(SRSide("Kaneda", ["kaneda"], dice=0, long_shot=True), threshold=1))


SESSIONS = {
    "rajapolku": (demo.demo_rajapolku, _rajapolku_session),
    "harhapolku": (demo.demo_harhapolku, _harhapolku_session),
    "varjojuoksu": (demo.demo_varjojuoksu, _varjojuoksu_session),
}


@pytest.mark.parametrize("system", sorted(SESSIONS))
def test_a_whole_session_reopens_exactly(system, tmp_path):
    build, script = SESSIONS[system]
    t = build()
    path = tmp_path / f"{system}.toml"
    sf = create_session(path, t)
    try:
        s = Saver(sf, t)
        script(s)
        assert s.fulls and s.appends, "the script must mix appends and full rewrites"
        loaded, notices = load_tracker(path, clock=demo.fixed_clock("2026-11-29T18:00:00Z"))
        assert notices == []
        assert_same(t, loaded)
        viewer, sf_view = open_session(path, read_only=True)  # what the app opens (lazy log)
        assert (viewer.state, list(viewer.events)) == (t.state, list(t.events))
        assert [viewer.is_undone(e["seq"]) for e in t.events] == [t.is_undone(e["seq"]) for e in t.events]
        assert (viewer.undo_text(), viewer.redo_text()) == (t.undo_text(), t.redo_text())
        sf_view.close()
        # The reopened tracker goes on exactly like the one that stayed open.
        for tr in (t, loaded):
            if tr.can_undo():
                tr.undo()
            if tr.can_undo():
                tr.undo()
            tr.redo()
        assert loaded.state == t.state
        assert [e["changes"] for e in loaded.events[-3:]] == [e["changes"] for e in t.events[-3:]]
    finally:
        sf.close()


def test_appended_events_after_a_full_save_replay_onto_the_snapshot(tmp_path):
    t = demo.demo_rajapolku()
    path = tmp_path / "r.toml"
    sf = create_session(path, t)
    try:
        t.spend_charges("alyosha", 2, "focus")
        t.move_wound("alyosha", 1)
        sf.save_now(t)  # appended: the [state] table on disk is older than the log
        doc = store.load(path).doc
        assert doc["snapshot_seq"] < t.last_seq()
        assert doc["state"]["characters"]["alyosha"]["charges"] == 5
        loaded, _ = load_tracker(path)
        assert loaded.character("alyosha")["charges"] == 3
        assert_same(t, loaded)
    finally:
        sf.close()


def test_a_save_with_nothing_new_writes_nothing(tmp_path):
    t = demo.demo_harhapolku()
    path = tmp_path / "h.toml"
    sf = create_session(path, t)
    try:
        data = path.read_bytes()
        assert sf.snapshot(t) is None
        sf.save_now(t)
        assert path.read_bytes() == data
    finally:
        sf.close()


# ---------------------------------------------------------------------------
# Hypothesis: generated command sequences over a Rajapolku tracker.

NAMES = ["Alyosha", "Igor", "Vera", "Pia"]
TITLES = ["Catch the thief", "Open the crypt", "Calm the ghost"]
KINDS = ["add", "spend", "restore", "wound", "story_spend", "story_award", "ch_add", "ch_start", "ch_move",
         "ch_remove", "undo", "redo", "scene"]


def _apply(t: Tracker, kind: str, i: int, j: int) -> None:
    cids = sorted(t.characters)
    chals = [c["id"] for c in t.state["challenges"]]
    who = cids[i % len(cids)] if cids else None
    chal = chals[i % len(chals)] if chals else None
    if kind == "add":
        t.add_character(NAMES[i % len(NAMES)], kind="pc" if j % 2 else "npc")
    elif kind == "undo":
        t.undo()
    elif kind == "redo":
        t.redo()
    elif kind == "scene":
        t.new_scene(TITLES[i % len(TITLES)])
    elif kind == "ch_add":
        t.add_challenge(TITLES[i % len(TITLES)], cids[:1])
    elif chal is not None and kind == "ch_start":
        t.start_challenge(chal)
    elif chal is not None and kind == "ch_move":
        t.move_challenge(chal, j or 1)
    elif chal is not None and kind == "ch_remove":
        t.remove_challenge(chal)
    elif who is not None and kind == "spend":
        t.spend_charges(who, j, "generated")
    elif who is not None and kind == "restore":
        t.restore_charges(who, max(1, j))
    elif who is not None and kind == "wound":
        t.move_wound(who, j)
    elif who is not None and kind == "story_spend":
        t.spend_story_point(who, "generated")
    elif who is not None and kind == "story_award":
        t.award_story_point(who)


COMMAND = st.tuples(st.sampled_from(KINDS), st.integers(0, 5), st.integers(-2, 4), st.booleans())


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(COMMAND, min_size=1, max_size=25))
def test_generated_sessions_round_trip(commands):
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "gen.toml"
        t = Tracker.new("rajapolku", "Generated", clock=demo.fixed_clock(), seed=1)
        sf = create_session(path, t)
        try:
            for kind, i, j, full in commands:
                before, n = copy.deepcopy(t.state), len(t.events)
                try:
                    _apply(t, kind, i, j)
                except TrackerError as e:
                    assert "\n" not in str(e)
                    assert t.state == before and len(t.events) == n
                if full:
                    t.needs_full_save = True
                sf.save_now(t)
            loaded, _ = load_tracker(path)
            assert_same(t, loaded)
        finally:
            sf.close()


# ---------------------------------------------------------------------------
# Continuing a campaign in a new file.

def _saved(tmp_path: Path, t: Tracker, name: str) -> Path:
    path = tmp_path / name
    sf = create_session(path, t)
    sf.close()
    return path


def test_continue_campaign_carries_characters_and_refreshes_edge(tmp_path):
    t = demo.demo_varjojuoksu()
    t.spend_edge("kaneda", "dodge")
    t.set_setting("sr.glitch_rerolls", False)
    prev = _saved(tmp_path, t, "run-1.toml")
    prev_bytes = prev.read_bytes()
    t2, sf2 = continue_campaign(prev, tmp_path / "run-2.toml", clock=demo.fixed_clock("2026-12-05T18:00:00Z"))
    try:
        st2 = t2.state
        assert st2["campaign"]["continues"] == "run-1.toml"
        assert st2["campaign"]["name"] == t.state["campaign"]["name"]
        assert st2["settings"] == t.state["settings"]
        assert set(st2["characters"]) == set(t.characters)
        assert st2["characters"]["kaneda"]["edge"] == 3  # refreshed (docs/rules.md)
        assert st2["characters"]["nyx"]["edge"] == 4
        assert st2["characters"]["kaneda"]["physical"] == 4  # wounds carry over
        assert st2["characters"]["kaneda"]["skills"] == t.character("kaneda")["skills"]
        kept = [c["title"] for c in st2["challenges"]]
        assert kept == [c["title"] for c in t.state["challenges"] if c["status"] != "resolved"]
        assert len(kept) < len(t.state["challenges"])
        assert st2["structure"]["session"] == t.state["structure"]["session"] + 1
        assert st2["structure"]["scene"] == 1
        assert [e["seq"] for e in t2.events] == list(range(1, len(t2.events) + 1))
        assert any(e["kind"] == "reset" and e.get("who") == "kaneda" for e in t2.events)
        assert not t2.can_redo()
        assert prev.read_bytes() == prev_bytes, "the previous file is never written"
        loaded, _ = load_tracker(tmp_path / "run-2.toml")
        assert_same(t2, loaded)
        with pytest.raises(store.LockedError):
            open_session(tmp_path / "run-2.toml")
    finally:
        sf2.close()


def test_continue_campaign_rajapolku_and_harhapolku_resets(tmp_path):
    r = demo.demo_rajapolku()
    r.use_ability("alyosha", "Second sight")
    prev = _saved(tmp_path, r, "raja-1.toml")
    t2, sf = continue_campaign(prev, tmp_path / "raja-2.toml")
    try:
        a = t2.character("alyosha")
        assert a["paid_this_scene"] == []
        assert a["story_points"] == r.character("alyosha")["story_points"], "a session does not end a story"
        assert a["charges"] == r.character("alyosha")["charges"]
        assert t2.character("igor-bondarenko")["wound"] == "Wounded"
    finally:
        sf.close()
    h = demo.demo_harhapolku()
    prev = _saved(tmp_path, h, "harha-1.toml")
    t3, sf = continue_campaign(prev, tmp_path / "harha-2.toml")
    try:
        assert all(not e["used"] for ch in t3.characters.values() for e in ch["edges"])
        assert t3.state["narration"]["narrator"] == "" and not t3.state["narration"].get("rolled")
    finally:
        sf.close()


def test_continue_campaign_refuses_an_existing_target(tmp_path):
    prev = _saved(tmp_path, demo.demo_rajapolku(), "a.toml")
    other = _saved(tmp_path, demo.demo_rajapolku(), "b.toml")
    data = other.read_bytes()
    with pytest.raises(SessionOpenError, match="already exists"):
        continue_campaign(prev, other)
    assert other.read_bytes() == data


# ---------------------------------------------------------------------------
# The lock.

def test_second_open_is_locked_out_but_read_only_works(tmp_path):
    t = demo.demo_varjojuoksu()
    path = _saved(tmp_path, t, "locked.toml")
    t1, sf1 = open_session(path)
    try:
        with pytest.raises(store.LockedError) as err:
            open_session(path)
        assert "\n" not in str(err.value)
        t2, sf2 = open_session(path, read_only=True)
        assert sf2.lock is None and sf2.read_only
        assert t2.state == t1.state
        before, n = copy.deepcopy(t2.state), len(t2.events)
        with pytest.raises(TrackerError, match="read-only"):
            t2.spend_edge("kaneda", "luck")
        with pytest.raises(TrackerError, match="read-only"):
            t2.undo()
        assert t2.state == before and len(t2.events) == n
        assert not t2.can_undo()
        with pytest.raises(store.StoreError):
            sf2.save(files.SaveJob([], True, t2.state, list(t2.events), t2.last_seq()))
        # the writer carries on and saves
        t1.spend_edge("kaneda", "luck")
        sf1.save_now(t1)
        assert load_tracker(path)[0].character("kaneda")["edge"] == t1.character("kaneda")["edge"]
    finally:
        sf1.close()
    t3, sf3 = open_session(path)  # released on close
    sf3.close()


def test_a_failed_open_leaves_no_lock(tmp_path):
    path = _saved(tmp_path, demo.demo_rajapolku(), "bad.toml")
    doc = store.load(path).doc
    doc["state"]["characters"]["alyosha"]["charges"] = -1
    path.write_bytes(store.render(doc))
    with pytest.raises(SessionOpenError):
        open_session(path)
    assert not store.lock_path(path).exists()


# ---------------------------------------------------------------------------
# Valid TOML, wrong values: refused with one line naming the key; never written.

def _raja_roll(doc: dict[str, Any]) -> dict[str, Any]:
    return next(e for e in doc["event"] if e.get("roll", {}).get("test") == "rajapolku")


def _set(path: list[Any], value: Any) -> Callable[[dict[str, Any]], None]:
    def mutate(doc: dict[str, Any]) -> None:
        node = doc
        for k in path[:-1]:
            node = node[k]
        node[path[-1]] = value

    return mutate


def _face_11(doc: dict[str, Any]) -> None:
    _raja_roll(doc)["roll"]["sides"][0]["dice"][0]["face"] = 11


def _d7(doc: dict[str, Any]) -> None:
    _raja_roll(doc)["roll"]["sides"][1]["dice"][0]["size"] = 7


def _bad_change(doc: dict[str, Any]) -> None:
    # the log says a later command set charges to -1; the snapshot predates it
    doc["snapshot_seq"] = doc["event"][-2]["seq"]
    doc["event"][-1]["changes"] = [{"path": ["characters", "alyosha", "charges"], "before": 5, "after": -1}]


def _change_into_nowhere(doc: dict[str, Any]) -> None:
    doc["snapshot_seq"] = doc["event"][-2]["seq"]
    doc["event"][-1]["changes"] = [{"path": ["characters", "nobody", "charges"], "after": 1}]


CORRUPT = {
    "charge -1": (_set(["state", "characters", "alyosha", "charges"], -1), "charges"),
    "charges above max": (_set(["state", "characters", "alyosha", "charges"], 9), "charges"),
    "charges as text": (_set(["state", "characters", "alyosha", "charges"], "five"), "charges"),
    "face 11 on a d10": (_face_11, "face"),
    "a d7": (_d7, "size"),
    "unknown wound level": (_set(["state", "characters", "igor-bondarenko", "wound"], "Scratched"), "wound"),
    "unknown setting": (_set(["state", "settings", "raja.bogus"], True), "raja.bogus"),
    "bad setting value": (_set(["state", "settings", "raja.full_tie"], "coinflip"), "full_tie"),
    "unknown system": (_set(["state", "campaign", "system"], "d20"), "system"),
    "wound track of 2 levels": (_set(["state", "wound_track"], ["Healthy", "Dead"]), "wound_track"),
    "unknown challenge status": (_set(["state", "challenges", 0, "status"], "maybe"), "status"),
    "scene 0": (_set(["state", "structure", "scene"], 0), "scene"),
    "character id differs": (_set(["state", "characters", "alyosha", "id"], "igor"), "id"),
    "a later event sets charges -1": (_bad_change, "charges"),
    "a later event changes a missing character": (_change_into_nowhere, "nobody"),
}


OLD_EVENT_ONLY = {"face 11 on a d10", "a d7"}
"""Damage in an event older than the snapshot: open_session loads the log lazily and
leaves those to its background check; load_tracker reads every event."""


@pytest.mark.parametrize("case", sorted(CORRUPT))
def test_wrong_values_are_refused_with_one_line_and_the_file_is_untouched(case, tmp_path):
    mutate, needle = CORRUPT[case]
    t = demo.demo_rajapolku()
    path = tmp_path / "campaign.toml"
    doc = files.document(copy.deepcopy(t.state), copy.deepcopy(list(t.events)), t.last_seq())
    mutate(doc)
    path.write_bytes(store.render(doc))
    data = path.read_bytes()
    with pytest.raises(SessionOpenError) as err:
        load_tracker(path)
    msg = str(err.value)
    assert "\n" not in msg
    assert needle in msg
    assert str(path) in msg
    if case not in OLD_EVENT_ONLY:
        with pytest.raises(SessionOpenError):
            open_session(path)
        assert not store.lock_path(path).exists()
    assert path.read_bytes() == data
    assert sorted(p.name for p in tmp_path.iterdir()) == ["campaign.toml"]


def test_sr_edge_above_rating_and_harha_face_9_on_a_d8(tmp_path):
    t = demo.demo_varjojuoksu()
    doc = files.document(copy.deepcopy(t.state), copy.deepcopy(list(t.events)), t.last_seq())
    doc["state"]["characters"]["nyx"]["edge"] = 5
    path = tmp_path / "sr.toml"
    path.write_bytes(store.render(doc))
    with pytest.raises(SessionOpenError, match=r"nyx\.edge"):
        load_tracker(path)
    h = demo.demo_harhapolku()
    doc = files.document(copy.deepcopy(h.state), copy.deepcopy(list(h.events)), h.last_seq())
    roll = next(e for e in doc["event"] if str(e.get("roll", {}).get("test", "")).startswith("harhapolku-"))
    assert roll["roll"]["sides"][0]["dice"][0]["size"] == 8
    roll["roll"]["sides"][0]["dice"][0]["face"] = 9
    path = tmp_path / "h.toml"
    path.write_bytes(store.render(doc))
    with pytest.raises(SessionOpenError, match="face"):
        load_tracker(path)
