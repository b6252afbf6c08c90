"""The documentation site builds with ``mkdocs build --strict`` (offline) and
its reference pages are generated from the package's docstrings."""

from __future__ import annotations

import functools
import html
import inspect
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _squeeze(text: str) -> str:
    """Text with all whitespace removed, so markup between words does not matter."""
    return "".join(text.split())


def _text(page: Path) -> str:
    """A built page's text: tags dropped, entities decoded, whitespace removed."""
    raw = page.read_text(encoding="utf-8")
    return _squeeze(html.unescape(re.sub(r"<[^>]+>", " ", raw)))


def _first_line(obj: object) -> str:
    """The first line of a docstring as a reader sees it once rendered
    (Markdown code spans and Sphinx roles reduced to their text)."""
    doc = inspect.getdoc(obj)
    assert doc, f"{obj!r} has no docstring"
    roles = _roles()
    line = roles.ROLE.sub(roles._code, doc.splitlines()[0])
    return " ".join(line.replace("`", "").split())


@functools.cache
def _roles():
    """The docs build's griffe extension that renders Sphinx roles."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("_sphinx_roles", ROOT / "docs" / "_ext" / "sphinx_roles.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site")
    env = {
        **os.environ,
        "NO_MKDOCS_2_WARNING": "1",  # mkdocs-material's end-of-life banner
        "NO_COLOR": "1",
    }
    for var in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY"):
        env.pop(var, None)
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, f"mkdocs build --strict failed:\n{done.stdout}\n{done.stderr}"
    return out


PAGES = [
    "index.html",
    "concepts.html",
    "checkpointer.html",
    "threat-model.html",
    "reliability.html",
    "cli.html",
    "howto/embedded.html",
    "howto/production.html",
    "howto/store.html",
    "howto/erasure.html",
    "howto/migrate.html",
    "howto/agent-server.html",
    "howto/tracing.html",
    "reference/index.html",
    "reference/runtime.html",
    "reference/services.html",
    "reference/checkpoint.html",
    "reference/store.html",
    "reference/trust.html",
    "reference/nodes.html",
    "reference/crypto.html",
    "reference/errors.html",
    "reference/hardening.html",
    "reference/importer.html",
    "reference/server.html",
    "reference/tracing.html",
]


@pytest.mark.parametrize("page", PAGES)
def test_page_is_built(site, page):
    assert (site / page).is_file(), f"{page} missing from the built site"


def test_reference_pages_render_docstrings(site):
    import langgraph_trustmem as tm
    from langgraph_trustmem import errors, nodes, server, tracing

    expected = {
        "reference/checkpoint.html": [
            tm.TrustCheckpointSaver,
            tm.AsyncTrustCheckpointSaver,
            tm.EphemeralTrustSaver,
            tm.Retention,
            tm.TrustCheckpointSaver.rotate_keys,
        ],
        "reference/store.html": [
            tm.TrustStore,
            tm.AsyncTrustStore,
            tm.ValueMigrations,
            tm.TrustStore.forget,
            tm.TrustStore.bound,
        ],
        "reference/runtime.html": [tm.open, tm.aopen, tm.TrustMem],
        "reference/trust.html": [tm.Ladder, tm.Label, tm.label, tm.label_of],
        "reference/nodes.html": [
            getattr(nodes, name) for name in nodes.__all__ if callable(getattr(nodes, name))
        ],
        "reference/crypto.html": [tm.KeyRing, tm.generate_key],
        "reference/errors.html": [
            errors.TrustEscalationError,
            errors.SecretRejected,
            errors.TamperedDataError,
        ],
        "reference/hardening.html": [tm.harden_process],
        "reference/importer.html": [
            tm.import_from_postgres,
            tm.ImportRules,
            tm.ImportResult,
            tm.ImportSourceError,
        ],
        "reference/server.html": [
            server.checkpointer,
            server.store,
            server.owner_tag,
            server.admit_run,
            server.forget,
        ],
        "reference/tracing.html": [
            tracing.redactor,
            tracing.Redactor,
            tracing.langsmith_client,
            tracing.configure_langsmith,
            tracing.RedactingSpanProcessor,
            tracing.RedactingSpanExporter,
        ],
    }
    for page, objects in expected.items():
        text = _text(site / page)
        for obj in objects:
            assert _squeeze(_first_line(obj)) in text, f"{page} lacks the docstring of {obj.__qualname__}"
    # Sphinx roles in docstrings are rendered as code, not shown literally.
    for page in expected:
        assert ":meth:" not in _text(site / page) and ":class:" not in _text(site / page)


def test_site_needs_no_network(site):
    """Nothing the pages load comes from another host (no web fonts, no CDN)."""
    external = re.compile(r"""<(?:link|script|img)\b[^>]*\b(?:href|src)=["'](?:https?:)?//""", re.I)
    for page in PAGES:
        raw = (site / page).read_text(encoding="utf-8")
        assert not external.search(raw), f"{page} loads an external resource"
        assert "fonts.googleapis.com" not in raw and "fonts.gstatic.com" not in raw
