"""The paper's two figures, drawn from a run's trial records.

* :func:`accuracy_by_modality` (the paper's Figure 2): per task, each model's accuracy on audio
  next to its accuracy on MIDI, so the modality gap of every model is read off one panel.
* :func:`f1_vs_accuracy` (Figure 3): LogicLM transcription F1 against decision accuracy, which
  separates "could not hear the notes" (low F1) from "heard them but reasoned badly" (high F1,
  low accuracy).

Figures are built on :class:`matplotlib.figure.Figure` with an explicit Agg canvas, never through
``pyplot``: pyplot keeps a global registry of open figures and picks a GUI backend, neither of
which belongs in a pytest worker or a report job. PNGs are written without the "Software" text
chunk so that the same records always give the same bytes (a report can then be diffed or cached).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import pandas as pd
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.transforms import Bbox

from reports.stats.sampled import has_samples
from reports.tables.accuracy import CHANCE, MODALITY_ORDER, TASK_ORDER, transcription_f1
from reports.tables.cells import cell_numbers

DPI = 110
FIGURE_FILES = {
    "accuracy_by_modality": "accuracy_by_modality.png",
    "f1_vs_accuracy": "f1_vs_accuracy.png",
}
# Audio filled and MIDI hollow, as in the paper; the colours are the Okabe-Ito palette, which
# stays distinguishable for colour-blind readers and in greyscale print.
MODALITY_STYLE = {
    "audio": {"color": "#0072B2", "marker": "o", "fill": True},
    "midi": {"color": "#E69F00", "marker": "s", "fill": False},
    "score": {"color": "#009E73", "marker": "D", "fill": True},
    "none": {"color": "#7F7F7F", "marker": "v", "fill": False},  # the no-stimulus floor
}
EXTRA_MODALITY_COLORS = ("#CC79A7", "#56B4E9", "#D55E00")
TASK_COLORS = {"syncopation": "#D55E00", "transposition": "#009E73", "chord": "#CC79A7"}
EXTRA_TASK_COLORS = ("#0072B2", "#E69F00", "#56B4E9", "#000000")
PNG_METADATA = {"Software": None}

PathLike = str | os.PathLike[str]


def _new_figure(width_in: float, height_in: float) -> Figure:
    """A figure bound to its own Agg canvas: no pyplot, no global backend switch."""
    figure = Figure(figsize=(width_in, height_in), dpi=DPI, layout="constrained")
    FigureCanvasAgg(figure)
    return figure


def _ordered(values: Sequence[str], canonical: Sequence[str]) -> list[str]:
    """The paper's order for the values present, then anything unforeseen alphabetically."""
    present = list(dict.fromkeys(values))
    return [v for v in canonical if v in present] + sorted(set(present) - set(canonical))


def _message_figure(message: str, width_in: float = 7.0, height_in: float = 4.0) -> Figure:
    """A figure that says why there is nothing to plot, so a report never has a hole in it."""
    figure = _new_figure(width_in, height_in)
    axes = figure.add_subplot()
    axes.set_axis_off()
    axes.text(0.5, 0.5, message, ha="center", va="center", fontsize=12, wrap=True,
              transform=axes.transAxes)
    return figure


# --- Figure 2: accuracy by modality ------------------------------------------------------------


def modality_accuracy(df: pd.DataFrame) -> pd.DataFrame:
    """Accuracy per (task, model, modality), pooled over shots and strategies.

    Trials whose error class is in :data:`~solvers.metrics.DENOMINATOR_EXCLUDED` are dropped
    first, exactly as in Table 1, so the bars and the table can never disagree on a
    denominator. Columns: ``n``, ``correct``, ``accuracy``, ``ci_low``, ``ci_high`` (Wilson
    95 %); accuracy and bounds are NaN for a group whose every trial was excluded. With
    ``--samples`` the accuracy is the mean over samples and its interval a bootstrap over items
    (:mod:`reports.stats.sampled`).
    """
    keys = ["task", "model", "modality"]
    columns = ["n", "correct", "accuracy", "ci_low", "ci_high"]
    sampled = has_samples(df)
    rows = []
    for key, group in df.groupby(keys, sort=True):
        numbers = cell_numbers(group, sampled=sampled)
        if sampled:
            numbers.update(accuracy=numbers["mean_accuracy"], ci_low=numbers["mean_ci_low"],
                           ci_high=numbers["mean_ci_high"])
        rows.append({**dict(zip(keys, key, strict=True)),
                     **{name: numbers[name] for name in columns}})
    return pd.DataFrame(rows, columns=[*keys, *columns])


