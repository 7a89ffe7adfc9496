"""Theme files: one TOML file per Textual theme, shipped in ``themes/`` or kept by the user.

A theme file looks like this::

    name = "polku-dark"        # required
    dark = true                # optional, default true
    primary = "#5fafd7"        # required
    accent = "#d7af5f"         # optional: secondary, accent, warning, error,
                               # success, foreground, background, surface,
                               # panel, boost

    [variables]                # optional extra theme variables (strings)
    dice-crit = "#ff5f5f"

Every colour is checked with :meth:`textual.color.Color.parse`. A file with a
problem is skipped and reported; it never stops the other files loading.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from textual.color import Color, ColorParseError
from textual.theme import Theme

from polku import tomlread
from polku.config import DEFAULT_THEME
from polku.i18n import _

BUNDLED_FALLBACK = DEFAULT_THEME
"""Theme the app falls back to when the chosen one is missing or broken."""

POLKU_VARIABLE_DEFAULTS: dict[str, str] = {
    "ability-die": "#af87ff",
    "dice-crit": "#ff5f5f",
    "dice-hit": "#87d75f",
    "hp-low": "#ff8700",
    "turn-active": "#ffd75f",
}
"""Fallbacks for polku's own theme variables, for ``App.get_theme_variable_defaults()``.

