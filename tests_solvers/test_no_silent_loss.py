"""Issue 14, "data loss and checks that cannot fail": each test reproduces one defect a hostile
newcomer found (the item number is in the test's name) and holds the fix in place.

The reports CLI runs in a subprocess, as a user runs it; the gate runs through pytester on a
small bench of its own with the real plugins.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fixtures.backends.base import Response
from fixtures.sending.response_cache import CacheError, ResponseCache
from tests_solvers import CORE_BENCH, PYTEST, trial_row
from tests_solvers.fakes.gemini_server import FakeGeminiServer

REPO = Path(__file__).resolve().parent.parent
pytest_plugins = ["pytester"]


def _record(model: str, trial_id: str, correct: bool) -> dict:
    task, modality, shot, strategy, _ = trial_id.split("/")
    return {"record_version": 1, "model": model, "trial_id": trial_id, "task": task,
            "modality": modality, "shot": shot, "strategy": strategy, "correct": correct,
            "error_class": None,
            "truth": "A", "parsed_answer": "A" if correct else "B", "turns": []}


def _run(folder: Path, model: str, ids: list[str]) -> Path:
    folder.mkdir(parents=True)
    lines = [json.dumps(_record(model, t, n % 2 == 0)) for n, t in enumerate(ids)]
    (folder / "trials.jsonl").write_text("\n".join(lines) + "\n")
    return folder


def reports(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "reports", *args], cwd=REPO,
                          capture_output=True, text=True, timeout=300)


IDS = [f"chord/midi/zero/standalone/chord{n}" for n in range(1, 9)]


# -- item 1: `reports build --out` into an existing run ------------------------------------------
def test_item01_build_refuses_existing_run_dir(tmp_path: Path) -> None:
    existing = _run(tmp_path / "existing", "oracle", IDS)
    (existing / "glmm.csv").write_text("old table\n")
    before = (existing / "trials.jsonl").read_text()
    other = _run(tmp_path / "other", "chance", IDS[:3])
    result = reports("build", str(other), "--out", str(existing))
    assert result.returncode == 4, result.stderr
    assert "already holds a run" in result.stderr
    assert "Traceback" not in result.stderr
    assert (existing / "trials.jsonl").read_text() == before  # nothing replaced
    assert sorted(p.name for p in existing.iterdir()) == ["glmm.csv", "trials.jsonl"]


def test_item01_build_refuses_an_out_that_is_a_file(tmp_path: Path) -> None:
    run = _run(tmp_path / "run", "oracle", IDS)
    target = tmp_path / "out.txt"
    target.write_text("keep me\n")
    result = reports("build", str(run), "--out", str(target))
    assert result.returncode == 4
    assert "is a file" in result.stderr and "Traceback" not in result.stderr
    assert target.read_text() == "keep me\n"


# -- item 11: `reports compare` with nothing in common; exit codes as pytest's -------------------
def test_item11_compare_with_no_common_trial_is_an_error(tmp_path: Path) -> None:
    a = _run(tmp_path / "a", "oracle", IDS[:4])
    b = _run(tmp_path / "b", "oracle", IDS[4:])
    result = reports("compare", str(a), str(b))
    assert result.returncode == 4, result.stdout
    assert "no trial in common" in result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


@pytest.mark.parametrize(
    "args",
    [["build", "/nonexistent/run"], ["compare", "/nonexistent/a", "/nonexistent/b"],
     ["compare", "only-one"], ["bild", "x"], []],
    ids=["missing-run", "missing-runs", "missing-argument", "typo", "no-command"],
)
def test_item11_reports_usage_errors_exit_4_in_one_message(args: list[str]) -> None:
    result = reports(*args)
    assert result.returncode == 4, (result.returncode, result.stderr)
    assert "Traceback" not in result.stderr
    assert result.stderr.strip().splitlines()[-1].startswith("python -m reports")


def test_item11_compare_of_paired_runs_still_works(tmp_path: Path) -> None:
    a = _run(tmp_path / "a", "oracle", IDS)
    b = _run(tmp_path / "b", "oracle", IDS)
    result = reports("compare", str(a), str(b))
    assert result.returncode == 0, result.stderr
    assert "chord" in result.stdout



# -- item 2: a gate that compared nothing, or only part of the run ---------------------------------
def bench_axes(*args: str) -> subprocess.CompletedProcess:
    cmd = [*PYTEST, *CORE_BENCH, "-q", "-p", "no:cacheprovider",
           "--no-report", *args]
    return subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=600)


def bench(*args: str) -> subprocess.CompletedProcess:
    """The core bench on the MIDI, zero-shot, standalone slice."""
    return bench_axes("--modality", "midi", "--shot", "zero", "--strategy", "standalone", *args)


@pytest.fixture(scope="module")
def chord_baseline(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A chance baseline of the 44 chord trials (seed 0): chance gets most of them wrong."""
    folder = tmp_path_factory.mktemp("chord_baseline")
    saved = bench("--model", "chance", "-m", "chord", "--run-dir", str(folder / "run"),
                  "--baseline-save", str(folder / "chord.json"))
    assert saved.returncode == 1, saved.stdout[-2000:]
    return folder / "chord.json"


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["serial", "xdist"])
def test_item02_gate_that_compared_nothing_fails(
    tmp_path: Path, chord_baseline: Path, workers: list[str]
) -> None:
    result = bench("--model", "chance", "-m", "syncopation", "--run-dir", str(tmp_path / "r"),
                   "--baseline", str(chord_baseline), "--gate", "0.01", *workers)
    assert result.returncode != 0, result.stdout[-2000:]
    assert "gate at alpha 0.01 passed" not in result.stdout
    assert "holds none of this run's 20 trials" in result.stdout + result.stderr
    assert "Traceback" not in result.stdout + result.stderr


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["serial", "xdist"])
def test_item02_gate_on_a_partial_baseline_fails_unless_gate_partial(
    tmp_path: Path, chord_baseline: Path, workers: list[str]
) -> None:
    both = ["--model", "chance", "-m", "chord or syncopation", "--baseline", str(chord_baseline),
            "--gate", "0.01", *workers]
    partial = bench(*both, "--run-dir", str(tmp_path / "a"))
    assert partial.returncode != 0, partial.stdout[-2000:]
    assert "holds only 44 of this run's 64 trials" in partial.stdout + partial.stderr
    assert "gate at alpha 0.01 passed" not in partial.stdout
    allowed = bench(*both, "--gate-partial", "--run-dir", str(tmp_path / "b"))
    assert allowed.returncode == 0, allowed.stdout[-2000:]
    assert "gate at alpha 0.01 passed" in allowed.stdout


