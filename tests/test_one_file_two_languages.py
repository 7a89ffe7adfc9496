"""One session file, two viewers (issue 25): the GM plays in Finnish while `watch` shows the same file in
English, and the players' report is written in either language. The file is the same bytes whoever reads
it (its events record facts; each view tells them in its reader's language).

Reach, honestly: "no English left" is checked on the dice log's lines of a Varjojuoksu evening (rolls,
Edge, the fight's initiative and turns, wounds on the monitor, the challenge queue, scenes, characters):
the kinds converted so far. The campaign's own words (names, titles the GM typed) are Finnish here, as a
Finnish GM would type them. What is still English elsewhere is listed in ARCHITECTURE.md ("Languages").
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Sequence

import pytest

from app_fixtures import isolated, make_app, pilot_test, screen_text, until, until_quiet
from polku import i18n
from polku.session import demo, files, telling
from polku.session.model import Event
from polku.session.players.players_file import Follower, publish
from polku.session.players.public import public_view
from polku.session.review import export
from polku.session.rolls import SRSide
from polku.session.tracker import Tracker
from polku.tui.render import event_line, plain_styles

pytestmark = pytest.mark.usefixtures(isolated.__name__)

ENGLISH = re.compile(
    r"\b(joins|wins|hits?|glitch|success|failure|net|Scene|Challenge|added|started|spends|Edge before|left|"
    r"Initiative|order|Combat|turn|pass|acts|holds|physical|stun|boxes|begins|vs|roll|the|is|over)\b")
"""English words of the log's sentences (Edge itself is the rule text's word too)."""


def evening() -> Tracker:
    """A Varjojuoksu evening a Finnish GM typed: Finnish names and titles, every converted kind of line."""
    t = Tracker.new("shadowrun", "Kylmä sade", clock=demo.fixed_clock(), seed=5)
    t.add_character("Kaneda", player="Olli", attributes={
        "body": 4, "agility": 5, "reaction": 4, "strength": 3, "charisma": 2, "intuition": 4, "logic": 3,
        "willpower": 3}, skills={"Pistols": 4}, edge_rating=3, edge=3)
    ganger = t.add_character("Jengiläinen", kind="npc", attributes={
        "body": 4, "agility": 3, "reaction": 3, "strength": 4, "charisma": 2, "intuition": 3, "logic": 2,
        "willpower": 2}, edge_rating=1, edge=1)["id"]
    t.new_scene("Pakomatka jäisellä kehätiellä")
    c = t.add_challenge("Karista takaa-ajajat", ["kaneda"])
    t.start_challenge(c["id"])
    t.rolls.roll_sr(SRSide("Kaneda", ["kaneda"], dice=6), threshold=2, challenge=c["id"], faces=[5, 6, 1, 1, 1, 2])
    t.rolls.roll_sr(SRSide("Kaneda", ["kaneda"], dice=4, edge_before=True), faces=[6, 5, 2, 3, 4, 1, 2, 3])
    t.rolls.roll_initiative([("kaneda", 1), (ganger, 1)])
    t.rolls.roll_sr_opposed(SRSide("Kaneda", ["kaneda"], dice=3), SRSide("Jengiläinen", [ganger], dice=3),
                            faces=([5, 6, 2], [1, 3, 4]))
    t.set_condition(ganger, "physical", 4)
    t.combat.next()
    return t


def _log_lines(events: Sequence[Event]) -> list[str]:
    """The dice log's lines as its widget draws them (tui/render.event_line), plain."""
    return [event_line(ev, plain_styles()).plain for ev in events]


def finnish_lines(t: Tracker) -> list[str]:
    return [telling.event_text(ev) for ev in t.events]


@pytest.fixture
def session_file(tmp_path: Path) -> tuple[Path, Tracker, files.SessionFile]:
    i18n.set_language("fi")
    t = evening()
    path = tmp_path / "ilta.toml"
    sf = files.create_session(path, t)
    publish(path, t)
    return path, t, sf


