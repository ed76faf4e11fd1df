"""The hearing profile as a figure: thresholds per experiment and condition, audiogram style.

One panel per graded experiment, conditions along x, the threshold on y with its 95 % interval,
one marker and colour per model. As on an audiogram, better hearing is drawn higher: the y axis
is inverted where a smaller level is the better threshold (cents heard, dB SNR, ms). A result
without a threshold is drawn at the edge of the tested range it lies beyond: a triangle
pointing out of the range where the whole range was easy, a cross at the hard end where there
is no threshold.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import pandas as pd
from matplotlib.ticker import FuncFormatter, NullFormatter

from reports.figures.paper import EXTRA_MODALITY_COLORS, _new_figure, save_png
from reports.stats.thresholds import GRADED, MEASURE, labelled
from solvers.psychometric import ABOVE_RANGE, BELOW_RANGE, FITTED, NO_THRESHOLD

FILE_NAME = "hearing_profile.png"
MODEL_COLORS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", *EXTRA_MODALITY_COLORS, "#000000")
MODEL_MARKERS = ("o", "s", "D", "^", "v", "P", "X", "*")


def hearing_profile(summary: pd.DataFrame):
    """The figure (a matplotlib Figure) for a threshold summary of one or more models."""
    summary = labelled(summary)
    experiments = [name for name in GRADED if name in set(summary["experiment"])]
    models = sorted(summary["model"].unique())
    columns = min(3, len(experiments))
    rows = -(-len(experiments) // columns)
    figure = _new_figure(4.2 * columns, 3.4 * rows + 0.4)
    axes = figure.subplots(rows, columns, squeeze=False).ravel()
    for ax, experiment in zip(axes, experiments, strict=False):
        _panel(ax, summary[summary["experiment"] == experiment], experiment, models)
    for ax in axes[len(experiments):]:
        ax.set_visible(False)
    handles = [axes[0].plot([], [], MODEL_MARKERS[i % len(MODEL_MARKERS)], linestyle="",
                            color=MODEL_COLORS[i % len(MODEL_COLORS)], label=model)[0]
               for i, model in enumerate(models)]
    handles += [axes[0].plot([], [], marker, color="#555", linestyle="", label=label)[0]
                for marker, label in (("^", "easy over the whole range"),
                                      ("x", "no threshold in range"))]
    figure.legend(handles=handles, loc="outside lower center", ncols=min(len(handles), 2 * columns),
                  fontsize=8, frameon=False)
    return figure


def _panel(ax, part: pd.DataFrame, experiment: str, models: list[str]) -> None:
    spec = GRADED[experiment]
    conditions = list(dict.fromkeys(part["condition"]))
    low, high = float(part["smallest_level"].min()), float(part["largest_level"].max())
    if not (math.isfinite(low) and math.isfinite(high)):  # no fit had two levels to span
        ax.text(0.5, 0.5, "fewer than two tested levels", ha="center", va="center",
                transform=ax.transAxes, fontsize=8)
        ax.set_axis_off()
        ax.set_title(f"{experiment.upper()}: {MEASURE[experiment]}", fontsize=9)
        return
    offsets = _offsets(len(models))
    for index, model in enumerate(models):
        color = MODEL_COLORS[index % len(MODEL_COLORS)]
        marker = MODEL_MARKERS[index % len(MODEL_MARKERS)]
        rows = part[part["model"] == model].set_index("condition")
        for x, condition in enumerate(conditions):
            if condition not in rows.index:
                continue
            row, at = rows.loc[condition], x + offsets[index]
            if row["status"] == FITTED:
                ax.errorbar([at], [row["threshold"]],
                            yerr=[[row["threshold"] - max(row["ci_low"], low)],
                                  [min(row["ci_high"], high) - row["threshold"]]],
                            fmt=marker, color=color, capsize=3, markersize=6)
            elif row["status"] in (BELOW_RANGE, ABOVE_RANGE):
                edge = low if row["status"] == BELOW_RANGE else high
                ax.plot([at], [edge], "^", color=color, markersize=7)  # the top: easy end
            elif row["status"] == NO_THRESHOLD:
                ax.plot([at], [high if spec.increasing else low], "x", color=color,
                        markersize=7, markeredgewidth=2)
    ax.set_yscale("log" if spec.log_scale else "linear")
    ax.yaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
    ax.yaxis.set_minor_formatter(NullFormatter())
    ax.set_ylim(*_limits(low, high, spec.log_scale))
    if spec.increasing:
        ax.invert_yaxis()  # smaller is better: better hearing drawn higher, as on an audiogram
    ax.set_xticks(range(len(conditions)), conditions, rotation=30, ha="right", fontsize=8)
    ax.set_xlim(-0.6, len(conditions) - 0.4)
    ax.set_ylabel(spec.unit)
    ax.set_title(f"{experiment.upper()}: {MEASURE[experiment]}", fontsize=9)
    ax.grid(True, which="major", axis="y", alpha=0.3)


def _offsets(count: int) -> list[float]:
    """Side-by-side positions of several models within one condition."""
    width = min(0.6, 0.15 * count)
    return [0.0] if count == 1 else [-width / 2 + width * i / (count - 1) for i in range(count)]


def _limits(low: float, high: float, log_scale: bool) -> tuple[float, float]:
    if log_scale:
        return low / 1.6, high * 1.6
    pad = 0.08 * (high - low)
    return low - pad, high + pad


def write_hearing_profile(summary: pd.DataFrame, out_dir: str | os.PathLike[str]) -> Path:
    """Draw the profile and write it into ``out_dir``; returns its path."""
    return save_png(hearing_profile(summary), Path(out_dir) / FILE_NAME)
