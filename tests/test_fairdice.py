"""Program dice anyone can verify: a committed secret per game session, a seed per
numbered roll, the secret revealed when the session ends, and ``polku verify``
recomputing every roll (session/fairdice.py, session/players/verify.py)."""

from __future__ import annotations

import copy
import hashlib
import hmac
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from polku.session import demo, fairdice, model, records
from polku.session.commands import command
from polku.session.players import transcript
from polku.session.players.public import public_view
from polku.session.players.verify import verify
from polku.session.review import export
from polku.session.rolls import HarhaSide, RajaSide, SRSide
from polku.session.tracker import Tracker, TrackerError

SECRET = "00" * 31 + "01"


def check(t: Tracker):
    return verify(list(t.events), t.state, t.undone)


# ---------------------------------------------------------------------------
# The derivation, as docs/verifiable-dice.md writes it


def test_the_derivation_is_the_documented_one():
    """HMAC-SHA256(secret bytes, ASCII roll number), first 4 bytes big-endian; SHA-256 of the bytes."""
    raw = bytes.fromhex(SECRET)
    assert fairdice.commitment(SECRET) == hashlib.sha256(raw).hexdigest()
    mac = hmac.new(raw, b"7", hashlib.sha256).digest()
    assert fairdice.roll_seed(SECRET, 7) == int.from_bytes(mac[:4], "big")
    # The test vector the document gives (so another implementation can check itself).
    assert fairdice.commitment(SECRET) == "ec4916dd28fc4c10d78e287ca5d9cc51ee1ae73cbfde08c6b37324cbfaac8bc5"
    assert fairdice.roll_seed(SECRET, 1) == 1507702957
    assert fairdice.replay_draws(1507702957, [6, 6, 10]) == [1, 1, 3]


def test_a_bad_secret_is_one_clear_error():
    with pytest.raises(ValueError, match="64 hex digits"):
        fairdice.commitment("nothex")


# ---------------------------------------------------------------------------
# In the tracker


def test_each_program_roll_takes_the_next_number_and_its_derived_seed(clock):
    t = Tracker.new("rajapolku", "Dice", clock=clock)
    d = t.state["dice"]
    assert d["commitment"] == fairdice.commitment(d["secret"]) and d["key"] == 1
    rolls = [t.rolls.roll_raja(RajaSide("A"), RajaSide("B"))["event"]["roll"] for _ in range(3)]
    assert [r["roll_no"] for r in rolls] == [1, 2, 3]
    assert [r["seed"] for r in rolls] == [fairdice.roll_seed(d["secret"], n) for n in (1, 2, 3)]
    for r in rolls:
        shown = [f"{x['size']}:{x['face']}" for s in r["sides"] for x in s["dice"]]
        assert shown == r["draws"]
    # Dice entered by hand take no number.
    t.rolls.roll_raja(RajaSide("A"), RajaSide("B"), faces=([3], [4]))
    assert t.rolls.roll_raja(RajaSide("A"), RajaSide("B"))["event"]["roll"]["roll_no"] == 4


def test_undo_gives_the_number_back_so_the_same_pool_rolls_the_same(clock):
    """Undo cannot fish for better dice: the roll after the undo has the same number and seed."""
    t = Tracker.new("shadowrun", "Dice", clock=clock)
    first = t.rolls.roll_sr(SRSide("GM", dice=8))["event"]["roll"]
    t.undo()
    again = t.rolls.roll_sr(SRSide("GM", dice=8))["event"]["roll"]
    assert again["roll_no"] == first["roll_no"] and again["draws"] == first["draws"]
    assert check(t).ok


def test_a_fixed_test_seed_rolls_the_same_every_time_and_verify_says_it_is_seeded(clock):
    def run() -> Tracker:
        t = Tracker.new("shadowrun", "Dice", clock=demo.fixed_clock(), seed=11)
        for _ in range(3):
            t.rolls.roll_sr(SRSide("GM", dice=6))
        return t

    def faces(t: Tracker) -> list:
        return [(e["roll"]["seed"], e["roll"]["sides"]) for e in t.events]

    assert faces(run()) == faces(run())
    t = run()
    assert "dice" not in t.state and "dice_key" not in t.events[0]["roll"]
    rep = check(t)
    assert rep.ok and rep.checked == 0 and rep.before == 0 and rep.seeded == 3 and rep.status == 3
    assert rep.lines()[0].startswith("deliberately seeded: 3 program rolls came from a fixed seed")


