"""The headless verbs speak every rule: ``--set KEY=VALUE`` for every [choice]
setting, and resolve / roll / odds for spirit combat (R11), the Harhapolku
variants and difficult actions (H5, H6, H8), Edge on every test (S7), extended
tests (S10) and teamwork (S11)."""

from __future__ import annotations

import pytest

from polku.cli import main
from polku.rules import odds
from polku.rules.system import CHOICES, Settings
from test_cli import run_fail, run_json, run_text

# ------------------------------------------------------------------ --set


@pytest.mark.parametrize("choice", [c for c in CHOICES if not c.key.startswith("seats.")], ids=lambda c: c.key)
def test_every_setting_is_accepted_by_resolve_roll_and_odds(capsys, choice):
    # (the seats' settings are the GM's app's: no headless verb has a seat)
    system = {"raja": "rajapolku", "harha": "harhapolku", "sr": "shadowrun"}[choice.key.split(".")[0]]
    value = choice.allowed[-1] if choice.allowed else choice.bounds[1]
    text = str(value).lower() if isinstance(value, bool) else str(value)
    pools = {"rajapolku": ("3", "2"), "harhapolku": ("2", "2"), "shadowrun": ("4",)}[system]
    faces = {"rajapolku": ("7,5", "7,5"), "harhapolku": ("4+2", "3+5") if text == "sum" else ("7,4", "6,5"),
             "shadowrun": ("5,1,1,3",)}[system]
    for verb, args in (("resolve", faces), ("odds", pools), ("roll", pools)):
        argv = [verb, system, *args, "--set", f"{choice.key}={text}"]
        if verb == "roll":
            argv += ["--seed", "1"]
        data = run_json(capsys, *argv)
        if choice.key not in ("raja.story_points", "raja.default_charges", "raja.wound_penalty"):
            assert data["settings"][choice.key] == value


def test_unknown_setting_lists_the_valid_ones(capsys):
    line = run_fail(capsys, "resolve", "rajapolku", "7", "8", "--set", "raja.degree=all")
    assert "unknown setting 'raja.degree' (valid settings: raja.exhausted," in line
    assert "sr.teamwork_cap" in line
    line = run_fail(capsys, "odds", "rajapolku", "3", "2", "--set", "raja.degrees=most")
    assert line == "polku: error: setting 'raja.degrees' must be one of all, beyond, not 'most'"
    line = run_fail(capsys, "roll", "shadowrun", "4", "--set", "sr.glitch_rerolls=perhaps", "--seed", "1")
    assert "must be one of true, false, not 'perhaps'" in line
    line = run_fail(capsys, "resolve", "rajapolku", "7", "8", "--set", "sr.teamwork_cap=skill")
    assert "'sr.teamwork_cap' is not a rajapolku setting (its settings: raja.exhausted" in line
    line = run_fail(capsys, "resolve", "harhapolku", "7", "8", "--set", "harha.variant")
    assert "is not KEY=VALUE" in line


def test_help_lists_settings_and_json_keys(capsys):
    for argv in (["resolve", "rajapolku"], ["odds", "shadowrun"], ["roll"], ["odds", "harhapolku"]):
        status = main([*argv, "--help"])
        out = capsys.readouterr().out
        assert status == 0
        assert "settings (--set KEY=VALUE, repeatable; each explained in docs/rules.md):" in out
        assert "JSON keys:" in out
    out = (main(["odds", "shadowrun", "--help"]), capsys.readouterr().out)[1]
    assert "sr.teamwork_cap       none, skill; default none (S11)" in out
    assert "none / before / after" in out


# ------------------------------------------------------------------ Rajapolku R6, R7, R11


def test_R6_degrees_setting_through_resolve(capsys):
    assert run_json(capsys, "resolve", "rajapolku", "10,8,7", "6,5")["degrees"] == 3  # EX C
    data = run_json(capsys, "resolve", "rajapolku", "10,8,7", "6,5", "--set", "raja.degrees=beyond")
    assert (data["degrees"], data["degrees_rule"], data["degree_faces"]) == (2, "beyond", [8, 7])
    data = run_json(capsys, "resolve", "rajapolku", "7,7,3", "8,5,3", "--set", "raja.degrees=beyond")
    assert (data["winner"], data["degrees"], data["narrow"]) == ("b", 0, False)  # EX A


