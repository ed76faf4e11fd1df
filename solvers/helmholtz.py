"""Pitches in Helmholtz notation, written as scientific pitch before a pitch reply is read.

Helmholtz names octaves by case and primes: c' is middle C (C4), a' = A4, c'' = C5, small c = C3,
great C = C2. A lowercase note letter with primes ("c'", "a′", "e''") is unambiguous and is read
anywhere. A letter without primes is Helmholtz only where the reply says so: right after the
word ("Helmholtz a", "Helmholtz notation e"), or alone on an answer line ("Final Answer: a
(220 Hz)") of a reply that names Helmholtz notation; elsewhere "a" is the article and "A" a
letter. Pure; no I/O.
"""

from __future__ import annotations

import re

# A reply is rewritten (and its reasoning read whole for restatements) only up to a real reply's
# size: a megabyte of "c' " is no answer, and reading it whole would be slow.
MAX_WHOLE_REPLY_CHARS = 20_000
_PRIMES = "'\u2019\u2032"
_ACCIDENTAL = r"(?P<accidental>[#b\u266f\u266d]?)"
_PRIMED = re.compile(rf"(?<![\w{_PRIMES}\"])(?P<letter>[a-g]){_ACCIDENTAL}"
                     rf"(?P<primes>[{_PRIMES}]{{1,4}})(?![\w{_PRIMES}])")
_SAYS_HELMHOLTZ = re.compile(r"\bHelmholtz\b", re.IGNORECASE)
_AFTER_NAME = re.compile(rf"(?<=\bHelmholtz)(?P<gap>\s+(?:(?:notation|note|pitch)\s+)?)"
                         rf"(?P<letter>[a-gA-G]){_ACCIDENTAL}(?![\w{_PRIMES}])", re.IGNORECASE)
_ANSWER_LINE = re.compile(rf"^(?P<gap>[^\n]*\banswer\b[^\n]*?[:=\-\u2014]\s*)(?P<letter>[a-gA-G])"
                          rf"{_ACCIDENTAL}(?=\s*(?:\(|$))", re.IGNORECASE | re.MULTILINE)


def _spn(letter: str, accidental: str, primes: int = 0) -> str:
    octave = 3 + primes if letter.islower() else 2
    sign = {"\u266f": "#", "\u266d": "b"}.get(accidental, accidental)
    return f"{letter.upper()}{sign}{octave}"


def helmholtz_as_spn(reply: str) -> str:
    """``reply`` with its Helmholtz pitches written in scientific pitch notation (anything
    that is not text, or longer than ``MAX_WHOLE_REPLY_CHARS``, as it is)."""
    if not isinstance(reply, str) or len(reply) > MAX_WHOLE_REPLY_CHARS:
        return reply
    reply = _PRIMED.sub(lambda m: _spn(m["letter"], m["accidental"], len(m["primes"])), reply)
    if not _SAYS_HELMHOLTZ.search(reply):
        return reply
    for pattern in (_AFTER_NAME, _ANSWER_LINE):
        reply = pattern.sub(lambda m: m["gap"] + _spn(m["letter"], m["accidental"]), reply)
    return reply