def test_a_new_session_reveals_the_secret_and_commits_the_next(clock):
    t = demo.demo_varjojuoksu(seed=None)
    old = copy.deepcopy(t.state["dice"])
    shown_before = public_view(t)
    assert shown_before.state["dice"]["commitment"] == old["commitment"]
    assert old["secret"] not in repr(shown_before.state) + repr(shown_before.events) + export.export(t, "md")
    t.new_session()
    new = t.state["dice"]
    assert new["key"] == 2 and new["session"] == 2 and new["secret"] != old["secret"]
    assert new["revealed"][-1]["secret"] == old["secret"]
    view = public_view(t)
    texts = [e["text"] for e in view.events if e["kind"] == "dice"]
    assert any(old["secret"] in x for x in texts), "the revealed secret is in the players' log"
    assert any(new["commitment"] in x for x in texts), "the next commitment too"
    assert new["secret"] not in repr(view.state) + repr(view.events) + export.export(t, "md") + export.export(t, "html")
    assert old["secret"] in export.export(t, "md")
    # The next roll is roll #1 of the new secret.
    r = t.rolls.roll_sr(SRSide("GM", dice=3))["event"]["roll"]
    assert (r["dice_key"], r["roll_no"]) == (2, 1)


def test_revealing_by_the_gms_choice_cannot_be_undone(clock):
    t = Tracker.new("rajapolku", "Dice", clock=clock)
    t.rolls.roll_raja(RajaSide("A"), RajaSide("B"))
    t.new_dice_secret()
    assert [e["kind"] for e in t.events[-2:]] == ["dice", "dice"]
    # Undo skips the reveal and undoes the roll before it; the secret stays revealed.
    t.undo()
    assert t.state["dice"]["key"] == 2 and t.events[-1]["target"] == t.events[0]["seq"]
    with pytest.raises(TrackerError, match="nothing to undo"):
        t.undo()


def test_an_old_file_gets_a_commitment_before_its_first_roll(clock):
    """A file from before verifiable dice: the first program roll is preceded by a committed secret."""
    t = Tracker.new("rajapolku", "Old", clock=clock)
    del t.state["dice"]
    t.add_character("Ann")
    t.rolls.roll_raja(RajaSide("A"), RajaSide("B"), faces=([3], [4]))
    assert "dice" not in t.state, "hand-entered dice need no secret"
    t.rolls.roll_raja(RajaSide("A"), RajaSide("B"))
    kinds = [e["kind"] for e in t.events[-2:]]
    assert kinds == ["dice", "roll"] and "committed" in t.events[-2]["text"]
    assert check(t).ok and check(t).checked == 1


# ---------------------------------------------------------------------------
# verify


def _played(clock) -> Tracker:
    t = demo.demo_varjojuoksu(seed=None)
    ev = t.rolls.roll_sr(SRSide("Kaneda", ["kaneda"], dice=6))["event"]
    t.rolls.sr_post_roll(ev, "edge_after")
    t.rolls.roll_sr(SRSide("Kaneda", ["kaneda"], dice=3), faces=[5, 1, 2])
    return t


def test_a_played_session_verifies_and_names_what_was_entered_by_hand(clock):
    t = _played(clock)
    t.new_session()
    rep = check(t)
    assert rep.ok and rep.checked >= 6 and rep.unrevealed == 0
    hand = [e["seq"] for e in t.events if e.get("roll", {}).get("manual")]
    assert [int(h.split()[1].rstrip(":")) for h in rep.hand] == hand and hand
    assert rep.lines()[-1].startswith("OK: ")


def _last_program_roll(t: Tracker) -> model.Event:
    """The Edge-after follow-up _played made."""
    return next(e for e in reversed(t.events) if e.get("roll", {}).get("dice_key"))


