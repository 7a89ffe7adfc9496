"""Mutated session files for the fuzz harness (tests/test_mutated_files.py, and
by hand: ``python tests/mutations.py N`` runs N files through every command).

A mutation takes a good session file and breaks one thing the way a hand edit,
a bad disk or an attacker would: a value of another type (a number where text
is drawn, a table where a name is, a date, a list), a 5,001-digit number,
nesting hundreds of levels deep, a missing key, a renumbered event or
snapshot, or raw bytes changed or cut.
"""

from __future__ import annotations

import contextlib
import io
import random
import shutil
import sys
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import tomli_w

REPO = Path(__file__).resolve().parents[1]
SOURCES = sorted((REPO / "sessions").glob("demo-*.toml"))

BIG = "__POLKU_BIG__"
DEEP = "__POLKU_DEEP__"
REPLACEMENTS: list[Any] = [
    5, -1, 0, 2**63 - 1, True, 1.5, float("nan"), "", "x" * 300, "lena", [], [1, 2], ["a", 5], {}, {"a": 1},
    {"seq": 1}, date(2026, 12, 1), datetime(2026, 12, 1, 18, 0, tzinfo=UTC), [{"size": 6}],
    BIG, DEEP, None,  # None: delete the key
]


def _paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path] if path else []
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, path + (i,))
    return out


def _set(doc: Any, path: tuple[Any, ...], value: Any) -> None:
    node = doc
    for key in path[:-1]:
        node = node[key]
    if value is None:
        if isinstance(node, dict):
            node.pop(path[-1], None)
        else:
            del node[path[-1]]
    else:
        node[path[-1]] = value


def render(doc: dict[str, Any]) -> bytes:
    """The file text Polku would write for ``doc`` (any values), big and deep sentinels expanded."""
    from polku.session import store

    head = {k: v for k, v in doc.items() if k not in ("state", "event")}
    parts = [store.HEADER, tomli_w.dumps(head), "\n"]
    if "state" in doc:
        parts.append(tomli_w.dumps({"state": doc["state"]}))
    for ev in doc.get("event", []):
        text = tomli_w.dumps({"event": ev})
        seq = ev.get("seq") if isinstance(ev, dict) else None
        parts.append("\n" + text[:-1].replace("[event]", "[[event]]", 1) + f"\n# end of event {seq}\n")
    text = "".join(parts)
    text = text.replace(f'"{BIG}"', "9" * 5001)
    text = text.replace(f'"{DEEP}"', "[" * 400 + "]" * 400)
    return text.encode("utf-8")


def mutate(rng: random.Random) -> tuple[str, bytes]:
    """(what was done, the mutated file's bytes)."""
    from polku.session import store

    source = rng.choice(SOURCES)
    data = source.read_bytes()
    kind = rng.random()
    if kind < 0.15:  # raw bytes
        b = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            b[rng.randrange(len(b))] = rng.randrange(256)
        if rng.random() < 0.3:
            del b[rng.randrange(len(b)):]
        return f"{source.name}: bytes", bytes(b)
    doc = store.load(source).doc
    doc["event"] = list(doc["event"])
    if kind < 0.25:  # numbering
        evs = doc["event"]
        choice = rng.randrange(4)
        if choice == 0:
            doc["snapshot_seq"] = rng.choice([0, 1, doc["snapshot_seq"] - 3, doc["snapshot_seq"] + 5])
            what = f"snapshot_seq = {doc['snapshot_seq']}"
        elif choice == 1:
            i = rng.randrange(len(evs))
            evs[i]["seq"] = rng.choice([evs[i]["seq"] + 1, evs[i]["seq"] - 1, 0, 10**6])
            what = f"event {i + 1} seq = {evs[i]['seq']}"
        elif choice == 2:
            del evs[rng.randrange(len(evs))]
            what = "an event deleted"
        else:
            evs.append(dict(evs[-1]))
            what = "the last event repeated"
        return f"{source.name}: {what}", render(doc)
    paths = _paths(doc)
    if rng.random() < 0.6:  # events are where most drawn text comes from
        paths = [p for p in paths if p[0] == "event"] or paths
    path = rng.choice(paths)
    value = rng.choice(REPLACEMENTS)
    try:
        _set(doc, path, value)
        data = render(doc)
    except (TypeError, ValueError, IndexError, KeyError):
        return f"{source.name}: unrenderable", source.read_bytes()
    return f"{source.name}: {'.'.join(map(str, path))} = {value!r}"[:200], data


# -- running a file through every command ----------------------------------------------------------------


def run_cli(argv: list[str]) -> tuple[int, str, str]:
    """``polku ARGV`` in this process, without a terminal; (status, stdout, stderr)."""
    from polku import cli

    out, err = io.StringIO(), io.StringIO()
    stdin = sys.stdin
    try:
        sys.stdin = io.StringIO("")
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = cli.main(argv)
    finally:
        sys.stdin = stdin
    return status, out.getvalue(), err.getvalue()


