"""Sameness and difference said without "same" or "different" in so many words, rewritten to
the forms the yes/no reader reads, for a question whether two things are the same
(docs/reading.md, *Negation scope*, round 8). Pure text rewriting, no I/O.

* a denied move is no difference: "Not one hit moved.", "No note shifted between the two",
  "Nothing moved." (as "no note differs");
* sameness with an exception that is a place in the music is a difference: "The rhythms are
  identical apart from the second bar", "Except for the last note, the melodies are the same";
  an exception of key, register, tempo or sound ("identical apart from the key") keeps them
  the same, as does a difference said to be only that ("only the key differs", "the only
  difference is the register", "they differ only in key");
* the second played in another key or a step higher is a transposition: "the first one played
  in a higher key", "the first melody moved up a fourth" (never with a turn after it: "…, but
  the last note changes").
"""

from __future__ import annotations

import re

_WORD = r"[^\W\d_]+"
_DENIED_MOVE = re.compile(
    rf"\b(?:not\s+(?:a\s+single|one(?:\s+single)?|even\s+one)|no(?:\s+single)?"
    r"|(?P<none>none\s+of\s+(?:the|their|its|these|those)))"  # "None of the hits differ"
    rf"((?:\s+{_WORD}){{1,2}}?)\s+(?:(?:was|were|has|have|had|got)\s+(?:been\s+)?"
    r"|(?(none)(?:are|is)\s+))?"  # "None of the hits are displaced" (round 21; "No hit is"
    r"(?:moved|moves|shifted|shifts"
    r"|displaced|altered|changed|changes|differs|differ)\b(?!.*\b(?:until|till|before|after|later|but|however"
    r"|though|although|yet|except|apart|add|adds|added|extra|new|missing|drops|dropped"
    r"|instead)\b)", re.IGNORECASE | re.DOTALL)
_NOTHING_MOVED = re.compile(r"\bnothing\s+(?:in\s+the\s+[^\W\d_]+\s+)?(?:has\s+|was\s+)?"
                            r"(?:moved|shifted|displaced|changes|changed|differs)\b"
                            r"(?!.*\b(?:until|till|before|after|later|but|however|except|apart"
                            r"|added|new|extra)\b)", re.IGNORECASE | re.DOTALL)
# What may differ while the compared things stay the same (a transposition, a faster take).
_ASPECT = (r"(?:the\s+|their\s+|its\s+)?(?:overall\s+)?(?:key|keys|register|octave|pitch\s+level"
           r"|starting\s+pitch|transposition|tempo|speed|instrument|instrumentation|timbre"
           r"|sound|tone|dynamics|volume|loudness)")
_EXCEPT = r"(?:apart\s+from|except(?:\s+for)?|other\s+than|save\s+for|but\s+for|aside\s+from)"
_ONLY_ASPECT = re.compile(
    rf"(?<!\bnot\s)(?:\b(?:only|just)\s+{_ASPECT}\s+(?:differs|differ|changes|changed|is\s+"
    rf"different|varies)\b|\bthe\s+only\s+(?:difference|change)\s+(?:is|being)\s+{_ASPECT}\b"
    rf"|\b(?:differ|differs|vary|varies)\s+only\s+in\s+{_ASPECT}\b"
    rf"|\b(?:same|identical)\s+{_EXCEPT}\s+{_ASPECT}\b)(?=\s*(?:[.;:!,\n\u2014\u2013(]|$|between\b))",
    re.IGNORECASE)
_SAME_WORD = r"(?:the\s+same|identical|equivalent)"
# "identical apart from the second bar", "identical to rhythm 1 except in bar 3", "match beat
# for beat except for bar four": what lies between may not turn or negate
_SAME_EXCEPT = re.compile(rf"\b(?P<same>{_SAME_WORD}|match|matches|line\s+up|lines\s+up)"
                          r"(?:(?!\b(?:but|however|and|or|not|although|though|yet)\b)[^.;:!?\n])"
                          rf"{{0,40}}?,?\s+{_EXCEPT}\s+(?P<what>{_WORD}[^.;:!?\n]*)",
                          re.IGNORECASE)
