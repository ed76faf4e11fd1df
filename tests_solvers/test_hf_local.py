"""The local transformers backend end to end, on tiny random Qwen2-Audio and Qwen2.5-Omni models.

Nothing is downloaded: the models are built by :mod:`tests_solvers.hf_tiny_models`, and
every load runs with HF_HUB_OFFLINE=1. Random weights answer garbage, so what is tested is the
pipeline: real eartest trials in both modalities and all strategies come back with a record,
counted tokens and a stop/length finish; concurrent requests share one left-padded
``generate`` call; and bad input gets a clear BackendError.
"""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path

import numpy as np
import pytest
import safetensors.torch as safetensors_torch
import soundfile
import torch

from fixtures.backends.base import (
    Backend,
    BackendError,
    GenerationSettings,
    MediaPart,
    Request,
    TextPart,
    Turn,
    UnsupportedInput,
)
from fixtures.backends.hf_local import HFLocalBackend
from fixtures.backends.options import BackendOptions
from fixtures.running.runner import Trial, TrialResult, run_sync, run_trial, run_trial_sync
from fixtures.tasks.catalog import TASK_NAMES, items_for
from fixtures.tasks.prompting import REPAIR_MAX_OUTPUT_TOKENS, build_request
from tests_solvers import CORE_BENCH, PYTEST, trial_row
from tests_solvers.hf_tiny_models import write_tiny_models

SETTINGS = GenerationSettings(max_output_tokens=8)
STRATEGIES = ("standalone", "cot", "logiclm")
FAMILIES = ("qwen2_audio", "qwen2_5_omni")


@pytest.fixture(scope="module", autouse=True)
def _hub_offline():
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HF_HUB_OFFLINE", "1")
        yield


@pytest.fixture(scope="module")
def model_dirs(tmp_path_factory) -> dict[str, Path]:
    return write_tiny_models(tmp_path_factory)


def _backend(path: Path, batch_size: int = 4, **options) -> HFLocalBackend:
    options = BackendOptions(hf_batch_size=batch_size, **options)
    return HFLocalBackend(f"hf:{path}", str(path), options)


def _trials(model: str) -> list[Trial]:
    """Every task × modality × strategy once, alternating zero- and few-shot."""
    trials = []
    for t, task in enumerate(TASK_NAMES):
        items = items_for(task, "test")
        for m, modality in enumerate(("audio", "midi")):
            for s, strategy in enumerate(STRATEGIES):
                shot = "few" if (t + m + s) % 2 else "zero"
                trials.append(Trial(model, modality, shot, strategy, items[s + 3 * m]))
    return trials


def _check(result: TrialResult, trial: Trial, model_id: str) -> None:
    assert isinstance(result, TrialResult)
    record = json.loads(json.dumps(result.record().flat()))
    assert record["trial_id"] == trial.trial_id and record["model_id"] == model_id
    assert record["turns"] and record["turns"][0]["purpose"] == "answer"
    for turn in record["turns"]:
        limit = SETTINGS.max_output_tokens if turn["purpose"] == "answer" else (
            REPAIR_MAX_OUTPUT_TOKENS
        )
        assert turn["error"] is None, turn
        assert turn["finish_reason"] in ("stop", "length"), turn
        assert turn["input_tokens"] > 0 and 1 <= turn["output_tokens"] <= limit, turn
        if turn["finish_reason"] == "length":
            assert turn["output_tokens"] == limit, turn
    assert record["input_tokens"] == sum(t["input_tokens"] for t in record["turns"])


class _Spy:
    """Records what each ``model.generate`` call received, then lets it run."""

    def __init__(self, model) -> None:
        self.original, self.calls = model.generate, []

    def __call__(self, **inputs):
        self.calls.append({k: v for k, v in inputs.items() if isinstance(v, torch.Tensor)})
        return self.original(**inputs)


@pytest.mark.parametrize("family", FAMILIES)
def test_trials_end_to_end(family, model_dirs):
    path = str(model_dirs[family])
    backend = _backend(model_dirs[family])
    assert backend.family == family and backend.model_id == path
    assert isinstance(backend, Backend) and backend.local and backend.max_audio_parts is None
    trials = _trials(f"hf:{path}")
    for trial in trials[::6]:  # one live, unbatched call per task, as a test body makes
        _check(run_trial_sync(backend, trial, SETTINGS), trial, path)
    assert backend.batch_log == [1] * len(backend.batch_log)

    async def prefetch() -> list[TrialResult]:
        return await asyncio.gather(*(run_trial(backend, t, SETTINGS) for t in trials))

    backend.batch_log.clear()
    for trial, result in zip(trials, run_sync(prefetch()), strict=True):
        _check(result, trial, path)
    assert backend.batch_log[0] == backend.batch_size == 4
    assert sum(backend.batch_log) >= len(trials)  # + any LogicLM repairs


