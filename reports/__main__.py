"""Command line: ``python -m reports build RUN_DIR... [--out DIR]`` and ``compare A B``.

``build`` merges runs (several models, or shards of one run made on several machines) into one
report made by the same code as a single run's report. ``compare`` prints per-cell deltas
between two runs of the same trials, with exact McNemar tests.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent


def _headers(run_dirs: list[Path]) -> list[dict]:
    headers = []
    for run_dir in run_dirs:
        summary = run_dir / "summary.json" if run_dir.is_dir() else run_dir.parent / "summary.json"
        if summary.is_file():
            headers.append(json.loads(summary.read_text(encoding="utf-8")).get("header", {}))
        else:
            headers.append({"run_id": run_dir.name, "note": "no summary.json"})
    return headers


def build(run_dirs: list[Path], out_dir: Path) -> Path:
    from . import artifacts, tables

    df = tables.load_records(run_dirs)
    out_dir.mkdir(parents=True, exist_ok=True)
    merged = out_dir / "trials.jsonl"
    with merged.open("w", encoding="utf-8") as handle:
        for run_dir in run_dirs:
            path = run_dir / "trials.jsonl" if run_dir.is_dir() else run_dir
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    handle.write(line + "\n")
    headers = _headers(run_dirs)
    header = {
        "run_id": out_dir.name,
        "merged_from": [str(p) for p in run_dirs],
        "built": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "sources": headers,
    }
    written = artifacts.write_artifacts(df, out_dir, header)
    return written["report.html"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m reports", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    build_cmd = commands.add_parser("build", help="merge run directories into one report")
    build_cmd.add_argument("run_dirs", nargs="+", type=Path)
    build_cmd.add_argument("--out", type=Path, default=None,
                           help="output directory (default: reports/out/merged-<time>)")
    compare_cmd = commands.add_parser("compare", help="per-cell deltas between two runs")
    compare_cmd.add_argument("run_a", type=Path)
    compare_cmd.add_argument("run_b", type=Path)
    args = parser.parse_args(argv)
    try:
        if args.command == "build":
            out = args.out or REPO_ROOT / "reports" / "out" / time.strftime("merged-%Y%m%d-%H%M%S")
            print(f"report: {build(args.run_dirs, out)}")
        else:
            from .compare import compare_runs

            print(compare_runs(args.run_a, args.run_b))
    except (FileNotFoundError, ValueError) as exc:
        print(f"python -m reports {args.command}: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
