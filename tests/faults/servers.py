"""Servers the fault tests kill, pause and restart: their own Redis (with
persistence, as production runs it) and their own PostgreSQL cluster, so
the rest of the suite never meets a server in a bad state."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from pathlib import Path

import redis

from langgraph_trustmem.embedded import EmbeddedRedis


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PersistentRedis:
    """redis-server on a fixed port and directory, keeping its data across
    restarts (RDB snapshots on SAVE; append-only file when asked)."""

    def __init__(self, workdir: Path, *, appendonly: bool = False) -> None:
        self.dir = workdir
        self.port = free_port()
        self.appendonly = appendonly
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        args = [
            str(EmbeddedRedis.binary()),
            "--bind", "127.0.0.1", "--port", str(self.port), "--dir", str(self.dir),
            "--save", "", "--appendonly", "yes" if self.appendonly else "no",
            "--appendfsync", "always", "--daemonize", "no", "--logfile", "", "--protected-mode", "yes",
        ]  # fmt: skip
        self.proc = subprocess.Popen(
            args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True,
        )  # fmt: skip
        client = redis.Redis(port=self.port)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                if client.ping():
                    # a server still loading its data answers LOADING errors to commands
                    if client.info("persistence").get("loading") == 0:
                        client.close()
                        return
            except (redis.ConnectionError, redis.BusyLoadingError):
                pass
            time.sleep(0.02)
        raise RuntimeError("redis did not start")

    def snapshot(self) -> None:
        redis.Redis(port=self.port).save()

    def kill(self) -> None:
        assert self.proc is not None
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()

    def pause(self) -> None:
        assert self.proc is not None
        os.killpg(self.proc.pid, signal.SIGSTOP)

    def resume(self) -> None:
        assert self.proc is not None
        os.killpg(self.proc.pid, signal.SIGCONT)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.resume()
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        self.proc = None
