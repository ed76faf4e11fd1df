"""A deterministic split of trials into N shards of near-equal expected cost.

N jobs on a cluster each collect the same trials and must agree, without talking to each
other, on which job runs which trial. The split is a function of the (id, cost) pairs alone:
longest-processing-time first (Graham 1969) with ties broken by a stable hash of the id, so
every job computes the same assignment, each trial lands in exactly one shard, and no shard's
total cost exceeds another's by more than the largest single cost.
"""

from __future__ import annotations

import hashlib
import heapq
import re
from collections import Counter
from collections.abc import Sequence

_SHARD = re.compile(r"^\s*(\d+)\s*/\s*(\d+)\s*$")


def parse_shard(text: str) -> tuple[int, int]:
    """``"2/3"`` -> ``(2, 3)``; ``ValueError`` saying what is wrong otherwise."""
    match = _SHARD.match(text or "")
    if not match:
        raise ValueError(f"--shard must be K/N (e.g. 1/3), not {text!r}")
    index, count = int(match.group(1)), int(match.group(2))
    if count < 1 or not 1 <= index <= count:
        raise ValueError(f"--shard {text}: K must lie in 1..N and N be at least 1")
    return index, count


def stable_hash(trial_id: str) -> int:
    """The first 8 bytes of the id's SHA-256: the same on every machine and Python."""
    return int.from_bytes(hashlib.sha256(trial_id.encode("utf-8")).digest()[:8], "big")


def assign_shards(trials: Sequence[tuple[str, float]], shard_count: int) -> list[int]:
    """The shard (0-based) of each ``(trial_id, cost)``, in input order.

    Trials are placed most expensive first, each into the shard with the least cost so far
    (the lowest index on a tie). The order among equal costs is by stable hash of the id, so
    the result does not depend on the input order; duplicate ids are refused.
    """
    if shard_count < 1:
        raise ValueError("shard_count must be at least 1")
    ids = [trial_id for trial_id, _ in trials]
    if len(set(ids)) != len(ids):
        duplicate = next(i for i, n in Counter(ids).items() if n > 1)
        raise ValueError(f"trial id {duplicate!r} occurs twice")
    if any(not cost > 0 for _, cost in trials):
        raise ValueError("every trial's cost must be positive")
    order = sorted(range(len(trials)),
                   key=lambda i: (-trials[i][1], stable_hash(trials[i][0]), trials[i][0]))
    loads = [(0.0, shard) for shard in range(shard_count)]
    heapq.heapify(loads)
    assigned = [0] * len(trials)
    for index in order:
        load, shard = heapq.heappop(loads)
        assigned[index] = shard
        heapq.heappush(loads, (load + trials[index][1], shard))
    return assigned


def shard_costs(trials: Sequence[tuple[str, float]], assigned: Sequence[int],
                shard_count: int) -> list[float]:
    """Total cost per shard of an assignment."""
    totals = [0.0] * shard_count
    for (_, cost), shard in zip(trials, assigned, strict=True):
        totals[shard] += cost
    return totals


def selection_fingerprint(trial_ids: Sequence[str]) -> str:
    """A short hash of the whole selected set (order-free): shards of one split share it."""
    digest = hashlib.sha256("\n".join(sorted(trial_ids)).encode("utf-8")).hexdigest()
    return digest[:16]
