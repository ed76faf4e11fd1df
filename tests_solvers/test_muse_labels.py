"""Every MUSE label, heard again: independent analysis of the rendered audio (fixtures/muse/).

The served WAV of each clip is analysed without looking at the label (the helpers of
test_stimuli_labels.py: YIN + spectral peak pitch, librosa onsets, the drum band), and what is
heard must give the item's answer: pitch tracking for melody shape, oddball and instrument
phrases; onset detection for rhythm matching, syncopation comparison and meter; chroma with
Krumhansl-Schmuckler key finding for modulation; a constant-Q bass note for chord sequences.
``EARTEST_MUSE_LABELS=all`` checks every item (about a minute); by default the first pair of
each task (``make test``):

    EARTEST_MUSE_LABELS=all python -m pytest tests_solvers/test_muse_labels.py -n 2 -q
"""

from __future__ import annotations

import os

import numpy as np
import pytest
import scipy.signal
from librosa import cqt, midi_to_hz
from librosa.feature import chroma_cqt

from fixtures.muse.catalog import TASK_NAMES, items_for
from fixtures.tasks.spec import Item
from solvers.muse import MAJOR_PROFILE
from tests_solvers.test_stimuli_labels import (
    DRUM_BAND_HZ,
    ONSET_TOLERANCE_S,
    assert_pitches_heard,
    load_audio,
    onset_times_s,
)

MAJOR_STEPS = {0, 2, 4, 5, 7, 9, 11}  # written out: the check does not share the generator's
KICK_BAND_HZ = 90.0
SAMPLE_ITEMS = 2


def checked(task: str) -> list[Item]:
    items = list(items_for(task))
    return items if os.environ.get("EARTEST_MUSE_LABELS", "").lower() == "all" \
        else items[:SAMPLE_ITEMS]


def cases(*tasks: str) -> list:
    return [pytest.param(item, id=item.item_id) for task in tasks for item in checked(task)]


def heard_pitches(item: Item, label: tuple[int, ...]) -> list[int]:
    """The pitch of each note of the item's one clip, which must be ``label``'s."""
    (clip,) = item.clips
    return assert_pitches_heard(clip, sorted(clip.notes, key=lambda n: n.start_beats), label)


def heard_slots(clip, band_hz: float | None) -> list[int]:
    """The eighth-note slots (from 1) whose onsets are heard, in ``band_hz`` or the full band."""
    audio, sample_rate_hz = load_audio(clip)
    slot_s = 0.5 * clip.seconds_per_beat
    hits_s = onset_times_s(audio, sample_rate_hz, magnitude_below_hz=band_hz)
    slots = np.round(hits_s / slot_s).astype(int) + 1
    off_grid_ms = np.abs(hits_s - (slots - 1) * slot_s) * 1000
    assert off_grid_ms.max() < ONSET_TOLERANCE_S * 1000, f"hits off the grid: {off_grid_ms}"
    return slots.tolist()


@pytest.mark.parametrize("item", cases("muse_melody_shape"))
def test_melody_shape_is_heard_as_labelled(item: Item) -> None:
    heard = heard_pitches(item, item.transcription[0])
    signs = [int(s) for s in np.sign(np.diff(heard)) if s]
    runs = tuple(s for i, s in enumerate(signs) if i == 0 or s != signs[i - 1])
    shape = {(1,): "ascending", (-1,): "descending", (1, -1): "arch",
             (-1, 1): "inverted arch"}[runs]
    assert shape == item.label, f"heard {heard}: {shape}, labelled {item.label}"


@pytest.mark.parametrize("item", cases("muse_oddball"))
def test_oddball_is_heard_as_labelled(item: Item) -> None:
    heard = heard_pitches(item, item.transcription[1])
    outside = [p for p in heard if (p - heard[0]) % 12 not in MAJOR_STEPS]  # from the tonic
    assert ("yes" if outside else "no") == item.answer, f"heard {heard}: outside {outside}"


@pytest.mark.parametrize("item", cases("muse_instrument"))
def test_instrument_phrase_is_the_same_notes_for_every_instrument(item: Item) -> None:
    heard_pitches(item, item.params_dict()["pitches"])


@pytest.mark.parametrize("item", cases("muse_rhythm_match"))
def test_rhythm_pair_is_heard_as_labelled(item: Item) -> None:
    grids = [heard_slots(clip, None) for clip in item.clips]
    assert [tuple(g) for g in grids] == list(item.transcription)
    assert ("yes" if grids[0] == grids[1] else "no") == item.answer


