"""The ``trustmem`` command line: the demo, and the operator's tools for
threads, erasure, the audit log, migrations, imports and a health check.

Every command works on the configured services (``TRUSTMEM_*`` variables)
or, with none configured, on the embedded default's data directory. Every
listing takes ``--json`` (stable keys, level names); tables written to a
pipe or file are never cut to the terminal's width, so an id can be copied
from them. An error is one line on stderr that says what went wrong and
what to do, with a non-zero exit code and no traceback.
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Annotated, Any, TypeVar

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text
from rich.tree import Tree

from langgraph_trustmem.errors import (
    ConfigurationError,
    InvalidKeyError,
    MissingKeyError,
    ServiceUnavailable,
    SetupRequired,
    TamperedDataError,
    TrustMemError,
    UnknownLevelError,
    WrongKeyError,
)

app = typer.Typer(
    help="langgraph-trustmem: trust-aware, encrypted memory for LangGraph.", no_args_is_help=True
)
threads_app = typer.Typer(help="Inspect threads and their branches.", no_args_is_help=True)
app.add_typer(threads_app, name="threads")

JSON_HELP = "Print JSON (stable keys, level names) instead of a table."
F = TypeVar("F", bound=Callable[..., Any])


def _console() -> Console:
    """stdout: on a terminal, its width; to a pipe or a file, as wide as a
    row needs, so ids and values are never cut or wrapped."""
    return Console(width=None if sys.stdout.isatty() else 100_000)


def _stderr() -> Console:
    return Console(stderr=True)


def _json(data: Any) -> None:
    """Machine-readable output: plain JSON on stdout, nothing else there."""
    typer.echo(json.dumps(data, indent=2, default=str))


class CommandError(Exception):
    """A failure the command itself detected: cause and remedy."""

    def __init__(self, cause: str, remedy: str) -> None:
        super().__init__(cause)
        self.cause, self.remedy = cause, remedy


KEY_REMEDY = (
    "set TRUSTMEM_KEY to the key the data was written with (a new deployment: `trustmem keygen` prints one)"
)
WRONG_KEY_REMEDY = (
    "set TRUSTMEM_KEY to the key this database was set up with (after a rotation: the new key "
    "first, the original last, comma-separated)"
)


def explain(err: BaseException) -> tuple[str, str]:
    """An error as (cause, remedy) for an operator. The library's messages
    name no content, ids or credentials, so they may be shown."""
    from langgraph_trustmem.embedded import EmbeddedServiceError  # noqa: PLC0415
    from langgraph_trustmem.errors import ImportSourceError  # noqa: PLC0415

    if isinstance(err, CommandError):
        return err.cause, err.remedy
    if isinstance(err, MissingKeyError):
        return "no encryption key is set for the configured services", KEY_REMEDY
    if isinstance(err, InvalidKeyError):
        return (
            "TRUSTMEM_KEY is not a key (32 random bytes in base64; several comma-separated when rotating)",
            "set it to a value `trustmem keygen` printed",
        )
    if isinstance(err, WrongKeyError):
        return "the key does not open this database: it was set up with another key", WRONG_KEY_REMEDY
    if isinstance(err, ImportSourceError):
        return str(err), "check the --from-postgres URL (database, credentials, search_path)"
    if isinstance(err, ServiceUnavailable):
        var = {"PostgreSQL": "TRUSTMEM_POSTGRES_URL", "Redis": "TRUSTMEM_REDIS_URL"}.get(
            err.service, "the TRUSTMEM_* service URLs"
        )
        return str(err), f"check {var} (unset the service URLs to use the embedded default)"
    if isinstance(err, EmbeddedServiceError):
        return (
            "the embedded PostgreSQL could not be started or stopped",
            (
                "check that TRUSTMEM_HOME is writable and no other version runs there, or set "
                "TRUSTMEM_POSTGRES_URL"
            ),
        )
    if isinstance(err, SetupRequired):
        return "the database has no trustmem tables yet", "run `trustmem doctor` with write access once"
    if isinstance(err, TamperedDataError):
        return (
            "stored data failed authentication",
            "run `trustmem doctor`: it tells a wrong key from altered data",
        )
    if isinstance(err, UnknownLevelError):
        return str(err), "use a level on the ladder (TRUSTMEM_LEVELS sets it)"
    if isinstance(err, ConfigurationError):
        return str(err), "check the TRUSTMEM_* settings (`trustmem doctor` checks them)"
    if isinstance(err, TrustMemError):
        return f"{type(err).__name__}: {err}", "run `trustmem doctor` to check the services and the key"
    # anything else, such as a psycopg error (its message may quote stored values): the type only
    where = "PostgreSQL" if type(err).__module__.startswith("psycopg") else "the command"
    return f"{where} failed ({type(err).__name__})", "run `trustmem doctor` to check the services and the key"


def _friendly(fn: F) -> F:
    """Turn the library's typed errors into one line on stderr (cause and
    what to do) and exit code 1, without a traceback."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        import psycopg  # noqa: PLC0415

        try:
            return fn(*args, **kwargs)
        except (TrustMemError, CommandError, psycopg.Error) as err:
            cause, remedy = explain(err)
            line = Text.assemble(("error", "red"), f": {cause}; {remedy}")  # no markup read from messages
            _stderr().print(line, highlight=False, soft_wrap=True)
            raise typer.Exit(1) from None

    return wrapper  # type: ignore[return-value]


