"""A hostile spool never reaches the GM's app.

Whatever lands in a seat's spool folder, the running GM's app refuses it with a
reason, stays responsive (a real request from another seat is still applied),
reads nothing outside the spool and writes nothing outside it, in all three
systems. The named cases are the ones that crashed, froze or misled the app; the
fuzz throws seeded random bytes, nesting, links, pipes, huge and many files and
a racing writer at it (like tests/test_mutated_files.py does to session files).
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import secrets
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import pytest

from app_fixtures import SYSTEMS, make_app, pilot_test, settle, until
from polku.session import demo, files
from polku.session.players import seats
from polku.session.rolls import HarhaSide, RajaSide, SRPool
from polku.session.tracker import Tracker

MARK = "QXOUTSIDE"
"""In files outside the spool: no answer and no notification may quote them."""

HOSTILE = {"rajapolku": "alyosha", "harhapolku": "lena", "varjojuoksu": "kaneda"}
"""The seat whose folder gets the hostile content."""
HONEST = {"rajapolku": "igor-bondarenko", "harhapolku": "tuomas", "varjojuoksu": "nyx"}
"""The seat whose ordinary request shows the GM's app still works."""
SECRET_NAME = "Mr Hidden Johnson"

HANG_GUARD = 60.0
"""Seconds after which a wait is a freeze (a guard against hanging the suite, not a measurement)."""


def offer(t: Tracker, system: str, cid: str) -> int:
    if system == "varjojuoksu":
        return int(seats.ask_sr(t, cid, SRPool(skill="Pistols", attribute="agility"), threshold=1)["seq"])
    if system == "harhapolku":
        return int(seats.ask_harha(t, cid, HarhaSide(cid))["seq"])
    return int(seats.ask_raja(t, cid, RajaSide(cid), RajaSide("GM: the gate"))["seq"])


def session(tmp_path: Path, system: str) -> tuple[Tracker, files.SessionFile, int, str]:
    """A demo campaign with a secret character and an offer to the honest seat; (tracker, file, offer, secret's id)."""
    t = demo.DEMOS[system]()
    secret = t.add_character(SECRET_NAME, kind="npc", secret=True)["id"]
    seq = offer(t, system, HONEST[system])
    sf = files.create_session(tmp_path / "night.toml", t)
    return t, sf, seq, secret


def outside(tmp_path: Path) -> Path:
    """A folder outside the spool with a JSON file the GM's account can read and a pipe."""
    out = tmp_path / "outside"
    out.mkdir()
    (out / "gm.json").write_text(json.dumps({"v": 1, "kind": f"{MARK}-kind", "seat": MARK, "note": MARK}))
    os.mkfifo(out / "pipe")
    return out


def tree(tmp_path: Path) -> dict[str, tuple[int, str]]:
    """Every entry under tmp_path outside the spool and the session's own files: (mode, content hash)."""
    found: dict[str, tuple[int, str]] = {}
    for dirpath, dirnames, filenames in os.walk(tmp_path):
        rel = Path(dirpath).relative_to(tmp_path)
        if rel.parts[:1] == ("night.seats",):
            dirnames[:] = []
            continue
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            if rel == Path(".") and name.startswith("night."):
                continue  # the session file, its lock, its backup and the spool: the GM's app writes those
            st = p.lstat()
            digest = hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() and not p.is_symlink() else ""
            found[str(rel / name)] = (st.st_mode, digest)
    return found


def rid() -> str:
    return secrets.token_hex(8)


def request(cid: str, kind: str = "roll", **fields: Any) -> tuple[str, bytes]:
    r = rid()
    return r, json.dumps({"v": 1, "id": r, "seat": cid, "kind": kind, "at": time.time(), **fields}).encode()


def put(folder: Path, name: str, data: bytes) -> None:
    tmp = folder / f".{name}.tmp-test"
    tmp.write_bytes(data)
    os.replace(tmp, folder / name)


async def wait_until(pilot: Any, predicate: Callable[[], bool], what: str) -> None:
    """Until ``predicate()`` holds; a guard of HANG_GUARD seconds says the app froze."""
    await until(pilot, predicate, f"the GM's app (frozen?): {what}", timeout=HANG_GUARD)


