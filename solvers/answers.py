"""Final-answer reading of core tasks: choices (chord, syncopation) and yes/no (transposition).

A benchmark score is only as good as its reading of the model's answer. Both readers go
through :func:`solvers.reply_spans.read_reply`, which decides where a reply commits to an
answer (a ``Final Answer`` line or block, ``\\boxed{}``, JSON, "The answer is ...", a short last
line) and that two different answers there are a hedge. Choices are read by
:class:`solvers.choices.ChoiceReader`, the same reader MCQ uses; yes/no here. Anything
ambiguous (both yes and no, a letter that is really the article "A" or a note name) yields no
answer rather than a guess.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial

from .choices import ChoiceReader
from .reply_spans import HEDGE, Reading, read_reply

SAME_MELODY_SENTENCE = "Yes, these are the same melody."
DIFFERENT_MELODY_SENTENCE = "No, these are not the same melody."

# --- Multiple choice ---------------------------------------------------------------------------


def read_choice(
    text: str, options: Mapping[str, str], aliases: Mapping[str, str] | None = None
) -> Reading:
    """The option letter a reply commits to (with where and how it was read), or why none.

    ``options`` maps letters to labels ({"A": "Major", ...}); ``aliases`` maps other texts
    a grader accepts for an option ("dom7": "C") to its letter. Never raises.
    """
    if not isinstance(text, str) or not options:
        return Reading(None, None, "no answer in the reply")
    return read_reply(text, ChoiceReader(options, aliases))


def extract_choice(
    text: str, options: Mapping[str, str], aliases: Mapping[str, str] | None = None
) -> str | None:
    """The option letter of :func:`read_choice`, or None."""
    return read_choice(text, options, aliases).answer


# --- Yes / no (transposition) ------------------------------------------------------------------

_MAX_CHARS = 2000
_TOKEN = re.compile(r"[^\W_]+(?:-[^\W_]+)*")  # "yes-ish" is one word, not "yes"
_SENTENCE = re.compile(r"(?<=[.!?;])\s+|\n+|\s+[\u2014\u2013]\s+|\s+-\s+")
_YES = frozenset("yes yeah yep yup yea affirmative correct true indeed".split())
_NO = frozenset("no nope nah negative false incorrect".split())
_LEAD_IN = frozenset("so thus therefore hence is answer final my believe think say guess".split())
_SAME = frozenset("same identical transposed transposition transpositions equivalent".split())
_DIFFERENT = frozenset("different differ differs distinct unrelated dissimilar difference "
                       "differences".split())
# "no" before an answer word of the question quantifies it ("no difference", "no modulation",
# "no doubt"): it is no answer word then, and negates that word ("There is no difference"
# says they are the same). Before anything else "no" stays the answer ("No they differ").
_QUANTIFIED_NO = re.compile(r"\bno\s+([^\W\d_]+(?:-[^\W\d_]+)*)", re.IGNORECASE)
_ALSO_QUANTIFIED = frozenset({"doubt"})
_QUANTIFIER = "nix"  # what a quantifying "no" is read as: it negates the one word after it
# same/different said of something: only of the compared things ("the same melody", not
# "the same rhythm"), or as a statement ("they are the same")
_ADJECTIVES = (_SAME - {"transposed", "transposition", "transpositions"}
               | _DIFFERENT - {"difference", "differences"})
# A yes/no word said as an answer: opening a sentence or clause, or closing one ("actually no").
_SAID = re.compile(r"(?:^|(?<=[.!?;:,\u2014\u2013(-])|(?<=\bactually)|(?<=\bwait))\s*"
                   r"(yes|yeah|yep|yup|no|nope|nah)\b|\b(yes|yeah|yep|yup|no|nope|nah)"
                   r"(?=\s*(?:[.!?;:,)\u2014\u2013]|\s-\s|$))", re.IGNORECASE | re.MULTILINE)
_NOUNS = frozenset("melody melodies tune tunes one ones line lines sequence intervals interval "
                   "contour pattern melodic".split())
# Words before a closing "same"/"different" that make it a statement: "they're the same".
_PREDICATE = frozenset("the are re is s not completely totally entirely quite very all two "
                       "clearly definitely".split())
_CONTRACTION = re.compile(r"n['\u2019]t\b")
_CLAUSE = re.compile(r"[,;:()\u2014\u2013]|\s-\s")
_NEGATORS = frozenset("not never t isn aren isnt arent neither nor".split())
_CONDITIONALS = frozenset("if whether unless".split())  # the rest of the clause is no answer
_UNCERTAIN = re.compile(r"\b(?:maybe|perhaps|possibly|unsure|uncertain|either|not\s+(?:\w+\s+)?"
                        r"(?:sure|certain)|can'?t\s+(?:tell|say)|cannot\s+(?:tell|say)|"
                        r"(?:not\s+able|unable)\s+to|hard\s+to|unclear|"
                        r"may|might|could)\b|\?", re.IGNORECASE)


@dataclass(frozen=True)
class YesNoPhrases:
    """Words that answer a yes/no question without a yes or a no, one token each ("out-of-key"
    is one), turned by a negation before them in their clause ("not identical", "doesn't
    modulate"). ``nouns`` are what the same/different words may qualify: "the same melody"
    answers "are these the same melody?", "the same rhythm" does not."""

    yes: frozenset[str] = frozenset()
    no: frozenset[str] = frozenset()
    nouns: frozenset[str] = frozenset()


def sameness(*compared: str) -> YesNoPhrases:
    """The phrases of a question whether two things are the same, called ``compared`` too
    ("rhythm", "progression") besides the melody words."""
    return YesNoPhrases(_SAME, _DIFFERENT, _NOUNS | frozenset(compared))


SAMENESS = sameness()  # "are these the same melody?"


def _phrase_polarity(words: list[str], phrases: YesNoPhrases) -> set[str]:
    """Answers named by same/different phrases ("the same melody", "not identical", "different
    melodies", "transposed"); "same rhythm" names nothing (a melody's part, not the melody).
    A negation turns the next such word of its clause ("I do not think they are the same")."""
    found: set[str] = set()
    negated = False
    for index, word in enumerate(words):
        if word in _CONDITIONALS:
            break  # "whether it modulates", "if they are the same": asked, not answered
        if word in _NEGATORS:
            negated = True
            continue
        if word in phrases.yes:
            answer = "yes"
        elif word in phrases.no:
            answer = "no"
        else:
            continue
        quantified = index > 0 and words[index - 1] == _QUANTIFIER  # "no difference"
        turned, negated = negated != quantified, False
        if word in _ADJECTIVES and not quantified:
            after = words[index + 1:index + 3]
            if after and not (set(after) & phrases.nouns):
                continue  # "same rhythm", "different key"
            before = words[index - 1] if index else ""
            if not after and index and before not in _PREDICATE:
                continue  # "I same": a stray word, not "they are the same"
        if turned:
            answer = "no" if answer == "yes" else "yes"
        found.add(answer)
    return found


def _sentence_answer(sentence: str, phrases: YesNoPhrases = SAMENESS
                     ) -> tuple[str | None, bool, str | None]:
    """(answer, opened by a yes/no word, reason when none) of one sentence."""
    words = _TOKEN.findall(sentence.casefold())
    if not words:
        return None, False, None
    stated = {("yes" if w in _YES else "no") for i, w in enumerate(words) if (w in _YES or w in _NO)
              and (i == 0 or words[i - 1] in _LEAD_IN)}
    bare = {w for w in words if w in ("yes", "no")}
    if len(stated | bare) > 1:
        return None, True, HEDGE  # "Yes or no", "Yes and no: ..."
    said: set[str] = set()  # what the sentence's answer phrases say
    plain = _CONTRACTION.sub(" not", sentence.casefold())  # "isn't" -> "is not"
    for clause in _CLAUSE.split(plain):  # a negation reaches to its clause's end
        said |= _phrase_polarity(_TOKEN.findall(clause), phrases)
    if len(stated) > 1 or len(stated | bare | said) > 1:
        return None, True, HEDGE  # "Different melodies or yes"
    if stated:
        (answer,) = stated
        if said - stated:
            return None, True, HEDGE  # "Yes, these are not the same melody."
        return answer, True, None
    if len(said) == 1:
        return next(iter(said)), False, None
    return None, False, (HEDGE if said else None)


def read_yes_no_span(text: str, source: str, phrases: YesNoPhrases = SAMENESS) -> tuple:
    """The yes/no one span commits to: its yes/no sentences agree, or its answer phrases
    (same/different...) do; a sentence opening with yes/no outranks reasoning sentences
    before it."""
    text = unicodedata.normalize("NFKC", text)[:_MAX_CHARS]
    if _UNCERTAIN.search(text):
        return None, "uncertain answer"
    quantified = phrases.yes | phrases.no | _ALSO_QUANTIFIED
    text = _QUANTIFIED_NO.sub(lambda m: f"{_QUANTIFIER} {m.group(1)}"
                              if m.group(1).casefold() in quantified else m.group(0), text)
    said = {"no" if (first or last).casefold() in _NO else "yes"
            for first, last in _SAID.findall(text)}
    if len(said) > 1:
        return None, HEDGE  # "Yes - actually no", "It's yes. No wait, no."
    opened: set[str] = set()
    stated: set[str] = set()
    for sentence in _SENTENCE.split(text):
        answer, has_opener, reason = _sentence_answer(sentence, phrases)
        if reason == HEDGE and has_opener:
            return None, HEDGE
        if answer is not None:
            (opened if has_opener else stated).add(answer)
    opened |= said
    if len(opened) > 1:
        return None, HEDGE
    if opened:
        (answer,) = opened
        if stated - opened:
            return None, HEDGE  # "Final Answer: Yes. They are different melodies."
        return answer, None, "yes_no_word"
    if len(stated) == 1:
        return next(iter(stated)), None, ("same_different" if phrases.yes is _SAME
                                           else "answer_phrase")
    return None, HEDGE if stated else "no yes/no answer"


def read_yes_no(text: str, phrases: YesNoPhrases = SAMENESS) -> Reading:
    """Whether a reply says the two melodies are the same ("yes") or not ("no"), read by
    :func:`read_reply`: "Yes, these are the same melody.", "Nope, ...", "Different melodies.",
    "Yes — same melody, transposed up a fourth." Never raises.

    Another question brings its own ``phrases``: :func:`sameness` for two rhythms or
    progressions, and for a question that is not whether two things are the same ("is a note
    out of key?") words of its own, never same/different: there "one note is different"
    means yes."""
    if not isinstance(text, str):
        return Reading(None, None, "no answer in the reply")
    return read_reply(text, partial(read_yes_no_span, phrases=phrases))


def extract_yes_no(text: str) -> str | None:
    """"yes", "no", or None: the answer of :func:`read_yes_no`."""
    return read_yes_no(text).answer
