"""The end-of-run terminal summary: its text, and its counts from plain records without pandas.

Every run prints the same few lines at the end: requests and cost per model, accuracy per
model × task × modality pooled over shots and strategies, and a warning when the run broke.
A run with a report, a gate, a resume or records that need the report's tables (controls,
``--samples``, an answer extractor) counts them from its DataFrame
(:mod:`reports.tables.accuracy`); a run with none of these counts the records it kept in
memory here (:func:`summary_lines`). Importing pandas and reading the records back cost more
than the rest of a cached ``--no-report`` run's wrap-up (issue 33). Both print through the
same formatting below, so the lines are the same either way.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from solvers.metrics import DENOMINATOR_EXCLUDED
from solvers.new_requests import new_request_turns

TASK_ORDER = ("syncopation", "transposition", "chord")
MODALITY_ORDER = ("audio", "midi", "score", "none")
REAL = "real"  # a record's ``control`` when it is a real trial, not an audio-attention control
PooledRow = tuple[tuple[str, str, str], Mapping]  # (model, task, modality), its numbers


def percent_text(share: float, missing: str = "") -> str:
    """A share as a table shows it: ``0.4567`` -> ``"45.7"``; NaN -> ``missing``."""
    return missing if share != share else f"{100 * share:.1f}"


def percent_sign(share: float) -> str:
    text = percent_text(share, "n/a")
    return text if text == "n/a" else f"{text}%"


def ordered(values: Iterable[str], canonical: Sequence[str], keep_canonical: bool) -> list[str]:
    """``values`` in the paper's order (``canonical``) first, anything else alphabetically."""
    present = set(values)
    head = [v for v in canonical if keep_canonical or v in present]
    return head + sorted(present - set(canonical))


def table_lines(rows: Sequence[PooledRow], assisted: bool, sampled: bool) -> list[str]:
    """Accuracy per model and task, audio vs MIDI, pooled over shots and strategies; with an
    answer extractor the assisted accuracy, with ``--samples K`` the mean and agreement."""
    names = [(str(m), str(t)) for (m, t, _), _ in rows]  # columns as wide as the longest
    model_w = max([16, *(len(m) for m, _ in names)])  # name (syncopation@live, hf:<repo>)
    task_w = max([14, *(len(t) for _, t in names)])
    lines = [f"{'model':<{model_w}} {'task':<{task_w}} {'modality':<8} {'accuracy':>9} "
             f"{'n':>5} {'excl':>5}"
             + (f" {'assisted':>9}" if assisted else "")
             + (f" {'mean':>9} {'agree':>6}" if sampled else "")]
    for (model, task, modality), row in rows:
        lines.append(
            f"{model:<{model_w}} {task:<{task_w}} {modality:<8} "
            f"{percent_sign(row['accuracy']):>9} "
            f"{int(row['n']):>5} {int(row['n_excluded']):>5}"
            + (f" {percent_sign(row['assisted_accuracy']):>9}" if assisted else "")
            + (f" {percent_sign(row['mean_accuracy']):>9} {row['agreement']:>6.2f}" if sampled
               else "")
        )
    return lines


def usage_lines(usage: dict[str, dict]) -> list[str]:
    """The end-of-run account per model: new requests and their cost, replays apart."""
    lines = []
    for model, entry in usage.items():
        tokens = entry["input_tokens"] + entry["output_tokens"]
        if not tokens and not entry["cached_requests"]:
            continue  # an offline model: nothing was asked of anyone
        shown = _cost_text(entry)
        lines.append(f"eartest: {model}: {entry['new_requests']} new requests ({shown}), "
                     f"{entry['cached_requests']} answered from the cache (earlier runs' "
                     "answers and repeats of a request already sent)")
    return lines


def _cost_text(entry: dict) -> str:
    """What the new requests cost: billed as the provider said, else the list-price estimate,
    each labelled (and both when the provider billed only some of them)."""
    cost, billed = entry.get("new_cost_usd"), entry.get("billed_cost_usd")
    estimate = "no list price" if cost is None else f"estimated ${cost:.4f} at list prices"
    if billed is None:
        return estimate
    counted = entry.get("billed_requests", 0)
    if counted >= entry["new_requests"]:
        return f"billed ${billed:.4f}"
    return f"billed ${billed:.4f} for {counted} of them; {estimate} for all"


