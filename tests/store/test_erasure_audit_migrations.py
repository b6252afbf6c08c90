"""Erasure across every tier (with a scan of everything written), the audit
chain, and lazy and batch migration of stored values."""

from __future__ import annotations

import os
import re
import tempfile
import uuid
from pathlib import Path

import psycopg
import pytest
import redis
from langchain_core.messages import HumanMessage

from langgraph_trustmem import TrustCheckpointSaver
from langgraph_trustmem.store import TrustStore, ValueMigrations

from ..checkpoint.test_no_plaintext import readable
from .test_trust_rules import run_node


def scan_everything(pg, redis_url, edge_dir: Path) -> str:
    parts = [readable(pg.pg_dump())]
    client = redis.Redis.from_url(redis_url)
    for k in client.scan_iter(count=1000):
        parts.append(k.decode("latin-1"))
        kind = client.type(k)
        if kind == b"string":
            parts.append(client.get(k).decode("latin-1"))
        elif kind == b"set":
            parts += [m.decode("latin-1") for m in client.smembers(k)]
        elif kind == b"hash":
            parts += [x.decode("latin-1") for kv in client.hgetall(k).items() for x in kv]
    client.close()
    for root, _dirs, files in os.walk(edge_dir):
        for f in files:
            parts.append(Path(root, f).read_bytes().decode("latin-1"))
    return "\n".join(parts)


def test_forget_removes_a_user_from_every_tier_and_keeps_the_other(
    pg, pg_url, redis_url, key, index, store_schema, schema, workdir
):
    edge_dir = Path(tempfile.mkdtemp(prefix="erase-", dir=workdir))
    gone, kept = f"erase-me-{uuid.uuid4().hex[:6]}", f"keep-me-{uuid.uuid4().hex[:6]}"
    canary_gone, canary_kept = "CANARY-GONE-4471-insulin", "CANARY-KEPT-9902-asthma"
    with (
        TrustStore.from_conn_string(
            pg_url, key=key, qdrant=str(edge_dir / "shard"), redis_url=redis_url, index=index
        ) as store,
        TrustCheckpointSaver.from_conn_string(pg_url, key=key, redis_url=redis_url) as saver,
    ):
        store.setup()
        top = store.bound("sensitive")
        for user, canary in ((gone, canary_gone), (kept, canary_kept)):
            for i in range(5):
                top.put(("memories", user), f"m{i}", {"text": f"{canary} note {i}"})
            # warm the user's search cache (as a run of theirs does)
            store.bound("sensitive", user_id=user).search(("memories", user), query=f"{canary} note", limit=3)
            top.get(("memories", user), "m0")
            graph, _ = run_node(saver, store, lambda s: None)
            graph.invoke(
                {"messages": [HumanMessage(f"{canary} in a thread")]},
                {"configurable": {"thread_id": f"{user}-thread", "user_id": user}},
            )
        before = scan_everything(pg, redis_url, edge_dir)
        assert store.vectors.count(store.user_key(gone).hex()) == 5
        receipt = store.forget(gone, checkpointer=saver)
        assert receipt["removed"]["memories"] == 5 and receipt["removed"]["vectors"] == 5
        assert receipt["removed"]["threads"] == 1 and receipt["removed"]["cache"] > 0
        assert gone not in str(receipt)
        after = scan_everything(pg, redis_url, edge_dir)
        tenant_hex = store.user_key(gone).hex()
        for trace in (canary_gone, gone, tenant_hex):
            assert trace not in after, "a trace of the erased user remains"
        assert tenant_hex in before or store.user_key(gone) is not None
        # the other user is intact in every tier
        assert len(top.search(("memories", kept), query=canary_kept, limit=10)) == 5
        assert saver.get_tuple({"configurable": {"thread_id": f"{kept}-thread", "user_id": kept}}) is not None
        assert store.vectors.count(store.user_key(kept).hex()) == 5
        # erasing again is harmless and says nothing was left
        again = store.forget(gone, checkpointer=saver)
        assert sum(again["removed"].values()) == 0


