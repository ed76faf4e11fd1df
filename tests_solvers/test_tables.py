"""Report tables from trial records: hand-made records for the policy, a real run for the whole."""

from __future__ import annotations

import io
import json
import math
import subprocess
from pathlib import Path

import pandas as pd
import pytest

from reports.tables.accuracy import (
    CELL_KEYS,
    cell_summary,
    load_records,
    table1,
    table1_csv,
    table1_markdown,
    transcription_f1,
)
from tests_solvers import CORE_BENCH, PYTEST

REPO_ROOT = Path(__file__).resolve().parent.parent
GRID_ROWS = [
    (modality, shot, strategy)
    for modality in ("audio", "midi")
    for shot in ("zero", "few")
    for strategy in ("standalone", "cot", "logiclm")
]


def make_record(item: str, **fields) -> dict:
    """A minimal valid record of the previous shape (``record_version`` 1, flat, which
    load_records still reads): a correct MIDI zero-shot standalone chord trial by default."""
    record = {
        "record_version": 1, "model": "m", "task": "chord", "modality": "midi", "shot": "zero",
        "strategy": "standalone", "item_id": item, "truth": "A", "parsed_answer": "A",
        "correct": True, "error_class": None, "truth_transcription": [[60, 64, 67]],
        "transcription": None, "turns": [],
    }
    record.update(fields)
    record["trial_id"] = "/".join(
        [record["task"], record["modality"], record["shot"], record["strategy"], item]
    )
    return record