def test_a_tampered_face_is_named(clock):
    t = _played(clock)
    ev = _last_program_roll(t)
    die = ev["roll"]["sides"][0]["dice"][-1]
    die["face"] = die["face"] % 6 + 1
    rep = check(t)
    assert not rep.ok
    assert any(f"seq {ev['seq']} " in m and f"die {len(ev['roll']['sides'][0]['dice'])} of side a" in m
               for m in rep.mismatches), rep.mismatches
    assert rep.lines()[-1].startswith("FAILED")


def test_a_tampered_draw_or_seed_is_named(clock):
    t = _played(clock)
    ev = _last_program_roll(t)
    ev["roll"]["seed"] += 1
    rep = check(t)
    assert [m for m in rep.mismatches if f"seq {ev['seq']} " in m and "seed" in m]
    t2 = _played(clock)
    ev2 = _last_program_roll(t2)
    size, face = fairdice.parse_draw(ev2["roll"]["draws"][0])
    ev2["roll"]["draws"][0] = f"{size}:{face % size + 1}"
    rep2 = check(t2)
    assert any(f"seq {ev2['seq']} " in m and "draw 1 " in m for m in rep2.mismatches), rep2.mismatches


def test_a_tampered_carried_die_of_a_follow_up_is_named(clock):
    t = _played(clock)
    ev = _last_program_roll(t)
    assert ev["roll"].get("supersedes")
    ev["roll"]["sides"][0]["dice"][0]["face"] = ev["roll"]["sides"][0]["dice"][0]["face"] % 6 + 1
    rep = check(t)
    assert any(f"seq {ev['seq']} " in m and "die 1 of side a" in m for m in rep.mismatches), rep.mismatches


def test_a_swapped_secret_breaks_the_commitment(clock):
    t = _played(clock)
    t.new_session()
    t.state["dice"]["revealed"][0]["secret"] = fairdice.new_secret()
    for ev in t.events:
        if ev.get("revealed"):
            ev["revealed"] = t.state["dice"]["revealed"][0]["secret"]
    rep = check(t)
    assert any("dice secret #1: its SHA-256" in m for m in rep.mismatches)
    assert any("seed" in m for m in rep.mismatches), "and every roll's seed no longer derives from it"


def test_a_file_from_before_verifiable_dice_says_so(clock):
    t = Tracker.new("rajapolku", "Old", clock=clock)
    t.rolls.roll_raja(RajaSide("A"), RajaSide("B"))
    for ev in t.events:
        roll = ev.get("roll")
        if roll:
            for k in ("dice_key", "roll_no", "draws"):
                roll.pop(k)
    del t.state["dice"]
    rep = check(t)
    assert rep.ok and rep.checked == 0 and rep.before == 1
    assert "predates verifiable dice" in rep.lines()[0]


# ---------------------------------------------------------------------------
# Property: any session of program rolls verifies

OPS = st.lists(st.tuples(st.sampled_from(["raja", "harha", "sr", "sr_edge", "post", "reroll", "undo", "redo",
                                          "session", "reveal", "hand", "initiative", "teamwork", "spirit",
                                          "narration", "extended", "resist"]),
                         st.integers(1, 9)), max_size=25)


def _narrate(t: Tracker, n: int) -> None:
    """One step of a narration contest with the program's dice (H9): a background's die, the narration
    taken or usurped with the dice in hand, the GM's harm roll, an edge's reroll (H7)."""
    r = t.rolls
    c = r.narration()
    who, cid = ("Lena", "lena") if n % 2 else ("Tuomas", "tuomas")
    hand = c.hand(who)
    if c.last is not None and c.last.tier == "harm_roll" and not c.last.harm_resolved:
        r.narration_harm()
    elif n % 3 == 0 and hand:
        edge = next((e["name"] for e in records.harha(t.character(cid)).get("edges", []) if not e.get("used")), None)
        if edge:
            r.narration_edge_reroll(who, cid, edge)
    elif c.narrator is None and len(hand) >= 2:
        r.narration_open(who, hand[:2])
    elif c.narrator not in (None, who) and sum(d.face for d in hand) > c.table_total:
        r.narration_usurp(who, hand)
    else:
        r.narration_roll_background(who, f"Background {n} {len(t.events)}", 8 if n % 2 else 10)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["rajapolku", "harhapolku", "shadowrun"]), OPS)