def test_R5_settings_through_resolve(capsys):
    data = run_json(capsys, "resolve", "rajapolku", "7,5", "7,5,2", "--set", "raja.exhausted=false")
    assert data["winner"] == "tie"
    data = run_json(capsys, "resolve", "rajapolku", "7,5", "7,5", "--set", "raja.full_tie=defender")
    assert (data["winner"], data["holds"], data["tie_action"]) == ("tie", "b", "defender")


def test_R7_visibly_supernatural_through_resolve(capsys):
    assert run_json(capsys, "resolve", "rajapolku", "8*,7", "8,5")["visibly_supernatural"] is False
    assert run_json(capsys, "resolve", "rajapolku", "8*,8", "5")["visibly_supernatural"] is True


def test_R11_spirit_exchange_through_resolve(capsys):
    data = run_json(capsys, "resolve", "rajapolku", "9,7,3,2", "6,5,1", "--spirit")
    assert (data["loser"], data["charge_loss"], data["a_charges_after"], data["b_charges_after"]) == ("b", 2, 4, 1)
    data = run_json(capsys, "resolve", "rajapolku", "9,7,3,2", "6,5,1", "--spirit", "--set", "raja.spirit_loss=one")
    assert data["charge_loss"] == 1
    data = run_json(capsys, "resolve", "rajapolku", "7,5", "7,5", "--spirit")
    assert (data["loser"], data["charge_loss"]) == (None, 0)


def test_R11_spirit_fight_rolls_to_the_end_and_the_winner_never_pays(capsys):
    for seed in range(1, 6):
        data = run_json(capsys, "roll", "rajapolku", "5", "4", "--spirit", "--seed", str(seed))
        fight = data["fight"]
        assert fight["over"] and data["winner"] in ("a", "b")
        a, b = 4, 3  # the entry, paid once
        for ex in data["exchanges"]:
            # every exchange rolls the charges each side has left, no new entry charge
            assert (len(ex["a_faces"]), len(ex["b_faces"])) == (a, b)
            if ex["winner"] == "a":
                assert ex["a_charges"] == a and ex["b_charges"] == max(0, b - max(1, ex["degrees"]))
            elif ex["winner"] == "b":
                assert ex["b_charges"] == b and ex["a_charges"] == max(0, a - max(1, ex["degrees"]))
            a, b = ex["a_charges"], ex["b_charges"]


def test_R11_spirit_odds_from_charges_now_or_left(capsys):
    data = run_json(capsys, "odds", "rajapolku", "5", "4", "--spirit")
    want = odds.spirit_fight_odds(4, 3, Settings())
    assert (data["a_charges"], data["b_charges"]) == (4, 3)
    assert data["a_wins"] == want.a_wins and data["b_wins"] == want.b_wins
    data = run_json(capsys, "odds", "rajapolku", "5", "4", "--in-fight", "--set", "raja.spirit_loss=one")
    assert data["a_wins"] == odds.spirit_fight_odds(5, 4, Settings(raja_spirit_loss="one")).a_wins
    assert "after the 1-charge entry none would remain" in run_fail(capsys, "odds", "rajapolku", "1", "4", "--spirit")


def test_R6_R7_odds_with_settings(capsys):
    data = run_json(capsys, "odds", "rajapolku", "3+1*", "3", "--set", "raja.degrees=beyond",
                    "--set", "raja.exhausted=false")
    want = odds.raja_odds(3, 1, 3, 0, Settings(raja_exhausted=False, raja_degrees="beyond"))
    assert data["a_degrees"] == {str(i): p for i, p in enumerate(want.a_degrees)}
    assert data["a_visible"] == want.a_visible > 0


# ------------------------------------------------------------------ Harhapolku H5, H6, H8


