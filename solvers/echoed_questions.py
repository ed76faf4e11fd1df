"""A question a reply opens with and then answers ("Major or minor? Minor.", "What is the contour
of the melody? The contour of the melody is descending.") is the prompt said back, not a
doubt: the fallback reads the statement after it (docs/reading.md, round 9). A question with
nothing after it stays a question, and a reply that asks back (solvers/asking_back.py)
commits to nothing. Pure text; no I/O.
"""

from __future__ import annotations

import re

# A leading question: up to its question mark, then the rest of the line.
_LEADING_QUESTION = re.compile(r"^\s*(?P<question>[^?\n]{1,300}\?)\s+(?P<rest>\S.*)$")
_ANOTHER_QUESTION = re.compile(r"\?")
# The prompt said back: a question opening with an interrogative word, or offering
# alternatives ("Major or minor?"); "Low syncopation?" offers one answer, doubtfully.
_ECHO = re.compile(r"\W*(?:what|which|how|is|are|was|were|does|do|did|can|could|will|would"
                   r"|should|has|have)\b|[^?]*\bor\b", re.IGNORECASE)


# A yes/no question echoed and answered by a pro-form: "Does it contain an out-of-key note? It
# does not; ..." is read as the question said with the answer's polarity ("It does not it
# contain an out-of-key note"), so the answer's negation turns the question's own words.
_AUXILIARY_OPENING = re.compile(r"\W*(?:is|are|was|were|does|do|did|can|could|has|have)\s+"
                                r"(?P<body>[^?]+)\?\s*$", re.IGNORECASE)
_PRO_FORM = re.compile(r"(?:it|they|there|these|those|both|the\s+two)\s+(?:is|are|was|were|does"
                       r"|do|did|can|could|has|have)(?:n['\u2019]t|\s+not)?(?=\s*(?:[.;,:!\u2014"
                       r"\u2013]|$))", re.IGNORECASE)


# The prompt quoted back whole: a passage in quotation marks that ends on a question mark
# ('"Recording 1 is a C4 reference. What is the pitch of recording 2?" — E4.'); what it says
# (its reference, its options) is the question's, not the reply's.
_QUOTED_QUESTION = re.compile(r'^\s*["\u201c](?P<question>[^"\u201c\u201d\n]{1,400}\?)'
                              r'["\u201d]\s*[\u2014\u2013:-]?\s*(?P<rest>\S.*)$')


# The options quoted back before the answer ('The choices are: "(A) …", "(B) …". … So B.'):
# two or more quoted labelled options, and nothing else, after "Options:".
_QUOTED_ITEM = r'["\u201c]\(?[A-Ha-h][.):]\s[^"\u201c\u201d\n]{1,120}["\u201d]'
_QUOTED_OPTIONS = re.compile(
    rf"^\s*(?:the\s+)?(?:options|choices)(?:\s+(?:are|were))?\s*:\s*{_QUOTED_ITEM}"
    rf"(?:\s*(?:/|,|;|\bor\b|\band\b|,\s*(?:or|and))\s*{_QUOTED_ITEM})+\s*[.;]?\s*"
    r"(?P<rest>\S.*)$", re.IGNORECASE)


def without_echoed_question(line: str) -> str:
    """``line`` without the echoed questions it opens with, when a statement with no question
    mark follows them; else ``line`` as it is."""
    if (options := _QUOTED_OPTIONS.match(line)) is not None:
        line = options.group("rest")  # the question's options, said back
    quoted = _QUOTED_QUESTION.match(line)
    if quoted is not None:
        line = quoted.group("rest")
    rest, question = line, ""
    while (match := _LEADING_QUESTION.match(rest)) is not None and _ECHO.match(
            match.group("question")):
        rest, question = match.group("rest"), match.group("question")
    if rest is line or _ANOTHER_QUESTION.search(rest):
        return line
    asked, said = _AUXILIARY_OPENING.match(question), _PRO_FORM.match(rest)
    if asked and said:  # "Does it modulate? It does not." is "It does not it modulate."
        return f"{said.group()} {asked.group('body')}{rest[said.end():]}"
    return rest
