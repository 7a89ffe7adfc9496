"""Players' seats, the session layer: the GM's roll requests, a seat's requests through the spool, answers."""

from __future__ import annotations

import json
import os
from fractions import Fraction
from pathlib import Path

import pytest

from polku.session import demo, store
from polku.session.files import document, load_tracker
from polku.session.players import seats
from polku.session.players.public import public_view
from polku.session.players.seats import SeatError
from polku.session.rolls import HarhaSide, SRPool
from polku.session.tracker import Tracker, TrackerError

PISTOLS = SRPool(skill="Pistols", attribute="agility")


def write(path: Path, t: Tracker) -> Path:
    store.write_full(path, document(t.state, t.events, t.last_seq()))
    return path


def req(kind: str, seat: str = "kaneda", rid: str = "0123456789abcdef", **fields):
    return {"v": 1, "id": rid, "seat": seat, "kind": kind, **fields}


def sr_with_offer(threshold: int | None = 2, hidden: bool = False) -> tuple[Tracker, int]:
    t = demo.demo_varjojuoksu()
    ev = seats.ask_sr(t, "kaneda", PISTOLS, threshold=threshold, hidden=hidden)
    return t, ev["seq"]


# ---------------------------------------------------------------------------
# where the spool is


def test_the_spool_is_beside_the_session_file_and_a_symlink_shares_it(tmp_path):
    real = tmp_path / "night-2026-11-28.toml"
    real.write_text("")
    link = tmp_path / "current.toml"
    link.symlink_to(real.name)
    assert seats.spool_dir(real) == tmp_path / "night-2026-11-28.seats"
    assert seats.spool_dir(link) == seats.spool_dir(real), "a forced command on current.toml reaches the GM's file"
    assert seats.seat_dir(real, "kaneda") == tmp_path / "night-2026-11-28.seats" / "kaneda"
    for bad in ("../gm", "Kaneda", "", "a/b", ".hidden"):
        with pytest.raises(SeatError):
            seats.seat_dir(real, bad)


# ---------------------------------------------------------------------------
# the GM's roll requests


def test_a_roll_request_is_logged_pending_until_rolled_and_undo_brings_it_back():
    t, offer = sr_with_offer(threshold=2)
    ev = t.event_by_seq(offer)
    assert ev["text"] == ("The GM asks Kaneda to roll: Pistols 4 + Agility 5 − 1 (wounds) = 8 dice, threshold 2")
    assert [o.seq for o in seats.pending_offers(t, "kaneda")] == [offer]
    assert seats.pending_offers(t, "nyx") == []
    ans = seats.apply_request(t, "kaneda", req("roll", offer=offer, faces=[5, 6, 1, 2, 3, 3, 4, 2]))
    assert ans["ok"], ans
    roll = t.event_by_seq(ans["roll"])
    assert roll["seat"] == "kaneda" and roll["offer"] == offer
    assert roll["roll"]["outcome"]["hits"] == 2 and roll["roll"]["outcome"]["success"] is True
    assert roll["roll"]["manual"] is True
    assert seats.pending_offers(t) == [], "a rolled request is no longer open"
    t.undo()
    assert [o.seq for o in seats.pending_offers(t)] == [offer], "undoing the roll opens the request again"
    t.undo()
    assert seats.pending_offers(t) == [], "undoing the request takes it away"
    t.redo()
    assert [o.seq for o in seats.pending_offers(t)] == [offer]


def test_the_gm_can_take_a_request_back_and_undo_that():
    t, offer = sr_with_offer()
    seats.withdraw(t, offer)
    assert seats.pending_offers(t) == []
    ans = seats.apply_request(t, "kaneda", req("roll", offer=offer))
    assert not ans["ok"] and ans["text"] == "that roll request is no longer open (rolled, taken back or undone)"
    with pytest.raises(SeatError):
        seats.withdraw(t, offer)
    t.undo()
    assert [o.seq for o in seats.pending_offers(t)] == [offer]