def notes(app: Any) -> list[str]:
    return [f"{n.title}: {n.message}" for n in app._notifications]


async def still_works(pilot: Any, app: Any, t: Tracker, path: Path, system: str, seq: int) -> None:
    """The honest seat's roll is applied and answered, the app has not crashed, and a key still works."""
    cid = HONEST[system]
    r = seats.write_request(path, cid, "roll", offer=seq)
    await wait_until(pilot, lambda: seats.read_answer(path, cid, r) is not None, "answer to an honest request")
    ans = seats.read_answer(path, cid, r)
    assert ans is not None and ans["ok"], ans
    assert any(e.get("seat") == cid and e["kind"] == "roll" for e in t.events)
    await pilot.press("question_mark")
    await wait_until(pilot, lambda: app.screen.__class__.__name__ != "MainScreen", "help screen")
    await pilot.press("escape")
    await settle(pilot)
    assert getattr(app, "_exception", None) is None


def answers(folder: Path) -> list[dict[str, Any]]:
    out = []
    for p in folder.iterdir():
        if p.name.startswith("ans-"):
            out.append(json.loads(p.read_bytes()))
    return out


def no_leak(texts: list[str]) -> None:
    for text in texts:
        assert MARK not in text and "Hidden" not in text and "Johnson" not in text, text
        assert "\n" not in text


# ---------------------------------------------------------------------------
# the named cases, each against the running app in each system


def deep(folder: Path, cid: str, out: Path) -> None:
    for depth in (1000, 2000, 4000):
        put(folder, f"req-{rid()}.json", b"[" * depth)
        r = rid()
        body = '{"v":1,"id":"%s","seat":"%s","kind":"roll","offer":%s}' % (r, cid, "[" * depth + "]" * depth)
        put(folder, f"req-{r}.json", body.encode()[:4000])


def markup(folder: Path, cid: str, out: Path) -> None:
    for kind in ("[/nope]", "[bold red]", "[link=http://x]x[/link]"):
        r, data = request(cid, kind)
        put(folder, f"req-{r}.json", data)
    r, data = request(cid, "roll", offer=1, **{"[/nope]": 1})
    put(folder, f"req-{r}.json", data)
    r, data = request(cid, "action", roll=1, action="[/nope]")
    put(folder, f"req-{r}.json", data)
    r, data = request("[/oops]", "roll", offer=1)
    put(folder, f"req-{r}.json", data)


def fifo_links(folder: Path, cid: str, out: Path) -> None:
    for _ in range(3):
        (folder / f"req-{rid()}.json").symlink_to(out / "pipe")
    os.mkfifo(folder / f"req-{rid()}.json")


def json_links(folder: Path, cid: str, out: Path) -> None:
    (folder / f"req-{rid()}.json").symlink_to(out / "gm.json")
    os.link(out / "gm.json", folder / f"req-{rid()}.json")


def secret_folder(folder: Path, cid: str, out: Path, secret: str = "") -> None:
    sf = folder.parent / secret
    sf.mkdir(exist_ok=True)
    r, data = request(secret, "story_point", bought="a clue")
    put(sf, f"req-{r}.json", data)


def many(folder: Path, cid: str, out: Path) -> None:
    for _ in range(10_000):
        r, data = request(cid, "roll", offer=999999)
        (folder / f"req-{r}.json").write_bytes(data)


def huge(folder: Path, cid: str, out: Path) -> None:
    put(folder, f"req-{rid()}.json", b"{" + b" " * 5_000_000)


