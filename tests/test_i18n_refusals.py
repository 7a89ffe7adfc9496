"""Refusals and reasons a user reads, in Finnish: the roll screen's follow-up hints (the rules core's action
reasons, shown through ``i18n.shown``) and the one-line error of a session file Polku cannot open. English stays
the very line it was (the command line and the file keep it)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from polku import i18n
from polku.cli import main
from polku.rules.actions import Action, roll_actions
from polku.rules.dice import ManualSource
from polku.rules.rajapolku import SpiritFight
from polku.rules.shadowrun import ExtendedTest, SRRoll, roll
from polku.session.files import SessionOpenError, open_session
from polku.session.integrity import check_numbering, check_tree
from polku.session.model import StateError
from polku.session.store.format import SCHEMA
from polku.session.validation import check_state


@pytest.fixture
def finnish() -> Iterator[None]:
    i18n.set_language("fi")
    try:
        yield
    finally:
        i18n.set_language("en")


def _reason(actions: tuple[Action, ...], name: str) -> str:
    return next(str(a.reason) for a in actions if a.name == name)


def _shown(actions: tuple[Action, ...], name: str) -> str:
    return next(i18n.shown(a.reason) for a in actions if a.name == name)


def _extended(faces: list[int], threshold: int) -> tuple[SRRoll, ExtendedTest]:
    test = ExtendedTest(threshold).add(roll(len(faces), ManualSource(faces)))
    return test.history[-1], test


def test_the_next_interval_hint_in_english_is_the_line_it_was() -> None:
    roll, test = _extended([5, 6, 2], 6)
    acts = roll_actions("sr-extended", roll=roll, edge_left=1, edge_rating=2, extended=test)
    assert _reason(acts, "next_interval") == "roll the next interval: 2/6 so far (S10)"
    roll, done = _extended([5, 6], 1)
    acts = roll_actions("sr-extended", roll=roll, edge_left=1, edge_rating=2, extended=done)
    assert _reason(acts, "next_interval") == "the test is over: done (S10)"
    assert _reason(roll_actions("sr-success", pool=12, edge_rating=2, edge_left=1), "buy_hits") == (
        "the GM's call for a large pool: 3 hits, no roll, no glitch (S4)")


def test_a_finnish_roll_screen_reads_the_next_interval_hint_in_finnish(finnish: None) -> None:
    roll, test = _extended([5, 6, 2], 6)
    acts = roll_actions("sr-extended", roll=roll, edge_left=1, edge_rating=2, extended=test)
    assert _shown(acts, "next_interval") == "heitä seuraava aikaväli: tähän mennessä 2/6 (S10)"
    assert _reason(acts, "next_interval") == "roll the next interval: 2/6 so far (S10)"  # a seat's answer keeps it
    roll, done = _extended([5, 6], 1)
    acts = roll_actions("sr-extended", roll=roll, edge_left=1, edge_rating=2, extended=done)
    assert _shown(acts, "next_interval") == "testi on ohi: valmis (S10)"


def test_a_finnish_spirit_fight_hint_names_the_charges_in_finnish(finnish: None) -> None:
    acts = roll_actions("raja-spirit", fight=SpiritFight(3, 2))
    assert _shown(acts, "next_exchange") == (
        "heitä jäljellä olevat lataukset: 3 vastaan 2 noppaa, ei uutta aloituslatausta (R11)")
    assert _reason(acts, "next_exchange") == "roll the charges left: 3 vs 2 dice, no new entry charge (R11)"


def _too_new(tmp_path: Path) -> Path:
    path = tmp_path / "later.toml"
    path.write_text("schema = 99\n", encoding="utf-8")
    return path


def test_opening_a_too_new_file_says_so_in_finnish_on_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], finnish: None) -> None:
    """``POLKU_LANG=fi polku later.toml``: the GM reads the one-line error in Finnish, the file's path as it is."""
    path = _too_new(tmp_path)
    monkeypatch.setenv("POLKU_LANG", "fi")
    monkeypatch.setenv("TEXTUAL_DRIVER", "headless")  # past the terminal check; the file fails before the app starts
    assert main([str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (f"polku: virhe: {path} on kirjoitettu uudemmalla Polulla (schema 99); tämä versio lukee schema ≤ "
                   f"{SCHEMA} — päivitä Polku\n")
    assert path.read_text(encoding="utf-8") == "schema = 99\n"


def test_opening_a_too_new_file_in_english_is_the_line_it_was(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    path = _too_new(tmp_path)
    monkeypatch.setenv("TEXTUAL_DRIVER", "headless")
    assert main([str(path)]) == 2
    assert capsys.readouterr().err == (f"polku: error: {path} was written by a newer Polku (schema 99); this version "
                                       f"reads schema ≤ {SCHEMA} — upgrade Polku\n")


@pytest.mark.parametrize(("text", "finnish_line"), [
    ("schema = 2\n", "{path}: avain 'snapshot_seq' puuttuu; korjaa se tekstieditorissa"),
    ("schema = 2\nsnapshot_seq = 0\n[state]\n[[event]]\nkind = 'x'\n",
     "{path}: tapahtumalla 1 (rivi 4) ei ole avainta 'seq'; korjaa se tekstieditorissa"),
    ("schema = [", "{path}: virheellistä TOMLia rivillä 1"),
    ("schema = 1\n[[character]]\nname = 'Aino'\n", "{path}: hahmolla 1 ei ole avainta 'id'"),
])
def test_a_corrupt_file_is_told_in_finnish(tmp_path: Path, text: str, finnish_line: str, finnish: None) -> None:
    path = tmp_path / "broken.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SessionOpenError) as e:
        open_session(path)
    told = i18n.told_error(e.value)
    assert told.startswith(finnish_line.format(path=path)), told
    i18n.set_language("en")
    assert i18n.told_error(e.value) == str(e.value)


@pytest.mark.parametrize(("check", "english", "finnish_line"), [
    (lambda: check_numbering([1, 3], 0), "event 3 follows event 1: a gap in the log (event 2 missing)",
     "tapahtuma 3 seuraa tapahtumaa 1: lokissa on aukko (tapahtuma 2 puuttuu)"),
    (lambda: check_state({}), "state.campaign: missing", "state.campaign: puuttuu"),
    (lambda: check_state({"campaign": 5}), "state.campaign: expected a table, found int 5",
     "state.campaign: pitäisi olla taulukko, löytyi int 5"),
    (lambda: check_tree({"a": {1: 2}}, ["state"]), "state.a: a key 1 is not text", "state.a: avain 1 ei ole tekstiä"),
])
def test_a_damaged_state_is_told_in_finnish(check: Callable[[], object], english: str, finnish_line: str,
                                            finnish: None) -> None:
    """What the integrity and shape checks find, as the GM reads it after the file's path."""
    with pytest.raises(StateError) as e:
        check()
    assert str(e.value) == english
    assert i18n.told_error(e.value) == finnish_line


@pytest.mark.parametrize(("argv", "english", "finnish"), [
    (["roll", "rajapolku", "3", "--seed", "1"], "rajapolku needs two pools: polku roll rajapolku POOL_A POOL_B",
     "rajapolku tarvitsee kaksi noppakasaa: polku roll rajapolku POOL_A POOL_B"),
    (["roll", "shadowrun", "5", "4", "--hurried", "--seed", "1"], "--hurried is for an extended test (S10)",
     "--hurried on pidennettyä testiä varten (S10)"),
    (["resolve", "shadowrun", "5,6", "--edge-before", "1", "--edge-after", "1"],
     "--edge-before and --edge-after: one Edge point per test for dice (S7)",
     "--edge-before ja --edge-after: yksi Edge-piste testiä kohden noppiin (S7)"),
])
def test_polku_roll_and_resolve_refuse_in_the_users_language(
        argv: list[str], english: str, finnish: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``polku resolve``/``roll``'s own refusals: English byte for byte, Finnish with POLKU_LANG=fi."""
    assert main(argv) == 2
    assert capsys.readouterr().err == f"polku: error: {english}\n"
    i18n.set_language("fi")
    try:
        assert main(argv) == 2
        assert capsys.readouterr().err == f"polku: virhe: {finnish}\n"
    finally:
        i18n.set_language("en")


def test_polku_verify_refuses_a_foreign_transcript_in_finnish(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                            finnish: None) -> None:
    from polku.session.players.transcript import TRANSCRIPT_FORMAT

    path = tmp_path / "other.json"
    path.write_text('{"format": "something else"}', encoding="utf-8")
    assert main(["verify", str(path)]) == 2
    assert capsys.readouterr().err == (
        f'polku: virhe: {path}: ei Polun noppapöytäkirja (ei "format": "{TRANSCRIPT_FORMAT}")\n')


def test_an_odds_question_out_of_bounds_is_refused_in_finnish(finnish: None) -> None:
    """The odds core's refusal (``str`` of a RulesError is told in the language in use; its English stays in args)."""
    from polku.rules.dice import RulesError
    from polku.rules.odds import sr_edge_odds
    from polku.rules.system import Settings

    with pytest.raises(RulesError) as e:
        sr_edge_odds(6, 25, 2, Settings())
    assert str(e.value) == "Edge-arvon on oltava 1–20, ei 25"
    assert e.value.args[0] == "Edge rating must be 1 to 20, not 25"


def test_a_crash_notice_reads_in_finnish_on_the_gms_screen(tmp_path: Path, finnish: None) -> None:
    """The notice the app shows after a torn tail (``i18n.shown``, as ``PolkuApp`` notifies it); English kept."""
    from polku.session.store.load import Repaired

    path = tmp_path / "s.toml"
    note = Repaired(b"", dropped=2, problem="bad TOML at line 9").notice(path)
    assert note == f"{path}: the last 2 events were cut off by a crash and dropped (bad TOML at line 9)"
    assert i18n.shown(note) == (f"{path}: viimeiset 2 tapahtumaa katkesivat kaatumisen vuoksi ja pudotettiin "
                                "(bad TOML at line 9)")


def test_the_app_shows_a_start_notice_in_finnish(tmp_path: Path, finnish: None) -> None:
    """``polku FILE`` hands the app its notices (a torn tail...): the Finnish GM's app notifies them in Finnish."""
    import asyncio

    from app_fixtures import APP_CLOCK_START, THEMES, until
    from polku.session import demo
    from polku.session.store.load import Repaired
    from polku.tui.app import PolkuApp

    path = tmp_path / "s.toml"
    note = Repaired(b"", dropped=1).notice(path)
    app = PolkuApp(None, None, sessions_dir=tmp_path, theme_dirs=[THEMES], remember=False,
                   clock=demo.fixed_clock(APP_CLOCK_START), seed=5, notices=[note])

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: list(app._notifications), "the start notice")
            assert [str(n.message) for n in app._notifications] == [
                f"{path}: viimeinen tapahtuma katkesi kaatumisen vuoksi ja pudotettiin"]

    asyncio.run(run())


def test_a_seat_for_a_character_the_session_has_not_is_refused_in_finnish(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``polku play FILE --as NAME`` with a name no public character has: the players' characters named, in the
    user's language (the names as the campaign writes them)."""
    from polku.session import demo, store
    from polku.session.files import document
    from polku.session.players.players_file import publish

    t = demo.demo_varjojuoksu()
    path = tmp_path / "night.toml"
    store.write_full(path, document(t.state, t.events, t.last_seq()))
    publish(path, t)
    argv = ["play", str(path), "--as", "Nobody"]
    assert main(argv) == 2
    english = capsys.readouterr().err
    assert english.startswith("polku: error: no character 'Nobody' in Neo-Helsinki") and "Kaneda" in english
    i18n.set_language("fi")
    try:
        assert main(argv) == 2
        finnish = capsys.readouterr().err
    finally:
        i18n.set_language("en")
    assert finnish.startswith("polku: virhe: hahmoa 'Nobody' ei ole kampanjassa Neo-Helsinki")
    assert "(pelaajien hahmot: " in finnish and "Kaneda" in finnish and "players'" not in finnish


def test_an_armour_penetration_typed_wrong_is_refused_in_finnish(finnish: None) -> None:
    from polku.rules.dice import RulesError
    from polku.rules.shadowrun import parse_ap

    with pytest.raises(RulesError) as e:
        parse_ap("seven")
    assert i18n.told_error(e.value) == "AP:n on oltava luku kuten −2 tai +2, tai −half, ei 'seven'"