def test_H6_EX_H_through_resolve_and_the_variant_flag(capsys):
    data = run_json(capsys, "resolve", "harhapolku", "4+2", "3+5", "--set", "harha.variant=sum")
    assert (data["a_total"], data["b_total"], data["winner"]) == (6, 8, "b")
    assert run_json(capsys, "resolve", "harhapolku", "4+2", "3+5", "--variant", "sum")["winner"] == "b"
    line = run_fail(capsys, "resolve", "harhapolku", "4+2", "3+5", "--variant", "ch23", "--set", "harha.variant=sum")
    assert "disagree" in line
    assert "COUNT+ROLL" in run_fail(capsys, "resolve", "harhapolku", "4", "3+5", "--variant", "sum")


def test_H5_same_size_and_H3_classic_extra_through_resolve(capsys):
    data = run_json(capsys, "resolve", "harhapolku", "6,5,3", "7,4,4", "--set", "harha.variant=same_size")
    assert (data["variant"], data["winner"]) == ("same_size", "b")
    assert "one die size" in run_fail(capsys, "resolve", "harhapolku", "6", "d10:7", "--variant", "same_size")
    data = run_json(capsys, "resolve", "harhapolku", "7,4", "6", "--variant", "classic",
                    "--set", "harha.classic_extra=false")
    assert (data["winner"], data["a_positions"], data["b_positions"]) == ("a", 1, 0)
    data = run_json(capsys, "resolve", "harhapolku", "4,4", "6", "--variant", "classic",
                    "--set", "harha.classic_extra=false")
    assert data["winner"] == "b"
    data = run_json(capsys, "resolve", "harhapolku", "4,4", "6", "--variant", "classic")
    assert data["winner"] == "tie"  # the unmatched 4 counts for A (default)


def test_H8_opposed_and_unopposed_through_resolve(capsys):
    data = run_json(capsys, "resolve", "harhapolku", "6,5,3", "5,4,4", "--difficult")
    assert data["winner"] == "a" and data["difficult"]["success"] is False
    data = run_json(capsys, "resolve", "harhapolku", "7,5,3", "5,4,4", "--difficult")
    assert data["difficult"]["success"] is True
    data = run_json(capsys, "resolve", "harhapolku", "8,7", "6,6", "--very-demanding")
    assert data["difficult"] == {"success": True, "high": 2, "needed": 2, "won_comparison": True, "tie": False}
    data = run_json(capsys, "resolve", "harhapolku", "7,3,2", "--very-demanding")
    assert data["opposed"] is False and data["difficult"]["success"] is False
    assert "unless the action is --difficult" in run_fail(capsys, "resolve", "harhapolku", "7,3,2")


def test_H8_odds_opposed_and_sum(capsys):
    data = run_json(capsys, "odds", "harhapolku", "2d8+1d10", "3", "--difficult")
    want = odds.harha_difficult_opposed((2, 1), (3, 0), Settings())
    assert (data["success"], data["won_without"]) == (want.success, want.won_without)
    data = run_json(capsys, "odds", "harhapolku", "4", "3", "--variant", "sum", "--difficult")
    assert data["success"] == odds.harha_sum_difficult(4, 8, 3, 8).success == 0.25
    data = run_json(capsys, "odds", "harhapolku", "3", "--very-demanding")
    assert data["success"] == odds.harha_difficult((3, 0), True)
    data = run_json(capsys, "odds", "harhapolku", "3", "2", "--variant", "same_size")
    assert data["a_wins"] == odds.harha_odds((3, 0), (2, 0), Settings()).a_wins


def test_H6_roll_throws_one_die_and_adds_the_count(capsys):
    data = run_json(capsys, "roll", "harhapolku", "4", "3d10", "--variant", "sum", "--seed", "7")
    assert (data["a_count"], data["b_count"]) == (4, 3)
    assert len(data["rolled"]["a"]) == 1 and data["rolled"]["b"][0].startswith("d10:")
    assert data["a_total"] == 4 + data["a_roll"]


# ------------------------------------------------------------------ Varjojuoksu S7, S10, S11


