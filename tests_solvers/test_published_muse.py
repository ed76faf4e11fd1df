"""MUSE as published (``--muse-recordings``) on a generated replica of a MUSE checkout: every
task collects its trials, the oracle is right on all, the chance model lands on each task's
analytic chance, missing recordings are counted (never failed), no prompt names one clip
twice, the listener declines cleanly and a bad folder is one usage error (issue 28)."""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
from pathlib import Path

import pytest

from fixtures.backends.base import GenerationSettings, MediaPart, TextPart
from fixtures.published_muse.protocol import Coverage, examples, items, stimuli_root, tasks
from fixtures.published_muse.trial import PublishedMuseResult, PublishedMuseTrial, build_request
from tests_solvers import PYTEST
from tests_solvers.muse_replica import write_replica

REPO = Path(__file__).resolve().parent.parent
ANALYTIC_CHANCE = {"musepub_instrument": 1 / 4, "musepub_melody_shape": 1 / 4,
                   "musepub_meter": 1 / 3, "musepub_oddball": 1 / 2,
                   "musepub_rhythm_match": 1 / 2, "musepub_transposition": 1 / 2,
                   "musepub_chord_quality": 1 / 2, "musepub_key_modulation": 1 / 2,
                   "musepub_chord_sequence": 1 / 2, "musepub_syncopation": 1 / 2}
CELLS = 4  # zero / few × standalone (SYSINST) / cot
QUESTIONS = 20  # groups A and B, ten each


