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

from .reply_spans import HEDGE, Reading

SpanReader = Callable[[str, str], tuple]
RANKED = "ranked_list"  # the answer_source of an answer read as the top of a ranked list

_MAX_CHARS = 400
_HEADING = re.compile(r"^\W*(?:(?:my\s+)?(?:candidates|probabilit(?:y|ies)|estimates?|confidence"
                      r"|likelihoods?|distribution|odds|answer\s+probabilities))\s*:\s*",
                      re.IGNORECASE)
_ITEM_BREAK = re.compile(r"\s*(?:[,;\n]|\s\|\s|\.\s+)\s*")  # "A: 60%. B: 40%."
_ITEM = re.compile(
    r"^[\s*_\-\u2022|]*(?:p\s*\(\s*(?P<asked>[^()]+?)\s*\)|(?P<label>[^:=()%\n]+?))[\s*_]*"
    r"(?:[:=]\s*|\(\s*)?(?P<figure>\d{1,3}(?:\.\d+)?|\.\d+)\s*(?P<percent>%|\s*per\s*cent)?"
    r"\s*\)?[\s*_.|]*$", re.IGNORECASE)
_SHARE = re.compile(r"\d\s*(?:%|per\s*cent)|^\W*p\s*\(", re.IGNORECASE)
_WHOLE = {True: 100.0, False: 1.0}
_SLACK = 0.005  # a rounding's slack over the whole
_SHORT = 0.05  # a distribution adds up to the whole within this share of it
_LIKELIHOOD = re.compile(r"\bp\s*\(|\b(?:probab\w*|likel\w*|confiden\w*|chances?)\b",
                         re.IGNORECASE)


def _ranking(reply: str, read_span: SpanReader) -> tuple[bool, Hashable | None]:
    """(whether ``reply`` is nothing but options each given one figure, the answer it gives the
    strictly highest probability among them (module doc) or None)."""
    text = _HEADING.sub("", reply.strip()) if len(reply) <= _MAX_CHARS else ""
    said_likelihood = text != reply.strip() or bool(_LIKELIHOOD.search(reply))
    items = [part for part in _ITEM_BREAK.split(text) if part.strip(" *_-|.")]
    if len(items) < 2:
        return False, None
    ranked: dict[Hashable, float] = {}
    units = set()
    for item in items:
        found = _ITEM.match(item)
        if found is None:
            return False, None
        label = (found.group("asked") or found.group("label")).strip()
        answer = read_span(label, "last_line")[0]
        if answer is None or answer in ranked:  # a list of shares is still a list: no answer
            return all(map(_SHARE.search, items)), None  # of its own ("X more …: 60%. Y: 40%.")
        units.add(found.group("percent") is not None)
        ranked[answer] = float(found.group("figure"))
    if len(units) != 1:
        return True, None
    (percent,) = units
    figures = sorted(ranked.values(), reverse=True)
    whole, total = _WHOLE[percent], sum(figures)
    if (not percent and figures[0] > 1) or total > whole * (1 + _SLACK) \
            or figures[0] == figures[1] or not (said_likelihood or total >= whole * (1 - _SHORT)):
        return True, None
    return True, max(ranked, key=ranked.__getitem__)


def unless_ranked(reading: Reading, reply: str, read_span: SpanReader,
                  read_again: Callable[[str], Reading]) -> Reading:
    """``reading``, or where it has no answer, the top of the ranked list ``reply`` is, or the
    reading (by ``read_again``) of the reply with its ranked lean said as its preferred option
    (:func:`ranked_lean`)."""
    if not isinstance(reply, str):
        return reading
    listed, top = _ranking(reply, read_span)
    if listed and top is not None:
        return Reading(top, RANKED, None, "top_ranked", reply)
    if listed:  # an option given a figure is no answer of its own: "A: 60%. B: 40%." is no B
        return Reading(None, RANKED, HEDGE, span=reply)
    if reading.answer is not None:
        return reading
    leaned = ranked_lean(reply, read_span)
    again = read_again(leaned) if leaned.strip() != reply.strip() else reading
    return again if again.answer is not None else reading


