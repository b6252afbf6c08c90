"""The embedded vector tier keeps one shard per tenant: erasing a user
removes their shard's directory and leaves every other file as it was; a
single-shard directory from an earlier release is split on setup()."""

from __future__ import annotations

import hashlib
import shutil
import tempfile
from pathlib import Path

from langgraph_trustmem.store import TrustStore


def _digests(root: Path) -> dict[str, str]:
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def test_forget_removes_one_shard_and_rewrites_no_other(pg_url, key, index, store_schema, workdir):
    root = Path(tempfile.mkdtemp(prefix="shards-", dir=workdir)) / "vectors"
    users = [f"shard-user-{i}" for i in range(3)]
    with TrustStore.from_conn_string(pg_url, key=key, qdrant=str(root), index=index) as store:
        store.setup()
        top = store.bound("sensitive")
        for u in users:
            for i in range(4):
                top.put(("memories", u), f"m{i}", {"text": f"{u} takes metformin, note {i}"})
        top.put(("shared",), "faq", {"text": "clinic opening hours"})
        store.vectors.flush()
        gone = store.user_key(users[0]).hex()
        assert (root / f"t-{gone}").is_dir() and (root / "t-_").is_dir()
        before = {k: v for k, v in _digests(root).items() if not k.startswith(f"t-{gone}/")}
        receipt = store.forget(users[0])
        assert receipt["removed"]["vectors"] == 4
        store.vectors.flush()
        assert not (root / f"t-{gone}").exists()
        assert _digests(root) == before  # nobody else's vectors were rewritten
        kept = store.bound("sensitive", user_id=users[1])
        hits = kept.search(("memories", users[1]), query="metformin", limit=10)
        assert sorted(h.key for h in hits) == [f"m{i}" for i in range(4)]
        assert store.vectors.count(gone) == 0 and store.vectors.count() == 9


def test_a_single_shard_index_from_an_earlier_release_is_split(pg_url, key, index, store_schema, workdir):
    import qdrant_edge as qe

    root = Path(tempfile.mkdtemp(prefix="legacy-", dir=workdir)) / "vectors"
    user = "legacy-shard-user"
    ns = ("memories", user)
    with TrustStore.from_conn_string(pg_url, key=key, qdrant=str(root), index=index) as store:
        store.setup()
        for i in range(5):
            store.bound("sensitive").put(ns, f"k{i}", {"text": f"blood pressure reading {i}"})
        shard_dir = root / f"t-{store.user_key(user).hex()}"
        config = store.vectors._config()
    old = qe.EdgeShard.load(str(shard_dir))  # the store's lock on the shard's log is released
    records, _ = old.scroll(qe.ScrollRequest(limit=100, with_payload=True, with_vector=True))
    old.close()
    # rebuild the directory as the earlier release laid it out: one shard at its root
    shutil.rmtree(root)
    legacy = qe.EdgeShard.create(str(root), config)
    legacy.update(qe.UpdateOperation.upsert_points([qe.Point(r.id, list(r.vector), r.payload) for r in records]))
    legacy.flush()
    legacy.close()
    with TrustStore.from_conn_string(pg_url, key=key, qdrant=str(root), index=index) as store:
        store.setup()
        assert not (root / "segments").exists() and shard_dir.is_dir()
        hits = store.bound("sensitive", user_id=user).search(ns, query="blood pressure", limit=10)
        assert sorted(h.key for h in hits) == [f"k{i}" for i in range(5)]
        assert store.vectors.count() == 5


def test_plain_vectors_of_a_single_shard_index_reach_no_file_of_the_split(pg_url, key, index, store_schema, workdir):
    """The oldest layout held plain vectors in one shard: the split seals
    them before writing, so no file of the new layout (write-ahead logs
    included) holds a plain vector's bytes."""
    import numpy as np
    import qdrant_edge as qe

    from langgraph_trustmem.store.vectors import SEAL_FIELD

    root = Path(tempfile.mkdtemp(prefix="plain-legacy-", dir=workdir)) / "vectors"
    user, ns = "plain-legacy-user", ("memories", "plain-legacy-user")
    texts = {f"k{i}": f"cholesterol result {i} for the cardiologist" for i in range(4)}
    with TrustStore.from_conn_string(pg_url, key=key, qdrant=str(root), index=index) as store:
        store.setup()
        for k, text in texts.items():
            store.bound("sensitive").put(ns, k, {"text": text})
        store.vectors.flush()
        refs = {(store.ns_hash(ns) + store.key_hash(k)).hex(): k for k in texts}
        shard_dir, config = root / f"t-{store.user_key(user).hex()}", store.vectors._config()
    old = qe.EdgeShard.load(str(shard_dir))
    records, _ = old.scroll(qe.ScrollRequest(limit=100, with_payload=True, with_vector=True))
    old.close()
    plain = {r.id: index["embed"].embed_query(texts[refs[r.payload["ref"]]]) for r in records}
    shutil.rmtree(root)
    legacy = qe.EdgeShard.create(str(root), config)
    legacy.update(
        qe.UpdateOperation.upsert_points(
            [qe.Point(r.id, plain[r.id], {k: v for k, v in r.payload.items() if k != SEAL_FIELD}) for r in records]
        )
    )
    legacy.flush()
    legacy.close()
    with TrustStore.from_conn_string(pg_url, key=key, qdrant=str(root), index=index) as store:
        store.setup()
        assert store.vectors.unsealed_count() == 0
        hits = store.bound("sensitive", user_id=user).search(ns, query="cholesterol result 2", limit=1)
        assert [h.key for h in hits] == ["k2"]
    files = b"\n".join(p.read_bytes().rstrip(b"\0") for p in root.rglob("*") if p.is_file())  # less the preallocated tails
    for v in plain.values():
        # as the engine stores a cosine vector: unit length, float32; the
        # write-ahead log in CBOR (0xfa, a big-endian float32). Matched on
        # the top 24 bits of each of 16 coordinates (rounding spares them).
        head = (np.asarray(v, dtype=np.float64) / np.linalg.norm(v))[:16].astype(">f4")
        found = sum(b"\xfa" + x.tobytes()[:3] in files or x.tobytes()[::-1][1:] in files for x in head)
        assert found <= 3, f"{found} of 16 coordinates of a plain vector are on disk"


