"""GM-only rolls (docs/rules.md): every command a GM can mark before making it shows the
players "the GM rolls" and nothing else — in the players' view ``watch`` and the
seats draw and in both reports; undone, it is gone from them (and so are the undo and
redo lines).

Every command of the tracker is taken from tests/test_tracker.py's builders,
so a new kind of roll is covered as soon as it has its undo/redo case.
"""

from __future__ import annotations

import pytest

from polku.session.players.public import GM_ROLL, public_view
from polku.session.review import export
from test_tracker import COMMANDS

ROLL_KINDS = ("roll", "narration")


def _shown(t) -> str:
    view = public_view(t)
    return "\n".join([repr(view.state), repr(view.events), export.export(t, "md"), export.export(t, "html")])


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_command_marked_gm_only_shows_the_players_only_the_gm_rolls(name):
    t, action = COMMANDS[name]()
    n = len(t.events)
    before = {e["seq"] for e in public_view(t).events}
    with t.gm_only():
        action(t)
    new = t.events[n:]
    assert new and all(e.get("secret") for e in new), "every event of the command is marked the GM's"
    cmds = {e.get("cmd") for e in new}
    rolled = any(e["kind"] in ROLL_KINDS and "roll" in e for e in new)

    def check(where: str) -> None:
        view = public_view(t)
        mine = [e for e in view.events if e.get("cmd") in cmds or e.get("target") in cmds]
        assert not [e for e in view.events if e["kind"] in ("undo", "redo")], "no undo or redo line"
        for e in mine:
            assert e["text"] == GM_ROLL and "roll" not in e and not e["who"], (where, e)
        if where == "undone":
            assert not mine, "what the GM undid is gone"
        elif rolled:
            assert any(e["text"] == GM_ROLL for e in mine), f"{where}: the players see that the GM rolled"
        else:
            assert not mine, (where, mine)
        # Nothing the command wrote reaches the reports either (its text, its labels).
        shown = _shown(t)
        for e in new:
            if e["text"] and e["seq"] not in before and not any(e["text"] in p for p in _public_texts(t, e)):
                assert e["text"] not in shown, (where, e["text"])

    check("made")
    t.undo()
    check("undone")
    t.redo()
    check("redone")


def _public_texts(t, ev) -> set[str]:
    """Lines that may show for other reasons: words logged by a public command (the command's
    line may be part of one, e.g. an earlier public initiative of the same fighters and more)."""
    own = {e["seq"] for e in t.events if e.get("cmd") == ev.get("cmd")}
    return {e["text"] for e in t.events if e["seq"] not in own and not e.get("secret")
            and e["kind"] not in ("undo", "redo")}


def test_what_follows_a_gm_only_roll_is_marked_the_gms_in_the_log_too():
    """Edge after a GM-only roll, and an edge reroll of one, are the GM's without pressing G again."""
    from polku.session import demo
    from polku.session.rolls import HarhaSide, SRSide

    t = demo.demo_varjojuoksu()
    with t.gm_only():
        ev = t.rolls.roll_sr(SRSide("Kaneda", ["kaneda"], dice=5), faces=[1, 2, 3, 4, 6])["event"]
    n = len(t.events)
    t.rolls.sr_post_roll(ev, "edge_after")
    assert all(e.get("secret") for e in t.events[n:]) and len(t.events) > n
    h = demo.demo_harhapolku()
    cid = next(c for c, ch in h.characters.items() if any(not e["used"] for e in ch.get("edges", [])))
    ch = h.characters[cid]
    edge = next(e["name"] for e in ch["edges"] if not e["used"])
    with h.gm_only():
        ev = h.rolls.roll_harha(HarhaSide(ch["name"], [cid], general="x"), HarhaSide("GM", general="y"))["event"]
    n = len(h.events)
    h.rolls.harha_edge_reroll(ev, "a", cid, edge)
    assert all(e.get("secret") for e in h.events[n:]) and len(h.events) > n
    # A public roll's follow-up stays public.
    ev = t.rolls.roll_sr(SRSide("Nyx", ["nyx"], dice=3), faces=[1, 2, 3])["event"]
    n = len(t.events)
    t.rolls.sr_post_roll(ev, "edge_after")
    assert not any(e.get("secret") for e in t.events[n:])


# ---------------------------------------------------------------------------
# In the app: G before the roll, on every screen that rolls


def _last_roll(tracker):
    """The last roll event (a fight's turn line follows an initiative roll)."""
    return next(e for e in reversed(tracker.events) if "roll" in e)


