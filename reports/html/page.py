"""A run's report as one self-contained HTML page.

The page has to survive being mailed, attached to a CI job or opened years later from an
archive, so it depends on nothing outside the run directory: CSS is inline and figures are
embedded as base64 ``data:`` URIs. The headline (one summary block per model) comes first, the
run's metadata last and collapsed. A run's report also carries the trials viewer
(:mod:`reports.html.trials`): its data, script and media sit in ``report_files/`` beside the
page, loaded with ``<script src>`` (``fetch`` is refused on ``file://``). A
Content-Security-Policy meta tag makes the browser refuse any load from elsewhere (and any
script at all in a page without the viewer), so a stray reference shows up as a console error
in the browser test instead of silently working on one machine only.

Everything that comes from a run (header values, model names, table cells, names of tables and
figures) is HTML-escaped: model output and option values are arbitrary text.
"""

from __future__ import annotations

import base64
import html
import json
import math
import os
from collections.abc import Mapping, Sequence
from pathlib import Path

import pandas as pd

from reports.builders import threshold_section
from reports.html.grid import LINK_AXES, linked_table_html
from reports.stats import sampled
from reports.tables import assisted
from reports.tables.accuracy import CHANCE, SUMMARY_COLUMNS, cell_summary, table1, transcription_f1
from solvers.metrics import DENOMINATOR_EXCLUDED

PathLike = str | os.PathLike[str]

IMAGE_TYPES = {".png": "image/png", ".svg": "image/svg+xml", ".jpg": "image/jpeg",
               ".jpeg": "image/jpeg", ".webp": "image/webp"}
FIGURE_TITLES = {
    "accuracy_by_modality": "Figure 2: accuracy by modality",
    "f1_vs_accuracy": "Figure 3: transcription F1 vs decision accuracy",
}
FIGURE_CAPTIONS = {
    "accuracy_by_modality": (
        "Accuracy on audio and on MIDI per model and task, pooled over shots and strategies, "
        "with Wilson 95 % intervals; the dashed line is chance."
    ),
    "f1_vs_accuracy": (
        "LogicLM trials: transcription F1 of the model's symbolic input (x) against its "
        "decision accuracy (y), per task label and modality, pooled over models and shots."
    ),
}
FIGURE_TITLES[threshold_section.FIGURE_NAME] = threshold_section.FIGURE_TITLE
FIGURE_CAPTIONS[threshold_section.FIGURE_NAME] = threshold_section.FIGURE_CAPTION
CONTENT_SECURITY_POLICY = "default-src 'none'; img-src data:; style-src 'unsafe-inline'"
# with the trials viewer: its scripts and media from the report's own folder, nothing else
VIEWER_POLICY = ("default-src 'none'; script-src 'self'; media-src 'self'; "
                 "img-src data: 'self'; style-src 'unsafe-inline'")
