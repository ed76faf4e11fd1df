"""The listener's core-task hearing: MIDI listings read exactly, every rendered stimulus heard as
labelled, unseen patterns too, and replies that are its own transcription in each strategy's
format, or an honest refusal when it cannot hear what it needs."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import soundfile
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fixtures.backends.base import MediaPart, Question
from fixtures.backends.listener import core
from fixtures.tasks.catalog import items_for
from fixtures.tasks.definitions import TASKS
from fixtures.tasks.prompting import (
    STRATEGIES,
    identifiers,
    reply_text,
    stimulus_parts,
    system_instruction,
)
from fixtures.tasks.spec import (
    CLOSED_HIHAT_NOTE,
    KICK_NOTE,
    SNARE_NOTE,
    Clip,
    Item,
    Note,
)
from solvers.logic import count_offbeats
from solvers.schemas import SchemaError

ALL_ITEMS = [item for task in core.CORE_TASKS for item in items_for(task)]
SLOTS = 32


def _ids(items: list[Item]) -> list[str]:
    return [item.item_id for item in items]


def ask(item: Item, modality: str, strategy: str = "logiclm", repair: bool = False) -> str:
    """What the backend hands ``answer_core`` for this item: final-turn audio and prompt text."""
    parts = stimulus_parts(item, modality)
    text = "\n".join(p.text for p in parts if not isinstance(p, MediaPart))
    audio = recordings(item) if modality == "audio" else []
    prompt = f"{system_instruction(item.task, strategy, modality)}\n{text}"
    question = Question(item.task, strategy, modality, identifiers(item, modality), repair=repair)
    return core.answer_core(question, audio, prompt)


def heard(item: Item, modality: str) -> tuple[tuple[int, ...], ...]:
    """The listener's transcription, read back from its own LogicLM line."""
    return TASKS[item.task].parse(ask(item, modality), identifiers(item, modality))


def drum_item(kicks: set[int], snares: set[int]) -> Item:
    """A syncopation-style loop built here from the spec classes (hi-hat on every slot)."""
    notes = [Note((s - 1) * 0.5, 0.25, CLOSED_HIHAT_NOTE, 60) for s in range(1, SLOTS + 1)]
    notes += [Note((s - 1) * 0.5, 0.25, KICK_NOTE, 112) for s in kicks]
    notes += [Note((s - 1) * 0.5, 0.25, SNARE_NOTE, 104) for s in snares]
    notes.sort(key=lambda n: (n.start_beats, n.midi_note))
    clip = Clip(notes=tuple(notes), tempo_bpm=120.0, is_drums=True)
    onsets = tuple(sorted(kicks | snares))
    return Item("syncopation", "probe", "test", "?", (clip,), (onsets,), "probe")


@pytest.mark.parametrize("item", ALL_ITEMS, ids=_ids(ALL_ITEMS))
def test_midi_listing_is_read_exactly(item: Item) -> None:
    assert heard(item, "midi") == item.transcription


@pytest.mark.parametrize("item", ALL_ITEMS, ids=_ids(ALL_ITEMS))
def test_recording_is_heard_as_labelled(item: Item) -> None:
    assert heard(item, "audio") == item.transcription


slot_sets = st.sets(st.integers(1, SLOTS), min_size=1, max_size=20)


@given(kicks=slot_sets, snares=slot_sets)
@settings(max_examples=50, deadline=None)
def test_any_drum_listing_is_read_as_its_kick_and_snare_slots(kicks, snares) -> None:
    snares = snares - kicks
    item = drum_item(kicks, snares)
    assert heard(item, "midi") == item.transcription


@given(kicks=slot_sets, snares=slot_sets)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_unseen_drum_loops_are_heard_on_their_slots(kicks, snares) -> None:
    snares = snares - kicks
    item = drum_item(kicks, snares)
    assert heard(item, "audio") == item.transcription


@given(pitches=st.lists(st.integers(40, 90), min_size=1, max_size=16),
       tempo_bpm=st.sampled_from((60.0, 97.0, 144.0)))
@settings(max_examples=50, deadline=None)
def test_any_melody_listing_is_read_in_order(pitches, tempo_bpm) -> None:
    clips = tuple(
        Clip(tuple(Note(i * 0.5, 0.45, p) for i, p in enumerate(line)), tempo_bpm)
        for line in (pitches, [p + 3 for p in pitches])
    )
    truth = (tuple(pitches), tuple(p + 3 for p in pitches))
    item = Item("transposition", "probe", "test", "yes", clips, truth, "probe")
    assert heard(item, "midi") == truth


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("task", core.CORE_TASKS)
def test_every_strategy_replies_with_the_right_answer_in_its_format(task, strategy) -> None:
    item = items_for(task, "test")[0]
    definition = TASKS[task]
    reply = ask(item, "audio", strategy)
    if strategy == "logiclm":
        assert definition.solve(definition.parse(reply, identifiers(item, "audio"))) == item.answer
    else:
        assert definition.extract_answer(reply) == item.answer
    ids = identifiers(item, "audio")
    assert reply == reply_text(task, strategy, item.transcription, ids)


@pytest.mark.parametrize("strategy", ("standalone", "cot"))
def test_a_count_that_is_no_option_gets_no_final_answer(strategy) -> None:
    item = drum_item({1, 2, 4, 6}, set())  # three off-beat hits: options are 0, 2, 4, 6, 8
    assert count_offbeats(item.transcription[0]) == 3
    for modality in ("midi", "audio"):
        reply = ask(item, modality, strategy)
        assert "Final Answer" not in reply
        assert TASKS["syncopation"].extract_answer(reply) is None


