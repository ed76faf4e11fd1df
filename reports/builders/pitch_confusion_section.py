"""The pitch-confusion section of a run's report: its table, heatmap and cents figure.

``write_artifacts`` calls :func:`pitch_confusion_section` once with the pitch records; when
any pitch-naming answer is among them it writes ``pitch_confusion.csv`` (error shares per model
and source), ``pitch_confusion.png`` (answered against true pitch, a panel per model, the
octave diagonals drawn) and, with hertz answers, ``pitch_cents_error.png`` (the error in
cents against the truth per source), and hands back the report's section.
"""

from __future__ import annotations

import html
from pathlib import Path

import numpy as np
import pandas as pd

from reports.tables.pitch_confusion import confusion_counts, error_shares, naming_answers
from reports.tables.terminal import percent_text

ANCHOR = "pitch-confusion"
TITLE = "Pitch confusion"
CAPTION = (
    "Pitch-naming answers (one note, in MIDI, scientific pitch notation or hertz): answered "
    "against true pitch, per model; dashed lines mark one and two octaves off. The table gives "
    "per source the share of exact answers, octave errors (right pitch class, wrong octave), "
    "answers one semitone off and other errors; the second figure the error of hertz answers "
    "in cents against the truth (clipped to ±2 octaves)."
)
CLIP_CENTS = 2400.0
OCTAVE_LINES = (-24, -12, 12, 24)


def _heatmaps(answers: pd.DataFrame, path: Path) -> Path:
    from reports.figures.paper import _new_figure, save_png

    models = sorted(answers["model"].unique())
    low = int(min(answers["true_midi"].min(), answers["answered_midi"].min())) - 1
    high = int(max(answers["true_midi"].max(), answers["answered_midi"].max())) + 1
    figure = _new_figure(4.2 * len(models), 4.2)
    for index, model in enumerate(models):
        axes = figure.add_subplot(1, len(models), index + 1)
        counts = confusion_counts(answers, model)
        grid = np.zeros((high - low + 1, high - low + 1))
        for answered, row in counts.iterrows():
            for true, count in row.items():
                grid[answered - low, true - low] = count
        shown = np.ma.masked_equal(grid, 0)
        image = axes.imshow(shown, origin="lower", cmap="viridis", aspect="equal",
                            extent=(low - 0.5, high + 0.5, low - 0.5, high + 0.5))
        axes.plot([low, high], [low, high], color="grey", linewidth=0.8)
        for offset in OCTAVE_LINES:
            axes.plot([low, high], [low + offset, high + offset], color="grey", linewidth=0.6,
                      linestyle="--")
        axes.set_xlim(low - 0.5, high + 0.5)
        axes.set_ylim(low - 0.5, high + 0.5)
        axes.set_xlabel("true pitch (MIDI)")
        axes.set_ylabel("answered pitch (MIDI)")
        axes.set_title(model, fontsize=10)
        figure.colorbar(image, ax=axes, shrink=0.7, label="trials")
    return save_png(figure, path)


def _cents_figure(answers: pd.DataFrame, path: Path) -> Path | None:
    from reports.figures.paper import _new_figure, save_png

    hz = answers[answers["cents_vs_truth"].notna()]
    if hz.empty:
        return None
    models = sorted(hz["model"].unique())
    sources = sorted(hz["source"].unique())
    figure = _new_figure(max(4.0, 0.45 * len(sources) * len(models) + 2), 3.6)
    axes = figure.add_subplot()
    width = 0.8 / len(models)
    for index, model in enumerate(models):
        mine = hz[hz["model"] == model]
        data = [mine.loc[mine["source"] == s, "cents_vs_truth"].clip(-CLIP_CENTS, CLIP_CENTS)
                for s in sources]
        positions = [i + (index - (len(models) - 1) / 2) * width for i in range(len(sources))]
        kept = [(p, d) for p, d in zip(positions, data, strict=True) if len(d)]
        axes.boxplot([d for _, d in kept], positions=[p for p, _ in kept], widths=width * 0.9,
                     manage_ticks=False)
        axes.plot([], [], label=model)
    axes.axhline(0, color="grey", linewidth=0.6)
    axes.set_xticks(range(len(sources)))
    axes.set_xticklabels(sources, rotation=60, ha="right", fontsize=7)
    axes.set_ylabel("cents against the truth")
    axes.set_title("Hertz answers: error in cents per source" + (
        f" ({', '.join(models)}, left to right)" if len(models) > 1 else f" ({models[0]})"),
        fontsize=9)
    return save_png(figure, path)


def _shares_table(shares: pd.DataFrame) -> pd.DataFrame:
    table = shares.set_index(["model", "source"])
    for column in ("exact", "octave", "pitch_class", "semitone", "other"):
        table[column] = table[column].map(lambda share: percent_text(share, "n/a"))
    return table.rename(columns={c: f"{c} %" for c in table.columns if c != "n"})


def pitch_confusion_section(pitch: pd.DataFrame, out_dir: Path
                            ) -> tuple[dict[str, Path], tuple[str, str, str] | None]:
    """(files written, the report section as anchor, title, HTML); nothing without
    pitch-naming answers."""
    from reports.html.page import _figure_block, _table_block

    answers = naming_answers(pitch)
    if answers.empty:
        return {}, None
    shares = error_shares(answers)
    files = {"pitch_confusion.csv": out_dir / "pitch_confusion.csv"}
    files["pitch_confusion.csv"].write_text(shares.to_csv(index=False), encoding="utf-8")
    figures = {"pitch_confusion": _heatmaps(answers, out_dir / "pitch_confusion.png")}
    if (cents := _cents_figure(answers, out_dir / "pitch_cents_error.png")) is not None:
        figures["pitch_cents_error"] = cents
    files.update({path.name: path for path in figures.values()})
    body = (f"<p>{html.escape(CAPTION)}</p>\n"
            + "\n".join(_figure_block(name, path) for name, path in figures.items())
            + "\n" + _table_block(_shares_table(shares)))
    return files, (ANCHOR, TITLE, body)

