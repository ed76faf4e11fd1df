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
