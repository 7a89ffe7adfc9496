"""Polku in Finnish and English: the catalogue is complete and current, the language is chosen in
the documented order, and the app switches at once.

The catalogue tests extract the marked messages from src with Babel, in-process (as
``pybabel extract -F babel.cfg`` does), and compare them with the Finnish ``.po``; the
``.mo`` the app reads is committed, so a test checks that it says what the ``.po`` says.
"""

from __future__ import annotations

import gettext
import re
import string
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po
from textual.widgets import OptionList

from app_fixtures import demo_session, make_app, pilot_test, press, until
from polku import config, i18n
from polku.session import records

REPO = Path(__file__).resolve().parents[1]
SRC = REPO / "src" / "polku"
PO = SRC / "locale" / "fi" / "LC_MESSAGES" / "polku.po"
MO = PO.with_suffix(".mo")


def _extracted() -> dict[str, str | tuple[str, ...]]:
    """Every marked message in src, by its msgid (the singular of a plural)."""
    found: dict[str, str | tuple[str, ...]] = {}
    for _file, _line, message, _comments, _context in extract_from_dir(
            str(SRC), method_map=[("**.py", "python")]):
        key = message[0] if isinstance(message, tuple) else message
        if key:
            found[key] = message
    return found


def _catalogue():
    with PO.open("rb") as file:
        return read_po(file, locale="fi")


def _key(message_id: str | tuple[str, ...]) -> str:
    return message_id[0] if isinstance(message_id, tuple) else message_id


def test_every_marked_message_has_a_finnish_translation() -> None:
    catalogue = _catalogue()
    translated = {_key(m.id): m for m in catalogue if m.id}
    missing = []
    for key in _extracted():
        entry = translated.get(key)
        strings = entry.string if entry is not None else ""
        if entry is None or entry.fuzzy or not all(strings if isinstance(strings, tuple) else [strings]):
            missing.append(key)
    assert not missing, f"{len(missing)} messages have no Finnish translation (update the .po): {missing[:10]}"


def test_no_catalogue_entry_is_left_unused() -> None:
    used = set(_extracted())
    stale = [_key(m.id) for m in _catalogue() if m.id and _key(m.id) not in used]
    assert not stale, f"{len(stale)} catalogue entries are no longer in src (drop them from the .po): {stale[:10]}"


def _fields(text: str) -> set[str]:
    return {name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name is not None}


def test_translations_keep_the_placeholders() -> None:
    """A translation that drops or renames ``{name}`` would show the wrong words, or fail at show time."""
    wrong = []
    for m in _catalogue():
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        want = set().union(*(_fields(i) for i in ids))
        for s in strings:
            got = _fields(s)
            if got - want or (not isinstance(m.id, tuple) and got != want):
                wrong.append((ids[0], s))
    assert not wrong, wrong[:5]


def test_the_committed_mo_says_what_the_po_says() -> None:
    """The app reads the .mo (committed, so that an editable install and a wheel both have it)."""
    with MO.open("rb") as file:
        mo = gettext.GNUTranslations(file)
    for m in _catalogue():
        if not m.id or m.fuzzy:
            continue
        if isinstance(m.id, tuple):
            for n, form in ((1, m.string[0]), (2, m.string[1])):
                assert mo.ngettext(m.id[0], m.id[1], n) == form, f"the .mo is stale at {m.id[0]!r}: recompile it"
        elif m.context:
            assert mo.pgettext(m.context, m.id) == m.string, f"the .mo is stale at {m.id!r}: recompile it"
        else:
            assert mo.gettext(m.id) == m.string, f"the .mo is stale at {m.id!r}: recompile it"


