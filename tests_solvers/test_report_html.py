"""The run report: figures, the self-contained HTML page, and that page in a real browser.

The browser test drives headless Chromium over its DevTools protocol on a pipe (stdlib only):
console messages, uncaught exceptions and failed loads are events there, with their level, and
the page's own DOM can be asked whether every image decoded. A screenshot then shows the page
as a reader sees it. Chromium is a system package installed by ``make setup``; without it the
test fails and says so, because a skipped browser check reads as a passed one.
"""

from __future__ import annotations

import base64
import fcntl
import html
import json
import os
import re
import select
import shutil
import struct
import subprocess
import sys
import time
from importlib import metadata
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure
from matplotlib.image import imread

from reports.figures.paper import (
    accuracy_by_modality,
    f1_vs_accuracy,
    modality_accuracy,
    write_figures,
)
from reports.html.page import render_report, report_tables, write_report
from reports.tables.accuracy import load_records, transcription_f1
from tests_solvers import CORE_BENCH, PYTEST

REPO = Path(__file__).resolve().parent.parent
# Two items per task keep the run to a few seconds while covering every model, modality, shot
# and strategy (LogicLM included, so the F1 figure has points).
SUBSET = "chord5 or chord6 or trans07 or trans08 or sync07 or sync08"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
EVIL = "<script>alert(1)</script>"


# --- A real oracle + chance run ----------------------------------------------------------------


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """Run the benchmark on the offline models, then build its figures and report once."""
    base = tmp_path_factory.mktemp("report")
    run_dir = base / "run"
    cmd = [*PYTEST, *CORE_BENCH, "-q", "-p", "no:cacheprovider",
           "--model", "oracle,chance", "-k", SUBSET, "--run-dir", str(run_dir)]
    result = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=300,
                            env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    # chance fails most trials by design (exit code 1); anything else is a broken run.
    assert result.returncode in (0, 1), result.stdout[-3000:] + result.stderr[-3000:]
    df = load_records(run_dir)
    assert set(df["model"]) == {"oracle", "chance"}
    figures = write_figures(df, base / "figures")
    tables: dict[str, pd.DataFrame | str] = dict(report_tables(df))
    tables["Statistics"] = "no statistics module output yet <placeholder & check>"
    header = {
        "run_id": run_dir.name,
        "models": ["oracle", "chance"],
        "git_revision": _git_revision(),
        "options": {"model": "oracle,chance", "-k": SUBSET},
        "seed": 0,
        "packages": {name: metadata.version(name) for name in ("numpy", "pandas", "matplotlib")},
        "note": EVIL,
    }
    report = write_report(base / "out" / "report.html", header, tables, figures)
    return {"df": df, "figures": figures, "tables": tables, "header": header, "report": report,
            "dir": base}


