"""The optional answer extractor (``--answer-extractor``): asked only for replies the reader
cannot read, read by the trial's own reader, recorded apart from the strict score.

In-process tests use scripted backends (every request they get is kept); the benchmark runs go
through a subprocess against the fake OpenAI and Gemini servers, which count requests.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess
from pathlib import Path

import pandas as pd
import pytest

from fixtures.backends.base import GenerationSettings, MediaPart, Response
from fixtures.backends.scripted import ScriptedBackend
from fixtures.mcq.spec import McqItem
from fixtures.mcq.trial import McqTrial
from fixtures.pitch.catalog import pitch_items
from fixtures.pitch.trial import PitchTrial
from fixtures.running.extractor import (
    EXTRACTOR_PURPOSE,
    READER_FAILURES,
    commits_to_none,
    extraction_request,
)
from fixtures.running.runner import Trial, run_trial_sync
from fixtures.tasks.catalog import items_for
from reports.builders.artifacts import compact_table, pooled_by_modality
from reports.tables.accuracy import cell_summary, table1_csv, table1_markdown
from reports.tables.assisted import ASSISTED_COLUMNS
from reports.tables.mcq import mcq_summary, mcq_table
from reports.tables.pitch import pitch_summary, pitch_table
from tests_solvers import CORE_BENCH, PYTEST, trial_row
from tests_solvers.fakes.gemini_server import FakeGeminiServer
from tests_solvers.fakes.openai_server import FakeOpenAIServer, text

REPO = Path(__file__).resolve().parent.parent
SETTINGS = GenerationSettings()
CHORD = next(i for i in items_for("chord", "test") if i.item_id == "chord17")  # answer D
UNREADABLE = "A tense, dark sound, like a horror film sting, I'd say."  # names no option
MCQ_ITEM = McqItem("set", "muchomusic", "q1", "Which instrument plays the melody?",
                   ("a violin", "a flute", "a trumpet"), 1, "/x/a.wav")


def _core(strategy: str, replies: list[str], extractor_replies: list[str] | None):
    backend = ScriptedBackend(replies=replies, name="subject")
    extractor = None if extractor_replies is None else ScriptedBackend(
        replies=extractor_replies, name="reader-model")
    result = run_trial_sync(backend, Trial("subject", "midi", "zero", strategy, CHORD), SETTINGS,
                            extractor)
    return result, extractor


# --- Which replies reach the extractor ------------------------------------------------------


def test_reader_failures_are_the_final_answer_ones_only():
    assert READER_FAILURES == {"no_final_answer", "unparseable_answer", "no_option_named"}
    assert "hedged_answer" not in READER_FAILURES  # a hedge was read: it has no answer to find
    assert not any(cls.startswith("schema_") or cls == "undecidable" for cls in READER_FAILURES)


@pytest.mark.parametrize("strategy", ["standalone", "cot"])
def test_a_readable_reply_is_never_sent_to_the_extractor(strategy):
    result, extractor = _core(strategy, ["Final Answer: A"], [])
    assert extractor.requests == []
    record = result.record().flat()
    assert record["extractor_model"] == "reader-model"
    assert record["extracted_answer"] is None and record["extractor_turns"] == []
    assert record["assisted_correct"] is record["correct"] is False


@pytest.mark.parametrize("strategy", ["standalone", "cot"])
def test_an_unreadable_reply_is_read_by_the_extractor_and_scored_apart(strategy):
    result, extractor = _core(strategy, [UNREADABLE], ["Final Answer: D"])
    assert len(extractor.requests) == 1
    record = result.record().flat()
    assert record["error_class"] == "no_final_answer" and record["correct"] is False  # strict
    assert record["parsed_answer"] is None
    assert record["extracted_answer"] == "D" and record["assisted_correct"] is True
    assert len(record["turns"]) == 1  # the model's turns hold the model's replies only
    (turn,) = record["extractor_turns"]
    assert turn["purpose"] == EXTRACTOR_PURPOSE and turn["text"] == "Final Answer: D"


def test_a_wrong_extracted_answer_is_not_assisted_credit():
    result, _ = _core("cot", [UNREADABLE], ["Final Answer: B"])
    assert result.record().flat()["extracted_answer"] == "B"
    assert result.record().flat()["assisted_correct"] is False


@pytest.mark.parametrize("reply", ["Final Answer: none", "**Final Answer:** None.",
                                   "final answer: NONE"])
def test_none_means_no_answer(reply):
    assert commits_to_none(reply)
    result, _ = _core("standalone", [UNREADABLE], [reply])
    assert result.record().flat()["extracted_answer"] is None
    assert result.record().flat()["assisted_correct"] is False


def test_the_extractor_reply_goes_through_the_reader_rules():
    """An extractor answer that is not a valid option is no answer, as for the model."""
    result, _ = _core("standalone", [UNREADABLE], ["Final Answer: Z"])
    assert result.record().flat()["extracted_answer"] is None


def test_a_failed_extractor_call_leaves_no_answer():
    result, _ = _core("standalone", [UNREADABLE],
                      [Response(text="", finish_reason="error", error="HTTP 503")])
    record = result.record().flat()
    assert record["extracted_answer"] is None and record["assisted_correct"] is False
    assert record["extractor_turns"][0]["finish_reason"] == "error"


def test_logiclm_failures_never_reach_the_extractor():
    malformed = "It sounds like a dark, tense chord to me."
    result, extractor = _core("logiclm", [malformed] * 3, [])
    assert result.error_class == "schema_parse"
    assert extractor.requests == []


def test_without_an_extractor_the_record_is_unchanged():
    result, _ = _core("standalone", [UNREADABLE], None)
    assert not {"extractor_model", "extracted_answer", "assisted_correct",
                "extractor_turns"} & set(result.record().flat())


# --- What the extractor is shown ------------------------------------------------------------


def test_the_extractor_sees_the_question_and_the_reply_never_the_stimulus_or_the_truth():
    _, extractor = _core("standalone", [UNREADABLE], ["Final Answer: D"])
    (request,) = extractor.requests
    assert request.answer_key is None and request.question is None
    assert not any(isinstance(p, MediaPart) for turn in request.turns for p in turn.parts)
    assert len(request.turns) == 1
    shown = request.turns[0].text
    assert UNREADABLE in shown
    assert "D. Diminished" in shown  # the options it may report
    assert "Note on" not in shown and "note_on" not in shown  # no MIDI listing


def test_mcq_trials_share_the_hook_and_the_option_reader():
    backend = ScriptedBackend(replies=["Definitely the one I liked best, I'm fairly sure."])
    trial = McqTrial("subject", "no-audio", 0, 0, MCQ_ITEM)
    flute = next(letter for letter, text in trial.options.items() if text == "a flute")
    extractor = ScriptedBackend(replies=[f"Final Answer: {flute}"], name="reader-model")
    result = run_trial_sync(backend, trial, SETTINGS, extractor)
    record = result.record().flat()
    assert record["error_class"] == "no_option_named" and record["correct"] is False
    assert record["extracted_answer"] == flute and record["assisted_correct"] is True
    shown = extractor.requests[0].turns[0].text
    assert all(f"{letter}. {text}" in shown for letter, text in trial.options.items())


def test_pitch_trials_share_the_hook_and_the_pitch_scorer():
    item = pitch_items("a1", 4)[0]
    backend = ScriptedBackend(replies=["That one is hard to pin down exactly."])
    extractor = ScriptedBackend(replies=[f"Final Answer: {item.truth[0]}"], name="reader-model")
    result = run_trial_sync(backend, PitchTrial("subject", "midi", item), SETTINGS, extractor)
    record = result.record().flat()
    assert record["error_class"] in READER_FAILURES and record["correct"] is False
    assert json.loads(record["extracted_answer"]) is not None
    assert record["assisted_correct"] is True
    request = extractor.requests[0]
    assert "[audio]" in request.turns[0].text
    assert not any(isinstance(p, MediaPart) for p in request.turns[0].parts)


def test_extractor_prompt(snapshot):
    request = extraction_request("Which option? A. Major  B. Minor", "Probably B, honestly.")
    assert request.settings.temperature == 0.0
    assert (request.system, request.turns[0].text) == snapshot


@pytest.mark.parametrize("kind", ["core", "mcq", "pitch"])
def test_extraction_question(snapshot, kind):
    trial = {
        "core": Trial("m", "audio", "zero", "cot", CHORD),
        "mcq": McqTrial("m", "audio", 0, 0, MCQ_ITEM),
        "pitch": PitchTrial("m", "spn", pitch_items("a1", 4)[0]),
    }[kind]
    question = trial.extraction_question()
    assert "$" not in question
    assert question == snapshot


def test_extractor_answers_are_keyed_apart_from_the_same_model_as_subject(
        pytestconfig, monkeypatch, tmp_path):
    from fixtures.plugins.models import BackendPool
    from fixtures.running.run_options import RUN_OPTIONS_KEY, run_options

    options = {"answer_extractor": "openai:same-7b", "base_url": "http://127.0.0.1:9/v1"}
    real = pytestconfig.getoption
    monkeypatch.setattr(pytestconfig, "getoption",
                        lambda name, *args, **kwargs: options.get(name, real(name, *args,
                                                                              **kwargs)))
    monkeypatch.setitem(pytestconfig.stash, RUN_OPTIONS_KEY, dataclasses.replace(
        run_options(pytestconfig), cache_mode="use",
        cache_path=str(tmp_path / "responses.sqlite")))
    pool = BackendPool(pytestconfig)
    subject, extractor = pool.get("openai:same-7b"), pool.extractor()
    assert extractor is pool.extractor() and extractor is not subject
    request = extraction_request("Which option?", "B, I think.")
    assert extractor.key_for(request) != subject.key_for(request)
    assert extractor.variant == {"purpose": EXTRACTOR_PURPOSE}


# --- Through the benchmark, against the fake servers ----------------------------------------

SLICE = ["-m", "chord and midi and zero"]  # 44 items × standalone, cot, logiclm; no rendering
COT_TRIALS = 44


def bench(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    environment = {**os.environ, **(env or {})}
    environment.pop("PYTEST_XDIST_WORKER", None)
    command = [*PYTEST, *CORE_BENCH, "-q", "-p", "no:cacheprovider",
               *args]
    return subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=900,
                          env=environment)


def records(run_dir: Path) -> dict[str, dict]:
    lines = (run_dir / "trials.jsonl").read_text().splitlines()
    return {trial_row(line)["trial_id"]: trial_row(line) for line in lines}


def _subject_script(request) -> object:
    """The model under test: unreadable prose in CoT trials (naming the stimulus, so no two
    replies are alike), a readable letter otherwise."""
    system = request.body["messages"][0]["content"]
    if "Reason step by step" in system:
        stimulus = re.search(r"Stimulus: (\S+)", json.dumps(request.body)).group(1)
        return text(f"Working through {stimulus}, the sound is tense and dark.")  # no option
    return None  # the fixed "Final Answer: A"


def test_extractor_is_asked_only_for_unreadable_replies_cached_and_replayable(tmp_path):
    cache = tmp_path / "responses.sqlite"
    with FakeOpenAIServer(script=_subject_script) as subject, \
            FakeGeminiServer(default_text="Final Answer: D") as reader:
        # each provider's endpoint from its own variable (--base-url would apply to both)
        env = {"GEMINI_API_KEY": "fake-key", "GEMINI_BASE_URL": reader.base_url,
               "OPENAI_BASE_URL": subject.base_url}
        common = ["--model", "openai:subject-7b", "--answer-extractor", "gemini-flash",
                  "--cache-path", str(cache), *SLICE]
        first = bench(*common, "--run-dir", str(tmp_path / "a"), env=env)
        assert first.returncode in (0, 1), first.stdout[-2000:] + first.stderr[-2000:]
        assert reader.generate_count == COT_TRIALS  # one per unreadable reply, none else
        sent = subject.count, reader.generate_count
        # the re-run and the replay: their records are what is read
        second = bench(*common, "--run-dir", str(tmp_path / "b"), "--no-report", env=env)
        assert (subject.count, reader.generate_count) == sent, "a re-run must send nothing"
    replay = bench(*common, "--cache", "replay", "--run-dir", str(tmp_path / "c"), "--no-report",
                   env=env)
    a, b, c = records(tmp_path / "a"), records(tmp_path / "b"), records(tmp_path / "c")
    assert len(a) == 3 * COT_TRIALS and a.keys() == b.keys() == c.keys()
    assert first.returncode == second.returncode == replay.returncode
    for trial_id, record in a.items():
        assert record["extractor_model"] == "gemini-flash"
        if record["strategy"] == "cot":
            assert record["error_class"] == "no_final_answer" and not record["correct"]
            assert record["extracted_answer"] == "D"
            assert record["assisted_correct"] is (record["truth"] == "D")
            assert len(record["extractor_turns"]) == 1
        else:
            assert record["extractor_turns"] == [] and record["extracted_answer"] is None
            assert record["assisted_correct"] is record["correct"]
        for other in (b[trial_id], c[trial_id]):
            assert other["extracted_answer"] == record["extracted_answer"]
            assert other["assisted_correct"] == record["assisted_correct"]
            assert all(t["cached"] for t in other["turns"] + other["extractor_turns"])
    summary = json.loads((tmp_path / "a" / "summary.json").read_text())
    assert summary["header"]["answer_extractor"]["model_id"] == "gemini-2.5-flash"
    cot_cell = next(c for c in summary["cells"] if c["strategy"] == "cot")
    truths = [r["truth"] for r in a.values() if r["strategy"] == "cot"]
    assert cot_cell["accuracy"] == 0.0  # the headline stays strict
    assert cot_cell["assisted_accuracy"] == truths.count("D") / len(truths)
    assert "· assisted" in (tmp_path / "a" / "table1.md").read_text()
    assert "answer extractor (gemini-flash)" in (tmp_path / "a" / "report.html").read_text()
    assert "eartest: answer extractor gemini-flash read the replies" in first.stdout
    usage = summary["usage"]["gemini-flash (answer extractor)"]
    assert usage["requests"] == COT_TRIALS and usage["output_tokens"] > 0


def test_one_model_as_subject_and_extractor_keeps_its_answers_apart(tmp_path):
    """The same model answering as subject and as extractor: its extractor answers are keyed
    apart, and the prefetch sends each extractor request once."""
    cache = tmp_path / "responses.sqlite"
    with FakeOpenAIServer(script=_subject_script) as server:
        common = ["--model", "openai:same-7b", "--answer-extractor", "openai:same-7b",
                  "--base-url", server.base_url, "--cache-path", str(cache),
                  "-m", "chord and midi and zero and not logiclm"]
        result = bench(*common, "--run-dir", str(tmp_path / "a"), "--no-report")
        assert result.returncode in (0, 1), result.stdout[-2000:] + result.stderr[-2000:]
        assert "eartest prefetch: 88 trials" in result.stdout
        assert server.count == 2 * COT_TRIALS + COT_TRIALS  # two subjects' replies, 44 readings
    cot = [r for r in records(tmp_path / "a").values() if r["strategy"] == "cot"]
    # the fixed reply "Final Answer: A" is what the extractor says here: read by the reader
    assert {r["extracted_answer"] for r in cot} == {"A"}
    # asked once, by the prefetch (the server count above): each a new request of this run
    assert not any(r["extractor_turns"][0]["cached"] for r in cot)
    assert sum(r["new_requests"] for r in cot) == COT_TRIALS  # the subject's own, once each


def test_offline_subject_and_scripted_extractor_are_read_in_the_test_bodies(tmp_path):
    """No prefetch for an offline subject: the extractor is asked from the test body."""
    subject, reader = tmp_path / "subject.json", tmp_path / "reader.json"
    subject.write_text(json.dumps({"base": "oracle", "replies": {
        "chord/midi/zero/cot/*": "It has a dark, unstable colour, as far as I can hear."}}))
    reader.write_text(json.dumps({"base": "oracle", "replies": {"*": "Final Answer: D"}}))
    result = bench("--model", f"scripted:{subject}", "--answer-extractor", f"scripted:{reader}",
                   "-m", "chord and midi and zero and not logiclm", "--run-dir",
                   str(tmp_path / "run"), "--no-report")
    assert result.returncode == 1, result.stdout[-2000:] + result.stderr[-2000:]
    runs = records(tmp_path / "run").values()
    assert len(runs) == 2 * COT_TRIALS
    for record in runs:
        if record["strategy"] == "cot":
            assert not record["correct"] and record["extracted_answer"] == "D"
            assert record["assisted_correct"] is (record["truth"] == "D")
        else:  # the oracle's readable replies: never sent
            assert record["correct"] and record["extractor_turns"] == []


@pytest.mark.parametrize(("name", "message"), [
    ("nonsense-7b", "--answer-extractor: unknown model 'nonsense-7b'"),
    ("oracle", "--answer-extractor: 'oracle' cannot read replies"),
    ("gemini-pro", "--answer-extractor: model 'gemini-pro' needs a Gemini API key"),
])
def test_a_bad_extractor_is_one_usage_error(name, message):
    result = bench("--model", "oracle", "--answer-extractor", name,
                   env={"GEMINI_API_KEY": "", "GOOGLE_API_KEY": ""})
    assert result.returncode == 4
    assert message in result.stderr
    assert "Traceback" not in result.stderr and "passed" not in result.stdout


# --- Tables: strict headline, assisted beside it, nothing new without an extractor ----------


def _core_records(with_extractor: bool) -> pd.DataFrame:
    rows = []
    for index in range(10):
        record = {"model": "m", "task": "chord", "modality": "audio", "shot": "zero",
                  "strategy": "cot", "trial_id": f"chord/{index}", "truth": "D",
                  "parsed_answer": "D" if index < 4 else None, "correct": index < 4,
                  "error_class": None if index < 4 else "no_final_answer"}
        if with_extractor:
            record |= {"extractor_model": "x", "assisted_correct": index < 7}
        rows.append(record)
    return pd.DataFrame(rows)


def test_core_tables_show_assisted_beside_strict_only_with_an_extractor():
    plain = cell_summary(_core_records(False))
    assert not set(ASSISTED_COLUMNS) & set(plain.columns)
    assert "assisted" not in table1_markdown(plain) + table1_csv(plain)
    assisted = cell_summary(_core_records(True))
    cell = assisted.loc[("m", "chord", "audio", "zero", "cot")]
    assert (cell["accuracy"], cell["assisted_accuracy"]) == (0.4, 0.7)
    assert "40.0 [" in table1_markdown(assisted) and "· assisted 70.0" in table1_markdown(assisted)
    assert "assisted_accuracy" in table1_csv(assisted)
    pooled = pooled_by_modality(assisted)
    assert compact_table(pooled)[1].split()[-1] == "70.0%"
    assert "assisted" not in " ".join(compact_table(pooled_by_modality(plain)))


def test_pitch_and_mcq_tables_show_assisted_beside_strict():
    pitch = pd.DataFrame([
        {"model": "m", "experiment": "a1", "notation": notation, "item_id": f"i{index}",
         "correct": index == 0, "error_class": None if index == 0 else "unparseable_answer",
         "parsed_answer": "60" if index == 0 else None, "chance_probability": 0.01,
         "assisted_correct": index < 3, "extractor_model": "x"}
        for index in range(4) for notation in ("midi", "spn")])
    table = pitch_table(pitch_summary(pitch))
    assert table.loc["a1", ("m", "midi")] == "25.0 (n=4) · assisted 75.0"
    assert table.loc["a1", ("m", "any")] == "25.0 (n=4) · assisted 75.0"
    plain = pitch.drop(columns=["assisted_correct", "extractor_model"])
    assert pitch_table(pitch_summary(plain)).loc["a1", ("m", "midi")] == "25.0 (n=4)"
    mcq = pd.DataFrame([
        {"model": "m", "family": "mcq", "dataset": "set", "condition": "audio", "shot": "zero",
         "categories": [], "subcategories": [], "correct": index == 0,
         "error_class": None if index == 0 else "no_option_named",
         "parsed_answer": "A" if index == 0 else None, "chance_probability": 0.25,
         "assisted_correct": index < 2}
        for index in range(4)])
    row = mcq_table(mcq_summary(mcq)).iloc[0]
    assert row["accuracy % [95% CI]"].startswith("25.0") and row["assisted accuracy %"] == "50.0"
    plain_mcq = mcq_table(mcq_summary(mcq.drop(columns=["assisted_correct"])))
    assert "assisted accuracy %" not in plain_mcq.columns

