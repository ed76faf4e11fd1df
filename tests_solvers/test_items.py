"""The item catalog is ground truth: every label is re-derived here from the notes themselves.

Nothing in these tests trusts ``item.answer``, ``item.label`` or ``item.params`` without
checking them against the clip's notes and against facts written out independently (the seed
paper's Table S1, the chord-quality interval sets, the syncopation letter mapping).
"""

from __future__ import annotations

import io
import itertools
from collections import Counter

import mido
import pytest

from fixtures.stimuli.midi import midi_bytes
from fixtures.tasks import chord, syncopation, transposition
from fixtures.tasks.catalog import TASK_NAMES, items_for
from fixtures.tasks.spec import (
    CLOSED_HIHAT_NOTE,
    GM_GUITAR,
    GM_PIANO,
    KICK_NOTE,
    SNARE_NOTE,
    Clip,
    Item,
)

# --- Independent facts ---------------------------------------------------------------------------

# Table S1 of the seed paper, copied verbatim: root, then the numbers of its
# Diminished, Dominant, Major and Minor chords.
TABLE_S1 = """
Ab 1 2 3 4
A 5 6 7 8
Bb 9 10 11 12
B 13 14 15 16
C 17 18 19 20
Db 21 22 23 24
D 25 26 27 28
Eb 29 30 31 32
E 33 34 35 36
F 37 38 39 40
Gb 41 42 43 44
G 45 46 47 48
"""
TABLE_COLUMNS = ("diminished", "dominant", "major", "minor")


def _table_s1() -> dict[int, tuple[str, str]]:
    table = {}
    for row in TABLE_S1.strip().splitlines():
        root, *numbers = row.split()
        for quality, number in zip(TABLE_COLUMNS, numbers, strict=True):
            table[int(number)] = (root, quality)
    return table


CHORD_TABLE = _table_s1()
PITCH_CLASS = {
    "C": 0, "Db": 1, "D": 2, "Eb": 3, "E": 4, "F": 5,
    "Gb": 6, "G": 7, "Ab": 8, "A": 9, "Bb": 10, "B": 11,
}
QUALITY_SEMITONES = {
    "major": (0, 4, 7),
    "minor": (0, 3, 7),
    "dominant": (0, 4, 7, 10),
    "diminished": (0, 3, 6),
}
CHORD_LETTER = {"major": "A", "minor": "B", "dominant": "C", "diminished": "D"}
SYNCOPATION_LETTER = {0: "A", 2: "B", 4: "C", 6: "D", 8: "E"}


# --- Helpers -------------------------------------------------------------------------------------


def _slot(start_beats: float) -> int:
    """1-based eighth-note slot of an onset; fails on an onset off the grid."""
    position = start_beats / 0.5
    assert position == int(position), f"onset {start_beats} beats is not on the eighth-note grid"
    return int(position) + 1


def _drum_slots(clip: Clip, midi_note: int) -> list[int]:
    return [_slot(n.start_beats) for n in clip.notes if n.midi_note == midi_note]


def _pitches(clip: Clip) -> tuple[int, ...]:
    return tuple(n.midi_note for n in sorted(clip.notes, key=lambda n: n.start_beats))


def _all_items() -> list[Item]:
    return [item for task in TASK_NAMES for item in items_for(task)]


# --- Counts, ids, determinism --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("task", "test_count", "fewshot_count"),
    [("syncopation", 20, 2), ("transposition", 20, 2), ("chord", 44, 4)],
)
def test_item_counts(task: str, test_count: int, fewshot_count: int) -> None:
    assert len(items_for(task, "test")) == test_count
    assert len(items_for(task, "fewshot")) == fewshot_count
    assert len(items_for(task)) == test_count + fewshot_count
    assert {i.task for i in items_for(task)} == {task}


def test_item_ids_are_unique_across_tasks() -> None:
    ids = [item.item_id for item in _all_items()]
    assert len(ids) == len(set(ids)), [i for i, n in Counter(ids).items() if n > 1]


@pytest.mark.parametrize("module", [syncopation, transposition, chord], ids=lambda m: m.__name__)
def test_building_twice_gives_equal_items(module) -> None:
    first, second = module.build_items(), module.build_items()
    assert first == second
    assert [c.spec_hash() for i in first for c in i.clips] == [
        c.spec_hash() for i in second for c in i.clips
    ]


