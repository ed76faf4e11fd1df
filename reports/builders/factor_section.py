"""The "results by condition" section of a run's report: ``factors.csv`` and its figures.

``write_artifacts`` calls :func:`factor_section` once with the run's real (non-control)
records; it writes ``factors.csv`` and one small-multiples PNG per experiment and hands back
the HTML section the report shows, so the report's layout code needs no factor logic.
"""

from __future__ import annotations

import html
from pathlib import Path

import pandas as pd

from reports.tables.factors import factor_marginals

FILE_NAME = "factors.csv"
ANCHOR = "factors"
TITLE = "Results by condition"
CAPTION = (
    "Accuracy per value of every factor an experiment's items vary, with its Wilson 95 % "
    "interval (factors.csv holds the numbers). Graded factors are drawn as curves with a band, "
    "the others as points with bars. Every factor's values add up to the experiment's cell; "
    "'n/a' collects the trials whose item does not set the factor. A MIDI parameter is shown "
    "as its register (octave, C4 = MIDI 60)."
)


def factor_section(real: pd.DataFrame, out_dir: Path
                   ) -> tuple[dict[str, Path], tuple[str, str, str] | None]:
    """(files written, the report section as anchor, title, HTML); no section when no
    experiment in ``real`` varies a factor (``factors.csv`` is written with its header)."""
    from reports.figures.factors import write_factor_figures
    from reports.html.page import _figure_block

    marginals = factor_marginals(real)
    path = out_dir / FILE_NAME
    path.write_text(marginals.to_csv(index=False), encoding="utf-8")
    files = {FILE_NAME: path}
    if marginals.empty:
        return files, None
    figures = write_factor_figures(marginals, out_dir)
    files.update(figures)
    blocks = [_figure_block(name, figure) for name, figure in figures.items()]
    body = f"<p>{html.escape(CAPTION)}</p>\n" + "\n".join(blocks)
    return files, (ANCHOR, TITLE, body)
