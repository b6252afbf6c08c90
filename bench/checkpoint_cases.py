"""Cases 1-4: the checkpointer against LangGraph's stock savers.

Implementations (each on its own database of the same PostgreSQL server):

- ``ours-local``   TrustCheckpointSaver, in-process hot tier (the embedded default)
- ``ours-redis``   TrustCheckpointSaver, Redis hot tier (several processes)
- ``ours-nohot``   TrustCheckpointSaver, no hot tier (``from_conn_string(url)``
                   without Redis: every read goes to PostgreSQL)
- ``ours-async``   AsyncTrustCheckpointSaver, in-process hot tier
- ``PostgresSaver`` / ``AsyncPostgresSaver`` (``from_conn_string``: one connection)
- ``AsyncPostgresSaver-pool`` (case 3 only: on an 8-connection pool, as ours)
- ``SqliteSaver`` (a file in the run's directory), ``InMemorySaver``

Ours always encrypts (AES-GCM on every value, HMAC'd identifiers).
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Annotated, Any, TypedDict

from langchain_core.messages import AIMessage, HumanMessage
from langgraph.channels.delta import DeltaChannel
from langgraph.checkpoint.base import copy_checkpoint
from langgraph.checkpoint.base.id import uuid6
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.graph.message import _messages_delta_reducer

from bench.common import Env, Results, Target, ms_since, now, rotated
from bench.data import POOL, history, human
from bench.profiles import Profile

LABELS = {
    "ours-local": "ours (in-process hot tier)",
    "ours-redis": "ours (Redis hot tier)",
    "ours-nohot": "ours (no hot tier)",
    "ours-async": "ours async (in-process hot tier)",
    "ours-async-redis": "ours async (Redis hot tier)",
    "PostgresSaver": "PostgresSaver",
    "AsyncPostgresSaver": "AsyncPostgresSaver (1 connection)",
    "AsyncPostgresSaver-pool": "AsyncPostgresSaver (pool of 8)",
    "SqliteSaver": "SqliteSaver",
    "InMemorySaver": "InMemorySaver (in case 3: its async API, the ceiling of one process)",
}

SYNC_IMPLS = ("ours-local", "ours-redis", "ours-nohot", "PostgresSaver", "SqliteSaver", "InMemorySaver")
ASYNC_IMPLS = ("ours-async", "AsyncPostgresSaver")
OURS_SYNC = ("ours-local", "ours-redis", "ours-nohot")


@dataclass
class Impl:
    name: str
    saver: Any
    is_async: bool
    graph: Any = None
    gate_graph: Any = None

    @property
    def ours(self) -> bool:
        return self.name.startswith("ours")


def chat_graph(saver: Any) -> Any:
    """MessagesState, one node appending an AI message of ~200 characters."""

    def model(state: MessagesState) -> dict:
        return {"messages": [AIMessage(POOL[len(state["messages"])])]}

    b = StateGraph(MessagesState)
    b.add_node("model", model)
    b.add_edge(START, "model")
    return b.compile(checkpointer=saver)


async def open_impls(env: Env, stack: AsyncExitStack, names: tuple[str, ...]) -> dict[str, Impl]:
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.checkpoint.postgres import PostgresSaver
    from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver
    from langgraph.checkpoint.sqlite import SqliteSaver

    from langgraph_trustmem import AsyncTrustCheckpointSaver, TrustCheckpointSaver

    out: dict[str, Impl] = {}
    for name in names:
        if name == "ours-local":
            s = stack.enter_context(TrustCheckpointSaver.from_conn_string(env.db("ckpt_ours_local"), key=env.key, local_hot=True))
            s.setup()
        elif name == "ours-redis":
            s = stack.enter_context(
                TrustCheckpointSaver.from_conn_string(env.db("ckpt_ours_redis"), key=env.key, redis_url=env.redis_url)
            )
            s.setup()
        elif name == "ours-nohot":
            s = stack.enter_context(TrustCheckpointSaver.from_conn_string(env.db("ckpt_ours_nohot"), key=env.key))
            s.setup()
        elif name == "ours-async":
            s = await stack.enter_async_context(
                AsyncTrustCheckpointSaver.from_conn_string(env.db("ckpt_ours_async"), key=env.key, local_hot=True)
            )
            await s.setup()
        elif name == "ours-async-redis":
            s = await stack.enter_async_context(
                AsyncTrustCheckpointSaver.from_conn_string(
                    env.db("ckpt_ours_async_redis"), key=env.key, redis_url=env.redis_url
                )
            )
            await s.setup()
        elif name == "PostgresSaver":
            s = stack.enter_context(PostgresSaver.from_conn_string(env.db("ckpt_stock_sync")))
            s.setup()
        elif name == "AsyncPostgresSaver":
            s = await stack.enter_async_context(AsyncPostgresSaver.from_conn_string(env.db("ckpt_stock_async")))
            await s.setup()
        elif name == "AsyncPostgresSaver-pool":
            from psycopg.rows import dict_row
            from psycopg_pool import AsyncConnectionPool

            pool = AsyncConnectionPool(
                env.db("ckpt_stock_async_pool"),
                min_size=1,
                max_size=8,
                kwargs={"autocommit": True, "prepare_threshold": 0, "row_factory": dict_row},
                open=False,
            )
            await pool.open()
            stack.push_async_callback(pool.close)
            s = AsyncPostgresSaver(pool)
            await s.setup()
        elif name == "SqliteSaver":
            s = stack.enter_context(SqliteSaver.from_conn_string(str(env.path("sqlite") / "checkpoints.db")))
            s.setup()
        elif name == "InMemorySaver":
            s = InMemorySaver()
        else:
            raise ValueError(name)
        is_async = name in ("ours-async", "ours-async-redis") or name.startswith("AsyncPostgresSaver")
        out[name] = Impl(name, s, is_async, chat_graph(s))
    return out


async def call(impl: Impl, sync_fn: Callable[[], Any], async_fn: Callable[[], Awaitable[Any]]) -> Any:
    return await async_fn() if impl.is_async else sync_fn()


def cfg(thread: str, **extra: Any) -> dict:
    return {"configurable": {"thread_id": thread, **extra}}


def tid(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:12]}"


async def populate(impl: Impl, thread: str, n: int) -> None:
    """A thread holding ``n`` messages: one run with n-1 input messages, to
    which the node appends its reply."""
    inputs = {"messages": history(n - 1)}
    await call(impl, lambda: impl.graph.invoke(inputs, cfg(thread)), lambda: impl.graph.ainvoke(inputs, cfg(thread)))


async def turn(impl: Impl, thread: str, i: int) -> None:
    inputs = {"messages": [human(i)]}
    await call(impl, lambda: impl.graph.invoke(inputs, cfg(thread)), lambda: impl.graph.ainvoke(inputs, cfg(thread)))


# -- case 1 ------------------------------------------------------------------------


async def case_turn(env: Env, prof: Profile, res: Results) -> None:
    """1. One graph turn (a human message in, the node appends an AI
    message) on a thread already holding N messages of ~200 characters.
    Every repetition uses a fresh thread populated to N beforehand (not
    timed), so N stays N; the hot tiers hold what the populating run wrote,
    as for a live session."""
    case = "1. graph turn"
    async with AsyncExitStack() as stack:
        impls = await open_impls(env, stack, SYNC_IMPLS + ASYNC_IMPLS)
        order = list(impls.values())
        for n in prof.turn_sizes:
            reps = prof.turn_reps[n]
            for i in range(prof.warmup + reps):
                for impl in rotated(order, i):
                    t = tid(f"turn-{impl.name}-{n}")
                    await populate(impl, t, n)
                    t0 = now()
                    await turn(impl, t, i)
                    ms = ms_since(t0)
                    if i >= prof.warmup:
                        res.s(case, "turn", n, impl.name).samples.append(ms)
        await _crowd_turns(prof, res, [impls[name] for name in (*OURS_SYNC, "PostgresSaver")])
    await _delta_turns(env, prof, res)
    for n in prof.turn_sizes:
        target = Target("ratio_max", 0.9, text="<= 0.9x PostgresSaver")
        for ours in OURS_SYNC:
            res.compare(case, "turn", n, ours, "PostgresSaver", targets=[target], primary=ours == "ours-local")
        # a hot tier must never cost more than none
        res.compare(case, "turn", n, "ours-redis", "ours-nohot", targets=[Target("ratio_max", 1.0, text="<= 1.0x no hot tier")])
        res.compare(case, "turn", n, "ours-local", "ours-nohot", targets=[Target("ratio_max", 1.0, text="<= 1.0x no hot tier")])
        res.compare(case, "turn", n, "ours-async", "AsyncPostgresSaver")
        res.compare(case, "turn", n, "ours-local", "SqliteSaver")
        res.compare(case, "turn", n, "ours-local", "InMemorySaver")


# -- case 2 ------------------------------------------------------------------------


def next_checkpoint(saver: Any, tup: Any, step: int, *, append: bool = False) -> tuple[dict, dict, dict, dict]:
    """The next checkpoint after ``tup`` with the last message replaced (or
    one appended): what a loop step writes. Returns (config, checkpoint,
    metadata, new_versions)."""
    ck = copy_checkpoint(tup.checkpoint)
    msgs = list(ck["channel_values"].get("messages", []))
    msg = AIMessage(POOL[5000 + step], id=str(uuid.uuid4()))
    if append or not msgs:
        msgs.append(msg)
    else:
        msgs[-1] = msg
    ck["channel_values"]["messages"] = msgs
    version = saver.get_next_version(ck["channel_versions"].get("messages"), None)
    ck["channel_versions"]["messages"] = version
    ck["id"] = str(uuid6(clock_seq=step))
    ck["ts"] = datetime.now(timezone.utc).isoformat()
    ck["updated_channels"] = ["messages"]
    metadata = {"source": "loop", "step": step, "parents": {}}
    return tup.config, ck, metadata, {"messages": version}


async def get_tuple(impl: Impl, thread: str) -> Any:
    c = {"configurable": {"thread_id": thread, "checkpoint_ns": ""}}
    return await call(impl, lambda: impl.saver.get_tuple(c), lambda: impl.saver.aget_tuple(c))


async def put(impl: Impl, args: tuple) -> Any:
    return await call(impl, lambda: impl.saver.put(*args), lambda: impl.saver.aput(*args))


async def case_ops(env: Env, prof: Profile, res: Results) -> None:
    """2. put alone (a loop step replacing the last message, so the
    messages blob of N messages is written), get_tuple of the latest
    checkpoint (session restore), graph.get_state, and list of a history of
    100 checkpoints."""
    case = "2. saver ops"
    # Ours prepares a statement on its 5th execution on each pool connection
    # (psycopg's prepare_threshold): warm past that before measuring.
    warm = max(prof.warmup, 10)
    async with AsyncExitStack() as stack:
        impls = await open_impls(env, stack, SYNC_IMPLS + ASYNC_IMPLS)
        order = list(impls.values())
        for n in prof.op_sizes:
            threads = {}
            for impl in order:
                threads[impl.name] = tid(f"ops-{impl.name}-{n}")
                await populate(impl, threads[impl.name], n)
            # put alone
            for i in range(warm + prof.put_reps):
                for impl in rotated(order, i):
                    tup = await get_tuple(impl, threads[impl.name])
                    args = next_checkpoint(impl.saver, tup, 10 + i)
                    t0 = now()
                    await put(impl, args)
                    ms = ms_since(t0)
                    if i >= warm:
                        res.s(case, "put", n, impl.name).samples.append(ms)
            # get_tuple of the latest checkpoint
            for i in range(warm + prof.get_reps):
                for impl in rotated(order, i):
                    t0 = now()
                    tup = await get_tuple(impl, threads[impl.name])
                    ms = ms_since(t0)
                    assert tup is not None and len(tup.checkpoint["channel_values"]["messages"]) == n
                    if i >= warm:
                        res.s(case, "get_tuple (restore)", n, impl.name).samples.append(ms)
            # graph.get_state
            for i in range(warm + prof.state_reps):
                for impl in rotated(order, i):
                    c = cfg(threads[impl.name])
                    t0 = now()
                    await call(impl, lambda: impl.graph.get_state(c), lambda: impl.graph.aget_state(c))
                    ms = ms_since(t0)
                    if i >= warm:
                        res.s(case, "graph.get_state", n, impl.name).samples.append(ms)
        # list of a 100-checkpoint history: a chat growing one message per checkpoint from 10
        hist = prof.list_checkpoints
        threads = {}
        for impl in order:
            t = tid(f"list-{impl.name}")
            threads[impl.name] = t
            await populate(impl, t, 10)
            tup = await get_tuple(impl, t)
            existing = len([x async for x in alist(impl, t)])
            for k in range(hist - existing):
                await put(impl, next_checkpoint(impl.saver, tup, 10 + k, append=True))
                tup = await get_tuple(impl, t)
        for i in range(prof.warmup + prof.list_reps):
            for impl in rotated(order, i):
                t0 = now()
                got = [x async for x in alist(impl, threads[impl.name])]
                ms = ms_since(t0)
                assert len(got) == hist, (impl.name, len(got))
                if i >= prof.warmup:
                    res.s(case, "list", f"{hist} checkpoints", impl.name).samples.append(ms)
    for n in prof.op_sizes:
        for ours in OURS_SYNC:
            res.compare(case, "put", n, ours, "PostgresSaver", primary=ours == "ours-local")
        res.compare(case, "put", n, "ours-async", "AsyncPostgresSaver")
        res.compare(case, "put", n, "ours-local", "SqliteSaver")
        res.compare(case, "put", n, "ours-local", "InMemorySaver")
    for n in prof.op_sizes:
        targets = []
        if n in (100, 1000):
            targets.append(Target("ratio_max", 0.5, text="<= 0.5x PostgresSaver"))
        if n == 100:
            targets.append(Target("p95_max", 5.0, text="p95 < 5 ms"))
        for ours in OURS_SYNC:
            res.compare(case, "get_tuple (restore)", n, ours, "PostgresSaver", targets=targets, primary=ours == "ours-local")
        res.compare(case, "get_tuple (restore)", n, "ours-async", "AsyncPostgresSaver")
        res.compare(case, "get_tuple (restore)", n, "ours-local", "SqliteSaver")
        res.compare(case, "get_tuple (restore)", n, "ours-local", "InMemorySaver")
    for n in prof.op_sizes:
        for ours in OURS_SYNC:
            res.compare(case, "graph.get_state", n, ours, "PostgresSaver", primary=ours == "ours-local")
        res.compare(case, "graph.get_state", n, "ours-async", "AsyncPostgresSaver")
    size = f"{hist} checkpoints"
    for ours in OURS_SYNC:
        res.compare(case, "list", size, ours, "PostgresSaver", primary=ours == "ours-local")
    res.compare(case, "list", size, "ours-async", "AsyncPostgresSaver")
    res.compare(case, "list", size, "ours-local", "SqliteSaver")
    res.compare(case, "list", size, "ours-local", "InMemorySaver")


async def alist(impl: Impl, thread: str):
    c = {"configurable": {"thread_id": thread}}
    if impl.is_async:
        async for x in impl.saver.alist(c):
            yield x
    else:
        for x in impl.saver.list(c):
            yield x


# -- case 3 ------------------------------------------------------------------------


async def case_concurrency(env: Env, prof: Profile, res: Results) -> None:
    """3. S concurrent sessions on one async saver for a fixed time: each
    session takes graph turns back to back on its own thread (starting at 10
    messages). Throughput is turns completed / wall time; windows of the
    implementations alternate."""
    case = "3. concurrency"
    names = ("ours-async", "ours-async-redis", "AsyncPostgresSaver", "AsyncPostgresSaver-pool", "InMemorySaver")
    async with AsyncExitStack() as stack:
        impls = await open_impls(env, stack, names)
        impls["InMemorySaver"].is_async = True  # its async API: the ceiling of one process (no I/O at all)
        order = list(impls.values())
        # warm every pool and prepared statement
        for impl in order:
            t = tid(f"warm-{impl.name}")
            await populate(impl, t, 10)
            for i in range(6):
                await turn(impl, t, i)
        for w in range(prof.windows):
            for s in prof.sessions:
                for impl in rotated(order, w + s):
                    threads = [tid(f"conc-{impl.name}-{s}") for _ in range(s)]
                    await asyncio.gather(*(populate(impl, t, 10) for t in threads))
                    lat: list[float] = []
                    count = 0
                    deadline = now() + prof.window_s

                    async def session(t: str, k: int) -> None:
                        nonlocal count
                        i = 0
                        while now() < deadline:
                            t0 = now()
                            await turn(impl, t, k * 1000 + i)
                            lat.append(ms_since(t0))
                            count += 1
                            i += 1

                    t_start = now()
                    await asyncio.gather(*(session(t, k) for k, t in enumerate(threads)))
                    elapsed = now() - t_start
                    res.s(case, "turns/s", f"{s} sessions", impl.name, unit="turns/s").samples.append(count / elapsed)
                    res.s(case, "turn latency", f"{s} sessions", impl.name).samples.extend(lat)
    for s in prof.sessions:
        size = f"{s} sessions"
        big = s == max(prof.sessions)
        tgt = [Target("ratio_min", 2.0, text=">= 2x stock turns/s")] if big else []
        for ours in ("ours-async", "ours-async-redis"):
            for stock in ("AsyncPostgresSaver", "AsyncPostgresSaver-pool"):
                res.compare(case, "turns/s", size, ours, stock, targets=tgt, higher_is_better=True,
                            primary=ours == "ours-async" and stock == "AsyncPostgresSaver")
        res.compare(case, "turns/s", size, "ours-async", "InMemorySaver", higher_is_better=True)
        res.compare(case, "turn latency", size, "ours-async", "AsyncPostgresSaver")
        res.compare(case, "turn latency", size, "ours-async", "AsyncPostgresSaver-pool")


# -- case 4 ------------------------------------------------------------------------


def labelled_history(n: int) -> list[Any]:
    """n-1 messages for a ``personal`` session: 1 in 10 is a ``personal``
    memory, the rest ``public`` conversation (the node's reply makes n)."""
    from langgraph_trustmem import label

    out = []
    for i, m in enumerate(history(n - 1)):
        if i % 10 == 0:
            label(m, "personal", source="memory")
        else:
            label(m, "public", source="user" if isinstance(m, HumanMessage) else "model")
    return out


def labelled_graph(saver: Any, gate: bool) -> Any:
    from langgraph_trustmem import label
    from langgraph_trustmem.nodes import make_trust_gate

    def model(state: MessagesState) -> dict:
        return {"messages": [label(AIMessage(POOL[len(state["messages"])]), "public", source="model")]}

    b = StateGraph(MessagesState)
    b.add_node("model", model)
    if gate:
        b.add_node("gate", make_trust_gate(policy="fork"))
        b.add_edge(START, "gate")
        b.add_edge("gate", "model")
    else:
        b.add_edge(START, "model")
    return b.compile(checkpointer=saver)


def cleaned_checkpoint(saver: Any, tup: Any, step: int) -> tuple:
    """The state the trust gate leaves after an untrusted email arrives:
    every ``personal`` message removed, the email appended."""
    from langgraph_trustmem import label, label_of

    ck = copy_checkpoint(tup.checkpoint)
    msgs = [m for m in ck["channel_values"]["messages"] if (lab := label_of(m)) is None or lab.level == "public"]
    msgs.append(label(HumanMessage("FWD: cheap flights, click here", id=str(uuid.uuid4())), "public", source="email"))
    ck["channel_values"]["messages"] = msgs
    version = saver.get_next_version(ck["channel_versions"].get("messages"), None)
    ck["channel_versions"]["messages"] = version
    ck["id"] = str(uuid6(clock_seq=step))
    ck["ts"] = datetime.now(timezone.utc).isoformat()
    ck["updated_channels"] = ["messages"]
    return tup.config, ck, {"source": "loop", "step": step, "parents": {}}, {"messages": version}


async def case_fork(env: Env, prof: Profile, res: Results) -> None:
    """4. Fork of a session holding 1,000 messages, and copy_thread of it.

    - fork (saver): ``degrade`` + the put of the cleaned state, which seals
      the old branch and starts a new one, in one transaction. Stock savers
      have no fork: their side is the put of the same cleaned state.
    - fork turn (graph): a whole turn through the trust gate that forks
      (input, gate, model); the stock side runs the same graph (the gate
      removes the same messages, there is no branch to seal).
    - copy_thread: a session built in ``copy_turns`` runs (all its
      checkpoints, blobs and writes). Stock PostgresSaver has no
      copy_thread; its side is the generic copy (list, then put and
      put_writes of every checkpoint, oldest first).
    """
    case = "4. fork & copy"
    n = prof.fork_messages
    async with AsyncExitStack() as stack:
        impls = await open_impls(env, stack, ("ours-local", "PostgresSaver"))
        for impl in impls.values():
            impl.graph = labelled_graph(impl.saver, gate=False)
            impl.gate_graph = labelled_graph(impl.saver, gate=True)
        order = list(impls.values())
        personal = {"trust": "personal"}
        # fork at the saver
        for i in range(prof.warmup + prof.fork_reps):
            for impl in rotated(order, i):
                t = tid(f"fork-{impl.name}")
                impl.graph.invoke({"messages": labelled_history(n)}, cfg(t, **personal))
                tup = impl.saver.get_tuple(cfg(t))
                args = cleaned_checkpoint(impl.saver, tup, 50 + i)
                t0 = now()
                if impl.ours:
                    impl.saver.degrade(cfg(t), "public")
                impl.saver.put(*args)
                ms = ms_since(t0)
                if impl.ours and i == 0:
                    session = impl.saver.session(cfg(t))
                    assert session.branch == 1 and session.level == "public", session
                if i >= prof.warmup:
                    res.s(case, "fork (saver)", f"{n} messages", impl.name).samples.append(ms)
        # the forking turn through the trust gate
        for i in range(prof.warmup + prof.fork_reps):
            for impl in rotated(order, i):
                t = tid(f"forkturn-{impl.name}")
                impl.graph.invoke({"messages": labelled_history(n)}, cfg(t, **personal))
                email = {"messages": [HumanMessage("FWD: cheap flights, click here")]}
                from langgraph_trustmem import label

                label(email["messages"][0], "public", source="email")
                t0 = now()
                impl.gate_graph.invoke(email, cfg(t, **personal))
                ms = ms_since(t0)
                if impl.ours and i == 0:
                    assert impl.saver.session(cfg(t)).branch == 1
                if i >= prof.warmup:
                    res.s(case, "fork turn (graph)", f"{n} messages", impl.name).samples.append(ms)
        # copy_thread of a session built in several runs
        per_run = max(2, n // prof.copy_turns)
        sources = {}
        for impl in order:
            t = tid(f"copysrc-{impl.name}")
            for _ in range(prof.copy_turns):
                impl.graph.invoke({"messages": labelled_history(per_run)}, cfg(t, **personal))
            sources[impl.name] = t
        counts = {}
        for i in range(prof.copy_reps + 1):
            for impl in rotated(order, i):
                dst = tid(f"copydst-{impl.name}")
                t0 = now()
                if impl.ours:
                    impl.saver.copy_thread(sources[impl.name], dst)
                else:
                    stock_copy_thread(impl.saver, sources[impl.name], dst)
                ms = ms_since(t0)
                if i == 0:
                    src_n = len(list(impl.saver.list(cfg(sources[impl.name]))))
                    dst_n = len(list(impl.saver.list(cfg(dst))))
                    assert src_n == dst_n, (impl.name, src_n, dst_n)
                    msgs = impl.saver.get_tuple(cfg(dst)).checkpoint["channel_values"]["messages"]
                    counts[impl.name] = (src_n, len(msgs))
                    continue  # the first copy is a warm-up
                res.s(case, "copy_thread", f"{n} messages", impl.name).samples.append(ms)
        for name, (cks, msgs) in counts.items():
            res.s(case, "copy_thread", f"{n} messages", name).extra.update({"checkpoints": cks, "messages": msgs})
    size = f"{n} messages"
    res.compare(case, "fork (saver)", size, "ours-local", "PostgresSaver",
                targets=[Target("p95_max", 50.0, text="p95 < 50 ms")], primary=True)
    res.compare(case, "fork turn (graph)", size, "ours-local", "PostgresSaver")
    res.compare(case, "copy_thread", size, "ours-local", "PostgresSaver")


def stock_copy_thread(saver: Any, src: str, dst: str) -> None:
    """What a stock saver without copy_thread needs: list the source, then
    put every checkpoint (all its channel values) and its pending writes on
    the new thread, oldest first."""
    tuples = list(saver.list({"configurable": {"thread_id": src}}))[::-1]
    for tup in tuples:
        conf = tup.config["configurable"]
        parent = tup.parent_config["configurable"]["checkpoint_id"] if tup.parent_config else None
        target = {"configurable": {"thread_id": dst, "checkpoint_ns": conf.get("checkpoint_ns", "")}}
        if parent:
            target["configurable"]["checkpoint_id"] = parent
        new = saver.put(target, tup.checkpoint, tup.metadata, dict(tup.checkpoint["channel_versions"]))
        by_task: dict[str, list] = {}
        for task_id, channel, value in tup.pending_writes or ():
            by_task.setdefault(task_id, []).append((channel, value))
        for task_id, writes in by_task.items():
            saver.put_writes(new, writes, task_id)


# -- case 1, among many sessions -------------------------------------------------------


async def _crowd_turns(prof: Profile, res: Results, impls: list[Impl]) -> None:
    """A turn of each of K sessions of N messages, all populated first, then
    served oldest first, as a server serving many users does: per-thread
    caches do not hold every session, and whatever a saver keeps between
    calls lives through many turns, where the garbage collector walks it."""
    case, (n, k, reps) = "1. graph turn", prof.crowd
    op, size = "turn, one of many sessions", f"{n}, {k} sessions"
    warmup = min(prof.warmup, 1)
    for i in range(warmup + reps):
        for impl in rotated(impls, i):
            threads = [tid(f"crowd-{impl.name}") for _ in range(k)]
            for t in threads:
                await populate(impl, t, n)
            for t in threads:
                t0 = now()
                await turn(impl, t, i)
                ms = ms_since(t0)
                if i >= warmup:
                    res.s(case, op, size, impl.name).samples.append(ms)
    for ours in OURS_SYNC:
        res.compare(case, op, size, ours, "PostgresSaver", primary=ours == "ours-local")
    res.note(case, f"Turns among many sessions: {k} threads of {n} messages populated, then one turn on each, "
                   f"oldest first; {reps} repetitions of {k} turns per implementation")


# -- case 1, DeltaChannel ------------------------------------------------------------


class DeltaMessages(TypedDict):
    # LangGraph's own batch reducer for messages in a DeltaChannel (one pass
    # over the writes; folding them with add_messages one by one instead
    # costs writes x messages, and made LangGraph's own turn 17x slower at
    # N=1000 than at N=10 with no I/O at all)
    messages: Annotated[list, DeltaChannel(_messages_delta_reducer)]


def delta_graph(saver: Any) -> Any:
    """A chat whose messages live in LangGraph's DeltaChannel (writes kept,
    the value stored every 100 updates and rebuilt from the newest one)."""
    b = StateGraph(DeltaMessages)
    b.add_node("model", lambda s: {"messages": [AIMessage(POOL[len(s["messages"])])]})
    b.add_edge(START, "model")
    return b.compile(checkpointer=saver)


# Turns measured around N on each DeltaChannel thread. LangGraph snapshots
# the channel every 100 updates (50 chat turns), and the turn that reaches N
# = 100 or 1000 messages is the one writing it: measured alone it stood for
# every turn at those sizes (and for none at N=10); among five consecutive
# turns the median is a usual turn and the snapshot's turn shows in the p95.
DELTA_AROUND = 5


async def _delta_turns(env: Env, prof: Profile, res: Results) -> None:
    """A DeltaChannel messages app's turns on a thread grown turn by turn to
    about N messages (so its history is N/2 runs of writes and snapshots, as
    in use), ``DELTA_AROUND`` consecutive turns around N each, ours-local and
    PostgresSaver; the target compares our turn at the largest N with ours
    at N=10."""
    case, op = "1. graph turn", "turn (DeltaChannel messages)"
    sizes = prof.turn_sizes
    async with AsyncExitStack() as stack:
        impls = await open_impls(env, stack, ("ours-local", "PostgresSaver", "InMemorySaver"))
        graphs = {name: delta_graph(impl.saver) for name, impl in impls.items()}
        for n in sizes:
            reps = max(3, prof.turn_reps[n] // 10)
            for i in range(prof.warmup + reps):
                for name in rotated(list(graphs), i):
                    graph, cfg = graphs[name], cfg_for(tid(f"delta-{name}-{n}"))
                    for k in range(max(0, n // 2 - 1 - DELTA_AROUND // 2)):
                        graph.invoke({"messages": [human(k)]}, cfg)
                    for j in range(DELTA_AROUND):
                        t0 = now()
                        graph.invoke({"messages": [human(n + j)]}, cfg)
                        ms = ms_since(t0)
                        if i < prof.warmup:
                            continue
                        res.s(case, op, n, name).samples.append(ms)
                        if n == sizes[-1] and name == "ours-local":
                            res.s(case, op, f"N={n} vs N={sizes[0]}", f"ours-local N={n}").samples.append(ms)
                        if n == sizes[0] and name == "ours-local":
                            res.s(case, op, f"N={sizes[-1]} vs N={n}", f"ours-local N={n}").samples.append(ms)
                        if name == "InMemorySaver" and n in (sizes[0], sizes[-1]):
                            res.s(case, op, f"N={sizes[-1]} vs N={sizes[0]}", f"InMemorySaver N={n}").samples.append(ms)
    for n in sizes:
        res.compare(case, op, n, "ours-local", "PostgresSaver")
        res.compare(case, op, n, "ours-local", "InMemorySaver")
    if len(sizes) > 1:
        res.compare(
            case, op, f"N={sizes[-1]} vs N={sizes[0]}", f"ours-local N={sizes[-1]}", f"ours-local N={sizes[0]}",
            targets=[Target("ratio_max", 1.5, text=f"N={sizes[-1]} <= 1.5x N={sizes[0]}")],
        )
        # LangGraph's own cost with no I/O: its N=1000 turn over our N=10 turn bounds the ratio above
        res.compare(
            case, op, f"N={sizes[-1]} vs N={sizes[0]}", f"InMemorySaver N={sizes[-1]}", f"InMemorySaver N={sizes[0]}"
        )
    res.note(case, f"DeltaChannel turns: each thread grown turn by turn to about N messages, then {DELTA_AROUND} "
                   f"consecutive turns measured; {max(3, prof.turn_reps[sizes[0]] // 10)}+ repetitions per size")


def cfg_for(thread: str) -> dict:
    return {"configurable": {"thread_id": thread}}
