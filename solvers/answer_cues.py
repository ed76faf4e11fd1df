"""The phrases :mod:`solvers.reply_spans` finds answers by in sentences: cue sentences ("The
answer is B.", "I'd go with B.", "That leaves C.", a forced guess), afterthoughts read with
them, and the scene-setting openings and conclusions of a long last sentence (docs/reading.md,
*Where the answer is*). Pure patterns and one helper; no I/O.
"""

from __future__ import annotations

import re

from .reply_excerpt import WORD
from .revisions import revised_answer

# An opening phrase that sets the scene before the answer clause: "Ignoring the vibrato, ..."
SETTING = re.compile(r"\W*(?:ignoring|despite|apart\s+from|aside\s+from|setting\s+aside|"
                     r"listening\s+(?:closely|carefully|again)|overall|in\s+short|in\s+summary"
                     # a lead-in to the conclusion: "Because of those changes, ..."
                     r"|(?:because\s+of|given|for)\s+(?:this|that|these|those|all\s+this)"
                     r"(?:\s+\w+)?|as\s+a\s+result|all\s+in\s+all|in\s+conclusion|to\s+sum\s+up"
                     r"|on\s+balance|taken\s+together)\b",
                     re.IGNORECASE)
# The conclusion closing a long sentence: "I hear no new accidentals ..., so there is no
# modulation." (read with the sentence's opening; different answers there are a hedge)
# (or a relative one, "..., which gives a diminished chord."); after an opening that only rules
# out ("Definitely not metal — the drums point to reggae."), the rest of the sentence.
CONCLUSION = re.compile(r"(?:[,;]|\s[\u2014\u2013])\s*"
                        r"(?:(?:and\s+)?(?:so|thus|therefore|hence)\b,?\s+"
                        r"(?P<rest>(?:yes|no),\s+[^,;]+|"  # "so yes, there is a wrong note"
                        r"[^,;]+(?:,\s*not\s+[^,;]+)?)"  # "so it is B, not a C"
                        r"|(?P<which>which\s+(?:(?:\w+ly|then|also|never)\s+)?(?:is|gives|makes"
                        r"|means|does(?:n['\u2019]t|\s+not)|[a-z]+s)\b[^,;]+)"
                        # "...; the key stays put.", "... — the second is more syncopated.": a
                        # short clause closing it after a semicolon or a dash
                        r"|(?<=[;\u2014\u2013])\s*(?P<closing>[^,;:\u2014\u2013]{1,80}))$"
                        # "… and not a single kick or snare hit leaves the beat grid."
                        r"|(?:[,;]\s*|\s+)(?:and|with)\s+(?P<none>(?:not\s+(?:a\s+single|one)|no"
                        r"|none\s+of)\b[^,;]+)$"
                        # "…, and the second one is simply the first one played higher."
                        r"|,\s*and\s+(?P<whole>(?:so\s+)?(?:they|both|the\s+two|the\s+second"
                        r"(?:\s+(?:one|melody|excerpt|clip|loop|progression))?)\s+(?:is|are)\b"
                        r"[^,;]+)$", re.IGNORECASE)
WHICH_IS = re.compile(r"^which\s+is\s+(?=(?:option|choice|answer|letter)\b)", re.IGNORECASE)
LAST_CLAUSE = re.compile(r"[:;\u2014\u2013]\s*([^:;\u2014\u2013]+)$")
RULING_OUT = re.compile(r"\W*(?:(?:definitely|certainly|clearly|surely)\s+)?not\b"
                        # or denies a property of the whole: "It never turns around: …"
                        r"|\W*(?:it|this)\s+(?:never|(?:does|is)\s*(?:not\b|n['\u2019]t\b))",
                        re.IGNORECASE)


# A reasoning closed by its answer after a colon: "It climbs from the first note to the last:
# Ascending.", "… only a guess based on what's typical: C (6/8)." (round 23); a reasoning that
# doubts or offers another ("It might be descending or: Arch.") concludes nothing.
_COLON_CLOSE = re.compile(r"^(?P<reason>[^:]{20,}):\s*(?P<value>[^:,;]+?)\s*[.!]?$")
_COLON_DOUBT = re.compile(r"\?|\b(?:maybe|perhaps|possibly|probably|might|could|may|or|nor"
                          r"|either|unsure|uncertain|not|never|if|unless|whether|assuming|between"
                          r"|options?|choices?|rul\w+\s+out|exclud\w*|eliminat\w*|except|apart"
                          # or denies ("the one shape it doesn't have: Arch"), or names a part
                          r"|unlike|(?:is|are|was|were|does|do|did|has|have)n['\u2019]?t"
                          r"|accompan\w+|background)\b", re.IGNORECASE)
