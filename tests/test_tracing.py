"""Traces without leaks: real LangSmith and OpenTelemetry clients send a real
trust agent's runs over HTTP to a local endpoint the test starts, and no
canary from a personal message or a memory is in what they sent, while the
trace's structure (run and span names, label levels) is.

The redactor's rules are also checked on the shapes tracers hand over
(message objects, their serialized dicts, store items, span attributes)."""

from __future__ import annotations

import datetime
import gzip
import json
import threading
import uuid
import zlib
from collections.abc import Iterator, Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from langchain_core.load import dumpd
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from langgraph.store.base import Item

from langgraph_trustmem import TrustCheckpointSaver, label
from langgraph_trustmem.demo import ScriptedChatModel
from langgraph_trustmem.errors import ConfigurationError, UnknownLevelError
from langgraph_trustmem.nodes import create_trust_agent
from langgraph_trustmem.nodes.recall import memory_block
from langgraph_trustmem.store import TrustStore
from langgraph_trustmem.tracing import (
    RedactingSpanExporter,
    RedactingSpanProcessor,
    Redactor,
    configure_langsmith,
    langsmith_client,
    redactor,
)

from .store.conftest import embeddings, index, store_schema, user  # noqa: F401

MESSAGE_CANARY = "PASSPORT-Kx93-CANARY"  # in the user's personal turn
MEMORY_CANARY = "AIRPORT-Qz71-CANARY"  # in a personal memory
REMEMBER_CANARY = "SEAT-Wv28-CANARY"  # a fact the model stores with the remember tool
CANARIES = (MESSAGE_CANARY, MEMORY_CANARY, REMEMBER_CANARY)


# -- a local endpoint that records what the tracing clients send ---------------


class Collector:
    """A tiny HTTP server on 127.0.0.1 that answers like LangSmith (``/info``
    offers zstd, run posts are accepted) and like an OTLP/HTTP collector,
    and keeps every request body."""

    def __init__(self) -> None:
        self.requests: list[tuple[str, dict[str, str], bytes]] = []
        self._lock = threading.Lock()
        collector = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def _reply(self, body: bytes, ctype: str) -> None:
                self.send_response(200)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self) -> None:
                info = {"version": "0.10.0", "instance_flags": {"zstd_compression_enabled": True}}
                self._reply(
                    json.dumps(info if self.path.startswith("/info") else {}).encode(), "application/json"
                )

            def do_POST(self) -> None:
                if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
                    chunks = []
                    while size := int(self.rfile.readline().strip(), 16):
                        chunks.append(self.rfile.read(size))
                        self.rfile.readline()
                    self.rfile.readline()
                    raw = b"".join(chunks)
                else:
                    raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with collector._lock:
                    collector.requests.append(
                        (self.path, {k.lower(): v for k, v in self.headers.items()}, raw)
                    )
                if self.path.endswith("/v1/traces"):
                    self._reply(b"", "application/x-protobuf")  # an empty ExportTraceServiceResponse
                else:
                    self._reply(b"{}", "application/json")

            do_PATCH = do_POST

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self._thread = threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True)
        self._thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self._thread.join(timeout=10)

    def bodies(self, suffix: str = "") -> list[tuple[str, dict[str, str], bytes]]:
        """Request bodies as sent, with their content encoding undone."""
        out = []
        with self._lock:
            requests = list(self.requests)
        for path, headers, raw in requests:
            if not path.endswith(suffix):
                continue
            encoding = headers.get("content-encoding", "")
            if encoding == "zstd":
                import zstandard

                raw = zstandard.ZstdDecompressor().decompressobj().decompress(raw)
            elif encoding == "gzip":
                raw = gzip.decompress(raw)
            elif encoding == "deflate":
                raw = zlib.decompress(raw)
            else:
                assert not encoding, f"unexpected content encoding {encoding}"
            out.append((path, headers, raw))
        return out

    def sent(self) -> bytes:
        return b"\n".join(raw for _, _, raw in self.bodies())

    def multipart(self) -> dict[str, object]:
        """The LangSmith multipart parts, by part name, JSON-decoded."""
        parts: dict[str, object] = {}
        for _, headers, raw in self.bodies("/runs/multipart"):
            boundary = headers["content-type"].split("boundary=", 1)[1].encode()
            for chunk in raw.split(b"--" + boundary):
                head, sep, body = chunk.partition(b"\r\n\r\n")
                if not sep or b'name="' not in head:
                    continue
                name = head.split(b'name="', 1)[1].split(b'"', 1)[0].decode()
                parts[name] = json.loads(body.rstrip(b"\r\n"))
        return parts

    def spans(self) -> list[tuple[str, dict[str, object], list[tuple[str, dict[str, object]]]]]:
        """The OTLP spans sent: name, attributes, events."""
        from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

        def value(v):
            kind = v.WhichOneof("value")
            if kind == "array_value":
                return [value(x) for x in v.array_value.values]
            return getattr(v, kind) if kind else None

        out = []
        for _, _, raw in self.bodies("/v1/traces"):
            request = ExportTraceServiceRequest.FromString(raw)
            for rs in request.resource_spans:
                for ss in rs.scope_spans:
                    for span in ss.spans:
                        attrs = {a.key: value(a.value) for a in span.attributes}
                        events = [
                            (e.name, {a.key: value(a.value) for a in e.attributes}) for e in span.events
                        ]
                        out.append((span.name, attrs, events))
        return out