def test_game_terms_follow_the_glossary() -> None:
    """A few of docs/glossary.md's terms, as a player reads them in the app."""
    i18n.set_language("fi")
    assert i18n._("Characters") == "Hahmot"
    assert i18n._("Healthy") == "Terve"
    assert i18n._("Badly wounded") == "Pahasti haavoittunut"
    assert i18n._("Challenges") == "Haasteet"
    assert i18n._("edges") == "terät"
    assert i18n._("charges") == "lataukset"
    assert "kämmi" in i18n._("1 Edge negates a glitch (S5)")
    assert i18n.ngettext("{n} pass", "{n} passes", 1) == "1 vuoro"
    assert i18n.ngettext("{n} pass", "{n} passes", 3) == "3 vuoroa"
    assert i18n._("One more initiative pass") == "Yksi toimintavuoro lisää"
    assert i18n._("{name} has no condition monitors", name="Nyx") == "hahmolla Nyx ei ole vauriomittareita"
    assert i18n._("harmed in the narration contest") == "vahingoittui kertojan roolin anastamisessa"
    assert "kyseenalaistaja" in i18n._("side B: the challenger rolls one die in the sum variant (H6): write COUNT+ROLL")
    assert i18n._("a specification needs a name") == "tarkennus tarvitsee nimen"
    assert "olosuhde-" in i18n._("a wound removes a condition, background or ability die, not '{kind}' (R9)", kind="x")
    assert i18n._("story {n}", n=2) == "tarinap. 2"  # story points, not the story's number ("tarina 1")
    i18n.set_language("en")
    assert i18n.ngettext("{n} pass", "{n} passes", 3) == "3 passes"
    assert i18n._("Healthy") == "Healthy"


# -- which language --------------------------------------------------------------------


@pytest.mark.parametrize("configured, env, lang", [
    ("fi", {"POLKU_LANG": "en", "LANG": "en_GB.UTF-8"}, "fi"),     # the preference first
    ("en", {"POLKU_LANG": "fi", "LANG": "fi_FI.UTF-8"}, "en"),
    (None, {"POLKU_LANG": "fi", "LANG": "en_US.UTF-8"}, "fi"),     # then POLKU_LANG
    (None, {"POLKU_LANG": "en", "LANG": "fi_FI.UTF-8"}, "en"),
    (None, {"LANG": "fi_FI.UTF-8"}, "fi"),                         # then the locale
    (None, {"LC_ALL": "en_US.UTF-8", "LANG": "fi_FI.UTF-8"}, "en"),  # LC_ALL over LANG
    (None, {"LC_MESSAGES": "fi_FI", "LANG": "C"}, "fi"),
    (None, {"LANG": "de_DE.UTF-8"}, "en"),                         # a language Polku lacks: English
    (None, {}, "en"),
    ("klingon", {"POLKU_LANG": "nope", "LANG": "fi_FI.UTF-8"}, "fi"),  # unknown values are passed over
])
def test_language_is_the_preference_then_polku_lang_then_the_locale(configured, env, lang) -> None:
    assert i18n.choose(configured, env) == lang


def test_the_remembered_language_wins_over_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("POLKU_CONFIG_DIR", str(tmp_path))
    monkeypatch.setenv("POLKU_LANG", "en")
    assert config.use_language() == "en"
    assert config.remember_language("fi") is None
    assert config.use_language() == "fi"
    assert i18n._("Characters") == "Hahmot"
    assert 'language = "fi"' in (tmp_path / "config.toml").read_text("utf-8")


# -- in the app ------------------------------------------------------------------------


def _key_line(app) -> str:
    from polku.tui.widgets.keyline import KeyLine

    return app.screen.query_one(KeyLine).render().plain


@pilot_test
async def test_switching_language_in_the_palette_redraws_at_once(tmp_path: Path) -> None:
    tracker, sf = demo_session(tmp_path, "rajapolku")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "Roll" in _key_line(app), "the English key line")
        await press(pilot, "ctrl+p")
        for key in "kieli":
            await pilot.press(key)
        await until(pilot, lambda: "suomi" in str(app.screen.query("CommandList").first(OptionList).get_option_at_index(0).prompt)
                    if app.screen.query("CommandList") and app.screen.query("CommandList").first(OptionList).option_count
                    else False, "the palette's language entry")
        await press(pilot, "enter")
        await until(pilot, lambda: "Heitä" in _key_line(app), "the Finnish key line")
        assert i18n.language() == "fi"
        assert str(app.screen.query_one("#chars-title").render()) == "Hahmot"
        assert "tarina 1" in str(app.screen.query_one("#status-line").render())
        # and back, from the settings (S, then the last row)
        await press(pilot, "S")
        await press(pilot, "end", "enter")
        await until(pilot, lambda: i18n.language() == "en", "English again")
        await press(pilot, "escape")
        await until(pilot, lambda: "Roll" in _key_line(app), "the English key line again")
        assert str(app.screen.query_one("#chars-title").render()) == "Characters"