def test_the_open_requests_kept_over_copies_of_a_growing_log_are_those_of_a_fresh_reading():
    """The players' file keeps where the requests stand over the copies of the log each save hands it (one
    look at each new event): after rolls, a withdrawal, undo and redo it lists what reading the log anew lists."""
    t = demo.demo_varjojuoksu()
    t.rolls.roll_sr(t.rolls.sr_side("nyx", SRPool(skill="Hacking", attribute="logic")), threshold=3)  # before any request
    kept = seats.RequestIndex()
    seen: list[list[int]] = []

    def both() -> list[int]:
        def copy() -> Tracker:
            return Tracker.snapshot_of(t.state, list(t.events), t.undone)

        got = [o.seq for o in seats.pending_offers(copy(), index=kept)]
        assert got == [o.seq for o in seats.pending_offers(copy())], "the kept index lists what a fresh one does"
        seen.append(got)
        return got

    a = seats.ask_sr(t, "kaneda", PISTOLS, threshold=2)["seq"]
    b = seats.ask_sr(t, "kaneda", PISTOLS, threshold=1)["seq"]
    assert both() == [a, b]
    assert seats.apply_request(t, "kaneda", req("roll", offer=a, faces=[5, 6, 1, 2, 3, 3, 4, 2]))["ok"]
    assert both() == [b], "a rolled request is no longer open"
    seats.withdraw(t, b)
    assert both() == []
    t.undo()
    assert both() == [b], "undoing the withdrawal opens it again (no new event: only what is undone changed)"
    t.undo()
    assert both() == [a, b], "undoing the roll opens its request again"
    t.redo()
    t.redo()
    assert both() == []
    c = seats.ask_sr(t, "kaneda", PISTOLS)["seq"]
    assert both() == [c]
    assert seats.pending_offers(t) == seats.pending_offers(t) and [o.seq for o in seats.pending_offers(t)] == [c]


def test_no_roll_request_for_a_secret_character_or_another_system():
    t = demo.demo_varjojuoksu()
    t.update_character("ganger", "secret", True)
    n = len(t.events)
    with pytest.raises(SeatError, match="secret"):
        seats.ask_sr(t, "ganger", PISTOLS)
    with pytest.raises(SeatError, match="Harhapolku campaign"):
        seats.ask_harha(t, "kaneda", HarhaSide("Kaneda"))
    assert len(t.events) == n


def test_a_hidden_threshold_never_reaches_the_seat_or_the_players():
    t, offer = sr_with_offer(threshold=9, hidden=True)
    shown = seats.seat_offers(t, "kaneda")
    assert len(shown) == 1 and "threshold" not in shown[0] and shown[0]["hidden"] is True
    assert "9" not in shown[0]["text"] and shown[0]["text"].endswith("threshold hidden by the GM")
    odds = seats.offer_odds(t, seats.pending_offers(t)[0])
    assert odds.success is None, "no chance of success shown: it would tell the threshold"
    ans = seats.apply_request(t, "kaneda", req("roll", offer=offer, faces=[5, 6, 5, 2, 3, 3, 4, 2]))
    assert ans["ok"]
    # The GM's log keeps the threshold; the players' view and the answer do not.
    assert t.event_by_seq(ans["roll"])["roll"]["threshold"] == 9
    assert "threshold" not in json.dumps(ans).replace("threshold hidden", "")
    pub = public_view(t).events
    assert [e["text"] for e in pub[-2:]] == [
        "The GM asks Kaneda to roll: Pistols 4 + Agility 5 − 1 (wounds) = 8 dice, threshold hidden by the GM",
        "Kaneda: 3 hits, threshold hidden by the GM"]
    assert pub[-1]["seat"] == "kaneda", "the players see that Kaneda's player rolled it"
    assert "ask" not in pub[-2]


# ---------------------------------------------------------------------------
# what the seat sees before it rolls


def test_the_seat_sees_exact_odds_of_its_pool():
    t, _ = sr_with_offer(threshold=2)
    offer = seats.pending_offers(t)[0]
    odds = seats.offer_odds(t, offer)
    assert odds.dice == 8
    # 8 dice, a hit on 5 or 6 (S4): P(at least 2 hits) = 1 - (2/3)^8 - 8 (1/3) (2/3)^7
    two = 1 - Fraction(2, 3) ** 8 - 8 * Fraction(1, 3) * Fraction(2, 3) ** 7
    assert odds.success == pytest.approx(float(two), abs=1e-12)
    assert odds.at_least[1] == pytest.approx(float(two), abs=1e-12)
    assert odds.expected == pytest.approx(8 / 3)
    with_edge = seats.offer_odds(t, offer, edge_before=True)
    assert with_edge.dice == 11 and with_edge.success > odds.success, "Edge before adds Kaneda's 3 Edge dice (S7)"


