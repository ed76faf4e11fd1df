"""Level D, sequential pitch: count tones (D1), higher or lower (D2), contour (D3, D4), rank
(D5), signed interval (D6), a pitch named against a spoken reference (D7a in one clip, D7b in
two), and a whole sequence (D8)."""

import pytest


def test_d1(trial, backend, run_trial, record):
    result = run_trial(backend, trial)
    record(result)
    assert result.correct, result.explain()


def test_d2(trial, backend, run_trial, record):
    result = run_trial(backend, trial)
    record(result)
    assert result.correct, result.explain()


def test_d3(trial, backend, run_trial, record):
    result = run_trial(backend, trial)
    record(result)
    assert result.correct, result.explain()


def test_d4(trial, backend, run_trial, record):
    result = run_trial(backend, trial)
    record(result)
    assert result.correct, result.explain()


def test_d5(trial, backend, run_trial, record):
    result = run_trial(backend, trial)
    record(result)
    assert result.correct, result.explain()


def test_d6(trial, backend, run_trial, record):
    result = run_trial(backend, trial)
    record(result)
    assert result.correct, result.explain()


def test_d7a(trial, backend, run_trial, record):
    result = run_trial(backend, trial)
    record(result)
    assert result.correct, result.explain()


def test_d7b(trial, backend, run_trial, record):
    if backend.max_audio_parts is not None and backend.max_audio_parts < len(trial.item.scenes):
        pytest.skip(f"{backend.model_id} takes {backend.max_audio_parts} audio part(s) per "
                    f"prompt; D7b sends {len(trial.item.scenes)} (D7a asks the same in one)")
    result = run_trial(backend, trial)
    record(result)
    assert result.correct, result.explain()


def test_d8(trial, backend, run_trial, record):
    result = run_trial(backend, trial)
    record(result)
    assert result.correct, result.explain()
