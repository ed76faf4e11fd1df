"""A final answer line contradicted by the one sentence of reasoning above it: "There's no change
of key." then "Final Answer: Yes" says both, with nothing taking either back, so a grader
credits neither (docs/reading.md, round 9). Kept narrow: the reasoning is a single short
sentence, read by the question's own answer phrases (not a yes/no word), and there is no
correction or retraction marker in it. Pure text; no I/O.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from .reply_excerpt import WORD, clean_markup, unify_line_breaks
from .reply_spans import HEDGE, MAX_FALLBACK_WORDS, Reading
from .retractions import CORRECTION, RETRACTION

_ANSWER_LINE = re.compile(r"^\W*(?:(?:my|the)\s+)?(?:final\s+)?answer\b", re.IGNORECASE)
_SENTENCE_BREAK = re.compile(r"(?<=[.!?;])\s+")
_MAX_REPLY_CHARS = 600
_WORDS_NOT_PHRASES = frozenset({"yes_no_word", "letter"})


def unless_contradicted(reading: Reading, reply: str,
                        read_span: Callable[[str, str], tuple]) -> Reading:
    """``reading``, or a hedge when the reply is one reasoning sentence and a final answer line
    and the sentence, read by ``read_span``, gives the other answer."""
    if reading.answer is None or reading.source != "final_line" or len(reply) > _MAX_REPLY_CHARS:
        return reading
    text = clean_markup(unify_line_breaks(unicodedata.normalize("NFKC", reply)))
    lines = [line.strip() for line in text.splitlines() if WORD.search(line)]
    if len(lines) != 2 or not _ANSWER_LINE.match(lines[1]) or _ANSWER_LINE.match(lines[0]):
        return reading
    sentences = [part for part in _SENTENCE_BREAK.split(lines[0]) if WORD.search(part)]
    if len(sentences) != 1 or len(WORD.findall(lines[0])) > MAX_FALLBACK_WORDS:
        return reading
    if CORRECTION.search(lines[0]) or RETRACTION.match(lines[0]):
        return reading
    said, _reason, *via = read_span(lines[0], "last_line")
    if said is None or said == reading.answer or (via and via[0] in _WORDS_NOT_PHRASES):
        return reading
    return Reading(None, reading.source, HEDGE, span=f"{lines[0]}\n{lines[1]}")
