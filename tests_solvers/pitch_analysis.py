"""Independent listening for pitch stimuli: what pitch sounds, which notes are present, when.

Label checks use these functions to compare rendered audio with its label, so they must not
share code or assumptions with the synthesis (``fixtures.pitch``): only librosa, scipy and
numpy, and the equal-tempered MIDI↔Hz conversion from librosa.

Pitch of a steady tone comes from the spectrum: the largest f0 whose harmonics explain the
significant spectral peaks (a weak fundamental or a dominant second harmonic cannot fool it
into an octave error, which YIN makes on FluidR3's organ and trumpet), refined by a least-
squares fit to its low harmonics. A moving pitch (glide, vibrato) smears the spectrum, so
there the trimmed mean of a short-frame YIN track is used (a vibrato's mean is its centre).
"""

from __future__ import annotations

import librosa
import numpy as np
import scipy.signal
import scipy.stats

FMIN_HZ = 30.0
FMAX_HZ = 2200.0
PEAK_FLOOR_DB = 30.0  # spectral peaks this far below the strongest are ignored
EXPLAINED_SHARE = 0.85  # share of peak weight a candidate f0 must explain
STEADY_IQR_CENTS = 25.0  # a YIN track spreading less than this is a steady tone
ENVELOPE_FRAME_S = 0.020
ENVELOPE_HOP_S = 0.005


def _segment(audio: np.ndarray, sample_rate_hz: int, start_s: float, end_s: float) -> np.ndarray:
    first = max(0, round(start_s * sample_rate_hz))
    return np.asarray(audio[first : round(end_s * sample_rate_hz)], dtype=np.float64)


def _frame_rms_db(audio: np.ndarray, sample_rate_hz: int) -> np.ndarray:
    frame = max(1, round(ENVELOPE_FRAME_S * sample_rate_hz))
    hop = max(1, round(ENVELOPE_HOP_S * sample_rate_hz))
    if audio.size < frame:
        audio = np.pad(audio, (0, frame - audio.size))
    rms = librosa.feature.rms(y=audio, frame_length=frame, hop_length=hop, center=False)[0]
    return 20 * np.log10(np.maximum(rms, 1e-12))


def voiced_middle(audio: np.ndarray, sample_rate_hz: int, trim_share: float = 0.2) -> np.ndarray:
    """The part of ``audio`` within 20 dB of its loudest frame, minus ``trim_share`` of it at
    each end (attack and release carry no stable pitch)."""
    level_db = _frame_rms_db(audio, sample_rate_hz)
    loud = np.flatnonzero(level_db >= level_db.max() - 20.0)
    hop = round(ENVELOPE_HOP_S * sample_rate_hz)
    first = loud[0] * hop
    last = min(audio.size, loud[-1] * hop + round(ENVELOPE_FRAME_S * sample_rate_hz))
    trim = round((last - first) * trim_share)
    return audio[first + trim : last - trim]


def magnitude_spectrum(audio: np.ndarray, sample_rate_hz: int) -> tuple[np.ndarray, np.ndarray]:
    """(bin frequencies in Hz, magnitudes) of ``audio`` under a Hann window, zero-padded to at
    least 2^16 points (bins under 0.25 Hz at 16 kHz: fine enough to read cents off a peak)."""
    n_fft = max(1 << 16, 1 << int(np.ceil(np.log2(audio.size))))
    magnitude = np.abs(np.fft.rfft(audio * np.hanning(audio.size), n_fft))
    return np.fft.rfftfreq(n_fft, 1.0 / sample_rate_hz), magnitude


def _spectrum_db(audio: np.ndarray, sample_rate_hz: int) -> tuple[np.ndarray, np.ndarray]:
    freqs_hz, magnitude = magnitude_spectrum(audio, sample_rate_hz)
    return freqs_hz, 20 * np.log10(np.maximum(magnitude, 1e-12))


