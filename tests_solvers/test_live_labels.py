"""Every live stimulus checked again by listening, independently of the listener.

The live rendition is too wet, noisy and overlapped for the studio checks' exact note-by-note
f0 (``test_stimuli_labels.py``), so these check what the label rests on with other means,
from the spec's own (humanised) note times and librosa's CQT chroma, never the listener:

- chord: of every root and quality, the label's chord best explains the whole clip's chroma
  when each chord tone brings its first harmonics (a doubled root's third harmonic, the fifth
  above it, is loud enough to out-rank a diminished fifth in plain chroma), its pitch classes
  are among the loudest, and the answer follows from the pitch classes over the performed bass;
- melody: at each performed note, the note's pitch class is among the two loudest of the
  chroma of its first 0.4 s (the previous note may still ring under the pedal);
- drums: at every kick or snare the energy below 300 Hz jumps more than at any hi-hat-only
  slot, by a margin.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pytest
import soundfile
from librosa import fft_frequencies, stft
from librosa.feature import chroma_cqt

from fixtures.stimuli import wav_path
from fixtures.tasks.live import Rendition
from fixtures.tasks.spec import CLOSED_HIHAT_NOTE, KICK_NOTE, SNARE_NOTE, Clip, Item
from solvers.logic import CHORD_INTERVALS, intervals

LIVE = Rendition("live", 0)
HOP = 256
NOTE_WINDOW_S = (0.05, 0.4)
DRUM_BAND_HZ = 300.0
RISE_MARGIN_DB = 2.0
QUALITY_BY_CLASSES = {tuple(sorted(v)): q for q, v in CHORD_INTERVALS.items()}
# Harmonics 1-4 of a tone, as semitones above it and weights: a piano's or guitar's spectrum.
HARMONICS = ((0, 1.0), (12, 0.5), (19, 0.35), (24, 0.25))


def _chord_template(root_class: int, intervals_st: tuple[int, ...]) -> np.ndarray:
    """Expected chroma of a chord whose tones each sound their first harmonics."""
    template = np.zeros(12)
    for interval in intervals_st:
        for harmonic_st, weight in HARMONICS:
            template[(root_class + interval + harmonic_st) % 12] += weight
    return template / np.linalg.norm(template)


def _best_chord(chroma: np.ndarray) -> tuple[int, tuple[int, ...]]:
    """The (root class, intervals) whose harmonic template is closest to ``chroma``."""
    unit = chroma / np.linalg.norm(chroma)
    candidates = [(root, tuple(sorted(v))) for root in range(12)
                  for v in CHORD_INTERVALS.values()]
    return max(candidates, key=lambda c: float(unit @ _chord_template(*c)))


def _items(task: str) -> list[Item]:
    return list(LIVE.items(task, "test"))


def _ids(items: list[Item]) -> list[str]:
    return [item.item_id for item in items]


def _audio(clip: Clip) -> tuple[np.ndarray, int]:
    audio, sample_rate_hz = soundfile.read(wav_path(clip), dtype="float64")
    assert audio.ndim == 1 and np.max(np.abs(audio)) > 0.1, "a mono, audible stimulus"
    return audio, sample_rate_hz


@pytest.mark.parametrize("item", _items("chord"), ids=_ids(_items("chord")))
def test_live_chord_sounds_its_pitch_classes(item: Item) -> None:
    (clip,) = item.clips
    audio, sample_rate_hz = _audio(clip)
    chroma = chroma_cqt(y=audio, sr=sample_rate_hz, hop_length=HOP).sum(axis=1)
    (voicing,) = item.transcription
    classes = {p % 12 for p in voicing}
    loudest = set(np.argsort(chroma)[::-1][: len(classes) + 1].tolist())
    assert classes <= loudest, f"loudest classes {sorted(loudest)}, label {sorted(classes)}"
    label = (min(voicing) % 12, tuple(sorted((p - min(voicing)) % 12 for p in classes)))
    assert _best_chord(chroma) == label, f"heard {_best_chord(chroma)}, label {label}"
    bass = min(n.midi_note for n in clip.notes)
    assert bass == min(voicing), "the performed bass is the label's root"
    quality = QUALITY_BY_CLASSES[tuple(sorted((c - bass) % 12 for c in classes))]
    assert quality == item.params_dict()["quality"]


def assert_melody_heard(clip: Clip, label: tuple[int, ...]) -> None:
    """The clip's notes are ``label``, and each one's pitch class is among the two loudest
    chroma classes of its first 0.4 s."""
    audio, sample_rate_hz = _audio(clip)
    chroma = chroma_cqt(y=audio, sr=sample_rate_hz, hop_length=HOP)
    notes = sorted(clip.notes, key=lambda n: n.start_beats)
    assert [n.midi_note for n in notes] == list(label)
    for note in notes:
        start_s = note.start_beats * clip.seconds_per_beat
        first = int((start_s + NOTE_WINDOW_S[0]) * sample_rate_hz / HOP)
        last = max(first + 1, int((start_s + NOTE_WINDOW_S[1]) * sample_rate_hz / HOP))
        top_two = np.argsort(chroma[:, first:last].mean(axis=1))[::-1][:2]
        assert note.midi_note % 12 in top_two, f"{note} not heard at {start_s:.2f} s"


@pytest.mark.parametrize("item", _items("transposition"), ids=_ids(_items("transposition")))
def test_live_melodies_sound_their_notes(item: Item) -> None:
    for clip, label in zip(item.clips, item.transcription, strict=True):
        assert_melody_heard(clip, label)
    same = intervals(item.transcription[0]) == intervals(item.transcription[1])
    assert ("yes" if same else "no") == item.answer


def band_rise_db(clip: Clip, band_hz: float = DRUM_BAND_HZ) -> Callable[[float], float]:
    """How much the energy below ``band_hz`` jumps at a time (s), capped by how far it stays
    below the clip's loudest moment less 30 dB (a rise in silence is no hit)."""
    audio, sample_rate_hz = _audio(clip)
    magnitude = np.abs(stft(audio, n_fft=1024, hop_length=128))
    freqs_hz = fft_frequencies(sr=sample_rate_hz, n_fft=1024)
    low_db = 10 * np.log10(np.sum(magnitude[freqs_hz < band_hz] ** 2, axis=0) + 1e-12)
    times_s = np.arange(low_db.size) * 128 / sample_rate_hz

    def rise_db(at_s: float) -> float:
        before = low_db[(times_s >= at_s - 0.1) & (times_s <= at_s - 0.03)]
        after = low_db[(times_s >= at_s) & (times_s <= at_s + 0.05)]
        jump = after.max() - (before.min() if before.size else -120.0)
        return float(min(jump, after.max() - low_db.max() + 30.0))  # and loud enough

    return rise_db