def test_forget_resumes_after_a_crash_midway(store, user):
    top = store.bound("sensitive")
    for i in range(3):
        top.put(("memories", user), f"k{i}", {"text": f"fact {i}"})
    tenant = store.user_key(user)
    from langgraph_trustmem.store.plan import erasure_start_ops, erasure_step_ops

    # a first call that died after the vector step
    receipt_id, _ = store._run(erasure_start_ops(tenant))
    store._run(erasure_step_ops(receipt_id, "vectors", store.vectors.delete_tenant(tenant.hex())))
    assert top.get(("memories", user), "k0") is not None
    receipt = store.forget(user)
    assert receipt["receipt_id"] == str(receipt_id)
    assert receipt["removed"]["vectors"] == 3 and receipt["removed"]["memories"] == 3
    assert top.get(("memories", user), "k0") is None


def test_audit_records_without_content_and_detects_tampering(store, user, pg_url):
    top = store.bound("sensitive")
    top.put(("memories", user), "fact", {"text": "AUDIT-CANARY blood type O+"})
    top.get(("memories", user), "fact")
    top.search(("memories", user), query="blood type")
    store.bound("public", user_id=user).get(("memories", user), "fact")  # public reader: refused
    assert store.verify_audit().ok
    trail = store.audit_trail(("memories", user), "fact")
    assert [r[2] for r in trail] == ["write", "read", "search-hit", "refused"]
    rows = [(r[2], r[4], r[5]) for r in trail]
    with psycopg.connect(pg_url, autocommit=True) as conn:
        dump = " ".join(str(r) for r in conn.execute("SELECT * FROM trustmem_audit").fetchall())
        assert "AUDIT-CANARY" not in dump and user not in dump
        seq = conn.execute("SELECT max(seq) FROM trustmem_audit").fetchone()[0]
        conn.execute("UPDATE trustmem_audit SET level = 0 WHERE seq = %s", (seq - 1,))
        report = store.verify_audit()
        assert not report.ok and report.first_bad_seq == seq - 1
        conn.execute("UPDATE trustmem_audit SET level = %s WHERE seq = %s", (rows[-2][1], seq - 1))
    assert store.verify_audit().ok


def test_values_migrate_lazily_on_read_and_in_batches(pg, key, user):
    def v1_to_v2(value):
        return {"text": value["note"], "tags": []}

    with psycopg.connect(pg.url, autocommit=True) as conn:  # a database of its own: migrate() is global
        conn.execute("DROP DATABASE IF EXISTS migrations_test")
        conn.execute("CREATE DATABASE migrations_test")
    pg_url = pg.url_for("migrations_test")
    migrations = ValueMigrations()
    with TrustStore.from_conn_string(pg_url, key=key) as old:
        old.setup()
        for i in range(5):
            old.bound("sensitive").put(("memories", user), f"n{i}", {"note": f"old {i}"})
    migrations.register(1, v1_to_v2)
    progress = []
    with TrustStore.from_conn_string(pg_url, key=key, migrations=migrations) as new:
        top = new.bound("sensitive")
        item = top.get(("memories", user), "n0")
        assert item.value == {"text": "old 0", "tags": []} and item.schema_version == 2
        with psycopg.connect(pg_url, autocommit=True) as conn:
            versions = dict(
                conn.execute(
                    "SELECT key_hash, schema_version FROM trustmem_memories WHERE ns_hash = %s",
                    (new.ns_hash(("memories", user)),),
                ).fetchall()
            )
        assert versions[new.key_hash("n0")] == 2 and versions[new.key_hash("n1")] == 1
        hits = top.search(("memories", user), filter={"text": "old 3"})
        assert [h.key for h in hits] == ["n3"]  # filters see the upgraded value
        done = new.migrate(batch=2, progress=lambda d, t: progress.append((d, t)))
        assert done >= 3 and progress[-1][0] == done
        assert all(top.get(("memories", user), f"n{i}").schema_version == 2 for i in range(5))
        assert new.migrate() == 0


