"""Traces without leaks: remove message and memory content from what
LangSmith and OpenTelemetry exporters send out of the process.

A trace is another copy of the session's state. Tracers record every node's
inputs and outputs (messages, recalled memories, tool results) and send them
to a third party, outside the encrypted tiers and the trust gate. The
:class:`Redactor` walks whatever a tracer hands over and replaces content
above a configured level, and all memory text unless told otherwise, with a
short placeholder naming the reason (``"[redacted: personal]"``). What makes
a trace useful stays: run and span names, timings, message types and ids,
label levels and sources, tool names and call ids, token counts.

Which content may leave:

- A labelled message leaves as it is when its level is at or below the
  redactor's ``level``. A level the ladder does not know counts as the
  highest (withheld).
- Unlabelled content (the user's turn before the gate labels it, a model's
  reply before it is labelled, tool inputs and outputs, other state keys)
  is at the level of its session, which the redactor cannot see. It counts
  as the highest level: it leaves only when ``level`` is the ladder's
  highest, where nothing is above it.
- Memory text (the recalled memory block, ``memory`` and ``memory:tainted``
  messages, store items, the arguments and results of memory tools) never
  leaves unless ``memories=True``; then it follows its level like any other
  content.

Hooks: :func:`langsmith_client` / :func:`configure_langsmith` for the
LangSmith client (``hide_inputs``/``hide_outputs``), and
:class:`RedactingSpanProcessor` / :class:`RedactingSpanExporter` for
OpenTelemetry. ``langsmith`` and ``opentelemetry-sdk`` are imported only
when those are used (``pip install "langgraph-trustmem[tracing]"``).
"""

from __future__ import annotations

import dataclasses
import datetime
import decimal
import enum
import logging
import re
import uuid
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import orjson
from langchain_core.messages import BaseMessage
from langgraph.store.base import Item

from langgraph_trustmem.errors import ConfigurationError
from langgraph_trustmem.nodes.recall import MEMORY_BLOCK_ID, MEMORY_SOURCE
from langgraph_trustmem.trust import DEFAULT_LADDER, Ladder, label_of

if TYPE_CHECKING:  # pragma: no cover - typing only
    from langsmith import Client
    from opentelemetry.sdk.trace import ReadableSpan, SpanProcessor
    from opentelemetry.sdk.trace.export import SpanExporter, SpanExportResult

log = logging.getLogger(__name__)

# The tools whose arguments and results are memory text: ours and langmem's.
DEFAULT_MEMORY_TOOLS: tuple[str, ...] = ("remember", "manage_memory", "search_memory")

# Span attributes that carry content: LangSmith's OTel mode (gen_ai.prompt /
# gen_ai.completion as JSON), the OTel GenAI conventions, OpenLLMetry
# (gen_ai.prompt.N.content, traceloop.entity.*) and OpenInference
# (input.value, llm.input_messages.N.message.content, ...). An attribute
# matches when its key is one of these or starts with one and a dot.
DEFAULT_CONTENT_ATTRIBUTES: tuple[str, ...] = (
    "gen_ai.prompt",
    "gen_ai.completion",
    "gen_ai.input.messages",
    "gen_ai.output.messages",
    "gen_ai.system_instructions",
    "gen_ai.tool.call.arguments",
    "gen_ai.tool.call.result",
    "gen_ai.content.prompt",
    "gen_ai.content.completion",
    "input.value",
    "output.value",
    "llm.input_messages",
    "llm.output_messages",
    "llm.prompts",
    "llm.completions",
    "llm.prompt_template.template",
    "llm.prompt_template.variables",
    "retrieval.documents",
    "reranker.query",
    "reranker.input_documents",
    "reranker.output_documents",
    "embedding.embeddings",
    "tool_call.function.arguments",
    "message.content",
    "message.contents",
    "traceloop.entity.input",
    "traceloop.entity.output",
)
# Attribute names of the events GenAI instrumentations attach (gen_ai.user.message, gen_ai.choice, ...).
_EVENT_CONTENT_KEYS = frozenset({"content", "message", "tool_calls", "arguments", "body"})
# The last part of a flattened content attribute that names structure, not content.
_STRUCTURAL_LEAVES = frozenset(
    {"role", "name", "id", "type", "tool_call_id", "finish_reason", "mime_type", "index", "level", "source"}
)

