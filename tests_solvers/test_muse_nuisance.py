"""No MUSE answer may be reachable from features that say nothing about what the task asks.

The audit of test_nuisance_shortcuts.py (``nuisance_features``: logistic regression and random
forest on clip duration, sounding time, sample count, file size, RMS, peak, crest factor and
spectral centroid; for two clips, second minus first) on every item of every MUSE task. The
two inherent links: instrument ID asks for timbre, which the spectral centroid, the level
features and the sounding time (a piano decays, a flute sustains) measure; and a 6/8 bar has
two beats where 3/4 has three, so fewer kick and snare hits over the same 24 eighths (sounding
time, RMS, crest factor and centroid follow). There the duration, sample count and file size
must stay at chance, and 2/4 against 3/4 (a beat every two eighths in both) on every feature.
``EARTEST_MUSE_LABELS=all`` audits every task (about 20 s), studio and live (one SoundFont,
room and codec drawn per item, so a draw that happened to follow the answers would show here);
by default two tasks, studio (``make test``):

    EARTEST_MUSE_LABELS=all python -m pytest tests_solvers/test_muse_nuisance.py -q
"""

from __future__ import annotations

import os

import numpy as np
import pytest

from fixtures.muse.catalog import TASK_NAMES, items_for
from fixtures.muse.live import performed
from fixtures.stimuli import wav_path
from fixtures.tasks.live import Rendition
from tests_solvers.nuisance_features import FEATURES, audit, evaluate, item_features

LINKED_FEATURES = ("sounding_s", "rms_db", "peak_db", "crest_db", "centroid_hz")


LIVE = Rendition("live", 0)


def dataset(task: str, rendition: str = "studio") -> tuple[np.ndarray, list[str]]:
    items = items_for(task) if rendition == "studio" else performed(task, None, LIVE)
    features = np.array([item_features([wav_path(clip) for clip in item.clips])
                         for item in items])
    return features, [item.answer for item in items]


DEFAULT_SAMPLE = ("muse_rhythm_match", "muse_sync_compare")
AUDITED = [t for t in TASK_NAMES if t not in ("muse_instrument", "muse_meter")]


EVERY = os.environ.get("EARTEST_MUSE_LABELS", "").lower() == "all"


def audited() -> list[tuple[str, str]]:
    if not EVERY:
        return [(task, "studio") for task in DEFAULT_SAMPLE]
    return [(task, rendition) for rendition in ("studio", "live") for task in AUDITED]


@pytest.mark.parametrize(("task", "rendition"), audited())
def test_no_nuisance_feature_predicts_a_muse_answer(task: str, rendition: str,
                                                    record_property) -> None:
    problems, line = audit(f"{task} ({rendition})", *dataset(task, rendition))
    record_property("nuisance_lines", [line])
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("rendition", ("studio", "live") if EVERY else ("studio",))
@pytest.mark.parametrize("task", ["muse_instrument", "muse_meter"])
def test_instrument_and_meter_answers_are_not_in_the_clip_length(task: str,
                                                                 rendition: str) -> None:
    features, labels = dataset(task, rendition)
    kept = [i for i, name in enumerate(FEATURES) if name not in LINKED_FEATURES]
    verdict = evaluate(features[:, kept], labels, [FEATURES[i] for i in kept])
    assert not verdict.beats_chance, verdict.describe()


def test_duple_and_triple_meter_are_alike_on_every_feature() -> None:
    features, labels = dataset("muse_meter")
    simple = [i for i, label in enumerate(labels) if label in ("A", "B")]
    problems, line = audit("muse_meter 2/4 vs 3/4", features[simple],
                           [labels[i] for i in simple])
    assert not problems, "\n".join(problems)
