"""A mild caveat after a committed answer: "Minor, though I'm not fully certain about the
fifth.", "Final Answer: E, though the fourth bar was hard to hear clearly.", "Excerpt 1, I
believe, though the difference is small."

A careful grader credits a guess that commits to one answer; the caveat names no second option,
so it is no hedge. :mod:`solvers.reply_spans` reads every line without it. Only these forms are
caveats, each closing its sentence: a concession that the speaker is not *fully* certain
(an adverb of degree is required: "though I'm not sure" stays a doubt) or could be wrong, that a
part was hard to hear (or follow), that a part was left unclear or a recording is louder or
quieter (after "though": round 16), or that a difference is small; and a parenthetical "I think"
/ "I believe" / "I'd guess" between commas. Round 18: a part hard to separate or tell apart, a
part's size against another's, a short cause followed by "so I'm not fully certain", a second
doubt chained to a caveat, and a caveat in parentheses. A caveat that offers anything ("…,
though it might be C", "… — a flute is also possible") is none of these and stays a hedge.
Round 20: a sound masking a part, a part hard to confirm, a cause that makes it hard to be
*fully* sure, a part not (fully) obvious or clear or sounding incomplete, a short cause joined
to the doubt by "and", and a closing "I'm fairly sure" / "I'm quite confident".
Pure; no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Callable

MAX_ABOUT_WORDS = 10  # "about the tom fill close to the end of bar 3"
_DEGREE = (r"(?:fully|entirely|completely|totally|wholly|absolutely|quite|very|100\s*%"
           r"|a\s+hundred\s+percent)")
# a few words, no second clause (each word and its space matched one way only: linear time)
_NOT_ABOUT = (r"(?!(?:or|and|but|maybe|might|could|possibly|perhaps|either|also|possible|else"
              r"|other|instead|rather|not|no|never|[a-z]+n['\u2019]t|differ\w*|different)\b)")
_WORDS = (rf"(?:{_NOT_ABOUT}[^\s,;.!?:\u2014\u2013]+\s+){{0,{MAX_ABOUT_WORDS - 1}}}"
          rf"{_NOT_ABOUT}[^\s,;.!?:\u2014\u2013]+")
# what the doubt is about ("about the chord right before the last cadence"), or its reason
# ("given how quiet the take is", ": the reverb smears its low register"): read, may only veto
_ABOUT = (rf"(?:\s+(?:about|of|on|in|regarding|with|as\s+to)\s+(?P<about>{_WORDS})"
          rf"|(?:\s+(?:given|since|because)\s+|\s*[:;\u2014\u2013]\s*)(?P<reason>{_WORDS}))?")
# what was hard to do with a part: hear it, place it, or tell its notes apart (round 18)
_HEARD = (r"(?:hear|make\s+out|pin\s+down|count|place|follow|separate|distinguish|tell\s+apart"
          r"|pick\s+out|isolate|catch|confirm|verify)")
_BE = (r"(?:was|is|were|are)\s+"
       r"(?:a\s+(?:bit|little)\s+|quite\s+|rather\s+|somewhat\s+|very\s+|slightly\s+)?")
# "the fourth bar was hard to hear clearly", "the new key is hard to pin down"; of a pronoun
# only hearing ("it was hard to hear"): "it is hard to tell" doubts the answer itself
_HARD = (r"(?:(?P<part>(?:the|a|one|its|my|this|that)\s+(?:(?!(?:or|and|but)\b)[^\s,;.!?]+\s+)"
         rf"{{1,8}}?){_BE}(?:hard|difficult|tricky)\s+to\s+"
         rf"{_HEARD}"
         rf"|(?:it|they)\s+{_BE}(?:hard|difficult|tricky)\s+to\s+(?:hear|make\s+out))"
         r"(?:\s+(?:clearly|well|exactly|precisely))?"
         # "hard to separate from the kick", "… to hear over the drums": what it blurs into is
         # read too (round 18)
         r"(?:\s+(?:from|over|under|against|behind|beneath|through|amid|among|in)\s+"
         r"(?P<apart>(?:the|each|one|its|my)(?:\s+[^\W\d_]+){1,3}))?")
# "though where the loop begins made the opening bar a bit unclear": a cause blurring a
# part (never "though it is unclear", which doubts the answer itself)
# (of a pronoun only hearing, as above: "though the reverb makes it hard to hear"; round 18)
_BLUR = (rf"(?P<blur>{_WORDS}\s+(?:made|makes?|left|leaves?)\s+(?:(?:the|a|one|its|my|this|that)"
         rf"\s+{_WORDS}|(?P<it>it|them)))\s+(?:a\s+(?:bit|little)\s+|slightly\s+|somewhat\s+"
         r"|rather\s+)?(?(it)(?:hard|difficult|tricky)\s+to\s+(?:hear|make\s+out|catch"
         rf"|be\s+{_DEGREE}\s+(?:sure|certain))"
         rf"|(?:ambiguous|unclear|blurry|hard\s+to\s+{_HEARD}))")
# "though the last chord is a bit ambiguous in the second recording": a part left unclear,
# only after a concession ("The third is ambiguous; …" opens a doubt, no caveat)
_UNCLEAR = (r"(?P<unclear>(?:the|a|one|its|my|this|that)\s+(?:(?!(?:or|and|but)\b)[^\s,;.!?]+\s+)"
            rf"{{1,8}}?)(?:{_BE}|(?:sounds|seems|sounded|seemed)\s+)(?:ambiguous|unclear|muddy|murky"
            rf"|indistinct|incomplete|not\s+(?:{_DEGREE}\s+)?(?:obvious|clear))"
            r"(?:\s+(?:in|on|at|during)\s+(?:the|a|this|that|its|my)(?:\s+[^\W\d_]+){1,4})?")
# "although the second recording is a bit louder": how a recording sounds, not the music asked
# (round 18: "excerpt 2 sounds slightly louder")
_RECORDING = r"(?:recording|take|clip|excerpt|version|loop)"
_LEVEL = (rf"(?P<level>(?:(?:the|one)\s+(?:(?:first|second|other|later)\s+)?(?:{_RECORDING}|one)"
          rf"(?:\s+of\s+them)?|{_RECORDING}\s+(?:\d|[a-d]|one|two))\s+"
          r"(?:was|is|were|are|sounds|seemed|seems|sounded)\s+"
          r"(?:a\s+(?:bit|little)\s+|quite\s+|rather\s+|somewhat\s+|very\s+|slightly\s+)?"
          r"(?:louder|quieter|softer|noisier|muffled))")
# "though the descent is a bit shorter than the climb": one part's size against another's, a
# detail of the answer (round 18); never a recording's ("the second clip is longer than …")
_PROPORTION = (rf"(?P<proportion>(?:the|its|one|this|that)\s+(?!(?:{_RECORDING}s?|ones?|first"
               r"|second|other|two|both)\b)(?:(?!(?:or|and|but)\b)[^\s,;.!?]+\s+){1,4}?"
               rf"{_BE}(?:shorter|longer|smaller|larger|briefer|wider|narrower)\s+than\s+"
               r"(?:the|its|that|those|a|one|my)(?:\s+[^\W\d_]+){1,4})")
# "though the crowd noise masks it somewhat": a sound covering a part (round 20)
_MASK = (rf"(?P<mask>{_WORDS})\s+(?:masks|masked|obscures|obscured|muffles|muffled|covers"
         r"|covered|buries|buried|drowns\s+out|drowned\s+out)\s+(?:it|them|(?P<masked>(?:the|a|one"
         rf"|its|my|this|that)\s+{_WORDS}))(?:\s+(?:somewhat|a\s+bit|a\s+little|slightly|partly"
         r"|partially|at\s+times))?")
# "though the song's intro is rubato", "although the fifth chord briefly tonicizes F": a
# condition stated of a part with no doubt, offer, negation, likeness or comparison (round 21);
# its words are read to veto ("Minor, though the chord is diminished" stays a hedge)
_NOT_STATED = (r"(?!(?:may|might|could|can|would|should|must|seems?|seemed|sounds?|sounded"
               r"|like|likely|probably|perhaps|possibly|maybe|appears?|unsure|unclear|sure"
               r"|certain|confident|think|guess|hard|tell|wrong|mistaken|doubt\w*|also|too"
               r"|either|neither|both|same|similar|than|or|and|but|instead|rather|other|else"
               r"|not|no|never|none|nothing|without|[a-z]+n['\u2019]t|differ\w*|different"
               r"|I|I['\u2019]\w+|me|my|option|answer|choice"
               # no change, difference or error of a part, nor one of the things compared
               r"|chang\w*|mov\w*|shift\w*|modulat\w*|leav\w*|return\w*|turn\w*|switch\w*"
               r"|new|key|alter\w*|wrong|off|extra|missing|add\w*|drop\w*|late|early|displac\w*"
               r"|transpos\w*|first|second|third|other|latter|former|loops?|excerpts?|clips?"
               r"|recordings?|versions?|rhythms?|melod\w+|progressions?|patterns?|takes?"
               # nor a key, an altered note, or a part said against the other clip
               r"|major|minor|relative|dominant|subdominant|flat\w*|sharp\w*|lowered|raised"
               r"|natural|accidentals?|chromatic|longer|shorter|higher|lower|faster|slower"
               r"|louder|softer|quieter|earlier|later|ahead|behind|delay\w*|push\w*"
               r"|anticipat\w*|syncopat\w*)\b)")
_STATED = (r"(?:though|although|even\s+though)\s+(?P<stated>(?:the|its|it|this|that|one|some"
           rf"|their|there)\s+(?:{_NOT_STATED}[^\s,;.!?:()\u2014\u2013]+\s+){{0,8}}"
           rf"{_NOT_STATED}[^\s,;.!?:()\u2014\u2013]+)")
_CONCESSION = r"(?:though|although|but|even\s+though|albeit)\s+"
_NOT_FULLY = (rf"I\s*(?:['\u2019]m|\s+am)\s+not\s+{_DEGREE}\s+(?:certain|sure|confident)"
              r"|I\s+(?:could|might|may)\s+be\s+(?:wrong|mistaken)")
# "though the recording was noisy, so I'm not fully sure": a short cause, then the doubt
# (never a doubt of the answer itself: "though it was hard to tell, so …")
# (the doubt itself, after "so" or "and", is not looked into: round 20)
_CAUSE = (r"(?!(?:(?!\s(?:so|and)\s+I\b)[^,;.!?]){0,120}\b(?:hard|difficult|tricky|unclear"
          rf"|ambiguous|tell|sure|certain|guess)\b)(?P<cause>{_WORDS}),?\s+(?:so|and)\s+(?:{_NOT_FULLY})")
# The caveat follows a comma, semicolon or dash and closes a sentence or a parenthesis, or it
# is a parenthesis of its own ("B (the inner voices were hard to make out)": round 18); a second
# doubt may follow it ("…, though the lyrics are hard to make out, so I'm not fully certain").
CAVEAT = re.compile(
    r"(?:\s*[,;]|\s+[\u2014\u2013-]|\s*[\u2014\u2013]|\s*(?P<paren>\())\s*"
    rf"(?:(?:{_CONCESSION}|and\s+)?(?:{_NOT_FULLY}){_ABOUT}(?:,?\s+though)?"  # "— I'm not sure,
    rf"|{_CONCESSION}the\s+difference\s+is\s+(?:small|subtle|slight)"  # though"
    rf"|(?:{_CONCESSION})?{_HARD}|{_CONCESSION}{_BLUR}|{_CONCESSION}{_UNCLEAR}"
    rf"|{_CONCESSION}{_LEVEL}|{_CONCESSION}{_MASK}|{_CONCESSION}{_PROPORTION}|{_CONCESSION}{_CAUSE}"
    rf"|{_STATED})"
    rf"(?:,?\s+(?:so|and)\s+(?:{_NOT_FULLY}))?"
    r"(?(paren)\s*[.!]?\)|(?=\s*(?:[.!]?\)|[.!](?:\s|$)|$)))",
    re.IGNORECASE)
# "An arch shape, I think.", "A nightclub, I'd guess, because …": the manner of the answer.
PARENTHETICAL = re.compile(
    r",\s*I\s*(?:think|believe|reckon|suppose|(?:['\u2019]d|\s+would)\s+(?:guess|say)"
    r"|(?:['\u2019]m|\s+am)\s+(?:fairly|quite|pretty|reasonably)\s+(?:sure|certain|confident))"
    r"(?=\s*(?:,|[\u2014\u2013]|\s-\s|[.!](?:\s|$)|$))", re.IGNORECASE)


REASON = "caveat_reason"  # the source of a caveat's reason, read word by word (offers_another)
_MAX_WINDOW_WORDS = 3  # "major", "major chord", "a major chord"
_SUBJECTS = (("about", "caveat"), ("part", "caveat"), ("apart", REASON), ("reason", REASON),
             ("blur", REASON), ("unclear", REASON), ("level", REASON), ("proportion", REASON),
             ("cause", REASON), ("mask", REASON), ("masked", REASON), ("stated", REASON))


def split_caveat(line: str) -> tuple[str, list[tuple[str, str]]]:
    """``line`` with a mild caveat closing a sentence, and a parenthetical "I think", left out;
    and what each caveat is about ("the fifth", "the fourth bar") or its reason ("given how
    short the phrase is"), with its source ("caveat" or ``REASON``), which the reader must find
    naming no other answer ("…, though I'm not fully certain about major" stays a hedge)."""
    subjects = []
    for found in CAVEAT.finditer(line):
        for group, source in _SUBJECTS:
            if (said := found.group(group)) and said.strip():
                subjects.append((said.strip(), source))
    return PARENTHETICAL.sub("", CAVEAT.sub("", line)), subjects


def without_caveats(lines: list[str]) -> tuple[list[str], list[tuple[str, str]]]:
    """The lines without their mild caveats, and what every caveat is about, with its source."""
    split = [split_caveat(line) for line in lines]
    return [line for line, _ in split], [subject for _, subjects in split for subject in subjects]


def offers_another(reason: str, answer: object, read_value: Callable[[str, str], tuple]) -> bool:
    """Whether a caveat's reason names an answer other than ``answer`` in any run of up to three
    of its words: a reason is a clause ("because major fits too"), where a reader that reads an
    answer given alone reads no answer named in passing."""
    words = reason.split()
    for size in range(1, _MAX_WINDOW_WORDS + 1):
        for start in range(len(words) - size + 1):
            window = words[start:start + size]
            if all(len(word) == 1 for word in window):
                continue  # "a": the article, not option a
            said = read_value(" ".join(window), "caveat")[0]
            if said is not None and said != answer:
                return True
    return False
