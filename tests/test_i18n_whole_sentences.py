"""Whole sentences, never glued from pieces (issue 25): what ``polku odds``, ``resolve`` and ``roll`` print in
Finnish is one Finnish line each, the place a refusal points to (a side, a helper, an interval) and a list of
flags included; and English stays the very text it was (scripts read it).

Each test runs the command line itself (``polku.cli.main``) and reads what it printed."""

from __future__ import annotations

import re

import pytest

from polku import i18n
from polku.cli import main


def _run(capsys: pytest.CaptureFixture[str], lang: str, *argv: str) -> tuple[int, str]:
    i18n.set_language(lang)
    try:
        status = main(list(argv))
    finally:
        i18n.set_language("en")
    out, err = capsys.readouterr()
    return status, out + err


@pytest.mark.parametrize(("argv", "finnish", "english"), [
    (("odds", "shadowrun", "8", "--edge", "3", "--extended", "5"),
     "--edge ja --extended: yksi kysymys kerrallaan", "--edge and --extended: one question at a time"),
    (("odds", "shadowrun", "8", "--edge", "3", "--extended", "5", "--helpers", "2"),
     "--edge, --extended ja --helpers: yksi kysymys kerrallaan",
     "--edge, --extended and --helpers: one question at a time"),
    (("resolve", "shadowrun", "5,6", "--edge-before", "1", "--edge-after", "1", "--long-shot", "1"),
     "--edge-before, --edge-after ja --long-shot: yksi Edge-piste testiä kohden noppiin (S7)",
     "--edge-before, --edge-after and --long-shot: one Edge point per test for dice (S7)"),
    (("resolve", "shadowrun", "5,6,2", "--helper", "7,2"),
     "auttaja 1: d6-nopassa ei voi olla silmälukua 7 (1–6)", "helper 1: face 7 cannot show on a d6 (1–6)"),
    (("resolve", "shadowrun", "5,6,2;x", "--extended", "5"),
     "aikaväli 2: 'x' ei ole silmäluku (kokonaisluku 1–6)", "interval 2: 'x' is not a face (a whole number 1–6)"),
    (("resolve", "shadowrun", "5,6;eb99:3", "--extended", "3"),
     "aikaväli 2: eb (Edge-arvo): 99 on sallitun alueen ulkopuolella (1–9)",
     "interval 2: eb (the Edge rating): 99 is out of range (from 1 to 9)"),
    (("resolve", "shadowrun", "5,6,2;eb1:6", "--extended", "5"),
     "aikaväli 2: 1 silmäluku ei riitä noppakasaan, sen Edge-noppiin ja niiden kutosen säännön noppiin (anna "
     "silmäluvut heittojärjestyksessä: silmäluvut siinä järjestyksessä kuin ne otetaan nopista: noppakasa, sitten "
     "Edge-nopat, sitten kutosen sääntö aalto kerrallaan (yksi uusi noppa kutosta kohden, pöydän järjestyksessä))",
     "interval 2: 1 face does not make a pool, its Edge dice and their rule-of-six dice (give the faces in the order "
     "rolled: faces in the order they are taken from the dice: the pool, then the Edge dice, then the rule of six "
     "wave by wave (one new die per six, in table order))"),
    (("resolve", "shadowrun-opposed", "5,6", "1,2,3", "--b-edge-before", "1", "--b-edge-after", "1"),
     "puoli B: --edge-before ja --edge-after: yksi Edge-piste testiä kohden noppiin (S7)",
     "side B: --edge-before and --edge-after: one Edge point per test for dice (S7)"),
    (("resolve", "shadowrun", "5,6,2", "--long-shot", "1", "--helper", "5,5"),
     "Long Shotissa ei ole tilannevaikutuksia, auttajien nopat mukaan lukien (S3)",
     "a Long Shot has no modifiers, helper dice included (S3)"),
    (("odds", "shadowrun", "5", "--helpers", "3,x"),
     "auttajan noppakasa: 'x' ei ole kokonaisluku (kirjoita se numeroin 0–9)",
     "a helper's pool: 'x' is not a whole number (write it with the digits 0-9)"),
    (("odds", "shadowrun", "5", "--edge", "x", "--threshold", "2"),
     "--edge (Edge-arvo): 'x' ei ole kokonaisluku (kirjoita se numeroin 0–9)",
     "--edge (the Edge rating): 'x' is not a whole number (write it with the digits 0-9)"),
    (("resolve", "shadowrun", "5,5,5;6,6;1", "--extended", "2"),
     "testi oli ohi aikavälin 1 jälkeen (valmis): 2 aikaväliä liikaa",
     "the test was over after interval 1 (done): 2 intervals too many"),
    (("resolve", "shadowrun", "5,5,5;6", "--extended", "2"),
     "testi oli ohi aikavälin 1 jälkeen (valmis): 1 aikaväli liikaa",
     "the test was over after interval 1 (done): 1 interval too many"),
    (("odds", "rajapolku", "1", "3", "--spirit"),
     "puoli A: 1 lataus: yhden latauksen sisäänpääsyn jälkeen ei jäisi yhtään (R11)",
     "side A: 1 charge: after the 1-charge entry none would remain (R11)"),
    (("resolve", "rajapolku", "3", "2", "--set", "raja.story_points=x"),
     "asetuksen 'raja.story_points' on oltava kokonaisluku 0–20, ei 'x'",
     "setting 'raja.story_points' must be a whole number 0–20, not 'x'"),
    (("resolve", "rajapolku", "3", "2", "--set", "raja.nope=1"),
     "tuntematon asetus 'raja.nope' (kelvolliset asetukset: raja.exhausted, raja.full_tie, raja.wound_penalty, "
     "raja.spirit_loss, raja.story_points, raja.default_charges, raja.degrees, raja.spirit_wounds, harha.variant, "
     "harha.classic_extra, harha.sum_difficult, sr.glitch_rerolls, sr.teamwork_cap, sr.stun_conversion, "
     "sr.stun_overflow, sr.initiative, seats.own_rolls)",
     "unknown setting 'raja.nope' (valid settings: raja.exhausted, raja.full_tie, raja.wound_penalty, "
     "raja.spirit_loss, raja.story_points, raja.default_charges, raja.degrees, raja.spirit_wounds, harha.variant, "
     "harha.classic_extra, harha.sum_difficult, sr.glitch_rerolls, sr.teamwork_cap, sr.stun_conversion, "
     "sr.stun_overflow, sr.initiative, seats.own_rolls)"),
    (("roll", "shadowrun", "5", "--extended", "0"),
     "--extended (tavoite): 0 on sallitun alueen ulkopuolella (1–10000)",
     "--extended (the threshold): 0 is out of range (from 1 to 10000)"),
])
def test_a_refusal_is_one_sentence_in_the_readers_language(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...],
                                                           finnish: str, english: str) -> None:
    """A list of flags joined with the language's own "and", the side, helper or interval named in the same
    message as the problem: the whole line Finnish, no English piece glued in (and the English line whole too)."""
    assert _run(capsys, "fi", *argv) == (2, f"polku: virhe: {finnish}\n")
    assert _run(capsys, "en", *argv) == (2, f"polku: error: {english}\n")


