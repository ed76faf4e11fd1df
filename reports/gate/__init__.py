"""A run's verdict: baselines, the regression gate, run health and exit status."""