def test_item02_gate_partial_needs_gate() -> None:
    result = bench("--gate-partial", "--collect-only")
    assert result.returncode == 4
    assert "--gate-partial qualifies --gate" in result.stderr


# -- item 6: a response cache with damaged pages ---------------------------------------------------
def _damaged_cache(path: Path) -> Path:
    """A real cache of 600 answers whose header and schema are intact but whose pages 21-23
    are overwritten, as a disk or a careless copy might leave it."""
    with ResponseCache(path) as cache:
        for number in range(600):
            cache.put(f"key{number:05d}", Response("Final Answer: A " + "x" * 900), "gemini",
                      "gemini-2.5-pro")
    with path.open("r+b") as handle:
        handle.seek(4096 * 20)
        handle.write(b"\xa5" * 4096 * 3)
    return path


def test_item06_damaged_response_cache_is_refused_when_opened(tmp_path: Path) -> None:
    path = _damaged_cache(tmp_path / "responses.sqlite")
    with pytest.raises(CacheError, match="responses.sqlite") as raised:
        ResponseCache(path).open()
    assert "delete or move the file" in str(raised.value)
    assert "\n" not in str(raised.value)


def test_item06_damaged_response_cache_stops_the_run_before_any_trial(tmp_path: Path) -> None:
    path = _damaged_cache(tmp_path / "responses.sqlite")
    env = {**os.environ, "GEMINI_API_KEY": "AIza-test-key"}
    with FakeGeminiServer() as server:
        env["GEMINI_BASE_URL"] = server.base_url
        result = subprocess.run(
            [*PYTEST, *CORE_BENCH, "-q", "-p", "no:cacheprovider",
             "--model", "gemini-pro", "-m", "chord and midi and zero and standalone",
             "--cache-path", str(path), "--run-dir", str(tmp_path / "run")],
            cwd=REPO, capture_output=True, text=True, timeout=600, env=env,
        )
        assert server.generate_count == 0
    assert result.returncode == 4, result.stdout[-2000:]
    assert f"--cache: the response cache {path}" in result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    assert not (tmp_path / "run").exists()


