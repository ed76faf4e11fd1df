"""Note names of other languages' notations, said in the English ones before a reply is read
(docs/reading.md, round 26). Pure, no I/O; closed tables only.

* In a reply of a Romance language, a solfège syllable with an octave ("Questo suono è un
  Mi4.") is the letter name with that octave ("E4"), for a question in letter names; "la"
  before a word is the article ("La nota es si bemol."), never the note A.
* In a German reply, "H" is B and "B" is B♭ ("Der Ton ist ein H3." is B3); "Moll" and "Dur"
  are minor and major ("Ein Moll-Akkord.").

An English reply is untouched: "B3" stays B3, "La (A)" stays the note.
"""

from __future__ import annotations

import re

from .other_languages import ENGLISH_WORDS, foreign, words_of

_LETTER_OF = {"do": "C", "re": "D", "ré": "D", "mi": "E", "fa": "F", "sol": "G", "la": "A",
              "si": "B"}
_ACCIDENTAL_OF = {"dièse": "#", "diese": "#", "diesis": "#", "sostenido": "#", "bémol": "b",
                  "bemol": "b", "bemolle": "b", "#": "#", "♯": "#", "b": "b", "♭": "b", "": ""}
_ACCIDENTALS = "|".join(sorted((re.escape(a) for a in _ACCIDENTAL_OF if a), key=len,
                               reverse=True))
_SYLLABLE_OCTAVE = re.compile(
    rf"(?<![^\W_])(?P<syllable>sol|do|ré|re|mi|fa|la|si)(?:\s?(?P<accidental>{_ACCIDENTALS}))?"
    r"\s?(?P<octave>[0-8])(?![\w])", re.IGNORECASE)
# "la" followed by a word that is no accidental: the article
_ARTICLE = re.compile(rf"(?<![^\W_])la\s+(?!(?:{_ACCIDENTALS})(?![^\W\d_]))(?=[^\W\d_]{{2,}})",
                      re.IGNORECASE)
_GERMAN_WORDS = frozenset("der die das ist ein eine einen und nicht ton akkord tonart klingt"
                          .split())
_GERMAN_NOTE = re.compile(r"(?<![^\W_])(?P<letter>[HB])(?=[0-8]?(?![\w\u266d\u266f#]))")
_GERMAN_MODE = {"Moll": "minor", "Dur": "major"}
# "ein Moll-Akkord": the article dropped ("a minor" would be the letter A), "Akkord" a chord
_MODE = re.compile(r"(?<![^\W_])(?:[Ee]ine?[nm]?\s+)?(?P<mode>Moll|Dur)(?P<chord>-?[Aa]kkord)?"
                   r"(?![^\W\d_])")


def in_english_notes(reply: str, notation: str | None) -> str:
    """``reply`` with another language's note names in English letter names (module doc);
    ``notation`` the question's ("solfege" keeps the syllables: they are its own)."""
    if german(reply):
        return _GERMAN_NOTE.sub(lambda found: "B" if found.group("letter") == "H" else "Bb",
                                in_english_modes(reply))
    if not foreign(reply):
        return reply
    reply = _ARTICLE.sub("", reply)
    if notation == "solfege":
        return reply
    return _SYLLABLE_OCTAVE.sub(lambda found: _LETTER_OF[found.group("syllable").casefold()]
                                + _ACCIDENTAL_OF[(found.group("accidental") or "").casefold()]
                                + found.group("octave"), reply)


def in_english_modes(reply: str) -> str:
    """``reply`` with German "Moll" and "Dur" as "minor" and "major", if it is German."""
    if not german(reply):
        return reply
    return _MODE.sub(lambda found: _GERMAN_MODE[found.group("mode")]
                     + (" chord" if found.group("chord") else ""), reply)


def german(reply: str) -> bool:
    """Whether ``reply`` is German: one of German's closed words and no English one."""
    words = words_of(reply)
    return bool(words & _GERMAN_WORDS) and not words & ENGLISH_WORDS
