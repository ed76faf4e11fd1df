"""Parsers for the LogicLM schema lines a model emits, e.g. ``rhythm(a.wav, [2, 4, 9])``.

The solver must only ever see a transcription the model really wrote, so these parsers are
tolerant of presentation (code fences, case, whitespace, trailing commas, surrounding prose) and
strict about content (integers only, right count, right identifier, values in range). Every
rejection is a SchemaError whose kind and message feed the self-refinement prompt.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Literal

from .reply_spans import EXPLICIT_SOURCES, HEDGE, read_reply

SchemaErrorKind = Literal["parse", "structural", "domain"]

RHYTHM_SLOT_RANGE = (1, 32)  # 4 bars of eighth notes
MIDI_PITCH_RANGE = (0, 127)

# Only these suffixes are treated as file extensions when comparing identifiers, so that a dot
# inside an identifier (e.g. "take.2") is never mistaken for one.
_AUDIO_EXTENSIONS = "wav mid midi mp3 flac ogg oga opus m4a aac aif aiff"
_OTHER_EXTENSIONS = "png jpg jpeg svg pdf xml musicxml mxl txt"
_FILE_EXTENSIONS = frozenset(f"{_AUDIO_EXTENSIONS} {_OTHER_EXTENSIONS}".split())

_QUOTE_CHARS = "\"'`\u201c\u201d\u2018\u2019"
_SCHEMA_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_INTEGER_TOKEN = re.compile(r"[+-]?[0-9]+")
_MAX_INTEGER_DIGITS = 12  # far beyond any valid value; keeps int() away from huge strings
MAX_NAME_MENTIONS = 256  # more mentions of a schema name than any real reply has
_MAX_LINE_CHARS = 20_000  # a schema line longer than this is not one a model wrote


class SchemaError(Exception):
    """A model's schema output that cannot be handed to a solver.

    kind: "parse" (no line, malformed line, non-integer value), "structural" (wrong number of
    lines, identifier mismatch, empty list) or "domain" (value out of range, duplicate onset).
    """

    def __init__(self, kind: SchemaErrorKind, message: str) -> None:
        super().__init__(message)
        self.kind: SchemaErrorKind = kind
        self.message = message

    def __str__(self) -> str:
        return self.message

    def __reduce__(self) -> tuple[type[SchemaError], tuple[SchemaErrorKind, str]]:
        # Keeps the error picklable (xdist workers ship exceptions between processes).
        return (type(self), (self.kind, self.message))


@dataclass(frozen=True)
class SchemaLine:
    """One ``name(identifier, [v1, v2, ...])`` occurrence; name is lower-cased."""

    name: str
    identifier: str
    values: tuple[int, ...]


def _schema_pattern(name: str) -> re.Pattern[str]:
    quote = f"[{_QUOTE_CHARS}]?"
    return re.compile(
        rf"(?<![A-Za-z0-9_]){re.escape(name)}\s*\(\s*"
        rf"{quote}(?P<identifier>[A-Za-z0-9_.\-]+){quote}"
        r"\s*,\s*\[(?P<body>[^\[\]]*)\]\s*\)",
        re.IGNORECASE,
    )


def _parse_values(body: str, name: str, identifier: str) -> tuple[int, ...]:
    tokens = [token.strip() for token in body.split(",")]
    if tokens and tokens[-1] == "":
        tokens.pop()  # trailing comma, or an empty list
    values: list[int] = []
    for token in tokens:
        if token == "":
            raise SchemaError("parse", f"{name}({identifier}, ...): empty value between commas")
        if not _INTEGER_TOKEN.fullmatch(token):
            raise SchemaError(
                "parse", f"{name}({identifier}, ...): value {token!r} is not an integer"
            )
        if len(token.lstrip("+-")) > _MAX_INTEGER_DIGITS:
            raise SchemaError(
                "parse", f"{name}({identifier}, ...): value {token[:20]!r}... is too long"
            )
        values.append(int(token))
    return tuple(values)


def find_schema_lines(text: str, name: str) -> list[SchemaLine]:
    """Every well-formed ``name(identifier, [ints])`` in text, in order of appearance.

    Presentation is ignored (fences, case, whitespace and newlines, trailing comma, trailing
    '.' or ';', quotes around the identifier, prose around it). A matched list holding a
    non-integer token raises SchemaError("parse") naming the token. ``name`` is a programmer's
    constant; an invalid one raises ValueError.
    """
    if not _SCHEMA_NAME.fullmatch(name):
        raise ValueError(f"invalid schema name {name!r}")
    if not isinstance(text, str):
        raise SchemaError("parse", f"expected text, got {type(text).__name__}")
    found: list[SchemaLine] = []
    pattern = _schema_pattern(name)
    for match in _matches_near_name(text, name, pattern):
        identifier = match.group("identifier")
        values = _parse_values(match.group("body"), name.lower(), identifier)
        found.append(SchemaLine(name=name.lower(), identifier=identifier, values=values))
    return found


def _matches_near_name(text: str, name: str, pattern: re.Pattern[str]) -> list[re.Match[str]]:
    """Matches of ``pattern`` starting where ``name`` occurs: linear in the text, since the
    regex runs only in a bounded window at each of at most MAX_NAME_MENTIONS occurrences."""
    low, key, matches, position, end = text.replace("\u0130", "i").lower(), name.lower(), [], 0, -1
    if len(low) != len(text):
        low = "".join(ch if len(ch.lower()) != 1 else ch.lower() for ch in text)
    for _ in range(MAX_NAME_MENTIONS + 1):
        position = low.find(key, position)
        if position < 0:
            return matches
        if position >= end:
            match = pattern.match(text, position, position + _MAX_LINE_CHARS)
            if match:
                matches.append(match)
                end = match.end()
        position += len(key)
    raise SchemaError("structural", f"the reply mentions {name} more than "
                                    f"{MAX_NAME_MENTIONS} times; expected schema lines")


def _require_lines(text: str, name: str, count: int) -> list[SchemaLine]:
    """Exactly ``count`` schema lines, else parse (none) or structural (wrong count) error."""
    lines = find_schema_lines(text, name)
    if len(lines) > count:  # drafts, then the answer: a grader reads the committed one
        lines = _committed_lines(text, name, count) or lines
    shape = f"{name}(identifier, [v1, v2, ...])"
    if not lines:
        opening = re.compile(rf"(?<![A-Za-z0-9_]){name}\s*\(", re.IGNORECASE)
        if _matches_near_name(text, name, opening):
            raise SchemaError("parse", f"malformed {name} line: expected the form {shape}")
        raise SchemaError("parse", f"no {shape} line found")
    if len(lines) != count:
        wanted = "exactly one" if count == 1 else f"exactly {count}"
        raise SchemaError(
            "structural", f"expected {wanted} {name}(...) line(s), found {len(lines)}"
        )
    return lines


def _committed_lines(text: str, name: str, count: int) -> list[SchemaLine] | None:
    """The ``count`` lines of the reply's explicit answer (a ``Final Answer`` line or block,
    ``\\boxed{}``, JSON) when it holds exactly that many; None otherwise. Two explicit
    answers with different lines are a hedge: structural error."""

    def read_lines(span: str, _source: str) -> tuple:
        try:
            found = tuple(find_schema_lines(span, name))
        except SchemaError:
            return None, "malformed"
        return (found, None) if len(found) == count else (None, "no complete answer")

    reading = read_reply(text, read_lines)
    if reading.error == HEDGE:
        raise SchemaError("structural", f"two different final {name}(...) answers in the reply")
    if reading.answer is None or reading.source not in EXPLICIT_SOURCES:
        return None
    return list(reading.answer)


def normalize_identifier(identifier: str) -> str:
    """Comparable form of an identifier: no quotes or spaces around it, no file extension,
    case-folded; so ``S1A2B3``, ``"s1a2b3.wav"`` and ``s1a2b3.mid`` are the same trial."""
    stem = identifier.strip().strip(_QUOTE_CHARS).strip()
    base, dot, suffix = stem.rpartition(".")
    if dot and base and suffix.lower() in _FILE_EXTENSIONS:
        stem = base
    return stem.casefold()


def _check_identifier(line: SchemaLine, expected: str | None) -> None:
    if expected is None:
        return
    if normalize_identifier(line.identifier) != normalize_identifier(expected):
        raise SchemaError(
            "structural",
            f"identifier mismatch in {line.name}(...): expected {expected!r}, "
            f"got {line.identifier!r}",
        )


def _check_range(line: SchemaLine, value_range: tuple[int, int], what: str) -> None:
    low, high = value_range
    outside = [value for value in line.values if not low <= value <= high]
    if outside:
        listed = ", ".join(str(value) for value in outside)
        raise SchemaError(
            "domain", f"{line.name}(...) {what} must be integers {low}..{high}; got {listed}"
        )


def _check_non_empty(line: SchemaLine, what: str) -> None:
    if not line.values:
        raise SchemaError("structural", f"{line.name}({line.identifier}, []) has no {what}")


def parse_rhythm(text: str, identifier: str | None = None) -> tuple[int, ...]:
    """Kick/snare onset slots (1..32, distinct, in written order) from one rhythm(...) line.

    An empty list is valid: it claims that no kick or snare was heard.
    """
    (line,) = _require_lines(text, "rhythm", 1)
    _check_identifier(line, identifier)
    _check_range(line, RHYTHM_SLOT_RANGE, "onsets")
    repeated = sorted(slot for slot, times in Counter(line.values).items() if times > 1)
    if repeated:
        listed = ", ".join(str(slot) for slot in repeated)
        raise SchemaError("domain", f"rhythm(...) lists onset(s) more than once: {listed}")
    return line.values


def parse_melodies(
    text: str, identifiers: tuple[str, str] | None = None
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The two melodies (MIDI pitches 0..127, non-empty), in the order they were written."""
    first, second = _require_lines(text, "melody", 2)
    for line, expected in zip((first, second), identifiers or (None, None), strict=True):
        _check_identifier(line, expected)
    for line in (first, second):
        _check_non_empty(line, "pitches")
        _check_range(line, MIDI_PITCH_RANGE, "pitches")
    return first.values, second.values


def parse_chord(text: str, identifier: str | None = None) -> tuple[int, ...]:
    """Chord tones (MIDI pitches 0..127, non-empty, doublings allowed) from one chord(...) line."""
    (line,) = _require_lines(text, "chord", 1)
    _check_identifier(line, identifier)
    _check_non_empty(line, "pitches")
    _check_range(line, MIDI_PITCH_RANGE, "pitches")
    return line.values
