"""Every pitch item's label, checked against its spec and against its rendered audio.

For each item the expected sounding pitches are derived from the tones (``pitch_item_checks``,
built on ``pitch_label_checks``), then (a) the served audio must sound them (35 cents; chords:
every note a spectral peak; timestamps: where the sound starts and stops) and (b) the item's
truth and prompt values must follow from them. ``EARTEST_LABEL_SAMPLE`` picks how many items
per experiment: 4 by default (``make test``), ``all`` for every item of the default sample
(the acceptance run):

    EARTEST_LABEL_SAMPLE=all python -m pytest tests_solvers/test_pitch_labels.py -n 2 -q
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fixtures.pitch.catalog import EXPERIMENTS, pitch_items
from fixtures.pitch.render import render_scene
from fixtures.pitch.spec import PitchItem, Scene, Stretch, Tone
from tests_solvers.pitch_item_checks import (
    CHECKS,
    check_item,
    directions,
)
from tests_solvers.pitch_label_checks import (
    scene_audio,
    sounding_midi,
)
from tests_solvers.pitch_second_opinion import OCTAVE_MARGINS_DB, TALLY


def label_sample() -> int | None:
    """``EARTEST_LABEL_SAMPLE``: a positive count, or ``all`` (None: the default sample)."""
    value = os.environ.get("EARTEST_LABEL_SAMPLE", "4").strip().lower()
    return None if value == "all" else int(value)


def test_every_experiment_has_a_label_check() -> None:
    assert set(CHECKS) == set(EXPERIMENTS)


@pytest.mark.parametrize("experiment", EXPERIMENTS)
def test_labels_agree_with_spec_and_audio(experiment: str, record_property) -> None:
    """Every tone confirmed by YIN/spectral analysis or by Praat, octave unambiguous; the share
    each tracker confirmed is printed at the end of the run (``tests_solvers/conftest.py``)."""
    TALLY.clear()
    OCTAVE_MARGINS_DB.clear()
    items = pitch_items(experiment, label_sample())
    problems = [problem for entry in items for problem in check_item(entry)]
    closest_db = min(OCTAVE_MARGINS_DB, default=None)
    record_property("tracker_tally", (experiment, dict(TALLY), closest_db))
    assert not problems, f"{len(problems)} disagreements in {len(items)} items:\n" + "\n".join(
        problems)


# --- the checks themselves can fail ---------------------------------------------------------


def first_item(experiment: str, min_notes: int = 1) -> PitchItem:
    """The first item of the experiment's small sample (E6 samples whole pairs: 2 items)."""
    return next(entry for entry in pitch_items(experiment, 2)
                if len(entry.truth) >= min_notes)


def with_truth(entry: PitchItem, truth: tuple) -> PitchItem:
    return dataclasses.replace(entry, truth=truth)


def with_prompt(entry: PitchItem, **values: object) -> PitchItem:
    prompt = {**entry.prompt_dict(), **values}
    return dataclasses.replace(entry, prompt_values=tuple(prompt.items()))


TAMPERED: dict[str, Callable[[PitchItem], PitchItem]] = {
    "a1": lambda e: with_truth(e, (e.truth[0] + 1,)),
    "a1mcq": lambda e: with_truth(e, ("B" if e.truth != ("B",) else "C",)),
    "b3": lambda e: with_truth(e, (e.truth[0] + 0.3, e.truth[1])),
    "b4": lambda e: with_prompt(e, target_midi=e.prompt_dict()["target_midi"] + 1),
    "c2": lambda e: with_truth(e, (e.truth[0] + 1,)),
    "c3": lambda e: with_truth(e, ("sus4" if e.truth != ("sus4",) else "major",)),
    "d2": lambda e: with_truth(e, ("first" if e.truth == ("second",) else "second",)),
    "d4": lambda e: with_truth(e, tuple(reversed(e.truth)) + ("up",)),
    "d5": lambda e: with_truth(e, e.truth[::-1]),
    "d7a": lambda e: with_prompt(e, reference_midi=e.prompt_dict()["reference_midi"] - 2),
    "e6": lambda e: dataclasses.replace(e, params=(("detune_cents", 11.0),)),  # truly ±11.25
    "f1": lambda e: with_truth(e, e.truth[:-1] + (e.truth[-1] + 1,)),
    "f2": lambda e: with_truth(e, e.truth[1:]),
}


@pytest.mark.parametrize("experiment", TAMPERED)
def test_a_wrong_label_is_caught(experiment: str) -> None:
    entry = first_item(experiment)
    assert check_item(entry) == []
    problems = check_item(TAMPERED[experiment](entry))
    assert problems and all(entry.item_id in problem for problem in problems)


def moved_scene(scene: Scene, semitones: float) -> Scene:
    tones = tuple(dataclasses.replace(t, pitch_midi=t.pitch_midi + semitones) for t in scene.tones)
    return dataclasses.replace(scene, tones=tones)


@pytest.mark.parametrize("semitones", [-12, -1, 0.5, 2])
def test_audio_off_its_label_is_caught(semitones: float) -> None:
    entry = first_item("a1")
    problems = check_item(entry, lambda scene: render_scene(moved_scene(scene, semitones)))
    assert problems and "cents from the expected" in problems[0]


def test_a_missing_chord_note_is_caught() -> None:
    entry = first_item("c4", min_notes=3)

    def without_top(scene: Scene) -> np.ndarray:
        kept = tuple(sorted(scene.tones, key=lambda t: t.pitch_midi)[:-1])
        return render_scene(dataclasses.replace(scene, tones=kept))

    problems = check_item(entry, without_top)
    assert problems and "not found" in problems[0]


@pytest.mark.parametrize("shift_s", [-0.2, 0.2])
def test_a_tone_out_of_place_is_caught(shift_s: float) -> None:
    entry = first_item("b3")
    problems = check_item(entry, lambda scene: np.roll(scene_audio(scene), round(shift_s * 16_000)))
    assert any("starts at" in problem for problem in problems)


@pytest.mark.parametrize(("value", "sample"), [("all", None), (" ALL ", None), ("7", 7)])
def test_label_sample_reads_the_environment(monkeypatch, value: str, sample: int | None) -> None:
    monkeypatch.setenv("EARTEST_LABEL_SAMPLE", value)
    assert label_sample() == sample


@given(st.lists(st.integers(29, 89), min_size=1, max_size=12))
def test_directions_follow_every_change_and_skip_repeats(pitches: list[int]) -> None:
    moves = directions([float(p) for p in pitches])
    changes = [b - a for a, b in zip(pitches, pitches[1:], strict=False) if b != a]
    assert len(moves) == len(changes)
    assert all((move == "up") == (change > 0) for move, change in zip(moves, changes, strict=True))


@given(st.floats(0.25, 4.0), st.sampled_from(["resample", "phase_vocoder"]),
       st.integers(29, 89))
def test_only_resampling_moves_the_sounding_pitch(factor: float, method: str, midi: int) -> None:
    scene = Scene((Tone("sine", 0.0, 1.0, midi),), 1.0, stretch=Stretch(method, factor))
    shift = -12 * np.log2(factor) if method == "resample" else 0.0
    assert sounding_midi(scene, scene.tones[0]) == pytest.approx(midi + shift)