def test_any_session_of_program_rolls_verifies(system, ops):
    t = {"rajapolku": demo.demo_rajapolku, "harhapolku": demo.demo_harhapolku,
         "shadowrun": demo.demo_varjojuoksu}[system](seed=None)
    for op, n in ops:
        try:
            last = next((e for e in reversed(t.events) if e["kind"] == "roll" and not t.is_undone(e["seq"])), None)
            if op == "undo":
                t.undo()
            elif op == "redo":
                t.redo()
            elif op == "session":
                t.new_session()
            elif op == "reveal":
                t.new_dice_secret()
            elif system == "rajapolku" and op in ("raja", "hand"):
                faces = ([n], [10 - n]) if op == "hand" else None
                t.rolls.roll_raja(RajaSide("A", ["alyosha"], backgrounds=["Runner"]), RajaSide("B"), faces=faces)
            elif system == "harhapolku" and op in ("harha", "hand"):
                cid = next(iter(t.characters))
                t.rolls.roll_harha(HarhaSide("A", [cid], general="x", special="y" if n % 2 else None),
                             HarhaSide("B", general="x"), faces=([n % 8 + 1, 1], [2, 3]) if op == "hand" else None)
            elif system == "harhapolku" and op == "reroll" and last is not None:
                act = next((a for a in t.rolls.roll_actions(last) if a.allowed and a.name == "edge_reroll"), None)
                if act:
                    t.rolls.do_roll_action(last, act.name, role=act.role, edge=act.edge)
            elif system == "shadowrun" and op in ("sr", "sr_edge"):
                t.rolls.roll_sr(SRSide("Kaneda", ["kaneda"], dice=n, edge_before=op == "sr_edge"))
            elif system == "shadowrun" and op == "post" and last is not None and last["roll"]["test"] != \
                    "damage-resistance":
                act = next((a for a in t.rolls.roll_actions(last) if a.allowed), None)
                if act:
                    t.rolls.do_roll_action(last, act.name, role=act.role)
            elif system == "shadowrun" and op == "initiative":
                t.rolls.roll_initiative([("kaneda", 1), ("nyx", 1)])
            elif system == "shadowrun" and op == "teamwork":
                t.rolls.roll_sr_teamwork(SRSide("Kaneda", ["kaneda"], dice=n), [SRSide("Nyx", ["nyx"], dice=3)])
            elif system == "shadowrun" and op == "extended":
                open_ = [c["id"] for c in t.state["challenges"] if c["status"] != "resolved" and c.get("extended")]
                cid = open_[0] if open_ and n % 3 else t.add_challenge(f"Hack {n}", ["kaneda"], [])["id"]
                t.rolls.roll_sr_extended(SRSide("Kaneda", ["kaneda"], dice=n), cid, threshold=n + 2,
                                         hurried=n % 4 == 0 or None)
            elif system == "shadowrun" and op == "resist":
                t.damage.apply(None, target="nyx" if n % 2 else "kaneda", dv=n, net_hits=n % 3, edge=n % 5 == 0,
                               damage="stun" if n % 3 == 0 else "physical")
            elif system == "shadowrun" and op == "post" and last is not None and last["roll"]["test"] == \
                    "damage-resistance":
                act = next((a for a in t.damage.post_roll_actions(last) if a.allowed), None)
                if act:
                    t.damage.post_roll(last, act.name)
            elif system == "rajapolku" and op == "spirit":
                t.rolls.roll_spirit("alyosha", next(c for c in t.characters if c != "alyosha"))
            elif system == "harhapolku" and op == "narration":
                _narrate(t, n)
        except TrackerError:
            pass
    rep = check(t)
    assert rep.ok, rep.mismatches
    program = [e for e in t.events if e.get("roll", {}).get("draws")]
    assert rep.checked == len(program)
    # The players' transcript of it verifies too: the revealed secrets' rolls checked, the rest named.
    trep = transcript.check(transcript.read(transcript.text(t).encode()))
    assert trep.ok, trep.mismatches
    revealed = {r["key"] for r in t.state.get("dice", {}).get("revealed", [])}
    assert trep.checked == len([e for e in program if e["roll"]["dice_key"] in revealed])
    assert trep.checked + trep.unchecked == len(program)


