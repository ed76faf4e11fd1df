"""Answers given as keys and values (JSON, YAML, ``key: value`` lines), read by what the key
means for the question (docs/reading.md, round 9).

``{"modulates": false}`` says the excerpt does not modulate: read word by word it names a
modulation, which flipped a reading. A JSON object with no answer key (``"answer"``,
``"final_answer"``... are read by :mod:`solvers.reply_excerpt`) is read as its pairs said in
words, one span of the explicit tier: a boolean is its key said (``true``) or denied (``false``:
"not modulates"), any other scalar ``key: value`` ("midi: 64", "chord: minor"), so each reader
reads the key's meaning for its own question and reads nothing it does not know. A boolean
under an answer key is the yes or no itself. Pure text; no I/O.
"""

from __future__ import annotations

import json
import re

_OBJECT = re.compile(r"\{[^{}]{1,1500}\}")
_TAIL_CHARS = 6000  # an answer object closes a reply; reasoning above it is not searched
_MAX_PAIRS = 12
ANSWER_KEYS = frozenset(("final_answer", "answer", "choice", "option", "prediction", "label",
                         "result"))
# An identifier key with a boolean value, in JSON, YAML or prose ("modulates: false",
# '"same_melody": true', "is_transposition = False").
_BOOLEAN_PAIR = re.compile(r"[\"'`]?\b([A-Za-z][A-Za-z0-9]*(?:[_\-.][A-Za-z0-9]+)*)\b[\"'`]?"
                           r"\s*[:=]\s*[\"'`]?\b(true|false)\b[\"'`]?", re.IGNORECASE)
# A line whose value says the key's thing is absent: "Modulation: none", "Out-of-key notes:
# not detected".
_ABSENT_PAIR = re.compile(r"^(\W*)([A-Za-z][\w\-]*(?:[^\S\n]+[A-Za-z][\w\-]*){0,2})[^\S\n]*:"
                          r"[^\S\n]*(?:none|absent|not\s+(?:detected|present|found))\b",
                          re.IGNORECASE | re.MULTILINE)
_COMPARATIVES = frozenset(("more", "most", "less", "least"))
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def key_words(key: str) -> str:
    """A key said in words: ``same_melody`` and ``sameMelody`` are "same melody"."""
    return " ".join(re.split(r"[_\-.\s]+", _CAMEL.sub(" ", key))).strip().casefold()


def _said(key: str, value: object) -> str:
    words = key_words(key)
    if isinstance(value, bool):
        if words.replace(" ", "_") in ANSWER_KEYS:
            return "yes" if value else "no"
        return words if value else f"not {words}"
    if words.split(" ", 1)[0] in _COMPARATIVES:
        return f"{value} is {words}"  # {"more_syncopated": "Loop 2"}: which one has more
    return f"{words}: {value}"


def spoken_booleans(text: str) -> str:
    """``text`` with each ``key: true/false`` pair said in words ("not modulates"), and each
    line ``key: none`` as "no key" ("Modulation: none." is "no modulation")."""
    text = _ABSENT_PAIR.sub(lambda m: f"{m.group(1)}no {m.group(2)}", text)
    return _BOOLEAN_PAIR.sub(lambda m: _said(m.group(1), m.group(2).casefold() == "true"), text)


def keyed_spans(reply: str) -> list[str]:
    """The pairs of each JSON object near the end of ``reply`` that holds no answer key, said
    in words ("not modulates; first half key: G major"); objects with an answer key and no
    boolean (read by that key), nested values or too many pairs are left to the other rules."""
    spans: list[str] = []
    tail = reply[-_TAIL_CHARS:]
    for match in _OBJECT.finditer(tail):
        try:
            data = json.loads(match.group())
        except ValueError:
            continue
        if not isinstance(data, dict) or not 0 < len(data) <= _MAX_PAIRS:
            continue
        if any(str(key).casefold() in ANSWER_KEYS and not isinstance(value, bool)
               for key, value in data.items()) and not any(
                   isinstance(value, bool) for value in data.values()):
            continue  # read by its answer key alone (solvers/reply_excerpt.py)
        if not all(isinstance(value, str | int | float | bool) for value in data.values()):
            continue
        spans.append("; ".join(_said(str(key), value) for key, value in data.items()))
    return spans
