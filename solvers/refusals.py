"""Refusals and declines, for every reader: a span that says the model will not or cannot
answer commits to nothing, whatever answer words it also holds ("I cannot reliably detect
out-of-key notes, so I won't guess." names an out-of-key note but answers nothing;
docs/reading.md, round 9). Pure patterns; no I/O.

A plain "can't" is no refusal: "I can't hear any difference" answers a question of sameness.
A refusal is a "can't" of judging itself (tell, say, determine...), one with an adverb of
reliability ("cannot reliably detect"), one of hearing the recording itself, a "won't guess",
an "unable to", or "no way to / not possible to" know.
"""

from __future__ import annotations

import re

_CANNOT = (r"(?:can['\u2019]?t|cannot|can\s+not|could\s*(?:n['\u2019]t|not)"
           r"|(?:am|'m|\u2019m|is|are)\s+(?:not\s+able|unable)\s+to|unable\s+to|not\s+able\s+to)")
_JUDGING = (r"(?:tell|say|answer|determine|decide|judge|know|assess|evaluate|verify|confirm|"
            r"guess|estimate|commit|identify\s+(?:it|this|that|which|whether|the\s+answer)|"
            r"give\s+(?:an?\s+|you\s+an?\s+)?(?:answer|estimate|reading|verdict)|"
            r"provide\s+(?:an?\s+)?(?:answer|estimate|reading|verdict)|"
            r"be\s+(?:\w+\s+)?(?:sure|certain|confident|definitive))")
_RELIABLY = r"(?:reliably|confidently|accurately|definitively|precisely|with\s+(?:any\s+)?" \
            r"(?:certainty|confidence))"
_THE_AUDIO = r"(?:the|this|your|that|these|any)\s+(?:\w+\s+)?(?:audio|recording|recordings|clip|" \
             r"clips|file|files|sound|track|excerpt|excerpts|attachment|sample|samples)"
_WILL_NOT = r"(?:won['\u2019]?t|will\s+not|would\s+not|wouldn['\u2019]?t|(?:'d|\u2019d|would)\s+" \
            r"rather\s+not|prefer\s+not\s+to|refuse\s+to|decline\s+to|do\s+not\s+want\s+to|" \
            r"don['\u2019]?t\s+want\s+to)"
_SPECULATE = r"(?:guess|speculate|answer|commit|say|pick|choose|give\s+(?:an?\s+)?(?:answer|guess))"
# "I wouldn't say they are different" is a statement denied, no refusal (round 26)
_DENIED = r"(?!(?:would\s+not|wouldn['\u2019]?t)\s+say\s+(?:that\s+)?(?:it|they|these|those" \
          r"|the|this|there)\b)"

# Not having the recording ("I can't hear the audio"), or refusing to guess: no doubt about an
# answer (solvers.doubts)
NO_ATTEMPT = re.compile(
    rf"\b{_CANNOT}\s+(?:\w+\s+)?(?:hear|access|play|open|process|listen\s+to|analy[sz]e)\s+"
    rf"(?:{_THE_AUDIO}|audio|sound)\b|\b{_WILL_NOT}\s+(?:\w+\s+)?{_SPECULATE}\b", re.IGNORECASE)
DECLINE = re.compile(
    rf"\b{_CANNOT}\s+(?:(?:{_RELIABLY}|really)\s+)?{_JUDGING}\b"
    rf"|\b{_CANNOT}\s+{_RELIABLY}\s+\w+"
    rf"|\b{_CANNOT}\s+(?:hear|access|play|open|process|listen\s+to|analy[sz]e)\s+{_THE_AUDIO}\b"
    rf"|\b(?:I|I['\u2019]m|I\s+am)\s+(?:\w+\s+)?unable\s+to\b"
    rf"|\b{_DENIED}{_WILL_NOT}\s+(?:\w+\s+)?{_SPECULATE}\b"
    r"|\b(?:not|im)possible\s+(?:for\s+me\s+)?to\s+(?:tell|say|determine|know|judge|decide|answer)"
    r"|\bno\s+(?:reliable\s+)?way\s+(?:for\s+me\s+)?to\s+(?:tell|say|determine|know|judge|decide"
    r"|answer|be\s+sure|verify|hear)\b"
    r"|\bI\s+(?:do\s+not|don['\u2019]?t)\s+know\b(?!\s+(?:of|about|why|how))",
    re.IGNORECASE)


def declines(text: str) -> bool:
    """Whether ``text`` refuses or declines to answer."""
    return bool(DECLINE.search(text))
