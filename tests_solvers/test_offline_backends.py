"""The offline reference backends: ``oracle`` is always right, ``chance`` follows the format
and lands on the chance level, deterministically per seed."""

from __future__ import annotations

import pytest

from fixtures.backends.base import (
    GenerationSettings,
)
from fixtures.backends.offline import ChanceBackend, OracleBackend
from fixtures.running.runner import Trial, TrialResult, run_trial_sync
from fixtures.tasks.catalog import TASK_NAMES, items_for
from fixtures.tasks.definitions import TASKS
from fixtures.tasks.prompting import (
    build_request,
    identifiers,
)
from tests_solvers.trial_helpers import (
    MODALITY,
    SETTINGS,
    SHOTS,
    STRATEGIES,
    _judge,
)

# --- Offline reference backends ------------------------------------------------------------------


@pytest.mark.parametrize("shot", SHOTS)
@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("task", TASK_NAMES)
def test_oracle_is_always_right(task: str, strategy: str, shot: str) -> None:
    backend = OracleBackend()
    for item in items_for(task, "test"):
        result = run_trial_sync(backend, Trial("oracle", MODALITY, shot, strategy, item), SETTINGS)
        assert result.correct, result.explain()
        assert result.parsed_answer == item.answer
        assert result.error_class is None
        assert result.repair_rounds == 0 and len(result.turns) == 1
        if strategy == "logiclm":
            assert result.transcription == item.transcription
            assert result.solver_verdict == item.answer


def _chance_results(task: str, strategy: str, seed: int, shot: str = "zero") -> list[TrialResult]:
    backend = ChanceBackend()
    settings_ = GenerationSettings(seed=seed)
    return [
        run_trial_sync(backend, Trial("chance", MODALITY, shot, strategy, item), settings_)
        for item in items_for(task, "test")
    ]


@pytest.mark.parametrize("shot", SHOTS)
@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("task", TASK_NAMES)
def test_chance_always_follows_the_format(task: str, strategy: str, shot: str) -> None:
    definition = TASKS[task]
    for result in _chance_results(task, strategy, seed=0, shot=shot):
        item = result.trial.item
        assert result.error_class is None, result.explain()
        assert result.repair_rounds == 0
        assert result.parsed_answer in definition.answers
        assert result.correct == (result.parsed_answer == item.answer)
        ids = identifiers(item, MODALITY)
        assert _judge(task, strategy, result.turns[0].text, ids) == result.parsed_answer
        if strategy == "logiclm":
            transcription = definition.parse(result.turns[0].text, ids)
            assert result.transcription == transcription
            assert result.solver_verdict == result.parsed_answer


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("task", TASK_NAMES)
def test_answer_key_replies_give_their_own_answers(task: str, strategy: str) -> None:
    for item in items_for(task, "test"):
        ids = identifiers(item, MODALITY)
        key = build_request(item, MODALITY, "zero", strategy, SETTINGS).answer_key
        assert key.correct == item.answer
        assert _judge(task, strategy, key.correct_reply, ids) == item.answer
        assert sorted(a for a, _ in key.replies) == sorted(TASKS[task].answers)
        for answer, text in key.replies:
            assert _judge(task, strategy, text, ids) == answer, text


def test_chance_is_deterministic_given_the_seed_and_changes_with_it() -> None:
    def answers(seed: int) -> list[str | None]:
        return [r.parsed_answer for r in _chance_results("chord", "logiclm", seed)]

    def texts(seed: int) -> list[str]:
        return [r.turns[0].text for r in _chance_results("chord", "logiclm", seed)]

    assert answers(0) == answers(0)
    assert texts(0) == texts(0)
    assert answers(0) != answers(1)
    assert texts(0) != texts(1)


def test_chance_accuracy_is_near_chance() -> None:
    results = [r for s in STRATEGIES for r in _chance_results("chord", s, seed=0)]
    accuracy = sum(r.correct for r in results) / len(results)
    # 132 trials at p = 0.25: standard deviation ~0.038
    assert 0.10 <= accuracy <= 0.42, accuracy
    assert len({r.parsed_answer for r in results}) == 4