# String values under these keys are structure and stay, wherever they are.
_STRUCTURAL_KEYS = frozenset(
    {
        "id",
        "type",
        "__type",
        "role",
        "lc",
        "version",
        "tool_call_id",
        "status",
        "finish_reason",
        "stop_reason",
        "model",
        "model_name",
        "model_provider",
        "ls_provider",
        "ls_model_name",
        "system_fingerprint",
        "service_tier",
        "mime_type",
    }
)
# Keys beside which ``name`` is a tool's or a message author's name, not data.
_NAMED_BESIDE = frozenset({"args", "arguments", "input", "tool_call_id", "content", "parameters", "function"})
_ARG_KEYS = frozenset({"args", "arguments", "partial_json", "input"})
_MESSAGE_TYPES = frozenset(
    {
        "human",
        "ai",
        "system",
        "tool",
        "function",
        "chat",
        "remove",
        "developer",
        "HumanMessageChunk",
        "AIMessageChunk",
        "SystemMessageChunk",
        "ToolMessageChunk",
        "FunctionMessageChunk",
        "ChatMessageChunk",
    }
)
_TOOL_CALL_FIELDS = ("tool_calls", "invalid_tool_calls", "tool_call_chunks")
_OPAQUE = (datetime.date, datetime.time, datetime.timedelta, uuid.UUID, decimal.Decimal, enum.Enum)
_MAX_DEPTH = 64
_MAX_FIELDS = 100
_MAX_JSON = 4_000_000
_MEMORY_LINE = "Memory: "  # how the recall node renders every memory it injects


def _placeholder(why: str) -> str:
    return f"[redacted: {why}]"


class _TooDeep(Exception):
    """Nesting beyond what a trace needs (or a cycle): fail closed."""


