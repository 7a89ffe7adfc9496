"""Every number the command line takes is bounded and written in ASCII digits,
and the full-screen verbs refuse to run without a terminal."""

from __future__ import annotations

import contextlib
import signal
import subprocess
import sys
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from polku import cli
from polku.rules.dice import FaceError, ascii_int, parse_faces

DEMO = Path(__file__).resolve().parents[1] / "sessions" / "demo-rajapolku.toml"
HUGE = "9" * 5001
FULLWIDTH = "１２"
ARABIC_INDIC = "١٢"


HUNG = 60
"""Seconds after which a refusal counts as hung: a count that was computed instead of refused takes
minutes or forever, a refusal milliseconds even on a loaded machine (a timeout, never a speed check)."""


@contextlib.contextmanager
def refused_before_it_hangs(argv: tuple[str, ...]) -> Iterator[None]:
    def hung(_signum: int, _frame: object) -> None:
        raise AssertionError(f"polku {' '.join(a[:20] for a in argv)} was still running after {HUNG} s: "
                             "a count out of bounds was computed instead of refused")

    old = signal.signal(signal.SIGALRM, hung)
    signal.alarm(HUNG)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def run_fail(capsys, *argv: str) -> str:
    with refused_before_it_hangs(argv):
        status = cli.main(list(argv))
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert err.startswith("polku: error: ") and err.count("\n") == 1 and "Traceback" not in err
    assert len(err) < 300
    return err


@pytest.mark.parametrize("argv", [
    ["roll", "shadowrun", "12", "--edge-before", "100000000"],
    ["roll", "shadowrun", "12", "--edge-before", HUGE],
    ["roll", "shadowrun", HUGE],
    ["roll", "shadowrun", "201"],
    ["roll", "shadowrun", "12", "13", "--edge-before", "10"],
    ["roll", "rajapolku", HUGE, "2"],
    ["roll", "rajapolku", f"2+{HUGE}*", "2"],
    ["roll", "harhapolku", f"{HUGE}d8", "2"],
    ["roll", "harhapolku", "2d8", HUGE],
    ["roll", "shadowrun", "5", "--threshold", HUGE],
    ["roll", "shadowrun", "5", "--seed", HUGE],
    ["odds", "shadowrun", "5", "--threshold", "201"],
    ["odds", "shadowrun", HUGE],
    ["odds", "shadowrun-opposed", "5", HUGE],
    ["odds", "rajapolku", HUGE, "3"],
    ["odds", "harhapolku", "3d8", "250"],
    ["resolve", "shadowrun", "5,6", "--threshold", HUGE],
    ["resolve", "harhapolku", f"{HUGE}:7", "5"],
    ["resolve", "rajapolku", HUGE, "5"],
    ["--seed", HUGE],
    ["new", "--seed", HUGE],
    ["watch", "x.toml", "--interval", "nan"],
    ["watch", "x.toml", "--interval", "inf"],
    ["watch", "x.toml", "--interval", "1e309"],
    ["watch", "x.toml", "--interval", "100000"],
], ids=lambda a: " ".join(x[:12] for x in a))
def test_every_count_is_bounded_with_one_line(capsys, argv):
    err = run_fail(capsys, *argv)
    assert any(word in err for word in ("range", "more", "not a", "Edge", "write the size"))


@pytest.mark.parametrize("digits", [FULLWIDTH, ARABIC_INDIC, "1_2", "²"])
@pytest.mark.parametrize("template", [
    ["roll", "shadowrun", "{}"],
    ["roll", "shadowrun", "5", "--seed", "{}"],
    ["roll", "shadowrun", "5", "--edge-before", "{}"],
    ["roll", "shadowrun", "5", "--threshold", "{}"],
    ["roll", "rajapolku", "{}", "2"],
    ["roll", "harhapolku", "2d8", "{}"],
    ["odds", "shadowrun-opposed", "{}", "3"],
    ["resolve", "rajapolku", "{},4", "5"],
    ["resolve", "harhapolku", "{},4", "5"],
    ["resolve", "shadowrun", "1,{}"],
    ["resolve", "shadowrun-opposed", "1,{}", "5"],
    ["--seed", "{}"],
], ids=lambda a: " ".join(a) if isinstance(a, list) else unicodedata.name(a[0], a))
def test_only_ascii_digits_are_numbers(capsys, template, digits):
    err = run_fail(capsys, *[part.format(digits) for part in template])
    assert "not a" in err or "0-9" in err


def test_ascii_counts_still_work(capsys):
    assert cli.main(["roll", "shadowrun", "12", "--edge-before", "9", "--seed", "7", "--threshold", "3"]) == 0
    out, _ = capsys.readouterr()
    assert out.startswith("seed: 7\n")
    assert cli.main(["resolve", "rajapolku", "+7,4", "5"]) == 0


@given(st.text(st.characters(categories=["Nd"]), min_size=1, max_size=5))
def test_ascii_int_reads_only_ascii_digits(text):
    if text.isascii():
        assert ascii_int(text) == int(text)
        assert parse_faces("1", 6)[0].face == 1
    else:
        with pytest.raises(ValueError):
            ascii_int(text)
        with pytest.raises(FaceError):
            parse_faces(text, 10)


@pytest.mark.parametrize("verb", ["review", "watch"])
def test_full_screen_verbs_refuse_without_a_terminal(verb):
    proc = subprocess.run([sys.executable, "-m", "polku.cli", verb, str(DEMO)], capture_output=True,
                          text=True, stdin=subprocess.DEVNULL, timeout=60)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith(f"polku: error: {verb} needs a terminal") and proc.stderr.count("\n") == 1
