"""The package stays typed and linted: mypy (settings in pyproject) and ruff
with LangGraph's rule selection, on every run of the suite."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parent.parent


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_mypy_is_clean():
    done = run("mypy")
    assert done.returncode == 0, done.stdout[-4000:]


def test_ruff_is_clean():
    done = run("ruff", "check", "langgraph_trustmem", "tests", "bench", "notebooks/execute.py")
    assert done.returncode == 0, done.stdout[-4000:]


def test_the_package_ships_its_types():
    assert (ROOT / "langgraph_trustmem" / "py.typed").exists()
