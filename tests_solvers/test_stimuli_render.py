"""Rendering and caching: determinism, cache mechanics, MIDI round trip, clear errors.

Cache-mechanics tests render into a fresh temporary ``EARTEST_CACHE_DIR`` (module fixture), so
they can count producer calls and corrupt files without touching the shared cache.
"""

from __future__ import annotations

import hashlib
import io
import os
import subprocess
import sys
import time
import warnings
from pathlib import Path

import mido
import numpy as np
import pretty_midi
import pytest
import soundfile

import fixtures.stimuli.synth as synth
from fixtures.stimuli import (
    StimulusError,
    midi_path,
    midi_text,
    renderer_identity,
    stimulus_set_hash,
    wav_path,
)
from fixtures.stimuli.cache import cache_dir, cached_file, sha256_file
from fixtures.stimuli.midi import midi_bytes
from fixtures.tasks.catalog import TASK_NAMES, items_for
from fixtures.tasks.spec import GM_GUITAR, Clip, Note

REPO_ROOT = Path(__file__).resolve().parents[1]
ALL_ITEMS = [item for task in TASK_NAMES for item in items_for(task)]
ALL_CLIPS = [
    (f"{item.item_id}/{k}", clip) for item in ALL_ITEMS for k, clip in enumerate(item.clips)
]
ONE_CLIP_PER_TASK = [items_for(task)[0].clips[0] for task in TASK_NAMES]
MELODY = Clip(
    notes=tuple(Note(i * 0.5, 0.45, 60 + 2 * i, 80 + i) for i in range(4)), tempo_bpm=132.0
)


@pytest.fixture(scope="module", autouse=True)
def private_cache(tmp_path_factory: pytest.TempPathFactory):
    """Every test here renders into its own cache folder; the environment is restored after."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("EARTEST_CACHE_DIR", str(tmp_path_factory.mktemp("stimulus-cache")))
        yield


def _subprocess_env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO_ROOT)}


# --- determinism -------------------------------------------------------------------------------


@pytest.mark.parametrize("clip", ONE_CLIP_PER_TASK, ids=TASK_NAMES)
def test_render_is_byte_identical_across_calls_and_processes(clip: Clip) -> None:
    first, second = synth.render_wav(clip), synth.render_wav(clip)
    assert first == second
    script = (
        "import hashlib, sys; from fixtures.tasks.catalog import items_for; "
        "from fixtures.stimuli.synth import render_wav; "
        f"print(hashlib.sha256(render_wav(items_for({TASK_NAMES[ONE_CLIP_PER_TASK.index(clip)]!r})"
        "[0].clips[0])).hexdigest())"
    )
    other = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=_subprocess_env()
    )
    assert other.returncode == 0, other.stderr
    assert other.stdout.strip() == hashlib.sha256(first).hexdigest()


@pytest.mark.parametrize(
    "changed",
    [
        Clip(notes=MELODY.notes[:-1] + (Note(1.5, 0.45, 67, 83),), tempo_bpm=132.0),  # pitch
        Clip(notes=MELODY.notes[:-1] + (Note(1.5, 0.45, 66, 90),), tempo_bpm=132.0),  # velocity
        Clip(notes=MELODY.notes, tempo_bpm=120.0),
        Clip(notes=MELODY.notes, tempo_bpm=132.0, program=GM_GUITAR),
    ],
    ids=["pitch", "velocity", "tempo", "program"],
)
def test_different_clips_give_different_bytes_and_paths(changed: Clip) -> None:
    assert synth.render_wav(changed) != synth.render_wav(MELODY)
    assert midi_bytes(changed) != midi_bytes(MELODY)
    assert wav_path(changed) != wav_path(MELODY)


def test_wav_is_mono_16_bit_peak_normalised_and_as_long_as_music_plus_tail() -> None:
    info = soundfile.info(io.BytesIO(synth.render_wav(MELODY)))
    audio, rate_hz = soundfile.read(io.BytesIO(synth.render_wav(MELODY)), dtype="int16")
    assert (info.channels, info.subtype, rate_hz) == (1, "PCM_16", 22050)
    assert int(np.abs(audio).max()) == round(0.9 * 32767)
    expected_frames = (MELODY.music_duration_s + MELODY.tail_s) * rate_hz
    assert abs(len(audio) - expected_frames) <= 2


def test_silence_renders_without_dividing_by_zero() -> None:
    silent = Clip(notes=(), tempo_bpm=120.0, tail_s=0.5)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        audio, rate_hz = soundfile.read(io.BytesIO(synth.render_wav(silent)), dtype="int16")
    assert len(audio) == round(0.5 * rate_hz) and not audio.any()


# --- cache -------------------------------------------------------------------------------------


def test_cache_hit_returns_same_path_without_rerendering(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    real_render = synth.render_wav
    monkeypatch.setattr(
        synth, "render_wav", lambda clip, **kw: calls.append(1) or real_render(clip, **kw)
    )
    clip = Clip(notes=(Note(0.0, 1.0, 64),), tempo_bpm=100.0)
    first = wav_path(clip)
    assert wav_path(clip) == first and len(calls) == 1
    assert first.is_relative_to(cache_dir() / "stimuli")
    assert first.read_bytes() == real_render(clip)


def test_midi_path_holds_midi_bytes() -> None:
    assert midi_path(MELODY).read_bytes() == midi_bytes(MELODY)
    assert midi_path(MELODY) == midi_path(MELODY)


_CONCURRENT_SCRIPT = """
import sys, time
from pathlib import Path
from fixtures.stimuli.cache import cached_file
log, start_at = Path(sys.argv[1]), float(sys.argv[2])
def produce():
    with open(log, "a") as stream:
        stream.write("rendered\\n")
    time.sleep(0.4)
    return b"payload"