def test_refs_in_vector_payloads_are_hashes_only(store, user):
    top = store.bound("sensitive")
    top.put(("memories", user), "secret-name", {"text": "PAYLOAD-CANARY"})
    if hasattr(store.vectors, "client"):
        points, _ = store.vectors.client.scroll(store.vectors.collection, limit=1000, with_payload=True)
        blob = str([p.payload for p in points])
        assert re.search(r"'ref': '[0-9a-f]{64}'", blob)
    else:  # the embedded engine: everything it wrote to disk
        blob = "".join(
            Path(root, f).read_bytes().decode("latin-1")
            for root, _d, files in os.walk(store.vectors.path)
            for f in files
        )
        assert store.user_key(user).hex() in blob
    assert "PAYLOAD-CANARY" not in blob and user not in blob and "secret-name" not in blob


def test_retention_rules_by_level_and_namespace(pg, key, user):
    with psycopg.connect(pg.url, autocommit=True) as conn:  # its own database: sweeps are global
        conn.execute("DROP DATABASE IF EXISTS retention_test")
        conn.execute("CREATE DATABASE retention_test")
    url = pg.url_for("retention_test")
    rules = {"sensitive": 3600, ("memories", user, "scratch"): 60}
    with TrustStore.from_conn_string(url, key=key, retention=rules) as store:
        store.setup()
        top = store.bound("sensitive")
        top.put(("memories", user), "old-sensitive", {"text": "a"}, level="sensitive")
        top.put(("memories", user), "old-personal", {"text": "b"}, level="personal")
        top.put(("memories", user, "scratch"), "note", {"text": "c"}, level="public")
        top.put(("memories", user), "new-sensitive", {"text": "d"}, level="sensitive")
        with psycopg.connect(url, autocommit=True) as conn:
            for k in ("old-sensitive", "old-personal"):
                conn.execute(
                    "UPDATE trustmem_memories SET updated_at = now() - interval '2 hours' WHERE key_hash = %s",
                    (store.key_hash(k),),
                )
            conn.execute(
                "UPDATE trustmem_memories SET updated_at = now() - interval '2 minutes' WHERE key_hash = %s",
                (store.key_hash("note"),),
            )
        assert store.sweep_ttl() == 2
        assert top.get(("memories", user), "old-sensitive") is None
        assert top.get(("memories", user, "scratch"), "note") is None
        assert top.get(("memories", user), "old-personal") is not None  # no rule for personal
        assert top.get(("memories", user), "new-sensitive") is not None


def test_store_key_rotation(pg, key, user):
    from langgraph_trustmem import KeyRing, generate_key

    with psycopg.connect(pg.url, autocommit=True) as conn:
        conn.execute("DROP DATABASE IF EXISTS rotation_test")
        conn.execute("CREATE DATABASE rotation_test")
    url = pg.url_for("rotation_test")
    with TrustStore.from_conn_string(url, key=key) as store:
        store.setup()
        for i in range(5):
            store.bound("personal").put(("memories", user), f"k{i}", {"text": f"fact {i}"})
    new = generate_key()
    with TrustStore.from_conn_string(url, key=f"{new},{key}") as store:
        assert store.bound("personal").get(("memories", user), "k0").value == {"text": "fact 0"}
        assert store.rotate_keys(batch=2) == 6  # five memories and the user's audit salt
        assert store.rotate_keys() == 0
        with psycopg.connect(url, autocommit=True) as conn:
            ids = {
                KeyRing.key_id_in(bytes(r[0])) for r in conn.execute("SELECT sealed FROM trustmem_memories")
            }
        assert ids == {KeyRing([new]).active_key_id}
        assert [r[2] for r in store.audit_trail(("memories", user), "k0")][0] == "write"
        assert store.verify_audit().ok


def test_forget_works_with_an_index_written_against_the_older_signature(store, user):
    """``delete_tenant`` gained a ``count`` argument; a user's index that
    still takes only the tenant is called without it, and the erasure
    completes (before, it raised TypeError at its vector step on every
    resume)."""
    store.bound("sensitive").put(("memories", user), "k", {"text": "a fact"})
    original = store.vectors.delete_tenant
    calls: list[str] = []

    def delete_tenant(tenant):
        calls.append(tenant)
        return original(tenant)

    store.vectors.delete_tenant = delete_tenant
    store.vectors.listed = lambda tenant: None  # nor does it list ids (the base class's default)
    try:
        receipt = store.forget(user)
    finally:
        del store.vectors.delete_tenant, store.vectors.listed
    assert calls and receipt["removed"]["vectors"] == 1 and receipt["removed"]["memories"] == 1


