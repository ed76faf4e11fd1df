"""A person takes the test: the real listening page, driven in headless Chromium, against a
real ``pytest bench --model human:<listener>`` run in a subprocess.

Every chord trial of one slice is answered by scripted clicks and key presses (some "can't
tell"), each only once its audio elements have loaded; the run is interrupted half-way with
Ctrl-C (SIGINT) and resumed with ``--resume``, which must continue at the next unanswered trial
of the listener's seeded order. The records must equal what was clicked, and the report must
show the listener's row.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest

from fixtures.plugins.human import listener_order
from tests_solvers import PYTEST, sigint_as_on_a_terminal
from tests_solvers.test_report_html import Browser, chromium_path

REPO = Path(__file__).resolve().parent.parent
LISTENER = "human:L01"
SLICE = ["bench/test_chord.py", "--modality", "audio", "--shot", "zero",
         "--strategy", "standalone", "--seed", "3", "-k", "chord1 or chord2"]
WAIT_S = 180.0  # a ceiling: a loaded 2-core machine once took over 60 s
REPLIES = ("A", "B", "C", "D", "Can't tell")  # answered in turn: every fifth trial declined


def _start(run_dir: Path, cache: Path, log: Path, *extra: str) -> tuple[subprocess.Popen, str]:
    cmd = [*PYTEST, "-q", "-p", "no:cacheprovider", "-p", "no:randomly", *SLICE,
           "--model", LISTENER, "--run-dir", str(run_dir), "--cache-path", str(cache), *extra]
    with log.open("w") as out:
        proc = subprocess.Popen(cmd, cwd=REPO, stdout=out, stderr=subprocess.STDOUT,
                                env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
                                preexec_fn=sigint_as_on_a_terminal)
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        found = re.search(rf"{re.escape(LISTENER)}: \d+ trials to answer.* at (http://\S+)",
                          log.read_text())
        if found:
            return proc, found.group(1)
        if proc.poll() is not None:
            break
        time.sleep(0.1)
    proc.kill()
    raise AssertionError(f"the run printed no page URL:\n{log.read_text()[-3000:]}")


def _wait_for(browser: Browser, expression: str, timeout_s: float = WAIT_S) -> object:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        value = browser.evaluate(expression)
        if value:
            return value
        time.sleep(0.03)
    raise AssertionError(f"never true: {expression}")


def _press(browser: Browser, key: str) -> None:
    """A real key press (keyDown with its text, keyUp), as keyboard-only use makes it."""
    code = 13 if key == "Enter" else ord(key.upper())
    down = {"type": "keyDown", "key": key, "windowsVirtualKeyCode": code}
    if key != "Enter":
        down["text"] = key
    browser.call("Input.dispatchKeyEvent", down)
    browser.call("Input.dispatchKeyEvent", {"type": "keyUp", "key": key,
                                            "windowsVirtualKeyCode": code})


def _next_screen(browser: Browser, after_seq: int) -> dict:
    _wait_for(browser, f"document.body.dataset.status === 'trial' && "
                       f"Number(document.body.dataset.seq) > {after_seq}")
    return browser.evaluate("screen")


def _answer(browser: Browser, count: int, clicked: list[str], progress: list[str],
            seq: int = 0, reopen_at: int | None = None, url: str = "") -> int:
    """Answer ``count`` trials (and any practice screens before them); returns the last seq."""
    answered = 0
    while answered < count:
        screen = _next_screen(browser, seq)
        seq = screen["seq"]
        if screen["practice"]:  # keyboard only: the second option, then Enter to go on
            _press(browser, "2")
            _wait_for(browser, "document.getElementById('feedback').style.display === 'block'")
            _press(browser, "Enter")
            continue
        # every clip is loaded and labelled by its position before anyone answers
        _wait_for(browser, "[...document.querySelectorAll('audio')].length > 0 && "
                           "[...document.querySelectorAll('audio')].every(a => a.readyState >= 1)")
        labels = browser.evaluate("[...document.querySelectorAll('.clip label')]"
                                  ".map(l => l.textContent)")
        assert labels == [f"Clip {i}" for i in range(1, len(labels) + 1)]
        progress.append(browser.evaluate("document.getElementById('progress').textContent"))
        reply = REPLIES[len(clicked) % len(REPLIES)]
        if len(clicked) % 3 == 1 and reply != "Can't tell":  # some answers by key alone
            _press(browser, reply.lower())
        else:
            selector = json.dumps(f'button[data-reply="{reply}"]')
            browser.evaluate(f"document.querySelector({selector}).click()")
        clicked.append(reply)
        answered += 1
        if reopen_at is not None and len(clicked) == reopen_at:  # a closed tab loses nothing
            browser.open(url)
    return seq


def _records(run_dir: Path) -> list[dict]:
    path = run_dir / "trials.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _wait_records(run_dir: Path, n: int) -> None:
    deadline = time.monotonic() + WAIT_S
    while len(_records(run_dir)) < n and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(_records(run_dir)) == n


@pytest.fixture
def browser(tmp_path):
    chrome = Browser(chromium_path(), tmp_path / "profile", height=1200)
    yield chrome
    chrome.close()


def test_a_listener_answers_on_the_page_is_interrupted_and_resumes(tmp_path, browser):
    run_dir, cache = tmp_path / "run", tmp_path / "responses.sqlite"
    clicked: list[str] = []
    progress: list[str] = []

    first, url = _start(run_dir, cache, tmp_path / "first.log", "--no-report")
    try:
        browser.open(url)
        seq = _answer(browser, 12, clicked, progress, reopen_at=6, url=url)
        _wait_records(run_dir, 12)
        _next_screen(browser, seq)  # the 13th trial waits on the page when Ctrl-C comes
        first.send_signal(signal.SIGINT)
        first.wait(timeout=WAIT_S)
    finally:
        first.kill()
    assert len(_records(run_dir)) == 12  # nothing answered is lost, nothing unanswered kept

    second, url = _start(run_dir, cache, tmp_path / "second.log", "--resume", str(run_dir))
    try:
        browser.open(url)
        total = int(progress[0].split("/")[1])
        assert total >= 20
        _answer(browser, total - 12, clicked, progress)
        assert second.wait(timeout=WAIT_S) == 1  # some answers are wrong, so trials fail
    finally:
        second.kill()

    records = _records(run_dir)
    assert [r["turns"][0]["text"] for r in records] == clicked
    for record, reply in zip(records, clicked, strict=True):
        assert record["model"] == LISTENER and not record["turns"][0]["cached"]
        if reply == "Can't tell":  # a decline: read as no answer
            assert record["parsed_answer"] is None
            assert record["error_class"] == "no_final_answer"
        else:
            assert record["parsed_answer"] == reply
            assert record["correct"] == (reply == record["truth"])
        assert record["turns"][0]["latency_s"] > 0  # the response time the page measured
    # one listener's seeded order, continued after the interruption at the next trial
    ids = [r["trial_id"] for r in records]
    assert ids == sorted(ids, key=lambda t: listener_order(3, LISTENER, t))
    assert progress == [f"{i} / {total}" for i in range(1, total + 1)]
    report = (run_dir / "report.html").read_text()
    assert LISTENER in report
    summary = json.loads((run_dir / "summary.json").read_text())
    assert summary["complete"] is True


@pytest.mark.parametrize(("extra", "message"), [
    (["-n", "2"], "a person answers one trial at a time"),
    (["--strategy", "logiclm"], "not LogicLM schema lines"),
    (["--model", "human:"], "a listener id is"),
])
def test_what_a_person_cannot_do_is_one_usage_error(extra, message, tmp_path):
    cmd = [*PYTEST, "-q", "-p", "no:cacheprovider", "bench/test_chord.py", "--model", LISTENER,
           "--run-dir", str(tmp_path / "run"), *extra]
    result = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=120)
    assert result.returncode == 4, result.stdout[-2000:] + result.stderr[-2000:]
    assert message in result.stderr and "Traceback" not in result.stderr


def test_terminal_mode_prints_clip_paths_and_reads_typed_answers(tmp_path):
    """``--human-ui terminal``: the practice screens first (the four chord examples), then the
    trials, each answered by a typed line (a number, a letter, "?" for can't tell)."""
    typed = ["1", "1", "1", "1", "2", "c", "?"]  # four practice screens, then three trials
    cmd = [*PYTEST, "-q", "-p", "no:cacheprovider", *SLICE[:-2], "-k", "chord12 or chord16 or "
           "chord17", "--model", LISTENER, "--human-ui", "terminal", "--no-report",
           "--run-dir", str(tmp_path / "run"), "--cache-path", str(tmp_path / "r.sqlite")]
    result = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=300,
                            input="\n".join(typed) + "\n")
    assert result.returncode in (0, 1), result.stdout[-3000:] + result.stderr[-3000:]
    assert "Practice (not recorded)" in result.stdout and "Trial 3 / 3" in result.stdout
    assert re.search(r"Clip 1: /\S+\.wav", result.stdout)
    records = _records(tmp_path / "run")
    assert [(r["turns"][0]["text"], r["parsed_answer"]) for r in records] == [
        ("B", "B"), ("C", "C"), ("Can't tell", None)]
    # another session (a second person, a retest) on the same cache is asked, not replayed
    again = [*cmd[:cmd.index("--run-dir") + 1], str(tmp_path / "retest"),
             *cmd[cmd.index("--run-dir") + 2:]]
    retest = subprocess.run(again, cwd=REPO, capture_output=True, text=True, timeout=300,
                            input="\n".join(["1"] * 4 + ["a", "a", "a"]) + "\n")
    assert retest.returncode in (0, 1), retest.stdout[-3000:] + retest.stderr[-3000:]
    assert [(r["turns"][0]["text"], r["turns"][0]["cached"])
            for r in _records(tmp_path / "retest")] == [("A", False)] * 3
