"""The report's figures: the paper's, per-factor and hearing-profile figures."""
