"""Root conftest: registers the eartest plugins for the benchmark and the project's tests."""

pytest_plugins = ["reports.plugin", "reports.baseline", "fixtures.plugin"]