def test_S7_edge_before_faces_and_the_glitch_rerolls_setting(capsys):
    # pool 6,3 + Edge 1,6; the sixes explode to 5 and 1: 3 hits; ones 2 of 6 → no glitch
    data = run_json(capsys, "resolve", "shadowrun", "6,3,1,6,5,1", "--edge-before", "2")
    assert (data["pool"], data["edge_dice"], data["hits"], data["ones"], data["dice_counted"]) == (2, 2, 3, 2, 6)
    # pool 1,3,1 + Edge 6,5; the 6 explodes to a 1: three ones among the 6 dice thrown is a glitch,
    # two among the 5 dice not thrown again is not (sr.glitch_rerolls, S5)
    data = run_json(capsys, "resolve", "shadowrun", "1,3,1,6,5,1", "--edge-before", "2")
    assert (data["pool"], data["ones"], data["dice_counted"], data["glitch"]) == (3, 3, 6, True)
    off = run_json(capsys, "resolve", "shadowrun", "1,3,1,6,5,1", "--edge-before", "2",
                   "--set", "sr.glitch_rerolls=false")
    assert (off["ones"], off["dice_counted"], off["glitch"]) == (2, 5, False)


def test_S7_edge_after_and_long_shot_faces(capsys):
    data = run_json(capsys, "resolve", "shadowrun", "5,3,1,6,2", "--edge-after", "2")
    assert (data["pool"], data["edge"], data["hits"]) == (2, "after", 2)
    data = run_json(capsys, "resolve", "shadowrun", "6,1,1,2", "--long-shot", "3")
    assert (data["edge"], data["hits"], data["edge_spent"]) == ("long_shot", 1, 1)
    assert "one Edge point per test" in run_fail(capsys, "resolve", "shadowrun", "5,3", "--edge-before", "1",
                                                 "--edge-after", "1")
    assert "1 face does not make a pool" in run_fail(capsys, "resolve", "shadowrun", "6", "--edge-before", "1")


def test_S7_edge_on_either_side_of_an_opposed_test(capsys):
    data = run_json(capsys, "resolve", "shadowrun-opposed", "5,3,2,6,5,5", "6,5,1", "--edge-after", "2")
    assert (data["winner"], data["a"]["hits"], data["b"]["hits"]) == ("a", 4, 2)
    data = run_json(capsys, "resolve", "shadowrun-opposed", "5,3", "6,5,1,5", "--b-edge-after", "1")
    assert (data["winner"], data["b"]["hits"], data["b"]["edge"]) == ("b", 3, "after")


def test_S10_extended_resolve_uses_what_is_in_force_at_each_interval(capsys):
    # the keys: threshold 4, then 6 and hurried for the second interval
    data = run_json(capsys, "resolve", "shadowrun", "5,3,3,4,4,2,3,4,3,4;h:5,2,2,2,1,3,3,4,4,2",
                    "--extended", "4,6")
    assert (data["accumulated"], data["threshold"], data["done"], data["glitched"]) == (2, 6, False, True)
    assert data["interval_thresholds"] == [4, 6]
    assert [r["hurried"] for r in data["rolls"]] == [False, True]
    # a lowered threshold is judged at once
    data = run_json(capsys, "resolve", "shadowrun", "6,5,5,1;5,2", "--extended", "8,4")
    assert (data["accumulated"], data["done"], data["status"]) == (4, True, "done")
    # a critical glitch ends it; one more interval is refused
    assert "over after interval 1" in run_fail(capsys, "resolve", "shadowrun", "1,1,3;5,5", "--extended", "5")
    data = run_json(capsys, "resolve", "shadowrun", "eb2:6,1,1,1,3", "--extended", "5")
    assert data["rolls"][0]["edge"] == "before"


def test_S10_extended_odds_from_a_test_under_way(capsys):
    data = run_json(capsys, "odds", "shadowrun", "6", "--extended", "10", "--intervals", "5", "--progress", "2")
    want = odds.sr_extended(6, 10, Settings(), max_intervals=5, progress=2)
    assert data["success"] == want.success and data["progress"] == 2
    assert "--progress is for an extended test" in run_fail(capsys, "odds", "shadowrun", "6", "--progress", "2")


