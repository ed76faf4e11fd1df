"""Answers to a choice question that name no option in so many words (docs/reading.md,
*Choices*): a count stated as none, and a guess said of the whole thing asked about. The
patterns :class:`solvers.choices.ChoiceReader` reads them by; pure, no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

# A count stated as none ("There isn't a single kick or snare between the beats.", "No hits
# fall off the beat.") answers a count question with its option meaning 0; never a thing said
# of the beat itself, nor of the options ("Not one of the options fits").
NONE_COUNT = re.compile(
    r"\W*(?:there\s+(?:is|are|was|were)\s*(?:n['\u2019]t|not)\s+(?:a\s+single|one|any)"
    r"|there\s+(?:is|are|was|were)\s+(?:no|zero|not\s+(?:a\s+single|one|any))"
    r"|not\s+(?:a\s+single|one)|no|zero)\s+(?!one\b|of\b)(?P<what>[^.;:!?]{1,80}?)"
    r"(?:\s*[;\u2014\u2013]\s*(?:everything|every\s+hit|all\s+(?:the\s+)?hits)\s+(?:lands?|falls?"
    r"|sits?|is|are)\s+(?:right\s+)?on\s+(?:the\s+)?(?:beats?|downbeats?))?[.!]?\s*$",
    re.IGNORECASE)  # "...; everything lands on the beat." restates the none
NOT_A_COUNT = re.compile(r"\b(?:on[\s-]+(?:the\s+)?beats?|on-?beat|down-?beats?|options?|choices?"
                          r"|(?:on|in)\s+(?:the\s+)?(?:beat\s+)?grid|in\s+(?:time|place)|together"
                          r"|answers?|fits?|matches|idea|clue|way)\b", re.IGNORECASE)
# A guess said of the whole thing asked about: "I would guess the tempo is fast." is "fast"
# (never of a part: "I'd guess the third is major" names no chord).
# The whole thing a question asks about (not a part of it), as a subject.
WHOLE_THING = (r"(?:tempo|pace|speed|mood|genre|style|meter|metre|time\s+signature|dynamics?"
               r"|texture|timbre|character|feel|chord|instrument|piece|song|music|track|recording"
               r"|clip|melody|rhythm|beat|groove|progression|shape|contour|level)")
SUBJECT_IS = re.compile(
    rf"\s*(?:the|its|this|their)\s+(?:overall\s+)?{WHOLE_THING}\s+"
    r"(?:is|are|was|sounds|seems|feels)\s+(?P<rest>\S.*)$", re.IGNORECASE)
# An option letter closing a sentence after a dash, colon or comma: "The key never leaves D major —
# option B." names B (read only when no other option is named in the sentence).
CLOSING_OPTION = re.compile(r"[\u2014\u2013:;,]\s*(?:so\s+|hence\s+|thus\s+|i\.e\.\s+"
                            r"|that\s+is\s+)?(?:option|choice|answer)\s+\(?([A-Za-z])\)?"
                            # "— option B, low syncopation.": its own text may follow
                            r"(?:\s*[,:\u2014\u2013]\s*[^,;:.!?\u2014\u2013]{1,40})?[.!]?\s*$",
                            re.IGNORECASE)


def closing_letter(text: str, letters: Mapping[str, str]) -> str | None:
    """The option letter that closes ``text`` after a dash, colon or comma, if any."""
    closing = CLOSING_OPTION.search(text)
    return letters.get(closing.group(1).upper()) if closing else None


# Numbers in words read as digits ("groups of five" is "Groups of 5"); "one" is left as a word
# ("the second one").
NUMBER_WORDS = dict(zip("two three four five six seven eight nine ten eleven twelve".split(),
                        map(str, range(2, 13)), strict=True))