def test_the_file_is_the_same_whoever_writes_it(tmp_path: Path) -> None:
    """A Finnish GM's file and an English GM's are the same bytes: the facts, and the English words for older
    readers."""
    out = {}
    for lang in ("fi", "en"):
        i18n.set_language(lang)
        path = tmp_path / f"{lang}.toml"
        files.create_session(path, evening()).close()
        out[lang] = re.sub(rb"\nsaved = [^\n]*", b"", path.read_bytes())  # when it was saved, nothing else
    i18n.set_language("en")
    assert out["fi"] == out["en"]


@pilot_test
async def test_the_gm_in_finnish_and_watch_in_english_read_the_same_facts(session_file, tmp_path: Path) -> None:
    from polku.tui.watch import WatchApp

    path, t, sf = session_file
    try:
        i18n.set_language("fi")
        app = make_app(t, sf, sessions_dir=tmp_path)
        async with app.run_test(size=(120, 40)) as pilot:
            await until_quiet(pilot)
            shown = screen_text(app)
            assert "Kaneda vastaan Jengiläinen: Kaneda voittaa 2–0, netto-osumia 2" in finnish_lines(t)
            assert "osumaa" in shown
            assert "Taistelukierros 1" in shown
            finnish = _log_lines(list(t.events))
        left = [line for line in finnish if ENGLISH.search(line)]
        assert not left, left

        i18n.set_language("en")
        watch = WatchApp(path, follower=Follower(path, now=lambda: "20:15:00"), interval=0.05)
        async with watch.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: watch._shown is not None, "the players' view")
            await until_quiet(pilot)
            shown = screen_text(watch)
            assert "Kaneda wins 2–0, 2 net │" in shown and "Combat turn 1 begins" in shown
            assert "Initiative" in shown or "order:" in shown
        public = public_view(t).events
        english = _log_lines(public)
        assert any("hits" in line for line in english) and not any("osuma" in line for line in english)
        # The same facts: each players' line told in English is the English the file keeps.
        assert [telling.event_text(ev) for ev in public] == [ev["text"] for ev in public]
    finally:
        i18n.set_language("en")


def test_the_players_report_in_both_languages(session_file) -> None:
    path, t, _sf = session_file
    try:
        reports = {}
        for lang in ("fi", "en"):
            i18n.set_language(lang)
            reports[lang] = export.export(t, "md")
        assert "Kohtaukset" in reports["fi"] and "Scenes" in reports["en"]
        assert "Kaneda voittaa 2–0, netto-osumia 2" in reports["fi"]
        assert "Kaneda wins 2–0, 2 net" in reports["en"]
        log = reports["fi"][reports["fi"].index("## Kohtaukset"):]
        log = log[:log.index("\n## ")] if "\n## " in log else log
        lines = [line for line in log.splitlines() if line.startswith("- ")]
        assert lines and not [line for line in lines if ENGLISH.search(re.sub(r"\([^)]*\)", "", line))]
    finally:
        i18n.set_language("en")


@pilot_test
async def test_an_older_files_rolls_are_shown_as_written_with_one_note(tmp_path: Path) -> None:
    """A file from before facts: its rolls read as stored (English), and the dice log says so once."""
    i18n.set_language("fi")
    try:
        t = evening()
        for ev in t.events:
            ev.pop("fact", None)  # as an older Polku wrote them
        sf = files.create_session(tmp_path / "vanha.toml", t)
        app = make_app(t, sf, sessions_dir=tmp_path)
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: any(telling.OLD_NOTE != n.message and "Vanhemman Polun" in str(n.message)
                                           for n in app._notifications), "the note on older entries")
            await until_quiet(pilot)
            notes = [n for n in app._notifications if "Vanhemman Polun" in str(n.message)]
            assert len(notes) == 1
            assert "Kaneda wins 2–0, 2 net" in screen_text(app), "an older roll as it was written"
    finally:
        i18n.set_language("en")
