"""Every [choice] setting reaches every consumer of the odds (issue 22: "a consumer test").

Parametrised over ``rules/system.py``'s CHOICES: for each setting and each of
its values, ``polku odds --set KEY=VALUE``, the session layer's answer that the
roll screens and the seats show (:mod:`polku.session.odds`), a player's seat,
the roll screen itself, a roll made under the setting and the review's luck of
that roll (judged after the campaign's setting has changed again) must agree.
A setting that changes no odds is listed in NO_ODDS with the reason, so a new
setting fails :func:`test_every_setting_has_a_consumer_scenario` until someone
says how its consumers are checked.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import pytest
from textual.widgets import Static

from app_fixtures import isolated, make_app, pilot_test, press, settle
from polku.cli import main
from polku.rules.dice import RulesError
from polku.rules.system import CHOICE_BY_KEY, CHOICES, Settings
from polku.session import demo, files, odds
from polku.session.players import seats
from polku.session.records import RollTable
from polku.session.review.stats import judge_roll
from polku.session.rolls import HarhaSide, RajaSide, SRPool
from polku.session.tracker import Tracker, TrackerError

pytestmark = pytest.mark.usefixtures(isolated.__name__)
ATTRS = {"body": 3, "agility": 3, "reaction": 3, "strength": 3, "charisma": 3, "intuition": 3, "logic": 3,
         "willpower": 3}


def _raja(o: Any) -> dict[str, float]:
    return {"a_wins": o.a_wins, "tie": o.tie, **{f"degree {d}": p for d, p in enumerate(o.degrees)}}


def _harha(o: Any) -> dict[str, float]:
    if isinstance(o, float):
        return {"success": o}
    if isinstance(o, odds.HarhaDifficultOdds):
        return {"success": o.success, "tie": o.tie}
    return {"a_wins": o.a_wins, "tie": o.tie}


def _sr(o: Any) -> dict[str, float]:
    return {"glitch": o.glitch, "critical": o.critical_glitch, "success": o.success(4)}


@dataclass(frozen=True)
class Scenario:
    """How one setting's consumers are checked: the test it bears on, asked of every consumer."""

    system: str
    cli: tuple[str, ...]
    """``polku odds SYSTEM ...`` (``--set`` and ``--json`` are added)."""
    question: odds.Question
    figures: Callable[[Any], dict[str, float]]
    """The figures of an answer (the session's), by name."""
    cli_figures: Callable[[dict[str, Any]], dict[str, float]]
    base: dict[str, Any] = field(default_factory=dict)
    """Other settings the test needs (a comparison variant)."""
    roll: Callable[[Tracker], RollTable] | None = None
    """Make the roll under the tracker's settings; its side A's chance is judged in the review."""
    win: str = "a_wins"
    """The figure the review's luck of side A must equal."""


def _cli_raja(d: dict[str, Any]) -> dict[str, float]:
    return {"a_wins": d["a_wins"], "tie": d["tie"], **{f"degree {k}": v for k, v in d["degrees"].items()}}


def _cli_harha(d: dict[str, Any]) -> dict[str, float]:
    if "success" in d:
        return {"success": d["success"], **({"tie": d["tie"]} if "failure" in d else {})}
    return {"a_wins": d["a_wins"], "tie": d["tie"]}


def _raja_roll(t: Tracker) -> RollTable:
    # Alyosha 3 dice (action, Militia, Runner) against the gate's 1: faces that make a plain win
    ev = t.rolls.roll_raja(RajaSide("Alyosha", ["alyosha"], backgrounds=["Militia", "Runner"]),
                           RajaSide("GM: the gate"), faces=([9, 5, 2], [4]))["event"]
    return ev["roll"]


def _harha_roll(demand: str = "") -> Callable[[Tracker], RollTable]:
    def roll(t: Tracker) -> RollTable:
        a = HarhaSide("Lena", ["lena"], general="Island girl", background="Thief")
        b = HarhaSide("Tuomas", ["tuomas"], general="Fisherman")
        pa, pb = t.rolls.harha_dice(a, opposing=b), t.rolls.harha_dice(b, opposing=a)
        return t.rolls.roll_harha(a, b, demand=demand, faces=([3] * len(pa), [2] * len(pb)))["event"]["roll"]
    return roll


