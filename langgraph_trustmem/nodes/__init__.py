"""Graph nodes and tools that keep a session at its trust level."""

from langgraph_trustmem.nodes.agent import (
    create_trust_agent,
    make_post_model_hook,
    make_pre_model_hook,
    model_prompt,
)
from langgraph_trustmem.nodes.gate import (
    SESSION,
    SESSION_SOURCES,
    gate_messages,
    infer_label,
    make_trust_gate,
)
from langgraph_trustmem.nodes.recall import make_recall_node, model_messages
from langgraph_trustmem.nodes.remember import make_remember_tool

__all__ = [
    "SESSION",
    "SESSION_SOURCES",
    "create_trust_agent",
    "gate_messages",
    "infer_label",
    "make_post_model_hook",
    "make_pre_model_hook",
    "make_recall_node",
    "make_remember_tool",
    "make_trust_gate",
    "model_messages",
    "model_prompt",
]
