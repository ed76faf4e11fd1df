"""Numbers that name a thing rather than a pitch: "Recording 1 didn't play", "clip 2", "Step 3",
"bar 4", "option 2" are a recording, a step, a bar, never a MIDI note (docs/reading.md, round 9).
Blanked before the pitch reader looks for pitches. Pure text; no I/O.
"""

from __future__ import annotations

import re

# ("note 60" and "tone 64" name a pitch: not here.)
_NAMED_ITEM = re.compile(
    r"\b(?:recordings?|clips?|excerpts?|options?|steps?|bars?|measures?|tracks?|samples?|"
    r"examples?|takes?|files?|questions?|trials?|items?|parts?|sections?|versions?|loops?|"
    r"segments?|phrases?|attempts?|runs?|listens?|passes|beats?|stimulus|stimuli)"
    r"\s*(?:#|no\.|number)?\s*\d{1,3}(?:\s*(?:and|&|,|-|to)\s*\d{1,3})*\b"
    r"(?!\s*(?:hz|cents?|semitones?|st\b)|\.\d)", re.IGNORECASE)


def without_item_numbers(text: str) -> str:
    """``text`` with the numbers that name a recording, clip, step or bar blanked out."""
    return _NAMED_ITEM.sub(lambda m: " " * len(m.group()), text)
