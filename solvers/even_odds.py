"""Even odds stated for an answer: on a two-way question, a coin flip is no answer.

"Probability same progression: 0.5.", "Same progression, 50 % confidence." and "50/50 whether
they match" name an answer and in the same breath give it the odds of a guess; a grader reads
none of them as yes or no. Only a figure of one half beside a word of likelihood counts: "the
second clip is 50 % louder" says nothing of odds.
"""

from __future__ import annotations

import re

_LIKELIHOOD = re.compile(r"\b(?:probab\w*|chances?|likel\w*|confiden\w*|odds|certain\w*|sure)\b"
                         r"|\bp\s*\(", re.IGNORECASE)
# a figure of one half; the coin forms below are even odds wherever they stand
_ONE_HALF = re.compile(r"(?<![\d.])(?:0?\.50*|50(?:\.0+)?\s*(?:%|per\s*cent|percent))(?![\d.]*\d)"
                       r"|\b(?:fifty\s+per\s*cent|one\s+in\s+two)\b"
                       r"|(?<!\d)50\s*[-:]\s*50(?!\d)|\beven\s+chances?\b", re.IGNORECASE)
_COIN = re.compile(r"(?<!\d)50\s*/\s*50(?!\d)|\bfifty(?:\s*-\s*|\s+)fifty\b|\beven\s+odds\b"
                   r"|\bcoin[\s-]*(?:flip|toss)\b", re.IGNORECASE)


def states_even_odds(text: str) -> bool:
    """Whether ``text`` gives its answer the odds of a guess: one half beside a word of
    likelihood ("probability", "chance", "confidence", "P(...)"), one half given twice
    ("same (50 %) or different (50 %)"), or a coin flip named."""
    halves = len(_ONE_HALF.findall(text))
    return bool(_COIN.search(text) or halves > 1 or (halves and _LIKELIHOOD.search(text)))
