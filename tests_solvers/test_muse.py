"""The MUSE family (fixtures/muse/): its items carry the labels they claim, every reply form
reads back to its answer, and the pure solvers of solvers/muse.py decide as documented."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from fixtures.muse.catalog import TASK_NAMES, items_for
from fixtures.muse.registry import MUSE, TASKS
from fixtures.tasks.prompting import identifiers, reply_text
from solvers.muse import (
    contour,
    major_key,
    meter,
    modulation_answer,
    oddball_answer,
    parse_lines,
    progression_answer,
    rhythm_match_answer,
    sync_compare_answer,
)
from solvers.schemas import SchemaError

STRATEGIES = ("standalone", "cot", "logiclm")


@pytest.mark.parametrize("task", TASK_NAMES)
def test_items_are_seeded_balanced_and_apart(task: str) -> None:
    items = items_for(task)
    test, fewshot = items_for(task, "test"), items_for(task, "fewshot")
    assert 24 <= len(test) <= 48 and fewshot
    assert len({i.item_id for i in items}) == len(items)
    assert len(set(items)) == len(items)  # hashable: requests are memoised on their item
    test_clips = {c.spec_hash() for i in test for c in i.clips}
    assert not test_clips & {c.spec_hash() for i in fewshot for c in i.clips}
    counts = Counter(i.answer for i in test)
    assert set(counts) == set(TASKS[task].answers) and len(set(counts.values())) == 1, counts
    from fixtures.muse import catalog

    rebuilt = catalog._BUILDERS[task]()
    assert [i.clips for i in rebuilt] == [i.clips for i in items]


@pytest.mark.parametrize("task", TASK_NAMES)
def test_every_reply_form_reads_back_to_the_item_answer(task: str) -> None:
    """The solver decides the truth transcription as labelled, and every strategy's reply
    (oracle replies, worked examples) reads back to the answer, in every modality's names."""
    definition = TASKS[task]
    for item in items_for(task):
        assert definition.solve(item.transcription) == item.answer, item.item_id
        for modality in ("audio", "midi"):
            ids = identifiers(item, modality)
            for strategy in STRATEGIES:
                text = reply_text(task, strategy, item.transcription, ids, MUSE)
                if strategy == "logiclm":
                    assert definition.solve(definition.parse(text, ids)) == item.answer, text
                else:
                    assert definition.extract_answer(text) == item.answer, text


@pytest.mark.parametrize("task", TASK_NAMES)
def test_drawn_replies_give_the_answer_they_were_drawn_for(task: str) -> None:
    """The chance backend's replies: each drawn transcription solves to its own answer."""
    definition, rng = TASKS[task], random.Random(5)
    for _ in range(20):
        for answer in definition.answers:
            assert definition.solve(definition.sample_transcription(answer, rng)) == answer


@pytest.mark.parametrize("task", TASK_NAMES)
def test_the_matched_nuisances_are_equal_across_answers(task: str) -> None:
    """Tempo, note count, velocity sum and music duration are the same for every answer (a
    pair task: for each clip position); meter items differ only by a drawn loudness."""
    by_answer: dict[str, set] = {}
    for item in items_for(task, "test"):
        shape = tuple((clip.tempo_bpm, len(clip.notes), clip.music_duration_s)
                      for clip in item.clips)
        by_answer.setdefault(item.answer, set()).add(shape)
    shapes = list(by_answer.values())
    assert all(s == shapes[0] for s in shapes), by_answer


def test_contour_names_the_four_shapes_and_nothing_else() -> None:
    assert contour([60, 62, 62, 65]) == "ascending"
    assert contour([65, 64, 60]) == "descending"
    assert contour([60, 64, 67, 64, 60]) == "arch"
    assert contour([67, 64, 60, 64]) == "inverted arch"
    assert contour([60, 64, 60, 64]) is None
    assert contour([60, 60]) is None


def test_oddball_counts_pitch_classes_outside_the_major_key() -> None:
    assert oddball_answer(7, [67, 71, 74, 78, 79]) == "no"  # G major with F#
    assert oddball_answer(7, [67, 71, 74, 77, 79]) == "yes"  # F natural
    assert oddball_answer(0, []) is None


def test_rhythm_solvers() -> None:
    assert rhythm_match_answer((1, 4, 9), (9, 4, 1)) == "yes"
    assert rhythm_match_answer((1, 4, 9), (1, 5, 9)) == "no"
    assert sync_compare_answer((2, 4, 6, 1), (1, 3, 5, 8)) == "A"
    assert sync_compare_answer((1, 3), (2, 5)) == "B"
    assert sync_compare_answer((2, 3), (4, 5)) is None


def test_meter_reads_the_grouping_from_kicks_and_snares() -> None:
    assert meter((1, 5, 9), (3, 7, 11)) == "duple"
    assert meter((1, 7, 13), (3, 5, 9, 11, 15, 17)) == "triple"
    assert meter((1, 7, 13), (4, 10, 16)) == "compound"
    assert meter((1, 5, 11), (3, 7)) is None  # uneven bars
    assert meter((1, 7), (3, 4)) is None  # no listed grouping
    assert meter((1,), (3,)) is None


def test_major_key_and_modulation() -> None:
    c_major = [(48, 52, 55, 60), (53, 57, 60, 65), (55, 59, 62, 67), (48, 52, 55, 60)]
    g_major = [(55, 59, 62, 67), (48, 52, 55, 60), (50, 54, 57, 62), (55, 59, 62, 67)]
    assert major_key([p for c in c_major for p in c]) == 0
    assert major_key([p for c in g_major for p in c]) == 7
    assert modulation_answer(c_major + c_major) == "no"
    assert modulation_answer(c_major + g_major) == "yes"
    assert modulation_answer(c_major[:3]) is None
    assert major_key([]) is None


def test_progressions_compare_root_movements_with_octaves_folded() -> None:
    assert progression_answer((48, 53, 55, 48), (57, 50, 52, 57)) == "yes"  # C -> A major
    assert progression_answer((48, 53, 55, 48), (57, 47, 52, 57)) == "no"  # IV became ii
    assert progression_answer((48, 53), (48, 53, 55)) == "no"
    assert progression_answer((), (48,)) is None


def test_parse_lines_checks_count_identifiers_range_and_repeats() -> None:
    assert parse_lines("rhythm(a.wav, [1, 3])\nrhythm(b.wav, [])", "rhythm", ("a.wav", "b.wav"),
                       2, (1, 16), non_empty=False) == ((1, 3), ())
    with pytest.raises(SchemaError) as count:
        parse_lines("rhythm(a.wav, [1])", "rhythm", ("a.wav", "b.wav"), 2, (1, 16))
    assert count.value.kind == "structural"
    with pytest.raises(SchemaError) as domain:
        parse_lines("kick(a.wav, [1, 30])", "kick", ("a.wav",), 1, (1, 24))
    assert domain.value.kind == "domain"
    with pytest.raises(SchemaError) as repeated:
        parse_lines("kick(a.wav, [1, 1])", "kick", ("a.wav",), 1, (1, 24), distinct=True)
    assert repeated.value.kind == "domain"
    with pytest.raises(SchemaError) as named:
        parse_lines("melody(x.wav, [60])", "melody", ("a.wav",), 1)
    assert named.value.kind == "structural"


def test_meter_reads_a_pattern_that_starts_inside_a_bar() -> None:
    assert meter((3, 9, 15), (1, 5, 7, 11, 13, 17)) == "triple"
    assert meter((2, 6), (4, 8)) == "duple"
    assert meter((5, 11), (2, 8, 14)) == "compound"
