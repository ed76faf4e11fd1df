"""``python -m reports build`` refuses to pool one model's trials asked under different
generation settings (a temperature-0 run and a temperature-0.7 run of the same model)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from reports.run.settings_check import settings_problem
from tests_solvers import PYTEST

REPO = Path(__file__).resolve().parent.parent
SETTINGS = {"models": ["gemini-pro"], "temperature": 0.0, "top_p": 1.0,
            "max_output_tokens": 2048, "samples": 1}


def header(**changed: object) -> dict:
    return {"options": {**SETTINGS, **changed}}


def make_run(path: Path, **changed: object) -> Path:
    path.mkdir()
    (path / "summary.json").write_text(json.dumps({"header": header(**changed)}))
    (path / "trials.jsonl").write_text("")
    return path


def test_two_temperatures_of_one_model_are_refused_with_one_message(tmp_path):
    cold, warm = make_run(tmp_path / "cold"), make_run(tmp_path / "warm", temperature=0.7)
    built = subprocess.run([PYTEST[0], "-m", "reports", "build", str(cold), str(warm),
                            "--out", str(tmp_path / "merged")], cwd=REPO, capture_output=True,
                           text=True, timeout=300)
    assert built.returncode == 4 and "Traceback" not in built.stderr, built.stderr
    [line] = built.stderr.strip().splitlines()
    assert f"model gemini-pro ran with temperature 0.0 in {cold}; 0.7 in {warm}" in line
    assert "python -m reports compare" in line
    assert not (tmp_path / "merged").exists()


def test_what_may_be_pooled_is_not_refused():
    runs = [Path("a"), Path("b")]
    assert settings_problem([header(), header(seed=7)], runs) is None  # seeds differ by design
    other_model = header(models=["gpt-4o"], temperature=0.7)
    assert settings_problem([header(), other_model], runs) is None
    saved_before = {"options": {k: v for k, v in SETTINGS.items() if k != "temperature"}}
    assert settings_problem([header(), saved_before], runs) is None  # ran at the default
    assert settings_problem([header(), {"note": "no summary.json"}], runs) is None
    for name, value in (("top_p", 0.9), ("max_output_tokens", 256), ("samples", 3)):
        assert f"with {name}" in settings_problem([header(), header(**{name: value})], runs)
