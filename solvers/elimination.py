"""An answer given by ruling out every other option: "C is out. … D is out. … which excludes
B. Only one option survives." is A (docs/reading.md, round 7).

A grader reads the one option left when the reply rules out each of the others explicitly, by
its text, alias or letter ("it is not the piano", "not reggae or bluegrass", "so C is out",
"which excludes B", "far too brassy for a flute", "no harpsichord to suggest the Baroque"),
and says nothing else of any option. Never when a clause names an option otherwise, when the
reply doubts, asks or supposes ("maybe", "?", "if"), says no option fits, or leaves two.
"""

from __future__ import annotations

import re

from .choices import ChoiceReader

MAX_REPLY_CHARS = 4000  # a reasoning this long that never names its answer is not read
_NEGATION = re.compile(r"\b(?:not|never|cannot|no)\b|n['\u2019]t\b", re.IGNORECASE)
# Clause boundaries: sentence ends, semicolons, colons, commas, and the joining words.
_CLAUSES = re.compile(r"[.;:!\n]\s*|,\s*|\s+[\u2014\u2013]\s+|\s+(?:so|which|thus|hence|therefore|"
                      r"while|whereas)\s+|\s+and\s+(?=(?:it|this|that|there|so|which)\b)",
                      re.IGNORECASE)
_JOINING = re.compile(r"^(?:(?:and|but|so|then|also|thus|which)\s+)+", re.IGNORECASE)
# A clause that rules out what it ends with.
_RULED_OUT = (
    # "it is not the piano", "It's clearly not reggae or bluegrass", "not a seventh"
    re.compile(r"^(?:(?:it|this|that)(?:\s*['\u2019]\s*s|\s+is|\s+isn['\u2019]t)\s+)?"
               r"(?:(?:clearly|definitely|certainly|surely|also|obviously)\s+)?(?:not\s+)?"
               r"(?!(?:only|just|merely|simply|exactly|quite|necessarily)\b)"
               r"(?:(?:a|an|the)\s+)?(?P<what>.+?)(?:\s+either)?$", re.IGNORECASE),
    # "C is out", "B is ruled out", "the flute is excluded too"
    re.compile(r"^(?P<what>.+?)\s+(?:is|are)\s+(?:also\s+|all\s+)?(?:out|ruled\s+out|excluded|"
               r"eliminated)(?:\s+(?:too|as\s+well))?$", re.IGNORECASE),
    # "(which) excludes B", "rules out the violin", "that eliminates D"
    re.compile(r"^(?:(?:this|that|it)\s+)?(?:excludes|rules\s+out|eliminates)\s+(?P<what>.+)$",
               re.IGNORECASE),
    # "the tone is far too brassy and buzzy for a flute"
    re.compile(r"\btoo\s+(?:[\w-]+\s+){1,4}?for\s+(?:a\s+|an\s+|the\s+)?(?P<what>.+)$",
               re.IGNORECASE),
    # "there is no harpsichord or continuo to suggest the Baroque"
    re.compile(r"^(?:there\s+(?:is|are)\s+)?no\s+.+?\s+to\s+(?:suggest|indicate|point\s+to)\s+"
               r"(?P<what>.+)$", re.IGNORECASE),
)
# A parenthetical aside explains ("not the flute (far too brassy)"): left out unless it names
# an option.
_ASIDE = re.compile(r"\s*\([^()]*\)")
# An aside that only rules out ("(not C)") is a clause of its own (round 24).
_RULING_ASIDE = re.compile(r"\s*\(\s*(not\s+[^()]{1,40})\)", re.IGNORECASE)
# The close of a list ruled out together: "…, arch and inverted arch are all out".
_LIST_RULED_OUT = re.compile(r"\band\b.+\bare\s+(?:also\s+|all\s+)?(?:out|ruled\s+out|excluded"
                             r"|eliminated)\b", re.IGNORECASE)
_WORD = re.compile(r"[^\W_]+")
_MAX_LIST_ITEM_WORDS = 3  # "ascending", "the flute": an item of a list, not a clause
# A clause that opens "not"/"isn't" rules out (the first pattern); the others must not be negated.
_OPENING_NEGATION = re.compile(r"^(?:(?:it|this|that)(?:\s*['\u2019]\s*s|\s+is)\s+)?(?:\w+\s+)?"
                               r"not\b|^(?:it|this|that)\s+isn['\u2019]t\b", re.IGNORECASE)
_DOUBT = re.compile(r"\?|\b(?:maybe|perhaps|possibly|probably|might|could|unsure|uncertain|"
                    r"not\s+(?:\w+\s+)?(?:sure|certain|confident)|if|unless|whether|assuming|"
                    r"suppose|none|neither|nor|either\s+\w+\s+or|all\s+of\s+them|hard\s+to|"
                    r"can['\u2019]?t\s+(?:tell|say|decide)|guess)\b", re.IGNORECASE)


def option_left(reply: str, reader: ChoiceReader) -> str | None:
    """The one option of ``reader`` the reply leaves after ruling out each of the others
    explicitly, or None (see the module doc)."""
    if len(reply) > MAX_REPLY_CHARS or len(reader.options) < 2 or _DOUBT.search(reply):
        return None
    ruled_out: set[str] = set()
    named_alone: set[str] = set()
    listed: set[str] = set()  # "ascending, arch and inverted arch are all out": the list's head
    reply = _RULING_ASIDE.sub(r"; \1;", reply)  # "it doesn't go up (not C), …": C ruled out
    reply = _ASIDE.sub(lambda aside: aside.group() if reader.named(aside.group())[0] else "", reply)
    after_comma = False
    for clause in _CLAUSES.split(reply.replace(",", "\0,")):
        if not after_comma:
            listed = set()  # a list runs on after a comma only
        after_comma = clause.endswith("\0")
        clause = _JOINING.sub("", clause.replace("\0", "").strip(" \t*_`'\"()[]"))
        named, _via, _pure = reader.named(clause)
        if not named:
            listed = set()
            continue
        out = _ruled_out(clause, reader)
        if out:
            ruled_out |= out
            if _LIST_RULED_OUT.search(clause):
                ruled_out |= listed
                named_alone -= listed
            listed = set()
            continue
        named_now, _via, pure = reader.named(clause)
        if not pure or len(named_now) != 1:
            return None  # an option named otherwise than ruled out: not an elimination
        named_alone |= named_now
        listed = named_now if len(_WORD.findall(clause)) <= _MAX_LIST_ITEM_WORDS else set()
    left = [letter for letter in reader.options if letter not in ruled_out]
    if len(left) != 1 or named_alone - set(left):
        return None
    return left[0]


def _ruled_out(clause: str, reader: ChoiceReader) -> set[str]:
    """The options ``clause`` rules out, if it only rules options out; else an empty set."""
    negations = len(_NEGATION.findall(clause))
    for index, pattern in enumerate(_RULED_OUT):
        match = pattern.search(clause)
        if match is None:
            continue
        opening_negated = bool(_OPENING_NEGATION.match(clause))
        if index == 0 and not (opening_negated and negations == 1):
            continue  # "It is the piano" rules nothing out; "not not" is no exclusion
        expected = 1 if index == 4 else 0  # "there is no X to suggest B": its own "no"
        if index and negations != expected:
            continue  # "C is not out", "I can't rule out D"
        named, _via, pure = reader.named(match.group("what"))
        if named and pure:
            return named
    return set()
