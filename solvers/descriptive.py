"""A reply whose last sentence describes its answer instead of stating it bare: "The song is
best described as a reggae track.", "..., which gives a diminished chord.", "Not a piano — the
notes swell like a bowed string, so violin." (docs/reading.md, round 6).

Read only when the plain choice reading finds nothing, and only of a fallback span (the last
line or sentence). Every clause of the span that names an option must either rule it out (a
negation before it: "Not a piano", "It is not a dominant seventh", "neither major nor minor")
or commit to it assertively: the option closes its clause (only filler after it) and what comes
before it is filler, the whole thing asked about as subject ("The phrase is played on ..."),
a relative or concluding opener ("which gives ...", "so ..."), a verb of evidence ("... point to
reggae"), a hearing ("I hear a violin") or a guess ("A good guess is the saxophone"); a clause
that names the same option without committing ("I count six off-beat hits: Medium-High
Syncopation.") is no second answer. Exactly one option may be committed to,
never one ruled out. A question, a condition, a doubt, a double negation, "not only", a turn
("but", "though") or a reason ("because") before an option, or an option said of a part ("the
third is major"), reads nothing. Intervals ("a major third", "a minor seventh") are the chord's
parts, never an option of their own. Pure: no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection

from .closing_clauses import introduces_what_is_denied
from .reply_spans import HEDGE
from .unnamed_answers import WHOLE_THING

Mentions = Callable[[str], list[tuple[int, int, str]]]  # (start, end, letter) of option texts
Named = Callable[[str], "tuple[set[str], str | None, bool]"]

_MAX_WORDS = 40
_CLAUSE_BREAK = re.compile(
    r"\s*(?:[,;:\n\u2014\u2013]|\s-\s|--|(?<![\d/])[.!](?=\s|$))\s*"
    r"|\s+(?=(?:which|so|thus|therefore|hence|because|since|given|but|however|although|though"
    r"|whereas|yet|while|unless|if|considering)\b)", re.IGNORECASE)
_OPENER = re.compile(r"\W*(\w+)")
_TURN_OR_REASON = frozenset("because since given but however although though whereas yet while "
                            "unless if considering".split())
_DOUBT = re.compile(r"\?|\b(?:if|unless|whether|assuming|suppose|supposing|could|might|may"
                    r"|maybe|perhaps|possibly|unsure|unclear|either|or|guessing|wait|actually"
                    r"|hmm+|correction|instead|alternatively|also|sure|certain|confident|unable"
                    r"|undecided|cannot|can['\u2019]?t|hard\s+to)\b", re.IGNORECASE)
# Words that compare with an option or say what it usually is, never that it is the answer:
# "which is typical of minor chords", "reminiscent of reggae".
_LIKENESS = re.compile(r"\b(?:typical(?:ly)?|characteristic|reminiscent|common(?:ly)?|usual(?:ly)?"
                       r"|often|sometimes|similar|associated|reminds?|kind\s+of|sort\s+of)\b",
                       re.IGNORECASE)
_NEGATION = re.compile(
    r"\b(?:not|no|never|nor|neither|none|nothing|without|unlike|except|rather|instead|than|"
    r"opposite|reverse|inverse|contrary|"  # "That is the opposite of an arch." (round 24)
    r"lacks?|lacking|missing|absent|hardly|barely|rules?\s+out|ruled\s+out|excludes?|excluding)"
    r"\b|n['\u2019]t\b", re.IGNORECASE)
_NEITHER_NOR = re.compile(r"\W*(?:it\s*(?:'|\u2019)?\s*s\s+|it\s+is\s+)?neither\b.+\bnor\b",
                          re.IGNORECASE | re.DOTALL)
_NOT_ONLY = re.compile(r"\bnot\s+(?:only|just|merely|simply|solely)\b", re.IGNORECASE)
# Only a ruling out said of the answer itself leaves the other of two options: "Loop 1 isn't
# the answer", "Not loop 1", "It's not the first loop"; never one said through another
# property ("Loop 1 is not the quieter one" may mean it is the busier one).
_AS_ANSWER = re.compile(r"\s*(?:is|was)\s*(?:not\b|n['\u2019]t\b)\s*(?:the\s+)?(?:answer|it"
                        r"|(?:right|correct)\s+(?:one|answer|choice|option))\W*$", re.IGNORECASE)
# "Reggae isn't it", "The violin is not audible": the option before a negated copula.
_NEGATED_AFTER = re.compile(r"\s*(?:is|was|are|were|does|did)\s*(?:not\b|n['\u2019]t\b)",
                            re.IGNORECASE)
INTERVAL = re.compile(  # a chord's part, never an option of its own
    r"\b(?:major|minor|perfect|diminished|augmented|flat(?:ted)?|sharp)\s+(?:second|third|fourth"
    r"|fifth|sixth|seventh|ninth|2nd|3rd|4th|5th|6th|7th|9th|intervals?)\b"
    r"(?!\s+(?:chord|sound|arpeggio|triad|harmony|quality))", re.IGNORECASE)
_CONNECTIVE = r"(?:(?:and\s+)?(?:so|thus|therefore|hence|overall|which|that)\b[\s,]*)?"
# The whole thing asked about, and every one of its steps ("every step goes down").
_WHOLE = (rf"(?:{WHOLE_THING}|excerpt|sample|audio|sound|tone|tune|phrase|line|lead|harmony"
          r"|pattern|loop|step|steps|note|notes|interval|intervals)")
_SUBJECT = re.compile(
    rf"\W*{_CONNECTIVE}(?:it|this|that|(?:the|this|that|its|every|each|all(?:\s+the)?)\s+"
    rf"(?:(?:overall|whole|main|entire)\s+)?{_WHOLE})\b", re.IGNORECASE)
_RELATIVE = re.compile(r"\W*(?:which|that)\s+(?:is|was|are|makes?|gives?|sounds?\s+like)\b",
                       re.IGNORECASE)
_HEARING = re.compile(rf"\W*{_CONNECTIVE}(?:i|we)\s+(?:can\s+)?(?:hear|heard|detect|detected)\b"
                      r"|\W*(?:a|my|the)\s+(?:good|safe|fair|best)\s+guess\s+(?:here\s+|for\s+(?:this|it)\s+)?"
                      r"(?:is|would\s+be)\b",
                      re.IGNORECASE)
# "so I'd describe the mood as joyful", "I would classify it as": the speaker naming the answer
_NAMING = re.compile(
    rf"\W*{_CONNECTIVE}(?:i|we)(?:\s*['\u2019]d|\s+would|\s*['\u2019]ll|\s+will)?\s+"
    r"(?:describe|characteri[sz]e|classify|categori[sz]e|label)\s+(?:it|this|that|the\s+\w+)"
    r"\s+as\s*$", re.IGNORECASE)
_EVIDENCE = re.compile(
    r"\b(?:points?|pointing)\s+(?:(?:\w+ly|straight|right|directly)\s+)?to|\b(?:suggests?|indicates?|gives?|means?|signals?|confirms?"
    r"|makes?\s+(?:it|this|that))\b|\badds?\s+up\s+to\b"
    # "which puts this loop at medium-high syncopation"
    r"|\b(?:puts?|places?)\s+(?:it|this|that|(?:the|this|that)\s+\w+)\s+(?:at|in)\b",
    re.IGNORECASE)
_PART = re.compile(r"\b(?:third|fifth|seventh|root|bass|top|bottom|interval|accompaniment"
                   r"|background|intro|outro|ending|start|opening|first\s+note|last\s+note)\b",
                   re.IGNORECASE)
# Verbs and adverbs that say the option holds for a while only: "The melody starts on a piano."
_PARTLY = re.compile(r"\b(?:starts?|begins?|opens?|ends?|finish(?:es)?|closes?|joins?|enters?"
                     r"|later|then|first|briefly|occasionally|sometimes|partly|mostly)\b",
                     re.IGNORECASE)
_WORD = re.compile(r"[^\W_]+")
# An option's letter said after its text at the end: ", option C.", " (C).", " - choice C"
_LETTER_TAG = re.compile(r"(?:\s*[,\u2014\u2013]\s*|\s+-\s+|\s+)(\(?(?:option|choice|answer|letter)"
                         r"\s+\(?[A-Za-z]\)?|\([A-Z]\))\s*[.!]?\s*$", re.IGNORECASE)


def described_reading(text: str, reading: tuple, mentions: Mentions, named: Named,
                      filler: Collection[str], letters: Collection[str]) -> tuple:
    """``reading`` (a choice reader's, with no answer) replaced by the option ``text``
    describes, if any; a hedge made only of intervals ("a minor third and a diminished fifth")
    names no option, so it is no hedge either."""
    described = described_option(text, mentions, named, filler, letters)
    if described is not None:
        return described, None, "described"
    if reading[1] == HEDGE and not named(INTERVAL.sub(" ", text))[0]:
        return None, "no option named"
    return reading


def described_option(text: str, mentions: Mentions, named: Named, filler: Collection[str],
                     letters: Collection[str]) -> str | None:
    """The one option ``text`` commits to by description (module doc), or None.

    ``mentions`` finds option texts and aliases in a clause, ``named`` every option named
    (letters too), ``filler`` the words an answer may carry, ``letters`` the options in order.
    """
    if _DOUBT.search(text) or _NOT_ONLY.search(text) or len(_WORD.findall(text)) > _MAX_WORDS \
            or introduces_what_is_denied(text):  # "What it is not: Arch."
        return None
    tag = _LETTER_TAG.search(text)  # "That points to steel drums, option C."
    if tag is not None:
        said = described_option(text[:tag.start()], mentions, named, filler, letters)
        return said if said is not None and named(tag.group(1))[0] == {said} else None
    if any(_LETTER.search(clause) for _opener, clause in _clauses(text)
           for _LETTER in _letter_patterns(letters)):
        return None  # "the chord is C major": an option letter or a note name
    chosen: set[str] = set()
    mentioned: set[str] = set()  # named without a commitment ("I count six off-beat hits")
    ruled_out: set[str] = set()
    as_answer = True  # every ruling out said of the answer itself (for two options)
    for opener, clause in _clauses(text):
        clause = INTERVAL.sub(" ", clause)
        found = mentions(clause)
        options = {letter for _start, _end, letter in found}
        if named(clause)[0] != options:
            return None  # a letter or a form read otherwise: not a description
        if not options:
            continue
        negations = _NEGATION.findall(clause)
        if opener in _TURN_OR_REASON:
            return None
        if len(options) > 1:  # "neither major nor minor" rules both out; any other two: none
            if len(negations) != 2 or not _NEITHER_NOR.match(clause):
                return None
            ruled_out |= options
            continue
        first_start, first_end, _letter = found[0]
        if negations:
            before = _NEGATION.search(clause[:first_start])
            after = _NEGATED_AFTER.match(clause[first_end:])
            if len(negations) != 1 or not (before or after):
                return None
            ruled_out |= options
            lead = _WORD.findall(clause[:before.start()]) if before else []
            said_of_answer = (_AS_ANSWER.match(clause[first_end:]) is not None if after
                              else all(word.casefold() in filler for word in lead))
            as_answer = as_answer and said_of_answer
            continue
        committed = _commits(clause[:first_start], clause[found[-1][1]:], filler)
        (chosen if committed else mentioned).update(options)
    if len(chosen) == 1 and not chosen & ruled_out and mentioned <= chosen:
        return next(iter(chosen))
    if not chosen | mentioned and len(ruled_out) == 1 and len(letters) == 2 and as_answer:
        return next(letter for letter in letters if letter not in ruled_out)
    return None


def _letter_patterns(letters: Collection[str]) -> list[re.Pattern]:
    """An option letter standing alone, save the article opening a clause ("A good guess")."""
    return [re.compile(rf"(?<!^)(?<![^\W\d_])\b{re.escape(letter)}\b(?![-'\u2019#])"
                       if letter == "A" else rf"\b{re.escape(letter)}\b(?![-'\u2019#])")
            for letter in letters if len(letter) == 1 and letter.isupper() and letter != "I"]


def _clauses(text: str) -> list[tuple[str, str]]:
    """The text cut into clauses, each with its opening word (a parenthesis stays with the
    clause it follows: "triple time (3/4)")."""
    clauses = []
    for piece in _CLAUSE_BREAK.split(text):
        if piece and _WORD.search(piece):
            opener = _OPENER.match(piece)
            clauses.append((opener.group(1).casefold() if opener else "", piece))
    return clauses


def _commits(lead: str, tail: str, filler: Collection[str]) -> bool:
    """Whether an option between ``lead`` and ``tail`` is committed to: only filler after it,
    and before it filler, the whole thing as subject, a hearing, or a verb of evidence."""
    if _LIKENESS.search(lead) or _PARTLY.search(lead) or any(word.casefold() not in filler
                                     for word in _WORD.findall(tail)):
        return False  # "a piano in the background", "a major chord with a flat fifth"
    if all(word.casefold() in filler for word in _WORD.findall(lead)):
        return True
    if _EVIDENCE.search(lead) or _HEARING.match(lead) or _RELATIVE.match(lead) \
            or _NAMING.match(lead) and not _PART.search(lead):  # never "the opening as"
        return True
    return bool(_SUBJECT.match(lead)) and not _PART.search(lead[_SUBJECT.match(lead).end():])
