"""Multiple-choice datasets (MuChoMusic and WildScore layouts), run with ``--mcq-dataset``:
one question per test, in one condition (with or without its audio or score image) and one
repeat of shuffled options."""


def test_mcq(trial, backend, run_trial, record):
    result = run_trial(backend, trial)
    record(result)
    assert result.correct, result.explain()
