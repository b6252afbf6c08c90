"""Benchmarks of langgraph-trustmem against LangGraph's stock savers and
stores: ``python -m bench --quick`` or ``python -m bench --full``."""