def accuracy_by_modality(df: pd.DataFrame) -> Figure:
    """One panel per task: per model, an audio bar and a MIDI bar with Wilson 95 % error bars.

    The dashed line is the task's chance level (a model at the line has learnt nothing), and
    each model's tick label carries the trial counts behind its two bars, so a bar resting on
    ten trials is not mistaken for one resting on a hundred.
    """
    table = modality_accuracy(df)
    if table.empty:
        return _message_figure("No trials in this run: nothing to plot.")
    tasks = _ordered(table["task"].tolist(), TASK_ORDER)
    models = list(dict.fromkeys(sorted(table["model"])))
    modalities = _ordered(table["modality"].tolist(), MODALITY_ORDER)
    width = max(4.0, 1.0 + 0.9 * len(models) * len(modalities) / 2) * len(tasks)
    figure = _new_figure(min(width, 18.0), 4.6)
    axes_row = figure.subplots(1, len(tasks), sharey=True, squeeze=False)[0]
    for letter, (axes, task) in enumerate(zip(axes_row, tasks, strict=True)):
        _modality_panel(axes, table[table["task"] == task], models, modalities)
        axes.set_title(f"{chr(ord('A') + letter)}  {task}", loc="left", fontsize=11)
        if task in CHANCE:
            axes.axhline(CHANCE[task], color="0.35", linestyle="--", linewidth=1.0)
    axes_row[0].set_ylabel("mean accuracy over samples (95 % interval over items)"
                           if has_samples(df) else "accuracy (95 % Wilson interval)")
    handles = [
        Patch(facecolor=style["color"] if style["fill"] else "white",
              edgecolor=style["color"], linewidth=1.6, label=modality)
        for slot, modality in enumerate(modalities)
        for style in [_modality_style(modality, slot)]
    ]
    handles.append(Line2D([], [], color="0.35", linestyle="--", label="chance level"))
    figure.legend(handles=handles, loc="outside lower center", ncol=len(handles), fontsize=9,
                  frameon=False)
    counted = " / ".join("MIDI" if m == "midi" else m for m in modalities)
    figure.suptitle("Accuracy by modality, pooled over shots and strategies "
                    f"(n = {counted} trials counted)", fontsize=12)
    return figure


def _modality_panel(
    axes: Axes, table: pd.DataFrame, models: Sequence[str], modalities: Sequence[str]
) -> None:
    bar_width = 0.8 / len(modalities)
    cells = table.set_index(["model", "modality"])
    for slot, modality in enumerate(modalities):
        style = _modality_style(modality, slot)
        xs, heights, below, above = [], [], [], []
        for position, model in enumerate(models):
            if (model, modality) not in cells.index:
                continue
            cell = cells.loc[(model, modality)]
            x = position + (slot - (len(modalities) - 1) / 2) * bar_width
            if not cell["n"]:
                axes.text(x, 0.02, "n/a", ha="center", va="bottom", fontsize=7, rotation=90)
                continue
            xs.append(x)
            heights.append(cell["accuracy"])
            below.append(cell["accuracy"] - cell["ci_low"])
            above.append(cell["ci_high"] - cell["accuracy"])
        axes.bar(xs, heights, width=bar_width * 0.92, label=modality,
                 color=style["color"] if style["fill"] else "white",
                 edgecolor=style["color"], linewidth=1.6,
                 yerr=[below, above], capsize=3, error_kw={"elinewidth": 1.0, "ecolor": "0.15"})
    ticks = []
    for model in models:
        counts = [
            str(int(cells.loc[(model, m), "n"])) if (model, m) in cells.index else "–"
            for m in modalities
        ]
        ticks.append(f"{model}\nn = {' / '.join(counts)}")
    axes.set_xticks(range(len(models)), ticks, fontsize=8)
    axes.set_xlim(-0.6, len(models) - 0.4)
    axes.set_ylim(0.0, 1.05)
    axes.yaxis.grid(True, color="0.9")
    axes.set_axisbelow(True)


