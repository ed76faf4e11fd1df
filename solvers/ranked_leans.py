"""A reply that ranks its options by stated probabilities: the one strictly highest is its
answer (docs/reading.md, round 24; the lead's policy on ranked leans). "Candidates: 64 (40%), 65
(35%), 63 (25%).", "P(Major) = 0.35, P(Minor) = 0.65", "Piano 0.7, Guitar 0.2, Bass 0.05,
Drums 0.05", one option a line with its percentage.

Read only where the reply reads no answer otherwise, and only a reply made of nothing but the
list (a heading such as "Candidates:" allowed): every item names one answer of its own with one
figure, all figures in one unit (percentages, or shares of one) adding up to at most the whole,
and they are probabilities: they add up to the whole (within 5 %), or the reply says so
("P(…)", a heading, a word of likelihood); "Loop 1 0.62, Loop 2 0.31" may be two scores.
Two options sharing the highest figure ("50/50", "0.4, 0.4, 0.2") are still no answer. Pure;
no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable

from .reply_spans import Reading

SpanReader = Callable[[str, str], tuple]
RANKED = "ranked_list"  # the answer_source of an answer read as the top of a ranked list

_MAX_CHARS = 400
_HEADING = re.compile(r"^\W*(?:(?:my\s+)?(?:candidates|probabilit(?:y|ies)|estimates?|confidence"
                      r"|likelihoods?|distribution|odds|answer\s+probabilities))\s*:\s*",
                      re.IGNORECASE)
_ITEM_BREAK = re.compile(r"\s*(?:[,;\n]|\s\|\s)\s*")
_ITEM = re.compile(
    r"^[\s*_\-\u2022|]*(?:p\s*\(\s*(?P<asked>[^()]+?)\s*\)|(?P<label>[^:=()%\n]+?))[\s*_]*"
    r"(?:[:=]\s*|\(\s*)?(?P<figure>\d{1,3}(?:\.\d+)?|\.\d+)\s*(?P<percent>%|\s*per\s*cent)?"
    r"\s*\)?[\s*_.|]*$", re.IGNORECASE)
_WHOLE = {True: 100.0, False: 1.0}
_SLACK = 0.005  # a rounding's slack over the whole
_SHORT = 0.05  # a distribution adds up to the whole within this share of it
_LIKELIHOOD = re.compile(r"\bp\s*\(|\b(?:probab\w*|likel\w*|confiden\w*|chances?)\b",
                         re.IGNORECASE)


def top_ranked(reply: str, read_span: SpanReader) -> Hashable | None:
    """The answer ``reply`` gives the strictly highest probability among its listed options
    (module doc), or None."""
    text = _HEADING.sub("", reply.strip()) if len(reply) <= _MAX_CHARS else ""
    said_likelihood = text != reply.strip() or bool(_LIKELIHOOD.search(reply))
    items = [part for part in _ITEM_BREAK.split(text) if part.strip(" *_-|")]
    if len(items) < 2:
        return None
    ranked: dict[Hashable, float] = {}
    units = set()
    for item in items:
        found = _ITEM.match(item)
        if found is None:
            return None
        label = (found.group("asked") or found.group("label")).strip()
        answer = read_span(label, "last_line")[0]
        if answer is None or answer in ranked:
            return None
        units.add(found.group("percent") is not None)
        ranked[answer] = float(found.group("figure"))
    if len(units) != 1:
        return None
    (percent,) = units
    figures = sorted(ranked.values(), reverse=True)
    whole, total = _WHOLE[percent], sum(figures)
    if (not percent and figures[0] > 1) or total > whole * (1 + _SLACK) \
            or figures[0] == figures[1] or not (said_likelihood or total >= whole * (1 - _SHORT)):
        return None
    return max(ranked, key=ranked.__getitem__)


def unless_ranked(reading: Reading, reply: str, read_span: SpanReader) -> Reading:
    """``reading``, or where it has no answer, the top of the ranked list ``reply`` is."""
    if reading.answer is not None or (top := top_ranked(reply, read_span)) is None:
        return reading
    return Reading(top, RANKED, None, "top_ranked", reply)
