"""Pitch stimuli stay in range and on the 10 ms grid, and every label is read back from tones.

Each label check below recomputes the truth from the rendered numbers (the Scene's tones) by
its own short route, so a builder that typed a label next to its stimulus would be caught.
"""

from __future__ import annotations

import math
from collections import Counter

import pytest

from fixtures.pitch import chorales
from fixtures.pitch.catalog import (
    all_pitch_items,
    pitch_items,
)
from fixtures.pitch.experiments.c_simultaneous import CHORD_QUALITIES
from fixtures.pitch.spec import PITCH_RANGE_MIDI, SOURCES, PitchItem, Scene, Tone

LOW, HIGH = PITCH_RANGE_MIDI


def heard(scene: Scene, tone: Tone) -> float:
    """Sounding pitch: resampling by factor f moves it by -12·log2(f) semitones."""
    if scene.stretch and scene.stretch.method == "resample":
        return tone.pitch_midi - 12 * math.log2(scene.stretch.factor)
    return tone.pitch_midi


def by_onset(scene: Scene) -> list[Tone]:
    return sorted(scene.tones, key=lambda t: t.onset_s)


def sounding_at(scene: Scene, time_s: float) -> list[Tone]:
    return [t for t in scene.tones if t.onset_s <= time_s < t.offset_s]


# --- stimuli stay in range and in their clip -----------------------------------------------


def test_every_tone_is_inside_the_pitch_range_and_its_scene():
    for entry in all_pitch_items():
        for scene in entry.scenes:
            assert scene.duration_s > 0
            for t in scene.tones:
                assert t.source in SOURCES
                assert 0 <= t.onset_s and t.offset_s <= scene.duration_s + 1e-9, entry.item_id
                wobble = t.vibrato_depth_cents / 100
                points = [m for _, m in t.pitch_path] or [t.pitch_midi]
                for midi in points:
                    assert LOW <= midi - wobble and midi + wobble <= HIGH, entry.item_id
                    assert LOW <= heard(scene, Tone(t.source, 0, 1, midi)) <= HIGH


def test_times_lie_on_the_10_ms_grid():
    for experiment in ("b2", "b3", "b4", "b5", "d1", "d8", "f1", "f2"):
        for entry in pitch_items(experiment):
            for t in entry.scenes[0].tones:
                for value in (t.onset_s, t.duration_s):
                    assert abs(value * 100 - round(value * 100)) < 1e-6, entry.item_id


# --- labels come from the tones ------------------------------------------------------------


def expected_pitch(entry: PitchItem) -> int:
    """The note a 'pitch' question asks for, found from the scene(s) alone."""
    scene = entry.scenes[-1]
    if entry.experiment == "b2":
        (target,) = sounding_at(scene, entry.prompt_dict()["timestamp_s"])
    elif entry.experiment == "d7a":
        target = by_onset(scene)[-1]
    else:
        (target,) = scene.tones
    return round(heard(scene, target))


def test_pitch_truth_is_the_rounded_sounding_pitch():
    checked = Counter()
    for entry in all_pitch_items():
        if entry.answer_kind == "pitch":
            assert entry.truth == (expected_pitch(entry),), entry.item_id
            checked[entry.experiment] += 1
    assert set(checked) == {
        "a1",
        "a2",
        "a3",
        "b1",
        "b2",
        "d7a",
        "d7b",
        "e1",
        "e2",
        "e3",
        "e4",
        "e5",
        "e6",
    }


def test_e4_resampling_moves_the_truth_by_an_octave():
    for entry in pitch_items("e4"):
        scene, p = entry.scenes[0], entry.params_dict()
        played = scene.tones[0].pitch_midi
        moved = {("resample", 0.5): 12, ("resample", 2.0): -12}.get((p["method"], p["factor"]), 0)
        assert entry.truth == (played + moved,)


def test_d7_reference_is_the_first_tone():
    for entry in pitch_items("d7a") + pitch_items("d7b"):
        first = by_onset(entry.scenes[0])[0]
        assert entry.prompt_dict()["reference_midi"] == round(first.pitch_midi)
        assert entry.truth[0] - round(first.pitch_midi) == entry.params_dict()["interval_semitones"]


