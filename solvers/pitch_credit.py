"""Partial credit for pitch answers, reported beside the exact score (which stays the headline).

Exact scoring says whether an answer is right; these figures say how near a wrong one came, the
way pitch-perception studies report it. Every function is pure and takes the answer as read
(MIDI notes, frequencies, tokens, seconds) and the truth; None means "not defined for this
answer" (no answer read, or a metric that does not apply to the kind or notation).

* ``pitch_class_correct`` / ``octave_correct`` / ``within_1_semitone`` — one pitch (kind
  ``pitch``): share 0 or 1; for ``pitch_sequence`` the share of positions (over the truth's
  length, positions compared in order). The octave is ``midi // 12``; octave-free notations
  (solfège) give only the pitch class.
* ``cents_error_abs`` — Hz answers to a one-pitch question: |1200·log2(f / f_true)|.
* ``hz_within_1pct`` — the ±1 % rule for Hz answers: |f − f_true| ≤ 1 % of f_true, 0 or 1.
* ``kendall_tau`` — ranks: Kendall's τ-b between the answered and the true order
  (``scipy.stats.kendalltau``), in [−1, 1].
* ``step_accuracy`` — contours: right steps over the truth's steps, compared position by
  position (extra or missing steps count as wrong).
* ``timing_iou`` — timestamps (onset, offset pairs): mean over true notes of the intersection
  over union of the answered and true intervals, notes paired in order; a missing note is 0.
* ``hits_100ms`` / ``hits_250ms`` / ``hits_500ms`` — share of true times answered within
  0.1 / 0.25 / 0.5 s, times paired in order.
* ``off_by_one`` — integers: |answer − truth| ≤ 1.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

HIT_WINDOWS_S = {"hits_100ms": 0.1, "hits_250ms": 0.25, "hits_500ms": 0.5}
CREDIT_FIELDS = (
    "pitch_class_correct", "octave_correct", "within_1_semitone", "cents_error_abs",
    "hz_within_1pct", "kendall_tau", "step_accuracy", "timing_iou", *HIT_WINDOWS_S,
    "off_by_one",
)  # fmt: skip
_SLACK = 1e-9


def _share(hits: int, total: int) -> float | None:
    return hits / total if total else None


def pitch_credit(
    truth: Sequence[int], answer: Sequence[int], octave_free: bool,
    freqs_hz: Sequence[float] = (),
) -> dict[str, float | None]:
    """Per-position pitch credit of ``answer`` (MIDI notes, or classes if octave-free)."""
    pairs = list(zip(truth, answer, strict=False))
    total = len(truth)
    credit: dict[str, float | None] = {
        "pitch_class_correct": _share(sum(t % 12 == a % 12 for t, a in pairs), total),
    }
    if not octave_free:
        credit["octave_correct"] = _share(sum(t // 12 == a // 12 for t, a in pairs), total)
        credit["within_1_semitone"] = _share(sum(abs(t - a) <= 1 for t, a in pairs), total)
    if freqs_hz and len(truth) == 1:
        true_hz = 440.0 * 2.0 ** ((truth[0] - 69) / 12.0)
        credit["cents_error_abs"] = abs(1200.0 * math.log2(freqs_hz[0] / true_hz))
        credit["hz_within_1pct"] = float(abs(freqs_hz[0] - true_hz) <= 0.01 * true_hz + _SLACK)
    return credit


def rank_credit(truth: Sequence[int], answer: Sequence[int]) -> dict[str, float | None]:
    """Kendall's τ-b of two orderings of the same positions (None if lengths differ)."""
    if len(truth) != len(answer) or len(truth) < 2:
        return {"kendall_tau": None}
    from scipy.stats import kendalltau  # here: scipy.stats costs ~1 s at every pytest start

    tau = kendalltau(list(truth), list(answer)).statistic
    return {"kendall_tau": None if math.isnan(tau) else float(tau)}


def contour_credit(truth: Sequence[str], answer: Sequence[str]) -> dict[str, float | None]:
    """Steps right, position by position, over the truth's number of steps."""
    right = sum(t == a for t, a in zip(truth, answer, strict=False))
    return {"step_accuracy": _share(right, len(truth))}


def _iou(a: tuple[float, float], b: tuple[float, float]) -> float:
    overlap = max(0.0, min(a[1], b[1]) - max(a[0], b[0]))
    union = max(a[1], b[1]) - min(a[0], b[0])
    return overlap / union if union > 0 else float(a == b)


def timing_credit(truth: Sequence[float], answer: Sequence[float]) -> dict[str, float | None]:
    """Interval IoU of (onset, offset) pairs and hit rates within 100/250/500 ms."""
    pairs = list(zip(truth, answer, strict=False))
    credit: dict[str, float | None] = {
        name: _share(sum(abs(t - a) <= window + _SLACK for t, a in pairs), len(truth))
        for name, window in HIT_WINDOWS_S.items()
    }
    true_notes = [(truth[i], truth[i + 1]) for i in range(0, len(truth) - 1, 2)]
    answered = [(answer[i], answer[i + 1]) for i in range(0, len(answer) - 1, 2)]
    if true_notes:
        ious = [_iou(t, a) if a[1] >= a[0] else 0.0
                for t, a in zip(true_notes, answered, strict=False)]
        credit["timing_iou"] = sum(ious) / len(true_notes)
    return credit


def integer_credit(truth: int, answer: int) -> dict[str, float | None]:
    return {"off_by_one": float(abs(truth - answer) <= 1)}
