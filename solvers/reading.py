"""The public reading API: read a reply to any question whose options, aliases and phrases are
given as data, with the same rules eartest scores its own tasks by (docs/reading.md).

Each ``*_reader`` function takes the question's data once and returns a function of the reply
text that returns a :class:`~solvers.reply_spans.Reading` (``.answer``, or ``.error`` saying
why none: ``"hedge"`` for two different answers). Every eartest family reads through these, so
a user's question with other letters or other wording is read exactly as eartest's own.

* :func:`choice_reader` — lettered options; aliases keyed by the option's **text** (or letter),
  so one alias table serves every lettering of the same options.
* :func:`yes_no_reader` — "yes"/"no" questions; :func:`sameness` and :class:`YesNoPhrases` say
  which words answer it besides yes and no.
* :func:`lettered_yes_no_reader` — a yes/no question whose answers are lettered options
  ("A. Yes, a key modulation occurs." / "B. No, ..."): reads the letter, the option text, or a
  yes/no answer, and returns the option's letter.
* :func:`pitch_answer_reader` — pitches, integers, timestamps, contours, ranks and pitch
  choices, as the pitch family scores them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import partial

from .answers import SAMENESS, YesNoPhrases, read_yes_no_span, sameness
from .asking_back import unless_asking_back
from .choice_fallbacks import MAX_ELIMINATION_CHARS, read_choice
from .choices import ChoiceReader, options_named
from .contradiction import unless_contradicted
from .counted_answers import CountChoiceReader, counts_of
from .described import described_reader
from .instrument_families import INSTRUMENT_FAMILIES, Families
from .other_languages import in_english_yes_no
from .pitch_scoring import read_pitch_reply, span_reader
from .ranked_leans import unless_ranked
from .reply_spans import HEDGE, Reading, read_reply
from .restated_questions import answered_restated
from .sameness_phrases import sameness_question, undenied_sameness
from .typos import corrected

__all__ = ["HEDGE", "INSTRUMENT_FAMILIES", "SAMENESS", "Reading", "YesNoPhrases", "choice_reader",
           "letter_aliases", "lettered_yes_no_reader", "pitch_answer_reader", "sameness",
           "yes_no_reader"]

ReplyReader = Callable[[str], Reading]
AliasTable = Mapping[str, Iterable[str]]  # option text (or letter) -> other names a grader accepts
_NONE = Reading(None, None, "no answer in the reply")
_HEAD = re.compile(r"\s*\(.*$")  # "Ascending (pitch raises over time)" is keyed "Ascending"


def letter_aliases(options: Mapping[str, str], aliases: AliasTable | None) -> dict[str, str]:
    """``{alias: letter}`` for the options present: a table keyed by an option's text
    (case-insensitive, with or without its parenthesis) or letter; entries for options this
    question does not offer are left out, so a table written for eartest's options serves
    MUSE's own lettering too."""
    letter_of = {_HEAD.sub("", str(text)).casefold(): letter for letter, text in options.items()}
    letter_of |= {str(text).casefold(): letter for letter, text in options.items()}
    letter_of |= {str(letter).casefold(): letter for letter in options}
    table: dict[str, str] = {}
    for key, names in (aliases or {}).items():
        letter = letter_of.get(str(key).casefold())
        if letter is not None:
            table |= {name: letter for name in names}
    return table


def choice_reader(options: Mapping[str, str], aliases: AliasTable | None = None,
                  more: str | None = None, families: Families = INSTRUMENT_FAMILIES
                  ) -> ReplyReader:
    """Reads which of ``options`` ({"A": "Major", ...}) a reply commits to; ``aliases``
    ({"Dominant": ("dom7", "dominant seventh")}) are further names of an option; ``more``
    ("syncopated") the property a question of two clips asks which has more of; ``families``
    ({"brass": (said, members)}, regular expressions) the instrument families a reply may name
    instead of an option (:data:`~solvers.instrument_families.INSTRUMENT_FAMILIES`)."""
    if not options:
        raise ValueError("a choice question needs options")
    kind = CountChoiceReader if counts_of(options) else ChoiceReader  # "2 (Low …)", "4 (…)"
    reader = kind(options, letter_aliases(options, aliases))
    described = described_reader(reader, more, families)
    return lambda reply: read_choice(reply, reader, described) if isinstance(reply, str) \
        else _NONE


def yes_no_reader(phrases: YesNoPhrases = SAMENESS) -> ReplyReader:
    """Reads "yes" or "no": yes/no words, and the question's own ``phrases`` turned by a
    negation in their clause (:func:`sameness` for "are these the same ...?")."""
    read_span = partial(read_yes_no_span, phrases=phrases)
    return _yes_no_reply_reader(read_span, phrases.yes | phrases.no | phrases.nouns,
                                _rewrite(phrases, read_span))


