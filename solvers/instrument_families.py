"""An instrument said by its family rather than its name answers an instrument question whose
options hold exactly one member of that family: "A bowed string instrument carries the melody."
is the violin, "a brass instrument with a bright, buzzy tone" the trumpet, "a synth with a
sawtooth timbre" the synthesizer (docs/reading.md, round 24). Pure, no I/O.

The families are data (:data:`INSTRUMENT_FAMILIES`): for each, a pattern of how a reply says
it and a pattern of its members; an option is a member when its text is one (up to an article,
two words before it such as "electric" or "tenor", and "solo" or "section" after it), never
when it only mentions one ("A jazz piece with a trumpet solo"). A user passes their own table to
:func:`solvers.reading.choice_reader` (``families=``). A family is read only when it is said
and not negated ("not a bowed string instrument", "no bow noise", "unlike a brass instrument"),
when the families said fit exactly one option together ("plucked, with strummed chords" beside
Guitar and Bass is the guitar; "a brass melody over bowed strings" fits none), and when no
family negated points to it. A family whose members are two offered options ("a plucked string
instrument" beside Guitar and Bass) reads nothing, and so does a description beside an
instrument that is not offered ("a bowed instrument, a cello" beside Violin).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

Said = Callable[[str], "tuple[set[str], str | None]"]
Families = Mapping[str, "tuple[str, str]"]  # family -> (how a reply says it, its member options)

_GUITAR = r"(?<!acoustic\s)(?<!classical\s)(?<!bass\s)(?<!steel\s)\b(?:electric\s+)?guitars?\b"
INSTRUMENT_FAMILIES: dict[str, tuple[str, str]] = {
    "bowed strings": (
        r"\bbow(?:ed|ing|s)?\b|\brosin\b",
        r"\b(?:violins?|violas?|(?:violon)?cellos?|double\s+bass(?:es)?|contrabass(?:es)?"
        r"|fiddles?|strings|string\s+(?:section|quartet|ensemble|orchestra))\b"),
    "brass": (
        r"\bbrass\b(?![-\w])",
        r"\b(?:trumpets?|trombones?|(?<!english\s)horns?|tubas?|cornets?|flugelhorns?"
        r"|euphoniums?|bugles?|sousaphones?|brass)\b"),
    "reeds": (
        r"\breeds?\b(?![-\w])",
        r"\b(?:saxophones?|sax(?:es)?|clarinets?|oboes?|bassoons?|english\s+horns?|cor\s+anglais"
        r"|harmonicas?|accordions?|melodicas?|bagpipes?|reeds?)\b"),
    "woodwinds": (
        r"\bwood-?\s?winds?\b",
        r"\b(?:flutes?|piccolos?|recorders?|saxophones?|sax(?:es)?|clarinets?|oboes?|bassoons?"
        r"|english\s+horns?|woodwinds?|fifes?|pan\s*(?:flute|pipes?))\b"),
    "plucked strings": (
        r"\bplucked\b",
        rf"{_GUITAR}|\b(?:acoustic|classical|bass|steel)\s+guitars?\b|\b(?:bass|harps?|banjos?"
        r"|mandolins?|ukuleles?|lutes?|sitars?|harpsichords?|kotos?|zithers?)\b"),
    "strummed strings": (
        r"\bstrum(?:s|med|ming)?\b",
        rf"{_GUITAR}|\b(?:acoustic|classical|steel)\s+guitars?\b|\b(?:banjos?|mandolins?"
        r"|ukuleles?|lutes?)\b"),
    "keyboards": (
        r"\bkeyboard\s+instruments?\b",
        r"\b(?:pianos?|organs?|harpsichords?|synth\w*|keyboards?|celest[ae]s?|clavinets?"
        r"|rhodes|accordions?)\b"),
    "hammered strings": (  # never a guitar's "hammer-on", nor an attack that "sounds hammered"
        r"\bhammered\s+strings?\b|\bstruck\s+strings?\b|\bhammers?\s+(?:strik\w+|hit\w*)\b",
        r"\b(?:pianos?|dulcimers?|cimbaloms?|clavichords?)\b"),
    "distorted guitars": (
        r"\b(?:distorted|overdriven|fuzz|fuzzy)\s+(?:electric\s+)?(?:lead\s+)?guitars?\b"
        r"|\bguitars?\s+(?:with|through)\s+(?:heavy\s+|lots\s+of\s+)?(?:distortion|overdrive"
        r"|fuzz)\b",
        _GUITAR),
    "synthesizers": (
        r"\bsynth(?:s|esi[sz]ers?|etic)?\b|\bsawtooth\b|\b(?:saw|square)[-\s]?waves?\b"
        r"|\boscillators?\b|\bfilter\s+sweeps?\b",
        r"\bsynth\w*|\bmoog\b"),
}

# Instruments by name: one named that no option is makes a description no answer ("a bowed
# instrument, a cello" beside Violin).
_INSTRUMENT = re.compile(
    r"\b(violin|viola|cello|violoncello|double\s+bass|contrabass|fiddle|trumpet|trombone"
    r"|french\s+horn|tuba|cornet|flugelhorn|euphonium|bugle|saxophone|sax|clarinet|oboe|bassoon"
    r"|english\s+horn|harmonica|accordion|melodica|bagpipes?|flute|piccolo|recorder|fife|guitar"
    r"|banjo|mandolin|ukulele|harp|lute|sitar|koto|zither|harpsichord|piano|organ|celesta"
    r"|clavinet|dulcimer|cimbalom|clavichord|synthesizer|marimba|xylophone|vibraphone"
    r"|glockenspiel)s?\b", re.IGNORECASE)
# An option is a family's member when it is that instrument, not when it mentions one ("A jazz
# piece with a trumpet solo" answers a question of genre): an article or a parenthesis aside.
_OPTION_FILLER = re.compile(r"^\s*(?:an?|the)\s+|\s*\([^()]*\)|[.!]+\s*$", re.IGNORECASE)
_NEGATED = re.compile(r"(?:\b(?:not|never|no|without|neither|nor|lacks?|unlike|than|instead\s+of"
                      r"|rules?\s+out|ruled\s+out|excludes?)|n['\u2019]t)\s+(?:[\w-]+\s+){0,3}$",
                      re.IGNORECASE)


def family_letters(options: Mapping[str, str], families: Families = INSTRUMENT_FAMILIES
                   ) -> dict[str, set[str]]:
    """``{family: letters of its member options}`` for the families with a member offered."""
    found: dict[str, set[str]] = {}
    for family, (_said, members) in families.items():
        member = re.compile(rf"(?:[\w-]+\s+){{0,2}}(?:{members})(?:\s+(?:solo|section|lead))?",
                            re.IGNORECASE)
        letters = {letter for letter, text in options.items()
                   if member.fullmatch(_OPTION_FILLER.sub("", str(text)).strip())}
        if letters:
            found[family] = letters
    return found


def instrument_family(options: Mapping[str, str], families: Families = INSTRUMENT_FAMILIES
                      ) -> Said | None:
    """The reader of an instrument said by its family (module doc), or None if no family
    has exactly one member among ``options``."""
    letters = family_letters(options, families)
    if not any(len(found) == 1 for found in letters.values()):
        return None
    patterns = {family: re.compile(said, re.IGNORECASE) for family, (said, _) in families.items()}
    offered = " | ".join(str(text) for text in options.values()).casefold()

    def said(text: str) -> tuple[set[str], str | None]:
        if any(m.group(1).casefold() not in offered for m in _INSTRUMENT.finditer(text)):
            return set(), "an instrument named that is not offered"  # "bowed, like a cello"
        answers = set(options)  # what every family said fits: "plucked" and "strummed" a guitar
        denied: set[str] = set()
        said_any = unoffered = False  # "a brass melody over bowed strings", no brass offered
        for family, pattern in patterns.items():
            for match in pattern.finditer(text):
                negated = _NEGATED.search(text[:match.start()][-40:])
                unoffered = unoffered or not (negated or family in letters)
                if negated:
                    denied |= letters.get(family, set())
                else:
                    said_any = True
                    answers &= letters.get(family, set())
        if not said_any or unoffered or len(answers) != 1 or answers & denied:
            return set(), "no one family said"
        return answers, None
    return said