_EXCEPT_SAME = re.compile(rf"(?:^|(?<=[.;:!?\n]))\s*{_EXCEPT}\s+(?P<what>[^,.;:!?\n]+),"
                          rf"(?P<rest>[^.;:!?\n]*\b{_SAME_WORD}\b)", re.IGNORECASE)
_ASPECT_WORD = re.compile(r"\b(?:keys?|register|octaves?|pitch\s+level|starting\s+(?:pitch|note)"
                          r"|transposition|transposed|tempo|speed|instrument(?:ation)?|timbre"
                          r"|dynamics|volume|loudness)\b", re.IGNORECASE)
# Places in the music: an exception there is a difference ("except in bar 3", "one extra hit").
_PLACE_WORD = re.compile(r"\b(?:bars?|measures?|beats?|notes?|chords?|hits?|strokes?|onsets?"
                         r"|slots?|endings?|end|start|beginning|fills?|rests?|steps?|phrases?"
                         r"|cadences?|downbeats?|pickups?|intervals?|snares?|kicks?|hi-?hats?"
                         r"|cymbals?|last|first|final|extra|added|missing)\b", re.IGNORECASE)


def _is_aspect(what: str) -> bool:
    """Whether an exception names only an aspect ("the key", "being in different keys")."""
    return bool(_ASPECT_WORD.search(what)) and not _PLACE_WORD.search(what)
_INTERVAL = (r"(?:semitones?|half[\s-]steps?|whole[\s-]steps?|tones?|steps?|seconds?|thirds?"
             r"|fourths?|fifths?|sixths?|sevenths?|octaves?|intervals?)")
_MOVED_KEY = re.compile(
    r"\b(?:played|sung|repeated|restated|shifted|moved|raised|lowered|pitched|placed)\s+(?:up\s+"
    r"|down\s+)?(?:(?:in|into|to|a)\s+(?:a\s+|another\s+|the\s+)?(?:higher|lower|different|new"
    rf"|other)\s+key|(?:up|down)?\s*(?:by\s+)?(?:a|an|one|two|three|four|five|six|seven|\d+)"
    rf"\s+(?:{_WORD}\s+)?{_INTERVAL}\s*(?:higher|lower|up|down)?)\b"
    r"(?![^.;!?\n]*\b(?:but|except|however|though|although|apart|other\s+than|changed|altered)\b)",
    re.IGNORECASE)


# A denial whose only exception is an aspect ("Nothing differs between the two except the
# starting pitch"): the exception is dropped, the denial stands.
_ASPECT_EXCEPTED = re.compile(rf"\s*,?\s*{_EXCEPT}\s+{_ASPECT}(?=\s*(?:[.;:!?\n]|$))",
                              re.IGNORECASE)


# A denied change or difference taken back by a turn after it ("Not one hit moved; however,
# rhythm 2 adds a hit.", "There is no difference, but the last bar is new"): a hedge.
_TURNED_DENIAL = re.compile(
    r"(?:\b(?:no|not\s+(?:one|a\s+single)|nothing|none)\b[^.;:!?\n]*?\b(?:moved|moves|shifted"
    r"|shifts|displaced|altered|changed|changes|differs?|differences?)\b|\bn['\u2019]t\s+(?:differ|"
    r"change|move)\b).*?\b(?:but|however|yet|though|although)\b(?!\s*(?:only|just)\b)",
    re.IGNORECASE | re.DOTALL)


def turned_denial(text: str) -> bool:
    """Whether ``text`` denies any change or difference and then turns from the denial."""
    return bool(_TURNED_DENIAL.search(text))


# Verbs of difference (of the compared things: "the two melodies don't differ").
DIFFER_VERBS = frozenset("differ differs differed vary varies varied deviate deviates "
                         "deviated".split())


# Sameness and difference weighed as even ("as many similarities as differences", "in equal
# measure"): said in place of an answer, so a grader reads no commitment (blind22-0011).
_LIKENESS = r"(?:similarit(?:y|ies)|differences?|in\s+common|(?:the\s+)?same|different)"
BALANCED = re.compile(rf"\bas\s+(?:many|much)\s+(?:\w+\s+){{0,2}}?{_LIKENESS}\s+as\s+"
                      rf"(?:\w+\s+){{0,2}}?{_LIKENESS}\b|\bequal\s+measure\b"
                      r"|\bequally\s+(?:similar|different|alike)\b", re.IGNORECASE)


