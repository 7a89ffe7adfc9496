"""Polku's benchmark suite: every performance target beside its baseline, in one run.

Usage::

    python benchmarks/run.py [--quick] [--json] [--only NAME[,NAME...]] [--keep DIR]

Prints a table (figure, measured, baseline, ratio, target, ok/MISSED) and,
with ``--json``, the same rows and the raw samples as JSON. Exit status 0 when
every target holds, 1 otherwise. ``--quick`` runs fewer repetitions (under a
minute); the full suite takes about two to three minutes.

How each figure is taken (these machines are noisy, so each figure is measured
beside its baseline in the same run, alternating runs, and compared as a ratio):

* **Start to first frame** (``start``): the app runs in a real pseudo-terminal
  (``pty.fork``, 120x40, ``TERM=xterm-256color``, ``COLORTERM=truecolor``)
  with ``POLKU_CONFIG_DIR``/``POLKU_SESSIONS_DIR`` in a temp folder and a copy
  of the session file. The clock runs from just before the fork to the arrival
  of the output chunk that completes the first frame, recognised by text only
  that frame shows: the campaign name in the status line (Polku), the Static's
  text (the bare app). Baseline: a bare Textual app with one Static, same
  method, same interpreter. Each run is stopped with SIGKILL after its first
  frame (each uses its own temp copy, so a stale lock cannot matter).
* **resolve** (``resolve``): the venv's ``polku`` script (what a user runs),
  spawn to exit, against ``python -c pass``; and a check that it does not
  import textual or rich.
* **Key to frame** (``keys``): a 10,000-event session, roll screen open
  (``1`` then ``r``), then ``r`` pressed N times (200; 50 with ``--quick``).
  The harness answers Textual's synchronized-output query
  (``CSI ? 2026 $ p``), so every frame ends with ``CSI ? 2026 l``. One press
  is timed from the write of the key to the end of the last frame it causes:
  the first byte is awaited (up to 5 s), then the output is read until it
  has been quiet for the settle window (50 ms,
  more than three 60 Hz frame intervals, so follow-up frames such as the
  autosave status are counted) and the window is not counted: the figure is
  the time of the last byte. The bytes are counted over the same span. The
  presses start as soon as the roll screen is open, while the app's
  background check of the old events still runs, as they would at a table.
* **Next** (``next``): a 10,000-event Varjojuoksu session ending in a fight
  (``make_session.py --fight``: every character in the initiative, PCs with 2
  passes, scores kept each combat turn so "next" never stops for a roll), the
  GM's screen, then ``space`` pressed N times (200; 50 with ``--quick``), each
  timed as for the roll key: the marker moves, the turn pane, the log and the
  autosave status repaint. Baseline, alternating with it in the same run: the
  wound key and back (``w``/``W`` on the selected character), another command
  of the GM's screen that logs one line.
* **Autosave** (``autosave``): in-process, ``open_session`` on a copy of the
  10,000-event file; per command, ``SessionFile.snapshot`` (the UI thread's
  share) and ``SessionFile.save`` (the worker's). Baseline: appending the same
  bytes to a scratch file with ``fsync`` (the disk's floor). One compaction
  (the full rewrite every 500 appends) is shown for information.
* **Odds** (``odds``): ``benchmarks/odds.py --json`` (``--quick`` passed on).
* **Seats** (``seats``): ``benchmarks/seats.py``: a GM's roll reaching a seat
  and ``polku watch`` (saved in-process, and from the GM's key in the GM's app
  in a pty), a seat's request applied in the GM's app, a seat's first frame
  against the GM's app's, the bytes a seat is sent per roll.
* **Memory** (``memory``): peak RSS (``ru_maxrss`` from ``wait4``) of the app
  process over a whole visit -- first frame, ``1``, ``r`` (roll screen),
  ``r`` (a roll), Escape, ``q`` (save and quit, which waits for the
  background check of the old events) -- with the 10,000-event session
  against a new, empty campaign file, same run.

The 10,000-event session is made once per run by ``make_session.py``
(rajapolku, seed 1).
"""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import platform
import pty
import re
import select
import shutil
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path
from typing import Any, Callable

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "src"))

PY = sys.executable
COLS, ROWS = 120, 40
SYNC_QUERY = b"\x1b[?2026$p"
SYNC_REPLY = b"\x1b[?2026;2$y"
SYNC_END = b"\x1b[?2026l"
SETTLE_S = 0.050
BARE_TEXT = "Bare Textual app: one Static"