def test_the_gms_modifier_rows_reach_the_seats_dice_from_the_log_and_the_players_file():
    t = demo.demo_varjojuoksu()
    seats.ask_sr(t, "kaneda", SRPool(skill="Pistols", attribute="agility", modifiers=[("cover", -2), ("scope", 1)]))
    offer = seats.pending_offers(t)[0]
    assert seats.offer_odds(t, offer).dice == 7, "Kaneda's 8 dice, -2 for cover, +1 for the scope"
    assert seats.sr_pool_of(offer).modifiers == [("cover", -2), ("scope", 1)]
    read = seats.Offer.from_public(json.loads(json.dumps(offer.public())))
    assert seats.faces_plan(t, read) == seats.FacesPlan(7, 6, rule_of_six=False)


def test_edge_before_is_offered_only_while_the_character_has_edge():
    t, offer_seq = sr_with_offer()
    offer = seats.pending_offers(t)[0]
    [act] = seats.offer_choices(t, offer)
    assert act.name == "edge_before" and act.allowed
    for _ in range(3):
        t.spend_edge("kaneda", "earlier")
    [act] = seats.offer_choices(t, offer)
    assert not act.allowed and act.reason == "no Edge left this session (S12)"
    n = len(t.events)
    ans = seats.apply_request(t, "kaneda", req("roll", offer=offer_seq, edge_before=True))
    assert ans == {"v": 1, "id": "0123456789abcdef", "ok": False, "text": "no Edge left this session (S12)",
                   "words": ["no Edge left this session (S12)", {}]}  # the seat tells its words in its language
    assert len(t.events) == n


def test_physical_faces_are_asked_wave_by_wave_under_the_rule_of_six():
    t, offer_seq = sr_with_offer()
    offer = seats.pending_offers(t)[0]
    assert seats.faces_plan(t, offer) == seats.FacesPlan(8, 6, rule_of_six=False)
    # With Edge before, 8 + 3 dice, then one more die for each six (S7), wave by wave.
    assert seats.faces_plan(t, offer, edge_before=True) == seats.FacesPlan(11, 6, rule_of_six=True)
    first = [6, 6, 1, 2, 3, 4, 5, 2, 3, 4, 1]
    assert t.rolls.sr_six_wave(first) == 2 and t.rolls.sr_six_wave([6, 3]) == 1 and t.rolls.sr_six_wave([2]) == 0
    ans = seats.apply_request(t, "kaneda", req("roll", offer=offer_seq, edge_before=True, faces=first + [6, 3, 2]))
    assert ans["ok"], ans
    out = t.event_by_seq(ans["roll"])["roll"]["outcome"]
    assert out["hits"] == 4 and out["edge_dice"] == 3
    assert t.characters["kaneda"]["edge"] == 2


def test_wrong_faces_are_refused_and_change_nothing():
    t, offer_seq = sr_with_offer()
    n, state = len(t.events), json.dumps(t.state, sort_keys=True)
    ans = seats.apply_request(t, "kaneda", req("roll", offer=offer_seq, faces=[5, 6]))
    assert not ans["ok"] and ans["text"].startswith("not enough faces entered")
    ans = seats.apply_request(t, "kaneda", req("roll", offer=offer_seq, faces=[1] * 9))
    assert not ans["ok"] and "more than the pool has dice" in ans["text"]
    assert len(t.events) == n and json.dumps(t.state, sort_keys=True) == state


# ---------------------------------------------------------------------------
# what a seat may and may not do


def test_a_seat_cannot_roll_for_another_character():
    t, offer = sr_with_offer()
    n = len(t.events)
    # Nyx's seat names Kaneda's request.
    ans = seats.apply_request(t, "nyx", req("roll", seat="nyx", offer=offer))
    assert not ans["ok"] and ans["text"] == "that roll request is no longer open (rolled, taken back or undone)"
    # A file in Nyx's folder that claims to be Kaneda's seat is refused before anything is read from it.
    data = json.dumps(req("roll", seat="kaneda", offer=offer)).encode()
    with pytest.raises(SeatError, match="a request in nyx's seat folder speaks for another seat"):
        seats.parse_request(data, "nyx", "0123456789abcdef")
    assert len(t.events) == n


