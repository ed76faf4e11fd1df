"""A meter said by how its beats group instead of by an option's name: "the beats group in
fives", "plain common time", "a strong beat every three pulses, like a waltz", "the accent comes
back every third beat", "in twos, each beat split into three" (docs/reading.md, rounds 7 and 24).

Each offered option is a number of beats to the bar and, where it says so, how each beat divides
(:func:`meters`): "Groups of 3" is three beats; "Triple (3/4)" three beats split in two;
"Compound duple (6/8)" two beats split in three. A description reads the one option that agrees
with everything it says: a count of beats (a count of *pulses* only where no option is compound,
since six-eight has a strong beat every three pulses too) and, if said, the division. Counts it
negates ("not fours and not fives") rule options out; when they rule out every option but one
and nothing else is said, that one is the answer. Four beats ("in 4/4", "common time") is the
simple duple option when the options offer it and no meter of four (quadruple time is duple to
a grader: 4/4 beside 2/4, 3/4 and 6/8 is graded duple). A description that fits two options
("in twos" beside 2/4 and 6/8), names two counts, or matches none reads nothing. Pure, no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

Said = Callable[[str], "tuple[set[str], str | None]"]
Meter = tuple[int, "int | None"]  # beats to the bar, how each beat divides (None: not said)

_NUMBERS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "second": 2,
            "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7}
_PLURALS = {"twos": 2, "threes": 3, "fours": 4, "fives": 5, "sixes": 6, "sevens": 7}
_COUNT = r"two|three|four|five|six|seven|[2-7]"
_EVERY = rf"{_COUNT}|second|third|fourth|fifth|sixth|seventh|[2-7](?:nd|rd|th)"
_GROUPING = re.compile(
    r"\bgroup(?:s|ed|ing)?\s+(?:in|into|of)\s+(?P<plural>twos|threes|fours|fives|sixes|sevens"
    rf"|{_COUNT}|[2-7]s)\b|\bin\s+(?P<in>{_COUNT})\b(?![-\u2013/])"
    rf"|\b(?P<beats>{_COUNT})\s+beats?\s+(?:to|per|in)\s+(?:a|the|each)\s+(?:bar|measure|group"
    r"|cycle)\b|\b(?P<common>common\s+time)\b|\b(?P<waltz>waltz)\b"
    r"|(?<![\d/])(?P<signature>[2-7])/4(?![\d/])"  # "5/4": five quarter beats to a bar
    rf"|\bevery\s+(?P<every>{_EVERY})\s+(?:strong\s+)?(?:beats?|counts?)\b"  # "every third beat"
    rf"|\bevery\s+(?P<pulses>{_EVERY})\s+(?:pulses?|clicks?|ticks?)\b"
    r"|\b(?P<bare>twos|threes|fours|fives|sixes|sevens)\b"  # "not fours and not fives"
    r"|^\W*(?:so|thus|hence|therefore)\W+(?P<concluded>[2-7])\W*$",  # "So 5." (count options)
    re.IGNORECASE)
_DIVISION = re.compile(r"\b(?:each|every)\s+beat\s+(?:is\s+)?(?:split|divided|subdivided|broken)"
                       r"\s+(?:in|into)\s+(?P<count>two|three|2|3)\b", re.IGNORECASE)
# (a "lilting" or "triplet feel" is no division said: a grader reads no meter in it)
_NEGATED = re.compile(r"(?:\b(?:not|never|no|without|neither|nor)|n['\u2019]t)\s+(?:\w+\s+){0,2}$",
                      re.IGNORECASE)
_WORDS = {"duple": 2, "triple": 3, "quadruple": 4}


def _count(word: str) -> int:
    word = word.casefold().removesuffix("/4")
    word = re.sub(r"(?<=\d)(?:nd|rd|th|s)$", "", word)
    return int(word) if word.isdigit() else _PLURALS.get(word, _NUMBERS.get(word, 0))


def meters(options: Mapping[str, str]) -> dict[str, Meter]:
    """``{letter: (beats, division)}`` when every option names a meter ("Groups of 3",
    "Triple (3/4)", "Compound duple (6/8)"), else ``{}``."""
    found: dict[str, Meter] = {}
    for letter, text in options.items():
        text = str(text)
        if m := re.fullmatch(r"\s*groups?\s+of\s+([2-7])\s*", text, re.IGNORECASE):
            found[letter] = (int(m.group(1)), None)
        elif m := re.search(r"\b([2-9]|12)/(4|8|2)\b", text):
            top, bottom = int(m.group(1)), int(m.group(2))
            compound = bottom == 8 and top % 3 == 0 and top > 3
            found[letter] = (top // 3, 3) if compound else (top, 2)
        elif m := re.search(r"\b(duple|triple|quadruple)\b", text, re.IGNORECASE):
            compound = re.search(r"\bcompound\b", text, re.IGNORECASE)
            found[letter] = (_WORDS[m.group(1).casefold()], 3 if compound else 2)
        else:
            return {}
    return found if len(found) >= 2 and len(set(found.values())) == len(found) else {}


def meter_said(offered: dict[str, Meter]) -> Said:
    """The reader of a meter said by its grouping (module doc)."""
    compound = any(division == 3 for _beats, division in offered.values())
    counts_only = all(division is None for _beats, division in offered.values())  # "Groups of N"
    # Quadruple time is duple time to a grader when the options offer simple duple and no four.
    quadruple_as_duple = (2, 2) in offered.values() and all(
        beats != 4 for beats, _division in offered.values())

    def said(text: str) -> tuple[set[str], str | None]:
        divisions = {_count(m.group("count")) for m in _DIVISION.finditer(text)
                     if not _NEGATED.search(text[:m.start()][-30:])}
        text = _DIVISION.sub(" ; ", text)  # "each beat split in three" is no count of beats
        named: set[int] = set()
        ruled_out: set[int] = set()
        for match in _GROUPING.finditer(text):
            kind = match.lastgroup or ""
            if (kind == "pulses" and compound) or (kind == "concluded" and not counts_only):
                continue  # six-eight has a strong beat every three pulses too; "So 2." of 2/4?
            count = {"common": 4, "waltz": 3}.get(kind) or _count(match.group(kind))
            negated = bool(_NEGATED.search(text[:match.start()][-30:]))
            (ruled_out if negated else named).add(count)
        waltz = re.search(r"\bwaltz\b", text, re.IGNORECASE)
        left = {letter for letter, (count, _split) in offered.items() if count not in ruled_out}
        if not (named or divisions) and len(left) == 1 and len(ruled_out) == len(offered) - 1:
            return left, None  # "Not fours and not fives.": every other option ruled out
        if len(named) > 1 or len(divisions) > 1 or named & ruled_out or not (named or divisions):
            return set(), "no grouping said"
        beats = next(iter(named), None)
        division = next(iter(divisions), 2 if waltz else None)
        if beats == 4 and quadruple_as_duple and division in (None, 2):
            beats, division = 2, 2  # "in 4/4" beside 2/4, 3/4 and 6/8: a simple duple meter
        fits = {letter for letter, (count, split) in offered.items()
                if (beats is None or count == beats) and count not in ruled_out
                and (division is None or split is None or split == division)}
        if len(fits) != 1:
            return set(), "no one meter fits"
        return fits, None
    return said
