"""Building a run's report: every artefact, its sections, comparing runs."""