# ---------------------------------------------------------------------------
# polku verify FILE


def _save(t: Tracker, path):
    from polku.session import store
    from polku.session.files import document

    store.write_full(path, document(t.state, t.events, t.last_seq()))
    return path


def test_polku_verify_passes_a_played_file_and_names_a_tampered_roll(tmp_path, capsys, clock):
    from polku.cli import main
    from polku.session.files import load_tracker

    t = _played(clock)
    t.new_session()
    path = _save(t, tmp_path / "s.toml")
    assert main(["verify", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1].startswith("OK: ") and "0 mismatches" in out[-1] and "1 entered by hand" in out[-1]
    assert any(line.startswith("by hand: seq ") for line in out)
    # Change one face in the file, as a GM editing it by hand would.
    loaded, _ = load_tracker(path, read_only=True)
    events = list(loaded.events)
    ev = next(e for e in events if e.get("roll", {}).get("roll_no") == 2)
    ev["roll"]["sides"][0]["dice"][0]["face"] = ev["roll"]["sides"][0]["dice"][0]["face"] % 6 + 1
    from polku.session import store
    from polku.session.files import document

    store.write_full(path, document(loaded.state, events, loaded.last_seq()))
    assert main(["verify", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    bad = [line for line in out if line.startswith("MISMATCH")]
    # The die, and (when the new face changes the hits) the result judged again: both name that roll.
    assert any(f"seq {ev['seq']} (roll #2 of dice secret #1)" in b and "die 1 of side a" in b for b in bad), bad
    assert all(b.startswith((f"MISMATCH seq {ev['seq']} ", f"MISMATCH seq {ev['seq']}:")) for b in bad), bad
    assert out[-1].startswith("FAILED: ")


DEMOS = sorted((Path(__file__).resolve().parents[1] / "sessions").glob("demo-*.toml"))


@pytest.mark.parametrize("shipped", DEMOS, ids=[p.stem for p in DEMOS])
def test_polku_verify_on_a_shipped_demo_says_in_one_line_that_it_is_seeded(shipped, capsys):
    """The demos' dice come from a fixed seed (reproducible files): verify checks every die against its
    seed, says in its first line that this proves nothing, and exits 3 (polku verify --help)."""
    from polku.cli import main

    assert main(["verify", str(shipped)]) == 3
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("deliberately seeded: ") and out[0].endswith("(exit status 3)")
    assert not [line for line in out if line.startswith("MISMATCH")]
    # The seeded rolls are checked (against their seed), and the summary counts them.
    assert re.match(r"SEEDED: [1-9][0-9]* program rolls? checked, 0 mismatches", out[-1]), out[-1]
    assert "from a fixed seed (not a proof)" in out[-1]


def test_a_seeded_rolls_faces_are_still_checked_against_its_seed(tmp_path, capsys):
    from polku.cli import main
    from polku.session.files import load_tracker

    t = demo.demo_varjojuoksu()
    rep = check(t)
    assert rep.ok and rep.seeded == 5 and rep.status == 3 and rep.checked == 0 and rep.before == 0
    path = _save(t, tmp_path / "seeded.toml")
    loaded = load_tracker(path)[0]
    events = list(loaded.events)
    ev = next(e for e in events if e.get("roll", {}).get("fixed_seed"))
    die = ev["roll"]["sides"][0]["dice"][0]
    die["face"] = die["face"] % 6 + 1
    from polku.session import store
    from polku.session.files import document

    store.write_full(path, document(loaded.state, events, loaded.last_seq()))
    assert main(["verify", str(path)]) == 1, "a changed face is a mismatch, seeded or not"
    bad = [line for line in capsys.readouterr().out.splitlines() if line.startswith("MISMATCH")]
    assert len(bad) == 1 and f"seq {ev['seq']} (fixed seed)" in bad[0] and "die 1 of side a" in bad[0]


def test_polku_verify_help_documents_the_exit_statuses(capsys):
    from polku.cli import main

    assert main(["verify", "--help"]) == 0
    out = capsys.readouterr().out
    for line in ("0  every program roll it could check matches", "1  a roll or a secret does not match", "2  the file cannot be read",
                 "3  nothing mismatches, but program dice came from a fixed seed"):
        assert line in out


def test_polku_verify_of_a_missing_file_is_one_line(tmp_path, capsys):
    from polku.cli import main

    assert main(["verify", str(tmp_path / "nope.toml")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no such session file" in err[0]


def test_a_revealed_secret_stays_revealed_after_the_file_is_opened_again(tmp_path, clock):
    """The reveal is not undoable in a reopened file either (its log is read lazily there)."""
    from polku.session.files import open_session

    t = Tracker.new("rajapolku", "Dice", clock=clock)
    t.rolls.roll_raja(RajaSide("A"), RajaSide("B"))
    t.new_dice_secret()
    path = _save(t, tmp_path / "s.toml")
    again, sf = open_session(path)
    try:
        assert again.undo_text() == t.events[0]["text"], "undo offers the roll, not the reveal"
        again.undo()
        assert again.state["dice"]["key"] == 2 and again.state["dice"]["revealed"][0]["key"] == 1
    finally:
        sf.close()


def test_a_gm_only_first_roll_still_shows_its_commitment(clock):
    t = Tracker.new("rajapolku", "Old", clock=clock)
    del t.state["dice"]
    with t.gm_only():
        t.rolls.roll_raja(RajaSide("A"), RajaSide("B"))
    commit, roll = t.events[-2:]
    assert commit["kind"] == "dice" and "secret" not in commit and roll.get("secret") is True
    assert any(e["kind"] == "dice" and e["text"] == commit["text"] for e in public_view(t).events)


def test_v_on_the_gms_screen_reveals_the_secret_after_asking(tmp_path):
    import asyncio

    from app_fixtures import make_app, screen_text, settle
    from polku.session import files

    async def run() -> None:
        tracker = demo.demo_varjojuoksu(seed=None)
        old = tracker.state["dice"]["secret"]
        sf = files.create_session(tmp_path / "sr.toml", tracker)
        app = make_app(tracker, sf, sessions_dir=tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            n = len(tracker.events)
            await pilot.press("V")
            await settle(pilot)
            assert "Reveal dice secret #1" in screen_text(app)
            await pilot.press("n")
            await settle(pilot)
            assert len(tracker.events) == n, "no: nothing revealed"
            await pilot.press("V", "y")
            await settle(pilot)
            assert [e["kind"] for e in tracker.events[n:]] == ["dice", "dice"]
            assert tracker.state["dice"]["revealed"][0]["secret"] == old and tracker.state["dice"]["key"] == 2

    asyncio.run(run())


# ---------------------------------------------------------------------------
# verify catches what it claims to


def _rewrite(path, change) -> None:
    """Load the file, let ``change`` edit its events as a hand-editor would, write it back."""
    from polku.session import store
    from polku.session.files import document, load_tracker

    loaded, _ = load_tracker(path, read_only=True)
    events = [copy.deepcopy(e) for e in loaded.events]
    change(events)
    store.write_full(path, document(loaded.state, events, loaded.last_seq()))


def test_a_program_roll_rewritten_as_entered_by_hand_leaves_its_number_missing(tmp_path, capsys, clock):
    from polku.cli import main

    t = _played(clock)
    t.rolls.roll_sr(SRSide("Kaneda", ["kaneda"], dice=4))
    path = _save(t, tmp_path / "s.toml")
    assert main(["verify", str(path)]) == 0
    capsys.readouterr()
    for n in (2, None):  # a roll in the middle, then the last one made

        def as_by_hand(events, n=n):
            rolls = [e for e in events if isinstance(e.get("roll", {}).get("roll_no"), int)]
            ev = next(e for e in rolls if e["roll"]["roll_no"] == n) if n else rolls[-1]
            roll = ev["roll"]
            for key in ("roll_no", "dice_key", "seed", "draws"):
                roll.pop(key, None)
            roll["manual"] = True
            die = roll["sides"][0]["dice"][0]
            die["face"] = die["face"] % 6 + 1

        _rewrite(path, as_by_hand)
        assert main(["verify", str(path)]) == 1
        out = capsys.readouterr().out.splitlines()
        bad = [line for line in out if line.startswith("MISMATCH")]
        made = t.state["dice"]["rolls"]["1"]
        want = "#2" if n == 2 else f"#2, #{made}"
        assert any(f"program rolls {want} of {made} made are not in the log" in b for b in bad) if n is None \
            else any(f"program roll #2 of {made} made is not in the log" in b for b in bad), out
        assert out[-1].startswith("FAILED: ")


def test_an_undone_roll_whose_number_a_bigger_reroll_reuses_is_named_and_checked(tmp_path, capsys, clock):
    from polku.cli import main

    t = Tracker.new("shadowrun", "Dice", clock=clock)
    first = t.rolls.roll_sr(SRSide("GM", dice=3))["event"]
    t.undo()
    again = t.rolls.roll_sr(SRSide("GM", dice=9))["event"]
    assert again["roll"]["roll_no"] == first["roll"]["roll_no"] == 1
    assert again["roll"]["draws"][:3] == first["roll"]["draws"], "the same seed: the first dice come back"
    path = _save(t, tmp_path / "s.toml")
    assert main(["verify", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert (f"roll #1 of dice secret #1: seq {first['seq']} was undone and seq {again['seq']} rolled with the "
            "same number (the same seed, so the same first dice); both checked") in out
    assert out[-1].startswith("OK: 2 program rolls checked")

    def change_undone(events):
        ev = next(e for e in events if e["seq"] == first["seq"])
        die = ev["roll"]["sides"][0]["dice"][0]
        die["face"] = die["face"] % 6 + 1

    _rewrite(path, change_undone)
    assert main(["verify", str(path)]) == 1
    bad = [line for line in capsys.readouterr().out.splitlines() if line.startswith("MISMATCH")]
    assert any(f"seq {first['seq']} (roll #1 of dice secret #1) (undone): die 1 of side a" in b for b in bad), bad
    assert all(b.startswith(f"MISMATCH seq {first['seq']} ") for b in bad), bad


def test_verify_on_a_seeded_file_with_a_mismatch_says_one_thing(tmp_path, capsys):
    """Exit 1 and FAILED: no line promising exit status 3, and the seeded rolls counted as checked."""
    from polku.cli import main

    t = demo.demo_varjojuoksu()
    path = _save(t, tmp_path / "seeded.toml")

    def change(events):
        ev = next(e for e in events if e.get("roll", {}).get("fixed_seed"))
        die = ev["roll"]["sides"][0]["dice"][0]
        die["face"] = die["face"] % 6 + 1

    _rewrite(path, change)
    assert main(["verify", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert not any("exit status 3" in line for line in out), out
    assert out[0].startswith("deliberately seeded: 5 program rolls came from a fixed seed")
    assert out[-1].startswith("FAILED: 5 program rolls checked, 1 mismatch")


@pytest.mark.parametrize("change, says", [
    (lambda ev: ev["roll"]["outcome"].update(hits=ev["roll"]["outcome"]["hits"] + 1), "hits, its dice show"),
    (lambda ev: ev["roll"]["outcome"].update(success=True, net_hits=3), "the result says success with 3 net hits"),
    (lambda ev: ev.update(text="Kaneda: 4 hits, success, 2 net"), "its log line does not say its result"),
], ids=["hits", "success", "text"])
def test_a_changed_result_or_log_line_is_a_mismatch(tmp_path, capsys, clock, change, says):
    """The dice untouched, the result edited: verify judges the faces again (S4, S8)."""
    from polku.cli import main

    t = Tracker.new("shadowrun", "Dice", clock=clock)
    t.add_character("Kaneda")
    ev = t.rolls.roll_sr(SRSide("Kaneda", ["kaneda"], dice=3), threshold=5, faces=[5, 1, 3])["event"]
    assert ev["text"] == "Kaneda: 1 hit, failure"
    t.rolls.roll_sr(SRSide("Kaneda", ["kaneda"], dice=6), threshold=2)
    path = _save(t, tmp_path / "s.toml")
    assert main(["verify", str(path)]) == 0
    capsys.readouterr()
    _rewrite(path, lambda events: change(next(e for e in events if e["seq"] == ev["seq"])))
    assert main(["verify", str(path)]) == 1
    bad = [line for line in capsys.readouterr().out.splitlines() if line.startswith("MISMATCH")]
    assert len(bad) == 1 and bad[0].startswith(f"MISMATCH seq {ev['seq']}: ") and says in bad[0], bad


# ---------------------------------------------------------------------------
# The commitment is published in a save of its own, before the first roll it covers


def _events_on_disk(path) -> list[model.Event]:
    from polku.session.files import load_tracker

    loaded, _ = load_tracker(path, read_only=True)
    return list(loaded.events)


@pytest.mark.parametrize("how", ["new session (a full save)", "V (an append)"])
def test_the_commitment_is_on_disk_before_the_first_roll_it_covers(tmp_path, how):
    """A roll made before the save of a new commitment ended: that save ends with the commitment,
    the roll comes in the next one (the file players read never has the roll without it)."""
    from polku.session import files

    t = demo.demo_varjojuoksu(seed=None)
    sf = files.create_session(tmp_path / "s.toml", t)
    t.rolls.roll_sr(SRSide("Kaneda", ["kaneda"], dice=3))
    sf.save_now(t)
    if how.startswith("new session"):
        t.new_session()
    else:
        t.new_dice_secret()
    roll = t.rolls.roll_sr(SRSide("Kaneda", ["kaneda"], dice=5))["event"]
    t.note("after the roll")
    sf.save(sf.snapshot(t))  # one save, as the app's autosave makes
    on_disk = _events_on_disk(sf.path)
    assert on_disk[-1]["kind"] == "dice" and "commitment" in on_disk[-1] and on_disk[-1]["dice_key"] == 2
    assert roll["seq"] not in [e["seq"] for e in on_disk], "the roll waits for the next save"
    assert [e["seq"] for e in t.unsaved] == [roll["seq"], roll["seq"] + 1]
    from polku.session.files import load_tracker

    loaded, _ = load_tracker(sf.path, read_only=True)
    assert loaded.state["dice"]["key"] == 2 and loaded.state["dice"]["rolls"]["2"] == 0, \
        "a full save writes the state as it was at the commitment"
    sf.save(sf.snapshot(t))
    assert [e["seq"] for e in _events_on_disk(sf.path)][-2:] == [roll["seq"], roll["seq"] + 1]
    reloaded, _ = load_tracker(sf.path, read_only=True)
    assert reloaded.state == t.state
    # save_now (quitting, ctrl+s) saves everything pending, the commitment still in a save of its own.
    t.new_dice_secret()
    t.rolls.roll_sr(SRSide("Kaneda", ["kaneda"], dice=2))
    sf.save_now(t)
    assert not t.unsaved and [e["kind"] for e in _events_on_disk(sf.path)][-3:] == ["dice", "dice", "roll"]
    sf.close()


def test_the_gms_app_saves_an_old_files_first_commitment_before_its_roll(tmp_path):
    """In the app, a file from before verifiable dice: its first program roll commits a secret and
    rolls in one key press; the save that writes the commitment holds no roll."""
    import asyncio

    from app_fixtures import make_app, settle, until
    from polku.session import files

    async def run() -> None:
        tracker = demo.demo_varjojuoksu(seed=None)
        del tracker.state["dice"]  # an old file: no secret yet
        sf = files.create_session(tmp_path / "sr.toml", tracker)
        saves: list[list[str]] = []
        real = sf.save

        def recorded(job) -> None:
            saves.append([e["kind"] + ("*" if "commitment" in e and "revealed" not in e else "") for e in job.events])
            real(job)

        sf.save = recorded  # type: ignore[method-assign]
        app = make_app(tracker, sf, sessions_dir=tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            app.run_command(command("rolls.roll_sr", SRSide("Kaneda", ["kaneda"], dice=4)))
            await until(pilot, app.all_saved, "every event saved")
            with_commitment = [s for s in saves if "dice*" in s]
            assert len(with_commitment) == 1 and with_commitment[0][-1] == "dice*", saves
            assert [e["kind"] for e in _events_on_disk(sf.path)][-2:] == ["dice", "roll"]

    asyncio.run(run())
