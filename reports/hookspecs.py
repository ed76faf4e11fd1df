"""Hooks through which other plugins hand facts forward to the reports."""

import pytest


@pytest.hookspec
def pytest_eartest_run_header(config: pytest.Config) -> dict:
    """Return entries for the run header (``summary.json``); results are merged in order."""