def test_a1mcq_answer_letter_points_at_the_heard_note():
    spacings = Counter()
    for entry in pitch_items("a1mcq"):
        values = entry.prompt_dict()
        (letter,) = entry.truth
        options = values["option_midis"]
        heard_note = round(entry.scenes[0].tones[0].pitch_midi)
        assert options[values["options"].index(letter)] == heard_note
        gaps = {b - a for a, b in zip(options, options[1:], strict=False)}
        assert gaps == {entry.params_dict()["spacing_semitones"]}
        spacings[gaps.pop()] += 1
    assert set(spacings) == {2, 4, 6}


def test_counts_and_intervals_come_from_the_tones():
    for entry in pitch_items("c1") + pitch_items("d1"):
        assert entry.truth == (len({round(t.pitch_midi) for t in entry.scenes[0].tones}),)
    for entry in pitch_items("c2"):
        low, high = sorted(round(t.pitch_midi) for t in entry.scenes[0].tones)
        assert entry.truth == (high - low,)
    for entry in pitch_items("d6"):
        first, second = by_onset(entry.scenes[0])
        assert entry.truth == (round(second.pitch_midi) - round(first.pitch_midi),)
        assert entry.truth[0] != 0


def test_chord_labels_come_from_the_tones():
    for entry in pitch_items("c3"):
        notes = sorted(round(t.pitch_midi) for t in entry.scenes[0].tones)
        assert CHORD_QUALITIES[entry.truth[0]] == tuple(n - notes[0] for n in notes)
    for entry in pitch_items("c4"):
        assert entry.truth == tuple(sorted({round(t.pitch_midi) for t in entry.scenes[0].tones}))
    instrumentations = Counter(
        len({t.source for t in e.scenes[0].tones}) > 1 for e in pitch_items("c3")
    )
    assert instrumentations[True] == instrumentations[False] == 100


def test_sequential_labels_come_from_the_tones():
    for entry in pitch_items("d2"):
        first, second = by_onset(entry.scenes[0])
        assert entry.truth == ("first" if first.pitch_midi > second.pitch_midi else "second",)
        cents = round(abs(first.pitch_midi - second.pitch_midi) * 100, 6)
        assert cents == entry.params_dict()["delta_cents"]
    for entry in pitch_items("d3"):
        pitches = [t.pitch_midi for t in by_onset(entry.scenes[0])]
        moves = ["up" if b > a else "down" for a, b in zip(pitches, pitches[1:], strict=False)]
        assert entry.truth == tuple(moves)
        assert len(moves) == entry.params_dict()["n_transitions"]
    shapes = {
        "rising": ("up",),
        "falling": ("down",),
        "rise-fall": ("up", "down"),
        "fall-rise": ("down", "up"),
    }
    for entry in pitch_items("d4"):
        path = [m for _, m in entry.scenes[0].tones[0].pitch_path]
        assert entry.truth == shapes[entry.params_dict()["trajectory"]]
        assert abs(max(path) - min(path)) == entry.params_dict()["glide_semitones"]
    for entry in pitch_items("d5"):
        ordered = by_onset(entry.scenes[0])
        ranked = [ordered[position - 1].pitch_midi for position in entry.truth]
        assert ranked == sorted(ranked) and len(set(ranked)) == len(ranked)
        assert sorted(entry.truth) == list(range(1, len(ordered) + 1))
    for entry in pitch_items("d8"):
        assert entry.truth == tuple(round(t.pitch_midi) for t in by_onset(entry.scenes[0]))


def test_timestamps_come_from_the_tones():
    for experiment in ("b3", "b5"):
        for entry in pitch_items(experiment):
            tones = by_onset(entry.scenes[0])
            expected = [v for t in tones for v in (t.onset_s, t.offset_s)]
            assert list(entry.truth) == pytest.approx(expected, abs=1e-9)
    for entry in pitch_items("b4"):
        tones = by_onset(entry.scenes[0])
        target = entry.prompt_dict()["target_midi"]
        (named,) = [t for t in tones if round(t.pitch_midi) % 12 == target % 12]
        assert round(named.pitch_midi) == target
        assert list(entry.truth) == pytest.approx([named.onset_s, named.offset_s], abs=1e-9)
        position = {"first": 0, "last": len(tones) - 1}.get(entry.params_dict()["target_position"])
        if position is not None:
            assert tones[position] is named
    for experiment in ("b2", "b4", "b5"):
        for entry in pitch_items(experiment):
            tones = by_onset(entry.scenes[0])
            assert all(
                b.onset_s - a.offset_s >= 0.5 - 1e-9 for a, b in zip(tones, tones[1:], strict=False)
            )