@pytest.fixture
def collector() -> Iterator[Collector]:
    c = Collector()
    yield c
    c.close()


# -- a real trust agent with a personal memory and a personal message -----------------


@pytest.fixture
def saver(pg_url, key, schema):
    with TrustCheckpointSaver.from_conn_string(pg_url, key=key) as s:
        yield s


@pytest.fixture
def store(pg_url, key, index, store_schema):  # noqa: F811
    with TrustStore.from_conn_string(pg_url, key=key, qdrant=":memory:", index=index) as s:
        s.setup()
        yield s


def text(messages) -> str:
    return " ".join(str(m.content) for m in messages)


def agent_rules(messages):
    """Stores a fact when told to; otherwise answers from its context (and
    repeats the recalled airport, so its reply carries the memory too)."""
    last = messages[-1]
    if isinstance(last, HumanMessage) and last.content.startswith("remember:"):
        args = {"content": last.content[len("remember:") :].strip(), "category": "preferences", "key": "seat"}
        return AIMessage("", tool_calls=[{"name": "remember", "args": args, "id": "call-remember-1"}])
    if isinstance(last, ToolMessage):
        return AIMessage("Saved.")
    if MEMORY_CANARY in text(messages):
        return AIMessage(f"Booked from your preferred airport {MEMORY_CANARY}.")
    return AIMessage("Which airport?")


def quiet_rules(messages):
    """The same agent, but its replies repeat nothing it was given."""
    reply = agent_rules(messages)
    return reply if reply.tool_calls else AIMessage("Booked.")


def run_agent(saver, store, user, rules=agent_rules, config=None) -> None:  # noqa: F811
    """Two turns of a personal session: one that recalls the personal
    memory and sends a personal message, one that stores a fact."""
    store.bound("sensitive").put(
        ("memories", user, "facts"),
        "airport",
        {"text": f"Preferred airport: {MEMORY_CANARY}."},
        level="personal",
    )
    model = ScriptedChatModel(respond=rules)
    agent = create_trust_agent(model, [], checkpointer=saver, store=store, prompt="You book flights.")
    cfg = {
        "configurable": {"thread_id": str(uuid.uuid4()), "user_id": user, "trust": "personal"},
        **(config or {}),
    }
    out = agent.invoke(
        {"messages": [HumanMessage(f"Book my flight, which airport do I use? Passport {MESSAGE_CANARY}.")]},
        cfg,
    )
    assert "Booked" in out["messages"][-1].content
    agent.invoke({"messages": [HumanMessage(f"remember: my seat is {REMEMBER_CANARY}")]}, cfg)
    item = store.bound("personal").get(("memories", user, "preferences"), "seat")
    assert item is not None and REMEMBER_CANARY in item.value["text"]
    assert any(MEMORY_CANARY in text(call) for call in model.calls)  # the model did see the memory


