"""The listener's answers to pitch questions, on synthesized audio with known content, scored
by the benchmark's own scorer; and proof that it never reads the answer key."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

import numpy as np
import pytest
import soundfile

from fixtures.backends.base import Question
from fixtures.backends.listener import pitch
from fixtures.pitch.questions import reply_for
from solvers.notation import NOTATIONS, midi_to_hz
from solvers.pitch_scoring import PITCH_KINDS, score_answer

SAMPLE_RATE_HZ = 16_000


@pytest.fixture(autouse=True)
def private_cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("EARTEST_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


def tone(midi: float, duration_s: float, harmonics: int = 4, glide: tuple = ()) -> np.ndarray:
    """A harmonic tone; ``glide`` = breakpoints (time fraction, midi) for a moving pitch."""
    n = round(duration_s * SAMPLE_RATE_HZ)
    t = np.arange(n) / SAMPLE_RATE_HZ
    if glide:
        fractions, midis = zip(*glide, strict=True)
        path_midi = np.interp(t / duration_s, fractions, midis)
    else:
        path_midi = np.full(n, float(midi))
    phase = 2 * np.pi * np.cumsum(midi_to_hz(69) * 2 ** ((path_midi - 69) / 12)) / SAMPLE_RATE_HZ
    wave = sum(np.sin(k * phase) / k for k in range(1, harmonics + 1))
    fade = np.minimum(1.0, np.minimum(t, t[::-1]) / 0.01)
    return 0.4 * wave * fade / harmonics


def write_scene(directory: Path, parts: list[tuple[float, np.ndarray]], duration_s: float) -> Path:
    audio = np.zeros(round(duration_s * SAMPLE_RATE_HZ))
    for onset_s, signal in parts:
        first = round(onset_s * SAMPLE_RATE_HZ)
        audio[first : first + signal.size] += signal
    path = directory / f"scene{len(list(directory.glob('*.wav')))}.wav"
    soundfile.write(path, audio / max(1.0, np.abs(audio).max() / 0.9), SAMPLE_RATE_HZ)
    return path


def sequence(directory: Path, midis, note_s: float = 0.5, gap_s: float = 0.2) -> Path:
    parts = [(0.25 + i * (note_s + gap_s), tone(m, note_s)) for i, m in enumerate(midis)]
    return write_scene(directory, parts, 0.75 + len(midis) * (note_s + gap_s))


def ask(experiment: str, kind: str, path: Path, notation: str = "plain", **values) -> str:
    options = tuple(values.pop("options", ()))
    question = Question(
        task=f"pitch_{experiment}",
        strategy="standalone",
        modality="audio",
        notation=notation,
        answer_kind=kind,
        options=options,
        prompt_values=tuple(values.items()),
    )
    return pitch.answer_pitch(question, [path])


def correct(kind: str, truth: tuple, reply: str, notation: str = "plain", options=()) -> bool:
    scored_notation = None if notation == "plain" else notation
    return score_answer(kind, truth, reply, notation=scored_notation, options=options).correct


@pytest.mark.parametrize("notation", NOTATIONS)
def test_single_pitch_is_written_as_the_oracle_would(tmp_path, notation):
    path = write_scene(tmp_path, [(0.0, tone(57, 2.0))], 2.0)
    reply = ask("a1", "pitch", path, notation)
    assert reply == reply_for("pitch", notation, (57,))
    assert correct("pitch", (57,), reply, notation)


def test_pitch_at_a_queried_time(tmp_path):
    path = sequence(tmp_path, (48, 55, 62, 50), note_s=1.0, gap_s=0.6)
    middle_of_third_s = 0.25 + 2 * 1.6 + 0.5
    reply = ask("b2", "pitch", path, "midi", timestamp_s=middle_of_third_s)
    assert correct("pitch", (62,), reply, "midi")


def test_target_from_a_named_reference(tmp_path):
    path = sequence(tmp_path, (60, 67), note_s=1.0, gap_s=0.5)
    reply = ask("d7a", "pitch", path, "spn", reference_midi=60)
    assert correct("pitch", (67,), reply, "spn")


def test_timestamps_of_tones_in_silence(tmp_path):
    parts = [(2.0, tone(50, 1.0)), (7.5, tone(62, 2.0)), (12.0, tone(55, 1.0))]
    path = write_scene(tmp_path, parts, 15.0)
    every = (2.0, 3.0, 7.5, 9.5, 12.0, 13.0)
    assert correct("timestamps", every, ask("b5", "timestamps", path))
    named = ask("b4", "timestamps", path, target_midi=62)
    assert correct("timestamps", (7.5, 9.5), named)


def test_sequence_answers(tmp_path):
    midis = (60, 65, 58, 70, 67)
    path = sequence(tmp_path, midis)
    assert correct("pitch_sequence", midis, ask("d8", "pitch_sequence", path, "midi"), "midi")
    assert correct("integer", (5,), ask("d1", "integer", path))
    contour = ("up", "down", "up", "down")
    assert correct("contour", contour, ask("d3", "contour", path, n_notes=5))


def test_legato_notes_are_told_apart_by_their_pitch(tmp_path):
    midis = (62, 66, 59, 64)
    parts = [(0.25 + i * 0.27, tone(m, 0.27)) for i, m in enumerate(midis)]
    path = write_scene(tmp_path, parts, 1.8)
    reply = ask("d3", "contour", path, n_notes=4)
    assert correct("contour", ("up", "down", "up"), reply)


def test_signed_interval(tmp_path):
    path = sequence(tmp_path, (64, 57), note_s=1.0, gap_s=0.5)
    assert correct("integer", (-7,), ask("d6", "integer", path))


def test_ranks_of_tones_a_quarter_tone_apart(tmp_path):
    midis = (60.25, 59.75, 60.75, 60.0)  # positions 2, 4, 1, 3 from low to high
    path = sequence(tmp_path, midis, note_s=0.6, gap_s=0.15)
    reply = ask("d5", "ranks", path, n_notes=4)
    assert correct("ranks", (2, 4, 1, 3), reply)


@pytest.mark.parametrize("higher", ["first", "second"])
def test_higher_of_two_tones_two_cents_apart(tmp_path, higher):
    low, high = 69 - 0.01, 69 + 0.01
    midis = (high, low) if higher == "first" else (low, high)
    path = sequence(tmp_path, midis, note_s=1.0, gap_s=0.5)
    options = ("first", "second")
    reply = ask("d2", "choice", path, options=options)
    assert correct("choice", (higher,), reply, options=options)


@pytest.mark.parametrize(
    ("glide", "shape"),
    [
        (((0, 60), (1, 64)), ("up",)),
        (((0, 60), (1, 59)), ("down",)),
        (((0, 55), (0.5, 62), (1, 55)), ("up", "down")),
        (((0, 67), (0.5, 63), (1, 67)), ("down", "up")),
    ],
)
def test_glide_shape(tmp_path, glide, shape):
    path = write_scene(tmp_path, [(0.0, tone(0, 5.0, glide=glide))], 5.0)
    assert correct("contour", shape, ask("d4", "contour", path))


def test_nearest_option_of_a_multiple_choice(tmp_path):
    path = write_scene(tmp_path, [(0.0, tone(52, 2.0))], 2.0)
    options = ("A", "B", "C", "D", "E")
    reply = ask("a1mcq", "choice", path, "midi", options=options, option_midis=(48, 50, 52, 54, 56))
    assert correct("choice", ("C",), reply, options=options)


def test_chord_notes_quality_and_count(tmp_path):
    chord = sum(tone(m, 3.0, harmonics=3) for m in (48, 52, 55))  # C major
    path = write_scene(tmp_path, [(0.0, chord)], 3.0)
    assert correct("pitch_set", (48, 52, 55), ask("c4", "pitch_set", path, "midi"), "midi")
    assert correct("integer", (3,), ask("c1", "integer", path))
    options = ("major", "minor", "diminished", "augmented", "sus4")
    assert correct(
        "choice", ("major",), ask("c3", "choice", path, options=options), options=options
    )


def test_silence_gets_an_honest_reply_without_a_final_answer(tmp_path):
    path = write_scene(tmp_path, [], 2.0)
    reply = ask("a1", "pitch", path, "midi")
    assert reply == pitch.CANNOT_HEAR
    assert "final answer" not in reply.lower()


REFUSAL_CASES = [
    *[(kind, (60, 64), notation, ()) for kind in PITCH_KINDS for notation in NOTATIONS],
    ("integer", (3,), None, ()),
    ("timestamps", (1.0, 2.0), None, ()),
    ("contour", ("up",), None, ()),
    ("ranks", (1, 2), None, ()),
    ("choice", ("A",), "solfege", ("A", "B", "C", "D", "E")),
    ("choice", ("first",), None, ("first", "second")),
    ("choice", ("major",), None, ("major", "minor", "sus2", "sus4")),
]


@pytest.mark.parametrize(("kind", "truth", "notation", "options"), REFUSAL_CASES)
def test_the_refusal_reads_as_no_answer_of_any_kind(kind, truth, notation, options):
    verdict = score_answer(kind, truth, pitch.CANNOT_HEAR, notation=notation, options=options)
    assert verdict.parsed is None and not verdict.correct
    assert verdict.error_class in ("no_final_answer", "unparseable_answer")


def test_unknown_answer_kind_is_refused(tmp_path):
    path = write_scene(tmp_path, [(0.0, tone(60, 1.0))], 1.0)
    assert ask("zz", "essay", path) == pitch.CANNOT_HEAR


def test_answers_do_not_depend_on_the_answer_key():
    """Real pitch requests, answered with and without their answer key: same replies."""
    from fixtures.backends.base import GenerationSettings
    from fixtures.backends.listener import ListenerBackend
    from fixtures.pitch.catalog import pitch_items
    from fixtures.pitch.trial import PitchTrial, build_pitch_request

    backend = ListenerBackend()
    for experiment, notation in (("a1", "hz"), ("d6", "plain"), ("c3", "plain")):
        trial = PitchTrial("listener", notation, pitch_items(experiment, sample=1)[0])
        request = build_pitch_request(trial, GenerationSettings())
        assert request.answer_key is not None
        keyless = dataclasses.replace(request, answer_key=None)
        with_key = asyncio.run(backend.generate(request)).text
        assert with_key == asyncio.run(backend.generate(keyless)).text
        assert "Final Answer:" in with_key
