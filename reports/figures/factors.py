"""Small multiples of the per-factor marginals: one figure per experiment, one panel per factor.

A graded factor (SNR, effect amount, duration, cents, register...) is drawn as a curve over
its values with the Wilson 95 % interval as a band; a categorical one (source, background,
effect, voicing...) as points with interval bars. One colour per model, shared by the panels.
Built like :mod:`reports.figures.paper`: an explicit Agg canvas, PNGs without a "Software" chunk.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import pandas as pd

from reports.figures.paper import EXTRA_TASK_COLORS, _new_figure, save_png
from reports.tables.factors import MISSING

PANEL_WIDTH_IN = 3.2
PANEL_HEIGHT_IN = 2.5
MAX_COLUMNS = 3
DODGE = 0.12  # categorical points of several models side by side, not on top of each other
MODEL_COLORS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", *EXTRA_TASK_COLORS)


def figure_name(family: str, experiment: str) -> str:
    """The PNG's file name: ``factors_<family>_<experiment>.png`` with safe characters."""
    return "factors_" + re.sub(r"[^A-Za-z0-9_.-]+", "_", f"{family}_{experiment}") + ".png"


def _draw_panel(axes, factor: str, rows: pd.DataFrame, colors: dict[str, str]) -> None:
    graded = bool(rows["graded"].iloc[0])
    shown = rows[rows["value"].astype(str) != MISSING] if graded else rows
    labels = list(dict.fromkeys(shown["value"].tolist()))
    models = sorted(shown["model"].unique())
    for model, part in shown.groupby("model", sort=True):
        color = colors[model]
        dodge = (models.index(model) - (len(models) - 1) / 2) * DODGE
        part = part.set_index(part["value"].map(labels.index)).sort_index()
        x = ([float(v) for v in part["value"]] if graded
             else [position + dodge for position in part.index])
        y = part["accuracy"].astype(float)
        if graded:
            axes.plot(x, y, marker="o", color=color, label=model)
            axes.fill_between(x, part["ci_low"].astype(float), part["ci_high"].astype(float),
                              color=color, alpha=0.2, linewidth=0)
        else:
            below = (y - part["ci_low"].astype(float)).clip(lower=0)
            above = (part["ci_high"].astype(float) - y).clip(lower=0)
            axes.errorbar(x, y, yerr=[below, above], fmt="o", color=color, capsize=2,
                          label=model)
    if not graded:
        axes.set_xticks(range(len(labels)))
        axes.set_xticklabels([str(v) for v in labels], rotation=60, ha="right", fontsize=7)
    axes.set_ylim(-0.02, 1.02)
    axes.set_title(factor, fontsize=9)
    axes.tick_params(labelsize=7)
    axes.grid(alpha=0.3)


def experiment_figure(family: str, experiment: str, rows: pd.DataFrame,
                      colors: dict[str, str]):
    """One experiment's small multiples: a panel per factor, accuracy 0–1 on every y axis."""
    factors = list(dict.fromkeys(rows["factor"].tolist()))
    columns = min(MAX_COLUMNS, len(factors))
    lines = math.ceil(len(factors) / columns)
    figure = _new_figure(PANEL_WIDTH_IN * columns, PANEL_HEIGHT_IN * lines + 0.4)
    for index, factor in enumerate(factors):
        axes = figure.add_subplot(lines, columns, index + 1)
        _draw_panel(axes, factor, rows[rows["factor"] == factor], colors)
        if index % columns == 0:
            axes.set_ylabel("accuracy", fontsize=8)
    handles, labels = figure.axes[0].get_legend_handles_labels()
    figure.legend(handles, labels, loc="outside lower center", ncols=min(4, len(labels)),
                  fontsize=8)
    figure.suptitle(f"{experiment} ({family}): accuracy by condition, 95 % Wilson intervals",
                    fontsize=10)
    return figure


def write_factor_figures(marginals: pd.DataFrame, out_dir: Path) -> dict[str, Path]:
    """One PNG per experiment with factors; returns ``{file name: path}`` in table order."""
    models = sorted(marginals["model"].unique())
    colors = {m: MODEL_COLORS[i % len(MODEL_COLORS)] for i, m in enumerate(models)}
    written: dict[str, Path] = {}
    for (family, experiment), rows in marginals.groupby(["family", "experiment"], sort=True):
        name = figure_name(family, experiment)
        written[name] = save_png(experiment_figure(family, experiment, rows, colors),
                                 out_dir / name)
    return written
