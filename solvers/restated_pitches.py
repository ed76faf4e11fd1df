"""A pitch the reasoning restates in another notation as a different pitch: two answers.

A grader reading "its centre is D4 (293.66 Hz); in MIDI that's 64." above "Final Answer: D4"
sees the reply name D4 and MIDI 64 for one tone: the two notations disagree, and the reply
commits to neither (issue 30, blind11). Inside one answer span the pitch readers already call
this a hedge (``61 (D4)``); this rule carries it to the sentences of the reasoning, for a
single pitch only, and only for a plain restatement: a sentence that turns, compares or offers
alternatives ("I first thought MIDI 64, but it's D4", "between D4 and 64") restates nothing.
A sentence that says what the tone is in another notation only ("It's C3 — one octave below
middle C." above "Final Answer: 47") names a second pitch as well (blind16). Pure; no I/O.
"""

from __future__ import annotations

import re

from .helmholtz import MAX_WHOLE_REPLY_CHARS
from .notation import OCTAVE_FREE_NOTATIONS
from .pitch_reading import PitchAnswer, pitch_mentions, prepared
from .reply_excerpt import clean_markup
from .reply_spans import HEDGE, Reading
from .retractions import CORRECTION

# A full stop after a number ends a sentence too when a capital opens the next ("That's MIDI
# 57. Hmm, it might be B♭3 …" says 57, then offers B♭3: two sentences).
_SENTENCE = re.compile(r"(?<!\d)[.!?](?=\s|$)|(?<=\d)[.!?](?=\s+[A-Z]|\s*$)")
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
# A sentence that says what the tone is ("It's C3", "The note is 130.8 Hz", "This sounds like
# MIDI 48"), and where its statement ends: an apposition or a clause after it elaborates.
_IDENTIFIES = re.compile(r"\W*(?:so\s+)?(?:it|this|that|the\s+(?:tone|note|pitch|target))"
                         r"(?:\s*['\u2019]s\b|\s+(?:is|sounds\s+like|must\s+be)\b)",
                         re.IGNORECASE)
_CHANGE = re.compile(r"\b(?:but|though|although|however|yet|wait|actually|or|rather|instead"
                     r"|maybe|perhaps|possibly|not|no)\b|\?", re.IGNORECASE)
_APPOSITION = re.compile(r"\s[\u2014\u2013-]\s|[(\[;,:]")
# A change of mind ("Actually, …", "I was wrong", "listening more carefully, …"): the pitches
# said before it were the speaker's first thought, not a restatement of the answer (round 23).
_CHANGED_MIND = re.compile(rf"{CORRECTION.pattern}|\b(?:listening|hearing|comparing)\s+(?:to\s+)?"
                           r"(?:it\s+)?more\s+(?:carefully|closely)\b", re.IGNORECASE)
# "in MIDI that's 64", "64 in MIDI": the number said as MIDI, written "MIDI 64"
_IN_MIDI = re.compile(r"\bin\s+MIDI(?:\s+(?:terms|numbers?|notation))?\b[\s,:]*"
                      r"(?:(?:that|it|this)\s*(?:['\u2019]s|\s+is)\s*|is\s+)?"
                      r"(?=\d)|(?<![\d.])(\d{1,3})\s+in\s+MIDI\b", re.IGNORECASE)


def restated_otherwise(reply: str, key: int, notation: str) -> bool:
    """Whether a sentence of ``reply`` names the pitch ``key`` in ``notation`` and restates it
    plainly in another notation as a different pitch."""
    if notation in OCTAVE_FREE_NOTATIONS or len(reply) > MAX_WHOLE_REPLY_CHARS:
        return False
    sentences = [part for line in clean_markup(reply).splitlines()
                 for part in _SENTENCE.split(line)]
    changes = [i for i, sentence in enumerate(sentences) if _CHANGED_MIND.search(sentence)]
    for sentence in sentences[changes[-1] + 1:] if changes else sentences:
        if len(sentence) > MAX_SENTENCE_CHARS:
            continue
        if _names_the_tone_otherwise(sentence, key, notation):
            return True
        turns = [found.end() for found in _TURN.finditer(sentence)]
        mentions = _plain_mentions(sentence[turns[-1]:] if turns else sentence, notation)
        if mentions is None:
            continue
        primary, restated = mentions
        if {pitch.midi_note for pitch in primary} != {key}:
            continue
        if any(pitch.midi_note != key for other in _RESTATING_NOTATIONS
               for pitch in restated[other]):
            return True
    return False


def _names_the_tone_otherwise(sentence: str, key: int, notation: str) -> bool:
    """"It's C3 — one octave below middle C." above "Final Answer: 47": a sentence that says
    what the tone is, in another notation, as one other pitch. Only its head is read, up to a
    dash, bracket or clause mark: what follows there elaborates ("one octave below …")."""
    head, *tail = _APPOSITION.split(sentence, maxsplit=1)
    if not _IDENTIFIES.match(head) or tail and _CHANGE.search(tail[0]):
        return False  # "It's C3, but listening again, B2": a changed mind, not a restatement
    mentions = _plain_mentions(head, notation)
    if mentions is None:
        return False
    primary, restated = mentions
    named = {pitch.midi_note for other in _RESTATING_NOTATIONS for pitch in restated[other]}
    return not primary and len(named) == 1 and named != {key}


def _plain_mentions(statement: str, notation: str) -> tuple[list, dict[str, list]] | None:
    """The pitches a statement names (``pitch_mentions``), "in MIDI" and references resolved;
    None when it compares, turns or offers alternatives, and so restates nothing."""
    statement = prepared(_IN_MIDI.sub(_as_midi, statement))  # "f0" blanked there
    return None if _NOT_PLAIN.search(statement) else pitch_mentions(statement, notation)


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