def test_a_shard_is_flushed_once_it_holds_enough_unflushed_writes(pg_url, key, index, store_schema, workdir):
    """Writes reach the log at once and the segments by a background flush:
    after ``flush_writes`` writes the segments alone (the log removed) hold
    them, while a shard below the threshold waits for its age limit."""
    import time

    import qdrant_edge as qe

    from langgraph_trustmem.store.vectors import QdrantEdgeIndex

    root = Path(tempfile.mkdtemp(prefix="flush-", dir=workdir)) / "vectors"
    edge = QdrantEdgeIndex(str(root), flush_interval=600, flush_writes=3)
    with TrustStore.from_conn_string(pg_url, key=key, qdrant=edge, index=index) as store:
        store.setup()
        busy, quiet = "flush-busy", "flush-quiet"
        for i in range(3):
            store.bound("sensitive").put(("memories", busy), f"k{i}", {"text": f"step count {i}"})
        store.bound("sensitive").put(("memories", quiet), "k0", {"text": "sleep hours"})

        def in_segments(user: str) -> int:
            copy = Path(tempfile.mkdtemp(prefix="segments-", dir=workdir)) / "shard"
            shutil.copytree(root / f"t-{store.user_key(user).hex()}", copy)
            shutil.rmtree(copy / "wal")
            shard = qe.EdgeShard.load(str(copy))
            try:
                return shard.count(qe.CountRequest(exact=True))
            finally:
                shard.close()

        def settled(user: str) -> int:
            try:
                return in_segments(user)
            except Exception:  # copied in the middle of the flush
                return -1

        deadline = time.monotonic() + 10
        while settled(busy) < 3 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert in_segments(busy) == 3
        assert in_segments(quiet) == 0  # in its log only, until it is old enough
        assert store.vectors.count(store.user_key(quiet).hex()) == 1


def test_a_shard_an_earlier_release_made_without_a_log_gets_one(pg_url, key, index, store_schema, workdir):
    """Shards of the previous release kept no write-ahead log (a killed
    process lost its unflushed vectors) and the engine cannot add one to a
    shard: the first open rewrites it with one, the same points in it. A
    rewrite a crash interrupted is finished or redone from what is on disk:
    a partial new shard beside the old one is dropped; a complete one whose
    old shard was already set aside takes its place."""
    import json

    import qdrant_edge as qe

    root = Path(tempfile.mkdtemp(prefix="unlogged-", dir=workdir)) / "vectors"
    user, ns = "unlogged-user", ("memories", "unlogged-user")
    with TrustStore.from_conn_string(pg_url, key=key, qdrant=str(root), index=index) as store:
        store.setup()
        for i in range(6):
            store.bound("sensitive").put(ns, f"k{i}", {"text": f"physiotherapy session {i} notes"})
        query = "physiotherapy session 3 notes"
        ranked = [(h.key, h.score) for h in store.bound("sensitive", user_id=user).search(ns, query=query, limit=6)]
        shard_dir = root / f"t-{store.user_key(user).hex()}"
        unlogged_config, logged_config = store.vectors._config(logged=False), store.vectors._config()
    new, aside = Path(str(shard_dir) + ".new"), Path(str(shard_dir) + ".old")
    old = qe.EdgeShard.load(str(shard_dir))
    records, _ = old.scroll(qe.ScrollRequest(limit=100, with_payload=True, with_vector=True))
    old.close()

    def written(where: Path, config) -> None:
        shutil.rmtree(where, ignore_errors=True)
        shard = qe.EdgeShard.create(str(where), config)
        shard.update(qe.UpdateOperation.upsert_points([qe.Point(r.id, list(r.vector), r.payload) for r in records]))
        shard.flush()
        shard.close()

    for crash in ("none", "while writing the new shard", "between the renames"):
        written(shard_dir, unlogged_config)  # the directory as the previous release left it
        if crash == "while writing the new shard":
            new.mkdir()
            (new / "edge_config.json").write_text("{")  # partial
        elif crash == "between the renames":
            shard_dir.rename(aside)
            written(new, logged_config)
        with TrustStore.from_conn_string(pg_url, key=key, qdrant=str(root), index=index) as store:
            store.setup()
            hits = store.bound("sensitive", user_id=user).search(ns, query=query, limit=6)
            assert [h.key for h in hits] == [k for k, _ in ranked], crash  # the same vectors, the same order
            assert [round(h.score, 5) for h in hits] == [round(s, 5) for _, s in ranked], crash
            assert store.vectors.count() == 6, crash
        assert json.loads((shard_dir / "edge_config.json").read_text())["wal_enabled"] is True, crash
        assert not new.exists() and not aside.exists(), crash
