"""Closing lines that are each a whole answer: a reply that ends "Yes, these are the same …" /
"No, these are not the same …" has given two answers, not the last one (docs/reading.md).

A careful grader reads such a pair, or a longer run of them, as a hedge, however long each line
is, unless a correction stands between them ("No, wait, …" or "Actually, …" is a changed mind,
read by the usual rules). A line opens as a whole answer with a yes/no word and a mark after it
("Yes, …", "No. …", "Nope — …") or with an option label ("B. …", "(A) …").
"""

from __future__ import annotations

import re

from .retractions import REVISION

_ANSWER_OPENING = re.compile(
    r"^\W{0,3}(?:(?:yes|yeah|yep|no|nope)\s*[,.!:;\u2014\u2013]|(?:yes|yeah|yep|no|nope)\s+-\s"
    r"|[A-H](?:[.):]|\s+[-\u2013\u2014])\s)",
    re.IGNORECASE)
_LETTER_OPENING = re.compile(r"^\W{0,3}[a-h](?:[.):]|\s+[-\u2013\u2014])\s")  # "a. ..." is prose


def opens_as_answer(line: str) -> bool:
    """Whether ``line`` opens with a yes/no word or an option label, as a whole answer does."""
    return bool(_ANSWER_OPENING.match(line)) and not _LETTER_OPENING.match(line)


def closing_answers(lines: list[str], correction: re.Pattern[str]) -> list[str]:
    """The run of two or more last lines that each open as a whole answer, read together so two
    different answers there are a hedge; none when a line after the first says it corrects
    (``correction``), since then the last answer is a changed mind."""
    run: list[str] = []
    for line in reversed(lines):
        if not opens_as_answer(line):
            break
        run.insert(0, line)
    if len(run) < 2 or any(correction.search(line) for line in run[1:]):
        return []
    return run


# "Ranking: 1. Minor 2. Diminished 3. Major": items numbered inline, the last no conclusion
# (unlike steps that end in sentences: "1. The root is C. 2. The third is low. 3. So minor.")
_INLINE_ENUMERATION = re.compile(r"(?:^|\s)1[.)]\s+\S.*?\s2[.)]\s+\S")
_LAST_ITEM = re.compile(r"[^\W\d_][^.!?;\n]*?\s\d{1,2}[.)]\s+[^.!?;\n]+[.!]?\s*$")


def enumerates(line: str) -> bool:
    """Whether ``line`` ends on the last item of a list numbered inline ("1. X 2. Y"; a
    ranking's least likely), never an answer given alone."""
    return bool(_INLINE_ENUMERATION.search(line) and _LAST_ITEM.search(line))


MAX_CLOSING_WORDS = 3  # "Minor (B)." after a correction: an answer given alone (round 20)
_CLOSING_ANSWER = re.compile(r":\s*\(?(?:[A-H]|yes|no)\)?[.!]?$", re.IGNORECASE)  # "…: A."


def corrected_closing(every: list[str], sentences: list[str],
                      correction: re.Pattern[str]) -> str | None:
    """The closing one of a line's ``sentences`` when it opens as a whole answer after a
    sentence between it and the opening one that corrects (``correction``, searched in
    ``every`` sentence of the line, or in the opening one after its answer): "A. Piano.
    Actually, no: the attack is plucked. B. Guitar" has changed its mind, as between two final
    answers (round 18). Two answers with no correction between them are a hedge."""
    if len(sentences) < 2 or not (opens_as_answer(sentences[-1]) or _CLOSING_ANSWER.search(
            sentences[-1]) or len(sentences[-1].split()) <= MAX_CLOSING_WORDS):
        return None
    opening = correction.search(every[0]) if every else None  # "A. Cello — wait, …"
    if opening and (opening.start() > 0 or REVISION.match(every[0])) or any(
            correction.search(s) for s in every[1:-1]):
        return sentences[-1]
    return None


# "Loop 1: four off-beats; Loop 2: four off-beats." / "Excerpt A: major. Excerpt B: minor.":
# a fact per option, each behind a label of the same shape; an item names its option as the
# thing described, never as the answer ("Loop 1: ..." does not choose the first loop).
_LABEL = re.compile(r"\s*([^:=\n]{1,40}?)\s*[:=]\s")
_ORDINAL = re.compile(r"\b(?:\d{1,2}|[A-H]|first|second|third|fourth|one|two|three|four|1st|2nd"
                      r"|3rd|4th)\b")
_MAX_LABEL_WORDS = 4


def _label_shape(sentence: str) -> str | None:
    """A listing item's label with its ordinal made generic ("loop #"), or None."""
    label = _LABEL.match(sentence)
    if not label or len(label.group(1).split()) > _MAX_LABEL_WORDS:
        return None
    text = label.group(1)
    generic = _ORDINAL.sub("#", text if re.search(r"\b[A-H]\b", text) else text.casefold())
    return generic.casefold() if "#" in generic else None


def without_listing(sentences: list[str]) -> list[str]:
    """``sentences`` without the items of a listing: two or more sentences in a row whose
    labels have the same shape and different ordinals."""
    shapes = [_label_shape(sentence) for sentence in sentences]
    listed = {i for i, shape in enumerate(shapes) if shape is not None and (
        (i > 0 and shapes[i - 1] == shape) or (i + 1 < len(shapes) and shapes[i + 1] == shape))}
    return [s for i, s in enumerate(sentences) if i not in listed]


def read_ends(sentences: list[str]) -> list[str]:
    """The sentences of a long last line that the fallback reads: its first and its last, and
    any between them that opens as a whole answer ("… Yes, they are the same. No, they are not
    the same.": both options' sentences listed is two answers, never the last one)."""
    middle = [sentence for sentence in sentences[1:-1] if opens_as_answer(sentence)]
    return sentences[:1] + middle + sentences[1:][-1:]
