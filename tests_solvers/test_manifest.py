"""Stimuli manifests: labels read in every accepted spelling, one clear error per problem kind,
and prompts / answer keys narrowed to the labels a manifest uses."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import soundfile
from hypothesis import given
from hypothesis import strategies as st

from fixtures.backends.base import GenerationSettings, MediaPart
from fixtures.tasks import chord
from fixtures.tasks.catalog import items_for
from fixtures.tasks.definitions import TASKS
from fixtures.tasks.manifest import ManifestError, audio_only, fewshot_problem, load_manifest
from fixtures.tasks.manifest_labels import (
    LabelError,
    chord_quality,
    chord_root,
    read_label,
    read_transcription,
    syncopation_level,
)
from fixtures.tasks.prompting import build_request, identifiers, system_instruction
from reports.tables.accuracy import transcription_f1


def tone(path: Path, freq_hz: float = 440.0, duration_s: float = 0.2) -> str:
    t = np.arange(int(16000 * duration_s)) / 16000
    soundfile.write(path, 0.3 * np.sin(2 * np.pi * freq_hz * t), 16000)
    return path.name


def write_csv(folder: Path, header: str, *lines: str) -> Path:
    path = folder / "m.csv"
    path.write_text("\n".join([header, *lines]) + "\n", encoding="utf-8")
    return path


# --- labels --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "root"),
    [("Ab", "Ab"), ("G#", "Ab"), ("A♭", "Ab"), ("g#", "Ab"), ("Bb", "Bb"), ("A#", "Bb"),
     ("Cb", "B"), ("B#", "C"), ("E#", "F"), ("Fb", "E"), ("F#", "Gb"), ("C", "C")],
)
def test_chord_roots_normalise_enharmonics(written, root):
    assert chord_root(written) == root


@pytest.mark.parametrize("written", ["H", "C4", "", "Cx#", "major", "7"])
def test_unknown_roots_read_as_none(written):
    assert chord_root(written) is None


@pytest.mark.parametrize(
    ("written", "quality"),
    [("major", "major"), ("Maj", "major"), ("M", "major"), ("m", "minor"), ("min", "minor"),
     ("Minor", "minor"), ("7", "dominant"), ("dom7", "dominant"), ("dominant7", "dominant"),
     ("dim", "diminished"), ("°", "diminished"), ("augmented", None), ("", None)],
)
def test_chord_quality_aliases_keep_the_case_of_m(written, quality):
    assert chord_quality(written) == quality


@pytest.mark.parametrize(
    ("written", "level"),
    [("0", 0), ("4", 4), ("C", 4), ("c", 4), ("Medium-Low Syncopation", 4),
     ("8 (High Syncopation)", 8), ("E", 8), ("3", None), ("F", None), ("high", None)],
)
def test_syncopation_levels_in_the_tasks_own_words(written, level):
    assert syncopation_level(written) == level


@given(st.sampled_from(chord.ROOTS), st.sampled_from(("major", "minor", "dominant", "diminished")))
def test_every_catalog_chord_label_reads_back_to_its_answer(root, quality):
    answer, label, _ = read_label("chord", {"quality": quality, "root": root})
    assert answer == TASKS["chord"].answers[("major", "minor", "dominant", "diminished")
                                            .index(quality)]
    assert label == f"{root} {quality}"


def test_label_error_names_its_column():
    with pytest.raises(LabelError) as error:
        read_label("transposition", {"same": "maybe"})
    assert error.value.column == "same" and "maybe" in str(error.value)


def test_transcriptions_are_checked_against_the_label():
    assert read_transcription("chord", "60, 64, 67", "A") == ((60, 64, 67),)
    assert read_transcription("transposition", "60 62 64 | 62 64 66", "yes") == (
        (60, 62, 64), (62, 64, 66))
    with pytest.raises(ValueError, match="gives B. Minor"):
        read_transcription("chord", "60, 63, 67", "A")
    with pytest.raises(ValueError, match="2 non-empty"):
        read_transcription("transposition", "60 62 64", "yes")
    with pytest.raises(ValueError, match="whole numbers"):
        read_transcription("syncopation", "2, x", "A")


# --- loading -------------------------------------------------------------------------------------


def test_csv_and_jsonl_give_the_same_items(tmp_path: Path):
    names = [tone(tmp_path / f"{n}.wav", 200 + 50 * i) for i, n in enumerate("abcd")]
    csv_path = write_csv(
        tmp_path, "task,audio,audio_2,root,quality,offbeat_hits,same,split",
        f"chord,{names[0]},,G#,min,,,", f"syncopation,{names[1]},,,,C,,",
        f"transposition,{names[2]},{names[3]},,,,different,",
    )
    jsonl = tmp_path / "m.jsonl"
    rows = [{"task": "chord", "audio": names[0], "root": "A♭", "quality": "minor"},
            {"task": "syncopation", "audio": names[1], "offbeat_hits": 4},
            {"task": "transposition", "audio": names[2], "audio_2": names[3], "same": False}]
    jsonl.write_text("\n".join(json.dumps(r) for r in rows) + "\n\n")
    from_csv, from_jsonl = load_manifest(csv_path), load_manifest(jsonl)
    assert from_csv.items == from_jsonl.items
    chord_item, sync_item, trans_item = from_csv.items
    assert (chord_item.item_id, chord_item.answer, chord_item.label) == ("a", "B", "Ab minor")
    assert chord_item.recordings == (str((tmp_path / "a.wav").resolve()),)
    assert (sync_item.answer, trans_item.answer) == ("C", "no")
    hash_names = identifiers(trans_item, "audio")  # hashes of the bytes, not the file names
    assert all(re.fullmatch(r"s[0-9a-f]{10}\.wav", name) for name in hash_names)
    assert len(set(hash_names)) == 2
    assert from_csv.tasks == ("syncopation", "transposition", "chord")
    assert from_csv.sha256 != from_jsonl.sha256


def test_a_recordings_request_names_its_files_and_carries_their_audio(tmp_path: Path):
    name = tone(tmp_path / "take 1.wav")
    manifest = load_manifest(write_csv(tmp_path, "task,audio,quality", f"chord,{name},major"))
    (item,) = manifest.items
    assert item.item_id == "take_1" and item.clips == () and item.transcription == ()
    request = build_request(item, "audio", "zero", "standalone", GenerationSettings())
    media = [p for p in request.turns[-1].parts if isinstance(p, MediaPart)]
    assert [Path(p.path).name for p in media] == ["take 1.wav"]
    (hash_name,) = identifiers(item, "audio")
    assert f"Stimulus: {hash_name}" in request.turns[-1].text  # the schema grammar's form
    assert "take" not in request.system + "".join(t.text for t in request.turns)
    with pytest.raises(ValueError, match="no midi form"):
        identifiers(item, "midi")


# --- errors: one kind each, naming line and column -----------------------------------------------


def _error(tmp_path: Path, header: str, *lines: str, name: str = "m.csv") -> ManifestError:
    path = tmp_path / name
    path.write_text("\n".join([header, *lines]) + "\n", encoding="utf-8")
    with pytest.raises(ManifestError) as error:
        load_manifest(path)
    assert isinstance(error.value, pytest.UsageError)
    return error.value


def test_error_unknown_manifest_extension(tmp_path: Path):
    error = _error(tmp_path, "task,audio", name="m.xlsx")
    assert error.kind == "unknown_extension" and ".csv or .jsonl" in str(error)


def test_error_missing_manifest(tmp_path: Path):
    with pytest.raises(ManifestError) as error:
        load_manifest(tmp_path / "absent.csv")
    assert error.value.kind == "missing_file"


def test_error_empty_manifest(tmp_path: Path):
    assert _error(tmp_path, "task,audio,quality").kind == "empty"
    tone(tmp_path / "a.wav")
    only_examples = _error(tmp_path, "task,audio,quality,split", "chord,a.wav,major,fewshot")
    assert only_examples.kind == "empty" and "no test rows" in str(only_examples)


def test_error_missing_column(tmp_path: Path):
    tone(tmp_path / "a.wav")
    error = _error(tmp_path, "task,audio", "chord,a.wav")
    assert error.kind == "missing_column" and "line 2, column 'quality'" in str(error)


def test_error_unknown_task(tmp_path: Path):
    tone(tmp_path / "a.wav")
    error = _error(tmp_path, "task,audio,quality", "chord,a.wav,major", "melody,a.wav,major")
    assert error.kind == "unknown_task" and "line 3, column 'task'" in str(error)
    assert "'melody'" in str(error) and "syncopation, transposition, chord" in str(error)


@pytest.mark.parametrize(
    ("columns", "values", "column"),
    [("quality", "augmented", "quality"), ("quality,root", "major,H", "root"),
     ("quality,split", "major,train", "split")],
)
def test_error_unknown_label(tmp_path: Path, columns, values, column):
    tone(tmp_path / "a.wav")
    error = _error(tmp_path, f"task,audio,{columns}", f"chord,a.wav,{values}")
    assert error.kind == "unknown_label" and f"line 2, column {column!r}" in str(error)


def test_error_missing_audio_file(tmp_path: Path):
    error = _error(tmp_path, "task,audio,quality", "chord,nowhere.wav,major")
    assert error.kind == "missing_file" and "'nowhere.wav' not found" in str(error)


def test_error_unreadable_audio(tmp_path: Path):
    (tmp_path / "broken.wav").write_bytes(b"RIFF not really a wave file")
    error = _error(tmp_path, "task,audio,quality", "chord,broken.wav,major")
    assert error.kind == "unreadable_audio" and "line 2, column 'audio'" in str(error)


def test_error_duplicate_item_id(tmp_path: Path):
    tone(tmp_path / "a.wav")
    (tmp_path / "other").mkdir()
    tone(tmp_path / "other" / "a.wav")
    error = _error(tmp_path, "task,audio,quality", "chord,a.wav,major", "chord,other/a.wav,minor")
    assert error.kind == "duplicate_item_id" and "line 2" in str(error) and "line 3" in str(error)


def test_error_transcription_against_label(tmp_path: Path):
    tone(tmp_path / "a.wav")
    error = _error(tmp_path, "task,audio,quality,transcription", "chord,a.wav,major,60 63 67")
    assert error.kind == "bad_transcription" and "column 'transcription'" in str(error)


def test_error_malformed_rows(tmp_path: Path):
    tone(tmp_path / "a.wav")
    bad_id = _error(tmp_path, "task,audio,quality,item_id", "chord,a.wav,major,x/y")
    assert bad_id.kind == "malformed_row" and "column 'item_id'" in str(bad_id)
    extra_cell = _error(tmp_path, "task,audio,quality", "chord,a.wav,major,fewshot")
    assert extra_cell.kind == "malformed_row" and "line 2" in str(extra_cell)
    (tmp_path / "m.jsonl").write_text('{"task": "chord"\n')
    with pytest.raises(ManifestError) as error:
        load_manifest(tmp_path / "m.jsonl")
    assert error.value.kind == "malformed_row" and "m.jsonl:1" in str(error.value)


def test_recordings_are_audio_only():
    assert audio_only(("audio", "midi")) == ("audio",)
    with pytest.raises(ManifestError) as error:
        audio_only(("midi",))
    assert error.value.kind == "no_audio_modality"


# --- a smaller label set -------------------------------------------------------------------------


def _major_minor_manifest(tmp_path: Path, *extra: str):
    lines = [f"chord,{tone(tmp_path / f'c{i}.wav', 220 + 20 * i)},{q}"
             for i, q in enumerate(("major", "minor", "maj", "m"))]
    return load_manifest(write_csv(tmp_path, "task,audio,quality,split", *lines, *extra))


def test_a_smaller_label_set_narrows_prompt_options_and_answer_key(tmp_path: Path):
    manifest = _major_minor_manifest(tmp_path)
    assert manifest.offered("chord") == ("A", "B")
    assert manifest.header()["offered_answers"] == {"chord": ["A", "B"]}
    item = manifest.items[0]
    for strategy in ("standalone", "cot", "logiclm"):
        request = build_request(item, "audio", "few", strategy, GenerationSettings())
        assert request.system == system_instruction("chord", strategy, "audio", ("A", "B"))
        assert [answer for answer, _ in request.answer_key.replies] == ["A", "B"]
    standalone = system_instruction("chord", "standalone", "audio", ("A", "B"))
    assert "A. Major\nB. Minor\n\n" in standalone and "C. " not in standalone
    cot = system_instruction("chord", "cot", "audio", ("A", "B"))
    assert "B. Minor: {0, 3, 7}\n\n" in cot and "Dominant:" not in cot
    assert system_instruction("chord", "cot", "audio", ("A", "B", "C", "D")) == (
        system_instruction("chord", "cot", "audio"))
    # the built-in worked examples that answer an offered option: C major and A minor
    assert [e.label for e in item.examples] == ["A minor", "C major"]
    assert "offers only the options A, B" in " ".join(manifest.report_lines(("audio", "midi")))


def test_one_label_is_not_narrowed_and_transposition_never_is(tmp_path: Path):
    tone(tmp_path / "a.wav")
    tone(tmp_path / "b.wav", 330)
    tone(tmp_path / "c.wav", 440)
    manifest = load_manifest(write_csv(
        tmp_path, "task,audio,audio_2,quality,same",
        "chord,a.wav,,major,", "transposition,b.wav,c.wav,,yes",
    ))
    assert manifest.offered("chord") == TASKS["chord"].answers
    assert manifest.offered("transposition") == ("yes", "no")
    assert all(item.offered == () and item.examples == () for item in manifest.items)


def test_fewshot_rows_replace_the_examples_and_need_a_transcription_beyond_standalone(tmp_path):
    manifest = _major_minor_manifest(
        tmp_path, f"chord,{tone(tmp_path / 'ex.wav')},minor,fewshot",
    )
    (example,) = manifest.items[0].examples
    assert example.item_id == "ex" and example.split == "fewshot"
    assert fewshot_problem(manifest, ("standalone",)) is None
    assert "ex of chord have no transcription" in fewshot_problem(manifest, ("standalone", "cot"))
    request = build_request(manifest.items[0], "audio", "few", "standalone", GenerationSettings())
    example_name = identifiers(example, "audio")[0]  # a hash of the audio, not "ex.wav"
    assert [t.text for t in request.turns[:2]] == [f"Stimulus: {example_name}",
                                                   "Final Answer: B"]


def test_a_fewshot_row_outside_the_offered_labels_is_an_error(tmp_path: Path):
    tone(tmp_path / "ex.wav")
    with pytest.raises(ManifestError) as error:
        _major_minor_manifest(tmp_path, "chord,ex.wav,dim,fewshot")
    assert error.value.kind == "unknown_label" and "line 6" in str(error.value)


def test_narrowed_syncopation_without_matching_examples_cannot_run_few_shot(tmp_path: Path):
    lines = [f"syncopation,{tone(tmp_path / f's{i}.wav')},{level}"
             for i, level in enumerate((0, 8, 0, 8))]
    manifest = load_manifest(write_csv(tmp_path, "task,audio,offbeat_hits", *lines))
    assert manifest.offered("syncopation") == ("A", "E")
    assert "split=fewshot rows" in fewshot_problem(manifest, ("standalone",))


# --- reports -------------------------------------------------------------------------------------


def test_transcription_f1_leaves_out_recordings_without_a_transcription():
    built_in = items_for("chord", "test")[0]
    base = {"model": "m", "task": "chord", "modality": "audio", "strategy": "logiclm",
            "error_class": None, "correct": True, "truth": built_in.answer, "trial_id": "t"}
    truth = [list(built_in.transcription[0])]
    df = pd.DataFrame([
        base | {"truth_transcription": truth, "transcription": truth},
        base | {"truth_transcription": [], "transcription": [[1, 2, 3]]},
    ])
    table = transcription_f1(df)
    assert table["n_trials"].tolist() == [1] and table["f1"].tolist() == [1.0]
    assert table.attrs["without_truth"] == 1


def test_oracle_reply_for_a_recording_without_transcription_gives_the_true_answer(tmp_path):
    definition = TASKS["chord"]
    for item in _major_minor_manifest(tmp_path).items:
        for strategy in ("standalone", "cot", "logiclm"):
            reply = build_request(item, "audio", "zero", strategy, GenerationSettings()).answer_key
            if strategy == "logiclm":
                parsed = definition.parse(reply.correct_reply, identifiers(item, "audio"))
                assert definition.solve(parsed) == item.answer
            else:
                assert definition.extract_answer(reply.correct_reply) == item.answer


def test_the_selection_takes_the_core_items_from_the_manifest(tmp_path: Path):
    from fixtures.running.run_options import RunOptions
    from fixtures.tasks.family import CoreSelection, selected_trials

    manifest = _major_minor_manifest(tmp_path)
    run = RunOptions(("oracle",), ("audio",), ("zero",), ("cot",), GenerationSettings())
    selection = CoreSelection(("audio",), manifest=manifest)
    trials = selected_trials(run, selection, "chord")
    assert [t.item for t in trials] == list(manifest.items)
    assert [t.test_id for t in trials][:1] == ["oracle-audio-zero-cot-c0"]
    assert selected_trials(run, selection, "syncopation") == []
    assert len(selected_trials(run, CoreSelection(("audio",)), "chord")) == 44


def test_a_linked_recording_is_announced_by_neither_its_name_nor_its_targets(tmp_path: Path):
    """A link ``clip7.wav`` to ``Ab_minor_take.wav``: the prompt must show neither name (the
    target's gives the label away), only the hash of the audio."""
    (tmp_path / "store").mkdir()
    target = tone(tmp_path / "store" / "Ab_minor_take.wav")
    (tmp_path / "clip7.wav").symlink_to(tmp_path / "store" / target)
    manifest = load_manifest(write_csv(tmp_path, "task,audio,root,quality",
                                       "chord,clip7.wav,G#,min"))
    (item,) = manifest.items
    request = build_request(item, "audio", "zero", "logiclm", GenerationSettings())
    shown = request.system + "".join(t.text for t in request.turns)
    assert "minor_take" not in shown and "clip7" not in shown
    (hash_name,) = identifiers(item, "audio")
    assert re.fullmatch(r"s[0-9a-f]{10}\.wav", hash_name) and hash_name in shown
    assert item.stimulus_names() == (hash_name.removesuffix(".wav"),)
