"""The closing clause of a reply's last sentence: where a description ends on its answer
("…, so the nearest in-tune pitch is still C#4, MIDI 61.", "Relative to the 440 Hz reference,
the target is two semitones higher, about 493.88 Hz.", "…, which makes it D4.").

:mod:`solvers.reply_spans` reads it as the ``last_clause`` span, last of all: only when no
other span of the reply reads an answer or a hedge, so it never overrides an answer and never
turns an answer into a hedge. It is short (an appositive or a "which is …" restatement), opens with
no turn, time or comparison word ("then a violin", "but not the same", "unlike a major
chord"), and the sentence around it neither doubts nor offers alternatives. Pure; no I/O.
"""

from __future__ import annotations

import re

MAX_CLOSING_WORDS = 8  # an appositive or a restated answer, not a further description
MIN_CLAUSE_WORDS = 3  # the clause before it says something ("… flat of C#4, MIDI 61")
_WORD = re.compile(r"[^\W_]+")
# Where a clause ends inside a sentence: a comma, semicolon or colon, or a dash.
_CLAUSE_BREAK = re.compile(r"\s*[,;:]\s+|\s+[-\u2014\u2013]\s+|\s*[\u2014\u2013]\s*")
# A connective that restates ("which is F4", "so it's B", "that is, MIDI 61"): read what follows.
_RESTATING = re.compile(
    # ("and so is loop 2" says loop 2 is too: no restatement; round 21)
    r"^(?:(?:and\s+)?(?:so|thus|hence|therefore)\s+(?!(?:is|are|was|were|does|do|did|has|have"
    r"|had)\b)(?:it\s*(?:['\u2019]s|\s+is)\s+)?"
    r"|which\s+(?:is|makes\s+it|gives|means)\s+|that\s+is,?\s+|i\.e\.,?\s+"
    r"|making\s+it\s+|namely\s+"
    # after a concession the assertion: "not identical in pitch, but they are transpositions"
    r"|but\s+(?=(?:they|it|the|this|these|both)\b))", re.IGNORECASE)
# A closing that turns, limits in time, compares or negates is no restated answer: "then a
# violin", "but not the same", "unlike a major chord", "not minor", "than the reference".
_NOT_A_RESTATEMENT = re.compile(
    r"^(?:but|though|although|however|yet|except|unless|if|until|while|whereas|before|after"
    r"|then|later|or|nor|not|no|never|unlike|rather|instead|than|like|as|when|because|since"
    r"|compared|relative|above|below|apart|besides|plus|and|with|without|even|only|almost"
    r"|nearly|except|the\s+(?:first|second|last|rest|other|opening|final|next))\b", re.IGNORECASE)
# A bare number or letter after a clause ending on one: the next item of a list ("3, 1").
_LIST_ITEM = re.compile(r"(?:^|\s)[(\[]?(?:\d+(?:\.\d+)?|[A-Za-z])[)\]]?[.!]?$")
# A sentence that doubts, asks, supposes or offers alternatives answers nothing in its close.
DOUBT = re.compile(r"\?|\b(?:maybe|perhaps|possibly|probably|might|could|may|unsure|uncertain"
                    r"|not\s+(?:\w+\s+)?(?:sure|certain|confident)|guess|either|or|if|unless"
                    r"|whether|assuming|suppose|hard|difficult|can['\u2019]?t|cannot|unclear"
                    # an afterthought that reopens it: "… — A. Major is possible too."
                    r"|possible|plausible|conceivable)\b",
                    re.IGNORECASE)


# A colon after a clause that denies or lacks introduces what is denied ("The one shape it
# clearly does not have is this: Arch.", "What it is not: Arch."), never the answer.
_DENYING = re.compile(r"n['\u2019]t\b|\b(?:not|no|never|none|neither|nor|without|lacks?|lacking"
                      r"|absent|missing|excluded?|ruled?\s+out|rules\s+out)\b", re.IGNORECASE)


# A clause of its own opens on its subject and has a finite verb after it ("each note is lower",
# "it falls"); a bare predicate or noun phrase completes the denial ("climb the whole way").
_PRONOUN = r"it|they|he|she|we|i|you|this|that|there"
_DETERMINER = r"the|a|an|each|every|all|both|its|their|one|no|some|most|these|those"
_FINITE = r"(?:is|are|was|were|has|have|had|does|do|did|can|will|would|[a-z]+(?:s|ed))"
_CLAUSE = re.compile(rf"^(?:(?:{_PRONOUN})(?:['\u2019]s\b|(?:\s+\w+)*?\s+{_FINITE}\b)"
                     rf"|(?:{_DETERMINER})\s+(?:\w+(?:\s+\w+)*?\s+{_FINITE}\b"
                     rf"|\w+s\s+[a-z]+))", re.IGNORECASE)  # "the notes drop": a plural subject


def introduces_what_is_denied(text: str) -> bool:
    """Whether ``text`` closes on a colon after a lead-in whose last clause denies or lacks, and
    what follows it completes the denial: a short thing (three words at most: "What it is not:
    Arch.") or a bare predicate ("What it does not do: climb the whole way."), never a clause of
    its own ("It does not turn back: each note is lower than the one before it.")."""
    lead, colon, after = text.rpartition(":")
    lead = re.split(r"[.!?\n]\s|[,;]\s|\s+and\s+", lead)[-1]
    words = len(_WORD.findall(after))
    completes = 1 <= words <= 3 or (words > 3 and not _CLAUSE.match(after.strip()))
    return bool(colon and completes and _DENYING.search(lead))


def closing_clauses(sentence: str) -> list[str]:
    """The clauses of ``sentence``, the last of them the short clause that closes it after its
    last comma, colon or dash, with a restating connective ("which is", "so") taken off; none
    if it has no such close (see module doc). The clauses before it are read beside it, so
    one naming another answer ("Choir and organ point to gospel, option D.") makes a hedge."""
    if DOUBT.search(sentence):
        return []
    *before, closing = _CLAUSE_BREAK.split(sentence.strip())
    if introduces_what_is_denied(sentence) and sentence.rpartition(":")[2].strip() == closing:
        return []
    if not before or len(_WORD.findall(before[-1])) < MIN_CLAUSE_WORDS:
        return []  # "The snare lands on: 2, 4": the last item of a list, no closing clause
    restated = _RESTATING.sub("", closing.strip()).strip()
    if restated == closing.strip() and _LIST_ITEM.search(before[-1]) \
            and _LIST_ITEM.fullmatch(closing.strip()):
        return []  # "I think the answer is 3, 1.": items of a list, not a restated answer
    closing = restated
    words = len(_WORD.findall(closing))
    if not 1 <= words <= MAX_CLOSING_WORDS or _NOT_A_RESTATEMENT.match(closing):
        return []
    return [*(clause for clause in before if _WORD.search(clause)), closing]
