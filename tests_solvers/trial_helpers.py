"""What the trial-runner tests share: MIDI-modality trials (no audio is rendered) answered by
``ScriptedBackend`` (which records every request), a chord item with its valid, undecidable
and malformed LogicLM replies, and the task definitions' own reading of a reply."""

from __future__ import annotations

import tomllib

import pytest

from fixtures.backends.base import (
    GenerationSettings,
)
from fixtures.backends.scripted import ScriptedBackend
from fixtures.running.runner import Trial, TrialResult, run_trial_sync
from fixtures.tasks.catalog import TASK_NAMES, items_for
from fixtures.tasks.definitions import TASKS
from fixtures.tasks.prompting import (
    PROMPTS_DIR,
    identifiers,
)
from fixtures.tasks.spec import Item
from solvers.schemas import SchemaError, parse_chord

MODALITY = "midi"
SETTINGS = GenerationSettings()
STRATEGIES = ("standalone", "cot", "logiclm")
SHOTS = ("zero", "few")
FEWSHOT_COUNT = {"syncopation": 2, "transposition": 2, "chord": 4}
SAME = "Yes, these are the same melody."
DIFFERENT = "No, these are not the same melody."

with open(PROMPTS_DIR / "repair.toml", "rb") as _handle:
    REPAIR_PROMPTS = tomllib.load(_handle)


def _test_item(item_id: str) -> Item:
    (item,) = [i for t in TASK_NAMES for i in items_for(t, "test") if i.item_id == item_id]
    return item


CHORD = _test_item("chord17")  # C diminished (Table S1), answer D
[CHORD_ID] = identifiers(CHORD, MODALITY)
[CHORD_PITCHES] = CHORD.transcription
VALID_CHORD = f"chord({CHORD_ID}, [{', '.join(map(str, CHORD_PITCHES))}])"
UNDECIDABLE_CHORD = f"chord({CHORD_ID}, [60, 62, 64])"  # {0, 2, 4}: no quality
UNDECIDABLE_CHORD_2 = f"chord({CHORD_ID}, [60, 61])"  # {0, 1}: no quality
MALFORMED = "It sounds like a dark, tense chord to me."
WRONG_ID = "chord(other.mid, [60, 63, 66])"  # structural: identifier mismatch
OUT_OF_RANGE = f"chord({CHORD_ID}, [60, 63, 660])"


def _run(
    item: Item,
    strategy: str,
    replies=(),
    *,
    script=None,
    shot: str = "zero",
    settings_: GenerationSettings = SETTINGS,
    model: str = "scripted",
) -> tuple[ScriptedBackend, TrialResult]:
    backend = ScriptedBackend(script=script, replies=replies, name=model)
    result = run_trial_sync(backend, Trial(model, MODALITY, shot, strategy, item), settings_)
    return backend, result


def _schema_message(text: str) -> str:
    with pytest.raises(SchemaError) as info:
        parse_chord(text, CHORD_ID)
    return info.value.message


def _judge(task: str, strategy: str, text: str, ids: tuple[str, ...]):
    """Answer a reply gives, read with the task definition (schema + solver for LogicLM)."""
    definition = TASKS[task]
    if strategy == "logiclm":
        return definition.solve(definition.parse(text, ids))
    return definition.extract_answer(text)
