"""ruff and mypy run inside the suite, so `.ci/run` (which runs pytest) runs them.

Their configuration is in pyproject.toml: ruff's rule set catches bugs and dead
code (not layout), mypy checks all of src/ strictly (``strict = true``: rules,
session, tui and cli alike) and tests/ with its default checks (tests/mypy-tests.ini,
which reads polku's own types from src/). A failure shows the tool's own report.

Run alone: ``pytest tests/test_lint.py -n 0``.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *argv], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_finds_nothing_in_src_tests_and_benchmarks():
    proc = _run("ruff", "check", "--no-cache", "src", "tests", "benchmarks")
    if proc.returncode != 0:
        pytest.fail(f"ruff check src tests benchmarks:\n{proc.stdout}{proc.stderr}", pytrace=False)


def test_mypy_finds_no_type_errors_in_src():
    # mypy reads `files` and `strict` from pyproject.toml
    proc = _run("mypy", "--no-incremental", "--cache-dir", "/dev/null")
    if proc.returncode != 0:
        pytest.fail(f"mypy:\n{proc.stdout}{proc.stderr}", pytrace=False)


def test_mypy_finds_no_type_errors_in_the_tests():
    # mypy's default checks, not --strict: a test calls polku with the types polku declares
    # (its config points mypy at src/, so polku's names are not Any), unannotated test bodies aside.
    proc = _run("mypy", "--config-file", "tests/mypy-tests.ini", "tests")
    if proc.returncode != 0:
        pytest.fail(f"mypy --config-file tests/mypy-tests.ini tests:\n{proc.stdout}{proc.stderr}", pytrace=False)