SCENARIOS: dict[str, Scenario] = {
    "raja.exhausted": Scenario("rajapolku", ("3", "1"), odds.RajaQuestion((3, 0), (1, 0)), _raja, _cli_raja,
                               roll=_raja_roll),
    "raja.degrees": Scenario("rajapolku", ("3", "1"), odds.RajaQuestion((3, 0), (1, 0)), _raja, _cli_raja,
                             roll=_raja_roll),
    "raja.spirit_loss": Scenario(
        "rajapolku", ("4", "3", "--in-fight"), odds.SpiritFightQuestion(4, 3),
        lambda o: {"a_wins": o.a_wins, "exchanges": o.expected_exchanges},
        lambda d: {"a_wins": d["a_wins"], "exchanges": d["expected_exchanges"]}),
    "harha.variant": Scenario("harhapolku", ("3d8", "2d8"), odds.HarhaQuestion((3, 0), (2, 0)), _harha, _cli_harha,
                              roll=_harha_roll()),
    "harha.classic_extra": Scenario("harhapolku", ("3d8", "2d8"), odds.HarhaQuestion((3, 0), (2, 0)), _harha,
                                    _cli_harha, base={"harha.variant": "classic"}, roll=_harha_roll()),
    "harha.sum_difficult": Scenario("harhapolku", ("3d8", "2d8", "--difficult"),
                                    odds.HarhaQuestion((3, 0), (2, 0), "difficult"), _harha, _cli_harha,
                                    base={"harha.variant": "sum"}, roll=_harha_roll("difficult"), win="success"),
    "sr.glitch_rerolls": Scenario("shadowrun", ("4", "--edge-before", "2", "--threshold", "4"),
                                  odds.SRQuestion(6, rule_of_six=True), _sr,
                                  lambda d: {"glitch": d["glitch"], "critical": d["critical_glitch"],
                                             "success": d["success"]}),
    "sr.teamwork_cap": Scenario("shadowrun", ("4", "--helpers", "10", "--leader-skill", "1", "--threshold", "4"),
                                odds.SRQuestion(4, "teamwork", helpers=(10,), leader_skill=1), _sr,
                                lambda d: {"glitch": d["glitch"], "critical": d["critical_glitch"],
                                           "success": d["success"]}),
}
"""Every setting that changes an odds figure, with a test it changes."""

NO_ODDS: dict[str, str] = {
    "raja.full_tie": "what a full tie means (reroll, or the defender holds), not how likely it is (R5)",
    "raja.wound_penalty": "builds the pools (R9: dice off the wounded, or onto the opposition): the odds "
                          "of the pools built are covered above",
    "raja.spirit_wounds": "builds the spirit combat's pools (R9 in R11): the odds of the dice built are covered",
    "raja.story_points": "a count of story points (R12)",
    "raja.default_charges": "a count of charges (R11)",
    "sr.stun_conversion": "damage after the roll (S12)",
    "sr.stun_overflow": "damage after the roll (S12)",
    "sr.initiative": "whether initiative is rolled again each combat turn (S12)",
    "seats.own_rolls": "when a player's own roll from a seat is applied (at once, or after the GM's approval)",
}
"""The settings no odds figure depends on, and why."""

CASES = [(c.key, v) for c in CHOICES if c.key in SCENARIOS for v in (c.allowed or ())]


def test_every_setting_has_a_consumer_scenario() -> None:
    missing = [c.key for c in CHOICES if c.key not in SCENARIOS and c.key not in NO_ODDS]
    assert not missing, (f"settings without a consumer scenario: {missing}. Add each to SCENARIOS in "
                         f"{__file__} (a test whose odds it changes) or to NO_ODDS with the reason")
    assert not (set(SCENARIOS) | set(NO_ODDS)) - set(CHOICE_BY_KEY)


def _settings(key: str, value: Any) -> Settings:
    s = Settings()
    for k, v in SCENARIOS[key].base.items():
        s = s.with_value(k, v)
    return s.with_value(key, value)


