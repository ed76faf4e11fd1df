"""A reply that asks for clarification commits to nothing in its closing words: "Is the second
excerpt in another key? Please clarify what counts as an oddball." names the oddball as a
question, not as an answer (docs/reading.md, round 7). Only answers read from the last line or
sentence are set aside; an explicit answer line or answer sentence stands.
"""

from __future__ import annotations

import re

from .reply_spans import FALLBACK_SOURCES, Reading

_ASKS_BACK = re.compile(
    r"\b(?:please|could\s+you|can\s+you|would\s+you)\s+(?:\w+\s+)?(?:clarify|specify|confirm|"
    r"re-?upload|re-?send|provide|share)\b|\bwhat\s+(?:do|did)\s+you\s+mean\b"
    r"|\bwhat\s+counts\s+as\b"
    # a question back about the question itself ("Are you asking whether ...?", "Do you mean
    # the tempo or the pattern?") or a request to hear it again ("Could you give me the
    # reference again?"), wherever it sits in the reply
    r"|\b(?:are|were)\s+you\s+asking\b|\b(?:do|did)\s+you\s+(?:mean|want)\b[^.!?\n]*\?"
    r"|\bwhich\s+(?:one\s+)?do\s+you\s+mean\b"
    r"|\b(?:could|can|would)\s+you\s+(?:please\s+)?(?:give|send|play|share|upload|provide|"
    r"repeat|attach)\b[^.!?\n]*\b(?:again|once\s+more)\b", re.IGNORECASE)


def unless_asking_back(reading: Reading, reply: str) -> Reading:
    """``reading``, or no answer when it was read from the closing words of a reply that asks
    for clarification."""
    if reading.answer is None or reading.source not in FALLBACK_SOURCES:
        return reading
    if not _ASKS_BACK.search(reply[-4000:]):
        return reading
    return Reading(None, reading.source, "asks for clarification", span=reading.span)
