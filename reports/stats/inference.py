"""Inferential statistics over trial records: per-task GLMMs and paired run comparisons.

Two questions come up once accuracies are tabulated. *Does modality matter, and differently per
model?* -- the paper answers it with one logistic mixed model per task (:func:`glmm_by_task`).
*Did this run get better or worse than that one on the same trials?* -- a per-cell exact
McNemar test on the paired trials answers it (:func:`paired_comparison`). Both apply the one
denominator policy of :mod:`solvers.metrics`: trials whose error class is in
:data:`~solvers.metrics.DENOMINATOR_EXCLUDED` say nothing about hearing and are left out, but
counted.

statsmodels is imported only inside :func:`glmm_by_task`, so the paired comparison (and
``python -m reports compare``) works without it.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterable, Sequence
from itertools import product

import numpy as np
import pandas as pd

from reports.stats.sampled import every_sample
from reports.tables.accuracy import CANONICAL_ORDER, TASK_ORDER
from reports.tables.cells import counted
from reports.tables.terminal import percent_text
from solvers.metrics import DENOMINATOR_EXCLUDED, mcnemar_exact

GLMM_TERMS = ("model", "modality", "model:modality")
GLMM_COLUMNS = (
    "task", "term", "chi2", "df", "p_value", "n_trials", "stimulus_sd", "method", "note",
)
FE_PRIOR_SD = 10.0
"""Prior SD of each fixed effect (logit scale): wide enough to leave real effects unshrunk."""
VC_PRIOR_SD = 1.0
"""Prior SD of log(stimulus SD), statsmodels' default."""

PAIR_KEYS = ("task", "modality", "shot", "strategy")
PAIRED_COLUMNS = (
    "model_a", "model_b", *PAIR_KEYS, "n_pairs", "n_excluded", "n_unpaired",
    "accuracy_a", "accuracy_b", "delta", "b", "c", "p_value",
)
ALL = "all"


# --- Per-task GLMM -----------------------------------------------------------------------------


def glmm_by_task(df: pd.DataFrame) -> pd.DataFrame | None:
    """Wald χ² tests of ``correct ~ model * modality + (1 | stimulus)``, one GLMM per task.

    Mirrors the paper's analysis (lme4 ``glmer`` + ``car::Anova(type = 3)``): a logistic mixed
    model per task over the trials counted in the denominator, pooled over shot and strategy,
    with a random intercept per stimulus (``item_id``) because the same stimulus is heard by
    every model in every modality. With ``--samples K`` every sample is a row: the random
    intercept per stimulus already ties an item's samples together.

    Factors use sum-to-zero (effects) coding, so each main effect is tested averaged over the
    other factor's levels and the tests are Type-III-like; with treatment coding the "main
    effects" of a Type III test would be simple effects at the reference level. Each term's
    Wald χ² is the joint test that all its coefficients are zero, ``b' V⁻¹ b`` with ``V`` the
    coefficients' covariance block, on as many degrees of freedom as coefficients.

    Method: statsmodels' ``BinomialBayesMixedGLM.fit_vb`` (variational Bayes) estimates the
    stimulus SD; mean-field VB underestimates the fixed effects' uncertainty and drops their
    correlations (needed for multi-df terms), so the fixed effects and stimulus intercepts are
    then re-solved at that SD to their joint mode and ``V`` is the fixed-effect block of the
    inverse Hessian there -- the Laplace covariance ``glmer`` reports at its variance
    estimate. The fixed effects carry a flat-ish N(0, 10²) prior that only keeps the
    optimisation finite.

    Untestable data never yields numbers: when a (model, modality) cell is all correct or all
    wrong (complete separation -- the MLE is infinite and Wald tests are meaningless), a cell
    is empty, or a task has one model, the rows carry ``p_value`` NaN and a ``note``. With one
    modality only the model term is fitted; the modality rows say why they are missing.

    Returns
    -------
    pandas.DataFrame or None
        Columns :data:`GLMM_COLUMNS`, three rows per task (:data:`GLMM_TERMS`); None when the
        records hold fewer than two models.
    """
    _require(df, ("model", "task", "modality", "item_id", "correct", "error_class"))
    if df["model"].nunique() < 2:
        return None
    kept = counted(every_sample(df))  # --samples: every sample, tied by (1 | stimulus)
    rows: list[dict] = []
    for task in _in_order(df["task"], TASK_ORDER):
        rows += _task_glmm(task, kept[kept["task"] == task])
    table = pd.DataFrame(rows, columns=list(GLMM_COLUMNS))
    table["df"] = table["df"].astype("Int64")
    return table


