"""How long the report of a full listener run (18,928 trials) takes to open in headless Chromium.

    .venv/bin/python benchmarks/report_load.py [--trials 18928] [--repeats 3] [--seed-run DIR]

A full run takes some 20 minutes on 2 cores, so the records are made the cheap way, in the
proportions of a full run: a real listener run of every core trial (1,008) and of the pitch
items at MIDI note 60 (``-k m60``, 917 trials across the experiments) is the seed; its pitch
records are repeated, each copy a new item (``~k`` after its ids) with a prompt of its own in
``prompts.jsonl``, until the run holds ``--trials`` records. The report is then built by the
same ``write_artifacts`` a run ends with (its time is printed too) and opened ``--repeats``
times, each in a fresh Chromium: the time to the page's load event (``trials.js`` is a
synchronous script, so parsing the data is inside it), the time until the trials viewer has
rendered its first page (``data-trials-ready`` on ``<html>``, set by report.js), then a Table 1
cell clicked (its trials listed) and a trial opened, each timed in the page. Console errors fail
the run. ``--seed-run DIR`` keeps the seed run in DIR, and reuses it when DIR holds one.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

SEED_PITCH = "m60"
PYTEST = [sys.executable, "-m", "pytest", "-p", "no:hypothesispytest", "-p", "no:cacheprovider",
          "-q", "--model", "listener", "--no-report"]


def seed_run(directory: Path) -> Path:
    """A real listener run: every core trial and the pitch items at MIDI note 60."""
    if (directory / "seed" / "trials.jsonl").is_file():
        return directory / "seed"
    core, pitch = directory / "core", directory / "pitch"
    for target, args in ((core, ["bench", "--ignore=bench/test_pitch"]),
                         (pitch, ["bench/test_pitch", "-k", SEED_PITCH])):
        result = subprocess.run([*PYTEST, *args, "--run-dir", str(target)], cwd=REPO,
                                capture_output=True, text=True)
        if result.returncode not in (0, 1):
            sys.exit(result.stdout[-3000:] + result.stderr[-3000:])
    seed = directory / "seed"
    seed.mkdir(parents=True, exist_ok=True)
    for name in ("trials.jsonl", "prompts.jsonl"):
        (seed / name).write_text("".join((d / name).read_text(encoding="utf-8")
                                         for d in (core, pitch)), encoding="utf-8")
    return seed


def synthetic_run(seed: Path, target: Path, trials: int) -> Path:
    """``seed``'s records, its pitch records repeated as new items until ``trials`` records."""
    lines = (seed / "trials.jsonl").read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines if line.strip()]
    prompt_lines = (seed / "prompts.jsonl").read_text(encoding="utf-8").splitlines()
    prompts = {}
    for line in prompt_lines:
        entry = json.loads(line)
        if "prompt_hash" in entry:
            prompts[entry["prompt_hash"]] = entry
    pitch = [r for r in records if r["family"] == "pitch"]
    out, extra_prompts = list(records), []
    copy = 0
    while len(out) < trials:
        copy += 1
        for record in pitch[: trials - len(out)]:
            new = dict(record)
            for key in ("item_id", "trial_id", "test_id"):
                new[key] = f"{record[key]}~{copy}"
            new["prompt_hash"] = f"{record['prompt_hash'][:56]}{copy:08d}"
            if record["prompt_hash"] in prompts:
                extra_prompts.append({**prompts[record["prompt_hash"]],
                                      "prompt_hash": new["prompt_hash"]})
            out.append(new)
    target.mkdir(parents=True)
    (target / "trials.jsonl").write_text(
        "".join(json.dumps(r, sort_keys=True) + "\n" for r in out), encoding="utf-8")
    (target / "prompts.jsonl").write_text(
        "\n".join(prompt_lines + [json.dumps(p, sort_keys=True) for p in extra_prompts]) + "\n",
        encoding="utf-8")
    return target


def build(run_dir: Path) -> tuple[float, float]:
    """Seconds to build the whole report, and of those the trials viewer's files alone."""
    from reports.builders import artifacts
    from reports.html.trials import write_trial_files
    from reports.tables import accuracy as tables

    started = time.perf_counter()
    df = tables.load_records(run_dir)
    artifacts.write_artifacts(df, run_dir, {"run_id": run_dir.name, "models": ["listener"]})
    total = time.perf_counter() - started
    started = time.perf_counter()
    write_trial_files(df, run_dir)
    return total, time.perf_counter() - started


def open_once(page: Path, profile: Path) -> dict:
    from tests_solvers.test_report_html import Browser, chromium_path

    browser = Browser(chromium_path(), profile, height=1200)
    try:
        started = time.perf_counter()
        browser.open(page.as_uri())
        load_s = time.perf_counter() - started
        while not browser.evaluate("document.documentElement.dataset.trialsReady"):
            time.sleep(0.01)
        timing = json.loads(str(browser.evaluate(
            "JSON.stringify({ready: Number(document.documentElement.dataset.trialsReady),"
            " load: performance.getEntriesByType('navigation')[0].loadEventEnd,"
            " count: document.getElementById('trial-count').textContent})")))
        clicks = json.loads(str(browser.evaluate(
            "(() => { let t = performance.now();"
            " document.querySelector('#table-1 a.cell').click();"
            " window.dispatchEvent(new HashChangeEvent('hashchange'));"
            " const cell = performance.now() - t; t = performance.now();"
            " document.querySelector('#trial-list tbody a').click();"
            " const trial = performance.now() - t;"
            " return JSON.stringify({cell, trial,"
            " listed: document.querySelectorAll('#trial-list tbody tr').length,"
            " audio: document.querySelectorAll('#trial-view audio').length}); })()")))
        problems = browser.problems()
    finally:
        browser.close()
    if problems:
        sys.exit("console problems: " + "; ".join(problems))
    return {"wall_load_s": load_s, "load_ms": timing["load"], "ready_ms": timing["ready"],
            "count": timing["count"], **clicks}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=18928)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed-run", type=Path, default=None)
    args = parser.parse_args()
    os.environ.setdefault("EARTEST_CACHE_DIR", str(REPO / ".cache" / "eartest"))
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        started = time.perf_counter()
        seed = seed_run(args.seed_run or base)
        print(f"seed run: {seed} ({time.perf_counter() - started:.0f} s)")
        run_dir = synthetic_run(seed, base / "run", args.trials)
        build_s, viewer_s = build(run_dir)
        data = run_dir / "report_files" / "trials.js"
        print(f"{args.trials} trials; report built in {build_s:.1f} s (the viewer's files "
              f"{viewer_s:.1f} s of it); trials.js "
              f"{data.stat().st_size / 1e6:.1f} MB, report.html "
              f"{(run_dir / 'report.html').stat().st_size / 1e3:.0f} kB")
        runs = [open_once(run_dir / "report.html", base / f"profile{i}")
                for i in range(args.repeats)]
        for run in runs:
            print(f"  load event {run['load_ms']:.0f} ms (wall {run['wall_load_s']:.2f} s), "
                  f"trials ready {run['ready_ms']:.0f} ms; cell click {run['cell']:.0f} ms "
                  f"({run['listed']} listed), open trial {run['trial']:.0f} ms "
                  f"({run['audio']} audio); {run['count']}")
        print(f"median: load event {statistics.median(r['load_ms'] for r in runs):.0f} ms, "
              f"trials ready {statistics.median(r['ready_ms'] for r in runs):.0f} ms, wall "
              f"{statistics.median(r['wall_load_s'] for r in runs):.2f} s")


if __name__ == "__main__":
    main()