def langsmith_trace(client, saver, store, user, rules=agent_rules) -> None:  # noqa: F811
    from langchain_core.tracers import LangChainTracer

    tracer = LangChainTracer(client=client, project_name="trustmem-tests")
    run_agent(saver, store, user, rules, {"callbacks": [tracer]})
    tracer.wait_for_futures()
    client.flush()


def run_names(parts: dict[str, object]) -> set[str]:
    """The names of the runs posted (parts ``post.<run id>``)."""
    return {p["name"] for k, p in parts.items() if k.count(".") == 1 and isinstance(p, dict) and "name" in p}


# -- LangSmith ---------------------------------------------------------------------


def test_without_redaction_the_canaries_leave(collector, saver, store, user):  # noqa: F811
    """The control: a plain LangSmith client sends every canary (so the
    endpoint sees what a tracer really sends, zstd and multipart undone)."""
    from langsmith import Client

    client = Client(api_url=collector.url, api_key="dummy-key")
    langsmith_trace(client, saver, store, user)
    assert any(h.get("content-encoding") == "zstd" for _, h, _ in collector.requests)
    sent = collector.sent()
    for canary in CANARIES:
        assert canary.encode() in sent
    assert user.encode() in sent  # run metadata names the user


def test_langsmith_client_sends_no_content_above_the_level(collector, saver, store, user):  # noqa: F811
    client = langsmith_client(api_url=collector.url, api_key="dummy-key")  # public, memories never
    langsmith_trace(client, saver, store, user)
    sent = collector.sent()
    assert sent, "the client sent nothing"
    for canary in CANARIES:
        assert canary.encode() not in sent
    assert user.encode() not in sent  # no identifiers either: metadata and namespaces name no one
    parts = collector.multipart()
    # the structure of the trace is intact: runs, their names and the labels' levels
    names = run_names(parts)
    assert {
        "LangGraph",
        "pre_model_hook",
        "recall",
        "agent",
        "ScriptedChatModel",
        "tools",
        "remember",
    } <= names
    io = json.dumps([p for k, p in parts.items() if k.endswith((".inputs", ".outputs"))])
    assert '"level": "personal"' in io and '"source": "memory"' in io
    assert "[redacted: memory]" in io and "[redacted: personal]" in io
    assert '"name": "remember"' in io and "call-remember-1" in io  # tool calls keep name and id
    assert "You book flights." not in io  # the prompt is unlabelled content too


def test_configured_tracing_at_the_highest_level_still_drops_memory_text(collector, saver, store, user):  # noqa: F811
    """``configure_langsmith`` puts the redacting client under LangChain's
    own tracing (switched on here by ``tracing_context``, as
    ``LANGSMITH_TRACING=true`` does); at ``sensitive`` personal messages may
    leave, memory text may not."""
    import langsmith
    from langchain_core.tracers.langchain import wait_for_all_tracers

    client = configure_langsmith("sensitive", api_url=collector.url, api_key="dummy-key")
    try:
        with langsmith.tracing_context(enabled=True, project_name="trustmem-tests"):
            run_agent(saver, store, user, quiet_rules)
        wait_for_all_tracers()
        client.flush()
    finally:
        langsmith.configure(client=None)
    sent = collector.sent()
    assert MESSAGE_CANARY.encode() in sent  # personal content is allowed at sensitive
    assert MEMORY_CANARY.encode() not in sent
    assert b"[redacted: memory]" in sent
    assert {"LangGraph", "agent", "ScriptedChatModel"} <= run_names(collector.multipart())


def test_langsmith_client_refuses_hooks_that_would_replace_redaction():
    with pytest.raises(ConfigurationError):
        langsmith_client(anonymizer=lambda d: d, api_key="dummy-key")
    with pytest.raises(ConfigurationError):
        langsmith_client(hide_inputs=True, api_key="dummy-key")


# -- OpenTelemetry --------------------------------------------------------------------


