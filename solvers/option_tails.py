"""An answer line that gives only the closing words of one option's text: "Final Answer: walking
bass line" for "It plays a walking bass line", "Answer: a drone" for "It holds a drone".

A grader reads such a line as the option whose text it ends; only an explicit answer line that
names nothing otherwise is read so (never a fallback span, where a phrase of the reasoning may
echo an option), and only when the words close exactly one option's text and appear in no other
option ("bass" alone is in "There is no bass" and "a walking bass line": no answer). Pure; no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

_WORD = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)?")
_ARTICLES = frozenset({"a", "an", "the"})
_NAMING_WORD = re.compile(r"[^\W\d_]{4,}")  # a word of letters, not a number or an article
_PARENTHESIS = re.compile(r"\([^()]*\)")  # "Duple (2/4)" ends with "duple"
MAX_TAIL_WORDS = 6


def _words(text: str) -> list[str]:
    return [word.casefold() for word in _WORD.findall(text)]


def option_ending(span: str, options: Mapping[str, str]) -> str | None:
    """The letter of the one option whose text ends with the words of ``span``, or None."""
    said = _words(span.strip().rstrip(".!"))
    while said and said[0] in _ARTICLES:
        said = said[1:]
    if len(said) > MAX_TAIL_WORDS or not any(_NAMING_WORD.fullmatch(word) for word in said):
        return None  # "Final Answer: 4" is no ending of "Duple (2/4)"
    texts = {letter: _words(_PARENTHESIS.sub(" ", str(text))) for letter, text in options.items()}
    ends = [letter for letter, words in texts.items()
            if len(words) > len(said) and words[-len(said):] == said]
    if len(ends) != 1:
        return None
    inside = [letter for letter, text in options.items() if _contains(_words(str(text)), said)]
    return ends[0] if inside == ends else None


def _contains(words: list[str], run: list[str]) -> bool:
    """Whether ``run`` is a contiguous run of ``words``."""
    size = len(run)
    return any(words[start:start + size] == run for start in range(len(words) - size + 1))
