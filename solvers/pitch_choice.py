"""Reading a single-choice answer of the pitch family, whose options may stand for pitches: a
letter, an option's words, or (with the MIDI note behind each option) the option's pitch written
in the asked notation. Split from :mod:`solvers.pitch_reading`, whose pitch readers it uses.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .notation import OCTAVE_FREE_NOTATIONS
from .pitch_reading import pitch_key, pitch_mentions
from .pitch_words import read_choice
from .reply_spans import HEDGE
from .span_text import Result, read_alternatives


def choice_reader(
    options: Sequence[str], notation: str | None, option_pitches: Sequence[int] = ()
) -> Callable[[str, str], Result]:
    """Reads the one option named. With ``option_pitches`` (the MIDI note behind each lettered
    option), the option's pitch written in the asked notation names it too ("F#4" for "B. F#4");
    a letter and a pitch of another option are a hedge; a number that is no option's pitch beside
    a letter ("B (option 2)") is not read as a pitch."""
    octave_free = notation in OCTAVE_FREE_NOTATIONS
    label_of = {_key_of_midi(m, octave_free): label
                for label, m in zip(options, option_pitches, strict=False)}

    def read_one(text: str) -> Result:
        label, why = read_choice(text, options, notation)
        if label is None and why and why.startswith("several"):
            return None, HEDGE
        if label_of:
            # without a notation ("plain", options written "G1 (MIDI note 31)") any form counts
            primary, restated = pitch_mentions(text, notation or "midi")
            if notation is None:
                primary = [*primary, *restated["spn"], *restated["hz"]]
            found = {label_of.get(pitch_key(p, octave_free)) for p in primary}
            named = found - {None}
            if len(named) > 1 or (label is not None and named and named != {label}):
                return None, HEDGE
            if label is None and None in found:
                return None, HEDGE if named else "the pitch given is none of the options"
            if label is None and named:
                return named.pop(), None, "option_pitch"
        if label is None:
            return None, why or "no option"
        return label, None, "option"

    return lambda text, source: read_alternatives(text, read_one, prose_run=0, source=source)


def _key_of_midi(midi_note: int, octave_free: bool) -> int:
    return midi_note % 12 if octave_free else midi_note
