"""Bulk loading of the store cases' memory sets.

Loading 100k memories one ``put`` at a time costs one PostgreSQL
transaction, one vector upsert with a flush to disk and one audit append per
memory (see the "put" rows of case 5 for what that costs). To keep the full
run within its time budget the harness loads *ours* in batches of 1,000 with
the store's own steps, minus the per-memory transaction and audit event:

1. ``store.guard.check(value)``: the secret scan and PII redaction of every
   value (as ``put`` runs it);
2. the label, tenant hash, namespace/key hashes and the AES-GCM envelope via
   the store's own ``_write_level`` / ``tenant_of`` / ``ns_hash`` /
   ``key_hash`` / ``_body`` / ``_seal``;
3. embeddings for the batch (one ``embed_documents`` call);
4. the rows with the store's own ``UPSERT_SQL`` and parameters (as
   ``put_ops`` builds them) in one ``executemany``;
5. the vector points from the store's own ``_points`` in one ``upsert``.

The rows and points are byte-for-byte what ``put`` would write, except that
no ``write`` audit event is appended (the audit chain is not part of any
read path measured here). The stock stores are loaded through their own
``batch`` with ``PutOp``s of 1,000, which is their normal bulk path. Load
times are reported separately from the measured operations.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from langgraph.store.base import PutOp

BATCH = 1000


def load_ours(
    store: Any, vector_stores: Sequence[Any], items: Sequence[tuple[tuple[str, ...], str, dict]], batch: int = BATCH
) -> dict[str, float]:
    """Write ``items`` into ours' PostgreSQL rows (through ``store``) and
    into the vector index of each store of ``vector_stores``. Returns the
    seconds spent per step."""
    from langgraph_trustmem.store import sql
    from langgraph_trustmem.store.base import Reader

    reader = Reader(level=len(store.ladder.levels) - 1, explicit=True, bound=True)  # bound at the top level
    spent = {"prepare_s": 0.0, "embed_s": 0.0, "postgres_s": 0.0}
    for vs in vector_stores:
        spent[f"vectors_{id(vs)}_s"] = 0.0
    for start in range(0, len(items), batch):
        chunk = items[start : start + batch]
        t0 = time.perf_counter()
        params, texts, meta = [], [], []
        for ns, key, value in chunk:
            op = PutOp(ns, key, value)
            checked, redacted = store.guard.check(value)
            lvl = store._write_level(reader, store.ladder.name(value["level"]))
            nh, kh = store.ns_hash(ns), store.key_hash(key)
            tenant = store.tenant_of(ns)
            sealed = store._seal(nh, kh, store._body(op, checked, reader, "bench-loader"), lvl, tenant)
            t = store._texts(op, checked)
            texts.extend(t)
            meta.append(((nh + kh).hex(), ns, lvl, tenant, len(t)))
            params.append(
                store._row_params(ns, nh, kh, tenant, lvl, sealed, len(t), None, store.blind.tags(tenant, checked), False)
            )
        t1 = time.perf_counter()
        vectors = store.embeddings.embed_documents(texts) if texts else []
        t2 = time.perf_counter()
        with store._cursor() as cur:
            cur.executemany(sql.UPSERT_SQL, params)
        t3 = time.perf_counter()
        points, pos = [], 0
        for ref, ns, lvl, tenant, count in meta:
            points.extend(store._points(ref, ns, lvl, tenant, None, vectors[pos : pos + count]))
            pos += count
        spent["prepare_s"] += t1 - t0
        spent["embed_s"] += t2 - t1
        spent["postgres_s"] += t3 - t2
        for vs in vector_stores:
            t4 = time.perf_counter()
            vs.vectors.upsert(points)
            spent[f"vectors_{id(vs)}_s"] += time.perf_counter() - t4
    return spent


def load_stock(store: Any, items: Sequence[tuple[tuple[str, ...], str, dict]], batch: int = BATCH) -> float:
    t0 = time.perf_counter()
    for start in range(0, len(items), batch):
        store.batch([PutOp(ns, key, value) for ns, key, value in items[start : start + batch]])
    return time.perf_counter() - t0
