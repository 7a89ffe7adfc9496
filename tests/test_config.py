"""Preferences and file locations: remembered between runs, and never able to crash the app."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from polku import config
from polku.config import (
    DEFAULT_THEME,
    MAX_RECENT,
    config_dir,
    load_config,
    load_recent,
    local_sessions_dir,
    remember_recent,
    remember_theme,
    save_config,
    session_file_name,
    sessions_dir,
    themes_dirs,
)


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point every location at tmp_path so the real ~/.config is never touched."""
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    monkeypatch.delenv("POLKU_SESSIONS_DIR", raising=False)
    monkeypatch.setenv("POLKU_CONFIG_DIR", str(tmp_path / "cfg"))
    monkeypatch.chdir(tmp_path)
    return tmp_path / "cfg"


def test_config_dir_follows_env_then_xdg_then_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert config_dir() == tmp_path / "cfg"
    monkeypatch.delenv("POLKU_CONFIG_DIR")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert config_dir() == tmp_path / "xdg" / "polku"
    monkeypatch.delenv("XDG_CONFIG_HOME")
    assert config_dir() == tmp_path / "home" / ".config" / "polku"


def test_the_recent_files_live_in_the_users_state_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    assert config.state_dir() == tmp_path / "state" / "polku"
    assert remember_recent("night.toml") is None
    assert (tmp_path / "state" / "polku" / "recent.toml").is_file()
    assert load_recent() == [str(tmp_path / "night.toml")]
    assert "recent" not in load_config(), "the preferences hold what the user chose, not what Polku noticed"
    monkeypatch.delenv("XDG_STATE_HOME")
    assert config.state_dir() == tmp_path / "home" / ".local" / "state" / "polku"
    monkeypatch.setenv("POLKU_STATE_DIR", str(tmp_path / "elsewhere"))
    assert config.state_dir() == tmp_path / "elsewhere"


def test_an_older_polkus_recent_list_is_read_and_moved_to_the_state_folder(isolated: Path) -> None:
    isolated.mkdir()
    (isolated / "config.toml").write_text('theme = "high-contrast"\nrecent = ["/games/a.toml", "/games/b.toml"]\n')
    assert load_recent() == ["/games/a.toml", "/games/b.toml"]
    assert remember_recent("/games/c.toml") is None
    assert load_recent() == ["/games/c.toml", "/games/a.toml", "/games/b.toml"]
    assert load_config() == {"theme": "high-contrast"}, "moved: the theme stays, the list left config.toml"
    assert "recent" not in (isolated / "config.toml").read_text()


