"""Trust levels, labels and the session rules shared by the whole package.

A *ladder* orders levels from least to most sensitive. A *label* is a level
plus the source that produced a piece of content. A *session* is a thread:
its level is fixed when the thread starts and only ever goes down (a
degrade), never up.

Labels travel on LangChain messages in ``additional_kwargs["trustmem"]`` so
they are persisted with the history and survive serialization; providers'
adapters ignore unknown keys there.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, cast, runtime_checkable

from langgraph.checkpoint.serde.types import _DeltaSnapshot

from langgraph_trustmem.errors import UnknownLevelError

if TYPE_CHECKING:
    from langgraph_trustmem.checkpoint.base import Session

LABEL_KEY = "trustmem"
_LC = "langchain_core.messages."  # LangChain's message classes: fields in __dict__, not a Mapping
DEFAULT_LEVELS = ("public", "internal", "personal", "sensitive")


class Ladder:
    """An ordered set of trust levels, least sensitive first.

    Levels are stored as their rank (0 = least sensitive); the names are
    configuration. Reordering a ladder under existing data changes what the
    stored ranks mean, so only ever append levels.
    """

    __slots__ = ("_rank", "levels")

    def __init__(self, levels: Sequence[str] = DEFAULT_LEVELS) -> None:
        levels = tuple(levels)
        if not levels or len(set(levels)) != len(levels):
            raise UnknownLevelError("a ladder needs at least one level and no duplicates")
        if not all(isinstance(lv, str) and lv for lv in levels):
            raise UnknownLevelError("ladder levels must be non-empty strings")
        self.levels = levels
        self._rank = {name: i for i, name in enumerate(levels)}

    @property
    def lowest(self) -> str:
        return self.levels[0]

    @property
    def highest(self) -> str:
        return self.levels[-1]

    def rank(self, level: str | int) -> int:
        """The rank of a level name (or a rank, checked)."""
        if isinstance(level, bool):
            raise UnknownLevelError("a trust level must be a level name")
        if isinstance(level, int):
            if 0 <= level < len(self.levels):
                return level
            raise UnknownLevelError("trust level rank is outside the ladder")
        try:
            return self._rank[level]
        except (KeyError, TypeError):
            raise UnknownLevelError("unknown trust level; known levels: " + ", ".join(self.levels)) from None

    def name(self, level: str | int) -> str:
        return self.levels[self.rank(level)]

    def join(self, levels: Iterable[str | int]) -> str:
        """The highest of the given levels (the lowest level if none)."""
        top = -1
        for lv in levels:
            top = max(top, self.rank(lv))
        return self.levels[max(top, 0)]

    def __contains__(self, level: object) -> bool:
        return level in self._rank

    def __repr__(self) -> str:
        return f"Ladder({list(self.levels)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Ladder) and other.levels == self.levels

    def __hash__(self) -> int:
        return hash(self.levels)


DEFAULT_LADDER = Ladder()


@dataclass(frozen=True)
class Label:
    """Who may see a piece of content (``level``) and where it came from."""

    level: str
    source: str = "user"


@dataclass(frozen=True)
class ChannelPolicy:
    """What an app declares about one state channel other than messages.

    ``level``: the highest level the channel ever holds (a declaration the
    gate trusts); a channel at or below a session's level is kept through a
    fork. Otherwise, when the session degrades, the gate lowers the channel:
    ``lower="drop"`` clears it, ``"reset"`` writes ``reset`` (wrap it in
    LangGraph's ``Overwrite`` for a channel with a reducer), and a callable
    ``lower(value, level)`` returns a projection safe at ``level``.
    """

    level: str | None = None
    lower: str | Callable[[Any, str], Any] = "drop"
    reset: Any = None


# Set by LangGraph's Agent Server from its auth handler, never by a client.
AUTH_USER_KEY = "langgraph_auth_user_id"


def user_of(config: Mapping[str, Any] | None) -> Any:
    """Who a run or a read is for: the one definition every owner check,
    tenant check and namespace template uses. On LangGraph's Agent Server the
    authenticated user (``langgraph_auth_user_id``, set by the server) wins
    over ``configurable.user_id``, which a client can set to anything;
    elsewhere ``configurable.user_id``."""
    conf = (config or {}).get("configurable") or {}
    auth = conf.get(AUTH_USER_KEY)
    if auth is not None and auth != "":
        return auth
    return conf.get("user_id")


def label(message: Any, level: str, *, source: str = "user", ladder: Ladder = DEFAULT_LADDER) -> Any:
    """Attach a trust label to a LangChain message (in place) and return it."""
    ladder.rank(level)
    if not isinstance(source, str) or not source:
        raise ValueError("a label source must be a non-empty string")
    kwargs = getattr(message, "additional_kwargs", None)
    if kwargs is None:
        raise TypeError("label() takes a LangChain message")
    kwargs[LABEL_KEY] = {"level": level, "source": source}
    return message


def label_of(message: Any) -> Label | None:
    """The label carried by a message, or None if it has none."""
    kwargs = getattr(message, "additional_kwargs", None)
    if isinstance(message, Mapping):
        kwargs = message.get("additional_kwargs")
    if not isinstance(kwargs, Mapping):
        return None
    raw = kwargs.get(LABEL_KEY)
    if not isinstance(raw, Mapping) or not isinstance(raw.get("level"), str):
        return None
    return Label(level=raw["level"], source=str(raw.get("source") or "unknown"))


def iter_messages(value: Any) -> Iterable[Any]:
    """The messages held by a channel value (a message or a list of them)."""
    if isinstance(value, (list, tuple)):
        for item in value:
            if hasattr(item, "additional_kwargs"):
                yield item
    elif hasattr(value, "additional_kwargs"):
        yield value


def stored_value(value: Any) -> Any:
    """A channel value as a checkpoint stores it, read as what it holds: a
    DeltaChannel's snapshot wraps its value (a one-item tuple that would
    otherwise read as content of no known level, messages included)."""
    return value.value if isinstance(value, _DeltaSnapshot) else value


def has_content(value: Any) -> bool:
    """Whether a channel value carries anything (None and empty containers
    do not; LangGraph's trigger channels hold only those)."""
    if value is None:
        return False
    if isinstance(value, (str, bytes, list, tuple, dict, set, frozenset)):
        return len(value) > 0
    return True


def is_message_value(value: Any) -> bool:
    """A message, or a non-empty list of nothing but messages: such values
    are labelled per item."""
    if isinstance(value, (list, tuple)):
        return bool(value) and all(hasattr(m, "additional_kwargs") for m in value)
    return hasattr(value, "additional_kwargs")


def message_rank(msg: Any, ladder: Ladder) -> int | None:
    """The rank of one message's label; None when it has none. A level the
    ladder does not know ranks highest (fail closed)."""
    lab = label_of(msg)
    if lab is None:
        return None
    return ladder.rank(lab.level) if lab.level in ladder else len(ladder.levels) - 1


@dataclass(frozen=True)
class Vouch:
    """What the trust gate vouches for about one channel: its declared level,
    and the value it lowered the channel to (with that value's level). A
    later write replaces the value, and the vouch for it lapses."""

    declared: int | None = None
    lowered: int | None = None
    value: Any = None

    def rank_of(self, value: Any) -> int | None:
        if self.lowered is not None:
            try:
                if value is self.value or value == self.value:
                    return self.lowered
            except Exception:  # a value that cannot be compared is not the lowered one
                pass
        return self.declared


def state_rank(
    values: Mapping[str, Any], ladder: Ladder, vouched: Mapping[str, Vouch] | None = None
) -> tuple[int, bool]:
    """The highest known level in a checkpoint's channels, and whether some
    content's level is known only as *the level of the branch it was written
    on*.

    Messages carry their own labels. Any other value with content ranks as
    the trust gate vouched (the app's declared level, or the level of the
    value the gate lowered it to); otherwise its level is its branch's,
    since the task that wrote it may have read anything its session held
    (its taint). Unlabelled messages count the same way until the gate
    labels them.
    """
    top, unknown = 0, False
    for channel, value in values.items():
        value = stored_value(value)
        if not has_content(value):
            continue
        vouch = vouched.get(channel) if vouched is not None else None
        rank = vouch.rank_of(value) if vouch is not None else None
        if rank is not None:
            top = max(top, rank)
        elif is_message_value(value):
            r, none = _messages_rank(value, ladder)
            top, unknown = max(top, r), unknown or none
        else:
            unknown = True
    return top, unknown


def _messages_rank(value: Any, ladder: Ladder) -> tuple[int, bool]:
    """:func:`message_rank` over the messages of a channel value: the highest
    rank (0 if none) and whether some message has no label. It runs on every
    put, over the whole history, so labels held as plain dicts, as messages
    hold them, are read here directly; anything else goes through
    :func:`message_rank`."""
    top, unknown = 0, False
    ranks, highest = ladder._rank, len(ladder.levels) - 1
    for msg in iter_messages(value):
        kwargs = msg.__dict__.get("additional_kwargs") if type(msg).__module__.startswith(_LC) else None
        if type(kwargs) is dict:
            raw = kwargs.get(LABEL_KEY)
            if raw is None:
                unknown = True
                continue
            if type(raw) is dict and type(level := raw.get("level")) is str:
                top = max(top, ranks.get(level, highest))
                continue
        r = message_rank(msg, ladder)
        if r is None:
            unknown = True
        else:
            top = max(top, r)
    return top, unknown


def content_rank(values: Iterable[Any], ladder: Ladder = DEFAULT_LADDER) -> int:
    """The highest label rank among the messages in the given channel values
    (unlabelled content counts as 0; unknown levels as the highest)."""
    top = 0
    for value in values:
        for msg in iter_messages(value):
            rank = message_rank(msg, ladder)
            if rank is not None:
                top = max(top, rank)
    return top


def requested_level(config: Mapping[str, Any] | None) -> str | None:
    """The trust level a run asks for in ``configurable.trust`` (or None)."""
    if not config:
        return None
    conf = config.get("configurable") or {}
    lv = conf.get("trust")
    if lv is None:
        return None
    if not isinstance(lv, str):
        raise UnknownLevelError("configurable.trust must be a level name")
    return lv


# -- who is reading: the run's session -------------------------------------------

CONFIG_KEY_CHECKPOINTER = "__pregel_checkpointer"  # where LangGraph puts a run's checkpointer


@runtime_checkable
class SessionSource(Protocol):
    """What the trust gate and the stores ask of the trust checkpointer
    about a run's session (its level, integrity and pending fork). The one
    seam between them: ``cached_session`` answers from memory, without I/O."""

    def cached_session(self, config: Any) -> Session | None: ...

    def session(self, config: Any) -> Session | None: ...

    async def asession(self, config: Any) -> Session | None: ...

    def cached_level(self, config: Any) -> str | None: ...

    def degrade(self, config: Any, level: str) -> None: ...

    def mark_tainted(self, config: Any) -> None: ...

    def terminate(self, config: Any) -> None: ...

    def vouch(self, config: Any, ranks: Mapping[str, Vouch]) -> None: ...


def saver_of(config: Mapping[str, Any] | None, checkpointer: Any = None) -> SessionSource | None:
    """The trust checkpointer running this graph (given, or found in the
    run's config), or None when the run has another checkpointer or none."""
    saver = checkpointer or ((config or {}).get("configurable") or {}).get(CONFIG_KEY_CHECKPOINTER)
    # the protocol's members, looked up on the object (a server may hand a
    # proxy that delegates them); isinstance on a runtime protocol does the
    # same but costs tens of microseconds, and this runs on every store call
    if saver is None or not all(hasattr(saver, m) for m in _SESSION_SOURCE):
        return None
    return cast(SessionSource, saver)


_SESSION_SOURCE = ("cached_session", "session", "asession", "degrade", "mark_tainted", "vouch")


__all__ = [
    "CONFIG_KEY_CHECKPOINTER",
    "SessionSource",
    "saver_of",
    "AUTH_USER_KEY",
    "user_of",
    "DEFAULT_LADDER",
    "DEFAULT_LEVELS",
    "LABEL_KEY",
    "ChannelPolicy",
    "Label",
    "Ladder",
    "Vouch",
    "content_rank",
    "has_content",
    "stored_value",
    "is_message_value",
    "iter_messages",
    "label",
    "label_of",
    "message_rank",
    "requested_level",
    "state_rank",
]