def _modality_style(modality: str, slot: int) -> dict:
    if modality in MODALITY_STYLE:
        return MODALITY_STYLE[modality]
    color = EXTRA_MODALITY_COLORS[slot % len(EXTRA_MODALITY_COLORS)]
    return {"color": color, "marker": "^", "fill": True}


# --- Figure 3: transcription F1 against accuracy -----------------------------------------------


def f1_vs_accuracy(f1_table: pd.DataFrame) -> Figure:
    """LogicLM transcription F1 (x) against decision accuracy (y), one point per group.

    ``f1_table`` is :func:`reports.tables.accuracy.transcription_f1` output: one row per
    (task, label, modality). Colour is the task, the marker the modality (audio filled, MIDI
    hollow), and each point is labelled with its label; points that coincide (commonly at (1, 1))
    share one label so the text stays legible. The diagonal marks "accuracy as good as the
    transcription": points well below it lost accuracy in reasoning, not in hearing.
    """
    table = f1_table.reset_index() if f1_table.index.names != [None] else f1_table
    needed = {"task", "label", "modality", "f1", "accuracy"}
    if table.empty or not needed <= set(table.columns):
        return _message_figure(
            "No LogicLM trials in this run:\nno transcription F1 to plot.", 6.5, 5.5
        )
    table = table.dropna(subset=["f1", "accuracy"])
    figure = _new_figure(6.8, 6.2)
    axes = figure.add_subplot()
    axes.plot([0, 1], [0, 1], color="0.6", linestyle="--", linewidth=1.0, zorder=1)
    tasks = _ordered(table["task"].tolist(), TASK_ORDER)
    modalities = _ordered(table["modality"].tolist(), MODALITY_ORDER)
    colors = _task_colors(tasks)
    for slot, modality in enumerate(modalities):
        style = _modality_style(modality, slot)
        rows = table[table["modality"] == modality]
        point_colors = [colors[task] for task in rows["task"]]
        axes.scatter(rows["f1"], rows["accuracy"], s=70, marker=style["marker"], zorder=3,
                     facecolors=point_colors if style["fill"] else "none",
                     edgecolors=point_colors, linewidths=1.6)
    _label_points(axes, table)
    axes.set_xlim(-0.03, 1.08)
    axes.set_ylim(-0.03, 1.08)
    axes.set_aspect("equal")
    axes.set_xlabel("transcription F1 (LogicLM input)")
    axes.set_ylabel("decision accuracy")
    axes.grid(True, color="0.92")
    axes.set_axisbelow(True)
    task_handles = [Line2D([], [], linestyle="", marker="o", color=colors[t], label=t)
                    for t in tasks]
    modality_handles = [
        Line2D([], [], linestyle="", marker=_modality_style(m, i)["marker"], label=m,
               markerfacecolor="0.3" if _modality_style(m, i)["fill"] else "none",
               markeredgecolor="0.3")
        for i, m in enumerate(modalities)
    ]
    first = axes.legend(handles=task_handles, title="task", loc="upper left", fontsize=8,
                        title_fontsize=8)
    axes.add_artist(first)
    axes.legend(handles=modality_handles, title="modality", loc="lower right", fontsize=8,
                title_fontsize=8)
    axes.set_title("LogicLM: transcription F1 vs decision accuracy\n"
                   "(pooled over models and shots)", fontsize=11)
    return figure