def otel_provider(collector, wrap: str):
    from opentelemetry.exporter.otlp.proto.http import Compression
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    exporter = OTLPSpanExporter(endpoint=f"{collector.url}/v1/traces", compression=Compression.Gzip)
    provider = TracerProvider()
    if wrap == "processor":
        provider.add_span_processor(RedactingSpanProcessor(BatchSpanProcessor(exporter)))
    elif wrap == "exporter":
        provider.add_span_processor(BatchSpanProcessor(RedactingSpanExporter(exporter)))
    else:
        provider.add_span_processor(BatchSpanProcessor(exporter))
    return provider


@pytest.mark.parametrize("wrap", ["processor", "exporter", "none"])
def test_langsmith_otel_mode_spans_leave_without_content(collector, saver, store, user, wrap):  # noqa: F811
    """LangSmith's OpenTelemetry mode turns every run into a span with the
    run's inputs and outputs as ``gen_ai.prompt``/``gen_ai.completion``; the
    client here has no hide hooks, so only the span processor (or exporter
    wrapper) stands between them and the OTLP endpoint."""
    from langsmith import Client

    provider = otel_provider(collector, wrap)
    client = Client(
        api_url=collector.url, api_key="dummy-key", tracing_mode="otel", otel_tracer_provider=provider
    )
    try:
        langsmith_trace(client, saver, store, user)
        assert provider.force_flush(10_000)
    finally:
        provider.shutdown()
    assert all(h.get("content-encoding") == "gzip" for _, h, _ in collector.bodies("/v1/traces"))
    spans = collector.spans()
    assert spans, "no span was exported"
    sent = collector.sent()
    if wrap == "none":  # the control: the OTLP exporter alone sends every canary
        assert all(c.encode() in sent for c in CANARIES)
        return
    for canary in CANARIES:
        assert canary.encode() not in sent
    names = {name for name, _, _ in spans}
    assert {"LangGraph", "agent", "tools", "remember", "ScriptedChatModel"} <= names
    prompts = " ".join(str(a.get("gen_ai.prompt", "")) for _, a, _ in spans)
    assert '"level":"personal"' in prompts and "[redacted: memory]" in prompts
    assert any(a.get("langsmith.span.kind") == "llm" for _, a, _ in spans)


@pytest.mark.parametrize("level", ["public", "sensitive"])
def test_openinference_spans_leave_without_content(collector, saver, store, user, level):  # noqa: F811
    """OpenInference's LangChain instrumentation writes ``input.value`` /
    ``output.value`` (JSON) and flattened ``llm.input_messages.N.message.*``
    without labels; the processor removes their content, and at the highest
    level still every memory (by its name or the recall node's wording)."""
    from openinference.instrumentation.langchain import LangChainInstrumentor
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    provider = TracerProvider()
    exporter = OTLPSpanExporter(endpoint=f"{collector.url}/v1/traces")
    provider.add_span_processor(RedactingSpanProcessor(BatchSpanProcessor(exporter), level))
    instrumentor = LangChainInstrumentor()
    instrumentor.instrument(tracer_provider=provider)
    try:
        run_agent(saver, store, user, quiet_rules)
        assert provider.force_flush(10_000)
    finally:
        instrumentor.uninstrument()
        provider.shutdown()
    spans = collector.spans()
    sent = collector.sent()
    assert MEMORY_CANARY.encode() not in sent
    if level == "public":
        assert MESSAGE_CANARY.encode() not in sent and REMEMBER_CANARY.encode() not in sent
    else:  # personal messages may leave at the highest level; memory text may not
        assert MESSAGE_CANARY.encode() in sent
    assert {"LangGraph", "agent", "ScriptedChatModel", "tools", "remember"} <= {n for n, _, _ in spans}
    flat = [(k, v) for _, a, _ in spans for k, v in a.items() if k.startswith("llm.input_messages.")]
    assert ("llm.input_messages.0.message.role", "system") in flat
    assert ("llm.input_messages.0.message.content", "[redacted: memory]") in flat
    inputs = " ".join(str(a.get("input.value", "")) for _, a, _ in spans)
    assert '"level":"personal"' in inputs.replace(" ", "")


