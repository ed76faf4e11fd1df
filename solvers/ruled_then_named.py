"""Options ruled out, then one named (docs/reading.md, round 26): "Not major, not diminished —
it's the sad-sounding one: minor." is minor.

A reply that opens by ruling options out, one plain clause each ("not X", "and not Y either"),
and then says what it is, is the option it names after them, as a grader reads it: the
exclusions are no second answer. Only when every ruled-out clause names one option by its text
and nothing else (a bare letter ruled out, "Not A, it is B", stays no answer, round 3), what
follows reads one option on its own (by the choice reader, so a doubt, an offer or two options
there stay no answer), and that option is none of those ruled out. Pure; no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .choices import ChoiceReader
from .reply_spans import Reading

MAX_CHARS = 300  # one short statement, not a reasoning
# One clause ruling an option out, up to its break: "Not major, ", "and not diminished either: "
_RULED = re.compile(r"\W*(?:and\s+|but\s+)?(?:(?:it|this|that)\s*(?:['\u2019]s|\s+is)\s+)?"
                    r"(?:(?:definitely|clearly|certainly|surely)\s+)?not\s+(?P<what>[^,;:.!?"
                    r"\u2014\u2013\n]+?)(?:\s+either)?\s*(?:[,;:\u2014\u2013]|\s-\s)\s*",
                    re.IGNORECASE)


def named_after_ruled_out(reply: str, reader: ChoiceReader,
                          read: Callable[[str], Reading]) -> Reading | None:
    """The option ``reply`` names after ruling others out (see module doc), or None."""
    text = reply.strip()
    if len(text) > MAX_CHARS or "\n" in text:
        return None
    ruled: set[str] = set()
    while (found := _RULED.match(text)) is not None:
        named, via, pure = reader.named(found.group("what"))
        if len(named) != 1 or not pure or via != "option_text":
            return None  # "Not A, it is B": a bare letter ruled out is no answer (round 3)
        ruled |= named
        text = text[found.end():]
    if not ruled or not text.strip():
        return None
    said = read(text)
    if said.answer is None or said.answer in ruled:
        return None
    return Reading(said.answer, said.source, None, "ruled_then_named", said.span)
