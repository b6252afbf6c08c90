"""The embedded PostgreSQL lives exactly as long as the process that started
it: a SIGKILLed owner takes it along (no shutdown code runs then), and a
short-lived thread that started it does not."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from .conftest import alive, wait_until_gone

pytestmark = [
    pytest.mark.server,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux only"),
]

OWNER = """
import sys, threading
from pathlib import Path
import psycopg
from langgraph_trustmem.embedded import EmbeddedPostgres
pg = EmbeddedPostgres(Path(sys.argv[1]), durable=False)
if sys.argv[2] == "thread":
    starter = threading.Thread(target=pg.start)
    starter.start()
    starter.join()  # the thread that forked the server is gone from here on
else:
    pg.start()
with psycopg.connect(pg.url) as conn:  # still serving after its starter thread ended
    conn.execute("SELECT 1").fetchone()
print(pg.proc.pid, flush=True)
sys.stdin.read()  # until the test closes stdin or kills this process
"""


@pytest.fixture
def cluster():
    d = Path(tempfile.mkdtemp(prefix="trustmem-lifetime-", dir="/tmp"))
    d.chmod(0o755)
    yield d
    shutil.rmtree(d, ignore_errors=True)


def start_owner(cluster: Path, how: str) -> tuple[subprocess.Popen, int]:
    owner = subprocess.Popen(
        [sys.executable, "-c", OWNER, str(cluster / "pg"), how],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip
    assert owner.stdout is not None
    line = owner.stdout.readline()  # printed once the server answers a query
    if not line:
        owner.kill()
        raise RuntimeError("the owner process did not start PostgreSQL")
    return owner, int(line)


@pytest.mark.parametrize("how", ["main", "thread"])
def test_a_killed_owner_takes_its_postgres_along(cluster, how):
    owner, postmaster = start_owner(cluster, how)
    try:
        assert alive(postmaster)
        os.kill(owner.pid, signal.SIGKILL)
        owner.wait()
        assert wait_until_gone(postmaster, 15), "the postmaster outlived its killed owner"
    finally:
        if owner.poll() is None:
            owner.kill()
            owner.wait()
        if alive(postmaster):
            os.kill(postmaster, signal.SIGKILL)
