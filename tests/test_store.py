"""Session files on disk: round trip, crash safety, damaged files, full disks, locks, schema 1."""

from __future__ import annotations

import errno
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from datetime import timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import polku
from polku.session import store
from polku.session.store import (
    SCHEMA,
    CorruptError,
    LockedError,
    NewerSchemaError,
    SessionLock,
    StoreError,
    append_events,
    load,
    migrate_v1,
    write_full,
)

DATA = Path(__file__).parent / "data"
SRC = str(Path(polku.__file__).resolve().parent.parent)


def child_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = SRC + os.pathsep + env.get("PYTHONPATH", "")
    return env


def a_state() -> dict:
    return {
        "campaign": {"name": "Kivikauden kaiku", "system": "rajapolku"},
        "settings": {"raja.exhausted": True, "raja.default_charges": 5},
        "characters": {
            "aino": {"id": "aino", "name": "Aino", "charges": 3, "backgrounds": ["Tietäjä"]},
        },
        "challenges": [{"id": "c1", "title": "Cross the lake", "status": "active"}],
    }


def an_event(seq: int, **extra) -> dict:
    ev = {
        "seq": seq,
        "kind": "roll",
        "who": "aino",
        "text": f"Aino rolls ({seq}) — ääkköset",
        "dice": [{"size": 10, "face": 7, "source": "background", "label": "Tietäjä"}],
        "outcome": {"winner": "aino", "degrees": 1},
        "changes": [{"path": ["characters", "aino", "charges"], "before": 3, "after": 2}],
    }
    ev.update(extra)
    return ev


def saved_session(path: Path, n_events: int = 3) -> Path:
    write_full(path, {"snapshot_seq": 0, "state": a_state(), "event": [an_event(i) for i in range(1, n_events + 1)]})
    return path


def files_in(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def assert_one_line(err: BaseException) -> str:
    msg = str(err)
    assert msg and "\n" not in msg and "Traceback" not in msg
    return msg


# ---------------------------------------------------------------------------
# Round trip

keys = st.text(st.characters(codec="utf-8"), max_size=8)
scalars = st.one_of(
    st.text(st.characters(codec="utf-8"), max_size=20),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.booleans(),
    st.floats(allow_nan=False),
    st.datetimes(timezones=st.sampled_from([None, timezone.utc, timezone(timedelta(hours=3))])),
    st.dates(),
    st.times(),
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4),
    max_leaves=20,
)
tables = st.dictionaries(keys, values, max_size=6)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(state=tables, events=st.lists(tables, max_size=4))
def test_any_document_comes_back_equal(tmp_path, state, events):
    path = tmp_path / "s.toml"
    evs = [{**ev, "seq": i} for i, ev in enumerate(events, 1)]
    write_full(path, {"snapshot_seq": 0, "state": state, "event": evs})
    loaded = load(path)
    assert loaded.doc["state"] == state
    assert loaded.doc["event"] == evs
    assert loaded.notices == [] and not loaded.rewrite_needed


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(state=tables, batches=st.lists(st.lists(tables, min_size=1, max_size=3), min_size=1, max_size=4))
def test_appended_events_come_back_in_order(tmp_path, state, batches):
    path = tmp_path / "s.toml"
    write_full(path, {"snapshot_seq": 0, "state": state})
    expected = []
    for batch in batches:
        evs = [{**ev, "seq": len(expected) + i} for i, ev in enumerate(batch, 1)]
        append_events(path, evs)
        expected += evs
    loaded = load(path)
    assert loaded.doc["event"] == expected
    assert loaded.doc["state"] == state
    assert loaded.notices == []


def test_file_is_plain_toml_with_state_first_and_events_appended(tmp_path):
    path = saved_session(tmp_path / "s.toml", n_events=2)
    append_events(path, [an_event(3)])
    text = path.read_text("utf-8")
    assert text.startswith(store.HEADER)
    assert "schema = 2\n" in text and 'app = "polku ' in text and "snapshot_seq = 0\n" in text
    assert text.index("\n[state") < text.index("\n[[event]]\n")
    assert text.count("\n[[event]]\n") == 3
    assert text.endswith("# end of event 3\n")
    doc = load(path).doc
    assert doc["schema"] == SCHEMA and [e["seq"] for e in doc["event"]] == [1, 2, 3]
    assert doc["event"][0]["changes"][0]["path"] == ["characters", "aino", "charges"]


