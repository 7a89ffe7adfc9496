"""Shared fixtures: kept minimal and generic."""

from __future__ import annotations

import pytest

from polku.session.demo import fixed_clock


@pytest.fixture
def clock():
    """A reproducible clock: one minute per call from 2026-11-28T18:00Z."""
    return fixed_clock()


@pytest.fixture(autouse=True)
def _user_folders_in_tmp(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test reads or writes the real user's folders: data, config and cache point at a tmp dir.

    platformdirs (the sessions folder) and the config folder follow the XDG
    variables; child processes the tests start inherit them.
    """
    home = tmp_path_factory.mktemp("user")
    for var, sub in (("XDG_DATA_HOME", "data"), ("XDG_CONFIG_HOME", "config"), ("XDG_CACHE_HOME", "cache"),
                     ("XDG_STATE_HOME", "state")):
        monkeypatch.setenv(var, str(home / sub))
    for var in ("POLKU_SESSIONS_DIR", "POLKU_CONFIG_DIR", "POLKU_STATE_DIR"):
        monkeypatch.delenv(var, raising=False)


@pytest.fixture(autouse=True)
def _english(monkeypatch: pytest.MonkeyPatch):
    """Every test speaks English unless it asks for Finnish (whatever the machine's locale),
    child processes too; a test that switches the language leaves English behind it."""
    from polku import i18n

    monkeypatch.setenv("POLKU_LANG", "en")
    i18n.set_language("en")
    yield
    i18n.set_language("en")
