"""Sentences that name the answer after a cue ("The answer is B.", "I'd go with B.", "That
leaves C.", "What remains is the minor triad.", "if I had to guess I'd say (B)"): the
``answer_sentence`` tier of :mod:`solvers.reply_spans` (docs/reading.md, *Where the answer is*).

Pure patterns and one helper; no I/O.
"""

from __future__ import annotations

import re

_I_WOULD = r"\bI(?:'d|\u2019d|\s+would|\s+will|'ll|\u2019ll)?"
CUE_SENTENCE = re.compile(
    r"(?:\b(?:the|my|our)\s+(?:final\s+|correct\s+|best\s+|right\s+|most\s+likely\s+)?"
    r"(?:answer|option|choice|guess)\s+(?:is|would\s+be|should\s+be|must\s+be|will\s+be|=|:)"
    rf"|{_I_WOULD}\s+(?:go\s+with|choose|pick|select|opt\s+for|guess)"
    r"|\bI(?:'d|\u2019d|\s+would)\s+say"
    r"|\b(?:answer|option|choice|result|prediction|verdict|conclusion|pick|selection)\s*:"
    # The conclusion of ruling out: "That leaves C.", "What remains is the minor triad.",
    # "The only option left is D."
    r"|(?:\b(?:that|this|which)\s+leaves(?:\s+(?:only|just|us\s+with))?"
    r"|\b(?:what|all\s+that)\s+(?:remains|is\s+left)\s+is|\bwhat\s*['\u2019]s\s+left\s+is"
    r"|\bthe\s+(?:only\s+)?(?:remaining|surviving)\s+(?:option|choice|answer)\s+is"
    r"|\bthe\s+only\s+(?:option|choice|answer)\s+(?:left|remaining)\s+is)"
    r"(?=(?:\s+[^\s,;:]+){1,5}\s*[.!]?\s*$))"  # a short closing: "That leaves C."
    r"\s*(?P<value>.*)$",
    re.IGNORECASE,
)
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
    cue = CUE_SENTENCE.search(sentence)
    if cue is None or _CONDITIONAL.search(_GUESS_MANNER.sub(" ", sentence[:cue.start()])):
        return None
    value = cue.group("value")
    if _GUESS_CUE.search(cue.group()) or "guess" in sentence[:cue.start()].casefold():
        if _PREVALENCE.search(value):
            return None
        value = _GUESS_REASON.sub("", value)
    return value
