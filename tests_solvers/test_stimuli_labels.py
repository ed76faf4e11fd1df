"""Every label is checked again by listening: independent analysis of the rendered audio.

A wrong label is the worst bug a benchmark can have (the benchmark this one replaces shipped
instrument notes about two semitones sharp). So for every item of every task the served WAV
(``wav_path``, i.e. the default or ``$EARTEST_CACHE_DIR`` cache the benchmark itself uses) is
analysed with librosa/scipy, without looking at the label, and the result is compared with it:

- pitch: YIN gives a coarse f0 per note window (from the spec's timing); the fundamental's
  spectral peak within ±60 cents of it, parabolically interpolated, gives the precise f0
  (YIN alone reads FluidR3's piano 10-35 cents sharp, likely from its inharmonic partials);
- onsets: librosa onset detection on the whole clip must find every spec note start (±50 ms)
  and nothing else;
- drums: kick and snare are found below 300 Hz, where the closed hi-hat has ~40 dB less
  energy, by onset detection on a linear-magnitude mel spectrogram, then snapped to the grid.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.signal
import soundfile
from librosa import hz_to_midi, yin
from librosa.feature import melspectrogram
from librosa.onset import onset_detect, onset_strength

from fixtures.stimuli import wav_path
from fixtures.tasks import chord, syncopation
from fixtures.tasks.catalog import items_for
from fixtures.tasks.spec import Clip, Item, Note
from solvers.logic import chord_answer

PITCH_TOLERANCE_CENTS = 35.0
ONSET_TOLERANCE_S = 0.050
LEAD_IN_S = 0.25  # silence prepended so an onset at 0 s has a rise to detect
ONSET_HOP = 256
ATTACK_SKIP_S = 0.03  # the hammer/pluck transient has no stable pitch
MAX_WINDOW_S = 0.5
DRUM_BAND_HZ = 300.0
HIHAT_BAND_HZ = 5000.0
# Music theory, written out here rather than imported, so the check does not share the
# generator's table: successive semitone steps of a root-position chord played low to high
# (a triad with its root doubled an octave up, so every arpeggio has four notes).
QUALITY_BY_STEPS = {
    (4, 3, 5): "major", (3, 4, 5): "minor", (3, 3, 6): "diminished", (4, 3, 3): "dominant",
}


def steps(pitches: list[int]) -> list[int]:
    return [int(step) for step in np.diff(pitches)]


def _ids(items: tuple[Item, ...]) -> list[str]:
    return [item.item_id for item in items]


def load_audio(clip: Clip) -> tuple[np.ndarray, int]:
    audio, sample_rate_hz = soundfile.read(wav_path(clip), dtype="float64")
    assert audio.ndim == 1, "stimuli are mono"
    return audio, sample_rate_hz


def note_f0_hz(audio: np.ndarray, sample_rate_hz: int, start_s: float, duration_s: float) -> float:
    """Fundamental frequency of the note struck at ``start_s`` (first 0.5 s at most)."""
    first = round((start_s + ATTACK_SKIP_S) * sample_rate_hz)
    last = round((start_s + min(duration_s, MAX_WINDOW_S)) * sample_rate_hz)
    window = audio[first:last]
    # trough_threshold 0.2 (not 0.1): fewer sub-harmonic frames where the previous note still rings
    f0_hz = yin(
        window,
        fmin=65,
        fmax=1100,
        sr=sample_rate_hz,
        frame_length=2048,
        center=False,
        trough_threshold=0.2,
    )
    coarse_hz = float(np.median(f0_hz))
    n_fft = 1 << 16
    spectrum = np.abs(np.fft.rfft(window * np.hanning(len(window)), n_fft))
    freqs_hz = np.fft.rfftfreq(n_fft, 1 / sample_rate_hz)
    lo_hz, hi_hz = coarse_hz * 2 ** (-0.6 / 12), coarse_hz * 2 ** (0.6 / 12)
    band = np.flatnonzero((freqs_hz > lo_hz) & (freqs_hz < hi_hz))
    peak = band[np.argmax(spectrum[band])]
    left, centre, right = np.log(spectrum[peak - 1 : peak + 2])
    offset_bins = 0.5 * (left - right) / (left - 2 * centre + right)
    return float((peak + offset_bins) * sample_rate_hz / n_fft)


def assert_pitches_heard(clip: Clip, notes: list[Note], label: tuple[int, ...]) -> list[int]:
    """Hear each note's pitch; it must be within tolerance of the label's MIDI note, in order."""
    audio, sample_rate_hz = load_audio(clip)
    spb = clip.seconds_per_beat
    f0_hz = [
        note_f0_hz(audio, sample_rate_hz, n.start_beats * spb, n.duration_beats * spb)
        for n in notes
    ]
    f0_midi = [float(m) for m in hz_to_midi(np.array(f0_hz))]
    assert len(f0_midi) == len(label), f"{len(f0_midi)} notes sound, label lists {len(label)}"
    errors_cents = [(got - want) * 100 for got, want in zip(f0_midi, label, strict=True)]
    report = ", ".join(f"{want}{err:+.1f}c" for want, err in zip(label, errors_cents, strict=True))
    heard = [round(m) for m in f0_midi]
    worst = max(abs(e) for e in errors_cents)
    assert worst < PITCH_TOLERANCE_CENTS, f"pitch off label by up to {worst:.1f} cents: {report}"
    assert heard == list(label), f"heard {heard}, label {list(label)}: {report}"
    return heard


def onset_times_s(
    audio: np.ndarray, sample_rate_hz: int, magnitude_below_hz: float | None = None
) -> np.ndarray:
    """Onset times from audio; with ``magnitude_below_hz``, only that band, on linear magnitude."""
    padded = np.concatenate([np.zeros(int(LEAD_IN_S * sample_rate_hz)), audio])
    if magnitude_below_hz is None:
        onsets = onset_detect(y=padded, sr=sample_rate_hz, hop_length=ONSET_HOP, units="time")
        return onsets - LEAD_IN_S
    sos = scipy.signal.butter(8, magnitude_below_hz, "lowpass", fs=sample_rate_hz, output="sos")
    low = scipy.signal.sosfiltfilt(sos, padded)
    magnitude = melspectrogram(
        y=low,
        sr=sample_rate_hz,
        n_fft=1024,
        hop_length=ONSET_HOP,
        n_mels=32,
        fmax=magnitude_below_hz * 4 / 3,
        power=1.0,
    )
    envelope = onset_strength(S=magnitude, sr=sample_rate_hz)
    onsets = onset_detect(
        onset_envelope=envelope, sr=sample_rate_hz, hop_length=ONSET_HOP, units="time"
    )
    return onsets - LEAD_IN_S


def assert_onsets_match(clip: Clip) -> None:
    audio, sample_rate_hz = load_audio(clip)
    heard = onset_times_s(audio, sample_rate_hz)
    spec = np.unique([n.start_beats * clip.seconds_per_beat for n in clip.notes])
    distance = np.abs(heard[:, None] - spec[None, :])
    missed = spec[distance.min(axis=0) > ONSET_TOLERANCE_S]
    extra = heard[distance.min(axis=1) > ONSET_TOLERANCE_S]
    assert not missed.size and not extra.size, (
        f"note starts not heard: {np.round(missed, 3)} s; "
        f"onsets heard where no note starts: {np.round(extra, 3)} s"
    )


@pytest.mark.parametrize("item", items_for("chord"), ids=_ids(items_for("chord")))
def test_chord_arpeggio_is_heard_as_labelled(item: Item) -> None:
    (clip,) = item.clips
    (label,) = item.transcription
    arpeggio = sorted((n for n in clip.notes if n.start_beats > 0), key=lambda n: n.start_beats)
    heard = assert_pitches_heard(clip, arpeggio, label)
    quality = QUALITY_BY_STEPS.get(tuple(steps(heard)))
    assert quality == item.params_dict()["quality"], (
        f"steps {steps(heard)} sound {quality}, not {item.label}"
    )
    assert chord.OPTIONS[item.answer].lower() == quality, (
        f"answer {item.answer} is {chord.OPTIONS[item.answer]}"
    )
    assert chord_answer(heard) == item.answer
    assert_onsets_match(clip)


@pytest.mark.parametrize("item", items_for("transposition"), ids=_ids(items_for("transposition")))
def test_transposition_pair_is_heard_as_labelled(item: Item) -> None:
    heard_sequences = []
    for clip, label in zip(item.clips, item.transcription, strict=True):
        notes = sorted(clip.notes, key=lambda n: n.start_beats)
        heard = assert_pitches_heard(clip, notes, label)
        assert_onsets_match(clip)
        heard_sequences.append(heard)
    anchor, target = heard_sequences
    same_intervals = steps(anchor) == steps(target)
    assert ("yes" if same_intervals else "no") == item.answer, (
        f"heard intervals {steps(anchor)} vs {steps(target)}, answer {item.answer}"
    )


@pytest.mark.parametrize("item", items_for("syncopation"), ids=_ids(items_for("syncopation")))
def test_drum_hits_are_heard_on_the_labelled_slots(item: Item) -> None:
    (clip,) = item.clips
    (label,) = item.transcription
    audio, sample_rate_hz = load_audio(clip)
    slot_s = syncopation.SLOT_BEATS * clip.seconds_per_beat
    hits_s = onset_times_s(audio, sample_rate_hz, magnitude_below_hz=DRUM_BAND_HZ)
    slots = np.round(hits_s / slot_s).astype(int) + 1
    off_grid_ms = np.abs(hits_s - (slots - 1) * slot_s) * 1000
    assert off_grid_ms.max() < ONSET_TOLERANCE_S * 1000, (
        f"hits off the grid by {off_grid_ms.round()} ms"
    )
    assert tuple(slots) == label, f"kick/snare heard on slots {slots.tolist()}, label {list(label)}"
    offbeats = int(np.sum(slots % 2 == 0))
    assert syncopation.OPTIONS[item.answer].split()[0] == str(offbeats), (
        f"{offbeats} off-beat hits heard, answer {item.answer} = {syncopation.OPTIONS[item.answer]}"
    )
    sos = scipy.signal.butter(8, HIHAT_BAND_HZ, "highpass", fs=sample_rate_hz, output="sos")
    hats_s = onset_times_s(scipy.signal.sosfiltfilt(sos, audio), sample_rate_hz)
    assert len(hats_s) == syncopation.SLOTS, f"{len(hats_s)} hi-hat onsets heard, want one per slot"