def _client_store(pg_url, redis_url, key, index):
    return TrustStore.from_conn_string(pg_url, key=key, qdrant=":memory:", redis_url=redis_url, index=index)


def test_client_index_erasure_lists_once_and_deletes_by_id(pg_url, redis_url, key, index, store_schema):
    """qdrant-client's local mode scans every point for a count and for a
    delete by filter: an erasure lists the tenant's ids once and deletes
    those, and the other tenant's vectors stay."""
    gone, kept = f"gone-{uuid.uuid4().hex[:6]}", f"kept-{uuid.uuid4().hex[:6]}"
    with _client_store(pg_url, redis_url, key, index) as store:
        store.setup()
        top = store.bound("sensitive")
        for u in (gone, kept):
            for i in range(4):
                top.put(("memories", u), f"m{i}", {"text": f"fact {i} of {u}"})
        vectors, calls = store.vectors, []

        def spying(name):
            method = getattr(vectors, name)

            def spy(*args):
                calls.append(name)
                return method(*args)

            return spy

        for name in ("count", "delete_tenant", "listed", "delete_ids"):
            setattr(vectors, name, spying(name))
        receipt = store.forget(gone)
        assert calls == ["listed", "delete_ids"]
        assert receipt["removed"]["vectors"] == 4 and receipt["removed"]["memories"] == 4
        assert vectors.client.count(vectors.collection).count == 4
        assert vectors.count(store.user_key(gone).hex()) == 0
        assert vectors.count(store.user_key(kept).hex()) == 4
        assert len(top.search(("memories", kept), query="fact", limit=10)) == 4


def test_client_index_erasure_resumes_after_a_crash_after_its_record(pg_url, redis_url, key, index, store_schema):
    """Killed after recording the vector step and before deleting: the
    resumed call reports what was there and leaves none."""
    user = f"crash-{uuid.uuid4().hex[:6]}"
    with _client_store(pg_url, redis_url, key, index) as store:
        store.setup()
        top = store.bound("sensitive")
        for i in range(3):
            top.put(("memories", user), f"m{i}", {"text": f"fact {i}"})
        vectors = store.vectors

        def killed(tenant, ids):
            raise KeyboardInterrupt  # the process dies here

        vectors.delete_ids = killed
        with pytest.raises(KeyboardInterrupt):
            store.forget(user)
        del vectors.delete_ids
        assert vectors.count(store.user_key(user).hex()) == 3
        receipt = store.forget(user)
        assert receipt["removed"]["vectors"] == 3 and receipt["removed"]["memories"] == 3
        assert vectors.count(store.user_key(user).hex()) == 0


async def test_async_client_index_erasure_lists_and_deletes_by_id(pg_url, redis_url, key, index, store_schema):
    from qdrant_client import AsyncQdrantClient

    from langgraph_trustmem.store import AsyncTrustStore
    from langgraph_trustmem.store.vectors import AsyncQdrantClientIndex

    gone, kept = f"agone-{uuid.uuid4().hex[:6]}", f"akept-{uuid.uuid4().hex[:6]}"
    vectors = AsyncQdrantClientIndex(AsyncQdrantClient(":memory:"))
    async with AsyncTrustStore.from_conn_string(
        pg_url, key=key, qdrant=vectors, redis_url=redis_url, index=index
    ) as store:
        await store.setup()
        top = store.bound("sensitive")
        for u in (gone, kept):
            for i in range(3):
                await top.aput(("memories", u), f"m{i}", {"text": f"fact {i} of {u}"})
        receipt = await store.aforget(gone)
        assert receipt["removed"]["vectors"] == 3 and receipt["removed"]["memories"] == 3
        assert await vectors.acount(store.user_key(gone).hex()) == 0
        assert await vectors.acount(store.user_key(kept).hex()) == 3