def test_a_count_that_is_no_option_is_still_transcribed_for_logiclm() -> None:
    item = drum_item({1, 2, 4, 6}, set())
    assert heard(item, "midi") == ((1, 2, 4, 6),)


def test_a_repair_without_the_stimulus_is_declined() -> None:
    item = items_for("chord", "test")[0]
    question = Question("chord", "logiclm", "audio", identifiers(item, "audio"), repair=True)
    reply = core.answer_core(question, [], "A program could not use your previous reply.")
    with pytest.raises(SchemaError):
        TASKS["chord"].parse(reply, identifiers(item, "audio"))
    assert "Final Answer" not in reply


@pytest.mark.parametrize("modality", ("audio", "midi"))
def test_a_repair_with_the_stimulus_repeats_the_same_transcription(modality) -> None:
    item = items_for("transposition", "test")[0]
    assert ask(item, modality, repair=True) == ask(item, modality)


def recordings(item: Item) -> list[Path]:
    return [Path(p.path) for p in stimulus_parts(item, "audio") if isinstance(p, MediaPart)]


def test_a_missing_recording_is_declined() -> None:
    item = items_for("transposition", "test")[0]
    question = Question("transposition", "standalone", "audio", identifiers(item, "audio"))
    reply = core.answer_core(question, recordings(item)[:1], "")
    assert "2 recording(s)" in reply and TASKS["transposition"].extract_answer(reply) is None


def test_no_stated_tempo_means_no_grid() -> None:
    item = items_for("syncopation", "test")[0]
    question = Question("syncopation", "standalone", "audio", identifiers(item, "audio"))
    reply = core.answer_core(question, recordings(item), "Stimulus: x.wav")
    assert "tempo" in reply and TASKS["syncopation"].extract_answer(reply) is None


@pytest.mark.parametrize("task", core.CORE_TASKS)
def test_silence_is_declined(task, tmp_path) -> None:
    path = tmp_path / f"silence-{task}.wav"
    soundfile.write(path, np.zeros(22050 * 3, dtype=np.float32), 22050)
    count = 2 if task == "transposition" else 1
    ids = tuple(f"s{i}.wav" for i in range(count))
    question = Question(task, "standalone", "audio", ids)
    reply = core.answer_core(question, [path] * count, "four bars of 4/4 at 120 BPM")
    assert "Final Answer" not in reply and TASKS[task].extract_answer(reply) is None


MELODY = (60, 62, 64, 65, 67, 65, 64, 62)
UP_A_FOURTH = tuple(p + 5 for p in MELODY)


def test_melodies_one_note_off_are_declined() -> None:
    misheard = (*UP_A_FOURTH[:3], UP_A_FOURTH[3] + 1, *UP_A_FOURTH[4:])
    with pytest.raises(core.CannotHear, match="single note"):
        core._compared_melodies((MELODY, misheard))


@pytest.mark.parametrize("slip", [
    (*UP_A_FOURTH[:2], UP_A_FOURTH[1], UP_A_FOURTH[3] - 12, *UP_A_FOURTH[4:]),  # repeat, octave
    (*UP_A_FOURTH[:4], UP_A_FOURTH[3], *UP_A_FOURTH[5:6], UP_A_FOURTH[5], UP_A_FOURTH[7]),
])
def test_melodies_off_only_where_i_may_slip_are_declined(slip) -> None:
    with pytest.raises(core.CannotHear, match="misheard"):
        core._compared_melodies((MELODY, slip))


def test_melodies_surely_two_notes_off_differ() -> None:
    other = (*UP_A_FOURTH[:2], 71, 69, *UP_A_FOURTH[4:])
    assert core._compared_melodies((MELODY, other)) == (MELODY, other)
    assert TASKS["transposition"].solve((MELODY, other)) == "no"


@pytest.mark.parametrize("missed", range(len(MELODY)))
def test_a_missed_note_in_the_same_melody_is_the_same_melody(missed) -> None:
    shorter = UP_A_FOURTH[:missed] + UP_A_FOURTH[missed + 1:]
    first, second = core._compared_melodies((MELODY, shorter))
    assert second == shorter and len(first) == len(shorter)
    assert TASKS["transposition"].solve((first, second)) == "yes"
    assert core._compared_melodies((shorter, MELODY))[0] == shorter


def test_a_missed_note_in_melodies_that_differ_twice_is_different() -> None:
    other = (*UP_A_FOURTH[:2], 71, 69, *UP_A_FOURTH[4:])  # two notes changed
    heard = other[:6] + other[7:]  # and the seventh missed
    assert core._compared_melodies((MELODY, heard)) == (MELODY, heard)
    assert TASKS["transposition"].solve((MELODY, heard)) == "no"


@pytest.mark.parametrize("heard", [
    UP_A_FOURTH[:3] + (UP_A_FOURTH[3] + 1,) + UP_A_FOURTH[4:7],  # missed and one off
    UP_A_FOURTH[:6],  # two notes missed
])
def test_a_missed_note_that_leaves_doubt_is_declined(heard) -> None:
    with pytest.raises(core.CannotHear, match="escaped me"):
        core._compared_melodies((MELODY, heard))
