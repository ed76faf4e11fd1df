"""A short reply that describes its answer in a long sentence: "The melody starts high, drops to
its lowest note in the middle, and climbs back up at the end." (the inverted arch), "Based on
the audio, the melody is played by a reed instrument with a breathy, jazzy tone." (the
saxophone). The answer spans of :mod:`solvers.reply_spans` read such a sentence by its opening
clause or its last, never whole; a description is said by the whole (docs/reading.md, round 24).

Read only when no span read an answer or a hedge, and only of a short reply (a few sentences):
each sentence is read whole by the described-answer reader (:mod:`solvers.described`), every
sentence that reads an answer must read the same one, none may be a hedge, no option besides it
may be named in a sentence that describes nothing (nor, unless ruled out, in one that does),
nothing may turn, correct or doubt ("but", "actually", "though"), and
the reply may not be cut off mid-sentence (:mod:`solvers.cut_off`). A last sentence answering
"the other one" is read with the sentences before it, which name the one it is the other of.
"""

from __future__ import annotations

import re
import unicodedata

from .choices import ChoiceReader, options_named
from .clip_comparison import OTHER_ONE
from .cut_off import cut_before_answer
from .reply_excerpt import clean_markup, unify_line_breaks
from .reply_spans import HEDGE, Reading, ValueReader

MAX_CHARS = 600  # a few sentences: a long reasoning is not mined for descriptions
MAX_SENTENCES = 4
SOURCE = "described_sentence"
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
_TURN = re.compile(r"\b(?:but|however|though|although|yet|actually|wait|hmm+|instead|except"
                   r"|otherwise|alternatively|unless|if|or|maybe|perhaps|possibly|probably"
                   r"|might|could|unsure|not\s+sure)\b|\?", re.IGNORECASE)


def described_in_sentences(reply: str, reader: ChoiceReader, described: ValueReader
                           ) -> Reading | None:
    """The one answer the reply's sentences describe, each read whole, or None (module doc)."""
    if len(reply) > 2 * MAX_CHARS:  # before the markup is cleaned: that is not linear
        return None
    text = clean_markup(unify_line_breaks(unicodedata.normalize("NFKC", reply))).strip()
    if not text or len(text) > MAX_CHARS or _TURN.search(text):
        return None
    sentences = [s.strip() for s in _SENTENCE_END.split(text) if s.strip()]
    if len(sentences) > MAX_SENTENCES:
        return None
    answers: set[str] = set()
    named: set[str] = set()  # options named in sentences that describe nothing
    for sentence in sentences:
        answer, why, *_ = described(sentence, SOURCE)
        if why == HEDGE:
            return None
        if answer is not None:  # (the described reader vetoes another option named beside it
            answers.add(answer)  # unless it is ruled out: "The chord is not major — it has …")
        else:
            named |= set(options_named(sentence, reader))
    if len(sentences) > 1 and OTHER_ONE.search(sentences[-1]):
        answer, why, *_ = described(" ".join(sentences), SOURCE)  # "The second loop is
        if answer is None:  # straight. So the answer is the other one."
            return None  # (a hedge when a sentence before says that one has more)
        answers.add(answer)
        named -= set(reader.options) - answers  # the one it is the other of is named, as it must
    if len(answers) != 1 or named - answers:
        return None
    answer = answers.pop()
    if cut_before_answer(text, answer, lambda tail: described(tail, SOURCE)[0]):
        return None  # "The melody rises at first and then": cut off mid-description
    return Reading(answer, SOURCE, None, "described", text)
