"""The font polku serve gives the browser draws every character Polku writes.

The served page (src/polku/cli/web/page.html) hands xterm.js DejaVu Sans Mono, shipped in
src/polku/cli/web/. A mark the font lacks is drawn from whatever font the player's device
has, or as an empty box (the raised hand that marked physical dice was one on every
machine without an emoji font). Read with fontconfig's fc-query; skipped where it is missing.
"""

from __future__ import annotations

import shutil
import subprocess
import unicodedata
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "polku"
FONT = SRC / "cli" / "web" / "DejaVuSansMono.ttf"


def font_charset() -> set[int]:
    if shutil.which("fc-query") is None:
        pytest.skip("fc-query (fontconfig) is not installed")
    ranges = subprocess.run(["fc-query", "--format=%{charset}", str(FONT)], capture_output=True, text=True,
                            check=True).stdout.split()
    got: set[int] = set()
    for part in ranges:
        first, _, last = part.partition("-")
        got.update(range(int(first, 16), int(last or first, 16) + 1))
    return got


def written_characters() -> dict[str, str]:
    """Every character beyond ASCII in Polku's source and its Finnish catalogue → a file it is in."""
    found: dict[str, str] = {}
    files = [*SRC.rglob("*.py"), *SRC.glob("locale/*/LC_MESSAGES/*.po")]
    for path in files:
        for ch in path.read_text(encoding="utf-8"):
            if ord(ch) > 0x7E and unicodedata.category(ch)[0] != "C" and ch not in found:
                found[ch] = str(path.relative_to(SRC))
    return found


def test_the_served_font_has_every_character_polku_writes() -> None:
    have = font_charset()
    written = written_characters()
    assert "⚄" in written  # the scan reads the marks
    missing = {f"{ch} U+{ord(ch):04X} {unicodedata.name(ch, '?')} ({where})"
               for ch, where in written.items() if ord(ch) not in have}
    assert not missing, sorted(missing)


def test_the_fonts_licence_ships_beside_it() -> None:
    licence = FONT.with_name("DejaVuSansMono-LICENSE.txt").read_text(encoding="utf-8")
    assert "Bitstream" in licence and "DejaVu changes are in public domain" in licence
