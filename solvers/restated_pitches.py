"""A pitch the reasoning restates in another notation as a different pitch: two answers.

A grader reading "its centre is D4 (293.66 Hz); in MIDI that's 64." above "Final Answer: D4"
sees the reply name D4 and MIDI 64 for one tone: the two notations disagree, and the reply
commits to neither (issue 30, blind11). Inside one answer span the pitch readers already call
this a hedge (``61 (D4)``); this rule carries it to the sentences of the reasoning, for a
single pitch only, and only for a plain restatement: a sentence that turns, compares or offers
alternatives ("I first thought MIDI 64, but it's D4", "between D4 and 64") restates nothing.
Pure; no I/O.
"""

from __future__ import annotations

import re

from .helmholtz import MAX_WHOLE_REPLY_CHARS
from .notation import OCTAVE_FREE_NOTATIONS
from .pitch_reading import PitchAnswer, pitch_mentions, prepared
from .reply_excerpt import clean_markup
from .reply_spans import HEDGE, Reading

_SENTENCE = re.compile(r"(?<!\d)[.!?](?=\s|$)")
MAX_SENTENCE_CHARS = 300  # a restatement is said in a short sentence; longer is reasoning
# The turn a sentence makes before its statement: only what follows the last one is read.
_TURN = re.compile(r"\b(?:but|though|although|however|yet)\b", re.IGNORECASE)
# Words of comparison, alternatives or a changed mind: no plain restatement.
_NOT_PLAIN = re.compile(r"\b(?:or|either|maybe|perhaps|possibly|not|than|between|instead|rather"
                        r"|first|thought|earlier|previous(?:ly)?|wait|actually|closer|toward"
                        r"|towards|approach(?:es)?|nearest|nearer|rounds?|rounding|if"
                        # a reference or an interval from it: "With A4 tuned to 440 Hz, …"
                        r"|tuned|tuning|reference|given|relative|above|below|from|semitones?"
                        r"|cents|interval|third|fourth|fifth|octaves?|step|higher|lower)\b|\?",
                        re.IGNORECASE)
_RESTATING_NOTATIONS = ("spn", "midi", "hz")
_FUNDAMENTAL = re.compile(r"\b[fF]0\b")  # "f0 near 165 Hz": the fundamental, no note F0
# "in MIDI that's 64", "64 in MIDI": the number said as MIDI, written "MIDI 64"
_IN_MIDI = re.compile(r"\bin\s+MIDI(?:\s+(?:terms|numbers?|notation))?\b[\s,:]*"
                      r"(?:(?:that|it|this)\s*(?:['\u2019]s|\s+is)\s*|is\s+)?"
                      r"(?=\d)|(?<![\d.])(\d{1,3})\s+in\s+MIDI\b", re.IGNORECASE)


def restated_otherwise(reply: str, key: int, notation: str) -> bool:
    """Whether a sentence of ``reply`` names the pitch ``key`` in ``notation`` and restates it
    plainly in another notation as a different pitch."""
    if notation in OCTAVE_FREE_NOTATIONS or len(reply) > MAX_WHOLE_REPLY_CHARS:
        return False
    for sentence in (part for line in clean_markup(reply).splitlines()
                     for part in _SENTENCE.split(line)):
        if len(sentence) > MAX_SENTENCE_CHARS:
            continue
        turns = [found.end() for found in _TURN.finditer(sentence)]
        statement = _IN_MIDI.sub(_as_midi, sentence[turns[-1]:] if turns else sentence)
        statement = _FUNDAMENTAL.sub("  ", prepared(statement))
        if _NOT_PLAIN.search(statement):
            continue
        primary, restated = pitch_mentions(statement, notation)
        if {pitch.midi_note for pitch in primary} != {key}:
            continue
        if any(pitch.midi_note != key for other in _RESTATING_NOTATIONS
               for pitch in restated[other]):
            return True
    return False


def _as_midi(match: re.Match) -> str:
    return f"MIDI {match.group(1)}" if match.group(1) else "MIDI "


def unless_restated_otherwise(reading: Reading, reply: str, notation: str | None,
                              kind: str) -> Reading:
    """``reading``, or a hedge when its one pitch is restated otherwise in the reasoning."""
    answer = reading.answer
    if kind != "pitch" or notation is None or not isinstance(answer, PitchAnswer) \
            or not isinstance(reply, str) or len(answer.keys) != 1:
        return reading
    if restated_otherwise(reply, answer.keys[0], notation):
        return Reading(None, reading.source, HEDGE, span=reading.span)
    return reading
