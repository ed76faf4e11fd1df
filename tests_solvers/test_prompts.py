"""Prompt wording is snapshot-tested: every change to a template is a visible diff.

Update deliberately with ``pytest tests_solvers/test_prompts.py --snapshot-update``.
"""

import itertools

import pytest

from fixtures.backends.base import GenerationSettings
from fixtures.tasks.catalog import TASK_NAMES, items_for
from fixtures.tasks.prompting import (
    MODALITIES,
    STRATEGIES,
    identifiers,
    repair_request,
    reply_text,
    system_instruction,
    undecidable_message,
)

CELLS = list(itertools.product(TASK_NAMES, STRATEGIES, MODALITIES))


@pytest.mark.parametrize(("task", "strategy", "modality"), CELLS)
def test_system_instruction(snapshot, task, strategy, modality):
    text = system_instruction(task, strategy, modality)
    assert "$" not in text, "an unfilled template placeholder"
    assert text == snapshot


@pytest.mark.parametrize(("task", "strategy"), list(itertools.product(TASK_NAMES, STRATEGIES)))
def test_worked_example_reply(snapshot, task, strategy):
    example = items_for(task, "fewshot")[0]
    text = reply_text(task, strategy, example.transcription, identifiers(example, "audio"))
    assert text == snapshot


@pytest.mark.parametrize("task", TASK_NAMES)
def test_repair_prompt(snapshot, task):
    item = items_for(task, "test")[0]
    request = repair_request(
        item, "midi", "chord(x, [C4])", "schema_parse", "value 'C4' is not an integer",
        GenerationSettings(), 1,
    )
    assert (request.system, request.turns[0].text) == snapshot


def test_undecidable_messages(snapshot):
    messages = {
        "syncopation": undecidable_message("syncopation", ((2, 4, 6),)),
        "chord": undecidable_message("chord", ((60, 62, 67),)),
        "transposition": undecidable_message("transposition", ((), (60,))),
    }
    assert messages == snapshot


@pytest.mark.parametrize(("task", "strategy", "modality"), CELLS)
def test_answer_format_is_what_the_judge_reads(task, strategy, modality):
    """The final-answer wording the prompt demands must be what the extractor accepts."""
    text = system_instruction(task, strategy, modality)
    if strategy == "logiclm":
        schema = {"syncopation": "rhythm(", "transposition": "melody(", "chord": "chord("}[task]
        assert schema in text
    elif task == "transposition":
        assert "Yes, these are the same melody." in text
        assert "No, these are not the same melody." in text
    else:
        assert "Final Answer: X" in text