def write_run(run_dir: Path, records: list[dict], extra_lines: tuple[str, ...] = ()) -> Path:
    run_dir.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps(r) for r in records] + list(extra_lines)
    (run_dir / "trials.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return run_dir


def failed(item: str, error_class: str, **fields) -> dict:
    return make_record(item, parsed_answer=None, correct=False, error_class=error_class, **fields)


# --- Loading -----------------------------------------------------------------------------------


def test_load_accepts_run_dirs_and_files_and_concatenates(tmp_path):
    first = write_run(tmp_path / "a", [make_record("c1"), make_record("c2")])
    second = write_run(tmp_path / "b", [make_record("c1", model="other")])
    df = load_records([first, second / "trials.jsonl"])
    assert len(df) == 3
    assert set(df["model"]) == {"m", "other"}
    assert len(load_records(first)) == 2


def test_duplicate_trial_across_runs_is_an_error(tmp_path):
    first = write_run(tmp_path / "a", [make_record("c1")])
    second = write_run(tmp_path / "b", [make_record("c2"), make_record("c1")])
    with pytest.raises(ValueError, match="chord/midi/zero/standalone/c1") as info:
        load_records([first, second])
    assert "'m'" in str(info.value) and "trials.jsonl:2" in str(info.value)


@pytest.mark.parametrize(
    ("line", "message"),
    [("{not json", "not valid JSON"), ("[1, 2]", "JSON object"),
         ('{"model": "m"}', "field 'record_version': missing"),
         ('{"record_version": 1, "model": "m"}', "field 'task': missing")],
)
def test_unreadable_line_names_file_and_line(tmp_path, line, message):
    run = write_run(tmp_path / "a", [make_record("c1")], extra_lines=(line,))
    with pytest.raises(ValueError, match=message) as info:
        load_records(run)
    assert f"{run / 'trials.jsonl'}:2" in str(info.value)


def test_missing_run_is_reported(tmp_path):
    with pytest.raises(FileNotFoundError, match="no trial records"):
        load_records(tmp_path / "nowhere")


# --- Denominator policy ------------------------------------------------------------------------


def test_token_limited_output_is_excluded_but_a_missing_answer_counts_wrong(tmp_path):
    records = [
        make_record("c1"),
        make_record("c2"),
        failed("c3", "token_limit"),
        failed("c4", "no_final_answer"),
        failed("c5", "empty_output"),
        failed("c6", "backend_error"),
        failed("c7", "safety_block"),
        make_record("c8", parsed_answer="B", correct=False),
    ]
    summary = cell_summary(load_records(write_run(tmp_path / "run", records)))
    cell = summary.loc[("m", "chord", "midi", "zero", "standalone")]
    assert cell["n_trials"] == 8
    assert cell["n_excluded"] == 3
    assert cell["n"] == 5
    assert cell["correct"] == 2
    assert cell["accuracy"] == pytest.approx(2 / 5)
    assert cell["ifr"] == pytest.approx(3 / 5)  # c1, c2 and the wrong-but-valid c8
    assert cell["ci_low"] < 0.4 < cell["ci_high"]
    for error_class in ("token_limit", "no_final_answer", "empty_output", "backend_error",
                        "safety_block"):
        assert cell[error_class] == 1
    assert cell["schema_parse"] == 0


def test_a_cell_with_nothing_countable_has_no_accuracy():
    df = pd.DataFrame([failed("c1", "token_limit"), failed("c2", "empty_output")])
    summary = cell_summary(df)
    cell = summary.iloc[0]
    assert cell["n"] == 0 and cell["n_excluded"] == 2
    assert math.isnan(cell["accuracy"]) and math.isnan(cell["ci_low"])
    assert table1(summary).loc[("midi", "zero", "standalone"), ("chord", "m")] == "n/a n=0 excl=2"


def test_summary_is_in_the_papers_order():
    df = pd.DataFrame(
        [make_record("x", task=task, modality=modality, shot=shot, strategy=strategy)
         for task in ("chord", "transposition", "syncopation")
         for modality, shot, strategy in reversed(GRID_ROWS)]
    )
    summary = cell_summary(df)
    assert list(summary.index.names) == list(CELL_KEYS)
    assert list(summary.index.get_level_values("task").unique()) == [
        "syncopation", "transposition", "chord"
    ]
    assert [key[2:] for key in summary.index[:12]] == GRID_ROWS


# --- Table 1 -----------------------------------------------------------------------------------


def test_table1_layout_and_cell_format():
    records = [make_record(f"c{i}", correct=i < 17, parsed_answer="A" if i < 17 else "B")
               for i in range(20)]
    records += [make_record("s1", task="syncopation", model="n", modality="audio", shot="few",
                            strategy="cot", truth="C", parsed_answer="C")]
    records += [failed("s2", "token_limit", task="syncopation", model="n", modality="audio",
                       shot="few", strategy="cot", truth="C")]
    table = table1(cell_summary(pd.DataFrame(records)))
    assert table.shape == (13, 4)
    assert list(table.index[:12]) == GRID_ROWS
    assert table.index[12] == ("Chance", "", "")
    assert list(table.columns) == [("syncopation", "m"), ("syncopation", "n"),
                                   ("chord", "m"), ("chord", "n")]
    assert table.loc[("midi", "zero", "standalone"), ("chord", "m")] == "85.0 [64.0, 94.8] n=20"
    assert table.loc[("audio", "few", "cot"), ("syncopation", "n")].endswith("n=1 excl=1")
    assert table.loc[("audio", "zero", "cot"), ("chord", "m")] == ""
    assert list(table.loc[("Chance", "", "")]) == ["20.0", "20.0", "25.0", "25.0"]


def test_table1_markdown_and_csv():
    records = [make_record(f"c{i}") for i in range(4)] + [failed("c9", "undecidable")]
    summary = cell_summary(pd.DataFrame(records))
    markdown = table1_markdown(summary, models=["m"])
    lines = markdown.strip().splitlines()
    assert len(lines) == 2 + 13
    assert lines[0] == "| Modality | Shot | Strategy | chord / m |"
    assert "| midi | zero | standalone | 80.0 [37.6, 96.4] n=5 |" in lines
    parsed = pd.read_csv(io.StringIO(table1_csv(summary)))
    assert list(parsed.columns[:5]) == list(CELL_KEYS)
    row = parsed.iloc[0]
    assert (row["n"], row["correct"], row["accuracy"], row["ifr"]) == (5, 4, 0.8, 0.8)
    assert 0 < row["ci_low"] < 0.8 < row["ci_high"] <= 1


# --- Transcription F1 --------------------------------------------------------------------------


def test_transcription_f1_micro_averages_per_label_and_modality():
    logic = {"strategy": "logiclm"}
    records = [
        make_record("c1", transcription=[[60, 64, 67]], **logic),
        make_record("c2", truth="D", truth_transcription=[[60, 63, 66]], parsed_answer=None,
                    correct=False, error_class="schema_parse", **logic),
        make_record("c3", truth="A", transcription=[[60, 64, 68]], parsed_answer="B",
                    correct=False, shot="few", **logic),
        failed("c4", "token_limit", **logic),  # no output: not scored
        make_record("c5", transcription=[[1, 2, 3]]),  # not LogicLM: not scored
        make_record("s1", task="syncopation", truth="B", truth_transcription=[[1, 2, 3, 4]],
                    transcription=[[1, 4, 6]], parsed_answer="B", **logic),
        make_record("t1", task="transposition", truth="no", modality="audio",
                    truth_transcription=[[60, 62], [61, 65]], transcription=[[72, 74], [61]],
                    parsed_answer="no", **logic),
    ]
    table = transcription_f1(pd.DataFrame(records))
    assert list(table.index.names) == ["task", "label", "modality"]
    assert list(table.index) == [
        ("syncopation", "on-beat", "midi"), ("syncopation", "off-beat", "midi"),
        ("transposition", "no", "audio"),
        ("chord", "major", "midi"), ("chord", "diminished", "midi"),
    ]
    major = table.loc[("chord", "major", "midi")]
    assert (major["n_trials"], major["tp"], major["fp"], major["fn"]) == (2, 5, 1, 1)
    assert major["f1"] == pytest.approx(10 / 12)
    assert major["accuracy"] == 0.5
    diminished = table.loc[("chord", "diminished", "midi")]
    assert (diminished["tp"], diminished["fp"], diminished["fn"], diminished["f1"]) == (0, 0, 3, 0)
    off = table.loc[("syncopation", "off-beat", "midi")]
    assert (off["tp"], off["fp"], off["fn"], off["accuracy"]) == (1, 1, 1, 1.0)
    trans = table.loc[("transposition", "no", "audio")]
    assert (trans["tp"], trans["fp"], trans["fn"]) == (3, 0, 1)
    by_model = transcription_f1(pd.DataFrame(records), by_model=True)
    assert by_model.index.names[0] == "model" and len(by_model) == len(table)


# --- A real oracle + chance run ----------------------------------------------------------------


@pytest.fixture(scope="module")
def real_run(tmp_path_factory) -> pd.DataFrame:
    run_dir = tmp_path_factory.mktemp("oracle_chance_run")
    completed = subprocess.run(
        [*PYTEST, *CORE_BENCH, "--model", "oracle,chance", "--modality",
         "midi", "-q", "-p", "no:cacheprovider", "--run-dir", str(run_dir),
         "--no-report"],  # the tables are built here from the records
        cwd=REPO_ROOT, capture_output=True, text=True, timeout=600,
    )
    # the chance model fails most trials, so pytest exits 1; anything else is a broken run
    assert completed.returncode in (0, 1), completed.stdout[-3000:] + completed.stderr[-3000:]
    return load_records(run_dir)


def test_real_run_oracle_is_perfect_everywhere(real_run):
    summary = cell_summary(real_run)
    oracle = summary.loc["oracle"]
    assert len(oracle) == 3 * 2 * 3  # tasks × shots × strategies, MIDI only
    assert (oracle["accuracy"] == 1.0).all()
    assert (oracle["ifr"] == 1.0).all()
    assert (oracle["n_excluded"] == 0).all()
    assert (oracle["n"] == oracle["n_trials"]).all()
    f1 = transcription_f1(real_run, by_model=True).loc["oracle"]
    assert len(f1) == 2 + 2 + 4
    assert (f1["f1"] == 1.0).all() and (f1["accuracy"] == 1.0).all()


def test_real_run_chance_is_fully_counted_and_imperfect(real_run):
    chance = cell_summary(real_run).loc["chance"]
    assert (chance["n_excluded"] == 0).all()
    assert (chance["ifr"] == 1.0).all()
    assert (chance["accuracy"] < 1.0).all()
    f1 = transcription_f1(real_run, by_model=True).loc["chance"]
    assert (f1["f1"] < 1.0).all()


def test_real_run_table1_shape(real_run):
    table = table1(cell_summary(real_run))
    assert table.shape == (13, 6)
    assert list(table.index[:12]) == GRID_ROWS
    assert [task for task, _ in table.columns] == ["syncopation"] * 2 + ["transposition"] * 2 + [
        "chord"
    ] * 2
    assert {model for _, model in table.columns} == {"oracle", "chance"}
    midi = table.loc["midi"]
    assert midi[[c for c in table.columns if c[1] == "oracle"]].map(
        lambda s: s.startswith("100.0 [")).all().all()
    assert (table.loc["audio"] == "").all().all()
    markdown = table1_markdown(cell_summary(real_run))
    assert len(markdown.strip().splitlines()) == 15