time.sleep(max(0.0, start_at - time.time()))
print(cached_file("ab" + "c" * 62, ".bin", produce))
"""


def test_concurrent_processes_render_once(tmp_path: Path) -> None:
    log = tmp_path / "renders.log"
    start_at = time.time() + 1.5  # let every interpreter start before the race
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", _CONCURRENT_SCRIPT, str(log), str(start_at)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=_subprocess_env(),
        )
        for _ in range(4)
    ]
    outputs = [worker.communicate(timeout=60) for worker in workers]
    assert all(worker.returncode == 0 for worker in workers), [err for _, err in outputs]
    paths = {out.strip() for out, _ in outputs}
    assert len(paths) == 1 and Path(paths.pop()).read_bytes() == b"payload"
    assert log.read_text().count("rendered") == 1


@pytest.mark.parametrize(
    "corrupt",
    [lambda data: b"", lambda data: data[: len(data) // 2], lambda data: b"\0" * len(data)],
    ids=["empty", "truncated", "garbage"],
)
@pytest.mark.parametrize("suffix", [".wav", ".mid"])
def test_corrupt_cache_file_is_rerendered(corrupt, suffix: str, tmp_path: Path) -> None:
    good = synth.render_wav(MELODY) if suffix == ".wav" else midi_bytes(MELODY)
    calls = []
    key = hashlib.sha256(f"{suffix}{tmp_path}".encode()).hexdigest()
    path = cached_file(key, suffix, lambda: calls.append(1) or good)
    path.write_bytes(corrupt(good))
    os.utime(path, ns=(1, 1))  # a different mtime, as any rewrite of the file would give
    assert cached_file(key, suffix, lambda: calls.append(1) or good) == path
    assert len(calls) == 2 and path.read_bytes() == good


def test_unusable_product_raises_and_leaves_no_file() -> None:
    key = "f0" * 32
    with pytest.raises(StimulusError):
        cached_file(key, ".wav", lambda: b"not a wav")
    assert not list((cache_dir() / "stimuli" / "f0").glob(f"{key}*.wav"))


def test_sha256_file_follows_content_changes(tmp_path: Path) -> None:
    path = tmp_path / "x.bin"
    path.write_bytes(b"one")
    assert sha256_file(path) == hashlib.sha256(b"one").hexdigest()
    path.write_bytes(b"two!")
    assert sha256_file(path) == hashlib.sha256(b"two!").hexdigest()


# --- identity and errors -----------------------------------------------------------------------


def test_renderer_identity_keys_the_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    identity = renderer_identity()
    assert identity["fluidsynth_version"].count(".") == 2
    assert renderer_identity(44100) != identity
    assert wav_path(MELODY, sample_rate_hz=16000) != wav_path(MELODY)
    other_font = tmp_path / "Other.sf2"
    other_font.symlink_to(synth.soundfont_path())
    before = stimulus_set_hash([MELODY])
    monkeypatch.setenv("EARTEST_SOUNDFONT", str(other_font))
    assert renderer_identity()["soundfont_name"] == "Other.sf2"
    assert stimulus_set_hash([MELODY]) != before


def test_stimulus_set_hash_names_a_set() -> None:
    a, b = ONE_CLIP_PER_TASK[:2]
    assert stimulus_set_hash([a, b]) == stimulus_set_hash([b, a, a])
    assert stimulus_set_hash([a]) != stimulus_set_hash([a, b])


def test_missing_soundfont_is_one_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EARTEST_SOUNDFONT", "/nonexistent/None.sf2")
    for action in (lambda: wav_path(MELODY), lambda: synth.render_wav(MELODY)):
        with pytest.raises(StimulusError, match="make setup") as error:
            action()
        assert "\n" not in str(error.value) and error.value.__cause__ is None


def test_missing_libfluidsynth_is_one_clear_error() -> None:
    script = (
        "import sys; sys.modules['fluidsynth'] = None\n"
        "from fixtures.stimuli import StimulusError\n"
        "from fixtures.stimuli.synth import render_wav\n"
        "from fixtures.tasks.spec import Clip\n"
        "try:\n    render_wav(Clip(notes=(), tempo_bpm=120.0))\n"
        "except StimulusError as error:\n    print(error)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=_subprocess_env()
    )
    assert result.returncode == 0 and "make setup" in result.stdout, result.stderr


def test_package_import_is_cheap() -> None:
    script = (
        "import sys, fixtures.stimuli; "
        "print([m for m in ('fluidsynth', 'librosa', 'mido', 'soundfile', 'scipy') "
        "if m in sys.modules])"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=_subprocess_env()
    )
    assert result.stdout.strip() == "[]", result.stdout + result.stderr


# --- MIDI --------------------------------------------------------------------------------------


@pytest.mark.parametrize("clip", [clip for _, clip in ALL_CLIPS], ids=[n for n, _ in ALL_CLIPS])
def test_midi_round_trip_through_pretty_midi(clip: Clip) -> None:
    data = midi_bytes(clip)
    assert data == midi_bytes(clip)
    score = pretty_midi.PrettyMIDI(io.BytesIO(data))
    (instrument,) = score.instruments
    assert instrument.is_drum == clip.is_drums
    assert clip.is_drums or instrument.program == clip.program
    assert np.allclose(score.get_tempo_changes()[1], [clip.tempo_bpm])
    meter = score.time_signature_changes[0]
    assert (meter.numerator, meter.denominator) == clip.meter
    spb = clip.seconds_per_beat
    want = sorted(
        (n.start_beats * spb, (n.start_beats + n.duration_beats) * spb, n.midi_note, n.velocity)
        for n in clip.notes
    )
    got = sorted((n.start, n.end, n.pitch, n.velocity) for n in instrument.notes)
    assert [(p, v) for _, _, p, v in got] == [(p, v) for _, _, p, v in want]
    timing_error_s = np.abs(np.array([g[:2] for g in got]) - np.array([w[:2] for w in want]))
    assert timing_error_s.max() < 0.001, f"worst timing error {timing_error_s.max() * 1000:.2f} ms"


@pytest.mark.parametrize("item", ALL_ITEMS, ids=[item.item_id for item in ALL_ITEMS])
def test_midi_is_label_free_and_its_text_times_match_the_spec(item) -> None:
    for clip in item.clips:
        midi = mido.MidiFile(file=io.BytesIO(midi_bytes(clip)))
        metas = {m.type for track in midi.tracks for m in track if m.is_meta}
        assert metas <= {"set_tempo", "time_signature", "end_of_track"}
        text = midi_text(clip)
        for word in (item.item_id, item.label, "track_name", "marker", "text"):
            assert word not in text
        onsets_s = sorted(
            float(line.split("s", 1)[0]) for line in text.splitlines() if " note_on " in line
        )
        spec_s = sorted(n.start_beats * clip.seconds_per_beat for n in clip.notes)
        assert np.allclose(onsets_s, spec_s, atol=0.0015)