class Redactor:
    """Replaces content above ``level`` (and memory text) in whatever a
    tracer is about to send; callable as LangSmith's ``hide_inputs`` and
    ``hide_outputs``.

    ``level``: the most sensitive level whose content may leave the process
    (default ``public``). ``memories``: let memory text at or below
    ``level`` leave too (default: never). ``memory_tools``: tools whose call
    arguments and results are memory text. The redactor never changes what
    it is given; it returns copies with content replaced.
    """

    def __init__(
        self,
        level: str = "public",
        *,
        memories: bool = False,
        ladder: Ladder | Sequence[str] | None = None,
        memory_tools: Iterable[str] = DEFAULT_MEMORY_TOOLS,
    ) -> None:
        self.ladder = ladder if isinstance(ladder, Ladder) else Ladder(ladder) if ladder else DEFAULT_LADDER
        self.level = self.ladder.name(level)
        self.memories = bool(memories)
        self.memory_tools = frozenset(memory_tools)
        self._rank = self.ladder.rank(level)
        # Unlabelled content is at its session's level, which a trace does
        # not carry: it may leave only when nothing is above the threshold.
        self._unlabelled_ok = self._rank == len(self.ladder.levels) - 1
        self._unlabelled = None if self._unlabelled_ok else "unlabelled"

    def __repr__(self) -> str:
        return f"Redactor(level={self.level!r}, memories={self.memories})"

    # -- the LangSmith hook -------------------------------------------------

    def __call__(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """A run's inputs or outputs with content removed (LangSmith calls
        this before a run leaves the process). Fails closed: if anything goes
        wrong, the whole payload is dropped."""
        try:
            out = self.redact(data)
            if isinstance(out, Mapping):
                return dict(out)
            return {"value": out}
        except Exception as exc:
            log.warning("trace redaction failed (%s); the payload was dropped", type(exc).__name__)
            return {"trustmem": _placeholder("redaction failed")}

    def redact(self, value: Any) -> Any:
        """Any value (dicts, lists, LangChain messages and their serialized
        forms, store items) with content removed; unchanged parts are
        returned as they are."""
        try:
            return self._walk(value, self._unlabelled, 0, ())
        except _TooDeep:
            return _placeholder("too deep")

    def redact_text(self, text: str, *, memory: bool = False) -> str:
        """A string that arrives on its own (a span attribute): JSON is
        walked like any value; plain text is unlabelled content (or memory
        text when ``memory`` is set or it reads as the recall node's)."""
        if not text:
            return text
        if memory:  # its siblings say so (a memory message, a memory tool's call)
            return _placeholder("memory") if not self.memories or not self._unlabelled_ok else text
        try:
            return self._text(text, None, 0, ()) if self._unlabelled is None else self._json_text(text)
        except _TooDeep:
            return _placeholder("too deep")

    def _json_text(self, text: str) -> str:
        """Below the highest level: a JSON value is walked (labelled messages
        in it may leave), anything else is unlabelled content."""
        parsed = _json(text)
        if parsed is _NOT_JSON:
            return _placeholder("memory" if _reads_as_memory(text, self.memory_tools) else "unlabelled")
        walked = self._walk(parsed, self._unlabelled, 0, ())
        return text if walked is parsed else orjson.dumps(walked, default=str).decode()

    # -- the walk -------------------------------------------------------------

    def _walk(self, value: Any, deny: str | None, depth: int, path: tuple[int, ...]) -> Any:
        """``deny``: None where unlabelled strings may leave, else the reason
        they may not (shown in their placeholder)."""
        if value is None or isinstance(value, (bool, int, float)):
            return value
        if isinstance(value, str):
            return self._text(value, deny, depth, path)
        if isinstance(value, (bytes, bytearray, memoryview)):
            return value if deny is None or not value else _placeholder(deny)
        if isinstance(value, _OPAQUE):
            return value
        if depth > _MAX_DEPTH or id(value) in path:
            raise _TooDeep
        path = (*path, id(value))
        depth += 1
        if _is_message_object(value):
            return self._message_object(value, depth, path)
        if _is_item_object(value):
            return self._item(_item_fields(value), getattr(value, "label", None), value, depth, path)
        if isinstance(value, Mapping):
            return self._mapping(value, deny, depth, path)
        if isinstance(value, (list, tuple)):
            items = [self._walk(v, deny, depth, path) for v in value]
            if all(a is b for a, b in zip(items, value, strict=False)):
                return value
            return items if isinstance(value, list) or _is_namedtuple(value) else tuple(items)
        if isinstance(value, (set, frozenset)):
            return self._walk(sorted(value, key=repr), deny, depth, path)
        fields = _object_fields(value)
        if fields is not None:
            walked = self._mapping(fields, deny, depth, path)
            return value if walked is fields and deny is None else {"type": type(value).__name__, **walked}
        if deny is not None:
            return _placeholder(f"{deny}, {type(value).__name__}")
        text = str(value)  # what a tracer would send for it
        return value if self._text(text, None, depth, path) is text else _placeholder(type(value).__name__)

    def _text(self, text: str, deny: str | None, depth: int, path: tuple[int, ...]) -> str:
        if not text:
            return text
        if deny is not None:
            return _placeholder(deny)
        parsed = _json(text)  # a JSON value in a string: walked, so labelled parts are judged
        if parsed is not _NOT_JSON:
            walked = self._walk(parsed, deny, depth + 1, path)
            return text if walked is parsed else orjson.dumps(walked, default=str).decode()
        if not self.memories and _reads_as_memory(text, self.memory_tools):
            return _placeholder("memory")
        return text

    def _mapping(self, m: Mapping[str, Any], deny: str | None, depth: int, path: tuple[int, ...]) -> Any:
        if _is_serialized_message(m):  # dumpd(): {"lc": 1, "type": "constructor", "kwargs": {...}}
            kwargs = self._message_fields(m["kwargs"], depth, path)
            return m if kwargs is m["kwargs"] else {**m, "kwargs": kwargs}
        if _is_message_dict(m):
            return self._message_fields(m, depth, path)
        if _is_stored_message(m):  # messages_to_dict(): {"type": "human", "data": {...}}
            data = self._message_fields(m["data"], depth, path)
            return m if data is m["data"] else {**m, "data": data}
        if _is_item_dict(m):
            return self._item(m, None, m, depth, path)
        if _is_generation(m):
            return self._generation(m, deny, depth, path)
        if not self.memories and self._memory_call(m) and ("function" in m or not _ARG_KEYS.isdisjoint(m)):
            return _redact_call(m)  # a memory tool's call outside a message (ToolNode's Send)
        if m.get("type") == "confirm_memory" and not self.memories:  # the remember tool's question
            deny = "memory"
        out: dict[Any, Any] = {}
        changed = False
        named = not _NAMED_BESIDE.isdisjoint(m.keys())
        for k, v in m.items():
            if self._structural(k, v, m, named):
                new = v
            elif k in _ARG_KEYS and deny is not None and named:
                new = _redact_args(v, deny)
            else:
                new = self._walk(v, deny, depth, path)
            changed = changed or new is not v
            out[k] = new
        return out if changed else m

    def _structural(self, key: Any, value: Any, m: Mapping[str, Any], named: bool) -> bool:
        """Whether a dict entry names structure (ids, types, roles, a tool's
        name, a label) rather than content."""
        if not isinstance(key, str) or not _is_names(value):
            return False
        if key == "name":
            return named
        if key == "level":
            return value in self.ladder or "source" in m
        if key == "source":
            return "level" in m
        return key in _STRUCTURAL_KEYS

    # -- messages -------------------------------------------------------------

    def _message_object(self, msg: Any, depth: int, path: tuple[int, ...]) -> Any:
        fields = {name: getattr(msg, name, None) for name in type(msg).model_fields}
        out = self._message_fields(fields, depth, path)
        if out is fields:
            return msg
        return msg.model_copy(update={k: v for k, v in out.items() if v is not fields.get(k)})

    def _verdict(self, fields: Mapping[str, Any]) -> str | None:
        """Why this message's content may not leave, or None if it may."""
        lab = label_of({"additional_kwargs": fields.get("additional_kwargs")})
        kind, name = fields.get("type"), fields.get("name")
        memory = (
            fields.get("id") == MEMORY_BLOCK_ID
            or (lab is not None and lab.source.split(":", 1)[0] == MEMORY_SOURCE)
            or (name == "memory" and kind in ("human", "HumanMessageChunk"))
            or (kind in ("tool", "ToolMessageChunk") and name in self.memory_tools)
        )
        if lab is None:
            content = fields.get("content")
            if isinstance(content, str) and _reads_as_memory(content, self.memory_tools):
                memory = True
        if memory and not self.memories:
            return "memory"
        if lab is None:
            return None if self._unlabelled_ok else "unlabelled"
        if lab.level not in self.ladder:
            return "unknown level"
        return None if self.ladder.rank(lab.level) <= self._rank else lab.level

    def _message_fields(self, fields: Mapping[str, Any], depth: int, path: tuple[int, ...]) -> Any:
        why = self._verdict(fields)
        if why is None:
            return self._memory_calls(fields)
        out: dict[str, Any] = {}
        for k, v in fields.items():
            if k == "content":
                new = (
                    (_placeholder(why) if v else v) if isinstance(v, str) else self._walk(v, why, depth, path)
                )
            elif k in ("id", "type", "name", "tool_call_id", "status", "usage_metadata") or v is None:
                new = v
            elif k == "artifact":
                new = _placeholder(why)
            else:  # additional_kwargs (labels stay), tool calls (names and ids stay), response_metadata
                new = self._walk(v, why, depth, path)
            out[k] = new
        return out

    def _memory_calls(self, fields: Mapping[str, Any]) -> Any:
        """A message that may leave, less the arguments of memory tool calls."""
        if self.memories or not self.memory_tools:
            return fields
        out = dict(fields)
        changed = False
        for key in _TOOL_CALL_FIELDS:
            calls = fields.get(key)
            if isinstance(calls, list) and any(self._memory_call(c) for c in calls):
                out[key] = [_redact_call(c) if self._memory_call(c) else c for c in calls]
                changed = True
        kwargs = fields.get("additional_kwargs")
        raw = kwargs.get("tool_calls") if isinstance(kwargs, Mapping) else None
        if isinstance(kwargs, Mapping) and isinstance(raw, list) and any(self._memory_call(c) for c in raw):
            out["additional_kwargs"] = {
                **kwargs,
                "tool_calls": [_redact_call(c) if self._memory_call(c) else c for c in raw],
            }
            changed = True
        return out if changed else fields

    def _memory_call(self, call: Any) -> bool:
        if not isinstance(call, Mapping):
            return False
        fn = call.get("function")
        name = fn.get("name") if isinstance(fn, Mapping) else call.get("name")
        return name in self.memory_tools

    def _generation(self, m: Mapping[str, Any], deny: str | None, depth: int, path: tuple[int, ...]) -> Any:
        """A ChatGeneration: its ``text`` repeats the message's content, so
        it leaves only with the message."""
        message = m["message"]
        fields = message.get("kwargs", message) if isinstance(message, Mapping) else None
        if fields is None and _is_message_object(message):
            fields = {name: getattr(message, name, None) for name in type(message).model_fields}
        why = self._verdict(fields) if isinstance(fields, Mapping) else "content"
        out: dict[str, Any] = {}
        for k, v in m.items():
            if k == "text":
                out[k] = v if why is None or not v else _placeholder(why)
            elif self._structural(k, v, m, False):
                out[k] = v
            else:  # the message itself is judged again inside; generation_info is unlabelled
                out[k] = self._walk(v, deny if why is None else why, depth, path)
        return out if any(out[k] is not m[k] for k in m) else m

    # -- store items ------------------------------------------------------------

    def _item(
        self, fields: Mapping[str, Any], lab: Any, original: Any, depth: int, path: tuple[int, ...]
    ) -> Any:
        """A memory from the store: its value is memory text. Namespace, key,
        times, score and level stay."""
        raw_level = getattr(lab, "level", None)
        level = raw_level if isinstance(raw_level, str) else None
        known = level is not None and level in self.ladder
        if self.memories:
            if level is None and self._unlabelled_ok:
                return original
            if level is not None and known and self.ladder.rank(level) <= self._rank:
                return original
        why = "memory" if not self.memories else (level if level is not None and known else "unlabelled")
        value = fields.get("value")
        out: dict[str, Any] = {}
        for k, v in fields.items():
            if k == "value":
                out[k] = (
                    {vk: _placeholder(why) for vk in value}
                    if isinstance(value, Mapping)
                    else _placeholder(why)
                )
            elif k in ("namespace", "key", "created_at", "updated_at", "score", "level"):
                out[k] = v
            else:
                out[k] = self._walk(v, why, depth, path)
        if level is not None:
            out["level"] = level
        return out


# -- helpers --------------------------------------------------------------------

_NOT_JSON = object()


def _json(text: str) -> Any:
    stripped = text.lstrip()
    if not stripped[:1] or stripped[0] not in "[{" or len(text) > _MAX_JSON:
        return _NOT_JSON
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return _NOT_JSON


_MEMORY_MARKS = (
    _MEMORY_LINE,
    MEMORY_BLOCK_ID,
    f"'source': '{MEMORY_SOURCE}",
    f'"source": "{MEMORY_SOURCE}',
    f'"source":"{MEMORY_SOURCE}',
)


def _reads_as_memory(text: str, memory_tools: Iterable[str] = ()) -> bool:
    """Unlabelled text that carries memory: the recall node's wording, or
    the repr of a message or tool call that holds memory (instrumentations
    send reprs of objects they cannot serialize)."""
    if any(mark in text for mark in _MEMORY_MARKS):
        return True
    return any(f"'name': '{t}'" in text or f'"name": "{t}"' in text for t in memory_tools)


def _is_names(value: Any) -> bool:
    return (
        isinstance(value, (str, int, float, bool))
        or value is None
        or (isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value))
    )


