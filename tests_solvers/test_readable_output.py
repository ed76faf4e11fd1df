"""What a newcomer sees: the README's commands as written, ``--help``, and how a benchmark run
prints its failures (issue 14, items 15 and 19)."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from fixtures.backends import UnknownModelError, resolve_model
from tests_solvers import PYTEST

REPO = Path(__file__).resolve().parent.parent
README = (REPO / "README.md").read_text(encoding="utf-8")
PLACEHOLDER = re.compile(r"<[^<>\s]+>")  # "--model <model>": the reader's value (docs rule)


def _pytest(*args: str, cwd: Path = REPO, ci: bool | None = None) -> subprocess.CompletedProcess:
    """``ci``: set or unset ``$CI`` (pytest prints whole failure messages when it is set)."""
    env = {k: v for k, v in os.environ.items()
           if k != "PYTEST_XDIST_WORKER" and not (ci is not None and k in ("CI", "BUILD_NUMBER"))}
    env["COLUMNS"] = "200"
    if ci:
        env["CI"] = "1"
    return subprocess.run([*PYTEST, "-p", "no:cacheprovider", *args],
                          cwd=cwd, capture_output=True, text=True, timeout=600, env=env)


# -- item 19: the README's model names, how to run pytest, --help -----------------------------
def readme_model_names() -> list[str]:
    commands = [line.strip() for line in README.splitlines()
                if line.startswith("    ") and "pytest" in line and "--model" in line]
    names = []
    for command in commands:
        for value in re.findall(r"--model[ =](\S+)", command):
            names += [n for n in value.split(",") if not PLACEHOLDER.search(n)]
    return names


def test_issue14_item19_every_readme_model_name_resolves(monkeypatch):
    monkeypatch.setenv("GEMINI_API_KEY", "k")
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    names = readme_model_names()
    assert "gemini-pro" in names and len(names) >= 5
    for name in names:
        try:
            resolve_model(name)
        except UnknownModelError as exc:
            pytest.fail(f"README example --model {name}: {exc}")


def test_issue14_item19_readme_says_which_pytest_to_run():
    assert ".venv/bin/pytest" in README and "source .venv/bin/activate" in README


def test_issue14_item19_help_lists_the_model_names():
    result = _pytest("--help")
    assert result.returncode == 0, result.stderr
    flat = " ".join(result.stdout.split())
    start = flat.index("--model=MODEL")
    entry = flat[start:flat.index("--modality", start)]
    for name in ("oracle", "chance", "listener", "gemini-pro", "gemini-flash",
                 "openai:<model id>", "hf:<repo or path>", "scripted:<file.json>"):
        assert name in entry, (name, entry)


# -- item 15: one line per failure in a benchmark run, the accuracy table last ----------------
SLICE = ["bench/test_chord.py", "--model", "chance", "--modality", "midi", "-m",
         "zero and standalone"]  # 44 chance trials: about three quarters answer wrong


@pytest.mark.parametrize("ci", [False, True], ids=["laptop", "ci"])
def test_issue14_item15_a_bench_run_prints_one_line_per_failure_and_the_table_last(ci):
    result = _pytest(*SLICE, "--no-report", ci=ci)
    assert result.returncode == 1, result.stdout[-2000:] + result.stderr[-2000:]
    lines = result.stdout.splitlines()
    failed = int(re.search(r"(\d+) failed", lines[-1]).group(1))
    assert failed > 20
    assert "Traceback" not in result.stdout and "def test_chord" not in result.stdout
    assert sum(line.startswith("FAILED bench/test_chord.py::") for line in lines) == failed
    assert len(lines) < failed + 30, "more than a line per failure"
    table = next(i for i, line in enumerate(lines) if line.startswith("model "))
    last_failed = max(i for i, line in enumerate(lines) if line.startswith("FAILED "))
    assert table > last_failed, "the accuracy table must come after the failures"


def test_issue14_item15_an_explicit_tb_is_honoured():
    result = _pytest(*SLICE, "--no-report", "--tb=short", "-k", "chord2")
    assert "def test_chord" in result.stdout or "assert result.correct" in result.stdout


def test_issue14_item15_project_tests_keep_their_tracebacks(tmp_path):
    (tmp_path / "test_plain.py").write_text("def test_fails():\n    x = 1\n    assert x == 2\n")
    (tmp_path / "conftest.py").write_text(
        'pytest_plugins = ["reports.plugins.report", "fixtures.plugins.trials", '
        '"fixtures.plugins.models"]\n')
    env_path = str(REPO)
    result = subprocess.run(
        [*PYTEST, "-p", "no:cacheprovider", "test_plain.py",
         "--run-dir", str(tmp_path / "run")],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
        env={**os.environ, "PYTHONPATH": env_path},
    )
    assert result.returncode == 1
    assert "assert x == 2" in result.stdout  # the long traceback, source included
