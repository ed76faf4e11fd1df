"""The listener's hearing primitives on synthesized audio whose pitches and times are known."""

from __future__ import annotations

import json
import math
import tempfile
from pathlib import Path

import numpy as np
import pytest
import soundfile
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from fixtures.backends.listener import hearing, tones
from fixtures.stimuli.cache import cache_dir
from solvers.notation import midi_to_hz

SAMPLE_RATE_HZ = 16_000


@pytest.fixture(autouse=True)
def private_cache(tmp_path_factory, monkeypatch):
    """Every test writes its analyses to a cache of its own, never the shared one."""
    monkeypatch.setenv("EARTEST_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


def tone(freq_hz: float, duration_s: float, harmonics: int = 1) -> np.ndarray:
    t = np.arange(round(duration_s * SAMPLE_RATE_HZ)) / SAMPLE_RATE_HZ
    wave = sum(np.sin(2 * np.pi * k * freq_hz * t) / k for k in range(1, harmonics + 1))
    fade = np.minimum(1.0, np.minimum(t, t[::-1]) / 0.01)
    return 0.5 * wave * fade / harmonics


def scene(parts: list[tuple[float, np.ndarray]], duration_s: float) -> np.ndarray:
    """Signals placed at onsets (seconds) in silence."""
    audio = np.zeros(round(duration_s * SAMPLE_RATE_HZ))
    for onset_s, signal in parts:
        first = round(onset_s * SAMPLE_RATE_HZ)
        audio[first : first + signal.size] += signal
    return audio


def write(directory: Path, name: str, audio: np.ndarray) -> Path:
    path = directory / name
    soundfile.write(path, audio, SAMPLE_RATE_HZ)
    return path


def test_load_mono_downmixes_and_is_read_only(tmp_path):
    left, right = tone(440, 0.5), np.zeros(8000)
    path = tmp_path / "stereo.wav"
    soundfile.write(path, np.stack([left, right], axis=1), SAMPLE_RATE_HZ)
    audio, rate = hearing.load_mono(path)
    assert rate == SAMPLE_RATE_HZ and audio.dtype == np.float32 and audio.ndim == 1
    assert np.allclose(audio, left / 2, atol=1e-4)
    assert not audio.flags.writeable


def test_pitch_track_follows_a_tone_and_is_silent_around_it(tmp_path):
    path = write(tmp_path, "a.wav", scene([(1.0, tone(220.0, 1.0, harmonics=4))], 3.0))
    times_s, f0_hz = hearing.pitch_track(path)
    assert np.allclose(np.diff(times_s), hearing.TRACK_HOP_S)
    inside = (times_s > 1.15) & (times_s < 1.85)
    assert np.all(np.abs(1200 * np.log2(f0_hz[inside] / 220.0)) < 5)
    outside = (times_s < 0.8) | (times_s > 2.2)
    assert np.all(np.isnan(f0_hz[outside]))


def test_pitch_track_calls_noise_unvoiced(tmp_path):
    noise = np.random.default_rng(1).normal(0, 0.2, 2 * SAMPLE_RATE_HZ)
    _, f0_hz = hearing.pitch_track(write(tmp_path, "noise.wav", noise))
    assert np.mean(np.isnan(f0_hz)) > 0.9


def test_analyses_are_cached_on_disk_under_the_audio_hash(tmp_path):
    path = write(tmp_path, "b.wav", scene([(0.5, tone(330.0, 0.8))], 2.0))
    first = hearing.pitch_track(path)
    stored = list((cache_dir() / "stimuli").rglob("listener-*.json"))
    assert len(stored) == 1
    assert len(json.loads(stored[0].read_text())) == first[0].size
    copy = write(tmp_path, "copy.wav", soundfile.read(path)[0])  # same audio, new path
    again = hearing.pitch_track(copy)
    assert np.array_equal(first[1], again[1], equal_nan=True)
    assert len(list((cache_dir() / "stimuli").rglob("listener-*.json"))) == 1


def test_sounding_spans_find_each_tone(tmp_path):
    parts = [(0.5, tone(300, 0.7)), (2.0, tone(500, 1.2)), (4.0, tone(200, 0.3))]
    path = write(tmp_path, "c.wav", scene(parts, 5.0))
    spans = tones.sounding_spans(path)
    assert len(spans) == 3
    for (start, end), (onset, signal) in zip(spans, parts, strict=True):
        assert abs(start - onset) < 0.03
        assert abs(end - (onset + signal.size / SAMPLE_RATE_HZ)) < 0.03


def test_steady_and_refined_pitch(tmp_path):
    freq_hz = 440.0 * 2 ** (3 / 1200)  # A4 three cents sharp
    path = write(tmp_path, "d.wav", scene([(0.2, tone(freq_hz, 1.0, harmonics=5))], 1.5))
    rough = tones.steady_midi(path, 0.2, 1.2)
    assert rough is not None and abs(rough - 69.03) < 0.1
    assert abs(tones.refined_midi(path, 0.2, 1.2, rough) - 69.03) < 0.01
    assert tones.steady_midi(path, 1.3, 1.5) is None  # silence holds no pitch


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(midi=st.floats(min_value=29, max_value=89), harmonics=st.integers(1, 6),
       sample_rate_hz=st.sampled_from([16_000, 22_050, 44_100]))
def test_steady_pitch_is_within_fifteen_cents_at_any_rate(midi, harmonics, sample_rate_hz):
    """YIN's frame is 93 ms at every rate: below A1 its period estimate runs up to 13 cents
    sharp (as it did at the benchmark's 22.05 kHz before listener-9; at 16 kHz the frame was
    then 128 ms and closer). Semitones need 50 cents; cents come from ``refined_midi``."""
    # The test tone's partials are not band-limited: keep them below 0.8 x Nyquist, as every
    # source of the benchmark does (6 partials of MIDI 89 alias to an octave-wrong tone).
    assume(harmonics * midi_to_hz(midi) < 0.4 * SAMPLE_RATE_HZ)
    import soundfile

    with tempfile.TemporaryDirectory() as directory:
        t = np.arange(round(1.3 * sample_rate_hz)) / sample_rate_hz
        wave = sum(np.sin(2 * np.pi * k * midi_to_hz(midi) * t) / k
                   for k in range(1, harmonics + 1))
        inside = (t >= 0.1) & (t < 1.1)
        path = Path(directory) / "e.wav"
        soundfile.write(path, np.where(inside, 0.5 * wave / harmonics, 0.0), sample_rate_hz)
        heard = tones.steady_midi(path, 0.1, 1.1)
    assert heard is not None and abs(heard - midi) < 0.15


def test_onset_times_include_each_attack(tmp_path):
    onsets = [0.3, 0.9, 1.5, 2.1]
    parts = [
        (o, tone(midi_to_hz(m), 0.5, harmonics=3))
        for o, m in zip(onsets, (60, 64, 67, 72), strict=True)
    ]
    path = write(tmp_path, "f.wav", scene(parts, 3.0))
    found = tones.onset_times(path)
    for onset in onsets:
        assert min(abs(t - onset) for t in found) < 0.04


def test_basic_pitch_transcribes_two_notes(tmp_path):
    parts = [
        (0.2, tone(midi_to_hz(60), 0.8, harmonics=3)),
        (1.2, tone(midi_to_hz(67), 0.8, harmonics=3)),
    ]
    path = write(tmp_path, "g.wav", scene(parts, 2.2))
    notes = hearing.transcribe_notes(path)
    strong = [n for n in notes if n.amplitude >= 0.4]
    assert [n.midi_note for n in strong] == [60, 67]
    assert all(isinstance(n, hearing.NoteEvent) for n in notes)
    assert math.isclose(strong[0].onset_s, 0.2, abs_tol=0.06)
    assert math.isclose(strong[1].onset_s, 1.2, abs_tol=0.06)
    assert hearing.transcribe_notes(path) is notes  # memoised in the process


def test_silence_transcribes_to_nothing(tmp_path):
    path = write(tmp_path, "h.wav", np.zeros(SAMPLE_RATE_HZ))
    assert hearing.transcribe_notes(path) == ()
    assert tones.sounding_spans(path) == ()


@pytest.mark.parametrize(("repeated", "expected"), [(58, 57), (59, 57), (57, 57), (61, 61)])
def test_a_repeat_is_a_step_where_the_f0_holds_a_tone_or_semitone_away(
        tmp_path, repeated, expected):
    """Why: Basic Pitch sometimes keeps the old pitch through a step on one string."""
    from fixtures.backends.listener import ears

    audio = scene([(0.0, tone(midi_to_hz(58), 0.4, 4)), (0.4, tone(midi_to_hz(57), 0.6, 4))],
                  1.2)
    path = write(tmp_path, "step.wav", audio)
    assert ears._stepped_pitch(path, 0.4, 1.0, repeated) == expected