BARE_APP = f'''
from textual.app import App
from textual.widgets import Static


class Bare(App):
    BINDINGS = [("q", "quit", "Quit")]

    def compose(self):
        yield Static({BARE_TEXT!r})


Bare().run()
'''


def polku_cmd() -> list[str]:
    script = Path(PY).parent / "polku"
    return [str(script)] if script.exists() else [PY, "-m", "polku.cli"]


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    if not s:
        return float("nan")
    k = (len(s) - 1) * p / 100
    lo, hi = int(k), min(len(s) - 1, int(k) + 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


# --------------------------------------------------------------------------- pty


def players_file(session: Path) -> Path:
    """The players' file a GM's app writes beside ``session`` (named so by every version measured)."""
    return session.with_name(session.name.removesuffix(".toml") + ".players.jsonl")


def file_ident(path: Path) -> tuple[int, int] | None:
    """(device, inode) of ``path``, or None when it is not there: the file written whole again is another."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    return st.st_dev, st.st_ino


class PtyApp:
    """A program in a pseudo-terminal, read with timestamps; answers the 2026 query."""

    def __init__(self, argv: list[str], env: dict[str, str], cwd: Path) -> None:
        self.t_spawn = time.perf_counter()
        pid, fd = pty.fork()
        if pid == 0:  # child
            try:
                fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
                os.chdir(cwd)
                os.execve(argv[0], argv, env)
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        self.buf = bytearray()
        self.eof = False
        self.rusage: Any = None
        self.session: Path | None = None
        """The session file the app was started on (a GM's app), if any."""
        self._tail = b""
        self._last = self.t_spawn

    def read(self, timeout: float) -> tuple[float, bytes] | None:
        """One chunk (time, bytes), or None after ``timeout`` s of silence / at EOF."""
        if self.eof:
            return None
        ready, _, _ = select.select([self.fd], [], [], max(0.0, timeout))
        if not ready:
            return None
        try:
            data = os.read(self.fd, 1 << 16)
        except OSError:
            data = b""
        now = time.perf_counter()
        if not data:
            self.eof = True
            return None
        scan = self._tail + data
        if SYNC_QUERY in scan:
            os.write(self.fd, SYNC_REPLY)
        self._tail = scan[-16:]
        self.buf += data
        return now, data

    def wait_for(self, needle: bytes, timeout: float = 30.0) -> float:
        """Time of the chunk that completes ``needle`` in the output (searched from now on)."""
        start = max(0, len(self.buf) - len(needle))
        deadline = time.perf_counter() + timeout
        while True:
            if self.buf.find(needle, start) >= 0:
                return self._last
            left = deadline - time.perf_counter()
            got = self.read(left)
            if got is None:
                raise RuntimeError(f"no {needle!r} within {timeout} s (eof={self.eof}); "
                                   f"output tail: {bytes(self.buf[-300:])!r}")
            self._last = got[0]

    def settle(self, quiet: float = SETTLE_S, limit: float = 10.0,
               first: float = 5.0) -> tuple[float | None, int, float | None]:
        """Wait up to ``first`` s for output, then read until ``quiet`` s pass without any:
        (time of the last byte or None, bytes read, end of the first frame)."""
        last = None
        first_end = None
        n = 0
        deadline = time.perf_counter() + limit
        while time.perf_counter() < deadline:
            got = self.read(quiet if last is not None else first)
            if got is None:
                break
            last = got[0]
            n += len(got[1])
            if first_end is None and SYNC_END in got[1]:
                first_end = got[0]
        return last, n, first_end

    def wait_published(self, before: tuple[int, int] | None = None, timeout: float = 120.0) -> float:
        """Read the app's output until the players' file beside its session is another file than ``before``
        (its identity before the start, :func:`file_ident`): the time it appeared.

        A GM's app writes that file whole when it opens a session, projecting the whole log for the players
        in a worker thread first (seconds at 10,000 events); a key pressed meanwhile waits for the
        interpreter's lock. The figures of a running session start once it is written, and the time it
        takes is a figure of its own.
        """
        assert self.session is not None, "started without a session file"
        players = players_file(self.session)
        deadline = time.perf_counter() + timeout
        while True:
            now = file_ident(players)
            if now is not None and now != before:
                return time.perf_counter()
            if time.perf_counter() > deadline:
                raise RuntimeError(f"{players.name} not written within {timeout} s")
            self.read(0.005)

    def key(self, data: bytes) -> float:
        t = time.perf_counter()
        os.write(self.fd, data)
        return t

    def kill(self) -> None:
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.reap()

    def reap(self, timeout: float = 60.0) -> Any:
        deadline = time.perf_counter() + timeout
        while self.rusage is None:
            pid, _status, ru = os.wait4(self.pid, os.WNOHANG)
            if pid:
                self.rusage = ru
                break
            if time.perf_counter() > deadline:
                os.kill(self.pid, signal.SIGKILL)
                deadline = time.perf_counter() + 5
            self.read(0.05)  # keep the pty drained
        try:
            os.close(self.fd)
        except OSError:
            pass
        return self.rusage


class Workspace:
    """Temp folders and the session files of one run."""

    def __init__(self, root: Path, quick: bool) -> None:
        self.root = root
        self.quick = quick
        (root / "config").mkdir()
        (root / "sessions").mkdir()
        self.bare = root / "bare_app.py"
        self.bare.write_text(BARE_APP)
        self.demo = ROOT / "sessions" / "demo-rajapolku.toml"
        self.big = root / "big-10000.toml"
        t0 = time.perf_counter()
        subprocess.run([PY, str(HERE / "make_session.py"), "--events", "10000", "--system", "rajapolku",
                        "--seed", "1", "-o", str(self.big)], check=True, stdout=subprocess.DEVNULL)
        self.make_s = time.perf_counter() - t0
        self.empty = root / "empty.toml"
        from polku.session.files import create_session
        from polku.session.tracker import Tracker

        sf = create_session(self.empty, Tracker.new("rajapolku", "Bench: an empty campaign"))
        sf.close()
        self._n = 0

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("TEXTUAL", "POLKU"))}
        env.update(TERM="xterm-256color", COLORTERM="truecolor", LANG=env.get("LANG", "C.UTF-8"),
                   POLKU_CONFIG_DIR=str(self.root / "config"), POLKU_SESSIONS_DIR=str(self.root / "sessions"),
                   POLKU_STATE_DIR=str(self.root / "state"),
                   COLUMNS=str(COLS), LINES=str(ROWS))
        env.pop("NO_COLOR", None)
        return env

    def copy(self, src: Path) -> Path:
        self._n += 1
        d = self.root / f"run{self._n}"
        d.mkdir()
        dst = d / src.name
        shutil.copyfile(src, dst)
        return dst

    def campaign_name(self, path: Path) -> str:
        from polku.session import store

        return store.load_lazy(path).doc["state"]["campaign"]["name"]

    def start_polku(self, session: Path) -> tuple[PtyApp, float]:
        copy = self.copy(session)
        name = self.campaign_name(session)  # before the start: the output is read and timed only while waiting
        app = PtyApp(polku_cmd() + [str(copy)], self.env(), copy.parent)
        app.session = copy
        t = app.wait_for(name.encode())
        return app, t - app.t_spawn

    def start_bare(self) -> tuple[PtyApp, float]:
        app = PtyApp([PY, str(self.bare)], self.env(), self.root)
        t = app.wait_for(BARE_TEXT.encode())
        return app, t - app.t_spawn


