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


def without_echoed_question(line: str) -> str:
    """``line`` without the echoed questions it opens with, when a statement with no question
    mark follows them; else ``line`` as it is."""
    rest = line
    while (match := _LEADING_QUESTION.match(rest)) is not None and _ECHO.match(
            match.group("question")):
        rest = match.group("rest")
    if rest is line or _ANOTHER_QUESTION.search(rest):
        return line
    return rest
