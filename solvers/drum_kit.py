"""A drum kit described by its pieces answers an instrument question whose options offer the
drums once: "There is no pitched melody here at all, just kick, snare and cymbals." is the
Drums option (docs/reading.md, *Described answers*, round 8). Pure, no I/O.

Only when exactly one option is a drum kit (``Drums``, ``Drum kit``, ``Drum set``; never
steel drums, tabla or other pitched or hand drums), when at least two kit pieces or the kit
itself are named, none of them negated ("no kick or snare"), and the reply says the kit is all
there is ("just", "only", "nothing but", "no pitched melody") or names the kit outright.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

Said = Callable[[str], "tuple[set[str], str | None]"]

_KIT_OPTION = re.compile(r"^\s*(?:(?:a|the)\s+)?(?:drums|drum\s*(?:kit|set)|drumkit|drum\s+kit"
                         r"\s*\([^)]*\))\s*$", re.IGNORECASE)
_PIECE = re.compile(r"\b(?P<piece>kick(?:\s+drum)?|bass\s+drum|snare(?:\s+drum)?|hi-?\s?hats?"
                    r"|cymbals?|crash|ride|toms?|tom-toms?|floor\s+tom)\b", re.IGNORECASE)
_KIT = re.compile(r"\b(?:drum\s*(?:kit|set)|drumkit|trap\s+kit)\b", re.IGNORECASE)
_ALONE = re.compile(r"\b(?:just|only|pure|purely|solely|entirely|nothing\s+but"
                    r"|no\s+(?:pitched\s+)?(?:melody"
                    r"|melodic|instruments?|harmony|tune))\b", re.IGNORECASE)
_NEGATED = re.compile(r"(?:\b(?:not|never|no|without|neither|nor|lacks?)|n['\u2019]t)\s+"
                      r"(?:[\w-]+\s+){0,2}$", re.IGNORECASE)
_NOTHING_BUT = re.compile(r"\bnothing\s+but\b", re.IGNORECASE)
_TURN = re.compile(r"\b(?:but|except|apart|besides|over|under|behind|beneath|alongside|plus"
                   r"|backing|accompan\w*)\b", re.IGNORECASE)


def drum_kit_letter(options: Mapping[str, str]) -> str | None:
    """The one option that is a drum kit, or None."""
    found = [letter for letter, text in options.items() if _KIT_OPTION.match(str(text))]
    return found[0] if len(found) == 1 else None


def drum_kit(letter: str) -> Said:
    """The reader of a kit described by its pieces (module doc), answering ``letter``."""
    def said(text: str) -> tuple[set[str], str | None]:
        text = _NOTHING_BUT.sub("only", text)  # "nothing but toms": no turn
        pieces = {re.sub(r"\W|drum", "", m.group("piece").casefold()).rstrip("s")
                  for m in _PIECE.finditer(text) if not _NEGATED.search(text[:m.start()][-30:])}
        negated = any(_NEGATED.search(text[:m.start()][-30:]) for m in _PIECE.finditer(text))
        kit = _KIT.search(text)
        if negated or _TURN.search(text) or (kit and _NEGATED.search(text[:kit.start()][-30:])):
            return set(), "a kit piece negated or beside something else"
        if kit or (len(pieces) >= 2 and _ALONE.search(text)):
            return {letter}, None
        return set(), "no drum kit described"
    return said
