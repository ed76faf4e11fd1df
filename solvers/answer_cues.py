"""The phrases :mod:`solvers.reply_spans` finds answers by in sentences: cue sentences ("The
answer is B.", a forced guess), afterthoughts read with them, and the scene-setting openings
and conclusions of a long last sentence (docs/reading.md, *Where the answer is*). Pure
patterns; no I/O.
"""

from __future__ import annotations

import re

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
                        r"(?P<rest>[^,;]+(?:,\s*not\s+[^,;]+)?)"  # "so it is B, not a C"
                        r"|(?P<which>which\s+(?:is|gives|makes|means|puts|places|indicates|suggests)\b[^,;]+)"
                        # "...; the key stays put.", "... — the second is more syncopated.": a
                        # short clause closing it after a semicolon or a dash
                        r"|(?<=[;\u2014\u2013])\s*(?P<closing>[^,;:\u2014\u2013]{1,80}))$",
                        re.IGNORECASE)
RULING_OUT = re.compile(r"\W*(?:(?:definitely|certainly|clearly|surely)\s+)?not\b", re.IGNORECASE)

# Sentences that name the answer: "The answer is B.", "So the option would be (C)",
# "I'd go with B", "I will choose the minor chord".
CUE_SENTENCE = re.compile(
    r"(?:\b(?:the|my|our)\s+(?:final\s+|correct\s+|best\s+|right\s+|most\s+likely\s+)?"
    r"(?:answer|option|choice|guess)\s+(?:is|would\s+be|should\s+be|must\s+be|will\s+be|=|:)"
    r"|\bI(?:'d|\u2019d|\s+would|\s+will|'ll|\u2019ll)?\s+(?:go\s+with|choose|pick|select|opt\s+for|guess)"
    r"|\b(?:answer|option|choice|result|prediction|verdict|conclusion|pick|selection)\s*:"
    # the option left by elimination: "What remains is the diminished quality."
    r"|\b(?:what\s+remains\s+is|the\s+(?:only\s+)?(?:remaining\s+option|option\s+(?:left|that\s+"
    r"remains))\s+is|by\s+elimination,?\s+it\s+(?:is|must\s+be))"
    # a forced guess: "if I must commit: yes", "if I had to pick, B"
    r"|\bif\s+(?:I\s+(?:must|had\s+to|have\s+to|were\s+forced\s+to)|forced\s+to)\s+(?:commit"
    r"|choose|pick|answer|guess|decide)\b(?:\s+to\s+(?:one|an\s+answer))?\s*[,:\u2014\u2013-])"
    r"\s*(?P<value>.*)$",
    re.IGNORECASE,
)

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
