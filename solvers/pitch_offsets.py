"""A pitch said with an offset in cents: "A4 (440 Hz) plus about 60 cents", "A3, but roughly 30
cents sharp" (docs/reading.md, round 24). Under half a semitone the named note stays the
nearest and the reading stands; more than half a semitone with its direction said names the
neighbour a grader reads (A4 plus 60 cents is A#4, a frequency moves by as much); exactly half,
or more than half with no direction, names no note. Only a one-pitch answer with octaves is
moved; a pitch class with such an offset names none. Pure; no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from .notation import hz_to_midi

Result = tuple
HALF_STEP_CENTS = 50.0
# "plus about 60 cents", "-70 cents", "60 cents sharp", "about 60 cents too high"; never "60 cents
# above A4" (a distance from a reference point, whose pitch is read apart).
_OFFSET = re.compile(
    r"(?:(?P<plus>\bplus|\+)|(?P<minus>\bminus|[-\u2212]))?\s*(?:about|roughly|around|nearly|almost"
    r"|approximately|some|~)?\s*(?P<value>\d+(?:\.\d+)?)\s*(?:cents?\b|\u00a2)"
    r"(?:\s+(?:too\s+)?(?:(?P<sharp>sharp|high)|(?P<flat>flat|low))\b)?", re.IGNORECASE)


def cents_off(text: str) -> float | None:
    """The offset in cents ``text`` states its pitch is off by (0: none, or under half a
    semitone); None if one of half a semitone or more leaves the note open (no direction, exactly
    half, two offsets)."""
    offset = 0.0
    for found in _OFFSET.finditer(text):
        cents = float(found.group("value"))
        if cents < HALF_STEP_CENTS:
            continue
        signs = {1 for key in ("plus", "sharp") if found.group(key)} | {
            -1 for key in ("minus", "flat") if found.group(key)}
        if len(signs) != 1 or cents % 100 == HALF_STEP_CENTS or offset:
            return None
        offset = signs.pop() * cents
    return offset


def with_offsets(read: Callable[[str, str], Result], octave_free: bool
                 ) -> Callable[[str, str], Result]:
    """``read`` (a one-pitch span reader) with an offset in cents applied to its pitch."""
    def reader(text: str, source: str) -> Result:
        result = read(text, source)
        answer = result[0]
        if answer is None or len(answer.keys) != 1:
            return result
        offset = cents_off(text)
        if offset == 0:
            return result
        if offset is None or octave_free:
            return None, "an offset of half a semitone or more leaves the note open"
        if answer.freqs_hz:  # "440 Hz plus 60 cents": the frequency meant, and its nearest note
            freq = answer.freqs_hz[0] * 2 ** (offset / 1200)
            exact = hz_to_midi(freq)
            moved = replace(answer, keys=(round(exact),), freqs_hz=(freq,),
                            cents_errors=(100 * (exact - round(exact)),))
        else:
            moved = replace(answer, keys=(answer.keys[0] + round(offset / 100),))
        return moved, None, *result[2:]
    return reader
