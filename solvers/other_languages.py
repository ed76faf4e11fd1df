"""Answer markers of a reply written in another language, said in English before a choice is
read: "答案是B。" is "The answer is B.", "所以选B" "so I choose B", "La respuesta es C", "La
réponse est C", "Die Antwort ist C", "答えはCです" (docs/reading.md, round 24). Pure, no I/O.

Only the markers and the sentence punctuation are rewritten; the option must still be named by
its letter or its own (English) text, as in any reply. Descriptions are never translated, so
"答案是小三和弦" (the answer is a minor triad) names nothing. A letter glued to the words after
it ("B小调", B minor) stays no letter.
"""

from __future__ import annotations

import re

_CJK = r"\u3040-\u30ff\u3400-\u9fff"
_NON_ASCII_MARKER = re.compile(rf"[{_CJK}\u3002]|respuesta|r[ée]ponse|antwort", re.IGNORECASE)
_LETTER = r"(?:[A-Ea-e](?![\w\-']))"
_MARKERS = (
    # Chinese: 答案是/为 (the answer is), 最终答案 (final answer), 选/选择 (choose), 所以 (so)
    (re.compile(rf"(?:所以|因此|因而)\s*(?:我)?(?:选择?|答案(?:是|为|应该是)?)\s*[:：]?\s*(?:选项\s*)?"
                rf"(?={_LETTER})"),
     " so I choose "),
    (re.compile(rf"(?:我)?(?:选择?|最终选择)\s*[:：]?\s*(?:选项\s*)?(?={_LETTER})"), " I choose "),
    (re.compile(rf"(?:最终)?答案\s*(?:(?:是|为|应该是)\s*[:：]?|[:：])\s*(?={_LETTER})"),
     " The answer is "),
    # Japanese: 答えは / 正解は (the answer is)
    (re.compile(rf"(?:答え|正解|回答)\s*(?:は|:|：)\s*(?={_LETTER})"), " The answer is "),
    # Spanish, French, German: "la respuesta (correcta) es", "la réponse (finale) est", "die
    # (richtige) Antwort ist", and their headers "Respuesta:", "Réponse :", "Antwort:"
    (re.compile(rf"\b(?:la\s+)?respuesta(?:\s+(?:correcta|final))?\s*(?:es\b|:)\s*(?={_LETTER})",
                re.IGNORECASE), " The answer is "),
    (re.compile(rf"\b(?:la\s+)?r[ée]ponse(?:\s+(?:correcte|finale))?\s*(?:est\b|:)\s*(?={_LETTER})",
                re.IGNORECASE), " The answer is "),
    (re.compile(rf"\b(?:die\s+)?(?:richtige\s+|endg[üu]ltige\s+)?antwort\s*(?:ist\b|:)\s*"
                rf"(?={_LETTER})", re.IGNORECASE), " The answer is "),
)
_COPULA = re.compile(r"(?<![A-Za-z])([A-E])\s*(?:です|でしょう|だ)(?=[。.!！\s]|$)")
_OPTION = re.compile(rf"选项\s*(?={_LETTER})")  # "选项B": option B
_FULL_STOP = re.compile(r"\s*\u3002\s*")
# Words of Spanish, French, German and Italian that English never uses (round 26): two of
# them, and none of English's own words, make a reply one of another language.
_FOREIGN_WORDS = frozenset(
    "el la los las de que es y del una con le les est une des du et avec der die das ist ein eine "
    "und nicht mit il è questo questa sono c'est".split())
ENGLISH_WORDS = frozenset("the is it it's and of this that to which with an".split())
_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")
_CLOSING_LETTER = re.compile(r"\((?P<letter>[A-E])\)")
_ANY_LETTER = re.compile(r"(?<![\w\-'])[A-E](?![\w\-'])")


def foreign(reply: str) -> bool:
    """Whether ``reply`` is written in another language: CJK, or two of the closed words of
    Spanish, French, German and Italian and no English word."""
    if re.search(f"[{_CJK}]", reply):
        return True
    words = words_of(reply)
    return len(words & _FOREIGN_WORDS) >= 2 and not words & ENGLISH_WORDS


def words_of(reply: str) -> set[str]:
    """The words of ``reply``, casefolded."""
    return {word.casefold() for word in _WORD.findall(reply)}


def in_english_markers(reply: str) -> str:
    """``reply`` with another language's answer markers said in English (module doc)."""
    if (letter := _closing_letter(reply)) is not None and foreign(reply) \
            and len(_ANY_LETTER.findall(reply)) == 1:  # "… forma de arco (A)."
        reply = f"{reply.rstrip().rstrip('.!').rstrip()[:-3]}. The answer is {letter}."
    if not _NON_ASCII_MARKER.search(reply):
        return reply
    reply = _COPULA.sub(r"\1", reply)
    for pattern, english in _MARKERS:
        reply = pattern.sub(english, reply)
    return _FULL_STOP.sub(". ", _OPTION.sub(" option ", reply)).strip()


# Yes and no of other languages, opening a reply to a yes/no question or its answer line
# (round 26). Accented only: a bare "si" may be a note name. CJK words need their punctuation
# ("不是很确定" is "not very sure", no answer).
_YES_NO_WORDS = {
    "yes": ("Sí", "Sì", "Oui", "Ja", "是的", "はい"),
    "no": ("Non", "Nein", "不是", "不", "いいえ"),
}
_YES_NO_OPENER = re.compile(
    r"(?P<lead>(?:^|\n)[ \t>#*_\-]*(?:(?:respuesta|r[ée]ponse|antwort|risposta|answer|答案|回答"
    r"|答え)\s*[:：]\s*[*_]*)?)"
    r"(?P<word>" + "|".join(w for words in _YES_NO_WORDS.values() for w in words) + r")"
    r"(?P<stop>[*_]*(?:\s*[,.!:;\u2014\u2013]|[，。！、：；]|[ \t]*(?=\n|$)))", re.IGNORECASE)
_ASCII_STOPS = str.maketrans({"，": ", ", "。": ". ", "！": "! ", "、": ", ", "：": ": ",
                              "；": "; "})
_POLARITY = {word.casefold(): polarity for polarity, words in _YES_NO_WORDS.items()
             for word in words}


def in_english_yes_no(reply: str) -> str:
    """``reply`` to a yes/no question with another language's yes or no opening it or its
    answer line said in English ("Sí, los dos ritmos son idénticos" -> "Yes, los dos ...")."""
    return _YES_NO_OPENER.sub(lambda found: found.group("lead")
                              + _POLARITY[found.group("word").casefold()].capitalize()
                              + found.group("stop").translate(_ASCII_STOPS), reply)


def _closing_letter(reply: str) -> str | None:
    """The option letter in parentheses closing ``reply`` ("… (A)."), if any; read from the
    stripped end, never by a search over the whole reply (a megabyte of spaces is linear)."""
    found = _CLOSING_LETTER.fullmatch(reply.rstrip().rstrip(".!").rstrip()[-3:])
    return found.group("letter") if found else None