def test_item06_sound_cache_opens_and_answers(tmp_path: Path) -> None:
    with ResponseCache(tmp_path / "ok.sqlite") as cache:
        cache.put("k", Response("Final Answer: B"), "gemini", "m")
    with ResponseCache(tmp_path / "ok.sqlite") as cache:
        assert cache.open().get("k").text == "Final Answer: B"


# -- item 4: recordings whose file names the schema grammar does not accept -----------------------
HOSTILE_NAMES = ("take 1.wav", "chord (1).wav", "accord é.wav", "a,b.wav", "x[1].wav",
                 "it's.wav")


def test_item04_hostile_recording_names_are_announced_as_schema_identifiers(
    tmp_path: Path,
) -> None:
    import csv
    import shutil

    from fixtures.export.folder import STIMULI_COLUMNS, stimuli_manifest_row
    from fixtures.stimuli import wav_path
    from fixtures.tasks.catalog import items_for

    manifest = tmp_path / "my recordings" / "stimuli.csv"
    manifest.parent.mkdir()
    with manifest.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=STIMULI_COLUMNS, restval="")
        writer.writeheader()
        for item, name in zip(items_for("chord", "test"), HOSTILE_NAMES, strict=False):
            shutil.copyfile(wav_path(item.clips[0]), manifest.parent / name)
            writer.writerow(stimuli_manifest_row(item, [name]) | {"item_id": ""})
    result = bench_axes("--model", "oracle", "--stimuli-manifest", str(manifest),
                        "--modality", "audio", "--shot", "zero", "--strategy", "logiclm",
                        "--run-dir", str(tmp_path / "run"))
    assert result.returncode == 0, result.stdout[-3000:]
    lines = (tmp_path / "run" / "trials.jsonl").read_text().splitlines()
    found = [trial_row(line) for line in lines]
    assert len(found) == len(HOSTILE_NAMES)
    assert all(r["correct"] and r["error_class"] is None for r in found)


