"""MUSE as published (``--muse-recordings DIR``): the paper's ten tasks on its own recordings,
one question per test, in one prompting variant and shot setting."""


def test_musepub(trial, backend, run_trial, record):
    result = run_trial(backend, trial)
    record(result)
    assert result.correct, result.explain()