def test_S11_teamwork_resolve_and_the_cap(capsys):
    data = run_json(capsys, "resolve", "shadowrun", "5,5,3,1", "--helper", "5,6,1", "--helper", "5",
                    "--threshold", "2")
    assert (data["helpers"], data["helper_dice"], data["pool"], data["success"]) == ([2, 1], 3, 1, True)
    data = run_json(capsys, "resolve", "shadowrun", "5,5,3,1", "--helper", "5,6,1", "--helper", "5",
                    "--leader-skill", "1", "--set", "sr.teamwork_cap=skill")
    assert (data["helper_dice"], data["pool"]) == (1, 3)


def test_S11_teamwork_odds_and_roll(capsys):
    data = run_json(capsys, "odds", "shadowrun", "5", "--helpers", "4,3", "--threshold", "3",
                    "--set", "sr.teamwork_cap=skill", "--leader-skill", "2")
    assert data["success"] == odds.sr_teamwork(5, [4, 3], Settings(sr_teamwork_cap="skill"), leader_skill=2).success(3)
    assert "give --leader-skill" in run_fail(capsys, "odds", "shadowrun", "5", "--helpers", "4",
                                             "--set", "sr.teamwork_cap=skill")
    data = run_json(capsys, "roll", "shadowrun", "4", "--helpers", "3,5", "--seed", "9")
    assert data["helper_dice"] == sum(data["helpers"])
    assert len(data["rolled"]["a"]) >= 4 + data["helper_dice"]


def test_S7_what_edge_is_worth(capsys):
    data = run_json(capsys, "odds", "shadowrun", "8", "--edge", "4", "--threshold", "3")
    want = odds.sr_edge_odds(8, 4, 3, Settings())
    assert data["before"]["success"] == want.before[0] and data["after"]["success"] == want.after[0]
    assert data["none"]["success"] < data["after"]["success"] < data["before"]["success"]
    text = run_text(capsys, "odds", "shadowrun", "8", "--edge", "4", "--threshold", "3")
    assert "Edge after, if short" in text
    assert "give --threshold" in run_fail(capsys, "odds", "shadowrun", "8", "--edge", "4")


def test_S9_group_odds_and_roll(capsys):
    data = run_json(capsys, "odds", "shadowrun-opposed", "6", "4", "--group", "5,5")
    assert data["b_dice"] == 7 and data["a_wins"] == odds.sr_opposed(6, 7, Settings()).a_wins
    data = run_json(capsys, "roll", "shadowrun", "6", "4", "--group", "5,5,5,5,5,5,5", "--seed", "2")
    assert data["group"]["b_dice"] == 10 and len(data["rolled"]["b"]) == 10


def test_S7_roll_edge_on_both_sides_is_reproducible(capsys):
    argv = ["roll", "shadowrun", "6", "4", "--edge-after", "2", "--b-edge-before", "3", "--seed", "11"]
    first = run_json(capsys, *argv)
    assert first["a"]["edge"] == "after" and first["b"]["edge"] == "before"
    assert run_json(capsys, *argv) == first
    text = run_text(capsys, *argv)
    assert "again: polku roll shadowrun 6 4 --seed 11 --edge-after 2 --b-edge-before 3" in text


# ------------------------------------------------- H8 under the sum variant (harha.sum_difficult)

SUM = ["--set", "harha.variant=sum"]


def test_H8_sum_one_die_odds_roll_and_resolve_agree_on_the_one_die(capsys):
    """odds, roll and resolve read H8 under the sum variant the same way: one die, 7+ (one_die)."""
    alone = run_json(capsys, "odds", "harhapolku", "2d8", "--difficult", *SUM)
    assert alone["success"] == 0.25  # one d8 showing 7+, not 2d8's 43.75%
    opposed = run_json(capsys, "odds", "harhapolku", "2d8", "1d8", "--difficult", *SUM)
    assert opposed["success"] == odds.harha_sum_difficult(2, 8, 1, 8).success > 0
    rolled = run_json(capsys, "roll", "harhapolku", "2d8", "--difficult", "--seed", "3", *SUM)
    assert len(rolled["a_faces"]) == 1 and rolled["difficult"]["success"] == (rolled["a_faces"][0] >= 7)
    assert run_json(capsys, "resolve", "harhapolku", "7", "--difficult", *SUM)["difficult"]["success"] is True
    assert run_json(capsys, "resolve", "harhapolku", "3+6", "--difficult", *SUM)["difficult"]["success"] is False
    assert run_json(capsys, "resolve", "harhapolku", "0+8", "--difficult", *SUM)["difficult"]["success"] is False
    line = run_fail(capsys, "resolve", "harhapolku", "7,7", "--difficult", *SUM)
    assert line == "polku: error: in the sum variant the actor rolls one die, not 2 (H6)"
    both = run_json(capsys, "resolve", "harhapolku", "2+7", "1+3", "--difficult", *SUM)
    assert (both["winner"], both["difficult"]["success"]) == ("a", True)
    assert "notice" not in both


