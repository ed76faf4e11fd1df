"""pytest plugin: every trial attaches one JSON record; the controller turns them into reports.

Test bodies call the ``record`` fixture. The record travels in the test report's
``user_properties`` (so ``--json-report`` and xdist carry it to the controller, with no side
files that could go missing) and the controller appends it to ``<run dir>/trials.jsonl``. At the
end of the session the controller builds tables, figures, ``summary.json`` and ``report.html``
from that file, applies the baseline and the gate, and prints a compact table.
"""

from __future__ import annotations

import json
import platform
import subprocess
import sys
import time
from importlib import metadata
from pathlib import Path

import pytest

from . import hookspecs, record_file, resume
from .exit_status import FINISHED_BROKEN
from .prompt_store import PROMPTS_PROPERTY, PromptWriter, compact
from .record_file import RecordWriter, broken_message
from .session_usage import session_usage_lines

RECORD_PROPERTY = "eartest_record"
REPO_ROOT = Path(__file__).resolve().parent.parent


MAX_LISTED = 25  # regressions printed in the terminal; the run directory has all of them
REPORTED_PACKAGES = (
    "numpy", "mido", "pyfluidsynth", "soundfile", "pandas", "matplotlib", "statsmodels",
    "pytest", "pytest-xdist",
)


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    pluginmanager.add_hookspecs(hookspecs)


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("eartest", "eartest benchmark axes")
    group.addoption("--run-dir", default=None,
                    help="where to write this run's records (default: <run-id> in the ini "
                         "key eartest_run_dir, else in reports/out)")
    parser.addini("eartest_run_dir", "folder of the runs' directories, relative to the ini "
                  "file (default: reports/out; --run-dir names one run's directory instead)",
                  default="")
    group.addoption("--no-report", action="store_true",
                    help="write only trials.jsonl: no tables, figures or HTML at the end")
    group.addoption("--resume", default=None, metavar="RUN_DIR",
                    help="complete an interrupted run: same options, same directory; trials "
                         "it recorded are kept, the rest run (answered requests come from the "
                         "response cache)")


def _is_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


def _run_dir(config: pytest.Config) -> Path:
    chosen = config.getoption("run_dir")
    resuming = config.getoption("resume")
    if resuming:
        if chosen and Path(chosen).resolve() != Path(resuming).resolve():
            raise pytest.UsageError("--resume RUN_DIR writes into RUN_DIR: leave out --run-dir")
        resume.check_resumable(config, Path(resuming))
        return Path(resuming)
    if not chosen:
        return record_file.default_run_dir(config, REPO_ROOT / "reports" / "out")
    run_dir = Path(chosen)
    if (run_dir / "trials.jsonl").exists():
        raise pytest.UsageError(
            f"--run-dir {run_dir} already holds a run's records; choose a new directory "
            "(one run per directory keeps every record counted once), or complete an "
            f"interrupted run with --resume {run_dir}"
        )
    from .paths import directory_problem

    if problem := directory_problem(run_dir):  # before any request, not after the spending
        raise pytest.UsageError(f"--run-dir: {problem}")
    return run_dir


def _git_revision() -> str:
    try:
        rev = subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO_ROOT, capture_output=True,
                             text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               cwd=REPO_ROOT, capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return (rev or "unknown") + ("+dirty" if dirty.strip() else "")


def _package_versions() -> dict[str, str]:
    versions = {"python": platform.python_version()}
    for name in REPORTED_PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions


def run_header(config: pytest.Config, run_dir: Path, started: float) -> dict:
    header = {
        "run_id": run_dir.name,
        "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(started)),
        "finished": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "git_revision": _git_revision(),
        "packages": _package_versions(),
        "command": " ".join(["pytest", *sys.argv[1:]]),
    }
    for part in config.hook.pytest_eartest_run_header(config=config):
        header.update(part)
    return header