# --------------------------------------------------------------------------- figures


Row = dict[str, Any]


def row(figure: str, measured: float, baseline: float | None, unit: str, target: str, ok: bool,
        ratio: float | None = None, ratio_text: str | None = None, **extra: Any) -> Row:
    if ratio is None and baseline:
        ratio = measured / baseline
    return {"figure": figure, "measured": measured, "baseline": baseline, "unit": unit,
            "ratio": ratio, "ratio_text": ratio_text or (f"{ratio:.2f}×" if ratio is not None else "—"),
            "target": target, "ok": ok, **extra}


def bench_start(ws: Workspace, reps: int) -> tuple[list[Row], dict[str, Any]]:
    kinds: dict[str, Callable[[], tuple[PtyApp, float]]] = {
        "bare": ws.start_bare,
        "demo": lambda: ws.start_polku(ws.demo),
        "big": lambda: ws.start_polku(ws.big),
    }
    samples: dict[str, list[float]] = {k: [] for k in kinds}
    for rep in range(reps + 1):  # the first round warms the disk cache and .pyc files
        for kind, start in kinds.items():
            app, secs = start()
            app.kill()
            if rep:
                samples[kind].append(secs * 1000)
    med = {k: statistics.median(v) for k, v in samples.items()}
    rows = [
        row("start → first frame, demo session", med["demo"], med["bare"], "ms", "≤ 1.3× bare",
            med["demo"] <= 1.3 * med["bare"]),
        row("start → first frame, 10,000 events", med["big"], med["bare"], "ms", "≤ 1000 ms, ≤ 5× bare",
            med["big"] <= 1000 and med["big"] <= 5 * med["bare"]),
    ]
    return rows, {"start_ms": samples}