def _rank_holds(scene: Scene, pitch: float, time_s: float, above_max: int, below_max: int) -> bool:
    others = [t.pitch_midi for t in sounding_at(scene, time_s)]
    others.remove(pitch)
    return (
        pitch not in others
        and sum(p > pitch for p in others) <= above_max
        and sum(p < pitch for p in others) <= below_max
    )


def test_f1_target_voice_holds_its_register_rank():
    for entry in pitch_items("f1"):
        scene, p = entry.scenes[0], entry.params_dict()
        note_s = {"slow": 1.0, "medium": 0.5}[p["tempo"]]
        rank_from_top = {"highest": 0, "middle": 1, "lowest": p["n_voices"] - 1}[p["voice"]]
        assert len(entry.truth) == 10
        for index, midi in enumerate(entry.truth):
            mid_s = (index + 0.5) * note_s
            sounding = sorted((t.pitch_midi for t in sounding_at(scene, mid_s)), reverse=True)
            assert len(sounding) == p["n_voices"]  # no rests in any voice
            assert sounding[rank_from_top] == midi, entry.item_id


def test_f2_segments_keep_their_rank_and_match_the_chorale():
    for entry in pitch_items("f2"):
        scene, p = entry.scenes[0], entry.params_dict()
        run = chorales.longest_uncrossed_run(p["chorale"], p["voice"])
        assert entry.truth == tuple(n.midi for n in run) and len(run) == p["n_notes"] >= 9
        rank = chorales.VOICES.index(p["voice"])
        start = run[0].onset_quarters
        for note in run:  # 60 qpm: one quarter = one second
            mid_s = note.onset_quarters - start + note.duration_quarters / 2
            assert _rank_holds(scene, note.midi, mid_s, rank, 3 - rank), (entry.item_id, note)


def test_chorale_notes_match_music21():
    """The committed note lists are what music21's corpus gives today."""
    import json

    committed = json.loads(chorales.NOTES_PATH.read_text())
    derived = chorales.derive_note_lists()
    assert derived["chorales"] == committed["chorales"], (
        f"music21 {derived['music21_version']} disagrees with chorale_notes.json "
        f"(made with {committed['music21_version']}); regenerate: python -m fixtures.pitch.chorales"
    )


# Where the answer is a count or a length, a clip's length must not tell it (issue 13): every
# clip of a condition (these params equal) is as long as the condition's longest.
PADDED_CONDITIONS = {
    "d1": ("rhythm", "duration_ms"),
    "d3": ("step_semitones", "note_ms"),
    "d5": ("delta_cents", "rhythm", "base"),
    "d8": ("source",),
    "f2": (),
}


@pytest.mark.parametrize("experiment", sorted(PADDED_CONDITIONS))
def test_clip_length_does_not_tell_the_count(experiment: str) -> None:
    lengths: dict[tuple, set[float]] = {}
    counts: dict[tuple, set[int]] = {}
    for entry in pitch_items(experiment):
        params = entry.params_dict()
        key = tuple(params[name] for name in PADDED_CONDITIONS[experiment])
        (scene,) = entry.scenes
        lengths.setdefault(key, set()).add(scene.duration_s)
        counts.setdefault(key, set()).add(len(scene.tones))
        # the tones keep PitchBench's durations: the padding is silence after the last one
        assert scene.duration_s >= max(t.offset_s for t in scene.tones) + 0.5 - 1e-9
    assert all(len(found) == 1 for found in lengths.values()), lengths
    assert any(len(found) > 1 for found in counts.values()), "no condition mixes counts"


def test_b5_c1_f1_clip_length_was_never_the_count() -> None:
    """The other count/length experiments: fixed clip lengths by design."""
    for experiment in ("b5", "c1", "f1"):
        assert len({entry.scenes[0].duration_s for entry in pitch_items(experiment)}) <= 2