def _task_glmm(task: str, data: pd.DataFrame) -> list[dict]:
    import statsmodels

    method = f"statsmodels {statsmodels.__version__} BinomialBayesMixedGLM: VB SD, Laplace Wald"
    models = _in_order(data["model"], ())
    modalities = _in_order(data["modality"], CANONICAL_ORDER["modality"])
    k_model, k_modality = len(models) - 1, len(modalities) - 1
    dfs = {"model": k_model, "modality": k_modality, "model:modality": k_model * k_modality}
    notes: dict[str, str] = {}
    if len(models) < 2:
        which = models[0] if models else "none"
        notes = dict.fromkeys(GLMM_TERMS, f"fewer than two models with counted trials ({which})")
    else:
        if len(modalities) < 2:
            only = f"only one modality ({', '.join(modalities)}): not estimable"
            notes = {"modality": only, "model:modality": only}
        problems = _degenerate_cells(data, models, modalities)
        if problems:
            notes = {**dict.fromkeys(GLMM_TERMS, "; ".join(problems)), **notes}
    fitted: dict[str, tuple[float, float]] = {}
    stimulus_sd = math.nan
    to_fit = [term for term in GLMM_TERMS if term not in notes]
    if to_fit:
        fitted, stimulus_sd, warning = _fit_glmm(data, with_modality=len(to_fit) > 1)
        notes.update(dict.fromkeys(to_fit, warning) if warning else {})
    return [
        {
            "task": task, "term": term,
            "chi2": fitted.get(term, (math.nan, math.nan))[0],
            "df": dfs[term] if dfs[term] > 0 else pd.NA,
            "p_value": fitted.get(term, (math.nan, math.nan))[1],
            "n_trials": len(data), "stimulus_sd": stimulus_sd, "method": method,
            "note": notes.get(term, ""),
        }
        for term in GLMM_TERMS
    ]


def _degenerate_cells(data: pd.DataFrame, models: list[str], modalities: list[str]) -> list[str]:
    """Cells that make a term untestable: empty, or separated (all correct / all wrong)."""
    correct = _as_bool(data["correct"])
    counts = correct.groupby([data["model"], data["modality"]]).agg(["size", "sum"])
    problems = []
    for model, modality in product(models, modalities):
        if (model, modality) not in counts.index:
            problems.append(f"empty cell: {model}/{modality} has no counted trials")
            continue
        n, k = (int(v) for v in counts.loc[(model, modality)])
        if k in (0, n):
            verdict = "correct" if k == n else "wrong"
            problems.append(f"separation: {model}/{modality} is all {verdict} ({k}/{n})")
    return problems


