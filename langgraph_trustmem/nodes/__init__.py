"""Graph nodes and tools that keep a session at its trust level."""

from langgraph_trustmem.nodes.gate import infer_label, make_trust_gate

__all__ = ["infer_label", "make_trust_gate"]
