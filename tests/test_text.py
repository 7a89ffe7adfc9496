"""The plain-text presentation module: one wording of dice, bars and a Rajapolku outcome,
the same on the command line, in the report, in the log and in the roll screens."""

from __future__ import annotations

import contextlib
import io

from hypothesis import given
from hypothesis import strategies as st

from polku import text
from polku.cli import main
from polku.rules import rajapolku
from polku.rules.dice import Die, Src
from polku.session import demo
from polku.session.rolls import RajaSide


def test_a_die_shows_its_source_size_and_reroll():
    assert text.die_text(7) == "7"
    assert text.die_text(7, "ability") == "✦7"
    assert text.die_text(6, "exploded") == "6!"
    assert text.die_text(4, "edge") == "4ᵉ"
    assert text.die_text(9, "background") == "9ᵇ"
    assert text.die_text(9, "background", named=True) == "9"  # the report writes "Runner 9"
    assert text.die_text(7, "die", size=10, replaced=True) == "7/d10↻"
    assert text.logged_die_text({"face": 7, "size": 8, "source": "die"}, "harhapolku") == "7/d8"
    assert text.logged_die_text({"face": 7, "size": 10, "source": "die", "replaced": [2]}, "rajapolku") == "7↻"
    assert text.die_typed(8, True) == "8*" and text.die_typed(8) == "8"


def test_bars():
    assert text.bar(1, 2, 8) == "████"
    assert text.bar(1, 8, 2) == "▎"  # a quarter of a cell
    assert text.bar(0, 5, 10) == "" and text.bar(3, 0, 10) == ""
    assert text.bar(9, 3, 4) == "████"  # never longer than its width
    assert text.split_bar([(0.5, "█"), (0.5, "░")], 10) == "█████░░░░░"


@given(st.lists(st.floats(0, 1), min_size=1, max_size=4), st.integers(0, 60))
def test_a_split_bar_always_fills_its_width(shares, width):
    total = sum(shares) or 1.0
    cells = text.split_cells([s / total for s in shares], width)
    assert sum(cells) == width and all(n >= 0 for n in cells)


def _raja(a, b):
    return rajapolku.resolve([Die(10, f, Src.DIE) for f in a], [Die(10, f, Src.DIE) for f in b])


def test_rajapolku_outcomes_in_words():
    assert text.raja_outcome(_raja([7, 7, 3], [8, 5, 3]), "Aino", "GM") == "GM wins, 1 degree"  # EX A
    assert text.raja_outcome(_raja([7, 7, 3], [7, 5, 3]), "Aino", "GM") == "Aino wins narrowly (0 degrees)"  # EX B
    assert text.raja_outcome(_raja([10, 8, 7], [6, 5]), "Aino", "GM") == "Aino wins, 3 degrees"  # EX C
    assert text.raja_outcome(_raja([7, 5], [7, 5]), "Aino", "GM") == "tie — both reroll (R5)"


def test_the_command_line_and_the_log_word_one_outcome_alike():
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["resolve", "rajapolku", "7", "8"]) == 0
    headline = out.getvalue().splitlines()[0]
    t = demo.DEMOS["rajapolku"]()
    ev = t.rolls.roll_raja(RajaSide("A", []), RajaSide("B", []), faces=([7], [8]))["event"]
    assert headline == "Rajapolku: " + ev["roll"]["summary"] == "Rajapolku: B wins, 1 degree"
