"""polku.tomlread: the fast TOML reader gives exactly what tomllib gives, and
tomllib's error (line and column) when the text is not TOML."""

from __future__ import annotations

import math
import tomllib
from pathlib import Path

import pytest
import tomli_w
from hypothesis import given, settings
from hypothesis import strategies as st

from polku import tomlread

ROOT = Path(__file__).resolve().parents[1]

keys = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), min_size=1, max_size=8)
scalars = (st.integers(-(2**63), 2**63 - 1) | st.booleans() | st.text(max_size=20)
           | st.floats(allow_nan=False))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4),
                      max_leaves=12)
documents = st.dictionaries(keys, values, max_size=6)


@settings(max_examples=300, deadline=None)
@given(documents)
def test_same_values_as_tomllib_for_anything_polku_writes(doc):
    text = tomli_w.dumps(doc)
    assert tomlread.loads(text) == tomllib.loads(text) == doc


@pytest.mark.parametrize("path", sorted((ROOT / "sessions").glob("*.toml")) + sorted((ROOT / "themes").glob("*.toml"))
                         + [ROOT / "tests" / "data" / "schema1.toml"], ids=lambda p: p.name)
def test_shipped_files_read_the_same(path):
    text = path.read_text(encoding="utf-8")
    assert tomlread.loads(text) == tomllib.loads(text)


@pytest.mark.parametrize("text", [
    'title = "Lost"\nbroken = [1, 2\n',
    'a = 1\na = 2\n',
    '[event]\nseq = \n',
    'name = "unterminated\n',
])
def test_bad_text_raises_tomllibs_message(text):
    with pytest.raises(tomllib.TOMLDecodeError) as expected:
        tomllib.loads(text)
    with pytest.raises(tomlread.TOMLDecodeError) as got:
        tomlread.loads(text)
    assert str(got.value) == str(expected.value)
    assert "line" in str(got.value) or "end of document" in str(got.value)  # where it is


def test_deep_nesting_the_fast_parser_refuses_is_still_read():
    text = "a = " + "[" * 150 + "]" * 150 + "\n"
    value = tomlread.loads(text)["a"]
    depth = 0
    while isinstance(value, list) and value:
        value, depth = value[0], depth + 1
    assert depth == 149


def test_works_without_rtoml(monkeypatch):
    monkeypatch.setattr(tomlread, "_fast_loads", None)
    assert tomlread.loads('x = 1.5\n[t]\ny = "é"\n') == {"x": 1.5, "t": {"y": "é"}}
    with pytest.raises(tomlread.TOMLDecodeError):
        tomlread.loads("x = \n")


def test_special_floats():
    doc = tomlread.loads("a = inf\nb = -inf\nc = nan\n")
    assert doc["a"] == math.inf and doc["b"] == -math.inf and math.isnan(doc["c"])
