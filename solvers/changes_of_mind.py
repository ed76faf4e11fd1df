"""An explicit change of mind after a final answer, and a conclusion closing a reasoning
(docs/reading.md, round 23): what a grader — and MUSE's own last-answer rule — reads.

* **Change of mind.** ``Final Answer: B`` … "Changing my answer to A." or "On second thought, …
  Correcting myself: **No**, …": the speaker says they change or correct the answer given, and
  what they say after it reads one other answer, given plainly (not negated, not offered as a
  possibility, its closing sentence reading it alone). That answer is the reply's.
  A doubt or a bare "Hmm" after an answer line still withdraws it, and a new answer without a
  marker of change stays a hedge (:mod:`solvers.reply_spans`).
  A reply's last sentence opening on such a marker ("Piano. Actually, listening again, it is a
  violin.") is read by what it says after it, when that names an answer.
* **Conclusion.** A reply's last sentence opening on a conclusion ("So yes, it does modulate.",
  "Therefore the second is more syncopated.") decides over the reasoning before it, when that
  reasoning visibly turns ("but", "wait", "hmm" …) and the conclusion names one answer and
  neither doubts nor supposes.
* **Change of mind inside a line** (round 26). A marker of change that opens a clause after an
  answer in the same line ("C — ascending. Wait, …, so it's really an arch: A.", "I think it's
  C4 — no wait, it's a semitone lower: B3.") hands the line to what its closing sentence says
  after the last such marker, when that names one answer (after its last colon, or whole) and
  neither doubts nor offers. "Hmm" alone and a marker after a comma are none.

Pure patterns and helpers; no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Sequence

from .caveats import pitches_named
from .closing_clauses import DOUBT
from .retractions import CLOSER_LISTEN, CORRECTION, RETRACTION, WITHDRAWS
from .revisions import revised_answer

HEDGE = "hedge"  # solvers.reply_spans.HEDGE (that module imports this one)

# The source of a revised answer given in prose after an answer line ("Changing to A."): the
# sentence itself says the answer changes.
REVISION_SOURCE = "revision"
CHANGE_SOURCES = ("retraction", REVISION_SOURCE)
# A marker that the speaker changes the answer given: the correction and second-look markers
# of :mod:`solvers.retractions`, and a closer listen ("Hmm, listening more carefully, …").
_CHANGE = re.compile(CORRECTION.pattern + "|" + CLOSER_LISTEN.pattern + r"|\b(?:changing"
                     r"|switching|updating|amending)\s+(?:my\s+(?:final\s+)?answer\s+)?to\b",
                     re.IGNORECASE)
# An answer offered as a possibility, or under a condition, is no new commitment: the doubts,
# alternatives and suppositions that keep a closing clause from being read (closing_clauses).
OFFERED = DOUBT
_SENTENCE = re.compile(r"(?<=[.!])\s+")
# A sentence opening on a conclusion of what came before.
_CONCLUDING = re.compile(r"\W*(?:(?:and\s+)?(?:so|thus|therefore|hence|consequently)\b"
                         r"|in\s+(?:conclusion|the\s+end|short|summary)\b|all\s+in\s+all\b"
                         r"|overall\b|ultimately\b|to\s+sum\s+up\b|on\s+balance\b"
                         r"|taken\s+together\b)", re.IGNORECASE)

# The reasoning turns on its way to a conclusion: "No modulation at first — … Hmm, but the last
# four bars …", "Yes — wait, …"; without a turn an earlier answer and the conclusion disagree.
_TURN = re.compile(CORRECTION.pattern + r"|\b(?:but|however|though|although|yet|still|hmm+"
                   r"|instead|nevertheless|nonetheless)\b", re.IGNORECASE)

# How a yes/no reader reads an answer from its phrases alone (solvers.answers: "the first four
# notes are the same" reads yes): after a marker of change, or as a conclusion, too loose to
# replace an answer given; an explicit yes/no word or an option is needed.
PHRASE_VIAS = ("same_different", "answer_phrase")

ValueReader = Callable[[str, str], tuple]


def changed_answer(spans: Sequence[tuple[str, str]], given: Hashable, read_value: ValueReader
                   ) -> Hashable | None:
    """The one new answer the ``(text, source)`` spans after an answer line change ``given``
    to, or None (see module doc)."""
    found: set[Hashable] = set()
    for text, source in spans:
        if source != REVISION_SOURCE and not _CHANGE.search(text):
            return None
        whole, reason, *_via = read_value(text, source)  # mentions in a reason are not read
        answer = _closing_answer(text, source, read_value)
        if answer is None or reason == HEDGE or whole not in (None, answer) \
                or OFFERED.search(_after_marker(text)) or hasattr(answer, "keys") \
                and set(pitches_named(text, read_value)) - {answer, None}:
            return None  # (a pitch answer: no other pitch named, "65 …, so 64 stands")
        found.add(answer)
    if len(found) != 1 or given in found:
        return None
    return found.pop()


def _closing_answer(text: str, source: str, read_value: ValueReader) -> Hashable | None:
    """The one answer the closing sentence of ``text`` gives: whole, after its last colon
    ("Correcting myself: it is a trumpet."), or as a revision ("Changing my answer to A.")."""
    said = _SENTENCE.split(text.strip())[-1]
    ways = (said, said.rpartition(":")[2] if ":" in said else None, revised_answer(said))
    readings = [read_value(way, source) for way in ways if way and way.strip()]
    answers = {answer for answer, _reason, *via in readings
               if answer is not None and via[:1] != [] and via[0] not in PHRASE_VIAS
               or answer is not None and not via}
    return answers.pop() if len(answers) == 1 else None


def _after_marker(text: str) -> str:
    """What ``text`` says after its first marker of change (the new answer and its reason)."""
    marker = _CHANGE.search(text)
    return text[marker.end():] if marker else text


def concluding(sentences: Sequence[str]) -> str | None:
    """The last of ``sentences`` if it concludes a reasoning that visibly turns before it (see
    module doc)."""
    if len(sentences) < 2 or not _CONCLUDING.match(sentences[-1]) \
            or OFFERED.search(sentences[-1]) or not any(map(_TURN.search, sentences[:-1])):
        return None
    return sentences[-1]


_MARK_GAP = " ,;:\u2014\u2013-"


def changed_closing(sentences: Sequence[str]) -> str | None:
    """What the last of ``sentences`` says after the markers of a change of mind it opens on
    ("Piano. Actually, listening again, it is a violin." gives "it is a violin."), unless it
    doubts or offers; None when it opens on none, or stands alone."""
    if len(sentences) < 2:
        return None
    rest, opened = sentences[-1], False
    while (found := CORRECTION.match(rest := rest.lstrip(_MARK_GAP))
           or CLOSER_LISTEN.match(rest)) is not None:
        rest, opened = rest[found.end():], True
    rest = rest.lstrip(_MARK_GAP)
    return rest if opened and rest and not OFFERED.search(sentences[-1]) else None


# A marker of change opening a clause inside a line: after a sentence end or a dash ("C4 — no
# wait, …", "A4 (440 Hz) — wait, …", "C — ascending. Wait, …"). Never after a comma ("Violin, no
# wait, flute." stays a hedge, round 6), and never "Hmm" alone (round 23).
_IN_LINE = re.compile(r"(?:[.!?;\u2014\u2013]|\.{3}|\u2026|\s-)\s*(?:(?:hmm+|no|oh)\W+)*"
                      r"(?=(?:" + CORRECTION.pattern + "|" + CLOSER_LISTEN.pattern + r"))",
                      re.IGNORECASE)


def changed_in_line(lines: Sequence[str]) -> list[str]:
    """What the closing sentence of the last of ``lines`` says after the last marker of change
    opening a clause after an answer (see module doc), read after its last colon or whole; []
    when the line changes its mind nowhere, or what follows doubts or offers."""
    line = lines[-1] if lines else ""  # "C4 — no wait, it's a semitone lower: B3." gives "B3."
    opened = [found.end() for found in _IN_LINE.finditer(line) if found.start() > 0]
    if not opened:
        return []
    rest, start = line[opened[-1]:], None
    while (found := CORRECTION.match(rest) or CLOSER_LISTEN.match(rest)
           or re.match(r"\W*no\b", rest, re.IGNORECASE)) is not None and found.end():
        rest, start = rest[found.end():].lstrip(_MARK_GAP + "!."), True
    said = _SENTENCE.split(rest.strip())[-1] if start else ""
    if not said or OFFERED.search(rest) or _SUPPOSED.search(rest):
        return []
    return [said.rpartition(":")[2].strip()] if ":" in said else [said]


_SUPPOSED = re.compile(r"\b(?:if|unless|maybe|perhaps|possibly|probably|might|could)\b",
                       re.IGNORECASE)


def reopened(texts: Sequence[str], given_in: str, given: Hashable, source: str,
             read_value: ValueReader) -> bool:
    """Whether a span of ``texts`` after ``given_in`` (the one giving ``given``) opens on a
    marker of change, a bare "Hmm" too, and closes on another answer ("Piano. Hmm, the tone
    swells, so it must be the flute: D."), or on an explicit one and names none ("60. Wait, 5
    semitones above that."): no commitment to ``given`` then (round 26)."""
    later = [*_SENTENCE.split(given_in.strip())[1:],  # "60. Wait, 5 semitones above that."
             *(texts[texts.index(given_in) + 1:] if given_in in texts else [])]
    return any(RETRACTION.match(text) and (other := _closing_answer(text, source, read_value))
               != given and (other is not None or WITHDRAWS.match(text)) for text in later)
