"""The pieces of ``langgraph_trustmem.server`` that need no running server:
the encryption hook, owner tags, the sealed records of the in-memory
runtime, whom a read is for, and the loaders' path spellings."""

from __future__ import annotations

import asyncio
import json
import pickle
import subprocess
import sys
import types
from pathlib import Path

import pytest
from langgraph_sdk import EncryptionContext

from langgraph_trustmem import server
from langgraph_trustmem.crypto import generate_key
from langgraph_trustmem.errors import ConfigurationError, TamperedDataError
from langgraph_trustmem.trust import AUTH_USER_KEY

pytestmark = pytest.mark.server

CANARY = "HOOK-CANARY-bd41"


@pytest.fixture
def ring_key(monkeypatch):
    key = generate_key()
    monkeypatch.setenv("TRUSTMEM_KEY", key)
    server._keyring.cache_clear()
    yield key
    server._keyring.cache_clear()


def run(coro):
    return asyncio.run(coro)


def encrypt(data, model="thread", field="metadata"):
    return run(server._encrypt_json(EncryptionContext(model=model, field=field), data))


def decrypt(data, model="thread", field="metadata"):
    return run(server._decrypt_json(EncryptionContext(model=model, field=field), data))


def test_the_hook_seals_every_value_but_the_servers_own_fields(ring_key):
    record = {
        "note": CANARY,
        "nested": {"messages": [CANARY, 1.5, None, True]},
        "user_id": "someone",
        "graph_id": "agent",
        "thread_id": "5f0c",
        "langgraph_auth_user": {"identity": "someone", "is_authenticated": True},
        "stream_mode": ["values"],
        "owner": server.owner_tag("someone"),
        "empty": None,
    }
    sealed = encrypt(record)
    assert set(sealed) == set(record)  # the server merges records key by key
    assert CANARY not in json.dumps(sealed) and "someone" not in json.dumps(sealed)
    for key in ("note", "nested", "user_id", "langgraph_auth_user"):
        assert sealed[key].startswith(server.SEALED_PREFIX)
    for key in ("graph_id", "thread_id", "stream_mode", "owner", "empty"):
        assert sealed[key] == record[key]
    opened = decrypt(sealed)
    assert opened.plaintext == record and opened.replacement is None
    assert encrypt(sealed) == sealed  # sealing twice changes nothing


def test_store_items_pass_through_to_the_store_that_seals_them(ring_key):
    item = {"text": CANARY}
    assert encrypt(item, model="store", field="value") == item


def test_a_sealed_value_moved_or_altered_fails_closed(ring_key):
    sealed = encrypt({"a": CANARY, "b": "other"})
    with pytest.raises(TamperedDataError) as moved:
        decrypt({"b": sealed["a"]})
    assert CANARY not in str(moved.value)
    body = sealed["a"][len(server.SEALED_PREFIX) :]
    flipped = server.SEALED_PREFIX + body[:-6] + ("A" if body[-6] != "A" else "B") + body[-5:]
    with pytest.raises(TamperedDataError):
        decrypt({"a": flipped})
    with pytest.raises(TamperedDataError):
        decrypt({"a": server.SEALED_PREFIX + "not base64!"})


def test_a_record_sealed_under_a_retired_key_is_resealed_on_read(ring_key, monkeypatch):
    sealed = encrypt({"note": CANARY})
    monkeypatch.setenv("TRUSTMEM_KEY", f"{generate_key()},{ring_key}")
    server._keyring.cache_clear()
    opened = decrypt(sealed)
    assert opened.plaintext == {"note": CANARY}
    assert opened.replacement is not None and opened.replacement["note"] != sealed["note"]
    assert decrypt(opened.replacement).replacement is None


def test_blobs_round_trip_and_are_authenticated(ring_key):
    ctx = EncryptionContext(model="checkpoint")
    blob = run(server._encrypt_blob(ctx, CANARY.encode()))
    assert CANARY.encode() not in blob
    assert run(server._decrypt_blob(ctx, blob)) == CANARY.encode()
    with pytest.raises(TamperedDataError):
        run(server._decrypt_blob(ctx, blob[:-1] + bytes([blob[-1] ^ 1])))


def test_owner_tags_are_keyed_deterministic_pseudonyms(ring_key, monkeypatch):
    tag = server.owner_tag("patient-7")
    assert tag == server.owner_tag("patient-7") != server.owner_tag("patient-8")
    assert tag.startswith(server.TAG_PREFIX) and "patient" not in tag
    monkeypatch.setenv("TRUSTMEM_KEY", generate_key())
    server._keyring.cache_clear()
    assert server.owner_tag("patient-7") != tag