def sameness_question(no_words: frozenset[str]) -> bool:
    """Whether a question's words for "no" are those of a question whether two things are the
    same (they hold every verb of difference)."""
    return DIFFER_VERBS <= no_words


def without_aspect_exception(text: str) -> str:
    """``text`` without an exception that names only an aspect (key, register, tempo...)."""
    return _ASPECT_EXCEPTED.sub("", text)


def undenied_sameness(text: str) -> str:
    """``text`` with a difference denied twice said as the sameness it is, before any span is
    read (its "can't say" is no refusal), and a hearing's "to me" dropped (round 24)."""
    if len(text) > _MAX_REWRITTEN_CHARS:
        return text  # a reply's length, never a megabyte
    text = _HEARD_SAME.sub(_heard_same, _TO_ME.sub("", text))
    text = _CANNOT_SAY_DIFFER.sub(r"\g<subject> do not differ", text)
    return _NO_PLACE_UNMATCHED.sub(r"\g<subject> match", text)


_MAX_REWRITTEN_CHARS = 6000
# "They sound identical": the compared things heard as the same, unless only at first ("At first
# they sound identical. Then …" is a first impression, superseded).
_HEARD_SAME = re.compile(
    r"(?P<opening>(?:^|(?<=[.!?\n]))[^.!?\n]*?)\b(?P<subject>they|these|both|the\s+two(?:\s+\w+)?)"
    r"(?P<denied>\s+(?:do|did)\s*(?:n['\u2019]t|\s+not))?"
    r"\s+(?:sound|sounded|seem|seemed|look|looked)\s+(?:(?:completely|totally|exactly)\s+)?"
    r"(?:identical|the\s+same)\b", re.IGNORECASE)
_FIRST_IMPRESSION = re.compile(r"\b(?:at\s+first|initially|on\s+first\s+listen|at\s+the\s+start)\b",
                               re.IGNORECASE)


def _heard_same(found: re.Match[str]) -> str:
    if _FIRST_IMPRESSION.search(found.group("opening")):
        return found.group()
    denied = " not" if found.group("denied") else ""
    return f"{found.group('opening')}{found.group('subject')} are{denied} identical"
_TO_ME = re.compile(r"(?<=\bidentical)\s+to\s+(?:me|my\s+ears?)\b|(?<=\bsame)\s+to\s+(?:me|my"
                    r"\s+ears?)\b", re.IGNORECASE)  # "They sound identical to me."

# A difference denied twice: "I can't say they differ" (the speaker finds no difference),
# "I can't find a single position in the bar where they don't match" (they match everywhere).
_CANNOT = r"(?:\bI\s+)?\b(?:can['\u2019]?t|cannot|could\s*n['\u2019]?t|could\s+not)\s+"
_COMPARED = (r"(?P<subject>they|these|both(?:\s+\w+)?|the\s+two(?:\s+\w+)?"
             r"|the\s+(?:rhythms|melodies|patterns|loops|excerpts|progressions))")
_CANNOT_SAY_DIFFER = re.compile(
    rf"{_CANNOT}(?:really\s+)?(?:say|find|hear|detect|spot|claim)\s+(?:that\s+)?{_COMPARED}\s+"
    r"(?:differ|vary|are\s+different|sound\s+different)\b", re.IGNORECASE)
_NO_PLACE_UNMATCHED = re.compile(
    rf"{_CANNOT}(?:find|hear|detect|spot|see)\s+(?:a\s+single|any|one|a)\s+(?:[\w-]+\s+){{0,6}}?"
    rf"(?:where|in\s+which|at\s+which)\s+{_COMPARED}\s+(?:do|did)\s*(?:n['\u2019]t|\s+not)\s+"
    r"(?:match|line\s+up|agree|coincide)\b", re.IGNORECASE)


