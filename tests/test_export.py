"""``polku export``: session reports compared against approved files.

To approve a deliberate change, run ``POLKU_APPROVE=1 pytest tests/test_export.py``
and read the diff of ``tests/data/export/`` before committing it.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from polku.cli import main
from polku.session import demo, store
from polku.session.files import document
from polku.session.review.export import export
from polku.session.rolls import SRSide

APPROVED = Path(__file__).parent / "data" / "export"


def session_file(tmp_path: Path, name: str) -> Path:
    t = demo.DEMOS[name]()
    if name == "varjojuoksu":
        c = t.add_challenge("Spot the ambush", ["kaneda"])
        t.rolls.roll_sr(SRSide("Kaneda", ["kaneda"], skill_name="Perception", skill=3, attribute_name="Intuition",
                         attribute=4), threshold=3, hidden=True, challenge=c["id"], faces=[5, 6, 2, 3, 1, 4, 2])
        t.spend_edge("nyx", "a lucky break")
        t.undo()
    path = tmp_path / f"demo-{name}.toml"
    store.write_full(path, document(t.state, t.events, t.last_seq()))
    return path


@pytest.mark.parametrize("name,fmt", [("rajapolku", "md"), ("harhapolku", "md"), ("varjojuoksu", "md"),
                                      ("rajapolku", "html"), ("varjojuoksu", "html")])
def test_export_matches_the_approved_report(tmp_path, name, fmt):
    out = tmp_path / f"report.{fmt}"
    assert main(["export", str(session_file(tmp_path, name)), "--format", fmt, "-o", str(out)]) == 0
    approved = APPROVED / f"demo-{name}.{fmt}"
    got = out.read_text(encoding="utf-8")
    if os.environ.get("POLKU_APPROVE"):
        approved.write_text(got, encoding="utf-8")
    assert got == approved.read_text(encoding="utf-8"), f"differs from {approved}"


def test_export_to_stdout_is_the_same_text(tmp_path, capsys):
    path = session_file(tmp_path, "rajapolku")
    assert main(["export", str(path)]) == 0
    assert capsys.readouterr().out == (APPROVED / "demo-rajapolku.md").read_text(encoding="utf-8")


def test_html_is_one_self_contained_file(tmp_path):
    text = (APPROVED / "demo-varjojuoksu.html").read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>") and text.rstrip().endswith("</html>")
    for outside in ("http://", "https://", "<script", "<link", "src=", "@import", "url("):
        assert outside not in text


def test_the_report_keeps_the_gms_secrets_unless_asked(tmp_path):
    path = session_file(tmp_path, "rajapolku")
    from polku.session.files import load_tracker

    t, _ = load_tracker(path, read_only=True)
    assert "Ghost of the Nurse" not in export(t, "md")
    assert "Ghost of the Nurse" in export(t, "md", gm=True)
    v = export(load_tracker(session_file(tmp_path, "varjojuoksu"), read_only=True)[0], "md")
    assert "threshold hidden by the GM" in v and "2 hits, failure" not in v


def test_user_text_cannot_break_the_html(tmp_path):
    t = demo.demo_rajapolku()
    t.add_character("<script>alert(1)</script> *bold*", player="A & B")
    html_text = export(t, "html")
    assert "<script>" not in html_text and "&lt;script&gt;" in html_text and "A &amp; B" in html_text
    md = export(t, "md")
    assert r"\*bold\*" in md and r"\<script\>" in md


@pytest.mark.parametrize("content,expected", [
    (None, "no such session file"),
    ("schema = [", "bad TOML"),
    ("schema = 99\n", "newer Polku"),
])
def test_bad_files_give_one_line_and_status_2(tmp_path, capsys, content, expected):
    path = tmp_path / "s.toml"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    assert main(["export", str(path), "--format", "html"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("polku: error: ") and captured.err.count("\n") == 1 and expected in captured.err


def test_export_never_imports_textual(tmp_path):
    path = session_file(tmp_path, "varjojuoksu")
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(f"""
        import contextlib, io, json, sys
        from polku.cli import main
        with contextlib.redirect_stdout(io.StringIO()):
            status = main(["export", {str(path)!r}, "--format", "html"])
        print(json.dumps({{"status": status, "ui": [m for m in sys.modules if m.split('.')[0] in ('textual', 'rich')]}}))
    """)], capture_output=True, text=True, timeout=60)
    assert json.loads(proc.stdout) == {"status": 0, "ui": []}, proc.stderr


STATS_ENGLISH = re.compile(
    r"\b(rolls?|undone|events?|left|out|Character|Won|Lost|Tied|Degrees|Charges|spent|Story|points?|Hits?|Net|"
    r"Glitch(es)?|Critical|rerolls|expected|contests?|program|entered|hand|dice|die|fair|few|judge|unlikely|odd|"
    r"consistent|won|of|in|bought|Luck|results|against|exact|odds|Statistics|df)\b")
"""English words of the statistics section; none may be left in a Finnish report (names aside)."""


@pytest.mark.parametrize("name", ["rajapolku", "harhapolku", "varjojuoksu"])
@pytest.mark.parametrize("fmt", ["md", "html"])
def test_the_statistics_speak_the_readers_language(tmp_path, name, fmt):
    """``polku export --lang fi``: the statistics section's headings, table, counts, luck and the dice's fairness
    in Finnish, with no English left; the characters' names as typed."""
    from polku import i18n

    t = demo.DEMOS[name]()
    names = sorted((ch["name"] for ch in t.characters.values()), key=len, reverse=True)
    out = tmp_path / f"report.{fmt}"
    try:
        assert main(["export", str(session_file(tmp_path, name)), "--format", fmt, "--lang", "fi",
                     "-o", str(out)]) == 0
    finally:
        i18n.set_language("en")
    text = out.read_text(encoding="utf-8")
    heading = "## Tilastot" if fmt == "md" else "<h2>Tilastot</h2>"
    assert heading in text
    stats = text[text.index(heading):]
    if fmt == "html":
        stats = re.sub(r"<[^>]+>", " ", stats[:stats.index("</body>")])
    for who in names:
        stats = stats.replace(who, "«»")
    assert "Heitot" in stats and "Ovatko nopat reiluja?" in stats
    left = [line for line in stats.splitlines() if STATS_ENGLISH.search(line)]
    assert not left, left[:5]
