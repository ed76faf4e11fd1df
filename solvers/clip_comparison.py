"""Which of two clips a reply says has more of something, said in words: "Loop 1 is more
syncopated.", "Excerpt 1 has more accents off the main beats.", "So the more syncopated loop is
the second one.", "Excerpt 2 isn't syncopated at all." (the other one) — docs/reading.md.

The rule holds only for a question whose two options are the two clips and that asks which
has *more* of a property: said by the options themselves ("The rhythm in Excerpt 1 is more
syncopated.") or by the task (``choice_reader(..., more="syncopated")``). Never when a reply
doubts, asks or supposes, or says one clip and then the other.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from .reply_spans import HEDGE

_ORDINAL = {"first": 1, "1st": 1, "1": 1, "one": 1, "second": 2, "2nd": 2, "2": 2, "two": 2}
_CLIP_NOUN = r"(?:loop|excerpt|clip|rhythm|pattern|recording|example|track|sample|audio|groove)"
# "the first loop", "the second one", "Loop 1", "excerpt #2", "the first".
_CLIP = (rf"(?:(?:the\s+)?(?P<ord>first|second|1st|2nd)(?:\s+(?:one|{_CLIP_NOUN}))?"
         rf"|{_CLIP_NOUN}\s*(?:#\s*|no\.?\s*)?(?P<num>1|2|one|two)\b"
         # "Excerpt 1's rhythm", "than Excerpt 2's" (round 26)
         rf"(?:['\u2019]s(?:\s+(?:rhythm|pattern|groove|beat|part))?\b)?)")
# A clip named alone, as the whole answer ("So Excerpt 2.": a conclusion of the reasons before).
_CLIP_ALONE = re.compile(rf"\W*(?:(?:so|thus|hence|therefore)\W+)?{_CLIP}\W*", re.IGNORECASE)
# "…, so the answer is the other one": the clip not named before it (round 24).
OTHER_ONE = re.compile(r"(?<!\bnot\s)\b(?:the\s+answer\s+(?:is|must\s+be)|i(?:['\u2019]d|\s+would)"
                        r"\s+(?:pick|choose|go\s+with)|it\s*(?:['\u2019]s|\s+is|\s+must\s+be))\s+"
                        rf"the\s+other\s+(?:one|{_CLIP_NOUN})\W*$", re.IGNORECASE)
_CLIP_NAMED = re.compile(rf"\b{_CLIP}", re.IGNORECASE)
# A strict ranking of the two clips, "Excerpt 1 > Excerpt 2" ("<" the other way; never ">="):
# its top is the answer when the property is named before it ("Syncopation, highest first: …").
_RANKING = re.compile(rf"{_CLIP}\s*(?P<op>>|<|\u226b|\u226a)(?!=)\s*"
                      + _CLIP.replace("?P<ord>", "?P<ord2>").replace("?P<num>", "?P<num2>"),
                      re.IGNORECASE)
_DEGREE = r"(?:(?:clearly|much|far|a\s+lot|a\s+bit|slightly|noticeably|definitely|way)\s+)?"
# Words of the asked property besides its adjective, for the properties eartest asks about.
_MEASURE_WORDS = {
    "syncopated": r"(?:syncopation|off-?\s?beats?(?:\s+(?:hits|accents|notes|kicks|snares|"
                  r"strokes))?|(?:accents|hits|notes|kicks|strokes)\s+(?:off|between)\s+the\s+"
                  r"(?:main\s+)?beats?|(?:pushed|placed|landing|lands?|falling|falls?|set)\s+off\s+the"
                  r"\s+(?:main\s+)?beats?)",  # "hits are pushed off the beat" (round 20)
}
_OPTION_CLAIM = re.compile(r"\bis\s+more\s+(?P<adj>[a-z-]+)", re.IGNORECASE)
_DOUBT = re.compile(r"\?|\b(?:maybe|perhaps|possibly|probably|might|could|unsure|uncertain|"
                    r"if|unless|whether|neither|either|both|equally|same|not\s+(?:\w+\s+)?"
                    r"(?:sure|certain)|hard\s+to|can['\u2019]?t"
                    # "…, and so is loop 2": the other clip too (round 21)
                    rf"|so\s+(?:is|are|does|do|has)\s+(?:the\s+)?(?:other|first|second|{_CLIP_NOUN}))"
                    r"\b", re.IGNORECASE)


def compared_property(options: Mapping[str, str], more: str | None = None) -> str | None:
    """The property a two-clip question asks which clip has more of: ``more`` if given, else
    the adjective every option claims ("… is more syncopated."); None if none."""
    if more:
        return more.casefold()
    claims = {m.group("adj").casefold() for text in options.values()
              if (m := _OPTION_CLAIM.search(str(text)))}
    return claims.pop() if len(claims) == 1 and len(options) == 2 else None


def clip_letters(options: Mapping[str, str]) -> dict[int, str]:
    """``{1: letter, 2: letter}`` when the two options each name one clip, else ``{}``."""
    found: dict[int, str] = {}
    for letter, text in options.items():
        numbers = {_ORDINAL[word] for word in re.findall(r"[a-z0-9]+", str(text).casefold())
                   if word in _ORDINAL}
        if len(numbers) != 1:
            return {}
        found[numbers.pop()] = letter
    return found if len(options) == 2 and set(found) == {1, 2} else {}


class ClipComparison:
    """Reads one span: the option of the clip a reply says has more of ``adjective``."""

    def __init__(self, letters: dict[int, str], adjective: str):
        self.letters = letters
        more = rf"more\s+{re.escape(adjective)}"
        measure = _MEASURE_WORDS.get(adjective)
        has_more = rf"more\s+{measure}" if measure else None
        less = rf"less\s+{re.escape(adjective)}"
        none = rf"(?:{re.escape(adjective)}|{measure})" if measure else re.escape(adjective)
        self.patterns = [  # (pattern, whether the clip it names is the answer)
            (rf"{_CLIP}\s+(?:is|sounds|feels|seems)\s+{_DEGREE}(?:the\s+)?{more}", True),
            (rf"\bthe\s+more\s+{re.escape(adjective)}\s+(?:one|{_CLIP_NOUN}|of\s+the\s+two)?"
             rf"\s*(?:is|would\s+be)\s+{_CLIP}", True),
            (rf"{_CLIP}\s+(?:is|sounds|feels|seems)\s+{_DEGREE}{less}", False),
            (rf"{_CLIP}\s+(?:is\s+not|isn['\u2019]t|is\s+hardly|has\s+no|has\s+hardly\s+any|"
             rf"has\s+zero)\s+(?:real\s+)?{none}", False),
            # "Excerpt 1 is not the syncopated one" (never "… not the more syncopated one",
            # round 6), "it's the second loop whose hits are pushed off the beat": the clip
            # denied, or singled out by a cleft (round 20)
            (rf"{_CLIP}\s+(?:is\s+not|isn['\u2019]t)\s+the\s+{none}\s+"
             rf"(?:one|{_CLIP_NOUN})\b", False),
            (rf"\b(?:it|that)(?:['\u2019]s|\s+is)\s+{_CLIP}\s+(?:whose|that|which|where)\s+"
             rf"[^.;!?,:\u2014\u2013]{{0,80}}?\b{none}", True),
        ]
        self.patterns.append(  # "Excerpt 2 is not more syncopated; the first one is." (round 24)
            (_CLIP.replace("?P<ord>", "?P<ord0>").replace("?P<num>", "?P<num0>")
             + rf"\s+(?:is\s+not|isn['\u2019]t)\s+{more}\s*(?:[;,.]|\u2014|\u2013)\s*(?:but\s+)?"
             rf"{_CLIP}\s+is[\s;.!]*$", True))
        self.patterns.append(  # "…, but loop 2 has even more": that clip too (round 21)
            (rf"{_CLIP}\s+(?:has|is|sounds|feels|seems)\s+(?:even|still)\s+more\b", True))
        self.patterns.append(  # "Excerpt 2 clearly wins on syncopation." (round 26)
            (rf"{_CLIP}\s+{_DEGREE}wins\s+(?:on|in|for)\s+(?:the\s+)?{none}\b", True))
        if has_more:
            self.patterns.append((rf"{_CLIP}\s+(?:has|contains|shows|carries)\s+{_DEGREE}"
                                  rf"(?:many\s+)?{has_more}", True))
        self.patterns = [(re.compile(p, re.IGNORECASE), answer) for p, answer in self.patterns]
        self.property = re.compile(rf"\b{none}", re.IGNORECASE)
        self.property_after = re.compile(rf"\s*(?:in|by|for|on)\s+(?:terms\s+of\s+)?{none}\b",
                                         re.IGNORECASE)

    def _ranked_first(self, text: str) -> set[int]:
        """The clip a strict ranking after the property's name puts on top ("Ranking by
        syncopation: Excerpt 1 > Excerpt 2" is clip 1), or none."""
        tops = set()
        for match in _RANKING.finditer(text):
            first = _ORDINAL[(match.group("ord") or match.group("num")).casefold()]
            second = _ORDINAL[(match.group("ord2") or match.group("num2")).casefold()]
            named_after = self.property_after.match(text, match.end())  # "… in syncopation"
            if first != second and (self.property.search(text[:match.start()]) or named_after):
                tops.add(first if match.group("op") in (">", "\u226b") else second)
        return tops

    def __call__(self, text: str, source: str) -> tuple:
        if _DOUBT.search(text):
            return None, "doubts or supposes"
        said: set[int] = set()
        for pattern, is_answer in self.patterns:
            for match in pattern.finditer(text):
                word = (match.group("ord") or match.group("num")).casefold()
                clip = _ORDINAL[word]
                denied = match.groupdict().get("ord0") or match.groupdict().get("num0")
                if denied and _ORDINAL[denied.casefold()] == clip:
                    return None, HEDGE  # "Excerpt 2 is not more syncopated; the second one is."
                if re.search(r"\b(?:not|never|n['\u2019]t)\s+$", text[:match.start()][-12:]):
                    return None, "negated comparison"
                said.add(clip if is_answer else 3 - clip)
        said |= self._ranked_first(text)
        if other := OTHER_ONE.search(text):  # "Excerpt 2 stays on the beat, so … the other one"
            named = {_ORDINAL[(m.group("ord") or m.group("num")).casefold()]
                     for m in _CLIP_NAMED.finditer(text[:other.start()])}
            if len(named) != 1:
                return None, "no clip the other one is the other of"
            said.add(3 - named.pop())
        if not said and (alone := _CLIP_ALONE.fullmatch(text)):  # "Excerpt 2", "The second one."
            said.add(_ORDINAL[(alone.group("ord") or alone.group("num")).casefold()])
        if len(said) != 1:
            return (None, HEDGE) if said else (None, "no comparison said")
        return self.letters[said.pop()], None, "comparison"
