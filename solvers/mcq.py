"""Output-based multiple-choice matching: which one option a free-text reply names.

MuChoMusic scores a reply by string matching: the option letter or the full option text, if
one and only one option is named. That rule is only as good as its reading of "named", and
the public implementation of it read letters out of words (the ``A`` of "Answer"). The rules
here are strict so that a reply is never credited with an option it did not commit to; when in
doubt the reply names nothing, which counts as an instruction-following failure, not a guess.

Rules, in order
---------------
1. **Where to look.** If the reply has answer-header lines (``Final Answer: ...`` anywhere in
   a line, or a line opening with ``Answer:``; markdown marks ignored; a header with an empty
   value takes the next line), only header values are read, the last one that names any option
   deciding. A reply with headers that name nothing names nothing (the model committed to an
   answer line and it was not an option). Without headers the whole reply is read.
2. **Option texts.** An option is named by its full text: its words (case-folded, NFKC,
   punctuation and quotes only separating words, accidentals kept: ``C#`` is one word) appear
   as a contiguous run of whole words. Partial texts do not count. Where matches overlap, the
   longer option text wins ("Latin rock" names *Latin rock*, not *rock*).
3. **Letters.** Letters inside a matched option text never count ("A minor", when that is an
   option's text, names that option, not option A). Elsewhere a letter counts only as a whole
   token: never inside a word ("Answer", "Bach", "DA"), never glued to a hyphen, apostrophe or
   accidental ("A-flat", "B's", "C#"), and never as a note name, i.e. a letter A-G followed by
   a pitch word such as major, minor, sharp, flat, chord, key (so "B minor" is a key, not a
   choice). A remaining option letter counts if it is
   * bracketed, any case: ``(B)``, ``[b]``;
   * the whole value, any case: a reply or header value that is just ``b`` or ``**B.**``;
   * upper-case and followed by ``)``, ``.`` or ``:`` (``B)``, ``B.``, ``B:``);
   * upper-case and cued by a preceding word: option, choice, answer, letter, choose, pick,
     select ("I choose A because ...", "Option A");
   * upper-case ``A`` when no word follows it or the next word cannot follow the article
     (or, and, because, is...): "A, since ...", "A or B"; but "A good guess is" names nothing;
   * upper-case ``I`` never otherwise (it is the pronoun: "I think ..." names nothing);
   * any other upper-case option letter.
4. **Exactly one.** The options named by texts and letters together must be one option (its
   letter and its own text may both appear: "B. Off-beat syncopation"). Two different options
   named ("A or B", "not A, it is B", "B. <text of C>") name none: the reply is ambiguous.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .answers import _answer_values as answer_header_values  # the project's one header reader

NO_OPTION = "no_option_named"
SEVERAL_OPTIONS = "several_options_named"

_MARKDOWN = re.compile(r"[*_`]+")
_WORD = re.compile(r"[^\W_]+[#\u266f\u266d\u266e]*")
_GLUE = r"\w'\u2019#\u266f\u266d\u266e-"  # what a letter may not touch: word, apostrophe...
_LETTER = re.compile(rf"(?<![{_GLUE}])([A-Za-z])(?![{_GLUE}])")
_PITCH_WORDS = frozenset(
    "major minor maj min sharp flat natural dim diminished aug augmented dominant dom "
    "seventh sus suspended chord chords key keys note notes scale string strings octave "
    "mode dorian phrygian lydian mixolydian aeolian locrian ionian pedal bass".split()
)
_CUES = frozenset("option options choice answer letter choose chose pick select is".split())
# Words that can follow the letter A but not the article "a": "A or B", "A because ...".
_AFTER_LETTER_A = frozenset("or and nor but because since is was seems fits matches vs versus "
                            "then than".split())


@dataclass(frozen=True)
class McqMatch:
    """The option a reply names (``letter``), or why none (``error_class``)."""

    letter: str | None
    named: tuple[str, ...]  # every option letter the read region named, in option order
    error_class: str | None


def _normalise(text: str) -> str:
    return _MARKDOWN.sub(" ", unicodedata.normalize("NFKC", text))


def _words(text: str) -> list[tuple[str, int, int]]:
    return [(m.group().casefold(), m.start(), m.end()) for m in _WORD.finditer(text)]


def _text_mentions(region: str, options: Mapping[str, str]) -> tuple[set[str], list[tuple]]:
    """Options named by full text, and the character spans those matches cover."""
    words = _words(region)
    tokens = [w for w, _, _ in words]
    found: list[tuple[int, int, str]] = []  # (first word, word count, letter)
    for letter, text in options.items():
        wanted = [w for w, _, _ in _words(_normalise(str(text)))]
        if not wanted:
            continue
        for start in range(len(tokens) - len(wanted) + 1):
            if tokens[start:start + len(wanted)] == wanted:
                found.append((start, len(wanted), letter))
    taken: set[int] = set()
    named: set[str] = set()
    spans: list[tuple[int, int]] = []
    for start, count, letter in sorted(found, key=lambda f: (-f[1], f[0])):
        covered = set(range(start, start + count))
        if covered & taken:
            continue  # inside a longer option's text
        taken |= covered
        named.add(letter)
        spans.append((words[start][1], words[start + count - 1][2]))
    return named, spans


def _previous_word(region: str, position: int) -> str:
    before = _words(region[:position])
    return before[-1][0] if before else ""


def _next_word(region: str, position: int) -> str:
    match = _WORD.search(region, position)
    if match is None or region[position:match.start()].strip(" \t"):
        return ""  # nothing, or punctuation before the next word
    return match.group().casefold()


def _letter_mentions(region: str, letters: Mapping[str, str], masked: list[tuple]) -> set[str]:
    named: set[str] = set()
    whole = [w for w, _, _ in _words(region)]
    for match in _LETTER.finditer(region):
        start, end = match.span(1)
        if any(a <= start < b for a, b in masked):
            continue
        raw = match.group(1)
        letter = letters.get(raw.upper())
        if letter is None:
            continue
        following = _next_word(region, end)
        if raw.upper() in "ABCDEFG" and following in _PITCH_WORDS:
            continue  # a note name: "B minor", "C sharp"
        before = region[:start].rstrip()
        after = region[end:].lstrip()
        bracketed = before.endswith(("(", "[")) and after.startswith((")", "]"))
        alone = whole == [raw.casefold()]
        if bracketed or alone:
            named.add(letter)
            continue
        if not raw.isupper():
            continue
        labelled = region[end:end + 1] in (")", ".", ":")
        cued = _previous_word(region, start) in _CUES
        if labelled or cued:
            named.add(letter)
        elif raw == "A" and following in ("", *_AFTER_LETTER_A):
            named.add(letter)  # "A, since ...", "A or B": not the article
        elif raw not in ("A", "I"):
            named.add(letter)
    return named


def _named_in(region: str, options: Mapping[str, str]) -> set[str]:
    region = _normalise(region)
    by_text, spans = _text_mentions(region, options)
    letters = {str(letter).upper(): letter for letter in options if len(str(letter)) == 1}
    return by_text | _letter_mentions(region, letters, spans)


def match_option(reply: str, options: Mapping[str, str]) -> McqMatch:
    """The one option ``reply`` names among ``options`` (letter -> text), by the module's rules.

    Never raises; a reply that is not text names nothing.
    """
    if not isinstance(reply, str) or not options:
        return McqMatch(None, (), NO_OPTION)
    headers, _last_line = answer_header_values(reply)
    regions: Sequence[str] = list(reversed(headers)) if headers else [reply]
    named: set[str] = set()
    for region in regions:
        named = _named_in(region, options)
        if named:
            break
    ordered = tuple(letter for letter in options if letter in named)
    if len(ordered) == 1:
        return McqMatch(ordered[0], ordered, None)
    return McqMatch(None, ordered, SEVERAL_OPTIONS if ordered else NO_OPTION)
