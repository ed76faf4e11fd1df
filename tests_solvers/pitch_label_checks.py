"""Label checks for pitch stimuli: what a spec says should sound, and whether the audio agrees.

Expected pitches are derived here from the ``Tone``/``Scene`` numbers alone, NOT with the
builders' helpers (``fixtures.pitch.experiments``), which are what computed the labels: a bug
there must not be able to confirm itself. The audio side uses ``pitch_analysis`` (librosa,
scipy, numpy only). Every check returns a list of readable problems, empty when all agrees,
so one run reports every disagreement instead of stopping at the first.

Tolerances and why:

- pitch: 35 cents, the acceptance figure (a third of a semitone: a note off by one semitone,
  or the old unsigned pitch-bend bug's two, can never pass). ``estimate_f0_hz`` decides
  first; when it misses, two more label-blind estimators get a say (``measure_cents``) and
  the closest counts, because each fails on known timbres (sub-octave thumps of short bass
  notes, 4'/2' organ stops, aliased partials of distortion, wide vibrato). Tones shorter than
  0.1 s or 15 periods have no pitch measurable to 35 cents (``measurable``) and are counted
  in ``UNMEASURABLE`` instead.
- chords: every note a spectral peak (``contains_pitches``) over the whole chord or its first
  second, or its three lowest harmonics together 18 dB above their surroundings.
- onsets: 50 ms. Every onset in the catalog lies on a 10 ms grid and the analysis frame is
  20 ms with a 5 ms hop; 50 ms is a fifth of the 250 ms scoring tolerance, so a model that
  hears the sound start exactly is always scored right.
- offsets: the end of the sound (the last frame within 60 dB of the clip's loudest) may come
  up to ``OFFSET_LATE_S`` = 150 ms after the label, never more than 50 ms before it. A GM
  note keeps ringing after its note-off (the renderer fades every release out within 100 ms)
  and the end is measured where it becomes silent, hence 100 ms of ring plus the 50 ms
  measurement margin. A note that dies away on its own long before its labelled offset
  (a decaying piano or bass) is a disagreement: a listener cannot hear it stop there.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import librosa
import numpy as np
import soundfile

from fixtures.pitch.render import scene_wav_path
from fixtures.pitch.spec import SAMPLE_RATE_HZ, Scene, Tone
from tests_solvers.pitch_analysis import (
    contains_pitches,
    estimate_f0_hz,
    sounding_intervals,
)
from tests_solvers.pitch_estimators import (
    GLIDE_SPREAD_CENTS,
    cents_off,
    harmonic_evidence_db,
    harmonic_sieve_f0_hz,
    measure_moving_cents,
)
from tests_solvers.pitch_second_opinion import check_octave, praat_f0_hz, tally

SR = SAMPLE_RATE_HZ
PITCH_TOLERANCE_CENTS = 35.0
ONSET_TOLERANCE_S = 0.050
OFFSET_EARLY_S = 0.050
OFFSET_LATE_S = 0.150
SILENCE_THRESHOLD_DB = -60.0  # below the clip's loudest frame: digital silence between tones
GLIDE_WINDOW_FRACTION = 0.1  # of the tone (0.5 s of a 5 s glide): the path stays linear in it
EARLY_WINDOW_S = 1.0
MIN_MEASURABLE_S, MIN_MEASURABLE_PERIODS = 0.1, 15  # shorter tones: no pitch to 35 cents
MIN_EVIDENCE_DB = 18.0  # summed over three harmonics: 1.5x contains_pitches' 12 dB at one
# (expected MIDI, first estimate in Hz or None, accepted cents) of every tone a second
# estimator confirmed after the first missed: reported, never hidden.
SECOND_OPINIONS: list[tuple[float, float | None, float]] = []
# Labels of tones too short to measure (see ``measurable``): counted for the report.
UNMEASURABLE: list[str] = []


def scene_audio(scene: Scene) -> np.ndarray:
    """The WAV a model is served for ``scene`` (rendered into the cache on a miss)."""
    audio, rate_hz = soundfile.read(scene_wav_path(scene), dtype="float32")
    assert rate_hz == SR, f"served WAV at {rate_hz} Hz"
    return audio


def time_scale(scene: Scene) -> float:
    """How much longer the audio is than the spec's timeline (any stretch scales time)."""
    return scene.stretch.factor if scene.stretch is not None else 1.0


def sounding_midi(scene: Scene, tone: Tone, fraction: float | None = None) -> float:
    """The (fractional) MIDI pitch ``tone`` is heard at, at ``fraction`` of its length.

    The path's value there (``pitch_midi`` when the tone does not move; vibrato is centred
    on it), moved by −12·log2(factor) when the scene is resampled (tape-speed change).
    """
    if tone.pitch_path and fraction is not None:
        fractions, values = zip(*tone.pitch_path, strict=True)
        midi = float(np.interp(fraction, fractions, values))
    else:
        midi = float(tone.pitch_midi)
    if scene.stretch is not None and scene.stretch.method == "resample":
        midi -= 12.0 * math.log2(scene.stretch.factor)
    return midi