def test_H8_sum_very_demanding_is_zero_and_said_before_the_roll(capsys):
    notice = ("the sum variant rolls one die: a very demanding action (two dice of 7+) cannot succeed "
              "(H8, harha.sum_difficult = one_die)")
    for argv in (("2d8",), ("2d8", "1d8")):
        data = run_json(capsys, "odds", "harhapolku", *argv, "--very-demanding", *SUM)
        assert data["success"] == 0.0 and data["notice"] == notice
        text = run_text(capsys, "odds", "harhapolku", *argv, "--very-demanding", *SUM)
        assert f"  note: {notice}" in text.splitlines()
    assert run_json(capsys, "roll", "harhapolku", "3d8", "--very-demanding", "--seed", "1", *SUM)["notice"] == notice
    data = run_json(capsys, "resolve", "harhapolku", "4+8", "1+1", "--very-demanding", *SUM)
    assert data["notice"] == notice and data["difficult"]["success"] is False


@pytest.mark.parametrize("verb, args", [("odds", ("2d8",)), ("odds", ("2d8", "1d8")),
                                        ("roll", ("2d8", "--seed", "1")), ("roll", ("2d8", "1d8", "--seed", "1")),
                                        ("resolve", ("7",)), ("resolve", ("2+7", "1+3"))])
@pytest.mark.parametrize("demand", ["--difficult", "--very-demanding"])
def test_H8_sum_refuse_refuses_in_one_line(capsys, verb, args, demand):
    line = run_fail(capsys, verb, "harhapolku", *args, demand, *SUM, "--set", "harha.sum_difficult=refuse")
    assert line == ("polku: error: difficult actions are not offered under the sum variant "
                    "(H8, harha.sum_difficult = refuse)")
    opposed = args[1] not in ("--seed",) if len(args) > 1 else False
    if opposed:  # the same sum challenge without H8 is answered
        assert run_json(capsys, verb, "harhapolku", *args, *SUM, "--set", "harha.sum_difficult=refuse")["variant"] == "sum"


# ------------------------------------------------------------ H4: an actor with no dice


@pytest.mark.parametrize("variant", ["ch23", "same_size", "sum"])
def test_H4_zero_dice_odds_roll_and_resolve_agree_the_actor_fails(capsys, variant):
    """`0d8` in odds and roll, `-` in resolve: a pool of 0 dice is valid and fails (H4)."""
    assert run_json(capsys, "odds", "harhapolku", "0d8", "2d8", "--variant", variant)["b_wins"] == 1.0
    rolled = run_json(capsys, "roll", "harhapolku", "0d8", "2d8", "--variant", variant, "--seed", "5")
    assert rolled["winner"] == "b" and rolled["rolled"]["a"] == []
    b = "2+6" if variant == "sum" else "6,2"
    judged = run_json(capsys, "resolve", "harhapolku", "-", b, "--variant", variant)
    assert judged["winner"] == "b"
    if variant != "sum":
        assert judged["reason"] == "actor_no_dice" and judged["a_faces"] == []
    for demand in ("--difficult",):
        assert run_json(capsys, "odds", "harhapolku", "0", demand, "--variant", variant)["success"] == 0.0
        assert run_json(capsys, "roll", "harhapolku", "0", demand, "--variant", variant,
                        "--seed", "2")["difficult"]["success"] is False
        assert run_json(capsys, "resolve", "harhapolku", "none", demand,
                        "--variant", variant)["difficult"]["success"] is False
    text = run_text(capsys, "resolve", "harhapolku", "-", b, "--variant", variant)
    assert "the actor cannot roll a single die" in text


