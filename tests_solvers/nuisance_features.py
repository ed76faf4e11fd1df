"""Shortcut audit: can a classifier that hears nothing of the task still find the answer?

Each item's served audio is reduced to features that say nothing about pitch, rhythm or
harmony (``FEATURES``: clip duration, sounding time, sample count, file size, RMS and peak
level, crest factor, spectral centroid; for an item of two clips, second minus first), and a
logistic regression and a random forest are trained on them with stratified 5-fold
cross-validation. A task fails when either beats chance (the majority-class rate) at
p < ``ALPHA`` in a one-sided binomial test, unless the link is an inherent, documented one in
``ALLOWED_LINKS``: then its features are left out, the rest must still be at chance, and the
result with every feature is shown beside it.

The class a classifier is asked for is the answer where the answer is a category (an option,
an integer), and the answer's LENGTH where it is a sequence (how many notes, moves or
timestamps a model has to write: what a clip's length could leak). Pitch-valued answers are
not audited: a spectral centroid legitimately carries pitch.
"""

from __future__ import annotations

import os
import warnings
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import scipy.stats
import soundfile

ALPHA = 0.01
FOLDS = 5
FEATURES = ("duration_s", "sounding_s", "samples", "file_bytes", "rms_db", "peak_db",
            "crest_db", "centroid_hz")
FRAME_S, HOP_S = 0.020, 0.010
SOUNDING_DB = -40.0  # a frame sounds when within 40 dB of the clip's loudest frame
MAX_CATEGORIES_SHARE = 0.2  # more distinct answers than this share of items: audit the length
_LEVEL = ("sounding_s", "rms_db", "crest_db")


@dataclass(frozen=True)
class Link:
    """An inherent link between the answer and some nuisance features, and why it is one."""

    features: tuple[str, ...]
    reason: str


_COUNT_REASON = ("{what} of PitchBench's tone durations sound for {what} x duration: the "
                 "sounding time (and a padded clip's mean level, so its crest factor) follows "
                 "the answer; the clip's length does not (padded per condition)")
ALLOWED_LINKS: dict[str, Link] = {
    "syncopation": Link(
        ("sounding_s", "rms_db", "peak_db", "crest_db", "centroid_hz"),
        "total kick+snare hits = level + on-beat hits grow with the level (README, Shortcuts); "
        "loudness and the kick/snare-to-hi-hat balance follow the hit count"),
    "pitch/d1": Link(_LEVEL, _COUNT_REASON.format(what="a count of tones")),
    "pitch/d3": Link(_LEVEL, _COUNT_REASON.format(what="the moves + 1 notes")
                     + " (the question states the note count anyway)"),
    "pitch/d5": Link(_LEVEL, _COUNT_REASON.format(what="the notes to rank")
                     + " (the question states the note count anyway)"),
    "pitch/d8": Link(_LEVEL, _COUNT_REASON.format(what="the notes to name")),
    "pitch/b5": Link(_LEVEL, _COUNT_REASON.format(what="the notes to time")
                     + " (in a fixed 60 s clip)"),
    "pitch/f2": Link(_LEVEL, "a chorale passage sounds throughout, so its sounding time is its "
                     "length, and a voice has more notes in a longer passage; the clip's length "
                     "does not tell it (padded to the longest passage)"),
}


def clip_features(path: Path) -> np.ndarray:
    """``FEATURES`` of one WAV file, in that order."""
    audio, rate_hz = soundfile.read(path, dtype="float64")
    if audio.ndim > 1:
        audio = audio.mean(axis=1)
    frame, hop = round(FRAME_S * rate_hz), round(HOP_S * rate_hz)
    padded = np.pad(audio, (0, max(0, frame - audio.size)))
    starts = np.arange(0, padded.size - frame + 1, hop)
    power = np.array([np.mean(padded[s : s + frame] ** 2) for s in starts])
    level_db = 10 * np.log10(power + 1e-20)
    sounding_s = float(np.sum(level_db >= level_db.max() + SOUNDING_DB) * HOP_S)
    rms = float(np.sqrt(np.mean(audio**2))) + 1e-12
    peak = float(np.max(np.abs(audio))) + 1e-12
    spectrum = np.abs(np.fft.rfft(audio)) ** 2
    freqs_hz = np.fft.rfftfreq(audio.size, 1.0 / rate_hz)
    centroid_hz = float(np.sum(freqs_hz * spectrum) / (np.sum(spectrum) + 1e-20))
    return np.array([audio.size / rate_hz, sounding_s, audio.size, os.path.getsize(path),
                     20 * np.log10(rms), 20 * np.log10(peak), 20 * np.log10(peak / rms),
                     centroid_hz])


