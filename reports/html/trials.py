"""The report's drill-down: every trial, one click from the numbers, in a small offline viewer.

A run of 18,928 trials cannot be one HTML page of trials and stay responsive, so the trials go
into a data file, ``report_files/trials.js``, which assigns one global (a ``<script src>``
loads it from ``file://``, where ``fetch`` is refused), and ``report_files/report.js`` (from
``reports/static``) renders one page of the filtered list at a time and one trial on demand.
The media a trial was played (WAV, score PNG) are linked into ``report_files/media/`` by
content hash, so ``report.html`` plus that folder is the whole report, offline.

Rows are arrays in the order of :data:`TRIAL_FIELDS` (names once, not per trial); a trial's
prompt is a reference into ``prompts`` and ``texts`` (:mod:`reports.run.prompt_store`), shared by
every trial shown the same text.
"""

from __future__ import annotations

import json
import math
import os
import shutil
from pathlib import Path
from urllib.parse import urlencode

import pandas as pd

from reports.run.prompt_store import load_prompts

FILES_DIR = "report_files"
DATA_FILE = "trials.js"
SCRIPT_FILE = "report.js"
STATIC_DIR = Path(__file__).resolve().parents[1] / "static"
TRIAL_FIELDS = (
    "model", "family", "task", "modality", "shot", "strategy", "control", "rendition",
    "item_id", "trial_id", "truth", "truth_label", "parsed_answer", "correct", "error_class",
    "error_message", "answer_source", "answer_via", "solver_verdict", "transcription",
    "truth_transcription", "repair_rounds", "repair_errors", "notation", "condition",
    "extracted_answer", "assisted_correct", "prompt_hash", "experiment", "dataset",
)
TURN_FIELDS = ("round", "purpose", "text", "prompt_hash", "finish_reason", "repair_reason",
               "error", "cached")
FILTERS = ("model", "task", "modality", "shot", "strategy", "control", "error_class", "verdict")
MEDIA_SUFFIX = {"audio/wav": ".wav", "audio/x-wav": ".wav", "image/png": ".png",
                "image/jpeg": ".jpg", "audio/mpeg": ".mp3", "audio/flac": ".flac"}


def trials_link(filters: dict[str, object]) -> str:
    """The in-page link to the trials list filtered to ``filters`` (read by report.js).

    A table's task ``chord@live`` (:func:`reports.tables.accuracy.with_rendition_in_task`) is the
    records' task ``chord`` with rendition ``live``."""
    plain = {k: str(v) for k, v in filters.items()}
    if "@" in plain.get("task", ""):
        plain["task"], plain["rendition"] = plain["task"].split("@", 1)
    return "#trials?" + urlencode(plain)


def _plain(value: object) -> object:
    """A JSON-ready value: NaN and pandas' missing values as null, numpy scalars as Python."""
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    if hasattr(value, "item"):
        return _plain(value.item())
    if value is pd.NA:
        return None
    return value


def trial_rows(df: pd.DataFrame) -> tuple[list[list], list[list]]:
    """(rows, turns) of the records in :data:`TRIAL_FIELDS` / :data:`TURN_FIELDS` order."""
    present = [f for f in TRIAL_FIELDS if f in df.columns]
    columns = {f: df[f].tolist() if f in present else [None] * len(df) for f in TRIAL_FIELDS}
    rows = [[_plain(columns[f][i]) for f in TRIAL_FIELDS] for i in range(len(df))]
    raw_turns = df["turns"].tolist() if "turns" in df.columns else [[]] * len(df)
    turns = [[[_plain(turn.get(f)) for f in TURN_FIELDS] for turn in t]
             if isinstance(t, list) else [] for t in raw_turns]
    return rows, turns


def _link_media(source: Path, target: Path) -> bool:
    """Hard-link (else copy) one media file into the report folder; False when it is gone."""
    if target.exists():
        return True
    if not source.is_file():
        return False
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)
    return True


