"""An answer given inside a reply's closing sentence rather than at its close (docs/reading.md,
round 21): in its opening clause (``To my ear it is a major chord, with the third sitting …,
and the voicing doubles …``; ``the chord is a plain major triad with its root doubled``) or in
a parenthesis that concludes (``… and the octave (so this is the minor option, B), and …``) or
names the quality of the thing asked about right after it (``a bright, open-sounding triad
(major), strummed …``); or at its close, made the choice (``… make techno the clear first
choice``, ``… leaves the violin as the obvious pick``).

Read only when no tier reads an answer or a hedge. The sentence may name no other option in any
clause (an interval, ``a minor third``, is a part and names none), and may not doubt, ask,
suppose or turn; an opening clause must commit to its option as a described answer does
(:mod:`solvers.descriptive`: said of the whole thing, the option closing the clause). Pure.
"""

from __future__ import annotations

import re
import unicodedata

from .choices import ChoiceReader
from .descriptive import INTERVAL
from .refusals import declines
from .reply_excerpt import clean_markup, unify_line_breaks

_MAX_CHARS = 1200  # a closing sentence's size
_MIN_WORDS = 8  # "Loop 2: two displaced hits.", "4. Dominant": an item, not a sentence
_WORD = re.compile(r"[^\W_]+")
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+")
_CLAUSE_BREAK = re.compile(r"\s*(?:[,:\u2014\u2013]|\s-\s|\s(?=(?:with|where|whereas|while|which)"
                           r"\b))\s*", re.IGNORECASE)
_PARENTHESIS = re.compile(r"\(([^()]{1,80})\)")
_DOUBT = re.compile(r"\?|\b(?:if|unless|whether|assuming|suppose|could|might|may|maybe|perhaps"
                    r"|possibly|probably|unsure|unclear|either|or|wait|actually|hmm+|instead"
                    r"|rather|also|sure|certain|confident|guess|but|though|although|however"
                    r"|not|no|never|neither|nor|except|until|than|like"
                    # a part altered or added changes what the option is ("a major chord, with
                    # a flattened seventh on top" is a dominant seventh)
                    r"|flat\w*|lower\w*|rais\w*|sharp\w*|added|extra|seventh|7th|9th"
                    r"|ninth|alter\w*|suspended|sus\d?|missing|omitted|without|replac\w*|bent"
                    r"|detuned|instead)\b|n['\u2019]t\b", re.IGNORECASE)
# "To my ear it is …", "By ear, …": how the speaker heard it, no part of the answer
_HEARD_AS = re.compile(r"^\W*(?:to\s+my\s+ears?|to\s+me|by\s+ear|as\s+i\s+hear\s+it|overall"
                       r"|all\s+in\s+all|in\s+short|in\s+sum)\s*,?\s*", re.IGNORECASE)
# A parenthesis that concludes ("so this is the minor option, B", "i.e. major") ...
_CONCLUDING = re.compile(r"^\s*(?:so|hence|thus|therefore|i\.?e\.?|that\s+is|that['\u2019]s"
                         r"|this\s+is|it['\u2019]s|it\s+is)\b", re.IGNORECASE)
# ... or names the quality of the thing asked about right after its noun ("triad (major)")
_WHOLE_NOUN = re.compile(r"\b(?:triad|chord|sonority|harmony|quality|meter|metre|time|tempo"
                         r"|instrument|timbre|genre|style|mood|contour|shape|level)\s*$",
                         re.IGNORECASE)
# "… make techno the clear first choice", "… leaves the violin as the obvious pick"
_MADE_CHOICE = re.compile(
    r"\b(?:make|makes|made|making|leave|leaves|left|leaving)\s+(?P<value>[^,;:()]{1,40}?)\s+"
    r"(?:as\s+)?the\s+(?:(?:clear|obvious|natural|safest|strongest)\s+)?(?:(?:first|top|best"
    r"|likeliest|most\s+likely)\s+)?(?:choice|pick|answer|candidate|bet)\s*[.!]?\s*$",
    re.IGNORECASE)
_RANKED_FIRST = re.compile(r"(?:^|[:;.]\s+)([^:;.>]{1,40}?)\s*>(?!=)")
_PART_WORDS = re.compile(r"\b(?:second|third|fourth|fifth|sixth|seventh|octave|semitones?"
                         r"|interval)\b", re.IGNORECASE)


def answer_inside_closing(reply: str, reader: ChoiceReader) -> str | None:
    """The one option the closing sentence of ``reply`` gives in its opening clause or a
    concluding parenthesis, when the sentence names no other (module doc), else None."""
    lines = [line.strip() for line in clean_markup(unify_line_breaks(
        unicodedata.normalize("NFKC", reply))).splitlines() if line.strip()]
    if not lines:
        return None
    closing = _SENTENCE_END.split(lines[-1])[-1]
    if len(closing) > _MAX_CHARS or len(_WORD.findall(closing)) < _MIN_WORDS \
            or _DOUBT.search(_PARENTHESIS.sub(" ", closing)) or declines(lines[-1]):
        return None  # a short closing is read by the tiers; "I'd rather not guess. …"
    found = set()
    for inner in _PARENTHESIS.finditer(closing):
        said = inner.group(1)
        if _PART_WORDS.search(said) or _DOUBT.search(said):
            continue
        if _CONCLUDING.match(said) or _WHOLE_NOUN.search(closing[:inner.start()]):
            letter = reader(said, "last_sentence")[0]
            if letter is not None:
                found.add(letter)
    made = _MADE_CHOICE.search(closing)
    if made is not None and (letter := reader(made.group("value"), "answer_sentence")[0]):
        found.add(letter)
        found |= {reader(top.group(1), "answer_sentence")[0] for top in _RANKED_FIRST.finditer(
            lines[-1])} - {None}  # "D > A > C > B": its top must be the choice made
    opening, *rest = _CLAUSE_BREAK.split(_PARENTHESIS.sub(" ", closing), maxsplit=1)
    letter = reader(_HEARD_AS.sub("", opening), "last_sentence")[0] if rest else None
    if letter is not None:  # an opening clause with more after it
        found.add(letter)
    if len(found) != 1:
        return None
    named = set()
    for clause in _CLAUSE_BREAK.split(INTERVAL.sub(" ", closing.replace("(", ",")
                                                     .replace(")", ","))):
        named |= reader.named(clause)[0]
    return next(iter(found)) if named <= found else None
