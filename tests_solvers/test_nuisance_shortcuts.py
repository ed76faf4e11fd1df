"""No answer may be reachable from features that say nothing about what the task asks.

For every core task and every pitch experiment (``nuisance_features``): a logistic regression
and a random forest on clip duration, sounding time, sample count, file size, RMS, peak, crest
factor and spectral centroid must stay at chance (p >= 0.01), except for the documented,
inherent links of ``ALLOWED_LINKS``, which are printed with their figures at the end of the
run. ``EARTEST_NUISANCE_SAMPLE`` picks the tasks: a few by default (``make test``), ``all``
for every core task and pitch experiment (``make labels``):

    EARTEST_NUISANCE_SAMPLE=all python -m pytest tests_solvers/test_nuisance_shortcuts.py -n 2 -q
"""

from __future__ import annotations

import dataclasses
import os

import numpy as np
import pytest

from fixtures.pitch.catalog import EXPERIMENTS, pitch_items
from fixtures.pitch.render import scene_wav_path
from fixtures.stimuli import wav_path
from fixtures.tasks import chord
from fixtures.tasks.catalog import TASK_NAMES, items_for
from fixtures.tasks.spec import Item
from solvers.logic import CHORD_INTERVALS
from tests_solvers.nuisance_features import (
    ALLOWED_LINKS,
    FEATURES,
    audit,
    evaluate,
    item_features,
    pitch_target,
)

ALL_TASKS = (*TASK_NAMES, *(f"pitch/{experiment}" for experiment in EXPERIMENTS))
DEFAULT_SAMPLE = ("chord", "syncopation", "transposition", "pitch/d1")


def nuisance_tasks() -> tuple[str, ...]:
    """``EARTEST_NUISANCE_SAMPLE``: ``all``, or comma-separated task names (default: a few)."""
    value = os.environ.get("EARTEST_NUISANCE_SAMPLE", "").strip().lower()
    if value == "all":
        return ALL_TASKS
    return tuple(v.strip() for v in value.split(",") if v.strip()) or DEFAULT_SAMPLE


def core_dataset(items: tuple[Item, ...]) -> tuple[np.ndarray, list[object]]:
    features = np.array([item_features([wav_path(clip) for clip in entry.clips])
                         for entry in items])
    return features, [entry.answer for entry in items]


def dataset(task: str) -> tuple[np.ndarray, list[object]] | None:
    """(features, classes) of every item of a task, None when it is not audited."""
    if task in TASK_NAMES:
        return core_dataset(items_for(task))
    items = pitch_items(task.removeprefix("pitch/"))
    (kind,) = {entry.answer_kind for entry in items}
    labels = pitch_target(kind, [entry.truth for entry in items])
    if labels is None or len(set(labels)) < 2:
        return None
    features = np.array([item_features([scene_wav_path(scene) for scene in entry.scenes])
                         for entry in items])
    return features, labels


@pytest.mark.parametrize("task", nuisance_tasks())
def test_no_nuisance_feature_predicts_the_answer(task: str, record_property) -> None:
    if task not in ALL_TASKS:
        raise pytest.UsageError(f"EARTEST_NUISANCE_SAMPLE: unknown task {task!r}; expected "
                                f"all or some of {', '.join(ALL_TASKS)}")
    data = dataset(task)
    if data is None:
        record_property("nuisance_lines", [f"{task}: not audited (pitch-valued or constant "
                                           "answer; a centroid carries pitch legitimately)"])
        return
    problems, line = audit(task, *data)
    record_property("nuisance_lines", [line])
    assert not problems, "\n".join(problems)


# --- the audit can fail -----------------------------------------------------------------


def three_note_triads() -> tuple[Item, ...]:
    """The chord items as they were before every chord got four notes: triads of three."""
    items = []
    for entry in items_for("chord"):
        quality = entry.params_dict()["quality"]
        root = chord.ROOT_MIDI[entry.params_dict()["root"]]
        pitches = tuple(root + i for i in CHORD_INTERVALS[quality])
        items.append(dataclasses.replace(entry, clips=(chord._clip(pitches),)))
    return tuple(items)


def test_the_old_three_note_triads_are_caught() -> None:
    """With three-note triads a dominant 7th's arpeggio was a note longer: caught."""
    problems, line = audit("chord (three-note triads)", *core_dataset(three_note_triads()))
    assert problems and "beats chance" in problems[0], line


def test_an_allowed_link_still_fails_on_the_other_features() -> None:
    labels = [i % 4 for i in range(40)]
    features = np.zeros((40, len(FEATURES)))
    features[:, FEATURES.index("sounding_s")] = labels  # inside d1's allowed link: reported
    problems, line = audit("pitch/d1", features, labels)
    assert not problems and "ALLOWED LINK" in line
    features[:, FEATURES.index("duration_s")] = labels  # outside it: a shortcut
    problems, _ = audit("pitch/d1", features, labels)
    assert problems and "without the allowed features" in problems[0]


def test_noise_features_stay_at_chance() -> None:
    rng = np.random.default_rng(1)
    verdict = evaluate(rng.normal(size=(60, len(FEATURES))), [i % 3 for i in range(60)])
    assert not verdict.beats_chance, verdict.describe()


def test_targets_follow_the_answer_kind() -> None:
    assert pitch_target("pitch", [(60,), (61,)]) is None
    assert pitch_target("integer", [(3,), (4,), (3,)]) == ["(3,)", "(4,)", "(3,)"]
    many = [tuple(range(n)) for n in (2, 3, 4, 5, 6)]
    assert pitch_target("pitch_sequence", many) == [2, 3, 4, 5, 6]
    assert pitch_target("contour", [("up",), ("down",)] * 5) == ["('up',)", "('down',)"] * 5
    assert pitch_target("timestamps", [(0.1, 0.5), (0.2, 0.4, 1.0, 1.5)]) == [1, 2]


def test_every_allowed_link_names_real_features_and_tasks() -> None:
    for task, link in ALLOWED_LINKS.items():
        assert task in ALL_TASKS
        assert link.features and set(link.features) <= set(FEATURES) and link.reason
