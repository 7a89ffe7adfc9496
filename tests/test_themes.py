"""Theme files: the shipped themes load, and a broken user theme is reported without hurting the rest."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.app import App, ComposeResult
from textual.color import Color
from textual.widgets import Static

from app_fixtures import until_quiet
from polku.config import shipped_themes_dir
from polku.tui.themes import BUNDLED_FALLBACK, POLKU_VARIABLE_DEFAULTS, load_user_themes

SHIPPED = shipped_themes_dir()
SHIPPED_NAMES = {"polku-dark", "rajapolku-pulp", "harhapolku-dream", "varjojuoksu-neon", "high-contrast"}

GOOD = """\
name = "good"
primary = "#5fafd7"
"""


def write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two opaque colours."""

    def luminance(colour: str) -> float:
        def channel(value: int) -> float:
            c = value / 255
            return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

        r, g, b = Color.parse(colour).rgb
        return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)

    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_every_shipped_theme_loads_with_polku_variables() -> None:
    assert SHIPPED is not None, "the repository's themes/ folder was not found"
    themes, errors = load_user_themes([SHIPPED])
    assert errors == []
    by_name = {theme.name: theme for theme in themes}
    assert SHIPPED_NAMES <= by_name.keys()
    assert BUNDLED_FALLBACK in by_name
    for theme in themes:
        missing = POLKU_VARIABLE_DEFAULTS.keys() - theme.variables.keys()
        assert not missing, f"{theme.name} does not set {sorted(missing)}"


class ThemedApp(App[None]):
    """The smallest app that uses polku's variables in TCSS the way the real app does."""

    CSS = "#crit { color: $dice-crit; background: $panel; } #turn { color: $turn-active; }"

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return dict(POLKU_VARIABLE_DEFAULTS)

    def compose(self) -> ComposeResult:
        yield Static("1", id="crit")
        yield Static("Aino", id="turn")


@pytest.mark.parametrize("name", sorted(SHIPPED_NAMES))
def test_shipped_theme_applies_in_an_app(name: str) -> None:
    """Registering and selecting the theme recolours widgets styled with our variables."""
    assert SHIPPED is not None
    theme = {t.name: t for t in load_user_themes([SHIPPED])[0]}[name]

    async def run() -> None:
        app = ThemedApp()
        async with app.run_test() as pilot:
            app.register_theme(theme)
            app.theme = name
            await until_quiet(pilot)
            assert app.theme_variables["dice-crit"] == theme.variables["dice-crit"]
            assert app.query_one("#crit").styles.color == Color.parse(theme.variables["dice-crit"])
            assert app.query_one("#turn").styles.color == Color.parse(theme.variables["turn-active"])

    asyncio.run(run())


def test_app_with_a_builtin_theme_still_parses_our_variables() -> None:
    """Textual's own themes lack our variables; the defaults fill them in."""

    async def run() -> None:
        app = ThemedApp()
        async with app.run_test() as pilot:
            app.theme = "textual-dark"
            await until_quiet(pilot)
            assert app.query_one("#crit").styles.color == Color.parse(POLKU_VARIABLE_DEFAULTS["dice-crit"])

    asyncio.run(run())


def test_shipped_themes_keep_dice_colours_apart_from_the_background() -> None:
    """Hits, crits and the ability die stay readable on each theme's background."""
    assert SHIPPED is not None
    themes, _ = load_user_themes([SHIPPED])
    for theme in themes:
        assert theme.background is not None
        for key in ("ability-die", "dice-crit", "dice-hit", "hp-low", "turn-active"):
            ratio = contrast(theme.variables[key], theme.background)
            assert ratio >= 4.5, f"{theme.name}: {key} has contrast {ratio:.1f}"
        # Hits and crits must not look alike.
        assert theme.variables["dice-hit"] != theme.variables["dice-crit"]


def test_shipped_themes_stay_distinct_in_a_256_colour_terminal() -> None:
    """Dice colours, and the background layers, do not collapse into one palette entry."""
    from rich.color import Color as RichColor
    from rich.color import ColorSystem

    def xterm(colour: str) -> int | None:
        return RichColor.parse(colour).downgrade(ColorSystem.EIGHT_BIT).number

    assert SHIPPED is not None
    themes, _ = load_user_themes([SHIPPED])
    for theme in themes:
        dice = [theme.variables[key] for key in ("ability-die", "dice-crit", "dice-hit", "hp-low")]
        assert len({xterm(colour) for colour in dice}) == len(dice), theme.name
        assert theme.background and theme.panel
        assert xterm(theme.background) != xterm(theme.panel), theme.name
        if theme.name != "high-contrast":  # panels there are outlined, not shaded
            assert theme.surface
            assert len({xterm(theme.background), xterm(theme.surface), xterm(theme.panel)}) == 3, theme.name


def test_high_contrast_theme_reaches_seven_to_one_everywhere() -> None:
    assert SHIPPED is not None
    themes, _ = load_user_themes([SHIPPED])
    theme = {t.name: t for t in themes}["high-contrast"]
    assert theme.background == "#000000"
    assert theme.foreground == "#ffffff"
    colours = {
        key: getattr(theme, key)
        for key in ("primary", "secondary", "accent", "warning", "error", "success", "foreground")
    }
    colours.update({key: theme.variables[key] for key in (*POLKU_VARIABLE_DEFAULTS, "text-muted")})
    for key, colour in colours.items():
        ratio = contrast(colour, theme.background)
        assert ratio >= 7, f"high-contrast: {key} {colour} has contrast {ratio:.1f}"


