"""The report's reading aids around the tables, built in one call from the run's records.

``write_artifacts`` asks for them once: the per-model headline, the models side by side, the
confusion matrices and the trials viewer (whose files it writes into ``report_files/``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from reports.html.compare import comparison_html
from reports.html.confusion import confusion_html
from reports.html.headline import headline_html
from reports.html.trials import DATA_FILE, FILES_DIR, SCRIPT_FILE, trials_section, write_trial_files


@dataclass
class ReportViews:
    headline: str
    sections: list[tuple[str, str, str]] = field(default_factory=list)  # anchor, title, HTML
    scripts: list[str] = field(default_factory=list)
    files: dict[str, Path] = field(default_factory=dict)


def report_views(records: pd.DataFrame, real: pd.DataFrame, control_summary: pd.DataFrame,
                 thresholds: list[dict], out_dir: Path, choices: pd.DataFrame) -> ReportViews:
    """Views of ``records`` (every trial) and ``real`` (without control trials); ``choices``
    are the real records of the families that asked for confusion matrices."""
    views = ReportViews(headline=headline_html(real, control_summary, thresholds))
    if compared := comparison_html(real):
        views.sections.append(("compare", "Models side by side", compared))
    if matrices := confusion_html(real, choices):
        views.sections.append(("confusion", "Confusion matrices", matrices))
    if len(records):
        views.files = write_trial_files(records, out_dir)
        views.sections.append(("trials", "Trials", trials_section()))
        views.scripts = [f"{FILES_DIR}/{DATA_FILE}", f"{FILES_DIR}/{SCRIPT_FILE}"]
    return views
