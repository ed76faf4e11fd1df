"""Is a set of runs whole? Checked by ``python -m reports build`` before it merges.

Each input run must be complete: every trial it selected has a record. A run whose
``summary.json`` says ``complete: false`` (interrupted), or with no summary but a saved
identity naming more selected trials than it recorded (killed), is incomplete: the build is
refused, naming it, unless ``--allow-incomplete`` (then the merged run is marked incomplete,
with the INCOMPLETE banner). A run with neither (records alone) cannot tell; the merged run then
carries no ``complete`` flag.

Each run made with ``--shard K/N`` records K, N and a fingerprint of the selection the split
was made over (``fixtures.plugins.shard``). Runs that share a fingerprint and N are one split; a
split is whole when K = 1..N each occur once. A missing shard would leave its trials out of every
table and a doubled one would be refused later as duplicate trials; both are named here, with
the directories, before any work.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

from reports.run.resume import OPTIONS_FILE, RECORDS_FILE, recorded_test_ids


def shard_set_problem(headers: list[dict], run_dirs: list[Path]) -> str | None:
    """Why the shard runs among ``run_dirs`` (with their summary headers) do not make whole
    splits, or None (runs made without ``--shard`` are not checked here)."""
    splits: dict[tuple[str, int], dict[int, list[Path]]] = defaultdict(lambda: defaultdict(list))
    for header, run_dir in zip(headers, run_dirs, strict=True):
        shard = header.get("shard")
        if not shard:
            continue
        key = (str(shard.get("selection", "?")), int(shard["count"]))
        splits[key][int(shard["index"])].append(run_dir)
    problems = []
    for (selection, count), parts in sorted(splits.items()):
        given = ", ".join(f"{k}/{count} ({parts[k][0]})" for k in sorted(parts))
        for index in sorted(parts):
            if len(parts[index]) > 1:
                places = ", ".join(str(p) for p in parts[index])
                problems.append(f"shard {index}/{count} of selection {selection} is given "
                                f"{len(parts[index])} times: {places}")
        missing = [k for k in range(1, count + 1) if k not in parts]
        if missing:
            names = ", ".join(f"{k}/{count}" for k in missing)
            problems.append(f"shard {names} of selection {selection} is missing (given: {given})"
                            + _unfinished_hint(headers, run_dirs))
    return "; ".join(problems) or None


def _unfinished_hint(headers: list[dict], run_dirs: list[Path]) -> str:
    """Runs with no summary.json may be the missing shards (a job that died)."""
    unfinished = [str(d) for h, d in zip(headers, run_dirs, strict=True)
                  if h.get("note") == "no summary.json"]
    return f"; without a summary.json: {', '.join(unfinished)}" if unfinished else ""


def completeness(header: dict, run_dir: Path) -> tuple[bool | None, int | None, int | None]:
    """(complete, trials recorded, trials expected) of one input run; None when unknown."""
    folder = run_dir if run_dir.is_dir() else run_dir.parent
    if "complete" in header:
        return header.get("complete"), header.get("trials_recorded"), \
            header.get("trials_expected")
    recorded = len(set(recorded_test_ids(folder))) if (folder / RECORDS_FILE).exists() else 0
    try:
        saved = json.loads((folder / OPTIONS_FILE).read_text(encoding="utf-8"))
        expected = saved["identity"]["selection"]["trials"]
    except (OSError, ValueError, KeyError, TypeError):
        return None, recorded, None
    return recorded >= expected, recorded, expected


def incomplete_runs(headers: list[dict], run_dirs: list[Path]) -> list[str]:
    """Each input run that is known to be incomplete, as ``DIR (M of N trials recorded)``."""
    found = []
    for header, run_dir in zip(headers, run_dirs, strict=True):
        complete, recorded, expected = completeness(header, run_dir)
        if complete is False:
            found.append(f"{run_dir} ({recorded} of {expected} trials recorded)")
    return found


def merged_completeness(headers: list[dict], run_dirs: list[Path]) -> dict:
    """The merged run's ``complete`` and counts: complete only when every input is known
    complete; false when one is known incomplete; no flag when some cannot tell."""
    states = [completeness(h, d) for h, d in zip(headers, run_dirs, strict=True)]
    flags = {complete for complete, _, _ in states}
    if False in flags:
        complete: bool | None = False
    else:
        complete = True if flags == {True} else None
    if complete is None:
        return {}
    return {"complete": complete,
            "trials_recorded": sum(recorded or 0 for _, recorded, _ in states),
            "trials_expected": sum(expected or 0 for _, _, expected in states)}
