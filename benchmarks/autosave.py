"""Autosave cost at the end of a long session.

Builds a 10,000-event session (realistic roll events), writes it with
``write_full``, then times 200 single ``append_events`` calls (what every
command costs), one ``write_full`` (compaction) and one ``load`` (opening the
file).

Targets: append p95 ≤ 5 ms at 10,000 events, opening ≤ 1 s (the app opens lazily:
the state and the events newer than the snapshot; a full parse is reported too).

Usage::

    python benchmarks/autosave.py [--events 10000] [--appends 200] [--dir DIR] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

try:
    from polku.session import store
except ImportError:  # run from a checkout without installing
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
    from polku.session import store

NAMES = ["aino", "ukko-halla", "lempi", "väinö", "kyllikki", "ilmari"]
LABELS = ["Tietäjä", "Kalastaja", "Seppä", "Metsästäjä", "Loitsu: tuulen sanat", ""]
SOURCES = ["base", "background", "ability", "story"]


def make_state(rng: random.Random) -> dict:
    chars = {}
    for cid in NAMES:
        chars[cid] = {
            "id": cid, "name": cid.title(), "player": "", "kind": "pc", "health": "", "notes": "x" * 80,
            "secret": False, "backgrounds": rng.sample(LABELS[:-1], 2),
            "abilities": [{"name": "Loitsu", "cost": 2, "per": "use"}],
            "wound": "Healthy", "charges": 5, "charges_max": 5, "story_points": 3, "paid_this_scene": [],
        }
    return {
        "campaign": {"name": "Kivikauden kaiku", "system": "rajapolku", "created": "2026-09-12", "continues": ""},
        "settings": {"raja.exhausted": True, "raja.full_tie": "reroll"},
        "wound_track": ["Healthy", "Bruised", "Wounded", "Badly wounded", "Out of play"],
        "structure": {"story": 3, "session": 12, "scene": 4, "scene_title": "Jäinen järvi"},
        "characters": chars,
        "challenges": [{"id": f"c{i}", "title": f"Challenge {i}", "status": "waiting"} for i in range(5)],
        "initiative": [],
        "narration": {"narrator": "", "table": [], "burned": [], "kind": "brawl", "ability_fight": False},
        "next_id": 100,
    }


def make_event(seq: int, rng: random.Random, max_dice: int = 7) -> dict:
    who = rng.choice(NAMES)
    dice = [
        {"size": rng.choice([4, 6, 8, 10, 12]), "face": rng.randint(1, 4),
         "source": rng.choice(SOURCES), "label": rng.choice(LABELS)}
        for _ in range(rng.randint(2, max(2, max_dice)))
    ]
    return {
        "seq": seq,
        "t": f"2026-11-30T{seq // 3600 % 24:02d}:{seq // 60 % 60:02d}:{seq % 60:02d}Z",
        "kind": "roll",
        "scene": 1 + seq // 50,
        "who": who,
        "text": f"{who.title()} vs. the ice of the lake: {who.title()} wins by {seq % 3 + 1} degrees",
        "dice": dice,
        "outcome": {"winner": who, "degrees": seq % 3 + 1},
        "changes": [
            {"path": ["characters", who, "charges"], "before": 5, "after": 4},
            {"path": ["characters", who, "wound"], "before": "Healthy", "after": "Bruised"},
        ],
    }


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, round(p / 100 * (len(s) - 1)))]


def run(events: int, appends: int, folder: Path, max_dice: int = 7) -> dict:
    rng = random.Random(1)
    path = folder / "bench.toml"
    state = make_state(rng)
    evs = [make_event(i, rng, max_dice) for i in range(1, events + 1)]
    doc = {"snapshot_seq": 0, "state": state, "event": evs}

    t0 = time.perf_counter()
    store.write_full(path, doc)
    first_write = time.perf_counter() - t0
    size = path.stat().st_size

    times = []
    for i in range(appends):
        ev = make_event(events + 1 + i, rng, max_dice)
        t0 = time.perf_counter()
        store.append_events(path, [ev])
        times.append(time.perf_counter() - t0)

    t0 = time.perf_counter()
    lazy = store.load_lazy(path)
    lazy_s = time.perf_counter() - t0
    assert len(lazy.doc["event"]) == events + appends and not lazy.notices

    t0 = time.perf_counter()
    loaded = store.load(path)
    load_s = time.perf_counter() - t0
    assert len(loaded.doc["event"]) == events + appends and not loaded.notices

    t0 = time.perf_counter()
    store.write_full(path, loaded.doc)
    compact_s = time.perf_counter() - t0

    ms = [t * 1000 for t in times]
    return {
        "events": events,
        "max_dice": max_dice,
        "file_bytes": size,
        "bytes_per_event": size // max(1, events),
        "append_ms": {"p50": statistics.median(ms), "p95": pct(ms, 95), "max": max(ms), "n": appends},
        "write_full_ms": compact_s * 1000,
        "first_write_full_ms": first_write * 1000,
        "load_ms": load_s * 1000,
        "open_lazy_ms": lazy_s * 1000,
        "targets": {
            "append_p95_le_5ms": pct(ms, 95) <= 5.0,
            "open_le_1s": lazy_s <= 1.0,
        },
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=10_000)
    ap.add_argument("--appends", type=int, default=200)
    ap.add_argument("--dir", type=Path, help="folder for the file (default: a temp folder; fsync cost depends on the disk)")
    ap.add_argument("--dice", type=int, default=7, help="dice per roll event: 2 to this (default 7)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.dir:
        args.dir.mkdir(parents=True, exist_ok=True)
        result = run(args.events, args.appends, args.dir, args.dice)
    else:
        with tempfile.TemporaryDirectory(prefix="polku-bench-", dir=os.getcwd()) as d:
            result = run(args.events, args.appends, Path(d), args.dice)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        a = result["append_ms"]
        rows = [
            ("session", f"{result['events']:,} events, {result['file_bytes'] / 1e6:.2f} MB ({result['bytes_per_event']} B/event)"),
            (f"append_events x{a['n']}", f"p50 {a['p50']:.2f} ms  p95 {a['p95']:.2f} ms  max {a['max']:.2f} ms"),
            ("write_full (compaction)", f"{result['write_full_ms']:.0f} ms"),
            ("open (lazy: state + newest events)", f"{result['open_lazy_ms']:.0f} ms"),
            ("full parse (review, export)", f"{result['load_ms']:.0f} ms"),
            ("targets", ", ".join(f"{k}={'ok' if v else 'MISSED'}" for k, v in result["targets"].items())),
        ]
        width = max(len(r[0]) for r in rows)
        for name, value in rows:
            print(f"{name:<{width}}  {value}")
    return 0 if all(result["targets"].values()) else 1


if __name__ == "__main__":
    sys.exit(main())
