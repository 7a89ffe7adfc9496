"""Where polku's files live, and the preferences it remembers between runs.

This module never imports Textual: the headless CLI uses it too.

Locations can be redirected with environment variables, which is how the tests
keep away from the real home folder:

- ``POLKU_CONFIG_DIR`` — the config folder (default: the user's config folder
  by platformdirs, ``$XDG_CONFIG_HOME/polku``, usually ``~/.config/polku`` on
  Linux). It holds ``config.toml`` (the preferences) and a ``themes/`` folder of
  the user's own theme files.
- ``POLKU_STATE_DIR`` — the state folder (default: the user's state folder by
  platformdirs, ``$XDG_STATE_HOME/polku``, usually ``~/.local/state/polku`` on
  Linux). It holds ``recent.toml``, the recently opened session files: what
  Polku noticed, not what the user chose. An older Polku kept that list in
  ``config.toml``; it is read from there until the next file is remembered,
  which moves it.
- ``POLKU_SESSIONS_DIR`` — the sessions folder (default ``sessions/`` in the
  user's data folder: ``$XDG_DATA_HOME/polku/sessions``, usually
  ``~/.local/share/polku/sessions``, by platformdirs; the same place wherever
  ``polku`` is started). A ``sessions/`` folder in the working directory is
  listed by the chooser too, beside the recent files.

Preferences must never crash the app: :func:`load_config` falls back to the
defaults for a missing, unreadable or malformed file, and :func:`save_config`
returns an error message instead of raising.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from . import tomlread
from .i18n import _

# tomli_w and the session store's atomic replace are imported where a file is written: reading
# the preferences (every start, ``polku --help`` too, for the language) must stay cheap.

CONFIG_FILE_NAME = "config.toml"
"""Name of the preferences file inside :func:`config_dir`."""

DEFAULT_THEME = "polku-dark"
"""Theme used when the user has not chosen one."""

MAX_RECENT = 10
"""How many recently opened session files are remembered."""

RECENT_FILE_NAME = "recent.toml"
"""Name of the recent files' list inside :func:`state_dir`."""


def config_dir() -> Path:
    """The folder holding ``config.toml`` and the user's ``themes/``.

    Returns:
        ``$POLKU_CONFIG_DIR``, else the user's config folder by platformdirs
        (``$XDG_CONFIG_HOME/polku``, else ``~/.config/polku`` on Linux). The
        folder may not exist yet.
    """
    override = os.environ.get("POLKU_CONFIG_DIR")
    if override:
        return Path(override).expanduser()
    import platformdirs

    return platformdirs.user_config_path("polku", appauthor=False)


def state_dir() -> Path:
    """The folder holding ``recent.toml`` (may not exist yet).

    Returns:
        ``$POLKU_STATE_DIR``, else the user's state folder by platformdirs
        (``$XDG_STATE_HOME/polku``, else ``~/.local/state/polku`` on Linux).
    """
    override = os.environ.get("POLKU_STATE_DIR")
    if override:
        return Path(override).expanduser()
    import platformdirs

    return platformdirs.user_state_path("polku", appauthor=False)


def recent_path() -> Path:
    """Path of the recent files' list, ``state_dir() / "recent.toml"``."""
    return state_dir() / RECENT_FILE_NAME


def config_path() -> Path:
    """Path of the preferences file, ``config_dir() / "config.toml"``."""
    return config_dir() / CONFIG_FILE_NAME


def sessions_dir() -> Path:
    """The folder where new session files are made, whatever the working directory.

    Returns:
        ``$POLKU_SESSIONS_DIR``, else ``sessions/`` in the user's data folder
        (platformdirs: ``$XDG_DATA_HOME/polku``, else ``~/.local/share/polku`` on
        Linux). The folder may not exist yet.
    """
    override = os.environ.get("POLKU_SESSIONS_DIR")
    if override:
        return Path(override).expanduser()
    import platformdirs

    return platformdirs.user_data_path("polku", appauthor=False) / "sessions"


def local_sessions_dir() -> Path | None:
    """``sessions/`` in the working directory, if there is one (a campaign kept beside its notes)."""
    folder = Path.cwd() / "sessions"
    try:
        if folder.is_dir() and folder.resolve() != sessions_dir().resolve():
            return folder
    except OSError:
        return None
    return None


# Letters that Unicode does not split into a base letter and a mark.
_WHOLE_LETTERS = str.maketrans({"ß": "ss", "æ": "ae", "Æ": "ae", "œ": "oe", "Œ": "oe", "ø": "o", "Ø": "o",
                                "đ": "d", "Đ": "d", "ł": "l", "Ł": "l", "þ": "th", "Þ": "th", "ð": "d", "Ð": "d",
                                "ı": "i"})


def session_file_name(campaign: str) -> str:
    """A file name for a campaign: lower case, ASCII where the name has a Latin spelling.

    ``Tampereen yö`` → ``tampereen-yo.toml``; ``Straße 9`` → ``strasse-9.toml``.
    A name with no Latin letters at all keeps its own (``Тампере`` → ``тампере.toml``);
    an empty one gives ``campaign.toml``.
    """
    import re
    import unicodedata

    text = unicodedata.normalize("NFKD", campaign.translate(_WHOLE_LETTERS))
    text = "".join(c for c in text if not unicodedata.combining(c)).lower()
    stem = re.sub(r"[^a-z0-9]+", "-", text).strip("-")
    if not stem:
        stem = re.sub(r"[\W_]+", "-", campaign.lower()).strip("-")
    return f"{stem or 'campaign'}.toml"


