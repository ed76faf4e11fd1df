"""MCQ datasets: both published layouts, clear errors, seeded shuffling and examples, requests."""

from __future__ import annotations

import csv
import json
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fixtures.backends.base import GenerationSettings, MediaPart
from fixtures.mcq import presentation
from fixtures.mcq.loading import load_dataset
from fixtures.mcq.spec import McqDatasetError
from fixtures.mcq.synthetic import make_synthetic
from fixtures.mcq.trial import McqTrial, build_mcq_request
from tests_solvers import PYTEST

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return make_synthetic(tmp_path_factory.mktemp("mcq"))


def _write_csv(path: Path, rows: list[dict]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return path


def _csv_rows(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def test_the_synthetic_sets_load_in_their_detected_layouts(synthetic):
    muchomusic, wildscore = (load_dataset(path) for path in synthetic)
    assert (muchomusic.layout, wildscore.layout) == ("muchomusic", "wildscore")
    assert (muchomusic.name, wildscore.name) == ("muchomusic", "wildscore")  # data.csv: folder
    for dataset in (muchomusic, wildscore):
        assert len(dataset.items) == 12
        assert len({item.item_id for item in dataset.items}) == 12
        assert all(Path(item.media_path).is_file() for item in dataset.items)
        assert all(len(item.options) == 4 for item in dataset.items)
    first = muchomusic.items[0]
    assert first.answer == _csv_rows(synthetic[0])[0]["correct_answer"]
    assert first.answer_index == 0  # MuChoMusic lists the correct answer first
    assert first.categories == ("knowledge",) and first.subcategories == ("instrumentation",)
    melody = muchomusic.items[-1]
    assert melody.categories == ("knowledge", "reasoning")
    assert melody.subcategories == ("melody", "temporal relations")
    row = _csv_rows(synthetic[1])[0]
    score = wildscore.items[0]
    assert score.answer == json.loads(row["final_options"])[row["truth_letter"]]
    assert (score.categories, score.subcategories) == (("Rhythm & Meter",), ("Metric Structure",))


def test_muchomusic_audio_is_found_as_the_muchomusic_code_names_it(synthetic):
    items = load_dataset(synthetic[0]).items
    names = [Path(item.media_path).name for item in items]
    assert names[0] == "900100.2min.wav"  # Song Describer: <track>.2min.<ext>
    assert names[1] == "[syn-01_x1]-[0-2].wav"  # MusicCaps: [<ytid>]-[<start>-<end>].<ext>
    assert items[0].item_id.startswith("900100-") and items[1].item_id.startswith("syn-01_x1_1-")


def test_muchomusic_prepared_json_gives_the_answer_by_answer_orders(synthetic, tmp_path):
    audio = Path(load_dataset(synthetic[0]).items[0].media_path)
    entry = {
        "id": 415600,
        "prompt": "Question: What is the tempo?\n Options: (A) slow (B) fast \n The correct "
                  "answer is: ",
        "answers": ["Reggae", "Pop music", "Ska", "Latin rock"],
        "answer_orders": [3, 0, 2, 1],  # the correct answer (order 0) is "Pop music"
        "knowledge": [], "reasoning": ["genre and style"], "audio_path": str(audio),
    }
    path = tmp_path / "prepared.json"
    path.write_text(json.dumps([entry]))
    item = load_dataset(path).items[0]
    assert item.answer == "Pop music" and item.question == "What is the tempo?"
    assert item.categories == ("reasoning",) and item.subcategories == ("genre and style",)
    assert item.media_path == str(audio)


def test_wildscore_jsonl_with_listed_options_and_option_keys(synthetic, tmp_path):
    image = Path(load_dataset(synthetic[1]).items[0].media_path)
    rows = [
        {"image": str(image), "question": "Which clef?", "final_options": ["treble", "bass"],
         "truth_letter": "B", "Category": "Form", "Subcategory": "Phrase Structure"},
        {"image": str(image), "question": "Which key?",
         "final_options": json.dumps({"Option A": "G major", "Option B": "E minor"}),
         "truth_letter": "Option A"},
    ]
    path = tmp_path / "scores.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    dataset = load_dataset(path, "wildscore")
    assert [item.answer for item in dataset.items] == ["bass", "G major"]
    assert dataset.items[0].categories == ("Form",)
    assert dataset.items[1].categories == ()


def _broken(synthetic, tmp_path, change) -> Path:
    rows = _csv_rows(synthetic[1])
    change(rows)  # written beside the images, which the rows name relative to their file
    return _write_csv(synthetic[1].parent / f"{tmp_path.name}.csv", rows)


@pytest.mark.parametrize(("change", "message"), [
    (lambda rows: rows[2].update(truth_letter="E"), "is not among the options"),
    (lambda rows: rows[3].update(image="images/missing.png"), "not found"),
    (lambda rows: rows[1].update(final_options="{not json"), "neither JSON"),
    (lambda rows: rows[0].update(question=""), "'question' is missing"),
    (lambda rows: rows[0].update(final_options=json.dumps(dict(zip("ABCD", "xXyz", strict=True)))),
     "same text"),
])
def test_bad_wildscore_rows_name_file_and_row(synthetic, tmp_path, change, message):
    path = _broken(synthetic, tmp_path, change)
    with pytest.raises(McqDatasetError, match=message) as raised:
        load_dataset(path)
    assert str(path) in str(raised.value)


def test_bad_muchomusic_files(synthetic, tmp_path):
    rows = _csv_rows(synthetic[0])
    rows[4]["dataset_identifier"] = "123456.json"
    with pytest.raises(McqDatasetError, match=r":6: no audio file for sdd item '123456.json'"):
        load_dataset(_write_csv(synthetic[0].parent / f"{tmp_path.name}.csv", rows))
    with pytest.raises(McqDatasetError, match="no such file"):
        load_dataset(tmp_path / "absent.csv")
    (tmp_path / "bad.json").write_text("[{")
    with pytest.raises(McqDatasetError, match="not valid JSON"):
        load_dataset(tmp_path / "bad.json")
    _write_csv(tmp_path / "other.csv", [{"prompt": "x", "label": "y"}])
    with pytest.raises(McqDatasetError, match="give --mcq-layout"):
        load_dataset(tmp_path / "other.csv")


def test_a_bad_dataset_stops_the_run_with_exit_4_and_no_traceback(synthetic, tmp_path):
    path = _broken(synthetic, tmp_path, lambda rows: rows[2].update(truth_letter="Z"))
    result = subprocess.run(
        [*PYTEST, "bench/test_mcq.py", "-p", "no:cacheprovider",
         "--mcq-dataset", str(path), "--run-dir", str(tmp_path / "run")],
        cwd=REPO, capture_output=True, text=True, timeout=300,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 4, output[-2000:]
    assert "truth_letter 'Z' is not among the options" in output
    assert "Traceback" not in output


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 11), st.integers(0, 5), st.integers(0, 2**32))
def test_option_order_is_a_seeded_permutation(synthetic, index, repeat, seed):
    item = load_dataset(synthetic[0]).items[index]
    order = presentation.option_order(item, repeat, seed)
    assert sorted(order) == list(range(len(item.options)))
    assert order == presentation.option_order(replace(item), repeat, seed)
    letter = presentation.correct_letter(item, order)
    assert presentation.lettered(item, order)[letter] == item.answer


def test_repeats_and_seeds_show_other_orders(synthetic):
    items = load_dataset(synthetic[0]).items
    by_repeat = {tuple(presentation.option_order(i, r, 0) for i in items) for r in range(3)}
    assert len(by_repeat) == 3
    assert ([presentation.option_order(i, 0, 0) for i in items]
            != [presentation.option_order(i, 0, 1) for i in items])
    letters = {presentation.correct_letter(i, presentation.option_order(i, r, 0))
               for i in items for r in range(3)}
    assert letters == {"A", "B", "C", "D"}


@pytest.mark.parametrize("count", range(6))
def test_examples_come_from_the_dataset_never_the_item_and_are_seeded(synthetic, count):
    pool = load_dataset(synthetic[1]).items
    for item in pool:
        examples = presentation.example_items(item, pool, count, seed=3)
        assert len(examples) == count and item not in examples
        assert len(set(examples)) == count
        assert examples == presentation.example_items(item, pool, count, seed=3)
    assert presentation.example_items(pool[0], pool[:2], 5, 0) == (pool[1],)
    with pytest.raises(ValueError):
        presentation.example_items(pool[0], pool, 6, 0)


@pytest.mark.parametrize(("which", "condition", "mime"), [
    (0, "audio", "audio/wav"), (0, "no-audio", None),
    (1, "image", "image/png"), (1, "text-only", None),
])
def test_conditions_send_the_media_or_leave_it_out(synthetic, which, condition, mime):
    pool = load_dataset(synthetic[which]).items
    trial = McqTrial("oracle", condition, 2, 1, pool[5], 0, pool)
    request = build_mcq_request(trial, GenerationSettings())
    media = [p for p in request.turns[0].parts if isinstance(p, MediaPart)]
    assert [p.mime_type for p in media] == ([mime] if mime else [])
    text = request.turns[0].text
    for letter, option in trial.options.items():
        assert f"{letter}. {option}" in text
    assert text.count("Final Answer:") == 2  # the two solved examples, not the question
    assert request.answer_key.correct == trial.correct_letter
    assert request.answer_key.correct_reply == f"Final Answer: {trial.correct_letter}"
    assert sorted(answer for answer, _ in request.answer_key.replies) == ["A", "B", "C", "D"]