def bench_resolve(ws: Workspace, reps: int) -> tuple[list[Row], dict[str, Any]]:
    argv = polku_cmd() + ["resolve", "rajapolku", "7,7,3", "8,5,3", "--json"]
    base = [PY, "-c", "pass"]
    env = ws.env()
    out = subprocess.run(argv, env=env, capture_output=True, text=True, check=True).stdout
    json.loads(out)
    check = subprocess.run([PY, "-X", "importtime"] + (argv if argv[0] == PY else [PY] + argv), env=env,
                           capture_output=True, text=True)
    heavy = sorted({m for m in ("textual", "rich") if re.search(rf"\|\s+{m}(\.|$)", check.stderr, re.M)})
    times: dict[str, list[float]] = {"resolve": [], "pass": []}
    for rep in range(reps + 2):
        for name, cmd in (("pass", base), ("resolve", argv)):
            t0 = time.perf_counter()
            subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, check=True)
            if rep >= 2:
                times[name].append((time.perf_counter() - t0) * 1000)
    r, b = statistics.median(times["resolve"]), statistics.median(times["pass"])
    return [row("headless `polku resolve … --json`", r, b, "ms", "≤ 6× `python -c pass`, no textual",
                r <= 6 * b and not heavy, imports_heavy=heavy)], {"resolve_ms": times}


def bench_keys(ws: Workspace, presses: int) -> tuple[list[Row], dict[str, Any]]:
    app, _ = ws.start_polku(ws.big)
    try:
        # The presses start once the app has published the players' file it writes whole at the open
        # (``published_ms``, from the fork): a key pressed before waits on that projection (reported apart).
        published_ms = (app.wait_published() - app.t_spawn) * 1000
        app.settle(0.3)
        for k in (b"1", b"r"):
            app.key(k)
            app.settle(0.3)
        lat, first, sizes = [], [], []
        silent = 0
        for _ in range(presses):
            silent += not _press(app, b"r", lat, first, sizes)
        app.key(b"\x1b")
        app.settle(0.3)
        rss_mid = _vm_hwm(app.pid)
    finally:
        app.kill()
    p50, p95 = statistics.median(lat), pct(lat, 95)
    kb50, kbmax = statistics.median(sizes) / 1024, max(sizes) / 1024
    extra = {"presses": presses, "no_output": silent, "settle_ms": SETTLE_S * 1000,
             "first_frame_p50_ms": statistics.median(first), "first_frame_p95_ms": pct(first, 95),
             "max_ms": max(lat), "vm_hwm_kb_after_rolls": rss_mid, "players_file_written_ms": published_ms}
    rows = [
        row(f"key → frame, roll at 10,000 events, p50 ({presses} presses)", p50, None, "ms", "≤ 20 ms",
            p50 <= 20 and not silent, **extra),
        row("key → frame, roll at 10,000 events, p95", p95, None, "ms", "≤ 50 ms", p95 <= 50 and not silent),
        row("bytes to the pty per roll (120x40), median", kb50, None, "KB", "≤ 10 KB", kb50 <= 10,
            max_kb=kbmax),
        row("  start → players' file written whole, 10,000 events (before the presses)", published_ms, None, "ms",
            "info", True),
    ]
    return rows, {"key_ms": lat, "key_first_frame_ms": first, "bytes": sizes}


def _press(app: PtyApp, key: bytes, lat: list[float], first: list[float], sizes: list[int]) -> bool:
    """Press ``key`` and wait for the app to settle; add the time to the last and to the first frame
    (ms) and the bytes drawn; False when the key drew nothing."""
    t = app.key(key)
    last, n, first_end = app.settle()
    if last is None:
        return False
    lat.append((last - t) * 1000)
    first.append(((first_end or last) - t) * 1000)
    sizes.append(n)
    return True