def heard_note(scene: Scene, tone: Tone) -> int:
    """The equal-tempered note nearest the tone's sounding pitch."""
    return round(sounding_midi(scene, tone))


def tone_window_s(scene: Scene, tone: Tone) -> tuple[float, float]:
    """Where ``tone`` lies in the audio, in seconds (after any stretch)."""
    scale = time_scale(scene)
    return tone.onset_s * scale, tone.offset_s * scale


def measure_cents(
    audio: np.ndarray, start_s: float, end_s: float, expected_midi: float, steady: bool = True
) -> float | None:
    """Cents from ``expected_midi`` of the pitch heard between the two times (None: silent).

    ``estimate_f0_hz`` first; when it is off by more than the tolerance, ``band_centre_hz``
    (and for a steady tone ``harmonic_sieve_f0_hz``) get a say and the closest counts. All
    are blind to the label, so a wrong label cannot slip through this way: it would need an
    estimator to err by exactly the label's error (an octave up is ruled out separately).
    Every such rescue is recorded in ``SECOND_OPINIONS`` for the report.
    """
    freq_hz = estimate_f0_hz(audio, SR, start_s, end_s)
    cents = None if freq_hz is None else cents_off(freq_hz, expected_midi)
    if cents is not None and abs(cents) <= PITCH_TOLERANCE_CENTS:
        return cents
    opinions = [measure_moving_cents(audio, start_s, end_s, expected_midi, None)]
    if steady:
        second_hz = harmonic_sieve_f0_hz(audio, start_s, end_s)
        opinions.append(None if second_hz is None else cents_off(second_hz, expected_midi))
    for opinion in opinions:
        if opinion is not None and (cents is None or abs(opinion) < abs(cents)):
            cents = opinion
    if cents is not None and abs(cents) <= PITCH_TOLERANCE_CENTS:
        SECOND_OPINIONS.append((expected_midi, freq_hz, cents))
    return cents


def measurable(tone: Tone, scale: float, midi: float) -> bool:
    """Whether the tone lasts long enough for its pitch to be measured to 35 cents."""
    duration_s = tone.duration_s * scale
    periods = duration_s * float(librosa.midi_to_hz(midi))
    return duration_s >= MIN_MEASURABLE_S and periods >= MIN_MEASURABLE_PERIODS


def _pitch_problem(what: str, cents: float | None, midi: float) -> list[str]:
    if cents is None:
        return [f"{what}: no pitch found, expected MIDI {midi:.2f}"]
    if abs(cents) > PITCH_TOLERANCE_CENTS:
        return [f"{what}: sounds {cents:+.0f} cents from the expected MIDI {midi:.2f}"]
    return []


def glide_windows(tone: Tone) -> list[tuple[float, float]]:
    """Short windows (tone fractions) inside each linear piece of a path, at both its ends.

    Inside one piece the pitch is linear in time, so a window's mean pitch is the path's
    value at the window's centre; windows never straddle a breakpoint.
    """
    width = GLIDE_WINDOW_FRACTION
    windows = []
    for (start, _), (end, _) in zip(tone.pitch_path, tone.pitch_path[1:], strict=False):
        first = start + (0.02 if start == 0 else 0.0)  # skip the attack
        windows += [(first, first + width), (end - width, end)]
    return windows


def check_tone_pitch(audio: np.ndarray, scene: Scene, tone: Tone, label: str) -> list[str]:
    """A steady or vibrato tone sounds at its pitch; a glide passes through its path. Each
    measurement passes when either tracker family confirms it (``confirmed``), and its partials
    must leave no doubt about its octave (``pitch_second_opinion.check_octave``)."""
    start_s, end_s = tone_window_s(scene, tone)
    if not tone.pitch_path:
        midi = sounding_midi(scene, tone)
        if not measurable(tone, time_scale(scene), midi):
            UNMEASURABLE.append(label)
            return []
        spread_cents = 30.0
        if tone.vibrato_rate_hz > 0 and tone.vibrato_depth_cents > 0:
            cents = measure_moving_cents(audio, start_s, end_s, midi, tone)
            spread_cents += tone.vibrato_depth_cents
        else:
            cents = measure_cents(audio, start_s, end_s, midi)
        return confirmed(audio, start_s, end_s, midi, cents, label, spread_cents)
    problems = []
    length_s = end_s - start_s
    for first, last in glide_windows(tone):
        midi = sounding_midi(scene, tone, (first + last) / 2)
        window_s = (start_s + first * length_s, start_s + last * length_s)
        cents = measure_cents(audio, *window_s, midi, steady=False)
        problems += confirmed(audio, *window_s, midi, cents,
                              f"{label} at {first:.2f}-{last:.2f} of the glide",
                              30.0 + GLIDE_SPREAD_CENTS)
    return problems