def shipped_themes_dir() -> Path | None:
    """The ``themes/`` folder shipped at the top of the repository, if present.

    Returns:
        The folder, or ``None`` when polku runs from an install without it.
    """
    folder = Path(__file__).resolve().parents[2] / "themes"
    if folder.is_dir():
        return folder
    packaged = Path(__file__).resolve().parent / "data" / "themes"  # inside an installed wheel
    return packaged if packaged.is_dir() else None


def user_themes_dir() -> Path:
    """The folder for the user's own theme files (may not exist yet)."""
    return config_dir() / "themes"


def themes_dirs() -> list[Path]:
    """Folders to load theme files from, in order; later folders win on a name clash.

    Returns:
        The shipped themes folder (when present), then the user's themes folder.
    """
    shipped = shipped_themes_dir()
    folders = [shipped] if shipped is not None else []
    folders.append(user_themes_dir())
    return folders


def default_config() -> dict[str, Any]:
    """A fresh copy of the default preferences."""
    return {"theme": DEFAULT_THEME}


def load_config() -> dict[str, Any]:
    """Read the preferences; never raises.

    A missing, unreadable or malformed file gives the defaults. A value of the
    wrong type is replaced by its default; keys this version does not know are
    kept so that saving does not drop them.

    Returns:
        A dict with at least ``theme`` (str).
    """
    cfg = default_config()
    data = _read_toml(config_path())
    if data is None:
        return cfg
    for key, value in data.items():
        if key not in cfg:
            cfg[key] = value
    theme = data.get("theme")
    if isinstance(theme, str) and theme.strip():
        cfg["theme"] = theme.strip()
    if "language" in cfg and not isinstance(cfg["language"], str):
        del cfg["language"]
    return cfg


def configured_language() -> str | None:
    """The language chosen in the app and remembered (``language`` in ``config.toml``), if any."""
    value = load_config().get("language")
    return value if isinstance(value, str) else None


def use_language() -> str:
    """Speak the user's language from now on: the preference, ``POLKU_LANG``, the locale (:func:`i18n.choose`)."""
    from . import i18n

    return i18n.set_language(i18n.choose(configured_language()))


def remember_language(lang: str) -> str | None:
    """Save ``lang`` (``en``, ``fi``) as the language to speak from now on.

    Returns:
        ``None`` on success, else an error message (see :func:`save_config`).
    """
    cfg = load_config()
    if cfg.get("language") == lang:
        return None
    cfg["language"] = lang
    return save_config(cfg)


def _read_toml(path: Path) -> dict[str, Any] | None:
    """A TOML file's table, or None when it is missing, unreadable or malformed."""
    try:
        with path.open("rb") as file:
            return tomlread.load(file)
    except (OSError, tomlread.TOMLDecodeError, UnicodeDecodeError, ValueError):
        return None


def _paths(value: Any) -> list[str]:
    if not isinstance(value, list):
        return []
    return _unique([item for item in value if isinstance(item, str) and item])[:MAX_RECENT]


def load_recent() -> list[str]:
    """The recently opened session files, most recent first; never raises.

    From ``recent.toml`` in :func:`state_dir`; while there is none, from the
    ``recent`` list an older Polku kept in ``config.toml``.
    """
    data = _read_toml(recent_path())
    if data is None and not recent_path().exists():
        data = _read_toml(config_path())
    return _paths((data or {}).get("recent"))


def save_config(cfg: dict[str, Any]) -> str | None:
    """Write the preferences atomically, creating the config folder if needed.

    The file is written to a temporary file in the same folder, fsynced, then
    moved over ``config.toml`` (the session store's :func:`replace_file`), so a
    crash leaves either the old or the new file, never half of one.

    Args:
        cfg: Preferences, as returned by :func:`load_config`.

    Returns:
        ``None`` on success, else a message saying what went wrong.
    """
    import tomli_w

    from .session.store.atomic import replace_file

    path = config_path()
    try:
        text = tomli_w.dumps(cfg)
    except (TypeError, ValueError) as exc:
        return _("Could not save preferences: {problem}", problem=exc)  # tomli_w's own words, as it gives them
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        replace_file(path, text.encode("utf-8"))
    except OSError as exc:
        # the OS's reason (strerror) as the OS gives it, in the sentence made whole in the user's language
        return _("Could not save preferences to {path}: {reason}", path=path, reason=exc.strerror or exc)
    return None


def remember_theme(name: str) -> str | None:
    """Save ``name`` as the theme to use next time.

    Returns:
        ``None`` on success, else an error message (see :func:`save_config`).
    """
    cfg = load_config()
    if cfg.get("theme") == name:
        return None
    cfg["theme"] = name
    return save_config(cfg)


def remember_recent(path: str | os.PathLike[str]) -> str | None:
    """Put a session file at the top of the recent list (``recent.toml`` in the state folder).

    The path is stored absolute; an earlier entry for the same file is removed
    and only the :data:`MAX_RECENT` most recent files are kept. The file is
    replaced atomically, as ``config.toml`` is.

    Returns:
        ``None`` on success, else an error message.
    """
    import tomli_w

    from .session.store.atomic import replace_file

    entry = str(Path(path).expanduser().resolve())
    recent = _unique([entry, *load_recent()])[:MAX_RECENT]
    target = recent_path()
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        replace_file(target, tomli_w.dumps({"recent": recent}).encode("utf-8"))
    except OSError as exc:
        # the OS's reason (strerror) as the OS gives it, in the sentence made whole in the user's language
        return _("Could not remember the recent files in {path}: {reason}", path=target, reason=exc.strerror or exc)
    cfg = load_config()
    if "recent" in cfg:  # an older Polku's list, now moved to the state folder
        del cfg["recent"]
        return save_config(cfg)
    return None


def _unique(items: list[str]) -> list[str]:
    """Items in order, without repeats."""
    return list(dict.fromkeys(items))
