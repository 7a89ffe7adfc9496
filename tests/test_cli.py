"""The ``polku`` command line: every EX of docs/rules.md through ``resolve --json``,
``roll`` reproducible by seed, ``odds`` matching :mod:`polku.rules.odds`, and
bad input ending with status 2 and one stderr line."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import types
from pathlib import Path

import pytest

from polku import __version__
from polku.cli import ALL_SYSTEM_NAMES, VERB_MODULE, VERBS, main
from polku.rules import odds
from polku.rules.system import SYSTEM_ALIASES, Settings


def run_json(capsys, *argv: str) -> dict:
    status = main([*argv, "--json"])
    out, err = capsys.readouterr()
    assert status == 0, err
    assert err == ""
    return json.loads(out)


def run_text(capsys, *argv: str) -> str:
    status = main(list(argv))
    out, err = capsys.readouterr()
    assert status == 0, err
    return out


def run_fail(capsys, *argv: str) -> str:
    status = main(list(argv))
    out, err = capsys.readouterr()
    assert status == 2, (out, err)
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("polku: error: ")
    assert "Traceback" not in err
    return lines[0]


# ----------------------------------------------------------------- Rajapolku EX


def test_ex_a_gm_wins_one_degree(capsys):
    data = run_json(capsys, "resolve", "rajapolku", "7,7,3", "8,5,3")
    assert data["winner"] == "b"
    assert data["degrees"] == 1
    assert data["supernatural"] == 0


def test_ex_b_tie_break_narrow_win(capsys):
    data = run_json(capsys, "resolve", "rajapolku", "7,7,3", "7,5,3")
    assert data["winner"] == "a"
    assert data["degrees"] == 0
    assert data["narrow"] is True


def test_ex_c_three_degrees(capsys):
    data = run_json(capsys, "resolve", "rajapolku", "10,8,7", "6,5")
    assert data["winner"] == "a"
    assert data["degrees"] == 3


def test_ability_die_counts_double_and_supernatural(capsys):
    data = run_json(capsys, "resolve", "raja", "10,8*,7", "6,5")
    assert data["winner"] == "a"
    assert data["degrees"] == 4
    assert data["supernatural"] == 1
    assert data["deciding_die_is_ability"] is False
    data = run_json(capsys, "resolve", "raja", "9*,3", "8")
    assert data["supernatural"] == 1
    assert data["deciding_die_is_ability"] is True


def test_raja_full_tie(capsys):
    data = run_json(capsys, "resolve", "rajapolku", "7,5", "7,5")
    assert data["winner"] == "tie"
    assert data["degrees"] == 0


def test_raja_human_output_names_winner_and_degree_dice(capsys):
    out = run_text(capsys, "resolve", "rajapolku", "7,7,3", "8,5,3")
    assert "B wins" in out
    assert "position 1: 7 < 8" in out
    assert "degrees: 1" in out
    out = run_text(capsys, "resolve", "raja", "10,8*,7", "6,5")
    assert "8*" in out and "supernatural" in out


# ----------------------------------------------------------------- Harhapolku EX


def test_ex_d_classic(capsys):
    data = run_json(capsys, "resolve", "harhapolku", "7,4,4", "6,5,3", "--variant", "classic")
    assert data["winner"] == "a"
    assert (data["a_positions"], data["b_positions"]) == (2, 1)


def test_ex_e_ch23_challenger_wins(capsys):
    # ch23: A = actor 6,5,3; B = challenger 7,4,4
    data = run_json(capsys, "resolve", "harhapolku", "6,5,3", "7,4,4")
    assert data["variant"] == "ch23"
    assert data["winner"] == "b"
    assert (data["a_positions"], data["b_positions"]) == (1, 2)


def test_ex_f_ch23_actor_wins(capsys):
    data = run_json(capsys, "resolve", "harha", "5,2,2", "4,3,1,1,1,1,1,1", "--variant", "ch23")
    assert data["winner"] == "a"
    assert (data["a_positions"], data["b_positions"]) == (2, 1)


def test_ex_g_ch23_one_die_actor(capsys):
    data = run_json(capsys, "resolve", "harhapolku", "8", "8,8,8,3")
    assert data["winner"] == "a"
    assert (data["a_positions"], data["b_positions"]) == (0, 0)


def test_harha_face_sizes(capsys):
    data = run_json(capsys, "resolve", "harhapolku", "9,d10:7,10:3,8", "8:2")
    assert data["a_sizes"] == [10, 8, 10, 10]  # sorted: 9 (d10), 8 (d8), 7 (d10), 3 (d10)
    assert data["a_faces"] == [9, 8, 7, 3]
    assert data["b_sizes"] == [8]


def test_harha_human_output(capsys):
    out = run_text(capsys, "resolve", "harhapolku", "6,5,3", "7,4,4")
    assert "challenger wins" in out
    out = run_text(capsys, "resolve", "harha", "7,4,4", "6,5,3", "--variant", "classic")
    assert "A wins 2 to 1" in out


# ----------------------------------------------------------------- Shadowrun


def test_sr_glitch_with_hits(capsys):
    data = run_json(capsys, "resolve", "shadowrun", "1,1,5,6")
    assert data["hits"] == 2
    assert data["glitch"] is True
    assert data["critical_glitch"] is False
    assert "success" not in data


def test_sr_critical_glitch(capsys):
    data = run_json(capsys, "resolve", "sr", "1,1,3")
    assert data["hits"] == 0
    assert data["glitch"] is True
    assert data["critical_glitch"] is True


def test_sr_threshold_success_and_net_hits(capsys):
    data = run_json(capsys, "resolve", "shadowrun", "6,5,5,2,3", "--threshold", "2")
    assert data["hits"] == 3
    assert data["success"] is True
    assert data["net_hits"] == 1
    data = run_json(capsys, "resolve", "varjojuoksu", "6,2,3", "--threshold", "2")
    assert data["success"] is False
    assert data["net_hits"] == 0


def test_sr_opposed(capsys):
    data = run_json(capsys, "resolve", "shadowrun-opposed", "6,5,5,1", "5,2,2")
    assert data["winner"] == "a"
    assert data["net_hits"] == 2
    assert data["winner_if_needed"] == "a"


def test_sr_opposed_tie_defender_if_needed(capsys):
    data = run_json(capsys, "resolve", "shadowrun-opposed", "5,1,2", "6,3")
    assert data["winner"] == "tie"
    assert data["net_hits"] == 0
    assert data["winner_if_needed"] == "b"
    out = run_text(capsys, "resolve", "sr-opposed", "5,1,2", "6,3")
    assert "tie" in out and "defender" in out


def test_sr_human_output(capsys):
    out = run_text(capsys, "resolve", "shadowrun", "1,1,5,6", "--threshold", "1")
    assert "2 hits" in out and "glitch" in out and "success" in out


# ----------------------------------------------------------------- aliases


def test_system_aliases_match_rules():
    names = set(ALL_SYSTEM_NAMES)
    assert set(SYSTEM_ALIASES) <= names
    assert {f"{n}-opposed" for n, s in SYSTEM_ALIASES.items() if s == "shadowrun"} <= names


def test_system_name_case_insensitive(capsys):
    data = run_json(capsys, "resolve", "RajaPolku", "7,7,3", "8,5,3")
    assert data["winner"] == "b"
    data = run_json(capsys, "roll", "HARHA", "2d8", "1d10", "--seed", "3")
    assert data["system"] == "harhapolku"


# ----------------------------------------------------------------- roll


@pytest.mark.parametrize(
    "argv",
    [
        ["roll", "rajapolku", "3+1*", "3"],
        ["roll", "harhapolku", "2d8+1d10", "3d8"],
        ["roll", "harha", "2d8+1d10", "3d8", "--variant", "classic"],
        ["roll", "shadowrun", "8"],
        ["roll", "sr", "8", "--edge-before", "3", "--threshold", "2"],
        ["roll", "varjojuoksu", "6", "5"],
    ],
)
def test_roll_reproducible_by_seed(capsys, argv):
    first = run_json(capsys, *argv, "--seed", "1234")
    second = run_json(capsys, *argv, "--seed", "1234")
    assert first == second
    assert first["seed"] == 1234
    assert "winner" in first or "hits" in first
    third = run_json(capsys, *argv, "--seed", "99")
    assert third["seed"] == 99


def test_roll_without_seed_reports_one_that_reproduces(capsys):
    first = run_json(capsys, "roll", "rajapolku", "5", "5")
    again = run_json(capsys, "roll", "rajapolku", "5", "5", "--seed", str(first["seed"]))
    assert again == first


def test_roll_raja_pool_sizes_and_ability(capsys):
    data = run_json(capsys, "roll", "raja", "3+2*", "1", "--seed", "7")
    assert len(data["a_faces"]) == 5
    assert sum(d["ability"] for d in data["a_dice"]) == 2
    assert len(data["b_faces"]) == 1
    assert sorted(data["rolled"]["a"], key=lambda g: -int(g.rstrip("*"))) == [
        f"{d['face']}*" if d["ability"] else str(d["face"]) for d in data["a_dice"]
    ]


def test_roll_harha_sizes(capsys):
    data = run_json(capsys, "roll", "harhapolku", "2d8+1d10", "d8", "--seed", "7")
    assert sorted(data["a_sizes"]) == [8, 8, 10]
    assert data["b_sizes"] == [8]


def test_roll_sr_report_matches_resolve(capsys):
    data = run_json(capsys, "roll", "shadowrun", "10", "--seed", "5", "--threshold", "2")
    faces = ",".join(str(f) for f in data["rolled"]["a"])
    again = run_json(capsys, "resolve", "shadowrun", faces, "--threshold", "2")
    for key in ("hits", "glitch", "critical_glitch", "success", "net_hits"):
        assert data[key] == again[key]


def test_roll_sr_edge_before_adds_dice(capsys):
    data = run_json(capsys, "roll", "shadowrun", "4", "--edge-before", "3", "--seed", "11")
    assert data["edge_dice"] == 3
    assert len(data["rolled"]["a"]) >= 7


def test_roll_human_output_shows_seed_and_faces(capsys):
    out = run_text(capsys, "roll", "rajapolku", "3", "2", "--seed", "42")
    assert "seed: 42" in out
    assert "rolled A:" in out and "rolled B:" in out
    assert "wins" in out or "tie" in out
    assert "--seed 42" in out
    assert out == run_text(capsys, "roll", "rajapolku", "3", "2", "--seed", "42")


# ----------------------------------------------------------------- odds


def _sums_to_one(data: dict) -> None:
    assert abs(data["a_wins"] + data["b_wins"] + data["tie"] - 1.0) < 1e-12


def test_odds_raja_matches_rules(capsys):
    data = run_json(capsys, "odds", "rajapolku", "3+1*", "3")
    expect = odds.raja_odds(3, 1, 3, 0, Settings())
    _sums_to_one(data)
    assert data["a_wins"] == expect.a_wins
    assert data["b_wins"] == expect.b_wins
    assert data["tie"] == expect.tie
    assert data["degrees"] == expect.to_json()["degrees"]
    assert abs(sum(data["degrees"].values()) + data["tie"] - 1.0) < 1e-12


def test_odds_harha_matches_rules(capsys):
    for variant in ("ch23", "classic"):
        data = run_json(capsys, "odds", "harhapolku", "2d8+1d10", "3d8", "--variant", variant)
        expect = odds.harha_odds((2, 1), (3, 0), Settings(harha_variant=variant))
        _sums_to_one(data)
        assert (data["a_wins"], data["b_wins"], data["tie"]) == tuple(expect)
    assert run_json(capsys, "odds", "harha", "2d8+1d10", "3d8")["tie"] == 0.0


def test_odds_sr_matches_rules(capsys):
    data = run_json(capsys, "odds", "shadowrun", "6", "--threshold", "2")
    expect = odds.sr_hits(6, Settings())
    assert data["hits"] == expect.to_json()["hits"]
    assert abs(sum(data["hits"].values()) - 1.0) < 1e-12
    assert data["glitch"] == expect.glitch
    assert data["critical_glitch"] == expect.critical_glitch
    assert data["success"] == expect.success(2)
    assert "success" not in run_json(capsys, "odds", "sr", "6")


def test_odds_sr_rule_of_six(capsys):
    data = run_json(capsys, "odds", "shadowrun", "6", "--edge-before")
    expect = odds.sr_hits(6, Settings(), rule_of_six=True)
    assert data["rule_of_six"] is True
    assert data["hits"] == expect.to_json()["hits"]
    assert abs(sum(data["hits"].values()) + data["tail"] - 1.0) < 1e-12
    assert len(data["hits"]) > 7  # exploding dice can beat the pool size


def test_odds_sr_opposed_matches_rules(capsys):
    data = run_json(capsys, "odds", "shadowrun-opposed", "6", "5")
    expect = odds.sr_opposed(6, 5, Settings())
    _sums_to_one(data)
    assert (data["a_wins"], data["b_wins"], data["tie"]) == tuple(expect)
    assert data["b_wins_if_needed"] == expect.b_wins_if_needed


def test_odds_human_output_has_percentages_and_bars(capsys):
    out = run_text(capsys, "odds", "rajapolku", "3", "3")
    assert "A wins" in out and "B wins" in out and "%" in out and "█" in out
    out = run_text(capsys, "odds", "sr", "5", "--threshold", "1")
    assert "glitch" in out and "success" in out


# ----------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["resolve", "rajapolku", "11", "3"], "face 11"),
        (["resolve", "shadowrun", "0,5"], "face 0 cannot show on a d6"),  # a d10's 0 is its 10
        (["resolve", "rajapolku", "", "3"], "no faces"),
        (["resolve", "rajapolku", "x", "3"], "'x'"),
        (["resolve", "rajapolku", "7,,3", "3"], "empty face"),
        (["resolve", "rajapolku", "7", "-1"], "face -1"),
        (["resolve", "harhapolku", "9", "d8:9"], "d8"),
        (["resolve", "harhapolku", "11", "3"], "face 11"),
        (["resolve", "harhapolku", "d12:3", "3"], "d12"),
        (["resolve", "harhapolku", "7*", "3"], "not a face"),
        (["resolve", "shadowrun", "7"], "face 7"),
        (["resolve", "shadowrun", "1,2", "--threshold", "0"], "threshold"),
        (["resolve", "shadowrun-opposed", "1,2"], "required"),
        (["resolve", "nosuch", "1", "2"], "unknown system"),
        (["resolve"], "required"),
        (["resolve", "rajapolku", "7"], "required"),
        (["roll", "nosuch", "3", "3"], "unknown system"),
        (["roll", "shadowrun", "-3"], "negative"),
        (["roll", "shadowrun", "x"], "not a whole number"),
        (["roll", "rajapolku", "3"], "two pools"),
        (["roll", "rajapolku", "-3", "3"], "negative"),
        (["roll", "rajapolku", "0", "3"], "action die"),
        (["roll", "harhapolku", "2d6", "3"], "d6"),
        (["roll", "rajapolku", "3", "3", "--threshold", "2"], "only for shadowrun"),
        (["roll", "shadowrun", "3", "3", "--threshold", "2"], "threshold"),
        (["roll", "shadowrun", "3", "--edge-before", "0"], "Edge"),
        (["roll", "shadowrun", "3", "--seed", "x"], "not a whole number"),
        (["odds", "rajapolku", "3", "-2"], "negative"),
        (["odds", "harhapolku", "2d8+", "3d8"], "not a Harhapolku pool"),
        (["odds", "shadowrun", "-1"], "negative"),
        (["odds", "shadowrun", "6", "--frobnicate"], "unrecognized"),
        (["odds", "shadowrun-opposed", "6"], "required"),
        (["odds", "nosuch", "6"], "unknown system"),
    ],
)
def test_bad_input_one_line_status_2(capsys, argv, fragment):
    line = run_fail(capsys, *argv)
    assert fragment in line


def test_help_and_version(capsys):
    assert main(["--version"]) == 0
    assert __version__ in capsys.readouterr().out
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert "resolve" in out and "odds" in out
    assert main(["resolve", "harhapolku", "--help"]) == 0
    out = capsys.readouterr().out
    assert "d10:7" in out and "d8" in out


@pytest.mark.parametrize("verb", VERBS)
def test_every_verb_has_its_module_and_help(capsys, verb):
    """A verb is a module of polku.cli with add_parser(); its --help names it."""
    module = importlib.import_module(f"polku.cli.{VERB_MODULE.get(verb, verb)}")
    assert callable(module.add_parser)
    assert main([verb, "--help"]) == 0
    assert f"polku {verb}" in capsys.readouterr().out


# ----------------------------------------------------------------- the app


@pytest.fixture
def fake_app(monkeypatch):
    calls: list[tuple] = []

    def run_app(path, *, read_only=False, seed=None, new=False):
        calls.append((path, read_only, seed) + (("new",) if new else ()))
        return 0

    module = types.ModuleType("polku.tui.run")
    module.run_app = run_app  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "polku.tui.run", module)
    return calls


def test_app_routes(fake_app, tmp_path):
    f = tmp_path / "game.polku"
    assert main([str(f), "--read-only", "--seed", "5"]) == 0
    assert main([]) == 0
    assert main(["new", "--seed", "9"]) == 0
    assert main(["./new"]) == 0
    assert fake_app == [
        (f, True, 5),
        (None, False, None),
        (None, False, 9, "new"),
        (Path("./new"), False, None),
    ]


def test_app_bad_option_one_line(capsys, fake_app):
    run_fail(capsys, "--seed", "x")
    run_fail(capsys, "a.polku", "b.polku")
    assert fake_app == []


# ----------------------------------------------------------------- subprocesses


def _run(*argv: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run([sys.executable, "-m", "polku.cli", *argv],
                          capture_output=True, text=True, env=env, timeout=60)


def test_subprocess_exit_codes():
    ok = _run("resolve", "rajapolku", "7,7,3", "8,5,3", "--json")
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["winner"] == "b"
    for argv in (["resolve", "rajapolku", "11", "3"], ["resolve", "bogus"], ["roll", "sr", "-3"],
                 ["odds", "rajapolku"], ["roll", "sr", "3", "--seed", "x"]):
        bad = _run(*argv)
        assert bad.returncode == 2, (argv, bad.stderr)
        assert bad.stdout == ""
        assert len(bad.stderr.splitlines()) == 1, bad.stderr
        assert bad.stderr.startswith("polku: error: ")
        assert "Traceback" not in bad.stderr


def test_console_script_exit_status():
    script = Path(sys.executable).with_name("polku")
    if not script.exists():
        pytest.skip("console script not installed in this environment")
    ok = subprocess.run([str(script), "odds", "sr", "3", "--json"], capture_output=True, text=True, timeout=60)
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["dice"] == 3
    bad = subprocess.run([str(script), "resolve", "raja", "11", "1"], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2
    assert bad.stderr.count("\n") == 1 and bad.stderr.startswith("polku: error: ")


def test_ascii_terminal_does_not_crash():
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    out = subprocess.run([sys.executable, "-m", "polku.cli", "odds", "raja", "3", "2"],
                         capture_output=True, text=True, env=env, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "A wins" in out.stdout
