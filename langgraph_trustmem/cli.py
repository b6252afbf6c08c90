"""The ``trustmem`` command line: the demo, and the operator's tools for
threads, erasure, the audit log, migrations and a health check.

Every command works on the configured services (``TRUSTMEM_*`` variables)
or, with none configured, on the embedded default's data directory.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.tree import Tree

app = typer.Typer(
    help="langgraph-trustmem: trust-aware, encrypted memory for LangGraph.", no_args_is_help=True
)
threads_app = typer.Typer(help="Inspect threads and their branches.", no_args_is_help=True)
app.add_typer(threads_app, name="threads")
console = Console()


@contextmanager
def _opened() -> Iterator[Any]:
    import langgraph_trustmem

    with langgraph_trustmem.open() as mem:
        yield mem


@app.command()
def demo(ephemeral: bool = typer.Option(False, help="Keep everything in process memory only.")) -> None:
    """Run the quickstart scenario on the embedded default (offline)."""
    import langgraph_trustmem
    from langgraph_trustmem import demo as scenario

    console.print("[bold]langgraph-trustmem demo[/bold] (embedded default, scripted offline model)")
    with langgraph_trustmem.open(ephemeral=ephemeral) as mem:
        result = scenario.run(mem, say=console.print)
    ok = (
        result["escalation_refused"]
        and not result["head_mentions_airport"]
        and result["sealed_mentions_airport"]
        and not result["model_saw_airport_with_email"]
    )
    console.print("[green]The invariant held.[/green]" if ok else "[red]Unexpected result.[/red]")
    raise typer.Exit(0 if ok else 1)


@app.command()
def keygen() -> None:
    """Print a new random key for TRUSTMEM_KEY."""
    from langgraph_trustmem.crypto import generate_key

    print(generate_key())


@threads_app.command("list")
def threads_list(limit: int = typer.Option(50, help="How many threads, most recent first.")) -> None:
    """List threads with their session level, status and branches."""
    with _opened() as mem:
        rows = mem.checkpointer.list_threads(limit)
    table = Table("thread", "level", "status", "head branch", "checkpoints", "last used")
    for r in rows:
        table.add_row(
            r["thread_id"],
            r["level"],
            r["status"],
            str(r["head_branch"]),
            str(r["checkpoints"]),
            r["touched_at"].isoformat(timespec="seconds"),
        )
    console.print(table)


@threads_app.command("show")
def threads_show(thread_id: str) -> None:
    """Show the branch tree of one thread."""
    with _opened() as mem:
        saver = mem.checkpointer
        branches = saver.branches(thread_id)
        sizes = saver.branch_sizes(thread_id)
    if not branches:
        console.print("no such thread")
        raise typer.Exit(1)
    tree = Tree(f"thread (session now at {next(b.level for b in branches if b.head)})")
    nodes: dict[int, Any] = {}
    for b in branches:
        state = (
            "head" if b.head else f"sealed {b.sealed_at.isoformat(timespec='seconds') if b.sealed_at else ''}"
        )
        text = f"branch {b.branch} ({b.level}) {state}, {sizes.get(b.branch, 0)} checkpoints"
        parent = nodes.get(b.parent_branch) if b.parent_branch is not None else None
        nodes[b.branch] = (parent or tree).add(text)
    console.print(tree)


@app.command()
def forget(user_id: str) -> None:
    """Erase a user from every tier (memories, vectors, caches, threads) and
    print the receipt."""
    with _opened() as mem:
        receipt = mem.forget(user_id)
    console.print_json(json.dumps(receipt, default=str))


@app.command()
def audit(
    verify: bool = typer.Option(True, help="Walk the hash chain and report the first broken link."),
    tail: int = typer.Option(20, help="Show the last N events."),
) -> None:
    """Show the latest audit events and verify the chain."""
    with _opened() as mem:
        store = mem.store
        events = store.audit_tail(tail)
        report = store.verify_audit() if verify else None
    table = Table("seq", "at", "action", "actor", "level", "detail")
    for seq, at, action, actor, level, detail in events:
        lv = store.ladder.name(level) if level is not None else ""
        table.add_row(str(seq), at.isoformat(timespec="seconds"), action, actor or "", lv, detail or "")
    console.print(table)
    if report is not None:
        if report.ok:
            console.print(f"[green]chain intact[/green]: {report.events} events verified")
        else:
            console.print(f"[red]chain broken[/red] at event {report.first_bad_seq}")
            raise typer.Exit(2)


@app.command()
def migrate(batch: int = typer.Option(500, help="Rows per transaction.")) -> None:
    """Upgrade every stored memory to the current schema version now."""
    with (
        _opened() as mem,
        Progress(
            TextColumn("migrating memories"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=console,
        ) as progress,
    ):
        task = progress.add_task("migrate", total=None)

        def step(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        n = mem.store.migrate(batch=batch, progress=step)
    console.print(f"{n} memories upgraded to schema version {mem.store.migrations.current}")


@app.command()
def doctor() -> None:
    """Check the configured services, the key ring and the schema versions."""
    from langgraph_trustmem.checkpoint import sql as cp_sql
    from langgraph_trustmem.config import Settings
    from langgraph_trustmem.store import sql as st_sql

    table = Table("check", "result")
    ok = True
    try:
        settings = Settings.resolve()
        table.add_row("configuration", "embedded default" if settings.embedded else "service URLs")
        with _opened() as mem:
            saver, store = mem.checkpointer, mem.store
            table.add_row(
                "key ring", f"{len(saver.keyring.key_ids)} key(s), active {saver.keyring.active_key_id:08x}"
            )
            with saver._cursor() as cur:
                cp_v = cur.execute(cp_sql.SELECT_MIGRATION_SQL).fetchone()[0]
                st_v = cur.execute(st_sql.SELECT_MIGRATION_SQL).fetchone()[0]
                server = cur.execute("SHOW server_version").fetchone()[0]
            table.add_row("postgresql", f"reachable, version {server}")
            cp_want, st_want = len(cp_sql.MIGRATIONS) - 1, len(st_sql.MIGRATIONS) - 1
            for name, have, want in (("checkpoint schema", cp_v, cp_want), ("store schema", st_v, st_want)):
                good = have == want
                ok &= good
                table.add_row(name, f"v{have}" + ("" if good else f" (expected v{want})"))
            hot = type(saver.hot).__name__
            if hasattr(saver.hot, "client"):
                saver.hot.client.ping()
                hot += ", reachable"
            table.add_row("hot tier", hot)
            table.add_row("vector tier", f"{type(store.vectors).__name__}, {store.vectors.count()} points")
            table.add_row("memories to migrate", str(store.outdated_count()))
            report = store.verify_audit()
            ok &= report.ok
            table.add_row("audit chain", "intact" if report.ok else f"broken at {report.first_bad_seq}")
    except Exception as err:  # report, never crash the doctor
        ok = False
        table.add_row("error", f"{type(err).__name__}")
    console.print(table)
    raise typer.Exit(0 if ok else 1)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
