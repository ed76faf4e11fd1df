"""``prompts.jsonl``: what each trial's model was shown, beside ``trials.jsonl``.

A record names its prompt only by ``prompt_hash`` (and each turn by its own): the prompt text
is large (a MIDI listing, few-shot examples) and mostly shared between trials, so writing it
into every record would multiply a run's size. The controller writes each distinct text once
(``{"text_id": ..., "text": ...}``) and each distinct prompt once, as references to those
texts and to its media files (``{"prompt_hash": ..., "system": text_id, "turns": [...]}``).
The report's trial view reads it back; a run without the file (older runs) simply shows no
prompt.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable
from pathlib import Path

PROMPTS_FILE = "prompts.jsonl"
PROMPTS_PROPERTY = "eartest_prompts"  # the user property a trial's prompt views travel in


def text_id(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def compact(views: dict[str, dict], sent: set[str]) -> dict:
    """A trial's prompt views (prompt hash -> ``fixtures.running.asking.prompt_view``) as
    they travel to the controller: texts by id, and only the texts this process has not sent yet
    (``sent`` is updated), so a run's reports (and ``--json-report``) carry each MIDI listing
    and system instruction about once per worker, not once per trial."""
    texts: dict[str, str] = {}

    def ref(text: str) -> str:
        ident = text_id(text)
        if ident not in sent:
            sent.add(ident)
            texts[ident] = text
        return ident

    prompts = {
        prompt_hash: {"system": ref(view["system"]), "turns": [
            {"role": turn["role"],
             "parts": [{"text": ref(p["text"])} if "text" in p else dict(p)
                       for p in turn["parts"]]} for turn in view["turns"]]}
        for prompt_hash, view in views.items()
    }
    return {"texts": texts, "prompts": prompts}


class PromptWriter:
    """Appends prompts to ``<run dir>/prompts.jsonl``, each text and prompt once."""

    def __init__(self, run_dir: Callable[[], Path]) -> None:
        self._run_dir = run_dir  # asked at the first write: a fresh run claims its name late
        self._texts: set[str] = set()
        self._prompts: set[str] = set()
        self._handle = None

    def write(self, payload: dict) -> None:
        """Store one trial's :func:`compact` prompts."""
        for ident, text in payload.get("texts", {}).items():
            if ident not in self._texts:
                self._texts.add(ident)
                self._line({"text_id": ident, "text": text})
        for prompt_hash, prompt in payload.get("prompts", {}).items():
            if prompt_hash not in self._prompts:
                self._prompts.add(prompt_hash)
                self._line({"prompt_hash": prompt_hash, **prompt})

    def _line(self, entry: dict) -> None:
        if self._handle is None:
            self._handle = open(self._run_dir() / PROMPTS_FILE, "a", encoding="utf-8")
        self._handle.write(json.dumps(entry, ensure_ascii=False, sort_keys=True) + "\n")
        self._handle.flush()

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None


def load_prompts(run_dirs: Iterable[Path]) -> tuple[dict[str, str], dict[str, dict]]:
    """(texts by id, prompts by hash) of the runs' ``prompts.jsonl`` files (missing: empty).

    Lines that do not parse are skipped: the prompt view is a reading aid, and a damaged
    sidecar must not stop the report that the trial records make."""
    texts: dict[str, str] = {}
    prompts: dict[str, dict] = {}
    for run_dir in run_dirs:
        path = (run_dir if run_dir.is_dir() else run_dir.parent) / PROMPTS_FILE
        if not path.is_file():
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(entry, dict) and "text_id" in entry:
                texts[entry["text_id"]] = entry.get("text", "")
            elif isinstance(entry, dict) and "prompt_hash" in entry:
                prompts[entry["prompt_hash"]] = entry
    return texts, prompts
