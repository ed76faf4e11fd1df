"""pytest plugin: every trial attaches one JSON record; the controller turns them into reports.

Test bodies call the ``record`` fixture. The record travels in the test report's
``user_properties`` (so ``--json-report`` and xdist carry it to the controller, with no side
files that could go missing) and the controller appends it to ``<run dir>/trials.jsonl``. At the
end of the session the controller builds tables, figures, ``summary.json`` and ``report.html``
from that file, applies the baseline and the gate, and prints a compact table.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

from . import hookspecs, resume
from .prompt_store import PROMPTS_PROPERTY, PromptWriter, compact
from .run_header import bench_test_id, run_header

RECORD_PROPERTY = "eartest_record"
REPO_ROOT = Path(__file__).resolve().parent.parent


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


class RecordWriter:
    """Appends records to the run's JSONL file as reports arrive, flushing each line.

    A default run directory (``fresh=True``) is claimed with an atomic ``mkdir`` when the run
    first writes: two runs started in the same second (parallel CI jobs, a test suite) must
    never share one ``trials.jsonl``, and a run that writes nothing leaves no directory."""

    def __init__(self, run_dir: Path, on_open=None, fresh: bool = False) -> None:
        self.run_dir = run_dir
        self.count = 0
        self._handle = None
        self._on_open = on_open  # called with the directory once, when it is first written
        self._unclaimed = fresh

    @property
    def path(self) -> Path:
        return self.run_dir / "trials.jsonl"

    def claim(self) -> Path:
        """The run's directory, created now if this is the first write (idempotent)."""
        if self._unclaimed:
            base, suffix = self.run_dir, 1
            while True:
                try:
                    self.run_dir.mkdir(parents=True)
                    break
                except FileExistsError:
                    suffix += 1
                    self.run_dir = base.with_name(f"{base.name}-{suffix}")
            self._unclaimed = False
        else:
            self.run_dir.mkdir(parents=True, exist_ok=True)
        return self.run_dir

    def write(self, record: dict) -> None:
        if self._handle is None:
            self.claim()
            if self._on_open is not None:
                self._on_open(self.run_dir)
            self._handle = open(self.path, "a", encoding="utf-8")
        self._handle.write(json.dumps(record, sort_keys=True, ensure_ascii=False) + "\n")
        self._handle.flush()
        self.count += 1

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None


def _default_run_dir(config: pytest.Config) -> Path:
    """``<runs folder>/<time>-<models>``; the writer adds a numeric suffix if that name is
    taken when it claims the directory. The runs folder is the ini key ``eartest_run_dir``
    (relative to the ini file), else ``reports/out``."""
    chosen = config.getoption("model") or config.getini("eartest_model")
    models = re.sub(r"[^A-Za-z0-9_.-]+", "_", chosen)
    folder = config.getini("eartest_run_dir")
    base = (config.inipath.parent / folder if folder and config.inipath
            else REPO_ROOT / "reports" / "out")
    return base / f"{time.strftime('%Y%m%d-%H%M%S')}-{models}"


def _run_dir(config: pytest.Config) -> Path:
    chosen = config.getoption("run_dir")
    resuming = config.getoption("resume")
    if resuming:
        if chosen and Path(chosen).resolve() != Path(resuming).resolve():
            raise pytest.UsageError("--resume RUN_DIR writes into RUN_DIR: leave out --run-dir")
        resume.check_resumable(config, Path(resuming))
        return Path(resuming)
    if not chosen:
        return _default_run_dir(config)
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

    def _completeness(self, session: pytest.Session) -> dict:
        stopped = session.exitstatus == pytest.ExitCode.INTERRUPTED or bool(
            session.shouldstop) or bool(session.shouldfail)
        answered = self.selected <= self.accounted  # every selected trial recorded (or skipped)
        return {"complete": not stopped and answered and not self.config.option.collectonly,
                "trials_expected": len(self.earlier) + self.collected,
                "trials_recorded": len(self.earlier) + self.writer.count,
                "trials_resumed": len(self.earlier)}

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        # user_properties ride on the setup, call and teardown reports alike: read the call's.
        records = [v for k, v in report.user_properties if k == RECORD_PROPERTY]
        if report.when != "call":
            records = []
        for value in records:
            self.writer.write(value)
            self.accounted.add(value.get("test_id"))
        if report.skipped and "[" in report.nodeid:
            self.accounted.add(bench_test_id(report.nodeid))
        if records:  # what the model was shown, beside the records (reports.prompt_store)
            for key, views in report.user_properties:
                if key == PROMPTS_PROPERTY and views:
                    self.prompts.write(views)
        in_bench = report.nodeid.startswith("bench/")
        unrecorded_call = report.when == "call" and not records and not report.skipped
        lost = unrecorded_call or (report.when == "setup" and report.failed)
        if in_bench and lost:
            self.missing.append(report.nodeid)
        if report.failed and not (report.when == "call" and records):
            self.harness_failures += 1  # an error, not a wrong answer

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
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
            from .gate_verdict import nothing_recorded

            self.lines += nothing_recorded(session)  # a gate never passes on nothing
            return
        from . import artifacts, assisted, controls, gate_verdict, tables
        from . import baseline as baseline_plugin
        from .run_health import DEFAULT_MAX_ERROR_RATE, health_problem

        df = tables.load_records(self.writer.path)
        config = self.config
        self._fail_for_earlier_wrong_answers(session, df)
        real = controls.real_records(df)  # control trials have their own table and lines
        self.lines += artifacts.usage_lines(artifacts.usage_by_model(df))
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
    if _is_worker(config):
        return
    fresh = not (config.getoption("run_dir") or config.getoption("resume"))
    writer = RecordWriter(_run_dir(config), fresh=fresh,
                          on_open=lambda run_dir: resume.save_options(config, run_dir))
    config.pluginmanager.register(RecordPlugin(config, writer), "eartest-records")


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