# The second one said to add or drop a hit, note or chord: "Rhythm 2 adds a hit on beat 4",
# "the second excerpt drops the last note" (the second is another one, never "both").
_SECOND = (r"\b(?:(?:the\s+)?(?:second|latter|other|2nd)(?:\s+(?:one|rhythm|loop|excerpt|pattern"
           r"|melody|clip|progression|version|take))?|(?:rhythm|loop|excerpt|pattern|melody|clip"
           r"|progression|version)\s+(?:2|two|b))")
_SECOND_ADDS = re.compile(
    rf"{_SECOND}\s+(?:also\s+)?(?:adds?|drops?|omits?|removes?|inserts?|skips?|leaves\s+out"
    r"|is\s+missing|has\s+an?\s+(?:extra|additional))\s+(?:an?\s+|one\s+|two\s+|the\s+|its\s+)?"
    r"(?:(?:extra|additional|last|final|first)\s+)?(?:hits?|notes?|onsets?|strokes?|chords?"
    r"|kicks?|snares?|beats?)\b", re.IGNORECASE)
# Differing in an aspect that leaves the compared things the same ("differ in key") says nothing
# about them; "only" there is read by _ONLY_ASPECT.
_DIFFER_IN_ASPECT = re.compile(rf"\b(?:differ|differs|differed|vary|varies)\s+in\s+{_ASPECT}\b",
                               re.IGNORECASE)


def sameness_rewrites(text: str) -> str:
    """``text`` with the module's phrases in the reader's forms (a question of sameness)."""
    text = _SECOND_ADDS.sub(" the second one differs ", text)
    text = _DENIED_MOVE.sub(_denied_move, text)
    text = _NOTHING_MOVED.sub("nothing differs", text)
    text = _ONLY_ASPECT.sub(" they are the same ", text)
    text = _DIFFER_IN_ASPECT.sub(lambda m: f"contrast in {m.group(0).split(None, 2)[2]}", text)
    text = _SAME_EXCEPT.sub(_same_except, text)
    text = _EXCEPT_SAME.sub(_place_excepted, text)
    text = _ANOTHER.sub(r"a different \g<noun>", text)  # "that's another melody" (round 24)
    text = _BEING.sub(r"\g<lean> they are \g<what>", text)  # "lean towards them being different"
    return _MOVED_KEY.sub("transposed", text)


# A lean towards the compared things "being" the same or different (round 26): said as a clause
_BEING = re.compile(r"(?<!n't\s)(?<!n\u2019t\s)(?<!not\s)"
                    r"(?P<lean>\blean(?:ing)?\s+(?:towards?|to)\s+)"
                    r"(?:them|they|the\s+two)\s+being\s+"
                    r"(?P<what>(?:the\s+same|identical|different|distinct)\b)", re.IGNORECASE)


# "another melody" is a different one; never "another key", "another hit" (not the whole thing)
_ANOTHER = re.compile(r"\b(?:(?:a\s+whole|an\s+entirely|a\s+completely)\s+)?another\s+"
                      r"(?P<noun>melody|tune|rhythm|pattern|progression|piece|song)\b",
                      re.IGNORECASE)


def _denied_move(match: re.Match) -> str:
    """"Not one hit moved" is "no hit differs"; "no chord changes" stays (a noun phrase)."""
    if re.match(r"no\b", match.group(0), re.IGNORECASE) and match.group(0).endswith("changes"):
        return match.group(0)
    return f"no{match.group(2)} differs"  # … displaced" stays a "no" before a noun, round 3)


def _same_except(match: re.Match) -> str:
    """"identical apart from the second bar" is "different; the second bar" ("match except
    for bar four" is "differ; bar four"); an exception of an aspect stays as it is."""
    what = match.group("what")
    statement = re.match(_SAME_WORD, match.group("same"), re.IGNORECASE)
    if _is_aspect(what):  # "the same apart from being in different keys": the same
        return f"{'the same' if statement else 'match'}; {what}"
    return f"{'different' if statement else 'differ'}; {what}"


def _place_excepted(match: re.Match) -> str:
    """"Except for the last note, the melodies are the same": a difference, at a place."""
    if _is_aspect(match.group("what")):
        return match.group(0)
    rest = re.sub(_SAME_WORD, "different", match.group("rest"), count=1, flags=re.IGNORECASE)
    return f" {match.group('what')}: {rest}"
