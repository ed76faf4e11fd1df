"""Audio-attention controls: does accuracy drop when the audio cannot hold the answer?

A run with ``--control`` holds, next to each real audio trial, control trials on the same item
whose audio was replaced by noise, another item's audio or silence (``fixtures.running.controls``).
Each control trial pairs with its real trial (same model, same item, same prompt text), so the
comparison is paired: per cell, ``b`` counts items right with the real audio and wrong under
the control, ``c`` the reverse, and under "the audio does not matter" each discordant pair goes
either way with probability 1/2. The drop is tested one-sided (exact McNemar: P(X >= b) for
X ~ Binomial(b + c, 1/2)) at :data:`ALPHA`, uncorrected for the number of cells. A cell whose
drop is not significant is flagged as answered from language priors: the model did as well
without hearing the stimulus.

Control records never enter the ordinary accuracy tables (:func:`real_records` keeps them out);
they are reported only here. A cell is (model, task, modality, shot, strategy) plus the
notation for the pitch experiments; MCQ repeats are pooled in their cell. Pairs where either
side's output was excluded from the denominator (``solvers.metrics.DENOMINATOR_EXCLUDED``) are
left out and counted.
"""

from __future__ import annotations

import math

import pandas as pd

from reports.tables.accuracy import CELL_KEYS, CHANCE, markdown_table, order_rank
from reports.tables.cells import excluded
from reports.tables.terminal import REAL, percent_text
from solvers.metrics import exact_binomial_sf

ALPHA = 0.05
CONTROL_KEYS = (*CELL_KEYS, "notation", "control")
COLUMNS = (
    *CONTROL_KEYS, "n_pairs", "n_excluded", "n_unpaired", "real_correct", "control_correct",
    "real_accuracy", "control_accuracy", "drop_points", "b", "c", "p_drop", "drop_significant",
    "chance", "p_control_above_chance", "verdict",
)
LISTENS = "listens"
PRIORS = "language priors"
MAX_FLAGGED_LINES = 10


def control_of(df: pd.DataFrame) -> pd.Series:
    """Each record's control, ``"real"`` for records made before controls existed."""
    if "control" not in df.columns:
        return pd.Series(REAL, index=df.index)
    return df["control"].where(df["control"].notna(), REAL)


def real_records(df: pd.DataFrame) -> pd.DataFrame:
    """The records of real trials: what every table but the controls table is built from."""
    return df[control_of(df) == REAL]


def _verdicts(frame: pd.DataFrame) -> pd.Series:
    """Each record's verdict: True/False, or None when excluded from the denominator."""
    right = frame["correct"].map(lambda v: False if pd.isna(v) else bool(v))
    return right.where(~excluded(frame), None)


def paired_controls(df: pd.DataFrame) -> pd.DataFrame:
    """One row per control record: its cell, control, and both verdicts (None = excluded or
    missing). Raises ValueError if the records lack the fields pairing needs."""
    missing = [c for c in ("model", "trial_id", "correct", "error_class") if c not in df.columns]
    if missing:
        raise ValueError(f"trial records lack column(s) {', '.join(missing)}")
    controls = control_of(df)
    if (controls == REAL).all():
        return pd.DataFrame(columns=[*CONTROL_KEYS, "real", "controlled"])
    frame = df.assign(control=controls, verdict=_verdicts(df))
    if "notation" not in frame.columns:
        frame["notation"] = ""
    frame["notation"] = frame["notation"].fillna("")
    real = frame[frame["control"] == REAL]
    real_verdict = dict(zip(zip(real["model"], real["trial_id"], strict=True),
                            real["verdict"], strict=True))
    real_chance = dict(zip(zip(real["model"], real["trial_id"], strict=True),
                           _chance(real), strict=True))
    rows = []
    for record in frame[frame["control"] != REAL].to_dict("records"):
        suffix = f"/control-{record['control']}"
        real_id = record["trial_id"].removesuffix(suffix)
        key = (record["model"], real_id)
        rows.append({
            **{k: record[k] for k in CONTROL_KEYS},
            "paired": key in real_verdict,
            "real": real_verdict.get(key),
            "controlled": record["verdict"],
            "chance": real_chance.get(key, math.nan),
        })
    return pd.DataFrame(rows)


def _chance(records: pd.DataFrame) -> pd.Series:
    """Each record's chance of a uniform guess: the core tasks' analytic level, else the
    record's own ``chance_probability`` (pitch, MCQ)."""
    own = (records["chance_probability"] if "chance_probability" in records.columns
           else pd.Series(math.nan, index=records.index))
    core = records["task"].map(CHANCE)
    return own.where(own.notna(), core).astype(float)


def control_summary(df: pd.DataFrame) -> pd.DataFrame:
    """Per cell and control: real vs control accuracy on the paired items, the drop, its
    one-sided exact test, and the verdict. Empty when the run holds no control trials."""
    pairs = paired_controls(df)
    if pairs.empty:
        return pd.DataFrame(columns=list(COLUMNS))
    rows = [{**dict(zip(CONTROL_KEYS, key, strict=True)), **_tally(cell)}
            for key, cell in pairs.groupby(list(CONTROL_KEYS), sort=False)]
    table = pd.DataFrame(rows, columns=list(COLUMNS))
    return table.sort_values(list(CONTROL_KEYS), key=order_rank, kind="stable", ignore_index=True)


