"""Run the test suite on a loaded machine: beside busy loops of 2x the cores, several times in a row.

The suite must hold on a busy machine (a shared CI runner, a laptop compiling): no test asserts a
wall-clock time, and every picture waits for the state it shows. This is the proof, kept out of
``.ci/run`` (it takes several times as long):

    python tests/load/run_under_load.py                # the default suite, `pytest -n 4`, twice, under load
    python tests/load/run_under_load.py --times 3 --busy 8 -- tests/test_seat_app.py -p no:randomly

It starts ``--busy`` processes (default: 2x the cores) that each spin a CPU at full speed, runs
pytest ``--times`` times (stopping at the first red run), prints each run's status, duration and
the load average, and ends the busy loops it started, whatever happens. Exit status: 0 when every
run was green, else the first red run's status.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BUSY = "while True: pass"


def main(argv: list[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    pytest_args: list[str] = []
    if "--" in args_list:
        cut = args_list.index("--")
        args_list, pytest_args = args_list[:cut], args_list[cut + 1:]
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--times", type=int, default=2, help="runs in a row (default 2)")
    p.add_argument("--busy", type=int, default=2 * (os.cpu_count() or 1),
                   help="busy loops beside the tests (default: 2x the cores)")
    args = p.parse_args(args_list)
    command = [sys.executable, "-m", "pytest", *(pytest_args or ["-n", "4"])]

    loops = [subprocess.Popen([sys.executable, "-c", BUSY], stdin=subprocess.DEVNULL) for _ in range(args.busy)]
    try:
        time.sleep(2)  # let the load average rise a little before the first run
        for run in range(1, args.times + 1):
            print(f"run {run}/{args.times} beside {args.busy} busy loops: {' '.join(command)}", flush=True)
            start = time.monotonic()
            status = subprocess.call(command, cwd=ROOT)
            took = time.monotonic() - start
            load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
            print(f"run {run}: {'green' if status == 0 else f'RED (status {status})'} in {took:.0f} s, "
                  f"load average {load}", flush=True)
            if status != 0:
                return status
        return 0
    finally:
        for loop in loops:
            loop.send_signal(signal.SIGTERM)
        for loop in loops:
            loop.wait()


if __name__ == "__main__":
    raise SystemExit(main())