@pytest.mark.parametrize("family", FAMILIES)
def test_concurrent_requests_share_one_left_padded_generate(family, model_dirs, monkeypatch):
    batched, single = _backend(model_dirs[family], 4), _backend(model_dirs[family], 1)
    assert batched.model is single.model  # loaded once per process
    spy = _Spy(batched.model)
    monkeypatch.setattr(batched.model, "generate", spy)
    settings = GenerationSettings(max_output_tokens=6)
    requests = [
        build_request(items_for(task, "test")[i], "audio", "zero", "standalone", settings)
        for task in TASK_NAMES for i in range(2)
    ]

    async def ask_all() -> list:
        return await asyncio.gather(*(batched.generate(r) for r in requests))

    together = run_sync(ask_all())
    assert batched.batch_log == [4, 2] and [len(c["input_ids"]) for c in spy.calls] == [4, 2]
    pad = batched.processor.tokenizer.pad_token_id
    # Which requests share a batch follows their arrival (a cold stimulus cache renders some
    # clips later), so not every batch mixes lengths; the one of four always holds two tasks.
    assert any(not call["attention_mask"][:, 0].all() for call in spy.calls)
    for call in spy.calls:
        mask, ids = call["attention_mask"], call["input_ids"]
        assert mask[:, -1].all()  # LEFT padding: each row's padding, if any, comes first
        assert (mask[:, 1:] >= mask[:, :-1]).all()
        assert (ids[mask == 0] == pad).all()
        audio_id = batched.processor.tokenizer.convert_tokens_to_ids("<|AUDIO|>")
        frames = call["feature_attention_mask"].sum(dim=1)
        expected = ((((frames - 1) // 2 + 1) - 2) // 2 + 1).sum()  # the audio encoder's output
        assert (ids == audio_id).sum() == expected
    clips = sum(len(r.media_parts()) for r in requests)
    assert sum(len(c["feature_attention_mask"]) for c in spy.calls) == clips
    alone = [run_sync(single.generate(r)) for r in requests]
    assert single.batch_log == [1] * len(requests)
    # Greedy, float32, left padding with an attention mask: the same tokens either way here.
    assert [(r.text, r.output_tokens, r.input_tokens) for r in together] == [
        (r.text, r.output_tokens, r.input_tokens) for r in alone
    ]
    for response in together:
        assert response.finish_reason in ("stop", "length") and response.latency_s > 0


def test_settings_split_batches_and_sampling_is_seeded(model_dirs):
    backend = _backend(model_dirs["qwen2_audio"], 4)
    item = items_for("chord", "test")[0]
    short, sampled = GenerationSettings(max_output_tokens=3), GenerationSettings(
        temperature=1.0, top_p=0.9, max_output_tokens=6, seed=7
    )
    requests = [build_request(item, "midi", "zero", "cot", s) for s in (short, sampled)]

    async def both() -> list:
        return await asyncio.gather(*(backend.generate(r) for r in requests))

    first, second = run_sync(both())
    assert backend.batch_log == [1, 1]  # different settings never share a generate call
    assert first.output_tokens <= 3
    assert run_sync(backend.generate(requests[1])).text == second.text  # same seed, same sample


def test_identical_requests_stay_separate_jobs(model_dirs):
    backend = _backend(model_dirs["qwen2_audio"], 2)
    item = items_for("transposition", "test")[0]
    request = build_request(item, "audio", "zero", "cot", SETTINGS)

    async def thrice() -> list:
        return await asyncio.gather(*(backend.generate(request) for _ in range(3)))

    responses = run_sync(thrice())
    assert backend.batch_log == [2, 1] and len({r.text for r in responses}) == 1


def test_a_failed_generate_fails_every_caller_in_its_batch(model_dirs, monkeypatch):
    backend = _backend(model_dirs["qwen2_audio"], 2)

    def broken(**inputs):
        raise RuntimeError("CUDA out of memory")

    monkeypatch.setattr(backend.model, "generate", broken)
    request = build_request(items_for("chord", "test")[0], "midi", "zero", "cot", SETTINGS)

    async def twice() -> list:
        calls = (backend.generate(request) for _ in range(2))
        return await asyncio.gather(*calls, return_exceptions=True)

    errors = run_sync(twice())
    assert [type(e) for e in errors] == [BackendError] * 2 and backend.batch_log == [2]
    assert "generation failed" in str(errors[0]) and "out of memory" in str(errors[0])


def _wav(path: Path, seconds: float, rate_hz: int, channels: int = 1) -> MediaPart:
    t = np.arange(int(seconds * rate_hz)) / rate_hz
    tone = 0.2 * np.sin(2 * np.pi * 440 * t)
    soundfile.write(path, np.stack([tone] * channels, axis=1), rate_hz)
    return MediaPart(path, "0" * 64, "audio/wav")


def _request(*parts) -> Request:
    return Request("Answer briefly.", (Turn("user", (TextPart("Listen:"), *parts)),), SETTINGS)


def test_stereo_audio_is_downmixed_and_resampled(model_dirs, tmp_path, monkeypatch):
    backend = _backend(model_dirs["qwen2_5_omni"])
    spy = _Spy(backend.model)
    monkeypatch.setattr(backend.model, "generate", spy)
    clip = _wav(tmp_path / "stereo.wav", 2.0, 44_100, channels=2)
    response = run_sync(backend.generate(_request(clip)))
    assert response.finish_reason in ("stop", "length")
    (call,) = spy.calls
    assert call["feature_attention_mask"].sum() == 200  # 2 s at 16 kHz, 10 ms hop


def test_clear_errors(model_dirs, tmp_path):
    backend = _backend(model_dirs["qwen2_audio"])
    image = MediaPart(tmp_path / "score.png", "0" * 64, "image/png")
    with pytest.raises(UnsupportedInput, match="takes no images"):
        run_sync(backend.generate(_request(image)))
    too_long = _wav(tmp_path / "long.wav", 31.0, 8_000)
    with pytest.raises(BackendError, match="at most 30 s"):
        run_sync(backend.generate(_request(too_long)))
    with pytest.raises(BackendError, match="does not exist"):
        _backend(tmp_path / "no" / "such-model")
    with pytest.raises(BackendError, match="HF_HUB_OFFLINE"):
        _backend(Path("eartest-tests/not-a-cached-model"))
    llama = tmp_path / "llama"
    llama.mkdir()
    (llama / "config.json").write_text(json.dumps({"model_type": "llama"}))
    with pytest.raises(BackendError, match=r"'llama' model.*qwen2_audio, qwen2_5_omni"):
        _backend(llama)
    with pytest.raises(BackendError, match="unknown dtype"):
        _backend(model_dirs["qwen2_audio"], hf_dtype="float33")


def test_score_trials_are_recorded_as_unsupported_and_none_trials_run(model_dirs):
    backend = _backend(model_dirs["qwen2_audio"])
    item = items_for("chord", "test")[0]
    score = run_trial_sync(backend, Trial("hf", "score", "few", "cot", item), SETTINGS)
    assert (score.error_class, score.correct) == ("unsupported_input", False)
    assert "takes no images" in score.error_message
    none_trial = Trial("hf", "none", "zero", "standalone", item)
    _check(run_trial_sync(backend, none_trial, SETTINGS), none_trial, backend.model_id)


def test_incomplete_checkpoint_is_refused(model_dirs, tmp_path):
    partial = tmp_path / "partial"
    shutil.copytree(model_dirs["qwen2_audio"], partial)
    weights = safetensors_torch.load_file(partial / "model.safetensors")
    del weights["multi_modal_projector.linear.weight"]
    safetensors_torch.save_file(weights, partial / "model.safetensors", metadata={"format": "pt"})
    with pytest.raises(BackendError, match="lacks 1 weights"):
        _backend(partial)


def test_identity_names_the_batch_size(model_dirs):
    backend = _backend(model_dirs["qwen2_audio"], 2)
    identity = backend.identity()
    assert identity["batch_size"] == backend.batch_size == 2
    assert identity["model_id"] == str(model_dirs["qwen2_audio"])
    assert identity["family"] == "qwen2_audio" and identity["dtype"] == "float32"
    assert backend.model is _backend(model_dirs["qwen2_audio"], 8).model


@pytest.mark.parametrize("family", FAMILIES)
def test_core_tasks_through_pytest_bench_with_hf_model(family, model_dirs, tmp_path):
    """``pytest bench --model hf:<path>`` as a user runs it: prefetch, batches, records."""
    import os
    import subprocess

    repo = Path(__file__).resolve().parent.parent
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    env.pop("PYTEST_XDIST_WORKER", None)
    result = subprocess.run(
        [*PYTEST, *CORE_BENCH, "-q", "-p", "no:cacheprovider",
         "--model", f"hf:{model_dirs[family]}", "--max-output-tokens", "8",
         "--shot", "zero", "--strategy", "standalone,logiclm",
         "-k", "sync01] or trans01] or chord1]", "--no-report",
         "--cache-path", str(tmp_path / "responses.sqlite"), "--run-dir", str(tmp_path / "run")],
        cwd=repo, env=env, capture_output=True, text=True, timeout=600,
    )
    output = result.stdout[-3000:] + result.stderr[-3000:]
    # a random tiny model's 8-token replies are usually all cut by the token limit, so the run
    # measures nothing: that run is flagged broken (exit 6, docs/options.md), and only that one
    nothing_measured = "eartest: WARNING: nothing was measured" in result.stdout
    assert result.returncode in ((6,) if nothing_measured else (0, 1)), output
    lines = (tmp_path / "run" / "trials.jsonl").read_text().splitlines()
    records = [trial_row(line) for line in lines]
    assert len(records) == 3 * 2 * 2  # tasks x modalities x strategies
    assert {r["task"] for r in records} == set(TASK_NAMES)
    assert all(r["error_class"] != "backend_error" for r in records), records
    assert all(r["output_tokens"] > 0 for r in records)
    assert "eartest prefetch: 12 trials" in result.stdout