@contextmanager
def _opened() -> Iterator[Any]:
    import langgraph_trustmem  # noqa: PLC0415

    with langgraph_trustmem.open() as mem:
        yield mem


def _at(value: Any) -> str | None:
    return value.isoformat(timespec="seconds") if value is not None else None


def _cells(*values: Any) -> list[Text]:
    """Table cells shown as they are: stored text is never read as markup."""
    return [Text("" if v is None else str(v)) for v in values]


@app.command()
@_friendly
def demo(ephemeral: bool = typer.Option(False, help="Keep everything in process memory only.")) -> None:
    """Run the quickstart scenario on the embedded default (offline)."""
    import langgraph_trustmem  # noqa: PLC0415
    from langgraph_trustmem import demo as scenario  # noqa: PLC0415

    console = _console()
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
    from langgraph_trustmem.crypto import generate_key  # noqa: PLC0415

    print(generate_key())


@threads_app.command("list")
@_friendly
def threads_list(
    limit: int = typer.Option(50, help="How many threads, most recent first."),
    as_json: bool = typer.Option(False, "--json", help=JSON_HELP),
) -> None:
    """List threads with their session level, status and branches."""
    with _opened() as mem:
        rows = mem.checkpointer.list_threads(limit)
    threads = [
        {
            "thread_id": r["thread_id"],
            "level": r["level"],
            "status": r["status"],
            "head_branch": r["head_branch"],
            "checkpoints": r["checkpoints"],
            "created_at": _at(r["created_at"]),
            "touched_at": _at(r["touched_at"]),
        }
        for r in rows
    ]
    if as_json:
        _json({"threads": threads})
        return
    table = Table()
    table.add_column("thread", overflow="fold")  # ids whole (folded on a narrow terminal, never cut)
    for name in ("level", "status", "head branch", "checkpoints", "last used"):
        table.add_column(name)
    for t in threads:
        table.add_row(
            *_cells(
                t["thread_id"], t["level"], t["status"], t["head_branch"], t["checkpoints"], t["touched_at"]
            )
        )
    _console().print(table)


@threads_app.command("show")
@_friendly
def threads_show(
    thread_id: str,
    as_json: bool = typer.Option(False, "--json", help=JSON_HELP),
) -> None:
    """Show the branch tree of one thread."""
    with _opened() as mem:
        saver = mem.checkpointer
        branches = saver.branches(thread_id)
        sizes = saver.branch_sizes(thread_id)
    if not branches:
        raise CommandError("no such thread", "`trustmem threads list` shows the ids there are (in full)")
    level = next(b.level for b in branches if b.head)
    if as_json:
        _json(
            {
                "thread_id": thread_id,
                "level": level,
                "branches": [
                    {
                        "branch": b.branch,
                        "level": b.level,
                        "head": b.head,
                        "parent_branch": b.parent_branch,
                        "forked_from": b.forked_from,
                        "sealed_at": _at(b.sealed_at),
                        "checkpoints": sizes.get(b.branch, 0),
                    }
                    for b in branches
                ],
            }
        )
        return
    tree = Tree(Text(f"thread (session now at {level})"))
    nodes: dict[int, Any] = {}
    for b in branches:
        state = "head" if b.head else f"sealed {_at(b.sealed_at) or ''}"
        text = Text(f"branch {b.branch} ({b.level}) {state}, {sizes.get(b.branch, 0)} checkpoints")
        parent = nodes.get(b.parent_branch) if b.parent_branch is not None else None
        nodes[b.branch] = (parent or tree).add(text)
    _console().print(tree)