def _rewrite(phrases: YesNoPhrases, said: Callable[[str, str], tuple]) -> Callable[[str], str]:
    """What a yes/no reply is read as: a restated question's word as the answer to the asked
    one ("Oddball present? Yes" is "No"), a difference denied twice as sameness (round 24),
    another language's opening yes or no in English ("Sí, …" is "Yes, …"; round 26)."""
    of_sameness = sameness_question(phrases.no)
    return lambda reply: answered_restated(
        undenied_sameness(in_english_yes_no(reply)) if of_sameness
        else in_english_yes_no(reply), said)


def _yes_no_reply_reader(read_span: Callable[[str, str], tuple], words: Iterable[str],
                         rewrite: Callable[[str], str]) -> ReplyReader:
    """A yes/no reply reader by ``read_span``, of the reply as ``rewrite`` says it; where it
    finds no answer and no hedge, it reads the reply with its misspelt answer ``words`` written
    right ("the same drum rythm"; :mod:`solvers.typos`)."""
    vocabulary = frozenset(words)

    def read(reply: str) -> Reading:
        reply = rewrite(reply)
        return unless_asking_back(unless_ranked(unless_contradicted(
            read_reply(reply, read_span), reply, read_span), reply, read_span, read), reply)

    def reader(reply: str) -> Reading:
        if not isinstance(reply, str):
            return _NONE
        reading = read(reply)
        if reading.answer is not None or reading.error == HEDGE \
                or len(reply) > MAX_ELIMINATION_CHARS:
            return reading
        fixed = corrected(reply, vocabulary)
        spelt = read(fixed) if fixed != reply else reading
        return spelt if spelt.answer is not None else reading

    return reader


_OPENING_WORD = re.compile(r"\W*([^\W\d_]+)")
_LETTERS = re.compile(r"[^\W\d_]+")


def lettered_yes_no_reader(options: Mapping[str, str], phrases: YesNoPhrases = SAMENESS,
                           aliases: AliasTable | None = None) -> ReplyReader:
    """Reads a yes/no question offered as lettered options, returning the option's letter.

    Which option is yes and which no is taken from each option's opening word ("Yes, ..." /
    "No, ..."). A span is read both ways, by letter or option text and as a yes/no answer;
    the two must agree ("B. No, ..." is B; "B. Yes" is a hedge).
    """
    polarity = {letter: word.casefold() for letter, text in options.items()
                if (word := _opening_word(text)) in ("yes", "no")}
    letter_of = {answer: letter for letter, answer in polarity.items()}
    if set(letter_of) != {"yes", "no"} or len(polarity) != len(options):
        raise ValueError(f"the options {dict(options)!r} must be one 'Yes, ...' and one 'No, ...'")
    choose = ChoiceReader(options, letter_aliases(options, aliases))
    say = partial(read_yes_no_span, phrases=phrases)

    def read_span(text: str, source: str) -> tuple:
        letter, letter_reason, *via = choose(text, source)
        said, said_reason, *_ = say(text, source)
        if HEDGE in (letter_reason, said_reason):
            return None, HEDGE
        if letter is not None and said is not None and letter_of[said] != letter:
            return None, HEDGE
        if letter is not None:
            return letter, None, *(via or ["letter"])
        if said is not None:
            if set(options_named(text, choose)) - {letter_of[said]}:
                return None, HEDGE  # "No. A": the words and a letter disagree
            return letter_of[said], None, "yes_no"
        return None, letter_reason or said_reason

    words = {word for text in options.values() for word in _LETTERS.findall(str(text))}
    return _yes_no_reply_reader(read_span, phrases.yes | phrases.no | phrases.nouns | words,
                                _rewrite(phrases, say))


def _opening_word(text: str) -> str:
    match = _OPENING_WORD.match(str(text))
    return match.group(1).casefold() if match else ""


def pitch_answer_reader(kind: str, notation: str | None = None, options: Sequence[str] = (),
                        option_pitches: Sequence[int] = ()) -> ReplyReader:
    """Reads a pitch-family answer of ``kind`` ("pitch", "pitch_set", "pitch_sequence",
    "integer", "timestamps", "contour", "ranks", "choice") in ``notation`` ("midi", "spn",
    "hz", ...); the answer is a :class:`~solvers.pitch_reading.PitchAnswer` for the pitch kinds.
    ``option_pitches`` are the MIDI notes behind lettered pitch options, if any."""
    read_span = span_reader(kind, notation, tuple(options), tuple(option_pitches))
    return lambda reply: read_pitch_reply(reply, read_span, notation, kind) \
        if isinstance(reply, str) else _NONE