def bench_burst(ws: Workspace, reps: int) -> tuple[list[Row], dict[str, Any]]:
    """A 40-letter line written to the pty in one write (a paste, or SSH delivering a line typed
    ahead) into the note prompt of the demo session: from the write to the frame showing the line's
    end. Each letter after the first is held by the type-ahead until the app has handled the one before."""
    line = b"the warehouse by the river at midnight!!"
    took = []
    for _ in range(reps):
        app, _ = ws.start_polku(ws.demo)
        try:
            app.settle(0.3)
            app.key(b"o")
            app.wait_for(b"Note")
            app.settle(0.3)
            t = app.key(line)
            took.append((app.wait_for(line[-12:], timeout=60) - t) * 1000)
        finally:
            app.kill()
    p50 = statistics.median(took)
    return [row(f"a 40-key line typed ahead into a prompt → on screen, p50 ({reps} runs)", p50, None, "ms",
                "≤ 500 ms", p50 <= 500, max_ms=max(took))], {"burst_ms": took}


def bench_next(ws: Workspace, presses: int) -> tuple[list[Row], dict[str, Any]]:
    """``space`` (next in the turn order) on the GM's screen of a 10,000-event Varjojuoksu fight."""
    fight = ws.root / "fight-10000.toml"
    subprocess.run([PY, str(HERE / "make_session.py"), "--events", "10000", "--system", "shadowrun",
                    "--seed", "1", "--fight", "-o", str(fight)], check=True, stdout=subprocess.DEVNULL)
    app, _ = ws.start_polku(fight)
    try:
        app.settle(0.3)
        lat, first, sizes, base = [], [], [], []
        silent = 0
        for i in range(presses):
            if not _press(app, b" ", lat, first, sizes):
                silent += 1
                continue
            # Baseline, alternating in the same run: a wound box on the selected character and back
            # (another command of the GM's screen that logs one line).
            t = app.key(b"w" if i % 2 == 0 else b"W")
            last, _, _ = app.settle()
            if last is not None:
                base.append((last - t) * 1000)
    finally:
        app.kill()
    p50, p95 = statistics.median(lat), pct(lat, 95)
    b50, b95 = statistics.median(base), pct(base, 95)
    rows = [
        row(f"key → frame, next (turn marker) at 10,000 events, p50 ({presses} presses)", p50, b50, "ms",
            "≤ 20 ms", p50 <= 20 and not silent, no_output=silent,
            first_frame_p50_ms=statistics.median(first), first_frame_p95_ms=pct(first, 95)),
        row("key → frame, next at 10,000 events, p95", p95, b95, "ms", "≤ 50 ms", p95 <= 50 and not silent,
            median_kb=statistics.median(sizes) / 1024),
    ]
    return rows, {"next_ms": lat, "next_first_frame_ms": first, "next_bytes": sizes, "wound_key_ms": base}


def _vm_hwm(pid: int) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def bench_memory(ws: Workspace, reps: int) -> tuple[list[Row], dict[str, Any]]:
    peaks: dict[str, list[float]] = {"empty": [], "big": []}
    for _ in range(reps):
        for kind, session in (("empty", ws.empty), ("big", ws.big)):
            app, _ = ws.start_polku(session)
            app.settle(0.2)
            for k in (b"1", b"r", b"r", b"\x1b"):
                app.key(k)
                app.settle(0.4)  # > Textual's escape delay, so Escape and q stay two keys
            app.key(b"q")
            ru = app.reap()
            peaks[kind].append(ru.ru_maxrss / 1024)
    e, b = statistics.median(peaks["empty"]), statistics.median(peaks["big"])
    return [row("peak RSS, 10,000 events vs an empty session", b, e, "MB", "≤ 1.5×", b <= 1.5 * e)], {"rss_mb": peaks}