STYLE = """
body { font: 14px/1.45 "DejaVu Sans", "Helvetica Neue", Arial, sans-serif; color: #1d1d1f;
       margin: 0 auto; padding: 1.5em 2em 4em; max-width: 1400px; background: #fff; }
h1 { font-size: 1.6em; margin: 0 0 .2em; }
h1 small { display: block; font-size: .6em; font-weight: normal; color: #555; }
h2 { font-size: 1.2em; margin: 2em 0 .6em; padding-bottom: .2em; border-bottom: 2px solid #ddd; }
nav { margin: .8em 0 1.2em; font-size: .95em; }
nav a { margin-right: 1.1em; color: #0b5cad; text-decoration: none; }
dl.header { display: grid; grid-template-columns: max-content 1fr; gap: .2em 1.2em;
            background: #f6f7f9; border: 1px solid #e1e4e8; padding: .8em 1em; margin: 0; }
dl.header dt { font-weight: bold; color: #333; }
dl.header dd { margin: 0; font-family: "DejaVu Sans Mono", monospace; font-size: .9em;
               overflow-wrap: anywhere; }
.scroll { overflow-x: auto; }
table.data { border-collapse: collapse; font-size: 12.5px; margin: .4em 0; }
table.data th, table.data td { border: 1px solid #d0d4d9; padding: .25em .55em;
                               white-space: nowrap; }
table.data td { font-variant-numeric: tabular-nums; text-align: right; }
table.data thead th { background: #eef1f5; }
table.data tbody th { background: #f8f9fb; text-align: left; }
table.data tbody tr:nth-child(even) td { background: #fbfbfc; }
pre { background: #f6f7f9; border: 1px solid #e1e4e8; padding: .8em; overflow-x: auto;
      font-size: 12px; }
figure { margin: 1em 0 2em; }
figure img { max-width: 100%; height: auto; border: 1px solid #e1e4e8; }
figcaption { color: #444; font-size: .95em; margin-top: .3em; }
p.note { color: #555; }
details.run > summary { cursor: pointer; font-weight: bold; }
.model-block { border: 1px solid #e1e4e8; padding: .2em 1em .6em; margin: .8em 0; }
.model-block h3 { margin: .5em 0; }
td.verdict.above { color: #176a2e; } td.verdict.below, .flag { color: #a3261b; }
a.cell { color: inherit; text-decoration: underline dotted #0b5cad; }
table.confusion td.diag { background: #e6f4ea; } table.confusion td.off { background: #fdecea; }
.matrices { display: flex; flex-wrap: wrap; gap: 0 2em; align-items: flex-start; }
table.trials td { text-align: left; }
form.filters label { margin-right: .8em; white-space: nowrap; }
table.trials tr.wrong td.verdict, table.trials tr.no-answer td.verdict { color: #a3261b; }
#trial-view { border: 2px solid #0b5cad; padding: .5em 1em; margin-top: 1em; }
#trial-view pre { white-space: pre-wrap; max-height: 24em; overflow-y: auto; }
#trial-view .turn.model pre { background: #eef5ee; }
#trial-view img.score { max-width: 100%; border: 1px solid #e1e4e8; }
"""


# --- The standard tables -----------------------------------------------------------------------


def report_tables(
    df: pd.DataFrame, chance: Mapping[str, float] = CHANCE, summary: pd.DataFrame | None = None
) -> dict[str, pd.DataFrame]:
    """The tables a run report shows, by section title, built from trial records.

    * Table 1 -- accuracy with Wilson 95 % interval and n per design cell, as in the paper.
    * Instruction-following rate -- the same grid as Table 1, so a low accuracy can be checked
      at a glance against a formatting failure in the same cell.
    * Error classes and exclusions -- per (model, task, modality): trials run, trials excluded
      from the denominator, trials counted, and the count of every error class that occurred
      (classes that never occurred are left out to keep the table readable).
    * Transcription F1 -- LogicLM input quality per (task, label, modality).

    Tables carry an ``attrs["caption"]`` explaining them; :func:`render_report` prints any
    DataFrame's caption above the table. ``summary``: ``cell_summary(df)`` when the caller
    has it already (a run's report builds it once for Table 1, the CSV and summary.json).
    """
    summary = cell_summary(df) if summary is None else summary
    accuracy = table1(summary, chance)
    accuracy.attrs["caption"] = (
        "Cell: accuracy in percent [Wilson 95 % interval] and n, the trials counted; excl=k "
        "when k trials were left out of the denominator. The last row is each task's chance."
        + assisted.caption(df) + sampled.caption(df)
    )
    f1 = transcription_f1(df)  # every task with a true transcription (others are left out)
    f1.attrs["caption"] = (
        "Micro-averaged over LogicLM trials pooled across models and shots; accuracy is the "
        "decision accuracy of the same trials."
    )
    if f1.attrs.get("without_truth"):
        f1.attrs["caption"] += (
            f" {f1.attrs['without_truth']} LogicLM trials on recordings without a transcription "
            "in their manifest are not scored here: they have no true transcription."
        )
    grid_links = {"index": ("modality", "shot", "strategy"), "columns": ("task", "model")}
    accuracy.attrs[LINK_AXES] = grid_links
    ifr = _ifr_grid(summary, accuracy)
    ifr.attrs[LINK_AXES] = grid_links
    errors = _error_table(summary)
    errors.attrs[LINK_AXES] = {"index": ("model", "task", "modality"),
                               "columns": ("error_class",),
                               "pooled": ("trials", "excluded", "counted")}
    return {
        "Table 1: accuracy (%)": accuracy,
        "Instruction-following rate (%)": ifr,
        "Error classes and exclusions": errors,
        "LogicLM transcription F1": f1,
    }


