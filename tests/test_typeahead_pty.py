"""Keys typed ahead, the way SSH delivers them: the real ``polku FILE`` in a
pseudo-terminal (80x24), each burst written to it in one ``write``.

After every burst the test waits for the file to hold what it should (the
autosave), and at the end the saved session holds exactly the events a slow
typist would have made: nothing lost, nothing doubled, no key in the wrong
field or on the wrong screen. The pilot's version of each case, compared key
for key with slow typing, is tests/test_typeahead.py.

A burst ends with Escape or has none: a terminal sends Escape as the byte
that also starts Alt+key and the arrows, so "Escape then a letter" in one
read is Alt+letter on every terminal.
"""

from __future__ import annotations

import os
import re
import shutil
import time
from pathlib import Path

import pytest

from pty_app import AppInPty

REPO = Path(__file__).resolve().parents[1]
DEMO = REPO / "sessions" / "demo-rajapolku.toml"

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not hasattr(os, "fork"), reason="needs a pseudo-terminal")]

MAIN_KEYS = b"r Roll  a Challenge+"
"""The main screen's key line, as drawn (escape codes taken out): a dialog has its own."""

BURSTS: list[tuple[str, list[tuple[str, str]], bytes | None]] = [
    # (one write to the terminal, the events it makes when typed slowly, what is drawn once it is done)
    ("oClue found\roRats\r", [("note", "Clue found"), ("note", "Rats")], None),
    ("pFirst\rpSecond\r", [("resource", "Alyosha spends a story point: First (1 left)"),
                           ("resource", "Alyosha spends a story point: Second (0 left)")], None),
    ("cMackey\tJussi\r", [("character", "Mackey joins (pc)")], None),
    ("NyoAfter the break\r", [("structure", "Session 2 begins"), ("note", "After the break")], None),
    ("ojunk", [], b"junk"),  # typed into a prompt still opening
    ("\x1b", [], MAIN_KEYS),  # Escape closed it
    ("S", [], b"Rule settings"),
    ("\x1bokept\r", [("note", "kept")], None),  # Escape and o in one read (tmux send-keys Escape o): not alt+o
    ("ndocks\roAt the docks\r", [("structure", "Scene 2: docks"), ("note", "At the docks")], None),
]



def wait_for(what: str, done, term: AppInPty, bound: float = 120) -> None:
    """Wait for a state; the bound only names what hung (never a measure of speed)."""
    end = time.monotonic() + bound
    while time.monotonic() < end:
        if done():
            return
        if not term.alive():
            break
        time.sleep(0.05)
    raise AssertionError(f"{what}; the app's last output: {bytes(term.output[-1500:])!r}")


def plain(output: bytes | bytearray) -> bytes:
    """The terminal's output without its escape codes (what is drawn, row pieces run together)."""
    return re.sub(rb"\x1b\[[0-9;?]*[A-Za-z]", b"", output)


def logged(path: Path) -> list[tuple[str, str]]:
    """(kind, text) of each event in the file; nothing while a rewrite is being swapped in."""
    from polku.session.files import load_tracker

    try:
        tracker, _ = load_tracker(path)
    except Exception:  # noqa: BLE001 - read between the app's writes
        return []
    return [(tracker.events[i]["kind"], tracker.events[i]["text"]) for i in range(len(tracker.events))]


def test_bursts_written_to_the_terminal_land_where_a_slow_typist_would(tmp_path: Path) -> None:
    path = tmp_path / "camp.toml"
    shutil.copyfile(DEMO, path)
    start = logged(path)
    term = AppInPty(path, tmp_path / "config")
    try:
        wait_for("the app never drew its first frame", lambda: b"Rajapolku" in term.output, term)
        expected = list(start)
        for text, events, drawn in BURSTS:
            # The previous burst has taken effect (its events saved, or its screen drawn) before the next.
            expected += events
            mark = len(term.output)
            term.write(text)
            if events:
                wait_for(f"{text!r} never reached the file (it holds {logged(path)[len(start):]})",
                         lambda want=list(expected): logged(path)[: len(want)] == want, term)
            if drawn is not None:
                wait_for(f"{text!r} never drew {drawn!r}", lambda at=mark, want=drawn: want in plain(term.output[at:]), term)
        term.write("q")
        wait_for("q never quit", lambda: not term.alive(), term)
        assert term.status is not None and os.WIFEXITED(term.status) and os.WEXITSTATUS(term.status) == 0, (
            bytes(term.output[-3000:]))
        assert b"Traceback" not in term.output and b"Error" not in term.output
    finally:
        term.kill()
    assert logged(path) == expected
