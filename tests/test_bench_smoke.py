"""The benchmark harness runs end to end (its smallest mode) and reports every
case with numeric ours/stock ratios. Targets are not asserted here: they are
what the full run measures (``python -m bench --full``)."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def test_the_harness_reports_every_case_with_numeric_ratios(tmp_path):
    from bench.run import CASE_IDS, markdown, print_report, run

    out = tmp_path / "latest.json"
    report = run("smoke", out=out)

    assert report["errors"] == []
    assert json.loads(out.read_text())["profile"] == "smoke"
    cases = {row["case"] for row in report["rows"]}
    assert cases == set(CASE_IDS)
    for case in CASE_IDS:
        rows = [r for r in report["rows"] if r["case"] == case]
        compared = [r for r in rows if r["stock"] is not None]
        assert compared, case
        for r in compared:
            assert isinstance(r["ratio"], float) and math.isfinite(r["ratio"]) and r["ratio"] > 0, r
            for side in ("ours_stats", "stock_stats"):
                assert (
                    r[side]["n"] >= 1 and math.isfinite(r[side]["median"]) and math.isfinite(r[side]["p95"])
                )
    # every target of the issue is evaluated (met or missed, never skipped)
    assert report["targets"] and all(t["met"] in (True, False) for t in report["targets"])
    search = [r for r in report["rows"] if r["case"] == "5. store" and r["op"] == "search k=5"]
    assert all(0.0 <= r["ours_extra"]["recall@5"] <= 1.0 for r in search)

    # the presentation works on what was produced
    from rich.console import Console

    print_report(report, Console(file=open(tmp_path / "table.txt", "w"), width=200))
    assert "5. store" in (tmp_path / "table.txt").read_text()
    assert markdown(report).count("\n") == len(report["rows"]) + 1


def test_the_bulk_loader_writes_what_put_writes(pg, key, tmp_path):
    """The store cases load memories in bulk with the store's own steps; a
    loaded memory must read back exactly like one written through put. A
    database of its own: its embedder is not the suite's (a store re-embeds
    a database's memories when the embedder changes)."""
    import uuid

    import psycopg

    name = f"loader_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(pg.url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    pg_url = pg.url_for(name)

    from bench import data
    from bench.loader import load_ours
    from langgraph_trustmem.store import TrustStore

    emb = data.HashEmbeddings()
    user = f"loader-{uuid.uuid4().hex[:8]}"
    ns = ("memories", user)
    value = {"text": "Prefers an aisle seat on long flights.", "level": 1, "kind": "fact"}
    index = {"dims": emb.dims, "embed": emb, "fields": ["text"]}
    with TrustStore.from_conn_string(pg_url, key=key, qdrant=str(tmp_path / "edge"), index=index) as store:
        store.setup()
        load_ours(store, [store], [(ns, "loaded", value)])
        store.bound("sensitive").put(ns, "put", value, level="internal")
        reader = store.bound("internal")
        loaded, put = reader.get(ns, "loaded"), reader.get(ns, "put")
        assert loaded is not None and put is not None
        assert (loaded.value, loaded.label.level, loaded.namespace) == (put.value, put.label.level, put.namespace)
        with psycopg.connect(pg_url, autocommit=True) as conn:
            rows = conn.execute(
                "SELECT ns_prefixes, depth, tenant, level, schema_version, indexed, expires_at, ttl_minutes "
                "FROM trustmem_memories WHERE ns_hash = %s AND key_hash = ANY(%s) ORDER BY key_hash",
                (store.ns_hash(ns), [store.key_hash("loaded"), store.key_hash("put")]),
            ).fetchall()
        assert len(rows) == 2 and rows[0] == rows[1]
        found = {it.key for it in reader.search(ns, query=value["text"], limit=5)}
        assert found == {"loaded", "put"}
