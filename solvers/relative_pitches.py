"""A pitch said by its distance from a named note: "a semitone above A4" is A#4.

A grader reading "It's a semitone above A4." as the answer to an SPN question does the
arithmetic and reads A#4 (issue 30, round 23); the pitch readers would otherwise take A4 as a
reference point and read nothing. Only a stated distance counts: a count (digits, or a word up to
twelve, "a"/"one") of semitones, half steps, whole steps or tones or octaves, or an interval named
with its quality ("a perfect fifth", "a major third"), then above/below/higher than/lower than, then
a note name with its octave. Vague distances ("a bit above A4", "a semitone or two above A4") are
left alone: A4 stays a reference and nothing is read. Pure; no I/O.
"""

from __future__ import annotations

import re

from .notation import MIDI_RANGE, format_pitch, spn_mentions

_COUNTS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
           "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}
_STEPS = {"semitone": 1, "half step": 1, "half-step": 1, "whole step": 2, "whole-step": 2,
          "whole tone": 2, "octave": 12}  # "a tone above A4" may be any sound above it
_INTERVALS = {"minor second": 1, "major second": 2, "minor third": 3, "major third": 4,
              "perfect fourth": 5, "tritone": 6, "perfect fifth": 7, "minor sixth": 8,
              "major sixth": 9, "minor seventh": 10, "major seventh": 11, "perfect octave": 12}
_STEP = "|".join(sorted((s.replace(" ", r"[\s-]") for s in _STEPS), key=len, reverse=True))
_INTERVAL = "|".join(i.replace(" ", r"\s+") for i in _INTERVALS)
_RELATIVE = re.compile(
    rf"\b(?:(?P<count>\d{{1,2}}|{'|'.join(_COUNTS)})\s+(?P<step>{_STEP})s?"
    rf"|(?:a|an|one)\s+(?P<interval>{_INTERVAL}))"
    r"\s+(?P<direction>above|below|higher\s+than|lower\s+than|over|under)\s+(?:the\s+)?"
    r"(?P<note>[A-G](?:##|bb|#|b|\u266f|\u266d)?-?\d)(?![\w#\u266f\u266d])",
    re.IGNORECASE)


def _semitones(match: re.Match) -> int:
    if match.group("interval"):
        return _INTERVALS[" ".join(match.group("interval").casefold().split())]
    count = match.group("count").casefold()
    step = re.sub(r"[\s-]+", " ", match.group("step").casefold())
    return (int(count) if count.isdigit() else _COUNTS[count]) * _STEPS[step]


def _resolved(match: re.Match) -> str:
    found = spn_mentions(match.group("note"))
    if len(found) != 1 or found[0][2].midi_note is None:
        return match.group()
    sign = -1 if match.group("direction").casefold() in ("below", "lower than", "under") else 1
    midi = found[0][2].midi_note + sign * _semitones(match)
    if not MIDI_RANGE[0] <= midi <= MIDI_RANGE[1]:
        return match.group()
    return format_pitch(midi, "spn")


def with_relative_pitches(text: str) -> str:
    """``text`` (normalised, "middle C" already C4) with every pitch said by a stated distance
    from a named note written as that pitch."""
    return _RELATIVE.sub(_resolved, text)


# An alternative named without an octave or by its distance ("or the D above it", "or a semitone
# higher", "or the note below"): no pitch reader reads it, yet it is a second answer.
_VAGUE_ALTERNATIVE = re.compile(
    r"\bor\s+(?:(?:the|a|an|maybe|perhaps|possibly)\s+)*(?:[A-G][#b\u266f\u266d]?(?![\w#\u266f"
    r"\u266d])|(?:(?:one|a|half|whole)[\s-]+)?(?:semitones?|half[\s-]steps?|whole[\s-]steps?"
    r"|tones?|notes?|octaves?|one|step)\s+(?:right\s+|just\s+)?(?:above|below|higher|lower|up"
    r"|down|sharper|flatter))")


def names_vague_alternative(text: str) -> bool:
    """Whether ``text`` offers an alternative pitch only by a letter or a distance."""
    return _VAGUE_ALTERNATIVE.search(text) is not None
