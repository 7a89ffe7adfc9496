"""`polku import chummer`: Chummer 4's own sample characters (tests/data/chummer/README.md says where
each came from) and hand-made broken files, through the importer and through the command line."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from polku.cli import main
from polku.session import demo, model, store
from polku.session.files import create_session, load_tracker
from polku.session.importers import ImportRefused
from polku.session.importers.chummer import MAX_BYTES, parse_chummer, read_chummer
from polku.session.table.gear import Armour, Weapon
from polku.session.tracker import TrackerError

DATA = Path(__file__).parent / "data" / "chummer"

# Read by hand from each file's XML: name, totalvalue of BOD/AGI/STR/EDG, one skill's rating
# and its <attribute>, and the initiative passes its improvements give.
REAL = {
    "Street Samurai.chum": ("Street Samurai", 4, 8, 7, 2, ("Automatics", 5), 3),
    "Combat Mage.chum": ("Combat Mage", 3, 4, 3, 2, ("Astral Combat", 3), 1),
    "Technomancer.chum": ("Technomancer", 2, 2, 2, 2, ("Computer", 3), 1),
    "Halloweeners Street Gang (Ork).chum": ("Halloweeners Street Gang", 6, 4, 5, 1, ("Blades", 3), 1),
    "Beat Cop.chum": ("Beat Cop", 4, 3, 3, 1, ("Clubs", 3), 1),
    "Rifleman.chum": ("Major Nathan McCord", 5, 7, 5, 6, ("Armorer", 4), 4),
    "Lydia Bowden.chum": ("Lydia Bowden", 4, 5, 4, 4, ("Automatics", 5), 3),
    "Vagabond Crew Ganger.chum": ("Vagabond Crew Ganger", 5, 3, 4, 1, ("Artisan", 4), 1),
    "Gang Leader.chum": ("Gang Leader", 4, 4, 5, 2, ("Blades", 3), 1),
    "Top-Shelf Bodyguard.chum": ("Top-Shelf Bodyguard", 5, 8, 3, 2, ("Automatics", 4), 3),
    "Paladins of the Great Hunt.chum": ("Elven Xenophobic Militiaman", 5, 7, 5, 1, ("Blades", 5), 3),
    "Troll Samurai.chum": ("Troll Samurai", 8, 3, 6, 3, ("Blades", 4), 2),
    "Gangers.chum": ("Gangers", 4, 4, 4, 2, ("Disguise", 6), 1),
    "Armorer (Dwarf).chum": ("Armorer", 3, 3, 5, 1, ("Armorer", 5), 1),
}

BROKEN = {
    "entity-bomb.chum": "declares a DTD or entities",
    "external-entity.chum": "declares a DTD or entities",
    "dtd-only.chum": "declares a DTD or entities",
    "wrong-root.chum": "root element is <chummer>, not <character>",
    "truncated.chum": "not well-formed XML",
    "latin1.chum": "not UTF-16 (with its byte-order mark) or UTF-8",
    "no-attributes.chum": "no BOD attribute",
}


def test_the_test_material_is_all_there():
    assert sorted(p.name for p in DATA.glob("*.chum")) == sorted(REAL)
    assert len(REAL) >= 10 and len(BROKEN) >= 5
    for name in REAL:
        assert name in (DATA / "README.md").read_text(encoding="utf-8"), f"README says where {name} came from"
        assert (DATA / name).read_bytes()[:2] == b"\xff\xfe", "Chummer 4 writes UTF-16 with a byte-order mark"


@pytest.mark.parametrize("file", sorted(REAL))
def test_each_real_file_imports_with_its_name_attributes_edge_skills(file):
    name, body, agility, strength, edge, (skill, rating), passes = REAL[file]
    imp = read_chummer(DATA / file)
    ch = imp.character
    assert ch["name"] == name
    assert (ch["attributes"]["body"], ch["attributes"]["agility"], ch["attributes"]["strength"]) == (
        body, agility, strength)
    assert ch["edge_rating"] == ch["edge"] == edge
    assert ch["skills"][skill] == rating
    assert ch.get("initiative_passes", 1) == passes
    # it fits a Varjojuoksu sheet as it is
    t = demo.demo_varjojuoksu()
    cid = t.roster.add_imported(ch, source=file)
    model.validate_state(t.state)
    assert t.character(cid)["attributes"] == ch["attributes"]


@pytest.mark.parametrize("file", sorted(REAL))
def test_what_a_file_holds_and_the_sheet_cannot_is_listed_not_dropped(file):
    """Every quality, contact, spell, power, cyberware, gear item and vehicle of the file is counted
    in the one message; every skill linked to Magic or Resonance is named."""
    imp = read_chummer(DATA / file)
    text = imp.unmapped_text()
    root = ET.fromstring((DATA / file).read_bytes().decode("utf-16").split("?>", 1)[1])
    for path, label in [("qualities/quality", "qualities"), ("contacts/contact", "contacts"),
                        ("spells/spell", "spells"), ("powers/power", "adept powers"),
                        ("cyberwares/cyberware", "cyberware and bioware"), ("gears/gear", "other gear"),
                        ("vehicles/vehicle", "vehicles and drones")]:
        n = len([e for e in root.iterfind(path) if (e.findtext("name") or "").strip()])
        assert (f"{n} {label}" in text) == bool(n), (label, n, text)
    for s in root.iterfind("skills/skill"):
        if int(s.findtext("rating") or 0) and s.findtext("attribute") in ("MAG", "RES"):
            assert f"{s.findtext('name')} (" in text
    assert "\n" not in text


def test_street_samurai_in_detail():
    """From the file: Wired Reflexes 2 (3 passes), two cyberarms (+1 box each, +2/+2 armour each)
    over an Armor Vest 6/4; Katana (STR/2+3)P with STR 7 → 7P AP −1; Shock Hand 6S(e) AP −half."""
    imp = read_chummer(DATA / "Street Samurai.chum")
    ch = imp.character
    assert ch["monitor_extra"] == {"physical": 2}
    assert Armour.from_stored(ch["armour"]) == Armour(10, 8)
    weapons = {w["name"]: Weapon.from_table(w) for w in ch["weapons"]}
    assert weapons["Katana"].text == "Katana 7P AP −1 (Blades, melee)"
    assert weapons["Ares Predator IV"].text == "Ares Predator IV 5P AP −1 (Pistols, ranged)"
    assert weapons["Shock Hand"].ap.half and weapons["Shock Hand"].damage == "stun"
    assert ch["links"]["Flight"] == "strength", "a link the file names differs from the usual one: kept"
    assert "Pistols" not in ch.get("links", {}), "the usual link is not repeated"
    assert "specialisations: Perception (Visual)" in imp.unmapped_text()
    assert "5 qualities: Guts" in imp.unmapped_text()


def test_grenades_and_melee_strength_damage():
    """Rifleman: a grenade's blast fall-off is not kept (listed); Halloweeners: hand razors
    (STR/2+1)P with STR 5 → 4P."""
    rifle = read_chummer(DATA / "Rifleman.chum")
    assert "Grenade: Fragmentation 12P: (f) (-1/m) not kept" in rifle.unmapped_text()
    gang = read_chummer(DATA / "Halloweeners Street Gang (Ork).chum")
    razors = next(w for w in gang.character["weapons"] if w["name"] == "Hand Razors")
    assert (razors["dv"], razors["kind"]) == (4, "melee")


def test_a_mage_lists_magic_and_its_magic_skills():
    text = read_chummer(DATA / "Combat Mage.chum").unmapped_text()
    assert "Magic " in text and "Banishing (Magic)" in text and "spells" in text


def test_a_magician_gets_an_astral_initiative_score_and_an_adept_does_not():
    """SR4: a magician may project (astral initiative, Intuition × 2, 3 passes); the Rifleman is an adept."""
    mage = read_chummer(DATA / "Combat Mage.chum").character
    assert mage["initiative_scores"] == {"astral": {"bonus": 0, "passes": 3}}
    assert "initiative_scores" not in read_chummer(DATA / "Rifleman.chum").character
    assert "initiative_scores" not in read_chummer(DATA / "Street Samurai.chum").character


def test_utf8_is_accepted_too(tmp_path: Path):
    data = (DATA / "Street Samurai.chum").read_bytes().decode("utf-16").encode("utf-8")
    assert parse_chummer(data, "x.chum").character == read_chummer(DATA / "Street Samurai.chum").character


@pytest.mark.parametrize("file", sorted(BROKEN))
def test_each_broken_file_is_refused_in_one_line(file):
    with pytest.raises(ImportRefused) as e:
        read_chummer(DATA / "broken" / file)
    assert BROKEN[file] in str(e.value) and "\n" not in str(e.value)


def test_a_huge_file_is_refused_before_it_is_parsed(tmp_path: Path):
    huge = tmp_path / "huge.chum"
    huge.write_bytes(b"<character>" + b" " * MAX_BYTES + b"</character>")
    with pytest.raises(ImportRefused, match="bigger than 8 MB"):
        read_chummer(huge)


def _session(tmp_path: Path) -> Path:
    path = tmp_path / "run.toml"
    create_session(path, demo.demo_varjojuoksu()).close()
    return path


@pytest.mark.parametrize("file", sorted(BROKEN) + ["huge"])
def test_the_cli_refuses_each_broken_file_in_one_line_and_writes_nothing(tmp_path, capsys, file):
    session = _session(tmp_path)
    before = session.read_bytes()
    if file == "huge":
        path = tmp_path / "huge.chum"
        path.write_bytes(b"<character>" + b" " * MAX_BYTES + b"</character>")
    else:
        path = DATA / "broken" / file
    assert main(["import", "chummer", str(path), "--into", str(session)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("polku: error: ")
    assert session.read_bytes() == before
    assert not store.lock_path(session).exists()


def test_the_cli_prints_json_as_polku_stores_it(capsys):
    assert main(["import", "chummer", str(DATA / "Lydia Bowden.chum"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["character"]["name"] == "Lydia Bowden"
    assert out["character"]["attributes"]["agility"] == 5
    assert out["character"]["weapons"][0]["name"] == "Ares Predator IV"
    assert out["unmapped"]


def test_the_cli_adds_a_character_and_a_template_into_a_session(tmp_path, capsys):
    session = _session(tmp_path)
    assert main(["import", "chummer", str(DATA / "Street Samurai.chum"), "--into", str(session)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Character Street Samurai: added to") and "Not mapped:" in out
    assert main(["import", "chummer", str(DATA / "Gangers.chum"), "--into", str(session), "--template"]) == 0
    t, _ = load_tracker(session)
    sam = next(c for c in t.characters.values() if c["name"] == "Street Samurai")
    assert sam["attributes"]["agility"] == 8 and sam["initiative_passes"] == 3
    assert t.condition_monitor(sam["id"], "physical") == 8 + 2 + 2, "8 + ⌈4/2⌉ + two cyberarms"
    tpl = t.roster.template("Gangers")
    assert tpl["skills"]["Disguise"] == 6
    assert t.events[-1]["text"] == "Template Gangers imported from Gangers.chum"
    # a second template of that name is refused in one line, nothing written
    before = session.read_bytes()
    assert main(["import", "chummer", str(DATA / "Gangers.chum"), "--into", str(session), "--template"]) == 2
    assert "exists already" in capsys.readouterr().err
    assert session.read_bytes() == before
    # the group made from the template shares its gear
    t.roster.add_from_template("Gangers", 2)
    assert t.damage.weapons("gangers-1") == [Weapon.from_table(w) for w in tpl["weapons"]]


def test_the_cli_refuses_a_session_open_in_the_app_and_writes_nothing(tmp_path, capsys):
    """Another process holds the session's lock (as the GM's app does)."""
    session = _session(tmp_path)
    before = session.read_bytes()
    holder = subprocess.Popen([sys.executable, "-c", "import sys; from polku.session import store; "
                               f"lock = store.SessionLock({str(session)!r}); lock.acquire(); print('held', flush=True);"
                               " sys.stdin.read(); lock.release()"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        assert main(["import", "chummer", str(DATA / "Street Samurai.chum"), "--into", str(session)]) == 2
    finally:
        holder.communicate("")
    err = capsys.readouterr().err
    assert "is open in another Polku" in err and "nothing written" in err and err.count("\n") == 1
    assert session.read_bytes() == before


def test_another_systems_session_is_refused(tmp_path, capsys):
    path = tmp_path / "raja.toml"
    create_session(path, demo.demo_rajapolku()).close()
    before = path.read_bytes()
    assert main(["import", "chummer", str(DATA / "Street Samurai.chum"), "--into", str(path)]) == 2
    assert "Varjojuoksu" in capsys.readouterr().err
    assert path.read_bytes() == before


def test_an_imported_character_is_one_undoable_command():
    t = demo.demo_varjojuoksu()
    before = model.clone(t.state)
    t.roster.add_imported(read_chummer(DATA / "Troll Samurai.chum").character, source="Troll Samurai.chum")
    t.undo()
    assert t.state == before
    with pytest.raises(TrackerError):
        demo.demo_rajapolku().roster.add_imported({"name": "x"})


def test_copy_of_the_material_has_its_own_name_from_the_file(tmp_path: Path):
    """A file whose <name> and <alias> are empty takes the file's name (Chummer names its files so)."""
    data = (DATA / "Gang Leader.chum").read_bytes().decode("utf-16")
    data = data.replace("<name>Gang Leader</name>", "<name />", 1)
    path = tmp_path / "Fixer Joe.chum"
    path.write_bytes(data.encode("utf-16"))
    shutil.copy(path, tmp_path / "copy.chum")
    assert read_chummer(path).character["name"] == "Fixer Joe"