def _cli(capsys: pytest.CaptureFixture[str], key: str, value: Any) -> dict[str, float]:
    sc = SCENARIOS[key]
    sets = [a for k, v in {**sc.base, key: value}.items()
            for a in ("--set", f"{k}={str(v).lower() if isinstance(v, bool) else v}")]
    capsys.readouterr()
    status = main(["odds", sc.system, *sc.cli, *sets, "--json"])
    if status == 2:  # the rules refuse the test under this value: one line, no odds
        assert capsys.readouterr().err.count("\n") == 1
        return {"refused": 1.0}
    assert status == 0
    return sc.cli_figures(json.loads(capsys.readouterr().out))


def _asked(question: odds.Question, settings: Settings, figures: Callable[[Any], dict[str, float]]) -> dict[str, float]:
    try:
        return figures(odds.answer(question, settings))
    except RulesError:
        return {"refused": 1.0}


def _tracker(key: str, value: Any) -> Tracker:
    sc = SCENARIOS[key]
    t = {"rajapolku": demo.demo_rajapolku, "harhapolku": demo.demo_harhapolku,
         "shadowrun": demo.demo_varjojuoksu}[sc.system]()
    for k, v in {**sc.base, key: value}.items():
        if t.settings.to_dotted()[k] != v:
            t.set_setting(k, v)
    return t


def _close(got: dict[str, float], want: dict[str, float]) -> None:
    keys = set(got) | set(want)
    assert all(got.get(k, 0.0) == pytest.approx(want.get(k, 0.0), abs=1e-12) for k in keys), (got, want)


@pytest.mark.parametrize("key,value", CASES)
def test_the_cli_the_session_the_roll_and_the_review_agree(capsys, key, value) -> None:
    sc = SCENARIOS[key]
    cli = _cli(capsys, key, value)
    t = _tracker(key, value)
    # what the roll screens and the seats ask: the session's answer under the campaign's settings
    session = _asked(sc.question, t.rolls.settings_for(), sc.figures)
    _close(session, cli)
    _close(_asked(sc.question, _settings(key, value), sc.figures), cli)
    if sc.roll is None:
        return
    if "refused" in cli:  # the roll is refused as the odds are
        with pytest.raises((RulesError, TrackerError)):
            sc.roll(t)
        return
    roll = sc.roll(t)
    assert (roll.get("settings") or {}).get(key) == value, f"the roll does not keep {key} in its settings"
    # the roll's result is one the odds allow (a rule that ignores the setting shows here)
    winner = (roll.get("outcome") or {}).get("winner")
    named = {"a": sc.win, "b": "b_wins", "tie": "tie"}.get(str(winner))
    if named in cli:
        assert cli[named] > 0, f"the roll's result ({winner}) has no chance under the odds shown for {key}={value}"
    # the campaign's setting changes after the roll: the review still judges it by the roll's own
    other = next(v for v in (CHOICE_BY_KEY[key].allowed or ()) if v != value)
    t.set_setting(key, other)
    side_a = judge_roll(roll, t.settings)[0]
    assert side_a.p_win == pytest.approx(cli[sc.win], abs=1e-12)


@pytest.mark.parametrize("key", sorted(SCENARIOS))
def test_each_scenario_is_changed_by_its_setting(capsys, key) -> None:
    """A scenario whose figures no value changes would check nothing."""
    seen = {json.dumps(_cli(capsys, key, v), sort_keys=True) for v in CHOICE_BY_KEY[key].allowed or ()}
    assert len(seen) > 1, f"{key}: every value gives the same odds in its scenario"


@pytest.mark.parametrize("value", [True, False])
def test_a_seat_shows_the_session_odds_under_raja_exhausted(value) -> None:
    t = _tracker("raja.exhausted", value)
    seats.ask_raja(t, "alyosha", RajaSide("Alyosha", backgrounds=["Militia", "Runner"]), RajaSide("GM: the gate"))
    got = seats.offer_odds(t, seats.pending_offers(t)[0])
    want = odds.raja(odds.RajaQuestion((3, 0), (1, 0)), _settings("raja.exhausted", value))
    assert (got.success, got.tie) == (want.a_wins, want.tie)


