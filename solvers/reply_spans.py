"""Where a reply commits to an answer: the spans every answer reader reads, and how they combine.

Chat models write their answer in many places: a ``Final Answer:`` line (or a block under a
``### Final Answer`` heading), ``$\\boxed{C}$``, a JSON object, a sentence such as "The answer
is B." or "I'd go with B.", or just the last short line. A careful grader reads the most
explicit of these and ignores the reasoning around it. This module finds those spans, in
tiers of authority, and :func:`read_reply` applies one rule set to every answer kind:

1. **Tiers.** Explicit commitments (``final_line``, ``final_block``, ``boxed``, ``json``) come
   first; then answer sentences with a cue (``answer_sentence``); then, only if neither exists,
   the last line if it is short, else the first and last sentences of it if they are
   (``last_line``, ``last_sentence``). The first tier that has spans decides; lower tiers
   are never consulted after it, so a committed but unreadable answer line is no answer
   rather than an invitation to mine the reasoning. (Cue sentences that name nothing, "My
   answer is based on the audio.", fall through to the last line.)
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

import re
import unicodedata
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Generic, TypeVar

from . import changes_of_mind as _mind
from .answer_cues import AFTERTHOUGHT as _AFTERTHOUGHT
from .answer_cues import LAST_CLAUSE as _LAST_CLAUSE
from .answer_cues import RULING_OUT as _RULING_OUT
from .answer_cues import SETTING as _SETTING
from .answer_cues import colon_conclusion, conclusion_of, cue_value, opening_clause
from .answer_lines import closing_answers, corrected_closing, enumerates, read_ends, without_listing
from .caveats import CAVEAT_SOURCES, read_after, vetoes, without_caveats
from .closing_clauses import closing_clauses
from .cut_off import cut_before_answer
from .echoed_questions import without_echoed_question
from .keyed_answers import keyed_spans
from .refusals import declines
from .reply_excerpt import ANSWER_CONTENT as _ANSWER_CONTENT
from .reply_excerpt import BOXED as _BOXED
from .reply_excerpt import MAX_BLOCK_LINES as _MAX_BLOCK_LINES
from .reply_excerpt import THINKING as _THINKING
from .reply_excerpt import WORD as _WORD
from .reply_excerpt import TooManyCues, clean_markup, excerpt, listed_options, unify_line_breaks
from .reply_excerpt import sentence_ends as _sentence_ends
from .retractions import CORRECTION as _CORRECTION
from .retractions import RETRACTION as _RETRACTION
from .retractions import REVISION as _REVISION
from .retractions import SECOND_LOOK as _SECOND_LOOK
from .retractions import after_interruption, taken_back_after, without_courtesy, without_taken_back
from .revisions import revised_answer

T = TypeVar("T", bound=Hashable)

EXPLICIT_SOURCES = ("final_line", "final_block", "boxed", "json")
SENTENCE_SOURCES = ("answer_sentence",)
# a final answer taken back after its line; what a caveat after an answer is about
AFTER_ANSWER_SOURCES = (*_mind.CHANGE_SOURCES, *CAVEAT_SOURCES)
CONCLUSION = "conclusion"  # a last sentence concluding a reasoning ("So yes, it modulates.")
FALLBACK_SOURCES = ("last_line", CONCLUSION, "last_sentence", "last_clause")
SOURCES = (*EXPLICIT_SOURCES, *SENTENCE_SOURCES, *FALLBACK_SOURCES)
HEDGE = "hedge"  # the reason a value reader gives for two or more different answers in one span
# A last line or sentence longer than this is reasoning, not an answer given alone.
MAX_FALLBACK_WORDS = 14
MAX_TRAILING_WORDS = 7  # a line this short above a short last line is read with it
# "Step 3: ...", "2. Snare on beats 2 and 4.": the numbered steps of a chain of thought
_STEP_LINE = re.compile(r"^\W*(?:step\s*\d+\b|\d{1,2}[.)]\s+\S+(?:\s+\S+){2})", re.IGNORECASE)
_CONDITIONAL_OPENING = re.compile(
    r"\W*(?:(?:but|and|or|so)\s+)?(?:otherwise|else|if|unless|whether)\b", re.IGNORECASE)
_MAX_TRAILING_LINES = 2
_TABLE_ROW = re.compile(r"(?<=\|)([^|\n]*)(?=\|)")  # the cells of "| a | b |"


@dataclass(frozen=True)
class AnswerSpan:
    """Text the reply commits to as its answer, and where it was found (one of ``SOURCES``)."""

    text: str
    source: str


@dataclass(frozen=True)
class Reading(Generic[T]):
    """An answer read from a reply, or why none: ``error`` is ``HEDGE``, or a reader's reason;
    ``source`` where the deciding span was found (``final_line``, ``answer_sentence``...);
    ``via`` what the value reader recognised in it (``letter``, ``option_text``...), if it says."""

    answer: T | None
    source: str | None
    error: str | None = None
    via: str | None = None
    span: str | None = None  # the deciding span's text (the hedging one, for a hedge)


ValueReader = Callable[[str, str], "tuple[T | None, str | None] | tuple[T | None, str | None, str]"]

# --- Spans -------------------------------------------------------------------------------------

# "Final Answer:", "**Final answer** -", "Final answer is", "FINAL ANSWER →"; or a line opening
# with "Answer:", "My answer:", "Correct answer ="; an optional "(letter)" before the separator.
_SEPARATOR = r"(?:[:=\-\u2013\u2014\u2192\u21d2]|=>|->)"
_HEADER = re.compile(
    rf"(?:\bfinal(?:\s*answer\s*(?:\([^()]*\))?\s*(?:{_SEPARATOR}|\bis\b)|\s*:)"  # or "Final:"
    r"|^[\s#>\-\u2022]*(?:(?:my|the|correct|best)\s+)?answer\s*(?:\([^()]*\))?\s*"
    rf"{_SEPARATOR}"
    # or the Chinese "答案:" / "最终答案是" (the answer / the final answer is)
    r"|^[\s#>\-\u2022]*(?:\u6700\u7ec8)?\u7b54\u6848\s*(?:\u662f|\u4e3a)?\s*:?)"
    r"(?!\s*[^\s?]{1,24}(?:\s*\([^()?]{1,24}\))?\?\s+\S)\s*(?P<value>.*)$",  # "A (B)? Hmm": asked
    re.IGNORECASE,
)
# A heading line that is only "Final Answer" ("### Final Answer", "**Final answer**").
_HEADING = re.compile(r"^[\s#>\-\u2022]*final\s*answer\s*[.:]?\s*$", re.IGNORECASE)
# Lines that continue a keyed or listed answer ("Offset: 00:02.75", "2. D4", "- E4").
_CONTINUATION = re.compile(r"^\s*(?:[-\u2022]\s|\d{1,2}[.)]\s|[A-Za-z][\w ]{0,24}:\s*\S)")
# List markers opening a row of a block ("1. C4", "2) D4", "- E4"): enumeration, not answer.
_LIST_MARKER = re.compile(r"^\s*(?:[-\u2022]|\d{1,2}[.)])\s+")
# ("Note:" explains; "Note 1: 00:14.25" is a row of the answer.)
_EXPLANATION_KEYS = re.compile(r"^\s*(?:reason(?:ing)?|explanation|because|note(?!\s*#?\d)|"
                               r"rationale|confidence|justification|why)\b", re.IGNORECASE)


def _sentences(line: str) -> list[str]:
    return [sentence for sentence, _end in _sentence_ends(line)]


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
        if not _ANSWER_CONTENT.search(value):  # an empty header: the block of lines under it
            while follow < len(lines) and not lines[follow].strip():
                follow += 1
            while (follow < len(lines) and lines[follow].strip() and len(block) < _MAX_BLOCK_LINES
                   and not _HEADER.search(lines[follow]) and not _HEADING.match(lines[follow])):
                block.append(_LIST_MARKER.sub("", lines[follow]).strip())
                follow += 1
            block = [line for line in block if not _EXPLANATION_KEYS.match(line)]
            # An answer line left empty is an empty answer, not a cue to read the reasoning.
            spans.append(AnswerSpan("\n".join(block), "final_block" if block else "final_line"))
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


def _retraction_spans(lines: list[str]) -> list[AnswerSpan]:
    """What a reply says after taking its final answer back ("Final Answer: Yes / Wait, ...
    they are different", "… Switching to A."), read with that answer: a different answer
    there, or a doubt, is a hedge, not the answer given first. (A plain explanation after the
    answer line is not read: it names the other options and neighbouring pitches.)"""
    last = max((i for i, line in enumerate(lines) if _HEADER.search(line)), default=None)
    if last is None:
        return []
    after = [line.strip() for line in lines[last + 1:] if _WORD.search(line)]
    said = [sentence for line in after for sentence in _sentences(line)]  # "… Actually, …"
    start = next((i for i, sentence in enumerate(said) if _RETRACTION.match(sentence)), None)
    revised = [value for value in map(revised_answer, said) if value]
    spans = [] if start is None else [AnswerSpan(" ".join(said[start:]), "retraction")]
    return spans + [AnswerSpan(value, _mind.REVISION_SOURCE) for value in revised[-1:]]


def _after_retraction(lines: list[str]) -> list[str]:
    """The lines after the last retraction that stands between two answer lines (all lines if
    there is none): answer lines taken back are not read."""
    answers = [i for i, line in enumerate(lines) if _HEADING.match(line) or _HEADER.search(line)]
    if len(answers) < 2:
        return lines
    for i in range(answers[-1], answers[0] - 1, -1):
        first = i == answers[0]
        said = _outside_answer(lines[i], first)
        later = [answer for answer in answers if answer > i or answer == i and not first]
        if _REVISION.search(said) or _SECOND_LOOK.search(said) and len(later) == 1:
            return lines[later[0]:]
    return lines


def _outside_answer(line: str, first: bool) -> str:
    """What an answer line says besides its answer: after it on the first answer line ("Final
    Answer: B. Wait, ..."), before it on a later one ("Wait, listening again - Final Answer: D");
    every other line whole."""
    match = _HEADER.search(line) or _HEADING.match(line)
    if match is None:
        return line
    return line[match.start():] if first else line[:match.start()]


def answer_tiers(reply: str) -> list[list[AnswerSpan]]:
    """The reply's answer spans grouped in tiers, most authoritative first (see module doc).

    Tiers with no spans are left out, so ``answer_tiers(r)[0]`` is the deciding tier if any.
    What a mild caveat is about closes every tier (it may only veto the tier's answer).
    """
    tiers, caveats = _tiers(reply)
    return [[*tier, *caveats] for tier in tiers]


def _tiers(reply: str) -> tuple[list[list[AnswerSpan]], list[AnswerSpan]]:
    """The tiers of :func:`answer_tiers`, and the caveat spans apart."""
    if not isinstance(reply, str):
        return [], []
    raw = unify_line_breaks(unicodedata.normalize("NFKC", reply)).rstrip()
    try:
        kept, boxed_and_json = excerpt(raw)
    except TooManyCues:
        return [], []
    # "Minor, though I'm not fully certain about the fifth." is read as "Minor." beside what
    # the caveat is about ("the fifth"), which may only veto
    lines, subjects = without_caveats(
        [clean_markup(_BOXED.sub(lambda m: " " + m.group(1) + " ", line)) for line in kept])
    caveats = [AnswerSpan(subject, source) for subject, source in subjects]
    explicit = (_header_spans(_after_retraction(lines))
                + [AnswerSpan(text, source) for text, source in boxed_and_json]
                + [AnswerSpan(text, "json") for text in keyed_spans(raw)])  # {"modulates": false}
    if explicit:
        explicit += _retraction_spans(lines)
    tiers: list[list[AnswerSpan]] = []
    if explicit:
        tiers.append(explicit)
    tiers += filter(None, [[AnswerSpan(said, CONCLUSION) for said in _mind.changed_in_line(lines)]])
    sentences: list[AnswerSpan] = []
    taken_back = taken_back_after(lines)  # (line, end) -> "I'll go with B. Hmm, no -" follows
    for index, line in enumerate(lines):
        for sentence, end in _sentence_ends(line):
            said = after_interruption(cue_value(sentence))  # None after a condition ("If …")
            if said is not None and _WORD.search(said) and not taken_back(index, end):
                rest = line[end:]  # "The answer is D. Or possibly A.": the hedge is read too
                value = said + (rest if _AFTERTHOUGHT.search(rest) else "")
                sentences.append(AnswerSpan(value.strip(), "answer_sentence"))
    if sentences:
        tiers.append(sentences)
    if _THINKING.search(raw):  # "<think>... so it's diminished.</think>" answers nothing
        lines = without_caveats([clean_markup(line)
                                 for line in excerpt(_THINKING.sub("\n", raw))[0]])[0]
    wordy = without_courtesy([without_echoed_question(line.strip()) for line in lines
                              if _WORD.search(line)])  # "Major or minor? Minor."
    while len(wordy) > 1 and _EXPLANATION_KEYS.match(wordy[-1]):
        wordy.pop()  # "B\n\nExplanation: ...": the answer is above its explanation
    if listed := listed_options(wordy) or closing_answers(wordy, _CORRECTION):  # read together
        return [*tiers, [AnswerSpan(line, "last_line") for line in listed]], caveats
    if wordy and len(cells := [c.strip() for c in _TABLE_ROW.findall(wordy[-1])]) > 1:
        # a table's last row ("| clip_3.wav | Minor |"): its cells, the answer the last of them
        return [*tiers, [AnswerSpan(cell, "last_line") for cell in cells
                         if _WORD.search(cell)]], caveats
    if wordy and not enumerates(wordy[-1]):  # "Ranking: 1. Minor 2. Major" closes no answer
        last = after_interruption(wordy[-1])  # "Major... no, it is lowered. Minor."
        every = _sentences(last)  # "Thank you …", "… wait, no,", "Loop 1: …"
        sentences = without_listing(without_courtesy(without_taken_back(every)))
        corrected = corrected_closing(every, sentences, _CORRECTION)  # "A. … Wait, … B. …"
        if changed := _mind.changed_closing(sentences):  # "A. Actually, …, it is B.", if read
            tiers.append([AnswerSpan(changed, CONCLUSION)])  # (read as before if it does not)
        if _word_count(last) <= MAX_FALLBACK_WORDS:
            # Short lines just above the last are read with it, so "A\nB" is two answers
            above = []  # (unless the last line corrects: "B. …\nScratch that, … A. …")
            for line in reversed([] if corrected else wordy[-1 - _MAX_TRAILING_LINES:-1]):
                if _word_count(line) > MAX_TRAILING_WORDS or _STEP_LINE.match(line):
                    break
                above.insert(0, AnswerSpan(line, "last_line"))
            tiers.append([*above, AnswerSpan(corrected or last, "last_line")])
        # A long last line, or a short one naming nothing whole ("The beat is straight. No
        # syncopation."): its closing and opening sentences, when short; they must agree.
        if sentences and (len(every) > 1 or _word_count(last) > MAX_FALLBACK_WORDS):
            ends = [corrected] if corrected else read_ends(sentences)  # first, last, answers
            # "Same progression: both go I-V-vi-IV, ..."
            ends[0] = opening_clause(ends[0], MAX_FALLBACK_WORDS)
            if ends[0] != sentences[0] and _RULING_OUT.match(ends[0]):
                rest = sentences[0].partition(ends[0])[2].lstrip(" ,;:-\u2014\u2013")
                closing = _LAST_CLAUSE.search(rest)  # "…, and it doesn't dip either: every note
                ends.append(closing.group(1) if closing and _word_count(rest)  # is higher …"
                            > MAX_FALLBACK_WORDS else rest)
            if len(sentences) > 1 and _SETTING.match(sentences[-1]):  # "Because of that, …"
                ends.append(opening_clause(sentences[-1], MAX_FALLBACK_WORDS))
            if _word_count(final := sentences[-1]) > MAX_FALLBACK_WORDS:  # "…, so it's B.",
                ends += filter(None, (conclusion_of(final), colon_conclusion(final)))  # "…: Arch."
            short = [AnswerSpan(sentence, "last_sentence") for sentence in ends
                     if _word_count(sentence) <= MAX_FALLBACK_WORDS
                     and not _CONDITIONAL_OPENING.match(sentence)]  # "otherwise No."
            if concluded := _mind.concluding(sentences):  # "…. So yes, it modulates." decides,
                tiers.append([AnswerSpan(concluded, CONCLUSION)])  # if it names an answer
            if short:  # "…, i.e. G4. On the other hand, it could be G#4 …" vetoes
                tiers.append(short + [AnswerSpan(*said) for said in read_after(sentences)])
        clauses = closing_clauses(sentences[-1]) if sentences else []  # "…, MIDI 61."
        if clauses and not _CONDITIONAL_OPENING.match(sentences[-1]):
            clauses.insert(-1, sentences[-1])  # read whole too: it must name no other answer
            tiers.append([AnswerSpan(clause, "last_clause") for clause in clauses])
    return tiers, caveats


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
        said = _read_tier(tier, read_value)
        if tier[0].source == CONCLUSION and said.via in _mind.PHRASE_VIAS:  # "So the first half …"
            said = Reading(None, CONCLUSION, "no answer in the reply")
        if said.answer is not None and said.source in FALLBACK_SOURCES and cut_before_answer(
                reply, said.answer, lambda tail, src=said.source: read_value(tail, src)[0]):
            return Reading(None, said.source, "the reply is cut off before its answer")
        if said.answer is not None or said.error == HEDGE:
            return said
        if tier[0].source == "last_clause":
            break  # read last of all, only for an answer: its reason never replaces one
        reading = said
        closing_next = tiers[-1][0].source == "last_clause"
        if tier[0].source not in (*SENTENCE_SOURCES, "last_line", CONCLUSION, *(
                ("last_sentence",) if closing_next else ())) or reading.error == "declined":
            return reading  # a committed answer line that names nothing is no answer
    return reading  # cue sentences that name nothing fall through to the last line


def _read_tier(tier: list[AnswerSpan], read_value: ValueReader) -> Reading:
    after = [span for span in tier if span.source in AFTER_ANSWER_SOURCES]
    reading = _read_spans([span for span in tier if span not in after], read_value)
    if reading.answer is None:
        return reading  # what follows an answer line supplies an answer only as a change of mind
    changes = [(span.text, span.source) for span in after if span.source in _mind.CHANGE_SOURCES]
    if (changed := _mind.changed_answer(changes, reading.answer, read_value)) is not None:
        reading = Reading(changed, "retraction", None, span=changes[-1][0])  # "Changing to A."
        after = [span for span in after if span.source not in _mind.CHANGE_SOURCES]
    for span in after:
        answer, reason, *_via = read_value(span.text, span.source)
        withdrawn = _CORRECTION.search(span.text) and answer is None  # "Wait, I was wrong."
        if withdrawn or vetoes(span.text, span.source, reading.answer, read_value) \
                or reason == HEDGE or answer is not None and answer != reading.answer:
            return Reading(None, span.source, HEDGE, span=f"{reading.span}\n{span.text}")
    return reading


def _read_spans(tier: list[AnswerSpan], read_value: ValueReader) -> Reading:
    found: dict[Hashable, tuple[str, str | None, str]] = {}
    first_reason: str | None = None
    last_answer: Hashable | None = None
    for span in tier:
        answer, reason, *via = read_value(span.text, span.source)
        if answer is not None and declines(span.text):
            answer, reason = None, "declined"  # "..., so I won't guess." answers nothing
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
    if found and tier[-1].source in ("last_line", "last_clause") and last_answer is None:
        found = {}  # short lines above the last line (clauses before the closing one) only
        # make a hedge, never the answer
    if not found:
        return Reading(None, tier[-1].source, first_reason or "no answer in the reply",
                       span=tier[-1].text)
    (answer, (source, via, text)), = found.items()
    if _mind.reopened([span.text for span in tier], text, answer, source, read_value):
        return Reading(None, source, HEDGE, span=text)  # "Piano. Hmm, …, so …: D."
    return Reading(answer, source, None, via, text)