CASES: dict[str, Callable[..., None]] = {
    "nested 1,000-4,000 deep": deep, "kind is markup": markup, "symlink to a FIFO and a FIFO": fifo_links,
    "symlink and hard link to a readable JSON file": json_links, "a folder named after a secret character":
    secret_folder, "10,000 request files": many, "a 5 MB request": huge,
}


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("case", list(CASES))
@pilot_test
async def test_a_hostile_request_is_refused_and_the_app_stays_responsive(tmp_path, monkeypatch, case, system):
    monkeypatch.setenv("POLKU_CONFIG_DIR", str(tmp_path / "config"))
    t, sf, seq, secret = session(tmp_path, system)
    out = outside(tmp_path)
    before = tree(tmp_path)
    n = len(t.events)
    app = make_app(t, sf, sessions_dir=tmp_path)
    cid = HOSTILE[system]
    folder = seats.seat_dir(sf.path, cid)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        folder.mkdir()  # as the seat makes it when it opens
        if case == "a folder named after a secret character":
            secret_folder(folder, cid, out, secret)
            folder = folder.parent / secret
        else:
            CASES[case](folder, cid, out)
        if case != "10,000 request files":
            await wait_until(pilot, lambda: not any(p.name.startswith("req-") and not p.is_dir()
                                                    for p in folder.iterdir()), "look at the hostile requests")
            await settle(pilot)
        await still_works(pilot, app, t, sf.path, system, seq)
        shown = notes(app)
    assert tree(tmp_path) == before, "nothing outside the spool was read away or written"
    assert not any(e.get("seat") == cid for e in t.events[n:]), "no hostile request changed the session"
    got = answers(folder)
    if case != "10,000 request files":
        assert got and all(a["ok"] is False for a in got), "each hostile request is refused"
    no_leak([a["text"] for a in got] + shown)
    if case == "a folder named after a secret character":
        assert [a["text"] for a in got] == ["no character has a seat in this folder"]
    sf.close()


