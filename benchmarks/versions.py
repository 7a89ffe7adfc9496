"""Polku now against an earlier version of itself, in one run: start, key → frame, 10,000-event load.

Usage::

    python benchmarks/versions.py [--base REV] [--reps N] [--presses N] [--json]

Issues 24 (typed records) and 25 (Finnish) promise that the app is as fast as
before them: start and key → frame within 5 % (the catalogues load once), the
10,000-event load and key → frame within 10 %. This machine is noisy, so the
versions are measured side by side in one run, alternating, and compared as
ratios to the base version:

* The base version's ``src/``, ``sessions/`` and ``benchmarks/make_session.py``
  are taken from git (``git archive REV``, default the commit before the work on
  both issues began) into a temp folder. Both versions run in this venv's
  interpreter with the same packages, ``PYTHONPATH`` pointing at their ``src``.
* Each version plays the files it writes itself: its own shipped Rajapolku demo
  and a 10,000-event Rajapolku session made by its own ``make_session.py``
  (seed 1): a file written by the new version carries each entry's facts.
* **Start → first frame** (pty, 120x40, as ``benchmarks/run.py``): the demo and
  the 10,000-event file, base in English, now in English and in Finnish
  (``POLKU_LANG=fi``); the versions alternate in each repetition.
* **Key → frame** (``r`` on the roll screen of the 10,000-event file, timed from
  the key's write to the last byte of its frames, as ``run.py``'s ``keys``):
  each repetition starts one app per version in turn and presses N times.
  The presses begin once the app has written the players' file it writes whole
  at the open (both versions do, projecting the whole log for the players in a
  worker thread: a key pressed meanwhile waits on it). How long that takes from
  the start is a figure of its own.
* **Load** (in-process, a fresh interpreter per sample): ``load_tracker`` of
  the 10,000-event file, alternating.

Prints one table: each figure's median for each version and the ratio to the base.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from run import PY, ROOT, PtyApp, machine, pct  # noqa: E402 - the harness of run.py, not a copy

BASE = "bbe2f12"
"""The commit before the typed records (issue 24) and the Finnish catalogue (issue 25) began."""

LOAD = """
import sys, time
from pathlib import Path
t = time.perf_counter()
from polku.session.files import load_tracker
tracker, _ = load_tracker(Path(sys.argv[1]))
print((time.perf_counter() - t) * 1000, len(tracker.events))
"""


class Version:
    """One version of Polku: its ``src`` folder, its files, the language it is shown in."""

    def __init__(self, name: str, tree: Path, lang: str, work: Path) -> None:
        self.name, self.tree, self.lang = name, tree, lang
        self.demo = tree / "sessions" / "demo-rajapolku.toml"
        self.big = work / f"big-{tree.name}.toml"
        self.work = work

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("TEXTUAL", "POLKU", "LC_"))}
        env.update(TERM="xterm-256color", COLORTERM="truecolor", LANG="C.UTF-8", PYTHONPATH=str(self.tree / "src"),
                   POLKU_CONFIG_DIR=str(self.work / "config"), POLKU_SESSIONS_DIR=str(self.work / "sessions"),
                   POLKU_STATE_DIR=str(self.work / "state"),
                   POLKU_LANG=self.lang, COLUMNS="120", LINES="40")
        env.pop("NO_COLOR", None)
        return env

    def make_big(self) -> None:
        if not self.big.exists():
            subprocess.run([PY, str(self.tree / "benchmarks" / "make_session.py"), "--events", "10000",
                            "--system", "rajapolku", "--seed", "1", "-o", str(self.big)],
                           check=True, stdout=subprocess.DEVNULL, env=self.env())

    def start(self, session: Path, n: int) -> tuple[PtyApp, float]:
        """The app on a copy of ``session``, and the ms from the fork to its first frame."""
        copy = self.work / f"run-{n}" / "session.toml"  # not named as a shipped demo: no play copy
        copy.parent.mkdir()
        shutil.copyfile(session, copy)
        # Read before the start: the terminal's output is read (and each chunk timed) only while waiting, so
        # parsing the 16 MB file here after the start (4-5 s) was measured as the app's (until 2026-12-03).
        name = campaign_name(session)
        app = PtyApp([PY, "-m", "polku", str(copy)], self.env(), copy.parent)
        app.session = copy
        return app, (app.wait_for(name.encode(), timeout=120) - app.t_spawn) * 1000

    def load_ms(self) -> float:
        out = subprocess.run([PY, "-c", LOAD, str(self.big)], check=True, capture_output=True, text=True,
                             env=self.env()).stdout.split()
        return float(out[0])


def campaign_name(path: Path) -> str:
    import tomllib

    with path.open("rb") as f:
        return str(tomllib.load(f)["state"]["campaign"]["name"])


def base_tree(rev: str, into: Path) -> Path:
    """``src``, ``sessions`` and ``benchmarks/make_session.py`` of ``rev``, unpacked into ``into``."""
    tar = into / "base.tar"
    with tar.open("wb") as f:
        subprocess.run(["git", "-C", str(ROOT), "archive", rev, "src", "sessions", "benchmarks/make_session.py"],
                       check=True, stdout=f)
    tree = into / "base"
    with tarfile.open(tar) as t:
        t.extractall(tree, filter="data")
    return tree


def key_presses(v: Version, presses: int, n: int) -> tuple[list[float], float]:
    """ms from each ``r`` to the last byte of its frames, on the roll screen of the big file; and the ms from
    the start to the players' file written whole (the presses begin after it: see ``PtyApp.wait_published``)."""
    app, _ = v.start(v.big, n)
    try:
        published = (app.wait_published() - app.t_spawn) * 1000
        app.settle(0.3)
        for k in (b"1", b"r"):
            app.key(k)
            app.settle(0.3)
        took = []
        for _ in range(presses):
            t = app.key(b"r")
            last, _, _ = app.settle()
            if last is not None:
                took.append((last - t) * 1000)
        return took, published
    finally:
        app.kill()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", default=BASE, help=f"the version to compare with (default {BASE})")
    ap.add_argument("--reps", type=int, default=10, help="starts and loads per version (default 10)")
    ap.add_argument("--presses", type=int, default=50, help="r presses per app (default 50)")
    ap.add_argument("--key-reps", type=int, default=3, help="apps per version for the key figure (default 3)")
    ap.add_argument("--json", action="store_true", help="print the samples as JSON too")
    args = ap.parse_args(argv)

    t0 = time.perf_counter()
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="polku-versions-") as tmp:
        work = Path(tmp)
        for sub in ("config", "sessions"):
            (work / sub).mkdir()
        base = base_tree(args.base, work)
        versions = [Version(f"base ({args.base}, en)", base, "en", work),
                    Version("now (en)", ROOT, "en", work), Version("now (fi)", ROOT, "fi", work)]
        for v in versions:
            v.make_big()
        samples: dict[str, dict[str, list[float]]] = {v.name: {"demo": [], "big": [], "key": [], "load": [],
                                                                  "published": []}
                                                       for v in versions}
        n = 0
        for rep in range(args.reps + 1):  # the first round warms the disk cache and .pyc files
            for v in versions if rep % 2 else versions[::-1]:
                for kind, session in (("demo", v.demo), ("big", v.big)):
                    n += 1
                    app, ms = v.start(session, n)
                    app.kill()
                    if rep:
                        samples[v.name][kind].append(ms)
                if rep:
                    samples[v.name]["load"].append(v.load_ms())
        for rep in range(args.key_reps):
            for v in versions if rep % 2 else versions[::-1]:
                n += 1
                took, published = key_presses(v, args.presses, n)
                samples[v.name]["key"] += took
                samples[v.name]["published"].append(published)
    load_after = os.getloadavg()

    figures = [("start → first frame, demo (median ms)", "demo", statistics.median),
               ("start → first frame, 10,000 events (median ms)", "big", statistics.median),
               ("10,000-event load_tracker (median ms)", "load", statistics.median),
               ("key → frame, r at 10,000 events (p50 ms)", "key", statistics.median),
               ("key → frame, r at 10,000 events (p95 ms)", "key", lambda xs: pct(xs, 95)),
               ("start → players' file written, 10,000 events (median ms)", "published", statistics.median)]
    names = [v.name for v in versions]
    head = ["figure"] + names + [f"{nm} / base" for nm in names[1:]]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for label, kind, stat in figures:
        values = [stat(samples[nm][kind]) for nm in names]
        ratios = [f"{x / values[0]:.2f}×" for x in values[1:]]
        lines.append("| " + " | ".join([label] + [f"{x:,.0f}" for x in values] + ratios) + " |")
    m = machine()
    lines.append("")
    lines.append(f"{m.get('cpu', '')}, Python {m.get('python', '')}; {args.reps} starts and loads, "
                 f"{args.key_reps}×{args.presses} presses per version; load average "
                 f"{load_before[0]:.2f} → {load_after[0]:.2f}; {time.perf_counter() - t0:.0f} s")
    print("\n".join(lines))
    if args.json:
        out: dict[str, Any] = {"samples": samples, "machine": m}
        print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
