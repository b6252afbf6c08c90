"""The Agent Server tests run ``langgraph dev`` (the in-memory runtime) as a
subprocess on a free port, in a directory of its own, with every place it
could write (its data home, HOME, XDG dirs, TMPDIR) inside that directory,
so a scan of the directory is a scan of everything it wrote.

Select them with ``-m server`` (or leave them out with ``-m "not server"``).
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

from langgraph_trustmem.embedded import cluster_dir

SERVED = Path(__file__).parent / "served"

LANGGRAPH_JSON = {
    "dependencies": ["."],
    "graphs": {"agent": "./graph.py:graph"},
    "checkpointer": {"path": "langgraph_trustmem.server:checkpointer"},
    "store": {"path": "langgraph_trustmem.server:store"},
    "encryption": {"path": "langgraph_trustmem.server:encryption"},
    "http": {"app": "langgraph_trustmem.server:app"},
}
WITH_AUTH = {
    "auth": {"path": "./auth.py:auth"},
    "http": {"app": "langgraph_trustmem.server:app", "enable_custom_route_auth": True},
}


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "server: starts LangGraph's Agent Server (langgraph dev)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def alive(pid: int) -> bool:
    """A process that exists and is not a zombie."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return "State:\tZ" not in status


def wait_until_gone(pid: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while alive(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def bearer(identity: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {identity.encode().hex()}"}


def needles(text: str) -> list[bytes]:
    """The forms a string could take in a file: UTF-8, UTF-16, hex, and
    base64 at each of the three alignments."""
    raw = text.encode()
    forms = [raw, text.encode("utf-16-le"), raw.hex().encode()]
    for shift in range(3):
        b64 = base64.b64encode(b"\0" * shift + raw)[4 if shift else 0 :]
        forms.append(b64[: len(b64) - 4])  # the tail's group depends on what follows
    return [f for f in forms if len(f) >= 8]


def scan(roots: Iterable[Path], secrets: dict[str, str]) -> list[tuple[str, str]]:
    """Every (file, secret name) where a form of a secret occurs."""
    found = []
    forms = {name: needles(value) for name, value in secrets.items()}
    for root in roots:
        for path in sorted(p for p in root.rglob("*") if p.is_file() and not p.is_symlink()):
            data = path.read_bytes()
            for name, fs in forms.items():
                if any(f in data for f in fs):
                    found.append((str(path), name))
    return found


class AgentServer:
    """``langgraph dev`` in ``root`` with the trust memory's data in
    ``root/home``; always killed by the fixture that made it."""

    def __init__(self, root: Path, *, auth: bool = True) -> None:
        self.root = root
        self.home = root / "home"
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None
        self.starts = 0
        for name, mode in (("home", 0o755), ("user", 0o700), ("tmp", 0o700)):
            (root / name).mkdir(mode=mode)
        for name in ("graph.py", "auth.py"):
            shutil.copy(SERVED / name, root / name)
        config = {**LANGGRAPH_JSON, **(WITH_AUTH if auth else {})}
        (root / "langgraph.json").write_text(json.dumps(config, indent=2))

    def env(self) -> dict[str, str]:
        env = {
            k: v for k, v in os.environ.items() if not k.startswith(("TRUSTMEM_", "LANGGRAPH_", "LANGSMITH_"))
        }
        user = self.root / "user"
        env.update(
            TRUSTMEM_HOME=str(self.home),
            HOME=str(user),
            XDG_CACHE_HOME=str(user / "cache"),
            XDG_CONFIG_HOME=str(user / "config"),
            XDG_DATA_HOME=str(user / "data"),
            XDG_STATE_HOME=str(user / "state"),
            TMPDIR=str(self.root / "tmp"),
            # `langgraph dev` does not pass langgraph.json's "encryption" on: name it here too
            LANGGRAPH_ENCRYPTION=json.dumps(LANGGRAPH_JSON["encryption"]),
            LANGGRAPH_NO_VERSION_CHECK="true",
            LANGGRAPH_CLI_NO_ANALYTICS="1",
            LANGSMITH_TRACING="false",
            LANGCHAIN_TRACING_V2="false",
            PYTHONUNBUFFERED="1",
        )
        return env

    def start(self, timeout: float = 180.0) -> None:
        self.starts += 1
        log = open(self.root / f"server-{self.starts}.log", "wb")  # the child keeps it
        self.proc = subprocess.Popen(
            [
                sys.executable, "-m", "langgraph_cli", "dev", "--no-browser", "--no-reload",
                "--host", "127.0.0.1", "--port", str(self.port), "--config", "langgraph.json",
            ],
            cwd=self.root, env=self.env(), stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        log.close()
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"langgraph dev exited during start (exit {self.proc.returncode})")
            try:
                with urllib.request.urlopen(f"{self.url}/ok", timeout=2) as r:
                    if r.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("langgraph dev did not become ready in time")
            time.sleep(0.1)

    def postmaster(self) -> int:
        """The embedded PostgreSQL's postmaster pid (while it runs)."""
        return int((cluster_dir(self.home) / "data" / "postmaster.pid").read_text().split()[0])

    def stop(self, timeout: float = 90.0) -> None:
        """A graceful stop (SIGINT, as Ctrl-C), then a kill if it hangs."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.kill()
        self.proc = None

    def kill(self) -> None:
        if self.proc is None:
            return
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()
        self.proc = None

    def thread_records(self) -> list[dict]:
        """The threads in the in-memory runtime's sealed records file, opened
        as the server opens it (a subprocess with the server's settings)."""
        script = (
            "import json, pickle\n"
            "records = pickle.load(open('.langgraph_api/.langgraph_ops.pckl', 'rb'))\n"
            "print(json.dumps([{'thread_id': str(t['thread_id']), 'metadata': t['metadata']}"
            " for t in records['threads']], default=str))\n"
        )
        env = {**self.env(), "DATABASE_URI": ":memory:", "REDIS_URI": "fake", "MIGRATIONS_PATH": "__inmem",
               "LANGGRAPH_RUNTIME_EDITION": "inmem"}  # fmt: skip
        done = subprocess.run(
            [sys.executable, "-c", script],
            cwd=self.root,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        return json.loads(done.stdout.strip().splitlines()[-1])

    def client(self, identity: str | None = None):
        from langgraph_sdk import get_sync_client

        return get_sync_client(url=self.url, api_key=None, headers=bearer(identity) if identity else None)

    def written(self) -> list[Path]:
        """Every directory the server and the library write to."""
        roots = [self.root]
        cluster = cluster_dir(self.home)
        if not cluster.is_relative_to(self.root):
            roots.append(cluster)
        return roots


@pytest.fixture(params=[True], ids=["auth"])
def agent_server(request: pytest.FixtureRequest) -> Iterator[AgentServer]:
    """A server with custom auth (parametrize indirectly with False for none)."""
    # under /tmp and world-traversable: the embedded PostgreSQL runs as `postgres` under root
    root = Path(tempfile.mkdtemp(prefix="trustmem-server-", dir="/tmp"))
    root.chmod(0o755)
    server = AgentServer(root, auth=request.param)
    try:
        yield server
    finally:
        try:
            postmaster = server.postmaster()
        except (OSError, ValueError, IndexError):  # not running, or never started
            postmaster = None
        server.kill()
        if postmaster is not None:
            wait_until_gone(postmaster, 30)  # before its files are removed
        shutil.rmtree(root, ignore_errors=True)