def test_variable_defaults_are_plain_colours() -> None:
    """The app hands these to TCSS and to Rich, so both must understand them."""
    from rich.color import Color as RichColor

    for key, value in POLKU_VARIABLE_DEFAULTS.items():
        assert Color.parse(value).a == 1, key
        RichColor.parse(value)


@pytest.mark.parametrize(
    ("file_name", "text", "expected"),
    [
        ("bad-toml.toml", 'name = "x"\nprimary = \n', ["bad-toml.toml", "line 2"]),
        (
            "bad-colour.toml",
            'name = "x"\nprimary = "#5fafd7"\naccent = "blurple"\n',
            ["bad-colour.toml: accent: 'blurple' is not a colour"],
        ),
        ("no-name.toml", 'primary = "#5fafd7"\n', ["no-name.toml: name: missing"]),
        ("no-primary.toml", 'name = "x"\naccent = "#ffaf00"\n', ["no-primary.toml: primary: missing"]),
        ("dark-string.toml", 'name = "x"\nprimary = "#fff"\ndark = "yes"\n', ["dark-string.toml: dark:"]),
        ("colour-number.toml", 'name = "x"\nprimary = 12\n', ["colour-number.toml: primary: 12 is not a colour"]),
        ("name-number.toml", 'name = 3\nprimary = "#fff"\n', ["name-number.toml: name: 3"]),
        ("typo.toml", 'name = "x"\nprimery = "#fff"\nprimary = "#fff"\n', ["typo.toml: primery: unknown key"]),
        ("vars-not-table.toml", 'name = "x"\nprimary = "#fff"\nvariables = "a"\n', ["vars-not-table.toml: variables:"]),
        (
            "var-number.toml",
            'name = "x"\nprimary = "#fff"\n[variables]\nborder = 5\n',
            ["var-number.toml: variables.border: 5 is not a string"],
        ),
        (
            "bad-crit.toml",
            'name = "x"\nprimary = "#fff"\n[variables]\ndice-crit = "reddish"\n',
            ["bad-crit.toml: variables.dice-crit: 'reddish' is not a colour"],
        ),
    ],
)
def test_broken_theme_is_reported_and_good_themes_still_load(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, file_name: str, text: str, expected: list[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "themes"
    write(folder, "a-good.toml", GOOD)
    broken = write(folder, file_name, text)
    write(folder, "z-good.toml", GOOD.replace('"good"', '"also-good"'))

    themes, errors = load_user_themes([folder])

    assert sorted(theme.name for theme in themes) == ["also-good", "good"]
    assert errors, "the broken file was not reported"
    assert {path for path, _ in errors} == {broken}
    message = "\n".join(message for _, message in errors)
    assert message.startswith(f"themes/{file_name}: ")
    for fragment in expected:
        assert fragment in message


def test_every_problem_in_one_file_is_reported(tmp_path: Path) -> None:
    path = write(tmp_path, "many.toml", 'accent = "blurple"\nwarning = "nope"\n')
    themes, errors = load_user_themes([tmp_path])
    assert themes == []
    messages = [message for p, message in errors if p == path]
    assert any("name: missing" in m for m in messages)
    assert any("primary: missing" in m for m in messages)
    assert any("accent: 'blurple'" in m for m in messages)
    assert any("warning: 'nope'" in m for m in messages)


def test_user_theme_fills_in_optional_parts(tmp_path: Path) -> None:
    write(
        tmp_path,
        "mine.toml",
        'name = "mine"\ndark = false\nprimary = "rgb(0, 95, 175)"\n'
        '[variables]\nturn-active = "orange"\nfooter-key-foreground = "#005faf"\n',
    )
    (theme,), errors = load_user_themes([tmp_path])
    assert errors == []
    assert theme.name == "mine"
    assert theme.dark is False
    assert theme.secondary is None
    # Our own variables are stored as hex so Rich renderers can use them too.
    assert theme.variables["turn-active"] == "#FFA500"
    assert theme.variables["footer-key-foreground"] == "#005faf"


def test_user_folder_overrides_shipped_theme_of_the_same_name(tmp_path: Path) -> None:
    shipped = tmp_path / "shipped"
    user = tmp_path / "user"
    write(shipped, "polku-dark.toml", 'name = "polku-dark"\nprimary = "#5fafd7"\n')
    write(user, "my-dark.toml", 'name = "polku-dark"\nprimary = "#ff0000"\n')
    themes, errors = load_user_themes([shipped, user, tmp_path / "missing"])
    assert errors == []
    assert [(t.name, t.primary) for t in themes] == [("polku-dark", "#ff0000")]


def test_two_files_with_one_name_in_a_folder_is_an_error(tmp_path: Path) -> None:
    write(tmp_path, "a.toml", 'name = "same"\nprimary = "#5fafd7"\n')
    second = write(tmp_path, "b.toml", 'name = "same"\nprimary = "#ff0000"\n')
    themes, errors = load_user_themes([tmp_path])
    assert [(t.name, t.primary) for t in themes] == [("same", "#5fafd7")]
    assert len(errors) == 1
    assert errors[0][0] == second
    assert "already used by a.toml" in errors[0][1]


def test_non_utf8_file_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "latin1.toml"
    path.write_bytes('name = "é"\nprimary = "#fff"\n'.encode("latin-1"))
    themes, errors = load_user_themes([tmp_path])
    assert themes == []
    assert errors and errors[0][0] == path