class RecordPlugin:
    """Lives on the controller only (or the single process without xdist)."""

    def __init__(self, config: pytest.Config, writer: RecordWriter) -> None:
        self.config = config
        self.writer = writer
        self.started = time.time()
        self.missing: list[str] = []  # bench trials that ended without a record
        self.harness_failures = 0  # failures that are not a judged wrong answer
        self.lines: list[str] = []  # what the terminal summary prints
        # --resume: the trials recorded before, kept as they are and not run again
        self.earlier = resume.recorded_test_ids(writer.run_dir) if config.getoption("resume") \
            else []
        self.collected = 0  # bench trials this session runs
        self.prompts = PromptWriter(lambda: writer.run_dir)
        self.session: pytest.Session | None = None
        self.write_error: OSError | None = None  # records could not be written: broken

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        self.session = session

    @pytest.hookimpl(tryfirst=True)  # before the prefetch, which an interrupt may stop
    def pytest_collection_finish(self, session: pytest.Session) -> None:
        if not self.config.pluginmanager.has_plugin("dsession"):
            self.collected = sum(1 for item in session.items if hasattr(item, "callspec")
                                 and "trial" in item.callspec.params)

    @pytest.hookimpl(optionalhook=True, tryfirst=True)
    def pytest_xdist_node_collection_finished(self, node, ids: list[str]) -> None:
        # the bench's parametrized tests (a session of the project's own tests has none)
        self.collected = self.collected or sum(
            1 for node_id in ids if node_id.startswith("bench/") and "[" in node_id)

    def _completeness(self, session: pytest.Session) -> dict:
        stopped = session.exitstatus == pytest.ExitCode.INTERRUPTED or bool(
            session.shouldstop) or bool(session.shouldfail)
        return {"complete": not stopped,
                "trials_expected": len(self.earlier) + self.collected,
                "trials_recorded": len(self.earlier) + self.writer.count,
                "trials_resumed": len(self.earlier)}

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        # user_properties ride on the setup, call and teardown reports alike: read the call's.
        records = [v for k, v in report.user_properties if k == RECORD_PROPERTY]
        if report.when != "call":
            records = []
        try:
            for value in records:
                self.writer.write(value)
            if records:  # what the model was shown, beside the records (reports.prompt_store)
                for key, views in report.user_properties:
                    if key == PROMPTS_PROPERTY and views:
                        self.prompts.write(views)
        except OSError as exc:  # a full disk: stop the run, keep what was written
            self.write_error = self.write_error or exc
            if self.session is not None:
                self.session.shouldstop = f"eartest: cannot write trial records ({exc})"
        in_bench = report.nodeid.startswith("bench/")
        unrecorded_call = report.when == "call" and not records and not report.skipped
        lost = unrecorded_call or (report.when == "setup" and report.failed)
        if in_bench and lost:
            self.missing.append(report.nodeid)
        if report.failed and not (report.when == "call" and records):
            self.harness_failures += 1  # an error, not a wrong answer

    @pytest.hookimpl(wrapper=True, trylast=True)  # inside the terminal's summary, around
    def pytest_sessionfinish(self, session: pytest.Session):  # xdist's worker teardown
        """Records, report and verdict, even when a plugin failed before (Ctrl-C during the
        workers' teardown); a failure here is one message and the broken status, never a
        traceback (``reports.exit_status``)."""
        failed: BaseException | None = None
        try:
            yield
        except (Exception, KeyboardInterrupt) as exc:
            if isinstance(exc, pytest.exit.Exception):
                raise
            failed = exc
        try:
            self._finish(session)
        except (Exception, KeyboardInterrupt) as exc:
            failed = failed or exc
        failed = self.write_error or failed  # a full disk first: the rest follows from it
        if failed is not None:
            self.lines.append(broken_message(failed, self.writer.path, self.writer.count +
                                             len(self.earlier), failed is self.write_error))
            session.exitstatus = FINISHED_BROKEN

    def _finish(self, session: pytest.Session) -> None:
        self.writer.close()
        self.prompts.close()
        state = self._completeness(session)
        if not state["complete"] and (self.collected or self.writer.count or self.earlier):
            self.writer.claim()  # the directory --resume is told to complete
            self.lines.append(
                f"eartest: INCOMPLETE run: {state['trials_recorded']} of "
                f"{state['trials_expected']} trials recorded in {self.writer.run_dir}; "
                f"complete it with the same command and --resume {self.writer.run_dir}"
            )
        if not self.writer.count and not self.earlier:
            if not state["complete"] and self.collected:
                self._mark_unstarted(state)
            return
        from . import artifacts, assisted, controls, tables
        from . import baseline as baseline_plugin

        df = tables.load_records(self.writer.path)
        config = self.config
        if self.earlier and not self.writer.count and \
                session.exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED:
            self.lines.append(f"eartest: all {len(self.earlier)} trials were already recorded "
                              f"in {self.writer.run_dir}: 0 new requests; the report is "
                              "rebuilt from the records")
            session.exitstatus = pytest.ExitCode.OK  # a finished run, not an empty session
        self._fail_for_earlier_wrong_answers(session, df)
        real = controls.real_records(df)  # control trials have their own table and lines
        self.lines += session_usage_lines(config, df, self.earlier)
        pooled = artifacts.pooled_by_modality(tables.cell_summary(real))
        self.lines += artifacts.compact_table(pooled)
        extractors = assisted.extractor_models(df)
        if extractors:
            self.lines.append(f"eartest: answer extractor {', '.join(extractors)} read the "
                              "replies the reader could not ('assisted'); accuracy is strict")
        self.lines += controls.terminal_lines(controls.control_summary(df))
        if not config.getoption("no_report"):
            header = run_header(config, self.writer.run_dir, self.started) | state
            written = artifacts.write_artifacts(df, self.writer.run_dir, header)
            self.lines.append(f"eartest: report in {written['report.html']}")
        save_to = config.getoption("baseline_save")
        if save_to:
            baseline_plugin.save_baseline(real, Path(save_to))
            self.lines.append(f"eartest: baseline saved to {save_to}")
        baseline = config.stash.get(baseline_plugin.BASELINE_KEY, None)
        if baseline is not None:
            self._apply_baseline(session, baseline, real)

    def _mark_unstarted(self, state: dict) -> None:
        """Interrupted before any record (in the prefetch): leave what --resume needs."""
        run_dir = self.writer.claim()
        resume.save_options(self.config, run_dir)
        (run_dir / "summary.json").write_text(json.dumps(state, indent=2) + "\n",
                                              encoding="utf-8")

    def _fail_for_earlier_wrong_answers(self, session: pytest.Session, df) -> None:
        """A resumed run's verdict covers the trials recorded before it, too."""
        if not self.earlier or session.exitstatus != pytest.ExitCode.OK:
            return
        from .baseline import BASELINE_KEY

        if self.config.stash.get(BASELINE_KEY, None) is not None:
            return  # the baseline and the gate judge every record below
        earlier = df[df["test_id"].isin(set(self.earlier))]
        wrong = int((earlier["correct"] != True).sum())  # noqa: E712 (NaN: no answer, wrong)
        if wrong:
            self.lines.append(f"eartest: {wrong} of the {len(earlier)} trials recorded before "
                              "the resume answered wrong")
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def _apply_baseline(self, session: pytest.Session, baseline, df) -> None:
        from . import baseline as baseline_plugin

        for model in sorted(set(df["model"]) - set(baseline.outcomes)):
            self.lines.append(
                f"eartest: WARNING: baseline {baseline.path} has no trials of model {model!r} "
                f"(it has {', '.join(sorted(baseline.outcomes)) or 'none'}); nothing compared"
            )
        regressed = baseline_plugin.regressions(baseline, df)
        if regressed:
            listing = self.writer.run_dir / "regressions.txt"
            listing.write_text("".join(f"{name}\n" for name in regressed), encoding="utf-8")
            self.lines.append(
                f"eartest: {len(regressed)} regressions against {baseline.path} "
                f"(all listed in {listing}):"
            )
            self.lines += [f"  {name}" for name in regressed[:MAX_LISTED]]
            if len(regressed) > MAX_LISTED:
                self.lines.append(f"  ... and {len(regressed) - MAX_LISTED} more")
        alpha = self.config.getoption("gate")
        if alpha is None:
            return
        partial = self.config.getoption("gate_partial")
        pairs = zip(df["model"], df["trial_id"], strict=True)
        if problem := baseline_plugin.coverage_problem(baseline, pairs, partial):
            self.lines.append(f"eartest: gate at alpha {alpha} FAILED: {problem}")
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
            return
        failures = baseline_plugin.gate_failures(baseline, df, alpha)
        if failures:
            self.lines.append(f"eartest: gate at alpha {alpha} FAILED for {len(failures)} cells:")
            self.lines += [f"  {line}" for line in failures]
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
            return
        self.lines.append(f"eartest: gate at alpha {alpha} passed")
        # Under --gate the verdict is the gate's: wrong answers of a nondeterministic model
        # are reported above but do not fail the run; an error in the harness still does.
        if session.exitstatus == pytest.ExitCode.TESTS_FAILED and not self.harness_failures:
            self.lines.append("eartest: wrong answers are reported, not failed, under --gate")
            session.exitstatus = pytest.ExitCode.OK

    @pytest.hookimpl(wrapper=True, tryfirst=True)
    def pytest_terminal_summary(self, terminalreporter):
        """Around pytest's own summary, so the table comes after the list of failures."""
        try:
            return (yield)
        finally:
            self._write_summary(terminalreporter)

    def _write_summary(self, terminalreporter) -> None:
        if self.writer.count:
            terminalreporter.write_line(
                f"eartest: {self.writer.count} trial records in {self.writer.path}"
            )
        if self.missing:
            terminalreporter.write_line(
                f"eartest: {len(self.missing)} trials ended without a record "
                f"(errors before judging), e.g. {self.missing[0]}"
            )
        for line in self.lines:
            terminalreporter.write_line(line)


