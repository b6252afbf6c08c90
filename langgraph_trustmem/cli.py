"""The ``trustmem`` command line."""

from __future__ import annotations

import typer
from rich.console import Console

app = typer.Typer(
    help="langgraph-trustmem: trust-aware, encrypted memory for LangGraph.", no_args_is_help=True
)
console = Console()


@app.command()
def demo(ephemeral: bool = typer.Option(False, help="Keep everything in process memory only.")) -> None:
    """Run the quickstart scenario on the embedded default (offline)."""
    import langgraph_trustmem
    from langgraph_trustmem import demo as scenario

    console.print("[bold]langgraph-trustmem demo[/bold] (embedded PostgreSQL, scripted offline model)")
    with langgraph_trustmem.open(ephemeral=ephemeral) as mem:
        result = scenario.run(mem, say=console.print)
    ok = (
        result["escalation_refused"]
        and not result["head_mentions_airport"]
        and result["sealed_mentions_airport"]
    )
    console.print("[green]The invariant held.[/green]" if ok else "[red]Unexpected result.[/red]")
    raise typer.Exit(0 if ok else 1)


@app.command()
def keygen() -> None:
    """Print a new random key for TRUSTMEM_KEY."""
    from langgraph_trustmem.crypto import generate_key

    print(generate_key())


def main() -> None:
    app()


if __name__ == "__main__":
    main()
