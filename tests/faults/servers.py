"""Servers the fault tests kill, pause and restart: their own Redis (with
persistence, as production runs it) and their own PostgreSQL cluster, so
the rest of the suite never meets a server in a bad state."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import threading
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


class SlowPath:
    """A TCP relay on loopback whose requests reach the server ``delay`` seconds late: one
    client's slower network path to a shared Redis (replies come back at once)."""

    def __init__(self, target_port: int, delay: float) -> None:
        self.target_port = target_port
        self.delay = delay
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(16)
        self.port = self.listener.getsockname()[1]
        self.sockets: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return  # closed
            server = socket.create_connection(("127.0.0.1", self.target_port))
            self.sockets += [client, server]
            threading.Thread(target=self._pump, args=(client, server, self.delay), daemon=True).start()
            threading.Thread(target=self._pump, args=(server, client, 0.0), daemon=True).start()

    @staticmethod
    def _pump(src: socket.socket, dst: socket.socket, delay: float) -> None:
        try:
            while data := src.recv(65536):
                if delay:
                    time.sleep(delay)
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (src, dst):
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def url(self, url: str) -> str:
        return url.replace(f":{self.target_port}", f":{self.port}")

    def close(self) -> None:
        self.listener.close()
        for sock in self.sockets:
            sock.close()