def assert_hits_stand_out(clip: Clip, quiet_s: Sequence[float] = ()) -> None:
    """At every kick or snare the energy below 300 Hz jumps more, by a margin, than at any
    hi-hat-only slot and any of the ``quiet_s`` times (where nothing is played)."""
    rise_db = band_rise_db(clip)
    spb = clip.seconds_per_beat
    hits_s = [n.start_beats * spb for n in clip.notes if n.midi_note in (KICK_NOTE, SNARE_NOTE)]
    hats_s = [n.start_beats * spb for n in clip.notes if n.midi_note == CLOSED_HIHAT_NOTE
              and all(abs(n.start_beats * spb - h) > 0.1 for h in hits_s)]
    weakest_hit = min(rise_db(t) for t in hits_s) if hits_s else np.inf
    loudest_hat = max(rise_db(t) for t in (*hats_s, *quiet_s))
    assert weakest_hit > loudest_hat + RISE_MARGIN_DB, (
        f"a kick or snare rises {weakest_hit:.1f} dB, a hi-hat-only slot {loudest_hat:.1f} dB"
    )


@pytest.mark.parametrize("item", _items("syncopation"), ids=_ids(_items("syncopation")))
def test_live_drum_hits_are_where_the_label_says(item: Item) -> None:
    (clip,) = item.clips
    assert_hits_stand_out(clip)
    slots = sorted({round(n.start_beats / 0.5) + 1 for n in clip.notes
                    if n.midi_note in (KICK_NOTE, SNARE_NOTE)})
    assert tuple(slots) == item.transcription[0]
