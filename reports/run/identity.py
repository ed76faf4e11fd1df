"""A run's identity: everything that decides what a run measures, recorded once.

The identity is saved with the run (``run_options.json``) when its first record is written and
shown in ``summary.json``'s header. It holds:

* ``options``: the options that choose the trials or change what they ask
  (``RESULT_OPTIONS``: models, axes, generation and thinking settings, seeds,
  ``--base-url``, stimuli manifest, rendition, datasets...);
* ``selection``: the test paths, ``--deselect``, ``--ignore`` and ``--ignore-glob`` as given,
  and once collected, the number of selected trials and a fingerprint of their test ids;
* ``models``: what each model name resolved to, endpoint included (``GEMINI_BASE_URL`` and
  ``--base-url`` land here), and ``prompts``: a hash of each family's prompt files, from the
  ``pytest_eartest_run_identity`` hook;
* ``inputs``: a content hash of every file or folder an option names (an edited manifest or
  dataset is another input, whatever its name).

``--resume`` refuses a run whose identity differs (``reports.run.resume``) with one message naming
each difference; ``python -m reports build`` refuses to pool one model's trials across runs
whose settings differ (``reports.run.settings_check``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from pathlib import Path

import pytest

from solvers.sharding import selection_fingerprint

IDENTITY_KEY = pytest.StashKey[dict]()
SELECTION_OPTIONS = ("deselect", "ignore", "ignore_glob")  # pytest's own selection options
COLLECTED = ("trials", "fingerprint")  # the selection's parts known only once collected
FLAGS = {"keyword": "-k", "markexpr": "-m", "musepub_dir": "--muse-recordings"}  # not --<name>
WHOLE_FILE_LIMIT_BYTES = 1024 * 1024  # files in a folder hashed whole up to this size
_CHUNK_BYTES = 1 << 20
# Options that choose the trials or change what they ask: a resume must repeat them.
RESULT_OPTIONS = (
    "model", "modality", "shot", "strategy", "seed", "max_output_tokens", "control",
    "temperature", "top_p", "samples", "shard",
    "stimuli_manifest", "notation", "pitch_sample", "backgrounds", "adaptive",
    "adaptive_trials", "pitch_dataset", "mcq_dataset", "mcq_layout",
    "mcq_repeats", "mcq_examples", "mcq_condition", "mcq_missing", "mcq_root", "mcq_ablate",
    "base_url", "thinking_budget", "thinking_level", "hf_dtype", "hf_batch_size", "keyword",
    "markexpr", "rendition", "live_seed", "live_soundfonts", "answer_extractor",
    "musepub_dir",
)
# Options added after runs were first saved: a saved run without them ran at these values.
ADDED_DEFAULTS = {"temperature": 0.0, "top_p": 1.0, "samples": 1, "pitch_dataset": ""}


def run_options(config: pytest.Config) -> dict:
    """The run's result-deciding options (those this process knows) and its paths."""
    options = {name: config.getoption(name, None) for name in RESULT_OPTIONS}
    return {"options": options, "args": list(config.args)}


def _plain(value: object) -> object:
    """``value`` as it reads back from JSON (tuples as lists, paths as text)."""
    return json.loads(json.dumps(value, default=str))


def selection_identity(test_ids: Iterable[str]) -> dict:
    """The selected trials as a count and an order-free hash of their test ids (the hash a
    shard split records)."""
    ids = sorted(set(test_ids))
    return {"trials": len(ids), "fingerprint": selection_fingerprint(ids)}


def _file_digest(path: Path, digest) -> None:
    with path.open("rb") as handle:
        while chunk := handle.read(_CHUNK_BYTES):
            digest.update(chunk)


