"""Run the notebooks and save their outputs, so they render on GitHub.

    python notebooks/execute.py                  # every notebook
    python notebooks/execute.py 03_erasure_and_audit.ipynb

Each notebook runs in a fresh kernel on a fresh embedded data directory
(TRUSTMEM_HOME in a temporary directory), with every other TRUSTMEM_*
variable and OPENAI_API_KEY unset: the scripted offline model, the embedded
default, nothing from this machine. A notebook that raises is not saved.
Outputs are made stable: no timing metadata, no interpreter version, the
temporary directory's path replaced by ``$TRUSTMEM_HOME``. The hash of the
code cells is recorded in the notebook's metadata so the test suite can
tell when the saved outputs no longer match the code.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import tempfile
from pathlib import Path

import nbformat
from nbclient import NotebookClient

HERE = Path(__file__).resolve().parent
UNSET = (
    "TRUSTMEM_POSTGRES_URL",
    "TRUSTMEM_REDIS_URL",
    "TRUSTMEM_QDRANT_URL",
    "TRUSTMEM_KEY",
    "TRUSTMEM_LEVELS",
    "OPENAI_API_KEY",
)


def code_hash(book: nbformat.NotebookNode) -> str:
    """The hash of a notebook's code cells: what its saved outputs came from."""
    code = "\x00".join(c.source for c in book.cells if c.cell_type == "code")
    return hashlib.sha256(code.encode()).hexdigest()


def _scrub(value, home: str):
    if isinstance(value, str):
        return value.replace(home, "$TRUSTMEM_HOME")
    if isinstance(value, list):
        return [_scrub(v, home) for v in value]
    if isinstance(value, dict):
        return {k: _scrub(v, home) for k, v in value.items()}
    return value


def execute(path: Path) -> None:
    book = nbformat.read(path, as_version=4)
    home = Path(tempfile.mkdtemp(prefix="trustmem-nb-", dir="/tmp"))
    home.chmod(0o755)  # the embedded PostgreSQL runs as `postgres` when this runs as root
    saved = {k: os.environ.get(k) for k in (*UNSET, "TRUSTMEM_HOME")}
    try:
        for k in UNSET:
            os.environ.pop(k, None)
        os.environ["TRUSTMEM_HOME"] = str(home)
        NotebookClient(  # raises (and nothing is saved) when a cell raises
            book,
            timeout=300,
            kernel_name="python3",
            record_timing=False,
            resources={"metadata": {"path": str(path.parent)}},
        ).execute()
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        shutil.rmtree(home, ignore_errors=True)
    for cell in book.cells:
        if cell.cell_type != "code":
            continue
        cell.metadata.pop("execution", None)
        cell.outputs = [nbformat.from_dict(_scrub(o, str(home))) for o in cell.outputs]
    book.metadata["language_info"] = {"name": "python", "pygments_lexer": "ipython3"}
    book.metadata["trustmem"] = {"code_sha256": code_hash(book)}
    nbformat.validate(book)
    nbformat.write(book, path)
    print(f"saved {path.name}")


def main(names: list[str]) -> None:
    paths = [Path(n) if Path(n).exists() else HERE / n for n in names] or sorted(HERE.glob("*.ipynb"))
    for path in paths:
        execute(path)


if __name__ == "__main__":
    main(sys.argv[1:])
