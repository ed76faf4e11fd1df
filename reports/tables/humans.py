"""Human listeners in the report: per-listener rows, a pooled ``human`` row, and each model
against the pool.

Runs of ``--model human:<listener>`` merged by ``python -m reports build`` hold one model per
listener. Each listener gets a row per task and modality (interval: a bootstrap over items);
the pooled ``human`` row counts every listener's trials, and its interval resamples whole
listeners (``solvers.cluster_stats.cluster_bootstrap_interval``), because one listener's
answers are not independent of each other. Each model is then compared with the pool on the
trials both answered, by the exact McNemar test of ``python -m reports compare``
(``reports.stats.inference.paired_comparison``); the pool's verdict on a trial is its listeners'
majority (a tie counts as wrong).
"""

from __future__ import annotations

import pandas as pd

from reports.stats.inference import p_text, paired_comparison
from reports.tables.cells import counted, excluded
from solvers.cluster_stats import cluster_bootstrap_interval

HUMAN = "human"
HUMAN_PREFIX = "human:"
CELL = ["task", "modality"]


def is_human(model: str) -> bool:
    return model == HUMAN or model.startswith(HUMAN_PREFIX)


def human_records(df: pd.DataFrame) -> pd.DataFrame:
    if df.empty or "model" not in df.columns:
        return df.iloc[0:0]
    return df[df["model"].map(lambda m: is_human(str(m)))]


def _interval_text(mean: float, low: float, high: float) -> str:
    if mean != mean:  # NaN: nothing counted
        return "n/a"
    return f"{100 * mean:.1f} [{100 * low:.1f}, {100 * high:.1f}]"


def listener_table(df: pd.DataFrame) -> pd.DataFrame:
    """Accuracy with a 95 % interval per listener, then pooled over listeners (clustered by
    listener), per task and modality. Empty when the records hold no human listener."""
    humans = human_records(df)
    rows = []
    for key, cell in humans.groupby(CELL, sort=True):
        kept = counted(cell)
        names = dict(zip(CELL, key, strict=True))
        for listener, own in kept.groupby("model", sort=True):
            right = own["correct"].astype(int).tolist()
            rows.append({"row": listener, **names, "listeners": 1, "n": len(own),
                         "accuracy % [95 % CI]": _interval_text(
                             *cluster_bootstrap_interval(right, [1] * len(right)))})
        by_listener = kept.groupby("model")["correct"].agg(["sum", "count"])
        rows.append({"row": f"{HUMAN} (pooled)", **names, "listeners": len(by_listener),
                     "n": int(by_listener["count"].sum()),
                     "accuracy % [95 % CI]": _interval_text(*cluster_bootstrap_interval(
                         by_listener["sum"].astype(int).tolist(),
                         by_listener["count"].astype(int).tolist()))})
    return pd.DataFrame(rows, columns=["row", *CELL, "listeners", "n", "accuracy % [95 % CI]"])


def pooled_verdicts(df: pd.DataFrame) -> pd.DataFrame:
    """One record per trial the listeners answered: model ``human``, right when most of the
    listeners whose answer counts were right; excluded when none counts."""
    humans = human_records(df)
    rows = []
    for trial_id, answers in humans.groupby("trial_id", sort=False):
        kept = answers[~excluded(answers)]
        first = answers.iloc[0]
        rows.append({"model": HUMAN, "trial_id": trial_id,
                     **{k: first[k] for k in ("task", "modality", "shot", "strategy")},
                     "correct": bool(len(kept)) and kept["correct"].sum() * 2 > len(kept),
                     "error_class": None if len(kept) else first["error_class"]})
    return pd.DataFrame(rows)


def pool_comparison(df: pd.DataFrame) -> pd.DataFrame:
    """Each model against the pooled listeners on their shared trials (exact McNemar);
    empty without both a listener and a model."""
    pool = pooled_verdicts(df)
    models = df[~df["model"].map(lambda m: is_human(str(m)))] if len(df) else df
    if pool.empty or models.empty:
        return pd.DataFrame()
    table = paired_comparison(models, pool)
    table = table[table["n_pairs"] > 0]
    return pd.DataFrame({
        "model": table["model_a"], "task": table["task"], "modality": table["modality"],
        "shot": table["shot"], "strategy": table["strategy"], "n pairs": table["n_pairs"],
        "model %": (100 * table["accuracy_a"]).round(1),
        "listeners %": (100 * table["accuracy_b"]).round(1),
        "listeners - model (pp)": table["delta"].round(1),
        "p (McNemar)": table["p_value"].map(p_text),
    }).reset_index(drop=True)


LISTENER_CAPTION = (
    "Human listeners (--model human:<listener>): accuracy in percent with a 95 % bootstrap "
    "interval, per listener (resampling items) and pooled (resampling listeners, since one "
    "listener's answers hang together). 'Can't tell' counts as a wrong answer.")
POOL_CAPTION = (
    "Each model against the pooled listeners on the trials both answered: the pool's verdict is "
    "its listeners' majority (a tie is wrong); exact two-sided McNemar test on the paired "
    "trials, as `python -m reports compare`.")


def human_report_tables(df: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """The report's human sections (none when no listener took part)."""
    listeners = listener_table(df)
    if listeners.empty:
        return {}
    listeners.attrs["caption"] = LISTENER_CAPTION
    tables = {"Human listeners": listeners}
    versus = pool_comparison(df)
    if not versus.empty:
        versus.attrs["caption"] = POOL_CAPTION
        tables["Models against the pooled listeners"] = versus
    return tables
