"""Which one option a span of a reply commits to: the choice reader of core tasks and MCQ.

:mod:`solvers.reply_spans` finds where a reply answers; this module reads one such span the way
a careful grader reads a choice. A span's **head** (the text before the first delimiter: a
dash, a colon, a sentence end, a comma, "because", "since"...) must be a *pure* option form:
words that name exactly one option (its letter or its text, or an alias) and otherwise only
filler ("It's a minor chord", "I think C fits best", "Option B", "(b)"). Later segments of the
span may explain, but a later segment that is itself a pure form of *another* option ("B.
Diminished", "B. Actually, C") makes the span a hedge, as does a head naming two options ("A or
B", "either minor or diminished", "maybe B, maybe C"). A segment that only rules other options
out ("minor, not diminished", "B rather than A") confirms the head; one that rules out the
head's own option ("B, not B") is a hedge.

Letters, as MuChoMusic's matcher should have read them:
* never out of words ("Answer", "Bach"), never glued to a hyphen, apostrophe or accidental
  ("A-flat", "B's", "C#");
* a note name is never an option letter: an upper-case letter followed by a word is a letter
  only when that word can follow an option letter ("A or B", "C fits best", "B is correct") or
  is that option's own text ("B Off-beat syncopation"); so "A with a flat third", "B minor"
  and "A Minor" name no letter (the last is ambiguous: option A, or an A minor chord);
* lower-case letters only when bracketed, alone, or after "option"/"choice"/"letter" ("a" is
  the article elsewhere); upper-case "I" is the pronoun unless bracketed or alone.
Input is capped (:data:`MAX_SPAN_CHARS`), so reading is linear in the reply's length.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .descriptive import described_reading
from .reply_spans import FALLBACK_SOURCES, HEDGE
from .retractions import TAKEN_BACK
from .ruled_out import NEGATED_PART as _NEGATED_PART
from .ruled_out import RULED_OUT_PARTS as _PARTS
from .ruled_out import other_of_two
from .unnamed_answers import NONE_COUNT as _NONE_COUNT
from .unnamed_answers import NOT_A_COUNT as _NOT_A_COUNT
from .unnamed_answers import NUMBER_WORDS as _NUMBER_WORDS
from .unnamed_answers import SUBJECT_IS as _SUBJECT_IS
from .unnamed_answers import closing_letter

MAX_SPAN_CHARS = 2000  # an answer's head and first explanations are near its start
_MAX_HEAD_WORDS = 24
UNCERTAIN = "uncertain answer"

_TOKEN = re.compile(r"[^\W_]+[#\u266f\u266d\u266e]*")
_GLUE_BEFORE = "-'\u2019"
_QUOTES = "\"'`\u201c\u201d\u2018\u2019"
# "the opposite of an arch": the option named after it is set aside, as after "rather than".
_OPPOSITE = r"(?:the\s+)?(?:exact\s+|very\s+)?(?:opposite|reverse|inverse|converse)\s+of"
# Where a head ends. Commas, colons, sentence ends, dashes and explanation words.
_DELIMITER = re.compile(
    r"\s*(?:\n|[\u2014\u2013]|\s-\s|--|;|,|\(|:(?=\s|$)|(?<!\d)[.!](?=\s|$)|(?<=\d)[.!](?=\s|$)"
    r"|\s(?:because|since|given|due\s+to|which|based\s+on|considering|but|however|"
    r"although|though|whereas|yet|unless|if)\b"
    r"|\s(?=(?:rather\s+than|instead\s+of|as\s+opposed\s+to|" + _OPPOSITE + r")\s))\s*",
    re.IGNORECASE,
)
_UNCERTAIN = re.compile(
    r"\b(?:maybe|perhaps|possibly|unsure|uncertain|undecided|either|neither|guessing|"
    # "can't tell" doubts; "it can't be the second loop" rules an option out
    r"not\s+(?:\w+\s+)?(?:sure|certain|confident)|(?:can'?t|cannot)(?!\s+be\s+(?:the|an?)\s)"
    r"|unable|hard\s+to|could\s+(?:also\s+)?be|might\s+(?:also\s+)?be|may\s+be|unclear)\b|\?",
    re.IGNORECASE)
FILLER = frozenset(
    """the a an it its s is are was be been being this that thats these those there here i d ll
    m ve re we you my our your me to of in on for from with by at final answer answers option
    choice choices letter correct right best most likely probably definitely clearly certainly
    surely confidently so therefore thus hence then overall think believe say said guess go
    going pick picked choose chose chosen select selected opt would will should must hear heard
    sounds sound sounding like seems seem appears appear looks look fits fit matches match one
    type kind quality chord chords triad level category class label recording clip audio sample
    example piece track song music played given what call called just only really very much
    strongly leaning lean toward towards am well ok okay alright hmm conclusion short summary simply
    unmistakable unmistakably textbook plain
    answering respond response reply at all instrument instruments heard after careful
    carefully listening analysis thought or and nor vs versus based genre style mood key
    tonality timbre emotion feel feels felt feeling character main primary featured prominent
    lead leading closest nearest syncopation syncopated rhythm pattern melody melodies melodic
    contour shape meter metre time signature grouping loop loops among options
    estimate estimated estimating which puts places indicates suggests""".split()
)
_OPTION_CUES = frozenset("option choice letter".split())
# Words that may follow an upper-case option letter (not a note name or article then).
_AFTER_LETTER = frozenset(
    """or and nor vs versus is was seems fits matches best because since would looks appears
    sounds it as then than""".split()
)
# Words that turn from an answer to another: an option named after one makes a hedge.
_AFTERTHOUGHT = re.compile(
    r"\b(?:actually|wait|alternatively|instead|rather|correction|also|possible|plausible|"
    r"or|though|although|however|but|unless|second\s+thought|otherwise)\b", re.IGNORECASE)
# A segment that rules options out: "not A", "and not diminished", "rather than minor".
_EXCLUSION = re.compile(
    r"\s*(?:and\s+|but\s+)?(?:(?:definitely|certainly|clearly|surely|absolutely|obviously|"
    r"so)\s+)?(?:not|rather\s+than|instead\s+of|as\s+opposed\s+to|" + _OPPOSITE + r")\s+(.+)",
    re.IGNORECASE | re.DOTALL)
# A head that answers nothing, turned to one option: "None fits perfectly, but the closest is D".
_TURN_TO = re.compile(r"[\s,]*(?:but|however)\b[\s,]*(.+)", re.IGNORECASE | re.DOTALL)
# "(it is) neither major nor minor": two options ruled out at once.
_NEITHER = re.compile(r"\s*(?:it\s*(?:'|\u2019)?\s*s\s+|it\s+is\s+)?neither\s+(.+?)\s+nor\s+(.+)",
                      re.IGNORECASE | re.DOTALL)
RULED_OUT_ONLY = "options only ruled out"
_LABEL_MARKS = frozenset([".", ":", "(", "-", "--", "\u2014", "\u2013", "!"])
_EXPLANATIONS = frozenset(["because", "since", "given", "which", "considering", "due to",
                           "based on"])
_DASHES = frozenset(["\u2014", "\u2013", "-", "--"])
# After a dash, a clause opening so explains the answer ("D — the arpeggio climbs two stacked
# minor thirds ..."): an option it mentions in passing is no second answer.
_EXPLAINING_OPENING = re.compile(r"\s*(?:the|its|it|this|that|there|i|every|each|all|both|these"
                                 r"|those|they|my|we)\b", re.IGNORECASE)
_TURNS = frozenset("but however although though whereas yet unless if".split())
# Words before a letter that make it a note or key name: "in A", "the key is A", "root C".
_NOTE_CONTEXT = frozenset("in key keys of on from to root note notes tonic bass at".split())


@dataclass(frozen=True)
class _Token:
    text: str  # case-folded
    raw: str
    start: int
    end: int


class ChoiceReader:
    """Reads one span for one option set: ``reader(span_text, source)`` for ``read_reply``.

    ``options`` maps letters to texts; ``aliases`` maps further texts ("dom7") to letters. An
    alias or text shared by two options is dropped, so a text reading is never ambiguous.
    """

    def __init__(self, options: Mapping[str, str], aliases: Mapping[str, str] | None = None):
        self.options = dict(options)
        self.letters = {str(k).upper(): k for k in options if len(str(k)) == 1 and str(k).isalpha()}
        owners: dict[tuple[str, ...], set[str]] = {}
        for letter, text in [*options.items(), *((v, k) for k, v in (aliases or {}).items())]:
            for form in _forms(str(text)):
                words = tuple(t.text for t in _tokens(form))
                if words and not (len(words) == 1 and words[0] in FILLER):
                    owners.setdefault(words, set()).add(letter)
        self.by_first: dict[str, list[tuple[tuple[str, ...], str]]] = {}
        for words, letters in sorted(owners.items(), key=lambda item: -len(item[0])):
            if len(letters) == 1:
                self.by_first.setdefault(words[0], []).append((words, next(iter(letters))))
        zero = owners.get(("0",), set()) | owners.get(("zero",), set())
        self.zero_letter = next(iter(zero)) if len(zero) == 1 else None  # the option meaning 0

    def __call__(self, text: str, source: str) -> tuple:
        text = unicodedata.normalize("NFKC", text)[:MAX_SPAN_CHARS]
        reading = self._read(text, source)
        if TAKEN_BACK.search(text):
            return None, HEDGE  # "It is a violin. Actually no.": a changed mind, no answer
        if reading[0] is None and source in FALLBACK_SOURCES:  # "The song is best described as
            return described_reading(text, reading, self.text_mentions, self.named,  # reggae."
                                     FILLER, list(self.options))
        return reading

    def _read(self, text: str, source: str) -> tuple:
        arrow = max(text.rfind("\u2192"), text.rfind("\u21d2"), text.rfind("->"), text.rfind("=>"))
        segments = _segments(text[arrow + 1:].lstrip(">") if arrow >= 0 else text)
        while len(segments) > 1 and self._filler_only(segments[0][1]):
            segments = segments[1:]  # "So, B.", "After careful listening: C."
        if not segments:
            return None, "no option named"
        head_named, head_via, head_pure = self.named(segments[0][1])
        if not head_named and not head_pure and len(segments) > 1:
            turn = _TURN_TO.match(f"{segments[1][0]} {segments[1][1]}")
            turned_to = self.named(turn.group(1)) if turn else (set(), None, False)
            if len(turned_to[0]) == 1 and turned_to[2]:  # "None fits well, but B is closest"
                segments = [("", turn.group(1)), *segments[2:]]
                head_named, head_via, head_pure = turned_to
        # An option ruled out by its text, then another named alone: "Not major — minor.",
        # "Not pop music — it's ska." (A bare letter ruled out, "Not A, it is B", stays no
        # answer: the documented conservative reading.)
        if len(segments) > 1 and (ruled_out := self._excluded(segments[0][1])) and \
                head_via == "option_text":
            turn = _TURN_TO.match(f"{segments[1][0]} {segments[1][1]}")
            rest = turn.group(1) if turn else segments[1][1]
            named, via, pure = self.named(rest)
            if len(named) == 1 and pure and not named & ruled_out:  # "Not major — minor."
                text = text.replace(segments[0][1], " ", 1)  # "neither … nor" is no doubt
                segments = [("", rest), *segments[2:]]
                head_named, head_via, head_pure = named, via, pure
        if len(head_named) > 1:  # "A or B"; "It isn't Major and it isn't Dominant" only rules out
            return (None, RULED_OUT_ONLY) if self._excluded(segments[0][1]) == head_named \
                else (None, HEDGE)
        if not head_named or not head_pure:
            if _UNCERTAIN.search(text) and any(self.named(seg)[0] for _d, seg in segments):
                return None, HEDGE  # "Maybe A, maybe D.": unsure about the options it names
            return self._said_otherwise(text, source)
        (letter,) = head_named
        lone = _TOKEN.fullmatch(segments[0][1].strip(" \t*_`'\"()[]"))
        if lone and len(lone.group()) == 1 and lone.group().islower() and \
                len(_TOKEN.findall(text)) > 1:
            after = _DELIMITER.search(text, text.find(lone.group()) + 1)
            if after is None or after.group().strip().casefold() not in _LABEL_MARKS:
                return None, "no option named"  # "a because ...": the article, not option a
        exclusions = [self._excluded(segment) for _d, segment in segments[1:]]
        if any(letter in ruled_out for ruled_out in exclusions):
            return None, HEDGE  # "minor, not minor": it contradicts itself
        for (_d, segment), out in zip(segments[1:], exclusions, strict=True):
            if out:  # "neither major nor minor" is no uncertainty about the answer
                text = text.replace(segment, " ", 1)
        # Positions are the span's own: "B. (Not A): its thirds are minor" keeps "its thirds
        # are minor" third, where a later segment may explain rather than answer.
        indexed = [(index, *segment) for index, segment in enumerate(segments)]
        indexed = indexed[:1] + [item for item, out in zip(indexed[1:], exclusions, strict=True)
                                 if not out]
        segments = [(delimiter, segment) for _index, delimiter, segment in indexed]
        for index, delimiter, segment in indexed[1:]:
            named, _via, pure = self.named(segment)
            explained = delimiter in _EXPLANATIONS or (  # "because ...": reasons, not answers
                delimiter in _DASHES and bool(_EXPLAINING_OPENING.match(segment)))
            opening = _TOKEN.match(segment.lstrip())
            turned = delimiter in _TURNS or bool(  # "minor but also calm", "B — though C"
                opening and opening.group().casefold() in _TURNS)
            if named - head_named and (pure or turned or (index == 1 and not explained)):
                return None, HEDGE  # "B. Diminished", "B. Actually, C."
        if _UNCERTAIN.search(text):
            return None, HEDGE  # an uncertain answer is a hedge ("maybe B", "B?")
        turned = False
        for delimiter, segment in segments[1:]:
            turned = turned or bool(_AFTERTHOUGHT.search(f"{delimiter} {segment}"))
            if turned and self.named(segment)[0] - head_named:
                return None, HEDGE  # "B - actually A", "B; C is also possible"
        return letter, None, head_via

    def _excluded(self, segment: str) -> set[str]:
        """The options ``segment`` only rules out ("minor, not diminished", "B rather than A",
        "definitely not A", "neither major nor minor", "it isn't Major and it isn't Dominant"):
        an exclusion of other options confirms the head's answer instead of adding one."""
        match = _NEITHER.match(segment) or _EXCLUSION.match(segment)
        negated = [_NEGATED_PART.fullmatch(part) for part in _PARTS.split(segment)]
        for parts in (list(match.groups()) if match else [],
                      [part.group("what") for part in negated if part]
                      if len(negated) > 1 and all(negated) else []):
            readings = [self.named(part) for part in parts]
            if readings and all(pure and named for named, _via, pure in readings):
                return set().union(*(named for named, _via, _pure in readings))
        return set()

    def _filler_only(self, segment: str) -> bool:
        named, _via, pure = self.named(segment)
        return pure and not named

    def _said_otherwise(self, text: str, source: str) -> tuple:
        """An answer that names no option in so many words: a count stated as none, or a
        guess said of the question's subject ("I would guess the tempo is fast.")."""
        if not _UNCERTAIN.search(text) and \
                (left := other_of_two(text, list(self.options), self.named)) is not None:
            return left, None, "ruled_out"  # "It's not a major chord." of Major/Minor
        none = _NONE_COUNT.match(text)
        if none and self.zero_letter and not _NOT_A_COUNT.search(none.group("what")) \
                and not self.named(none.group("what"))[0]:
            return self.zero_letter, None, "none_count"
        closing = closing_letter(text, self.letters)  # "It never leaves D major — option B."
        if closing and not _UNCERTAIN.search(text) and options_named(text, self) == [closing]:
            return closing, None, "letter"
        guess = _SUBJECT_IS.match(text) if source == "answer_sentence" else None
        if guess:
            answer = self(guess.group("rest"), source)
            if answer[0] is not None and answer[2:] == ("option_text",):
                return answer
        return None, "no option named"

    def named(self, segment: str) -> tuple[set[str], str | None, bool]:
        """Options named in ``segment``, how (``letter``/``option_text``), and whether every
        other word is filler (a pure option form)."""
        tokens = _tokens(segment)
        if len(tokens) > _MAX_HEAD_WORDS:
            tokens = tokens[:_MAX_HEAD_WORDS + 1]
        named: set[str] = set()
        via: str | None = None
        pure = len(tokens) <= _MAX_HEAD_WORDS
        mentions = self._mentions(tokens)
        covered = {i for start, count, _ in mentions for i in range(start, start + count)}
        for _start, _count, letter in mentions:
            named.add(letter)
            via = via or "option_text"
        for index, token in enumerate(tokens):
            if index in covered:
                continue
            letter = self._letter(segment, tokens, index, mentions)
            if letter is not None:
                named.add(letter)
                via = "letter"
            elif token.text not in FILLER or self._ambiguous_letter(token):
                pure = False
        return named, via, pure

    def text_mentions(self, segment: str) -> list[tuple[int, int, str]]:
        """Option texts and aliases in ``segment``, as (start, end, letter) offsets."""
        tokens = _tokens(segment)
        return [(tokens[i].start, tokens[i + n - 1].end, letter)
                for i, n, letter in self._mentions(tokens)]

    def _mentions(self, tokens: list[_Token]) -> list[tuple[int, int, str]]:
        """Leftmost-longest option texts and aliases, as (first token, token count, letter)."""
        found, index = [], 0
        while index < len(tokens):
            for words, letter in self.by_first.get(tokens[index].text, ()):
                if tuple(t.text for t in tokens[index:index + len(words)]) == words:
                    found.append((index, len(words), letter))
                    index += len(words)
                    break
            else:
                index += 1
        return found

    def _ambiguous_letter(self, token: _Token) -> bool:
        """An upper-case option letter not read as one ("A minor chord"): letter or article?"""
        return len(token.raw) == 1 and token.raw.isupper() and token.raw != "I" \
            and token.raw in self.letters

    def _letter(self, segment: str, tokens: list[_Token], index: int, mentions) -> str | None:
        token = tokens[index]
        letter = self.letters.get(token.raw.upper()) if len(token.raw) == 1 else None
        if letter is None:
            return None
        before = segment[:token.start].rstrip()
        after = segment[token.end:]
        if _glued(segment, token):
            return None  # "A-flat", "B's", "C#"
        if before.endswith(("(", "[")) and after.lstrip().startswith((")", "]")):
            return letter
        previous = tokens[index - 1].text if index else ""
        if len(tokens) == 1 or previous in _OPTION_CUES:
            return letter
        if {t.text for t in tokens[max(0, index - 2):index]} & _NOTE_CONTEXT:
            return None  # "it's in A", "the key is A"
        if token.raw.islower() and index == 0 and after.lstrip(_QUOTES).startswith(")"):
            return letter  # "b) Minor"
        if token.raw.islower() or token.raw == "I":
            return None  # the article "a", the pronoun "I", a stray lower-case letter
        following = tokens[index + 1] if index + 1 < len(tokens) else None
        if following is None or segment[token.end:following.start].strip():
            return letter  # "B.", "B)", "B:" or the end
        if following.text in _AFTER_LETTER:
            return letter
        own = [m for m in mentions if m[0] == index + 1]
        if own and own[0][2] == letter:
            return letter  # "B Off-beat syncopation": the letter and its own text
        return None  # a note name or the article: "A with a flat third", "B minor"


