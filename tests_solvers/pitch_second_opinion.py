"""A second, independent opinion on every tone's pitch, and a measure of octave ambiguity.

The label checks' own estimators (``pitch_analysis.estimate_f0_hz`` and its fallbacks in
``pitch_label_checks``) are of one family: YIN tracks and spectral peak picking. This module
adds Praat's autocorrelation pitch tracker (Boersma 1993, through ``praat-parselmouth``), which
looks for the waveform's period, not for harmonic peaks, so it fails differently: it reads a
tone whose waveform repeats an octave below its note (FluidR3's Church Organ from MIDI 70 up,
partials 2 : 3 : 4 : 6 of f0 / 2) an octave low, where a spectral estimator may call it right.
A tone passes when either family confirms it within the tolerance; ``TALLY`` counts how many
each confirmed, for the report (``tracker_shares``).

``octave_ambiguity_db`` measures the pattern behind that failure directly, label-blind about
the octave: the level of the partials at 0.5 and 1.5 x the labelled f0 (odd multiples of
f0 / 2) relative to the tone's strongest partial. A tone with one of them within
``OCTAVE_AMBIGUITY_DB`` of its strongest partial has a period twice as long as its note's and
fails the label check, whatever the trackers say.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import parselmouth

from fixtures.pitch.spec import SAMPLE_RATE_HZ
from tests_solvers.pitch_analysis import magnitude_spectrum, voiced_middle

SR = SAMPLE_RATE_HZ
PRAAT_FLOOR_HZ = 25.0  # below MIDI 29 (43.7 Hz), the lowest labelled note, by an octave
PRAAT_CEILING_HZ = 4000.0  # above MIDI 89 (1397 Hz) by more than an octave, below Nyquist
PRAAT_PERIODS_PER_WINDOW = 3  # Praat's analysis window is 3 periods of its pitch floor
PRAAT_TIME_STEP_S = 0.005
# Partials at odd multiples of f0 / 2 this close to the strongest one make the octave
# ambiguous: FluidR3's Church Organ shows them at -2 to -16 dB from MIDI 70 up. The same 20 dB
# at which ``pitch_label_checks.lowest_octave_hz`` would halve an f0. Closest of the served
# sources: FluidR3's cello, whose long notes at MIDI 85-87 carry a sub-octave at -27 dB (and
# nothing at 1.5 x f0 above -41 dB; both trackers hear the label); the Reed Organ stays below
# -43 dB over MIDI 29-89.
OCTAVE_AMBIGUITY_DB = 20.0
PARTIAL_PROMINENCE_DB = 10.0  # a partial is a peak this far above its surroundings
OCTAVE_CHECK_MAX_SPREAD_CENTS = 130.0  # a glide window's smear; wider vibrato: not measured
# How many tones each family confirmed: keys "tones", "first" (YIN/spectral), "praat",
# "either". Reset and read by the label test per experiment.
TALLY: Counter[str] = Counter()
# Labels of tones whose octave is ambiguous (reported by ``check_octave``), and every tone's
# margin (dB between its strongest partial and its strongest odd multiple of f0 / 2).
AMBIGUOUS: list[str] = []
OCTAVE_MARGINS_DB: list[float] = []


def praat_f0_hz(audio: np.ndarray, start_s: float, end_s: float) -> float | None:
    """Mean pitch (geometric) of the voiced frames Praat's autocorrelation tracker finds in the
    tone's voiced middle; None when it finds none. The floor rises for short tones so that
    Praat's 3-period window fits inside the segment."""
    segment = np.asarray(audio[max(0, round(start_s * SR)) : round(end_s * SR)], np.float64)
    if segment.size < 64 or not np.any(segment):
        return None
    middle = voiced_middle(segment, SR)
    if middle.size < 0.06 * SR:
        middle = segment
    duration_s = middle.size / SR
    floor_hz = max(PRAAT_FLOOR_HZ, PRAAT_PERIODS_PER_WINDOW / (0.9 * duration_s))
    if floor_hz >= PRAAT_CEILING_HZ:
        return None
    pitch = parselmouth.Sound(middle, SR).to_pitch_ac(
        time_step=PRAAT_TIME_STEP_S, pitch_floor=floor_hz, pitch_ceiling=PRAAT_CEILING_HZ)
    frequency_hz = pitch.selected_array["frequency"]
    voiced = frequency_hz[frequency_hz > 0]
    if voiced.size == 0:
        return None
    octaves = np.log2(voiced)
    low, high = np.percentile(octaves, [10, 90])
    kept = octaves[(octaves >= low) & (octaves <= high)]
    return float(2 ** np.mean(kept if kept.size else octaves))


