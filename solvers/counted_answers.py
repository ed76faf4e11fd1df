"""Answers to a question whose options are counts ("0 (No Syncopation)", "2 (Low …)", …) said as
a count of the whole rather than by an option's name (docs/reading.md, round 21).

* A number that counts the parts the total is taken over (``four bars``), says what one part
  holds (``two in each bar``, ``every bar has two``) or names a part (``beats 2 and 4``, ``the
  "and" of 1``) is never an option's count: it is blanked before a span is read, so ``Eight
  off-beat hits; every bar has two.`` is eight, not a hedge.
* A closing sentence that states the total of the counted thing (``… so the loop holds two
  off-beat hits in total.``, ``that makes four off-beat hits across the four bars``, ``the count
  of off-beat hits is zero``, ``no off-beat hits at all``) is that option. What is counted is
  taken from the question's own aliases (``4 off-beat hits``): a total of anything else (``32
  hi-hat strokes in total``) is no answer. Never with a doubt, a limit (``except``, ``only``,
  ``until``), two different totals, or another option named; ``I count 4 off-beat hits.`` (no
  total) stays no answer, as graded since round 6.
* ``That's the highest level offered.`` / ``the lowest option`` is the option with the largest /
  smallest count.

Pure: no I/O; every pattern is linear in the span.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from .choices import MAX_SPAN_CHARS, ChoiceReader, options_named
from .reply_excerpt import clean_markup
from .unnamed_answers import NUMBER_WORDS

_MAX_CHARS = 2000  # a closing sentence's size (the reply read is at most 6,000 characters)
_WORD_NUMBERS = {"zero": 0, "no": 0, "none": 0, "one": 1,
                 **{word: int(digit) for word, digit in NUMBER_WORDS.items()}}
_NUMBER = r"(?:\d{1,3}|zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
_PARTS = r"(?:bars?|measures?)"
# "four bars", "4 measures": the parts a total is taken over
_PART_COUNT = re.compile(rf"\b{_NUMBER}\b(?=\s+(?:of\s+the\s+)?{_PARTS}\b)", re.IGNORECASE)
# "two in each bar", "2 off-beat hits per bar"; "every bar has two", "each measure gets 2"
_PER_PART = re.compile(
    rf"\b{_NUMBER}\b(?=(?:\s+[\w'\u2019-]+){{0,5}}?\s+(?:per|in\s+each|in\s+every|each|every|a)"
    rf"\s+(?:bar|measure|beat)\b)", re.IGNORECASE)
# "beats 2 and 4", "bar 3", "the 'and' of 1": numbers that name a beat or a bar
_PART_NAMED = re.compile(rf"(\b(?:beats?|bars?|measures?|and['\"\u2019\u201d]*\s+of)\s+)"
                         rf"{_NUMBER}(?:(?:\s*,\s*|\s+and\s+|\s*&\s*|\s*-\s*){_NUMBER}\b)*",
                         re.IGNORECASE)
_PART_HOLDS = re.compile(rf"(\b(?:each|every|per)\s+(?:bar|measure|beat)\s+(?:has|have|gets|holds"
                         rf"|contains|pushes|puts|adds|carries)\s+){_NUMBER}\b", re.IGNORECASE)
# The total said as such: "in total", "in all", "altogether", "across the four bars", "at all"
_TOTAL = re.compile(
    rf"\b(?:in\s+total|in\s+all|altogether|all\s+told|overall|at\s+all"
    rf"|(?:across|over|throughout|in\s+all)\s+(?:all\s+)?(?:the\s+)?(?:{_NUMBER}\s+)?"
    rf"(?:bars|measures)\b(?!\s+nth)|(?:across|over|in|throughout)\s+the\s+(?:whole\s+|entire\s+)?"
    rf"(?:loop|pattern|groove))\b", re.IGNORECASE)
_MAKES = re.compile(r"\b(?:makes?|making|gives?|comes?\s+to|adds?\s+up\s+to|total\s+of)\s*$",
                    re.IGNORECASE)  # "that makes four …", "a total of 8 …"
_COUNT_IS = re.compile(rf"\b(?:count|number|total|tally)\s+of\s+(?P<what>(?:[\w'\u2019-]+\s+)"
                       rf"{{1,4}}?)(?:is|was|comes\s+to|=|:)\s+(?P<n>{_NUMBER})\b", re.IGNORECASE)
# Anywhere in the closing sentence: a doubt, a limit, a range
_DOUBT_OR_LIMIT = re.compile(
    r"\?|\b(?:except|apart|other\s+than|besides|until|maybe|perhaps|possibly|probably|might"
    r"|could|may|about|around|roughly|approximately|nearly|almost|close\s+to|at\s+least"
    r"|at\s+most|or\s+so|sure|certain|confident|unsure|guess|if|whether|unless)\b"
    rf"|\b{_NUMBER}\s+(?:or|to)\s+{_NUMBER}\b|[,;]\s*or\b|\bor\s+{_NUMBER}\b", re.IGNORECASE)
# In the total's own clause: a negation, a part, one clip of two, a turn
_NOT_THE_TOTAL = re.compile(r"\b(?:not|never|only|just|but|first|second|third|fourth|last|nth"
                            r"|opening|final|half|loops?\s+\d|excerpts?|clips?)\b|n['\u2019]t\b",
                            re.IGNORECASE)
_CLAUSE_BREAK = re.compile(r"[,;:\u2014\u2013()]|\s-\s|\s(?=(?:so|while|whereas)\s)",
                           re.IGNORECASE)
_LEVEL_RANK = re.compile(
    r"^\W*(?:so,?\s+)?(?:that|it|this|which)\s*(?:['\u2019]s|\s+is)\s+(?:the\s+)?"
    r"(?P<rank>highest|lowest|top|bottom|largest|smallest|maximum|minimum)\s+(?:level|option"
    r"|choice|count|category|one)(?:\s+(?:offered|listed|given|available|on\s+offer))?"
    r"\s*[.!]?\s*$", re.IGNORECASE)
_HIGH = frozenset("highest top largest maximum".split())
_OPENING_NUMBER = re.compile(rf"\s*({_NUMBER})\b", re.IGNORECASE)


def counts_of(options: Mapping[str, str]) -> dict[int, str]:
    """``{count: letter}`` when every option's text opens on a different count (at least
    three options), else ``{}``: only such questions are read by this module."""
    counts = {}
    for letter, text in options.items():
        opening = _OPENING_NUMBER.match(str(text))
        if opening is None:
            return {}
        counts[_number(opening.group(1))] = letter
    return counts if len(counts) == len(options) >= 3 else {}


def _number(word: str) -> int:
    return int(word) if word.isdigit() else _WORD_NUMBERS[word.casefold()]


def without_part_counts(text: str) -> str:
    """``text`` with the numbers that count parts or what one part holds left out, and those
    that name a part said ``nth``."""
    text = _PART_HOLDS.sub(lambda m: m.group(1), text)
    text = _PART_NAMED.sub(lambda m: m.group(1) + "nth", text)  # "bar 2 alone" keeps its part
    return _PART_COUNT.sub("", _PER_PART.sub("", text))


class CountChoiceReader(ChoiceReader):
    """A :class:`ChoiceReader` for count options whose aliases name what is counted ("4
    off-beat hits"): numbers of parts are never an option."""

    def __init__(self, options: Mapping[str, str], aliases: Mapping[str, str] | None = None):
        super().__init__(options, aliases)
        self.counts = counts_of(options)
        heads = set()
        for alias in aliases or {}:
            counted = re.fullmatch(rf"\s*{_NUMBER}\s+([\w'\u2019-]{{4,}}).*", alias, re.IGNORECASE)
            if counted:  # "4 off-beat hits": what is counted opens on "off-beat"
                heads.add(counted.group(1).casefold())
        self.counted = frozenset(heads)

    def __call__(self, text: str, source: str) -> tuple:
        if not self.counted:  # "3/4", "4/4": numbers, but no count of a named thing
            return super().__call__(text, source)
        return super().__call__(without_part_counts(text[:2 * MAX_SPAN_CHARS]), source)


def counted_total(reply: str, reader: ChoiceReader) -> tuple[str | None, bool]:
    """The option a reply's closing sentence gives as the total of the counted thing, and
    whether that sentence names no other option (in words or by letter)."""
    if not isinstance(reader, CountChoiceReader) or not reader.counted:
        return None, False
    lines = [line.strip() for line in clean_markup(reply).splitlines() if line.strip()]
    if not lines or not re.search(r"[.!]$", lines[-1]):
        return None, False  # no reply, or one cut off mid-sentence
    closing = without_part_counts(re.split(r"(?<=[.!?])\s+", lines[-1])[-1][-_MAX_CHARS:])
    if _DOUBT_OR_LIMIT.search(closing):
        return None, False
    counted = "|".join(re.escape(head) for head in sorted(reader.counted))
    totals = set()
    for match in re.finditer(rf"\b(?P<n>{_NUMBER}|no)\s+(?:{counted})", closing, re.IGNORECASE):
        clause = _clause_at(closing, match.start(), match.end())
        if _NOT_THE_TOTAL.search(clause):
            continue
        if _TOTAL.search(clause) or _MAKES.search(closing[:match.start()]):
            totals.add(_number(match.group("n")))
    for match in _COUNT_IS.finditer(closing):
        clause = _clause_at(closing, match.start(), match.end())
        if not _NOT_THE_TOTAL.search(clause) and any(
                word.casefold() in reader.counted for word in match.group("what").split()):
            totals.add(_number(match.group("n")))
    letter = reader.counts.get(totals.pop()) if len(totals) == 1 else None
    if letter is None:
        return None, False
    # another option named in words or by letter ("beat 4" and "two snare hits" count no total)
    named = set(options_named(re.sub(rf"\b{_NUMBER}\b", " ", closing, flags=re.I), reader))
    return letter, named <= {letter}


def _clause_at(text: str, start: int, end: int) -> str:
    """The clause of ``text`` around ``text[start:end]``, cut at commas, dashes, ``so``, …"""
    before = [m.end() for m in _CLAUSE_BREAK.finditer(text, 0, start)]
    after = _CLAUSE_BREAK.search(text, end)
    return text[before[-1] if before else 0:after.start() if after else len(text)]


def level_rank(text: str, reader: ChoiceReader) -> str | None:
    """``That's the highest level offered.``: the option with the largest (smallest) count."""
    ranked = _LEVEL_RANK.match(text)
    if not isinstance(reader, CountChoiceReader) or not reader.counted or ranked is None:
        return None
    counts = reader.counts
    pick = max if ranked.group("rank").casefold() in _HIGH else min
    return counts[pick(counts)]
