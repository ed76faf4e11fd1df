"""Negated phrases of the yes/no reader rewritten to the forms its negation-scope rules read
(docs/reading.md, *Negation scope*, round 6). Pure text rewriting, no I/O.

* "wrong note(s)" is an out-of-key phrase ("Not a single wrong note." = no out-of-key note);
  "the same key" / "a different key" are one token each, which a key-change question names
  ("Not the same key at the end" = it modulates) and a question of sameness does not;
* "did not notice / hear / find any <noun> that was changed" denies any change, as "no <noun>
  differs" does ("I did not notice any note that was changed" = the same);
* for a question of sameness, "nothing changes" denies any difference as "nothing differs" does
  ("Nothing changes functionally." = the same); for any other question "changes" keeps its own
  meaning (of a key change: "Nothing changes." = no modulation);
* a denial with an exception ("Nothing changes except the final note.") is no answer;
* what is set aside by "rather than", "instead of", "as opposed to" is denied as after ", not"
  ("a different melody rather than a transposition" = different; round 21).
"""

from __future__ import annotations

import re

from .sameness_phrases import sameness_rewrites

# "did not notice any note that was changed", "no note that was altered": no change at all
_DENIED_CHANGE = re.compile(
    r"\b(?:no|(?:(?:did|do|does|could|can)\s*(?:not\b|n['\u2019]t\b)|never)\s*(?:notice|hear"
    r"|detect|find|spot|perceive|catch)\s+any)((?:\s+[^\W\d_]+){1,2}?)\s+(?:that|which)\s+"
    r"(?:was|were|is|are|has\s+been|had\s+been|got)\s+(?:changed|altered|modified)\b",
    re.IGNORECASE)
_NOTHING_CHANGES = re.compile(r"\bnothing\s+(?:really\s+)?(?:changes|changed|is\s+changed)\b",
                              re.IGNORECASE)
# Phrases of several words joined to one token a phrase table can name ("out of key" is
# "out-of-key"); an in-key phrase negated ("isn't in the key", "not entirely diatonic") is
# "out-of-key" too, so a further negation turns it back.
JOINED = ((re.compile(r"\bout\s+of\s+(?:the\s+)?key\b", re.IGNORECASE), "out-of-key"),
          (re.compile(r"\bout\s+of\s+place\b", re.IGNORECASE), "out-of-place"),
          # "an F natural, which clashes with the key", "foreign to the scale"
          (re.compile(r"\b(?:clash(?:es|ed|ing)?\s+with|foreign\s+to|alien\s+to)\s+(?:the\s+)?"
                      r"(?:(?:home|prevailing)\s+)?(?:key|scale|tonality)\b", re.IGNORECASE),
           "out-of-key"),
          (re.compile(r"(?:\bnot|n['\u2019]t)\s+(?:belong(?:s|ing)?|fit(?:s|ting)?)\s+(?:in|to|into|with)?\s*"
                      r"(?:(?:the|that|this|its|their)\s+)?(?:(?:home|main|original|prevailing)\s+)?"
                      r"(?:key|scale|tonality)\b", re.IGNORECASE), " out-of-key"),
          # "All eight notes are diatonic", "every note stays in key": no note out of key (never
          # "not all …", nor with a limit after it: "… except the sixth"; round 21)
          (re.compile(r"(?<!\bnot\s)\b(?:all|every)\s+(?:of\s+)?(?:the\s+)?(?:[\w-]+\s+)?notes?\s+"
                      r"(?:(?:of|in)\s+(?:the|this|its)\s+[\w-]+\s+)?(?:are|were|is|was|stays?|stayed|remains?|remained|sits?|lies?)\s+"
                      r"(?:(?:all|fully|entirely|strictly|purely|completely)\s+)?(?:diatonic|in\s+"
                      r"(?:the\s+)?key|within\s+the\s+(?:key|scale))\b(?!\s+of\b)(?![^.;!?\n]*\b(?:except|apart"
                      r"|but|until|save|besides|other\s+than|though|although|however)\b)",
                      re.IGNORECASE), "no out-of-key note"),
          (re.compile(r"\bwrong\s+(?:notes?|pitch(?:es)?)\b", re.IGNORECASE), "out-of-key"),
          # "a different melody rather than a transposition": what is set aside is denied, as
          # after ", not" (round 21)
          (re.compile(r"\s*,?\s+(?:rather\s+than|instead\s+of|as\s+opposed\s+to)\s+",
                      re.IGNORECASE), ", not "),
          (re.compile(r"\b(sound(?:s|ed|ing)?)\s+wrong\b", re.IGNORECASE), r"\1 out-of-place"),
          (re.compile(r"\bsame\s+(?:home\s+)?(?:key|tonality|tonic|tonal\s+cent(?:er|re))\b",
                      re.IGNORECASE), "same-key"),
          (re.compile(r"\bdifferent\s+(?:key|tonality|tonic|tonal\s+cent(?:er|re))\b",
                      re.IGNORECASE), "different-key"),
          (re.compile(r"\b(stay|stays|stayed|remain|remains|remained)\s+(?:in\s+)?(?:the\s+)?"
                      r"same-key\b", re.IGNORECASE), r"\1"),  # "doesn't stay in the same key"
          # a stay in the key moved to is no stay in the home key: "moves to the relative
          # minor and stays there", "it remains in the new key" (never "starts in C and stays
          # there", "stays put")
          (re.compile(r"\b(?:stay|stays|stayed|remain|remains|remained)(?=\s+in\s+(?:the|that|its)"
                      r"\s+(?:new|second|other|target)\s+(?:key|tonality|tonic|home)\b)",
                      re.IGNORECASE), "is"),
          (re.compile(r"(\b(?:moves|moved|shifts|shifted|modulates|modulated|goes|went|turns"
                      r"|turned|lands|landed|climbs|climbed|rises|rose|lifts|lifted|jumps|jumped"
                      r"|heads|headed)\b[^.;,!?\n]{1,60}?)\s+and\s+(?:stays|stayed|remains"
                      r"|remained)\s+there\b",
                      re.IGNORECASE), r"\1"),
          (re.compile(r"(?:\bnot|n['\u2019]t)\s+(?:(?:entirely|fully|completely|wholly|purely|"
                      r"strictly|quite|all|always)\s+)?(?:diatonic|in\s+(?:the\s+)?key)\b"
                      r"(?!\s+of)", re.IGNORECASE), " out-of-key"))


