"""chord trials: every model × modality × shot × strategy × item of the chord task."""

TASK = "chord"


def test_chord(trial, backend, run_trial, record):
    result = run_trial(backend, trial)
    record(result)
    assert result.correct, result.explain()
