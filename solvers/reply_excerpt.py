"""The part of a reply a reader reads: markup removed, and only the lines that can hold an answer.

:func:`excerpt` keeps readers linear and fast on a megabyte of junk: the tier rules of
:mod:`solvers.reply_spans` run on the lines holding an answer keyword (with the block under a
header), and the last lines. Keywords are found by literal regexes (C speed); a reply with
more of them than any real reply has (``MAX_CUES``), or whose excerpt exceeds
``MAX_EXCERPT_CHARS``, is degenerate (:class:`TooManyCues`) and has no readable answer.
"""

from __future__ import annotations

import json
import re
import unicodedata

WORD = re.compile(r"[^\W_]+")
# What an answer value may be besides words: symbols ("↑ ↓", a lone "+", "°", "△"), anything
# but spaces and punctuation.
ANSWER_CONTENT = re.compile(r"[^\s.,;:!?'\"`()\[\]{}<>*_\-\u2013\u2014=/|~]")
# A sentence ends at . ! ? or ; unless the point is inside a number ("277.18", "00:01.50"),
# or ends an ellipsis that the sentence goes on after in lower case ("Yes... or no.").
# The dot of an option label ("A. Piano or C. Bass.": a lone capital letter, then a capitalised
# word) is not a sentence end: splitting there would leave "Bass." as a last sentence.
# An abbreviation's point ("vs. A4 it is flat", "approx. 440 Hz") ends no sentence.
_ABBREVIATED = r"(?<!\bvs)(?<!\bVs)(?<!\bcf)(?<!\bapprox)(?<!\bApprox)(?<!\be\.g)(?<!\bi\.e)"
SENTENCE_END = re.compile(r"(?<!\d)(?<![\s(*][A-H])(?<!^[A-H])" + _ABBREVIATED +
                          r"[.!?;](?=\s|$)"
                          r"(?!(?<=\.\.\.)\s+[a-z])|(?<=\d)[.!?;](?=\s|$)"
                          r"|(?<=[\s(*][A-H])\.(?=\s|$)(?!\s+[A-Z][a-z])|(?<=^[A-H])\.(?=\s|$)(?!\s+[A-Z][a-z])")
MAX_BLOCK_LINES = 40
_JSON_OBJECT = re.compile(r"\{[^{}]*\}")
_JSON_KEYS = ("final_answer", "answer", "choice", "option", "prediction", "label", "result")

# --- Markup ------------------------------------------------------------------------------------

_LATEX_WRAPPERS = re.compile(r"\\(?:text|textbf|textit|mathrm|mathbf|mathit|operatorname|mbox)"
                             r"\s*\{([^{}]*)\}")
_LATEX_SYMBOLS = {
    r"\sharp": "#", r"\flat": "b", r"\natural": "\u266e", r"^\circ": "\u00b0",
    r"^{\circ}": "\u00b0", r"\circ": "\u00b0", r"\times": "x",
    r"\rightarrow": "->", r"\to": "->", r"\approx": "~", r"\Rightarrow": "=>", r"\implies": "=>",
    r"\,": " ", r"\;": " ", r"\!": "", r"\quad": " ", r"\%": "%",
}
_LATEX_DELIMITERS = re.compile(r"\$\$?|\\[()\[\]]")
# LaTeX-written note names: "E_4", "C_{4}", "F^{\sharp}_4" (the sharp already replaced by "#").
_NOTE_SUPERSCRIPT = re.compile(r"(?<=[A-Ga-g])\^\{?([#b])\}?")
_NOTE_SUBSCRIPT = re.compile(r"(?<=[A-Ga-g#b\u266f\u266d])_\{?(-?[0-9])\}?(?![0-9])")
_HTML_TAG = re.compile(r"</?[a-zA-Z][a-zA-Z0-9]*(?:\s[^<>]*)?/?>")
_MARKDOWN_MARKS = re.compile(r"\*+|(?<![\w])_+|_+(?![\w])|`+|~~")
_FENCE = re.compile(r"^\s*```.*$|^\s*~~~.*$", re.MULTILINE)
BOXED = re.compile(r"\\boxed\s*\{((?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*)\}")


def clean_markup(text: str) -> str:
    """Plain text of a reply: NFKC, no code fences, LaTeX wrappers, HTML tags or emphasis marks."""
    text = unicodedata.normalize("NFKC", text)
    text = _FENCE.sub("", text)
    for _ in range(3):  # nested wrappers: \textbf{\text{B}}
        text = _LATEX_WRAPPERS.sub(r"\1", text)
    for symbol, plain in _LATEX_SYMBOLS.items():
        text = text.replace(symbol, plain)
    text = _NOTE_SUBSCRIPT.sub(r"\1", _NOTE_SUPERSCRIPT.sub(r"\1", text))
    text = _LATEX_DELIMITERS.sub(" ", text)
    text = _HTML_TAG.sub(" ", text)
    return _MARKDOWN_MARKS.sub("", text)