def item_features(paths: Sequence[Path]) -> np.ndarray:
    """One clip: its features; two clips (a pair): second minus first."""
    rows = [clip_features(path) for path in paths]
    if len(rows) == 1:
        return rows[0]
    if len(rows) == 2:
        return rows[1] - rows[0]
    raise ValueError(f"{len(rows)} clips in one item: no nuisance features defined")


def pitch_target(answer_kind: str, truths: Sequence[tuple]) -> list[object] | None:
    """What a shortcut would have to predict for a pitch experiment (module doc); None when
    nothing is audited (pitch-valued answers). A contour is a category when there are few
    (D4's four glide shapes), a length otherwise (D3's moves); timestamps are audited for their
    count only (when a tone sounds is what B3-B5 ask, and sounding time measures it)."""
    if answer_kind == "pitch":
        return None
    categories = [repr(t) for t in truths]
    if answer_kind in ("choice", "integer") or (answer_kind == "contour" and len(
            set(categories)) <= MAX_CATEGORIES_SHARE * len(truths)):
        return categories
    divisor = 2 if answer_kind == "timestamps" else 1  # an onset and an offset per tone
    return [len(t) // divisor for t in truths]


@dataclass(frozen=True)
class Verdict:
    """Cross-validated accuracies and one-sided binomial p-values against the majority rate."""

    n: int
    classes: int
    chance: float
    accuracy: dict[str, float]  # classifier name -> CV accuracy
    p_value: dict[str, float]
    top_feature: tuple[str, float]  # the best single feature and its CV accuracy (LR)

    @property
    def beats_chance(self) -> bool:
        return min(self.p_value.values()) < ALPHA

    def describe(self) -> str:
        runs = ", ".join(f"{name} {100 * acc:.1f} % (p = {self.p_value[name]:.2g})"
                         for name, acc in self.accuracy.items())
        return (f"n {self.n}, {self.classes} classes, chance {100 * self.chance:.1f} %: {runs}; "
                f"top feature {self.top_feature[0]} {100 * self.top_feature[1]:.1f} %")


def _cv_accuracy(model, features: np.ndarray, labels: np.ndarray) -> float:
    from sklearn.model_selection import StratifiedKFold, cross_val_predict

    folds = StratifiedKFold(FOLDS, shuffle=True, random_state=0)
    with warnings.catch_warnings():  # classes smaller than the fold count; convergence
        warnings.simplefilter("ignore")
        predicted = cross_val_predict(model, features, labels, cv=folds)
    return float(np.mean(predicted == labels))


def _models() -> dict[str, object]:
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    return {
        "logistic regression": make_pipeline(StandardScaler(), LogisticRegression(max_iter=5000)),
        "random forest": RandomForestClassifier(n_estimators=100, random_state=0, n_jobs=1),
    }


def evaluate(features: np.ndarray, labels: Sequence[object],
             names: Sequence[str] = FEATURES) -> Verdict:
    """Both classifiers on ``features`` (items x ``names``) against ``labels``."""
    labels = np.asarray([str(label) for label in labels])
    n = labels.size
    counts = Counter(labels.tolist())
    chance = max(counts.values()) / n
    accuracy, p_value = {}, {}
    for name, model in _models().items():
        accuracy[name] = _cv_accuracy(model, features, labels)
        correct = round(accuracy[name] * n)
        p_value[name] = float(scipy.stats.binomtest(correct, n, chance, "greater").pvalue)
    alone = _models()["logistic regression"]
    singles = [(name, _cv_accuracy(alone, features[:, [i]], labels))
               for i, name in enumerate(names)]
    top = max(singles, key=lambda pair: pair[1])
    return Verdict(n, len(counts), chance, accuracy, p_value, top)


def audit(task: str, features: np.ndarray, labels: Sequence[object]) -> tuple[list[str], str]:
    """(problems, report line) of one task; an allowed link is reported, not failed, and the
    features outside it must still be at chance."""
    full = evaluate(features, labels)
    link = ALLOWED_LINKS.get(task)
    if link is None:
        line = f"{task}: {full.describe()}"
        return ([f"{line}: beats chance at p < {ALPHA}"] if full.beats_chance else []), line
    kept = [i for i, name in enumerate(FEATURES) if name not in link.features]
    rest = evaluate(features[:, kept], labels, [FEATURES[i] for i in kept])
    line = (f"{task}: ALLOWED LINK ({', '.join(link.features)}: {link.reason}); every feature: "
            f"{full.describe()}; without them: {rest.describe()}")
    return ([f"{line}: beats chance at p < {ALPHA} without the allowed features"]
            if rest.beats_chance else []), line
