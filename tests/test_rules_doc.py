"""docs/rules.md, the rules reference every help text points at: each setting with its default and
values, each rule id, and no help text naming a file the repository does not have."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from polku.cli import main
from polku.rules.system import CHOICES, Choice, allowed_text
from polku.tui.screens.help import SESSION_TEXT

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")


def _section(key: str) -> str:
    """The text under ``### key`` up to the next heading."""
    m = re.search(rf"^### {re.escape(key)}\n(.*?)(?=^#|\Z)", DOC, re.M | re.S)
    assert m, f"docs/rules.md has no section '### {key}'"
    return m.group(1)


def _word(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


@pytest.mark.parametrize("choice", CHOICES, ids=lambda c: c.key)
def test_every_setting_has_its_section_with_default_values_rule_and_why(choice: Choice) -> None:
    text = _section(choice.key)
    head = text.strip().splitlines()[0]
    assert f"Default: `{_word(choice.default)}`" in head
    assert f"Rule {choice.rule} " in head
    if choice.allowed is None:
        assert f"Values: {allowed_text(choice)}" in head
    else:
        assert "Values: " + ", ".join(f"`{_word(v)}`" for v in choice.allowed) == head.split(" · ")[-1]
    assert "Why" in text


def test_the_settings_sections_are_the_settings() -> None:
    """No section for a setting the program does not have (a renamed key would leave one behind)."""
    settings = DOC.split("\n## Settings\n", 1)[1]
    assert re.findall(r"^### (\S+)$", settings, re.M) == [c.key for c in CHOICES]


def test_every_rule_id_is_explained() -> None:
    for prefix, last in (("R", 12), ("H", 9), ("S", 12)):
        for n in range(1, last + 1):
            assert re.search(rf"^\*\*{prefix}{n} ", DOC, re.M), f"{prefix}{n} is not in docs/rules.md"


def test_links_to_settings_resolve() -> None:
    anchors = {"#" + c.key.replace(".", "") for c in CHOICES} | {"#settings"}
    for link in re.findall(r"\]\((#[^)]+)\)", DOC):
        assert link in anchors, link


def test_help_texts_point_at_the_reference_that_exists(capsys: pytest.CaptureFixture[str]) -> None:
    """`--set`'s help, each verb's --help and the ? screen name docs/rules.md, never RULES.md."""
    assert "docs/rules.md" in SESSION_TEXT and "RULES" not in SESSION_TEXT
    for argv in (["--help"], ["resolve", "--help"], ["roll", "--help"], ["odds", "shadowrun", "--help"],
                 ["resolve", "harhapolku", "--help"]):
        assert main(argv) == 0
        out = capsys.readouterr().out
        assert "docs/rules.md" in out, argv
        assert "RULES" not in out, argv
    for path in (ROOT / "src").rglob("*.py"):
        assert "RULES.md" not in path.read_text(encoding="utf-8"), path
