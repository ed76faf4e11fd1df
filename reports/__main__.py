"""Command line: ``python -m reports build RUN_DIR... [--out DIR]`` and ``compare A B``.

``build`` merges runs (several models, or shards of one run made on several machines) into one
report made by the same code as a single run's report. ``compare`` prints per-cell deltas
between two runs of the same trials, with exact McNemar tests.

Bad input (a missing run, a malformed record, a shard set with a shard missing or doubled,
an incomplete run without ``--allow-incomplete``, runs whose settings differ, an output
directory that already holds a run, two runs with no trial in common) is one line on stderr
and exit status 4, as pytest's usage errors are.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import warnings
from pathlib import Path

from reports.run.prompt_store import PROMPTS_FILE
from reports.run.record_file import TornRecordWarning

REPO_ROOT = Path(__file__).resolve().parent.parent
USAGE_ERROR = 4  # pytest.ExitCode.USAGE_ERROR: the same status for the same kind of mistake
RUN_FILES = ("trials.jsonl", "summary.json")  # either one means a directory holds a run


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error exits 4 (argparse's own is 2) with one line."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(USAGE_ERROR, f"{self.prog}: {message}\n")


def check_out_dir(out_dir: Path, run_dirs: list[Path]) -> None:
    """Refuse an output that would overwrite a run (or is not a directory), before any work."""
    if out_dir.exists() and not out_dir.is_dir():
        raise ValueError(f"--out {out_dir} is a file, not a directory")
    held = [name for name in RUN_FILES if (out_dir / name).exists()]
    if held:
        raise ValueError(
            f"--out {out_dir} already holds a run ({held[0]}); choose a new directory "
            "(building into it would replace that run's records)"
        )
    inputs = {(p if p.is_dir() else p.parent).resolve() for p in run_dirs}
    if out_dir.resolve() in inputs:
        raise ValueError(f"--out {out_dir} is one of the runs being merged")


def _headers(run_dirs: list[Path]) -> list[dict]:
    headers = []
    for run_dir in run_dirs:
        summary = run_dir / "summary.json" if run_dir.is_dir() else run_dir.parent / "summary.json"
        if summary.is_file():
            headers.append(json.loads(summary.read_text(encoding="utf-8")).get("header", {}))
        else:
            headers.append({"run_id": run_dir.name, "note": "no summary.json"})
    return headers


def build(run_dirs: list[Path], out_dir: Path, allow_incomplete: bool = False) -> Path:
    from reports.builders import artifacts
    from reports.run.paths import directory_problem
    from reports.run.record_file import is_torn
    from reports.run.settings_check import settings_problem, task_version_problem
    from reports.run.shards import incomplete_runs, merged_completeness, shard_set_problem
    from reports.tables import accuracy as tables

    check_out_dir(out_dir, run_dirs)
    headers = _headers(run_dirs)
    for check in (shard_set_problem, settings_problem):
        if problem := check(headers, run_dirs):
            raise ValueError(problem)
    # read the records first: a bad line in the middle is a damaged file, named by its line,
    # not an incomplete run (counting trials skips the lines it cannot read)
    df = tables.load_records(run_dirs)
    incomplete = incomplete_runs(headers, run_dirs)
    if incomplete and not allow_incomplete:
        raise ValueError(
            f"INCOMPLETE input: {'; '.join(incomplete)}; complete each with the command that "
            "made it and --resume DIR, or build them anyway with --allow-incomplete (the "
            "report is then marked incomplete)")
    if problem := task_version_problem(df):
        raise ValueError(problem)
    if problem := directory_problem(out_dir):
        raise ValueError(f"--out: {problem}")
    out_dir.mkdir(parents=True, exist_ok=True)
    merged = out_dir / "trials.jsonl"
    with merged.open("w", encoding="utf-8") as handle:
        for run_dir in run_dirs:
            path = run_dir / "trials.jsonl" if run_dir.is_dir() else run_dir
            for line in path.read_text(encoding="utf-8").splitlines(keepends=True):
                if line.strip() and not is_torn(line):  # load_records warned of a torn one
                    handle.write(line.rstrip("\n") + "\n")
    _merge_prompts(run_dirs, out_dir / PROMPTS_FILE)
    header = {
        "run_id": out_dir.name,
        "merged_from": [str(p) for p in run_dirs],
        "built": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "sources": headers,
        **merged_completeness(headers, run_dirs),
    }
    written = artifacts.write_artifacts(df, out_dir, header)
    if len(run_dirs) > 1:  # several runs: one row per model across every family
        from reports.tables.overview import write_overview

        write_overview(df, out_dir, header)
    return written["report.html"]


def _merge_prompts(run_dirs: list[Path], target: Path) -> None:
    """The runs' ``prompts.jsonl`` side by side (the report reads each text once)."""
    sources = [(d if d.is_dir() else d.parent) / PROMPTS_FILE for d in run_dirs]
    present = [path for path in sources if path.is_file()]
    if present:  # runs recorded before prompts.jsonl have none: their trials show no prompt
        target.write_text("".join(path.read_text(encoding="utf-8") for path in present),
                          encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = _Parser(prog="python -m reports", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    build_cmd = commands.add_parser("build", help="merge run directories into one report")
    build_cmd.add_argument("run_dirs", nargs="+", type=Path)
    build_cmd.add_argument("--out", type=Path, default=None,
                           help="output directory (default: reports/out/merged-<time>)")
    build_cmd.add_argument("--allow-incomplete", action="store_true",
                           help="build even when an input run is incomplete (the report says "
                                "so, and summary.json has complete: false)")
    compare_cmd = commands.add_parser("compare", help="per-cell deltas between two runs")
    compare_cmd.add_argument("run_a", type=Path)
    compare_cmd.add_argument("run_b", type=Path)
    args = parser.parse_args(argv)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", TornRecordWarning)
            if args.command == "build":
                out = args.out or REPO_ROOT / "reports" / "out" / time.strftime(
                    "merged-%Y%m%d-%H%M%S")
                report = build(args.run_dirs, out, args.allow_incomplete)
            else:
                from reports.builders.compare import compare_runs

                report = compare_runs(args.run_a, args.run_b)
        for warning in caught:
            print(f"python -m reports {args.command}: WARNING: {warning.message}",
                  file=sys.stderr)
        print(f"report: {report}" if args.command == "build" else report)
    except (OSError, ValueError) as exc:
        print(f"python -m reports {args.command}: {exc}", file=sys.stderr)
        return USAGE_ERROR
    return 0


if __name__ == "__main__":
    sys.exit(main())
