"""Is a set of shard runs whole? Checked by ``python -m reports build`` before it merges.

Each run made with ``--shard K/N`` records K, N and a fingerprint of the selection the split
was made over (``fixtures.shard``). Runs that share a fingerprint and N are one split; a split
is whole when K = 1..N each occur once. A missing shard would leave its trials out of every
table and a doubled one would be refused later as duplicate trials; both are named here, with
the directories, before any work.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path


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
