"""The headless verbs in Finnish: ``polku odds``, the verbs' refusals and ``polku import``'s report speak
the rule texts' Finnish with POLKU_LANG=fi, and English stays what scripts parse (byte for byte)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from polku import i18n
from polku.cli import main

DATA = Path(__file__).parent / "data" / "chummer"

ENGLISH = re.compile(
    r"\b(odds|wins?|tie|reroll|holds|hits?|mean|glitch|critical|success|degrees?|winner|ability|visibly|"
    r"supernatural|spirit|combat|charges?|left|exchanges?|fight|whole|next|expected|actor|challenger|keeps|"
    r"difficult|demanding|unopposed|opposed|action|dice|die|done|within|some|interval|extended|teamwork|leader|"
    r"helpers?|defender|needed|threshold|worth|short|before|after|roll|rule|six|note|variant|one|at|most|"
    r"group|largest|side|needs|unless|is|are|for|the|of|and|not|no|or|with|without|vs|free|so|far|hurried)\b",
    re.IGNORECASE)
"""English words of these outputs; none may be left in a Finnish one."""


def _plain(text: str) -> str:
    """The words a reader reads: flags (--edge), setting keys and values (raja.degrees = beyond, (classic)) and the
    rule letters left out."""
    text = re.sub(r"--?[a-z][a-z-]*( [A-Z,N]+)?|\b[a-z_]+\.[a-z_]+(\s*=\s*\w+)?|\((ch23|classic|sum|same_size)\)", "",
                  text)
    return text.replace("POOL_B", "")


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out + err


ODDS = [
    ("odds", "rajapolku", "3+1*", "2+2*"),
    ("odds", "rajapolku", "3+1*", "2", "--set", "raja.full_tie=defender", "--set", "raja.degrees=beyond"),
    ("odds", "rajapolku", "3", "2", "--spirit"),
    ("odds", "rajapolku", "4", "3", "--in-fight", "--wound", "Haavoittunut", "--set", "raja.spirit_wounds=true"),
    ("odds", "rajapolku", "4", "3", "--spirit", "--wound", "Haavoittunut"),
    ("odds", "harhapolku", "3d8", "2d8"),
    ("odds", "harhapolku", "3d8", "2d8", "--variant", "classic", "--very-demanding"),
    ("odds", "harhapolku", "3d8", "2d8", "--difficult"),
    ("odds", "harhapolku", "3d8", "--difficult"),
    ("odds", "harhapolku", "1d8", "--very-demanding", "--variant", "sum"),
    ("odds", "shadowrun", "8", "--threshold", "3"),
    ("odds", "shadowrun", "1", "--edge-before", "2"),
    ("odds", "shadowrun", "8", "--edge", "3", "--threshold", "3"),
    ("odds", "shadowrun", "8", "--extended", "6", "--intervals", "4"),
    ("odds", "shadowrun", "1", "--extended", "2", "--hurried", "--progress", "1"),
    ("odds", "shadowrun", "8", "--helpers", "3,4", "--threshold", "2"),
    ("odds", "shadowrun", "8", "--helpers", "3,4", "--set", "sr.teamwork_cap=skill", "--leader-skill", "3"),
    ("odds", "shadowrun-opposed", "8", "6"),
    ("odds", "shadowrun-opposed", "8", "6", "--group", "4,5"),
]

REFUSED = [
    ("odds", "rajapolku", "3", "2", "--wound", "Terve"),
    ("odds", "rajapolku", "1", "3", "--spirit"),
    ("odds", "rajapolku", "1+1*", "3", "--spirit"),
    ("odds", "harhapolku", "3d8"),
    ("odds", "harhapolku", "2d8+1d10", "1d8", "--variant", "sum"),
    ("odds", "shadowrun", "8", "--edge", "3"),
    ("odds", "shadowrun", "8", "--edge", "3", "--threshold", "2", "--edge-before", "2"),
    ("odds", "shadowrun", "8", "--extended", "3", "--threshold", "2"),
    ("odds", "shadowrun", "8", "--intervals", "3"),
    ("odds", "shadowrun", "8", "--leader-skill", "3"),
    ("odds", "shadowrun", "8", "--helpers", "3", "--set", "sr.teamwork_cap=skill"),
    ("odds", "shadowrun-opposed", "8", "199", "--group", "4,5"),
    ("odds", "shadowrun", "8", "--helpers", "3,-1"),
    ("odds", "harhapolku", "2d6", "1d8"),
    ("odds", "rajapolku", "0", "1"),
    ("odds", "shadowrun", "8", "--threshold", "0"),
    ("odds", "shadowrun", "x"),
    ("export", "nonexistent-dir/none.toml", "--transcript", "--gm"),
]


@pytest.mark.parametrize("argv", ODDS, ids=" ".join)
def test_odds_in_finnish_has_no_english_left(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]) -> None:
    i18n.set_language("fi")
    status, out = _run(capsys, *argv)
    assert status == 0, out
    left = [line for line in out.splitlines() if ENGLISH.search(_plain(line))]
    assert not left, left


@pytest.mark.parametrize("argv", REFUSED, ids=" ".join)
def test_a_refusal_is_one_finnish_line(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]) -> None:
    i18n.set_language("fi")
    status, out = _run(capsys, *argv)
    assert status == 2
    assert out.startswith("polku: virhe: ") and out.count("\n") == 1, out
    assert not ENGLISH.search(_plain(out.removeprefix("polku: virhe: ")).replace("nonexistent-dir/none", "")), out


def test_an_import_refused_says_why_in_finnish(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "empty.chum").write_bytes(b"")
    (tmp_path / "other.chum").write_text("<sheet/>", "utf-8")
    i18n.set_language("fi")
    assert _run(capsys, "import", "chummer", str(tmp_path / "empty.chum")) == (2, "polku: virhe: empty.chum: tiedosto on tyhjä\n")
    assert _run(capsys, "import", "chummer", str(tmp_path / "other.chum")) == (
        2, "polku: virhe: other.chum: ei Chummerin hahmotiedosto (juurielementti on <sheet>, ei <character>)\n")
    i18n.set_language("en")
    assert _run(capsys, "import", "chummer", str(tmp_path / "empty.chum")) == (2, "polku: error: empty.chum: the file is empty\n")


def test_odds_in_finnish_reads_in_the_rule_texts_terms(capsys: pytest.CaptureFixture[str]) -> None:
    i18n.set_language("fi")
    _status, out = _run(capsys, "odds", "shadowrun", "8", "--threshold", "2")
    assert out.splitlines()[0] == "Varjojuoksun todennäköisyydet: 8 noppaa"
    assert "  kriittinen kämmi    0,444%" in out and "  osumia keskimäärin: 2,667" in out  # a decimal comma
    _status, out = _run(capsys, "odds", "shadowrun", "1")
    assert out.splitlines()[0] == "Varjojuoksun todennäköisyydet: 1 noppa"       # the plural agrees
    _status, out = _run(capsys, "odds", "rajapolku", "3", "2", "--spirit")
    assert "Henkitaistelun todennäköisyydet (R11)" in out and "seuraava vaihto:" in out
    _status, out = _run(capsys, "odds", "shadowrun", "8", "--edge", "3", "--threshold", "3")
    header, *rows = out.splitlines()[1:5]
    # the table's columns line up whatever the words' lengths
    assert [len(r) for r in rows] == [len(header)] * 3, out


def test_odds_in_english_is_as_scripts_read_it(capsys: pytest.CaptureFixture[str]) -> None:
    _status, out = _run(capsys, "odds", "rajapolku", "3", "2")
    assert out.splitlines()[:5] == [
        "Rajapolku odds: A 3d10 vs B 2d10",
        "  A wins             63.214%  ███████████████████░░░░░░░░░░░",
        "  B wins             36.786%  ███████████░░░░░░░░░░░░░░░░░░░",
        "  tie (reroll)            0%  ░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░",
        "winner's degrees of success (R6, ability dice count 2):"]
    _status, out = _run(capsys, "odds", "shadowrun", "8", "--edge", "3", "--threshold", "3")
    assert out.splitlines()[1:3] == [
        "                           success    glitch  critical  mean hits",
        "  no Edge                  53.178%    3.066%    0.444%      2.667"]
    _status, out = _run(capsys, "odds", "shadowrun", "1", "--extended", "2", "--hurried", "--progress", "1")
    assert out.splitlines()[0] == "Shadowrun extended test odds: 1 die per interval, 1/2 hits so far, hurried (S10)"


def test_the_odds_verbs_help_names_its_systems_in_finnish(capsys: pytest.CaptureFixture[str]) -> None:
    i18n.set_language("fi")
    _status, out = _run(capsys, "odds", "--help")
    assert "Varjojuoksun heitto (S3–S11)" in out and "Varjojuoksun vastustettu testi (S9)" in out
    _status, out = _run(capsys, "odds", "shadowrun", "--help")
    assert "asetukset (--set KEY=VALUE" in out and "tulosta JSON selityksen sijaan" in out


def test_import_reports_in_finnish_what_it_read_and_left_out(capsys: pytest.CaptureFixture[str]) -> None:
    i18n.set_language("fi")
    status, out = _run(capsys, "import", "chummer", str(DATA / "Combat Mage.chum"))
    assert status == 0
    first, attrs, *_rest = out.splitlines()
    assert first == "Hahmo Combat Mage (ei kirjoitettu: lisää --into SESSION.toml)"
    assert attrs.startswith("  Keh 3, Ket 4, ")
    assert "  initiatiivi (astraali): +0, 3 toimintavuoroa" in out.splitlines()  # the stored kind in words
    unmapped = out.splitlines()[-1]
    assert unmapped.startswith("Ei siirretty: Magia 5; kyvyt, jotka on sidottu ominaisuuteen")
    assert "loitsut (8): " in unmapped and "(2 lisää)" in unmapped
    # the file's own names stay as written; none of Polku's English words is left
    words = re.sub(r"\b(Banishing|Binding|Counterspelling|Spellcasting|Summoning|Etiquette|Street)\b", "", unmapped)
    assert not re.search(r"\b(spells|qualities|contacts|other gear|Magic|skills|linked|more|matrix)\b", words), unmapped


def test_the_unmapped_list_stays_english_in_json_and_in_english(capsys: pytest.CaptureFixture[str]) -> None:
    from polku.session.importers.chummer import read_chummer

    imported = read_chummer(DATA / "Combat Mage.chum")
    english = imported.unmapped_text()
    assert english.startswith("Not mapped: Magic 5; skills linked to an attribute the sheet does not hold: "
                              "Banishing (Magic), ")
    i18n.set_language("fi")
    assert imported.unmapped_text().startswith("Ei siirretty: Magia 5;")
    assert [str(x) for x in imported.unmapped][0] == "Magic 5"          # what --json writes
    status, out = _run(capsys, "import", "chummer", str(DATA / "Combat Mage.chum"), "--json")
    assert status == 0 and '"Magic 5"' in out


def test_the_intervals_help_names_the_default_in_use() -> None:
    """--intervals' help is a catalogue message with the default written in it: it must stay the default."""
    from polku.cli.common import INTERVALS_DEFAULT
    from polku.cli.odds import add_parser  # noqa: F401  (the message lives there and in roll.py)

    for module in ("odds", "roll"):
        source = (Path(__file__).parents[1] / "src" / "polku" / "cli" / f"{module}.py").read_text("utf-8")
        assert f"K intervals (default {INTERVALS_DEFAULT})" in source, module
