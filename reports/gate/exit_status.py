"""What a run's exit status tells a script (``make bench``, CI) about how the run ended.

pytest's own statuses keep their meaning: 0 every trial right (or the gate passed), 1 the run
finished and some answers were wrong (a result, not a failure of the run), 2 interrupted,
3 internal error, 4 usage error, 5 nothing collected. eartest adds one: the trials ran but the
run is broken (the report or ``summary.json`` could not be written, the run crashed after its
trials, too many trials ended in errors), so its numbers must not be read as a result.
"""

from __future__ import annotations

import pytest

WRONG_ANSWERS = int(pytest.ExitCode.TESTS_FAILED)  # 1: finished, some answers wrong
FINISHED_BROKEN = 6  # finished, but the run's result is not to be trusted or is incomplete


def broken(session: pytest.Session) -> None:
    """End the session as broken (this module's status 6): it measured nothing, or mostly
    failures of the run, so its numbers are not a result (keeping a worse status)."""
    if session.exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED):
        session.exitstatus = FINISHED_BROKEN