def _task_colors(tasks: Sequence[str]) -> dict[str, str]:
    extras = iter(EXTRA_TASK_COLORS * (1 + len(tasks)))
    return {task: TASK_COLORS.get(task) or next(extras) for task in tasks}


def _label_points(axes: Axes, table: pd.DataFrame) -> None:
    """Label every point, one label per distinct position, placed where it hides nothing.

    Points that coincide (often many at (1, 1)) share one label naming all of them. Each label
    then takes the first of a ring of candidate positions around its point that overlaps no
    marker, no earlier label and stays inside the axes; a label pushed beyond the first ring
    gets a thin leader line. The search is deterministic, so the PNG bytes stay reproducible.
    """
    spots: dict[tuple[float, float], list[str]] = {}
    for row in table.itertuples(index=False):
        key = (round(float(row.f1), 3), round(float(row.accuracy), 3))
        names = spots.setdefault(key, [])
        if str(row.label) not in names:
            names.append(str(row.label))
    figure = axes.get_figure()
    figure.canvas.draw()  # fix the layout first: positions are measured in pixels below
    renderer = figure.canvas.get_renderer()
    frame = axes.get_window_extent(renderer)
    half = 6 * figure.dpi / 72
    taken = []
    for x, y in spots:
        px, py = axes.transData.transform((x, y))
        taken.append(Bbox.from_extents(px - half, py - half, px + half, py + half))
    for (x, y), names in spots.items():
        text = ", ".join(names) if len(names) <= 4 else f"{', '.join(names[:4])}, …"
        best: tuple[float, object, Bbox] | None = None
        for ring, (dx, dy) in _CANDIDATE_OFFSETS:
            label = axes.annotate(
                text, (x, y), xytext=(dx, dy), textcoords="offset points", fontsize=7,
                color="0.2", va="center", ha="left" if dx > 0 else "right" if dx < 0 else "center",
                arrowprops={"arrowstyle": "-", "color": "0.6", "lw": 0.6} if ring else None,
            )
            label.set_in_layout(False)
            box = label.get_window_extent(renderer)
            cost = sum(_overlap(box, other) for other in taken)
            cost += box.width * box.height - _overlap(box, frame)
            if best is None or cost < best[0]:
                if best is not None:
                    best[1].remove()
                best = (cost, label, box)
            else:
                label.remove()
            if cost == 0:
                break
        assert best is not None
        taken.append(best[2])


def _overlap(a: Bbox, b: Bbox) -> float:
    inter = Bbox.intersection(a, b)
    return 0.0 if inter is None else inter.width * inter.height


_CANDIDATE_OFFSETS = [
    (ring, (round(radius * dx), round(radius * dy)))
    for ring, radius in enumerate((8, 18, 30))
    for dx, dy in ((1, 0.6), (1, -0.6), (-1, 0.6), (-1, -0.6), (0, 1.3), (0, -1.3), (1, 0), (-1, 0))
]


# --- Writing -----------------------------------------------------------------------------------


def save_png(figure: Figure, path: PathLike) -> Path:
    """Write ``figure`` as a PNG whose bytes depend only on what was drawn (no version stamp)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, format="png", dpi=DPI, metadata=PNG_METADATA, facecolor="white")
    return path


def write_figures(df: pd.DataFrame, out_dir: PathLike) -> dict[str, Path]:
    """Draw both figures from trial records and write them into ``out_dir``.

    Returns ``{"accuracy_by_modality": path, "f1_vs_accuracy": path}`` so callers (the HTML
    report, the CLI) do not hard-code file names.
    """
    out = Path(out_dir)
    figures = {
        "accuracy_by_modality": accuracy_by_modality(df),
        "f1_vs_accuracy": f1_vs_accuracy(transcription_f1(df)),
    }
    return {name: save_png(figure, out / FIGURE_FILES[name]) for name, figure in figures.items()}
