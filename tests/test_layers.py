"""Layering (DESIGN.md, STYLE.md): the headless core and the headless CLI verbs
never import ``textual`` or ``rich``. Each check runs in a fresh interpreter so
nothing imported by the test session can hide an import."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

UI_PACKAGES = ("textual", "rich")

HEADLESS_MODULES = (
    "polku",
    "polku.rules",
    "polku.rules.dice",
    "polku.rules.system",
    "polku.rules.rajapolku",
    "polku.rules.harhapolku",
    "polku.rules.shadowrun",
    "polku.rules.odds",
    "polku.rules.actions",
    "polku.session.model",
    "polku.session.tracker",
    "polku.session.store",
    "polku.session.store.atomic",
    "polku.session.store.load",
    "polku.session.store.lock",
    "polku.session.store.events",
    "polku.session.store.format",
    "polku.session.store.write",
    "polku.session.store.migrate",
    "polku.session.host",
    "polku.text",
    "polku.session.files",
    "polku.session.rolls",
    "polku.session.demo",
    "polku.session.review.replay",
    "polku.session.review.stats",
    "polku.session.review.export",
    "polku.session.players.public",
    "polku.session.players.players_file",
    "polku.session.fairdice",
    "polku.session.players.verify",
    "polku.session.table.gear",
    "polku.session.importers",
    "polku.session.importers.chummer",
    "polku.config",
    "polku.cli",
    "polku.cli.common",
    "polku.cli.pools",
    "polku.cli.importer",
    "polku.cli.words",
    "polku.cli.new",
    "polku.cli.resolve",
    "polku.cli.roll",
    "polku.cli.odds",
    "polku.cli.review",
    "polku.cli.verify",
    "polku.cli.serve",
    "polku.cli.webserve",
    "polku.cli.watch",
    "polku.cli.export",
)


def _fresh(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)],
                          capture_output=True, text=True, timeout=60)


def _ui_loaded(module_names) -> list[str]:
    return sorted(
        name for name in module_names
        if name.split(".")[0] in UI_PACKAGES
    )


@pytest.mark.parametrize("module", HEADLESS_MODULES)
def test_headless_module_does_not_import_ui(module):
    proc = _fresh(f"""
        import importlib, json, sys
        importlib.import_module({module!r})
        print(json.dumps(sorted(sys.modules)))
    """)
    assert proc.returncode == 0, proc.stderr
    loaded = json.loads(proc.stdout)
    assert module in loaded
    assert _ui_loaded(loaded) == [], f"{module} pulls in {_ui_loaded(loaded)[:5]}"


@pytest.mark.parametrize(
    "argv",
    [
        ["resolve", "rajapolku", "7", "8", "--json"],
        ["resolve", "harhapolku", "7,4,4", "6,5,3"],
        ["resolve", "shadowrun", "1,1,5,6", "--threshold", "1"],
        ["roll", "rajapolku", "3", "3", "--seed", "1"],
        ["odds", "harhapolku", "2d8+1d10", "3d8", "--json"],
        ["odds", "shadowrun", "6", "--edge-before"],
        ["resolve", "rajapolku", "11", "8"],  # an error path too
        ["--version"],
        ["--help"],
    ],
)
def test_headless_verbs_do_not_import_ui(argv):
    proc = _fresh(f"""
        import contextlib, io, json, sys
        from polku.cli import main
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main({argv!r})
        print(json.dumps({{"status": status, "modules": sorted(sys.modules)}}))
    """)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["status"] in (0, 2)
    assert _ui_loaded(data["modules"]) == [], f"polku {' '.join(argv)} pulls in {_ui_loaded(data['modules'])[:5]}"


def test_resolve_subprocess_importtime_has_no_textual():
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "polku.cli", "resolve", "rajapolku", "7", "8", "--json"],
        capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["winner"] == "b"
    imported = [line.rsplit("|", 1)[-1].strip() for line in proc.stderr.splitlines() if "|" in line]
    assert imported, "no -X importtime output"
    assert _ui_loaded(imported) == []


# `polku resolve` judges faces typed on the command line: it reads no file, so
# it has no business loading the session layer or a TOML library (together
# they would double its start-up; the budget is 6 x `python -c pass`).
NOT_FOR_RESOLVE = ("polku.session", "polku.tui", "tomllib", "tomli_w", "rtoml")


@pytest.mark.parametrize(
    "argv",
    [
        ["resolve", "rajapolku", "7,7,3", "8,5,3", "--json"],
        ["resolve", "harhapolku", "7,4,4", "6,5,3", "--json"],
        ["resolve", "shadowrun", "1,1,5,6", "--threshold", "1", "--json"],
        ["resolve", "shadowrun-opposed", "5,6,2", "6,1", "--json"],
        ["resolve", "rajapolku", "9,7,3,2", "6,5,1", "--spirit", "--set", "raja.degrees=beyond", "--json"],
        ["resolve", "harhapolku", "4+2", "3+5", "--set", "harha.variant=sum", "--difficult", "--json"],
        ["resolve", "shadowrun", "6,3,1,6,5,1;5,5", "--extended", "4,6", "--json"],
        ["resolve", "shadowrun", "5,5,3", "--helper", "5,1", "--edge-after", "1", "--json"],
    ],
)
def test_resolve_stays_lean(argv):
    proc = _fresh(f"""
        import contextlib, io, json, sys
        from polku.cli import main
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            status = main({argv!r})
        print(json.dumps({{"status": status, "out": out.getvalue(), "modules": sorted(sys.modules)}}))
    """)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["status"] == 0
    assert json.loads(data["out"])  # it did judge the roll
    heavy = [m for m in data["modules"] if m.split(".")[0] in NOT_FOR_RESOLVE or m.startswith(NOT_FOR_RESOLVE)]
    assert heavy == [], f"polku {' '.join(argv)} imports {heavy}"


def test_the_first_frame_does_without_the_roll_commands():
    """The roll commands and the rules modules they use are imported on the first
    roll (``Tracker.rolls``), not on the way to the app's first frame (~15 ms)."""
    proc = _fresh("""
        import json, sys
        import polku.tui.app, polku.tui.screens.main
        from polku.session import model
        from polku.session.tracker import Tracker
        t = Tracker(model.new_state("rajapolku", "Test", created="2026-01-01T00:00:00Z"))
        before = sorted(m for m in sys.modules if m.startswith("polku."))
        t.rolls.raja_pools  # the first roll command asked for
        print(json.dumps({"before": before, "after": sorted(sys.modules)}))
    """)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert "polku.session.rolls" not in data["before"]
    assert "polku.rules.rajapolku" not in data["before"] and "polku.rules.harhapolku" not in data["before"]
    assert "polku.session.rolls" in data["after"]
