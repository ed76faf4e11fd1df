"""Hooks through which other plugins hand facts forward to the reports."""

import pytest


@pytest.hookspec
def pytest_eartest_run_header(config: pytest.Config) -> dict:
    """Return entries for the run header (``summary.json``); results are merged in order."""


@pytest.hookspec
def pytest_eartest_run_identity(config: pytest.Config) -> dict:
    """Return parts of the run's identity (``reports.run.identity``) only a plugin knows, such as
    ``{"models": {name: {...endpoint...}}}``; results are merged in order."""


@pytest.hookspec
def pytest_eartest_offline_models(config: pytest.Config) -> list[str]:
    """Return the run's models that answer without asking a server (left out of the account
    of requests sent); results are joined."""
