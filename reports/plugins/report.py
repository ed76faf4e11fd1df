"""pytest plugin: every trial attaches one JSON record; the controller turns them into reports.

Test bodies call the ``record`` fixture. The record travels in the test report's
``user_properties`` (so ``--json-report`` and xdist carry it to the controller, with no side
files that could go missing) and the controller appends it to ``<run dir>/trials.jsonl``. At the
end of the session the controller builds tables, figures, ``summary.json`` and ``report.html``
from that file, applies the baseline and the gate, and prints a compact table.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest

from reports.builders.figure_worker import FigureWorker, spare_core, warm_figures
from reports.gate.exit_status import FINISHED_BROKEN, broken
from reports.plugins import hookspecs
from reports.run import record_file, resume
from reports.run.header import bench_test_id, run_header
from reports.run.prompt_store import PROMPTS_PROPERTY, PromptWriter, compact
from reports.run.record_file import RecordWriter, broken_message
from reports.run.session_usage import offline_models, session_usage_lines

RECORD_PROPERTY = "eartest_record"
# From this many selected trials a run's report draws its figures in a worker process started
# at collection when a core is free (reports.builders.figure_worker), and imports what it needs
# during the tests. A smaller run's report is quick: a worker would only add its start-up CPU.
FIGURE_WORKER_MIN_TRIALS = 200
REPO_ROOT = Path(__file__).resolve().parents[2]


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
    from reports.run.paths import directory_problem

    if problem := directory_problem(run_dir):  # before any request, not after the spending
        raise pytest.UsageError(f"--run-dir: {problem}")
    return run_dir


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
        # test ids of the run's selected trials, and of those recorded or skipped: the run
        # is complete when every selected trial is accounted for, and nothing else says so
        self.selected: set[str] = set()
        self.accounted: set[str] = set(self.earlier)
        self.refused = False  # a resume refused once its selection was collected
        self.prompts = PromptWriter(lambda: writer.run_dir)
        self.session: pytest.Session | None = None
        self.write_error: OSError | None = None  # records could not be written: broken
        self.figure_worker: FigureWorker | None = None  # draws the report's figures
        self._warmed = False  # what the report imports, imported during the tests

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        self.session = session

    @pytest.hookimpl(tryfirst=True)  # before the prefetch, which an interrupt may stop
    def pytest_collection_finish(self, session: pytest.Session) -> None:
        if not self.config.pluginmanager.has_plugin("dsession"):
            ids = [bench_test_id(item.nodeid) for item in session.items if hasattr(item, "callspec")
                   and "trial" in item.callspec.params]
            self._note_selection(ids)

    @pytest.hookimpl(optionalhook=True, tryfirst=True)
    def pytest_xdist_node_collection_finished(self, node, ids: list[str]) -> None:
        # the bench's parametrized tests (a session of the project's own tests has none);
        # every worker collects the whole selection
        if self.collected or self.selected:
            return
        try:
            self._note_selection([bench_test_id(node_id) for node_id in ids
                                  if node_id.startswith("bench/") and "[" in node_id])
        except pytest.UsageError as exc:  # the controller's loop: stop the workers too
            pytest.exit(str(exc), returncode=pytest.ExitCode.USAGE_ERROR)

    def _note_selection(self, ids: list[str]) -> None:
        """The run's selected trials: those recorded before a resume and those to run now
        (a resume that would select others is refused here, before any request)."""
        self.collected = len(ids)
        self.selected = set(self.earlier) | set(ids)
        try:
            resume.check_selection(self.config, self.writer.run_dir, sorted(self.selected))
        except pytest.UsageError:
            self.refused = True  # the run directory is left as it was
            raise
        if len(ids) >= FIGURE_WORKER_MIN_TRIALS and self.figure_worker is None and not (
                self.config.getoption("no_report") or self.config.option.collectonly) and \
                spare_core():
            self.figure_worker = FigureWorker().start()  # warms up while requests are sent
            self.config.add_cleanup(self.figure_worker.close)

    def pytest_runtest_setup(self, item: pytest.Item) -> None:
        """The report's imports while test bodies wait on the network (issue 33)."""
        if not self._warmed and self.collected >= FIGURE_WORKER_MIN_TRIALS and \
                not self.config.getoption("no_report"):
            import reports.builders.artifacts  # noqa: F401 (0.4 s less of the wrap-up)
            if self.figure_worker is None:  # drawn here: matplotlib too (0.5 s)
                warm_figures()
        self._warmed = True

    def _completeness(self, session: pytest.Session) -> dict:
        stopped = session.exitstatus == pytest.ExitCode.INTERRUPTED or bool(
            session.shouldstop) or bool(session.shouldfail)
        answered = self.selected <= self.accounted  # every selected trial recorded (or skipped)
        return {"complete": not stopped and answered and not self.config.option.collectonly,
                "trials_expected": len(self.earlier) + self.collected,
                "trials_recorded": len(self.earlier) + self.writer.count,
                "trials_resumed": len(self.earlier)}

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when != "call" and report.passed:
            return  # a set-up or teardown that went well: nothing to write or count
        # user_properties ride on the setup, call and teardown reports alike: read the call's.
        records = [v for k, v in report.user_properties if k == RECORD_PROPERTY]
        if report.when != "call":
            records = []
        try:
            for value in records:
                self.writer.write(value)
                self.accounted.add(value.get("test_id"))
            if records:  # what the model was shown, beside the records (reports.run.prompt_store)
                for key, views in report.user_properties:
                    if key == PROMPTS_PROPERTY and views:
                        self.prompts.write(views)
        except OSError as exc:  # a full disk: stop the run, keep what was written
            self.write_error = self.write_error or exc
            if self.session is not None:
                self.session.shouldstop = f"eartest: cannot write trial records ({exc})"
        if report.skipped and "[" in report.nodeid:
            self.accounted.add(bench_test_id(report.nodeid))
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
        traceback (``reports.gate.exit_status``)."""
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
        try:
            self._write_down(session)
        finally:
            if self.figure_worker is not None:
                self.figure_worker.close()

    def _write_down(self, session: pytest.Session) -> None:
        """Records closed, then the report, the baseline and the gate's verdict."""
        self.writer.close()
        self.prompts.close()
        if self.config.option.collectonly or self.refused:
            return  # nothing ran: the run directory (a resumed one too) stays as it was
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
            from reports.gate.verdict import nothing_recorded

            self.lines += nothing_recorded(session)  # a gate never passes on nothing
            return
        if self._summarise_plain(session):
            return
        from reports.builders import artifacts
        from reports.gate import baseline as baseline_plugin
        from reports.gate import verdict as gate_verdict
        from reports.gate.run_health import DEFAULT_MAX_ERROR_RATE, health_problem
        from reports.tables import accuracy as tables
        from reports.tables import assisted, controls

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
            written = artifacts.write_artifacts(df, self.writer.run_dir, header,
                                                self.figure_worker)
            self.lines.append(f"eartest: report in {written['report.html']}")
        # a run that measured nothing, or mostly failures, is flagged, never saved or passed
        problem = health_problem(real, config.getoption("max_error_rate", DEFAULT_MAX_ERROR_RATE),
                                 len(self.missing))
        self.lines += [f"eartest: WARNING: {problem}"] if problem else []
        if save_to := config.getoption("baseline_save", None):
            self.lines += gate_verdict.save_checked(session, real, Path(save_to), problem)
        baseline = config.stash.get(baseline_plugin.BASELINE_KEY, None)
        if baseline is not None:
            self.lines += gate_verdict.apply_baseline(session, baseline, real, self.writer.run_dir,
                                                      self.harness_failures, problem)
        if problem:  # the numbers are failures, not the model's: not a result (exit 6)
            broken(session)

    def _summarise_plain(self, session: pytest.Session) -> bool:
        """A run that writes no report, gates and resumes nothing, whose records are all plain
        (``reports.tables.terminal.is_plain``), prints its lines from the records it wrote,
        read back without pandas (issue 33: most of a cached run's wrap-up); False: the
        DataFrame's path prints the same lines, and everything else."""
        from reports.gate.baseline import BASELINE_KEY
        from reports.gate.run_health import DEFAULT_MAX_ERROR_RATE, problem_of
        from reports.tables.terminal import is_plain, summary_lines

        config = self.config
        if not config.getoption("no_report") or self.earlier or config.getoption(
                "baseline_save", None) or config.stash.get(BASELINE_KEY, None) is not None:
            return False
        rows = record_file.read_rows(self.writer.path)
        if not all(map(is_plain, rows)):
            return False
        self.lines += summary_lines(rows, offline_models(config))
        problem = problem_of([row["error_class"] for row in rows], config.getoption(
            "max_error_rate", DEFAULT_MAX_ERROR_RATE), len(self.missing))
        if problem:
            self.lines.append(f"eartest: WARNING: {problem}")
            broken(session)
        return True

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
        from reports.gate.baseline import BASELINE_KEY

        if self.config.stash.get(BASELINE_KEY, None) is not None:
            return  # the baseline and the gate judge every record below
        earlier = df[df["test_id"].isin(set(self.earlier))]
        wrong = int((earlier["correct"] != True).sum())  # noqa: E712 (NaN: no answer, wrong)
        if wrong:
            self.lines.append(f"eartest: {wrong} of the {len(earlier)} trials recorded before "
                              "the resume answered wrong")
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

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
        for line in self.lines:  # warnings and failed verdicts stand out
            terminalreporter.write_line(line, red=" WARNING: " in line or " FAILED" in line)


def pytest_configure(config: pytest.Config) -> None:
    if hasattr(config, "workerinput"):  # an xdist worker: the controller writes the records
        return
    fresh = not (config.getoption("run_dir") or config.getoption("resume"))
    writer = RecordWriter(_run_dir(config), fresh=fresh,
                          on_open=lambda run_dir: resume.save_options(config, run_dir))
    config.add_cleanup(writer.unlock)  # an in-process session (pytester) ends here too
    # --collect-only runs nothing: it neither locks (rewriting the lock's process id) nor
    # sets aside a torn record, so the run directory stays byte for byte as it was
    held = not (fresh or config.option.collectonly)
    torn = record_file.hold(config, writer) if held else None
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
