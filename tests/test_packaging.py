"""The package's promises about itself: licence, dependency ranges, the pinned test setup, install docs."""

from __future__ import annotations

import re
import tomllib
from importlib.metadata import version
from pathlib import Path

from packaging.requirements import Requirement
from packaging.version import Version

REPO = Path(__file__).resolve().parents[1]


def _project() -> dict:
    return tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def _requirements() -> dict[str, Requirement]:
    return {Requirement(r).name: Requirement(r) for r in _project()["dependencies"]}


def _constraints() -> dict[str, str]:
    pins = {}
    for line in (REPO / "constraints.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, pinned = line.partition("==")
            assert pinned, f"constraints.txt pins exactly: {line!r}"
            pins[name.strip().lower()] = pinned.strip()
    return pins


def test_the_licence_file_is_the_mit_licence_pyproject_names() -> None:
    assert _project()["license"] == "MIT"
    text = (REPO / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License") and "WITHOUT WARRANTY OF ANY KIND" in text


def test_textual_is_a_compatible_range_in_the_package_and_exact_in_the_constraints() -> None:
    textual = _requirements()["textual"]
    pinned = _constraints()["textual"]
    # A range another Textual app can share, with an upper bound below the next major.
    assert not any(s.operator == "==" for s in textual.specifier)
    assert Version(pinned) in textual.specifier and Version("9.0.0") not in textual.specifier
    # The tests (and their snapshots) run with exactly the pinned version.
    assert version("textual") == pinned


def test_every_runtime_dependency_is_capped_below_its_next_major_where_it_may_break() -> None:
    reqs = _requirements()
    for name in ("rtoml", "platformdirs", "tomli-w", "watchfiles"):
        spec = reqs[name].specifier
        assert any(s.operator == "<" for s in spec), f"{name} has no upper bound"
        pinned = Version(_constraints()[name])
        assert pinned in spec
        assert Version(f"{pinned.major + 1}.0" if pinned.major else "1.0") not in spec, name


def test_readme_and_ci_run_the_same_test_command_with_the_constraints() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    block = readme.split("## Run the tests", 1)[1].split("```sh", 1)[1].split("```", 1)[0].strip()
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()[-1].strip()
    assert block == ci
    assert "-c constraints.txt" in ci


def test_remote_play_docs_never_install_polku_by_its_bare_name() -> None:
    text = (REPO / "docs" / "remote-play.md").read_text(encoding="utf-8")
    installs = re.findall(r"(?:pipx install|uv tool install|pip install)\s+(\S+)", text)
    polku = [target for target in installs if "polku" in target.lower()]
    assert polku, "the docs say how to install Polku"
    # A path (a clone or a wheel), never a name anyone could publish on the index.
    assert all("/" in target for target in polku), polku


def test_textual_serve_comes_only_with_the_serve_extra_and_the_tests() -> None:
    """textual-serve (aiohttp, jinja2 … a dozen packages) serves only `polku serve`: an extra, not a dependency."""
    project = _project()
    assert "textual-serve" not in _requirements()
    extras = {name: {Requirement(r).name for r in reqs} for name, reqs in project["optional-dependencies"].items()}
    assert "textual-serve" in extras["serve"] and "textual-serve" in extras["test"]
    assert "pip install -e '.[serve]'" in (REPO / "README.md").read_text(encoding="utf-8")


def test_serve_without_the_extra_says_how_to_get_it_in_one_line(tmp_path, capsys, monkeypatch) -> None:
    import sys

    from polku.cli import main
    from polku.session import demo, store
    from polku.session.files import document
    from polku.session.players.players_file import publish

    t = demo.demo_rajapolku()
    path = tmp_path / "night.toml"
    store.write_full(path, document(t.state, t.events, t.last_seq()))
    publish(path, t)  # as the GM's app does on opening: serve reads only the players' file
    for name in ("textual_serve", "textual_serve.server"):
        monkeypatch.setitem(sys.modules, name, None)  # as if textual-serve were not installed
    assert main(["serve", str(path), "--no-seats"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    [line] = err.splitlines()
    assert re.fullmatch(r"polku: error: polku serve needs the serve extra \(textual_serve\S* is missing\): "
                        r"pip install 'polku\[serve\]', or in a clone pip install -e '\.\[serve\]'", line), line