def confirmed(
    audio: np.ndarray, start_s: float, end_s: float, midi: float, cents: float | None,
    label: str, spread_cents: float,
) -> list[str]:
    """Problems of one measured tone: none when the YIN/spectral ``cents`` or Praat's
    estimate is within the tolerance (tallied for the report) and the octave is unambiguous."""
    praat_hz = praat_f0_hz(audio, start_s, end_s)
    praat_cents = None if praat_hz is None else cents_off(praat_hz, midi)
    first_ok = cents is not None and abs(cents) <= PITCH_TOLERANCE_CENTS
    praat_ok = praat_cents is not None and abs(praat_cents) <= PITCH_TOLERANCE_CENTS
    tally(first_ok, praat_ok)
    problems = [] if first_ok or praat_ok else [
        f"{problem} (Praat: {'no pitch' if praat_cents is None else f'{praat_cents:+.0f} cents'})"
        for problem in _pitch_problem(label, cents, midi)]
    return problems + check_octave(audio, start_s, end_s, float(librosa.midi_to_hz(midi)), label,
                                   spread_cents)


def check_notes_present(
    audio: np.ndarray, notes: Sequence[int], start_s: float, end_s: float, label: str
) -> list[str]:
    """Every note of ``notes`` is a spectral peak (its fundamental or a low harmonic), over
    the whole stretch or over its first ``EARLY_WINDOW_S`` (a piano note in a long chord has
    decayed far below a sustained organ by the end, but was plainly heard at its start)."""
    wanted = sorted(set(notes))
    found = contains_pitches(audio, SR, wanted, start_s, end_s)
    early_end_s = min(end_s, start_s + EARLY_WINDOW_S)
    if not all(found.values()) and early_end_s < end_s:
        early = contains_pitches(audio, SR, wanted, start_s, early_end_s)
        found = {note: present or early[note] for note, present in found.items()}
    missing = [note for note in found if not found[note]
               and harmonic_evidence_db(audio, note, start_s, end_s) < MIN_EVIDENCE_DB]
    if missing:
        return [f"{label}: notes {missing} not found in {start_s:.2f}-{end_s:.2f} s "
                f"(expected {wanted})"]
    return []


def sounding_at(scene: Scene, time_s: float) -> list[Tone]:
    """Tones of the spec sounding at ``time_s`` (spec timeline)."""
    return [t for t in scene.tones if t.onset_s <= time_s < t.offset_s]


def check_note_in_texture(audio: np.ndarray, scene: Scene, tone: Tone, label: str) -> list[str]:
    """``tone`` is present in the mix over its whole length (the other voices may change
    meanwhile: only this note is asked about; a window as short as their changes could not
    resolve a low note)."""
    start_s, end_s = tone_window_s(scene, tone)
    return check_notes_present(audio, [heard_note(scene, tone)], start_s, end_s, label)


def rank_from_top(scene: Scene, tone: Tone) -> int | None:
    """How many distinct tones sound strictly higher than ``tone`` at its midpoint; None when
    another tone shares its pitch there (a unison has no register rank)."""
    middle_s = (tone.onset_s + tone.offset_s) / 2
    others = [t for t in sounding_at(scene, middle_s) if t is not tone]
    if any(t.pitch_midi == tone.pitch_midi for t in others):
        return None
    return sum(t.pitch_midi > tone.pitch_midi for t in others)


def voice_count_at(scene: Scene, tone: Tone) -> int:
    return len(sounding_at(scene, (tone.onset_s + tone.offset_s) / 2))


def check_timing(audio: np.ndarray, scene: Scene, label: str) -> list[str]:
    """One sounding stretch per tone, starting and ending where the spec says (see the module
    docstring for the tolerances)."""
    intervals = sounding_intervals(audio, SR, threshold_db=SILENCE_THRESHOLD_DB)
    tones = sorted(scene.tones, key=lambda t: t.onset_s)
    if len(intervals) != len(tones):
        return [f"{label}: {len(intervals)} sounding stretches "
                f"{[(round(a, 2), round(b, 2)) for a, b in intervals]} for {len(tones)} tones"]
    problems = []
    for tone, (start_s, end_s) in zip(tones, intervals, strict=True):
        onset_s, offset_s = tone_window_s(scene, tone)
        if abs(start_s - onset_s) > ONSET_TOLERANCE_S:
            problems.append(f"{label}: tone at {onset_s:.2f} s starts at {start_s:.3f} s")
        if not -OFFSET_EARLY_S <= end_s - offset_s <= OFFSET_LATE_S:
            problems.append(f"{label}: {tone.source} tone ending at {offset_s:.2f} s "
                            f"falls silent at {end_s:.3f} s")
    return problems


def measured_snr_db(mix: np.ndarray, clean: np.ndarray) -> float:
    """SNR of ``clean`` inside ``mix``: the least-squares share of the mix that is the clean
    signal, over what is left (the background)."""
    mix, clean = np.asarray(mix, np.float64), np.asarray(clean, np.float64)
    gain = float(mix @ clean / (clean @ clean))
    residual = mix - gain * clean
    return float(20 * np.log10(np.linalg.norm(gain * clean) / np.linalg.norm(residual)))
