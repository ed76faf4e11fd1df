"""A pitch named only inside a supposition is no answer: "If C6, it's 84." / "It's 84 if it is
C6." tries an answer on without choosing it.

The condition ("if", "assuming", "supposing", "provided", "in case") is read for its first few
words; when they name a pitch in any notation, a bare number as MIDI included (a tuning
reference blanked first, as the pitch readers do), the reply has only supposed that pitch, and
an answer read from the same span is a hedge. "If I had to pick, 84" supposes no pitch and
stays an answer; so does a concession ("even if it sounds like C7") or a comparison ("as if").
Pure; no I/O.
"""

from __future__ import annotations

import re

from .pitch_reading import pitch_mentions, prepared
from .reply_spans import HEDGE, Reading

_SUPPOSE = re.compile(r"(?<!\beven )(?<!\bas )\b(?:if|assuming|supposing|suppose|provided"
                      r"|in\s+case)\b(?!\s+anything\b)(?P<condition>[^,.;:!?\n\u2014]*)",
                      re.IGNORECASE)
_CONDITION_WORDS = 4  # "if it is C6", "if the note is C6": a pitch supposed is said early


def supposes_a_pitch(text: str, notation: str | None) -> bool:
    """Whether a condition in ``text`` names a pitch."""
    for found in _SUPPOSE.finditer(prepared(text)):
        words = found.group("condition").split()[:_CONDITION_WORDS]
        for reading_as in {notation or "midi", "midi"}:  # "Supposing it's 60, it is C4."
            primary, restated = pitch_mentions(" ".join(words), reading_as)
            if primary or any(restated.values()):
                return True
    return False


def unless_supposed(reading: Reading, notation: str | None) -> Reading:
    """``reading``, or a hedge when its span names its pitch only as a supposition."""
    if reading.answer is None or not reading.span or not supposes_a_pitch(reading.span, notation):
        return reading
    return Reading(None, reading.source, HEDGE, span=reading.span)