@pytest.mark.parametrize("item", cases("muse_sync_compare"))
def test_syncopation_pair_is_heard_as_labelled(item: Item) -> None:
    grids = [heard_slots(clip, DRUM_BAND_HZ) for clip in item.clips]
    assert [tuple(g) for g in grids] == list(item.transcription)
    offbeats = [sum(1 for s in g if s % 2 == 0) for g in grids]
    assert offbeats[0] - offbeats[1] >= 2 if item.answer == "A" else \
        offbeats[1] - offbeats[0] >= 2, f"off-beat hits heard: {offbeats}"


@pytest.mark.parametrize("item", cases("muse_meter"))
def test_meter_is_heard_as_labelled(item: Item) -> None:
    """The kicks (the drum-band hits with most energy below 90 Hz) recur every 4 eighths in
    2/4, every 6 in 3/4 and 6/8; the other drum-band hits (snares) split a 6-eighth bar in
    2 + 2 + 2 (3/4) or 3 + 3 (6/8)."""
    (clip,) = item.clips
    hits = heard_slots(clip, DRUM_BAND_HZ)
    audio, sample_rate_hz = load_audio(clip)
    sos = scipy.signal.butter(8, KICK_BAND_HZ, "lowpass", fs=sample_rate_hz, output="sos")
    low = scipy.signal.sosfiltfilt(sos, audio)
    slot_samples = round(0.5 * clip.seconds_per_beat * sample_rate_hz)
    energy = np.array([np.sum(low[(s - 1) * slot_samples:s * slot_samples] ** 2) for s in hits])
    kicks = [s for s, e in zip(hits, energy, strict=True) if e > energy.max() / 4]
    snares = [s for s in hits if s not in kicks]
    assert (tuple(kicks), tuple(snares)) == item.transcription
    bar = int(np.median(np.diff(kicks)))
    after = sorted({(s - kicks[0]) % bar for s in snares})
    meter = {(4, (2,)): "duple", (6, (2, 4)): "triple", (6, (3,)): "compound"}[(bar, tuple(after))]
    assert meter == item.params_dict()["meter"]


def chroma_key(audio: np.ndarray, sample_rate_hz: int, chords: int = 4) -> int:
    """Krumhansl-Schmuckler on a chromagram: the best-correlating major key's tonic. Each of
    the ``chords`` equal spans adds its chroma normalised, so every chord counts alike (a
    loud or bright one would pull a raw sum towards the dominant's key)."""
    spans = np.array_split(chroma_cqt(y=audio, sr=sample_rate_hz), chords, axis=1)
    chroma = sum(span.sum(axis=1) / span.sum() for span in spans)
    scores = [np.corrcoef(chroma, np.roll(MAJOR_PROFILE, tonic))[0, 1] for tonic in range(12)]
    return int(np.argmax(scores))


@pytest.mark.parametrize("item", cases("muse_modulation"))
def test_modulation_is_heard_as_labelled(item: Item) -> None:
    (clip,) = item.clips
    audio, sample_rate_hz = load_audio(clip)
    half = round(4 * 2 * clip.seconds_per_beat * sample_rate_hz)  # four 2-beat chords
    first, second = chroma_key(audio[:half], sample_rate_hz), chroma_key(audio[half:],
                                                                         sample_rate_hz)
    params = item.params_dict()
    assert (first, second) == (params["tonic_pc"], params["second_tonic_pc"])
    assert ("no" if first == second else "yes") == item.answer


def bass_notes(clip) -> list[int]:
    """The lowest strong constant-Q peak (within 15 dB of the loudest) of each 2-beat chord."""
    audio, sample_rate_hz = load_audio(clip)
    fmin_midi, hop = 36, 512
    spectrum = np.abs(cqt(audio, sr=sample_rate_hz, hop_length=hop, fmin=midi_to_hz(fmin_midi),
                          n_bins=48))
    chord_frames = round(2 * clip.seconds_per_beat * sample_rate_hz / hop)
    roots = []
    for index in range(len(clip.notes) // 4):
        window = spectrum[:, index * chord_frames + 4:(index + 1) * chord_frames - 4]
        level_db = 20 * np.log10(window.mean(axis=1) + 1e-12)
        peaks, _ = scipy.signal.find_peaks(level_db, height=level_db.max() - 15)
        roots.append(fmin_midi + int(peaks[0]))
    return roots


@pytest.mark.parametrize("item", cases("muse_chord_sequence"))
def test_chord_sequence_is_heard_as_labelled(item: Item) -> None:
    roots = [bass_notes(clip) for clip in item.clips]
    assert [tuple(r) for r in roots] == list(item.transcription)
    steps = [tuple(np.diff(r) % 12) for r in roots]
    assert ("yes" if steps[0] == steps[1] else "no") == item.answer


def test_every_task_is_checked() -> None:
    checks = {"muse_melody_shape", "muse_oddball", "muse_instrument", "muse_rhythm_match",
              "muse_sync_compare", "muse_meter", "muse_modulation", "muse_chord_sequence"}
    assert checks == set(TASK_NAMES)
