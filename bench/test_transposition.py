"""transposition trials: every model × modality × shot × strategy × item of the transposition task."""

TASK = "transposition"


def test_transposition(trial, backend, run_trial, record):
    result = run_trial(backend, trial)
    record(result)
    assert result.correct, result.explain()
