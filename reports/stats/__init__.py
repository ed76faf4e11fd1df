"""Inferential statistics: GLMMs, sampled runs, psychometric thresholds."""