@pytest.mark.parametrize("task", TASK_NAMES)
def test_items_are_hashable(task: str) -> None:
    items = items_for(task)
    assert len({hash(item) for item in items}) == len(items)


def test_unknown_task_is_a_clear_error() -> None:
    with pytest.raises(KeyError, match="valid tasks"):
        items_for("rhythm")


# --- Syncopation ---------------------------------------------------------------------------------

SYNC_ITEMS = items_for("syncopation")


@pytest.mark.parametrize("item", SYNC_ITEMS, ids=lambda i: i.item_id)
def test_syncopation_answer_is_the_offbeat_count(item: Item) -> None:
    (clip,) = item.clips
    hits = _drum_slots(clip, KICK_NOTE) + _drum_slots(clip, SNARE_NOTE)
    offbeat = sum(1 for s in hits if s % 2 == 0)
    assert item.answer == SYNCOPATION_LETTER[offbeat]
    assert item.label == f"{offbeat} off-beat hits"
    assert item.transcription == (tuple(sorted(hits)),)


@pytest.mark.parametrize("item", SYNC_ITEMS, ids=lambda i: i.item_id)
def test_syncopation_clip_layout(item: Item) -> None:
    (clip,) = item.clips
    assert clip.is_drums
    assert clip.tempo_bpm == 120
    assert clip.meter == (4, 4)
    assert {n.midi_note for n in clip.notes} <= {KICK_NOTE, SNARE_NOTE, CLOSED_HIHAT_NOTE}
    assert sorted(_drum_slots(clip, CLOSED_HIHAT_NOTE)) == list(range(1, 33))
    kicks, snares = _drum_slots(clip, KICK_NOTE), _drum_slots(clip, SNARE_NOTE)
    assert len(kicks) == len(set(kicks)) and len(snares) == len(set(snares))
    assert not set(kicks) & set(snares), "kick and snare share a slot"
    assert all(1 <= s <= 32 for s in kicks + snares)
    # 4 bars of 4/4 = 16 beats = 8 s at 120 BPM
    assert max(n.start_beats for n in clip.notes) < 16
    assert clip.music_duration_s <= 8.0


def test_syncopation_four_test_items_per_level() -> None:
    levels = Counter(i.answer for i in items_for("syncopation", "test"))
    assert levels == {letter: 4 for letter in "ABCDE"}


def test_syncopation_onbeat_hits_do_not_give_the_level_away() -> None:
    onbeat_by_level: dict[str, list[int]] = {}
    for item in items_for("syncopation", "test"):
        (clip,) = item.clips
        hits = _drum_slots(clip, KICK_NOTE) + _drum_slots(clip, SNARE_NOTE)
        onbeat_by_level.setdefault(item.answer, []).append(sum(1 for s in hits if s % 2 == 1))
    multisets = {letter: sorted(counts) for letter, counts in onbeat_by_level.items()}
    assert len({tuple(m) for m in multisets.values()}) == 1, multisets


def test_syncopation_fewshot_patterns_are_not_test_patterns() -> None:
    test_patterns = {i.transcription for i in items_for("syncopation", "test")}
    assert len(test_patterns) == 20
    for example in items_for("syncopation", "fewshot"):
        assert example.transcription not in test_patterns
        assert example.clips[0].spec_hash() not in {
            i.clips[0].spec_hash() for i in items_for("syncopation", "test")
        }


# --- Transposition -------------------------------------------------------------------------------

TRANS_ITEMS = items_for("transposition")


def _steps(pitches) -> tuple[int, ...]:
    return tuple(b - a for a, b in itertools.pairwise(pitches))


def test_transposition_ten_yes_ten_no_with_both_instruments() -> None:
    tests = items_for("transposition", "test")
    assert Counter(i.answer for i in tests) == {"yes": 10, "no": 10}
    for answer in ("yes", "no"):
        programs = {i.clips[0].program for i in tests if i.answer == answer}
        assert programs == {GM_PIANO, GM_GUITAR}, answer


