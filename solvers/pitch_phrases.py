"""Phrases around a pitch answer that are no pitch of it, and numbers written in words.

A grader reading "Relative to A4 = 440 Hz, this note is C4." sees one answer, C4: the tuning
reference is no restatement of it, nor is a pitch named as the reference ("Given the reference
C4, the target is E4.") or as the point of comparison of a tuning ("880 Hz, one octave above A4
= 440 Hz."). Likewise "60 (±1)" is 60 with a tolerance, "The octave is 4
and the MIDI note is 61." is 61, and "four hundred forty hertz" is 440 Hz. These rewrites run
before :func:`solvers.pitch_reading.pitch_mentions` looks for pitches.
"""

from __future__ import annotations

import re

# "A4 = 440 Hz", "A = 440Hz", "A4 (440 Hz)", "A440" said as the tuning reference: after
# "relative to", "taking", "given", "with", "the reference is"..., or before "as the
# reference" / "tuning".
_A440 = r"(?:\bA4?\s*(?:=|:|\(|is\s+at\s+|at\s+)?\s*440(?:\.0+)?\s*Hz\)?|\bA440\b)"
_TUNING_BEFORE = re.compile(
    r"\b(?:relative\s+to|taking|given|with|assuming|using|based\s+on|tuned\s+to|against|"
    r"above|below|under|over|from|"  # "one octave above A4 = 440 Hz": a point of comparison
    r"(?:the\s+)?reference\s+(?:pitch\s+)?(?:is|of|being))\s+(?:the\s+)?(?:standard\s+|concert\s+)?"
    r"(?:(?:(?:tuning\s+)?reference|tuning)\s+(?:pitch\s+|note\s+)?(?:of\s+)?)?"  # the reference
    + _A440, re.IGNORECASE)
_TUNING_AFTER = re.compile(
    _A440 + r"\s*(?:as\s+(?:the\s+|a\s+|my\s+)?reference|tuning|reference|standard)\b",
    re.IGNORECASE)
# A pitch named as the reference ("Given the reference C4, the target is ... E4."): blanked
# with a restatement after it, so the answer is looked for after it, not cut off there.
_REFERENCE_PITCH = re.compile(
    r"\b(?i:reference(?:\s+(?:pitch|tone|note))?\s*(?:is|was|being|of|at|=|:)?\s*(?:the\s+)?"
    r"(?:note\s+|tone\s+)?)[A-G](?:#|b|\u266f|\u266d)?-?\d\b(?:\s*\([^()]{0,24}\))?"
    # or after it: "A4 is my reference", "C4 as the reference", "the C4 reference (tone)"
    r"|\b[A-G](?:#|b|\u266f|\u266d)?-?\d\b(?i:(?:\s+(?:is|was|being|as)\s+(?:my|the|a|our))?"
    r"\s+(?:tuning\s+)?reference)\b")
# A frequency named as the reference: "the 440.00 Hz reference", "a 261.63 Hz reference tone",
# "the reference of 523 Hz", "reference at 440Hz".
_REFERENCE_HZ = re.compile(
    r"\b\d+(?:\.\d+)?\s*Hz\s+(?:tuning\s+)?reference\b(?:\s+(?:pitch|tone|note))?"
    r"|\breference(?:\s+(?:pitch|tone|note))?\s*(?:is|was|of|at|=|:)\s*\d+(?:\.\d+)?\s*Hz\b",
    re.IGNORECASE)
# A tolerance after a number: "(±1)", "± 0.5", "+/- 2", "give or take 1".
_TOLERANCE = re.compile(r"\(?\s*(?:\u00b1|\+/-|\+-|give\s+or\s+take)\s*\d+(?:\.\d+)?\s*"
                        r"(?:semitones?|cents?|hz)?\s*\)?", re.IGNORECASE)
# An octave number stated apart from the pitch: "the octave is 4", "octave: 4", "in octave 5".
_OCTAVE = re.compile(r"\boctave\s*(?:number\s*)?(?:is|=|:)?\s*-?\d\b(?!\s*(?:hz|semitone))",
                     re.IGNORECASE)
# Names that hold a note's spelling but no pitch: "f0"/"F0" is the fundamental (F0 lies below
# the piano's range), "fixed-do" / "movable do" name a solfège system, not the syllable do.
_NAMES = re.compile(r"\b[fF]0\b|\b(?:fixed|mov(?:e)?able)[\s-]+do\b", re.IGNORECASE)

_UNITS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
          "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
          "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17,
          "eighteen": 18, "nineteen": 19}
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
         "eighty": 80, "ninety": 90}
_NUMBER_WORD = "|".join(sorted([*_UNITS, *_TENS, "hundred", "thousand"], key=len, reverse=True))
_WORD_RUN = re.compile(rf"\b(?:{_NUMBER_WORD})(?:(?:\s+and\s+|[\s-]+)(?:{_NUMBER_WORD}))*\b",
                       re.IGNORECASE)


def _value(words: list[str]) -> int | None:
    total, current = 0, 0
    for word in words:
        if word in _UNITS:
            current += _UNITS[word]
        elif word in _TENS:
            current += _TENS[word]
        elif word == "hundred":
            current = max(current, 1) * 100
        elif word == "thousand":
            total, current = (total + max(current, 1)) * 1000, 0
    return total + current


def spell_numbers(text: str) -> str:
    """Compound numbers in words as digits ("four hundred forty" -> "440", "sixty-one" ->
    "61"); a lone small word ("one", "four") is left as it is (it is rarely a pitch)."""
    def digits(match: re.Match) -> str:
        words = [w for w in re.split(r"[\s-]+", match.group().casefold()) if w != "and"]
        if not any(w in _TENS or w in ("hundred", "thousand") for w in words):
            return match.group()
        value = _value(words)
        return match.group() if value is None else str(value)

    return _WORD_RUN.sub(digits, text)


def without_non_answers(text: str) -> str:
    """``text`` with tuning references, tolerances, stated octave numbers and names that spell
    no pitch (``f0``, ``fixed-do``) blanked out."""
    for pattern in (_TUNING_BEFORE, _TUNING_AFTER, _REFERENCE_PITCH, _REFERENCE_HZ,
                    _TOLERANCE, _OCTAVE, _NAMES):
        text = pattern.sub(lambda m: " " * len(m.group()), text)
    return text
