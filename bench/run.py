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

from bench.common import Env, Results, machine_info  # noqa: E402
from bench.profiles import PROFILES, Profile  # noqa: E402

RESULTS_DIR = Path(__file__).resolve().parent / "results"

CASES = {
    "1": ("1. graph turn", "bench.checkpoint_cases", "case_turn"),
    "2": ("2. saver ops", "bench.checkpoint_cases", "case_ops"),
    "3": ("3. concurrency", "bench.checkpoint_cases", "case_concurrency"),
    "4": ("4. fork & copy", "bench.checkpoint_cases", "case_fork"),
    "5": ("5. store (+ 6. forget)", "bench.store_cases", "case_store"),
    "7": ("7. recall injection", "bench.recall_case", "case_recall"),
}
CASE_IDS = ("1. graph turn", "2. saver ops", "3. concurrency", "4. fork & copy", "5. store", "6. forget",
            "7. recall injection")


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
        parts.append(f"vectors {o['vectors_s']:.1f}s")
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

    console = console or Console(width=220)
    m = report["machine"]
    console.print(
        f"[bold]langgraph-trustmem benchmarks[/bold] — profile {report['profile']}, {report['duration_s']} s, "
        f"{m['cpu']} ({m['cores']} cores, {m['memory_gb']} GB), Python {m['python']}, PostgreSQL {m.get('postgres')}"
    )
    table = Table(show_lines=False, header_style="bold")
    for col, just in (("case", "left"), ("op", "left"), ("size", "left"), ("ours", "left"), ("stock", "left"),
                      ("unit", "left"), ("ours med", "right"), ("ours p95", "right"), ("stock med", "right"),
                      ("stock p95", "right"), ("ours/stock", "right"), ("target", "left"), ("notes", "left")):
        table.add_column(col, justify=just, overflow="fold")
    last_case = None
    for r in report["rows"]:
        if last_case is not None and r["case"] != last_case:
            table.add_section()
        last_case = r["case"]
        os_, ss = r["ours_stats"], r["stock_stats"] or {}
        ratio = "-" if r["ratio"] is None else f"{r['ratio']:.2f}x"
        tt = target_text(r)
        if "MISSED" in tt:
            tt = f"[red]{tt}[/red]"
        elif tt:
            tt = f"[green]{tt}[/green]"
        style = "bold" if r["primary"] else None
        table.add_row(
            r["case"], r["op"], r["size"], label(r["ours"]), label(r["stock"]), r["unit"],
            fmt(os_["median"], r["unit"]), fmt(os_["p95"], r["unit"]),
            fmt(ss.get("median"), r["unit"]), fmt(ss.get("p95"), r["unit"]), ratio, tt, row_note(r),
            style=style,
        )
    console.print(table)
    met = [t for t in report["targets"] if t["met"]]
    missed = [t for t in report["targets"] if t["met"] is False]
    console.print(f"targets: {len(met)} met, {len(missed)} missed (bold rows: the configuration of record)")
    for t in missed:
        console.print(f"  [red]missed[/red] {t['case']} / {t['op']} / {t['size']} / {label(t['ours'])}: {t['target']}"
                      f" (ratio {fmt(t['ratio'], 'x')}, ours median {fmt(t['ours_median'], 'ms')}, p95 {fmt(t['ours_p95'], 'ms')})")
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
        name = f"**{label(r['ours'])}**" if r["primary"] else label(r["ours"])
        note = row_note(r)
        tt = target_text(r) + (f" ({note})" if note else "")
        lines.append(
            f"| {r['case']} | {r['op']} | {r['size']} | {name} | {label(r['stock'])} | {fmt(os_['median'], u)}{unit} | "
            f"{fmt(os_['p95'], u)} | {fmt(ss.get('median'), u)} | {fmt(ss.get('p95'), u)} | {ratio} | {tt} |"
        )
    return "\n".join(lines)


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
    args = p.parse_args(argv)
    profile = args.profile or "quick"
    cases = [c.strip() for c in args.cases.split(",") if c.strip()]
    for c in cases:
        if c not in CASES:
            p.error(f"unknown case {c!r}; known: {', '.join(CASES)}")
    console = Console(width=220)
    report = run(profile, cases=cases, out=args.out, progress=lambda msg: console.print(msg))
    print_report(report, console)
    if args.markdown:
        print(markdown(report))
    console.print(f"wrote {args.out}")
    return 1 if report["errors"] else 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
