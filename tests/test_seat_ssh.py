"""Two players' seats over a real OpenSSH server roll into a running GM's app; a key plays one character only."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from polku.session import demo, store
from polku.session.files import document, load_tracker
from polku.session.model import Event
from polku.session.players import seats
from polku.session.players.players_file import players_path
from polku.session.rolls import SRPool
from sshd_fixture import needs_ssh_tools, needs_sshd, new_key, running_sshd, wait_for


@pytest.mark.slow
@needs_sshd
@needs_ssh_tools
def test_two_seats_roll_into_a_running_gm_app_and_a_key_plays_only_its_character(tmp_path):
    t = demo.demo_varjojuoksu()
    seats.ask_sr(t, "kaneda", SRPool(skill="Pistols", attribute="agility"), threshold=2)
    seats.ask_sr(t, "nyx", SRPool(skill="Hacking", attribute="logic"), threshold=3, hidden=True)
    session = tmp_path / "night.toml"
    store.write_full(session, document(t.state, t.events, t.last_seq()))

    keys = {name: new_key(tmp_path / f"{name}_ed25519") for name in ("kaneda", "nyx")}
    # One account, one key per player: the forced command fixes the character (docs/remote-play.md).
    forced = {key: f"{sys.executable} -m polku.cli play {session} --as {name.capitalize()}"
              for name, key in keys.items()}
    with running_sshd(tmp_path, forced) as sshd:
        def ssh(name: str, *command: str) -> list[str]:
            return sshd.ssh(keys[name], *command, tty=True)

        tmux = ["tmux", "-L", f"polku-seats-{os.getpid()}-{sshd.port}", "-f", os.devnull]
        env = {**os.environ, "TERM": "xterm-256color", "XDG_CONFIG_HOME": str(tmp_path / "config"),
               "XDG_DATA_HOME": str(tmp_path / "data")}

        def screen(name: str) -> str:
            return subprocess.run(tmux + ["capture-pane", "-p", "-t", name], capture_output=True, text=True).stdout

        def rolls() -> dict[str, list[Event]]:
            try:
                full = load_tracker(session, read_only=True)[0]
            except Exception:
                return {}
            out: dict[str, list[Event]] = {}
            for ev in full.events:
                if ev.get("kind") == "roll" and ev.get("seat"):
                    out.setdefault(ev["seat"], []).append(ev)
            return out

        try:
            # The GM's app, running: the only writer of the session file.
            subprocess.run(tmux + ["new-session", "-d", "-s", "gm", "-x", "100", "-y", "30",
                                   f"{sys.executable} -m polku.cli {session}"], check=True, env=env)
            wait_for(lambda: "saved" in screen("gm") and players_path(session).exists(), 60,
                     "the GM's app and the players' file it writes on opening", lambda: screen("gm"))

            # Kaneda's key asks to play Nyx: the forced command plays Kaneda anyway.
            subprocess.run(tmux + ["new-session", "-d", "-s", "kaneda", "-x", "80", "-y", "24",
                                   " ".join(ssh("kaneda", "polku", "play", str(session), "--as", "Nyx"))],
                           check=True, env=env)
            subprocess.run(tmux + ["new-session", "-d", "-s", "nyx", "-x", "80", "-y", "24", " ".join(ssh("nyx"))],
                           check=True, env=env)
            for name in ("kaneda", "nyx"):
                wait_for(lambda name=name: "The GM asks you to roll" in screen(name), 60, f"{name}'s seat",
                          lambda name=name: screen(name))
            assert "You: Kaneda" in screen("kaneda") and "You: Nyx" not in screen("kaneda")
            assert "the GM keeps the threshold hidden" in screen("nyx")

            subprocess.run(tmux + ["send-keys", "-t", "kaneda", "r"], check=True)
            got = wait_for(lambda: "kaneda" in rolls() and rolls(), 60, "Kaneda's roll in the GM's file",
                            lambda: screen("gm") + screen("kaneda"))
            subprocess.run(tmux + ["send-keys", "-t", "nyx", "r"], check=True)
            got = wait_for(lambda: "nyx" in rolls() and rolls(), 60, "Nyx's roll in the GM's file",
                            lambda: screen("gm") + screen("nyx"))
            assert [e["offer"] for e in got["kaneda"]] == [t.last_seq() - 1]
            assert [e["offer"] for e in got["nyx"]] == [t.last_seq()]
            assert got["kaneda"][0]["roll"]["sides"][0]["who"] == ["kaneda"]
            assert got["nyx"][0]["roll"]["threshold"] == 3, "the GM's log keeps Nyx's hidden threshold"
            # Each seat shows its own result; Kaneda's seat sees Nyx's roll in the log, without the threshold.
            wait_for(lambda: "✓ Kaneda:" in screen("kaneda") and "✓ Nyx:" in screen("nyx"), 60,
                      "the answers", lambda: screen("kaneda") + screen("nyx"))
            assert "threshold hidden by the GM" in screen("kaneda")

            # Kaneda's seat cannot roll for Nyx: no request of Nyx's is open to it, and a file claiming to be
            # Nyx's in Kaneda's folder is refused by the GM's app.
            bad = seats.seat_dir(session, "kaneda") / "req-0123456789abcdef.json"
            bad.write_text('{"v": 1, "id": "0123456789abcdef", "seat": "nyx", "kind": "story_point", "bought": "x"}')
            wait_for(lambda: seats.read_answer(session, "kaneda", "0123456789abcdef"), 60, "the refusal")
            assert seats.read_answer(session, "kaneda", "0123456789abcdef")["ok"] is False

            for name in ("kaneda", "nyx", "gm"):
                subprocess.run(tmux + ["send-keys", "-t", name, "q"], check=True)
            wait_for(lambda: subprocess.run(tmux + ["has-session", "-t", "gm"], capture_output=True).returncode != 0,
                      30, "the GM's app to quit")
            final = rolls()
            assert len(final["kaneda"]) == 1 and len(final["nyx"]) == 1
        finally:
            subprocess.run(tmux + ["kill-server"], capture_output=True)


def test_a_seat_cannot_write_outside_its_spool_folder(tmp_path):
    """Requests name no path: the seat module only writes req-<id>.json into its own folder."""
    path = tmp_path / "night.toml"
    store.write_full(path, document(demo.demo_varjojuoksu().state, [], 0))
    rid = seats.write_request(path, "kaneda", "story_point", bought="../../etc/passwd")
    written = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if p.is_file())
    assert written == ["night.seats/kaneda/req-" + rid + ".json", "night.toml"]
    with pytest.raises(seats.SeatError):
        seats.write_request(path, "../gm", "story_point", bought="x")


@pytest.mark.slow
@needs_sshd
@needs_ssh_tools
def test_seats_roll_their_own_attack_defence_resistance_and_initiative_over_ssh_a_third_key_cannot(tmp_path):
    """Issue 27's done-criterion: over real OpenSSH, two seats make an opposed attack/defence pair, a damage
    resistance roll and an initiative roll into a running GM's app; a third seat's key cannot."""
    from polku.rules import shadowrun as sr
    from polku.session.table.gear import Weapon

    t = demo.demo_varjojuoksu()
    t.combat.end()
    t.roster.set_weapon("kaneda", None, Weapon("Ares Predator", 5, "physical", sr.parse_ap(-1), "Pistols", "ranged"))
    t.add_character("Ratchet", player="Jaakko", attributes=dict(t.character("kaneda")["attributes"]),
                    skills={"Automotive Mechanic": 4}, edge_rating=2, edge=2)
    # The GM starts the fight without Kaneda: Nyx 8, Ganger 6 (all ones), and nobody has acted yet.
    t.rolls.roll_initiative([("nyx", 1), ("ganger", 1)], faces=[1] * 14)
    session = tmp_path / "night.toml"
    store.write_full(session, document(t.state, t.events, t.last_seq()))

    keys = {name: new_key(tmp_path / f"{name}_ed25519") for name in ("kaneda", "nyx", "ratchet")}
    forced = {key: f"{sys.executable} -m polku.cli play {session} --as {name.capitalize()}"
              for name, key in keys.items()}
    with running_sshd(tmp_path, forced) as sshd:
        tmux = ["tmux", "-L", f"polku-own-{os.getpid()}-{sshd.port}", "-f", os.devnull]
        env = {**os.environ, "TERM": "xterm-256color", "XDG_CONFIG_HOME": str(tmp_path / "config"),
               "XDG_DATA_HOME": str(tmp_path / "data"), "POLKU_LANG": "en"}

        def screen(name: str) -> str:
            return subprocess.run(tmux + ["capture-pane", "-p", "-t", name], capture_output=True, text=True).stdout

        def keys_to(name: str, *typed: str) -> None:
            subprocess.run(tmux + ["send-keys", "-t", name, *typed], check=True)

        def gm_log() -> list[Event]:
            try:
                return list(load_tracker(session, read_only=True)[0].events)
            except Exception:
                return []

        def seat_rolls(cid: str) -> list[Event]:
            return [e for e in gm_log() if e.get("kind") == "roll" and e.get("seat") == cid]

        def forge(cid: str, rid: str, text: str) -> None:
            """A hand-written request in ``cid``'s folder, whole at once (renamed into place, as a seat writes)."""
            folder = seats.seat_dir(session, cid)
            (folder / f".forged-{rid}").write_text(text)
            os.replace(folder / f".forged-{rid}", folder / f"req-{rid}.json")

        try:
            subprocess.run(tmux + ["new-session", "-d", "-s", "gm", "-x", "100", "-y", "30",
                                   f"{sys.executable} -m polku.cli {session}"], check=True, env=env)
            wait_for(lambda: "saved" in screen("gm") and players_path(session).exists(), 60,
                     "the GM's app and the players' file it writes on opening", lambda: screen("gm"))
            for name in ("kaneda", "nyx", "ratchet"):
                subprocess.run(tmux + ["new-session", "-d", "-s", name, "-x", "80", "-y", "24",
                                       " ".join(sshd.ssh(keys[name], tty=True))], check=True, env=env)
                wait_for(lambda name=name: "a roll of your own" in screen(name), 60, f"{name}'s seat",
                         lambda name=name: screen(name))

            # Kaneda rolls initiative into the combat turn (8 sixes: 16, ahead of Nyx's 8): Kaneda acts.
            # The own rolls: Pilot Ground Craft, Pistols, Sneaking, attack Nyx, attack Ganger, initiative.
            keys_to("kaneda", "o")
            wait_for(lambda: "Roll for your character" in screen("kaneda"), 30, "the own rolls", lambda: screen("kaneda"))
            assert "6. Initiative: Reaction + Intuition, 8 dice" in screen("kaneda")
            assert "Attack Nyx (Pistols): 8 dice — not now: not your turn" in screen("kaneda"), screen("kaneda")
            keys_to("kaneda", "6")
            wait_for(lambda: "Your own roll" in screen("kaneda"), 30, "the roll shown", lambda: screen("kaneda"))
            keys_to("kaneda", "f")
            wait_for(lambda: "Your pool" in screen("kaneda"), 30, "the faces prompt", lambda: screen("kaneda"))
            keys_to("kaneda", "6 6 6 6 6 6 6 6", "Enter")
            got = wait_for(lambda: seat_rolls("kaneda"), 60, "Kaneda's initiative in the GM's file",
                           lambda: screen("gm") + screen("kaneda"))
            assert got[0]["roll"]["test"] == "initiative" and got[0]["roll"]["manual"]
            assert load_tracker(session, read_only=True)[0].combat.acting() == "kaneda"

            # Kaneda attacks Nyx with the pistol, physical dice; Nyx's seat is asked to defend.
            wait_for(lambda: "your turn" in screen("kaneda"), 60, "Kaneda's turn in the seat", lambda: screen("kaneda"))
            keys_to("kaneda", "o")
            wait_for(lambda: "4. Attack Nyx (Pistols): 8 dice" in screen("kaneda"), 30, "the attack open",
                     lambda: screen("kaneda"))
            keys_to("kaneda", "4")
            wait_for(lambda: "Your own roll" in screen("kaneda"), 30, "the attack shown", lambda: screen("kaneda"))
            keys_to("kaneda", "f")
            wait_for(lambda: "Your pool" in screen("kaneda"), 30, "the faces prompt", lambda: screen("kaneda"))
            keys_to("kaneda", "6 6 6 5 1 2 3 4", "Enter")
            wait_for(lambda: "Kaneda attacks you: 8 dice" in screen("nyx"), 60, "Nyx asked to defend",
                     lambda: screen("gm") + screen("nyx"))
            offer = next(e["seq"] for e in reversed(gm_log()) if e.get("kind") == "seat" and e.get("seat") == "kaneda")

            # The third seat's key cannot roll Nyx's defence: the request is not open to Ratchet's seat.
            assert "attacks you" not in screen("ratchet")
            forge("ratchet", "00000000000000aa",
                  f'{{"v": 1, "id": "00000000000000aa", "seat": "ratchet", "kind": "roll", "offer": {offer}}}')
            wait_for(lambda: seats.read_answer(session, "ratchet", "00000000000000aa"), 60, "the refusal")
            assert seats.read_answer(session, "ratchet", "00000000000000aa")["ok"] is False

            # Nyx defends with physical dice (no hits): Kaneda hits, 4 net.
            keys_to("nyx", "f")
            wait_for(lambda: "Your pool" in screen("nyx"), 30, "the faces prompt", lambda: screen("nyx"))
            keys_to("nyx", "2 2 3", "Enter")
            got = wait_for(lambda: seat_rolls("nyx"), 60, "Nyx's defence in the GM's file",
                           lambda: screen("gm") + screen("nyx"))
            attack = got[0]
            assert attack["offer"] == offer and attack["roll"]["test"] == "shadowrun-opposed"
            assert attack["roll"]["outcome"]["winner"] == "a" and attack["roll"]["outcome"]["net_hits"] == 4

            # Ratchet cannot resist the hit on Nyx; Nyx can, with the program's dice.
            forge("ratchet", "00000000000000bb", '{"v": 1, "id": "00000000000000bb", "seat": "ratchet", "kind": "own", '
                  f'"test": "sr-resist", "key": "{attack["seq"]}"}}')
            wait_for(lambda: seats.read_answer(session, "ratchet", "00000000000000bb"), 60, "the refusal")
            assert seats.read_answer(session, "ratchet", "00000000000000bb") == {
                "v": 1, "id": "00000000000000bb", "ok": False, "text": "that roll is not open to you now",
                "words": ["that roll is not open to you now", {}]}  # the catalogue message: the seat words it in its language
            keys_to("nyx", "o")
            wait_for(lambda: "4. Resist Kaneda's Ares Predator" in screen("nyx"), 60, "the resistance open",
                     lambda: screen("nyx"))
            keys_to("nyx", "4")
            wait_for(lambda: "Your own roll" in screen("nyx"), 30, "the resistance shown", lambda: screen("nyx"))
            keys_to("nyx", "r")
            got = wait_for(lambda: len(seat_rolls("nyx")) == 2 and seat_rolls("nyx"), 60,
                           "Nyx's resistance in the GM's file", lambda: screen("gm") + screen("nyx"))
            assert got[1]["roll"]["attack"] == attack["seq"]

            for name in ("kaneda", "nyx", "ratchet", "gm"):
                keys_to(name, "q")
            wait_for(lambda: subprocess.run(tmux + ["has-session", "-t", "gm"], capture_output=True).returncode != 0,
                     30, "the GM's app to quit")
            final = load_tracker(session, read_only=True)[0]
            assert [e["seat"] for e in final.events if e.get("kind") == "roll" and e.get("seat")] == \
                ["kaneda", "nyx", "nyx"]
            assert final.character("nyx")["physical"] > 0
            assert not any(e.get("seat") == "ratchet" for e in final.events), "the third key changed nothing"
        finally:
            subprocess.run(tmux + ["kill-server"], capture_output=True)