def bench_autosave(ws: Workspace, commands: int) -> tuple[list[Row], dict[str, Any]]:
    import random

    from polku.session.files import open_session
    from polku.session.rolls import RajaSide

    path = ws.copy(ws.big)
    t, sf = open_session(path)
    rng = random.Random(5)
    pcs = [cid for cid, ch in t.characters.items() if ch["kind"] == "pc"]
    snap, save, floor, full = [], [], [], 0
    scratch = path.parent / "floor.bin"
    try:
        sf.save_now(t)  # anything pending from opening
        for _ in range(commands):
            cid = rng.choice(pcs)
            ch = t.character(cid)
            t.rolls.roll_raja(RajaSide(ch["name"], [cid], backgrounds=ch["backgrounds"][:1]),
                        RajaSide("GM", [], backgrounds=["Tough"]))
            t0 = time.perf_counter()
            job = sf.snapshot(t)
            t1 = time.perf_counter()
            sf.save(job)
            t2 = time.perf_counter()
            snap.append((t1 - t0) * 1000)
            save.append((t2 - t1) * 1000)
            full += bool(job.full)
            # the disk's floor: the same bytes appended to a scratch file with fsync
            from polku.session.store.format import event_block

            data = event_block(job.events[-1], "bench").encode()
            t3 = time.perf_counter()
            fd = os.open(scratch, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
            try:
                os.write(fd, data)
                os.fsync(fd)
            finally:
                os.close(fd)
            floor.append((time.perf_counter() - t3) * 1000)
        # every COMPACT_EVERY appends the worker rewrites the whole file instead
        t.note("compaction")
        t.needs_full_save = True
        t0 = time.perf_counter()
        job = sf.snapshot(t)
        t1 = time.perf_counter()
        sf.save(job)
        compact_ms, compact_snap_ms = (time.perf_counter() - t1) * 1000, (t1 - t0) * 1000
        assert job.full
    finally:
        sf.close()
    p95, fp95 = pct(save, 95), pct(floor, 95)
    rows = [
        row(f"autosave of one command at 10,000 events, p95 ({commands} commands)", p95, fp95, "ms",
            "≤ 5 ms (worker thread)", p95 <= 5, p50=statistics.median(save), max=max(save), full_rewrites=full),
        row("  of which on the UI thread (snapshot), p95", pct(snap, 95), None, "ms", "≈ 0 (≤ 0.5 ms)",
            pct(snap, 95) <= 0.5),
        row("  compaction, 1 save in 500 (worker; its snapshot on the UI thread)", compact_ms, compact_snap_ms, "ms",
            "info: off the UI thread", True, ratio_text="—"),
    ]
    return rows, {"save_ms": save, "snapshot_ms": snap, "floor_ms": floor, "compaction_ms": compact_ms,
                  "compaction_snapshot_ms": compact_snap_ms}


def bench_odds(ws: Workspace, quick: bool) -> tuple[list[Row], dict[str, Any]]:
    cmd = [PY, str(HERE / "odds.py"), "--json"] + (["--quick"] if quick else [])
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    data = json.loads(out)
    rows = []
    for r in data["rows"]:
        ip = r["icepool_ms"]
        speed = (ip / r["polku_ms"]) if ip is not None else None
        ok = r["polku_ms"] <= 10 and (speed is None or speed >= 20)
        if speed is not None:
            ratio_text = f"{speed:,.0f}× faster"
        elif r["icepool_timeout_s"] is None:
            ratio_text = "no icepool form; checked by tests"
        else:
            ratio_text = f"icepool > {r['icepool_timeout_s']} s"
        target = "≤ 10 ms, ≥ 20× faster" if r["icepool_timeout_s"] is not None or ip is not None else "≤ 10 ms"
        rows.append(row(f"odds: {r['question']}", r["polku_ms"], ip, "ms", target, ok,
                        ratio=(r["polku_ms"] / ip) if ip else None, ratio_text=ratio_text,
                        max_abs_diff=r["max_abs_diff"]))
    return rows, {"odds": data}


# --------------------------------------------------------------------------- output


def _bench_seats(ws: Workspace, rolls: int) -> tuple[list[Row], dict[str, Any]]:
    """Players' seats and watch: benchmarks/seats.py (how each figure is taken is said there)."""
    import seats

    return seats.bench_seats(ws.root / "seats", rolls)


def fmt_value(v: float | None, unit: str) -> str:
    if v is None:
        return "—"
    if unit == "ms":
        return f"{v:.2f} ms" if v < 10 else f"{v:.0f} ms"
    if unit == "KB":
        return f"{v:.1f} KB"
    if unit == "MB":
        return f"{v:.0f} MB"
    return f"{v:.3g} {unit}"


def table(rows: list[Row], markdown: bool = False) -> str:
    head = ("figure", "measured", "baseline", "ratio", "target", "")
    body = [(r["figure"], fmt_value(r["measured"], r["unit"]), fmt_value(r["baseline"], r["unit"]),
             r["ratio_text"], r["target"], "ok" if r["ok"] else "MISSED") for r in rows]
    if markdown:
        lines = ["| " + " | ".join(head[:-1]) + " | |", "|---|---|---|---|---|---|"]
        lines += ["| " + " | ".join(c.replace("|", "\\|") for c in b) + " |" for b in body]
        return "\n".join(lines)
    widths = [max(len(x[i]) for x in [head, *body]) for i in range(len(head))]
    out = ["  ".join(h.ljust(w) for h, w in zip(head, widths)).rstrip()]
    out.append("  ".join("-" * w for w in widths))
    out += ["  ".join(c.ljust(w) for c, w in zip(b, widths)).rstrip() for b in body]
    return "\n".join(out)


def machine() -> dict[str, Any]:
    from importlib.metadata import version

    import textual.app  # noqa: F401 -- only for its version

    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"nproc": os.cpu_count(), "cpu": cpu or platform.processor(), "python": platform.python_version(),
            "textual": version("textual"), "platform": platform.platform()}


