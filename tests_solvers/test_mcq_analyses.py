"""MuChoMusic's analyses from records: genre, annotator columns, and the distractor kinds."""

from __future__ import annotations

import pandas as pd
import pytest

from reports.tables.mcq import mcq_markdown, mcq_report_tables, mcq_summary
from reports.tables.mcq_analyses import distractor_summary, distractor_table

KINDS = ["incorrect_but_related", "correct", "correct_but_unrelated", "incorrect_and_unrelated"]


def _record(answer: str | None, genre: str = "Jazz", agreement: float | None = 1.0,
            odd: float | None = 0.0, kinds: list | None = KINDS, model: str = "m") -> dict:
    """A MuChoMusic record whose correct option is B (the kinds are in presented order)."""
    return {"family": "mcq", "model": model, "dataset": "muchomusic", "condition": "audio",
            "shot": "zero", "categories": ["knowledge"], "subcategories": ["melody"],
            "genre": genre, "annotator_agreement": agreement, "odd_question": odd,
            "option_kinds": kinds, "parsed_answer": answer, "correct": answer == "B",
            "error_class": None if answer else "no_option_named",
            "answer_source": "final_line" if answer else None, "chance_probability": 0.25,
            "questions_run": 9, "questions_total": 12}


@pytest.fixture
def records() -> pd.DataFrame:
    rows = [_record("B"), _record("A"), _record("A", genre="Pop"), _record("C", agreement=0.6),
            _record(None, odd=0.25), _record("B", genre="Pop", odd=0.25),
            _record("D", kinds=None)]  # kinds unknown: left out of the distractor table
    return pd.DataFrame(rows)


def test_wrong_answers_are_counted_by_the_kind_of_distractor_they_named(records):
    row = distractor_summary(records).iloc[0]
    assert (row["n"], row["correct"], row["wrong"]) == (6, 2, 4)
    assert (row["to_IR"], row["to_CU"], row["to_IU"], row["no_single_option"]) == (2, 1, 0, 1)
    # without IR: its two replies guess again among three options
    assert row["without_IR"] == pytest.approx((2 + 2 / 3) / 6)
    assert (row["without_IR_low"], row["without_IR_high"]) == pytest.approx((2 / 6, 4 / 6))
    assert row["without_IU"] == row["without_IU_low"] == row["without_IU_high"] == 2 / 6
    table = distractor_table(distractor_summary(records))
    assert table.iloc[0]["wrong to IR"] == "2 (50.0 %)"
    assert table.iloc[0]["accuracy % without CU [bounds]"] == "38.9 [33.3, 50.0]"


def test_genre_and_annotator_groups_and_coverage_in_the_table(records):
    summary = mcq_summary(records)
    groups = {(r.group_kind, r.group): (r.n, r.correct) for r in summary.itertuples()}
    assert groups[("all", "all")] == (7, 2)  # a reply naming no option counts, as wrong
    assert groups[("genre", "Jazz")] == (5, 1) and groups[("genre", "Pop")] == (2, 1)
    assert groups[("annotators", "all chose the answer")] == (6, 2)
    assert groups[("annotators", "not all chose the answer")] == (1, 0)
    assert groups[("odd question", "flagged by an annotator")] == (2, 1)
    assert groups[("odd question", "never flagged")] == (5, 1)
    markdown = mcq_markdown(summary, records)
    assert "| 9 of 12 |" in markdown and "## Distractors" in markdown
    assert list(mcq_report_tables(records)) == [
        "Multiple-choice distractors (MuChoMusic's analysis)"]


def test_without_kinds_or_annotator_columns_nothing_extra_is_shown(records):
    plain = records.drop(columns=["genre", "annotator_agreement", "odd_question"])
    plain["option_kinds"] = None
    summary = mcq_summary(plain)
    assert set(summary["group_kind"]) == {"all", "category", "subcategory"}
    assert distractor_summary(plain).empty and mcq_report_tables(plain) == {}
    assert "## Distractors" not in mcq_markdown(summary, plain)


def test_ablation_trials_leave_out_one_kind_and_keep_their_own_ids():
    from fixtures.backends.base import GenerationSettings
    from fixtures.mcq.selection import McqSelection, selected_mcq_trials
    from fixtures.mcq.spec import McqDataset, McqItem
    from fixtures.running.run_options import RunOptions

    kinds = ("correct", "incorrect_but_related", "correct_but_unrelated",
             "incorrect_and_unrelated")
    item = McqItem("mm", "muchomusic", "q1", "Which instrument?",
                   ("piano", "flute", "trumpet", "violin"), 0, "/a.wav", option_kinds=kinds)
    no_kinds = McqItem("mm", "muchomusic", "q2", "Which?", ("a", "b"), 1, "/b.wav")
    selection = McqSelection((McqDataset("mm", "muchomusic", "x", (item, no_kinds)),),
                             {"muchomusic": ("audio",)}, 1, 0, ablate=("IR", "IU"))
    run = RunOptions(("oracle",), ("audio",), ("zero",), ("standalone",), GenerationSettings())
    trials = {t.trial_id: t for t in selected_mcq_trials(run, selection)}
    assert sorted(trials) == ["mcq/mm/audio/0shot/r0/q1", "mcq/mm/audio/0shot/r0/q1/without-IR",
                              "mcq/mm/audio/0shot/r0/q1/without-IU", "mcq/mm/audio/0shot/r0/q2"]
    without_ir = trials["mcq/mm/audio/0shot/r0/q1/without-IR"]
    assert sorted(without_ir.options.values()) == ["piano", "trumpet", "violin"]
    assert without_ir.options[without_ir.correct_letter] == "piano"
    assert without_ir.modality == "audio-without-IR" and without_ir.condition == "audio"
    assert sorted(trials["mcq/mm/audio/0shot/r0/q1/without-IU"].options.values()) == [
        "flute", "piano", "trumpet"]


def test_re_asked_accuracy_joins_the_distractor_table_and_not_the_main_table(records):
    ablated = [dict(_record("A", kinds=KINDS[:1] + KINDS[2:]), removed_option="IR",
                    modality="audio-without-IR"),
               dict(_record("B", kinds=KINDS[:1] + KINDS[2:]), removed_option="IR",
                    modality="audio-without-IR")]
    frame = pd.concat([records.assign(removed_option=None), pd.DataFrame(ablated)],
                      ignore_index=True)
    row = distractor_summary(frame).iloc[0]
    assert (row["asked_without_IR"], row["asked_without_IR_n"]) == (0.5, 2)
    assert row["asked_without_CU_n"] == 0 and row["n"] == 6  # the full questions only
    assert mcq_summary(frame).equals(mcq_summary(records))
    table = distractor_table(distractor_summary(frame))
    assert table.iloc[0]["re-asked without IR: accuracy % (n)"] == "50.0 (2)"