@app.command()
@_friendly
def forget(
    user_id: str,
    as_json: bool = typer.Option(False, "--json", help=JSON_HELP),
) -> None:
    """Erase a user from every tier and print the receipt.

    Memories, vectors, caches and threads; the receipt names no one."""
    with _opened() as mem:
        receipt = mem.forget(user_id)
    if as_json:
        _json(receipt)
        return
    table = Table("tier", "removed", title=f"erasure receipt {receipt['receipt_id']}")
    for tier, n in receipt["removed"].items():
        table.add_row(*_cells(tier, n))
    console = _console()
    console.print(table)
    console.print(f"started {receipt['started_at']}, finished {receipt['finished_at'] or 'not yet'}")
    if receipt.get("pending"):
        console.print(f"[yellow]owed[/yellow]: {', '.join(receipt['pending'])} (run forget again)")


@app.command()
@_friendly
def audit(
    verify: bool = typer.Option(True, help="Walk the hash chain and report the first broken link."),
    tail: int = typer.Option(20, help="Show the last N events."),
    as_json: bool = typer.Option(False, "--json", help=JSON_HELP),
) -> None:
    """Show the latest audit events and verify the chain."""
    with _opened() as mem:
        store = mem.store
        rows = store.audit_tail(tail)
        report = store.verify_audit() if verify else None
    events = [
        {
            "seq": seq,
            "at": _at(at),
            "action": action,
            "actor": actor,
            "level": store.ladder.name(level) if level is not None else None,
            "detail": detail,
        }
        for seq, at, action, actor, level, detail in rows
    ]
    chain = (
        {"ok": report.ok, "events": report.events, "first_bad_seq": report.first_bad_seq}
        if report is not None
        else None
    )
    if as_json:
        _json({"events": events, "chain": chain})
    else:
        table = Table("seq", "at", "action", "actor", "level", "detail")
        for e in events:
            table.add_row(*_cells(e["seq"], e["at"], e["action"], e["actor"], e["level"], e["detail"]))
        console = _console()
        console.print(table)
        if report is not None:
            if report.ok:
                console.print(f"[green]chain intact[/green]: {report.events} events verified")
            else:
                console.print(
                    f"[red]chain broken[/red] at event {report.first_bad_seq}: run `trustmem doctor` "
                    "(it tells a wrong key from altered events)"
                )
    if report is not None and not report.ok:
        raise typer.Exit(2)


def _progress(label: str) -> Progress:
    """A progress bar on stderr (stdout keeps only the result)."""
    return Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=_stderr(),
    )


