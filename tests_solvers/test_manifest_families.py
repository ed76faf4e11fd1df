"""One stimuli manifest for every family: MUSE and pitch rows beside the core's, clips of one
item never announced by one name (a "same" pair may be one file twice), and each combination
that cannot run is one usage error."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import numpy as np
import pytest
import soundfile

from fixtures.tasks.clip_names import distinct_names
from fixtures.tasks.manifest import ManifestError, load_manifest
from fixtures.tasks.prompting import build_request, identifiers
from tests_solvers import PYTEST
from tests_solvers.test_bench_plugin import REPO, read_records
from tests_solvers.test_manifest import write_csv

RATE_HZ = 16000


def notes(path: Path, midis: tuple[int, ...], together: bool = True) -> str:
    """A WAV of ``midis`` sounding together (a chord) or one after another (a melody)."""
    t = np.arange(RATE_HZ // 3) / RATE_HZ
    waves = [0.2 * np.sin(2 * np.pi * 440 * 2 ** ((m - 69) / 12) * t) for m in midis]
    soundfile.write(path, sum(waves) if together else np.concatenate(waves), RATE_HZ)
    return path.name


def test_muse_and_pitch_rows_read_their_labels(tmp_path: Path):
    a4, c4 = notes(tmp_path / "a4.wav", (69,)), notes(tmp_path / "c.wav", (60, 64, 67))
    manifest = load_manifest(write_csv(
        tmp_path, "task,item_id,audio,audio_2,instrument,shape,meter,more_syncopated,midi,"
                  "onset_s,offset_s,contour,signed_semitones,quality",
        f"muse_instrument,i1,{a4},,violin,,,,,,,,,",
        f"muse_melody_shape,s1,{a4},,,falling,,,,,,,,",
        f"muse_meter,m1,{a4},,,,6/8,,,,,,,",
        f"muse_sync_compare,y1,{a4},{c4},,,,second,,,,,,",
        f"pitch_a1,p1,{a4},,,,,,Bb3,,,,,",
        f"pitch_c4,p2,{c4},,,,,,\"C4, E4 67\",,,,,",
        f"pitch_b3,p3,{a4},,,,,,,1.5,2.5,,,",
        f"pitch_d3,p4,{a4},,,,,,,,,up down,,",
        f"pitch_d6,p5,{a4},,,,,,,,,,-3,",
        f"pitch_c3,p6,{c4},,,,,,,,,,,Half_Diminished",
    ))
    answers = {i.item_id: i.answer for i in manifest.items}
    assert answers == {"i1": "B", "s1": "B", "m1": "C", "y1": "B", "p1": "58",
                       "p2": "60 64 67", "p3": "1.5 2.5", "p4": "up down", "p5": "-3",
                       "p6": "half-diminished"}
    params = {i.item_id: i.params_dict() for i in manifest.items}
    assert params["p4"]["prompt_values"] == (("n_notes", 3),)
    assert params["p2"]["answer_kind"] == "pitch_set" and params["p2"]["notation_axis"]
    assert manifest.tasks[:2] == ("pitch_a1", "pitch_b3")  # the families' order: pitch, MUSE


def test_an_unknown_task_names_every_familys_tasks(tmp_path: Path):
    notes(tmp_path / "a.wav", (69,))
    with pytest.raises(ManifestError, match="unknown task") as error:
        load_manifest(write_csv(tmp_path, "task,audio,midi", "pitch_z9,a.wav,69"))
    for task in ("chord", "muse_instrument", "muse_rhythm_match", "pitch_a1", "pitch_d8"):
        assert task in str(error.value)


@pytest.mark.parametrize(("task", "column", "value"), [
    ("muse_instrument", "instrument", "guitar"), ("muse_oddball", "out_of_key", "maybe"),
    ("pitch_a1", "midi", "H9"), ("pitch_a1", "midi", "100"), ("pitch_d6", "signed_semitones", "13"),
    ("pitch_c3", "quality", "power chord"), ("pitch_d3", "contour", "up sideways"),
])
def test_unknown_labels_of_other_families_name_their_column(tmp_path, task, column, value):
    notes(tmp_path / "a.wav", (69,))
    with pytest.raises(ManifestError, match=f"column '{column}': unknown label") as error:
        load_manifest(write_csv(tmp_path, f"task,audio,{column}", f"{task},a.wav,{value}"))
    assert error.value.kind == "unknown_label"


@pytest.mark.parametrize(("extra_column", "value", "kind"), [
    ("split", "fewshot", "unknown_label"), ("transcription", "69", "bad_transcription")])
def test_pitch_rows_are_test_rows_without_transcription(tmp_path, extra_column, value, kind):
    notes(tmp_path / "a.wav", (69,))
    with pytest.raises(ManifestError) as error:
        load_manifest(write_csv(tmp_path, f"task,audio,midi,{extra_column}",
                                f"pitch_a1,a.wav,69,{value}", "pitch_a1,a.wav,69,"))
    assert error.value.kind == kind


PAIR_TASKS = [("transposition", "same", "yes"), ("muse_rhythm_match", "same", "yes"),
              ("muse_chord_sequence", "same", "yes"), ("muse_sync_compare", "more_syncopated", "A")]


@pytest.mark.parametrize(("task", "column", "label"), PAIR_TASKS)
def test_a_pair_of_one_file_twice_is_announced_by_two_names(tmp_path, task, column, label):
    """Before: transposition refused the pair, the MUSE tasks took no recordings, and a pair
    of one file would have read ``Rhythm 1: s411e09066f.wav`` / ``Rhythm 2: s411e09066f.wav``."""
    from fixtures.muse.registry import MUSE
    from fixtures.tasks.suite import CORE

    name = notes(tmp_path / "loop.wav", (60, 64), together=False)
    (item,) = load_manifest(write_csv(tmp_path, f"task,audio,audio_2,{column}",
                                      f"{task},{name},{name},{label}")).items
    names = identifiers(item, "audio")
    assert len(names) == 2 and names[0] != names[1]
    suite = MUSE if task.startswith("muse_") else CORE
    for strategy in ("standalone", "cot", "logiclm"):
        request = build_request(item, "audio", "zero", strategy,
                                _settings(), suite)
        text = "\n".join(p.text for t in request.turns for p in t.parts if hasattr(p, "text"))
        assert all(text.count(n) == 1 for n in names), text
        assert request.answer_key.correct == item.answer
        assert request.answer_key.correct_reply.count(names[0]) <= 1


def _settings():
    from fixtures.backends.base import GenerationSettings

    return GenerationSettings(temperature=0.0, top_p=1.0, max_output_tokens=1024, seed=0)


def test_distinct_names_are_kept_so_built_in_prompts_do_not_move():
    assert distinct_names(["s1.wav", "s2.wav"], "x") == ("s1.wav", "s2.wav")
    salted = distinct_names(["s1.wav", "s1.wav"], "item")
    assert len(set(salted)) == 2 and all(n.endswith(".wav") and n != "s1.wav" for n in salted)
    assert salted == distinct_names(["s1.wav", "s1.wav"], "item")  # deterministic
    assert salted != distinct_names(["s1.wav", "s1.wav"], "other item")


def test_every_built_in_item_keeps_its_clip_names():
    from fixtures.muse.catalog import TASK_NAMES as MUSE_TASKS
    from fixtures.muse.catalog import items_for as muse_items
    from fixtures.tasks.catalog import TASK_NAMES, items_for

    items = [*(i for t in TASK_NAMES for i in items_for(t)),
             *(i for t in MUSE_TASKS for i in muse_items(t))]
    for item in items:
        for modality, suffix in (("audio", ".wav"), ("midi", ".mid")):
            assert identifiers(item, modality) == tuple(c.stimulus_name + suffix
                                                        for c in item.clips)


def test_a_worked_example_may_not_be_a_test_recording(tmp_path: Path):
    a = notes(tmp_path / "a.wav", (60, 64, 67))
    b = notes(tmp_path / "b.wav", (57, 60, 64))
    with pytest.raises(ManifestError, match="give that answer away"):
        load_manifest(write_csv(tmp_path, "task,item_id,audio,quality,split",
                                f"chord,t1,{a},major,", f"chord,t2,{b},minor,",
                                f"chord,f1,{a},major,fewshot"))


def run_bench(*args: str, run_dir: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*PYTEST, "bench", "-q", "-p", "no:cacheprovider", "--no-report", "--run-dir",
         str(run_dir), *args], cwd=REPO, capture_output=True, text=True, timeout=600,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})


@pytest.fixture
def every_family(tmp_path: Path) -> Path:
    """Chords, single notes and melodies: core chord, MUSE instrument and melody shape, pitch
    naming (A1) and chord notes (C4)."""
    rows = [
        f"chord,cmaj,{notes(tmp_path / 'cmaj.wav', (60, 64, 67))},,major,,,",
        f"chord,amin,{notes(tmp_path / 'amin.wav', (57, 60, 64))},,minor,,,",
        f"pitch_a1,a4,{notes(tmp_path / 'a4.wav', (69,))},,,A4,,",
        f"pitch_a1,c3,{notes(tmp_path / 'c3.wav', (48,))},,,48,,",
        "pitch_c4,triad,cmaj.wav,,,\"60,64,67\",,",
        "muse_instrument,pno,a4.wav,,,,piano,",
        f"muse_melody_shape,up,{notes(tmp_path / 'up.wav', (60, 62, 64, 65), False)},,,,,A",
        f"muse_melody_shape,down,{notes(tmp_path / 'down.wav', (65, 64, 62, 60), False)},,,,,B",
        "muse_rhythm_match,twice,up.wav,up.wav,,,,,yes",
    ]
    return write_csv(tmp_path, "task,item_id,audio,audio_2,quality,midi,instrument,shape,same",
                     *[r if r.count(",") == 8 else r + "," for r in rows])


def test_every_family_runs_from_one_manifest(every_family: Path, tmp_path: Path):
    result = run_bench("--stimuli-manifest", str(every_family), "--model", "oracle,chance",
                       "--shot", "zero", run_dir=tmp_path / "run")
    assert result.returncode == 1, result.stdout[-3000:] + result.stderr[-3000:]  # chance
    records = read_records(tmp_path / "run")
    tasks = {r["task"] for r in records.values()}
    assert tasks == {"chord", "pitch_a1", "pitch_c4", "muse_instrument", "muse_melody_shape",
                     "muse_rhythm_match"}
    oracle = [r for k, r in records.items() if k.startswith("oracle/")]
    # chord 2 + instrument 1 + shape 2 + rhythm 1 items x 3 strategies; A1 2 + C4 1 x 4
    assert len(oracle) == 6 * 3 + 3 * 4 and all(r["correct"] for r in oracle)
    assert all(r["error_class"] is None for k, r in records.items() if k.startswith("chance/"))


@pytest.mark.parametrize("extra", [("--muse", "all"), ("--rendition", "live"),
                                   ("--pitch-sample", "2"), ("--backgrounds", ".")])
def test_a_combination_that_cannot_run_is_one_usage_error(every_family, tmp_path, extra):
    """Before: --muse ran the built-in MUSE items beside the manifest's, --rendition live was
    recorded in the header and ignored."""
    result = run_bench("--stimuli-manifest", str(every_family), "--model", "oracle", *extra,
                       run_dir=tmp_path / "run")
    assert result.returncode == 4, result.stdout[-2000:] + result.stderr[-2000:]
    assert result.stderr.count("ERROR:") == 1 and "Traceback" not in result.stderr
    assert extra[0] in result.stderr


def test_a_graded_experiments_recordings_get_a_report_without_a_threshold(tmp_path: Path):
    """D2's threshold is fitted over its stimulus levels; a recording has none, and the report
    once failed on it (KeyError 'delta_cents')."""
    manifest = write_csv(tmp_path, "task,audio,higher",
                         f"pitch_d2,{notes(tmp_path / 'up.wav', (60, 62), False)},second")
    result = subprocess.run(
        [*PYTEST, "bench/test_pitch", "-q", "-p", "no:cacheprovider", "--run-dir",
         str(tmp_path / "run"), "--stimuli-manifest", str(manifest), "--model", "oracle"],
        cwd=REPO, capture_output=True, text=True, timeout=600,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert (tmp_path / "run" / "report.html").is_file()