def test_an_extended_resolve_reads_in_finnish_interval_by_interval(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("resolve", "shadowrun", "5,6,2;h:3,3,1;eb2:5,5,1,1", "--extended", "5")
    status, out = _run(capsys, "fi", *argv)
    assert status == 0
    assert out.splitlines()[:4] == [
        "Varjojuoksu, pidennetty testi: 4/5 osumaa 3 aikavälin jälkeen — kesken",
        "  aikaväli 1 (tavoite 5): 2 osumaa",
        "  aikaväli 2 (tavoite 5, hätiköity): 0 osumaa",
        "  aikaväli 3 (tavoite 5): 2 osumaa, kämmi (2 osumaa)"]
    status, out = _run(capsys, "en", *argv)
    assert out.splitlines()[:4] == [
        "Shadowrun extended: 4/5 hits after 3 intervals — in progress",
        "  interval 1 (threshold 5): 2 hits",
        "  interval 2 (threshold 5, hurried): 0 hits",
        "  interval 3 (threshold 5): 2 hits, glitch (2 hits)"]


def test_a_rolled_teamwork_and_spirit_fight_read_in_finnish(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("roll", "shadowrun", "5", "--helpers", "3,3", "--seed", "2")
    _status, out = _run(capsys, "fi", *argv)
    assert out.splitlines()[:5] == ["siemen: 2", "auttaja 1 heitti: 1,1,1", "auttaja 2 heitti: 3,2,6",
                                    "A heitti: 6,3,3,5,2,5", "Varjojuoksu: 3 osumaa"]
    assert "  auttajien osumat: 0, 1 → +1 noppa päätekijälle (S11)" in out.splitlines()
    assert out.splitlines()[-1] == "uudelleen: polku roll shadowrun 5 --seed 2 --helpers 3,3"
    _status, out = _run(capsys, "en", *argv)
    assert out.splitlines()[:5] == ["seed: 2", "rolled helper 1: 1,1,1", "rolled helper 2: 3,2,6",
                                    "rolled A: 6,3,3,5,2,5", "Shadowrun: 3 hits"]
    assert "  helpers' hits: 0, 1 → +1 dice for the leader (S11)" in out.splitlines()

    argv = ("roll", "raja", "3", "3", "--spirit", "--seed", "4")
    _status, out = _run(capsys, "fi", *argv)
    assert out.splitlines()[4] == ("vaihto 1: A 4,5 vastaan B 2,7 — B voittaa, 1 aste; A menettää 1 latauksen, "
                                   "voittaja ei mitään (A 1, B 2 jäljellä) (R11)")
    _status, out = _run(capsys, "en", *argv)
    assert out.splitlines()[4] == ("exchange 1: A 4,5 vs B 2,7 — B wins, 1 degree; A loses 1 charge, the winner "
                                   "nothing (A 1, B 2 left) (R11)")


ENGLISH = re.compile(r"\b(side|helpers?|interval|hits?|threshold|hurried|and|rolled|seed|again|exchange|wins|"
                     r"charges?|left|dice|die|leader|difficult|demanding|failure|success|spirit|combat|stopped)\b")


@pytest.mark.parametrize("argv", [
    ("resolve", "shadowrun", "5,6,2;h:3,3,1;eb2:5,5,1,1", "--extended", "5"),
    ("resolve", "shadowrun", "5,6,2,1", "--helper", "5,2", "--helper", "6,6", "--leader-skill", "1",
     "--set", "sr.teamwork_cap=skill"),
    ("roll", "shadowrun", "5", "--extended", "4", "--seed", "3"),
    ("roll", "shadowrun", "5", "--helpers", "3,3", "--seed", "2"),
    ("roll", "rajapolku", "3", "3", "--spirit", "--seed", "4", "--wound", "Haavoittunut", "--set",
     "raja.spirit_wounds=true"),
    ("roll", "harhapolku", "2d8", "2d8", "--seed", "1", "--difficult"),
    ("roll", "harhapolku", "2d8", "2d8", "--seed", "1", "--very-demanding"),
], ids=" ".join)
def test_resolve_and_roll_leave_no_english_piece_in_finnish(capsys: pytest.CaptureFixture[str],
                                                             argv: tuple[str, ...]) -> None:
    status, out = _run(capsys, "fi", *argv)
    assert status == 0, out
    words = [re.sub(r"--[a-z-]+|\b[a-z_]+\.[a-z_]+(=\w+)?|polku roll .*", "", line) for line in out.splitlines()]
    assert not [w for w in words if ENGLISH.search(w)], out


def test_the_resolve_verbs_help_is_whole_finnish(capsys: pytest.CaptureFixture[str]) -> None:
    """The faces' help of ``polku resolve`` is one catalogue message per argument, not English glued to a
    translated piece."""
    for system, finnish in (("shadowrun", "pilkuin erotetut d6-silmäluvut, esim. 1,1,5,6, siinä järjestyksessä"),
                            ("rajapolku", "puolen A (toimija) silmäluvut"),
                            ("harhapolku", "puolen B (kyseenalaistaja) silmäluvut samalla tavalla"),
                            ("shadowrun-opposed", "puolen A d6-silmäluvut siinä järjestyksessä")):
        status, out = _run(capsys, "fi", "resolve", system, "--help")
        assert status == 0 and finnish in " ".join(out.split()), out
        assert not re.search(r"\b(faces|comma-separated|side)\b", out.split("asetukset (--set")[0]), out
        assert "JSON-avaimet: system" in out and "JSON keys" not in out, out
        assert "a whole number" not in out, out
    status, out = _run(capsys, "fi", "roll", "--help")
    assert "  raja.story_points     kokonaisluku 0–20; oletus 3 (R12)" in out, out
    assert "vain harhapolku: vertailu" in " ".join(out.split()), out
    assert "noppakasat:\n  rajapolku   '3' (kolme d10-noppaa)" in out and "JSON keys" not in out, out
    for system in ("rajapolku", "harhapolku", "shadowrun", "shadowrun-opposed"):
        status, out = _run(capsys, "fi", "odds", system, "--help")
        assert "JSON-avaimet: system" in out and "JSON keys" not in out, out


def test_and_list_joins_with_the_languages_and() -> None:
    assert i18n.and_list([]) == "" and i18n.and_list(["a"]) == "a"
    assert i18n.and_list(["a", "b", "c"]) == "a, b and c"
    i18n.set_language("fi")
    try:
        assert i18n.and_list(["a", "b", "c"]) == "a, b ja c"
    finally:
        i18n.set_language("en")


def test_a_broken_theme_file_is_told_in_finnish_the_parsers_words_kept(tmp_path, monkeypatch) -> None:
    """The sentence around the TOML parser's message (and each problem of a theme file) is a whole Finnish
    one; the parser's own words (line and column) stay as the parser gives them."""
    from polku.tui.themes import load_user_themes

    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "themes"
    folder.mkdir()
    (folder / "bad.toml").write_text('name = "x"\nprimary = \n', encoding="utf-8")
    (folder / "odd.toml").write_text('name = "y"\nprimary = "#5fafd7"\naccent = "blurple"\nwhat = 1\n', encoding="utf-8")
    (folder / "bin.toml").write_bytes(b'name = "\xff"\n')
    i18n.set_language("fi")
    try:
        _themes, errors = load_user_themes([folder])
    finally:
        i18n.set_language("en")
    told = {path.name: message for path, message in errors}
    assert told["bad.toml"].startswith("themes/bad.toml: ei kelvollista TOMLia: Invalid value (at line 2, column 11)")
    assert told["bin.toml"] == "themes/bin.toml: ei kelvollista TOMLia: tiedosto ei ole UTF-8-tekstiä"
    odd = [m for p, m in errors if p.name == "odd.toml"]
    assert "themes/odd.toml: accent: 'blurple' ei ole väri" in odd
    assert "themes/odd.toml: what: tuntematon avain (teeman muuttuja kuuluu osioon [variables])" in odd
    _themes, errors = load_user_themes([folder])
    assert "themes/odd.toml: accent: 'blurple' is not a colour" in [m for _p, m in errors]


def test_preferences_not_saved_say_so_in_finnish_with_the_oss_reason(tmp_path, monkeypatch) -> None:
    from polku.config import save_config

    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the config folder should be")
    monkeypatch.setenv("POLKU_CONFIG_DIR", str(blocker / "polku"))
    monkeypatch.setenv("POLKU_STATE_DIR", str(blocker / "state"))
    i18n.set_language("fi")
    try:
        error = save_config({"theme": "polku-dark"})
    finally:
        i18n.set_language("en")
    assert error == f"Asetuksia ei voitu tallentaa tiedostoon {blocker / 'polku' / 'config.toml'}: Not a directory"


@pytest.mark.parametrize(("problems", "backup", "finnish"), [
    (["seq 4: bad"], None, "seq 4: bad; avattu vain luku -tilassa, joten mitään ei kirjoiteta"),
    (["seq 4: bad", "seq 5: bad"], None, "seq 4: bad (ja 1 muu); avattu vain luku -tilassa, joten mitään ei kirjoiteta"),
    (["seq 4: bad", "seq 5: bad", "seq 6: bad"], "s.toml.bak",
     "seq 4: bad (ja 2 muuta); avattu vain luku -tilassa, joten mitään ei kirjoiteta; edellinen ehjä tiedosto on "
     "s.toml.bak"),
])
def test_a_damaged_files_notice_is_one_sentence(problems: list[str], backup: str | None, finnish: str) -> None:
    """The GM app's notice of broken events: how many more and the previous good file inside one message."""
    from pathlib import Path

    from polku.tui.app import _broken_line

    english = _broken_line(problems, Path(backup) if backup else None)
    assert english.startswith("seq 4: bad") and "opened read-only so nothing is written" in english
    i18n.set_language("fi")
    try:
        assert _broken_line(problems, Path(backup) if backup else None) == finnish
    finally:
        i18n.set_language("en")
