"""Where a reply commits to an answer: the spans every answer reader reads, and how they combine.

Chat models write their answer in many places: a ``Final Answer:`` line (or a block under a
``### Final Answer`` heading), ``$\\boxed{C}$``, a JSON object, a sentence such as "The answer
is B." or "I'd go with B.", or just the last short line. A careful grader reads the most
explicit of these and ignores the reasoning around it. This module finds those spans, in
tiers of authority, and :func:`read_reply` applies one rule set to every answer kind:

1. **Tiers.** Explicit commitments (``final_line``, ``final_block``, ``boxed``, ``json``) come
   first; then answer sentences with a cue (``answer_sentence``); then, only if neither exists,
   the last line if it is short, else the first and last sentences of it if they are
   (``last_line``, ``last_sentence``). The first
   tier that has spans decides; lower tiers are never consulted after it, so a committed but
   unreadable answer line is no answer rather than an invitation to mine the reasoning. (Cue
   sentences that name nothing, "My answer is based on the audio.", fall through to the
   last line.)
2. **Agreement.** Within the deciding tier every readable span must give the same answer.
   Two different answers (a changed mind, a boxed answer contradicting the final line) are a
   hedge and read as no answer. A span that is itself a hedge ("A or B") makes the reply one.
3. **Unreadable spans** in a tier with readable ones are skipped ("Answer: let me think" above
   "Final Answer: B").

The kind-specific reading of one span's text (a letter, a pitch, a timestamp list) is the
caller's ``read_value``; it says whether the text is a hedge by returning ``HEDGE`` as reason.
Markup is removed once here (Markdown emphasis, code fences, LaTeX wrappers, HTML tags), so
value readers see plain text.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T", bound=Hashable)

EXPLICIT_SOURCES = ("final_line", "final_block", "boxed", "json")
SENTENCE_SOURCES = ("answer_sentence",)
FALLBACK_SOURCES = ("last_line", "last_sentence")
SOURCES = (*EXPLICIT_SOURCES, *SENTENCE_SOURCES, *FALLBACK_SOURCES)
HEDGE = "hedge"  # the reason a value reader gives for two or more different answers in one span
# A last line or sentence longer than this is reasoning, not an answer given alone.
MAX_FALLBACK_WORDS = 14
_MAX_BLOCK_LINES = 40
MAX_TRAILING_WORDS = 7  # a line this short above a short last line is read with it
_MAX_TRAILING_LINES = 2


@dataclass(frozen=True)
class AnswerSpan:
    """Text the reply commits to as its answer, and where it was found (one of ``SOURCES``)."""

    text: str
    source: str


@dataclass(frozen=True)
class Reading(Generic[T]):
    """An answer read from a reply, or why none: ``error`` is ``HEDGE``, or a reader's reason.

    ``source`` says where the deciding span was found (``final_line``, ``answer_sentence``...);
    ``via`` what the value reader recognised in it (``letter``, ``option_text``...), if it says.
    """

    answer: T | None
    source: str | None
    error: str | None = None
    via: str | None = None
    span: str | None = None  # the deciding span's text (the hedging one, for a hedge)


ValueReader = Callable[[str, str], "tuple[T | None, str | None] | tuple[T | None, str | None, str]"]

# --- Markup ------------------------------------------------------------------------------------

_LATEX_WRAPPERS = re.compile(r"\\(?:text|textbf|textit|mathrm|mathbf|mathit|operatorname|mbox)"
                             r"\s*\{([^{}]*)\}")
_LATEX_SYMBOLS = {
    r"\sharp": "#", r"\flat": "b", r"\natural": "\u266e", r"^\circ": "\u00b0",
    r"^{\circ}": "\u00b0", r"\circ": "\u00b0", r"\times": "x",
    r"\rightarrow": "->", r"\to": "->", r"\approx": "~",
    r"\,": " ", r"\;": " ", r"\!": "", r"\quad": " ", r"\%": "%",
}
_LATEX_DELIMITERS = re.compile(r"\$\$?|\\[()\[\]]")
_HTML_TAG = re.compile(r"</?[a-zA-Z][a-zA-Z0-9]*(?:\s[^<>]*)?/?>")
_MARKDOWN_MARKS = re.compile(r"\*+|(?<![\w])_+|_+(?![\w])|`+|~~")
_FENCE = re.compile(r"^\s*```.*$|^\s*~~~.*$", re.MULTILINE)
_BOXED = re.compile(r"\\boxed\s*\{((?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*)\}")


def clean_markup(text: str) -> str:
    """Plain text of a reply: NFKC, no code fences, LaTeX wrappers, HTML tags or emphasis marks."""
    text = unicodedata.normalize("NFKC", text)
    text = _FENCE.sub("", text)
    for _ in range(3):  # nested wrappers: \textbf{\text{B}}
        text = _LATEX_WRAPPERS.sub(r"\1", text)
    for symbol, plain in _LATEX_SYMBOLS.items():
        text = text.replace(symbol, plain)
    text = _LATEX_DELIMITERS.sub(" ", text)
    text = _HTML_TAG.sub(" ", text)
    return _MARKDOWN_MARKS.sub("", text)


# --- Spans -------------------------------------------------------------------------------------

# "Final Answer:", "**Final answer** -", "Final answer is", "FINAL ANSWER →"; or a line opening
# with "Answer:", "My answer:", "Correct answer ="; an optional "(letter)" before the separator.
_SEPARATOR = r"(?:[:=\-\u2013\u2014\u2192]|=>|->)"
_HEADER = re.compile(
    rf"(?:\bfinal\s*answer\s*(?:\([^()]*\))?\s*(?:{_SEPARATOR}|\bis\b)"
    r"|^[\s#>\-\u2022]*(?:(?:my|the|correct|best)\s+)?answer\s*(?:\([^()]*\))?\s*"
    rf"{_SEPARATOR}"
    # or the Chinese "答案:" / "最终答案是" (the answer / the final answer is)
    r"|^[\s#>\-\u2022]*(?:\u6700\u7ec8)?\u7b54\u6848\s*(?:\u662f|\u4e3a)?\s*:?)"
    r"\s*(?P<value>.*)$",
    re.IGNORECASE,
)
# A heading line that is only "Final Answer" ("### Final Answer", "**Final answer**").
_HEADING = re.compile(r"^[\s#>\-\u2022]*final\s*answer\s*[.:]?\s*$", re.IGNORECASE)
# Lines that continue a keyed or listed answer ("Offset: 00:02.75", "2. D4", "- E4").
_CONTINUATION = re.compile(r"^\s*(?:[-\u2022]\s|\d{1,2}[.)]\s|[A-Za-z][\w ]{0,24}:\s*\S)")
# List markers opening a row of a block ("1. C4", "2) D4", "- E4"): enumeration, not answer.
_LIST_MARKER = re.compile(r"^\s*(?:[-\u2022]|\d{1,2}[.)])\s+")
_EXPLANATION_KEYS = re.compile(r"^\s*(?:reason(?:ing)?|explanation|because|note|rationale|"
                               r"confidence|justification|why)\b", re.IGNORECASE)
_WORD = re.compile(r"[^\W_]+")
# Sentences that name the answer: "The answer is B.", "So the option would be (C)",
# "I'd go with B", "I will choose the minor chord".
_CUE_SENTENCE = re.compile(
    r"(?:\b(?:the|my|our)\s+(?:final\s+|correct\s+|best\s+|right\s+|most\s+likely\s+)?"
    r"(?:answer|option|choice)\s+(?:is|would\s+be|should\s+be|must\s+be|will\s+be|=|:)"
    r"|\bI(?:'d|\u2019d|\s+would|\s+will|'ll|\u2019ll)?\s+(?:go\s+with|choose|pick|select|opt\s+for)"
    r"|\b(?:answer|option|choice|result|prediction|verdict|conclusion|pick|selection)\s*:)"
    r"\s*(?P<value>.*)$",
    re.IGNORECASE,
)
# A sentence ends at . ! ? or ; unless the point is inside a number ("277.18", "00:01.50").
_SENTENCE_END = re.compile(r"(?<!\d)[.!?;](?=\s|$)|(?<=\d)[.!?;](?=\s|$)")
_JSON_OBJECT = re.compile(r"\{[^{}]*\}")
_JSON_KEYS = ("final_answer", "answer", "choice", "option", "prediction", "label", "result")
# (every JSON key holds one of the keywords the excerpt looks for; see _KEYWORDS below)


def _sentences(line: str) -> list[str]:
    """The sentences of one line (a decimal point or a clock time does not end a sentence)."""
    parts, start = [], 0
    for match in _SENTENCE_END.finditer(line):
        parts.append(line[start : match.end()])
        start = match.end()
    parts.append(line[start:])
    return [part.strip() for part in parts if _WORD.search(part)]


def _word_count(text: str) -> int:
    return len(_WORD.findall(text))


def _header_spans(lines: list[str]) -> list[AnswerSpan]:
    spans: list[AnswerSpan] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        header = None if _HEADING.match(line) else _HEADER.search(line)
        if header is None and not _HEADING.match(line):
            index += 1
            continue
        value = header.group("value").strip() if header else ""
        block: list[str] = []
        follow = index + 1
        if not _WORD.search(value):  # an empty header: the block of lines under it
            while follow < len(lines) and not lines[follow].strip():
                follow += 1
            while (follow < len(lines) and lines[follow].strip() and len(block) < _MAX_BLOCK_LINES
                   and not _HEADER.search(lines[follow]) and not _HEADING.match(lines[follow])):
                block.append(_LIST_MARKER.sub("", lines[follow]).strip())
                follow += 1
            block = [line for line in block if not _EXPLANATION_KEYS.match(line)]
            if block:
                spans.append(AnswerSpan("\n".join(block), "final_block"))
        else:
            rows = [value]
            while (follow < len(lines) and _CONTINUATION.match(lines[follow])
                   and not _EXPLANATION_KEYS.match(lines[follow])
                   and not _HEADER.search(lines[follow]) and len(rows) < _MAX_BLOCK_LINES
                   and _CONTINUATION.match(value)):
                rows.append(_LIST_MARKER.sub("", lines[follow]).strip())
                follow += 1
            if len(rows) == 1:
                spans.append(AnswerSpan(value, "final_line"))
            else:  # a list begun on the header line: its markers are enumeration too
                rows[0] = _LIST_MARKER.sub("", value).strip()
                spans.append(AnswerSpan("\n".join(rows), "final_block"))
        index = max(follow, index + 1)
    return spans


def _json_value(data: object) -> AnswerSpan | None:
    if not isinstance(data, dict):
        return None
    lowered = {str(key).casefold(): value for key, value in data.items()}
    for key in _JSON_KEYS:
        if key in lowered:
            value = lowered[key]
            if isinstance(value, list):
                value = ", ".join(str(item) for item in value)
            if isinstance(value, str | int | float) and not isinstance(value, bool):
                return AnswerSpan(str(value), "json")
            return None
    return None


# --- Excerpt: the few lines of a reply that can hold its answer ---------------------------------
# Readers must be linear and fast on a megabyte of junk, so the line rules above run on an
# excerpt: lines holding an answer keyword (with the block under a header), and the last lines.
# The keywords are found by str.find (C speed); a reply with more of them than any real reply
# has (MAX_CUES), or whose excerpt exceeds MAX_EXCERPT_CHARS, has no readable answer.

_KEYWORDS = ("answer", "\u7b54\u6848", "boxed", "option", "choice", "result", "prediction",
             "verdict", "conclusion", "pick", "go with", "choose", "select", "opt for", "label")
_HEADER_KEYWORDS = ("answer", "\u7b54\u6848")
_LITERALS = {word: re.compile(re.escape(word)) for word in _KEYWORDS}
MAX_CUES = 256
MAX_EXCERPT_CHARS = 48_000
_MAX_LINE_CHARS = 2_000  # a longer line is read in windows around its keywords
_TAIL_LINES = 48
_OTHER_LINE_BREAKS = ("\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")


def _unify_line_breaks(text: str) -> str:
    if "\r" in text:  # single characters: `in` is a fast memchr
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    for mark in _OTHER_LINE_BREAKS:
        if mark in text:
            text = text.replace(mark, "\n")
    return text


class _TooMany(Exception):
    """More answer cues than any real reply has: read as no answer."""


def _hits(low: str, words: tuple[str, ...], budget: list[int]) -> list[tuple[int, str]]:
    found = []
    for word in words:  # a literal regex per word: faster than str.find on adversarial text
        for match in _LITERALS[word].finditer(low):
            budget[0] -= 1
            if budget[0] < 0:
                raise _TooMany
            found.append((match.start(), word))
    return found


def _json_at(raw: str, position: int) -> AnswerSpan | None:
    """The answer of the JSON object around a key at ``position``, if it parses."""
    start = raw.rfind("{", max(0, position - _MAX_LINE_CHARS), position)
    match = _JSON_OBJECT.match(raw, start, position + _MAX_LINE_CHARS) if start >= 0 else None
    try:
        return _json_value(json.loads(match.group())) if match else None
    except ValueError:
        return None


def _line_span(text: str, position: int) -> tuple[int, int]:
    reach = max(0, position - _MAX_LINE_CHARS - 1)
    start = text.rfind("\n", reach, position) + 1 or reach
    end = text.find("\n", position, position + _MAX_LINE_CHARS * 2)
    end = min(len(text), position + _MAX_LINE_CHARS * 2) if end < 0 else end
    if end - start > _MAX_LINE_CHARS:  # a window around the keyword, cut at spaces
        if position - start > _MAX_LINE_CHARS // 4:
            left = text.find(" ", position - _MAX_LINE_CHARS // 4, position)
            start = position if left < 0 else left
        right = text.rfind(" ", position, position + _MAX_LINE_CHARS)
        end = min(end, position + _MAX_LINE_CHARS) if right < 0 else min(end, right)
    return start, end


def _next_lines(text: str, end: int, count: int) -> list[tuple[int, int]]:
    spans = []
    while end < len(text) and len(spans) < count:
        start = end + 1
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        if end - start > _MAX_LINE_CHARS:
            break
        spans.append((start, end))
    return spans


def _tail_lines(text: str) -> list[tuple[int, int]]:
    """The last lines; a last line too long to find its start is read from its last whole
    sentences (a window opening after a sentence end), and nothing above it."""
    spans, end = [], len(text)
    while end > 0 and len(spans) < _TAIL_LINES:
        reach = max(0, end - _MAX_LINE_CHARS * 4 - 1)
        start = text.rfind("\n", reach, end) + 1 or reach
        if start > 0 and start == reach:  # no line start within reach
            window = end - _MAX_LINE_CHARS
            cut = _SENTENCE_END.search(text, window, end)
            if cut:
                spans.append((cut.end(), end))
            break
        spans.append((start, end))
        end = start - 1
    return spans


def _excerpt(raw: str) -> tuple[list[str], list[AnswerSpan]]:
    """The lines the tier rules read, in order (a blank line between distant pieces), and the
    boxed and JSON answers. Raises _TooMany for a degenerate reply."""
    low = raw.lower()
    if len(low) != len(raw):
        low = "".join(ch if len(ch.lower()) != 1 else ch.lower() for ch in raw)
    hits = _hits(low, _KEYWORDS, [MAX_CUES])
    pieces: set[tuple[int, int]] = set()
    explicit = []
    for position, word in sorted(hits):
        line = _line_span(raw, position)
        pieces.add(line)
        if word in _HEADER_KEYWORDS:
            pieces.update(_next_lines(raw, line[1], _MAX_BLOCK_LINES + 6))
        if word == "boxed" and raw[position - 1:position] == "\\":
            boxed = _BOXED.match(raw, position - 1, position + 4 * _MAX_LINE_CHARS)
            if boxed:
                explicit.append(AnswerSpan(clean_markup(boxed.group(1)).strip(), "boxed"))
        if raw[position - 1:position] in ('"', "_") and word in _JSON_KEYS:
            span = _json_at(raw, position)
            if span is not None and span not in explicit:
                explicit.append(span)
    pieces.update(_tail_lines(raw))
    lines, last_end, size = [], -1, 0
    for start, end in sorted(pieces):
        if start < last_end:
            continue
        if last_end >= 0 and start > last_end + 1:
            lines.append("")
        line = raw[start:end]
        size += len(line)
        if size > MAX_EXCERPT_CHARS:
            raise _TooMany
        lines.append(line)
        last_end = end
    return lines, [span for span in explicit if _WORD.search(span.text)]


def answer_tiers(reply: str) -> list[list[AnswerSpan]]:
    """The reply's answer spans grouped in tiers, most authoritative first (see module doc).

    Tiers with no spans are left out, so ``answer_tiers(r)[0]`` is the deciding tier if any.
    """
    if not isinstance(reply, str):
        return []
    raw = _unify_line_breaks(unicodedata.normalize("NFKC", reply)).rstrip()
    try:
        excerpt, boxed_and_json = _excerpt(raw)
    except _TooMany:
        return []
    lines = [clean_markup(_BOXED.sub(lambda m: " " + m.group(1) + " ", line)) for line in excerpt]
    explicit = _header_spans(lines) + boxed_and_json
    tiers: list[list[AnswerSpan]] = []
    if explicit:
        tiers.append(explicit)
    sentences: list[AnswerSpan] = []
    for line in lines:
        for sentence in _sentences(line):
            cue = _CUE_SENTENCE.search(sentence)
            if cue and _WORD.search(cue.group("value")):
                sentences.append(AnswerSpan(cue.group("value").strip(), "answer_sentence"))
    if sentences:
        tiers.append(sentences)
    wordy = [line.strip() for line in lines if _WORD.search(line)]
    if wordy:
        last = wordy[-1]
        if _word_count(last) <= MAX_FALLBACK_WORDS:
            # Short lines just above the last are read with it, so "A\nB" is two answers.
            above = []
            for line in reversed(wordy[-1 - _MAX_TRAILING_LINES:-1]):
                if _word_count(line) > MAX_TRAILING_WORDS:
                    break
                above.insert(0, AnswerSpan(line, "last_line"))
            tiers.append([*above, AnswerSpan(last, "last_line")])
        else:
            # A long last line: its closing sentence, and its opening one ("No. The third
            # interval differs ..."), when short; different answers in them are a hedge.
            sentences = _sentences(last)
            ends = [sentences[0], sentences[-1]] if len(sentences) > 1 else sentences[-1:]
            short = [AnswerSpan(sentence, "last_sentence") for sentence in ends
                     if _word_count(sentence) <= MAX_FALLBACK_WORDS]
            if short:
                tiers.append(short)
    return tiers


# --- Combining ---------------------------------------------------------------------------------


def read_reply(reply: str, read_value: ValueReader) -> Reading:
    """Read ``reply`` with ``read_value(span_text, source)`` by the tier rules of the module.

    ``read_value`` returns ``(answer, None)`` or ``(answer, None, via)`` for an answer,
    ``(None, HEDGE)`` for a span naming several different answers, ``(None, reason)`` for one
    naming none. Answers must be hashable and compare equal when they mean the same thing.
    """
    tiers = answer_tiers(reply)
    if not tiers:
        return Reading(None, None, "no answer in the reply")
    reading: Reading = Reading(None, None, "no answer in the reply")
    for tier in tiers:
        reading = _read_tier(tier, read_value)
        if reading.answer is not None or reading.error == HEDGE:
            return reading
        if tier[0].source not in SENTENCE_SOURCES:
            return reading  # a committed answer line that names nothing is no answer
    return reading  # cue sentences that name nothing fall through to the last line


def _read_tier(tier: list[AnswerSpan], read_value: ValueReader) -> Reading:
    found: dict[Hashable, tuple[str, str | None, str]] = {}
    first_reason: str | None = None
    last_answer: Hashable | None = None
    for span in tier:
        answer, reason, *via = read_value(span.text, span.source)
        if answer is None:
            if reason == HEDGE:
                return Reading(None, span.source, HEDGE, span=span.text)
            first_reason = first_reason or reason
            continue
        found.setdefault(answer, (span.source, via[0] if via else None, span.text))
        if span is tier[-1]:
            last_answer = answer
    if len(found) > 1:
        texts = "\n".join(text for _source, _via, text in found.values())
        return Reading(None, tier[-1].source, HEDGE, span=texts)
    if found and tier[-1].source == "last_line" and last_answer is None:
        found = {}  # short lines above the last line only make a hedge, never the answer
    if not found:
        return Reading(None, tier[-1].source, first_reason or "no answer in the reply",
                       span=tier[-1].text)
    (answer, (source, via, text)), = found.items()
    return Reading(answer, source, None, via, text)


def final_answer_value(reply: str) -> str | None:
    """The text of the deciding tier's last span (for readers not yet on :func:`read_reply`)."""
    tiers = answer_tiers(reply)
    return tiers[0][-1].text.strip() if tiers else None
