"""Reading one answer span of a pitch question: the value readers given to ``read_reply``.

:mod:`solvers.reply_spans` finds where a reply commits to its answer; the readers here turn
one such span into a value of the question's kind, the way a careful grader reads it:

* **Explanations are cut off** and **hedges are no answer** (:mod:`solvers.span_text`): a
  span is split at "or", "either", "maybe", "/", …; if the parts give different answers the
  span is ``HEDGE`` ("up or down", "C4 or C#4", "3 or 4"); the same answer twice is that one.
* **Restatements must agree.** A pitch answer may restate itself in other notations:
  ``66 (F#4)``, ``C#4 = MIDI 61``, ``61 (C#4, 277.2 Hz)``. The answer is read in the asked
  notation; every restatement (SPN, a number after "MIDI", a number with a Hz unit) must name
  the same pitches (the same list, or a part of it in order), else the span is ``HEDGE`` —
  two different answers in one line. A restatement after "above/below/from/than" is a
  reference point, not a restatement. An answer only in another notation is read when its
  form names its notation (``F#4``, ``MIDI 60``, ``329.6 Hz``); a bare number never changes
  notation (``69`` asked in Hz is 69 Hz).
* **Signs.** "5 semitones lower", "down 5", "−5 (descending)" are −5: a direction word right
  next to the number signs it; one that contradicts a written sign is ``HEDGE``; a direction
  word elsewhere beside an unsigned number leaves the sign unknown (no answer).

Every reader returns ``(answer, None, via)``, ``(None, HEDGE)`` or ``(None, reason)``;
answers are hashable. Spans longer than ``MAX_SPAN_CHARS`` are no answer (linear time).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from .item_numbers import without_item_numbers
from .notation import (
    OCTAVE_FREE_NOTATIONS,
    ParsedPitch,
    has_decimal_comma,
    mask_spans,
    midi_to_hz,
    normalize_frequency_commas,
    normalize_pitch_text,
    number_as_pitch,
    solfege_mentions,
    spn_mentions,
)
from .pitch_forms import join_octave, self_named_notation, stated_clause
from .pitch_numbers import (
    find_integers,
    find_numbers,
    find_times,
    ordinal_word_integers,
)
from .pitch_phrases import spell_numbers, without_non_answers
from .pitch_words import read_contour
from .relative_pitches import names_vague_alternative, with_relative_pitches
from .reply_spans import FALLBACK_SOURCES, HEDGE
from .span_text import MAX_SPAN_CHARS, Result, read_alternatives

# --- Pitches -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class PitchAnswer:
    """Pitches as compared (MIDI notes, or pitch classes octave-free); frequencies as written."""

    keys: tuple[int, ...]
    freqs_hz: tuple[float, ...] = field(default=(), compare=False)
    cents_errors: tuple[float, ...] = field(default=(), compare=False)


_DIRECTIONS = ("above", "below", "from", "than", "over", "under")
_REFERENCE_WORDS = frozenset((*_DIRECTIONS, "of", "relative", "to"))
_PREVIOUS_WORD = re.compile(r"([A-Za-z]+)[\s(:,]*$")
_DIRECTION_ARTICLE = re.compile(rf"\b(?:{'|'.join(_DIRECTIONS)})\s+(?:the|a|an|that|this|our|my)"
                                r"[\s(:,]*$", re.IGNORECASE)
_PITCH_OF = re.compile(r"^(?!.*\b(?:above|below|from|than|over|under|relative|reference|given"
                       r"|tuned)\b).*\b(?:pitch|frequency|fundamental)\s+of\s*$", re.IGNORECASE)

_CHORD_AFTER = re.compile(r"\s*(?:chord|triad)\b", re.IGNORECASE)  # "a G7 chord" is no G7

_WORDS_BEFORE = re.compile(r"[A-Za-z]+(?:['\u2019][a-z]+)?")
_NEGATORS = frozenset("not never nor isn't isnt isn\u2019t".split())
_NEGATING_PAIRS = frozenset({("rather", "than"), ("instead", "of"), ("other", "than")})


# "compared with A4", "versus A4", "unlike the A4": the pitch a tone is measured against
_COMPARED_WITH = re.compile(r"\b(?:compared\s+(?:with|to)|in\s+comparison\s+(?:with|to)"
                            r"|versus|vs\.?|unlike)[\s(:,]*(?:the\s+)?$", re.IGNORECASE)
# "The reference is 69; …", "reference note: C4": the pitch named as the reference.
_NAMED_REFERENCE = re.compile(r"\breference(?:\s+(?:pitch|tone|note))?\s*(?:is|was|being|of|at|=|:)"
                              r"?\s*(?:the\s+)?(?:note\s+|tone\s+)?\(?$", re.IGNORECASE)


def _is_reference(text: str, start: int) -> bool:
    """A pitch written as a reference point ("above C4", "versus A4", "the reference is 69") or
    negated ("not 69", "rather than A4"): no answer and no restatement."""
    if _NAMED_REFERENCE.search(text[max(0, start - 40) : start]) or \
            _DIRECTION_ARTICLE.search(text[max(0, start - 30) : start]) or \
            _COMPARED_WITH.search(text[max(0, start - 30) : start]):
        return True
    before = _PREVIOUS_WORD.search(text[max(0, start - 30) : start])
    if before is not None and before.group(1).casefold() in _REFERENCE_WORDS and "," not in \
            before.group(0) and not _PITCH_OF.search(text[max(0, start - 40):start]) and \
            not _CLOSE_TO.search(text[max(0, start - 30):start]):
        return True  # "an octave above C4", never "a pitch of 440 Hz" (the pitch itself)
    words = [w.casefold() for w in _WORDS_BEFORE.findall(text[max(0, start - 30) : start])[-2:]]
    return bool(words) and (words[-1] in _NEGATORS or tuple(words) in _NEGATING_PAIRS)


# "closer to F4", "nearest to 65", "rounds to 440 Hz": the pitch approximated, no reference point
_CLOSE_TO = re.compile(r"\b(?:close|closer|closest|near|nearer|nearest|round(?:s|ed|ing)?)\s+to"
                       r"[\s(:,]*$", re.IGNORECASE)


# "so" is the syllable G unless a word follows it ("so the melody …", "so, I think …").
_SO_CONJUNCTION = re.compile(r"[\s,]+(?!(?:do|re|ré|mi|fa|sol|so|la|si|ti)\b)[A-Za-z]",
                             re.IGNORECASE)


def _solfege_primaries(text: str) -> list[ParsedPitch]:
    found = []
    for start, end, pitch in solfege_mentions(text):
        if text[start:end].casefold() == "so" and _SO_CONJUNCTION.match(text, end):
            continue
        if not _is_reference(text, start):
            found.append(pitch)
    return found


# A syllable standing alone as an item of the answer ("sol, MIDI 65", "MIDI 67 (sol)"): a
# restatement in another notation; inside prose ("I do think …") a syllable is a word.
_LIST_BEFORE = re.compile(r"(?:^|[:,(/;]|\b(?:or|and))\s*$", re.IGNORECASE)
_LIST_AFTER = re.compile(r"\s*(?:[,)/;]|$)")


def _standalone_solfege(text: str) -> list[ParsedPitch]:
    return [pitch for start, end, pitch in solfege_mentions(text)
            if _LIST_BEFORE.search(text[:start]) and _LIST_AFTER.match(text, end)]


def pitch_key(pitch: ParsedPitch, octave_free: bool) -> int:
    """What a pitch is compared by: its MIDI note, or its pitch class octave-free."""
    return pitch.pitch_class if octave_free or pitch.midi_note is None else pitch.midi_note


def _agrees(restated: list[int], answer: list[int], kind: str) -> bool:
    """Whether restatements name the answer: its pitches (any order for one pitch or a set), or
    an ordered part of a sequence; "A#4 / Bb4" restates one position twice."""
    if kind != "pitch_sequence":
        return set(restated) <= set(answer)
    collapsed = [key for i, key in enumerate(restated) if i == 0 or restated[i - 1] != key]
    for candidate in (restated, collapsed):
        found = iter(answer)
        if all(key in found for key in candidate):
            return True
    return False


_MIDI_WORD = re.compile(r"\bMIDI(?:[\s-]+(?:note|number|no|nr))?[\s.:#=-]*$", re.IGNORECASE)


def _midi_word_start(text: str, start: int) -> int:
    """Where "MIDI" (or "MIDI note") before the number at ``start`` begins."""
    found = _MIDI_WORD.search(text, max(0, start - 24), start)
    return start if found is None else found.start()


def pitch_mentions(text: str, notation: str) -> tuple[list[ParsedPitch], dict[str, list]]:
    """The pitches written in the asked notation, and restatements by the notation they use."""
    text = without_non_answers(spell_numbers(with_relative_pitches(normalize_pitch_text(text))))
    if notation in ("hz", "midi", "spn"):
        text = normalize_frequency_commas(text)
    spn = spn_mentions(text)
    numbers = find_numbers(mask_spans(text, spn))
    restated: dict[str, list] = {"spn": [], "midi": [], "hz": [], "solfege": []}
    spn = [(start, end, p) for start, end, p in spn if not _CHORD_AFTER.match(text, end)]
    if notation == "spn":
        primary = [pitch for start, _, pitch in spn if not _is_reference(text, start)]
    elif notation == "solfege":
        primary = _solfege_primaries(mask_spans(text, spn))
    else:
        primary = []
    if notation != "spn":
        restated["spn"] = [p for start, _, p in spn if not _is_reference(text, start)]
    if notation != "solfege":
        restated["solfege"] = _standalone_solfege(mask_spans(text, spn))
    for number in numbers:
        start = _midi_word_start(text, number.start) if number.says_midi else number.start
        if text[number.end : number.end + 1] == ":" or _is_reference(text, start):
            continue  # "higher than MIDI 60": the reference is looked for before "MIDI"
        unit = number.suffix or number.unit
        if number.says_midi:
            pitch, kind = number_as_pitch(number, "midi"), "midi"
        elif unit in ("hz", "khz"):
            pitch, kind = number_as_pitch(number, "hz"), "hz"
        elif notation in ("midi", "hz"):
            pitch, kind = number_as_pitch(number, notation), notation
        else:
            continue
        if pitch is None:
            continue
        if kind == notation:
            primary.append(pitch)
        else:
            restated[kind].append(pitch)
    return primary, restated


def prepared(text: str) -> str:
    """``text`` with tuning references, item numbers and octaves said apart resolved; the
    reference is blanked first: an explanation cut after it would drop the answer."""
    return text if len(text) > MAX_SPAN_CHARS else \
        without_item_numbers(without_non_answers(spell_numbers(join_octave(text))))


def pitch_reader(notation: str, kind: str) -> Callable[[str, str], Result]:
    """The span reader for a pitch, a pitch set or a pitch sequence in ``notation``."""
    octave_free = notation in OCTAVE_FREE_NOTATIONS

    def read_one(text: str) -> Result:
        if notation == "hz" and has_decimal_comma(normalize_frequency_commas(text)):
            return None, "a decimal comma without a unit (e.g. 261,63) is ambiguous"
        primary, restated = pitch_mentions(text, notation)
        asked = notation
        if not primary:
            asked = self_named_notation(restated, octave_free)
            if asked is None:
                return None, f"no pitch in {notation} notation in the answer"
            primary, restated = restated[asked], {**restated, asked: []}
        keys = [pitch_key(p, octave_free) for p in primary]
        vias = [asked]
        for other, pitches in restated.items():
            if not pitches:
                continue
            vias.append(other)
            if other == "solfege":  # no octave: it agrees by pitch class
                if not {p.pitch_class for p in pitches} <= {key % 12 for key in keys}:
                    return None, HEDGE
                continue
            if not _agrees([pitch_key(p, octave_free) for p in pitches], keys, kind):
                return None, HEDGE  # the answer restates itself as a different pitch
        in_hz = notation == asked == "hz"  # "A4" asked in Hz gives no frequency to score
        freqs = tuple(_frequency(p) for p in primary) if in_hz else ()
        cents = tuple(p.cents_error or 0.0 for p in primary) if in_hz else ()
        if kind == "pitch":
            if len(set(keys)) > 1:
                return None, HEDGE
            keys = keys[:1]
        elif kind == "pitch_set":
            keys = sorted(set(keys))
        return PitchAnswer(tuple(keys), freqs, cents), None, "+".join(vias)

    def _keys_named(text: str, bare: str | None = None) -> set[int]:
        """The pitches named in any notation; with ``bare``, bare numbers read in it too."""
        primary, restated = pitch_mentions(text, notation)
        named = [*primary, *restated["spn"], *restated["midi"], *restated["hz"]]
        if bare is not None and notation not in ("midi", "hz"):
            named += pitch_mentions(text, bare)[0]
        return {pitch_key(p, octave_free) for p in named}

    def read(text: str, source: str) -> Result:
        if source == "last_clause" and kind == "pitch" and len(_keys_named(prepared(text))) > 1:
            return None, HEDGE  # "It sounds like F3, which is MIDI 60.": two pitches said
        if kind == "pitch" and names_vague_alternative(prepared(text)):
            return None, HEDGE  # "middle C or the D right above it": the D is a second answer
        answer = _read_span(text, source)
        if answer[0] is not None and answer[2].split("+")[0] != notation and \
                not _keys_named(prepared(text), "midi") <= set(answer[0].keys):
            return None, HEDGE  # "E4, which is MIDI note 66." asked in MIDI: two pitches said;
        return answer  # "MIDI 60 or 61" asked in SPN: a bare number beside it is MIDI too

    def _read_span(text: str, source: str) -> Result:
        # the clause is found after the reference is blanked, so a reference said before the
        # predicate ("The reference note is E4; the tone below it is C#4.") is no other pitch
        stated = stated_clause(prepared(text)) if source in FALLBACK_SOURCES else None
        if stated is None:
            return read_alternatives(prepared(text), read_one, source=source)
        before, clause = stated  # "…, so my estimate is 72 (±1).": read from the predicate
        answer = read_alternatives(clause, read_one, source="stated")
        said_before = read_one(before)[0] if before.strip() else None
        if answer[0] is not None and said_before not in (None, answer[0]):
            return None, HEDGE  # "It's C4, but my estimate is 72."
        return answer
    return read


def _frequency(pitch: ParsedPitch) -> float:
    return midi_to_hz(pitch.midi_note + (pitch.cents_error or 0.0) / 100.0)


# --- Integers, ranks, times, words -------------------------------------------------------------

_UP = r"up|upward|upwards|higher|above|ascending|rising|sharp(?:er)?"
_DOWN = r"down|downward|downwards|lower|below|descending|falling|flat(?:ter)?"
_DIRECTION = re.compile(rf"\b(?:(?P<up>{_UP})|(?P<down>{_DOWN}))\b", re.IGNORECASE)
_INTERVAL_NAME = (r"(?:an?\s+)?(?:(?:perfect|major|minor|augmented|diminished)\s+)?(?:unison|"
                  r"second|third|fourth|fifth|sixth|seventh|octave|whole\s+(?:tone|step)|"
                  r"half\s+step|tone|[PMm][1-8])")
_UNIT_GAP = (r"[\s(,]*(?:semi-?tones?|half[\s-]?steps?|steps?|st)?[\s),]*"
             rf"(?:{_INTERVAL_NAME}[\s,]*)?(?:by\s+)?")
_NEGATED = re.compile(r"\b(?:not|no|never|isn't|nor)\s+$", re.IGNORECASE)
_REVERSED = re.compile(r"\bthan\s+the\s+(?:second|target|latter|last)\b", re.IGNORECASE)


def _adjacent_direction(text: str, start: int, end: int) -> tuple[int, set[int]]:
    """(sign of the direction words next to the number (2: unclear), signs named elsewhere)."""
    signs: set[int] = set()
    elsewhere: set[int] = set()
    for match in _DIRECTION.finditer(text):
        sign = 1 if match.group("up") else -1
        if _NEGATED.search(text[max(0, match.start() - 12) : match.start()]):
            return 2, {1, -1}  # "not higher": a grader does not guess
        after = re.fullmatch(_UNIT_GAP, text[end : match.start()]) if match.start() >= end else None
        before = re.fullmatch(r"[\s(]*(?:by\s+)?", text[match.end() : start]) if (
            match.end() <= start) else None
        (signs if after or before else elsewhere).add(sign)
    if len(signs) > 1:
        return 2, elsewhere
    return (signs.pop() if signs else 0), elsewhere


def _read_integer(text: str) -> Result:
    integers = find_integers(text)
    if integers is None:
        return None, "the answer holds a number that is not a plain integer"
    if len({w.value for w in integers}) > 1:
        return None, HEDGE
    if not integers:
        return None, "no integer in the answer"
    written = integers[0]
    numbers = find_numbers(text)
    direction, elsewhere = (0, {1} if _DIRECTION.search(text) else set()) if not numbers else (
        _adjacent_direction(text, numbers[0].start, numbers[0].end))
    if direction == 2 or _REVERSED.search(text):
        return None, "the direction of the interval is unclear"
    value = written.value
    if value and written.signed and any((sign > 0) != (value > 0) for sign in elsewhere):
        return None, HEDGE  # "+5, … descending": the words say the other sign
    if direction:
        if written.signed and value != 0 and (value > 0) != (direction > 0):
            return None, HEDGE  # "+7 descending": two answers
        return abs(value) * direction, None, "direction_word"
    if elsewhere and not written.signed and value != 0:
        return None, "a direction word not next to the number leaves its sign open"
    return value, None, "number" if numbers else "number_word"


def integer_reader(text: str, source: str) -> Result:
    return read_alternatives(text, _read_integer, source=source)


_HIGHEST_FIRST = re.compile(r"(?<![-=])>|\bhigh(?:est)?\s+(?:to|first|→)|\bfrom\s+the\s+highest\b",
                            re.IGNORECASE)


def _read_ranks(text: str) -> Result:
    if _HIGHEST_FIRST.search(text):
        return None, "the order is given highest first; the question asked lowest first"
    integers = find_integers(text, allow_ordinals=True)
    via = "numbers"
    if not find_numbers(text):
        integers, via = ordinal_word_integers(text), "ordinal_words"
    if not integers:
        return None, "no position numbers in the answer"
    ranks = tuple(w.value for w in integers)
    if sorted(ranks) != list(range(1, len(ranks) + 1)):
        return None, f"{list(ranks)} is not an ordering of the positions 1..{len(ranks)}"
    return ranks, None, via


def ranks_reader(text: str, source: str) -> Result:
    return read_alternatives(text, _read_ranks, source=source)


def _read_times(text: str) -> Result:
    times, via = find_times(text)
    if times is None:
        return None, "a timestamp is malformed or ambiguous (use MM:SS.cc)"
    if not times:
        return None, "no time in the answer"
    return tuple(round(t, 3) for t in times), None, via


def timestamps_reader(text: str, source: str) -> Result:
    return read_alternatives(text, _read_times, slash=False, source=source)


_LETTER_CONTOUR = re.compile(r"^[\s,;/\-\u2192>]*(?:[ud][\s,;/\-\u2192>]*)+$", re.IGNORECASE)


def _read_contour(text: str) -> Result:
    if _LETTER_CONTOUR.match(text):
        steps = tuple("up" if c in "uU" else "down" for c in text if c in "uUdD")
        return steps, None, "letters"
    steps, why = read_contour(text)
    if steps is None:
        return None, why or "no contour"
    return tuple(steps), None, "words"


def contour_reader(text: str, source: str) -> Result:
    return read_alternatives(text, _read_contour, prose_run=2, source=source)
