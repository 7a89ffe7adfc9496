"""docs/remote-play.md's permission recipe, run as written with real accounts (root only).

The GM's account and the players' account are made for the test; the GM's
side writes the session and the players' file, then runs the docs' lines as
written (section 2, and the spool's, one account for all players). Then the
players' account cannot read the session file, yet reads the players' file
and sends a seat's request, which the GM's account takes, applies and answers.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from polku.session import demo, store
from polku.session.files import document, open_session
from polku.session.players import seats
from polku.session.players.players_file import PlayersFile, load_players
from polku.session.rolls import SRPool

DOC = Path(__file__).resolve().parents[1] / "docs" / "remote-play.md"
TOOLS = ("useradd", "userdel", "groupadd", "groupdel", "runuser")

pytestmark = [
    pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                       reason="needs root: the recipe is run with real accounts and groups"),
    pytest.mark.skipif(any(shutil.which(t) is None for t in TOOLS),
                       reason=f"needs {', '.join(TOOLS)} to make the accounts"),
]


def recipe_blocks() -> list[list[str]]:
    """The shell lines of the docs' permission recipes: the players' file section and the spool's."""
    text = DOC.read_text(encoding="utf-8")
    blocks = re.findall(r"```\n(.*?)```", text, flags=re.S)
    section2 = next(b for b in blocks if "chmod 600 ~/polku/sessions/*.toml" in b)
    spool = next(b for b in blocks if "tonight.seats/kaneda" in b and "mkdir" in b)
    return [[ln for ln in b.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
            for b in (section2, spool)]


def run(user: str | None, script: str, env: dict[str, str], check: bool = True) -> subprocess.CompletedProcess:
    cmd = ["bash", "-c", script] if user is None else ["runuser", "-u", user, "--", "bash", "-c", script]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    if check:
        assert proc.returncode == 0, f"{script!r} as {user or 'root'}: {proc.stderr}"
    return proc


def as_user(user: str, umask: int, fn, *args):
    """Run ``fn(*args)`` in a forked child as ``user`` (its groups, its umask); what it returns (JSON).

    Forked rather than started: this interpreter may live where the test accounts cannot reach
    (a root-owned pyenv); everything the child needs is imported before the fork.
    """
    import grp
    import pwd

    pw = pwd.getpwnam(user)
    groups = os.getgrouplist(user, pw.pw_gid)
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 1
        try:
            os.close(r)
            os.setgroups(groups)
            os.setgid(pw.pw_gid)
            os.setuid(pw.pw_uid)
            os.umask(umask)
            os.environ["HOME"] = pw.pw_dir
            out = json.dumps({"ok": fn(*args)})
            code = 0
        except BaseException as e:  # noqa: BLE001 - reported to the parent
            out = json.dumps({"error": f"{type(e).__name__}: {e}"})
        os.write(w, out.encode())
        os._exit(code)
    os.close(w)
    chunks = []
    while chunk := os.read(r, 65536):
        chunks.append(chunk)
    os.close(r)
    os.waitpid(pid, 0)
    got = json.loads(b"".join(chunks) or b'{"error": "no answer"}')
    assert "error" not in got, f"as {user}: {got['error']}"
    del grp
    return got["ok"]


def gm_opens(session: str) -> int:
    """The GM's app opens a session with a roll request for Kaneda: the session, the players' file, the spool."""
    t = demo.demo_varjojuoksu()
    seats.ask_sr(t, "kaneda", SRPool(skill="Pistols", attribute="agility"), threshold=2)
    path = Path(session)
    path.parent.mkdir(parents=True, exist_ok=True)
    store.write_full(path, document(t.state, t.events, t.last_seq()))
    gm, sf = open_session(path)
    sf.save_now(gm)
    PlayersFile(path).publish_now(gm)  # as the GM's app does on opening
    seats.prepare_spool(path, [])  # and makes the spool
    sf.close()
    return gm.last_seq()


def player_sends(session: str) -> dict:
    path = Path(session)
    try:
        path.read_bytes()
        denied = False
    except PermissionError:
        denied = True
    view, offers = load_players(path)
    [offer] = offers["kaneda"]
    rid = seats.write_request(path, "kaneda", "roll", offer=offer["seq"], edge_before=False, faces=None)
    return {"denied": denied, "events": len(view.events), "rid": rid}


def gm_answers(session: str) -> dict:
    path = Path(session)
    gm, sf = open_session(path)
    look = seats.take_requests(path)
    answers = [seats.answer(gm, t) for t in look.taken]
    for t, a in zip(look.taken, answers):
        seats.write_answer(path, t.cid, a)
    sf.save_now(gm)
    PlayersFile(path).publish_now(gm)
    sf.close()
    return {"problem": look.problem, "answers": answers}


def player_reads_answer(session: str, rid: str) -> dict:
    path = Path(session)
    ans = seats.read_answer(path, "kaneda", rid)
    view, _ = load_players(path)
    return {"ok": bool(ans and ans["ok"]), "last": view.events[-1].get("seat")}


def player_asks_as(session: str, cid: str) -> str:
    return seats.write_request(Path(session), cid, "story_point", bought="a sewer hatch opens")


def gm_looks(session: str) -> dict:
    look = seats.take_requests(Path(session))
    return {"problems": look.seat_problems, "taken": [t.cid for t in look.taken]}


def test_the_docs_recipe_keeps_the_players_out_of_the_session_and_the_seats_working(tmp_path):
    tag = str(os.getpid())[-6:]
    gm, player, group = f"polkugm{tag}", f"polkupl{tag}", f"polkuw{tag}"
    base = Path(f"/tmp/polku-recipe-{tag}")
    homes = {gm: base / "gm", player: base / "players"}
    env = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8"}
    made: list[list[str]] = []
    try:
        base.mkdir(mode=0o711)
        os.chmod(base, 0o711)
        for user, home in homes.items():
            subprocess.run(["useradd", "--no-create-home", "--home-dir", str(home), "--shell", "/bin/bash", user],
                           check=True, capture_output=True)
            made.append(["userdel", user])
            home.mkdir(mode=0o700)
            shutil.chown(home, user, user)
        session = str(homes[gm] / "polku" / "sessions" / "tonight.toml")

        # The GM's app opens the session (umask 027, as the docs say).
        as_user(gm, 0o027, gm_opens, session)

        section2, spool = recipe_blocks()
        subst = [("sudo ", ""), ("polku-watchers", group), ("polku-players", player), ("$USER", gm),
                 ("~/polku", f"{homes[gm]}/polku"), ("~ ", f"{homes[gm]} ")]

        def as_written(line: str) -> str:
            for a, b in subst:
                line = line.replace(a, b)
            return line

        for line in section2 + spool:
            if "polku-olli" in line:
                continue  # the one-account-per-player variant: its group is the player's own
            root_line = line.lstrip().startswith("sudo ")
            if "groupadd" in line:
                made.insert(0, ["groupdel", group])
            run(None if root_line else gm, "umask 027 && " + as_written(line), {**env, "HOME": str(homes[gm])})

        # The players' account: no reading of the session file; the players' file and the seat work.
        got = as_user(player, 0o022, player_sends, session)
        assert got["denied"], "the players' account must not read the session file"
        assert got["events"] > 0
        # The GM's account takes the request (it may read and remove it), applies it and answers.
        done = as_user(gm, 0o027, gm_answers, session)
        assert done["problem"] == "" and [a["ok"] for a in done["answers"]] == [True], done
        assert as_user(player, 0o022, player_reads_answer, session, got["rid"]) == {"ok": True, "last": "kaneda"}, \
            "the seat sees its answer and its roll"

        # A permission the recipe would not leave: Nyx's folder closed to the GM's account (the owner class
        # wins over the group's rwx). The GM's app names the seat and what to fix; nothing is taken.
        nyx = Path(session).with_name("tonight.seats") / "nyx"
        run(gm, f"chmod 2070 {nyx}", {**env, "HOME": str(homes[gm])})
        as_user(player, 0o022, player_asks_as, session, "nyx")
        looked = as_user(gm, 0o027, gm_looks, session)
        assert looked == {"problems": {"nyx": seats.SEAT_CANNOT_OPEN}, "taken": []}, looked
    finally:
        for cmd in made:
            subprocess.run(cmd, capture_output=True)
        shutil.rmtree(base, ignore_errors=True)