def test_the_in_memory_runtimes_records_pickle_sealed(ring_key):
    records = {"threads": [{"values": {"messages": [CANARY]}}]}
    envelope = server._keyring().encrypt(pickle.dumps(records, 2), server.aad("langgraph-api-inmem", "ops"))
    data = pickle.dumps(server._SealedRecords("ops", envelope), 2)
    assert CANARY.encode() not in data
    assert pickle.loads(data) == records
    renamed = pickle.dumps(server._SealedRecords("retry", envelope), 2)
    with pytest.raises(TamperedDataError):
        pickle.loads(renamed)


def test_an_api_read_is_made_for_the_user_the_server_authenticated(monkeypatch):
    ctx: list[object] = [None]
    utils = types.SimpleNamespace(
        get_auth_ctx=lambda: ctx[0], get_user_id=lambda user: getattr(user, "identity", None)
    )
    monkeypatch.setitem(sys.modules, "langgraph_api.utils", utils)
    read = {"configurable": {"thread_id": "t1", "user_id": "patient-9"}}
    assert server._as_caller(read) == read  # outside a request: left as it is
    ctx[0] = types.SimpleNamespace(user=types.SimpleNamespace(identity="patient-7"))
    assert server._as_caller(read)["configurable"][AUTH_USER_KEY] == "patient-7"
    assert AUTH_USER_KEY not in read["configurable"]  # the caller's dict is left alone
    forged = {"configurable": {"thread_id": "t1", AUTH_USER_KEY: "patient-8"}}
    assert server._as_caller(forged)["configurable"][AUTH_USER_KEY] == "patient-7"
    ctx[0] = types.SimpleNamespace(user=types.SimpleNamespace(identity=""))  # no custom auth
    assert server._as_caller(forged)["configurable"][AUTH_USER_KEY] == ""
    assert server._as_caller(read)["configurable"]["user_id"] == "patient-9"
    run = {"configurable": {"thread_id": "t1", "__pregel_runtime": object(), AUTH_USER_KEY: "x"}}
    assert server._as_caller(run) is run


def test_a_server_on_a_database_refuses_to_start_without_the_hook(monkeypatch):
    hook: list[object] = [None]
    monkeypatch.setitem(sys.modules, "langgraph_runtime", types.SimpleNamespace(RUNTIME_EDITION="postgres"))
    monkeypatch.setitem(
        sys.modules, "langgraph_api.encryption.shared", types.SimpleNamespace(get_encryption=lambda: hook[0])
    )
    with pytest.raises(ConfigurationError, match="encryption"):
        server._require_hook()
    hook[0] = object()
    server._require_hook()
    monkeypatch.setitem(sys.modules, "langgraph_runtime", types.SimpleNamespace(RUNTIME_EDITION="inmem"))
    hook[0] = None
    server._require_hook()  # `langgraph dev`: its files are sealed by the factories


LOADERS = """
import json, langgraph_sdk
from langgraph_api._checkpointer._adapter import _load_checkpointer
from langgraph_api.store import _load_store
from langgraph_api.encryption.custom import _load_encryption_obj
from langgraph_trustmem import server
out = {}
for path in ("langgraph_trustmem.server.checkpointer", "langgraph_trustmem.server:checkpointer"):
    cm = _load_checkpointer(path)()
    out[path] = hasattr(cm, "__aenter__") and cm.__class__ is server.checkpointer().__class__
for path in ("langgraph_trustmem.server.store", "langgraph_trustmem.server:store"):
    cm = _load_store(path)()
    out[path] = hasattr(cm, "__aenter__")
out["langgraph_trustmem.server:encryption"] = _load_encryption_obj("langgraph_trustmem.server:encryption") is server.encryption
print(json.dumps(out))
"""


def test_the_server_loads_every_spelling_of_the_paths(tmp_path: Path):
    env = {
        "PATH": "/usr/bin:/bin",
        "DATABASE_URI": ":memory:",
        "REDIS_URI": "fake",
        "MIGRATIONS_PATH": "__inmem",
        "LANGGRAPH_RUNTIME_EDITION": "inmem",
        "TRUSTMEM_HOME": str(tmp_path),
        "HOME": str(tmp_path),
    }
    done = subprocess.run(
        [sys.executable, "-c", LOADERS],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    loaded = json.loads(done.stdout.strip().splitlines()[-1])
    assert loaded == {
        "langgraph_trustmem.server.checkpointer": True,
        "langgraph_trustmem.server:checkpointer": True,
        "langgraph_trustmem.server.store": True,
        "langgraph_trustmem.server:store": True,
        "langgraph_trustmem.server:encryption": True,
    }
