"""Pitch scenes sound at their labels: every source, off-grid pitch, glides, vibrato, stretch,
effects, backgrounds, levels, timing, caching and byte-determinism.

Pitches are checked by ``pitch_analysis`` (independent of the synthesis code) against the
spec's numbers, converted with librosa rather than the renderer's own conversion.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import librosa
import numpy as np
import pytest
import soundfile
from hypothesis import given, settings
from hypothesis import strategies as st

from fixtures.pitch.backgrounds import TEXTURES, mix_background
from fixtures.pitch.effects import apply_effect, rms
from fixtures.pitch.gm_sources import GM_RELEASE_S, bend_value
from fixtures.pitch.render import (
    dry_mix,
    render_scene,
    scene_length_samples,
    scene_wav_path,
    wav_bytes,
)
from fixtures.pitch.renderer_identity import pitch_renderer_identity
from fixtures.pitch.spec import (
    REFERENCE_PEAK,
    SAMPLE_RATE_HZ,
    SOURCES,
    Background,
    Effect,
    Scene,
    Stretch,
    Tone,
)
from fixtures.stimuli import StimulusError
from tests_solvers.pitch_analysis import contains_pitches, estimate_f0_hz, sounding_intervals

SR = SAMPLE_RATE_HZ
TOLERANCE_CENTS = 35.0
REPO_ROOT = Path(__file__).resolve().parents[1]


def cents_from(freq_hz: float | None, midi: float) -> float:
    assert freq_hz is not None, "no pitch found"
    return float(1200 * np.log2(freq_hz / librosa.midi_to_hz(midi)))


def tone_scene(source: str, midi: float, duration_s: float = 1.0, **fields: object) -> Scene:
    return Scene((Tone(source, 0.2, duration_s, midi),), duration_s + 0.4, **fields)


def assert_pitch(audio: np.ndarray, start_s: float, end_s: float, midi: float) -> None:
    off = cents_from(estimate_f0_hz(audio, SR, start_s, end_s), midi)
    assert abs(off) <= TOLERANCE_CENTS, f"{off:+.0f} cents from MIDI {midi}"


@pytest.mark.parametrize("midi", [29, 45, 60, 75, 89])
@pytest.mark.parametrize("source", SOURCES)
def test_every_source_sounds_at_its_label(source: str, midi: int) -> None:
    audio = render_scene(tone_scene(source, midi))
    assert audio.dtype == np.float32 and audio.size == round(1.4 * SR)
    assert_pitch(audio, 0.2, 1.2, midi)


@pytest.mark.parametrize("source", ["sawtooth", "piano", "violin", "flute"])
@pytest.mark.parametrize("midi", [60.45, 71.6])
def test_fractional_pitch_sounds_off_grid(source: str, midi: float) -> None:
    # 60.45 and 71.6 are 45 and 40 cents from the nearest key: a dropped fraction fails.
    assert_pitch(render_scene(tone_scene(source, midi)), 0.2, 1.2, midi)


def test_bend_value_is_signed_around_the_centre() -> None:
    assert bend_value(0.0) == 8192
    assert bend_value(100.0, range_semitones=2) == 8192 + 4096
    assert bend_value(-100.0, range_semitones=2) == 8192 - 4096
    assert bend_value(-200.0, range_semitones=2) == 0
    with pytest.raises(StimulusError, match="exceeds"):
        bend_value(200.0, range_semitones=2)  # 16384 does not fit in 14 bits


@given(st.floats(-2399.0, 2399.0))
def test_bend_value_inverts_to_the_requested_cents(cents: float) -> None:
    value = bend_value(cents)
    assert 0 <= value <= 16383
    assert abs((value - 8192) / 8192 * 2400 - cents) <= 2400 / 8192 / 2 + 1e-9


@pytest.mark.parametrize("source", ["sawtooth", "flute", "cello"])
@pytest.mark.parametrize("path", [((0.0, 55.0), (1.0, 67.0)), ((0.0, 67.0), (1.0, 55.0))])
def test_glide_starts_and_ends_at_its_breakpoints(source: str, path: tuple) -> None:
    scene = Scene((Tone(source, 0.2, 4.0, path[0][1], pitch_path=path),), 4.4)
    audio = render_scene(scene)
    (_, first), (_, last) = path
    # Mean pitch over 0.4 s windows centred 0.5 s after the start and before the end.
    early, late = first + (last - first) * 0.125, last - (last - first) * 0.125
    assert_pitch(audio, 0.5, 0.9, early)
    assert_pitch(audio, 3.5, 3.9, late)


@pytest.mark.parametrize("source", ["sine", "sawtooth", "clarinet", "voice"])
@pytest.mark.parametrize(("rate_hz", "depth_cents"), [(5.0, 50.0), (10.0, 200.0), (3.0, 100.0)])
def test_vibrato_is_centred_on_the_note(source: str, rate_hz: float, depth_cents: float) -> None:
    tone = Tone(source, 0.2, 3.0, 64, vibrato_rate_hz=rate_hz, vibrato_depth_cents=depth_cents)
    audio = render_scene(Scene((tone,), 3.4))
    assert_pitch(audio, 0.2, 3.2, 64)
    track = librosa.yin(audio[SR : 3 * SR], fmin=200, fmax=500, sr=SR, frame_length=512)
    swing_cents = np.subtract(*np.percentile(1200 * np.log2(track / 329.63), [95, 5])) / 2
    assert swing_cents == pytest.approx(depth_cents, rel=0.35)


@pytest.mark.parametrize("source", ["sawtooth", "piano", "trumpet"])
@pytest.mark.parametrize(
    ("method", "factor", "shift"),
    [
        ("resample", 0.5, 12),
        ("resample", 2.0, -12),
        ("phase_vocoder", 0.5, 0),
        ("phase_vocoder", 2.0, 0),
    ],
)
def test_stretch(source: str, method: str, factor: float, shift: int) -> None:
    scene = Scene((Tone(source, 0.0, 3.0, 60),), 3.0, stretch=Stretch(method, factor))
    audio = render_scene(scene)
    assert audio.size == scene_length_samples(scene) == round(3.0 * factor * SR)
    assert_pitch(audio, 0.1 * factor, 2.5 * factor, 60 + shift)


EFFECTS = [
    Effect("highpass", (("cutoff_hz", 1.5 * 261.63), ("order", 6))),
    Effect("lowpass", (("cutoff_hz", 1.2 * 261.63), ("order", 6))),
    Effect("bitcrush", (("bits", 4),)),
    Effect("drive", (("drive_db", 30),)),
    Effect("saturation", (("drive_db", 15),)),
    Effect(
        "reverb", (("room_size", 0.9), ("damping", 0.4), ("wet_level", 0.6), ("dry_level", 0.4))
    ),
    Effect("chorus", (("rate_hz", 1.2), ("depth", 0.9), ("mix", 0.6))),
]


@pytest.mark.parametrize("effect", EFFECTS, ids=lambda effect: effect.kind)
@pytest.mark.parametrize("source", ["sawtooth", "piano", "oboe"])
def test_effect_keeps_rms_and_pitch(source: str, effect: Effect) -> None:
    scene = tone_scene(source, 60, duration_s=2.0, effects=(effect,))
    dry = dry_mix(scene.tones, round(scene.duration_s * SR))
    wet = apply_effect(dry, effect)
    assert wet.size == dry.size
    assert 20 * np.log10(rms(wet) / rms(dry)) == pytest.approx(0.0, abs=0.5)
    assert_pitch(render_scene(scene), 0.2, 2.2, 60)


def test_effect_errors_are_clear() -> None:
    dry = np.ones(100)
    with pytest.raises(StimulusError, match="unknown effect 'flanger'"):
        apply_effect(dry, Effect("flanger"))
    with pytest.raises(StimulusError, match="needs parameter 'bits'"):
        apply_effect(dry, Effect("bitcrush"))


@pytest.mark.parametrize("kind", sorted(TEXTURES))
@pytest.mark.parametrize("snr_db", [10.0, 0.0, -6.0, -12.0])
def test_background_hits_its_snr(kind: str, snr_db: float) -> None:
    signal = dry_mix((Tone("flute", 0.5, 3.0, 69),), 4 * SR)
    mixed = mix_background(signal, Background(kind, snr_db, seed=7))
    measured_db = 20 * np.log10(rms(signal) / rms(mixed - signal))
    assert measured_db == pytest.approx(snr_db, abs=0.5)


@pytest.mark.parametrize("kind", sorted(TEXTURES))
def test_background_is_seeded(kind: str) -> None:
    signal = dry_mix((Tone("sine", 0.0, 2.0, 69),), 2 * SR)
    first = mix_background(signal, Background(kind, 0.0, seed=1))
    assert np.array_equal(first, mix_background(signal, Background(kind, 0.0, seed=1)))
    assert not np.array_equal(first, mix_background(signal, Background(kind, 0.0, seed=2)))


def test_pitch_survives_a_mild_background() -> None:
    scene = tone_scene("clarinet", 57, duration_s=2.0, background=Background("crowd", 10.0, 3))
    assert_pitch(render_scene(scene), 0.2, 2.2, 57)


def test_recording_background_is_resampled_looped_and_keyed_by_content(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("EARTEST_CACHE_DIR", str(tmp_path / "cache"))
    rng = np.random.default_rng(0)
    soundfile.write(tmp_path / "hall.wav", rng.standard_normal((22050, 2)) * 0.1, 44100)
    scene = tone_scene(
        "sine", 60, duration_s=2.0, background=Background("bells", 0.0, 5, "hall.wav")
    )
    audio = render_scene(scene, backgrounds_dir=tmp_path)
    assert audio.size == round(2.4 * SR) and np.all(np.abs(audio) <= 1.0)
    first_path = scene_wav_path(scene, backgrounds_dir=tmp_path)
    soundfile.write(tmp_path / "hall.wav", rng.standard_normal((22050, 2)) * 0.1, 44100)
    assert scene_wav_path(scene, backgrounds_dir=tmp_path) != first_path


def test_missing_recording_is_one_clear_error(tmp_path: Path) -> None:
    scene = tone_scene("sine", 60, background=Background("street", 0.0, 1, "nowhere/rain.wav"))
    with pytest.raises(StimulusError, match="background recording not found: .*nowhere/rain.wav"):
        render_scene(scene, backgrounds_dir=tmp_path)
    with pytest.raises(StimulusError, match="needs a backgrounds directory"):
        render_scene(scene)
    (tmp_path / "broken.wav").write_bytes(b"not audio")
    broken = tone_scene("sine", 60, background=Background("street", 0.0, 1, "broken.wav"))
    with pytest.raises(StimulusError, match="cannot read background recording"):
        render_scene(broken, backgrounds_dir=tmp_path)


@settings(max_examples=12, deadline=None)
@given(st.floats(-30.0, 6.0), st.sampled_from(["square", "trumpet"]))
def test_level_lands_at_its_peak_and_never_clips(level_db: float, source: str) -> None:
    audio = render_scene(tone_scene(source, 88, level_db=level_db))
    target = REFERENCE_PEAK * 10 ** (level_db / 20)
    assert float(np.max(np.abs(audio))) == pytest.approx(target, rel=1e-5)
    pcm, _ = soundfile.read(__import__("io").BytesIO(wav_bytes(audio)), dtype="int16")
    assert abs(int(np.max(np.abs(pcm))) - target * 32767) <= 1


def test_level_above_the_maximum_is_refused() -> None:
    with pytest.raises(StimulusError, match="exceeds the maximum"):
        render_scene(tone_scene("sine", 60, level_db=7.0))


def test_silent_scene_stays_silent() -> None:
    audio = render_scene(Scene((), 2.0))
    assert audio.size == 2 * SR and not np.any(audio)
    assert sounding_intervals(audio, SR) == []


@pytest.mark.parametrize("source", ["sine", "piano", "organ"])
def test_short_tone_in_a_long_silence_sounds_where_it_should(source: str) -> None:
    audio = render_scene(Scene((Tone(source, 27.0, 1.0, 60),), 60.0))
    assert audio.size == 60 * SR
    (interval,) = sounding_intervals(audio, SR)
    assert interval[0] == pytest.approx(27.0, abs=0.05)
    assert 27.9 <= interval[1] <= 28.0 + GM_RELEASE_S + 0.05


def test_tones_of_a_scene_are_all_present_and_in_time() -> None:
    tones = (
        Tone("piano", 0.5, 0.5, 60),
        Tone("violin", 1.5, 0.5, 67),
        Tone("triangle", 2.5, 0.5, 64),
        Tone("piano", 3.5, 1.0, 48),
        Tone("violin", 3.5, 1.0, 55),
    )
    audio = render_scene(Scene(tones, 5.0))
    starts = [start for start, _ in sounding_intervals(audio, SR, min_gap_s=0.2)]
    assert starts == pytest.approx([0.5, 1.5, 2.5, 3.5], abs=0.05)
    assert contains_pitches(audio, SR, [48, 55, 61], 3.5, 4.5) == {48: True, 55: True, 61: False}


def test_chord_of_one_instrument_contains_its_notes() -> None:
    chord = tuple(Tone("electric_piano", 0.1, 1.5, midi) for midi in (60, 64, 67, 70))
    audio = render_scene(Scene(chord, 2.0))
    assert contains_pitches(audio, SR, [60, 64, 67, 70, 62, 66], 0.1, 1.6) == {
        60: True,
        64: True,
        67: True,
        70: True,
        62: False,
        66: False,
    }


def test_gain_db_sets_relative_level() -> None:
    loud = dry_mix((Tone("cello", 0.0, 1.0, 48),), SR)
    quiet = dry_mix((Tone("cello", 0.0, 1.0, 48, gain_db=-12.0),), SR)
    assert 20 * np.log10(rms(quiet) / rms(loud)) == pytest.approx(-12.0, abs=0.01)


def test_unknown_source_is_refused() -> None:
    with pytest.raises(StimulusError, match="unknown sound source 'kazoo'"):
        render_scene(tone_scene("kazoo", 60))


DETERMINISM_SCENES = [
    Scene(
        (
            Tone("piano", 0.1, 0.8, 60.3),
            Tone("voice", 0.5, 1.0, 67, vibrato_rate_hz=5, vibrato_depth_cents=50),
        ),
        2.0,
    ),
    Scene(
        (Tone("square", 0.0, 1.5, 50, pitch_path=((0, 50), (0.5, 55), (1, 48))),),
        1.5,
        effects=(EFFECTS[5], EFFECTS[6]),
        background=Background("rain", 0.0, 9),
    ),
    Scene(
        (Tone("guitar", 0.0, 1.0, 45),), 1.0, stretch=Stretch("phase_vocoder", 2.0), level_db=-12.0
    ),
]
_HASH_SCRIPT = """
import hashlib, json, sys
from fixtures.pitch.render import render_scene, wav_bytes
from fixtures.pitch.spec import Background, Effect, Scene, Stretch, Tone
out = []
for raw in json.loads(sys.stdin.read()):
    tones = tuple(
        Tone(**{**t, "pitch_path": tuple(map(tuple, t["pitch_path"]))}) for t in raw["tones"]
    )
    effects = tuple(Effect(e["kind"], tuple(map(tuple, e["params"]))) for e in raw["effects"])
    stretch = Stretch(**raw["stretch"]) if raw["stretch"] else None
    background = Background(**raw["background"]) if raw["background"] else None
    scene = Scene(tones, raw["duration_s"], stretch, effects, background, raw["level_db"])
    out.append(hashlib.sha256(wav_bytes(render_scene(scene))).hexdigest())