def _tally(cell: pd.DataFrame) -> dict:
    usable = cell[cell["paired"] & cell["real"].notna() & cell["controlled"].notna()]
    real = usable["real"].astype(bool)
    controlled = usable["controlled"].astype(bool)
    n = len(usable)
    b, c = int((real & ~controlled).sum()), int((~real & controlled).sum())
    p_drop = exact_binomial_sf(b, b + c) if n else math.nan
    chance = float(usable["chance"].mean()) if n else math.nan
    control_correct = int(controlled.sum())
    above = (exact_binomial_sf(control_correct, n, chance)
             if n and 0.0 <= chance <= 1.0 else math.nan)
    significant = bool(p_drop < ALPHA) if n else False
    return {
        "n_pairs": n,
        "n_excluded": int((cell["paired"] & ~cell.index.isin(usable.index)).sum()),
        "n_unpaired": int((~cell["paired"]).sum()),
        "real_correct": int(real.sum()),
        "control_correct": control_correct,
        "real_accuracy": real.mean() if n else math.nan,
        "control_accuracy": controlled.mean() if n else math.nan,
        "drop_points": 100.0 * (b - c) / n if n else math.nan,
        "b": b, "c": c, "p_drop": p_drop, "drop_significant": significant,
        "chance": chance, "p_control_above_chance": above,
        "verdict": (LISTENS if significant else PRIORS) if n else "no pairs",
    }


def _p(value: float) -> str:
    return "" if value != value else ("<.001" if value < 0.001 else f"{value:.3f}")


def controls_table(summary: pd.DataFrame) -> pd.DataFrame:
    """The summary as readable strings (percent, points, p-values) for Markdown and HTML."""
    if summary.empty:
        return pd.DataFrame()
    keys = [k for k in CONTROL_KEYS if k != "notation" or summary["notation"].astype(bool).any()]
    rows = []
    for r in summary.itertuples(index=False):
        rows.append({
            **{k: getattr(r, k) for k in keys},
            "n": int(r.n_pairs),
            "real %": percent_text(r.real_accuracy),
            "control %": percent_text(r.control_accuracy),
            "drop (points)": "" if r.drop_points != r.drop_points else f"{r.drop_points:+.1f}",
            "b / c": f"{r.b} / {r.c}",
            "p (drop)": _p(r.p_drop),
            "chance %": percent_text(r.chance),
            "p (control > chance)": _p(r.p_control_above_chance),
            "verdict": r.verdict,
        })
    return pd.DataFrame(rows).set_index(keys)


CAPTION = (
    "Audio-attention controls: the same items asked with their audio replaced by equally loud "
    "white noise, another item's audio (mismatched) or silence. n counts the paired items; "
    "b = right with the real audio and wrong under the control, c = the reverse; p (drop) is "
    f"an exact one-sided McNemar test, significant below {ALPHA} (uncorrected for the number "
    "of cells); p (control > chance) is an exact binomial test of the control accuracy against "
    "the mean chance level. 'language priors': accuracy did not drop significantly without the "
    "audio, so the answers do not come from hearing it."
)


def controls_markdown(summary: pd.DataFrame) -> str:
    """The controls table as GitHub Markdown, with its caption; empty without control trials."""
    table = controls_table(summary)
    if table.empty:
        return ""
    flat = table.reset_index()
    lines = [CAPTION, "", *markdown_table(flat.columns, flat.values)]
    return "\n".join(lines) + "\n"


def terminal_lines(summary: pd.DataFrame) -> list[str]:
    """A few lines for the terminal: per model and control, the pooled paired accuracies and
    how many cells dropped significantly; then the flagged cells (a bounded number)."""
    if summary.empty:
        return []
    lines = [f"eartest controls (paired, one-sided exact McNemar at {ALPHA}; controls.md):"]
    for (model, control), group in summary.groupby(["model", "control"], sort=False):
        n = int(group["n_pairs"].sum())
        real = group["real_correct"].sum() / n if n else math.nan
        controlled = group["control_correct"].sum() / n if n else math.nan
        b, c = int(group["b"].sum()), int(group["c"].sum())
        p = exact_binomial_sf(b, b + c) if n else math.nan
        dropped = int(group["drop_significant"].sum())
        lines.append(
            f"  {model} {control}: real {percent_text(real)}% vs control "
            f"{percent_text(controlled)}% on {n} pairs (p {_p(p)}); "
            f"{dropped}/{len(group)} cells drop significantly"
        )
    flagged = summary[summary["verdict"] == PRIORS]
    for r in flagged.head(MAX_FLAGGED_LINES).itertuples(index=False):
        cell = "/".join(str(v) for v in (r.task, r.modality, r.shot, r.strategy, r.notation) if v)
        lines.append(
            f"  no significant drop ({PRIORS}): {r.model} {cell} {r.control}: "
            f"{percent_text(r.real_accuracy)}% -> {percent_text(r.control_accuracy)}% "
            f"(n={r.n_pairs})"
        )
    if len(flagged) > MAX_FLAGGED_LINES:
        lines.append(f"  ... and {len(flagged) - MAX_FLAGGED_LINES} more cells in controls.md")
    return lines