def test_full_save_keeps_the_previous_file_as_backup(tmp_path):
    path = saved_session(tmp_path / "s.toml", n_events=2)
    first = path.read_bytes()
    write_full(path, {"snapshot_seq": 2, "state": {**a_state(), "round": 2}})
    assert (tmp_path / "s.toml.bak").read_bytes() == first
    assert load(path).doc["state"]["round"] == 2
    assert sorted(files_in(tmp_path)) == ["s.toml", "s.toml.bak"]  # no temp files left
    append_events(path, [an_event(3)])  # appends go to the new file, not the backup
    assert (tmp_path / "s.toml.bak").read_bytes() == first


def test_append_adds_a_missing_final_newline(tmp_path):
    path = saved_session(tmp_path / "s.toml")
    path.write_bytes(path.read_bytes().rstrip(b"\n"))  # an editor that drops the last newline
    append_events(path, [an_event(4)])
    assert [e["seq"] for e in load(path).doc["event"]] == [1, 2, 3, 4]


def test_unstorable_events_are_refused_before_touching_the_file(tmp_path):
    path = saved_session(tmp_path / "s.toml")
    before = path.read_bytes()
    for bad in ({"kind": "note"}, {"seq": "7"}, {"seq": True}, {"seq": 4, "who": None}, {"seq": 4, "x": {1, 2}}):
        with pytest.raises(StoreError) as e:
            append_events(path, [an_event(4), bad])
        assert_one_line(e.value)
        with pytest.raises(StoreError):
            write_full(path, {"snapshot_seq": 0, "state": a_state(), "event": [bad]})
    with pytest.raises(StoreError, match="None|null") as e:
        write_full(path, {"snapshot_seq": 0, "state": {"x": None}})
    assert path.read_bytes() == before
    assert sorted(files_in(tmp_path)) == ["s.toml"]


def test_append_to_a_missing_file_says_what_to_do(tmp_path):
    with pytest.raises(StoreError, match="does not exist; save the whole session first"):
        append_events(tmp_path / "nope.toml", [an_event(1)])


# ---------------------------------------------------------------------------
# Crash safety: SIGKILL a writer at random instants

CHILD = textwrap.dedent(
    """
    import os, sys
    from polku.session import store
    path = sys.argv[1]
    lock = store.SessionLock(path)
    lock.acquire()
    if os.path.exists(path):
        loaded = store.load(path)
        doc = loaded.doc
        state, events = doc["state"], doc["event"]
        n = max([state["counter"]] + [e["counter"] for e in events])
        if loaded.rewrite_needed:
            store.write_full(path, doc)
    else:
        n = 0
        state = {"counter": 0, "npcs": {f"npc{i}": {"name": "Ö" * 20, "charges": i} for i in range(300)}}
        store.write_full(path, {"snapshot_seq": 0, "state": state})
    print("ready", n, flush=True)
    while True:
        n += 1
        if n % 20 == 0:
            state = dict(state, counter=n)
            store.write_full(path, {"snapshot_seq": n, "state": state, "event": []})
        else:
            ev = {"seq": n, "counter": n, "kind": "roll", "text": "ä" * (n % 300),
                  "dice": [{"size": 10, "face": 1 + n % 10, "source": "base", "label": ""}] * 4,
                  "changes": [{"path": ["counter"], "before": n - 1, "after": n}]}
            store.append_events(path, [ev])
        print(n, flush=True)
    """
)


