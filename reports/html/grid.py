"""A table whose every cell links to the trials behind it.

A table opts in by naming, in ``attrs["link_axes"]``, which trial field each level of its row
and column index is (Table 1: rows modality × shot × strategy, columns task × model); a cell's
link then filters the trials list (:func:`reports.html.trials.trials_link`) to those values.
A row or column of no trials (Table 1's chance row) gets no links; a pooled one ("any", "all",
or a value listed in ``link_axes["pooled"]``) links without filtering on that level.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

import pandas as pd

from reports.html.trials import trials_link

LINK_AXES = "link_axes"
NOT_A_VALUE = {"", "chance"}  # a row or column of no trials (chance levels): no links
WILDCARD = {"any", "all"}  # a pooled row or column (the pitch table's "any" notation)


def _keys(index: pd.Index) -> list[tuple]:
    return [key if isinstance(key, tuple) else (key,) for key in index]


def _header_rows(columns: pd.Index, index_names: Sequence[str]) -> str:
    keys = _keys(columns)
    levels = len(keys[0]) if keys else 1
    rows = []
    for level in range(levels):
        cells = [f"<th>{html.escape(str(n)) if level == levels - 1 and n else ''}</th>"
                 for n in index_names]
        span_start = 0
        for i in range(1, len(keys) + 1):  # merge runs of equal values, as pandas does
            if i < len(keys) and keys[i][: level + 1] == keys[span_start][: level + 1]:
                continue
            span = i - span_start
            label = html.escape(str(keys[span_start][level]))
            cells.append(f'<th colspan="{span}">{label}</th>' if span > 1 else f"<th>{label}</th>")
            span_start = i
        rows.append(f"<tr>{''.join(cells)}</tr>")
    return "".join(rows)


def _filters(names: Sequence[str | None], values: tuple, pooled: frozenset[str]
             ) -> dict | None:
    found = {}
    for name, value in zip(names, values, strict=False):
        if not name:
            continue
        if str(value).lower() in NOT_A_VALUE:
            return None
        if str(value) not in pooled:
            found[name] = value
    return found


def linked_table_html(table: pd.DataFrame, format_value=str) -> str:
    """``table`` as an HTML table with per-cell trial links (see the module docstring)."""
    axes = table.attrs[LINK_AXES]
    row_fields, column_fields = axes.get("index", ()), axes.get("columns", ())
    pooled = frozenset(WILDCARD | set(axes.get("pooled", ())))
    index_names = [str(n) if n is not None else "" for n in table.index.names]
    body = []
    for row_key, values in zip(_keys(table.index), table.itertuples(index=False), strict=True):
        row_filter = _filters(row_fields, row_key, pooled)
        cells = [f"<th>{html.escape(str(part))}</th>" for part in row_key]
        for column_key, value in zip(_keys(table.columns), values, strict=True):
            text = "" if value is None or (isinstance(value, float) and value != value) \
                else format_value(value)
            column_filter = _filters(column_fields, column_key, pooled)
            if text and text != "0" and row_filter is not None and column_filter is not None:
                link = html.escape(trials_link({**row_filter, **column_filter}))
                cells.append(f'<td><a class="cell" href="{link}">{html.escape(text)}</a></td>')
            else:
                cells.append(f"<td>{html.escape(text)}</td>")
        body.append(f"<tr>{''.join(cells)}</tr>")
    return (f'<table class="data linked"><thead>{_header_rows(table.columns, index_names)}'
            f"</thead><tbody>{''.join(body)}</tbody></table>")
