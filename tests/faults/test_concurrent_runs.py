"""One run per thread at a time: runs racing on one thread never lose an
acknowledged turn. The loser of a race is refused (ConcurrentRunError)
rather than silently writing a history beside the winner's; its input may
stay in the thread when the winner continued from it."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
import uuid

from langchain_core.messages import AIMessage, HumanMessage
from langgraph.graph import START, MessagesState, StateGraph

from langgraph_trustmem import AsyncTrustCheckpointSaver, ConcurrentRunError, TrustCheckpointSaver


def chat(saver):
    async def model(state):
        await asyncio.sleep(0.01)  # long enough for the runs to overlap
        return {"messages": [AIMessage(f"re: {state['messages'][-1].content}")]}

    b = StateGraph(MessagesState)
    b.add_node("model", model)
    b.add_edge(START, "model")
    return b.compile(checkpointer=saver)


async def test_racing_async_runs_lose_no_acknowledged_turn(pg_url, key, schema):
    cfg = {"configurable": {"thread_id": str(uuid.uuid4()), "user_id": "u-race"}}
    async with AsyncTrustCheckpointSaver.from_conn_string(pg_url, key=key) as saver:
        graph = chat(saver)
        acknowledged: list[str] = []
        refused = 0

        async def worker(w: int) -> None:
            nonlocal refused
            for t in range(5):
                text = f"w{w}-t{t}"
                try:
                    await graph.ainvoke({"messages": [HumanMessage(text)]}, cfg, durability="sync")
                    acknowledged.append(text)
                except ConcurrentRunError:
                    refused += 1

        await asyncio.gather(*(worker(w) for w in range(8)))
        final = [m.content for m in (await graph.aget_state(cfg)).values["messages"]]
        assert len(acknowledged) + refused == 40 and acknowledged and refused
        for text in acknowledged:  # every acknowledged turn is there, once, with its own answer
            assert final.count(text) == 1
            assert final[final.index(text) + 1] == f"re: {text}"


def test_two_processes_on_one_thread_lose_no_acknowledged_turn(pg_url, key, schema):
    tid = str(uuid.uuid4())
    script = textwrap.dedent(
        f"""
        import sys
        from langchain_core.messages import AIMessage, HumanMessage
        from langgraph.graph import START, MessagesState, StateGraph
        from langgraph_trustmem import ConcurrentRunError, TrustCheckpointSaver
        b = StateGraph(MessagesState)
        b.add_node("model", lambda s: {{"messages": [AIMessage("re: " + s["messages"][-1].content)]}})
        b.add_edge(START, "model")
        cfg = {{"configurable": {{"thread_id": {tid!r}, "user_id": "u-race"}}}}
        with TrustCheckpointSaver.from_conn_string({pg_url!r}, key={key!r}) as saver:
            graph = b.compile(checkpointer=saver)
            for t in range(20):
                text = f"p{{sys.argv[1]}}-t{{t}}"
                try:
                    graph.invoke({{"messages": [HumanMessage(text)]}}, cfg, durability="sync")
                    print("ok", text, flush=True)
                except ConcurrentRunError:
                    print("refused", text, flush=True)
        """
    )
    procs = [
        subprocess.Popen([sys.executable, "-c", script, str(p)], stdout=subprocess.PIPE, text=True)
        for p in range(2)
    ]
    outputs = [p.communicate(timeout=300)[0] for p in procs]
    assert all(p.returncode == 0 for p in procs)
    acknowledged = [line.split()[1] for out in outputs for line in out.splitlines() if line.startswith("ok ")]
    with TrustCheckpointSaver.from_conn_string(pg_url, key=key) as saver:
        cfg = {"configurable": {"thread_id": tid, "user_id": "u-race"}}
        final = [m.content for m in saver.get_tuple(cfg).checkpoint["channel_values"]["messages"]]
    for text in acknowledged:
        assert final.count(text) == 1 and final[final.index(text) + 1] == f"re: {text}"
