"""A yes/no question a reply restates in its own words and answers with a bare yes, no or mark
("**Oddball present?** Yes", "**Same pattern?** ❌", "Is there an oddball? Yes, the fifth
note."): the answer word is bound to the restated question, never to the question asked
(docs/reading.md, round 24). The restated question, read as a statement by the question's own
phrases, says whether it is the asked one ("Same pattern" reads yes: the word answers as it
is) or its complement ("Oddball present" reads no: the word answers the other way round). A
restated question that reads no answer, or a negated one ("Isn't it the same?"), is left as
it is.

A yes or no that introduces a clause saying what exists ("Yes, there is an oddball in the
second excerpt.", "No: there's no oddball, …", "Yes — the second excerpt contains an
oddball.") answers that clause's question, the complement of the one asked when the clause,
read by the question's phrases, says the other answer: the clause decides, the word is dropped
(only when word and clause have one polarity: "yes, there is" / "no, there is no").
Pure text; no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Callable

SpanReader = Callable[[str, str], tuple]
MAX_CHARS = 6000  # what a reply may be for its questions and words to be rewritten

_YES_MARKS = ("yes", "\u2705", "\u2714", "\u2713", "\u2611")  # ✅ ✔ ✓ ☑
_NO_MARKS = ("no", "\u274c", "\u274e", "\u2717", "\u2718", "\u2716")  # ❌ ❎ ✗ ✘ ✖
# Words that answer no as a whole ("Change key? Not that I can hear."; round 26)
_NO_PHRASES = ("not that i can (?:hear|tell|detect)", "not quite", "not really", "nope")
_MARK = "|".join((*_NO_PHRASES, *(re.escape(mark) for mark in (*_YES_MARKS, *_NO_MARKS))))
# One line opening on a short question and its answer word or mark, markup around them allowed;
# or a labelled verdict, a short label and a colon, its word alone on the line ("**Oddball
# present: yes**", "Same melody: no."; round 26).
_RESTATED = re.compile(
    r"^(?P<lead>[ \t>#*_\-]*)(?P<question>[^?.!;:\n]{2,120})(?:\?|(?P<label>:))"
    rf"(?P<close>[ \t*_:]*)(?P<word>{_MARK})\ufe0f?(?=[^\w]|$)(?P<alone>[\s*_.!]*$)?",
    re.IGNORECASE | re.MULTILINE)
# "No wrong notes?": the complement of the question without its "No" (round 26)
_NO_LEAD = re.compile(r"^no\s+(?P<rest>\w.*)$", re.IGNORECASE)
_NEGATED = re.compile(r"n['\u2019]t\b|\b(?:not|no|never|neither|nor)\b", re.IGNORECASE)
# "Are they different" said as a statement: "they are different"
_INVERTED = re.compile(r"^\s*(?P<aux>is|are|was|were|does|do|did|has|have)\s+(?P<subject>it|they"
                       r"|there|these|those|both|the\s+two(?:\s+\w+)?)\b(?P<rest>.*)$",
                       re.IGNORECASE)
_OTHER = {"yes": "no", "no": "yes"}


# A yes or no introducing a clause of existence, up to the clause's end.
_EXISTENCE = re.compile(
    r"(?P<lead>^|(?<=[.!]\s)|(?<=\n))(?P<word>yes|no)\s*(?:[,:;\u2014\u2013]|\s-)\s*"
    r"(?P<clause>(?:there\s*(?:is|are|was|were|['\u2019]s)\b|(?:the|it|this|that)\b[^,.;:!?\n]{0,60}?"
    r"\b(?:contains?|has|have|includes?)\b)[^,.;:!?\n\u2014\u2013]*)", re.IGNORECASE | re.MULTILINE)


def answered_restated(reply: str, said: SpanReader) -> str:
    """``reply`` with each restated question and its answer word replaced by the answer to the
    question asked ("Oddball present? Yes" -> "No"), and a word that introduces the complement's
    clause of existence dropped ("Yes, there is an oddball." -> "There is an oddball.");
    ``said`` reads a span by the question's phrases as yes or no."""
    if len(reply) > MAX_CHARS:
        return reply  # a reply's length, never a megabyte
    reply = _RESTATED.sub(lambda found: _answered(found, said), reply)
    return _EXISTENCE.sub(lambda found: _clause_decides(found, said), reply)


def _clause_decides(found: re.Match[str], said: SpanReader) -> str:
    word, clause = found.group("word").casefold(), found.group("clause")
    denies = bool(_NEGATED.search(clause))
    reading = said(clause, "last_line")[0]
    if denies != (word == "no") or reading not in _OTHER or reading == word:
        return found.group()
    return f"{found.group('lead')}{clause[:1].upper()}{clause[1:]}"


def _answered(found: re.Match[str], said: SpanReader) -> str:
    question = found.group("question").strip(" *_")
    if found.group("label") is not None and found.group("alone") is None:
        return found.group()  # "Note: no oddball …" is no verdict
    asked = _asked_polarity(question, said)
    if asked is None and (unsaid := _NO_LEAD.match(question)) is not None:
        asked = _OTHER.get(_asked_polarity(unsaid.group("rest"), said) or "")
    if asked is None:
        return found.group()
    word = "yes" if found.group("word").casefold() in _YES_MARKS else "no"
    answer = word if asked == "yes" else _OTHER[word]
    if found.group("alone") is not None:  # the line is a key and its value: an answer line
        return f"Answer: {answer.capitalize()}"
    return f"{found.group('lead').replace('*', '').replace('_', '')}{answer.capitalize()}"


def _asked_polarity(question: str, said: SpanReader) -> str | None:
    """"yes" if ``question`` restates the question asked, "no" if its complement, else None."""
    if _NEGATED.search(question):
        return None
    inverted = _INVERTED.match(question)
    statements = [question] + ([f"{inverted.group('subject')} {inverted.group('aux')}"
                                f"{inverted.group('rest')}"] if inverted else [])
    readings = {said(statement, "last_line")[0] for statement in statements} - {None}
    return readings.pop() if len(readings) == 1 else None