# -- the rules, on the shapes tracers hand over ----------------------------------------------


def labelled(msg, level, source="user"):
    return label(msg, level, source=source)


def dumps(value) -> str:
    return json.dumps(value, default=lambda o: o.model_dump() if hasattr(o, "model_dump") else str(o))


def test_levels_decide_for_labelled_messages_in_every_form():
    personal = labelled(HumanMessage("my diagnosis is X", id="m1"), "personal")
    public = labelled(HumanMessage("what time is it", id="m2"), "public")
    for form in (lambda m: m, dumpd, lambda m: m.model_dump()):
        out = dumps(redactor("internal")({"messages": [form(personal), form(public)]}))
        assert "diagnosis" not in out and "what time is it" in out
        assert "[redacted: personal]" in out and '"level": "personal"' in out and '"m1"' in out
        out = dumps(redactor("personal")({"messages": [form(personal)]}))
        assert "diagnosis" in out
    strange = labelled(HumanMessage("odd"), "public")
    strange.additional_kwargs["trustmem"]["level"] = "top-secret"  # a level the ladder does not know
    assert "odd" not in dumps(redactor("sensitive")({"m": strange}))


def test_unlabelled_content_leaves_only_at_the_highest_level():
    data = {
        "messages": [HumanMessage("hello there")],
        "profile": {"name": "Ann", "age": 41},
        "query": "x-ray",
    }
    for level in ("public", "internal", "personal"):
        out = dumps(redactor(level)(data))
        assert "hello there" not in out and "x-ray" not in out and "Ann" not in out
        assert '"age": 41' in out  # numbers (counts, sizes) stay
    out = dumps(redactor("sensitive")(data))
    assert "hello there" in out and "x-ray" in out


def test_memory_text_never_leaves_by_default():
    block = memory_block([{"id": "a1", "version": "v1", "level": "public", "text": "likes tea"}])
    tainted = labelled(HumanMessage("Memory: owes money", name="memory"), "public", source="memory:tainted")
    folded = "You book flights.\n\nMemory: likes tea"
    item = Item(
        namespace=("memories", "u"),
        key="k",
        value={"text": "likes tea", "n": 3},
        created_at=datetime.datetime.now(),
        updated_at=datetime.datetime.now(),
    )
    data = {
        "messages": [block, tainted, SystemMessage(folded)],
        "hits": [item, item.dict()],
        "tool": ToolMessage('[{"value": {"text": "likes tea"}}]', tool_call_id="c", name="search_memory"),
        "raw": '[{"namespace": ["m"], "key": "k", "value": {"text": "likes tea"}, "created_at": "t"}]',
    }
    for level in ("public", "sensitive"):
        out = dumps(redactor(level)(data))
        assert "likes tea" not in out and "owes money" not in out
        assert (
            '"key": "k"' in out
            and '"namespace": ["memories", "u"]' in out
            and '"n": "[redacted: memory]"' in out
        )
    # with memories=True, memory text follows its level like any content
    out = dumps(redactor("public", memories=True)({"messages": [block, tainted]}))
    assert "likes tea" in out and "owes money" in out
    assert "likes tea" not in dumps(redactor("public", memories=True)({"hits": [item]}))  # unlabelled item


def test_memory_tool_calls_lose_their_arguments_at_any_level():
    call = AIMessage(
        "",
        tool_calls=[
            {"name": "remember", "args": {"content": "seat 3A"}, "id": "c1"},
            {"name": "lookup", "args": {"q": "weather"}, "id": "c2"},
        ],
    )
    labelled(call, "public", source="model")
    out = dumps(redactor("public")({"m": [call, dumpd(call)]}))
    assert "seat 3A" not in out and "weather" in out and '"remember"' in out and '"c1"' in out
    assert "seat 3A" in dumps(redactor("public", memories=True)({"m": call}))


