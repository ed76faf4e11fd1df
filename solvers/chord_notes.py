"""A chord said by its notes instead of its quality: "The chord contains the notes C, E, G and
B♭." is a dominant seventh, "the notes A, C and E" a minor triad; or by the intervals above its
root: "a stacked pair of minor thirds with a flattened fifth" is diminished, "a major third above
the root" is major where major and minor are offered (docs/reading.md, round 24).

The quality is computed from the pitch classes named, tried on every note as the root (an
inversion spells the same chord): a quality is read only when the notes spell exactly one
offered quality, under no other root, and the options are qualities only (``Major``, ``Minor
triad``, ``Dominant seventh`` …). Notes that spell no offered quality (C, E, G, B: a major
seventh) or several read nothing, and so does a list of fewer than three notes, a list not
said to be the chord's notes ("the melody goes C, E, G") or one negated. Intervals are read
the same way when a third is among them: the one offered quality that holds every interval said
(a major third fits major and dominant: no answer where both are offered). An interval negated
("no flattened fifth") or said of a melody or a move, and intervals without a third ("a minor
seventh above the root", graded no answer in the core corpus), read nothing. Pure, no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

Said = Callable[[str], "tuple[set[str], str | None]"]

QUALITIES: dict[str, frozenset[int]] = {  # semitones above the root, as pitch classes
    "major": frozenset({0, 4, 7}), "minor": frozenset({0, 3, 7}),
    "dominant": frozenset({0, 4, 7, 10}), "diminished": frozenset({0, 3, 6}),
    "augmented": frozenset({0, 4, 8}),
}
_OPTION = re.compile(r"\s*(?P<quality>major|minor|dominant|diminished|augmented)"
                     r"(?:\s+(?:triad|chord|seventh|7th|7))?\s*(?:\(.*\))?\s*", re.IGNORECASE)
_STEPS = {"C": 0, "D": 2, "E": 4, "F": 5, "G": 7, "A": 9, "B": 11}
_ACCIDENTAL = r"(?:#|\u266f|b|\u266d|-?\s?sharp|-?\s?flat)?"
_NOTE = rf"\b[A-G]{_ACCIDENTAL}(?:[0-8])?(?![\w#\u266f\u266d])"
_LIST = re.compile(rf"(?P<list>{_NOTE}(?:\s*(?:[,;]|\band\b|[-\u2013\u2014/+]|\s)\s*(?:and\s+)?"
                   rf"{_NOTE}){{2,5}})")
# Where a list is the chord's notes: "the notes …", "contains …", "is built from …", "spells …".
_CUE = re.compile(r"\b(?:(?:notes?|pitches|pitch\s+classes|tones)(?:\s+(?:are|were|is))?"
                  r"|contains?|consists?\s+of|made\s+(?:up\s+)?of|built\s+(?:on|from|of)"
                  r"|spell(?:s|ed|ing)?|stacks?)\W*$", re.IGNORECASE)
_NEGATED = re.compile(r"\b(?:not|no|never|without|n['\u2019]t)\b", re.IGNORECASE)
_MELODY = re.compile(r"\b(?:melody|tune|line|scale|arpeggio\s+goes|bass\s+line)\b", re.IGNORECASE)


def _pitch_class(note: str) -> int:
    note = note.rstrip("012345678").replace(" ", "").replace("-", "")
    step = _STEPS[note[0]]
    accidental = note[1:].casefold()
    return (step + (1 if accidental in ("#", "\u266f", "sharp") else
                    -1 if accidental in ("b", "\u266d", "flat") else 0)) % 12


def spelled_qualities(notes: list[str]) -> set[str]:
    """Every quality of :data:`QUALITIES` the notes spell under some root."""
    classes = {_pitch_class(note) for note in notes}
    return {quality for root in classes for quality, steps in QUALITIES.items()
            if {(pc - root) % 12 for pc in classes} == steps}


def quality_letters(options: Mapping[str, str]) -> dict[str, str]:
    """``{quality: letter}`` when every option is a chord quality, else ``{}``."""
    found = {}
    for letter, text in options.items():
        match = _OPTION.fullmatch(str(text))
        if match is None:
            return {}
        found[match.group("quality").casefold()] = letter
    return found if len(found) == len(options) >= 2 else {}


# Intervals above the root a reply says the chord has: "a major third above the root", "a
# stacked pair of minor thirds", "a flattened fifth", "a minor seventh on top".
_INTERVALS = (
    (re.compile(r"\b(?:two|pair\s+of|stacked)\s+(?:stacked\s+)?minor\s+thirds\b", re.IGNORECASE),
     {3, 6}),
    (re.compile(r"\b(?:two|pair\s+of|stacked)\s+(?:stacked\s+)?major\s+thirds\b", re.IGNORECASE),
     {4, 8}),
    (re.compile(r"\bmajor\s+third\b", re.IGNORECASE), {4}),
    (re.compile(r"\bminor\s+third\b", re.IGNORECASE), {3}),
    (re.compile(r"\b(?:flat(?:ten)?ed|diminished|flat)\s+fifth\b|\btritone\b", re.IGNORECASE), {6}),
    (re.compile(r"\b(?:sharp(?:en)?ed|augmented|sharp)\s+fifth\b", re.IGNORECASE), {8}),
    (re.compile(r"\b(?:minor|flat(?:ten)?ed|flat)\s+seventh\b", re.IGNORECASE), {10}),
    (re.compile(r"\bmajor\s+seventh\b", re.IGNORECASE), {11}),
)
_INTERVAL_NEGATED = re.compile(r"(?:\b(?:not|no|never|without|nor|neither|lacks?)|n['\u2019]t)"
                               r"\s+(?:[\w-]+\s+){0,3}$", re.IGNORECASE)
_OF_A_PART = re.compile(r"\b(?:melody|tune|bass\s+(?:line|moves?)|moves?|leaps?|jumps?|steps?"
                        r"|interval\s+between|between)\b", re.IGNORECASE)


def _intervals_said(text: str, letters: dict[str, str]) -> set[str]:
    """The one option whose quality holds every interval said above its root, or none."""
    if _OF_A_PART.search(text):
        return set()  # "the melody leaps a minor third": no interval of the chord
    steps: set[int] = set()
    for pattern, intervals in _INTERVALS:
        for match in pattern.finditer(text):
            if _INTERVAL_NEGATED.search(text[:match.start()][-40:]):
                return set()  # "no flattened fifth" rules out; it says nothing that fits
            steps |= intervals
            text = text[:match.start()] + " " * (match.end() - match.start()) + text[match.end():]
    if not steps & {3, 4}:
        return set()  # no third said: "a minor seventh above the root" alone is no quality
    fits = {letter for quality, letter in letters.items() if steps <= QUALITIES[quality]}
    return fits if len(fits) == 1 else set()


def chord_notes(letters: dict[str, str]) -> Said:
    """The reader of a chord said by its notes or the intervals above its root (module doc),
    for ``quality_letters``."""
    def said(text: str) -> tuple[set[str], str | None]:
        if not _LIST.search(text):
            found = _intervals_said(text, letters)
            return (found, None) if found else (set(), "no notes or intervals of the chord said")
        answers: set[str] = set()
        for match in _LIST.finditer(text):
            before = text[:match.start()]
            if not _CUE.search(before[-40:]) or _NEGATED.search(before[-40:]) \
                    or _MELODY.search(before):
                return set(), "a list of notes not said to be the chord's"
            qualities = spelled_qualities(re.findall(_NOTE, match.group("list")))
            if len(qualities) != 1 or not qualities <= set(letters):
                return set(), "the notes spell no one offered quality"
            answers.add(letters[qualities.pop()])
        return (answers, None) if len(answers) == 1 else (set(), "no notes of the chord said")
    return said


def without_notes(text: str) -> str:
    """``text`` with its lists of notes and its intervals taken out ("the notes A, C and E"
    names no option A, "two stacked minor thirds" no minor chord)."""
    for pattern, _steps in _INTERVALS:
        text = pattern.sub(" interval ", text)
    return _LIST.sub(" notes ", text)