def _glued(text: str, token: _Token) -> bool:
    """A letter joined to a word by a hyphen or apostrophe ("A-flat", "B's", "x-B") or
    carrying an accidental ("C#"); quotes around it ("'A'") do not join."""
    start, end = token.start, token.end
    before = text[start - 2:start] if start >= 2 else " " + text[:start]
    after = text[end:end + 2]
    if after[:1] in "#\u266f\u266d\u266e" and after[:1]:
        return True
    if after[:1] in _GLUE_BEFORE and after[:1] and after[1:2].isalnum():
        return True
    return bool(before[1:2]) and before[1:2] in _GLUE_BEFORE and before[:1].isalnum()


def _forms(text: str) -> list[str]:
    """A label and its parts: "0 (No Syncopation)" is also "0" and "No Syncopation"."""
    before, paren, after = text.partition("(")
    forms = [text]
    if paren and after.strip():
        forms += [before, after.split(")")[0]]
    return forms + [re.sub(r"(?i)\band\s+then\b", "then", form) for form in forms]  # "X then Y"


def _tokens(text: str) -> list[_Token]:
    return [_Token(_NUMBER_WORDS.get(m.group().casefold(), m.group().casefold()), m.group(),
                   m.start(), m.end()) for m in _TOKEN.finditer(text)]  # "five" is "5"


def _segments(text: str) -> list[tuple[str, str]]:
    """The span cut at delimiters, each piece with the delimiter before it; empty pieces
    dropped. The first is the head."""
    pieces, start, before = [], 0, ""
    for match in _DELIMITER.finditer(text):
        pieces.append((before, text[start:match.start()]))
        start, before = match.end(), match.group().strip().casefold()
        if len(pieces) > 64:
            break
    pieces.append((before, text[start:]))
    return [(delimiter, piece) for delimiter, piece in pieces if _TOKEN.search(piece)]


def options_named(text: str, reader: ChoiceReader) -> list[str]:
    """Every option a span names in any segment, in option order (for records)."""
    named: set[str] = set()
    for _delimiter, segment in _segments(unicodedata.normalize("NFKC", text)[:MAX_SPAN_CHARS]):
        named |= reader.named(segment)[0]
    return [letter for letter in reader.options if letter in named]


def aliases_from(pairs: Iterable[tuple[str, str]]) -> dict[str, str]:
    """A mapping alias text -> letter from pairs, for :class:`ChoiceReader`."""
    return dict(pairs)