def content_hash(path: Path) -> str:
    """sha256 of a file's bytes; of a folder, of each file's relative name, size and (up to
    ``WHOLE_FILE_LIMIT_BYTES``) bytes, so an edited manifest or table in it changes the hash
    without reading gigabytes of media on every run."""
    digest = hashlib.sha256()
    if path.is_file():
        _file_digest(path, digest)
        return digest.hexdigest()
    for file in sorted(p for p in path.rglob("*") if p.is_file()):
        size = file.stat().st_size
        digest.update(f"{file.relative_to(path).as_posix()}\0{size}\0".encode())
        if size <= WHOLE_FILE_LIMIT_BYTES:
            _file_digest(file, digest)
    return digest.hexdigest()


def input_hashes(options: dict) -> dict[str, str]:
    """Content hashes of the files and folders the options name, by option (and path)."""
    hashes: dict[str, str] = {}
    for name, value in sorted(options.items()):
        values = value if isinstance(value, list | tuple) else [value]
        texts = [part.strip() for v in values if isinstance(v, str) for part in v.split(",")]
        for text in texts:
            path = Path(text).expanduser()
            if text and path.exists():
                key = name if len(texts) == 1 else f"{name}:{text}"
                hashes[key] = content_hash(path)
    return hashes


def config_identity(config: pytest.Config) -> dict:
    """The identity as far as the command line, environment and input files tell it (the
    collected selection is added by :func:`with_selection`)."""
    given = run_options(config)
    parts: dict = {"models": {}, "prompts": {}}
    for part in config.hook.pytest_eartest_run_identity(config=config):
        for section, value in part.items():
            parts.setdefault(section, {}).update(value)
    selection = {"args": given["args"],
                 **{name: list(config.getoption(name, None) or []) for name in SELECTION_OPTIONS}}
    return _plain({"options": given["options"], "selection": selection, **parts,
                   "inputs": input_hashes(given["options"])})


def with_selection(identity: dict, test_ids: Iterable[str]) -> dict:
    """``identity`` with the collected selection's count and fingerprint."""
    selection = {**identity.get("selection", {}), **selection_identity(test_ids)}
    return {**identity, "selection": selection}


def _flat(value: object, prefix: tuple[str, ...] = ()) -> dict[tuple[str, ...], object]:
    if isinstance(value, dict):
        flat: dict[tuple[str, ...], object] = {}
        for key, inner in value.items():
            flat.update(_flat(inner, (*prefix, str(key))))
        return flat
    return {prefix: value}


def _flag(option: str) -> str:
    return FLAGS.get(option, "--" + option.replace("_", "-"))


def _label(path: tuple[str, ...]) -> str:
    """What a user calls one part of the identity."""
    section, rest = path[0], path[1:]
    if section == "options" and rest:
        return _flag(rest[0])
    if section == "inputs" and rest:
        name, _, where = rest[0].partition(":")
        return f"the content of {_flag(name)} {where}".rstrip()
    if section == "prompts" and rest:
        return f"the prompt files of fixtures/{rest[0]}"
    if section == "models" and rest:
        return f"model {rest[0]}'s {' '.join(rest[1:]) or 'resolution'}"
    if section == "selection" and rest:
        return {"args": "test paths", "trials": "number of selected trials",
                "fingerprint": "selected trial ids"}.get(rest[0], _flag(rest[0]))
    return " ".join(path)


def differences(saved: dict, now: dict, defaults: dict | None = None) -> list[str]:
    """Each part of the identity that differs, as ``what (was X, now Y)``. What an older
    eartest did not save (a whole section, or an option added since) is not compared, except
    options in ``defaults``, which such a run ran at."""
    defaults = defaults or {}
    saved, now = _plain(saved), _plain(now)
    old, new = _flat(saved), _flat(now)
    known_options = saved.get("options", {})
    found = []
    for path in sorted(set(old) | set(new)):
        if path[0] not in saved:
            continue
        if path[0] == "options" and path[1] not in known_options:
            if path[1] not in defaults:
                continue
            old[path] = defaults[path[1]]
        was, is_now = old.get(path), new.get(path)
        if was != is_now:
            found.append(f"{_label(path)} (was {was!r}, now {is_now!r})")
    return found