def _redact_args(value: Any, why: str) -> Any:
    """Tool call arguments: names stay, every value goes (numbers too)."""
    if isinstance(value, Mapping):
        return {k: _placeholder(why) for k in value}
    return _placeholder(why) if value else value


def _redact_call(call: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(call)
    for key in _ARG_KEYS:
        if key in out:
            out[key] = (
                _placeholder("memory")
                if not isinstance(out[key], Mapping)
                else {k: _placeholder("memory") for k in out[key]}
            )
    fn = out.get("function")
    if isinstance(fn, Mapping) and "arguments" in fn:
        out["function"] = {**fn, "arguments": _placeholder("memory")}
    return out


def _is_message_object(value: Any) -> bool:
    return isinstance(value, BaseMessage)


def _is_item_object(value: Any) -> bool:
    return isinstance(value, Item)


def _item_fields(item: Any) -> dict[str, Any]:
    out: dict[str, Any] = {
        "namespace": list(item.namespace),
        "key": item.key,
        "value": item.value,
        "created_at": item.created_at.isoformat() if item.created_at else None,
        "updated_at": item.updated_at.isoformat() if item.updated_at else None,
    }
    if hasattr(item, "score"):
        out["score"] = item.score
    return out


def _is_serialized_message(m: Mapping[str, Any]) -> bool:
    ident = m.get("id")
    return (
        m.get("lc") == 1
        and m.get("type") == "constructor"
        and isinstance(m.get("kwargs"), Mapping)
        and isinstance(ident, (list, tuple))
        and bool(ident)
        and isinstance(ident[-1], str)
        and "Message" in ident[-1]
    )


def _is_message_dict(m: Mapping[str, Any]) -> bool:
    return "content" in m and m.get("type") in _MESSAGE_TYPES


def _is_stored_message(m: Mapping[str, Any]) -> bool:
    data = m.get("data")
    return m.get("type") in _MESSAGE_TYPES and isinstance(data, Mapping) and "content" in data


def _is_item_dict(m: Mapping[str, Any]) -> bool:
    return "namespace" in m and "key" in m and "value" in m and ("created_at" in m or "updated_at" in m)


def _is_generation(m: Mapping[str, Any]) -> bool:
    return "message" in m and "text" in m and str(m.get("type", "")).startswith("ChatGeneration")


def _is_namedtuple(value: Any) -> bool:
    return isinstance(value, tuple) and hasattr(value, "_fields")


def _object_fields(value: Any) -> Mapping[str, Any] | None:
    """The fields of a dataclass, a pydantic model or a plain object
    (LangGraph's ``Send``, an app's state class), walked like a dict: left
    whole, a tracer would send its repr, content and all."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: getattr(value, f.name, None) for f in dataclasses.fields(value)}
    fields = getattr(type(value), "model_fields", None)
    if isinstance(fields, Mapping):
        return {name: getattr(value, name, None) for name in fields}
    names = [n for cls in type(value).__mro__ for n in _slots(cls)]
    names += list(getattr(value, "__dict__", None) or ())
    names = [n for n in dict.fromkeys(names) if not n.startswith("_")][:_MAX_FIELDS]
    if not names:
        return None
    return {n: getattr(value, n, None) for n in names}


def _slots(cls: type) -> tuple[str, ...]:
    slots = cls.__dict__.get("__slots__", ())
    return (slots,) if isinstance(slots, str) else tuple(slots)


def _as_redactor(level: str | Redactor) -> Redactor:
    return level if isinstance(level, Redactor) else Redactor(level)


def redactor(
    level: str = "public",
    *,
    memories: bool = False,
    ladder: Ladder | Sequence[str] | None = None,
    memory_tools: Iterable[str] = DEFAULT_MEMORY_TOOLS,
) -> Redactor:
    """A :class:`Redactor` for ``hide_inputs=`` and ``hide_outputs=`` of a
    LangSmith ``Client``, or for the OpenTelemetry wrappers below."""
    return Redactor(level, memories=memories, ladder=ladder, memory_tools=memory_tools)


# -- LangSmith ---------------------------------------------------------------------


# Run metadata and span attributes that name a person or a conversation:
# they leave as a placeholder (the project never sends identifiers out).
IDENTIFIER_KEYS = frozenset(
    {"user_id", "thread_id", "langgraph_auth_user_id", "langgraph_auth_user", "assistant_id", "tenant"}
)


def hide_identifiers(metadata: Mapping[str, Any]) -> dict[str, Any]:
    """LangSmith's ``hide_metadata`` hook: run metadata without the user,
    thread and tenant identifiers LangGraph copies into it."""
    return {k: (_placeholder("id") if k in IDENTIFIER_KEYS else v) for k, v in dict(metadata).items()}


def langsmith_client(level: str | Redactor = "public", **client_kwargs: Any) -> Client:
    """A ``langsmith.Client`` whose runs leave without content above
    ``level`` (a level name or a :class:`Redactor`). Other keyword arguments
    go to the client (``api_url``, ``api_key``, ``tracing_mode``...; the
    environment's ``LANGSMITH_*`` settings apply as usual)."""
    for taken in ("hide_inputs", "hide_outputs", "hide_metadata", "anonymizer"):
        if client_kwargs.get(taken) is not None:
            # an anonymizer replaces the hide hooks inside the client
            raise ConfigurationError(f"langsmith_client sets its own redaction; do not pass {taken}")
    from langsmith import Client  # noqa: PLC0415

    hide = _as_redactor(level)
    return Client(hide_inputs=hide, hide_outputs=hide, hide_metadata=hide_identifiers, **client_kwargs)


def configure_langsmith(level: str | Redactor = "public", **client_kwargs: Any) -> Client:
    """Make the redacting client the one LangChain and LangGraph trace with
    when tracing is switched on by the environment (``LANGSMITH_TRACING``):
    ``langsmith.configure(client=...)``. Returns the client (flush it at
    shutdown)."""
    import langsmith  # noqa: PLC0415

    client = langsmith_client(level, **client_kwargs)
    langsmith.configure(client=client)
    return client


# -- OpenTelemetry --------------------------------------------------------------------


class _SpanRedaction:
    """Redacts the content attributes of finished spans (shared by the
    processor and the exporter wrappers)."""

    def __init__(self, level: str | Redactor, content_attributes: Iterable[str] | None) -> None:
        self.redactor = _as_redactor(level)
        names = tuple(DEFAULT_CONTENT_ATTRIBUTES if content_attributes is None else content_attributes)
        self._pattern = re.compile("|".join(re.escape(n) + r"(?:\..*)?" for n in names) or r"(?!)")

    def is_content(self, key: str, *, event: str | None = None) -> bool:
        if self._pattern.fullmatch(key):
            return key.rsplit(".", 1)[-1] not in _STRUCTURAL_LEAVES
        return event is not None and event.startswith("gen_ai.") and key in _EVENT_CONTENT_KEYS

    def attributes(self, attrs: Mapping[str, Any] | None, *, event: str | None = None) -> Any:
        if not attrs:
            return attrs
        prefixes = _memory_prefixes(attrs, self.redactor.memory_tools)
        out: dict[str, Any] = {}
        changed = False
        for key, value in attrs.items():
            new = value
            if key.rsplit(".", 1)[-1] in IDENTIFIER_KEYS:
                new = _placeholder("id")
            elif self.is_content(key, event=event):
                memory = key.startswith(prefixes) if prefixes else False
                if isinstance(value, str):
                    new = self.redactor.redact_text(value, memory=memory)
                elif isinstance(value, (list, tuple)) and any(isinstance(v, str) for v in value):
                    new = tuple(
                        self.redactor.redact_text(v, memory=memory) if isinstance(v, str) else v
                        for v in value
                    )
            changed = changed or new is not value
            out[key] = new
        return out if changed else attrs

    def span(self, span: ReadableSpan) -> ReadableSpan:
        """A copy of a finished span with content removed (spans are
        immutable once ended, so the copy is what travels on)."""
        from opentelemetry.sdk.trace import Event, ReadableSpan  # noqa: PLC0415

        attrs = self.attributes(span.attributes)
        events = []
        events_changed = False
        for ev in span.events:
            ev_attrs = self.attributes(ev.attributes, event=ev.name)
            if ev_attrs is not ev.attributes:
                events_changed = True
                ev = Event(ev.name, attributes=ev_attrs, timestamp=ev.timestamp)
            events.append(ev)
        if attrs is span.attributes and not events_changed:
            return span
        return ReadableSpan(
            name=span.name,
            context=span.context,
            parent=span.parent,
            resource=span.resource,
            attributes=attrs,
            events=events,
            links=span.links,
            kind=span.kind,
            status=span.status,
            start_time=span.start_time,
            end_time=span.end_time,
            instrumentation_scope=span.instrumentation_scope,
        )

    def safe_span(self, span: ReadableSpan) -> ReadableSpan | None:
        try:
            return self.span(span)
        except Exception as exc:
            log.warning("span redaction failed (%s); the span was dropped", type(exc).__name__)
            return None


def _prefix(key: str, *, last: bool) -> str:
    """A flattened attribute's prefix up to its first numeric part (the
    message: ``llm.input_messages.3``) or its last (a tool call in it)."""
    parts = key.split(".")
    numeric = [i for i, part in enumerate(parts) if part.isdigit()]
    if not numeric:
        return key
    return ".".join(parts[: (numeric[-1] if last else numeric[0]) + 1])


def _memory_prefixes(attrs: Mapping[str, Any], memory_tools: frozenset[str]) -> tuple[str, ...]:
    """Flattened messages and tool calls whose siblings say they hold memory
    text: a message named ``memory`` or one of the memory tools, the memory
    block's id, a call to a memory tool."""
    found = []
    for key, value in attrs.items():
        leaf = key.rsplit(".", 1)[-1]
        if leaf == "id" and value == MEMORY_BLOCK_ID:
            found.append(_prefix(key, last=False))
        elif leaf == "name" and isinstance(value, str):
            if "tool_call" in key and value in memory_tools:
                found.append(_prefix(key, last=True))
            elif "tool_call" not in key and (value == "memory" or value in memory_tools):
                found.append(_prefix(key, last=False))
    return tuple(p + "." for p in found)


class RedactingSpanProcessor:
    """An OpenTelemetry ``SpanProcessor`` that wraps the one that exports
    (``BatchSpanProcessor(exporter)``) and hands it a redacted copy of each
    finished span.

    Spans are immutable once ended and every processor on a provider gets
    the same span object, so a processor beside the exporting one cannot
    clean what it exports; wrapping it makes the redacted copy the only
    thing that reaches the exporter. ``level`` is a level name or a
    :class:`Redactor`; ``content_attributes`` replaces the attribute names
    treated as content (:data:`DEFAULT_CONTENT_ATTRIBUTES`)."""

    def __init__(
        self,
        processor: SpanProcessor,
        level: str | Redactor = "public",
        *,
        content_attributes: Iterable[str] | None = None,
    ) -> None:
        self.processor = processor
        self._redaction = _SpanRedaction(level, content_attributes)

    def on_start(self, span: Any, parent_context: Any = None) -> None:
        self.processor.on_start(span, parent_context=parent_context)

    def _on_ending(self, span: Any) -> None:
        hook = getattr(self.processor, "_on_ending", None)
        if hook is not None:
            hook(span)

    def on_end(self, span: ReadableSpan) -> None:
        clean = self._redaction.safe_span(span)
        if clean is not None:
            self.processor.on_end(clean)

    def shutdown(self) -> None:
        self.processor.shutdown()

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        return self.processor.force_flush(timeout_millis)


class RedactingSpanExporter:
    """An OpenTelemetry ``SpanExporter`` wrapper that redacts each batch
    before the wrapped exporter sends it. Same redaction as
    :class:`RedactingSpanProcessor`, done on the export thread instead of
    the application's; use it where you build the exporter yourself."""

    def __init__(
        self,
        exporter: SpanExporter,
        level: str | Redactor = "public",
        *,
        content_attributes: Iterable[str] | None = None,
    ) -> None:
        self.exporter = exporter
        self._redaction = _SpanRedaction(level, content_attributes)

    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        clean = [s for s in (self._redaction.safe_span(span) for span in spans) if s is not None]
        return self.exporter.export(clean)

    def shutdown(self) -> None:
        self.exporter.shutdown()

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        return self.exporter.force_flush(timeout_millis)


__all__ = [
    "DEFAULT_CONTENT_ATTRIBUTES",
    "DEFAULT_MEMORY_TOOLS",
    "RedactingSpanExporter",
    "RedactingSpanProcessor",
    "Redactor",
    "configure_langsmith",
    "langsmith_client",
    "redactor",
]
