"""Pitch notations: MIDI numbers, scientific pitch notation, fixed-do solfège and hertz.

Every pitch question is asked in one of four notations, and a model's answer must be read in the
notation it was asked for, whatever spelling it chose. Spellings are counted by arithmetic, not
looked up, so enharmonics and octave-crossing names come out right by construction:
``midi = 12 · (octave + 1) + letter + alteration`` gives Cb4 = 59, B#3 = 60, E#4 = 65,
Fb4 = 64, B##3 = 61. Nothing here ever asks a model to interpret an answer.

Decisions:

* SPN needs an octave digit ("F#4"); an octave-less name is not a pitch there. The letter may
  be either case; a flat is a lowercase ``b`` (or ♭), so "Bb4" and "bb4" are B-flat 4 while
  "BB4" is no pitch at all. Double sharps: ``x``, ``##``, ``♯♯``, ``𝄪``; double flats: ``bb``,
  ``♭♭``, ``𝄫``; words "sharp", "flat", "double sharp", "double flat", "natural". In answer
  text (:func:`normalize_pitch_text`) a grader's spellings are accepted too: "middle C" (C4),
  "C 4" / "Db 4" (an upper-case letter, one space, the octave, then punctuation or the end)
  and an accidental after the octave ("C4♯" is C♯4, never C4).
* Solfège is fixed-do (do re mi fa sol la si; also ré, so, ti) and octave-free: an octave digit
  after the syllable is accepted and ignored. Accidentals may follow after one space ("si b");
  ``x`` is no double sharp here ("six" is a word), ``##`` and ``𝄪`` are.
* Hz answers are decimal numbers with a point, optionally followed by "Hz"/"kHz"; the nearest
  equal-tempered note (A4 = ``A4_HZ``) is the answer and the distance to it is kept in cents.
  Exactly half-way between two notes rounds up. A decimal comma is read only where it is
  unambiguous (:func:`normalize_frequency_commas`): right before a unit ("277,18 Hz"); so is a
  thousands separator ("1,046.50", "1,046 Hz"). A bare "261,63" may be a two-item list and is
  never read as a frequency (``parse_pitch`` returns None and scorers report the answer as
  unparseable, see :func:`has_decimal_comma`). Values must be > 0 and ≤ 20 kHz. A number
  written right after "MIDI" ("MIDI note 60") is not a frequency.
* MIDI answers are whole numbers 0–127 without sign or unit; a whole-valued decimal in running
  text is the whole number ("60.0" is 60, as a grader reads it; "60.5" is no MIDI note), while
  ``parse_pitch`` of a lone token stays strict. The octave digit of an SPN name is never a
  number of its own ("66 (F#4)" holds one number, see :func:`mask_spans`).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from .pitch_numbers import NON_INTEGER_UNITS, NumberToken, find_numbers, normalize_text

A4_HZ = 440.0
NOTATIONS = ("midi", "spn", "solfege", "hz")
OCTAVE_FREE_NOTATIONS = ("solfege",)

MIDI_RANGE = (0, 127)
MAX_FREQUENCY_HZ = 20_000.0

_SPN_NAMES = ("C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B")
_SOLFEGE_NAMES = ("do", "do#", "re", "re#", "mi", "fa", "fa#", "sol", "sol#", "la", "la#", "si")
_LETTER_PITCH_CLASS = {"c": 0, "d": 2, "e": 4, "f": 5, "g": 7, "a": 9, "b": 11}
_SYLLABLE_PITCH_CLASS = {
    "do": 0, "re": 2, "ré": 2, "mi": 4, "fa": 5, "sol": 7, "so": 7, "la": 9, "si": 11, "ti": 11,
}  # fmt: skip

_ALTERATION = {
    "#": 1, "♯": 1, "##": 2, "♯♯": 2, "x": 2, "𝄪": 2,
    "": 0, "b": -1, "♭": -1, "bb": -2, "♭♭": -2, "𝄫": -2, "♮": 0,
    "sharp": 1, "flat": -1, "doublesharp": 2, "doubleflat": -2, "natural": 0,
    # fixed-do users' own words
    "dièse": 1, "diese": 1, "diesis": 1, "sostenido": 1,
    "bémol": -1, "bemol": -1, "bemolle": -1,
}  # fmt: skip
_SYMBOLS = "##|#|♯♯|♯|x|𝄪|bb|b|♭♭|♭|𝄫|♮"
# No "x" after a syllable: "six", "mix" and "fax" are words, not double sharps.
_SOLFEGE_SYMBOLS = _SYMBOLS.replace("|x|", "|")
_WORDS_EN = r"double[\s-]?sharp|double[\s-]?flat|sharp|flat|natural"
_WORDS_FIXED_DO = "dièse|diese|diesis|sostenido|bémol|bemol|bemolle"

_SPN = re.compile(
    r"(?<![^\W_])(?P<letter>[A-Ga-g])"
    rf"(?:(?P<symbol>{_SYMBOLS})|[\s-]?(?P<word>(?i:{_WORDS_EN}))\s?)?"
    r"(?P<octave>-?[0-9])(?![0-9]|[^\W\d_])"
)
_SOLFEGE = re.compile(
    r"(?<![^\W_])(?P<syllable>sol|so|do|ré|re|mi|fa|la|si|ti)"
    rf"(?:(?P<symbol>{_SOLFEGE_SYMBOLS})|\s(?P<spaced>##|#|♯|♭|b|𝄪|𝄫)"
    rf"|[\s-]?(?P<word>{_WORDS_EN}|{_WORDS_FIXED_DO}))?"
    r"(?:-?[0-9])?(?![0-9]|[^\W\d_])",
    re.IGNORECASE,
)
_HZ_TOKEN = re.compile(r"(?P<amount>[0-9]+(?:\.[0-9]+)?)\s*(?P<unit>k?hz)?", re.IGNORECASE)
_MIDI_TOKEN = re.compile(r"[0-9]{1,3}")
_DECIMAL_COMMA = re.compile(r"(?<![0-9.])[0-9]+,[0-9]{1,2}(?![0-9]|\.[0-9])")
_TOKEN_EDGES = " \t\r\n\"'`()[]{}<>.,;:!?"
_FREQUENCY_UNITS = ("", "hz", "khz")
# Nouns after which a number counts things ("2 notes", "3 pitches"): no pitch.
_COUNT_NOUNS = frozenset(
    "semitone semitones note notes tone tones pitch pitches sound sounds time times beat beats "
    "step steps chord chords voice voices octave octaves".split()
)
_NOT_PITCH_UNITS = (NON_INTEGER_UNITS - {"hz", "khz"}) | _COUNT_NOUNS
_NOT_MIDI_UNITS = NON_INTEGER_UNITS | _COUNT_NOUNS


@dataclass(frozen=True)
class ParsedPitch:
    """One pitch read from text.

    ``midi_note`` is None for solfège (octave-free); ``cents_error`` is set only for hertz
    answers: how far the given frequency lies from its nearest equal-tempered note.
    """

    midi_note: int | None
    pitch_class: int
    cents_error: float | None = None


def midi_to_hz(midi: float) -> float:
    """Equal-tempered frequency of a (possibly fractional) MIDI number, A4 = ``A4_HZ``."""
    return A4_HZ * 2.0 ** ((midi - 69.0) / 12.0)


def hz_to_midi(freq_hz: float) -> float:
    """Fractional MIDI number of a frequency; raises ValueError unless freq_hz > 0."""
    if not freq_hz > 0.0:
        raise ValueError(f"a frequency must be positive, got {freq_hz}")
    return 69.0 + 12.0 * math.log2(freq_hz / A4_HZ)


def _check_notation(notation: str) -> None:
    if notation not in NOTATIONS:
        raise ValueError(f"unknown notation {notation!r}; expected one of {NOTATIONS}")


def format_pitch(midi_note: int, notation: str) -> str:
    """The canonical spelling used in prompts and oracle replies: "66", "F#4", "fa#", "369.99"."""
    _check_notation(notation)
    if isinstance(midi_note, bool) or not isinstance(midi_note, int):
        raise ValueError(f"midi_note must be an int, got {midi_note!r}")
    if not MIDI_RANGE[0] <= midi_note <= MIDI_RANGE[1]:
        raise ValueError(f"midi_note must lie in {MIDI_RANGE}, got {midi_note}")
    if notation == "midi":
        return str(midi_note)
    if notation == "spn":
        return f"{_SPN_NAMES[midi_note % 12]}{midi_note // 12 - 1}"
    if notation == "solfege":
        return _SOLFEGE_NAMES[midi_note % 12]
    return f"{midi_to_hz(midi_note):.2f}"


def _alteration(match: re.Match[str]) -> int:
    groups = match.groupdict()
    written = next(
        (groups[g] for g in ("symbol", "spaced", "word") if groups.get(g) is not None), ""
    )
    key = written if written in _ALTERATION else re.sub(r"[\s-]", "", written.casefold())
    return _ALTERATION[key]


def _pitch_from_spn(match: re.Match[str]) -> ParsedPitch | None:
    letter = _LETTER_PITCH_CLASS[match.group("letter").casefold()]
    midi_note = 12 * (int(match.group("octave")) + 1) + letter + _alteration(match)
    if not MIDI_RANGE[0] <= midi_note <= MIDI_RANGE[1]:
        return None
    return ParsedPitch(midi_note=midi_note, pitch_class=midi_note % 12)


def _pitch_from_solfege(match: re.Match[str]) -> ParsedPitch:
    syllable = _SYLLABLE_PITCH_CLASS[match.group("syllable").casefold()]
    return ParsedPitch(midi_note=None, pitch_class=(syllable + _alteration(match)) % 12)


def _pitch_from_hz(freq_hz: float) -> ParsedPitch | None:
    if not 0.0 < freq_hz <= MAX_FREQUENCY_HZ:
        return None
    exact = hz_to_midi(freq_hz)
    nearest = math.floor(exact + 0.5)
    if nearest < MIDI_RANGE[0]:
        return None  # "around 2" (a reply cut off in "220 Hz") is no pitch: MIDI -24
    return ParsedPitch(
        midi_note=nearest, pitch_class=nearest % 12, cents_error=100.0 * (exact - nearest)
    )


def _pitch_from_midi(midi_note: int) -> ParsedPitch | None:
    if not MIDI_RANGE[0] <= midi_note <= MIDI_RANGE[1]:
        return None
    return ParsedPitch(midi_note=midi_note, pitch_class=midi_note % 12)


def _pitch_from_fractional_midi(value: float) -> ParsedPitch | None:
    """A MIDI number with a fraction as its nearest note, as a frequency is read; none halfway
    between two notes, and none below C0 (12), where a fraction is a share ("0.8"), no pitch."""
    nearest = math.floor(value + 0.5)
    if value < 12 or abs(value - nearest) == 0.5 or nearest > MIDI_RANGE[1]:
        return None
    return ParsedPitch(midi_note=nearest, pitch_class=nearest % 12,
                       cents_error=100.0 * (value - nearest))


def _number_as_pitch(number: NumberToken, notation: str) -> ParsedPitch | None:
    """A scanned number as a MIDI note or a frequency, if its context allows it."""
    if number.sign != 0 or number.previous_word == "octave":
        return None
    if notation == "midi":
        if number.suffix or number.unit in _NOT_MIDI_UNITS:
            return None
        if number.value != int(number.value):  # "61.8" names its nearest note, 20 cents flat;
            return _pitch_from_fractional_midi(number.value)  # "60.5" names none
        return _pitch_from_midi(int(number.value))  # "60.0" is MIDI 60, as a grader reads it
    if number.says_midi:
        return None
    if number.suffix not in _FREQUENCY_UNITS or number.unit in _NOT_PITCH_UNITS:
        return None
    unit = number.suffix or number.unit
    return _pitch_from_hz(number.value * (1000.0 if unit == "khz" else 1.0))


def parse_pitch(token: str, notation: str) -> ParsedPitch | None:
    """One pitch written alone (surrounding quotes, brackets and punctuation allowed), or None."""
    _check_notation(notation)
    if not isinstance(token, str):
        return None
    text = normalize_text(token).strip(_TOKEN_EDGES)
    if notation == "spn":
        match = _SPN.fullmatch(text)
        return None if match is None else _pitch_from_spn(match)
    if notation == "solfege":
        match = _SOLFEGE.fullmatch(text)
        return None if match is None else _pitch_from_solfege(match)
    if notation == "midi":
        return _pitch_from_midi(int(text)) if _MIDI_TOKEN.fullmatch(text) else None
    match = _HZ_TOKEN.fullmatch(text)
    if match is None:
        return None
    scale = 1000.0 if (match.group("unit") or "").casefold() == "khz" else 1.0
    return _pitch_from_hz(float(match.group("amount")) * scale)


# "middle C" is C4; "C 4" / "Db 4" (an upper-case letter, one space, an octave, then the end or
# punctuation) is "C4" / "Db4"; "C4♯" (an accidental after the octave) is "C♯4".
_MIDDLE_C = re.compile(r"(?<![^\W_])middle\s+c(?![^\W_])", re.IGNORECASE)
_SPACED_OCTAVE = re.compile(
    r"(?<![^\W_])([A-G](?:##|#|♯♯|♯|bb|b|♭♭|♭)?) ([0-9])(?=\s*(?:[,;)\]/(\[]|$|\.(?![0-9])))",
    re.MULTILINE,
)
_TRAILING_ACCIDENTAL = re.compile(r"(?<![^\W_])([A-Ga-g])(-?[0-9])(##|#|♯♯|♯|♭♭|♭)(?![\w#♯♭])")


# "the F above middle C" is F4, "the A below middle C" A3, "the C above middle C" C5: the
# nearest such note on that side of C4 (round 24)
_BESIDE_MIDDLE_C = re.compile(r"(?<![^\W_])(?P<name>[A-G](?:#|\u266f|b|\u266d)?)\s+(?:(?:just|right"
                              r"|directly|immediately)\s+)?(?P<side>above|below)\s+(?i:middle\s+c)"
                              r"(?![^\W_])")


def _beside_middle_c(found: re.Match[str]) -> str:
    name = found.group("name")
    above = found.group("side") == "above"
    return f"{name}{(4 if name != 'C' else 5) if above else 3}"


def normalize_pitch_text(text: str) -> str:
    """NFKC, then the spellings a grader reads as SPN rewritten to it ("middle C" → "C4")."""
    text = _BESIDE_MIDDLE_C.sub(_beside_middle_c, normalize_text(text))
    text = _MIDDLE_C.sub("C4", text)
    text = _SPACED_OCTAVE.sub(r"\1\2", text)
    return _TRAILING_ACCIDENTAL.sub(r"\1\3\2", text)


def spn_mentions(text: str) -> list[tuple[int, int, ParsedPitch]]:
    """(start, end, pitch) of every SPN pitch in already normalised text, in order."""
    found = []
    for match in _SPN.finditer(text):
        pitch = _pitch_from_spn(match)
        if pitch is not None:
            found.append((match.start(), match.end(), pitch))
    return found


def solfege_mentions(text: str) -> list[tuple[int, int, ParsedPitch]]:
    """(start, end, pitch class) of every solfège syllable in already normalised text."""
    return [(m.start(), m.end(), _pitch_from_solfege(m)) for m in _SOLFEGE.finditer(text)]


def mask_spans(text: str, spans: list[tuple[int, int, object]]) -> str:
    """Text with the given spans blanked out, so the "4" of "F#4" is no number of its own."""
    if not spans:
        return text
    parts, last = [], 0
    for start, end, _ in spans:
        parts.append(text[last:start])
        parts.append(" " * (end - start))
        last = end
    parts.append(text[last:])
    return "".join(parts)


def number_as_pitch(number: NumberToken, notation: str) -> ParsedPitch | None:
    """A scanned number as a MIDI note ("midi") or a frequency ("hz"), if its context allows."""
    return _number_as_pitch(number, notation)


def find_pitches(text: str, notation: str) -> list[ParsedPitch]:
    """Every pitch written in text in the given notation, in order ("C4, E4, G4", "60 64 67").

    Things that are not pitches in that notation are skipped: a MIDI answer's "(261.63 Hz)",
    an SPN answer's "MIDI 60", a word like "do" inside "done". Callers decide what a count
    other than the expected one means.
    """
    _check_notation(notation)
    if not isinstance(text, str):
        return []
    text = normalize_pitch_text(text)
    if notation == "spn":
        found = [_pitch_from_spn(match) for match in _SPN.finditer(text)]
    elif notation == "solfege":
        found = [_pitch_from_solfege(match) for match in _SOLFEGE.finditer(text)]
    else:
        masked = mask_spans(text, spn_mentions(text))
        found = [_number_as_pitch(number, notation) for number in find_numbers(masked)]
    return [pitch for pitch in found if pitch is not None]


# A frequency written with a thousands separator ("1,046.50", "1,046 Hz") or with a decimal
# comma right before its unit ("277,18 Hz"): both unambiguous, unlike a bare "261,63".
_THOUSANDS = re.compile(r"(?<![0-9.,])([0-9]{1,2}),([0-9]{3})(?=\.[0-9]|\s*k?hz\b)", re.IGNORECASE)
_COMMA_BEFORE_UNIT = re.compile(r"(?<![0-9.,])([0-9]+),([0-9]{1,2})(?=\s*k?hz\b)", re.IGNORECASE)


def normalize_frequency_commas(text: str) -> str:
    """ "1,046.50 Hz" → "1046.50 Hz" and "277,18 Hz" → "277.18 Hz"; other commas stay."""
    return _COMMA_BEFORE_UNIT.sub(r"\1.\2", _THOUSANDS.sub(r"\1\2", text))


def has_decimal_comma(text: str) -> bool:
    """True if text writes a number like "261,63", which may be a decimal or a two-item list."""
    return isinstance(text, str) and _DECIMAL_COMMA.search(normalize_text(text)) is not None