# -- a wound track in the rule text's Finnish (R9) -----------------------------------------

FINNISH_TRACK = ["Terve", "Mustelmilla", "Haavoittunut", "Pahasti haavoittunut", "Kuollut"]


def test_a_wound_track_named_in_finnish_is_a_track_of_r9_levels() -> None:
    """R9's levels are places in its list; the names are the campaign's labels, kept as written."""
    from polku.rules import rajapolku as raja
    from polku.session import model
    from polku.session.rolls import RajaSide
    from polku.session.tracker import Tracker

    t = Tracker.new("rajapolku", "Tampereen yö", wound_track=FINNISH_TRACK, seed=3)
    model.validate_state(t.state)
    ch = records.raja(t.add_character("Alyosha"))
    assert ch["wound"] == "Terve"                       # the track's first level, by its name
    t.move_wound(ch["id"], 2)
    assert records.raja(t.character(ch["id"]))["wound"] == "Haavoittunut"
    assert t.wound_penalty(ch["id"]) == 1               # R9: Wounded, −1 die
    plan = t.rolls.raja_plan(RajaSide("A", who=[ch["id"]], backgrounds=["Miliisi"]))
    assert len(plan.dice) == 1 and plan.penalty == 1    # the background die goes, the action die stays
    t.move_wound(ch["id"], 1)
    assert t.wound_penalty(ch["id"]) == 2
    assert "hospital" in t.events[-1]["text"]           # Badly wounded: worsens without care
    t.move_wound(ch["id"], 1)
    assert raja.is_fallen(records.raja(t.character(ch["id"]))["wound"])


def test_a_wound_track_level_that_is_no_r9_level_is_still_refused() -> None:
    from polku.session import model
    from polku.session.tracker import Tracker

    t = Tracker.new("rajapolku", "x", seed=3)
    t.state["wound_track"] = ["Terve", "Naarmuilla", "Kuollut"]
    with pytest.raises(model.StateError, match="'Naarmuilla' is not an R9 level"):
        model.validate_state(t.state)


def test_wound_level_names_are_shown_as_the_campaign_writes_them() -> None:
    from polku.text import wound_label

    i18n.set_language("fi")
    assert wound_label("Badly wounded") == "Pahasti haavoittunut"   # R9's name: translated
    assert wound_label("Haavoittunut") == "Haavoittunut"            # the campaign's: as written
    i18n.set_language("en")
    assert wound_label("Haavoittunut") == "Haavoittunut"


def test_translations_keep_the_edges_of_the_text() -> None:
    """Leading spaces, a leading or trailing newline: pieces are laid out around them (a row's indent)."""
    wrong = []
    for m in _catalogue():
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        for s in strings:
            i = ids[0]
            lead = len(i) - len(i.lstrip(" \n")), len(s) - len(s.lstrip(" \n"))
            if i[: lead[0]] != s[: lead[1]] or i.endswith("\n") != s.endswith("\n") or i.endswith(" ") != s.endswith(" "):
                wrong.append((i, s))
    assert not wrong, wrong[:5]


