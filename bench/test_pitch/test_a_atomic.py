"""Level A, atomic pitch: one tone, name its pitch (A1 clean, A2 loudness, A3 duration, A1 as
multiple choice to measure how much options inflate accuracy)."""


def test_a1(trial, backend, run_trial, record):
    result = run_trial(backend, trial)
    record(result)
    assert result.correct, result.explain()


def test_a2(trial, backend, run_trial, record):
    result = run_trial(backend, trial)
    record(result)
    assert result.correct, result.explain()


def test_a3(trial, backend, run_trial, record):
    result = run_trial(backend, trial)
    record(result)
    assert result.correct, result.explain()


def test_a1mcq(trial, backend, run_trial, record):
    result = run_trial(backend, trial)
    record(result)
    assert result.correct, result.explain()
