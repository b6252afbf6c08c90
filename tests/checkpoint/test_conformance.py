"""LangGraph's checkpointer conformance suite, every capability, against the
async saver on PostgreSQL + Redis and on the embedded default."""

from __future__ import annotations

from langgraph.checkpoint.conformance import checkpointer_test, validate
from langgraph.checkpoint.conformance.report import ProgressCallbacks

from langgraph_trustmem import AsyncTrustCheckpointSaver, aopen

ALL = ("put", "put_writes", "get_tuple", "list", "delete_thread", "delete_for_runs", "copy_thread", "prune")


def assert_full(report) -> None:
    report.print_report()
    failures = {cap: res.failures for cap, res in report.results.items() if res.passed is not True}
    assert not failures, failures
    assert report.passed_all_base() and report.passed_all()
    for cap in ALL:
        assert report.results[cap].detected and report.results[cap].passed is True, cap
    assert report.conformance_level() == "FULL"


async def test_conformance_postgres_and_redis(pg_url, redis_url, key, schema):
    @checkpointer_test(name="AsyncTrustCheckpointSaver[postgres+redis]")
    async def factory():
        async with AsyncTrustCheckpointSaver.from_conn_string(pg_url, redis_url=redis_url, key=key) as saver:
            yield saver

    assert_full(await validate(factory, progress=ProgressCallbacks.quiet()))


async def test_conformance_postgres_without_hot_tier(pg_url, key, schema):
    @checkpointer_test(name="AsyncTrustCheckpointSaver[postgres]")
    async def factory():
        async with AsyncTrustCheckpointSaver.from_conn_string(pg_url, key=key) as saver:
            yield saver

    assert_full(await validate(factory, progress=ProgressCallbacks.quiet()))


async def test_conformance_embedded_default(trustmem_home):
    async with aopen(durable=False) as mem:

        @checkpointer_test(name="AsyncTrustCheckpointSaver[embedded]")
        async def factory():
            yield mem.checkpointer

        assert_full(await validate(factory, progress=ProgressCallbacks.quiet()))