def test_the_command_line_help_and_errors_speak_the_users_language(tmp_path: Path) -> None:
    """POLKU_LANG (or the locale): the headless command line does not read the preferences, which
    would cost `polku --help` some 40% of its start (platformdirs, pathlib, the TOML reader)."""
    import os
    import subprocess
    import sys

    env = dict(os.environ, POLKU_LANG="fi", POLKU_CONFIG_DIR=str(tmp_path))
    out = subprocess.run([sys.executable, "-m", "polku", "--help"], env=env, capture_output=True, text=True)
    assert out.stdout.startswith("käyttö: polku") and "avattava sessiotiedosto" in out.stdout
    bad = subprocess.run([sys.executable, "-m", "polku", "resolve", "klingon", "1", "2"], env=env,
                         capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.startswith("polku: virhe: tuntematon järjestelmä 'klingon'")
    env["POLKU_LANG"] = "en"
    out = subprocess.run([sys.executable, "-m", "polku", "--help"], env=env, capture_output=True, text=True)
    assert out.stdout.startswith("usage: polku")


GLOSSARY = {
    # English in a message → the rule texts' word (its stem) in the translation (docs/glossary.md)
    r"(?<!{)\bglitch": "kämm",  # not a {glitch} placeholder
    r"\bchallenges?\b": "haaste",
    r"\bcharges?\b": "lata",
    r"\bstory points?\b": "tarinapiste",
    r"(?<![-{])\bthreshold\b(?! test)(?!})": "tavoit",  # tavoite, tavoitteen
    r"\bnet hits?\b": "netto-osum",
    r"\bteamwork\b": "ryhmätest",
    r"\bextended test\b": "pidennet",
    r"\bspirit combat\b": "henkitaistelu",
    r"\bedge reroll": "ter",
    r"\bdegrees\b": "aste",
    r"\bcondition (?:die|dice)\b|\bremoves a condition\b": "olosuhde",  # olosuhdenoppa (R:37)
    r"\bsupernatural\b": "yliluonnolli",  # yliluonnollinen piirre (R:49)
    r"\bnarration contest": "anasta",  # kertojan roolin anastaminen (H:27)
    r"\bchallenger\b": "kyseenalaista",  # kyseenalaistaja (H:46, H:50)
    r"\bspecification": "tarken",  # tarkennus (H:58)
    r"\bconflict\b": "kiista",  # kiistatilanne (H:42)
    r"(?<!-)\bhurried\b": "hätiköi",  # V:17 "hätiköiden"; not the --hurried option's name
    r"\bdefaulting\b": "defaulting",  # V:8
    r"\bcondition monitors?\b": "vauriomittar",
    r"\binitiative pass|\bbefore this pass\b": "toimintavuoro",  # not "initiatiivivuoro", not "kierros"
    r"\bdamage resistance\b": "sieto",  # sietotesti, sietoheitto
    r"\bdice secret\b.*\bsession\b": "sessio",  # the game session, not "istunto"
}

NOT_THE_TEXTS_WORDS = ("tiimity", "vedoa", "initiatiivivuoro", "vahinkomittar", "kerronnan kilpailu",
                       "roolin kilpailu", "haastaja", "nopalla d", "pois taistelusta")
"""Words a review found in the catalogue in place of the rule texts' (or wrong Finnish: "Vedoa" for "Vetoa")."""


def test_the_catalogue_uses_the_glossarys_words() -> None:
    """Wherever a message names one of these game terms, the Finnish names it with the rule texts' word (in its
    words, not in a placeholder's name)."""
    import re

    wrong = []
    for m in _catalogue():
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        if ids[0].startswith("JSON keys"):
            continue  # --help's list of JSON key names ("supernatural", "hits"): English in every language
        for pattern, stem in GLOSSARY.items():
            if re.search(pattern, ids[0], re.I) and not all(stem in re.sub(r"{\w*}", "", s).lower() for s in strings):
                wrong.append((ids[0], stem))
    assert not wrong, wrong[:20]
    found = [(word, _key(m.id)) for m in _catalogue() if m.id
             for word in NOT_THE_TEXTS_WORDS
             if word in (m.string if isinstance(m.string, str) else " ".join(m.string)).lower()]
    assert not found, found[:20]


@pytest.mark.parametrize(("verb", "finnish"), [
    ("export", "Kirjoita sessioraportti"), ("watch", "Vain luku -näkymä"), ("play", "Pelaajien näkymä"),
    ("review", "Avaa tallennettu sessio"), ("new", "Käynnistä sovellus uuden kampanjan"),
    ("odds", "tarkat todennäköisyydet"), ("roll", "Heitä kasat ohjelman nopilla"), ("resolve", "Ratkaise jo heitetyt"),
    ("serve", "Tarjoa pelaajien näkymä"), ("import", "Lue Chummer 4"), ("verify", "paluuarvo"),
])
def test_a_verbs_help_speaks_the_users_language(verb: str, finnish: str) -> None:
    """``polku VERB --help`` of the verbs the players and the report use, in Finnish with POLKU_LANG=fi."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "POLKU_LANG": "fi"}
    out = subprocess.run([sys.executable, "-m", "polku", verb, "--help"], env=env, capture_output=True, text=True)
    assert out.returncode == 0 and finnish in " ".join(out.stdout.split()), out.stdout


@pilot_test
async def test_switching_language_redraws_the_open_character_sheet(tmp_path: Path) -> None:
    """The sheet open over the main screen: its rows and hint follow a language switched in the app."""
    from app_fixtures import screen_text
    from polku.tui.app import switch_language
    from polku.tui.screens.character import CharacterDetail

    i18n.set_language("en")
    tracker, sf = demo_session(tmp_path, "rajapolku")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await press(pilot, "e")
            await until(pilot, lambda: isinstance(app.screen, CharacterDetail) and "Charges (R11)" in screen_text(app),
                        "the English sheet")
            switch_language(app, "fi", remember=False)
            await until(pilot, lambda: "Lataukset (R11)" in screen_text(app) and "Esc sulje" in screen_text(app),
                        "the Finnish sheet")
            assert "Charges (R11)" not in screen_text(app)
    finally:
        i18n.set_language("en")


def test_the_sheets_refusals_speak_the_users_language() -> None:
    """What the sheet, the gear and the roster refuse (the session's one-line errors): English as before,
    Finnish in Finnish."""
    from polku.session import demo
    from polku.session.table.gear import Armour
    from polku.session.tracker import TrackerError

    t = demo.demo_varjojuoksu(seed=5)
    t.roster.set_armour("kaneda", Armour(6, 4))
    boxes = records.sr(t.characters["kaneda"])["physical"]
    try:
        for lang, words in (("en", ("Kaneda's physical boxes is already", "Kaneda already wears ballistic 6 / impact 4",
                                    "no template named 'Ghost' (save one from a character first)")),
                            ("fi", ("Kaneda: fyysisiä ruutuja on jo", "Kaneda: panssari on jo luotipanssari 6",
                                    "ei mallia nimeltä 'Ghost'"))):
            i18n.set_language(lang)
            with pytest.raises(TrackerError, match=words[0]):
                t.set_condition("kaneda", "physical", boxes)
            with pytest.raises(TrackerError, match=words[1]):
                t.roster.set_armour("kaneda", Armour(6, 4))
            with pytest.raises(TrackerError, match=re.escape(words[2])):
                t.roster.template("Ghost")
    finally:
        i18n.set_language("en")


def test_a_sheets_saved_pools_and_condition_in_the_users_language() -> None:
    """The sheet's saved-pool rows and a downed fighter's condition (also on the characters' pane)."""
    from polku.rules.system import System
    from polku.session import demo

    t = demo.demo_varjojuoksu(seed=5)
    pools = [{"name": "Dodge", "mode": "attribute", "attribute": "reaction", "second": "", "skill": "", "count": 0},
             {"name": "Lift", "mode": "attr+attr", "attribute": "body", "second": "strength", "skill": "", "count": 0},
             {"name": "Raw", "mode": "dice", "attribute": "", "second": "", "skill": "", "count": 1}]
    t.set_condition("ganger", "stun", t.condition_monitor("ganger", "stun"))
    try:
        shown = {}
        for lang in ("en", "fi"):
            i18n.set_language(lang)
            shown[lang] = ([t.roster.pool_label(System.SHADOWRUN, p) for p in pools],  # type: ignore[arg-type]
                           t.damage.condition_words("ganger"))
    finally:
        i18n.set_language("en")
    assert shown["en"] == (["Dodge (Reaction alone)", "Lift (Body + Strength)", "Raw (1 die)"], "unconscious")
    assert shown["en"][1] == t.damage.condition_text("ganger")
    assert shown["fi"] == (["Dodge (pelkkä Reaktio)", "Lift (Keho + Voima)", "Raw (1 noppa)"], "tajuton")


def test_the_damage_keys_refusals_speak_the_users_language() -> None:
    """D with nothing to take damage or harm from: the notification's reason in the user's language."""
    from polku.session import demo
    from polku.session.tracker import Tracker

    t = Tracker.new("shadowrun", "x", seed=3)  # no attack roll yet
    r = demo.demo_rajapolku(seed=5)
    try:
        i18n.set_language("fi")
        assert t.damage.key_offer(None).reason == "ei vielä hyökkäysheittoa; valitse hahmo (2) antaaksesi sille osuman"
        assert r.damage.harm_offer(None).reason == "ei heittoa, josta vahinko tulisi"
        i18n.set_language("en")
        assert t.damage.key_offer(None).reason == "no attack roll yet; select a character (2) to give them a hit"
        assert r.damage.harm_offer(None).reason == "no roll to take harm from"
    finally:
        i18n.set_language("en")


def test_a_background_tier_may_be_typed_in_the_users_language() -> None:
    from polku.tui.screens.character import FieldError, parse_harha_backgrounds

    try:
        i18n.set_language("fi")
        assert parse_harha_backgrounds("Seppä:yleistausta, Vanha veri:merkittävä  erikoinen tausta, Kala:special") == [
            {"name": "Seppä", "tier": "general"}, {"name": "Vanha veri", "tier": "significant_special"},
            {"name": "Kala", "tier": "special"}]
        with pytest.raises(FieldError, match="ei ole taso"):
            parse_harha_backgrounds("Seppä:mahtava")
    finally:
        i18n.set_language("en")
    assert parse_harha_backgrounds("Smith:significant special, Old blood") == [
        {"name": "Smith", "tier": "significant_special"}, {"name": "Old blood", "tier": "plain"}]


def test_the_background_tiers_are_shown_in_the_users_language_and_stored_as_keys() -> None:
    """The sheet's edit field and the hints name the tiers in Finnish (not "plain", "significant_special"), and
    what the field shows reads back as the same stored keys."""
    from polku.tui.screens.character import format_harha_backgrounds, harha_tier_words, parse_harha_backgrounds

    stored = [{"name": "Varas", "tier": "plain"}, {"name": "Seppä", "tier": "general"},
              {"name": "Vanha veri", "tier": "significant_special"}]
    try:
        i18n.set_language("fi")
        shown = format_harha_backgrounds(stored)
        assert shown == "Varas:tausta, Seppä:yleistausta, Vanha veri:merkittävä erikoinen tausta"
        assert parse_harha_backgrounds(shown) == stored
        assert harha_tier_words() == "yleistausta, tausta, merkittävä tausta, erikoinen tausta, merkittävä erikoinen tausta"
        assert i18n._("tiers: {tiers}; no tier = background", tiers=harha_tier_words()).endswith("ilman tasoa = tausta")
    finally:
        i18n.set_language("en")
    assert format_harha_backgrounds(stored) == "Varas:background, Seppä:general, Vanha veri:significant special"
    assert parse_harha_backgrounds(format_harha_backgrounds(stored)) == stored


@pilot_test
async def test_an_ad_hoc_background_on_the_roll_screen_takes_a_finnish_tier(tmp_path: Path) -> None:
    """b on the Harhapolku roll screen: the hint lists the Finnish tiers, a Finnish tier is taken (stored as its key),
    an unknown one is refused in the prompt."""
    from textual.widgets import Input

    from app_fixtures import screen_text
    from polku.tui.screens.prompts import TextPrompt
    from polku.tui.screens.roll.harhapolku import HarhaRollScreen

    i18n.set_language("fi")
    tracker, sf = demo_session(tmp_path, "harhapolku")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await press(pilot, "r")
            await until(pilot, lambda: isinstance(app.screen, HarhaRollScreen), "the roll screen")
            roll = app.screen
            assert isinstance(roll, HarhaRollScreen)
            await press(pilot, "b")
            await until(pilot, lambda: isinstance(app.screen, TextPrompt), "the background prompt")
            assert "tasot: yleistausta, tausta, merkittävä tausta, erikoinen tausta" in screen_text(app)
            assert "plain" not in screen_text(app)
            app.screen.query_one(Input).value = "Varas:mahtava"
            await press(pilot, "enter")
            await until(pilot, lambda: "tason on oltava jokin näistä" in screen_text(app), "the refusal")
            assert isinstance(app.screen, TextPrompt) and roll.a.claims.get("special") is None
            app.screen.query_one(Input).value = "Varas:erikoinen tausta"
            await press(pilot, "enter")
            await until(pilot, lambda: app.screen is roll, "back on the roll screen")
            assert roll.a.claims["special"] == "Varas" and ("Varas", "special") in roll.a.extra_backgrounds
    finally:
        i18n.set_language("en")