def test_a_seat_changes_only_its_own_roll():
    t, offer = sr_with_offer()
    ans = seats.apply_request(t, "kaneda", req("roll", offer=offer, faces=[5, 6, 1, 2, 3, 3, 4, 2]))
    # The GM's own roll for Nyx: not Nyx's seat's to change, nor Kaneda's.
    gm_roll = t.rolls.roll_sr(t.rolls.sr_side("nyx", SRPool(skill="Hacking", attribute="logic")))
    n = len(t.events)
    for cid, seq in (("kaneda", gm_roll["event"]["seq"]), ("nyx", gm_roll["event"]["seq"]), ("nyx", ans["roll"])):
        out = seats.apply_request(t, cid, req("action", seat=cid, roll=seq, action="negate_glitch"))
        assert not out["ok"] and out["text"] == "a seat can only change its own roll, made from that seat"
    out = seats.apply_request(t, "kaneda", req("action", roll=ans["roll"], action="next_interval"))
    assert not out["ok"] and out["text"] == (
        "a seat cannot ask for that action (only edge_after, negate_glitch, reduce_critical, edge_reroll)")
    assert len(t.events) == n


def test_edge_after_on_the_seats_own_roll_then_no_second_edge():
    t, offer = sr_with_offer()
    ans = seats.apply_request(t, "kaneda", req("roll", offer=offer, faces=[5, 6, 1, 2, 3, 3, 4, 2]))
    assert [a["name"] for a in ans["actions"] if a["allowed"]] == ["edge_after"]
    # Not the latest roll any more once the GM rolls something else? Still Kaneda's latest: it is the latest roll.
    out = seats.apply_request(t, "kaneda", req("action", roll=ans["roll"], action="edge_after", faces=[6, 5, 1, 4]))
    assert out["ok"], out
    new = t.event_by_seq(out["roll"])
    assert new["seat"] == "kaneda" and new["roll"]["supersedes"] == ans["roll"]
    assert new["roll"]["outcome"]["hits"] == 4, "2 hits, then 6 and 5 of the Edge dice; the 6's reroll shows 4"
    assert not any(a["allowed"] for a in out["actions"] if a["name"] == "edge_after")
    again = seats.apply_request(t, "kaneda", req("action", roll=out["roll"], action="edge_after"))
    assert not again["ok"] and "one Edge point per test for dice (S7)" in again["text"]
    t.undo()
    assert t.characters["kaneda"]["edge"] == 3, "one undo takes back Edge after and its Edge point"


def test_harhapolku_difficult_action_from_a_seat_with_an_edge_reroll():
    t = demo.demo_harhapolku()
    side = HarhaSide("Lena", general="Island girl", background="Thief", special="Dream-walker")
    offer = seats.ask_harha(t, "lena", side)["seq"]
    odds = seats.offer_odds(t, seats.pending_offers(t)[0])
    # 3 d8 (always, general, background; 7+ on 2 of 8 faces) and 1 d10 (special; 7+ on 4 of 10): H8 needs one 7+.
    assert odds.dice == 4 and odds.success == pytest.approx(1 - (6 / 8) ** 3 * (6 / 10))
    assert seats.faces_plan(t, seats.pending_offers(t)[0]) == seats.FacesPlan(
        4, (8, 8, 8, 10), order=("always", "Island girl", "Thief", "Dream-walker"))
    ans = seats.apply_request(t, "lena", req("roll", seat="lena", offer=offer, faces=[3, 4, 2, 5]))
    assert ans["ok"], ans
    assert t.event_by_seq(ans["roll"])["text"] == "Lena, difficult action: failure (0 of 1 needed 7+)"
    rerolls = [a for a in ans["actions"] if a["name"] == "edge_reroll"]
    assert [(a["edge"], a["allowed"]) for a in rerolls] == [("Cold head", True)], "Quick fingers is used already"
    out = seats.apply_request(t, "lena", req("action", seat="lena", roll=ans["roll"], action="edge_reroll",
                                             edge="Cold head", faces=[8, 1, 2, 3]))
    assert out["ok"], out
    assert t.event_by_seq(out["roll"])["text"].startswith("Lena, difficult action: success")
    assert t.characters["lena"]["edges"][0]["used"] is True


