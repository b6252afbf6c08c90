"""The retention sweeper never deletes a thread that just took a turn."""

from __future__ import annotations

import threading
import time
import uuid

from langchain_core.messages import AIMessage, HumanMessage
from langgraph.graph import START, MessagesState, StateGraph

from langgraph_trustmem import Retention, TrustCheckpointSaver


def test_a_sweep_racing_turns_deletes_no_acknowledged_turn(pg_url, key, schema):
    with TrustCheckpointSaver.from_conn_string(pg_url, key=key, retention=Retention(idle=1.0)) as saver:
        b = StateGraph(MessagesState)
        b.add_node("model", lambda s: {"messages": [AIMessage("ok")]})
        b.add_edge(START, "model")
        graph = b.compile(checkpointer=saver)
        stop = threading.Event()

        def sweep() -> None:
            while not stop.is_set():
                saver.sweep()
                time.sleep(0.005)

        sweeper = threading.Thread(target=sweep)
        sweeper.start()
        try:
            cfg = {"configurable": {"thread_id": str(uuid.uuid4()), "user_id": "u-sweep"}}
            for i in range(60):
                graph.invoke({"messages": [HumanMessage(f"turn {i}")]}, cfg)
                assert len(saver.get_tuple(cfg).checkpoint["channel_values"]["messages"]) == 2 * (i + 1)
                time.sleep(0.01)  # well inside the idle time
        finally:
            stop.set()
            sweeper.join()
        time.sleep(1.1)
        assert saver.sweep() >= 0
        assert saver.get_tuple(cfg) is None  # and idle threads do go
