"""The hearing-profile section of a run's report: files, HTML table and figure in one call.

``write_artifacts`` calls :func:`threshold_section` once; it writes ``thresholds.md``,
``thresholds.csv`` and ``hearing_profile.png`` when the run holds graded pitch experiments and
hands back what ``report.html`` shows, so the report's layout code needs no threshold logic.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from reports.stats.thresholds import CAPTION, profile_table, threshold_summary, thresholds_markdown

TITLE = "Hearing profile: psychometric thresholds"
FIGURE_NAME = "hearing_profile"
FIGURE_TITLE = "Figure: hearing profile (thresholds per experiment and condition)"
FIGURE_CAPTION = (
    "Thresholds with 95 % bootstrap intervals, one marker per model; better hearing is drawn "
    "higher, as on an audiogram. A triangle at the range's edge: easy over the whole tested "
    "range (below the smallest, or above the largest level where a larger level is harder); a "
    "cross at the hard end: no threshold within the tested range."
)


def threshold_section(pitch: pd.DataFrame, out_dir: Path, n_boot: int = 200
                      ) -> tuple[dict[str, Path], dict[str, pd.DataFrame], dict[str, Path],
                                 list[dict]]:
    """(files written, report tables, report figures, summary rows) for the graded experiments
    in the pitch records ``pitch``; all empty when there are none."""
    summary = threshold_summary(pitch, n_boot) if not pitch.empty else pd.DataFrame()
    if summary.empty:
        return {}, {}, {}, []
    from reports.figures.thresholds import write_hearing_profile  # matplotlib: only for one

    files = {"thresholds.md": out_dir / "thresholds.md",
             "thresholds.csv": out_dir / "thresholds.csv"}
    files["thresholds.md"].write_text(thresholds_markdown(summary), encoding="utf-8")
    files["thresholds.csv"].write_text(summary.to_csv(index=False), encoding="utf-8")
    figure = write_hearing_profile(summary, out_dir)
    files[figure.name] = figure
    table = profile_table(summary)
    table.attrs["caption"] = CAPTION
    rows = summary.astype(object).where(summary.notna(), None).to_dict(orient="records")
    return files, {TITLE: table}, {FIGURE_NAME: figure}, rows