def test_a_rajapolku_seat_spends_its_own_story_point():
    t = demo.demo_rajapolku()
    ans = seats.apply_request(t, "alyosha", req("story_point", seat="alyosha", bought="a sewer hatch opens"))
    assert ans["ok"] and t.characters["alyosha"]["story_points"] == 1
    assert t.events[-1]["seat"] == "alyosha" and t.events[-1]["text"] == (
        "Alyosha spends a story point: a sewer hatch opens (1 left)")
    t.update_character("alyosha", "story_points", 0)
    n = len(t.events)
    ans = seats.apply_request(t, "alyosha", req("story_point", seat="alyosha", bought="another hatch"))
    assert not ans["ok"] and ans["text"].startswith("Alyosha has no story points left")
    assert len(t.events) == n
    ans = seats.apply_request(t, "ghost-of-the-nurse", req("story_point", seat="ghost-of-the-nurse", bought="x"))
    assert not ans["ok"] and ans["text"] == "no character has a seat in this folder"


@pytest.mark.parametrize("data, why", [
    (b"x" * 5000, "request too large (5000 bytes, at most 4096)"),
    (b"\xff\xfe", "the request is not valid JSON"),
    (b"[1, 2]", "the request is not a JSON object"),
    (json.dumps(req("shell")).encode(), "unknown request kind"),
    (json.dumps(req("roll", offer=3, path="/etc/passwd")).encode(), "a field a roll request does not have"),
    (json.dumps(req("roll", offer="3")).encode(), "field 'offer' has the wrong type"),
    (json.dumps(req("roll", offer=True)).encode(), "field 'offer' has the wrong type"),
    (json.dumps(req("roll", offer=3, faces=[7, 99])).encode(), "faces must be at most 60 whole numbers from 1 to 10"),
    (json.dumps(req("roll", offer=3, faces=[1] * 61)).encode(), "faces must be at most 60 whole numbers from 1 to 10"),
    (json.dumps(req("roll", rid="ffffffffffffffff", offer=3)).encode(), "the request's id does not match its file name"),
    (json.dumps({**req("roll", offer=3), "v": 2}).encode(), "unknown request version"),
    (json.dumps(req("story_point", bought="two\nlines")).encode(), "field 'bought' is too long or not one line"),
    (json.dumps(req("roll")).encode(), "a roll request needs 'offer'"),
], ids=lambda v: v[:40] if isinstance(v, str) else "request")
def test_bad_requests_are_refused_in_one_line(data, why):
    with pytest.raises(SeatError) as err:
        seats.parse_request(data, "kaneda", "0123456789abcdef")
    assert str(err.value) == why


# ---------------------------------------------------------------------------
# the spool on disk


def test_a_request_through_the_spool_is_applied_once_and_answered(tmp_path):
    t, offer = sr_with_offer()
    path = write(tmp_path / "night.toml", t)
    rid = seats.write_request(path, "kaneda", "roll", offer=offer, faces=[5, 6, 1, 2, 3, 3, 4, 2])
    folder = seats.seat_dir(path, "kaneda")
    assert sorted(os.listdir(folder)) == [f"req-{rid}.json"], "no temporary file is left behind"
    assert seats.waiting(path, "kaneda") == [rid]
    assert seats.read_answer(path, "kaneda", rid) is None
    found = seats.incoming(path)
    assert found == [("kaneda", folder / f"req-{rid}.json")]
    ans = seats.handle(t, path, *found[0])
    assert ans is not None and ans["ok"]
    assert seats.read_answer(path, "kaneda", rid) == ans
    assert seats.incoming(path) == [] and seats.waiting(path, "kaneda") == []
    assert seats.handle(t, path, *found[0]) is None, "a request is applied once"
    assert sum(1 for e in t.events if e.get("seat")) == 1


def test_requests_wait_while_the_gms_app_is_closed(tmp_path):
    t, offer = sr_with_offer()
    path = write(tmp_path / "night.toml", t)
    rid = seats.write_request(path, "kaneda", "roll", offer=offer)
    # Later the GM opens the file: the request is still there, and applies to the loaded session.
    loaded, _ = load_tracker(path)
    [(cid, file)] = seats.incoming(path)
    ans = seats.handle(loaded, path, cid, file)
    assert ans is not None and ans["ok"] and ans["id"] == rid
    assert loaded.events[-1]["offer"] == offer