def _media_and_texts(prompts: dict[str, dict], media_dir: Path
                     ) -> tuple[dict[str, dict], dict[str, str], set[str]]:
    """(the prompts as the page shows them, media path by SHA-256, text ids used): each media
    file linked into ``media_dir`` once, and the machine's paths left out of the page."""
    media: dict[str, str] = {}
    text_ids: set[str] = set()
    shown: dict[str, dict] = {}
    for prompt_hash, prompt in prompts.items():
        text_ids.add(prompt.get("system", ""))
        turns = []
        for turn in prompt.get("turns", []):
            parts = []
            for part in turn.get("parts", []):
                if "text" in part:
                    text_ids.add(part["text"])
                    parts.append(part)
                    continue
                sha = str(part.get("sha256", ""))
                parts.append({"media": part.get("media", ""), "sha256": sha})
                name = sha[:24] + MEDIA_SUFFIX.get(part.get("media", ""), ".bin")
                if sha and sha not in media and _link_media(Path(part.get("path", "")),
                                                            media_dir / name):
                    media[sha] = f"{FILES_DIR}/media/{name}"
            turns.append({"role": turn.get("role", "user"), "parts": parts})
        shown[prompt_hash] = {"system": prompt.get("system", ""), "turns": turns}
    return shown, media, text_ids


def write_trial_files(df: pd.DataFrame, out_dir: Path) -> dict[str, Path]:
    """Write ``report_files/`` (data, script, media) for the records ``df`` of ``out_dir``.

    Prompts come from ``out_dir/prompts.jsonl`` when the run has one; media files that are no
    longer where the run found them are left out (the trial view says so)."""
    folder = out_dir / FILES_DIR
    media_dir = folder / "media"
    media_dir.mkdir(parents=True, exist_ok=True)
    rows, turns = trial_rows(df)
    texts, prompts = load_prompts([out_dir])
    hashes = {row[TRIAL_FIELDS.index("prompt_hash")] for row in rows}
    hashes |= {turn[TURN_FIELDS.index("prompt_hash")] for t in turns for turn in t}
    used = {h: prompts[h] for h in hashes if h in prompts}
    shown, media, text_ids = _media_and_texts(used, media_dir)
    data = {
        "fields": TRIAL_FIELDS, "turn_fields": TURN_FIELDS, "filters": FILTERS,
        "rows": rows, "turns": turns, "prompts": shown, "media": media,
        "texts": {k: texts[k] for k in text_ids if k in texts},
    }
    data_path = folder / DATA_FILE
    data_path.write_text("window.EARTEST_TRIALS = " + json.dumps(
        data, ensure_ascii=False, separators=(",", ":"), default=str) + ";\n", encoding="utf-8")
    script = folder / SCRIPT_FILE
    shutil.copyfile(STATIC_DIR / SCRIPT_FILE, script)
    return {f"{FILES_DIR}/{DATA_FILE}": data_path, f"{FILES_DIR}/{SCRIPT_FILE}": script}


def trials_section() -> str:
    """The trials view's skeleton (filters, list, one trial); report.js fills it in."""
    selects = "\n".join(
        f'<label>{name.replace("_", " ")} <select data-filter="{name}">'
        '<option value="">all</option></select></label>' for name in FILTERS)
    return (
        '<p class="note">Every trial of the run. Filter below or click a number anywhere in '
        "the report; click a trial for what it was played and shown, every reply and its "
        "verdict.</p>\n"
        f'<form id="trial-filters" class="filters">\n{selects}\n'
        '<label>item <input type="search" data-filter="item" size="14"></label>\n'
        '<button type="button" id="trial-reset">clear</button></form>\n'
        '<p id="trial-count" class="note">Loading trials…</p>\n'
        '<div class="scroll"><table class="data trials" id="trial-list"><thead><tr>'
        "<th>trial</th><th>model</th><th>answer</th><th>truth</th><th>verdict</th>"
        "<th>error class</th></tr></thead><tbody></tbody></table></div>\n"
        '<p class="pager"><button type="button" id="trial-prev">previous</button> '
        '<span id="trial-page"></span> '
        '<button type="button" id="trial-next">next</button></p>\n'
        '<div id="trial-view" hidden></div>\n'
        f'<noscript><p class="note">The trial list needs JavaScript; the records are in '
        f"trials.jsonl.</p></noscript>"
    )
