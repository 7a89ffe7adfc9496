"""Every command example of the README that runs headless does run: exit status 0, no error line.

An example is a code span that starts with ``polku`` and a headless verb, or, in a row of the usage
table, a span that starts with a system name (``harhapolku 2d8+1d10 3d8`` in the ``polku odds`` row).
Optional parts in brackets are run once left out and once put in; a span with a placeholder (FILE,
POOL_A, N, …) or a choice (``md|html``) is a form, not an example, and is left out.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from polku.cli import main

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
HEADLESS = ("resolve", "roll", "odds")
SYSTEMS = ("rajapolku", "harhapolku", "shadowrun", "shadowrun-opposed")


def _is_form(text: str) -> bool:
    """A placeholder (an upper-case word), an ellipsis or a choice: a pattern, not a command to run."""
    return "…" in text or "|" in text or any(re.fullmatch(r"[A-Z][A-Z_.0-9]*", w) for w in text.split())


def _variants(span: str) -> list[str]:
    """The span with its bracketed options left out, and with each one put in."""
    options = re.findall(r"\[([^\]]*)\]", span)
    base = re.sub(r"\s*\[[^\]]*\]", "", span)
    return [base] + [f"{base} {opt}" for opt in options]


def examples() -> list[str]:
    found: list[str] = []
    for line in README.splitlines():
        spans = [s.replace("\\|", "|") for s in re.findall(r"`([^`]+)`", line)]
        row_verb = None
        if line.startswith("| `polku "):
            row_verb = spans[0].split()[1]
        for span in spans:
            words = span.split()
            if len(words) >= 3 and words[0] == "polku" and words[1] in HEADLESS:
                command = span
            elif row_verb in HEADLESS and words and words[0] in SYSTEMS and len(words) >= 2:
                command = f"polku {row_verb} {span}"
            else:
                continue
            for variant in _variants(command):
                if not _is_form(variant) and variant not in found:
                    found.append(variant)
    return found


def test_the_readme_has_examples_of_every_headless_verb() -> None:
    verbs = {e.split()[1] for e in examples()}
    assert verbs == set(HEADLESS), examples()
    assert "polku resolve rajapolku 10,8,7 6,5 --set raja.degrees=beyond" in examples()


@pytest.mark.parametrize("example", examples())
def test_a_readme_example_runs(example: str, capsys: pytest.CaptureFixture[str]) -> None:
    status = main(shlex.split(example)[1:])
    out, err = capsys.readouterr()
    assert status == 0, err
    assert out.strip() and "error" not in err
