"""The vLLM recipe's eartest half, run against a fake OpenAI-compatible server (issue 20).

No GPU or vLLM here: the launcher's dry run prints the ``vllm serve`` command and the eartest
command that matches it; the eartest command must run as printed against a server that
speaks the same wire format, with the served model name and audio parts vLLM accepts.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
from pathlib import Path

from tests_solvers import PYTEST
from tests_solvers.fakes.openai_server import FakeOpenAIServer

REPO = Path(__file__).resolve().parent.parent
SERVE = REPO / "scripts" / "vllm" / "serve.sh"


def dry_run(preset: str, **env: str) -> tuple[list[str], list[str]]:
    done = subprocess.run(["bash", str(SERVE), "--dry-run", preset], capture_output=True,
                          text=True, timeout=60, env=os.environ | env)
    assert done.returncode == 0, done.stderr
    lines = dict(line.split(":", 2)[1:] for line in done.stdout.splitlines())
    return shlex.split(lines[" serve"]), shlex.split(lines[" run"])


def test_launcher_flags_follow_the_settings():
    serve, run = dry_run("qwen2.5-omni", VLLM_DP="2", VLLM_TP="4", VLLM_MAX_SEQS="32",
                         VLLM_AUDIO_LIMIT="6")
    flags = dict(zip(serve[3::2], serve[4::2], strict=False))
    assert serve[:3] == ["vllm", "serve", "Qwen/Qwen2.5-Omni-7B"]
    assert flags["--tensor-parallel-size"] == "4" and flags["--data-parallel-size"] == "2"
    assert flags["--max-num-seqs"] == "32"
    assert json.loads(flags["--limit-mm-per-prompt"])["audio"] == 6
    assert flags["--generation-config"] == "vllm"  # eartest's own temperature is sent as is
    assert run[run.index("--concurrency") + 1] == "64"  # 2 copies × 32 sequences
    assert run[run.index("--model") + 1] == "openai:" + flags["--served-model-name"]
    bad = subprocess.run(["bash", str(SERVE), "--dry-run", "nope"], capture_output=True,
                         text=True, timeout=60)
    assert bad.returncode == 2 and "unknown preset 'nope'" in bad.stderr


def test_the_printed_eartest_command_runs_against_an_openai_compatible_server(tmp_path):
    _, run = dry_run("qwen2-audio")
    assert run[:2] == ["pytest", "bench"]
    args = run[2:]
    args[args.index("--base-url") + 1] = "{base_url}"
    del args[args.index("-n"):args.index("-n") + 2]  # one process is enough for 44 trials
    with FakeOpenAIServer() as server:
        args = [a.replace("{base_url}", server.base_url) for a in args]
        done = subprocess.run(
            [*PYTEST, "bench", *args, "--ignore=bench/test_pitch", "-k", "chord", "--modality",
             "audio", "--shot", "zero", "--strategy", "standalone", "-q", "-p",
             "no:cacheprovider", "--cache-path", str(tmp_path / "r.sqlite"), "--run-dir",
             str(tmp_path / "run"), "--no-report"],  # what the server received is checked
            cwd=REPO, capture_output=True, text=True, timeout=600,
            env={k: v for k, v in os.environ.items() if k != "PYTEST_XDIST_WORKER"})
        assert done.returncode in (0, 1), done.stdout[-2000:] + done.stderr[-2000:]
        bodies = [r.body for r in server.requests if r.body]
    assert len(bodies) == 44
    assert {body["model"] for body in bodies} == {"qwen2-audio"}
    parts = [part for body in bodies for message in body["messages"]
             if isinstance(message["content"], list) for part in message["content"]]
    audio = [part for part in parts if part["type"] == "input_audio"]
    assert len(audio) == 44 and {part["input_audio"]["format"] for part in audio} == {"wav"}