@pytest.mark.parametrize("system", SYSTEMS)
@pilot_test
async def test_a_spool_folder_replaced_by_a_link_is_never_written_through(tmp_path, monkeypatch, system):
    monkeypatch.setenv("POLKU_CONFIG_DIR", str(tmp_path / "config"))
    t, sf, seq, _ = session(tmp_path, system)
    cid = HOSTILE[system]
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / cid).mkdir(parents=True)
    r, data = request(cid, "story_point", bought="x")
    (elsewhere / cid / f"req-{r}.json").write_bytes(data)
    seats.spool_dir(sf.path).symlink_to(elsewhere)
    app = make_app(t, sf, sessions_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert any("Players' seats are off" in x and "symbolic link" in x for x in notes(app))
    assert sorted(p.name for p in (elsewhere / cid).iterdir()) == [f"req-{r}.json"], "nothing written there"
    assert sorted(p.name for p in elsewhere.iterdir()) == [cid], "no seat folders made there"

    # Replaced while the app runs: the next look refuses the folder and writes nothing through it.
    seats.spool_dir(sf.path).unlink()
    app = make_app(t, sf, sessions_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        spool = seats.spool_dir(sf.path)
        spool.rename(tmp_path / "old-spool")
        spool.symlink_to(elsewhere)
        app.pick_up_requests()
        await wait_until(pilot, lambda: any("not a plain folder" in x for x in notes(app)), "a warning")
        await settle(pilot)
        assert getattr(app, "_exception", None) is None
    assert sorted(p.name for p in (elsewhere / cid).iterdir()) == [f"req-{r}.json"]
    sf.close()


# ---------------------------------------------------------------------------
# the fuzz


def hostile_round(rng: random.Random, folder: Path, cid: str, out: Path, seq: int) -> None:
    """One random piece of hostile content in a seat folder."""
    what = rng.randrange(10)
    name = f"req-{rid()}.json"
    if what == 0:
        put(folder, name, rng.randbytes(rng.randrange(1, 6000)))
    elif what == 1:
        d = rng.randrange(1, 5000)
        put(folder, name, rng.choice([b"[", b"{\"a\":", b"[{\"x\":"]) * d)
    elif what == 2:
        (folder / name).symlink_to(rng.choice([out / "pipe", out / "gm.json", out, Path("/etc/passwd"),
                                               out / "missing"]))
    elif what == 3:
        os.mkfifo(folder / name)
    elif what == 4:
        put(folder, name, b"{" + b" " * rng.randrange(4097, 200_000))
    elif what == 5:
        for _ in range(rng.randrange(50, 400)):
            put(folder, f"req-{rid()}.json", rng.randbytes(rng.randrange(1, 64)))
    elif what == 6:
        r, data = request(rng.choice([cid, "x[/b]", MARK]), rng.choice(["roll", "action", "story_point", "[/x]"]),
                          **rng.choice(cast(list[dict[str, Any]], [
                              {"offer": seq}, {"offer": rng.choice([0, -1, 2**70, "1", None])},
                              {"roll": 1, "action": "[/x]"}, {"bought": "[b]x" * 80},
                              {"faces": [rng.randrange(-5, 20) for _ in range(70)]}])))
        put(folder, f"req-{r}.json", data)
    elif what == 7:
        (folder / name).mkdir()
    elif what == 8:
        os.link(out / "gm.json", folder / name)
    else:
        put(folder, f".req-{rid()}.json.tmp-9-ab", rng.randbytes(10))


def racer(folder: Path, out: Path, stop: threading.Event, seed: int) -> None:
    """Write a request file and swap it for a link to a pipe or a JSON file, again and again."""
    rng = random.Random(seed)
    while not stop.is_set():
        name = folder / f"req-{rid()}.json"
        try:
            name.write_bytes(b"{}")
            link = folder / f".swap-{rid()}"
            link.symlink_to(rng.choice([out / "pipe", out / "gm.json"]))
            os.replace(link, name)
        except OSError:
            pass
        stop.wait(0.002)


@pytest.mark.parametrize("system", SYSTEMS)
@pilot_test
async def test_spool_fuzz_no_crash_no_freeze_nothing_outside(tmp_path, monkeypatch, system):
    monkeypatch.setenv("POLKU_CONFIG_DIR", str(tmp_path / "config"))
    t, sf, seq, secret = session(tmp_path, system)
    out = outside(tmp_path)
    before = tree(tmp_path)
    cid = HOSTILE[system]
    rng = random.Random(f"spool-{system}")
    app = make_app(t, sf, sessions_dir=tmp_path)
    stop = threading.Event()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        folder = seats.seat_dir(sf.path, cid)
        folder.mkdir()
        race = threading.Thread(target=racer, args=(folder, out, stop, rng.randrange(1 << 30)), daemon=True)
        race.start()
        try:
            for i in range(60):
                target = folder if i % 7 else seats.spool_dir(sf.path) / rng.choice([secret, cid, "zz-nobody"])
                target.mkdir(exist_ok=True)
                hostile_round(rng, target, cid, out, seq)
                if i % 10 == 0:
                    await pilot.pause(0.05)
        finally:
            stop.set()
            race.join()
        await still_works(pilot, app, t, sf.path, system, seq)
        shown = notes(app)
    assert getattr(app, "_exception", None) is None
    assert tree(tmp_path) == before
    no_leak(shown)
    for seat in seats.spool_dir(sf.path).iterdir():
        no_leak([a["text"] for a in answers(seat)])
    sf.close()


def test_a_request_swapped_for_a_link_to_a_pipe_after_listing_is_refused_without_waiting(tmp_path):
    """The race: listed as a file, a link to a pipe when opened (before, open() blocked for good)."""
    t = demo.demo_varjojuoksu()
    path = files.create_session(tmp_path / "night.toml", t).path
    folder = seats.seat_dir(path, "kaneda")
    folder.mkdir(parents=True)
    r, data = request("kaneda", "story_point", bought="x")
    (folder / f"req-{r}.json").write_bytes(data)
    [(cid, file)] = seats.incoming(path)
    os.mkfifo(tmp_path / "pipe")
    file.unlink()
    file.symlink_to(tmp_path / "pipe")
    got: list[Any] = []
    worker = threading.Thread(target=lambda: got.append(seats.handle(t, path, cid, file)), daemon=True)
    worker.start()
    worker.join(HANG_GUARD)
    if worker.is_alive():  # unblock the stuck open() so the suite can go on
        os.close(os.open(tmp_path / "pipe", os.O_WRONLY | os.O_NONBLOCK))
        pytest.fail("handle() blocked on a pipe")
    assert got == [{"v": 1, "id": r, "ok": False, "text": "the request is a symbolic link, not a file"}]
    assert not file.exists() and not file.is_symlink()