@pytest.mark.parametrize("item", TRANS_ITEMS, ids=lambda i: i.item_id)
def test_transposition_pair_matches_every_nuisance_variable(item: Item) -> None:
    anchor, target = item.clips
    assert anchor.tempo_bpm == target.tempo_bpm
    assert anchor.program == target.program
    assert anchor.meter == target.meter
    assert not anchor.is_drums and not target.is_drums
    assert len(anchor.notes) == len(target.notes)
    for a, t in zip(anchor.notes, target.notes, strict=True):
        assert (a.start_beats, a.duration_beats, a.velocity) == (
            t.start_beats, t.duration_beats, t.velocity,
        )
    # monophonic: no two notes overlap
    for clip in item.clips:
        ordered = sorted(clip.notes, key=lambda n: n.start_beats)
        for earlier, later in itertools.pairwise(ordered):
            assert earlier.start_beats + earlier.duration_beats <= later.start_beats


@pytest.mark.parametrize("item", TRANS_ITEMS, ids=lambda i: i.item_id)
def test_transposition_label_follows_the_pitches(item: Item) -> None:
    anchor, target = (_pitches(c) for c in item.clips)
    assert item.transcription == (anchor, target)
    shifts = {t - a for a, t in zip(anchor, target, strict=True)}
    if item.answer == "yes":
        assert len(shifts) == 1 and 0 not in shifts, shifts
        assert _steps(anchor) == _steps(target)
    else:
        assert item.answer == "no"
        assert len(anchor) == len(target)
        assert _steps(anchor) != _steps(target)
        assert len(shifts) > 1  # not a transposition by any constant
    assert all(0 <= p <= 127 for p in anchor + target)


def test_transposition_pairs_vary_in_key_tempo_meter_and_length() -> None:
    tests = items_for("transposition", "test")
    shifts = [i.params_dict()["shift_semitones"] for i in tests]
    yes_shifts = {
        i.transcription[1][0] - i.transcription[0][0] for i in tests if i.answer == "yes"
    }
    assert len(yes_shifts) >= 4, yes_shifts
    assert 0 not in shifts
    assert len(set(shifts)) >= 5, shifts
    assert {s > 0 for s in shifts} == {True, False}, "targets only ever move one way"
    assert len({i.clips[0].notes[0].midi_note % 12 for i in tests}) >= 5, "anchors share a key"
    assert len({i.clips[0].tempo_bpm for i in tests}) >= 4
    assert len({i.clips[0].meter for i in tests}) >= 2
    assert len({len(i.clips[0].notes) for i in tests}) >= 4
    assert len({i.clips[0].music_duration_s for i in tests}) >= 5


def test_transposition_fewshot_melodies_are_not_test_melodies() -> None:
    test_clips = {c.spec_hash() for i in items_for("transposition", "test") for c in i.clips}
    test_pitches = {t for i in items_for("transposition", "test") for t in i.transcription}
    for example in items_for("transposition", "fewshot"):
        assert not {c.spec_hash() for c in example.clips} & test_clips
        assert not set(example.transcription) & test_pitches
    assert {i.answer for i in items_for("transposition", "fewshot")} == {"yes", "no"}


# --- Chord ---------------------------------------------------------------------------------------

CHORD_ITEMS = items_for("chord")


@pytest.mark.parametrize(
    ("number", "root", "quality"),
    [
        (1, "Ab", "diminished"),
        (2, "Ab", "dominant"),
        (17, "C", "diminished"),
        (19, "C", "major"),
        (48, "G", "minor"),
    ],
)
def test_chord_numbering_spot_checks(number: int, root: str, quality: str) -> None:
    (item,) = [i for i in CHORD_ITEMS if i.item_id == f"chord{number}"]
    assert item.label == f"{root} {quality}"
    (clip,) = item.clips
    lowest = min(n.midi_note for n in clip.notes)
    assert lowest % 12 == PITCH_CLASS[root]
    assert item.answer == CHORD_LETTER[quality]


def test_chord_catalog_covers_table_s1() -> None:
    numbers = sorted(int(i.item_id.removeprefix("chord")) for i in CHORD_ITEMS)
    assert numbers == sorted(CHORD_TABLE) == list(range(1, 49))