_PARENTHESIS = re.compile(r"\([^()]*\)")
MAX_COLON_WORDS = 3


def conclusion_of(sentence: str) -> str | None:
    """The clause that concludes ``sentence`` (see ``CONCLUSION``), or None."""
    found = CONCLUSION.search(sentence)
    if found is None:
        return None
    which = found.group("which")
    return (found.group("rest") or found.group("none") or found.group("whole")
            or (which and WHICH_IS.sub("", which)) or found.group("closing"))


def colon_conclusion(sentence: str) -> str | None:
    """The answer a reasoning closes on after its last colon (``_COLON_CLOSE``), or None."""
    closed = _COLON_CLOSE.match(sentence.strip())
    if closed is None or _COLON_DOUBT.search(_PARENTHESIS.sub(" ", closed.group("reason"))):
        return None
    value = closed.group("value")
    return value if len(WORD.findall(_PARENTHESIS.sub(" ", value))) <= MAX_COLON_WORDS else None

_I_WOULD = r"\bI(?:'d|\u2019d|\s+would|\s+will|'ll|\u2019ll)?"
CUE_SENTENCE = re.compile(
    r"(?:\b(?:the|my|our)\s+(?:final\s+|correct\s+|best\s+|right\s+|most\s+likely\s+)?"
    r"(?:answer|option|choice|guess)\s+(?:is|would\s+be|should\s+be|must\s+be|will\s+be|=|:)"
    rf"|{_I_WOULD}\s+(?:go\s+with|choose|pick|select|opt\s+for|guess|commit\s+to|settle\s+on"
    r"|stick\s+with|(?:rate|call|classify)\s+(?:it|this|that|them|the\s+\w+)(?:\s+as)?)"
    r"|\bI(?:'m|\u2019m|\s+am)\s+(?:going\s+(?:to\s+go\s+)?with|committing\s+to|settling\s+on"
    r"|sticking\s+with)"
    r"|\bI(?:'d|\u2019d|\s+would)\s+say"  # and "I'll say 64." (round 23), not "I'll say it again"
    r"|\bI(?:'ll|\u2019ll|\s+will)\s+say\b(?!\s+(?:that|it|this|again|so)\b)"
    r"|\b(?:answer|option|choice|result|prediction|verdict|conclusion|pick|selection"
    r"|most\s+likely)\s*:"  # "Most likely: B." under a list of probabilities
    # The conclusion of ruling out: "That leaves C.", "What remains is the minor triad.",
    # "The only option left is D."
    r"|(?:\b(?:that|this|which)\s+leaves(?:\s+(?:only|just|us\s+with))?"
    r"|\b(?:what|all\s+that)\s+(?:remains|is\s+left)\s+is|\bwhat\s*['\u2019]s\s+left\s+is"
    r"|\bthe\s+(?:only\s+)?(?:remaining|surviving)\s+(?:option|choice|answer)\s+is"
    r"|\bthe\s+only\s+(?:option|choice|answer)\s+(?:left|remaining)\s+is)"
    r"(?=(?:\s+[^\s,;:]+){1,5}\s*[.!]?\s*$"  # a short closing: "That leaves C."
    r"|(?:\s+[^\s,;:]+){1,3}\s+as\s+the\s+only\s+(?:option|choice|answer|one)\b[^,;:]*$)"
    r"|\bby\s+elimination,?\s+it\s+(?:is|must\s+be)"
    # a forced guess: "if I must commit: yes", "if I had to pick, B"
    r"|\bif\s+(?:I\s+(?:must|had\s+to|have\s+to|were\s+forced\s+to)|forced\s+to)\s+(?:commit"
    r"|choose|pick|answer|guess|decide)\b(?:\s+to\s+(?:one|an\s+answer))?\s*[,:\u2014\u2013-])"
    r"\s*(?P<value>.*)$",
    re.IGNORECASE,
)
_ONLY_ONE = re.compile(r"\s+as\s+the\s+only\s+(?:option|choice|answer|one)\b[^,;:]*$",
                       re.IGNORECASE)
_CONDITIONAL = re.compile(r"\b(?:if|unless|whether|assuming|provided)\b", re.IGNORECASE)
# "if I had to guess", "if forced to choose": the manner of a guess, not a condition on it.
_GUESS_MANNER = re.compile(r"\bif\s+(?:I\s+(?:had|have|must|were)\s+to|(?:I\s+am|I'm|"
                           r"I\u2019m)?\s*forced\s+to|pressed)\s*(?:guess|pick|choose|commit"
                           r"|bet|answer|decide)?\b", re.IGNORECASE)