@app.command()
@_friendly
def migrate(
    batch: int = typer.Option(500, help="Rows per transaction."),
    as_json: bool = typer.Option(False, "--json", help=JSON_HELP),
) -> None:
    """Upgrade every stored memory to the current schema version now."""
    with _opened() as mem, _progress("migrating memories") as progress:
        task = progress.add_task("migrate", total=None)

        def step(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        n = mem.store.migrate(batch=batch, progress=step)
    if as_json:
        _json({"upgraded": n, "schema_version": mem.store.migrations.current})
    else:
        _console().print(f"{n} memories upgraded to schema version {mem.store.migrations.current}")


def _parse_prefix_levels(pairs: list[str]) -> dict[tuple[str, ...] | str, str]:
    out: dict[tuple[str, ...] | str, str] = {}
    for pair in pairs:
        prefix, sep, level = pair.rpartition("=")
        if not sep or not prefix or not level:
            raise CommandError(
                "--namespace-level takes PREFIX=LEVEL", "e.g. --namespace-level memories.health=sensitive"
            )
        out[tuple(prefix.split("."))] = level
    return out


@app.command("import")
@_friendly
def import_(
    from_postgres: str = typer.Option(
        ..., "--from-postgres", help="URL of the stock PostgresSaver/PostgresStore database (only read)."
    ),
    dry_run: bool = typer.Option(False, "--dry-run", help="Read and count everything; write nothing."),
    thread_level: str | None = typer.Option(
        None, help="Level of imported threads (default: the ladder's highest, fail closed)."
    ),
    thread_level_key: str | None = typer.Option(
        None, help="Checkpoint metadata key whose value names a thread's level (overrides --thread-level)."
    ),
    owner_key: str = typer.Option("user_id", help="Checkpoint metadata key naming a thread's owner."),
    item_level: str | None = typer.Option(
        None, help="Level of imported memories (default: the ladder's highest, fail closed)."
    ),
    namespace_level: Annotated[
        list[str] | None,
        typer.Option(
            help="PREFIX=LEVEL, dot-separated as the stock store writes it; repeatable, longest prefix wins."
        ),
    ] = None,
    threads: bool = typer.Option(True, help="Import threads (checkpoints and writes)."),
    items: bool = typer.Option(True, help="Import store items (memories)."),
    index: bool = typer.Option(True, help="Embed memories for vector recall as the store does."),
    workers: int = typer.Option(4, min=1, help="Threads moving data in parallel."),
    batch: int = typer.Option(500, min=1, help="Memories per batch."),
    as_json: bool = typer.Option(False, "--json", help=JSON_HELP),
) -> None:
    """Move a stock PostgresSaver/PostgresStore database in.

    Everything is sealed, labelled by your rules and read back to verify the
    counts. The source is only read. Safe to run again: nothing is
    duplicated."""
    from langgraph_trustmem.config import resolve_ladder  # noqa: PLC0415
    from langgraph_trustmem.importer import ImportRules, import_from_postgres  # noqa: PLC0415

    rules = ImportRules(
        thread_level=thread_level,
        item_level=item_level,
        namespace_levels=_parse_prefix_levels(namespace_level or []),
        thread_level_key=thread_level_key,
        owner_key=owner_key or None,
    )
    progress = _progress("importing {task.description}")
    tasks: dict[str, Any] = {}

    def step(phase: str, done: int, total: int) -> None:
        if phase not in tasks:
            tasks[phase] = progress.add_task(phase, total=total)
        progress.update(tasks[phase], completed=done, total=total)

    kwargs: dict[str, Any] = {
        "rules": rules,
        "dry_run": dry_run,
        "threads": threads,
        "items": items,
        "index": index,
        "workers": workers,
        "batch": batch,
        "progress": step,
    }
    with progress:
        if dry_run:  # the target is not opened: nothing is written, not even its schema
            result = import_from_postgres(from_postgres, levels=resolve_ladder(None), **kwargs)
        else:
            with _opened() as mem:
                result = import_from_postgres(
                    from_postgres, checkpointer=mem.checkpointer, store=mem.store, **kwargs
                )
    if as_json:
        _json(result.to_dict())
    else:
        _print_import(result)
    if not result.ok:
        raise typer.Exit(1)


def _print_import(result: Any) -> None:
    console = _console()
    title = "import (dry run: nothing written)" if result.dry_run else "import"
    table = Table("", "source", "written", "already here", "read back", title=title)
    for name in ("threads", "checkpoints", "writes", "items"):
        back = str(getattr(result.verified, name)) if result.verified is not None else "-"
        table.add_row(
            name,
            str(getattr(result.source, name)),
            str(getattr(result.written, name)),
            str(getattr(result.skipped, name)),
            back,
        )
    console.print(table)
    for kind, counts in result.levels.items():
        if counts:
            console.print(f"{kind} by level: " + ", ".join(f"{lv} {n}" for lv, n in sorted(counts.items())))
    if result.expired:
        console.print(f"{result.expired} expired memories left behind")
    if result.refused:
        refused = ", ".join(f"{kind} {n}" for kind, n in sorted(result.refused.items()))
        console.print(f"[red]refused[/red]: {refused} (the rest was imported; see docs/howto/migrate.md)")
    if result.dry_run:
        console.print(f"dry run in {result.seconds:.1f}s: run again without --dry-run to import")
    elif result.ok:
        console.print(
            f"[green]verified[/green]: every count read back matches the source ({result.seconds:.1f}s)"
        )
    else:
        console.print("[red]mismatch[/red]: run the import again (it only adds what is missing)")


# -- doctor --------------------------------------------------------------------


class _Checks:
    """The doctor's findings: (check, status, result, remedy)."""

    def __init__(self) -> None:
        self.rows: list[dict[str, Any]] = []

    def add(self, check: str, result: str, status: str = "ok", remedy: str | None = None) -> None:
        self.rows.append({"check": check, "status": status, "result": result, "remedy": remedy})

    @property
    def ok(self) -> bool:
        return all(r["status"] != "fail" for r in self.rows)


def _foreign_key_ids(saver: Any) -> int:
    """How many sampled sealed values name a key that is not on the ring:
    data written under another key (a wrong key, not tampering)."""
    from langgraph_trustmem.crypto import HEADER_SIZE, KeyRing  # noqa: PLC0415

    ring = set(saver.keyring.key_ids)
    foreign = 0
    with saver._cursor() as cur:
        for query in (
            "SELECT thread_ct FROM trustmem_threads LIMIT 200",
            "SELECT sealed FROM trustmem_memories LIMIT 200",
        ):
            for (envelope,) in cur.execute(query).fetchall():
                envelope = bytes(envelope)
                if len(envelope) >= HEADER_SIZE and KeyRing.key_id_in(envelope) not in ring:
                    foreign += 1
    return foreign


def _diagnose(checks: _Checks) -> None:
    import psycopg  # noqa: PLC0415

    from langgraph_trustmem.checkpoint import sql as cp_sql  # noqa: PLC0415
    from langgraph_trustmem.config import Settings  # noqa: PLC0415
    from langgraph_trustmem.store import sql as st_sql  # noqa: PLC0415

    try:
        settings = Settings.resolve()
    except TrustMemError as err:
        checks.add("configuration", *_failed(err))
        return
    checks.add("configuration", "embedded default" if settings.embedded else "service URLs")
    try:
        with _opened() as mem:
            saver, store = mem.checkpointer, mem.store
            checks.add(
                "key ring", f"{len(saver.keyring.key_ids)} key(s), active {saver.keyring.active_key_id:08x}"
            )
            with saver._cursor() as cur:
                cp_v = cur.execute(cp_sql.SELECT_MIGRATION_SQL).fetchone()[0]
                st_v = cur.execute(st_sql.SELECT_MIGRATION_SQL).fetchone()[0]
                server = cur.execute("SHOW server_version").fetchone()[0]
            checks.add("postgresql", f"reachable, version {server}")
            cp_want, st_want = len(cp_sql.MIGRATIONS) - 1, len(st_sql.MIGRATIONS) - 1
            for name, have, want in (("checkpoint schema", cp_v, cp_want), ("store schema", st_v, st_want)):
                if have == want:
                    checks.add(name, f"v{have}")
                else:
                    checks.add(name, f"v{have} (expected v{want})", "fail", "upgrade langgraph-trustmem")
            hot = type(saver.hot).__name__
            if hasattr(saver.hot, "client"):
                saver.hot.client.ping()
                hot += ", reachable"
            checks.add("hot tier", hot)
            vectors = (
                f"{type(store.vectors).__name__}, {store.vectors.count()} points" if store.vectors else "none"
            )
            checks.add("vector tier", vectors)
            outdated = store.outdated_count()
            if outdated:
                checks.add("memories to migrate", str(outdated), "warn", "run `trustmem migrate`")
            else:
                checks.add("memories to migrate", "0")
            foreign = _foreign_key_ids(saver)
            if foreign:
                checks.add(
                    "key",
                    f"wrong key: {foreign} sampled values are sealed with a key that is not on the ring",
                    "fail",
                    WRONG_KEY_REMEDY,
                )
            report = store.verify_audit()
            if report.ok:
                checks.add("audit chain", f"intact, {report.events} events")
            elif foreign:
                checks.add("audit chain", "not verifiable with this key", "fail", WRONG_KEY_REMEDY)
            else:
                checks.add(
                    "audit chain",
                    f"TAMPERED: broken at event {report.first_bad_seq} (the key is right, so events "
                    "were altered, inserted or removed)",
                    "fail",
                    "treat as a security incident: keep the database as it is and compare with a backup; "
                    "`trustmem audit` shows the latest events",
                )
    except WrongKeyError as err:
        checks.add("key", "wrong key: this database was set up with another key", "fail", explain(err)[1])
    except (TrustMemError, OSError, psycopg.Error) as err:
        checks.add("services", *_failed(err))


def _failed(err: BaseException) -> tuple[str, str, str]:
    cause, remedy = explain(err)
    return cause, "fail", remedy


@app.command()
@_friendly
def doctor(as_json: bool = typer.Option(False, "--json", help=JSON_HELP)) -> None:
    """Check the services, the key, the schemas and the audit chain.

    Tells a wrong key from tampered data."""
    checks = _Checks()
    _diagnose(checks)
    if as_json:
        _json({"ok": checks.ok, "checks": checks.rows})
    else:
        table = Table("check", "status", "result", "what to do")
        colour = {"ok": "green", "warn": "yellow", "fail": "red"}
        for r in checks.rows:
            check, result, remedy = _cells(r["check"], r["result"], r["remedy"])
            table.add_row(check, Text(r["status"], style=colour[r["status"]]), result, remedy)
        _console().print(table)
    raise typer.Exit(0 if checks.ok else 1)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
