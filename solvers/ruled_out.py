"""Ruling out one of exactly two options: "It's not a major chord." (Major/Minor) commits to
the other option, since no third answer is left (docs/reading.md, round 5); and the clauses of
a list that only rules options out ("it isn't Major and it isn't Dominant", round 10)."""

from __future__ import annotations

import re
from collections.abc import Callable

# A whole span that only negates one option: "It's not a major chord.", "Not major.",
# "This isn't loop 1." Never "not only/just major" (which keeps major) and never an
# uncertain one (the caller checks uncertainty words first).
_RULED_OUT = re.compile(
    r"\s*(?:(?:it|this|that)\s*(?:'|\u2019)?\s*s\s+|(?:it|this|that)\s+is\s+|"
    r"(?:it|this|that)\s+isn\s*(?:'|\u2019)?\s*t\s+|(?:it|this|that)\s+(?:can(?:'|\u2019)?t|cannot)"
    r"\s+be\s+)?"
    r"(?:(?:definitely|certainly|clearly|surely|absolutely)\s+)?(?:not\s+)?"
    r"(?!(?:only|just|merely|simply|exactly|quite|necessarily)\b)(?P<what>.+?)[\s.!]*",
    re.IGNORECASE | re.DOTALL)
# A list of clauses each ruling one option out: "it isn't Major and it isn't Dominant", "neither
# major nor minor nor dominant" (cut at its commas, "and"s and "nor"s).
RULED_OUT_PARTS = re.compile(r"\s*,\s*(?:and\s+)?|\s+and\s+(?=(?:it|this|that|not|nor)\b)"
                             r"|\s+(?=nor\b)", re.IGNORECASE)
NEGATED_PART = re.compile(r"\s*(?:(?:it|this|that)\s*(?:(?:'|\u2019)\s*s\s+not|\s+is\s+not"
                          r"|\s+isn\s*(?:'|\u2019)\s*t|\s+is\s+neither)|neither|not|nor)\s+(?P<what>.+)",
                          re.IGNORECASE | re.DOTALL)
_NEGATED = re.compile(r"\bnot\b|\bisn\s*(?:'|\u2019)?\s*t\b|\bcan(?:'|\u2019)?t\b|\bcannot\b",
                      re.IGNORECASE)

Named = Callable[[str], tuple[set[str], str | None, bool]]


def other_of_two(text: str, options: list[str], named: Named) -> str | None:
    """The option left when ``text`` rules out the other of exactly two ``options`` by
    its text, with no other words but filler; otherwise None."""
    if len(options) != 2:
        return None
    match = _RULED_OUT.fullmatch(text)
    head = text[:match.start("what")] if match else ""
    if not match or len(_NEGATED.findall(head)) != 1 or _NEGATED.search(match.group("what")):
        return None
    ruled_out, via, pure = named(match.group("what"))
    if len(ruled_out) != 1 or not pure or via != "option_text":
        return None
    (left,) = [letter for letter in options if letter not in ruled_out]
    return left


# "Triple? No. …": an option asked and denied at once is ruled out, as "Not triple." says it
# (round 24); never "Triple? No idea." or "Triple? No, …, yes." (a "no" closing its sentence).
_ASKED_AND_DENIED = re.compile(r"(?:^|(?<=[.!?:]\s)|(?<=\n))(?P<what>[^.?!:\n]{1,40})\?\s*"
                               r"(?:no|nope|not\s+really)\s*(?P<end>[.!\u2014\u2013]|\s-\s|$)",
                               re.IGNORECASE | re.MULTILINE)


def asked_and_denied(text: str, named: Named) -> str:
    """``text`` with each option asked and answered "No." written as ruled out ("Not X.")."""
    def rule_out(match: re.Match[str]) -> str:
        what = match.group("what").strip()
        found, _via, pure = named(what)
        return f"Not {what}." if len(found) == 1 and pure else match.group()
    return _ASKED_AND_DENIED.sub(rule_out, text) if "?" in text else text
