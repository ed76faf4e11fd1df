"""Worded answers: melodic contour tokens and one-of-N choices (chord qualities, first/second).

Words are compared as whole tokens, so the "A" in "Answer" or the "m" in "minor" never names an
option. A mention right after a negation ("minor, not diminished", "second rather than first")
does not count. Anything ambiguous reads as None with a reason, never as a guess.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .notation import NOTATIONS, OCTAVE_FREE_NOTATIONS, find_pitches, parse_pitch
from .pitch_numbers import normalize_text

# Words (accidentals stay attached, so "C#" is never the option "C") and a few symbols.
_TOKEN = re.compile(
    r"[A-G](?:bb|b|#|\u266f|\u266d)?\+"  # "C+", "Bb+": augmented; a lone "+" is arithmetic
    r"|[^\W_]+(?:['\u2019][^\W_]+)*[#\u266f\u266d]*|[\u00b0\u25b3\u2191-\u2199\u2b06\u2b07]"
)
_ARTICLES = frozenset({"a", "an", "the"})
_NEGATORS = frozenset(
    "not no never nor neither non without isn't isnt aren't arent wasn't wasnt doesn't doesnt "
    "don't dont didn't didnt won't wont".split()
)
_LINKING_VERBS = frozenset(
    "go goes going move moves moving step steps head heads sound sounds seem seems be".split()
)
_NEGATING_PAIRS = frozenset({("rather", "than"), ("instead", "of"), ("other", "than")})


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(normalize_text(text).replace("\u2019", "'"))


def _is_negated(folded: Sequence[str], start: int) -> bool:
    """True if the mention starting at ``folded[start]`` follows a negation (articles skipped)."""
    index = start - 1
    while index >= 0 and folded[index] in _ARTICLES:
        index -= 1
    if index < 0:
        return False
    if folded[index] in _NEGATORS:
        return True
    if folded[index] in _LINKING_VERBS and index >= 1 and folded[index - 1] in _NEGATORS:
        return True  # "doesn't go down", "is not moving up"
    return index >= 1 and (folded[index - 1], folded[index]) in _NEGATING_PAIRS


# --- Contour -----------------------------------------------------------------------------------

_CONTOUR_WORDS: dict[str, str] = {}
for _token, _words in {
    "up": "up upward upwards rise rises rising rose ascend ascends ascending higher climb "
    "climbs climbing \u2191 \u2197 \u2b06",
    "down": "down downward downwards fall falls falling fell descend descends descending lower "
    "drop drops dropping \u2193 \u2198 \u2b07",
    "same": "same flat level steady constant unchanged repeat repeats repeated",
}.items():
    _CONTOUR_WORDS.update(dict.fromkeys(_words.split(), _token))
# Whole shapes, used only when no step-by-step direction word is present.
_CONTOUR_SHAPES: dict[tuple[str, ...], tuple[str, ...]] = {
    ("arch",): ("up", "down"),
    ("valley",): ("down", "up"),
    ("trough",): ("down", "up"),
    ("inverted", "arch"): ("down", "up"),
    ("u", "shape"): ("down", "up"),
    ("u", "shaped"): ("down", "up"),
    ("v", "shape"): ("down", "up"),
    ("v", "shaped"): ("down", "up"),
}
CONTOUR_TOKENS = ("up", "down", "same")


def read_contour(value: str) -> tuple[list[str] | None, str | None]:
    """Contour tokens ("up"/"down"/"same") in order, or (None, why) if the value is unreadable.

    Direction words are read one per step ("rise then fall" → up, down); shape words ("arch",
    "valley") expand to their two steps only when no direction word is present, so "arch (up,
    down)" is not read twice. A parenthesis is left out when the words outside it already hold
    the contour ("down (it gets lower)" is one step). A negated direction word ("not up") makes
    the answer unreadable.
    """
    outside = _PARENTHETICAL.sub(" ", value)
    if any(token.casefold() in _CONTOUR_WORDS for token in _tokens(outside)):
        value = outside  # "down (it gets lower)" is one step, not two
    folded = [token.casefold() for token in _tokens(value)]
    steps: list[str] = []
    for index, token in enumerate(folded):
        if token in _CONTOUR_WORDS:
            if _is_negated(folded, index):
                return None, f"negated contour word {token!r}"
            steps.append(_CONTOUR_WORDS[token])
    if steps:
        return steps, None
    index = 0
    while index < len(folded):
        for length in (2, 1):
            shape = _CONTOUR_SHAPES.get(tuple(folded[index : index + length]))
            if shape is not None:
                if _is_negated(folded, index):
                    return (
                        None,
                        f"negated contour shape {' '.join(folded[index : index + length])!r}",
                    )
                steps.extend(shape)
                index += length
                break
        else:
            index += 1
    if not steps:
        return None, "no contour word (up/down) in the answer"
    return steps, None


# --- Chord qualities ---------------------------------------------------------------------------

# The ten chord qualities of the pitch experiments, as semitones above the root (music
# theory, shared by the item builders and the listener).
CHORD_QUALITY_SEMITONES: dict[str, tuple[int, ...]] = {
    "major": (0, 4, 7),
    "minor": (0, 3, 7),
    "diminished": (0, 3, 6),
    "augmented": (0, 4, 8),
    "dominant seventh": (0, 4, 7, 10),
    "major seventh": (0, 4, 7, 11),
    "minor seventh": (0, 3, 7, 10),
    "half-diminished": (0, 3, 6, 10),
    "sus2": (0, 2, 7),
    "sus4": (0, 5, 7),
}
UNLISTED_QUALITY = "(unlisted quality)"
CHORD_QUALITY_ALIASES: dict[str, tuple[str, ...]] = {
    "major": ("major", "maj", "M", "major triad"),
    "minor": ("minor", "min", "m", "minor triad"),
    "diminished": ("diminished", "dim", "\u00b0", "diminished triad"),
    "augmented": ("augmented", "aug", "+", "augmented triad"),
    "dominant seventh": (
        "dominant seventh", "dominant 7th", "dominant 7", "dominant seven", "dominant7",
        "dominant", "dom7", "dom 7", "7",
    ),
    "major seventh": (
        "major seventh", "major 7th", "major 7", "major seven", "maj7", "maj 7", "M7", "ma7",
        "\u0394", "\u03947", "\u25b3", "\u25b3 7",
    ),
    "minor seventh": (
        "minor seventh", "minor 7th", "minor 7", "minor seven", "min7", "min 7", "m7", "mi7",
    ),
    "half-diminished": (
        "half-diminished", "half-diminished seventh", "half-diminished 7th", "half diminished 7",
        "half-dim", "\u00f8", "\u00f87", "m7b5", "m7\u266d5", "min7b5", "minor 7 flat 5",
        "minor seventh flat five",
    ),
    "sus2": ("sus2", "sus 2", "suspended second", "suspended 2nd", "suspended 2"),
    "sus4": ("sus4", "sus 4", "suspended fourth", "suspended 4th", "suspended 4"),
    # Qualities that are none of the ten: naming one is an answer outside the options.
    UNLISTED_QUALITY: (
        "diminished seventh", "diminished 7th", "diminished 7", "diminished seven", "dim7",
        "\u00b0 7", "fully diminished", "fully-diminished seventh", "minor major seventh",
        "minor major 7th", "mM7", "augmented seventh", "aug7", "+ 7",
    ),
}  # fmt: skip
# Symbols whose case is their meaning: M = major, m = minor.
_CASE_SENSITIVE = frozenset({"M", "m", "M7", "m7", "mM7", "m7b5", "m7\u266d5", "mi7", "ma7"})
_TRIADS = frozenset({"major", "minor", "diminished", "augmented"})
_SEVENTH_WORDS = frozenset({"seventh", "sevenths", "7th", "7", "seven"})
_ROOT = re.compile(r"[A-G](?:bb|b|\u266d|#|\u266f)?")
_PARENTHETICAL = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")


def _alias_table() -> dict[tuple[str, ...], str]:
    table: dict[tuple[str, ...], str] = {}
    for quality, aliases in CHORD_QUALITY_ALIASES.items():
        for alias in aliases:
            # "+" is a token of its own only after a root ("C+"), so parts keep it verbatim.
            tokens = [token for part in alias.split() for token in (_tokens(part) or [part])]
            key = tuple(tokens) if alias in _CASE_SENSITIVE else tuple(t.casefold() for t in tokens)
            if table.setdefault(key, quality) != quality:
                raise ValueError(f"chord alias {alias!r} names two qualities")
    return table


_QUALITY_BY_ALIAS = _alias_table()
_LONGEST_ALIAS = max(len(key) for key in _QUALITY_BY_ALIAS)


def _without_root(token: str) -> list[str]:
    """The token, then what follows a chord root glued to it: "Bbmaj7" → ["Bbmaj7", "maj7"]."""
    forms = [token]
    for root_length in (2, 1):
        rest = token[root_length:]
        if rest and _ROOT.fullmatch(token[:root_length]):
            forms.append(rest)
    return forms


def _quality_at(tokens: list[str], folded: list[str], index: int) -> tuple[str, int] | None:
    """The longest quality alias starting at ``index`` (root glued or not) and its length."""
    for length in range(min(_LONGEST_ALIAS, len(tokens) - index), 0, -1):
        for first in _without_root(tokens[index]):
            if length == 1:
                quality = _quality_of_symbol(first)
            else:
                window = (first.casefold(), *folded[index + 1 : index + length])
                quality = _QUALITY_BY_ALIAS.get(window)
            if quality is not None:
                return quality, length
    return None


def _quality_of_symbol(token: str) -> str | None:
    """Exact case first; case-folded only if that does not turn "M" into "m"."""
    if (token,) in _QUALITY_BY_ALIAS:
        return _QUALITY_BY_ALIAS[(token,)]
    folded = token.casefold()
    if folded in _CASE_SENSITIVE:
        return None
    return _QUALITY_BY_ALIAS.get((folded,))


def find_chord_qualities(text: str) -> list[tuple[str, bool]]:
    """Every chord quality named in text, longest alias first, as (quality, negated).

    A triad name followed by a seventh word that no alias covers ("major, seventh") is read as
    a quality outside the ten rather than as the triad.
    """
    tokens = _tokens(text) or (["+"] if text.strip() == "+" else [])  # a bare "+" answer
    folded = [token.casefold() for token in tokens]
    found: list[tuple[str, bool]] = []
    index = 0
    while index < len(tokens):
        match = _quality_at(tokens, folded, index)
        if match is None:
            index += 1
            continue
        quality, length = match
        following = folded[index + length] if index + length < len(folded) else ""
        if quality in _TRIADS and following in _SEVENTH_WORDS:
            quality = UNLISTED_QUALITY
        found.append((quality, _is_negated(folded, index)))
        index += length
    return found


# --- Choices -----------------------------------------------------------------------------------

_ORDINAL_ALIASES = {
    "first": "1st",
    "second": "2nd",
    "third": "3rd",
    "fourth": "4th",
    "fifth": "5th",
}


def _one_named(named: list[str], what: str) -> tuple[str | None, str | None]:
    distinct = list(dict.fromkeys(named))
    if not distinct:
        return None, f"no {what} named in the answer"
    if len(distinct) > 1:
        return None, f"several {what}s named: {', '.join(distinct)}"
    return distinct[0], None


def _choice_by_quality(value: str, option_of: dict[str, str]) -> tuple[str | None, str | None]:
    named = [quality for quality, negated in find_chord_qualities(value) if not negated]
    quality, why = _one_named(named, "chord quality")
    if quality is None:
        return None, why
    if quality == UNLISTED_QUALITY:
        return None, "names a chord quality that is none of the options"
    if quality not in option_of:
        return None, f"{quality!r} is not one of the options"
    return option_of[quality], None


def _choice_by_pitch(
    value: str, option_of: dict[int, str], notation: str
) -> tuple[str | None, str | None]:
    octave_free = notation in OCTAVE_FREE_NOTATIONS
    keys = [p.pitch_class if octave_free else p.midi_note for p in find_pitches(value, notation)]
    key, why = _one_named([str(k) for k in keys], f"{notation} pitch")
    if key is None:
        return None, why
    if int(key) not in option_of:
        return None, f"the pitch given ({key}) is not one of the options"
    return option_of[int(key)], None


def _choice_by_label(value: str, options: Sequence[str]) -> tuple[str | None, str | None]:
    tokens = _tokens(value)
    folded = [token.casefold() for token in tokens]
    named: list[str] = []
    for label in options:
        label_tokens = _tokens(label)
        if not label_tokens:
            continue
        if len(label_tokens) == 1 and len(label_tokens[0]) == 1 and len(tokens) > 1:
            # A one-letter label keeps its case ("A", never the article "a") unless the
            # answer is that one letter alone ("b").
            forms, haystack = [tuple(label_tokens)], tokens
        else:
            forms = [tuple(token.casefold() for token in label_tokens)]
            if label.casefold() in _ORDINAL_ALIASES:
                forms.append((_ORDINAL_ALIASES[label.casefold()],))
            haystack = folded
        for form in forms:
            for start in range(len(haystack) - len(form) + 1):
                if tuple(haystack[start : start + len(form)]) == form and not _is_negated(
                    folded, start
                ):
                    named.append(label)
    return _one_named(named, "option")


def read_choice(
    value: str, options: Sequence[str], notation: str | None = None
) -> tuple[str | None, str | None]:
    """The one option label the value names, or (None, why).

    Three ways of naming, chosen by what the options are: if every option is a chord quality,
    any alias of it counts ("m", "min", "minor", "Cm"; "M" vs "m" by case); if every option is
    a single pitch in ``notation``, the pitch written counts in any spelling; otherwise the
    label's own words (and "1st" for "first", etc.).
    """
    labels = list(options)
    qualities = [find_chord_qualities(label) for label in labels]
    by_quality = {q[0][0]: label for q, label in zip(qualities, labels, strict=True) if len(q) == 1}
    if len(by_quality) == len(labels) and UNLISTED_QUALITY not in by_quality:
        return _choice_by_quality(value, by_quality)
    if notation in NOTATIONS:
        pitches = [parse_pitch(label, notation) for label in labels]
        if all(pitches):
            octave_free = notation in OCTAVE_FREE_NOTATIONS
            by_pitch = {
                (p.pitch_class if octave_free else p.midi_note): label
                for p, label in zip(pitches, labels, strict=True)
                if p is not None
            }
            if len(by_pitch) == len(labels):
                return _choice_by_pitch(value, by_pitch, notation)
    return _choice_by_label(value, labels)
