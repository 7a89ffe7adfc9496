"""Two players' seats over a real OpenSSH server roll into a running GM's app; a key plays one character only."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from polku.session import demo, store
from polku.session.files import document, load_tracker
from polku.session.players import seats
from polku.session.players.public import players_path
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

        def rolls() -> dict[str, list[dict]]:
            try:
                full = load_tracker(session, read_only=True)[0]
            except Exception:
                return {}
            out: dict[str, list[dict]] = {}
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
