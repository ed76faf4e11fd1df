"""The syncopation task: one trial per model × modality × shot × strategy × item."""


def test_syncopation(trial, backend, run_trial, record):
    result = run_trial(backend, trial)
    record(result)
    assert result.correct, result.explain()