def test_item04_two_melodies_are_told_apart_by_their_audio_not_their_names(
    tmp_path: Path,
) -> None:
    """Names that differ only in characters the schema grammar refuses are two melodies (each
    announced by the hash of its audio); the same audio twice (a "same" pair of one file, as
    MUSE's protocol has them) is announced by two names salted by position."""
    import csv
    import shutil

    from fixtures.stimuli import wav_path
    from fixtures.tasks.catalog import items_for
    from fixtures.tasks.manifest import load_manifest
    from fixtures.tasks.prompting import identifiers

    item = items_for("transposition", "test")[0]
    for name, clip in zip(("a b.wav", "a,b.wav"), item.clips, strict=True):
        shutil.copyfile(wav_path(clip), tmp_path / name)
    shutil.copyfile(wav_path(item.clips[0]), tmp_path / "copy.wav")
    manifest = tmp_path / "m.csv"
    with manifest.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["task", "audio", "audio_2", "same"])
        writer.writerow(["transposition", "a b.wav", "a,b.wav", "yes"])
    (loaded,) = load_manifest(manifest).items
    assert len(set(identifiers(loaded, "audio"))) == 2
    with manifest.open("a", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerow(["transposition", "copy.wav", "a b.wav", "yes"])
    twice = load_manifest(manifest).items[1]
    names = identifiers(twice, "audio")
    assert len(set(names)) == 2 and not set(names) & set(identifiers(loaded, "audio"))


# -- item 5: stimulus cache files damaged behind an intact header; exports linked to the cache ----
def _forget_validations() -> None:
    """What a new process starts with: no file validated yet."""
    from fixtures.stimuli import cache as stimulus_cache

    stimulus_cache._valid_memo.clear()
    stimulus_cache._sha256_memo.clear()


def test_item05_cached_wav_with_garbage_samples_is_rendered_again(tmp_path: Path) -> None:
    import hashlib

    import soundfile

    from fixtures.stimuli import synth
    from fixtures.stimuli.cache import cached_file, sha256_file
    from fixtures.tasks.catalog import items_for

    good = synth.render_wav(items_for("chord", "test")[0].clips[0])
    calls: list[int] = []
    key = hashlib.sha256(f"item05{tmp_path}".encode()).hexdigest()
    path = cached_file(key, ".wav", lambda: calls.append(1) or good)
    header_bytes = len(good) - soundfile.info(path).frames * 4  # 16-bit stereo samples
    damaged = good[:header_bytes] + bytes(reversed(good[header_bytes:]))
    path.write_bytes(damaged)  # same header, same size: only the samples differ
    assert soundfile.info(path).frames == soundfile.info(io.BytesIO(good)).frames
    _forget_validations()
    assert cached_file(key, ".wav", lambda: calls.append(1) or good) == path
    assert len(calls) == 2 and path.read_bytes() == good
    assert sha256_file(path) == hashlib.sha256(good).hexdigest()
    _forget_validations()
    cached_file(key, ".wav", lambda: calls.append(1) or good)
    assert len(calls) == 2  # a sound file is served as it is


def test_item05_editing_an_export_leaves_the_cache_untouched(tmp_path: Path) -> None:
    from fixtures.stimuli import wav_path
    from fixtures.tasks.catalog import items_for

    result = subprocess.run(
        [sys.executable, "-m", "fixtures", "export", str(tmp_path / "out"), "--task", "chord",
         "--split", "test"],
        cwd=REPO, capture_output=True, text=True, timeout=600,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    clip = items_for("chord", "test")[0].clips[0]
    cached = wav_path(clip)
    before = cached.read_bytes()
    for exported in (tmp_path / "out" / "stimuli" / f"{clip.stimulus_name}.wav",
                     tmp_path / "out" / "chord1.wav"):
        assert exported.read_bytes() == before
        with exported.open("r+b") as handle:  # edited in place, as an audio editor may
            handle.seek(100)
            handle.write(b"\x7f" * 64)
    assert cached.read_bytes() == before


def test_item06_unreadable_cache_record_mid_run_stops_with_one_message(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "responses.sqlite"
    env = {**os.environ, "GEMINI_API_KEY": "AIza-test-key"}
    command = [*PYTEST, *CORE_BENCH, "-q", "-p", "no:cacheprovider",
               "--model", "gemini-pro", "-m", "chord and midi and zero and standalone",
               "--cache-path", str(path), "--no-report"]
    with FakeGeminiServer() as server:
        env["GEMINI_BASE_URL"] = server.base_url
        first = subprocess.run([*command, "--run-dir", str(tmp_path / "a")], cwd=REPO,
                               capture_output=True, text=True, timeout=600, env=env)
        assert first.returncode == 1, first.stdout[-2000:]  # the fake always answers A
        with sqlite3.connect(path) as conn:  # pages intact, records not: passes quick_check
            conn.execute("UPDATE responses SET response_json = '{not json'")
        conn.close()
        second = subprocess.run([*command, "--run-dir", str(tmp_path / "b")], cwd=REPO,
                                capture_output=True, text=True, timeout=600, env=env)
    output = second.stdout + second.stderr
    assert second.returncode == 4, output[-3000:]
    assert "holds an unreadable record" in output
    assert "Traceback" not in output and output.count("unreadable record") == 1


def test_two_runs_started_in_the_same_second_never_share_a_run_directory(tmp_path):
    """Found by CI: two chance runs of the test suite began in the same second, both saw the
    default ``reports/out/<time>-chance`` free, and wrote into one ``trials.jsonl``. Each writer
    now claims its directory atomically when it first writes."""
    from concurrent.futures import ThreadPoolExecutor

    from reports.plugins.report import RecordWriter

    base = tmp_path / "out" / "20261123-120000-chance"
    writers = [RecordWriter(base, fresh=True) for _ in range(8)]
    with ThreadPoolExecutor(8) as pool:
        list(pool.map(lambda w: w.write({"trial_id": str(id(w))}), writers))
    for writer in writers:
        writer.close()
    assert len({w.run_dir for w in writers}) == 8
    assert base in {w.run_dir for w in writers}
    assert all(len(w.path.read_text().splitlines()) == 1 for w in writers)
    unused = RecordWriter(tmp_path / "out" / "never-written", fresh=True)
    unused.close()
    assert not unused.run_dir.exists(), "a run that writes nothing leaves no directory"
