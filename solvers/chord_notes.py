"""A chord said by its notes instead of its quality: "The chord contains the notes C, E, G and
B♭." is a dominant seventh, "I hear A, C and E" a minor triad (docs/reading.md, round 24).

The quality is computed from the pitch classes named, tried on every note as the root (an
inversion spells the same chord): a quality is read only when the notes spell exactly one
offered quality, under no other root, and the options are qualities only (``Major``, ``Minor
triad``, ``Dominant seventh`` …). Notes that spell no offered quality (C, E, G, B: a major
seventh) or several read nothing, and so does a list of fewer than three notes, a list not
said to be the chord's notes ("the melody goes C, E, G") or one negated. Pure, no I/O.
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


def chord_notes(letters: dict[str, str]) -> Said:
    """The reader of a chord said by its notes (module doc), for ``quality_letters``."""
    def said(text: str) -> tuple[set[str], str | None]:
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
    """``text`` with its lists of notes taken out ("the notes A, C and E" names no option A)."""
    return _LIST.sub(" notes ", text)
