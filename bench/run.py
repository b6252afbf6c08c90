"""The benchmark harness: ``python -m bench [--quick | --full]``.

Starts its own PostgreSQL (embedded, fsync off) and Redis, runs every case
with ours and the stock LangGraph implementation side by side, prints a
table and writes ``bench/results/latest.json`` (or ``--out``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import sys
import time
import traceback
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # ``python bench/run.py``
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import Env, Results, machine_info
from bench.profiles import PROFILES, Profile

RESULTS_DIR = Path(__file__).resolve().parent / "results"

CASES = {
    "1": ("1. graph turn", "bench.checkpoint_cases", "case_turn"),
    "2": ("2. saver ops", "bench.checkpoint_cases", "case_ops"),
    "3": ("3. concurrency", "bench.checkpoint_cases", "case_concurrency"),
    "4": ("4. fork & copy", "bench.checkpoint_cases", "case_fork"),
    "5": ("5. store (+ 6. forget)", "bench.store_cases", "case_store"),
    "7": ("7. recall injection", "bench.recall_case", "case_recall"),
    "8": ("8. memory", "bench.memory_case", "case_memory"),
}
CASE_IDS = ("1. graph turn", "2. saver ops", "3. concurrency", "4. fork & copy", "5. store", "6. forget",
            "7. recall injection", "8. memory")


async def run_cases(profile: Profile, cases: list[str], env: Env, res: Results, errors: list[str],
                    progress: Any = None) -> None:
    import importlib

    for cid in cases:
        title, module, fn = CASES[cid]
        if progress:
            progress(f"running {title} ...")
        t0 = time.perf_counter()
        try:
            await getattr(importlib.import_module(module), fn)(env, profile, res)
        except Exception:
            errors.append(f"{title}: {traceback.format_exc()}")
            if progress:
                progress(f"[red]{title} failed[/red]\n{traceback.format_exc()}")
        res.timings[title] = round(time.perf_counter() - t0, 2)
        if progress:
            progress(f"{title} done in {res.timings[title]:.1f} s")


def run(profile: str | Profile = "quick", *, cases: list[str] | None = None, out: Path | None = None,
        progress: Any = None) -> dict[str, Any]:
    """Run the harness in-process and return the report (also written to
    ``out`` unless it is None)."""
    prof = PROFILES[profile] if isinstance(profile, str) else profile
    cases = cases or list(CASES)
    res = Results()
    errors: list[str] = []
    started = datetime.now(timezone.utc)
    t0 = time.perf_counter()
    with Env() as env:
        machine = machine_info(env)
        asyncio.run(run_cases(prof, cases, env, res, errors, progress))
    report = {
        "profile": prof.name,
        "started_at": started.isoformat(timespec="seconds"),
        "duration_s": round(time.perf_counter() - t0, 1),
        "machine": machine,
        "cases": cases,
        "errors": errors,
        **res.to_json(),
    }
    report["targets"] = target_summary(report["rows"])
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(report, indent=1, default=str))
    return report


# -- presentation ------------------------------------------------------------------


def fmt(v: float | None, unit: str) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "-"
    if unit == "tokens":
        return f"{v:,.0f}"
    if unit == "turns/s":
        return f"{v:,.1f}"
    if unit == "s":
        return f"{v:,.1f}"
    if v < 1:
        return f"{v:.3f}"
    if v < 10:
        return f"{v:.2f}"
    return f"{v:,.1f}"


def label(name: str | None) -> str:
    from bench.checkpoint_cases import LABELS as C
    from bench.store_cases import LABELS as S

    if name is None:
        return "-"
    return C.get(name) or S.get(name) or name


def row_note(row: dict[str, Any]) -> str:
    parts = []
    o, s = row.get("ours_extra") or {}, row.get("stock_extra") or {}
    if "recall@5" in o:
        parts.append(f"recall@5 {o['recall@5']:.2f} vs {s.get('recall@5', float('nan')):.2f}")
    for k in ("distinct_memories_recalled", "checkpoints"):
        if k in o:
            parts.append(f"{k.replace('_', ' ')}: {o[k]}")
    if "prepare_s" in o:
        parts.append(f"rows {o['prepare_s'] + o['embed_s'] + o['postgres_s']:.1f}s + vectors {o['vectors_s']:.1f}s")
    if "vectors_s" in o and "prepare_s" not in o:
        parts.append(f"rows (shared) + vectors {o['vectors_s']:.1f}s")
    if "hnsw_build_s" in s:
        parts.append(f"stock: batch {s['batch_s']:.1f}s + HNSW build {s['hnsw_build_s']:.1f}s")
    if "vector_step_ms" in o:
        parts.append("vector step " + ", ".join(f"{v / 1000:.1f}s" for v in o["vector_step_ms"] if v is not None))
    if "removed" in o:
        parts.append("removed " + ", ".join(f"{k} {v}" for k, v in o["removed"].items()))
    return "; ".join(parts)


def target_text(row: dict[str, Any]) -> str:
    out = []
    for t in row["targets"]:
        mark = "met" if t["met"] else ("n/a" if t["met"] is None else "MISSED")
        out.append(f"{t['target']}: {mark}")
    return "; ".join(out)


def target_summary(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for r in rows:
        for t in r["targets"]:
            out.append({
                "case": r["case"], "op": r["op"], "size": r["size"], "ours": r["ours"], "stock": r["stock"],
                "target": t["target"], "met": t["met"], "ratio": r["ratio"],
                "ours_median": r["ours_stats"]["median"], "ours_p95": r["ours_stats"]["p95"],
                "primary": r["primary"],
            })
    return out


def print_report(report: dict[str, Any], console: Any = None) -> None:
    from rich.console import Console
    from rich.table import Table

    console = console or Console(width=200)
    m = report["machine"]
    console.print(
        f"[bold]langgraph-trustmem benchmarks[/bold] — profile {report['profile']}, {report['duration_s']} s, "
        f"{m['cpu']} ({m['cores']} cores, {m['memory_gb']} GB), Python {m['python']}, PostgreSQL {m.get('postgres')}, "
        f"commit {(m.get('git_commit') or '?')[:10]}{' (package modified)' if m.get('package_modified_since_commit') else ''}"
    )
    console.print("times in ms unless the unit says otherwise; ours/stock compares medians "
                  "(for turns/s higher is better); bold rows: the configuration of record")
    by_case: dict[str, list[dict[str, Any]]] = {}
    for r in report["rows"]:
        by_case.setdefault(r["case"], []).append(r)
    used: set[str] = set()
    for case, rows in by_case.items():
        table = Table(title=f"[bold]{case}[/bold]", title_justify="left", header_style="bold")
        for col, just in (("op", "left"), ("size", "left"), ("ours", "left"), ("stock", "left"),
                          ("ours med", "right"), ("ours p95", "right"), ("stock med", "right"),
                          ("stock p95", "right"), ("ours/stock", "right"), ("target", "left"), ("notes", "left")):
            table.add_column(col, justify=just, overflow="fold")
        for r in rows:
            used.update(x for x in (r["ours"], r["stock"]) if x)
            os_, ss = r["ours_stats"], r["stock_stats"] or {}
            u = r["unit"]
            ratio = "-" if r["ratio"] is None else f"{r['ratio']:.2f}x"
            tt = target_text(r)
            if "MISSED" in tt:
                tt = f"[red]{tt}[/red]"
            elif tt:
                tt = f"[green]{tt}[/green]"
            suffix = "" if u == "ms" else f" {u}"
            table.add_row(
                r["op"], r["size"], r["ours"], r["stock"] or "-",
                fmt(os_["median"], u) + suffix, fmt(os_["p95"], u),
                fmt(ss.get("median"), u), fmt(ss.get("p95"), u), ratio, tt, row_note(r),
                style="bold" if r["primary"] else None,
            )
        console.print(table)
    console.print("[bold]implementations[/bold]")
    for name in sorted(used):
        desc = label(name)
        console.print(f"  {name}: {desc}" if desc != name else f"  {name}")
    met = [t for t in report["targets"] if t["met"]]
    missed = [t for t in report["targets"] if t["met"] is False]
    console.print(f"[bold]targets[/bold]: {len(met)} met, {len(missed)} missed")
    for t in report["targets"]:
        mark = "[green]   met[/green]" if t["met"] else ("   n/a" if t["met"] is None else "[red]MISSED[/red]")
        console.print(f"  {mark} {t['case']} / {t['op']} / {t['size']} / {t['ours']} vs {t['stock']}: {t['target']}"
                      f" (ratio {fmt(t['ratio'], 'x')}, ours median {fmt(t['ours_median'], 'ms')}, "
                      f"p95 {fmt(t['ours_p95'], 'ms')})")
    for case, notes in report.get("notes", {}).items():
        for n in notes:
            console.print(f"  note {case}: {n}")
    for e in report["errors"]:
        console.print(f"[red]error[/red] {e}")


def markdown(report: dict[str, Any]) -> str:
    """The table as Markdown (for bench/README.md)."""
    lines = ["| case | op | size | ours | stock | ours median | ours p95 | stock median | stock p95 | ours/stock | target |",
             "|---|---|---|---|---|---:|---:|---:|---:|---:|---|"]
    for r in report["rows"]:
        os_, ss = r["ours_stats"], r["stock_stats"] or {}
        u = r["unit"]
        unit = "" if u == "ms" else f" {u}"
        ratio = "-" if r["ratio"] is None else f"{r['ratio']:.2f}x"
        name = f"**{r['ours']}**" if r["primary"] else r["ours"]
        note = row_note(r)
        tt = target_text(r) + (f" ({note})" if note else "")
        lines.append(
            f"| {r['case']} | {r['op']} | {r['size']} | {name} | {r['stock'] or '-'} | {fmt(os_['median'], u)}{unit} | "
            f"{fmt(os_['p95'], u)} | {fmt(ss.get('median'), u)} | {fmt(ss.get('p95'), u)} | {ratio} | {tt} |"
        )
    return "\n".join(lines)


README = Path(__file__).resolve().parent / "README.md"
FIGURES_START, FIGURES_END = "<!-- figures:start -->", "<!-- figures:end -->"


def figures(report: dict[str, Any]) -> str:
    """The "Latest figures" block of bench/README.md."""
    m = report["machine"]
    commit = (m.get("git_commit") or "?")[:10]
    lines = [
        f"Profile `{report['profile']}`, {report['started_at']}, {report['duration_s']:.0f} s; "
        f"{m['cpu']}, {m['cores']} cores, {m['memory_gb']} GB; Python {m['python']}; PostgreSQL "
        f"{m.get('postgres')} (embedded, fsync off); langgraph {m['packages'].get('langgraph')}, "
        f"langgraph-checkpoint-postgres {m['packages'].get('langgraph-checkpoint-postgres')}, "
        f"qdrant-edge-py {m['packages'].get('qdrant-edge-py')}; package at commit `{commit}`"
        + (" (modified)" if m.get("package_modified_since_commit") else "") + ".",
        "",
        "Times in ms unless a unit is given; ours/stock compares medians (turns/s: higher is better); "
        "**bold**: the configuration of record.",
        "",
        markdown(report),
        "",
        "Targets:",
        "",
    ]
    for t in report["targets"]:
        mark = "met" if t["met"] else ("n/a" if t["met"] is None else "**missed**")
        lines.append(f"- {mark}: {t['case']} / {t['op']} / {t['size']} / `{t['ours']}` vs `{t['stock']}`: {t['target']}")
    return "\n".join(lines)


def update_readme(report: dict[str, Any], path: Path = README) -> None:
    text = path.read_text()
    start, end = text.index(FIGURES_START) + len(FIGURES_START), text.index(FIGURES_END)
    path.write_text(text[:start] + "\n" + figures(report) + "\n" + text[end:])


def main(argv: list[str] | None = None) -> int:
    from rich.console import Console

    p = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--quick", action="store_const", const="quick", dest="profile", help="small sizes (~1 min)")
    mode.add_argument("--full", action="store_const", const="full", dest="profile", help="the sizes of record (~20 min)")
    mode.add_argument("--profile", choices=sorted(PROFILES), dest="profile")
    p.add_argument("--cases", default=",".join(CASES), help="comma-separated case numbers (5 includes 6), e.g. 1,2,5")
    p.add_argument("--out", type=Path, default=RESULTS_DIR / "latest.json", help="where to write the JSON report")
    p.add_argument("--markdown", action="store_true", help="also print the table as Markdown")
    p.add_argument("--readme", action="store_true", help="write the figures into bench/README.md")
    p.add_argument("--from-json", type=Path, help="present an earlier report instead of running")
    args = p.parse_args(argv)
    profile = args.profile or "quick"
    cases = [c.strip() for c in args.cases.split(",") if c.strip()]
    for c in cases:
        if c not in CASES:
            p.error(f"unknown case {c!r}; known: {', '.join(CASES)}")
    console = Console(width=200)
    if args.from_json:
        report = json.loads(args.from_json.read_text())
    else:
        report = run(profile, cases=cases, out=args.out, progress=lambda msg: console.print(msg))
    print_report(report, console)
    if args.markdown:
        print(markdown(report))
    if args.readme:
        update_readme(report)
        console.print(f"updated {README}")
    if not args.from_json:
        console.print(f"wrote {args.out}")
    return 1 if report["errors"] else 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
