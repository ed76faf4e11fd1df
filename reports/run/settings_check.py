"""Merged runs must not pool one model's trials asked under different settings.

``python -m reports build A B`` pools each model's trials by task and axes. Two runs of the
same model at temperature 0 and 0.7 (or another top-p, token limit, number of samples, thinking
budget or level, or against another endpoint or model id) measure two different things, and
pooling them would make a number neither run measured, the way a prompt edit would (which
``task_version`` guards). Such a set is refused, naming the model, each setting, its values and
the runs; ``python -m reports compare`` is the tool for setting against setting. The settings
come from each run's header: its ``options``, what each model resolved to (``models``) and its
identity (``reports.run.identity``); a run recorded before a setting was saved is not compared
on it.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from reports.run.identity import ADDED_DEFAULTS

# the run options that change what a model is asked to generate (seeds differ by design)
GENERATION_SETTINGS = ("temperature", "top_p", "max_output_tokens", "samples")
THINKING_SETTINGS = ("thinking_budget", "thinking_level")  # saved in the header's identity
RESOLVED_SETTINGS = ("base_url", "model_id")  # what the model's name reached (header "models")
DEFAULT_ENDPOINT = "the default endpoint"


def settings_problem(headers: list[dict], run_dirs: list[Path]) -> str | None:
    """Why the runs cannot be pooled, or None. Runs without a summary say nothing."""
    seen: dict[tuple[str, str], dict[object, list[Path]]] = defaultdict(lambda: defaultdict(list))
    for header, run_dir in zip(headers, run_dirs, strict=True):
        options = header.get("options")
        if not isinstance(options, dict):
            continue
        for model in options.get("models") or header.get("models") or ():
            for name, value in _settings(header, str(model)).items():
                seen[(str(model), name)][_hashable(value)].append(run_dir)
    problems = []
    for (model, name), runs_by_value in seen.items():
        if len(runs_by_value) > 1:
            given = "; ".join(f"{value} in {', '.join(map(str, runs))}"
                              for value, runs in runs_by_value.items())
            problems.append(f"model {model} ran with {name} {given}")
    if not problems:
        return None
    return ("these runs would pool trials asked under different settings into one "
            "cell: " + "; ".join(problems) + ". Build them separately, or compare them with "
            "python -m reports compare")


def _hashable(value: object) -> object:
    return tuple(value) if isinstance(value, list) else value


def _settings(header: dict, model: str) -> dict[str, object]:
    """The settings ``model`` was asked under in one run (those the header records)."""
    options = header["options"]
    settings = {name: options.get(name, ADDED_DEFAULTS.get(name)) for name in GENERATION_SETTINGS}
    identity = header.get("identity")
    if isinstance(identity, dict) and isinstance(identity.get("options"), dict):
        settings.update({name: identity["options"].get(name) for name in THINKING_SETTINGS})
    resolved = header.get("models")
    if isinstance(resolved, dict) and isinstance(resolved.get(model), dict):
        settings["base_url"] = resolved[model].get("base_url") or DEFAULT_ENDPOINT
        settings["model_id"] = resolved[model].get("model_id")
    return settings


def task_version_problem(records) -> str | None:
    """Why the records (a frame of every input's trials) cannot be pooled because one model's
    task was asked under two ``task_version`` values (an edited prompt or scorer), or None.
    Records from before versions were stamped (empty) are not compared."""
    if "task_version" not in records:
        return None
    stamped = records[records["task_version"].fillna("").astype(str) != ""]
    versions = stamped.groupby(["model", "task"])["task_version"].unique()
    mixed = [f"model {model} task {task} under {', '.join(sorted(map(str, found)))}"
             for (model, task), found in versions.items() if len(found) > 1]
    if not mixed:
        return None
    return ("these records would pool trials asked under different prompts or scoring "
            "(task_version) into one cell: " + "; ".join(mixed) + ". Build them separately, "
            "or compare them with python -m reports compare")
