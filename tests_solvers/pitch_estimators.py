"""Label-blind pitch estimators for the label checks (``pitch_label_checks``).

Each answers "what pitch is in this audio" without looking at the label; the checks compare.
Besides ``pitch_analysis.estimate_f0_hz`` (YIN), these weigh the evidence differently, since
each estimator fails on known timbres: a harmonic sieve weighted by power (a faint sub-octave
thump or aliased partials cannot outvote the harmonics), an odd-partial octave test (organ
4'/2' stops), and the band's instantaneous frequency (wide vibrato, chorus, glides).
"""

from __future__ import annotations

from collections.abc import Sequence

import librosa
import numpy as np
import scipy.signal

from fixtures.pitch.spec import SAMPLE_RATE_HZ, Tone
from tests_solvers.pitch_analysis import estimate_f0_hz, magnitude_spectrum, voiced_middle

SR = SAMPLE_RATE_HZ
SIEVE_FMIN_HZ, SIEVE_FMAX_HZ = 30.0, 2200.0
SIEVE_FLOOR_DB = 40.0
SIEVE_SLACK = 0.05  # share of power a higher f0 candidate may leave unexplained
ODD_PARTIAL_DB = 20.0
VIBRATO_BAND_SEMITONES = 4.0
GLIDE_SPREAD_CENTS = 100.0


def cents_off(freq_hz: float, midi: float) -> float:
    return float(1200.0 * np.log2(freq_hz / librosa.midi_to_hz(midi)))


def harmonic_sieve_f0_hz(
    audio: np.ndarray, start_s: float, end_s: float, spread_cents: float = 30.0
) -> float | None:
    """A second, differently weighted f0 estimate of a steady tone (None: silent).

    Spectral peaks within 40 dB of the strongest, weighted by their POWER (``estimate_f0_hz``
    weights them by dB above a floor, which lets a faint sub-octave thump under a bass note,
    or the faint aliased partials of a distorted tone, outvote the harmonics everyone hears).
    The f0 is the highest candidate whose harmonics carry all but ``SIEVE_SLACK`` of the best
    candidate's share, refined by least squares on its first eight harmonics; an octave
    above it is then ruled out by ``lowest_octave_hz``.
    """
    segment = np.asarray(audio[max(0, round(start_s * SR)) : round(end_s * SR)], np.float64)
    if segment.size < 64 or not np.any(segment):
        return None
    middle = voiced_middle(segment, SR)
    segment = (middle if middle.size >= 0.03 * SR else segment)[: 2 * SR]
    _, magnitude = magnitude_spectrum(segment, SR)
    bin_hz = SR / (2 * (magnitude.size - 1))  # the FFT's length is even
    usable = np.zeros(magnitude.size, dtype=bool)
    usable[round(SIEVE_FMIN_HZ / bin_hz) : round(0.47 * SR / bin_hz)] = True
    floor = magnitude[usable].max() * 10 ** (-SIEVE_FLOOR_DB / 20)
    indices, _ = scipy.signal.find_peaks(np.where(usable, magnitude, 0.0), height=floor)
    if indices.size == 0:
        return None
    left, centre, right = (np.log(magnitude[indices + k] + 1e-30) for k in (-1, 0, 1))
    shift = 0.5 * (left - right) / np.minimum(left - 2 * centre + right, -1e-12)
    peaks_hz, amplitudes = (indices + shift) * bin_hz, magnitude[indices]

    def harmonic_numbers(f0_hz: float) -> np.ndarray:
        numbers = np.maximum(np.round(peaks_hz / f0_hz), 1)
        tolerance_hz = np.minimum(0.03 * peaks_hz, 0.1 * f0_hz)
        return np.where(np.abs(peaks_hz - numbers * f0_hz) <= tolerance_hz, numbers, 0)

    strongest = peaks_hz[np.argsort(amplitudes)[::-1][:6]]
    candidates = sorted({p / n for p in strongest for n in range(1, 9)
                         if SIEVE_FMIN_HZ <= p / n <= SIEVE_FMAX_HZ})
    power = amplitudes**2
    shares = [power[harmonic_numbers(c) > 0].sum() / power.sum() for c in candidates]
    chosen = max(c for c, share in zip(candidates, shares, strict=True)
                 if share >= max(shares) - SIEVE_SLACK)
    numbers = harmonic_numbers(chosen)
    low = (numbers > 0) & (numbers <= 8)
    weights, k, p = amplitudes[low], numbers[low], peaks_hz[low]
    f0_hz = float(np.sum(weights * k * p) / np.sum(weights * k * k))
    return lowest_octave_hz(segment, f0_hz, spread_cents)


def level_db_at(
    segment: np.ndarray, freqs_hz: Sequence[float], spread_cents: float = 30.0
) -> list[float]:
    """Spectral peak level (dB re the strongest peak) within ``spread_cents`` of each
    frequency."""
    bins_hz, magnitude = magnitude_spectrum(segment, SR)
    top = magnitude.max()
    levels = []
    for freq_hz in freqs_hz:
        ratio = 2 ** (spread_cents / 1200)
        near = (bins_hz >= freq_hz / ratio) & (bins_hz <= freq_hz * ratio)
        levels.append(float(20 * np.log10(magnitude[near].max() / top + 1e-12)) if near.any()
                      else -np.inf)
    return levels