# ------------------------------------------------- R11 spirit combat with R9 wounds (raja.spirit_wounds)


def test_R11_spirit_wounds_odds_roll_and_resolve_count_the_wound(capsys):
    """Badly wounded (−2): A's 5 charges left roll 3 dice; raja.spirit_wounds=false rolls all 5."""
    hurt = run_json(capsys, "odds", "rajapolku", "6", "5", "--spirit", "--wound", "Badly wounded")
    plain = run_json(capsys, "odds", "rajapolku", "6", "5", "--spirit")
    off = run_json(capsys, "odds", "rajapolku", "6", "5", "--spirit", "--wound", "badly wounded",
                   "--set", "raja.spirit_wounds=false")
    assert hurt["a_wins"] < plain["a_wins"] == off["a_wins"]
    assert hurt["exchange"]["a_wins"] == odds.raja_odds(3, 0, 4, 0, odds.Settings()).a_wins
    rolled = run_json(capsys, "roll", "rajapolku", "6", "5", "--spirit", "--wound", "Badly wounded", "--seed", "4")
    assert [len(x) for x in rolled["rolled"]["a"]][0] == 3 and len(rolled["rolled"]["b"][0]) == 4
    judged = run_json(capsys, "resolve", "rajapolku", "9,2,1", "5,3,2,1", "--spirit", "--charges", "5,4",
                      "--wound", "Badly wounded")
    assert (judged["loser"], judged["charge_loss"], judged["a_charges_after"], judged["b_charges_after"]) == (
        "b", 1, 5, 3)
    line = run_fail(capsys, "resolve", "rajapolku", "9,2,1,1,1", "5,3,2,1", "--spirit", "--charges", "5,4",
                    "--wound", "Badly wounded")
    assert line.endswith("with the wound penalties (R9) (3 and 4 dice) (R11)")
    opp = run_json(capsys, "resolve", "rajapolku", "9,2,1,1,1", "5,3,2,1,1,1", "--spirit", "--charges", "5,4",
                   "--wound", "Badly wounded", "--set", "raja.wound_penalty=oppose")
    assert opp["winner"] == "a"
    assert run_fail(capsys, "odds", "rajapolku", "6", "5", "--spirit", "--wound", "Scratched").startswith(
        "polku: error: --wound: unknown wound level 'Scratched' (use one of: Healthy, Bruised,")


def test_R11_spirit_odds_take_more_than_30_charges(capsys):
    data = run_json(capsys, "odds", "rajapolku", "45", "3", "--spirit")
    assert data["a_charges"] == 44 and data["a_wins"] > 0.999


# ----------------------------------------------------------- a d10's 0 is 10


def test_a_d10_face_0_is_10_in_resolve_and_a_d6_or_d8_0_is_one_line(capsys):
    assert run_json(capsys, "resolve", "rajapolku", "0,8*", "9")["a_faces"] == [10, 8]
    assert run_json(capsys, "resolve", "rajapolku", "0,8*", "9") == run_json(capsys, "resolve", "rajapolku", "10,8*", "9")
    harha = run_json(capsys, "resolve", "harhapolku", "0,4", "d10:0,3")
    assert (harha["a_faces"], harha["a_sizes"], harha["b_faces"]) == ([10, 4], [10, 8], [10, 3])
    assert run_json(capsys, "resolve", "harhapolku", "3+0", "2+d10:9", "--variant", "sum")["a_total"] == 13
    assert run_fail(capsys, "resolve", "harhapolku", "d8:0", "3") == (
        "polku: error: side A: face 0 cannot show on a d8 (1–8; only a d10's 0 means 10)")
    assert run_fail(capsys, "resolve", "shadowrun", "0,5") == (
        "polku: error: face 0 cannot show on a d6 (1–6; only a d10's 0 means 10)")