def _spectral_peaks(audio: np.ndarray, sample_rate_hz: int) -> tuple[np.ndarray, np.ndarray]:
    """(frequencies, weights) of significant peaks; weight = dB above the floor, over it."""
    freqs_hz, level_db = _spectrum_db(audio, sample_rate_hz)
    usable = (freqs_hz >= FMIN_HZ) & (freqs_hz <= 0.47 * sample_rate_hz)
    floor_db = level_db[usable].max() - PEAK_FLOOR_DB
    indices, _ = scipy.signal.find_peaks(np.where(usable, level_db, -np.inf), height=floor_db)
    left, centre, right = level_db[indices - 1], level_db[indices], level_db[indices + 1]
    curvature = np.minimum(left - 2 * centre + right, -1e-12)
    shift = 0.5 * (left - right) / curvature
    bin_hz = freqs_hz[1]
    return (indices + shift) * bin_hz, (centre - floor_db) / PEAK_FLOOR_DB


def _harmonic_numbers(peaks_hz: np.ndarray, f0_hz: float) -> np.ndarray:
    """Harmonic number of each peak under ``f0_hz``, 0 where a peak is no harmonic of it."""
    numbers = np.maximum(np.round(peaks_hz / f0_hz), 1)
    tolerance_hz = np.minimum(0.03 * peaks_hz, 0.15 * f0_hz)
    return np.where(np.abs(peaks_hz - numbers * f0_hz) <= tolerance_hz, numbers, 0)


def spectral_f0_hz(audio: np.ndarray, sample_rate_hz: int) -> float | None:
    """f0 of a steady harmonic sound from its spectral peaks (None: no peaks)."""
    peaks_hz, weights = _spectral_peaks(audio, sample_rate_hz)
    if peaks_hz.size == 0:
        return None
    strongest = peaks_hz[np.argsort(weights)[::-1][:8]]
    candidates = sorted(
        {p / n for p in strongest for n in range(1, 9) if FMIN_HZ <= p / n <= FMAX_HZ}
    )
    explained = [
        weights[_harmonic_numbers(peaks_hz, c) > 0].sum() / weights.sum() for c in candidates
    ]
    best = max(explained)
    threshold = min(EXPLAINED_SHARE, best - 0.05)
    coarse = max(c for c, share in zip(candidates, explained, strict=True) if share >= threshold)
    numbers = _harmonic_numbers(peaks_hz, coarse)
    low = (numbers > 0) & (numbers <= 6)  # low harmonics: piano stretch stays small
    if not low.any():
        return coarse
    w, k, p = weights[low], numbers[low], peaks_hz[low]
    return float(np.sum(w * k * p) / np.sum(w * k * k))  # least squares p ≈ k·f0


def estimate_f0_hz(
    audio: np.ndarray, sample_rate_hz: int, start_s: float, end_s: float
) -> float | None:
    """The sounding fundamental of the tone between ``start_s`` and ``end_s`` (None: silent).

    A YIN track over the voiced middle decides whether the pitch is steady (octave jumps, a
    YIN failure, do not count as movement). Steady: the spectral estimate (octave-robust,
    precise). Moving (glide, vibrato): the trimmed mean of a short-frame track, octave-folded.
    """
    segment = _segment(audio, sample_rate_hz, start_s, end_s)
    if segment.size == 0 or not np.any(segment):
        return None
    middle = voiced_middle(segment, sample_rate_hz)
    if middle.size < 0.03 * sample_rate_hz:
        middle = segment
    frame = 2048
    if middle.size < frame:
        return spectral_f0_hz(middle, sample_rate_hz)
    fmax = min(FMAX_HZ, sample_rate_hz / 4)
    track = librosa.yin(middle, fmin=FMIN_HZ, fmax=fmax, sr=sample_rate_hz, frame_length=frame)
    reference_hz = float(np.median(track))
    cents = 1200 * np.log2(track / reference_hz)
    octaves = np.round(cents / 1200)
    folded = cents - 1200 * octaves
    if np.subtract(*np.percentile(folded, [75, 25])) < STEADY_IQR_CENTS:
        return spectral_f0_hz(middle[: 2 * sample_rate_hz], sample_rate_hz)
    values, counts = np.unique(octaves, return_counts=True)
    reference_hz *= 2.0 ** values[np.argmax(counts)]
    # Short frames follow fast vibrato (long ones bias it); the mean of a vibrato or a linear
    # glide is its centre (the median is not: a sine vibrato dwells at its extremes).
    fmin = max(FMIN_HZ, reference_hz / 2)
    frame = max(512, 1 << int(np.ceil(np.log2(2.5 * sample_rate_hz / fmin))))
    fmax = min(reference_hz * 2, sample_rate_hz / 4)
    track = librosa.yin(middle, fmin=fmin, fmax=fmax, sr=sample_rate_hz, frame_length=frame)
    cents = 1200 * np.log2(track / reference_hz)
    folded = cents - 1200 * np.round(cents / 1200)
    return reference_hz * 2 ** (scipy.stats.trim_mean(folded, 0.1) / 1200)


