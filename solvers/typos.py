"""Option text with a small typo: "diminshed", "high syncopaton", "Final Answer: Trumpt".

A grader reads a misspelt option as that option when no other reading is possible. The rule is
conservative: only words of a short line (an answer given alone, not reasoning), only a word
that is no word of any option itself, with the same first letter as exactly one nearest option
word within a small edit distance (one edit for option words of 6 to 8 letters, two from 9
letters; a swap of neighbours counts as one). Shorter option words ("Major", "Flute") are never
targets of an edit, and no word under 5 letters is corrected: too many words lie one edit apart.
A five-letter option word is the target of a typing slip only (round 18): two neighbours
swapped ("frist") or one letter doubled ("pianno"). A choice reader also reads an option word
said in the other number ("steel drum" for "Steel drums"; a plural in -s, four letters or more).
:mod:`solvers.choice_fallbacks` reads the corrected reply only when the reply as written names
nothing and is no hedge. Pure; no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

MIN_TYPO_LETTERS = 6
TWO_EDITS_LETTERS = 9
MAX_LINE_WORDS = 8  # a longer line is reasoning, where a typo answers nothing
MIN_NUMBER_LETTERS = 4  # "drum" / "drums"; never "bas" / "bass"
_WORD = re.compile(r"[^\W\d_]+")


def edit_distance(a: str, b: str, limit: int) -> int:
    """Optimal string alignment distance of ``a`` and ``b`` (``limit + 1`` once above it)."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    before: list[int] = []
    previous = list(range(len(b) + 1))
    for i, char in enumerate(a, 1):
        current = [i]
        for j, other in enumerate(b, 1):
            cost = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (char != other))
            if i > 1 and j > 1 and char == b[j - 2] and a[i - 2] == other:
                cost = min(cost, before[j - 2] + 1)
            current.append(cost)
        before, previous = previous, current
        if min(previous) > limit:
            return limit + 1
    return previous[-1]


def _slipped(typed: str, known: str) -> bool:
    """Whether ``typed`` is ``known`` with two neighbouring letters swapped or one doubled."""
    if len(typed) == len(known) + 1:
        return any(typed[i] == typed[i + 1] == known[i] and typed[:i] + typed[i + 1:] == known
                   for i in range(len(known)))
    return len(typed) == len(known) and any(
        typed[i] == known[i + 1] and typed[i + 1] == known[i] != known[i + 1]
        and typed[:i] + typed[i + 2:] == known[:i] + known[i + 2:] for i in range(len(known) - 1))


def _allowed(word: str) -> int:
    return 2 if len(word) >= TWO_EDITS_LETTERS else 1


def _correction(word: str, vocabulary: frozenset[str]) -> str | None:
    folded = word.casefold()
    if len(folded) < MIN_TYPO_LETTERS - 1 or folded in vocabulary:  # "Violn" lost one letter
        return None
    near: dict[int, set[str]] = {}
    for known in vocabulary:
        if len(known) >= MIN_TYPO_LETTERS and known[0] == folded[0] \
                and folded not in (known + "s", known.removesuffix("s")):  # "seconds": a word
            distance = edit_distance(folded, known, _allowed(known))
            if distance <= _allowed(known):
                near.setdefault(distance, set()).add(known)
        elif len(known) == MIN_TYPO_LETTERS - 1 and known[0] == folded[0] \
                and _slipped(folded, known):  # "frist", "pianno"
            near.setdefault(1, set()).add(known)
    nearest = near[min(near)] if near else set()
    return nearest.pop() if len(nearest) == 1 else None


def _in_number(word: str, vocabulary: frozenset[str]) -> str | None:
    """The option word ``word`` is the other number of ("steel drum" for "Steel drums")."""
    folded = word.casefold()
    if len(folded) < MIN_NUMBER_LETTERS or folded in vocabulary:
        return None
    other = folded[:-1] if folded.endswith("s") else folded + "s"
    return other if other in vocabulary and len(other) >= MIN_NUMBER_LETTERS else None


def corrected(reply: str, option_words: Iterable[str], numbers: bool = False) -> str:
    """``reply`` with each misspelt option word of its short lines written as the option word;
    with ``numbers``, also each option word said in the other number (round 18)."""
    vocabulary = frozenset(word.casefold() for word in option_words)
    lines = []
    for line in reply.splitlines():
        if len(_WORD.findall(line)) <= MAX_LINE_WORDS:
            line = _WORD.sub(lambda m: _correction(m.group(), vocabulary) or (
                numbers and _in_number(m.group(), vocabulary)) or m.group(), line)
        lines.append(line)
    return "\n".join(lines)