@pytest.mark.parametrize("value", [True, False])
def test_a_seat_shows_the_session_odds_under_sr_glitch_rerolls(value) -> None:
    t = _tracker("sr.glitch_rerolls", value)
    seats.ask_sr(t, "kaneda", SRPool(mode="skill", skill="Pistols", attribute="agility"), threshold=4)
    offer = seats.pending_offers(t)[0]
    got = seats.offer_odds(t, offer, edge_before=True)
    side = t.rolls.sr_side("kaneda", seats.sr_pool_of(offer, edge_before=True))
    want = odds.sr(odds.SRQuestion(t.rolls.sr_pool_dice(side), rule_of_six=True), _settings("sr.glitch_rerolls", value))
    assert (got.glitch, got.critical_glitch, got.success) == (want.glitch, want.critical_glitch, want.success(4))


def _percent(p: float) -> str:
    from polku.text import percent

    return percent(p)


@pilot_test
async def test_the_roll_screens_show_the_cli_figures_under_every_value(tmp_path: Path) -> None:
    """The Rajapolku and Varjojuoksu roll screens, open while the GM changes a setting: their odds line
    shows ``polku odds``'s figures for the pools on the screen."""
    from polku.tui.screens.roll import RajaRollScreen, SRRollScreen

    t = Tracker.new("shadowrun", "Teamwork", clock=demo.fixed_clock(), seed=3)
    t.add_character("Rook", attributes=ATTRS, skills={"Sneaking": 1})
    t.add_character("Nyx", attributes={**ATTRS, "agility": 5}, skills={"Sneaking": 5})
    sf = files.create_session(tmp_path / "sr.toml", t)
    app = make_app(t, sf, sessions_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "r", "t", "t", "t")
        roll = app.screen
        assert isinstance(roll, SRRollScreen)
        roll.b.helpers["nyx"] = True
        roll.threshold = 4
        for value in ("none", "skill"):
            if t.settings.sr_teamwork_cap != value:
                t.set_setting("sr.teamwork_cap", value)
            roll.refresh_view()
            want = odds.sr(odds.SRQuestion(4, "teamwork", helpers=(10,), leader_skill=1),
                           _settings("sr.teamwork_cap", value)).success(4)
            assert f"success (≥4) {_percent(want)}" in str(roll.query_one("#odds", Static).content)

    rt = demo.demo_rajapolku()
    sf2 = files.create_session(tmp_path / "raja.toml", rt)
    app = make_app(rt, sf2, sessions_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "r")
        roll = app.screen
        assert isinstance(roll, RajaRollScreen)
        roll.a.backgrounds.update({"Militia": True, "Runner": True})
        for key in ("raja.exhausted", "raja.degrees"):
            for choice in CHOICE_BY_KEY[key].allowed or ():
                if rt.settings.to_dotted()[key] != choice:
                    rt.set_setting(key, choice)
                roll.refresh_view()
                o = odds.raja(odds.RajaQuestion((3, 0), (1, 0)), _settings(key, choice))
                text = str(roll.query_one("#odds", Static).content)
                assert f"Alyosha {_percent(o.a_wins)}" in text and f"tie {_percent(o.tie)}" in text, text
                deg = "  ".join(f"{d}:{_percent_0(p)}" for d, p in enumerate(o.degrees_given_win()) if p >= 0.005)
                assert f"degrees if someone wins: {deg}" in text, text
            if rt.settings.to_dotted()[key] != CHOICE_BY_KEY[key].default:
                rt.set_setting(key, CHOICE_BY_KEY[key].default)


def _percent_0(p: float) -> str:
    from polku.text import percent

    return percent(p, 0)


def test_no_screen_or_seat_computes_odds_and_no_settings_travel_as_any() -> None:
    """The screens ask the session layer (polku.session.odds); nothing takes the settings as ``Any``."""
    import re

    import polku
    from polku.rules import odds as core

    root = Path(polku.__file__).parent
    core_calls = re.compile(r"\b(" + "|".join(n for n in core.__all__ if n[0].islower()) + r")\(")
    for path in sorted((root / "tui").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert "rules.odds" not in text and "rules import odds" not in text, path
        assert not core_calls.search(text), (path, core_calls.search(text))
    for path in sorted(root.rglob("*.py")):
        assert "settings: Any" not in path.read_text(encoding="utf-8"), path
