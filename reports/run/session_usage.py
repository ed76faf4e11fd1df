"""The end-of-run account of requests: what this session sent to servers, nothing else.

A resume's earlier records were counted by the session that made them, and the offline models
(oracle, chance, the built-in listener) ask no server, so neither is counted here: the figure
printed is the number of requests the server received.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    import pandas as pd


def offline_models(config: pytest.Config) -> set[str]:
    """The run's models that ask no server (``pytest_eartest_offline_models``)."""
    return {name for names in config.hook.pytest_eartest_offline_models(config=config)
            for name in names}


def session_usage_lines(config: pytest.Config, df: pd.DataFrame, earlier: list[str]) -> list[str]:
    """One line per network model: this session's new requests and their cost, replays apart."""
    from reports.builders.artifacts import usage_by_model
    from reports.tables.terminal import usage_lines

    asked = df[~df["test_id"].isin(set(earlier))] if earlier else df
    asked = asked[~asked["model"].isin(offline_models(config))]
    return usage_lines(usage_by_model(asked))