def pytest_configure(config: pytest.Config) -> None:
    if _is_worker(config):
        return
    fresh = not (config.getoption("run_dir") or config.getoption("resume"))
    writer = RecordWriter(_run_dir(config), fresh=fresh,
                          on_open=lambda run_dir: resume.save_options(config, run_dir))
    config.add_cleanup(writer.unlock)  # an in-process session (pytester) ends here too
    torn = None if fresh else record_file.hold(config, writer)
    plugin = RecordPlugin(config, writer)
    if torn:
        plugin.lines.append(f"eartest: {torn}")
        sys.stderr.write(f"eartest: {torn}\n")
    config.pluginmanager.register(plugin, "eartest-records")



@pytest.hookimpl(wrapper=True)  # after every other plugin's part: -k/-m, then --shard's split
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]):
    """Under --resume, in every process: leave out the trials the run already recorded."""
    yield
    if config.getoption("resume"):
        resume.deselect_recorded(config, items, Path(config.getoption("resume")))


_SENT_TEXTS: set[str] = set()  # prompt texts this process has sent to the controller


def pytest_sessionstart(session: pytest.Session) -> None:
    """Every session sends its prompt texts anew (an in-process pytester run is a session)."""
    _SENT_TEXTS.clear()


@pytest.fixture
def record(request: pytest.FixtureRequest):
    """``record(result)``: attach the trial's JSON record to this test's report."""

    def _record(result) -> None:
        request.node.user_properties.append((RECORD_PROPERTY, result.record().to_json()))
        views = getattr(result, "prompts", None)
        if views:
            request.node.user_properties.append((PROMPTS_PROPERTY, compact(views, _SENT_TEXTS)))

    return _record