def test_junk_in_the_spool_is_ignored_and_stale_temp_files_go(tmp_path):
    path = write(tmp_path / "night.toml", demo.demo_varjojuoksu())
    folder = seats.seat_dir(path, "kaneda")
    folder.mkdir(parents=True)
    (folder / "notes.txt").write_text("hello")
    (folder / "req-short.json").write_text("{}")
    stale = folder / ".req-0123456789abcdef.json.tmp-1-ab"
    stale.write_text("{")
    os.utime(stale, (1, 1))
    fresh = folder / ".req-0123456789abcdee.json.tmp-1-ab"
    fresh.write_text("{")
    (seats.spool_dir(path) / "Bad Name").mkdir()
    assert seats.incoming(path) == []
    assert seats.take_requests(path) == seats.Look(looked={"kaneda"}), "nothing taken, no problem"
    assert not stale.exists() and fresh.exists(), "a seat still writing keeps its temporary file"
    assert (folder / "notes.txt").exists()


def test_a_broken_request_gets_an_answer_saying_why(tmp_path):
    t = demo.demo_varjojuoksu()
    path = write(tmp_path / "night.toml", t)
    folder = seats.seat_dir(path, "kaneda")
    folder.mkdir(parents=True)
    (folder / "req-0123456789abcdef.json").write_text('{"v": 1, "kind": "roll", "offer": 1, "seat": "nyx", '
                                                     '"id": "0123456789abcdef"}')
    n = len(t.events)
    [(cid, file)] = seats.incoming(path)
    ans = seats.handle(t, path, cid, file)
    assert ans == {"v": 1, "id": "0123456789abcdef", "ok": False,
                   "text": "a request in kaneda's seat folder speaks for another seat",
                   "words": ["a request in {folder}'s seat folder speaks for another seat", {"folder": "kaneda"}]}
    assert len(t.events) == n and not file.exists()


def test_seat_events_survive_a_save_and_load(tmp_path):
    t, offer = sr_with_offer(threshold=3, hidden=True)
    seats.apply_request(t, "kaneda", req("roll", offer=offer, faces=[5, 6, 1, 2, 3, 3, 4, 2]))
    path = write(tmp_path / "night.toml", t)
    loaded, _ = load_tracker(path, read_only=True)
    assert seats.pending_offers(loaded) == []
    roll = loaded.events[-1]
    assert roll["seat"] == "kaneda" and roll["offer"] == offer and roll["roll"]["threshold"] == 3


def test_the_tracker_refuses_seat_commands_when_read_only():
    t, offer = sr_with_offer()
    ro = Tracker(t.state, list(t.events), read_only=True)
    with pytest.raises(TrackerError):
        seats.ask_sr(ro, "kaneda", PISTOLS)
    ans = seats.apply_request(ro, "kaneda", req("roll", offer=offer))
    assert not ans["ok"] and ans["text"] == "this session is open read-only; nothing was changed"


def test_a_rajapolku_challenge_from_a_seat_rolls_both_sides_at_once():
    from polku.session.rolls import RajaSide

    t = demo.demo_rajapolku()
    c = t.add_challenge("Over the gate", ["alyosha"])
    offer = seats.ask_raja(t, "alyosha", RajaSide("Alyosha", backgrounds=["Runner"]),
                           RajaSide("GM: the locked gate", backgrounds=["Heavy", "Rusted"]), challenge=c["id"])["seq"]
    assert t.event_by_seq(offer)["text"] == "The GM asks Alyosha to roll: 2 dice against GM: the locked gate's 3"
    odds = seats.offer_odds(t, seats.pending_offers(t)[0])
    # R5 with raja.exhausted: 2d10 against 3d10 can never tie fully; P(win) from the rules core's exact odds.
    from polku.rules.odds import raja_odds

    assert odds.dice == 2 and odds.against == 3 and odds.tie == 0.0
    assert odds.success == pytest.approx(raja_odds(2, 0, 3, 0, t.settings).a_wins)
    ans = seats.apply_request(t, "alyosha", req("roll", seat="alyosha", offer=offer))
    assert ans["ok"], ans
    roll = t.event_by_seq(ans["roll"])
    assert roll["seat"] == "alyosha" and roll["roll"]["test"] == "rajapolku" and roll["challenge"] == c["id"]
    assert [len(s["dice"]) for s in roll["roll"]["sides"]] == [2, 3]
    assert t.challenge(c["id"])["status"] == "resolved"
    # A secret character cannot be in the opposition of a seat's roll.
    with pytest.raises(SeatError, match="secret character is in the opposition"):
        seats.ask_raja(t, "alyosha", RajaSide("Alyosha"), RajaSide("Ghost", ["ghost-of-the-nurse"]))


