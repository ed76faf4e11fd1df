# make bench  — set everything up, then run the full benchmark (core tasks and pitch
#               experiments) on the built-in listener (MODEL=... for another model)
# make test   — set everything up, then run the project's own tests
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
JOBS ?= auto
MODEL ?= listener

.PHONY: setup system test lint bench labels e2e clean

# Python's bytecode cache is on for everything make runs, whatever the shell says: with
# PYTHONDONTWRITEBYTECODE set (some images set it), every pytest subprocess of the test suite
# compiles the project and rewrites its plugins' asserts again (about a second each).
unexport PYTHONDONTWRITEBYTECODE

setup: system $(STAMP)

system:
	@./scripts/install-system-deps

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ".[test,hf]"
	$(BIN)/pip install --quiet --no-deps "basic-pitch==0.4.0"
	touch $(STAMP)

lint: setup
	$(BIN)/ruff check .

# --dist loadfile: a test file runs on one worker, so a module-scoped fixture (one bench run
# that several tests assert on) is built once, not once on each worker that got a share.
test: setup lint
	$(BIN)/python -m pytest tests_solvers -n $(JOBS) --dist loadfile -q -p no:randomly --durations=40
	$(BIN)/python -m pytest bench --ignore=bench/test_pitch --model oracle -n $(JOBS) -q --no-report \
		--baseline reports/baselines/oracle.json --baseline-strict --gate 0.01
	$(BIN)/python -m pytest bench --ignore=bench/test_pitch --model chance -n $(JOBS) -q --no-report -rN \
		--baseline reports/baselines/chance.json --baseline-strict --gate 0.01
	$(BIN)/python -m pytest bench --ignore=bench/test_pitch --model listener -n $(JOBS) -q --no-report \
		--baseline reports/baselines/listener.json --baseline-strict --gate 0.01

# A wrong answer is a result, not a broken run: pytest's exit code 1 (some trials failed) ends
# make bench normally; anything else fails: interruptions (2), internal errors (3), usage
# errors (4), and a run that finished broken (6: its report could not be written, it crashed
# after its trials, too many errors; docs/options.md#exit-status).
# Why each trial failed is in the run's trials.jsonl and report.html, not printed here.
bench: setup
	@$(BIN)/python -m pytest bench --model $(MODEL) -n $(JOBS) -q -rN --tb=no; \
	rc=$$?; if [ $$rc -eq 1 ]; then echo "make bench: finished; the failed trials are the model's wrong answers"; \
	elif [ $$rc -eq 6 ]; then echo "make bench: the run is BROKEN (exit status 6), not a result: see the BROKEN line above"; exit 6; \
	elif [ $$rc -ne 0 ]; then exit $$rc; fi

# every pitch stimulus of the full set against independent audio analysis (two tracker
# families, octave ambiguity), then the shortcut audit of every core task and pitch experiment
# (nuisance classifiers), then every MUSE item's label and audit; make test checks a sample
labels: setup
	EARTEST_LABEL_SAMPLE=all $(BIN)/python -m pytest tests_solvers/test_pitch_labels.py -n $(JOBS) -q -p no:randomly
	EARTEST_NUISANCE_SAMPLE=all $(BIN)/python -m pytest tests_solvers/test_nuisance_shortcuts.py -n $(JOBS) -q -p no:randomly -k no_nuisance
	EARTEST_MUSE_LABELS=all $(BIN)/python -m pytest tests_solvers/test_muse_labels.py tests_solvers/test_muse_live.py tests_solvers/test_muse_nuisance.py -n $(JOBS) -q -p no:randomly

# the end-to-end runs that make test samples, at full size: every core trial against the fake
# Gemini server, the HF export and manifest round trips on every strategy, oracle serial
# against xdist on every trial, the listener's controls acceptance run on every task
e2e: setup
	EARTEST_E2E=all $(BIN)/python -m pytest tests_solvers/test_models_plugin.py tests_solvers/test_export_hf.py tests_solvers/test_manifest_bench.py tests_solvers/test_bench_plugin.py tests_solvers/test_controls_report.py -n $(JOBS) --dist loadfile -q -p no:randomly

clean:
	rm -rf $(VENV) .cache reports/out .pytest_cache .hypothesis