def answered(turns: list[dict]) -> int:
    """Turns that got an answer or an error from somewhere (not inputs refused unsent)."""
    return sum(1 for turn in turns if turn.get("finish_reason") != "unsupported")


def billed(new: list[dict]) -> dict:
    """The run's cost as providers billed it (``billed_cost_usd``, None when no reply said)
    and how many of the ``new`` requests said it (``billed_requests``)."""
    said = [t["cost_usd"] for t in new if t.get("cost_usd") is not None]
    return {"billed_cost_usd": round(float(sum(said)), 10) if said else None,
            "billed_requests": len(said)}


# --- Counting plain records ------------------------------------------------------------------


def is_plain(record: Mapping) -> bool:
    """Whether the counts below cover ``record``: a real trial (no control), one sample, no
    answer extractor. A run with any other record counts through its DataFrame."""
    return record.get("control", REAL) == REAL and record.get("samples") is None \
        and record.get("extractor_model") is None


def pooled_rows(records: Iterable[Mapping]) -> list[PooledRow]:
    """Per model × task × modality (a live rendition is its own task, ``chord@live``): trials,
    those left out of the denominator, the counted ones and the right ones, and accuracy."""
    counts: dict[tuple[str, str, str], list[int]] = {}
    for record in records:
        rendition = record.get("rendition")
        task = record["task"] if rendition is None else f"{record['task']}@{rendition}"
        cell = counts.setdefault((record["model"], task, record["modality"]), [0, 0, 0])
        cell[0] += 1
        if record["error_class"] in DENOMINATOR_EXCLUDED:
            cell[1] += 1
        elif record["correct"]:
            cell[2] += 1
    rank = [{value: i for i, value in enumerate(ordered({key[axis] for key in counts},
                                                        canonical, True))}
            for axis, canonical in enumerate(((), TASK_ORDER, MODALITY_ORDER))]
    rows = []  # models by name, tasks and modalities in the paper's order (cell_summary's)
    for key in sorted(counts, key=lambda k: tuple(rank[axis][v] for axis, v in enumerate(k))):
        n_trials, n_excluded, correct = counts[key]
        n = n_trials - n_excluded
        rows.append((key, {"n_trials": n_trials, "n_excluded": n_excluded, "n": n,
                           "correct": correct, "accuracy": correct / n if n else float("nan")}))
    return rows


def usage_of(records: Iterable[Mapping], offline: set[str]) -> dict[str, dict]:
    """Per model that asks a server (not in ``offline``), in name order: what
    :func:`usage_lines` shows of its requests and cost."""
    by_model: dict[str, list[Mapping]] = {}
    for record in records:
        if record["model"] not in offline:
            by_model.setdefault(record["model"], []).append(record)
    usage = {}
    for model in sorted(by_model):
        group = by_model[model]
        turns = [turn for record in group for turn in record.get("turns") or ()]
        new = new_request_turns(turns)  # each request this run sent once, across trials
        new_costs = [r["new_cost_usd"] for r in group if r.get("new_cost_usd") is not None]
        usage[model] = {
            "cached_requests": answered(turns) - len(new), "new_requests": len(new),
            "new_cost_usd": round(float(sum(new_costs)), 6) if new_costs else None,
            "input_tokens": sum(r.get("input_tokens") or 0 for r in group),
            "output_tokens": sum(r.get("output_tokens") or 0 for r in group),
            **billed(new),
        }
    return usage


def summary_lines(records: Sequence[Mapping], offline: set[str]) -> list[str]:
    """The terminal's lines for plain ``records`` (:func:`is_plain`): requests and cost per
    model that asks a server, then the pooled accuracy table."""
    return usage_lines(usage_of(records, offline)) + table_lines(pooled_rows(records),
                                                                 False, False)