# --- A lean said in words --------------------------------------------------------------------
# The lead's policy: the option marked as preferred ("probably", "most likely", "I'd lean") is
# the answer when the other is marked only as a possibility ("could", "might", "possibly") or
# given a lower share ("60/40"); two options of equal standing ("X or Y", "50/50") stay a hedge.
_LEAN = (r"(?:probably|most\s+likely|more\s+likely|likely|(?:i['\u2019]?d|i\s+would|i)\s+lean"
         r"(?:\s+towards?)?|leaning(?:\s+towards?)?)")
# (never "may well be", which a grader reads as equal standing: "I'd lean towards yes, but it
# may well be no")
_POSSIBLE = r"(?:could|might|possibly|perhaps|maybe)(?!\s+(?:well|equally|just\s+as))"
# "maybe 60/40", "(70:30)", "roughly 60-40": the lean's share against the other's
_RATIO = re.compile(r"\s*[,;(]?\s*(?:maybe|perhaps|roughly|about|around|say)?\s*(?P<lean>\d{2})"
                    r"\s*(?:/|:|-|\s+to\s+)\s*(?P<other>\d{2})(?:\s+odds)?\s*\)?"
                    r"(?=\s*(?:[,.;!]|$|\s+because\b))", re.IGNORECASE)
_LEANING = re.compile(rf"\b{_LEAN}\b", re.IGNORECASE)
# "Around MIDI 70-71, probably 70.": alternatives, then the one preferred closing the sentence
_PREFERRED_LAST = re.compile(rf"^(?P<before>[^\n]+?)[,;]\s*(?:but\s+)?{_LEAN}\s+"
                             r"(?P<pick>[^,;.!?\n]{1,30}?)\s*[.!]?\s*$", re.IGNORECASE)
# "Probably in 4, though it could be in 3 with a pickup.": the lean, then a mere possibility
_PREFERRED_FIRST = re.compile(rf"^\W*{_LEAN}\s+(?P<main>[^,;\n]+?)\s*[,;]\s*(?:though|although"
                              rf"|but)\s+(?:(?:it|this|that|they)\s+)?{_POSSIBLE}\b[^.!?;\n]*[.!]?$",
                              re.IGNORECASE)


# The alternatives said as a label before the lean: "Major or minor: I'd lean minor."
_ALTERNATIVES_LABEL = re.compile(rf"^[^:\n]{{1,40}}\bor\b[^:\n]{{1,40}}:\s*(?=\W*{_LEAN}\b)",
                                 re.IGNORECASE)
_WORD_BREAK = re.compile(r"[\s\u2013\u2014/-]+")
_MAX_WINDOW = 3


def _names(text: str, answer: Hashable, read_span: SpanReader) -> bool:
    """Whether ``answer`` is one of the answers ``text`` names (in a run of up to three words)."""
    words = [word for word in _WORD_BREAK.split(text) if word]
    return any(read_span(" ".join(words[start:start + size]), "caveat")[0] == answer
               for size in range(1, _MAX_WINDOW + 1) for start in range(len(words) - size + 1))


def ranked_lean(reply: str, read_span: SpanReader) -> str:
    """``reply`` with a lean that ranks its options said as its preferred option: the share
    quantifying a lean dropped ("I'd lean minor, maybe 60/40." is "I'd lean minor."), a closing
    preference over alternatives said alone ("Around MIDI 70-71, probably 70." is "70."), and a
    lean's concession of a mere possibility dropped ("Probably in 4, though it could be in 3" is
    "in 4"). A reply of one line only; everything else is left as it is."""
    if len(reply) > _MAX_CHARS or "\n" in reply.strip() or not _LEANING.search(reply):
        return reply
    text = _RATIO.sub(lambda found: "" if int(found.group("lean")) > int(found.group("other"))
                      and int(found.group("lean")) + int(found.group("other")) == 100
                      else found.group(), reply.strip())
    text = _ALTERNATIVES_LABEL.sub("", text)  # "Major or minor: I'd lean minor."
    if (last := _PREFERRED_LAST.match(text)) is not None:
        pick = read_span(last.group("pick"), "last_line")[0]
        if pick is not None and _names(last.group("before"), pick, read_span):
            return f"{last.group('pick')}."
    if (first := _PREFERRED_FIRST.match(text)) is not None:
        return f"{first.group('main')}."
    return text