def contains_pitches(
    audio: np.ndarray,
    sample_rate_hz: int,
    midi_notes: list[int] | tuple[int, ...],
    start_s: float,
    end_s: float,
) -> dict[int, bool]:
    """For each note, whether its fundamental (or, if that is weak, its 2nd or 3rd harmonic)
    is a spectral peak within 30 dB of the strongest and 12 dB above its neighbourhood."""
    segment = _segment(audio, sample_rate_hz, start_s, end_s)
    trim = segment.size // 10
    freqs_hz, level_db = _spectrum_db(segment[trim : segment.size - trim], sample_rate_hz)
    top_db = level_db[freqs_hz >= FMIN_HZ].max()
    present = {}
    for note in midi_notes:
        f0_hz = float(librosa.midi_to_hz(note))
        found = False
        for harmonic in (1, 2, 3):
            freq_hz = harmonic * f0_hz
            if freq_hz > 0.47 * sample_rate_hz:
                break
            near = (freqs_hz >= freq_hz * 2 ** (-0.3 / 12)) & (
                freqs_hz <= freq_hz * 2 ** (0.3 / 12)
            )
            around = (freqs_hz >= freq_hz * 2 ** (-2 / 12)) & (freqs_hz <= freq_hz * 2 ** (2 / 12))
            peak_db = level_db[near].max()
            if peak_db >= top_db - PEAK_FLOOR_DB and peak_db >= np.median(level_db[around]) + 12:
                found = True
                break
        present[int(note)] = found
    return present


def sounding_intervals(
    audio: np.ndarray,
    sample_rate_hz: int,
    threshold_db: float = -40.0,
    min_gap_s: float = 0.1,
    min_length_s: float = 0.03,
) -> list[tuple[float, float]]:
    """(start_s, end_s) of every stretch louder than ``threshold_db`` below the loudest frame
    (20 ms RMS frames, 5 ms hop); gaps shorter than ``min_gap_s`` are bridged."""
    audio = np.asarray(audio, dtype=np.float64)
    if audio.size == 0 or not np.any(audio):
        return []
    level_db = _frame_rms_db(audio, sample_rate_hz)
    active = np.concatenate(([False], level_db > level_db.max() + threshold_db, [False]))
    edges = np.flatnonzero(np.diff(active.astype(np.int8)))
    centre_s = ENVELOPE_FRAME_S / 2  # a frame's time is its centre
    runs = [
        [start * ENVELOPE_HOP_S + centre_s, end * ENVELOPE_HOP_S + centre_s]
        for start, end in zip(edges[::2], edges[1::2] - 1, strict=True)
    ]
    merged: list[list[float]] = []
    for run in runs:
        if merged and run[0] - merged[-1][1] < min_gap_s:
            merged[-1][1] = run[1]
        else:
            merged.append(run)
    return [(start, end) for start, end in merged if end - start >= min_length_s]
