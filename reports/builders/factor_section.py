"""The "results by condition" section of a run's report: ``factors.csv`` and its figures.

``write_artifacts`` calls :func:`start_factor_section` once with the run's real (non-control)
records; it writes ``factors.csv``, has one small-multiples PNG per experiment drawn (by the
figure worker when the run has one) and hands back the HTML section the report shows, so the
report's layout code needs no factor logic.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from pathlib import Path

import pandas as pd

from reports.builders.figure_worker import DrawHere, FigureDrawer, factor_figures
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


def factor_section(real: pd.DataFrame, out_dir: Path, drawer: FigureDrawer | None = None
                   ) -> tuple[dict[str, Path], tuple[str, str, str] | None]:
    """(files written, the report section as anchor, title, HTML); no section when no
    experiment in ``real`` varies a factor (``factors.csv`` is written with its header)."""
    return start_factor_section(real, out_dir, drawer or DrawHere())()


def start_factor_section(real: pd.DataFrame, out_dir: Path, drawer: FigureDrawer
                         ) -> Callable[[], tuple[dict[str, Path], tuple[str, str, str] | None]]:
    """Write ``factors.csv`` and hand its figures to ``drawer``; the returned call waits for
    them and gives what :func:`factor_section` gives (a report builds its tables meanwhile).
    The marginals are computed here: a worker's share of a report is its figures."""
    from reports.html.page import _figure_block

    marginals = factor_marginals(real)
    path = out_dir / FILE_NAME
    path.write_text(marginals.to_csv(index=False), encoding="utf-8")
    files = {FILE_NAME: path}
    drawing = None if marginals.empty else drawer.draw(factor_figures, marginals, out_dir)

    def finish() -> tuple[dict[str, Path], tuple[str, str, str] | None]:
        if drawing is None:
            return files, None
        figures = drawing.result()
        blocks = [_figure_block(name, figure) for name, figure in figures.items()]
        body = f"<p>{html.escape(CAPTION)}</p>\n" + "\n".join(blocks)
        return {**files, **figures}, (ANCHOR, TITLE, body)

    return finish
