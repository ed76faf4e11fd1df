
import os
import signal
import sys

# The core tasks' bench, for tests that run it in a subprocess (the pitch experiments have
# their own, much larger, runs and tests).
CORE_BENCH = ("bench", "--ignore=bench/test_pitch")

# ``python -m pytest`` for a test's subprocess. Hypothesis' pytest plugin imports hypothesis
# (about 1 s) at the end of every session; no subprocess here runs a hypothesis test, and the
# suite starts some hundred of them.
PYTEST = (sys.executable, "-m", "pytest", "-p", "no:hypothesispytest")


# The end-to-end runs of whole trial sets (1,008 Gemini trials, the HF export round trip...)
# take their full size under ``EARTEST_E2E=all`` (``make e2e``); ``make test`` runs a sample
# of the same checks, to stay within its time budget.
FULL_E2E = os.environ.get("EARTEST_E2E", "").strip().lower() == "all"


def trial_row(line: str) -> dict:
    """One line of a run's ``trials.jsonl`` as the reports read it: validated against the
    record schema, a family's ``details`` spread into columns."""
    import json

    from solvers.trial_record import row_from_json

    return row_from_json(json.loads(line))


def sigint_as_on_a_terminal() -> None:
    """``preexec_fn`` for a subprocess a test stops with SIGINT (Ctrl-C): the child starts with
    SIGINT's default disposition, as on a terminal. A process started in the background by a
    shell ignores SIGINT, and an ignored SIGINT is inherited across fork and exec, so without
    this the child of a suite run from ``cmd &`` (or nohup, or some CI runners) never sees
    the Ctrl-C and the test waits for it until its timeout."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
