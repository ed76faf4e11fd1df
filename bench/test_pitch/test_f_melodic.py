"""Level F, melodic lines in polyphony: transcribe one voice of synthetic polyphony (F1) or
of a Bach chorale (F2)."""


def test_f1(trial, backend, run_trial, record):
    result = run_trial(backend, trial)
    record(result)
    assert result.correct, result.explain()


def test_f2(trial, backend, run_trial, record):
    result = run_trial(backend, trial)
    record(result)
    assert result.correct, result.explain()