# A denial with an exception ("Nothing changes except the final note.", "No note differs apart
# from the last one") denies nothing as a whole: no answer.
_EXCEPTED_DENIAL = re.compile(
    r"(?:\b(?:no|nothing|none|not|never)\b|n['\u2019]t\b)[^.;!?\n]{0,120}?\b(?:except|apart\s+from"
    r"|other\s+than|besides|aside\s+from|save\s+for|but\s+for)\b", re.IGNORECASE)


# "It would be wrong to say the key stays put": a whole clause denied, which a reader of
# negation scope word by word would read as its opposite (main read it as "stays put" = no).
_DENIED_SAYING = re.compile(
    r"\b(?:incorrect|wrong|inaccurate|misleading|a\s+mistake|untrue|false)\s+to\s+(?:say|claim"
    r"|think|suggest|conclude|assume)\b"
    # "It is not wrong to call it a modulation": a denied denial (main read it as no)
    r"|(?:\bnot|\bnever|n['\u2019]t)\s+(?:\w+\s+)?(?:incorrect|wrong|inaccurate|misleading"
    r"|a\s+mistake)\s+to\s+(?:call|describe|label|count|treat)\b", re.IGNORECASE)


def unreadable_denial(text: str) -> bool:
    """Whether ``text`` denies something and then names an exception to the denial, or denies
    a whole clause by calling it wrong to say: either is no answer."""
    return bool(_EXCEPTED_DENIAL.search(text) or _DENIED_SAYING.search(text))


# "Incorrect to call this a modulation", "It would be wrong to describe it as a key change": the
# name given is denied, as "not a modulation" denies it (a clause after "to say" is not read so)
_WRONG_NAME = re.compile(
    r"\b(?:(?:it\s*['\u2019]s|it\s+is|it\s+would\s+be|that\s+would\s+be)\s+)?(?:incorrect"
    r"|wrong|inaccurate|misleading|a\s+mistake)\s+to\s+(?:call|describe|label|count|treat)\s+"
    r"(?:this|it|that|them|these|those|they|the\s+\w+(?:\s+(?:one|two|ones))?)(?:\s+as)?"
    r"(?=\s+\w)", re.IGNORECASE)


_NEGATED_BEFORE = re.compile(r"(?:\bnot|\bnever|n['\u2019]t)\W*$", re.IGNORECASE)


def _denied_name(found: re.Match) -> str:
    """"not" for a name called wrong; a negated denial ("not wrong to call it …") is left as
    written (a double negation the reader does not turn)."""
    negated = _NEGATED_BEFORE.search(found.string[:found.start()])
    return found.group() if negated else "not"


def rewrite_negations(text: str, of_sameness: bool) -> str:
    """``text`` with joined phrases and denied changes in the forms the reader reads;
    ``of_sameness`` says the question asks whether two things are the same."""
    if of_sameness:
        text = sameness_rewrites(text)
    text = _WRONG_NAME.sub(_denied_name, text)
    for pattern, token in JOINED:
        text = pattern.sub(token, text)
    if of_sameness:
        text = _DENIED_CHANGE.sub(lambda m: f"no{m.group(1)} differs", text)
        text = _NOTHING_CHANGES.sub("nothing differs", text)
    return text
