"""A real OpenSSH server on 127.0.0.1 for the remote-play tests: one account, keys with forced commands."""

from __future__ import annotations

import contextlib
import getpass
import os
import shutil
import socket
import subprocess
import textwrap
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

SSHD = shutil.which("sshd") or ("/usr/sbin/sshd" if os.path.exists("/usr/sbin/sshd") else None)

needs_sshd = pytest.mark.skipif(SSHD is None, reason="no sshd: install Debian's openssh-server to run the remote-play test")
needs_ssh_tools = pytest.mark.skipif(
    shutil.which("ssh") is None or shutil.which("tmux") is None or shutil.which("ssh-keygen") is None,
    reason="needs ssh, ssh-keygen and tmux")


def wait_for(predicate: Callable[[], Any], timeout: float, what: str, on_fail: Callable[[], str] = lambda: "") -> Any:
    """``predicate()``'s first true value, looked at every 0.2 s; fails after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = predicate()
        if got:
            return got
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}\n{on_fail()}")


def new_key(path: Path) -> Path:
    """A fresh ed25519 key pair at ``path`` (and ``path.pub``)."""
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(path)], check=True)
    return path


@dataclass(frozen=True)
class Sshd:
    user: str
    port: int

    def ssh(self, key: Path, *command: str, tty: bool = False) -> list[str]:
        """The ssh command line that logs in with ``key`` (and asks for a terminal with ``tty``)."""
        return ["ssh", "-F", "/dev/null", "-i", str(key), "-p", str(self.port), "-o", "IdentitiesOnly=yes",
                "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=no", "-o", f"UserKnownHostsFile={os.devnull}",
                "-o", "LogLevel=ERROR", *(["-t"] if tty else []), f"{self.user}@127.0.0.1", *command]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def running_sshd(folder: Path, forced: dict[Path, str]) -> Iterator[Sshd]:
    """An sshd on a free port of 127.0.0.1 letting this user in with each key of ``forced``, which
    runs only its forced command (``restrict,pty``, as docs/remote-play.md sets it up); stopped after.
    Skips the test where sshd cannot run."""
    assert SSHD is not None
    user = getpass.getuser()
    host_key = new_key(folder / "host_ed25519")
    (folder / "authorized_keys").write_text("".join(
        f'restrict,pty,command="{command}" {key.with_suffix(".pub").read_text().strip()}\n'
        for key, command in forced.items()))
    port = _free_port()
    config = folder / "sshd_config"
    config.write_text(textwrap.dedent(f"""\
        Port {port}
        ListenAddress 127.0.0.1
        HostKey {host_key}
        PidFile {folder / 'sshd.pid'}
        AuthorizedKeysFile {folder / 'authorized_keys'}
        AllowUsers {user}
        StrictModes no
        UsePAM no
        PubkeyAuthentication yes
        PasswordAuthentication no
        KbdInteractiveAuthentication no
        PermitRootLogin prohibit-password
        PrintMotd no
        PrintLastLog no
        """))
    if os.geteuid() == 0:
        os.makedirs("/run/sshd", mode=0o755, exist_ok=True)  # sshd's privilege separation folder
    check = subprocess.run([SSHD, "-t", "-f", str(config)], capture_output=True, text=True)
    if check.returncode != 0:
        pytest.skip(f"sshd cannot run here: {check.stderr.strip()[:200]}")
    sshd = subprocess.Popen([SSHD, "-D", "-e", "-f", str(config)], stderr=subprocess.PIPE, text=True)
    try:
        def listening() -> bool:
            if sshd.poll() is not None:
                assert sshd.stderr is not None
                pytest.skip(f"sshd exited: {sshd.stderr.read()[:300]}")
            with socket.socket() as s:
                return s.connect_ex(("127.0.0.1", port)) == 0

        wait_for(listening, 15, "sshd to listen")
        yield Sshd(user, port)
    finally:
        sshd.terminate()
        try:
            sshd.wait(timeout=10)
        except subprocess.TimeoutExpired:
            sshd.kill()
