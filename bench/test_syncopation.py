"""syncopation trials: every model × modality × shot × strategy × item of the syncopation task."""

TASK = "syncopation"


def test_syncopation(trial, backend, run_trial, record):
    result = run_trial(backend, trial)
    record(result)
    assert result.correct, result.explain()
