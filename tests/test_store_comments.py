"""The GM's own comments in a session file survive the app's full rewrites (where the file says they do)."""

from __future__ import annotations

from pathlib import Path

from polku.session import files, store
from polku.session.tracker import Tracker


def CLOCK() -> str:
    return "2026-01-01T00:00:00Z"


def _session(tmp_path: Path) -> tuple[Tracker, Path]:
    t = Tracker.new("rajapolku", "Tampereen yö", clock=CLOCK, seed=1)
    path = tmp_path / "night.toml"
    sf = files.create_session(path, t)
    t.add_character("Alyosha")
    sf.save_now(t)
    sf.close()
    return t, path


def _hand_edit(path: Path) -> None:
    """What a GM does in an editor: notes at the top, a remark in an event block and one in [state]."""
    text = path.read_text(encoding="utf-8")
    first, rest = text.split("\n", 1)
    rest = rest.replace("[[event]]\n", "[[event]]\n# the GM: Alyosha's player joined late\n", 1)
    rest = rest.replace("[state]\n", "[state]\n# inside the state: rewritten from memory\n", 1)
    path.write_text(f"{first}\n# Aino is the Nurse's real name — don't tell them\n#   (second line, indented)\n{rest}",
                    encoding="utf-8")


def test_comments_at_the_top_and_in_events_survive_a_full_rewrite(tmp_path: Path) -> None:
    _, path = _session(tmp_path)
    _hand_edit(path)
    tracker, sf = files.open_session(path, clock=CLOCK)
    tracker.add_character("Igor")
    tracker.needs_full_save = True  # what compaction and a repaired tail do
    sf.save_now(tracker)
    sf.close()
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    assert lines[0] + "\n" == store.HEADER  # still the first line: end marks are still checked
    assert lines[1:3] == ["# Aino is the Nurse's real name — don't tell them", "#   (second line, indented)"]
    assert "# the GM: Alyosha's player joined late" in text
    assert "# inside the state: rewritten from memory" not in text  # the documented limit
    assert text.count("# Aino") == 1  # kept once, not added again on each rewrite
    reloaded, _ = files.load_tracker(path)
    assert set(reloaded.characters) == {"alyosha", "igor"}
    # And again: a second rewrite neither loses nor doubles them.
    tracker2, sf2 = files.open_session(path, clock=CLOCK)
    tracker2.needs_full_save = True
    tracker2.note("later")
    sf2.save_now(tracker2)
    sf2.close()
    again = path.read_text(encoding="utf-8")
    assert again.count("# Aino") == 1 and again.count("# the GM: Alyosha's player") == 1


def test_only_whole_comment_lines_are_kept() -> None:
    data = store.render({"snapshot_seq": 0, "state": {"x": 1}, "event": []}, "t",
                        ["# kept", "not a comment", "# two\nsplit"])
    text = data.decode("utf-8")
    assert "# kept\n" in text and "not a comment" not in text and "split" not in text
