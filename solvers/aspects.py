"""Sameness said of another aspect of the recordings: "The tempo is the same." answers nothing
about whether two rhythms (or melodies) are the same, as "the same tempo" does not
(docs/reading.md, round 9). Pure word lists; no I/O.
"""

from __future__ import annotations

# Aspects two recordings can share without being the same pattern, melody or progression.
OTHER_ASPECTS = frozenset(
    "tempo tempos speed bpm pace key keys tonality register pitch instrument instruments "
    "instrumentation timbre tone sound sounds dynamics volume loudness level meter metre "
    "signature feel mood style length duration tuning recording quality mix reverb "
    "articulation".split())
_BETWEEN = frozenset("the exactly just quite very all completely totally entirely basically "
                     "essentially practically virtually still also both not".split())
_COPULAS = frozenset("is are was were s re seems seem sounds sound stays stay remains remain "
                     "looks look feels feel".split())


def said_of_other_aspect(words: list[str], index: int, compared: frozenset[str]) -> bool:
    """Whether the same/different word at ``words[index]`` is predicated of another aspect
    ("the tempo is the same", "the key is not different"), not of the compared things."""
    position = index - 1
    while position >= 0 and (words[position] in _BETWEEN or words[position].endswith("ly")):
        position -= 1
    if position < 0 or words[position] not in _COPULAS:
        return False
    subject = words[position - 1] if position > 0 else ""
    return subject in OTHER_ASPECTS and subject not in compared
