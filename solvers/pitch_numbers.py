"""Numbers and times in answer text: MIDI numbers, frequencies, integers, ranks, timestamps.

One scanner finds every number a model wrote, together with the context that decides what it is
(its sign, a unit glued to it or written after it, the word before it), so each answer kind can
keep only the numbers it asked for instead of guessing. Only ASCII digits count (full-width
digits are mapped by NFKC upstream).

Decisions (documented once, here):

* A sign counts only where it starts a number ("-3", "(−3)", "+7"); in "60-64" the dash
  separates two numbers. The minus may be ASCII "-" or U+2212 "−".
* Commas always separate numbers (never a decimal comma: "60,64,67" is three MIDI notes).
* Numbers that are parts of a clock time ("01:02.50") are not numbers; see the timestamp
  readers for those.
* Integers may be written as English number words zero to twenty ("seven", "minus three"), but
  only when the answer holds no digits at all: "3 (one repeated)" reads as 3 and 1, never as
  a sentence pronoun guessed away.
* Timestamps are read as ``M:SS``, ``MM:SS.cc`` or ``H:MM:SS.cc`` and as seconds with an
  explicit unit ("12.5 s", "12.5 seconds", "2500 ms"). ``parse_timestamp`` of a lone bare
  number ("12.5") says it is no time; an answer to a question that asked for times
  (:func:`find_times`) is read as seconds when it writes no clock time ("1.5, 2.75").
  A clock time followed by a decimal comma ("00:02,50") is ambiguous and rejected.
* A whole-valued decimal is that integer ("+7.0" is 7); "7.5" is no integer.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import NamedTuple

_MINUS_SIGNS = "-\u2212"
_NUMBER = re.compile(
    r"(?:(?<![\w.:+\-\u2212])(?P<sign>[+\-\u2212])|(?<![\w.:]))"
    r"(?P<digits>[0-9]+(?:\.[0-9]+)?)"
    r"(?P<suffix>%|[^\W\d_]*)"
    r"(?!\w|[.:][0-9])"
)
_NEXT_WORD = re.compile(r"\s*(?P<word>[^\W\d_]+)")
_MAX_DIGITS = 12  # far beyond any answer; keeps float()/int() away from absurd strings


@dataclass(frozen=True)
class NumberToken:
    """One number as written: ``sign`` is +1/-1 when written, 0 when unsigned.

    ``suffix`` is what is glued to the digits ("Hz" in "440Hz", "th" in "7th"), ``unit`` the
    word right after a space ("hz" in "440 Hz"), ``previous_word`` the word before ("minus" in
    "minus 3") and ``says_midi`` whether "MIDI", "MIDI note" or "MIDI number" comes right
    before; text fields case-folded.
    """

    value: float
    sign: int
    has_fraction: bool
    suffix: str
    unit: str
    previous_word: str
    says_midi: bool
    start: int
    end: int

    @property
    def signed_value(self) -> float:
        return -self.value if self.sign < 0 else self.value

    @property
    def is_whole(self) -> bool:
        """Written as an integer: no fraction part at all (so "60.0" is not)."""
        return not self.has_fraction


def normalize_text(text: str) -> str:
    """NFKC form: full-width digits and colons become ASCII, accents compose."""
    return unicodedata.normalize("NFKC", text)


_WORD_BEFORE_LIMIT = 40  # characters looked back for the word before a number


def _word_before(text: str, end: int, separators: str) -> tuple[str, int]:
    """The letters-only word ending right before ``end`` (separators skipped), case-folded,
    and where it starts; scans at most ``_WORD_BEFORE_LIMIT`` characters back (linear time)."""
    limit = max(0, end - _WORD_BEFORE_LIMIT)
    index = end
    while index > limit and text[index - 1] in separators:
        index -= 1
    start = index
    while start > limit and text[start - 1].isalpha():
        start -= 1
    return text[start:index].casefold(), start


def _says_midi(text: str, end: int) -> bool:
    """Whether "MIDI", "MIDI note", "MIDI number", "MIDI no." comes right before ``end``."""
    word, start = _word_before(text, end, " \t\r\n.:#=-")
    if word in ("note", "number", "no", "nr"):
        word, _ = _word_before(text, start, " \t\r\n-")
    return word == "midi"


def find_numbers(text: str) -> list[NumberToken]:
    """Every number written in text, in order, with its sign, units and preceding word."""
    found: list[NumberToken] = []
    for match in _NUMBER.finditer(text):
        digits = match.group("digits")
        if len(digits) > _MAX_DIGITS:
            continue
        sign_text = match.group("sign") or ""
        sign = 0 if not sign_text else (-1 if sign_text in _MINUS_SIGNS else 1)
        suffix = match.group("suffix").casefold()
        unit = ""
        if not suffix:
            following = _NEXT_WORD.match(text, match.end())
            unit = following.group("word").casefold() if following else ""
        previous_word, word_start = _word_before(text, match.start(), " \t\r\n:#=")
        found.append(
            NumberToken(
                value=float(digits),
                sign=sign,
                has_fraction="." in digits,
                suffix=suffix,
                unit=unit,
                previous_word=previous_word,
                says_midi=_says_midi(text, match.start()),
                start=match.start(),
                end=match.end(),
            )
        )
    return found


# --- Integers ----------------------------------------------------------------------------------

NUMBER_WORDS: dict[str, int] = {
    word: value
    for value, word in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
        "fifteen sixteen seventeen eighteen nineteen twenty".split()
    )
}
_SIGN_WORDS = {"minus": -1, "negative": -1, "plus": 1, "positive": 1}
# Units after which a number is not a plain count or semitone figure ("1 octave" is not 1).
NON_INTEGER_UNITS = frozenset(
    "octave octaves cent cents hz khz s sec secs second seconds ms millisecond milliseconds "
    "db bpm %".split()
)
_ORDINAL_SUFFIXES = frozenset({"st", "nd", "rd", "th"})
_WORD_NUMBER = re.compile(
    r"(?<![^\W\d_])(?:(?P<sign>minus|negative|plus|positive)[\s-]+)?"
    rf"(?P<word>{'|'.join(sorted(NUMBER_WORDS, key=len, reverse=True))})(?![^\W\d_])",
    re.IGNORECASE,
)
_UP_WORDS = frozenset("up upward upwards ascending ascend ascends rising rises".split())
_DOWN_WORDS = frozenset("down downward downwards descending descend descends falling falls".split())
_WORDS = re.compile(r"[^\W\d_]+")


class WrittenInteger(NamedTuple):
    """An integer as read, and whether its sign was written ("+7", "−3", "minus three")."""

    value: int
    signed: bool


def find_integers(text: str, allow_ordinals: bool = False) -> list[WrittenInteger] | None:
    """The integers written in text, in order; None if a number there is not a plain integer.

    A number with a fraction ("7.5"; "7.0" is 7), a unit that makes it no plain integer
    ("1 octave", "50 cents") or a glued suffix ("7th", unless ``allow_ordinals``) makes the
    whole reading None, so it cannot be mistaken for a different integer. "minus 3" and
    "−3" are -3. Number words count only when no digit is written.
    """
    numbers = find_numbers(normalize_text(text))
    if not numbers:
        return _word_integers(normalize_text(text))
    values: list[WrittenInteger] = []
    for number in numbers:
        ordinal = allow_ordinals and number.suffix in _ORDINAL_SUFFIXES
        if number.value != int(number.value) or (number.suffix and not ordinal):
            return None
        if number.unit in NON_INTEGER_UNITS:
            return None
        sign = number.sign or _SIGN_WORDS.get(number.previous_word, 0)
        values.append(WrittenInteger(int(number.value) * (-1 if sign < 0 else 1), sign != 0))
    return values


ORDINAL_WORDS: dict[str, int] = {
    word: value
    for value, word in enumerate(
        "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth".split(),
        start=1,
    )
}
_ORDINAL_WORD = re.compile(rf"(?<![^\W\d_])(?:{'|'.join(ORDINAL_WORDS)})(?![^\W\d_])", re.I)


def ordinal_word_integers(text: str) -> list[WrittenInteger]:
    """Ranks written as ordinal words ("third, first, second"), in order."""
    return [WrittenInteger(ORDINAL_WORDS[m.group().casefold()], False)
            for m in _ORDINAL_WORD.finditer(normalize_text(text))]


def _word_integers(text: str) -> list[WrittenInteger]:
    values = []
    for match in _WORD_NUMBER.finditer(text):
        sign = _SIGN_WORDS.get((match.group("sign") or "").casefold(), 0)
        value = NUMBER_WORDS[match.group("word").casefold()]
        values.append(WrittenInteger(-value if sign < 0 else value, sign != 0))
    return values


def direction_sign(text: str) -> int | None:
    """+1 / -1 if the text names one melodic direction (up / down words), 0 if none, None if both.

    Used to sign an unsigned interval ("7 semitones down" is -7).
    """
    words = {word.casefold() for word in _WORDS.findall(text)}
    up, down = bool(words & _UP_WORDS), bool(words & _DOWN_WORDS)
    if up and down:
        return None
    return 1 if up else (-1 if down else 0)


# --- Timestamps --------------------------------------------------------------------------------

_CLOCK = (
    r"(?<![\w.:])(?:(?P<hours>[0-9]+):(?=[0-9]{2}:))?(?P<minutes>[0-9]{1,3}):"
    r"(?P<seconds>[0-9]{2}(?:\.[0-9]+)?)(?![0-9]|\.[0-9]|:[0-9])"
)
_UNIT_SECONDS = (
    r"(?<![\w.:])(?P<amount>[0-9]+(?:\.[0-9]+)?)\s*"
    r"(?P<unit>seconds|second|secs|sec|s|milliseconds|millisecond|ms)(?![^\W\d_])"
)
_TIMESTAMP = re.compile(rf"{_CLOCK}|{_UNIT_SECONDS}", re.IGNORECASE)
_DECIMAL_COMMA_CLOCK = re.compile(r"[0-9]:[0-9]{2},[0-9]+(?![0-9]*:)")


def _timestamp_seconds(match: re.Match[str]) -> float | None:
    if match.group("amount") is not None:
        amount = float(match.group("amount"))
        return amount / 1000.0 if match.group("unit").casefold().startswith("m") else amount
    minutes = int(match.group("minutes"))
    seconds = float(match.group("seconds"))
    if seconds >= 60.0:
        return None
    if match.group("hours") is not None:
        if minutes >= 60:
            return None
        minutes += 60 * int(match.group("hours"))
    return 60.0 * minutes + seconds


def find_timestamps(text: str) -> list[float] | None:
    """Every timestamp in text, in seconds and in order; None if one is malformed or ambiguous."""
    text = normalize_text(text)
    if _DECIMAL_COMMA_CLOCK.search(text):
        return None
    times: list[float] = []
    for match in _TIMESTAMP.finditer(text):
        seconds = _timestamp_seconds(match)
        if seconds is None:
            return None
        times.append(seconds)
    return times


_SECOND_UNITS = frozenset("s sec secs second seconds".split())
_MILLISECOND_UNITS = frozenset("ms millisecond milliseconds".split()) | {"ms"}
# Words before a number that make it an index or a length, not a time ("note 2", "lasting 1.2").
_NOT_TIME_BEFORE = frozenset(
    "note notes tone tones event events segment sound pair number no nr".split()
)
_DURATION_BEFORE = frozenset("lasting lasts last duration length for".split())
_LONG_AFTER = re.compile(r"\s*(?:[^\W\d_]+\s+)?long\b", re.IGNORECASE)
_RANGE_GAP = re.compile(r"\s*(?:-|\u2013|\u2014|to|until|and)\s*$", re.IGNORECASE)


def find_times(text: str) -> tuple[list[float] | None, str]:
    """Times in an answer that was asked for times, and how they were written.

    Clock times ("00:01.50") win when there are any (other numbers are then labels or notes);
    otherwise numbers with a seconds unit and bare numbers are seconds ("1.5, 2.75", "Onset:
    1.5 s"), a bare number joined to a timed one by a range ("1500-2750 ms") taking its unit.
    Numbers that label ("Note 1:", "note 2") or measure ("lasting 1.2 s") are skipped.
    Returns (None, reason) for a malformed or negative time.
    """
    text = normalize_text(text)
    clocks = [m for m in _TIMESTAMP.finditer(text) if m.group("amount") is None]
    if _DECIMAL_COMMA_CLOCK.search(text):
        return None, "clock"
    if clocks:
        clock_times = [_timestamp_seconds(match) for match in clocks]
        if any(seconds is None for seconds in clock_times):
            return None, "clock"
        return [float(seconds) for seconds in clock_times if seconds is not None], "clock"
    times: list[float] = []
    pending: list[NumberToken] = []  # bare numbers waiting for a unit across a range
    bare: list[int] = []  # indexes of times written without a unit
    units: set[str] = set()
    last_unit = ""
    via = "seconds_unit"
    for number in find_numbers(text):
        unit = number.suffix or number.unit
        if number.sign < 0:
            return None, "negative time"
        if number.previous_word in _DURATION_BEFORE or _LONG_AFTER.match(text, number.end):
            return None, "a duration is no onset or offset"
        if unit in _SECOND_UNITS or unit in _MILLISECOND_UNITS:
            scale = 0.001 if unit in _MILLISECOND_UNITS else 1.0
            units.add("ms" if scale < 1.0 else "s")
            last_unit = "ms" if scale < 1.0 else "s"
            gap = text[pending[-1].end : number.start] if pending else ""
            if pending and _RANGE_GAP.fullmatch(gap):
                times[-1] = pending[-1].value * scale
                bare.pop()
            pending = []
            times.append(number.value * scale)
            continue
        if number.suffix or number.unit in NON_INTEGER_UNITS:
            pending = []
            continue
        if text[number.end : number.end + 1] == ":" or number.previous_word in _NOT_TIME_BEFORE:
            continue
        via = "bare_seconds"
        times.append(number.value)
        pending.append(number)
        bare.append(len(times) - 1)
    if bare and units == {last_unit} and last_unit in _MILLISECOND_UNITS:
        for index in bare:  # "500, 1500 ms": one unit written once, after the list
            times[index] /= 1000.0
    return times, via


def parse_timestamp(text: str) -> float | None:
    """Seconds of one timestamp ("01:07.25", "1:07.25", "67.25 s"); None if text is not one."""
    if not isinstance(text, str):
        return None
    stripped = normalize_text(text).strip().strip("\"'`()[]<>.,;")
    match = _TIMESTAMP.fullmatch(stripped)
    return None if match is None else _timestamp_seconds(match)


def format_timestamp(seconds: float) -> str:
    """``MM:SS.cc`` (minutes zero-padded, centiseconds rounded): 67.254 → "01:07.25"."""
    if not seconds >= 0.0:  # also rejects NaN
        raise ValueError(f"a timestamp must be a non-negative number of seconds, got {seconds}")
    centiseconds = round(seconds * 100)
    minutes, rest = divmod(centiseconds, 6000)
    return f"{minutes:02d}:{rest // 100:02d}.{rest % 100:02d}"