def raja_offer(t: Tracker) -> int:
    from polku.session.rolls import RajaSide

    c = t.add_challenge("Over the gate", ["alyosha"])
    return seats.ask_raja(t, "alyosha", RajaSide("Alyosha", backgrounds=["Runner", "Militia"]),
                          RajaSide("GM: the locked gate", backgrounds=["Heavy"]), challenge=c["id"])["seq"]


def test_a_rajapolku_seat_types_its_own_dice_and_the_gms_side_is_the_programs():
    from polku.session.players.verify import verify

    t = demo.demo_rajapolku(seed=None)  # a committed dice secret: the program's side can be verified
    offer = raja_offer(t)
    plan = seats.faces_plan(t, seats.pending_offers(t)[0])
    assert plan == seats.FacesPlan(3, (10, 10, 10), order=("action", "Runner", "Militia")), \
        "the action die and two backgrounds (R1, R2): all d10"
    ans = seats.apply_request(t, "alyosha", req("roll", seat="alyosha", offer=offer, faces=[9, 7, 2]))
    assert ans["ok"], ans
    ev = t.event_by_seq(ans["roll"])
    roll = ev["roll"]
    assert [d["face"] for d in roll["sides"][0]["dice"]] == [9, 7, 2], "the player's faces, as typed"
    assert len(roll["sides"][1]["dice"]) == 2 and len(roll["draws"]) == 2, "the gate's two dice: the program's"
    assert roll["manual"] is True and roll["hand"] == ["a"] and ev["seat"] == "alyosha"
    rep = verify(t.events, t.state, t.undone)
    assert rep.ok and rep.checked == 2, "the demo's first roll and the gate's side, against the dice secret"
    assert rep.hand[-1].split(":")[0] == f"seq {ev['seq']} (side a; the other side's program dice are checked)"
    # The GM's side changed in the file: verify sees it; the player's side is theirs to type.
    roll["sides"][1]["dice"][0]["face"] = roll["sides"][1]["dice"][0]["face"] % 10 + 1
    assert not verify(t.events, t.state, t.undone).ok
    roll["sides"][1]["dice"][0]["face"] = int(roll["draws"][0].split(":")[1])
    roll["sides"][0]["dice"][0]["face"] = 10
    # The typed face is no program die (no dice mismatch), but the logged result no longer follows from it.
    bad = verify(t.events, t.state, t.undone).mismatches
    assert bad and all(m.startswith(f"seq {ev['seq']}: its result does not follow from its faces") for m in bad), bad


def test_a_rajapolku_seats_faces_are_checked_on_arrival_and_change_nothing():
    t = demo.demo_rajapolku()
    offer = raja_offer(t)
    n, state = len(t.events), json.dumps(t.state, sort_keys=True)
    for faces, why in (([9, 8], "not enough faces entered"), ([9, 8, 7, 6], "1 face more than the pool has dice"),
                       ([9, 8, 0], "faces must be at most")):
        if 0 in faces:
            with pytest.raises(SeatError, match=why):
                seats.parse_request(json.dumps(req("roll", seat="alyosha", offer=offer, faces=faces)).encode(),
                                    "alyosha", "0123456789abcdef")
            continue
        ans = seats.apply_request(t, "alyosha", req("roll", seat="alyosha", offer=offer, faces=faces))
        assert not ans["ok"] and ans["text"].startswith(why), ans
    assert len(t.events) == n and json.dumps(t.state, sort_keys=True) == state
    assert [o.seq for o in seats.pending_offers(t)] == [offer], "the request is still open"