@pytest.mark.slow
def test_killed_writer_never_loses_more_than_the_command_in_flight(tmp_path):
    seed = random.randrange(2**32)
    rng = random.Random(seed)
    path = tmp_path / "crash.toml"
    rounds = torn = 0
    while rounds < 12:  # a number of rounds, not a time budget: a loaded machine is slower, never red
        proc = subprocess.Popen(
            [sys.executable, "-c", CHILD, str(path)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=child_env(),
        )
        first = proc.stdout.readline()
        if not first.startswith("ready"):
            proc.kill()
            _out, err = proc.communicate()
            pytest.fail(f"writer did not start (seed {seed}): {err.strip()[-500:]}")
        time.sleep(rng.uniform(0.005, 0.08))
        proc.send_signal(signal.SIGKILL)
        # Read to the end through the same reader as the first line: readline() may have taken later
        # acknowledgements into its buffer (a loaded machine lets several lines pile up before it
        # runs), and communicate() reads the pipe itself, past that buffer.
        out, err = proc.stdout.read(), proc.stderr.read()
        proc.wait()
        assert proc.returncode == -signal.SIGKILL, f"writer failed (seed {seed}): {err.strip()[-500:]}"
        acks = [int(line) for line in out.split()] or [int(first.split()[1])]
        acked = acks[-1]

        loaded = load(path)  # must load, perhaps dropping a torn tail
        torn += bool(loaded.notices)
        doc = loaded.doc
        seqs = [e["seq"] for e in doc["event"]]
        assert seqs == list(range(doc["snapshot_seq"] + 1, doc["snapshot_seq"] + 1 + len(seqs))), f"seed {seed}"
        assert all(e["counter"] == e["seq"] for e in doc["event"])
        assert doc["state"]["counter"] == doc["snapshot_seq"]
        assert len(doc["state"]["npcs"]) == 300
        last = max([doc["state"]["counter"]] + seqs)
        assert acked <= last <= acked + 1, f"acknowledged {acked}, file has {last} (seed {seed}, round {rounds})"
        rounds += 1
    leftovers = [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]
    assert all("tmp-" in name or "bak-" in name for name in leftovers)  # only a killed writer's temp files


# ---------------------------------------------------------------------------
# Torn tails


def test_half_written_event_is_dropped_with_a_notice(tmp_path):
    path = saved_session(tmp_path / "s.toml")
    good = path.read_bytes()
    append_events(path, [an_event(4, text="The ice breaks under Ukko — he falls in")])
    full = path.read_bytes()
    torn = full[: len(good) + (len(full) - len(good)) // 2]
    for cut in (torn, full[: full.rindex("Ukko".encode()) + 2], full[: full.rindex(b"falls") - 2] + b"\xc3"):
        path.write_bytes(cut)
        loaded = load(path)
        assert [e["seq"] for e in loaded.doc["event"]] == [1, 2, 3]
        assert loaded.notices and "the last event was cut off by a crash" in loaded.notices[0]
        assert loaded.rewrite_needed
        assert path.read_bytes() == cut  # load never writes
        assert sorted(files_in(tmp_path)) == ["s.toml"]


def test_event_cut_at_a_line_boundary_is_detected_by_its_missing_end_mark(tmp_path):
    path = saved_session(tmp_path / "s.toml")
    append_events(path, [an_event(4)])
    text = path.read_text("utf-8")
    cut = text[: text.rindex("[[event.changes]]")]  # still valid TOML, but incomplete
    path.write_text(cut, "utf-8")
    loaded = load(path)
    assert [e["seq"] for e in loaded.doc["event"]] == [1, 2, 3]
    assert "cut off by a crash" in loaded.notices[0]


def test_after_a_torn_tail_a_full_save_makes_the_file_whole_again(tmp_path):
    path = saved_session(tmp_path / "s.toml")
    append_events(path, [an_event(4)])
    path.write_bytes(path.read_bytes()[:-30])
    loaded = load(path)
    write_full(path, loaded.doc)
    append_events(path, [an_event(4, text="again")])
    again = load(path)
    assert again.notices == [] and [e["text"] for e in again.doc["event"]][-1] == "again"


def test_damage_before_the_last_event_is_not_mistaken_for_a_crash(tmp_path):
    path = saved_session(tmp_path / "s.toml", n_events=6)
    text = path.read_text("utf-8")
    i = text.index("seq = 2")
    path.write_text(text[:i] + "seq = 2 oops" + text[i + 7 :], "utf-8")
    with pytest.raises(CorruptError) as e:
        load(path)
    line = text[:i].count("\n") + 1
    assert f"at line {line}" in assert_one_line(e.value)


def test_both_loaders_drop_the_same_torn_tail_at_every_cut(tmp_path):
    """One torn-tail repair: whatever byte a crash stopped at, load and load_lazy keep the same
    events, say the same notice and both ask for a rewrite."""
    path = saved_session(tmp_path / "s.toml", n_events=2)
    good = path.read_bytes()
    append_events(path, [an_event(3), an_event(4, text="the ferry sinks")])
    full = path.read_bytes()
    for end in range(len(good), len(full) + 1, 3):
        path.write_bytes(full[:end])
        eager, lazy = load(path), store.load_lazy(path)
        assert [e["seq"] for e in eager.doc["event"]] == [e["seq"] for e in lazy.doc["event"]], end
        assert eager.notices == lazy.notices and eager.rewrite_needed == lazy.rewrite_needed, end
        kept = len(eager.doc["event"])
        whole = full[:end].rstrip().endswith(f"# end of event {kept}".encode())
        assert 2 <= kept <= 4 and eager.rewrite_needed == (not whole), end
        assert [e["seq"] for e in eager.doc["event"]] == list(range(1, kept + 1))


def test_an_event_key_in_the_head_is_refused_by_the_lazy_loader_too(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text(store.HEADER + "schema = 2\nsnapshot_seq = 0\nevent = 5\n[state]\nx = 1\n", "utf-8")
    for loader in (load, store.load_lazy):
        with pytest.raises(CorruptError) as e:
            loader(path)
        assert "'event' must be [[event]] tables, found int" in assert_one_line(e.value)


def test_hand_written_file_without_header_keeps_its_last_event(tmp_path):
    path = tmp_path / "hand.toml"
    path.write_text("schema = 2\nsnapshot_seq = 0\n[state]\nx = 1\n\n[[event]]\nseq = 1\nkind = \"note\"\n", "utf-8")
    loaded = load(path)
    assert loaded.doc["event"] == [{"seq": 1, "kind": "note"}] and loaded.notices == []


# ---------------------------------------------------------------------------
# Damaged and foreign files

GOOD = store.render({"snapshot_seq": 0, "state": a_state(), "event": [an_event(1), an_event(2)]}).decode()


def damaged(kind: str) -> str:
    if kind == "bad state":
        return GOOD.replace('name = "Aino"', "name = Aino", 1)
    if kind == "no schema":
        return GOOD.replace("schema = 2\n", "")
    if kind == "schema x":
        return GOOD.replace("schema = 2\n", 'schema = "x"\n')
    if kind == "newer":
        return GOOD.replace("schema = 2\n", "schema = 99\n")
    if kind == "unknown old":
        return GOOD.replace("schema = 2\n", "schema = 0\n")
    if kind == "no seq":
        return GOOD.replace("seq = 2\n", "")
    if kind == "seq text":
        return GOOD.replace("seq = 1\n", 'seq = "1"\n')
    if kind == "state scalar":
        return "schema = 2\nsnapshot_seq = 0\nstate = 3\n"
    if kind == "no state":
        return "schema = 2\nsnapshot_seq = 0\n"
    if kind == "event table":
        return "schema = 2\nsnapshot_seq = 0\n[state]\n[event]\nseq = 1\n"
    if kind == "negative snapshot":
        return GOOD.replace("snapshot_seq = 0", "snapshot_seq = -1")
    if kind == "binary":
        return "\x00\x01PK\x03\x04"
    raise AssertionError(kind)


@pytest.mark.parametrize(
    ("kind", "error", "says"),
    [
        ("bad state", CorruptError, "bad TOML at line"),
        ("no schema", CorruptError, "'schema' is missing"),
        ("schema x", CorruptError, "'schema' must be a whole number"),
        ("newer", NewerSchemaError, "newer Polku (schema 99); this version reads schema ≤ 2 — upgrade Polku"),
        ("unknown old", CorruptError, "schema 0 is unknown"),
        ("no seq", CorruptError, "event 2 (line"),
        ("seq text", CorruptError, "'seq' = '1'"),
        ("state scalar", CorruptError, "'state' must be a table"),
        ("no state", CorruptError, "[state] is missing"),
        ("event table", CorruptError, "'event' must be [[event]] tables"),
        ("negative snapshot", CorruptError, "'snapshot_seq'"),
        ("binary", CorruptError, "bad TOML"),
    ],
)
def test_damaged_file_gives_one_line_naming_the_problem(tmp_path, kind, error, says):
    path = tmp_path / "x.toml"
    path.write_text(damaged(kind), "utf-8")
    before = files_in(tmp_path)
    with pytest.raises(error) as e:
        load(path)
    msg = assert_one_line(e.value)
    assert isinstance(e.value, StoreError)
    assert says in msg and str(path) in msg
    assert files_in(tmp_path) == before


def test_error_points_to_the_backup_when_there_is_one(tmp_path):
    path = saved_session(tmp_path / "x.toml")
    write_full(path, {"snapshot_seq": 0, "state": a_state()})
    path.write_text(damaged("bad state"), "utf-8")
    with pytest.raises(CorruptError) as e:
        load(path)
    assert f"the previous good file is {path}.bak" in str(e.value)
    assert load(Path(f"{path}.bak")).doc["state"] == a_state()


def test_missing_file_and_folder_are_store_errors(tmp_path):
    with pytest.raises(StoreError, match="no such session file"):
        load(tmp_path / "nope.toml")
    with pytest.raises(StoreError, match="folder"):
        load(tmp_path)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    edits=st.lists(st.tuples(st.integers(0, len(GOOD.encode()) - 1), st.integers(0, 255)), max_size=4),
    cut=st.one_of(st.none(), st.integers(0, len(GOOD.encode()))),
)
def test_mangled_files_never_crash_load_and_are_never_written(tmp_path, edits, cut):
    data = bytearray(GOOD.encode())
    for pos, byte in edits:
        data[pos] = byte
    if cut is not None:
        del data[cut:]
    path = tmp_path / "m.toml"
    path.write_bytes(bytes(data))
    try:
        loaded = load(path)
    except StoreError as e:
        assert_one_line(e)
    else:
        assert isinstance(loaded.doc["state"], dict)
        assert all(isinstance(ev["seq"], int) for ev in loaded.doc["event"])
    assert files_in(tmp_path) == {"m.toml": bytes(data)}


# ---------------------------------------------------------------------------
# Full disk, read-only folder

ENOSPC = OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_full_disk_during_full_save_keeps_the_old_file(tmp_path, monkeypatch):
    path = saved_session(tmp_path / "s.toml")
    before = files_in(tmp_path)
    real_write = os.write

    def write_half_then_fail(fd, data):
        if len(data) > 1:
            real_write(fd, bytes(data[: len(data) // 2]))
        raise ENOSPC

    monkeypatch.setattr(os, "write", write_half_then_fail)
    with pytest.raises(StoreError) as e:
        write_full(path, {"snapshot_seq": 0, "state": {**a_state(), "big": "x" * 10000}})
    monkeypatch.undo()
    msg = assert_one_line(e.value)
    assert msg == f"could not save {path}: No space left on device; the last good file is untouched"
    assert files_in(tmp_path) == before  # no temp file, no backup churn
    assert load(path).doc["state"] == a_state()


@pytest.mark.parametrize("step", ["fsync", "replace"])
def test_failure_at_any_later_step_of_a_full_save_keeps_the_old_file(tmp_path, monkeypatch, step):
    path = saved_session(tmp_path / "s.toml")
    old = path.read_bytes()
    if step == "fsync":
        monkeypatch.setattr(os, "fsync", lambda fd: (_ for _ in ()).throw(ENOSPC))
    else:
        real_replace = os.replace

        def replace(src, dst):
            if Path(dst) == path:
                raise OSError(errno.EACCES, os.strerror(errno.EACCES))
            return real_replace(src, dst)

        monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(StoreError) as e:
        write_full(path, {"snapshot_seq": 0, "state": {"other": 1}})
    monkeypatch.undo()
    assert "the last good file is untouched" in assert_one_line(e.value)
    assert path.read_bytes() == old
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_full_disk_during_append_truncates_back(tmp_path, monkeypatch):
    path = saved_session(tmp_path / "s.toml")
    old = path.read_bytes()
    real_write = os.write

    def write_some_then_fail(fd, data):
        real_write(fd, bytes(data[:40]))
        raise ENOSPC

    monkeypatch.setattr(os, "write", write_some_then_fail)
    with pytest.raises(StoreError) as e:
        append_events(path, [an_event(4)])
    monkeypatch.undo()
    assert "No space left on device" in assert_one_line(e.value)
    assert path.read_bytes() == old
    append_events(path, [an_event(4)])
    assert [ev["seq"] for ev in load(path).doc["event"]] == [1, 2, 3, 4]


@pytest.mark.skipif(os.name == "nt" or os.geteuid() == 0, reason="root ignores folder permissions")
def test_read_only_folder_is_a_store_error(tmp_path):
    path = saved_session(tmp_path / "s.toml")
    tmp_path.chmod(0o555)
    try:
        with pytest.raises(StoreError, match="Permission denied"):
            write_full(path, {"snapshot_seq": 0, "state": {}})
    finally:
        tmp_path.chmod(0o755)


# ---------------------------------------------------------------------------
# Lock

HOLDER = textwrap.dedent(
    """
    import sys, time
    from polku.session.store import SessionLock
    lock = SessionLock(sys.argv[1])
    lock.acquire()
    print("locked", flush=True)
    time.sleep(60)
    """
)


@pytest.mark.slow
def test_second_polku_is_told_who_holds_the_session(tmp_path):
    path = tmp_path / "s.toml"
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(path)], stdout=subprocess.PIPE, text=True, env=child_env()
    )
    try:
        assert holder.stdout.readline().strip() == "locked"
        with pytest.raises(LockedError) as e:
            SessionLock(path).acquire()
        msg = assert_one_line(e.value)
        assert e.value.pid == holder.pid
        assert f"is open in another Polku (pid {holder.pid} on " in msg
        assert "--read-only" in msg
    finally:
        holder.kill()
        holder.wait()
    # The holder died without releasing: its lock is stale and is taken over.
    lock = SessionLock(path)
    assert "no longer running" in (lock.acquire() or "")
    lock.release()
    assert not store.lock_path(path).exists()


def test_lock_of_a_finished_process_is_taken_over(tmp_path):
    path = tmp_path / "s.toml"
    dead = int(subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                              capture_output=True, text=True, check=True).stdout)
    import socket

    store.lock_path(path).write_text(f'pid = {dead}\nhost = "{socket.gethostname()}"\n', "utf-8")
    with SessionLock(path) as lock:
        assert lock.notice and f"pid {dead}" in lock.notice
        assert f"pid = {os.getpid()}" in store.lock_path(path).read_text()
    assert not store.lock_path(path).exists()


def test_garbage_lock_is_taken_over_and_a_foreign_host_is_respected(tmp_path):
    path = tmp_path / "s.toml"
    store.lock_path(path).write_bytes(b"\x00\xffnot toml")
    lock = SessionLock(path)
    assert "unreadable" in lock.acquire()
    lock.release()
    store.lock_path(path).write_text('pid = 1\nhost = "some-other-machine"\n', "utf-8")
    with pytest.raises(LockedError, match="some-other-machine") as e:
        SessionLock(path).acquire()
    assert e.value.host == "some-other-machine"


def test_release_leaves_someone_elses_lock_alone(tmp_path):
    path = tmp_path / "s.toml"
    lock = SessionLock(path)
    lock.acquire()
    with pytest.raises(LockedError, match="already open in this Polku"):
        SessionLock(path).acquire()
    store.lock_path(path).write_text('pid = 1\nhost = "elsewhere"\n', "utf-8")  # replaced behind our back
    lock.release()
    assert store.lock_path(path).exists()


# ---------------------------------------------------------------------------
# Schema 1


def test_schema_1_session_is_migrated(tmp_path):
    original = (DATA / "schema1.toml").read_bytes()
    path = tmp_path / "old.toml"
    path.write_bytes(original)
    loaded = load(path)
    assert path.read_bytes() == original  # nothing written until the caller saves
    assert loaded.rewrite_needed and "schema 1" in loaded.notices[0]
    doc = loaded.doc
    assert doc["schema"] == 2 and doc["app"] == "polku 0.0.9"
    state = doc["state"]
    assert state["campaign"]["name"] == "Kivikauden kaiku" and state["campaign"]["system"] == "rajapolku"
    assert state["settings"]["raja.default_charges"] == 5
    assert list(state["characters"]) == ["aino", "ukko-halla"]
    aino = state["characters"]["aino"]
    assert aino["id"] == "aino" and aino["charges"] == 3 and aino["wound"] == "Bruised"
    assert aino["backgrounds"] == ["Tietäjä (seer)", "Kalastaja (fisher)"]
    assert [c["title"] for c in state["challenges"]] == ["Cross the frozen lake before dusk"]
    assert [e["seq"] for e in doc["event"]] == [1, 2] and doc["snapshot_seq"] == 2
    assert doc["event"][1]["outcome"] == {"winner": "aino", "degrees": 1}

    write_full(path, doc)  # the caller saves: schema 2 on disk, schema 1 kept as the backup
    assert (tmp_path / "old.toml.bak").read_bytes() == original
    again = load(path)
    assert again.notices == [] and again.doc["state"] == state and again.doc["event"] == doc["event"]


def test_schema_1_with_a_bad_character_names_it():
    with pytest.raises(CorruptError, match="character 2 has no 'id'"):
        migrate_v1({"schema": 1, "campaign": {}, "character": [{"id": "a"}, {"name": "B"}]})
    with pytest.raises(CorruptError, match="two characters have the id 'a'"):
        migrate_v1({"schema": 1, "character": [{"id": "a"}, {"id": "a"}]})
    doc = migrate_v1({"schema": 1, "character": [{"id": 7}], "log": [{"text": "x"}, {"text": "y"}]})
    assert list(doc["state"]["characters"]) == ["7"] and [e["seq"] for e in doc["event"]] == [1, 2]
