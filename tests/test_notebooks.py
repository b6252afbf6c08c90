"""Every notebook executes, offline, on a fresh data directory: they never rot."""

from __future__ import annotations

import tempfile
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).parent.parent / "notebooks").glob("*.ipynb"))


def test_there_are_notebooks():
    assert len(NOTEBOOKS) >= 4


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs(path, workdir, monkeypatch):
    home = Path(tempfile.mkdtemp(prefix="nb-", dir=workdir))
    home.chmod(0o755)
    monkeypatch.setenv("TRUSTMEM_HOME", str(home))
    for var in (
        "TRUSTMEM_POSTGRES_URL",
        "TRUSTMEM_REDIS_URL",
        "TRUSTMEM_QDRANT_URL",
        "TRUSTMEM_KEY",
        "OPENAI_API_KEY",
    ):
        monkeypatch.delenv(var, raising=False)
    book = nbformat.read(path, as_version=4)
    NotebookClient(
        book, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    ).execute()
    errors = [
        o
        for c in book.cells
        if c.cell_type == "code"
        for o in c.get("outputs", [])
        if o.get("output_type") == "error"
    ]
    assert not errors
    assert any(c.get("outputs") for c in book.cells if c.cell_type == "code")