def test_sessions_dir_is_the_users_data_folder_wherever_polku_starts(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert sessions_dir() == tmp_path / "data" / "polku" / "sessions"
    (tmp_path / "somewhere").mkdir()
    monkeypatch.chdir(tmp_path / "somewhere")
    assert sessions_dir() == tmp_path / "data" / "polku" / "sessions"  # not the working directory
    monkeypatch.delenv("XDG_DATA_HOME")
    assert sessions_dir() == tmp_path / "home" / ".local" / "share" / "polku" / "sessions"
    monkeypatch.setenv("POLKU_SESSIONS_DIR", str(tmp_path / "elsewhere"))
    assert sessions_dir() == tmp_path / "elsewhere"


def test_a_sessions_folder_in_the_working_directory_is_found_only_if_it_exists(tmp_path: Path) -> None:
    assert local_sessions_dir() is None
    (tmp_path / "sessions").mkdir()
    assert local_sessions_dir() == tmp_path / "sessions"


@pytest.mark.parametrize("name,file", [
    ("Tampereen yö", "tampereen-yo.toml"),
    ("Jyväskylän ÄÄNI!", "jyvaskylan-aani.toml"),
    ("Straße 9", "strasse-9.toml"),
    ("Ærø / Œuvre", "aero-oeuvre.toml"),
    ("Helsinki 1936: Varjojen kaupunki", "helsinki-1936-varjojen-kaupunki.toml"),
    ("Тампере", "тампере.toml"),
    ("  ", "campaign.toml"),
])
def test_campaign_names_become_transliterated_file_names(name: str, file: str) -> None:
    assert session_file_name(name) == file


def test_themes_dirs_are_shipped_then_user(isolated: Path) -> None:
    folders = themes_dirs()
    assert folders[-1] == isolated / "themes"
    assert len(folders) == 2, "the repository's themes/ folder was not found"
    assert (folders[0] / "polku-dark.toml").is_file()


def test_no_config_file_gives_defaults(isolated: Path) -> None:
    assert load_config() == {"theme": DEFAULT_THEME} and load_recent() == []
    assert not isolated.exists(), "reading preferences must not create folders"


def test_round_trip_keeps_theme_and_unknown_keys(isolated: Path) -> None:
    cfg = load_config()
    cfg["theme"] = "varjojuoksu-neon"
    cfg["keymap"] = {"roll": "r"}
    assert save_config(cfg) is None
    assert (isolated / "config.toml").is_file()
    assert load_config() == cfg
    # No temporary files are left behind.
    assert [p.name for p in isolated.iterdir()] == ["config.toml"]


@pytest.mark.parametrize(
    "text",
    [
        "theme = \n",  # not TOML
        "\xff\xfe garbage",  # not UTF-8
        "",  # empty
        "theme = 3\nrecent = 'a.toml'\n",  # wrong types
    ],
)
def test_corrupt_config_gives_defaults(isolated: Path, text: str) -> None:
    isolated.mkdir()
    (isolated / "config.toml").write_bytes(text.encode("latin-1"))
    assert load_config()["theme"] == DEFAULT_THEME and load_recent() == []


def test_config_that_is_a_folder_gives_defaults(isolated: Path) -> None:
    (isolated / "config.toml").mkdir(parents=True)
    assert load_config() == {"theme": DEFAULT_THEME} and load_recent() == []


def test_recent_list_drops_non_strings(isolated: Path) -> None:
    isolated.mkdir()
    (isolated / "config.toml").write_text('theme = "high-contrast"\nrecent = ["a.toml", 3, "b.toml", "a.toml"]\n')
    assert load_config()["theme"] == "high-contrast" and load_recent() == ["a.toml", "b.toml"]


def test_remember_theme(isolated: Path) -> None:
    assert remember_theme("rajapolku-pulp") is None
    assert load_config()["theme"] == "rajapolku-pulp"
    assert remember_theme("harhapolku-dream") is None
    assert load_config()["theme"] == "harhapolku-dream"


def test_remember_recent_is_most_recent_first_unique_and_limited(tmp_path: Path) -> None:
    sessions = tmp_path / "sessions"
    for i in range(12):
        assert remember_recent(sessions / f"s{i}.toml") is None
    recent = load_recent()
    assert len(recent) == MAX_RECENT
    assert recent[0] == str(sessions / "s11.toml")
    assert recent[-1] == str(sessions / "s2.toml")

    # Opening an older file again moves it to the top without duplicating it,
    # however the path is spelt.
    assert remember_recent("sessions/s5.toml") is None
    recent = load_recent()
    assert recent[0] == str(sessions / "s5.toml")
    assert recent.count(str(sessions / "s5.toml")) == 1
    assert len(recent) == MAX_RECENT


def test_remember_recent_keeps_the_chosen_theme(isolated: Path) -> None:
    remember_theme("high-contrast")
    remember_recent("a.toml")
    assert load_config()["theme"] == "high-contrast"


def test_save_into_unwritable_folder_returns_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the config folder should be")
    monkeypatch.setenv("POLKU_CONFIG_DIR", str(blocker / "polku"))
    monkeypatch.setenv("POLKU_STATE_DIR", str(blocker / "state"))
    error = save_config({"theme": "polku-dark"})
    assert isinstance(error, str)
    assert "Could not save preferences" in error
    assert remember_theme("high-contrast") is not None
    assert remember_recent("a.toml") is not None
    assert load_config() == {"theme": DEFAULT_THEME} and load_recent() == []


def test_failed_write_keeps_the_previous_file(isolated: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert remember_theme("rajapolku-pulp") is None

    def fail(*args: object) -> None:
        raise OSError(28, "No space left on device")

    with monkeypatch.context() as patch:
        patch.setattr(config.os, "replace", fail)
        error = remember_theme("high-contrast")
    assert error is not None and "No space left on device" in error
    assert load_config()["theme"] == "rajapolku-pulp"
    assert [p.name for p in isolated.iterdir()] == ["config.toml"]


def test_unserialisable_value_returns_an_error() -> None:
    assert save_config({"theme": None}) is not None


def test_config_module_does_not_import_textual() -> None:
    code = "import sys, polku.config; sys.exit('textual' in sys.modules or 'rich' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