def _ifr_grid(summary: pd.DataFrame, layout: pd.DataFrame) -> pd.DataFrame:
    """IFR laid out on Table 1's rows and columns (without its chance row)."""
    rows = [key for key in layout.index if key[0] != "Chance"]
    summary = summary.sort_index()  # a lexsorted index: fast lookups, no PerformanceWarning

    def ifr(key: tuple) -> str:
        if key not in summary.index:
            return ""
        value = summary.loc[key, "ifr"]
        return "n/a" if pd.isna(value) else f"{100 * value:.1f}"

    columns = [[ifr((model, task, *row)) for row in rows] for task, model in layout.columns]
    grid = pd.DataFrame(list(zip(*columns, strict=True)) if rows else [],
                        index=pd.MultiIndex.from_tuples(rows, names=layout.index.names),
                        columns=layout.columns, dtype=object)
    grid.attrs["caption"] = (
        "IFR: share of the counted trials whose output gave a valid answer at all."
    )
    return grid


def _error_table(summary: pd.DataFrame) -> pd.DataFrame:
    classes = [c for c in summary.columns
               if c not in SUMMARY_COLUMNS and c not in assisted.ASSISTED_COLUMNS
               and c not in sampled.SAMPLED_COLUMNS]
    occurred = [c for c in classes if summary[c].sum() > 0]
    columns = ["n_trials", "n_excluded", "n", *occurred]
    table = summary[columns].groupby(level=["model", "task", "modality"], sort=False).sum()
    table = table.rename(columns={"n_trials": "trials", "n_excluded": "excluded",
                                  "n": "counted"})
    table.attrs["caption"] = (
        "Excluded from the denominator (no output to judge): "
        f"{', '.join(sorted(DENOMINATOR_EXCLUDED))}. Every other error class counts as a "
        "wrong answer; "
        + (f"classes seen in this run: {', '.join(occurred)}." if occurred
           else "no trial had an error class in this run.")
    )
    return table


# --- Rendering ---------------------------------------------------------------------------------