def lowest_octave_hz(segment: np.ndarray, f0_hz: float, spread_cents: float = 30.0) -> float:
    """``f0_hz`` halved while the half has a real odd partial (its 1st, 3rd or 5th harmonic
    within ``ODD_PARTIAL_DB`` of the strongest peak): a church organ's low notes carry 4' and
    2' stops that make the even harmonics dominate (and E1's high-pass removes the 1st), yet
    a tone an octave higher would have no energy at all at those odd multiples. Under a
    vibrato (``spread_cents`` wide) partials smear into each other, so there both the 1st and
    the 3rd must show."""
    steady = spread_cents <= 30.0
    while f0_hz / 2 >= SIEVE_FMIN_HZ:
        odd = level_db_at(segment, [f0_hz / 2, 1.5 * f0_hz, 2.5 * f0_hz][: 3 if steady else 2],
                          spread_cents)
        if (max(odd) if steady else min(odd)) < -ODD_PARTIAL_DB:
            break
        f0_hz /= 2
    return f0_hz


def band_centre_hz(
    audio: np.ndarray, start_s: float, end_s: float, rough_hz: float,
    rate_hz: float = 0.0, spread_cents: float = 30.0,
) -> list[float]:
    """Mean pitch of a steady, vibrato or gliding tone: the mean and the median (in cents) of the
    instantaneous frequency of the band ±``VIBRATO_BAND_SEMITONES`` around ``rough_hz``, over
    whole vibrato periods (``rate_hz``) or the middle 80 % of the window; an octave above the
    true pitch is ruled out by ``lowest_octave_hz``. (Short-frame YIN tracks drift sharp or
    jump harmonics on wide, fast vibrato, and a chorus smears spectral peaks. Both mean and
    median, as either can be biased: the spikes where a sample's own tremolo dips its
    amplitude drag the mean 40 cents sharp on FluidR3's cello; the oboe's skew the median.)"""
    segment = np.asarray(audio[max(0, round(start_s * SR)) : round(end_s * SR)], np.float64)
    low_hz = rough_hz * 2 ** (-VIBRATO_BAND_SEMITONES / 12)
    high_hz = min(rough_hz * 2 ** (VIBRATO_BAND_SEMITONES / 12), 0.45 * SR)
    if segment.size < 0.2 * SR or not low_hz < high_hz:
        return []
    sos = scipy.signal.butter(4, [low_hz, high_hz], "bandpass", fs=SR, output="sos")
    phase = np.unwrap(np.angle(scipy.signal.hilbert(scipy.signal.sosfiltfilt(sos, segment))))
    frequency_hz = np.diff(phase) * SR / (2 * np.pi)
    if rate_hz > 0:
        periods = max(1, int((segment.size / SR - 0.4) * rate_hz))
        length = min(frequency_hz.size, round(periods * SR / rate_hz))
    else:
        length = round(0.8 * frequency_hz.size)
    first = (frequency_hz.size - length) // 2
    window = np.clip(frequency_hz[first : first + length], low_hz / 2, high_hz * 2)
    octaves = np.log2(window / rough_hz)
    return [lowest_octave_hz(segment, float(rough_hz * 2**centre), spread_cents)
            for centre in (np.mean(octaves), np.median(octaves))]


def measure_moving_cents(
    audio: np.ndarray, start_s: float, end_s: float, expected_midi: float, tone: Tone | None
) -> float | None:
    """Cents of a tone's mean pitch from ``expected_midi``, by ``band_centre_hz`` around each
    of the two blind estimates (``estimate_f0_hz``, ``harmonic_sieve_f0_hz``); the closest
    counts. ``tone`` gives the vibrato (None: a glide window, or a steady tone's fallback)."""
    rate_hz = tone.vibrato_rate_hz if tone is not None else 0.0
    # How far partials smear: the vibrato's depth, or a glide window's movement (≤ ~1.2 st).
    spread_cents = 30.0 + (tone.vibrato_depth_cents if tone is not None else GLIDE_SPREAD_CENTS)
    found = []
    for rough_hz in (estimate_f0_hz(audio, SR, start_s, end_s),
                     harmonic_sieve_f0_hz(audio, start_s, end_s, spread_cents)):
        if rough_hz is not None:
            for centre_hz in band_centre_hz(audio, start_s, end_s, rough_hz, rate_hz,
                                            spread_cents):
                found.append(cents_off(centre_hz, expected_midi))
    return min(found, key=abs) if found else None


def harmonic_evidence_db(audio: np.ndarray, midi: int, start_s: float, end_s: float) -> float:
    """How far the note's first three harmonics stand above their surroundings, summed (dB).

    A breathy choir note in a half-second chord window can stand only 5-12 dB above its
    neighbourhood at each harmonic, under ``contains_pitches``' 12 dB at any single one,
    while all three together still show it plainly; an absent note shows ~0 at each.
    """
    segment = np.asarray(audio[max(0, round(start_s * SR)) : round(end_s * SR)], np.float64)
    trim = segment.size // 10
    segment = segment[trim : segment.size - trim]
    f0_hz = float(librosa.midi_to_hz(midi))
    harmonics_hz = [h * f0_hz for h in (1, 2, 3) if h * f0_hz < 0.47 * SR]
    peaks = level_db_at(segment, harmonics_hz)
    bins_hz, magnitude = magnitude_spectrum(segment, SR)
    level = 20 * np.log10(magnitude + 1e-12)
    level -= level.max()
    evidence = 0.0
    for freq_hz, peak_db in zip(harmonics_hz, peaks, strict=True):
        around = (bins_hz >= freq_hz * 2 ** (-2 / 12)) & (bins_hz <= freq_hz * 2 ** (2 / 12))
        if peak_db >= -30.0:
            evidence += max(0.0, peak_db - float(np.median(level[around])))
    return evidence
