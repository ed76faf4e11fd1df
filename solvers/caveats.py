"""A mild caveat after a committed answer: "Minor, though I'm not fully certain about the
fifth.", "Final Answer: E, though the fourth bar was hard to hear clearly.", "Excerpt 1, I
believe, though the difference is small."

A careful grader credits a guess that commits to one answer; the caveat names no second option,
so it is no hedge. :mod:`solvers.reply_spans` reads every line without it. Only these forms are
caveats, each closing its sentence: a concession that the speaker is not *fully* certain
(an adverb of degree is required: "though I'm not sure" stays a doubt) or could be wrong, that a
part was hard to hear, or that a difference is small; and a parenthetical "I think" / "I believe"
/ "I'd guess" between commas. A caveat that offers anything ("…, though it might be C", "… — a
flute is also possible") is none of these and stays a hedge. Pure; no I/O.
"""

from __future__ import annotations

import re

_DEGREE = (r"(?:fully|entirely|completely|totally|wholly|absolutely|quite|100\s*%"
           r"|a\s+hundred\s+percent)")
# a few words, no second clause (each word and its space matched one way only: linear time)
_NOT_ABOUT = r"(?!(?:or|and|but|maybe|might|could|possibly|perhaps|either)\b)"
_WORDS = rf"(?:{_NOT_ABOUT}[^\s,;.!?\u2014\u2013]+\s+){{0,5}}{_NOT_ABOUT}[^\s,;.!?\u2014\u2013]+"
_ABOUT = rf"(?:\s+(?:about|of|on|regarding|with|as\s+to)\s+(?P<about>{_WORDS}))?"
_BE = r"(?:was|is|were|are)\s+(?:a\s+(?:bit|little)\s+|quite\s+|rather\s+|somewhat\s+|very\s+)?"
# "the fourth bar was hard to hear clearly", "the new key is hard to pin down"; of a pronoun
# only hearing ("it was hard to hear"): "it is hard to tell" doubts the answer itself
_HARD = (r"(?:(?P<part>(?:the|a|one|its|my|this|that)\s+(?:(?!(?:or|and|but)\b)[^\s,;.!?]+\s+)"
         rf"{{1,5}}?){_BE}(?:hard|difficult|tricky)\s+to\s+(?:hear|make\s+out|pin\s+down|count)"
         rf"|(?:it|they)\s+{_BE}(?:hard|difficult|tricky)\s+to\s+(?:hear|make\s+out))"
         r"(?:\s+(?:clearly|well|exactly))?")
_CONCESSION = r"(?:though|although|but|even\s+though|albeit)\s+"
_NOT_FULLY = (rf"I\s*(?:['\u2019]m|\s+am)\s+not\s+{_DEGREE}\s+(?:certain|sure|confident)"
              r"|I\s+(?:could|might|may)\s+be\s+(?:wrong|mistaken)")
CAVEAT = re.compile(
    r"(?:\s*[,;]|\s+[\u2014\u2013-]|\s*[\u2014\u2013])\s*"
    rf"(?:(?:{_CONCESSION})?(?:{_NOT_FULLY}){_ABOUT}(?:,?\s+though)?"  # "— I'm not sure, though"
    rf"|{_CONCESSION}the\s+difference\s+is\s+(?:small|subtle|slight)|(?:{_CONCESSION})?{_HARD})"
    r"(?=\s*(?:[.!](?:\s|$)|$))"
    rf"|\s*\((?:{_CONCESSION})?(?:{_NOT_FULLY})\)",  # "B (though I could be wrong)"
    re.IGNORECASE)
# "An arch shape, I think.", "A nightclub, I'd guess, because …": the manner of the answer.
PARENTHETICAL = re.compile(
    r",\s*I\s*(?:think|believe|reckon|suppose|(?:['\u2019]d|\s+would)\s+(?:guess|say))"
    r"(?=\s*(?:,|[\u2014\u2013]|\s-\s|[.!](?:\s|$)|$))", re.IGNORECASE)


def split_caveat(line: str) -> tuple[str, list[str]]:
    """``line`` with a mild caveat closing a sentence, and a parenthetical "I think", left out;
    and what each caveat is about ("the fifth", "the fourth bar"), which the reader must find
    naming no other answer ("…, though I'm not fully certain about major" stays a hedge)."""
    subjects = [found.group("about") or found.group("part") or ""
                for found in CAVEAT.finditer(line)]
    return PARENTHETICAL.sub("", CAVEAT.sub("", line)), [s.strip() for s in subjects if s.strip()]


def without_caveats(lines: list[str]) -> tuple[list[str], list[str]]:
    """The lines without their mild caveats, and what every caveat is about."""
    split = [split_caveat(line) for line in lines]
    return [line for line, _ in split], [subject for _, subjects in split for subject in subjects]
