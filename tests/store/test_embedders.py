"""The offline embedders: recall on the held-out recall set (written by a
helper who never saw a model, frozen before any was chosen), no network on
load, and the optional WordLlama model working in the store."""

from __future__ import annotations

import socket
import tempfile
import uuid
from pathlib import Path

import pytest

from bench import embedder_eval
from langgraph_trustmem.store import TrustStore
from langgraph_trustmem.store.embeddings import StaticEmbeddings, WordLlamaEmbeddings, packaged_model_dir


@pytest.fixture
def no_network(monkeypatch):
    """Any attempt to open a connection fails the test."""

    def refuse(*args, **kwargs):
        raise AssertionError("an embedder tried to reach the network")

    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket.socket, "connect", refuse)


@pytest.mark.parametrize(
    ("make", "floor"),
    [
        # measured 0.928 (the packaged model) and 0.943 (WordLlama) on 600 questions;
        # the floors sit two standard errors below, so a worse rebuild fails
        (lambda: StaticEmbeddings(), 0.905),
        (lambda: WordLlamaEmbeddings(), 0.92),
    ],
    ids=["packaged", "wordllama"],
)
def test_held_out_recall_stays_above_its_floor(make, floor, no_network):
    memories, queries = embedder_eval.load("recall_heldout")
    emb = make()
    result = embedder_eval.recall(emb.embed_documents, memories, queries)
    assert result["user"]["all"] >= floor
    assert result["user"]["lexical"] >= 0.98  # a question that names the memory's words finds it


def test_the_packaged_model_is_the_trained_one():
    """The package ships the Tokenlearn-trained table, not the plain
    distillation (which scored 0.887 on the held-out set)."""
    readme = (packaged_model_dir() / "README.md").read_text()
    notice = (packaged_model_dir() / "NOTICE").read_text()
    assert "Tokenlearn" in readme and "WordNet" in notice and "Princeton University" in notice


def test_wordllama_dims_and_errors():
    assert WordLlamaEmbeddings(128).dims == 128
    assert len(WordLlamaEmbeddings(64).embed_query("aisle seat")) == 64
    with pytest.raises(ValueError):
        WordLlamaEmbeddings(100)
    v = WordLlamaEmbeddings().embed_documents(["", "a"])
    assert all(abs(sum(x * x for x in row) - 1.0) < 1e-4 for row in v)  # an empty text gets a unit vector too


def test_a_store_on_wordllama_searches_by_meaning(pg, key, workdir):
    import psycopg

    name = f"wordllama_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(pg.url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    emb = WordLlamaEmbeddings()
    index = {"dims": emb.dims, "embed": emb, "fields": ["text"]}
    where = str(Path(tempfile.mkdtemp(prefix="edge-", dir=workdir)) / "shard")
    ns = ("memories", "u-wordllama")
    with TrustStore.from_conn_string(pg.url_for(name), key=key, qdrant=where, index=index) as store:
        store.setup()
        top = store.bound("sensitive")
        top.put(ns, "allergy", {"text": "Allergic to penicillin; it gives her a rash."})
        top.put(ns, "dog", {"text": "Has a border collie called Pepper."})
        top.put(ns, "rent", {"text": "Rent is due on the third of each month."})
        assert top.search(ns, query="which antibiotics must she avoid", limit=1)[0].key == "allergy"
        assert top.search(ns, query="my pup's name", limit=1)[0].key == "dog"
