"""A chord whose first sound does not say it (a strum's short first pass, open voicings, the
root doubled in three octaves) is heard from the whole clip's pitch-class profile (issue 29:
real guitar chords were declined for "no note of the chord's first sound lasts long
enough to be its bass")."""

from __future__ import annotations

import pytest

from fixtures.backends.listener import chord_profile, ears
from fixtures.backends.listener.hearing import NoteEvent
from fixtures.tasks.definitions import TASKS


def _strum(third: int, third_amplitude: float = 0.5) -> list[NoteEvent]:
    """A B chord strummed twice: a short first pass, then the chord ringing on six strings
    with its root in three octaves (B1 B2 F#3 B3 third F#4)."""
    first_pass = [NoteEvent(0.30 + 0.01 * k, 0.40, midi, 0.6) for k, midi in
                  enumerate((47, 54, 59))]
    ringing = [NoteEvent(0.45 + 0.01 * k, 2.4, midi, amplitude) for k, (midi, amplitude) in
               enumerate(((35, 0.7), (47, 0.8), (54, 0.6), (59, 0.7), (59 + third,
                                                                     third_amplitude),
                          (66, 0.5)))]
    return first_pass + ringing


@pytest.mark.parametrize(("third", "quality"), [(4, "A"), (3, "B")])
def test_a_strum_is_heard_from_the_whole_clip(third: int, quality: str) -> None:
    notes = _strum(third)
    with pytest.raises(ears.Unheard, match="lasts long enough"):
        ears.chord_pitches(notes)  # the first sound alone does not say it
    pitches = chord_profile.chord_pitches(notes)
    assert pitches[0] % 12 == 11  # B in the bass
    assert TASKS["chord"].solve((pitches,)) == quality


def test_both_thirds_alike_are_declined_with_both_reasons() -> None:
    notes = [*_strum(4), NoteEvent(0.5, 2.4, 62, 0.5)]  # D and D# both ring
    with pytest.raises(ears.Unheard, match="lasts long enough.*whole recording.*third"):
        chord_profile.chord_pitches(notes)


def _ringing(voicing: list[tuple[int, float]]) -> list[NoteEvent]:
    """A strum ringing for two seconds, low string first: (midi, amplitude) per string."""
    return [NoteEvent(0.5 + 0.02 * k, 2.5, midi, amplitude)
            for k, (midi, amplitude) in enumerate(voicing)]


def test_an_open_low_string_under_the_chord_is_not_its_root() -> None:
    """A C chord strummed with the open low E ringing (E2 C3 E3 G3 C4 E4, a real guitar
    recording's voicing): over E the profile says neither third nor fifth, on its own root
    C it is a C major chord."""
    notes = _ringing([(40, 0.6), (48, 0.7), (52, 0.5), (55, 0.5), (60, 0.6), (64, 0.6)])
    with pytest.raises(ears.Unheard):
        chord_profile.profile_chord(notes)  # over the bass E it is none of the chords
    pitches = chord_profile.chord_pitches(notes)
    assert pitches[0] % 12 == 0
    assert TASKS["chord"].solve((pitches,)) == "A"


@pytest.mark.parametrize("voicing", [
    # C-E-G over A (an A minor seventh): the bass is no tone of the C major chord
    [(45, 0.5), (52, 0.5), (55, 0.7), (60, 0.7), (67, 0.6)],
    # C-E-G-D over E: an inverted chord with an added ninth (or E minor with a sixth)
    [(40, 0.55), (55, 0.7), (60, 0.7), (62, 0.3), (67, 0.8), (64, 0.4)],
])
def test_a_chord_over_a_foreign_or_inverted_bass_with_extra_tones_is_declined(
        voicing: list[tuple[int, float]]) -> None:
    with pytest.raises(ears.Unheard, match="On any root"):
        chord_profile.chord_pitches(_ringing(voicing))