- ``ability-die``: the Harhapolku ability die (also marked with a glyph).
- ``dice-crit``: glitches, critical failures and ones that count against a roll.
- ``dice-hit``: dice that count as hits or successes.
- ``hp-low``: hit points, wounds or condition monitors close to the end.
- ``turn-active``: the combatant whose turn it is.
"""

REQUIRED_COLOURS = ("primary",)
"""Colour keys every theme file must set."""

OPTIONAL_COLOURS = (
    "secondary",
    "accent",
    "warning",
    "error",
    "success",
    "foreground",
    "background",
    "surface",
    "panel",
    "boost",
)
"""Colour keys a theme file may set; Textual derives the ones left out."""

_NUMBERS = ("luminosity_spread", "text_alpha")
"""Optional numeric tuning keys passed through to :class:`Theme`."""

_KNOWN_KEYS = frozenset({"name", "dark", "variables", *REQUIRED_COLOURS, *OPTIONAL_COLOURS, *_NUMBERS})

ThemeError = tuple[Path, str]
"""A broken theme file and a message naming the file and the problem."""


def load_user_themes(folders: Iterable[Path]) -> tuple[list[Theme], list[ThemeError]]:
    """Load every ``*.toml`` theme file in ``folders``.

    Files are read in name order within each folder. When two folders define
    the same theme name the later folder wins (a user theme replaces a shipped
    one); two files with the same name in one folder are an error.

    Args:
        folders: Folders to read, e.g. :func:`polku.config.themes_dirs`. A
            folder that does not exist is skipped.

    Returns:
        The themes that loaded, and one ``(path, message)`` per problem found.
    """
    themes: dict[str, Theme] = {}
    errors: list[ThemeError] = []
    for folder in folders:
        folder = Path(folder)
        if not folder.is_dir():
            continue
        seen_here: dict[str, Path] = {}
        for path in sorted(folder.glob("*.toml")):
            if not path.is_file():
                continue
            theme, problems = load_theme_file(path)
            errors.extend((path, problem) for problem in problems)
            if theme is None:
                continue
            if theme.name in seen_here:
                first = seen_here[theme.name].name
                errors.append((path, _("{path}: name: {name} is already used by {first}", path=display_path(path),
                                       name=repr(theme.name), first=first)))
                continue
            seen_here[theme.name] = path
            themes.pop(theme.name, None)
            themes[theme.name] = theme
    return list(themes.values()), errors


def load_theme_named(folders: Iterable[Path], name: str) -> Theme | None:
    """The theme called ``name`` that :func:`load_user_themes` would return, loading only it.

    The app needs its active theme before the first frame; the other files
    (and their problems) can wait. Each file is parsed to read its name (about
    0.2 ms a file), and only the one that wins is checked in full: the first
    good file of that name in the last folder that has one.

    Returns:
        The theme, or ``None`` when no good file defines ``name``.
    """
    for folder in reversed([Path(f) for f in folders]):
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.toml")):
            if not path.is_file():
                continue
            try:
                with path.open("rb") as file:
                    data = tomlread.load(file)
            except (tomlread.TOMLDecodeError, UnicodeDecodeError, OSError):
                continue
            found = data.get("name")
            if not isinstance(found, str) or found.strip() != name:
                continue
            theme, _problems = _checked_theme(str(path), data)
            if theme is not None:
                return theme
    return None


def load_theme_file(path: Path) -> tuple[Theme | None, list[str]]:
    """Parse and validate one theme file.

    Args:
        path: The TOML file.

    Returns:
        The theme (``None`` if the file has any problem) and the problems, each
        message starting with the file's path.
    """
    shown = display_path(path)
    try:
        with path.open("rb") as file:
            data = tomlread.load(file)
    except tomlread.TOMLDecodeError as exc:
        # the TOML parser's own words (its line and column), as tomllib gives them, in a whole sentence
        return None, [_("{path}: not valid TOML: {problem}", path=shown, problem=exc)]
    except UnicodeDecodeError:
        return None, [_("{path}: not valid TOML: the file is not UTF-8 text", path=shown)]
    except OSError as exc:
        # the OS's reason (strerror) as the OS gives it, in a whole sentence
        return None, [_("{path}: cannot be read: {reason}", path=shown, reason=exc.strerror or exc)]
    return _checked_theme(shown, data)


def _checked_theme(shown: str, data: dict[str, Any]) -> tuple[Theme | None, list[str]]:
    """The theme of a parsed file (``None`` if it has a problem) and its problems."""
    problems = [_("{path}: {problem}", path=shown, problem=problem) for problem in _problems(data)]
    if problems:
        return None, problems
    theme = _to_theme(data)
    try:
        theme.to_color_system().generate()
    except Exception as exc:  # noqa: BLE001 - any failure here means Textual cannot use the theme
        # Textual's own words, as it gives them, in a whole sentence
        return None, [_("{path}: Textual cannot use this theme: {problem}", path=shown, problem=exc)]
    return theme, []


def display_path(path: Path) -> str:
    """A short form of ``path`` for messages: relative to the working folder or ``~`` when possible."""
    path = Path(path)
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):
        pass
    try:
        return str(Path("~") / path.resolve().relative_to(Path.home().resolve()))
    except (ValueError, OSError, RuntimeError):
        return str(path)


def _problems(data: dict[str, Any]) -> list[str]:
    """Everything wrong with a parsed theme file, as ``key: message`` strings."""
    problems: list[str] = []
    for key in sorted(set(data) - _KNOWN_KEYS):
        problems.append(_("{key}: unknown key (a theme variable belongs under [variables])", key=key))

    name = data.get("name")
    if name is None:
        problems.append(_("name: missing; every theme needs a name"))
    elif not isinstance(name, str) or not name.strip():
        problems.append(_("name: {value} is not a non-empty string", value=repr(name)))

    dark = data.get("dark", True)
    if not isinstance(dark, bool):
        problems.append(_("dark: {value} is not true or false", value=repr(dark)))

    for key in REQUIRED_COLOURS:
        if key not in data:
            problems.append(_("{key}: missing; every theme needs a {key} colour", key=key))
    for key in (*REQUIRED_COLOURS, *OPTIONAL_COLOURS):
        if key in data:
            problem = _colour_problem(key, data[key])
            if problem:
                problems.append(problem)

    for key in _NUMBERS:
        value = data.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))):
            problems.append(_("{key}: {value} is not a number", key=key, value=repr(value)))

    variables = data.get("variables", {})
    if not isinstance(variables, dict):
        problems.append(_("variables: must be a table ([variables])"))
    else:
        for key, value in variables.items():
            if not isinstance(value, str):
                problems.append(_("variables.{key}: {value} is not a string", key=key, value=repr(value)))
            elif key in POLKU_VARIABLE_DEFAULTS:
                problem = _colour_problem(f"variables.{key}", value, plain=True)
                if problem:
                    problems.append(problem)
    return problems


def _colour_problem(key: str, value: object, *, plain: bool = False) -> str | None:
    """Why ``value`` of ``key`` is not a usable colour (the key and the reason, one sentence), or ``None`` if it is.

    Args:
        key: The key it was read from (as the file writes it).
        value: The value read from the file.
        plain: Also require an opaque, non-ANSI colour (our variables are read
            by Rich renderers as well as by TCSS).
    """
    if not isinstance(value, str):
        return _("{key}: {value} is not a colour (expected a string such as \"#5fafd7\")", key=key, value=repr(value))
    try:
        colour = Color.parse(value)
    except ColorParseError:
        return _("{key}: {value} is not a colour", key=key, value=repr(value))
    if plain and (colour.ansi is not None or colour.a < 1):
        return _("{key}: {value} must be an opaque colour such as \"#5fafd7\"", key=key, value=repr(value))
    return None


def _to_theme(data: dict[str, Any]) -> Theme:
    """Build a :class:`Theme` from a validated theme file."""
    variables = dict(data.get("variables", {}))
    for key in POLKU_VARIABLE_DEFAULTS.keys() & variables.keys():
        variables[key] = Color.parse(variables[key]).hex
    options: dict[str, Any] = {key: data[key] for key in OPTIONAL_COLOURS if key in data}
    options.update({key: float(data[key]) for key in _NUMBERS if key in data})
    return Theme(
        name=data["name"].strip(),
        primary=data["primary"],
        dark=data.get("dark", True),
        variables=variables,
        **options,
    )


__all__ = [
    "BUNDLED_FALLBACK",
    "OPTIONAL_COLOURS",
    "POLKU_VARIABLE_DEFAULTS",
    "REQUIRED_COLOURS",
    "ThemeError",
    "display_path",
    "load_theme_file",
    "load_theme_named",
    "load_user_themes",
]
