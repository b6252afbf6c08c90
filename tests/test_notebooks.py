"""Every notebook executes, offline, on a fresh data directory: they never rot.

The committed notebooks keep their outputs, so they render on GitHub. Those
outputs must be there, come from the current code, show tables and pictures
rather than printed text, and hold no key and no path of the machine that
made them. Regenerate them with ``python notebooks/execute.py``.
"""

from __future__ import annotations

import importlib.util
import re
import tempfile
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

pytestmark = pytest.mark.slow

ROOT = Path(__file__).parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
REGENERATE = "run `python notebooks/execute.py` and commit the notebooks"

# What each notebook must show (in its HTML or SVG outputs), where it used to print.
MUST_SHOW = {
    "01_quickstart": [
        r"<td>system</td><td>personal</td><td>memory</td>",  # the recalled memory, with its label
        r"<td>kiosk</td><td>public</td><td>no</td>",  # the public session recalled nothing
    ],
    "02_seed_scenario": [
        # the branch tree: the sealed personal branch, and the public head forked from it
        r"branch 0 · personal</b></span> <b>sealed</b>.*<li>forked to .*branch 1 · public</b></span> <b>head</b>",
        r"<td>tool</td><td>public</td><td>tool:read_email</td>",  # what the model saw: the email, labelled
        r"<mark>IEH</mark>",  # the before/after view marks the airport
        r"refused, BranchAccessDenied",
        r"refused, TrustEscalationError",
    ],
    "03_erasure_and_audit": [
        r"<td>write</td><td>app</td><td>sensitive</td>",  # the audit trail names levels, not ranks
        r"<td>refused</td><td>app</td><td>sensitive</td><td>read above level</td>",
        r"<td>memories</td><td>2</td>",  # the receipt, as a table
        r"<td>threads</td><td>1</td>",
        r"<td>events verified</td>|<th>events verified</th>",
    ],
    "04_production_wiring": [
        r"<td>threads \(saver\.sweep\)</td><td>[1-9]\d*</td>",  # sweeps that did real work
        r"<td>memories \(store\.sweep_ttl\)</td><td>[1-9]\d*</td>",
        r"<td>checkpointer \(saver\.rotate_keys\)</td><td>[1-9]\d*</td>",  # a rotation that re-sealed rows
        r"<td>store \(store\.rotate_keys\)</td><td>[1-9]\d*</td>",
    ],
}
# What no output may hold: the reprs the notebooks used to print, a key, a path.
MUST_NOT_SHOW = [
    r"datetime\.datetime\(",  # a raw audit row
    r"\b(Label|Branch|Session|AuditReport)\(\w+=",  # a dataclass repr
    r"[A-Za-z0-9+/]{43}=",  # a 32-byte key in base64
    r"/tmp/",
    re.escape(str(ROOT)),
    re.escape(str(Path.home())) + "/",
]


def _execute_module():
    spec = importlib.util.spec_from_file_location("notebooks_execute", ROOT / "notebooks" / "execute.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _outputs(book):
    return [o for c in book.cells if c.cell_type == "code" for o in c.get("outputs", [])]


def _shown(book) -> str:
    """Everything the outputs show, as text."""
    parts = []
    for o in _outputs(book):
        if o.output_type == "stream":
            parts.append(o.text)
        for value in o.get("data", {}).values():
            parts.append(value if isinstance(value, str) else str(value))
        if o.output_type == "error":
            parts.append(f"{o.ename}: {o.evalue}")
    return "\n".join(parts)


def check_shows(book, name: str) -> None:
    """Tables and pictures, not printed text; what the notebook must show; no
    reprs, keys or paths."""
    outputs = _outputs(book)
    assert not [o for o in outputs if o.output_type == "error"]
    printed = [o.text for o in outputs if o.output_type == "stream" and o.name == "stdout"]
    assert not printed, f"{name} prints; display a table instead: {printed[0][:200]!r}"
    html = "".join(o.get("data", {}).get("text/html", "") for o in outputs)
    assert "<table>" in html, f"{name} shows no table"
    shown = _shown(book)
    for pattern in MUST_SHOW.get(name, []):
        assert re.search(pattern, shown, re.DOTALL), f"{name} does not show {pattern!r}"
    for pattern in MUST_NOT_SHOW:
        found = re.search(pattern, shown)
        assert not found, f"{name} shows {found.group(0)!r}"


def test_there_are_notebooks():
    assert len(NOTEBOOKS) >= 4
    assert {p.stem for p in NOTEBOOKS} >= set(MUST_SHOW)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs(path, workdir, monkeypatch):
    home = Path(tempfile.mkdtemp(prefix="nb-", dir=workdir))
    home.chmod(0o755)
    monkeypatch.setenv("TRUSTMEM_HOME", str(home))
    for var in _execute_module().UNSET:
        monkeypatch.delenv(var, raising=False)
    book = nbformat.read(path, as_version=4)
    NotebookClient(
        book, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    ).execute()
    check_shows(book, path.stem)
    shown = _shown(book)
    assert str(home) not in shown
    if (home / "key").exists():  # the embedded default's key file
        for key in (home / "key").read_text().strip().split(","):
            assert key not in shown


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_committed_notebook_keeps_current_outputs(path):
    """The notebook in the repository carries the outputs of its current code."""
    book = nbformat.read(path, as_version=4)
    code = [c for c in book.cells if c.cell_type == "code"]
    unrun = [i for i, c in enumerate(code) if c.get("execution_count") is None]
    assert not unrun, f"{path.name}: code cells {unrun} have no saved outputs; {REGENERATE}"
    recorded = book.metadata.get("trustmem", {}).get("code_sha256")
    assert recorded == _execute_module().code_hash(book), f"{path.name}: outputs are stale; {REGENERATE}"
    noise = [o.text for o in _outputs(book) if o.output_type == "stream"]
    assert not noise, f"{path.name}: saved outputs hold printed text or warnings: {noise[0][:200]!r}"
    check_shows(book, path.stem)
