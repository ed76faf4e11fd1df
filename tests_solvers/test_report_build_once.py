"""A run's report computes each whole-run table once (issue 33): Table 1's cell summary serves
table1.md, table1.csv, summary.json and the HTML tables alike."""

from __future__ import annotations

from reports.builders.artifacts import write_artifacts
from reports.html import page
from reports.tables import accuracy
from tests_solvers.test_figure_worker import _core_records


def test_table1_cells_are_summarised_once(tmp_path, monkeypatch):
    summarised: list[int] = []
    real = accuracy.cell_summary

    def counted(df, *args, **kwargs):
        summarised.append(len(df))
        return real(df, *args, **kwargs)

    monkeypatch.setattr(accuracy, "cell_summary", counted)
    monkeypatch.setattr(page, "cell_summary", counted)
    records = _core_records()
    write_artifacts(records, tmp_path, {"run_id": "r"})
    assert summarised == [len(records)]
    table1 = (tmp_path / "table1.md").read_text()
    assert "chord" in table1 and "Table 1" in (tmp_path / "report.html").read_text()
