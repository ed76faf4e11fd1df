"""The further MUSE tasks (``--muse``): one trial per model × task × modality × shot ×
strategy × item."""


def test_muse(trial, backend, run_trial, record):
    result = run_trial(backend, trial)
    record(result)
    assert result.correct, result.explain()
