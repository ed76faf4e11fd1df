"""No trial of any family raises out of the runner when the listener is given audio it cannot
hear (silence, noise, a 50 ms clip, a minute of noise), in every family (core, MUSE,
pitch, MUSE as published, MCQ): every such trial ends in a reply, a decline with its reason
(issue 29: ``CannotHear`` once escaped the runner on a melody)."""

from __future__ import annotations

import dataclasses
import functools
from pathlib import Path

import numpy as np
import pytest
import soundfile

from fixtures.backends.base import BackendWrapper, GenerationSettings, MediaPart, Request, Response
from fixtures.backends.listener import ListenerBackend
from fixtures.running.runner import Trial, run_trial_sync

SETTINGS = GenerationSettings()
SAMPLE_RATE_HZ = 22_050
CLIPS_S = {"silence": 2.0, "noise": 2.0, "50ms": 0.05, "60s": 60.0}


@pytest.fixture(autouse=True)
def private_cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("EARTEST_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


@functools.cache
def _listener() -> ListenerBackend:
    return ListenerBackend()


def _clip(directory: Path, kind: str) -> Path:
    samples = round(CLIPS_S[kind] * SAMPLE_RATE_HZ)
    audio = np.zeros(samples, np.float32)
    if kind != "silence":
        audio = (0.3 * np.random.default_rng(29).standard_normal(samples)).astype(np.float32)
    path = directory / f"{kind}.wav"
    soundfile.write(path, audio, SAMPLE_RATE_HZ)
    return path


class _Swapped(BackendWrapper):
    """The listener, given ``clip`` in place of every recording of the final turn."""

    def __init__(self, inner, clip: Path) -> None:
        super().__init__(inner)
        self.clip = clip

    async def generate(self, request: Request) -> Response:
        turns = list(request.turns)
        parts = tuple(dataclasses.replace(part, path=self.clip)
                      if isinstance(part, MediaPart) and part.kind == "audio" else part
                      for part in turns[-1].parts)
        turns[-1] = dataclasses.replace(turns[-1], parts=parts)
        return await self.inner.generate(dataclasses.replace(request, turns=tuple(turns)))


def _trials(directory: Path) -> list:
    """One trial per task and family: core, MUSE, pitch, MUSE as published (a replica of its
    folder) and MCQ (the synthetic MuChoMusic set, audio condition)."""
    from fixtures.mcq.loading import load_dataset
    from fixtures.mcq.synthetic import make_synthetic
    from fixtures.mcq.trial import McqTrial
    from fixtures.muse.catalog import items_for as muse_items
    from fixtures.muse.registry import TASKS as MUSE_TASKS
    from fixtures.muse.trial import MuseTrial
    from fixtures.pitch.catalog import EXPERIMENTS, pitch_items
    from fixtures.pitch.questions import notations_for
    from fixtures.pitch.trial import PitchTrial
    from fixtures.published_muse.protocol import Coverage, items, stimuli_root, tasks
    from fixtures.published_muse.trial import PublishedMuseTrial
    from fixtures.tasks.catalog import items_for
    from tests_solvers.muse_replica import write_replica

    trials: list = []
    for task in ("syncopation", "transposition", "chord"):
        for strategy in ("standalone", "logiclm"):
            trials.append(Trial("listener", "audio", "zero", strategy, items_for(task, "test")[0]))
    for task in MUSE_TASKS:
        for strategy in ("standalone", "logiclm"):
            trials.append(MuseTrial("listener", "audio", "zero", strategy,
                                    muse_items(task, "test")[0]))
    for experiment in EXPERIMENTS:  # adaptive experiments have no fixed items
        trials += [PitchTrial("listener", notations_for(item)[0], item)
                   for item in pitch_items(experiment, sample=1)[:1]]
    coverage = Coverage(stimuli_root(str(write_replica(directory / "MUSE"))))
    trials += [PublishedMuseTrial("listener", "zero", "standalone", items(task)[0], coverage)
               for task in tasks()]
    muchomusic = load_dataset(make_synthetic(directory / "mcq")[0]).items[0]
    trials.append(McqTrial("listener", "audio", 0, 0, muchomusic))
    return trials


@pytest.mark.parametrize("kind", sorted(CLIPS_S))
def test_no_trial_raises_on_audio_it_cannot_hear(tmp_path, kind: str) -> None:
    backend = _Swapped(_listener(), _clip(tmp_path, kind))
    for trial in _trials(tmp_path):
        result = run_trial_sync(backend, trial, SETTINGS)  # raises if the listener does
        assert result.turns and result.turns[0].error is None, (kind, trial, result.turns)
        assert result.turns[0].text.strip(), (kind, trial)
