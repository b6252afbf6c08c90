"""8. Memory: RSS growth of one process serving many sessions.

Each implementation runs in a process of its own (so one's heap does not
hide in the other's): 200 sessions to warm up, then ``memory_sessions``
more, each a new thread with one turn (a ~4 KB human message in, a short
AI reply out), and the growth of its resident set over those sessions is
reported. The stock saver holds nothing between calls; ours keeps a hot
tier, a decoded-state cache and a session cache, each with a byte budget,
so its growth may exceed the stock saver's by at most their sum.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

from bench.common import Env, Results, Target
from bench.profiles import Profile
from langgraph_trustmem.checkpoint.base import SESSION_CACHE_BYTES
from langgraph_trustmem.checkpoint.decoded import DEFAULT_MAX_BYTES as DECODED_BYTES
from langgraph_trustmem.checkpoint.hot import DEFAULT_HOT_BYTES

CASE = "8. memory"
MESSAGE_BYTES = 4_000
WARMUP = 200

SCRIPT = textwrap.dedent(
    """
    import gc, json, sys
    from langchain_core.messages import AIMessage, HumanMessage
    from langgraph.graph import START, MessagesState, StateGraph

    impl, url, key, n, size, warm = sys.argv[1], sys.argv[2], sys.argv[3], *map(int, sys.argv[4:7])

    def rss_mb():
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024

    b = StateGraph(MessagesState)
    b.add_node("model", lambda s: {"messages": [AIMessage("noted: " + s["messages"][-1].content[:200])]})
    b.add_edge(START, "model")
    if impl == "ours-local":
        from langgraph_trustmem import TrustCheckpointSaver
        opened = TrustCheckpointSaver.from_conn_string(url, key=key, local_hot=True)
    else:
        from langgraph.checkpoint.postgres import PostgresSaver
        opened = PostgresSaver.from_conn_string(url)
    with opened as saver:
        saver.setup()
        graph = b.compile(checkpointer=saver)
        body = " ".join(["patient reported" for _ in range(size // 17)])

        def session(i):
            cfg = {"configurable": {"thread_id": f"mem-{impl}-{i}", "user_id": f"user-{i % 100}"}}
            graph.invoke({"messages": [HumanMessage(f"session {i}: " + body)]}, cfg)

        for i in range(warm):
            session(i)
        gc.collect()
        before = rss_mb()
        for i in range(warm, warm + n):
            session(i)
        gc.collect()
        print(json.dumps({"before": before, "after": rss_mb()}))
    """
)

IMPLS = {"ours-local": "ckpt_mem_ours", "PostgresSaver": "ckpt_mem_stock"}


async def case_memory(env: Env, prof: Profile, res: Results) -> None:
    """8. RSS growth over ``memory_sessions`` sessions, ours against
    PostgresSaver, each in its own process."""
    n = prof.memory_sessions
    size = f"{n:,} sessions"
    op = "RSS after (MB)"
    growth: dict[str, float] = {}
    for impl, db in IMPLS.items():
        out = subprocess.run(
            [sys.executable, "-c", SCRIPT, impl, env.db(db), env.key, str(n), str(MESSAGE_BYTES), str(WARMUP)],
            capture_output=True, text=True, check=True,
        )
        rss = json.loads(out.stdout.strip().splitlines()[-1])
        growth[impl] = rss["after"] - rss["before"]
        series = res.s(CASE, op, size, impl, unit="MB")
        series.samples.append(rss["after"])
        series.extra.update({"rss_before_mb": round(rss["before"], 1), "growth_mb": round(growth[impl], 1)})
    # the footprint is compared as a ratio; the target is on the growth: ours
    # may exceed the stock saver's by at most the caches' byte budgets
    budget = (DEFAULT_HOT_BYTES + DECODED_BYTES + SESSION_CACHE_BYTES) / 2**20
    ours_before = res.s(CASE, op, size, "ours-local").extra["rss_before_mb"]
    limit = ours_before + growth["PostgresSaver"] + budget
    res.compare(
        CASE, op, size, "ours-local", "PostgresSaver", primary=True,
        targets=[Target("max_max", limit, text=f"growth <= the stock saver's + the caches' budget ({budget:.0f} MB)")],
    )
    res.note(CASE, f"each session one turn with a ~{MESSAGE_BYTES // 1000} KB message; {WARMUP} sessions before the "
                   f"first reading; growth: ours {growth['ours-local']:.1f} MB, stock {growth['PostgresSaver']:.1f} MB; "
                   "budget: hot tier + decoded-state cache + session cache defaults")