def check_cli(path: Path) -> list[str]:
    """Every headless path: export (both formats, players' and GM's), verify, review and watch refusals.
    Returns what went wrong (empty: all good)."""
    problems = []
    runs = [["export", str(path)], ["export", str(path), "--format", "html"], ["export", str(path), "--gm"],
            ["verify", str(path)], ["review", str(path)], ["watch", str(path)]]
    for argv in runs:
        try:
            status, out, err = run_cli(argv)
        except BaseException as e:  # noqa: BLE001 - a traceback is what this looks for
            import traceback

            where = traceback.extract_tb(e.__traceback__)[-1]
            problems.append(f"{' '.join(argv[:1])}: {type(e).__name__}: {e} at {Path(where.filename).name}:"
                            f"{where.lineno}"[:300])
            continue
        if argv[0] in ("export", "verify"):
            # verify: 0 all rolls match, 1 a mismatch (a mutated roll), 2 a file it cannot read,
            # 3 a deliberately seeded file (the demos): nothing to verify against a secret
            if status not in ((0, 2) if argv[0] == "export" else (0, 1, 2, 3)):
                problems.append(f"{argv[0]} exit {status}")
            if status == 2 and (err.count("\n") != 1 or not err.startswith("polku: error: ")):
                problems.append(f"{argv[0]}: not one line: {err[:200]!r}")
        elif status != 2 or err.count("\n") != 1 or out:
            problems.append(f"{argv[0]}: exit {status}, stderr {err[:200]!r}")
    return problems


async def check_app(path: Path) -> tuple[list[str], bool]:
    """The GM's app on the file, headless: open, draw, scroll the log to its start,
    open and close the roll screen, wait for the background check, quit.
    Returns (problems, whether the file was opened)."""
    from polku.session import store
    from polku.session.files import SessionOpenError, open_session
    from polku.tui.app import PolkuApp

    try:
        tracker, sf = open_session(path)
    except (SessionOpenError, store.StoreError) as e:
        msg = str(e)
        return ([] if msg and "\n" not in msg else [f"open: not one line: {msg[:200]!r}"]), False
    except BaseException as e:  # noqa: BLE001
        return [f"open: {type(e).__name__}: {e}"[:300]], False
    app = PolkuApp(tracker, sf, sessions_dir=path.parent, theme_dirs=[REPO / "themes"], remember=False,
                   theme="polku-dark", seed=1)
    problems: list[str] = []
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            for key in ("3", "home", "pageup", "pageup", "end", "r", "escape", "1", "down", "enter", "escape"):
                await pilot.press(key)
            await pilot.app.workers.wait_for_complete()
            await pilot.pause()
            await pilot.press("q")
            await pilot.pause()
    except BaseException as e:  # noqa: BLE001
        problems.append(f"app: {type(e).__name__}: {e}"[:300])
    if getattr(app, "_exception", None) is not None:
        problems.append(f"app crashed: {type(app._exception).__name__}: {app._exception}"[:300])
    sf.close()
    return problems, True


def main(n: int, seed: int, app_every: int) -> int:
    """Run ``n`` mutated files; print the counts."""
    import asyncio
    import tempfile

    rng = random.Random(seed)
    folder = Path(tempfile.mkdtemp(prefix="polku-fuzz-"))
    tracebacks = modified = opened = app_runs = refused = 0
    for i in range(n):
        what, data = mutate(rng)
        path = folder / f"m{i}.toml"
        path.write_bytes(data)
        problems = check_cli(path)
        if i % app_every == 0:
            app_problems, was_opened = asyncio.run(check_app(path))
            problems += app_problems
            app_runs += 1
            opened += was_opened
        torn = b"" if path.read_bytes() == data else path.read_bytes()
        if torn:
            from polku.session import store

            notices = store.load(folder / f"m{i}.toml").notices if path.exists() else []
            if not any("cut off by a crash" in x for x in notices):
                modified += 1
                problems.append("file modified")
        try:
            refused += bool(run_cli(["export", str(path)])[0])
        except BaseException:  # noqa: BLE001 - counted by check_cli already
            pass
        if problems:
            tracebacks += 1
            print(f"{i}: {what}: {problems}", flush=True)
        path.unlink()
        for extra in folder.iterdir():  # the lock, a seats' spool folder the app made beside it
            shutil.rmtree(extra) if extra.is_dir() else extra.unlink()
    print(f"{n} mutated files, {app_runs} through the app ({opened} opened), {refused} refused by export;"
          f" files with a problem: {tracebacks}, modified: {modified}")
    return 1 if tracebacks else 0


if __name__ == "__main__":
    sys.path.insert(0, str(REPO / "src"))
    args = [int(x) for x in sys.argv[1:]]
    raise SystemExit(main(args[0] if args else 200, args[1] if len(args) > 1 else 1, args[2] if len(args) > 2 else 10))
