"""Final-answer extraction from free model text.

A benchmark score is only as good as its reading of the model's answer. These extractors read
only what the model committed to: an explicit ``Final Answer`` line, or a last line that is an
answer and nothing else. Anything ambiguous (a letter glued to another option's label, both
yes and no, a letter that is really the article "A") yields None, which is scored as no answer
rather than guessed. Letters are read as whole tokens only, never out of words like "Answer".
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping

SAME_MELODY_SENTENCE = "Yes, these are the same melody."
DIFFERENT_MELODY_SENTENCE = "No, these are not the same melody."

# Markdown emphasis/code marks are dropped before looking for the header, so "**Final Answer:**"
# and "__Final Answer__:" read like "Final Answer:".
_MARKDOWN_MARKS = re.compile(r"[*_`]+")
# "Final Answer" anywhere in a line, or "Answer" opening a line (after bullets/headings), then an
# optional parenthetical such as "(letter)", then a separator (":", "-", "=", en/em dash; NFKC
# has already mapped the full-width "：" to ":").
_ANSWER_HEADER = re.compile(
    r"(?:\bfinal\s*answer|^[\s#>\-]*answer)"
    r"\s*(?:\([^()]*\))?\s*[:=\-\u2013\u2014]\s*(?P<value>.*)$",
    re.IGNORECASE,
)
# A word may end in accidentals, so "C#" or "D\u266d" is a note name, never the letter C or D.
_WORD = re.compile(r"[^\W_]+[#\u266f\u266d\u266e]*")
_OPTION_PREFIXES = ("option", "choice")


def _clean_line(line: str) -> str:
    return _MARKDOWN_MARKS.sub("", unicodedata.normalize("NFKC", line))


def _tokens(text: str) -> list[str]:
    """Case-folded words; punctuation, quotes and brackets only separate them."""
    return _WORD.findall(unicodedata.normalize("NFKC", text).casefold())


def _has_words(line: str) -> bool:
    return bool(_tokens(line))


def _answer_values(text: str) -> tuple[list[str], str | None]:
    """Values of all answer-header lines in order, and the last wordy line (for the fallback).

    A header with an empty value ("**Final Answer:**" alone) takes the next line with words as
    its value, as long as that line is not itself a header.
    """
    lines = [_clean_line(line) for line in text.splitlines()]
    wordy = [line for line in lines if _has_words(line)]
    headers = [_ANSWER_HEADER.search(line) for line in wordy]
    values: list[str] = []
    for index, header in enumerate(headers):
        if header is None:
            continue
        value = header.group("value")
        if not _has_words(value):
            following = index + 1
            if following < len(wordy) and headers[following] is None:
                value = wordy[following]
        values.append(value)
    last_line = wordy[-1] if wordy else None
    return values, last_line


def final_answer_value(text: str) -> str | None:
    """The value of the last ``Final Answer:`` / ``Answer:`` header line (stripped).

    Without any header line, the last line that has words stands in for the answer; None when
    the text has no such line (or is not text). Markdown marks are already removed and the
    text is NFKC-normalised, as for every other reader here.
    """
    if not isinstance(text, str):
        return None
    values, last_line = _answer_values(text)
    value = values[-1] if values else last_line
    return None if value is None else value.strip()


# --- Multiple choice ---------------------------------------------------------------------------


def _label_aliases(options: Mapping[str, str]) -> dict[str, str]:
    """Token-normalized ways of naming each option by its label, mapped to its letter.

    A label "0 (No Syncopation)" may be given whole, as "0", or as "No Syncopation". Any alias
    shared by two options is dropped, so a label reading is never ambiguous.
    """
    letters_by_alias: dict[str, set[str]] = {}
    for letter, label in options.items():
        label_text = str(label)
        before, paren, after = label_text.partition("(")
        forms = [label_text]
        if paren:
            forms += [before, after.split(")")[0]]
        for form in forms:
            alias = " ".join(_tokens(form))
            if alias:
                letters_by_alias.setdefault(alias, set()).add(letter)
    return {alias: next(iter(ls)) for alias, ls in letters_by_alias.items() if len(ls) == 1}


def _choice_from_value(
    value: str, letter_by_token: Mapping[str, str], letter_by_alias: Mapping[str, str]
) -> str | None:
    """The option a value names, or None if it names none or is ambiguous.

    Letter form: a lone letter token, optionally preceded by "Option"/"Choice" and followed by
    that same option's label. Label form: a whole label alias. A letter followed by anything
    else ("A minor chord", "B. Diminished" when D is Diminished) is rejected.
    """
    words = _tokens(value)
    whole = " ".join(words)
    if len(words) >= 2 and words[0] in _OPTION_PREFIXES and words[1] in letter_by_token:
        words = words[1:]
    if not words:
        return None
    if words[0] in letter_by_token:
        letter = letter_by_token[words[0]]
        rest = " ".join(words[1:])
        if not rest:
            return letter
        label_letter = letter_by_alias.get(whole)
        if letter_by_alias.get(rest) == letter and label_letter in (None, letter):
            return letter
        return None
    return letter_by_alias.get(whole)


def extract_choice(text: str, options: Mapping[str, str]) -> str | None:
    """The option letter a model finally chose, or None if it committed to none unambiguously.

    options maps letters to labels, e.g. {"A": "Major", "B": "Minor"}. The last valid
    ``Final Answer`` (or line-opening ``Answer``) line wins; invalid ones are skipped. Only when
    no such line exists at all may the last line count, and only if it is an answer by itself
    ("B", "(B)", "**B**", "B. Minor", "Minor"). Never raises.
    """
    if not isinstance(text, str) or not options:
        return None
    letter_by_token: dict[str, str] = {}
    for letter in options:
        token = " ".join(_tokens(str(letter)))
        if len(token) == 1:
            letter_by_token[token] = letter
    letter_by_alias = _label_aliases(options)
    values, last_line = _answer_values(text)
    if not values:
        values = [last_line] if last_line is not None else []
    chosen: str | None = None
    for value in values:
        choice = _choice_from_value(value, letter_by_token, letter_by_alias)
        if choice is not None:
            chosen = choice
    return chosen


# --- Yes / no (transposition) ------------------------------------------------------------------

_SAME_WORDS = " ".join(_tokens(SAME_MELODY_SENTENCE))  # "yes these are the same melody"
_DIFFERENT_WORDS = " ".join(_tokens(DIFFERENT_MELODY_SENTENCE))
_BARE_ANSWERS = {"yes": "yes", "no": "no", _SAME_WORDS: "yes", _DIFFERENT_WORDS: "no"}
_SAME_TAIL = _SAME_WORDS.removeprefix("yes ")  # "these are the same melody"


def _contains_phrase(words: list[str], phrase: str) -> bool:
    return f" {phrase} " in f" {' '.join(words)} "


def _yes_no_from_value(value: str) -> str | None:
    """Read a Final Answer value: its opening yes/no word, unless the rest contradicts it."""
    words = _tokens(value)
    if not words or words[0] not in ("yes", "no"):
        return None
    answer = words[0]
    rest = words[1:]
    opposite = "no" if answer == "yes" else "yes"
    if opposite in rest:
        return None  # "Yes or No", or both sentences on one line
    if answer == "yes" and _contains_phrase(rest, "not the same"):
        return None  # "Yes, these are not the same melody."
    if answer == "no" and _contains_phrase(rest, _SAME_TAIL):
        return None  # "No, these are the same melody."
    return answer


def extract_yes_no(text: str) -> str | None:
    """Return "yes" or "no" for the same-melody question; None if the model committed to neither.

    Valid answers: a ``Final Answer`` line whose value opens with the word yes/no, or a line that
    is exactly one of the two answer sentences or a bare "Yes"/"No" (case, quotes, markdown and
    punctuation ignored). The last valid answer in the text wins. Never raises.
    """
    if not isinstance(text, str):
        return None
    chosen: str | None = None
    for raw_line in text.splitlines():
        line = _clean_line(raw_line)
        header = _ANSWER_HEADER.search(line)
        if header is not None:
            answer = _yes_no_from_value(header.group("value"))
        else:
            answer = _BARE_ANSWERS.get(" ".join(_tokens(line)))
        if answer is not None:
            chosen = answer
    return chosen
