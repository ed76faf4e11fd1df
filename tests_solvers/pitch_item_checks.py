"""The label check of every pitch experiment: what its item's truth and prompt values must be,
derived from the tones, and that the served audio sounds them (tone-level checks:
``pitch_label_checks``). ``CHECKS`` maps each experiment to its check; ``check_item`` runs one.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from functools import cache

import numpy as np

from fixtures.pitch.render import render_scene
from fixtures.pitch.spec import PitchItem, Scene, Tone
from tests_solvers.pitch_label_checks import (
    check_note_in_texture,
    check_notes_present,
    check_timing,
    check_tone_pitch,
    heard_note,
    measured_snr_db,
    rank_from_top,
    scene_audio,
    sounding_at,
    sounding_midi,
    tone_window_s,
    voice_count_at,
)

AudioOf = Callable[[Scene], np.ndarray]
Problems = list[str]
# The projection that finds the tone in the mix is off by the chance correlation between a 5 s
# tone and a background up to 4x louder (-12 dB): measured up to 1.1 dB.
SNR_TOLERANCE_DB = 1.5
F2_SECONDS_PER_QUARTER = 1.0  # PitchBench plays the chorales at 60 quarter notes a minute


def in_time_order(scene: Scene) -> list[Tone]:
    return sorted(scene.tones, key=lambda t: (t.onset_s, t.pitch_midi))


def expect(item: PitchItem, what: str, label: object, expected: object) -> Problems:
    if label != expected:
        return [f"{item.item_id}: {what} is {label!r}, the spec gives {expected!r}"]
    return []


def all_tones_sound(item: PitchItem, audio_of: AudioOf) -> Problems:
    problems = []
    for number, scene in enumerate(item.scenes):
        audio = audio_of(scene)
        for tone in in_time_order(scene):
            where = f"{item.item_id} scene {number} {tone.source} at {tone.onset_s:.2f} s"
            problems += check_tone_pitch(audio, scene, tone, where)
    return problems


# --- one tone, or a named tone, asked for its pitch ---------------------------------------


def single_pitch(item: PitchItem, audio_of: AudioOf) -> Problems:
    (scene,) = item.scenes
    (tone,) = scene.tones
    return (expect(item, "truth", item.truth, (heard_note(scene, tone),))
            + all_tones_sound(item, audio_of))


def one_tone_in_silence(item: PitchItem, audio_of: AudioOf) -> Problems:
    """B1: "exactly one tone sounds somewhere": its pitch, and that it is alone and in place."""
    return single_pitch(item, audio_of) + check_timing(
        audio_of(item.scenes[0]), item.scenes[0], item.item_id)


def multiple_choice(item: PitchItem, audio_of: AudioOf) -> Problems:
    """A1-MCQ: the keyed option is the heard note; options are ``spacing`` apart."""
    (scene,) = item.scenes
    (tone,) = scene.tones
    prompt, params = item.prompt_dict(), item.params_dict()
    options, midis = prompt["options"], prompt["option_midis"]
    (letter,) = item.truth
    spacing = params["spacing_semitones"]
    problems = expect(item, "keyed option's pitch", midis[options.index(letter)],
                      heard_note(scene, tone))
    problems += expect(item, "option spacing", tuple(np.diff(midis)), (spacing,) * 4)
    problems += expect(item, "option count", (len(options), len(set(midis))), (5, 5))
    return problems + all_tones_sound(item, audio_of)


def pitch_at_time(item: PitchItem, audio_of: AudioOf) -> Problems:
    """B2: the tone sounding at the asked time."""
    (scene,) = item.scenes
    at = sounding_at(scene, item.prompt_dict()["timestamp_s"])
    if len(at) != 1:
        return [f"{item.item_id}: {len(at)} tones sound at the asked time"]
    return (expect(item, "truth", item.truth, (heard_note(scene, at[0]),))
            + all_tones_sound(item, audio_of))


def pitch_from_reference(item: PitchItem, audio_of: AudioOf) -> Problems:
    """D7a (two tones in one clip) and D7b (one tone per clip): reference first."""
    tones = [tone for scene in item.scenes for tone in in_time_order(scene)]
    scenes = [scene for scene in item.scenes for _ in scene.tones]
    if len(tones) != 2:
        return [f"{item.item_id}: {len(tones)} tones, expected a reference and a target"]
    reference, target = (heard_note(s, t) for s, t in zip(scenes, tones, strict=True))
    problems = expect(item, "truth", item.truth, (target,))
    problems += expect(item, "reference", item.prompt_dict()["reference_midi"], reference)
    problems += expect(item, "truth - reference", item.truth[0] - reference,
                       item.params_dict()["interval_semitones"])
    return problems + all_tones_sound(item, audio_of)


def detuned_pitch(item: PitchItem, audio_of: AudioOf) -> Problems:
    """E6: audio at the detuned frequency (``sounding_midi`` keeps the fraction), truth the
    nominal note, and the detune is what the params say."""
    (scene,) = item.scenes
    (tone,) = scene.tones
    detune_cents = round((sounding_midi(scene, tone) - heard_note(scene, tone)) * 100, 6)
    return (expect(item, "detune", item.params_dict()["detune_cents"], detune_cents)
            + single_pitch(item, audio_of))


def pitch_under_background(item: PitchItem, audio_of: AudioOf) -> Problems:
    """E2: at −12 dB SNR the tone may be buried, so its pitch is measured on the scene
    rendered WITHOUT its background, and the served mix is shown to contain exactly that
    tone at the stated SNR (least-squares projection; the remainder is the background)."""
    (scene,) = item.scenes
    (tone,) = scene.tones
    clean_scene = dataclasses.replace(scene, background=None)
    clean = render_scene(clean_scene)
    mix = audio_of(scene)
    problems = expect(item, "truth", item.truth, (heard_note(scene, tone),))
    problems += check_tone_pitch(clean, clean_scene, tone, f"{item.item_id} (no background)")
    snr_db = measured_snr_db(mix, clean)
    if abs(snr_db - scene.background.snr_db) > SNR_TOLERANCE_DB:
        problems.append(f"{item.item_id}: the tone sits {snr_db:+.1f} dB over the background, "
                        f"labelled {scene.background.snr_db:+g} dB")
    return problems


# --- timestamps -----------------------------------------------------------------------------


def timestamps_of(tones: list[Tone]) -> tuple[float, ...]:
    return tuple(round(s, 2) for t in tones for s in (t.onset_s, t.offset_s))


def onsets_and_offsets(item: PitchItem, audio_of: AudioOf) -> Problems:
    """B3/B5 (every tone) and B4 (the one tone of the named note)."""
    (scene,) = item.scenes
    tones = in_time_order(scene)
    if item.experiment == "b4":
        target = item.prompt_dict()["target_midi"]
        tones = [t for t in tones if heard_note(scene, t) == target]
        if len(tones) != 1:
            return [f"{item.item_id}: {len(tones)} tones of the named note {target}"]
    audio = audio_of(scene)
    return (expect(item, "truth", item.truth, timestamps_of(tones))
            + check_timing(audio, scene, item.item_id) + all_tones_sound(item, audio_of))


# --- simultaneous tones ---------------------------------------------------------------------


def chord_notes(scene: Scene) -> list[int]:
    return sorted({heard_note(scene, tone) for tone in scene.tones})


def chord_sounds(item: PitchItem, audio_of: AudioOf) -> Problems:
    (scene,) = item.scenes
    problems = []
    if len({(t.onset_s, t.offset_s) for t in scene.tones}) != 1:
        problems.append(f"{item.item_id}: the chord's tones do not all sound together")
    onset_s, offset_s = tone_window_s(scene, scene.tones[0])
    return problems + check_notes_present(audio_of(scene), chord_notes(scene), onset_s,
                                          offset_s, item.item_id)


def pitch_count(item: PitchItem, audio_of: AudioOf) -> Problems:
    """C1 (together) and D1 (one after another; "no pitch is repeated")."""
    (scene,) = item.scenes
    notes = chord_notes(scene)
    problems = expect(item, "truth", item.truth, (len(notes),))
    if item.experiment == "d1":
        problems += expect(item, "distinct notes", len(notes), len(scene.tones))
        return problems + all_tones_sound(item, audio_of)
    return problems + chord_sounds(item, audio_of)


def dyad_interval(item: PitchItem, audio_of: AudioOf) -> Problems:
    notes = chord_notes(item.scenes[0])
    if len(notes) != 2:
        return [f"{item.item_id}: the dyad sounds {notes}"]
    return expect(item, "truth", item.truth, (notes[1] - notes[0],)) + chord_sounds(item, audio_of)


# Root-position shapes (semitones above the root), written out here from music theory rather
# than imported from the builder, so a typo there cannot confirm itself.
QUALITY_SHAPES: dict[tuple[int, ...], str] = {
    (0, 4, 7): "major", (0, 3, 7): "minor", (0, 3, 6): "diminished", (0, 4, 8): "augmented",
    (0, 4, 7, 10): "dominant seventh", (0, 4, 7, 11): "major seventh",
    (0, 3, 7, 10): "minor seventh", (0, 3, 6, 10): "half-diminished",
    (0, 2, 7): "sus2", (0, 5, 7): "sus4",
}


def quality_of(notes: tuple[int, ...]) -> str:
    shape = tuple(note - notes[0] for note in notes)
    return QUALITY_SHAPES.get(shape, f"no quality for {shape}")


def chord_quality(item: PitchItem, audio_of: AudioOf) -> Problems:
    notes = tuple(chord_notes(item.scenes[0]))
    return (expect(item, "truth", item.truth, (quality_of(notes),))
            + chord_sounds(item, audio_of))


def chord_pitch_set(item: PitchItem, audio_of: AudioOf) -> Problems:
    return (expect(item, "truth", tuple(item.truth), tuple(chord_notes(item.scenes[0])))
            + chord_sounds(item, audio_of))


# --- sequences ------------------------------------------------------------------------------


def sequence_notes(item: PitchItem) -> list[float]:
    (scene,) = item.scenes
    return [sounding_midi(scene, tone) for tone in in_time_order(scene)]


def directions(pitches: list[float]) -> tuple[str, ...]:
    moves = [b - a for a, b in zip(pitches, pitches[1:], strict=False) if b != a]
    return tuple("up" if move > 0 else "down" for move in moves)


def higher_one(item: PitchItem, audio_of: AudioOf) -> Problems:
    first, second = sequence_notes(item)
    return (expect(item, "truth", item.truth, ("first" if first > second else "second",))
            + all_tones_sound(item, audio_of))


def note_contour(item: PitchItem, audio_of: AudioOf) -> Problems:
    notes = [round(p) for p in sequence_notes(item)]
    return (expect(item, "truth", item.truth, directions(notes))
            + expect(item, "n_notes", item.prompt_dict()["n_notes"], len(notes))
            + all_tones_sound(item, audio_of))


def glide_contour(item: PitchItem, audio_of: AudioOf) -> Problems:
    (scene,) = item.scenes
    (tone,) = scene.tones
    turns = [sounding_midi(scene, tone, fraction) for fraction, _ in tone.pitch_path]
    return expect(item, "truth", item.truth, directions(turns)) + all_tones_sound(item, audio_of)


def pitch_ranks(item: PitchItem, audio_of: AudioOf) -> Problems:
    pitches = sequence_notes(item)
    ranks = tuple(1 + i for i in sorted(range(len(pitches)), key=pitches.__getitem__))
    return (expect(item, "truth", item.truth, ranks)
            + expect(item, "distinct pitches", len(set(pitches)), len(pitches))
            + expect(item, "n_notes", item.prompt_dict()["n_notes"], len(pitches))
            + all_tones_sound(item, audio_of))


def signed_interval(item: PitchItem, audio_of: AudioOf) -> Problems:
    first, second = (round(p) for p in sequence_notes(item))
    return expect(item, "truth", item.truth, (second - first,)) + all_tones_sound(item, audio_of)


def note_sequence(item: PitchItem, audio_of: AudioOf) -> Problems:
    notes = tuple(round(p) for p in sequence_notes(item))
    return expect(item, "truth", tuple(item.truth), notes) + all_tones_sound(item, audio_of)


# --- a voice inside polyphony ---------------------------------------------------------------


def voice_tones(scene: Scene, rank: int, n_voices: int) -> list[Tone]:
    """Tones that, at their midpoint, have exactly ``rank`` voices above them out of
    ``n_voices`` sounding: the voice the question names, found from the texture alone."""
    return [t for t in in_time_order(scene)
            if rank_from_top(scene, t) == rank and voice_count_at(scene, t) == n_voices]


def voice_sounds(item: PitchItem, tones: list[Tone], audio_of: AudioOf) -> Problems:
    """Each note of the named voice is present in the mix while it sounds."""
    (scene,) = item.scenes
    audio = audio_of(scene)
    problems = []
    for tone in tones:
        problems += check_note_in_texture(audio, scene, tone,
                                          f"{item.item_id} at {tone.onset_s:.2f} s")
    return problems


def synthetic_voice(item: PitchItem, audio_of: AudioOf) -> Problems:
    """F1: the named voice is the one at that register rank, without rests."""
    (scene,) = item.scenes
    prompt = item.prompt_dict()
    n_voices = prompt["n_voices"]
    rank = {"highest": 0, "middle": 1, "lowest": n_voices - 1}[prompt["voice"]]
    tones = voice_tones(scene, rank, n_voices)
    gaps = [b.onset_s - a.offset_s for a, b in zip(tones, tones[1:], strict=False)]
    problems = expect(item, "truth", tuple(item.truth), tuple(heard_note(scene, t) for t in tones))
    if any(abs(gap) > 1e-6 for gap in gaps):
        problems.append(f"{item.item_id}: the named voice has gaps {gaps}")
    return problems + voice_sounds(item, tones, audio_of)


@cache
def chorale_part(chorale: str, voice: str) -> tuple[tuple[float, float, int | None], ...]:
    """(onset, duration in quarters, MIDI or None for a rest) of one part, read with music21
    directly from its corpus (not from the committed extract the builders use)."""
    from music21 import corpus

    score = corpus.parse(chorale)
    (part,) = [p for p in score.parts if p.partName.lower() == voice]
    return tuple(
        (float(n.offset), float(n.quarterLength), None if n.isRest else int(n.pitch.midi))
        for n in part.stripTies().flatten().notesAndRests
    )


def chorale_voice(item: PitchItem, audio_of: AudioOf) -> Problems:
    """F2: the truth is the part's next ``n_notes`` notes in music21's corpus; in the audio
    those notes sound, at the register rank of their voice."""
    (scene,) = item.scenes
    params = item.params_dict()
    voice, start_q = params["voice"], params["start_quarter"]
    notes = [n for n in chorale_part(params["chorale"], voice) if n[0] >= start_q]
    notes = notes[: params["n_notes"]]
    problems = expect(item, "truth", tuple(item.truth), tuple(n[2] for n in notes))
    rank = ("soprano", "alto", "tenor", "bass").index(voice)
    tones = []
    for onset_q, _, midi in notes:
        onset_s = (onset_q - start_q) * F2_SECONDS_PER_QUARTER
        match = [t for t in scene.tones if abs(t.onset_s - onset_s) < 1e-6 and t.pitch_midi == midi]
        ranked = [t for t in match if rank_from_top(scene, t) == rank]
        if not ranked:
            problems.append(f"{item.item_id}: no tone of {midi} at rank {rank} at {onset_s:.2f} s")
        tones += ranked[:1]
    return problems + voice_sounds(item, tones, audio_of)


CHECKS: dict[str, Callable[[PitchItem, AudioOf], Problems]] = {
    "a1": single_pitch, "a1mcq": multiple_choice, "a2": single_pitch, "a3": single_pitch,
    "b1": one_tone_in_silence, "b2": pitch_at_time, "b3": onsets_and_offsets,
    "b4": onsets_and_offsets, "b5": onsets_and_offsets,
    "c1": pitch_count, "c2": dyad_interval, "c3": chord_quality, "c4": chord_pitch_set,
    "d1": pitch_count, "d2": higher_one, "d3": note_contour, "d4": glide_contour,
    "d5": pitch_ranks, "d6": signed_interval, "d7a": pitch_from_reference,
    "d7b": pitch_from_reference, "d8": note_sequence,
    "e1": single_pitch, "e2": pitch_under_background, "e3": single_pitch, "e4": single_pitch,
    "e5": single_pitch, "e6": detuned_pitch, "f1": synthetic_voice, "f2": chorale_voice,
}


def check_item(item: PitchItem, audio_of: AudioOf = scene_audio) -> Problems:
    return CHECKS[item.experiment](item, audio_of)
