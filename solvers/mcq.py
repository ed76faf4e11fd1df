"""Output-based multiple-choice matching: which one option a free-text reply commits to.

MuChoMusic scores a reply by string matching: the option letter or the full option text, if
one and only one option is named. That rule is only as good as its reading of "named", and
the public implementation of it read letters out of words (the ``A`` of "Answer") and note
names as letters ("the tonal centre is A with a flat third"). Here a reply is read like any
other choice of the benchmark: :func:`solvers.reply_spans.read_reply` finds where the reply
commits to an answer (a ``Final Answer`` line, ``\\boxed{}``, JSON, "The answer is ...", a
short last line), and :class:`solvers.choices.ChoiceReader` reads the option there, by its
letter or its full text, with the letter rules written there (never out of a word, never a
note name, "I" the pronoun, "a" the article). Two different options there are a hedge
(``hedged_answer``); none is ``no_option_named``, an instruction-following failure, not a guess.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .choice_fallbacks import read_choice
from .choices import ChoiceReader, options_named
from .described import described_reader
from .instrument_families import INSTRUMENT_FAMILIES, Families
from .reply_spans import HEDGE

NO_OPTION = "no_option_named"
HEDGED = "hedged_answer"
SEVERAL_OPTIONS = HEDGED  # older name of the class of a reply naming two or more options


@dataclass(frozen=True)
class McqMatch:
    """The option a reply names (``letter``), or why none (``error_class``); where it was read
    (``source``) and how (``via``: ``letter`` or ``option_text``)."""

    letter: str | None
    named: tuple[str, ...]  # every option letter the deciding span named, in option order
    error_class: str | None
    source: str | None = None
    via: str | None = None


def match_option(reply: str, options: Mapping[str, str],
                 families: Families = INSTRUMENT_FAMILIES) -> McqMatch:
    """The one option ``reply`` commits to among ``options`` (letter -> text); ``families``
    the instrument families a reply may name instead (:mod:`solvers.instrument_families`).

    Never raises; a reply that is not text names nothing.
    """
    if not isinstance(reply, str) or not options:
        return McqMatch(None, (), NO_OPTION)
    reader = ChoiceReader(options)
    reading = read_choice(reply, reader, described_reader(reader, families=families))
    if reading.answer is not None:
        return McqMatch(reading.answer, (reading.answer,), None, reading.source, reading.via)
    named = tuple(options_named(reading.span, reader)) if reading.span else ()
    if reading.error == HEDGE:
        return McqMatch(None, named, HEDGED, reading.source)
    return McqMatch(None, named, NO_OPTION, reading.source)
