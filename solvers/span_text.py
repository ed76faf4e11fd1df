"""What part of an answer span is the answer: explanations cut off, hedges split, prose refused.

The value readers of :mod:`solvers.pitch_reading` see one span that
:mod:`solvers.reply_spans` found. Before reading a value they pass it through
:func:`read_alternatives`, which applies the grader's habits that do not depend on the kind:

* an explanation after the answer is no part of it ("B — because …", "up, down. The first note
  is lower …", "C4, D4, E4, then it returns to C4");
* alternatives that read to different answers are a hedge ("up or down", "60 / 61", "maybe 3,
  maybe 4");
* a reply's last line (a fallback span) is an answer only if it is short prose without a
  refusal ("The MIDI note is 60." yes; "Let me know if you need 2 more examples." no);
* a span longer than ``MAX_SPAN_CHARS`` is no answer, which keeps every reader linear.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .reply_spans import FALLBACK_SOURCES, HEDGE
from .retractions import RETRACTION, WITHDRAWS

Result = tuple  # (answer, None, via) | (None, reason)

MAX_SPAN_CHARS = 1500  # the longest answer asked for (28 notes, each restated) is ~600
Result = tuple  # (answer, None, via) | (None, reason)

# --- Explanations and hedges -------------------------------------------------------------------

_EXPLANATION = re.compile(
    r"\s*[\u2014\u2013]\s*(?=(?:a|an|the|it|this|that|i)\b).*$"
    r"|(?:\s*[\u2014\u2013]\s*|\s+-\s+|\s*[,;:(]?\s*)\b(?:because|since|due\s+to|as\s+(?:the|it|they|"
    r"there|both|each)|based\s+on|given\s+that|judging|which\s+(?:is|means)|this\s+is\s+because|"
    r"reason(?:ing)?\s*:|explanation\s*:)\b.*$",
    re.IGNORECASE,
)
_SENTENCE_BREAK = re.compile(r"(?<=[^\s.])[.!?](?=\s+[A-Z])")
_ORDINARY_WORD = re.compile(r"(?<![\w#])[A-Za-z]{2,}(?![\w#])")
_ANSWER_WORDS = frozenset(  # words that are answers: the answer has begun
    "do re mi fa sol so la si ti up down rise rises rising fall falls falling higher lower "
    "ascending descending upward downward same first second third fourth fifth sixth seventh "
    "eighth ninth tenth".split()
)
_ANSWER_VOCABULARY = _ANSWER_WORDS | frozenset(  # words an answer may hold besides them
    "then and to hz khz midi note notes sharp flat natural major minor perfect augmented "
    "diminished octave octaves unison semitone semitones half whole step steps tone tones onset "
    "offset ms sec secs seconds above below by".split()
)
_PROSE_TOKEN = re.compile(r"[^\W\d_]+|[0-9]")
PROSE_RUN = 3  # this many ordinary words in a row after the answer began: an explanation
_ALTERNATIVES = re.compile(
    r"\b(?:or|either|maybe|perhaps|possibly|could\s+be|might\s+be)\b|[?|/]", re.IGNORECASE
)
_ASKED = re.compile(r"\?[\s)\]*_\"'\u201d\u2019]*$")  # the answer part ends in a question mark
_ALTERNATIVES_NO_SLASH = re.compile(_ALTERNATIVES.pattern.replace("/", ""), re.IGNORECASE)


def _is_explanation(sentence: str) -> bool:
    words = [w for w in _ORDINARY_WORD.findall(sentence) if w.casefold() not in _ANSWER_VOCABULARY]
    return len(words) >= 3


_TRAILING_JOIN = re.compile(r"[\s,;]*\b(?:so|and|then|but|which|that|as|since|thus)\s*$",
                            re.IGNORECASE)


def cut_prose(line: str, run: int = PROSE_RUN) -> str:
    """The line up to the first ``run`` ordinary words in a row after the answer began.

    "C4, D4, E4, then it returns to C4" is C4, D4, E4: the answer begins at its first digit or
    answer word; one-letter words ("a", the "C" of "C4") neither count nor break a run.
    """
    started, count, run_start = False, 0, 0
    for match in _PROSE_TOKEN.finditer(line):
        token = match.group()
        folded = token.casefold()
        if token.isdigit() or folded in _ANSWER_WORDS:
            started, count = True, 0
        elif folded in _ANSWER_VOCABULARY:
            count = 0
        elif len(token) > 1 and started:
            if count == 0:
                run_start = match.start()
            count += 1
            if count >= run:  # a joining word before the prose goes with it ("…, so the …")
                return _TRAILING_JOIN.sub("", line[:run_start])
    return line


def trim_explanation(text: str, prose_run: int = PROSE_RUN) -> str:
    """The answer part of each line: no "because …" tail, no sentences of explanation after it,
    no run of ``prose_run`` ordinary words after the answer began (0: keep them)."""
    lines = []
    for line in text.splitlines():
        line = _EXPLANATION.sub("", line)
        for match in _SENTENCE_BREAK.finditer(line):
            if _is_explanation(line[match.end() :]):
                line = line[: match.start()]
                break
        lines.append(cut_prose(line, prose_run) if prose_run else line)
    return "\n".join(lines)


EMPTY = "the answer line is empty"
# A reply's last line is an answer given alone only if it is short prose without a refusal:
# "The MIDI note is 60." is one, "Let me know if you need 2 more examples." is not.
MAX_FALLBACK_PROSE_WORDS = 6
_REFUSAL = re.compile(r"\b(?:not|no|cannot|can't|can\u2019t|unable|sorry|don't|never|impossible|"
                      r"unsure|unclear)\b", re.IGNORECASE)


# An answer line that opens with a refusal ("Unable to determine (maybe 69)") gives no answer.
_REFUSAL_FIRST = re.compile(
    r"^\W*(?:unable|cannot|can't|can\u2019t|can\s+not|not\s+sure|unsure|unknown|unclear|"
    r"undetermined|indeterminate|n/?a\b|none\b|i\s+(?:don't|do\s+not|cannot|can't)\b)",
    re.IGNORECASE,
)


# A refusal that names the question ("I can't identify which pitch this is", "I cannot answer
# questions about pitch"): whatever else its span says is no answer (docs/reading.md).
REFUSAL_OF_QUESTION = re.compile(
    r"\b(?:can\s*(?:not|['\u2019]?t)|unable\s+to|not\s+able\s+to)\s+(?:answer|determine|identify"
    r"|tell|say|know|give|name|work\s+out|figure\s+out)\s+(?:which|what|whether|questions)\b",
    re.IGNORECASE)


# A parenthesis closing the span explains the answer before it ("G4 (the vibrato swings about
# 30 cents around it)."): it is still read whole for another answer, but is no prose (round 20)
_CLOSING_PARENTHESIS = re.compile(r"(?<=\S)\s*\([^()\n]*\)\W*$")


def is_plain_statement(text: str) -> bool:
    """Whether a fallback span (the last line or sentence) may be read as an answer at all."""
    if _REFUSAL.search(text):
        return False
    stated = _CLOSING_PARENTHESIS.sub("", text)
    prose = [w for w in _ORDINARY_WORD.findall(stated) if w.casefold() not in _ANSWER_VOCABULARY]
    return len(prose) <= MAX_FALLBACK_PROSE_WORDS


# In an explanation cut off after the answer, a word offering another answer: what follows it
# ("…, so maybe A4") is read, and a different answer there reopens the answer.
_OFFERED = re.compile(r"\b(?:maybe|perhaps|possibly|alternatively|(?:could|might)\s+(?:also\s+)?be)"
                      r"\b|(?<![^\W_])" + RETRACTION.pattern.removeprefix(r"\W*"), re.IGNORECASE)
# (and a change of mind: "It is 880 Hz. On reflection, it is 440 Hz." is no 880 Hz; of those,
# an explicit one takes the answer back even when what follows names none: WITHDRAWS)


def _reopened(text: str, kept: str, read_one: Callable[[str], Result]) -> bool:
    """Whether the explanation cut off ``text`` (leaving ``kept``) offers a different answer."""
    for line, kept_line in zip(text.splitlines(), kept.splitlines(), strict=False):
        offered = _OFFERED.search(line, len(kept_line)) if line.startswith(kept_line) else None
        if offered is None:
            continue
        other = read_one(line[offered.end():])[0]
        if other != read_one(kept_line)[0] and (other is not None or WITHDRAWS.match(
                offered.group())):  # "60. Wait, 5 semitones above that." takes 60 back
            return True
    return False


def read_alternatives(
    text: str, read_one: Callable[[str], Result], slash: bool = True, prose_run: int = PROSE_RUN,
    source: str = "final_line",
) -> Result:
    """Read ``text`` whole, unless it offers alternatives that read to different answers.

    A slash separates alternatives ("up/down") unless ``slash`` is False (times, "1/2");
    ``prose_run`` is passed to :func:`trim_explanation` (0 for option labels, which are words).
    """
    if len(text) > MAX_SPAN_CHARS:
        return None, f"an answer of {len(text)} characters is no answer a grader reads"
    if REFUSAL_OF_QUESTION.search(text):
        return None, HEDGE  # "I can't identify which pitch this is; A4 is …": no commitment
    if source in FALLBACK_SOURCES and not is_plain_statement(text):
        return None, "the reply's last line is prose, not an answer"
    kept = trim_explanation(text, prose_run)
    if _reopened(text, kept, read_one):
        return None, HEDGE  # "A3 (220 Hz)... the distortion is strong, so maybe A4 (440 Hz)."
    text = kept
    if not text.strip():
        return None, EMPTY
    if _REFUSAL_FIRST.match(text):
        return None, "the answer says it cannot be given"
    if _ASKED.search(text):
        return None, "the answer is asked, not given"  # "Final Answer: 71?"
    parts = (_ALTERNATIVES if slash else _ALTERNATIVES_NO_SLASH).split(text)
    if len(parts) > 1:
        answers = set()
        for part in parts:
            answer, reason, *_ = read_one(part)
            if answer is not None:
                answers.add(answer)
            elif reason == HEDGE:
                return None, HEDGE
        if len(answers) > 1:
            return None, HEDGE
    return read_one(text)