def tally(first_confirms: bool, praat_confirms: bool) -> None:
    TALLY["tones"] += 1
    TALLY["first"] += first_confirms
    TALLY["praat"] += praat_confirms
    TALLY["either"] += first_confirms or praat_confirms


def tracker_shares(counts: Counter[str], min_margin_db: float | None = None) -> str:
    """One readable line: tones measured, the share each family (and either) confirmed, and
    the smallest octave margin seen."""
    tones = counts["tones"]
    if not tones:
        return "no measurable tone"
    shares = ", ".join(f"{name} {100 * counts[key] / tones:.2f} %" for name, key in
                       (("YIN/spectral", "first"), ("Praat", "praat"), ("either", "either")))
    margin = "" if min_margin_db is None else (
        f"; closest odd multiple of f0/2 {min_margin_db:.1f} dB below the strongest partial")
    return f"{tones} tones confirmed within 35 cents by {shares}{margin}"


def partial_levels_db(
    audio: np.ndarray, start_s: float, end_s: float, f0_hz: float, spread_cents: float = 30.0
) -> dict[float, float]:
    """Level (dB re the strongest spectral peak of the tone's voiced middle) of the partials at
    0.5, 1, 1.5 and 2 x ``f0_hz``: the energy pattern that tells a tone's octave. A partial
    that does not stand ``PARTIAL_PROMINENCE_DB`` above the median level within two semitones
    of it is noise (a flute's breath, a reverb's tail), not a partial: -inf."""
    segment = np.asarray(audio[max(0, round(start_s * SR)) : round(end_s * SR)], np.float64)
    middle = voiced_middle(segment, SR)
    if middle.size >= 0.05 * SR:
        segment = middle
    segment = segment[: 2 * SR]
    bins_hz, magnitude = magnitude_spectrum(segment, SR)
    level_db = 20 * np.log10(magnitude + 1e-30)
    level_db -= level_db[bins_hz >= 20.0].max()
    ratio = 2 ** (spread_cents / 1200)
    levels = {}
    for multiple in (0.5, 1.0, 1.5, 2.0):
        freq_hz = multiple * f0_hz
        near = (bins_hz >= freq_hz / ratio) & (bins_hz <= freq_hz * ratio)
        around = (bins_hz >= freq_hz * 2 ** (-2 / 12)) & (bins_hz <= freq_hz * 2 ** (2 / 12))
        if not near.any() or freq_hz >= 0.47 * SR:
            levels[multiple] = -np.inf
            continue
        peak_db = float(level_db[near].max())
        real = peak_db - float(np.median(level_db[around])) >= PARTIAL_PROMINENCE_DB
        levels[multiple] = peak_db if real else -np.inf
    return levels


def octave_ambiguity_db(levels: dict[float, float]) -> float:
    """How far below the strongest partial the strongest odd multiple of f0 / 2 lies (dB,
    positive; inf when there is none); below ``OCTAVE_AMBIGUITY_DB`` the tone's period is an
    octave too long."""
    return -max(levels[0.5], levels[1.5])


def check_octave(
    audio: np.ndarray, start_s: float, end_s: float, f0_hz: float, label: str,
    spread_cents: float = 30.0,
) -> list[str]:
    """A problem when the tone's partials make its octave ambiguous (see the module doc).

    Not measured under a vibrato wider than ``OCTAVE_CHECK_MAX_SPREAD_CENTS``: its sidebands
    smear the 1st and 2nd partials over the window at 1.5 x f0 (E5's ±200 cents at 10 Hz on
    an organ at MIDI 37 shows -10 dB there, with no 1.5 x f0 partial in the steady tone).
    There the trackers decide, and the source's own pattern at that note is checked unvibrated
    (A1 covers every source at every note)."""
    if spread_cents > OCTAVE_CHECK_MAX_SPREAD_CENTS:
        return []
    levels = partial_levels_db(audio, start_s, end_s, f0_hz, spread_cents)
    margin_db = octave_ambiguity_db(levels)
    if np.isfinite(margin_db):
        OCTAVE_MARGINS_DB.append(margin_db)
    if margin_db >= OCTAVE_AMBIGUITY_DB:
        return []
    AMBIGUOUS.append(label)
    pattern = ", ".join(f"{m:g}x {level:+.0f} dB" for m, level in levels.items())
    return [f"{label}: octave ambiguous, partials at {pattern} (an odd multiple of f0/2 within "
            f"{OCTAVE_AMBIGUITY_DB:.0f} dB of the strongest)"]