def test_g_on_the_initiative_and_narration_screens_makes_the_next_roll_the_gms(tmp_path):
    import asyncio

    from app_fixtures import make_app, screen_text, settle
    from polku.session import demo, files
    from polku.tui.screens.narration import NarrationScreen
    from polku.tui.screens.roll import InitiativeScreen
    from test_tracker import COMMANDS

    async def initiative() -> None:
        tracker = demo.demo_varjojuoksu()
        sf = files.create_session(tmp_path / "sr.toml", tracker)
        app = make_app(tracker, sf, sessions_dir=tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await pilot.press("i")
            await settle(pilot)
            assert isinstance(app.screen, InitiativeScreen)
            await pilot.press("G")
            await settle(pilot)
            assert "GM ONLY" in screen_text(app)
            await pilot.press("r")
            await settle(pilot)
            ev = _last_roll(tracker)
            assert ev["roll"]["test"] == "initiative" and ev["secret"] is True
            # The players' fight pane keeps the order but shows no score of the GM's dice.
            view = public_view(tracker)
            assert all(e.get("hidden") for e in view.state["initiative"])
            assert [e["id"] for e in view.state["initiative"]] == [r.cid for r in tracker.combat.rows()]
            await pilot.press("G", "r")
            await settle(pilot)
            again = _last_roll(tracker)
            assert again["roll"]["test"] == "initiative" and "secret" not in again
            assert again["seq"] > ev["seq"]
            assert not any(e.get("hidden") for e in public_view(tracker).state["initiative"])

    async def narration() -> None:
        tracker, _ = COMMANDS["narration_harm"]()  # a usurpation with 4 dice: the GM's harm roll is due
        sf = files.create_session(tmp_path / "harha.toml", tracker)
        app = make_app(tracker, sf, sessions_dir=tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await pilot.press("h")
            await settle(pilot)
            assert isinstance(app.screen, NarrationScreen)
            await pilot.press("G")
            await settle(pilot)
            assert "GM ONLY" in screen_text(app)
            await pilot.press("g")
            await settle(pilot)
            ev = tracker.events[-1]
            assert ev["kind"] == "narration" and "roll" in ev and ev["secret"] is True
            shown = next(e for e in public_view(tracker).events if e["seq"] == ev["seq"])
            assert shown["text"] == GM_ROLL

    asyncio.run(initiative())
    asyncio.run(narration())


def test_a_gm_only_initiative_shows_the_players_the_turn_order_and_no_score():
    """S12 + §4: the players need whose turn it is, not the GM's dice: the order in force
    (wounds included) with a '?' for each score; undone, the earlier public scores are back."""
    from polku.tui.widgets.panes import turn_rows
    from test_tracker import shadowrun

    t = shadowrun()
    t.rolls.roll_initiative([("kaneda", 1), ("nyx", 1), ("ganger", 1)],
                            faces=[5, 6, 5, 1, 1, 1, 1, 1] + [5, 1, 1, 1, 1, 1, 1, 1] + [5, 5, 1, 1, 1, 1])
    public_scores = {e["id"]: e["score"] for e in public_view(t).state["initiative"]}
    assert public_scores == {e["id"]: e["score"] for e in t.state["initiative"]}
    with t.gm_only():
        t.rolls.roll_initiative([("kaneda", 2), ("nyx", 1), ("ganger", 1)],
                                faces=[1] * 8 + [6, 6, 6, 6, 1, 1, 1, 1] + [6, 6, 6, 6, 6, 6])
    real = {e["id"]: e["score"] for e in t.state["initiative"]}

    def shown() -> tuple[list[str], str]:
        view = public_view(t)
        lines = "\n".join(line.plain for line in turn_rows(view, {}))
        return [r.cid for r in view.combat.rows()], lines

    order, lines = shown()
    assert order == [r.cid for r in t.combat.rows()]
    assert lines.count(" ? ") == 3
    for score in real.values():
        assert f" {score} " not in lines, lines
    assert "2 passes" in lines  # passes are not dice: still shown
    # A wound reorders the GM's fight; the players' order follows it, still without a number.
    first = order[0]
    t.update_character(first, "physical", 9)
    order2, lines2 = shown()
    assert order2 == [r.cid for r in t.combat.rows()] != order and " ? " in lines2
    # Someone leaves the fight (a public command): what the GM rolled stays the GM's.
    t.remove_character("ganger")
    left = public_view(t).state["initiative"]
    assert [e["id"] for e in left] == [r.cid for r in t.combat.rows()] and all(e.get("hidden") for e in left)
    assert " ? " in "\n".join(line.plain for line in turn_rows(public_view(t), {}))
    t.undo()
    t.undo()
    t.undo()
    assert {e["id"]: e["score"] for e in public_view(t).state["initiative"]} == public_scores
    assert not any(e.get("hidden") for e in public_view(t).state["initiative"])
