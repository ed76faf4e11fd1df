"""Where a reply takes back an answer it gave, and courtesy it opens with: the markers
:mod:`solvers.reply_spans` reads between and after answer lines (docs/reading.md, *Retractions*).

Pure patterns and one text helper; no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import accumulate

RETRACTION = re.compile(r"\W*(?:wait|actually|hmm+|hold on|correction|on (?:second|further) "
                         r"thought|on reflection|let me (?:re-?check|correct|recount|fix|amend"
                         r"|change|update|redo|revise)|re-?count"
                         r"|re-?listening|(?:listening|looking) again|I was wrong|scratch that"
                         r"|I mis-?spoke"
                         r"|on (?:a )?(?:second|closer|further|another) listen(?:ing)?)\b",
                         re.IGNORECASE)
# A marker that takes back what was just said even when no new answer follows ("60. Wait, 5
# semitones above that.", "A4. Wait, that's the reference tone."): no "hmm" or "actually" here,
# which also open confirmations ("Minor. Actually, the third is clearly flat.").
WITHDRAWS = re.compile(r"\W*(?:wait|hold on|correction|on (?:second|further) thought|on reflection"
                       r"|I was wrong|scratch that)\b", re.IGNORECASE)
# An explicit retraction of an answer already given ("I was wrong"): after one, only the answer
# lines that follow it count; with none after it, the answer is withdrawn.
ADMISSION = re.compile(
    r"\bI\s+was\s+(?:wrong|mistaken)\b|\bI\s+(?:made|make)\s+an?\s+(?:mistake|error)\b"
    r"|\b(?:my|that|the)\s+(?:previous\s+|earlier\s+|first\s+|initial\s+)?answer\s+(?:was|is)\s+"
    r"(?:wrong|incorrect)\b|\bI\s+take\s+(?:that|it)\s+back\b"
    r"|\blet\s+me\s+(?:correct|reconsider|revise)\b|\bI\s+(?:need|have)\s+to\s+(?:correct|revise)\b"
    # "Let me fix my answer.", "I need to amend that", "I misspoke": an answer being changed
    r"|\b(?:let\s+me|I\s*(?:'|\u2019)?\s*(?:ll|will|must|need\s+to|have\s+to|should))\s+"
    r"(?:fix|amend|change|update|redo|correct|revise)\s+(?:my|the|that|this)\b"
    r"|\bI\s+mis-?spoke\b|\bI\s+misread\b"
    r"|\brevised\s+(?:final\s+)?answer\b|\bcorrecting\s+(?:myself|my\s+answer)\b"
    # "On reflection, that's incorrect", "I retract my answer": explicit, where "on reflection"
    # alone is not
    r"|\bthat\s*(?:'|\u2019)?\s*s\s+(?:incorrect|wrong)\b|\bthat\s+(?:is|was)\s+(?:incorrect|wrong)\b"
    r"|\bI\s+retract\b|\bretracting\s+(?:my|that|the)\b",
    re.IGNORECASE)
# Words saying the answer given is being corrected: "Correcting: ...", "so I'll revise".
REVISION = re.compile(
    ADMISSION.pattern + r"|\bcorrect(?:ion|ing)\b|\brevis(?:e|ed|ing)\b"
    r"|\bI\s+(?:missed|misheard|mis[a-z]{3,}ed|mistook|overlooked)\b|\bscratch\s+that\b"
    # "I had the loops reversed", "I had the order of the notes backwards" (round 20)
    r"|\bI\s+had\s+(?:the|my)\s+(?:[^\W\d_]+\s+){1,4}?(?:reversed|backwards|swapped|mixed\s+up"
    r"|the\s+wrong\s+way\s+(?:round|around))\b"
    # "I reversed the order of the loops", "I mixed up the two clips": an error of the speaker's
    r"|\bI\s+(?:had\s+)?(?:reversed|swapped|mixed\s+up|confused)\s+(?:the|my)\s+"
    r"(?:order|two\b|[^\W\d_]+s\b)",
    re.IGNORECASE)
# The settled retraction rule (issue 30): a correction marker between two final answers, even
# one that takes nothing back in so many words ("Actually, listening again, the fifth sounds
# flat."), hands the answer to exactly one final answer after it (two after it stay a hedge);
# none after it commits to nothing. ("Hmm" or "on reflection" alone is no marker: a hedge.)
SECOND_LOOK = re.compile(
    r"\b(?:wait|actually|hold\s+on|on\s+second\s+thought"
    # "listening again", "counting the kick again", "checking the bass line again"
    r"|(?:listening|hearing|counting|checking)\s+(?:to\s+)?(?:(?:the|it|that|my|each)\s+)?"
    r"(?:[\w-]+\s+){0,2}?again"
    r"|on\s+(?:a\s+)?(?:second|closer|further|another)\s+listen(?:ing)?"
    r"|re-?listen(?:ing|ed)?|re-?count(?:ing|ed)?|let\s+me\s+(?:re-?check|recount|re-?listen)"
    # "On reflection, the second chord is vi, not IV": a reconsideration that corrects a fact
    r"|on\s+reflection(?=[^.!?\n]*(?:,\s*not\s|\brather\s+than\b|\binstead\s+of\b"
    # "On reflection the pulse I counted was the half-time feel; the actual beat is faster."
    r"|\bthe\s+(?:actual|real|true)\s|\bin\s+fact\b))"
    # "… a tone lower than I first thought": a belief said to have changed
    r"|than\s+I\s+(?:first\s+|initially\s+|originally\s+)?(?:thought|said|assumed|counted))\b",
    re.IGNORECASE)
# "Major... no, the third is lowered", "I'd say A... no, …, so B": a thought broken off and
# denied, the answer after it the one given (round 20; "… actually no,", "… correction,": 24)
INTERRUPTION = re.compile(r"(?:\.{3}|\u2026)\s*(?:(?:(?:actually|wait|hmm+|oh)\W+)?no"
                          r"|correction)\s*[,;:.!\u2014\u2013]", re.IGNORECASE)
# A closer listen said to change what was heard ("Hmm, listening more carefully, …"; round 23),
# a marker of a change of mind when a new answer follows it (solvers.changes_of_mind).
CLOSER_LISTEN = re.compile(r"\W*(?:hmm+\W+)?(?:(?:listening|looking|hearing)\s+(?:more\s+)?"
                           r"(?:closely|carefully|attentively))\b", re.IGNORECASE)
CORRECTION = re.compile(REVISION.pattern + "|" + SECOND_LOOK.pattern + "|" + INTERRUPTION.pattern,
                        re.IGNORECASE)


def after_interruption(said: str | None) -> str | None:
    """What an answer sentence says after its last broken-off and denied thought ("A... no,
    …, so B" gives "…, so B"); ``said`` itself when it breaks off none."""
    if said is None:
        return None
    ends = [found.end() for found in INTERRUPTION.finditer(said)]
    return said[ends[-1]:] if ends else said

# An answer taken back in the same span with no new one: "It is a violin. Actually no.",
# "Violin - wait, no.", "scratch that": a changed mind, never the answer.
TAKEN_BACK = re.compile(r"\b(?:actually|wait|hmm+)\W+(?:no|nope)\b(?!\s+[a-z])|\bno\W+wait\b"
                        r"|\bscratch\s+that\b|\bI\s+take\s+(?:that|it)\s+back\b", re.IGNORECASE)

# "Scratch my first impression that they differed": what follows is the answer taken back.
_SCRATCHED_OPENING = re.compile(
    r"\W*(?:scratch|forget|ignore|disregard)\s+(?:my|the)\s+(?:first|earlier|initial|previous)"
    r"\s+(?:impression|answer|guess|thought|reading|hunch)\b", re.IGNORECASE)


def without_taken_back(sentences: list[str]) -> list[str]:
    """``sentences`` without those above the last that take their own answer back ("The excerpt
    descends - wait, no, that's the second half.", "Scratch my first impression that they
    differed;"): a grader reads the answer given after them. A sentence opening on the take-back
    ("No, wait - it's A.") gives its new answer and is kept. A thought broken off and denied
    ("I'd say A... no, …") is left out of its sentence."""
    sentences = [kept for sentence in sentences if (kept := after_interruption(sentence).strip())]
    kept = [sentence for sentence in sentences[:-1]
            if not _SCRATCHED_OPENING.match(sentence)
            and not ((found := TAKEN_BACK.search(sentence)) and sentence[:found.start()].strip(
                " \t-\u2014\u2013,;:."))]
    return [*kept, *sentences[-1:]]


def taken_back_after(lines: list[str]) -> Callable[[int, int], bool]:
    """Whether what ``lines`` say after position ``end`` of line ``index`` takes an answer said
    there back ("I'll go with the guitar. Hmm, no - ...", "... I was wrong."): the answer
    sentence is then no commitment, and a later answer (a last line "C. Bass") decides, as
    between two final answers. The reply is searched once: whether a take-back follows a point
    depends only on where the last one starts (a reply of many answer sentences stays linear)."""
    text = "\n".join(lines)
    last_start = max(_last_match_start(TAKEN_BACK, text), _last_match_start(ADMISSION, text))
    starts = list(accumulate((len(line) + 1 for line in lines[:-1]), initial=0))
    return lambda index, end: last_start >= starts[index] + end


def _last_match_start(pattern: re.Pattern[str], text: str) -> int:
    """Where the last match of ``pattern`` in ``text`` starts, overlapping ones included; -1."""
    last, found = -1, pattern.search(text)
    while found:
        last, found = found.start(), pattern.search(text, found.start() + 1)
    return last


# A courtesy sentence ("Thank you for sharing the recording.", "Thanks for the two clips!") says
# nothing about the answer: the fallback reads a reply as if it were absent.
_COURTESY = re.compile(r"\W*(?:thank\s+you|thanks|many\s+thanks)\b[^.!?\n]*[.!]?\W*$",
                       re.IGNORECASE)


def without_courtesy(sentences: list[str]) -> list[str]:
    """``sentences`` with courtesy sentences left out (all of them, if that leaves nothing)."""
    kept = [sentence for sentence in sentences if not _COURTESY.match(sentence)]
    return kept or sentences