print(json.dumps(out))
"""


def test_same_scene_same_bytes_within_and_across_processes() -> None:
    here = [
        hashlib.sha256(wav_bytes(render_scene(scene))).hexdigest() for scene in DETERMINISM_SCENES
    ]
    again = [
        hashlib.sha256(wav_bytes(render_scene(scene))).hexdigest() for scene in DETERMINISM_SCENES
    ]
    assert here == again
    result = subprocess.run(
        [sys.executable, "-c", _HASH_SCRIPT],
        input=json.dumps([scene.canonical() for scene in DETERMINISM_SCENES]),
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        env={**os.environ, "PYTHONPATH": str(REPO_ROOT)},
        check=True,
    )
    assert json.loads(result.stdout) == here


def test_same_bytes_in_any_order_after_any_other_scenes() -> None:
    """A process that rendered other sources first (so the shared SoundFont keeps other
    programs loaded) and takes the scenes in reverse order renders the same bytes."""
    here = [
        hashlib.sha256(wav_bytes(render_scene(scene))).hexdigest() for scene in DETERMINISM_SCENES
    ]
    others = [tone_scene(source, 52) for source in ("cello", "organ", "trumpet", "sine")]
    result = subprocess.run(
        [sys.executable, "-c", _HASH_SCRIPT],
        input=json.dumps([scene.canonical() for scene in others + DETERMINISM_SCENES[::-1]]),
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        env={**os.environ, "PYTHONPATH": str(REPO_ROOT)},
        check=True,
    )
    assert json.loads(result.stdout)[len(others) :] == here[::-1]
    assert "fluidsynth: warning" not in result.stderr  # lending the SoundFont is silent


def test_borrowed_soundfont_renders_like_a_freshly_loaded_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The process's shared SoundFont, after many borrowers, gives the same bytes as a
    SoundFont parsed anew for each synthesiser (what every synthesiser used to do)."""
    import fixtures.stimuli.synth as synth

    scenes = [*DETERMINISM_SCENES, tone_scene("synth_pad", 40), tone_scene("bass", 33)]
    for scene in scenes:  # warm the shared SoundFont with every program used here
        render_scene(scene)
    shared = [wav_bytes(render_scene(scene)) for scene in scenes]
    monkeypatch.setattr(synth, "shared_soundfont", synth.SharedSoundFont)
    fresh = [wav_bytes(render_scene(scene)) for scene in scenes]
    assert [len(audio) for audio in fresh] == [len(audio) for audio in shared]
    assert fresh == shared


def test_wav_path_is_cached_and_matches_the_render(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("EARTEST_CACHE_DIR", str(tmp_path))
    scene = tone_scene("oboe", 70)
    path = scene_wav_path(scene)
    assert path.is_relative_to(tmp_path) and scene_wav_path(scene) == path
    pcm, sample_rate_hz = soundfile.read(path, dtype="int16")
    assert sample_rate_hz == SR
    expected = np.round(render_scene(scene).astype(np.float64) * 32767).astype(np.int16)
    assert np.array_equal(pcm, expected)
    other = scene_wav_path(tone_scene("oboe", 71))
    assert other != path


def test_renderer_identity_names_what_decides_the_bytes() -> None:
    identity = pitch_renderer_identity()
    assert identity["sample_rate_hz"] == SR
    assert identity["fluidsynth_version"] and identity["soundfont_size_bytes"] > 0
    assert len(identity["code_sha256"]) == 16 and "pedalboard" in identity["libraries"]
