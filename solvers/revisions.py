"""A change of mind said in prose, with the new answer in the same sentence: "Correcting my
answer to D.", "Changing to C. Diminished.", "I'm switching my answer to minor", "I'll revise:
the two are different melodies.", "Correction — the third note moves the other way, so: No, …".

A careful grader reads the answer such a sentence gives as the reply's answer, as it reads
"The answer is A." (:mod:`solvers.answer_cues` reads it as an answer sentence; an earlier answer
in the reply's last line is then never consulted). Only a sentence that *opens* on the change
counts, or its part after a full stop or a dash ("the harmony changing to the relative minor"
describes the music), and only a promise or a present act ("I'd revise if the bass were
clearer" is a condition, no answer). After an
opening "Correction" the new answer must open as a whole answer after the sentence's last colon
("…: No, these are not …", "…: B. Minor"). Pure; no I/O.
"""

from __future__ import annotations

import re

from .answer_lines import opens_as_answer

_ANSWER = r"(?:my\s+(?:final\s+)?(?:answer|choice|pick)|the\s+(?:final\s+)?answer)"
# Without "my answer" the new answer must be given alone ("Changing to C. Diminished."); a
# longer rest ("Switching to the relative minor in the bridge.") describes the music.
MAX_BARE_VALUE_WORDS = 3
_WORD = re.compile(r"[^\W_]+")
_NAMED_ANSWER = re.compile(r"\b(?:answer|choice|pick)\b", re.IGNORECASE)
_REVISED = re.compile(
    # "…, so I'll revise: B. No, …" (round 20): after a comma only a first person with "so"
    r"(?:(?:^|(?<=[.!?;\u2014\u2013])\s)\W{0,3}(?:(?:so|ok(?:ay)?|hmm+|then|actually|wait|well)"
    r"\W{1,3}){0,3}|,\s*(?:and\s+)?so\s+(?=I\b))"
    r"(?:(?:correcting|changing|switching|revising|updating|amending)"
    rf"(?:\s+{_ANSWER})?\s+to\b"
    r"|I\s*(?:['\u2019]ll|\s+will|['\u2019]m\s+going\s+to|\s+am\s+going\s+to)\s+"
    rf"(?:revise|change|switch|correct|amend|update)(?:\s+{_ANSWER})?\s*(?:\bto\b|:)"
    r"|I\s*(?:['\u2019]m|\s+am)\s+(?:changing|switching|revising|correcting|updating)"
    rf"(?:\s+{_ANSWER})?\s+to\b)"
    r"\s*(?P<value>\S.*)$", re.IGNORECASE)
_CORRECTION_OPENING = re.compile(r"^\W*correction\b.*:\s*(?P<value>[^:]+)$", re.IGNORECASE)


def revised_answer(sentence: str) -> str | None:
    """The new answer a sentence opening on a change of mind gives, or None (see module doc)."""
    if (revised := _REVISED.search(sentence)) is not None:
        value, opening = revised.group("value"), sentence[revised.start():revised.start("value")]
        if _NAMED_ANSWER.search(opening) or opening.rstrip().endswith(":") or \
                len(_WORD.findall(value)) <= MAX_BARE_VALUE_WORDS or opens_as_answer(value):
            # "Switching to the relative minor in the bridge." describes the music; "Switching
            # to A. Groups of 3." gives a whole answer, an option's label and text
            return value
    opening = _CORRECTION_OPENING.match(sentence)
    if opening is not None and opens_as_answer(opening.group("value")):
        return opening.group("value")
    return None