def _json_value(data: object) -> str | None:
    if not isinstance(data, dict):
        return None
    lowered = {str(key).casefold(): value for key, value in data.items()}
    for key in _JSON_KEYS:
        if key in lowered:
            value = lowered[key]
            if isinstance(value, list):
                value = ", ".join(str(item) for item in value)
            if isinstance(value, str | int | float) and not isinstance(value, bool):
                return str(value)
            return None
    return None



# --- Excerpt: the few lines of a reply that can hold its answer ---------------------------------
# Readers must be linear and fast on a megabyte of junk, so the line rules above run on an
# excerpt: lines holding an answer keyword (with the block under a header), and the last lines.
# The keywords are found by str.find (C speed); a reply with more of them than any real reply
# has (MAX_CUES), or whose excerpt exceeds MAX_EXCERPT_CHARS, has no readable answer.

_KEYWORDS = ("answer", "\u7b54\u6848", "boxed", "option", "choice", "result", "prediction",
             "verdict", "conclusion", "pick", "go with", "choose", "select", "opt for", "label",
             "commit to", "going with", "settle on", "stick with")
_HEADER_KEYWORDS = ("answer", "\u7b54\u6848")
_LITERALS = {word: re.compile(re.escape(word)) for word in _KEYWORDS}
MAX_CUES = 256
MAX_EXCERPT_CHARS = 48_000
_MAX_LINE_CHARS = 2_000  # a longer line is read in windows around its keywords
_TAIL_LINES = 48
_OTHER_LINE_BREAKS = ("\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")


# A model's thinking block ("<think>...</think>", or one left open at the end) is reasoning, not
# the answer: the fallback (a last line or sentence) never reads inside it.
THINKING = re.compile(r"<think(?:ing)?>.*?(?:</think(?:ing)?>|\Z)", re.IGNORECASE | re.DOTALL)


def unify_line_breaks(text: str) -> str:
    if "\r" in text:  # single characters: `in` is a fast memchr
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    for mark in _OTHER_LINE_BREAKS:
        if mark in text:
            text = text.replace(mark, "\n")
    return text


class TooManyCues(Exception):
    """More answer cues than any real reply has: read as no answer."""


def _hits(low: str, words: tuple[str, ...], budget: list[int]) -> list[tuple[int, str]]:
    found = []
    for word in words:  # a literal regex per word: faster than str.find on adversarial text
        for match in _LITERALS[word].finditer(low):
            budget[0] -= 1
            if budget[0] < 0:
                raise TooManyCues
            found.append((match.start(), word))
    return found


def _json_at(raw: str, position: int) -> str | None:
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
            cut = SENTENCE_END.search(text, window, end)
            if cut:
                spans.append((cut.end(), end))
            break
        spans.append((start, end))
        end = start - 1
    return spans


def excerpt(raw: str) -> tuple[list[str], list[tuple[str, str]]]:
    """The lines the tier rules read, in order (a blank line between distant pieces), and the
    boxed and JSON answers. Raises TooManyCues for a degenerate reply."""
    low = raw.replace("\u0130", "i").lower()  # U+0130 is the one letter lower() lengthens
    if len(low) != len(raw):
        low = "".join(ch if len(ch.lower()) != 1 else ch.lower() for ch in raw)
    hits = _hits(low, _KEYWORDS, [MAX_CUES])
    pieces: set[tuple[int, int]] = set()
    explicit = []
    for position, word in sorted(hits):
        line = _line_span(raw, position)
        pieces.add(line)
        if word in _HEADER_KEYWORDS:
            pieces.update(_next_lines(raw, line[1], MAX_BLOCK_LINES + 6))
        if word == "boxed" and raw[position - 1:position] == "\\":
            boxed = BOXED.match(raw, position - 1, position + 4 * _MAX_LINE_CHARS)
            if boxed:
                explicit.append((clean_markup(boxed.group(1)).strip(), "boxed"))
        if raw[position - 1:position] in ('"', "_") and word in _JSON_KEYS:
            value = _json_at(raw, position)
            if value is not None and (value, "json") not in explicit:
                explicit.append((value, "json"))
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
            raise TooManyCues
        lines.append(line)
        last_end = end
    return lines, [span for span in explicit if ANSWER_CONTENT.search(span[0])]


# an option line: "A. Yes, ...", "(B) ...", "C - ..."
_OPTION_LINE = re.compile(r"^\W{0,3}[A-H](?:[.):]|\s+[-\u2013\u2014])\s")


def listed_options(lines: list[str]) -> list[str]:
    """The option lines a reply ends with ("A. Yes, ...\\nB. No, ..."): two or more of them
    are the question's list echoed, read together (a hedge), however long each line is."""
    listed: list[str] = []
    for line in reversed(lines):
        if not _OPTION_LINE.match(line):
            break
        listed.insert(0, line)
    return listed if len(listed) > 1 else []


def sentence_ends(line: str) -> list[tuple[str, int]]:
    """The sentences of one line with the offset each ends at (a decimal point or a clock
    time does not end a sentence)."""
    parts, start = [], 0
    for match in SENTENCE_END.finditer(line):
        parts.append((line[start : match.end()], match.end()))
        start = match.end()
    parts.append((line[start:], len(line)))
    return [(part.strip(), end) for part, end in parts if WORD.search(part)]
