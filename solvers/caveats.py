"""A caveat after a committed answer: a doubt ("Minor, though I'm not sure.", "B. (I'm not
sure)": :mod:`solvers.doubts`, round 22) or a condition stated of a part or a recording
("though the song's intro is rubato", "although the second recording is a bit louder").

A careful grader credits an answer with a caveat: the caveat offers no second option, so it is
no hedge. :mod:`solvers.reply_spans` reads every line without it. Doubts are any clause of doubt
that holds no offer, negation or retraction (round 22: they replace the listed "mild" forms of
rounds 11-20); the stated conditions are these forms, each closing its sentence after a comma,
semicolon or dash: a difference said to be small, a recording louder or quieter, a part's size
against another's, a sound masking a part, and a condition of a part with no doubt, offer or
comparison (round 21); and a parenthetical "I think" / "I believe" / "I'd guess" between commas.
What every caveat says besides is read to veto: naming another answer makes a hedge ("Minor,
though I'm not sure about major"; "…, though it might be C" is an offer, never a caveat).
Pure; no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .doubts import WITHDRAWN_MARK, without_doubts

_WORD = re.compile(r"[^\W_]+")

MAX_ABOUT_WORDS = 10  # "the crowd noise in the second half of the take"
# a few words, no second clause (each word and its space matched one way only: linear time)
_NOT_ABOUT = (r"(?!(?:or|and|but|maybe|might|could|possibly|perhaps|either|also|possible|else"
              r"|other|instead|rather|not|no|never|[a-z]+n['\u2019]t|differ\w*|different)\b)")
_WORDS = (rf"(?:{_NOT_ABOUT}[^\s,;.!?:\u2014\u2013]+\s+){{0,{MAX_ABOUT_WORDS - 1}}}"
          rf"{_NOT_ABOUT}[^\s,;.!?:\u2014\u2013]+")
_BE = (r"(?:was|is|were|are)\s+"
       r"(?:a\s+(?:bit|little)\s+|quite\s+|rather\s+|somewhat\s+|very\s+|slightly\s+)?")
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
# The caveat follows a comma, semicolon or dash and closes a sentence or a parenthesis, or it
# is a parenthesis of its own.
CAVEAT = re.compile(
    r"(?:\s*[,;]|\s+[\u2014\u2013-]|\s*[\u2014\u2013]|\s*(?P<paren>\())\s*"
    rf"(?:{_CONCESSION}the\s+difference\s+is\s+(?:small|subtle|slight)"
    rf"|{_CONCESSION}{_LEVEL}|{_CONCESSION}{_MASK}|{_CONCESSION}{_PROPORTION}|{_STATED})"
    r"(?(paren)\s*[.!]?\)|(?=\s*(?:[.!]?\)|[.!](?:\s|$)|$)))",
    re.IGNORECASE)
# "An arch shape, I think.", "A nightclub, I'd guess, because …": the manner of the answer.
PARENTHETICAL = re.compile(
    r",\s*I\s*(?:think|believe|reckon|suppose|(?:['\u2019]d|\s+would)\s+(?:guess|say)"
    r"|(?:['\u2019]m|\s+am)\s+(?:fairly|quite|pretty|reasonably)\s+(?:sure|certain|confident))"
    r"(?=\s*(?:,|[\u2014\u2013]|\s-\s|[.!](?:\s|$)|$))", re.IGNORECASE)


# a pitch named in any notation: a note with its octave, a MIDI number or a frequency
_PITCH = re.compile(r"\b[A-G][#\u266fb\u266d]?-?\d\b|\b\d{2,4}(?:\.\d+)?(?:\s*Hz)?\b"
                    r"|\b(?:do|re|mi|fa|sol|la|si|ti)\d\b", re.IGNORECASE)
REASON = "caveat_reason"  # the source of a caveat's reason, read word by word (offers_another)
# what a doubt asks ("… whether they are the same progression"): naming any answer, it says the
# reply cannot tell instead of answering (read word by word too)
QUESTION = "caveat_question"
# a caveat negating the answer it follows ("Minor, though I doubt it."): no answer then, unless
# it agrees with a "no" ("No, probably not.")
WITHDRAWN = "caveat_withdrawn"
CAVEAT_SOURCES = ("caveat", REASON, QUESTION, WITHDRAWN)
_ASKED = re.compile(r"\b(?:whether|if)\b", re.IGNORECASE)
_MAX_WINDOW_WORDS = 3  # "major", "major chord", "a major chord"
_SUBJECTS = ("level", "proportion", "mask", "masked", "stated")


# "On the other hand, it could be G#4 at 415 Hz …": a later sentence offering another answer
_OFFERED = re.compile(r"\W*(?:(?:on\s+the\s+other\s+hand|alternatively|then\s+again|or|but|however"
                      r"|that\s+said)\b[\s,]*)?(?:it|this|that|the\s+\w+)\s+(?:could|might|may)\s+"
                      r"(?:also\s+|just\s+as\s+well\s+|equally\s+|well\s+)?be\s+(?P<offered>\S.*)",
                      re.IGNORECASE | re.DOTALL)
# A later sentence that offers an answer as a possibility: "No. So maybe yes.", "Yes. Possibly
# no, though.", "… Perhaps it does modulate." (read only to veto; "No. Maybe." offers nothing).
_OFFERED_MAYBE = re.compile(r"\W*(?:(?:so|but|then|or|though|well|and|yet)\b[\s,]*)?"
                            r"(?:maybe|perhaps|possibly|probably)\b[\s,]*(?P<offered>\S.*)",
                            re.IGNORECASE | re.DOTALL)


def split_caveat(line: str) -> tuple[str, list[tuple[str, str]]]:
    """``line`` with its doubt clauses (:mod:`solvers.doubts`), its stated conditions closing a
    sentence, and a parenthetical "I think", left out; and what each caveat says besides
    ("about the fifth", "the second recording is a bit louder"), with its source ``REASON``,
    which the reader must find naming no other answer ("…, though I'm not sure about major"
    stays a hedge)."""
    line, doubted = without_doubts(line)
    subjects = []
    for said in doubted:  # "about the fifth", "whether it is major"
        if said == WITHDRAWN_MARK:
            subjects.append((said, WITHDRAWN))
            continue
        asked = _ASKED.search(said)
        about, question = (said[:asked.start()], said[asked.end():]) if asked else (said, "")
        subjects += [(part.strip(), source) for part, source in ((about, REASON),
                                                                 (question, QUESTION))
                     if part.strip()]
    for found in CAVEAT.finditer(line):
        for group in _SUBJECTS:
            if (said := found.group(group)) and said.strip():
                subjects.append((said.strip(), REASON))
    return PARENTHETICAL.sub("", CAVEAT.sub("", line)), subjects


def without_caveats(lines: list[str]) -> tuple[list[str], list[tuple[str, str]]]:
    """The lines without their caveats, and what every caveat says besides, with its source.
    A line of doubt alone is dropped only when another line says more and it says nothing
    besides its doubt ("B" above "I'm not sure."); "I cannot tell." alone, and "Hard to tell
    what happens after." below a partial answer, stay as they are (read as before)."""
    split = [split_caveat(line) for line in lines]
    if not any(_WORD.search(line) for line, _ in split):
        return lines, []
    kept = [(line, subjects) if _WORD.search(line) else (original if subjects else line, [])
            for original, (line, subjects) in zip(lines, split, strict=True)]
    return [line for line, _ in kept], [subject for _, subjects in kept for subject in subjects]


