"""Which turns are new requests: answers produced during this run, each request counted once.

A turn is ``cached`` when it replays an answer an earlier run stored. Of the other turns, one
whose request this run had already sent (a LogicLM repair equal to an earlier round, a trial
run again by its test body after the prefetch asked it, in this process or another worker)
was read back from the response cache, not sent again. So the count of new requests is the
number of distinct requests among the turns that are not cached: a request is named by what
the response cache keys it by, less what all turns of one model share (backend, endpoint,
options outside the request), i.e. its request hash, repeat index and sample index.

Turns are mappings (records read back) or objects with the same attributes (``TurnRecord``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

Identity = tuple[str, int, int]  # request hash, repeat index, sample index


def _field(turn: Any, name: str, default: Any = None) -> Any:
    if isinstance(turn, dict):
        return turn.get(name, default)
    return getattr(turn, name, default)


def is_answer_of_this_run(turn: Any) -> bool:
    """Not a replay of an earlier run, and not an input refused before anything was sent."""
    return not _field(turn, "cached") and _field(turn, "finish_reason") != "unsupported"


def request_identity(turn: Any) -> Identity | None:
    """What names ``turn``'s request among one model's turns; None for a turn of a record
    written before turns carried their repeat index (it cannot be told from a repeat, so it
    counts alone, as it was counted when it was written)."""
    repeat_index = _field(turn, "repeat_index")
    if repeat_index is None:
        return None
    return (_field(turn, "request_hash"), repeat_index, _field(turn, "sample_index", 0))


def new_request_turns(turns: Iterable[Any], seen: set[Identity] | None = None) -> list[Any]:
    """The turns among ``turns`` that are new requests: this run's answers, the first turn of
    each request only. ``seen`` (identities counted already, updated in place) carries the
    count over several trials of one model, so a request two trials share counts once."""
    counted: set[Identity] = set() if seen is None else seen
    new = []
    for turn in turns:
        if not is_answer_of_this_run(turn):
            continue
        identity = request_identity(turn)
        if identity is not None:
            if identity in counted:
                continue
            counted.add(identity)
        new.append(turn)
    return new
