"""What a choice reader falls back on when no answer span names an option: an answer said in
words of the question's kind (a contour, a meter, which clip has more; :mod:`solvers.described`)
and an answer given by ruling every other option out (:mod:`solvers.elimination`).

Both only ever turn "no answer" into an answer: a reading already made, or a hedge, stands.
"""

from __future__ import annotations

import re
import unicodedata
from functools import partial

from .asking_back import unless_asking_back
from .choices import ChoiceReader
from .closing_inner import answer_inside_closing
from .counted_answers import counted_total, level_rank
from .described import DescribedReader
from .described_sentences import described_in_sentences
from .elimination import option_left
from .foreign_notes import in_english_modes
from .option_tails import option_ending
from .other_languages import in_english_markers
from .ranked_leans import unless_ranked
from .reply_excerpt import clean_markup, unify_line_breaks
from .reply_spans import EXPLICIT_SOURCES, FALLBACK_SOURCES, HEDGE, Reading, ValueReader, read_reply
from .ruled_out import asked_and_denied
from .ruled_then_named import named_after_ruled_out
from .typos import corrected

MAX_ELIMINATION_CHARS = 6000  # the elimination reads the whole reply: a long answer's size
WHOLE_REPLY = "whole_reply"  # the answer_source of an answer read from the reply as a whole
# "… make the answer (b).": a closing that names the answer after its reasons.
_ANSWER_MADE = re.compile(r"\b(?:make|makes|made|making)\s+(?:the|my)\s+(?:answer|choice)\s+"
                          r"(?P<value>\(?[A-Za-z]\)?|option\s+\(?[A-Za-z]\)?)\s*[.!]?\s*$")


def read_choice(reply: str, reader: ChoiceReader, described: ValueReader | None = None,
                spelt: bool = False) -> Reading:
    """``read_reply(reply, reader)``, else the described answer, else the option left;
    ``spelt`` when the reply is already the typo-corrected one (it is corrected once only)."""
    if isinstance(reply, str):
        reply = asked_and_denied(in_english_markers(in_english_modes(reply)), reader.named)
        # "答案是B。", "La respuesta es B.", "Ein Moll-Akkord.", "Triple? No. …" (not triple)
    reading = read_reply(reply, reader)
    if not isinstance(reply, str):
        return reading
    reading = unless_ranked(reading, reply, reader,  # "P(Major) = 0.35, P(Minor) = 0.65"
                            lambda leaned: read_choice(leaned, reader, described))
    if reading.answer is not None:
        total = counted_total(reply, reader)[0] if reading.source in FALLBACK_SOURCES \
            and len(reply) <= MAX_ELIMINATION_CHARS else None
        if total not in (None, reading.answer):  # "Four off-beat hits in total, which puts
            return Reading(None, reading.source, HEDGE, span=reading.span)  # it at medium-high"
        if len(reply) <= MAX_ELIMINATION_CHARS and (fixed := corrected(
                reply, option_words(reader))) != reply:  # "compond duple" is no "duple"
            spelt = read_reply(fixed, reader)
            if spelt.answer is not None and spelt.answer != reading.answer:
                return unless_asking_back(spelt, reply)
        return unless_asking_back(reading, reply)
    if (named := named_after_ruled_out(  # "Not major, not …: minor." (the options ruled out
            reply, reader, lambda rest: read_choice(rest, reader, described))) is not None:  # are
        return unless_asking_back(named, reply)  # no hedge)
    said = read_reply(reply, described) if described is not None else reading
    if said.via == "described" and isinstance(described, DescribedReader) \
            and said.answer in described.denied(reply):  # "The chord is not diminished — it
        said = Reading(None, said.source, "described answer denied", span=said.span)  # has …"
    if said.answer is None and HEDGE not in (said.error, reading.error) and described is not None \
            and (whole := described_in_sentences(reply, reader, described)) is not None:
        said = whole  # "The melody starts high, drops …, and climbs back up at the end."
    if said.answer is None and reading.error != HEDGE:
        said = read_reply(reply, partial(_answer_made, reader=reader))
    # A comparison names both clips ("Loop 1 is more syncopated than loop 2"), an elimination
    # every option: the option reader's hedge there is no hedge.
    if said.answer is not None and (reading.error != HEDGE or said.via == "comparison"):
        return unless_asking_back(said, reply)
    if reading.error != HEDGE and reading.source not in EXPLICIT_SOURCES \
            and len(reply) <= MAX_ELIMINATION_CHARS:
        total, alone = counted_total(reply, reader)  # "… so the loop holds two off-beat hits
        if total is not None and alone:  # in total."
            return unless_asking_back(Reading(total, "last_sentence", None, "counted_total"),
                                      reply)
        if (inner := answer_inside_closing(reply, reader)) is not None:  # "To my ear it is a
            return unless_asking_back(  # major chord, with …", "a bright triad (major), …"
                Reading(inner, "last_sentence", None, "inside_closing"), reply)
    # "diminshed", "Final Answer: Trumpt", "steel drum" (round 18); and a hedge only for want of
    # the word misspelt ("Compoud duple time 6/8" names duple and 6/8 until "compound" is read)
    # (once: the corrector may change what it already changed, and "\n" * 2000 recursed
    # until Python's recursion limit before round 24)
    if not spelt and len(reply) <= MAX_ELIMINATION_CHARS \
            and (fixed := corrected(reply, option_words(reader), numbers=True)) != reply:
        fixed_reading = read_choice(fixed, reader, described, spelt=True)
        if fixed_reading.answer is not None:
            return fixed_reading
    if reading.source in EXPLICIT_SOURCES:
        ending = option_ending(reading.span, reader.options) \
            if reading.span and reading.error != HEDGE else None  # "Final Answer: a drone"
        if ending is not None:
            return unless_asking_back(Reading(ending, reading.source, None, "option_ending",
                                              reading.span), reply)
        return reading  # a committed answer line that names nothing stays no answer
    if len(reply) > MAX_ELIMINATION_CHARS:
        return reading  # a reply read whole must be a reply's length (a megabyte is no answer)
    text = clean_markup(unify_line_breaks(unicodedata.normalize("NFKC", reply)))
    left = option_left(text, reader)
    if left is None:
        return reading
    return Reading(left, WHOLE_REPLY, None, "ruled_out_others", text)