def render_report(
    header: Mapping[str, object],
    tables: Mapping[str, pd.DataFrame | str],
    figures: Mapping[str, PathLike],
    *,
    headline: str = "",
    views: Sequence[tuple[str, str, str]] = (),
    scripts: Sequence[str] = (),
) -> str:
    """One HTML5 page: title, headline, tables, figures, views, then the run's metadata.

    ``header`` is shown as a definition list in its own order, collapsed at the end of the
    page; ``run_id`` and ``models`` (when present) also make up the title; ``models`` may be a
    list of aliases or a mapping of alias to provider model id. ``headline`` is trusted HTML
    shown first (:mod:`reports.html.headline`). ``tables`` maps a section title to a DataFrame
    (rendered as an HTML table, with its ``attrs["caption"]`` above it if set, and per-cell
    trial links when it has ``attrs["link_axes"]``) or to pre-formatted text such as Markdown
    or a statistics summary (rendered verbatim in ``<pre>``). ``figures`` maps a figure name to
    an image file, which is embedded as a ``data:`` URI. ``views`` are further sections
    (anchor, title, trusted HTML) after the figures; ``scripts`` are paths relative to the
    page, loaded at its end (the trials viewer).

    Raises
    ------
    FileNotFoundError
        If a figure file does not exist.
    ValueError
        If a figure has a file type a browser cannot show inline.
    """
    run_id = _text(header.get("run_id", ""))
    models = _model_names(header.get("models", ""))
    title = "eartest report" + (f" — {run_id}" if run_id else "")
    sections = [("summary", "Summary per model", headline)] if headline else []
    for number, (name, table) in enumerate(tables.items(), start=1):
        sections.append((f"table-{number}", name, _table_block(table)))
    for name, path in figures.items():
        heading = FIGURE_TITLES.get(name, f"Figure: {name}")
        sections.append((f"figure-{_slug(name)}", heading, _figure_block(name, path)))
    sections += list(views)
    sections.append(("run", "Run metadata", '<details class="run"><summary>packages, options, '
                     "renderer hashes…</summary>\n" + _header_list(header) + "\n</details>"))
    nav = " ".join(
        f'<a href="#{anchor}">{html.escape(str(heading))}</a>' for anchor, heading, _ in sections
    )
    body = "\n".join(
        f'<section id="{anchor}">\n<h2>{html.escape(str(heading))}</h2>\n{content}\n</section>'
        for anchor, heading, content in sections
    )
    subtitle = f"<small>models: {html.escape(models)}</small>" if models else ""
    if header.get("complete") is False:  # an interrupted run: say so before anything else
        body = (f'<p class="incomplete"><strong>INCOMPLETE run</strong>: '
                f'{html.escape(str(header.get("trials_recorded")))} of '
                f'{html.escape(str(header.get("trials_expected")))} trials recorded; '
                "complete it with the same command and <code>--resume RUN_DIR</code>.</p>\n"
                + body)
    policy = VIEWER_POLICY if scripts else CONTENT_SECURITY_POLICY
    tags = "".join(f'<script src="{html.escape(src)}"></script>\n' for src in scripts)
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{policy}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{html.escape(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
        f"<header>\n<h1>{html.escape(title)}{subtitle}</h1>\n<nav>{nav}</nav>\n</header>\n"
        f"<main>\n{body}\n</main>\n{tags}</body>\n</html>\n"
    )


def write_report(
    path: PathLike,
    header: Mapping[str, object],
    tables: Mapping[str, pd.DataFrame | str],
    figures: Mapping[str, PathLike],
) -> Path:
    """Render the report (see :func:`render_report`) and write it as UTF-8 to ``path``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_report(header, tables, figures), encoding="utf-8")
    return path


def _text(value: object) -> str:
    """Plain text for a header value: sequences joined, mappings as compact JSON."""
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping):
        return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
    if isinstance(value, list | tuple | set | frozenset):
        items = sorted(value, key=str) if isinstance(value, set | frozenset) else value
        return ", ".join(_text(v) for v in items)
    if value is None:
        return "—"
    return str(value)


def _model_names(models: object) -> str:
    """Models for the title: aliases, with the provider's id when it differs from the alias."""
    if isinstance(models, Mapping):
        return ", ".join(
            str(alias) if str(alias) == _text(ident) else f"{alias} ({_text(ident)})"
            for alias, ident in models.items()
        )
    return _text(models)


def _header_list(header: Mapping[str, object]) -> str:
    if not header:
        return '<p class="note">No run header was recorded.</p>'
    rows = []
    for key, value in header.items():
        if isinstance(value, Mapping) and value and all(
            not isinstance(v, Mapping) for v in value.values()
        ):
            # One level of nesting (package versions, options) reads better as "name = value"
            # lines than as one JSON blob.
            inner = "<br>".join(
                f"{html.escape(str(k))} = {html.escape(_text(v))}" for k, v in value.items()
            )
        else:
            inner = html.escape(_text(value))
        rows.append(f"<dt>{html.escape(str(key))}</dt><dd>{inner}</dd>")
    return '<dl class="header">\n' + "\n".join(rows) + "\n</dl>"


def _table_block(table: pd.DataFrame | str) -> str:
    if isinstance(table, str):
        return f"<pre>{html.escape(table)}</pre>"
    caption = table.attrs.get("caption")
    note = f'<p class="note">{html.escape(str(caption))}</p>\n' if caption else ""
    if table.empty:
        return note + '<p class="note">No rows (nothing of this kind in the run).</p>'
    if LINK_AXES in table.attrs:
        return f'{note}<div class="scroll">\n{linked_table_html(table, _format_value)}\n</div>'
    rendered = table.to_html(
        escape=True, classes="data", border=0, na_rep="", float_format=_format_float,
        sparsify=True,
    )
    return f'{note}<div class="scroll">\n{rendered}\n</div>'


def _format_float(value: float) -> str:
    return "" if math.isnan(value) else f"{value:.3f}"


def _format_value(value: object) -> str:
    return _format_float(value) if isinstance(value, float) else str(value)


def _figure_block(name: str, path: PathLike) -> str:
    path = Path(path)
    mime = IMAGE_TYPES.get(path.suffix.lower())
    if mime is None:
        raise ValueError(f"figure {name!r}: cannot embed {path.name} (use one of "
                         f"{', '.join(sorted(IMAGE_TYPES))})")
    data = base64.b64encode(path.read_bytes()).decode("ascii")
    caption = FIGURE_CAPTIONS.get(name, "")
    return (
        f'<figure>\n<img src="data:{mime};base64,{data}" alt="{html.escape(name)}">\n'
        f"<figcaption>{html.escape(caption or name)}</figcaption>\n</figure>"
    )


def _slug(name: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in name.lower()).strip("-") or "figure"

