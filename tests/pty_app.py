"""``polku FILE`` in a pseudo-terminal (80x24), as a GM starts it: the kill -9 loop and the
type-ahead bursts drive the real app through this one harness."""

from __future__ import annotations

import fcntl
import os
import pty
import signal
import struct
import sys
import termios
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


class AppInPty:
    """The app in a pseudo-terminal, its output drained by a thread into ``output``."""

    def __init__(self, path: Path, config: Path) -> None:
        env = dict(os.environ, TERM="xterm-256color", POLKU_CONFIG_DIR=str(config), COLUMNS="80", LINES="24")
        env["PYTHONPATH"] = str(REPO / "src") + os.pathsep + env.get("PYTHONPATH", "")
        env.pop("NO_COLOR", None)
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: become the app
            os.execve(sys.executable, [sys.executable, "-m", "polku.cli", str(path)], env)
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        self.output = bytearray()
        self.status: int | None = None
        self._reader = threading.Thread(target=self._drain, daemon=True)
        self._reader.start()

    def _drain(self) -> None:
        while True:
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:
                return
            if not chunk:
                return
            self.output += chunk

    def alive(self) -> bool:
        if self.status is not None:
            return False
        pid, status = os.waitpid(self.pid, os.WNOHANG)
        if pid == 0:
            return True
        self.status = status
        return False

    def wait_for(self, text: bytes, timeout: float = 30) -> bool:
        """Whether ``text`` was drawn before ``timeout`` (a bound naming a hang, not a speed)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if text in self.output:
                return True
            if not self.alive():
                return False
            time.sleep(0.02)
        return False

    def write(self, text: str) -> None:
        """One write: the whole burst reaches the app in one read, as over SSH."""
        data = text.encode("utf-8")
        assert os.write(self.fd, data) == len(data)

    def kill(self) -> None:
        """kill -9 (if it still runs), then close the terminal."""
        if self.alive():
            os.kill(self.pid, signal.SIGKILL)
            _, self.status = os.waitpid(self.pid, 0)
        try:
            os.close(self.fd)
        except OSError:
            pass
        self._reader.join(timeout=5)