def test_follow_ups_of_a_physical_roll_ask_their_dice_from_the_log(tmp_path):
    """The seat reads the roll from the file (no roll in memory): Edge after = Edge rating dice, rule of six (S7);
    an edge reroll = the whole roll again, each die's size (H7)."""
    t, offer = sr_with_offer()
    ans = seats.apply_request(t, "kaneda", req("roll", offer=offer, faces=[5, 6, 1, 2, 3, 3, 4, 2]))
    loaded = load_tracker(write(tmp_path / "night.toml", t), read_only=True)[0]
    ev = loaded.event_by_seq(ans["roll"])
    assert seats.physical(ev)
    assert seats.follow_up_plan(loaded, ev, "edge_after", "kaneda") == seats.FacesPlan(3, 6, rule_of_six=True)
    assert seats.follow_up_plan(loaded, ev, "negate_glitch", "kaneda").count == 0
    h = demo.demo_harhapolku()
    side = HarhaSide("Lena", general="Island girl", background="Thief", special="Dream-walker")
    hoffer = seats.ask_harha(h, "lena", side)["seq"]
    hans = seats.apply_request(h, "lena", req("roll", seat="lena", offer=hoffer, faces=[3, 4, 2, 5]))
    hev = h.event_by_seq(hans["roll"])
    assert seats.follow_up_plan(h, hev, "edge_reroll", "lena") == seats.FacesPlan(
        4, (8, 8, 8, 10), order=("always", "Island girl", "Thief", "Dream-walker"))
    # The GM's app checks the reroll's faces against the roll's own dice: a d8 cannot show 9.
    bad = seats.apply_request(h, "lena", req("action", seat="lena", roll=hans["roll"], action="edge_reroll",
                                             edge="Cold head", faces=[9, 1, 2, 3]))
    assert not bad["ok"] and "d8" in bad["text"], bad
    assert h.characters["lena"]["edges"][0]["used"] is False, "a refused reroll uses no edge"


def test_the_luck_report_counts_a_seats_typed_side_as_by_hand_and_the_gms_as_program_dice():
    from polku.session.review import stats

    t = demo.demo_rajapolku(seed=None)
    offer = raja_offer(t)
    before = {(d.manual, d.size): sum(d.counts) for d in stats.compute(t).faces}
    ans = seats.apply_request(t, "alyosha", req("roll", seat="alyosha", offer=offer, faces=[9, 7, 2]))
    assert ans["ok"], ans
    after = {(d.manual, d.size): sum(d.counts) for d in stats.compute(t).faces}
    assert after[(True, 10)] - before.get((True, 10), 0) == 3, "Alyosha's three typed faces"
    assert after[(False, 10)] - before.get((False, 10), 0) == 2, "the gate's two program dice"


# ---------------------------------------------------------------------------
# a refusal in the reader's language


def _seat_line(ans) -> str:
    """What the seat shows of an answer (tui/seat.py: its words in the reader's language, else its text)."""
    from polku.i18n import tell

    return tell(ans.get("words"), str(ans.get("text", "")))


def test_a_tracker_refusal_reaches_a_finnish_seat_in_finnish_from_an_english_gm():
    """The GM plays in English; the tracker refuses the seat's request (TrackerError, RulesError); the answer
    keeps the English line and its words, and a Finnish seat reads the refusal in Finnish."""
    from polku import i18n

    t = demo.demo_rajapolku()
    t.update_character("alyosha", "story_points", 0)
    no_points = seats.apply_request(t, "alyosha", req("story_point", seat="alyosha", bought="another hatch"))
    t, offer_seq = sr_with_offer()
    few_faces = seats.apply_request(t, "kaneda", req("roll", offer=offer_seq, faces=[5, 6]))
    assert no_points["text"] == "Alyosha has no story points left; a new story (T) brings new ones"
    assert few_faces["text"] == "not enough faces entered: needed die #3 (d6)"
    assert _seat_line(no_points) == no_points["text"]          # an English seat reads the English line
    i18n.set_language("fi")
    assert _seat_line(no_points) == "Alyosha: tarinapisteitä ei ole jäljellä; uusi tarina (T) tuo uusia"
    assert _seat_line(few_faces) == "silmälukuja ei annettu tarpeeksi: tarvittiin noppa #3 (d6)"


def test_the_gm_reads_a_refusal_in_the_gms_language_and_the_answer_stays_english():
    """A Finnish GM's app says the refusal in Finnish (str(e)); the seat's answer keeps the English line (its
    words let an English seat read English)."""
    from polku import i18n

    i18n.set_language("fi")
    t = demo.demo_rajapolku()
    t.update_character("alyosha", "story_points", 0)
    with pytest.raises(TrackerError) as refused:
        t.spend_story_point("alyosha", "a hatch")
    assert str(refused.value) == "Alyosha: tarinapisteitä ei ole jäljellä; uusi tarina (T) tuo uusia"
    ans = seats.apply_request(t, "alyosha", req("story_point", seat="alyosha", bought="another hatch"))
    assert ans["text"] == "Alyosha has no story points left; a new story (T) brings new ones"
    i18n.set_language("en")
    assert _seat_line(ans) == ans["text"]