def _fit_glmm(
    data: pd.DataFrame, with_modality: bool
) -> tuple[dict[str, tuple[float, float]], float, str]:
    """Fit one task; returns {term: (chi2, p)}, the stimulus SD, and a warning ("" if none)."""
    from scipy import optimize, sparse
    from scipy.stats import chi2 as chi2_dist
    from statsmodels.genmod.bayes_mixed_glm import BinomialBayesMixedGLM
    from statsmodels.tools.sm_exceptions import ConvergenceWarning

    x, columns = _effects_design(data, with_modality)
    stimuli = pd.Categorical(data["item_id"].astype(str))
    n, k, q = len(data), x.shape[1], len(stimuli.categories)
    z = sparse.csr_matrix((np.ones(n), (np.arange(n), stimuli.codes)), shape=(n, q))
    y = _as_bool(data["correct"]).to_numpy(dtype=float)
    model = BinomialBayesMixedGLM(
        y, x, z, np.zeros(q, dtype=int), vcp_p=VC_PRIOR_SD, fe_p=FE_PRIOR_SD
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        vb = model.fit_vb(rng=0)
    unconverged = any(issubclass(w.category, ConvergenceWarning) for w in caught)
    warning = "variational fit did not converge; the stimulus SD may be off" if unconverged else ""
    log_sd = float(vb.params[k])
    sd = math.exp(log_sd)

    # Joint mode of (fixed effects, stimulus intercepts) at the VB stimulus SD. The problem is
    # convex, and the Hessian is exact for the logit link: [X Z]' W [X Z] + prior precision.
    xz = np.hstack([x, z.toarray()])
    precision = np.r_[np.full(k, FE_PRIOR_SD**-2), np.full(q, sd**-2)]
    free = np.r_[np.arange(k), np.arange(k + 1, k + 1 + q)]

    def full(theta: np.ndarray) -> np.ndarray:
        return np.insert(theta, k, log_sd)

    def hessian(theta: np.ndarray) -> np.ndarray:
        mu = 1.0 / (1.0 + np.exp(-xz @ theta))
        return (xz * (mu * (1.0 - mu))[:, None]).T @ xz + np.diag(precision)

    mode = optimize.minimize(
        lambda t: -model.logposterior(full(t)), vb.params[free],
        jac=lambda t: -model.logposterior_grad(full(t))[free], hess=hessian,
        method="trust-exact",
    )
    if not mode.success and np.max(np.abs(mode.jac)) > 1e-4:
        return {}, sd, "fit failed: the mode search did not converge"
    cov = np.linalg.inv(hessian(mode.x))[:k, :k]
    beta = mode.x[:k]
    fitted = {}
    for term, cols in columns.items():
        b, v = beta[cols], cov[np.ix_(cols, cols)]
        chi2 = float(b @ np.linalg.solve(v, b))
        fitted[term] = (chi2, float(chi2_dist.sf(chi2, len(cols))))
    return fitted, sd, warning


def _effects_design(
    data: pd.DataFrame, with_modality: bool
) -> tuple[np.ndarray, dict[str, list[int]]]:
    """Intercept plus sum-to-zero coded model, modality and interaction columns, per term."""
    model = _sum_coded(data["model"])
    blocks = {"model": model}
    if with_modality:
        modality = _sum_coded(data["modality"])
        blocks["modality"] = modality
        blocks["model:modality"] = np.einsum("ni,nj->nij", model, modality).reshape(len(data), -1)
    columns, start = {}, 1
    for term, block in blocks.items():
        columns[term] = list(range(start, start + block.shape[1]))
        start += block.shape[1]
    return np.hstack([np.ones((len(data), 1)), *blocks.values()]), columns


def _sum_coded(values: pd.Series) -> np.ndarray:
    """k-1 columns: +1 for level j, -1 for the last level, 0 otherwise (sums to zero)."""
    codes = pd.Categorical(values.astype(str)).codes
    last = codes.max()
    return (codes[:, None] == np.arange(last)).astype(float) - (codes == last)[:, None]


# --- Paired comparison of two runs -------------------------------------------------------------


def paired_comparison(df_a: pd.DataFrame, df_b: pd.DataFrame) -> pd.DataFrame:
    """Per-cell paired accuracy change from run A to run B, with exact McNemar p-values.

    Both runs answer the same trials, so pairing by ``trial_id`` removes the item-to-item
    variation that an unpaired test would have to absorb; only trials that flipped (``b``: A
    right, B wrong; ``c``: A wrong, B right) carry evidence. When both runs hold the same
    models, trials pair per model; otherwise every model of A is paired with every model of B.

    A row per (model_a, model_b, task, modality, shot, strategy) cell, then one per task with
    modality, shot and strategy ``"all"``. ``accuracy_a``/``accuracy_b`` are proportions over
    the ``n_pairs`` paired trials, ``delta`` is B − A in percentage points. A pair excluded
    from the denominator in either run is counted in ``n_excluded``; a trial only one run holds
    is counted in ``n_unpaired`` (under the cell of whichever run holds it). p-values are
    two-sided and not corrected for the number of cells.

    Raises
    ------
    ValueError
        If a column is missing, or the runs disagree on a trial's cell.
    """
    needed = ("model", *PAIR_KEYS, "trial_id", "correct", "error_class")
    _require(df_a, needed)
    _require(df_b, needed)
    models_a = list(dict.fromkeys(df_a["model"]))
    models_b = list(dict.fromkeys(df_b["model"]))
    if set(models_a) == set(models_b):
        pairs = [(model, model) for model in models_a]
    else:
        pairs = list(product(models_a, models_b))
    rows = []
    for model_a, model_b in pairs:
        merged = _pair_trials(df_a[df_a["model"] == model_a], df_b[df_b["model"] == model_b])
        names = {"model_a": model_a, "model_b": model_b}
        for key, cell in merged.groupby(list(PAIR_KEYS), sort=False):
            rows.append({**names, **dict(zip(PAIR_KEYS, key, strict=True)), **_tally(cell)})
        for task, cell in merged.groupby("task", sort=False):
            pooled = {"task": task, **dict.fromkeys(PAIR_KEYS[1:], ALL)}
            rows.append({**names, **pooled, **_tally(cell)})
    table = pd.DataFrame(rows, columns=list(PAIRED_COLUMNS))
    model_rank = {m: i for i, m in enumerate(dict.fromkeys(models_a + models_b))}
    ranks = {"model_a": model_rank, "model_b": model_rank}
    for key in PAIR_KEYS:
        present = table[key]
        canonical = TASK_ORDER if key == "task" else CANONICAL_ORDER[key]
        order = _in_order(present[present != ALL], canonical) + [ALL]
        ranks[key] = {value: i for i, value in enumerate(order)}
    return table.sort_values(
        list(ranks), key=lambda col: col.map(ranks[str(col.name)]), kind="stable",
        ignore_index=True,
    )


def _pair_trials(part_a: pd.DataFrame, part_b: pd.DataFrame) -> pd.DataFrame:
    """Outer join on trial_id: cell keys, both verdicts, and whether/how each trial paired."""
    fields = [*PAIR_KEYS, "trial_id", "correct", "error_class"]
    merged = part_a[fields].merge(
        part_b[fields], on="trial_id", how="outer", suffixes=("_a", "_b"), indicator=True
    )
    both = merged["_merge"] == "both"
    for key in PAIR_KEYS:
        clash = both & (merged[f"{key}_a"] != merged[f"{key}_b"])
        if clash.any():
            trial = merged.loc[clash, "trial_id"].iloc[0]
            raise ValueError(f"runs disagree on the {key} of trial {trial!r}")
        merged[key] = merged[f"{key}_a"].where(merged[f"{key}_a"].notna(), merged[f"{key}_b"])
    excluded = merged[["error_class_a", "error_class_b"]].isin(DENOMINATOR_EXCLUDED).any(axis=1)
    merged["status"] = np.where(~both, "unpaired", np.where(excluded, "excluded", "paired"))
    merged["right_a"] = _as_bool(merged["correct_a"])
    merged["right_b"] = _as_bool(merged["correct_b"])
    return merged[[*PAIR_KEYS, "trial_id", "status", "right_a", "right_b"]]


def _tally(cell: pd.DataFrame) -> dict:
    paired = cell[cell["status"] == "paired"]
    n = len(paired)
    b = int((paired["right_a"] & ~paired["right_b"]).sum())
    c = int((~paired["right_a"] & paired["right_b"]).sum())
    return {
        "n_pairs": n, "n_excluded": int((cell["status"] == "excluded").sum()),
        "n_unpaired": int((cell["status"] == "unpaired").sum()),
        "accuracy_a": float(paired["right_a"].mean()) if n else math.nan,
        "accuracy_b": float(paired["right_b"].mean()) if n else math.nan,
        "delta": 100.0 * (c - b) / n if n else math.nan,
        "b": b, "c": c, "p_value": mcnemar_exact(b, c) if n else math.nan,
    }


def significance_mark(p_value: float) -> str:
    """``***`` p < .001, ``**`` p < .01, ``*`` p < .05, else empty (also for NaN)."""
    for threshold, mark in ((0.001, "***"), (0.01, "**"), (0.05, "*")):
        if p_value < threshold:
            return mark
    return ""


def format_comparison(table: pd.DataFrame) -> str:
    """The :func:`paired_comparison` table as aligned plain text for a terminal.

    Accuracies and Δ are in percent; the excluded / unpaired columns appear only when some
    trial was excluded or unpaired, and a closing line always gives the totals, so a trial
    that did not pair is never silently missing from the printout.
    """
    if table.empty:
        return "no trials to compare\n"
    same_models = bool((table["model_a"] == table["model_b"]).all())
    extra = [col for col in ("n_excluded", "n_unpaired") if table[col].any()]
    header = ["model" if same_models else "model A -> B", "task", "modality", "shot",
              "strategy", "n", *(c.removeprefix("n_") for c in extra),
              "acc A", "acc B", "delta", "b", "c", "p", ""]
    lines = []
    for row in table.itertuples(index=False):
        models = row.model_a if same_models else f"{row.model_a} -> {row.model_b}"
        lines.append([
            models, row.task, row.modality, row.shot, row.strategy, str(row.n_pairs),
            *(str(getattr(row, col)) for col in extra),
            percent_text(row.accuracy_a), percent_text(row.accuracy_b),
            "" if math.isnan(row.delta) else f"{row.delta:+.1f}",
            str(row.b), str(row.c), p_text(row.p_value), significance_mark(row.p_value),
        ])
    numeric = {i for i, name in enumerate(header) if i >= 5 and name}
    widths = [max(len(r[i]) for r in [header, *lines]) for i in range(len(header))]
    text = [
        "  ".join(
            cell.rjust(widths[i]) if i in numeric else cell.ljust(widths[i])
            for i, cell in enumerate(r)
        ).rstrip()
        for r in [header, *lines]
    ]
    cells = table[table["modality"] != ALL]
    text += [
        f"{int(cells['n_pairs'].sum())} pairs, {int(cells['n_excluded'].sum())} excluded from "
        f"the denominator in either run, {int(cells['n_unpaired'].sum())} in one run only.",
        "acc in %, delta = B - A in points; b = A right & B wrong, c = A wrong & B right;",
        "p: exact McNemar, two-sided, uncorrected for the number of cells;"
        " * p<.05  ** p<.01  *** p<.001",
    ]
    return "\n".join(text) + "\n"


def p_text(p_value: float) -> str:
    if math.isnan(p_value):
        return ""
    return "<.001" if p_value < 0.001 else f"{p_value:.3f}".removeprefix("0")


# --- Helpers -----------------------------------------------------------------------------------


def _require(df: pd.DataFrame, columns: Iterable[str]) -> None:
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise ValueError(f"trial records lack column(s) {', '.join(missing)}")


def _in_order(values: Iterable[str], canonical: Sequence[str]) -> list[str]:
    """Distinct values, the paper's order first, the rest in order of first appearance."""
    present = list(dict.fromkeys(values))
    return [v for v in canonical if v in present] + [v for v in present if v not in canonical]


def _as_bool(values: pd.Series) -> pd.Series:
    """Correctness as plain bools; a missing verdict (no trial, or no output) is not correct."""
    return values.map(lambda v: False if pd.isna(v) else bool(v)).astype(bool)