def offers_another(reason: str, answer: object, read_value: Callable[[str, str], tuple],
                   any_answer: bool = False) -> bool:
    """Whether a caveat's reason names an answer other than ``answer`` (any answer, with
    ``any_answer``) in any run of up to three of its words: a reason is a clause ("because
    major fits too"), where a reader that reads an answer given alone reads no answer named in
    passing."""
    words = reason.split()
    for size in range(1, _MAX_WINDOW_WORDS + 1):
        for start in range(len(words) - size + 1):
            window = words[start:start + size]
            if all(len(word) == 1 for word in window):
                continue  # "a": the article, not option a
            said = read_value(" ".join(window), "caveat")[0]
            if said is not None and (any_answer or said != answer):
                return True
    return False


def pitches_named(text: str, read_value: Callable[[str, str], tuple]) -> list:
    """The readings of every pitch ``text`` names, in any notation (None for one unread)."""
    return [read_value(pitch, "caveat")[0] for pitch in _PITCH.findall(text)]


def vetoes(text: str, source: str, answer: object, read_value: Callable[[str, str], tuple]
           ) -> bool:
    """Whether what a caveat says besides (``text`` from ``source``) withdraws ``answer``: a
    reason naming another answer ("Minor, though I'm not sure about major"), a question naming
    any ("… I can't say whether they are the same progression": no answer, whichever)."""
    if source == WITHDRAWN:
        return answer != "no"
    if source not in (REASON, QUESTION):
        return False
    pitches = pitches_named(text, read_value)
    if hasattr(answer, "keys") and pitches and answer not in pitches:
        return True  # a pitch beside a pitch answer, in any notation ("though I'm not sure of F4")
    return offers_another(text, answer, read_value, any_answer=source == QUESTION)


# A bare yes or no explained after a colon: "No: the progression in the second excerpt is the
# same as the first, just transposed." (round 24)
_BARE_YES_NO = re.compile(r"^\W*(?:yes|no)\W*?:\s*(?P<rest>\S.*)$", re.IGNORECASE | re.DOTALL)


def read_after(sentences: list[str]) -> list[tuple[str, str]]:
    """What a long last line says besides its short answer, read only to veto it, with its
    source: another answer a later sentence offers (``REASON``), and what a bare yes or no
    opening it on a colon stands on (read whole, as a caveat: it must not say the other)."""
    found = _BARE_YES_NO.match(sentences[0]) if sentences else None
    return [*((offered, REASON) for offered in offered_after(sentences)),
            *(((found.group("rest"), "caveat"),) if found else ())]


def offered_after(sentences: list[str]) -> list[str]:
    """What a later sentence of a long last line offers instead of its answer ("The frequency
    is about 392 Hz, i.e. G4. On the other hand, it could be G#4 at 415 Hz …"): read only to
    veto, as a caveat's reason is (round 22)."""
    return [found.group("offered") for sentence in sentences[1:]
            if (found := _OFFERED.match(sentence) or _OFFERED_MAYBE.match(sentence))]