@pytest.mark.parametrize("item", CHORD_ITEMS, ids=lambda i: i.item_id)
def test_chord_item_matches_table_s1(item: Item) -> None:
    number = int(item.item_id.removeprefix("chord"))
    root, quality = CHORD_TABLE[number]
    assert item.params_dict()["number"] == number
    assert item.label == f"{root} {quality}"
    assert item.answer == CHORD_LETTER[quality]
    (clip,) = item.clips
    block = [n.midi_note for n in clip.notes if n.start_beats == 0]
    assert min(block) % 12 == PITCH_CLASS[root], "lowest note is not the root (root position)"
    assert tuple(sorted({(p - min(block)) % 12 for p in block})) == QUALITY_SEMITONES[quality]
    assert len(block) == 4, "every chord sounds four notes (a triad doubles its root)"
    assert len(set(block)) == 4 and max(block) - min(block) <= 12
    assert item.transcription == (tuple(sorted(block)),)
    assert clip.tempo_bpm == 120 and clip.program == GM_PIANO and not clip.is_drums


@pytest.mark.parametrize("item", CHORD_ITEMS, ids=lambda i: i.item_id)
def test_chord_clip_is_block_then_ascending_arpeggio(item: Item) -> None:
    (clip,) = item.clips
    notes = sorted(clip.notes, key=lambda n: (n.start_beats, n.midi_note))
    size = len(item.transcription[0])
    block, arpeggio = notes[:size], notes[size:]
    assert {n.start_beats for n in block} == {0.0}
    assert len(arpeggio) == size
    block_end = max(n.start_beats + n.duration_beats for n in block)
    starts = [n.start_beats for n in arpeggio]
    assert starts[0] >= block_end
    assert starts == sorted(set(starts)), "arpeggio notes must be one at a time"
    assert [n.midi_note for n in arpeggio] == sorted(n.midi_note for n in block)


def test_chord_fewshot_has_one_item_per_quality() -> None:
    examples = items_for("chord", "fewshot")
    qualities = [CHORD_TABLE[int(i.item_id.removeprefix("chord"))][1] for i in examples]
    assert sorted(qualities) == sorted(QUALITY_SEMITONES)
    assert sorted(i.answer for i in examples) == ["A", "B", "C", "D"]
    test_ids = {i.item_id for i in items_for("chord", "test")}
    assert not test_ids & {i.item_id for i in examples}


def test_chord_test_items_cover_every_quality_evenly() -> None:
    assert Counter(i.answer for i in items_for("chord", "test")) == {
        "A": 11, "B": 11, "C": 11, "D": 11,
    }


# --- The label, re-derived from the MIDI file a model is shown --------------------------------


def _midi_onsets(clip: Clip) -> list[tuple[float, int, int]]:
    """(onset in beats, channel, MIDI note) of every note_on in the clip's Standard MIDI File."""
    midi = mido.MidiFile(file=io.BytesIO(midi_bytes(clip)))
    onsets = []
    for track in midi.tracks:
        ticks = 0
        for message in track:
            ticks += message.time
            if message.type == "note_on" and message.velocity > 0:
                onsets.append((ticks / midi.ticks_per_beat, message.channel, message.note))
    return sorted(onsets)


@pytest.mark.parametrize("item", _all_items(), ids=lambda i: i.item_id)
def test_label_follows_from_the_midi_file(item: Item) -> None:
    files = [_midi_onsets(c) for c in item.clips]
    if item.task == "syncopation":
        (onsets,) = files
        assert {channel for _, channel, _ in onsets} == {9}
        hits = [_slot(beats) for beats, _, note in onsets if note in (KICK_NOTE, SNARE_NOTE)]
        assert len(hits) == len(set(hits))
        assert item.answer == SYNCOPATION_LETTER[sum(1 for s in hits if s % 2 == 0)]
    elif item.task == "transposition":
        anchor, target = ([note for _, _, note in onsets] for onsets in files)
        assert [b for b, _, _ in files[0]] == [b for b, _, _ in files[1]]  # same rhythm
        same = len(anchor) == len(target) and _steps(anchor) == _steps(target)
        assert item.answer == ("yes" if same else "no")
    else:
        (onsets,) = files
        block = sorted(note for beats, _, note in onsets if beats == 0)
        pcs = tuple(sorted({(p - block[0]) % 12 for p in block}))
        (quality,) = [q for q, semitones in QUALITY_SEMITONES.items() if semitones == pcs]
        assert item.answer == CHORD_LETTER[quality]
        assert [note for beats, _, note in onsets if beats > 0] == block