def test_generations_follow_their_message_and_inputs_are_never_changed():
    reply = labelled(AIMessage("the answer"), "personal", source="model")
    snapshot = reply.model_dump()
    gen = {"generations": [[{"text": "the answer", "type": "ChatGeneration", "message": dumpd(reply)}]]}
    out = dumps(redactor("public")(gen))
    assert "the answer" not in out and '"ChatGeneration"' in out
    redactor("public")({"messages": [reply]})
    assert reply.model_dump() == snapshot  # the graph's own objects are untouched
    assert redactor("personal").redact(gen) is gen  # nothing to remove: the same object back


def test_redaction_fails_closed(caplog):
    class Exploding(Mapping):
        def __getitem__(self, key):
            raise RuntimeError("secret detail")

        def __iter__(self):
            raise RuntimeError("secret detail")

        def __len__(self):
            return 1

    class Opaque:
        pass

    nested: list = []
    nested.append(nested)  # a cycle
    assert "[redacted" in dumps(redactor("sensitive")({"loop": nested}))
    assert redactor("public")({"x": Opaque()}) == {"x": "[redacted: unlabelled, Opaque]"}
    assert redactor("public")({"x": Exploding()}) == {"trustmem": "[redacted: redaction failed]"}
    assert "secret detail" not in caplog.text and "RuntimeError" in caplog.text
    with pytest.raises(UnknownLevelError):
        Redactor("top-secret")
    assert Redactor("internal", ladder=["low", "internal", "high"]).level == "internal"


def test_span_attributes_in_the_conventions_of_common_instrumentations():
    from opentelemetry.sdk.trace import Event, ReadableSpan

    from langgraph_trustmem.tracing import _SpanRedaction

    attrs = {
        "gen_ai.prompt.0.role": "user",
        "gen_ai.prompt.0.content": "my diagnosis is X",
        "gen_ai.completion.0.content": "take rest",
        "llm.input_messages.1.message.role": "user",
        "llm.input_messages.1.message.name": "memory",
        "llm.input_messages.1.message.content": "owes money",
        "input.value": json.dumps({"messages": [dumpd(labelled(HumanMessage("what time is it"), "public"))]}),
        "input.mime_type": "application/json",
        "output.value": "plain answer",
        "traceloop.entity.input": json.dumps({"inputs": {"q": "x-ray"}}),
        "llm.token_count.total": 12,
        "langsmith.trace.name": "agent",
    }
    span = ReadableSpan(
        name="agent",
        attributes=attrs,
        events=[Event("gen_ai.user.message", {"content": "hello there", "gen_ai.system": "openai"})],
    )
    attrs["llm.output_messages.0.message.tool_calls.0.tool_call.function.name"] = "remember"
    attrs["llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments"] = (
        '{"content": "seat 3A"}'
    )
    attrs["llm.output_messages.0.message.tool_calls.1.tool_call.function.name"] = "lookup"
    attrs["llm.output_messages.0.message.tool_calls.1.tool_call.function.arguments"] = '{"q": "weather"}'
    span = ReadableSpan(name="agent", attributes=attrs, events=span.events)
    clean = _SpanRedaction("sensitive", None).span(span)
    assert clean.attributes["llm.input_messages.1.message.content"] == "[redacted: memory]"
    assert "seat 3A" not in str(clean.attributes) and "weather" in str(clean.attributes)
    assert clean.attributes["gen_ai.prompt.0.content"] == "my diagnosis is X"  # unlabelled, top level
    clean = _SpanRedaction("public", None).span(span)
    out = json.dumps(dict(clean.attributes)) + json.dumps(dict(clean.events[0].attributes))
    for content in ("diagnosis", "take rest", "owes money", "plain answer", "x-ray", "hello there"):
        assert content not in out
    assert "what time is it" in out  # labelled public inside the JSON value
    assert (
        clean.attributes["gen_ai.prompt.0.role"] == "user" and clean.attributes["llm.token_count.total"] == 12
    )
    assert clean.attributes["langsmith.trace.name"] == "agent" and clean.name == "agent"
    assert clean.events[0].attributes["gen_ai.system"] == "openai"
    assert span.attributes["gen_ai.prompt.0.content"] == "my diagnosis is X"  # the original is untouched