_GUESS_CUE = re.compile(rf"{_I_WOULD}\s+guess\b|\bmy\s+(?:best\s+)?guess\s+is\b", re.IGNORECASE)
# The reason a guess gives ("... since I can't clearly track the pitches") excuses the guess; it
# is no doubt between options unless it names an alternative or doubts ("or", "but it might").
_GUESS_REASON = re.compile(r"\s+(?:since|because|as)\s+(?!.*\b(?:or|but|might|may|maybe|perhaps"
                           r"|possibly|though|although|however|also|either|unless)\b).*$",
                           re.IGNORECASE)
# A guess from how common an answer is, not from the audio ("if I had to guess I'd say major
# since it's the most common"): no answer.
_PREVALENCE = re.compile(r"\b(?:since|because|as)\s+(?:it|that|this|they)\s*(?:'|\u2019)?\s*"
                         r"(?:s|is|are|re)\s+(?:the\s+)?(?:most\s+)?(?:common|frequent|usual"
                         r"|typical|likely|popular|default)\b|\b(?:statistically|by\s+default"
                         r"|a\s+priori)\b", re.IGNORECASE)


def cue_value(sentence: str) -> str | None:
    """What ``sentence`` names after its answer cue, or None: no cue, or a condition before
    it ("If it is in A major, the answer is yes")."""
    if (revised := revised_answer(sentence)) is not None:
        return revised  # "Correcting my answer to D."
    cue = CUE_SENTENCE.search(sentence)
    if cue is None or _CONDITIONAL.search(_GUESS_MANNER.sub(" ", sentence[:cue.start()])):
        return None
    value = _ONLY_ONE.sub("", cue.group("value"))  # "leaves Minor as the only option standing"
    if _GUESS_CUE.search(cue.group()) or "guess" in sentence[:cue.start()].casefold():
        if _PREVALENCE.search(value):
            return None
        value = _GUESS_REASON.sub("", value)
    return value


# Words after an answer sentence, on its line, that qualify it: read with it.
# ("either" only before an "or": "a quarter-tone either side" doubts nothing)
AFTERTHOUGHT = re.compile(r"\b(?:(?<!give )or(?! take)|either(?=[^.\n]{0,80}\bor\b)|"
                          r"maybe|perhaps|possibly|"
                          r"probably\s+not|not\s+sure|"
                          r"unsure|actually|wait|instead(?!\s+of)|rather|though|although|but|however|"
                          r"alternatively|also|possible|plausible|otherwise|unless)\b|\?",
                          re.IGNORECASE)
# After an answer and a colon the rest explains: a contrast there ("The progressions are
# different: the third chord is IV in the first but vi in the second.") turns nothing; a doubt
# still does.
DOUBT_AFTER_COLON = re.compile(r"\b(?:or|either|maybe|perhaps|possibly|probably|not\s+sure|unsure"
                               r"|might|could|actually|wait|unless)\b|\?", re.IGNORECASE)


# "nothing was added, removed or moved": a list denied as a whole offers no alternative
_NOTHING_CHANGED = re.compile(r"\b(?:nothing|none)\s+(?:was|were|is|are|has\s+been|got)\s+"
                              r"[a-z]+(?:,\s*[a-z]+)*,?\s+(?:n)?or\s+[a-z]+", re.IGNORECASE)
_CLAUSE_END = re.compile(r"\s*[:,;]\s+|\s+[\u2014\u2013-]\s+")


def opening_clause(sentence: str, max_words: int) -> str:
    """A long sentence's answer-first opening, up to its first colon, comma or dash ("This
    phrase is played by the flute, the sound is soft..."); a sentence of at most ``max_words``
    as it is, and a long one whose rest turns or doubts ("..., but I can't say whether ...")
    too."""
    if len(WORD.findall(sentence)) <= max_words:
        return sentence
    opening, *rest = _CLAUSE_END.split(sentence, maxsplit=1)
    if rest and SETTING.match(opening):  # "Ignoring the vibrato, the centre is F4 — ..."
        opening, *rest = _CLAUSE_END.split(rest[0], maxsplit=1)
    explained = sentence.partition(opening)[2].lstrip().startswith(":")  # "X: ... but ..."
    turns = DOUBT_AFTER_COLON if explained else AFTERTHOUGHT
    rest = [_NOTHING_CHANGED.sub(" ", part) for part in rest]
    return sentence if rest and turns.search(rest[0]) else opening