def run(tmp_path: Path, checkout: Path, model: str, *options: str) -> tuple[list[dict], str]:
    run_dir = tmp_path / f"run-{model.replace(',', '-')}"
    done = subprocess.run(
        [*PYTEST, "bench/test_musepub.py", "--muse-recordings", str(checkout), "--model", model,
         "-q", "-n", "0", "-p", "no:cacheprovider", "--run-dir", str(run_dir), *options],
        cwd=REPO, capture_output=True, text=True, timeout=900)
    assert done.returncode in (0, 1), done.stdout[-3000:] + done.stderr[-3000:]
    lines = (run_dir / "trials.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines if line.strip()], done.stdout


def test_every_task_collects_the_oracle_is_right_and_chance_is_at_chance(tmp_path):
    checkout = write_replica(tmp_path / "MUSE")
    records, _ = run(tmp_path, checkout, "oracle,chance")
    oracle = [r for r in records if r["model"] == "oracle"]
    assert {r["task"] for r in oracle} == set(ANALYTIC_CHANCE)
    assert {(r["shot"], r["strategy"]) for r in oracle} == {
        (shot, strategy) for shot in ("zero", "few") for strategy in ("standalone", "cot")}
    assert len(oracle) == len(ANALYTIC_CHANCE) * CELLS * QUESTIONS
    assert all(r["correct"] for r in oracle)
    for task, chance in ANALYTIC_CHANCE.items():
        outcomes = [r["correct"] for r in records if r["model"] == "chance" and r["task"] == task]
        assert len(outcomes) == CELLS * QUESTIONS
        assert all(r["chance_probability"] == chance for r in records if r["task"] == task)
        sigma = math.sqrt(chance * (1 - chance) / len(outcomes))
        # 4 sigma per task: ten tasks together trip by accident about once in 1,500 runs
        assert abs(sum(outcomes) / len(outcomes) - chance) < 4 * sigma, task
    table = (tmp_path / "run-oracle-chance" / "musepub.md").read_text()
    assert "| oracle | Instrument ID | 100.0 [83.9, 100.0] n=20 (20 of 20) |" in table


def test_missing_recordings_are_left_out_and_counted(tmp_path):
    """One question recording and one example recording absent: the questions that need them
    are left out (the few-shot cells of every question that shows that example too), and the
    header, the terminal and the table say how many ran."""
    checkout = write_replica(tmp_path / "MUSE",
                             leave_out=("M1_EbMaj_90.wav", "Intermediate/Whammy_3.wav"))
    records, stdout = run(tmp_path, checkout, "oracle", "--shot", "zero,few",
                          "--strategy", "standalone")
    count = {task: sum(r["task"] == task for r in records) for task in ANALYTIC_CHANCE}
    # M1_EbMaj_90 is in two oddball and two transposition questions of group A
    assert count["musepub_oddball"] == count["musepub_transposition"] == 2 * (QUESTIONS - 2)
    assert count["musepub_meter"] == QUESTIONS  # no question of meter runs with its examples
    assert all(r["correct"] for r in records)
    summary = json.loads((tmp_path / "run-oracle" / "summary.json").read_text())
    meter = summary["header"]["musepub"]["coverage"]["musepub_meter"]
    assert meter["few/standalone"] == {"run": 0, "total": QUESTIONS,
                                       "missing": ["Intermediate/Whammy_3.wav"]}
    assert "musepub_meter: questions whose recordings are missing are left out" in stdout
    table = (tmp_path / "run-oracle" / "musepub.md").read_text()
    assert "| oracle | Meter ID | 100.0 [83.9, 100.0] n=20 (20 of 20) | n=0 (0 of 20) |" in table
    assert "n=18 (18 of 20)" in table


def _every_trial(root: Path) -> list[PublishedMuseTrial]:
    coverage = Coverage(root)
    return [PublishedMuseTrial("oracle", shot, strategy, item, coverage)
            for task in tasks() for item in items(task) for shot in ("zero", "few")
            for strategy in ("standalone", "cot")]


def test_no_prompt_names_a_clip_twice_or_by_its_file(tmp_path):
    """Each recording of a request follows its own positional label; no text names a file
    or a content hash, so the "same" pairs that are one file twice give nothing away."""
    root = stimuli_root(str(write_replica(tmp_path / "MUSE")))
    twice = 0
    for trial in _every_trial(root):
        request = build_request(trial, GenerationSettings())
        parts = [p for turn in request.turns for p in turn.parts]
        text = "\n".join(p.text for p in parts if isinstance(p, TextPart)) + request.system
        labels = [parts[i - 1].text for i, p in enumerate(parts) if isinstance(p, MediaPart)]
        assert all(isinstance(parts[i - 1], TextPart) for i, p in enumerate(parts)
                   if isinstance(p, MediaPart)), trial.trial_id
        assert len(labels) == len(set(labels)), (trial.trial_id, labels)
        for part in parts:
            if isinstance(part, MediaPart):
                assert part.sha256[:10] not in text and Path(part.path).stem not in text
        same = [c for c in trial.item.clips if trial.item.clips.count(c) > 1]
        twice += bool(same)
    assert twice == CELLS * (10 + 10)  # oddball's and rhythm matching's one-file-twice pairs


def test_examples_are_the_papers_shot_counts():
    counts = {task: {len(examples(task, group, strategy)) for group in ("A", "B")
                     for strategy in ("standalone", "cot")} for task in tasks()}
    assert counts == {"instrument": {4}, "melody_shape": {4}, "meter": {3}, "oddball": {2},
                      "rhythm_match": {2}, "transposition": {2}, "chord_quality": {2},
                      "key_modulation": {2}, "chord_sequence": {2}, "syncopation": {2}}


@pytest.mark.parametrize("task,reply,answer", [
    ("rhythm_match", "No, these are not the same exact drum set patterns.", "no"),
    ("rhythm_match", "Yes, these are the same exact drum set patterns.", "yes"),
    ("oddball", "They differ: the second has an oddball.\nNo, these are not the same exact "
                "melody.", "no"),
    ("transposition", "Yes, these are the same melody.", "yes"),
    ("syncopation", "Step 1 ...\nB. The rhythm in Excerpt 2 is more syncopated.", "B"),
    ("meter", "A. Groups of 3", "A"),
    ("melody_shape", "D. Descending (pitch falls over time)", "D"),
    # MUSE letters the yes and no of these two: a bare letter, the option's words, or a
    # negated clause of the question's own words all answer (issue 30)
    ("key_modulation", "B", "B"),
    ("key_modulation", "Final Answer: A", "A"),
    ("key_modulation", "A key modulation does not occur.", "B"),
    ("key_modulation", "No, the key does not change.", "B"),
    ("key_modulation", "The key stays in G major from start to finish.", "B"),
    ("key_modulation", "Yes: it modulates up a fourth in bar 9.", "A"),
    ("chord_sequence", "B", "B"),
    ("chord_sequence", "Step 3: same functions.\nYes, these are the same chord progression.", "A"),
    ("chord_sequence", "The two progressions are different.", "B"),
])
def test_replies_are_read_with_the_tasks_options(tmp_path, task, reply, answer):
    root = stimuli_root(str(write_replica(tmp_path / "MUSE")))
    trial = PublishedMuseTrial("m", "zero", "cot", items(task)[0], Coverage(root))
    result = PublishedMuseResult(trial, "m", "")
    trial.judge_reply(result, reply)
    assert result.parsed_answer == answer and result.error_class is None


@pytest.mark.parametrize("task", tasks())
def test_the_listener_declines_cleanly(tmp_path, task):
    """The built-in listener has no ear for MUSE's own questions: its reply is a refusal, read
    as no option named (a wrong answer) for every task, never an exception nor an answer (the
    refusal names the task, whose words once read as a yes: "... task 'key_modulation'")."""
    from fixtures.backends.listener import _answer

    root = stimuli_root(str(write_replica(tmp_path / "MUSE")))
    trial = PublishedMuseTrial("listener", "zero", "standalone", items(task)[0],
                               Coverage(root))
    request = build_request(trial, GenerationSettings())
    reply = _answer(request.question, [root / c for c in trial.item.clips], "")
    result = PublishedMuseResult(trial, "listener", "")
    trial.judge_reply(result, reply)
    assert not result.correct and result.error_class == "no_option_named", (reply, result)


@pytest.mark.parametrize("task", ["key_modulation", "oddball", "chord_sequence"])
@pytest.mark.parametrize("reply", [
    "I cannot answer questions about {words}.",
    "I can\u2019t say whether {words} is present.",
    "I can't determine the {words} from this clip.",
])
def test_a_refusal_naming_the_question_answers_nothing(tmp_path, task, reply):
    root = stimuli_root(str(write_replica(tmp_path / "MUSE")))
    trial = PublishedMuseTrial("m", "zero", "cot", items(task)[0], Coverage(root))
    result = PublishedMuseResult(trial, "m", "")
    trial.judge_reply(result, reply.format(words=task.replace("_", " ")))
    assert result.parsed_answer is None and result.error_class == "no_option_named"


@pytest.mark.parametrize("make", [lambda tmp: tmp / "absent", lambda tmp: tmp])
def test_a_folder_without_muse_recordings_is_one_usage_error(tmp_path, make):
    done = subprocess.run(
        [*PYTEST, "bench/test_musepub.py", "--muse-recordings", str(make(tmp_path)),
         "--model", "oracle", "-q", "-p", "no:cacheprovider", "--run-dir",
         str(tmp_path / "run")], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 4, done.stdout[-2000:] + done.stderr[-2000:]
    assert "--muse-recordings:" in done.stderr and "Traceback" not in done.stderr


LOG_TASKS = {"instrumentID": "instrument", "contourID": "melody_shape", "oddballs": "oddball",
             "rhythm_matching": "rhythm_match", "transposition": "transposition",
             "chord_quality": "chord_quality", "key_modulation": "key_modulation",
             "chord_progression_matching": "chord_sequence", "syncopation": "syncopation",
             "meter_identification": "meter"}
LOG_LINE = re.compile(r" - (?:Stimul(?:us|i): (?P<clips>.*)|Parsed Final Answer: (?P<parsed>.*)|"
                      r"Evaluation: (?P<verdict>Correct|Incorrect)(?: \(expected=(?P<exp>.*)\))?)$")


def _logged_keys(log: Path, task: str) -> list[tuple[tuple[str, ...], str]]:
    """(recordings, the answer the authors scored against) of each scored question of a log;
    questions their own parser could not read are not scored there, nor here."""
    found, clips, parsed = [], None, None
    for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
        match = LOG_LINE.search(line)
        if not match:
            continue
        if match["clips"] is not None:
            clips = tuple(("/" + part.split("=", 1)[-1].strip()).split("/stimuli/", 1)[1]
                          for part in match["clips"].split(", "))
        elif match["parsed"] is not None:
            parsed = match["parsed"]
        elif clips:
            expected = parsed if match["verdict"] == "Correct" else match["exp"]
            text = re.split(r", (?:prog1|r1)=", expected or "")[0].strip().rstrip(".").lower()
            spec = tasks()[task]
            answers = [a for a, _ in spec.options if spec.reply(a).rstrip(".").lower() == text]
            found.append((clips, answers[0] if answers else f"unread: {expected!r}"))
            clips = None
    return found


@pytest.mark.skipif(not os.environ.get("EARTEST_MUSE_CHECKOUT"),
                    reason="needs a MUSE checkout with its logs: EARTEST_MUSE_CHECKOUT=DIR")
def test_the_answer_keys_agree_with_every_answer_the_authors_scored():
    """Every question the authors' runners scored (Gemini, Qwen and AF3 logs) was scored
    against the answer our data holds; AF3's rhythm runs on pre-joined pair files
    (``combined/``) are another stimulus form and are left out."""
    checkout = Path(os.environ["EARTEST_MUSE_CHECKOUT"])
    checked, different = 0, []
    for log in sorted(checkout.glob("*/*/*.log")):
        task = next((v for k, v in LOG_TASKS.items() if log.name.startswith(k + "_")), None)
        if task is None:
            continue
        group = "A" if "_GroupA_" in log.name else "B"
        keys = {item.clips: item.answer for item in items(task) if item.group == group}
        for clips, answer in _logged_keys(log, task):
            if any(clip.startswith("combined/") for clip in clips):
                continue
            checked += 1
            if keys.get(clips) != answer:
                different.append((log.name, clips, answer, keys.get(clips)))
    assert checked > 4000 and different == []