def option_words(reader: ChoiceReader) -> set[str]:
    """Every word of the options' texts and aliases as the reader knows them."""
    return {word for texts in reader.by_first.values() for words, _letter in texts
            for word in words}


# "That leaves one option, the first.", "That's the last option.": an option named by its place
# in the list, as the closing statement of a span (never "It's not the last option.")
_PLACES = {"first": 0, "second": 1, "third": 2, "fourth": 3, "fifth": 4, "last": -1}
_OPTION_BY_PLACE = re.compile(
    r"^\W*(?:so,?\s+)?(?:that|it|this|which)\s*(?:['\u2019]s|\s+is|\s+leaves(?:\s+(?:only|just|us"
    r"\s+with))?(?:\s+(?:one|a\s+single)\s+(?:option|choice),?)?)\s+(?:only\s+)?the\s+"
    r"(?P<place>first|second|third|fourth|fifth|last)"
    r"(?:\s+(?:option|choice))?\s*[.!]?\s*$", re.IGNORECASE)


def _answer_made(text: str, source: str, reader: ChoiceReader) -> tuple:
    made = _ANSWER_MADE.search(text)
    if made is None:
        ranked = level_rank(text, reader)  # "That's the highest level offered."
        return (ranked, None, "level_rank") if ranked else _option_by_place(text, reader)
    return reader(made.group("value"), source)


def _option_by_place(text: str, reader: ChoiceReader) -> tuple:
    placed = _OPTION_BY_PLACE.match(text)
    named = placed is not None and (re.search(r"\b(?:option|choice)\b", text, re.IGNORECASE))
    if not named or placed.group("place").casefold() not in _PLACES:
        return None, "no answer made"
    letters = list(reader.options)
    index = _PLACES[placed.group("place").casefold()]
    return (letters[index], None, "option_place") if index < len(letters) else (
        None, "no answer made")
