"""Level B, temporal localization: find a tone in time, or the time of a tone (B1 hidden tone,
B2 pitch at a timestamp, B3 onset/offset, B4 named note among distractors, B5 all notes)."""


def test_b1(trial, backend, run_trial, record):
    result = run_trial(backend, trial)
    record(result)
    assert result.correct, result.explain()


def test_b2(trial, backend, run_trial, record):
    result = run_trial(backend, trial)
    record(result)
    assert result.correct, result.explain()


def test_b3(trial, backend, run_trial, record):
    result = run_trial(backend, trial)
    record(result)
    assert result.correct, result.explain()


def test_b4(trial, backend, run_trial, record):
    result = run_trial(backend, trial)
    record(result)
    assert result.correct, result.explain()


def test_b5(trial, backend, run_trial, record):
    result = run_trial(backend, trial)
    record(result)
    assert result.correct, result.explain()