FIGURES = ("start", "resolve", "keys", "burst", "next", "autosave", "odds", "memory", "seats")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer repetitions (under a minute)")
    ap.add_argument("--json", action="store_true", help="print JSON (rows and samples) instead of the table")
    ap.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    ap.add_argument("--only", default=",".join(FIGURES), help=f"comma-separated subset of {','.join(FIGURES)}")
    ap.add_argument("--keep", type=Path, help="work in this folder and keep it (default: a temp folder)")
    args = ap.parse_args(argv)
    only = [x.strip() for x in args.only.split(",") if x.strip()]
    unknown = set(only) - set(FIGURES)
    if unknown:
        ap.error(f"unknown figure(s): {', '.join(sorted(unknown))}")
    q = args.quick
    # Start-up is measured as a user's installed copy runs: with bytecode caches.
    # (Some environments set PYTHONDONTWRITEBYTECODE, which would make every
    # start recompile Polku's modules.)
    import compileall

    compileall.compile_dir(str(Path(__file__).resolve().parents[1] / "src"), quiet=1)
    t_all = time.perf_counter()
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
        root = Path(tempfile.mkdtemp(prefix="run-", dir=args.keep))
    else:
        root = Path(tempfile.mkdtemp(prefix="polku-bench-"))
    rows: list[Row] = []
    samples: dict[str, Any] = {}
    try:
        ws = Workspace(root, q)
        plan: dict[str, Callable[[], tuple[list[Row], dict[str, Any]]]] = {
            "start": lambda: bench_start(ws, 3 if q else 15),
            "resolve": lambda: bench_resolve(ws, 8 if q else 25),
            "keys": lambda: bench_keys(ws, 50 if q else 200),
            "burst": lambda: bench_burst(ws, 3 if q else 10),
            "next": lambda: bench_next(ws, 50 if q else 200),
            "autosave": lambda: bench_autosave(ws, 50 if q else 200),
            "odds": lambda: bench_odds(ws, q),
            "memory": lambda: bench_memory(ws, 1 if q else 3),
            "seats": lambda: _bench_seats(ws, 20 if q else 100),
        }
        for name in FIGURES:
            if name not in only:
                continue
            t0 = time.perf_counter()
            got, raw = plan[name]()
            rows += got
            samples.update(raw)
            samples.setdefault("seconds", {})[name] = round(time.perf_counter() - t0, 1)
            if not args.json:
                print(f"[{name}: {time.perf_counter() - t0:.1f} s]", file=sys.stderr, flush=True)
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)
    info = machine()
    info["command"] = "python benchmarks/run.py" + (" --quick" if q else "")
    info["seconds"] = round(time.perf_counter() - t_all, 1)
    ok = all(r["ok"] for r in rows)
    if args.json:
        print(json.dumps({"machine": info, "ok": ok, "rows": rows, "samples": samples}, indent=1))
    else:
        print(table(rows, markdown=args.markdown))
        print()
        print(f"{info['nproc']} × {info['cpu']}, Python {info['python']}, Textual {info['textual']}; "
              f"{info['command']} in {info['seconds']:.0f} s; "
              + ("every target holds" if ok else f"MISSED: {sum(not r['ok'] for r in rows)}"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
