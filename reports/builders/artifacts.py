"""Everything a run leaves behind besides its trial records, built from those records alone.

Both the pytest plugin (at the end of a run) and ``python -m reports build`` (merging runs or
shards) call :func:`write_artifacts`, so a merged report and a single run's report are made by
the same code from the same kind of input.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pandas as pd

from reports.builders.figure_worker import FigureDrawer
from reports.tables import accuracy as tables
from reports.tables.terminal import answered, billed, table_lines
from solvers.new_requests import new_request_turns

SUMMARY_VERSION = 1


def _jsonable(value: object) -> object:
    if isinstance(value, float) and math.isnan(value):
        return None
    if hasattr(value, "item"):  # numpy scalars
        return _jsonable(value.item())
    return value


def frame_rows(frame: pd.DataFrame) -> list[dict]:
    flat = frame.reset_index()
    return [{k: _jsonable(v) for k, v in row.items()} for row in flat.to_dict(orient="records")]


def pooled_by_modality(summary: pd.DataFrame) -> pd.DataFrame:
    """Accuracy per model × task × modality, pooled over shots and strategies."""
    counts = ["n_trials", "n_excluded", "n", "correct"]
    counts += ["assisted_correct"] if "assisted_correct" in summary.columns else []
    sums = summary.groupby(level=["model", "task", "modality"], sort=False)[counts].sum()
    sums["accuracy"] = sums["correct"] / sums["n"].where(sums["n"] > 0)
    if "assisted_correct" in sums.columns:
        sums["assisted_accuracy"] = sums["assisted_correct"] / sums["n"].where(sums["n"] > 0)
    if "mean_accuracy" in summary.columns:  # --samples K: trial-weighted over the cells
        levels = ["model", "task", "modality"]
        weights = summary["n_trials"]
        for column in ("mean_accuracy", "agreement"):
            weighted = (summary[column] * weights).groupby(level=levels, sort=False).sum()
            sums[column] = weighted / weights.groupby(level=levels, sort=False).sum()
    return sums


def compact_table(pooled: pd.DataFrame) -> list[str]:
    """Accuracy per model and task, audio vs MIDI, pooled over shots and strategies
    (:func:`pooled_by_modality`), as the terminal prints it."""
    return table_lines([(key, row) for key, row in pooled.iterrows()],
                       assisted="assisted_accuracy" in pooled.columns,  # --answer-extractor
                       sampled="mean_accuracy" in pooled.columns)  # --samples K: majority


def usage_by_model(df: pd.DataFrame) -> dict[str, dict]:
    """Tokens, estimated cost and cache use per model, for the run summary."""
    usage: dict[str, dict] = {}
    for model, group in df.groupby("model", sort=True):
        costs = group.get("estimated_cost_usd", pd.Series([None] * len(group)))
        known = costs.dropna()
        turns = [turn for turns in group.get("turns", []) for turn in turns]
        new_costs = group.get("new_cost_usd", pd.Series([None] * len(group))).dropna()
        new = new_request_turns(turns)  # each request this run sent once, across trials
        usage[str(model)] = {
            "trials": int(len(group)),
            "requests": len(turns),
            # replays of earlier runs' answers and repeats of a request this run sent already
            "cached_requests": answered(turns) - len(new),
            "new_requests": len(new),
            "new_cost_usd": round(float(new_costs.sum()), 6) if len(new_costs) else None,
            "input_tokens": int(group.get("input_tokens", pd.Series([0])).fillna(0).sum()),
            "output_tokens": int(group.get("output_tokens", pd.Series([0])).fillna(0).sum()),
            "estimated_cost_usd": round(float(known.sum()), 6) if len(known) else None,
            **billed(new),
        }
    return {**usage, **_extractor_usage(df)}


def _extractor_usage(df: pd.DataFrame) -> dict[str, dict]:
    """Requests and tokens of the answer extractor (``--answer-extractor``), under its name."""
    if "extractor_model" not in df.columns:
        return {}
    usage: dict[str, dict] = {}
    for model, group in df.groupby("extractor_model", sort=True):
        turns = [turn for turns in group["extractor_turns"] if isinstance(turns, list)
                 for turn in turns]
        usage[f"{model} (answer extractor)"] = {
            "trials": len(turns),
            "requests": len(turns),
            "cached_requests": answered(turns) - len(new_request_turns(turns)),
            "new_requests": len(new_request_turns(turns)),
            "new_cost_usd": None,
            "input_tokens": sum(int(turn.get("input_tokens") or 0) for turn in turns),
            "output_tokens": sum(int(turn.get("output_tokens") or 0) for turn in turns),
            "estimated_cost_usd": None,
        }
    return usage


def write_artifacts(df: pd.DataFrame, out_dir: Path, header: dict,
                    drawer: FigureDrawer | None = None) -> dict[str, Path]:
    """Write tables, figures, statistics, ``summary.json`` and ``report.html`` into ``out_dir``.

    The paper's and the factors' figures go to ``drawer`` first (a :class:`FigureWorker` draws
    them in another process while the tables are built here; by default they are drawn here)."""
    from reports.builders.factor_section import start_factor_section
    from reports.builders.figure_worker import DrawHere, paper_figures
    from reports.builders.pitch_confusion_section import pitch_confusion_section
    from reports.builders.sections import records_for, sections_by_family, unbuilt_sections
    from reports.builders.threshold_section import threshold_section
    from reports.html import page as html
    from reports.html.grid import LINK_AXES
    from reports.html.views import report_views
    from reports.stats import inference as stats
    from reports.tables import (
        assisted,
        controls,
    )
    from reports.tables import (
        mcq as mcq_tables,
    )
    from reports.tables import (
        musepub as musepub_tables,
    )
    from reports.tables import (
        pitch as pitch_tables,
    )
    from reports.tables.humans import human_report_tables
    from reports.tables.published import published_report_tables

    out_dir.mkdir(parents=True, exist_ok=True)
    drawer = drawer or DrawHere()
    every_record = df  # the trials viewer shows them all, control trials too
    by_family = sections_by_family(header)
    real = controls.real_records(df)  # control trials are reported in controls.md only
    figure_records = records_for(real, "figures", by_family)
    paper_drawing = drawer.draw(paper_figures, figure_records, out_dir) \
        if len(figure_records) else None
    finish_factor_section = start_factor_section(real, out_dir, drawer)
    control_summary = controls.control_summary(records_for(df, "controls", by_family))
    pitch = pitch_tables.pitch_records(records_for(real, "pitch_tables", by_family))
    pitch_summary = pitch_tables.pitch_summary(pitch)
    mcq = mcq_tables.mcq_records(records_for(real, "mcq_tables", by_family))
    mcq_summary = mcq_tables.mcq_summary(mcq)
    musepub_summary = musepub_tables.musepub_summary(
        records_for(real, "musepub_tables", by_family), header)
    df = records_for(real, "table1", by_family)  # Table 1, its HTML tables and the GLMM
    summary = tables.cell_summary(df)
    f1_by_model = tables.transcription_f1(records_for(real, "transcription_f1", by_family),
                                          by_model=True)
    glmm = stats.glmm_by_task(df)
    written: dict[str, Path] = {}

    def put(name: str, text: str) -> None:
        path = out_dir / name
        path.write_text(text, encoding="utf-8")
        written[name] = path

    chance = tables.chance_levels(header, df)
    table1_md = tables.table1_markdown(summary, chance)
    put("table1.md", table1_md + "\n")
    put("table1.csv", tables.table1_csv(summary))
    put("transcription_f1.csv", f1_by_model.reset_index().to_csv(index=False))
    if glmm is not None:
        put("glmm.csv", glmm.to_csv(index=False))
    if not pitch.empty:
        put("pitch.md", pitch_tables.pitch_markdown(pitch))
        put("pitch.csv", pitch_summary.to_csv(index=False))
    if not mcq_summary.empty:
        put("mcq.md", mcq_tables.mcq_markdown(mcq_summary, mcq))
        put("mcq.csv", mcq_summary.to_csv(index=False))
    if not musepub_summary.empty:
        put("musepub.md", musepub_tables.musepub_markdown(musepub_summary))
        put("musepub.csv", musepub_summary.to_csv(index=False))
    if not control_summary.empty:
        put("controls.md", controls.controls_markdown(control_summary))
        put("controls.csv", control_summary.to_csv(index=False))
    threshold_files, threshold_tables, threshold_figures, thresholds = threshold_section(
        pitch, out_dir)
    written.update(threshold_files)
    put(
        "summary.json",
        json.dumps(
            {
                "summary_version": SUMMARY_VERSION,
                # False for an interrupted run (--resume completes it); None when unknown
                "complete": header.get("complete"),
                "header": header,
                "usage": usage_by_model(df),
                "cells": frame_rows(summary),
                "transcription_f1": frame_rows(f1_by_model),
                "glmm": None if glmm is None else frame_rows(glmm),
                "pitch": frame_rows(pitch_summary) if not pitch.empty else [],
                "mcq": frame_rows(mcq_summary) if not mcq_summary.empty else [],
                "musepub": frame_rows(musepub_summary) if not musepub_summary.empty else [],
                "controls": frame_rows(control_summary),
                "thresholds": thresholds,
                "unbuilt_report_sections": unbuilt_sections(by_family),
            },
            indent=2,
            sort_keys=True,
            default=str,
        )
        + "\n",
    )
    report_tables: dict[str, pd.DataFrame | str] = (
        dict(html.report_tables(df, chance, summary)) if len(df) else {}
    )
    if not pitch.empty:
        pitch_table = pitch_tables.pitch_table(pitch_summary)
        pitch_table.attrs["caption"] = (
            "Pitch experiments: accuracy in percent (n). 'any' counts an item right if its MIDI, "
            "SPN or Hz answer was; solfège is octave-free and shown apart; chance is the "
            "any-notation chance of a uniform guesser."
        ) + assisted.caption(pitch)
        pitch_table.attrs[LINK_AXES] = {"index": ("experiment",),
                                        "columns": ("model", "notation")}
        report_tables["Pitch experiments (PitchBench)"] = pitch_table
        partial = pitch_tables.partial_credit_table(pitch_tables.partial_credit_summary(pitch))
        if not partial.empty:
            partial.attrs["caption"] = pitch_tables.PARTIAL_CAPTION
            partial.attrs[LINK_AXES] = {"index": ("model", "experiment", "notation"),
                                        "columns": (None,)}
            report_tables["Pitch partial credit"] = partial
    report_tables.update(threshold_tables)
    if not mcq_summary.empty:
        mcq_table = mcq_tables.mcq_table(mcq_summary)
        mcq_table.attrs["caption"] = (
            "Multiple-choice datasets: accuracy with Wilson 95 % interval and instruction-"
            "following rate (a reply naming exactly one option), over all repeats; a question "
            "counts in each category and dimension it covers; chance is 1 / number of options; "
            "'questions': of the dataset's questions, how many the condition ran (those "
            "without their audio or image file run only without media)."
        ) + assisted.caption(mcq)
        report_tables["Multiple-choice datasets (MuChoMusic / WildScore layouts)"] = mcq_table
        report_tables.update(mcq_tables.mcq_report_tables(mcq))
    if not musepub_summary.empty:
        musepub_table = musepub_tables.musepub_table(musepub_summary)
        musepub_table.attrs["caption"] = musepub_tables.CAPTION
        report_tables["MUSE as published (its recordings)"] = musepub_table
    if not control_summary.empty:
        control_table = controls.controls_table(control_summary)
        control_table.attrs["caption"] = controls.CAPTION
        control_table.attrs[LINK_AXES] = {"index": tuple(control_table.index.names),
                                          "columns": (None,)}
        report_tables["Audio-attention controls"] = control_table
    report_tables.update(human_report_tables(df))  # listeners beside the models
    report_tables.update(published_report_tables(real))  # the seed papers' own numbers
    if glmm is not None:
        glmm.attrs["caption"] = (
            "Per task: logistic mixed model correct ~ model * modality + (1 | stimulus), "
            "effects coding, joint Wald tests per term."
        )
        report_tables["Statistics: logistic mixed model per task"] = glmm
    views = report_views(every_record, real, control_summary, thresholds, out_dir,
                         records_for(real, "confusion", by_family))
    written.update(views.files)
    factor_files, factor_view = finish_factor_section()
    written.update(factor_files)
    confusion_files, confusion_view = pitch_confusion_section(pitch, out_dir)
    written.update(confusion_files)
    views.sections[0:0] = [view for view in (factor_view, confusion_view) if view is not None]
    figure_paths = paper_drawing.result() if paper_drawing is not None else {}
    written.update({path.name: path for path in figure_paths.values()})
    put("report.html", html.render_report(header, report_tables,
                                          {**figure_paths, **threshold_figures},
                                          headline=views.headline, views=views.sections,
                                          scripts=views.scripts))
    return written
