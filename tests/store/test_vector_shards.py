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
        vectors = store.vectors
        shard_dir = root / f"t-{store.user_key(user).hex()}"
        vectors.flush()
        old = qe.EdgeShard.load(str(shard_dir))
        records, _ = old.scroll(qe.ScrollRequest(limit=100, with_payload=True, with_vector=True))
        old.close()
        config = vectors._config()
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
