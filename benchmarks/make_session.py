"""Make a large, realistic session file with the real tracker.

    python benchmarks/make_session.py --events 10000 --system rajapolku -o /tmp/big.toml

Several characters, scenes, sessions, and every kind of event: rolls (most
of them), resources, wounds, challenges, notes, resets, undo and redo.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from polku.session import store  # noqa: E402
from polku.session.demo import DEMOS, fixed_clock  # noqa: E402
from polku.session.files import document  # noqa: E402
from polku.session.rolls import HarhaSide, RajaSide, SRSide  # noqa: E402
from polku.session.tracker import Tracker, TrackerError  # noqa: E402

SYSTEM_DEMO = {"rajapolku": "rajapolku", "harhapolku": "harhapolku", "shadowrun": "varjojuoksu",
               "varjojuoksu": "varjojuoksu"}


def grow(t: Tracker, events: int, rng: random.Random) -> None:
    system = t.system.value
    pcs = [cid for cid, ch in t.characters.items() if ch["kind"] == "pc"]
    npcs = [cid for cid, ch in t.characters.items() if ch["kind"] != "pc"]
    n = 0
    while len(t.events) < events:
        n += 1
        r = rng.random()
        try:
            if r < 0.55:
                a = rng.choice(pcs)
                b = rng.choice(npcs)
                ch = t.character(a)
                if system == "rajapolku":
                    bgs = [x for x in ch["backgrounds"] if rng.random() < 0.5]
                    t.rolls.roll_raja(RajaSide(ch["name"], [a], backgrounds=bgs, helping=["momentum"] if rng.random() < .2 else []),
                                RajaSide("GM", [], backgrounds=["Tough"] * rng.randint(0, 3)))
                elif system == "harhapolku":
                    t.rolls.roll_harha(HarhaSide(ch["name"], [a], general="x", background="y" if rng.random() < .5 else None),
                                 HarhaSide(t.character(b)["name"], [b], general="z", special="w" if rng.random() < .3 else None))
                else:
                    skill, val = rng.choice(list(ch["skills"].items()))
                    t.rolls.roll_sr(SRSide(ch["name"], [a], skill_name=skill, skill=val, attribute_name="Agility",
                                     attribute=ch["attributes"]["agility"]), threshold=rng.randint(1, 4))
            elif r < 0.62:
                c = t.add_challenge(f"Challenge {n}", [rng.choice(pcs)], [rng.choice(npcs)])
                t.start_challenge(c["id"])
            elif r < 0.66 and t.state["challenges"]:
                t.remove_challenge(t.state["challenges"][0]["id"])
            elif r < 0.72:
                t.note(f"Note {n}: the party argues about the map")
            elif r < 0.78:
                cid = rng.choice(pcs)
                if system == "rajapolku":
                    t.move_wound(cid, rng.choice([1, -1]))
                elif system == "shadowrun":
                    ch = t.character(cid)
                    t.set_condition(cid, "stun", (ch["stun"] + 1) % 4)
                else:
                    t.set_health(cid, f"scratch {n}")
            elif r < 0.84:
                cid = rng.choice(pcs)
                if system == "rajapolku":
                    t.restore_charges(cid, 1) if rng.random() < 0.5 else t.spend_charges(cid, 1, "focus")
                elif system == "shadowrun":
                    t.spend_edge(cid, "push")
                else:
                    t.note(f"{t.character(cid)['name']} narrates")
            elif r < 0.90:
                t.undo()
            elif r < 0.93:
                t.redo()
            elif r < 0.985:
                t.new_scene(f"Scene {n}")
            else:
                t.new_session()
        except TrackerError:
            continue


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=10000)
    ap.add_argument("--system", default="rajapolku", choices=sorted(SYSTEM_DEMO))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-o", "--output", type=Path, default=None)
    ap.add_argument("--fight", action="store_true",
                    help="Varjojuoksu: end in a fight (everyone in initiative, 2 passes for PCs, scores kept "
                         "each turn), for timing the 'next' key")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    t = DEMOS[SYSTEM_DEMO[args.system]](fixed_clock(), seed=args.seed)
    grow(t, args.events - (3 if args.fight else 0), random.Random(args.seed))
    if args.fight:
        if t.system.value != "shadowrun":
            ap.error("--fight needs --system shadowrun")
        if t.settings.sr_initiative != "keep":
            t.set_setting("sr.initiative", "keep")
        t.rolls.roll_initiative([(cid, 2 if ch["kind"] == "pc" else 1) for cid, ch in t.characters.items()])
    out = args.output or Path(f"/tmp/polku-{args.system}-{args.events}.toml")
    if out.exists():
        out.unlink()
    store.write_full(out, document(t.state, t.events, t.last_seq()))
    size = out.stat().st_size
    print(f"{out}  {len(t.events)} events  {size / 1e6:.2f} MB  ({size / max(1, len(t.events)):.0f} B/event)"
          f"  made in {time.perf_counter() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
