"""Replies cut off mid-sentence (a token limit, a dropped connection): what the last, unfinished
sentence was going to say is unknown, so a careful grader reads no answer from the reasoning
before it. "Step 2: Scan for a sustained shift. Around 0:12 the harmony" answers nothing, and
neither does "The melody begins low and climbs through the scale to".

Only the fallback tiers (the last line or sentence read as an answer given alone) are withdrawn:
an explicit ``Final Answer:`` line or an answer sentence above the cut still commits.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable

from .caveats import split_caveat
from .reply_excerpt import SENTENCE_END, WORD, clean_markup

# A line ends finished with sentence punctuation, a closing bracket, quote or markup, or a
# symbol; one that ends in a word or a number may have been cut.
_FINISHED_END = re.compile(r"[.!?;:)\]}\"'\u201d\u2019*|>`\u2026~]\s*$")
# A sentence never ends on these: a tail ending with one was certainly cut mid-phrase.
_OPEN_ENDED = frozenset(
    """a an the to of in on at by for from with into onto through than as and or but nor so
    because since while although though whereas if whether that which who whom whose its their
    his her my our your this these those is are was were be being been has have had will would
    can could should may might must not very more less most least rather either neither""".split())
# "… rises at first and then": a sequence left hanging (round 23; "B then" ends as it should)
_CUT_SEQUENCE = re.compile(r"(?:\b(?:and|but|or)|,)\s*then\s*$", re.IGNORECASE)
# "they match → A", "so: A": a capital letter after an arrow or a colon labels an option; it
# is no article left hanging
_LABEL_END = re.compile(r"(?:\u2192|\u21d2|->|=>|=|:)\s*\(?A\)?\s*$")  # "⇒ A" too (round 18)
MIN_TAIL_WORDS = 3  # "Answer: B", "Minor", "So C": short closings are finished as they are
# A tail cut inside a closing concession or alternative ("…, though I'm not fully"): what it
# was going to take back or offer is unknown.
_CUT_TURN = re.compile(r"(?:[,;:]|\s[\u2014\u2013-])\s*(?:though|although|but|however|or|unless"
                       r"|except|maybe|perhaps|possibly)\b[^,;:\u2014\u2013]*$", re.IGNORECASE)

# "… somewhere around 52": an approximate figure with no unit and no full stop may have been
# cut while its digits were written (523.25 Hz); how much of it is there is unknown.
_CUT_FIGURE = re.compile(r"(?:\b(?:around|about|roughly|approximately|approx|nearly|near"
                         r"|close\s+to)|~)\s*\d+(?:[.,]\d*)?\s*$", re.IGNORECASE)


def unfinished_tail(reply: str) -> str | None:
    """The reply's last sentence if it looks cut off (no closing punctuation and at least
    ``MIN_TAIL_WORDS`` words), else None."""
    lines = [line.strip() for line in clean_markup(reply).splitlines() if line.strip()]
    if not lines or _FINISHED_END.search(lines[-1]):
        return None
    tail = SENTENCE_END.split(lines[-1])[-1].strip()
    return tail if len(WORD.findall(tail)) >= MIN_TAIL_WORDS else None


def cut_before_answer(reply: str, answer: Hashable, read_tail: Callable[[str], Hashable]) -> bool:
    """Whether ``answer``, read from a fallback span, is withdrawn because the reply was cut
    off: the unfinished tail does not itself give that answer (it came from reasoning before
    the cut), breaks off on a word no sentence ends with, or inside a closing concession."""
    tail = unfinished_tail(reply)
    if tail is None:
        return False
    tail = split_caveat(tail)[0]  # "Minor, though I'm not fully certain" ends as it should
    open_ended = WORD.findall(tail)[-1].casefold() in _OPEN_ENDED and not _LABEL_END.search(tail)
    cut = any(pattern.search(tail) for pattern in (_CUT_TURN, _CUT_SEQUENCE, _CUT_FIGURE))
    closed = tail.rpartition(":")[2]  # "… I'll go with trumpet instead: C" ends on its answer
    return open_ended or cut or read_tail(tail) != answer and (
        closed == tail or len(WORD.findall(closed)) > MIN_TAIL_WORDS or read_tail(closed) != answer)
