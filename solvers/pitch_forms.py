"""Pitch answers written in prose (docs/reading.md, round 7): a note name and its octave said
apart ("The octave is 3 and the note is C." is C3; "the A-flat in the fourth octave" is Ab4),
and a closing sentence whose predicate is the pitch ("…, so my estimate is 72 (±1).", "the
sounding note is F4, a perfect fourth above middle C."), read although it is longer prose than
a last line given alone may be.
"""

from __future__ import annotations

import re

_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6,
             "seventh": 7, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4, "5th": 5, "6th": 6, "7th": 7}
_ACCIDENTAL = {"flat": "b", "sharp": "#", "\u266d": "b", "\u266f": "#", "b": "b", "#": "#", "": ""}
_NOTE = r"(?P<letter>[A-G])(?:[\s-]?(?P<accidental>(?i:flat|sharp)|\u266d|\u266f)|(?P<sign>[b#]))?"
_OCTAVE_WORD = r"(?P<octave>first|second|third|fourth|fifth|sixth|seventh|[1-7](?:st|nd|rd|th))"
# "the A-flat in the fourth octave", "C in octave 3"
_NOTE_IN_OCTAVE = re.compile(
    rf"\b{_NOTE}\s+in\s+(?i:(?:the\s+)?{_OCTAVE_WORD}\s+octave|octave\s+(?P<number>[0-8]))\b")
# "The octave is 3 and the note is C", "the note is C and the octave is 3"
_OCTAVE_THEN_NOTE = re.compile(
    r"\b(?i:(?:the\s+)?octave\s+is\s+)(?P<number>[0-8])\s*,?\s*(?i:and\s+the\s+note\s+"
    rf"(?:name\s+)?is\s+){_NOTE}(?![\w#\u266d\u266f])")
_NOTE_THEN_OCTAVE = re.compile(
    rf"\b(?i:(?:the\s+)?note\s+(?:name\s+)?is\s+){_NOTE}\s*,?\s*(?i:and\s+the\s+octave\s+is\s+)"
    r"(?P<number>[0-8])\b")
# A closing clause whose predicate is the pitch: "my estimate is 72", "the pitch centre is A3".
_PITCH_PREDICATE = re.compile(
    r"\b(?:note|tone|pitch|pitch\s+cent(?:re|er)|estimate|guess|frequency|target|answer)\s+"
    r"(?:is|was|would\s+be|sits\s+at|lies\s+at|(?P<of>of))\s+(?:(?:about|around|roughly|approximately|"
    r"close\s+to)\s+)?(?:the\s+)?(?:MIDI\s+(?:note\s+)?)?(?:[A-G](?:[#b\u266f\u266d]|-?flat|"
    r"-?sharp)?-?\d|\d)", re.IGNORECASE)
# "a central pitch of 440 Hz" names the pitch, unless it is compared with ("a fifth above a
# pitch of 440 Hz")
_COMPARED = re.compile(r"\b(?:above|below|from|than|over|under|relative|reference|given|tuned"
                       r"|octaves?|fifths?|fourths?|thirds?|semitones?|steps?)\b", re.IGNORECASE)
_NOT_SAID = re.compile(r"\b(?:not|no|never|cannot|unsure|unclear|maybe|perhaps|possibly|if|"
                       r"whether|or)\b|n['\u2019]t\b|\?", re.IGNORECASE)


# "E-flat four", "the tone is C sharp four": an octave said as a word after the note name (with
# an accidental, or as what the tone is), never "A four-bar phrase" or "C four times".
_WORD_OCTAVES = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
                 "seven": 7, "eight": 8}
_NOTE_WORD_OCTAVE = re.compile(
    r"(?:(?:(?<=\bis)|(?<=\bwas)|(?<=\bnote)|(?<=\btone)|(?<=\bpitch)|(?<=\blike)|(?<=\bas)"
    r"|(?<=\bat))\s+|\b(?=[A-G][\s-]?(?i:flat|sharp))"
    # or the whole answer: "Final Answer: F three"
    rf"|^\s*(?=[A-G][\s-]+(?i:{'|'.join(_WORD_OCTAVES)})\s*[.!]?\s*$))"
    rf"{_NOTE}[\s-]+(?P<word>(?i:{'|'.join(_WORD_OCTAVES)}))(?![\w-])"
    r"(?!\s+(?i:notes?|bars?|beats?|measures?|times?|steps?|semitones?|of|hundred|thousand"
    r"|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)\b)")  # "A four forty" is 440


def _spn(match: re.Match[str]) -> str:
    accidental = match.group("accidental") or match.group("sign") or ""
    number = match.groupdict().get("number")
    word = match.groupdict().get("word")
    octave = int(number) if number else _WORD_OCTAVES[word.casefold()] if word else \
        _ORDINALS[match.group("octave").casefold()]
    return f"{match.group('letter').upper()}{_ACCIDENTAL[accidental.casefold()]}{octave}"


def join_octave(text: str) -> str:
    """``text`` with a note name and its octave said apart written as one pitch ("C3")."""
    for pattern in (_OCTAVE_THEN_NOTE, _NOTE_THEN_OCTAVE, _NOTE_IN_OCTAVE):
        text = pattern.sub(_spn, text)
    text = _NOTE_WORD_OCTAVE.sub(lambda m: (" " if m.group().startswith(" ") else "") + _spn(m),
                                 text)
    return text


def stated_clause(text: str) -> tuple[str, str] | None:
    """A closing sentence that states its pitch as its predicate, with no negation, doubt or
    alternative anywhere in it, cut as (what comes before, the predicate clause); else None."""
    text = join_octave(text)
    found = list(_PITCH_PREDICATE.finditer(text))
    if not found or _NOT_SAID.search(text):
        return None
    if found[-1].group("of") and _COMPARED.search(text[:found[-1].start()]):
        return None  # "an octave above a pitch of 440 Hz": that pitch is a point of comparison
    return text[:found[-1].start()], text[found[-1].start():]


def self_named_notation(restated: dict[str, list], octave_free: bool) -> str | None:
    """The notation of an answer given only in a form that names its own notation (a note name
    with octave, "MIDI 60", "329.6 Hz"): a grader reads it in any question (issue 30, round 23).
    A syllable has no octave, so it answers only an octave-free question."""
    for other in ("spn", "midi", "hz"):
        if restated[other]:
            return other
    return "solfege" if octave_free and restated["solfege"] else None