def _git_revision() -> str:
    result = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO,
                            capture_output=True, text=True)
    return result.stdout.strip() or "unknown"


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from the IHDR chunk, which a valid PNG must start with."""
    assert data[:8] == PNG_SIGNATURE, "not a PNG"
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


# --- Figures -----------------------------------------------------------------------------------


def test_figures_are_valid_pngs_of_sane_size(run):
    assert set(run["figures"]) == {"accuracy_by_modality", "f1_vs_accuracy"}
    for path in run["figures"].values():
        data = path.read_bytes()
        width, height = png_size(data)
        assert 400 <= width <= 2500 and 300 <= height <= 1500, (path.name, width, height)
        assert 10_000 < len(data) < 1_000_000
        assert data.endswith(b"IEND\xaeB`\x82"), "truncated PNG"


def test_figures_are_byte_identical_when_written_twice(run, tmp_path):
    again = write_figures(run["df"], tmp_path)
    for name, path in run["figures"].items():
        assert again[name].read_bytes() == path.read_bytes(), name
    assert b"Software" not in again["f1_vs_accuracy"].read_bytes()


def test_empty_f1_table_gives_a_figure_that_says_so(run, tmp_path):
    no_logiclm = run["df"][run["df"]["strategy"] != "logiclm"]
    f1 = transcription_f1(no_logiclm)
    assert f1.empty
    figure = f1_vs_accuracy(f1)
    assert isinstance(figure, Figure)
    texts = [t.get_text() for ax in figure.axes for t in ax.texts]
    assert any("No LogicLM trials" in text for text in texts)
    written = write_figures(no_logiclm, tmp_path)
    assert png_size(written["f1_vs_accuracy"].read_bytes())[0] > 300


def test_figures_module_stays_off_pyplot_and_the_global_backend():
    probe = ("import sys, matplotlib; before = matplotlib.get_backend(); "
             "import reports.figures.paper; "
             "assert 'matplotlib.pyplot' not in sys.modules; "
             "assert matplotlib.get_backend() == before")
    result = subprocess.run([sys.executable, "-c", probe], cwd=REPO, capture_output=True,
                            text=True, env={**os.environ, "MPLBACKEND": "svg"})
    assert result.returncode == 0, result.stderr


def test_accuracy_bars_leave_excluded_trials_out_of_the_denominator():
    trials = pd.DataFrame(
        {
            "task": ["chord"] * 4, "model": ["m"] * 4, "modality": ["audio"] * 4,
            "correct": [True, False, False, False],
            "parsed_answer": ["A", "B", None, None],  # every record has one (None: no answer)
            "error_class": [None, None, "backend_error", "no_final_answer"],
        }
    )
    row = modality_accuracy(trials).iloc[0]
    assert (row["n"], row["correct"]) == (3, 1)
    assert row["ci_low"] < row["accuracy"] < row["ci_high"]
    assert len(accuracy_by_modality(trials).axes) == 1


# --- HTML --------------------------------------------------------------------------------------


def test_report_holds_every_table_and_both_figures_inline(run):
    page = run["report"].read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    for title, table in run["tables"].items():
        assert html.escape(title) in page
        if isinstance(table, str):
            assert f"<pre>{html.escape(table)}</pre>" in page
    frames = [t for t in run["tables"].values() if isinstance(t, pd.DataFrame)]
    assert len(re.findall(r"<table\b", page)) == len(frames)
    assert "100.0 [" in page and "on-beat" in page  # Table 1 cells, F1 labels
    embedded = re.findall(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', page)
    assert [base64.b64decode(data) for data in embedded] == [
        path.read_bytes() for path in run["figures"].values()
    ]


def test_report_loads_nothing_from_outside():
    page = render_report({"run_id": "r"}, {"t": pd.DataFrame({"a": [1]})}, {})
    assert not re.search(r"https?://", page, re.IGNORECASE)
    assert "<script" not in page.lower()
    assert "default-src 'none'" in page


def test_report_escapes_everything_user_provided(run):
    page = run["report"].read_text(encoding="utf-8")
    assert EVIL not in page
    assert html.escape(EVIL) in page
    nasty = pd.DataFrame({"<b>col</b>": ["<img src=x onerror=alert(1)>"]},
                         index=pd.Index(["<i>row</i>"], name="<u>idx</u>"))
    page = render_report({"<k>": {"<pkg>": "<v>"}, "models": ["<m>"]},
                         {"<t>": nasty, "<md>": "| a <b> |"}, {})
    for raw in ("<b>", "<i>", "<u>", "<img", "<k>", "<pkg>", "<v>", "<m>", "<t>", "<md>"):
        assert raw not in page, raw


def test_title_names_the_run_and_its_models():
    header = {"run_id": "r7", "models": {"gemini": "gemini-2.5-pro", "oracle": "oracle"}}
    page = render_report(header, {}, {})
    assert "<title>eartest report — r7</title>" in page
    assert "models: gemini (gemini-2.5-pro), oracle</small>" in page


def test_missing_or_unembeddable_figure_is_a_clear_error(tmp_path):
    with pytest.raises(FileNotFoundError):
        render_report({}, {}, {"gone": tmp_path / "gone.png"})
    (tmp_path / "fig.pdf").write_bytes(b"%PDF")
    with pytest.raises(ValueError, match="cannot embed fig.pdf"):
        render_report({}, {}, {"fig": tmp_path / "fig.pdf"})


# --- In a real browser -------------------------------------------------------------------------


# A cold Chromium on a loaded 2-core machine (a full make test beside other work) took over
# 30 s to answer its first DevTools call; the wait only bounds a hung browser.
BROWSER_WAIT_S = 120.0


def chromium_path() -> str:
    found = os.environ.get("EARTEST_CHROMIUM") or shutil.which("chromium")
    if not found or not os.access(found, os.X_OK):
        pytest.fail("Chromium is not installed, so the report cannot be checked in a browser: "
                    "run `make setup` (it installs the Debian package `chromium`).")
    return found


class Browser:
    """Headless Chromium driven over ``--remote-debugging-pipe`` (fd 3 in, fd 4 out)."""

    def __init__(self, executable: str, profile: Path, width: int = 1280, height: int = 2000):
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()
        # Park the child's ends above fd 9 so the shell can move them to 3 and 4 without
        # clobbering either one (bash, unlike dash, accepts multi-digit fd numbers).
        child_r = fcntl.fcntl(to_browser_r, fcntl.F_DUPFD_CLOEXEC, 10)
        child_w = fcntl.fcntl(from_browser_w, fcntl.F_DUPFD_CLOEXEC, 10)
        os.close(to_browser_r)
        os.close(from_browser_w)
        args = [executable, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--hide-scrollbars",
                f"--user-data-dir={profile}", f"--window-size={width},{height}",
                "--remote-debugging-pipe", "about:blank"]
        shell = f'exec "$@" 3<&{child_r} 4>&{child_w} {child_r}<&- {child_w}>&-'
        self.log = profile.with_suffix(".stderr")
        with self.log.open("wb") as stderr:
            self.proc = subprocess.Popen(["/bin/bash", "-c", shell, "bash", *args],
                                         pass_fds=(child_r, child_w), stdin=subprocess.DEVNULL,
                                         stdout=subprocess.DEVNULL, stderr=stderr)
        os.close(child_r)
        os.close(child_w)
        self._buffer = b""
        self._last_id = 0
        self.events: list[dict] = []
        self.session: str | None = None

    def call(self, method: str, params: dict | None = None,
             timeout_s: float = BROWSER_WAIT_S) -> dict:
        self._last_id += 1
        message: dict = {"id": self._last_id, "method": method, "params": params or {}}
        if self.session and not method.startswith(("Target.", "Browser.")):
            message["sessionId"] = self.session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        while True:
            reply = self._receive(timeout_s)
            if reply.get("id") == self._last_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply["result"]
            self.events.append(reply)

    def open(self, url: str, timeout_s: float = BROWSER_WAIT_S) -> None:
        """Open ``url`` in a fresh tab and return once its load event has fired."""
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget",
                                 {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Runtime", "Log", "Page"):
            self.call(f"{domain}.enable")
        self.events.clear()
        self.call("Page.navigate", {"url": url})
        deadline = time.monotonic() + timeout_s
        while not any(e.get("method") == "Page.loadEventFired" for e in self.events):
            self.events.append(self._receive(deadline - time.monotonic()))

    def evaluate(self, expression: str) -> object:
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        return result["result"].get("value")

    def problems(self) -> list[str]:
        """Console errors/warnings, uncaught exceptions and failed loads, as readable lines."""
        found = []
        for event in self.events:
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.consoleAPICalled" and params["type"] in ("error", "warning",
                                                                           "assert"):
                texts = [str(a.get("value", a.get("description"))) for a in params["args"]]
                found.append(f"console.{params['type']}: {' '.join(texts)}")
            elif method == "Runtime.exceptionThrown":
                details = params["exceptionDetails"]
                thrown = details.get("exception", {}).get("description") or details["text"]
                found.append(f"exception: {thrown}")
            elif method == "Log.entryAdded" and params["entry"]["level"] in ("error", "warning"):
                entry = params["entry"]
                found.append(f"{entry['source']} {entry['level']}: {entry['text']} "
                             f"{entry.get('url', '')}".strip())
        return found

    def screenshot(self, path: Path, full_page: bool) -> Path:
        params: dict = {"format": "png"}
        if full_page:
            size = self.call("Page.getLayoutMetrics")["cssContentSize"]
            params |= {"captureBeyondViewport": True, "clip": {
                "x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1}}
        path.write_bytes(base64.b64decode(self.call("Page.captureScreenshot", params)["data"]))
        return path

    def _receive(self, timeout_s: float) -> dict:
        deadline = time.monotonic() + timeout_s
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._from_browser], [], [], left)[0]:
                raise TimeoutError(f"Chromium did not answer; its log:\n{self._log_tail()}")
            chunk = os.read(self._from_browser, 1 << 20)
            if not chunk:
                raise EOFError(f"Chromium closed the pipe; its log:\n{self._log_tail()}")
            self._buffer += chunk
        raw, _, self._buffer = self._buffer.partition(b"\0")
        return json.loads(raw)

    def _log_tail(self) -> str:
        return self.log.read_text(errors="replace")[-2000:]

    def close(self) -> None:
        try:
            self.call("Browser.close", timeout_s=5)
        except (OSError, RuntimeError, TimeoutError, EOFError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self._to_browser)
        os.close(self._from_browser)


@pytest.fixture
def browser(tmp_path):
    chrome = Browser(chromium_path(), tmp_path / "profile")
    yield chrome
    chrome.close()


def test_browser_check_does_catch_a_broken_page(browser, tmp_path):
    """The harness itself: a page with a script error and a missing image must be flagged."""
    page = tmp_path / "broken.html"
    page.write_text('<!DOCTYPE html><p>x</p><img src="missing.png">'
                    '<script>console.error("boom"); notDefined();</script>')
    browser.open(page.as_uri())
    problems = "\n".join(browser.problems())
    assert "console.error: boom" in problems
    assert "notDefined" in problems
    assert "missing.png" in problems


def test_report_renders_in_chromium(run, browser):
    browser.open(run["report"].as_uri())
    assert browser.problems() == []
    # the run's metadata closes the page, collapsed: a reader opens it
    assert browser.evaluate("document.querySelector('details.run').open") is False
    browser.evaluate("document.querySelector('details.run').open = true")
    state = browser.evaluate(
        "JSON.stringify({tables: document.querySelectorAll('table').length,"
        " images: Array.from(document.images, i => [i.complete, i.naturalWidth]),"
        " text: document.body.innerText})"
    )
    dom = json.loads(str(state))
    frames = [t for t in run["tables"].values() if isinstance(t, pd.DataFrame)]
    assert dom["tables"] == len(frames)
    assert len(dom["images"]) == 2 and all(done and width > 300 for done, width in dom["images"])
    for expected in ("Table 1: accuracy (%)", "100.0 [", "on-beat", EVIL, run["header"]["run_id"]):
        assert expected in dom["text"], expected
    assert browser.evaluate("document.querySelectorAll('script').length") == 0

    shot = imread(browser.screenshot(run["dir"] / "report-top.png", full_page=False))
    assert shot.shape[1] == 1280 and shot.shape[0] >= 1000
    assert float(np.var(shot[..., :3])) > 0, "blank screenshot"
    full = imread(browser.screenshot(run["dir"] / "report-full.png", full_page=True))
    # The audio bars are Okabe-Ito blue (0, 114, 178): seen on the page, the figures rendered.
    blue = np.all(np.abs(full[..., :3] - np.array([0, 114, 178]) / 255) < 0.02, axis=-1)
    assert blue.sum() > 2000, "accuracy figure not visible in the rendered page"
