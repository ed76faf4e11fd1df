"""Read the real replies of MUSE's published runs with eartest's public reader.

MUSE's authors published the full replies of Gemini 2.5 (Flash, Pro), Qwen2.5-Omni and Audio
Flamingo 3 to their ten tasks (plain and chain-of-thought prompting), each with the answer their
own parser took from it and the key. This script reads every reply with
:mod:`solvers.reading` for that task's options and phrases and compares the three. It prints
figures and, with ``--show``, every disagreement (to classify by hand: eartest wrong, authors
wrong, both readable differently, or eartest missed it). No reply text is stored anywhere.

    .venv/bin/python benchmarks/muse_log_reading.py [--checkout /work/muse_checkout] [--show]

Exits 0 with a note when the checkout is absent.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fixtures.muse.definitions import SHAPE_ALIASES  # noqa: E402
from fixtures.muse.harmony_definitions import KEY_CHANGE, SAME_PROGRESSION  # noqa: E402
from fixtures.muse.rhythm_definitions import SAME_RHYTHM  # noqa: E402
from fixtures.tasks import chord  # noqa: E402
from solvers.reading import (  # noqa: E402
    SAMENESS,
    choice_reader,
    lettered_yes_no_reader,
    sameness,
    yes_no_reader,
)

DEFAULT_CHECKOUT = Path("/work/muse_checkout")
LOG_GLOBS = ("Gemini/*[Ll]ogs/*.log", "Qwen2.5-Omni/*[Ll]ogs/*.log", "AF3/*[Ll]ogs/*.log")
_STAMP = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ - ", re.MULTILINE)
_OPTION = re.compile(r"^([A-E])\.\s*(.+?)\s*$")


@dataclass(frozen=True)
class MuseQuestion:
    """One MUSE task as published: how its canonical answers are written and how to read a
    reply to it (returning a letter for lettered options, "yes"/"no" otherwise)."""

    read: Callable[[str], object]
    answer_of: Callable[[str], str | None]  # a canonical answer string -> the same form


def _lettered(options: dict[str, str]) -> Callable[[str], str | None]:
    return lambda canon: next((k for k, v in options.items() if canon == f"{k}. {v}"), None)


def _yes_no(canon: str) -> str | None:
    word = canon.split(",")[0].strip().casefold()
    return word if word in ("yes", "no") else None


def _choice(options: dict[str, str], aliases=None) -> MuseQuestion:
    reader = choice_reader(options, aliases)
    return MuseQuestion(lambda reply: reader(reply).answer, _lettered(options))


def _lettered_yes_no(options: dict[str, str], phrases) -> MuseQuestion:
    reader = lettered_yes_no_reader(options, phrases)
    return MuseQuestion(lambda reply: reader(reply).answer, _lettered(options))


def _plain_yes_no(phrases) -> MuseQuestion:
    reader = yes_no_reader(phrases)
    return MuseQuestion(lambda reply: reader(reply).answer, _yes_no)


# The ten tasks as the runners ask them (options verbatim; phrases are the question's words).
SYNC = {"A": "The rhythm in Excerpt 1 is more syncopated.",
        "B": "The rhythm in Excerpt 2 is more syncopated."}
SYNC_ALIASES = {SYNC["A"]: ("excerpt 1", "the first excerpt", "rhythm 1"),
                SYNC["B"]: ("excerpt 2", "the second excerpt", "rhythm 2")}
QUESTIONS: dict[str, MuseQuestion] = {
    "chord_quality": _choice({"A": "Major", "B": "Minor"}, chord.ANSWER_ALIASES),
    "contour": _choice({"A": "Arch (ascending and then descending)",
                        "B": "Inverted Arch (descending and then ascending)",
                        "C": "Ascending (pitch raises over time)",
                        "D": "Descending (pitch falls over time)"}, SHAPE_ALIASES),
    "instrument": _choice({"A": "Piano", "B": "Guitar", "C": "Bass", "D": "Drums"}),
    "key_modulation": _lettered_yes_no({"A": "Yes, a key modulation occurs.",
                                        "B": "No, the key stays the same."}, KEY_CHANGE),
    "meter": _choice({"A": "Groups of 3", "B": "Groups of 4", "C": "Groups of 5"}),
    "oddball": _plain_yes_no(sameness(different=("oddball", "oddballs"))),
    "chord_progression_matching": _lettered_yes_no(
        {"A": "Yes, these are the same chord progression.",
         "B": "No, these are not the same chord progression."}, SAME_PROGRESSION),
    "rhythm_matching": _plain_yes_no(sameness(*SAME_RHYTHM.nouns, "drum", "set")),
    "syncopation": _choice(SYNC, SYNC_ALIASES),
    "transposition": _plain_yes_no(SAMENESS),
}
_FILE_PREFIXES = {"chord_quality": "chord_quality", "contour": "contour",
                  "instrument": "instrument", "key_modulation": "key", "meter": "meter",
                  "oddball": "oddball",
                  "chord_progression_matching": "chord_progression",
                  "rhythm_matching": "rhythm_matching", "syncopation": "syncopation",
                  "transposition": "transposition"}


@dataclass(frozen=True)
class LoggedReply:
    task: str
    log: str
    reply: str
    authors: str | None  # the authors' parsed answer, in the question's form
    key: str | None


def task_of(log_name: str) -> str | None:
    low = log_name.casefold()
    return next((t for t, prefix in _FILE_PREFIXES.items() if low.startswith(prefix)), None)


def logged_replies(checkout: Path) -> Iterator[LoggedReply]:
    """Every model reply of the published logs with the authors' parse and the key."""
    for pattern in LOG_GLOBS:
        for path in sorted(checkout.glob(pattern)):
            task = task_of(path.name)
            if task is None:
                continue
            answer_of = QUESTIONS[task].answer_of
            entries = _STAMP.split(path.read_text(encoding="utf-8", errors="replace"))
            for index, entry in enumerate(entries):
                head, _, reply = entry.partition("LLM Full Response:")
                if not _ or "Q" not in head:
                    continue
                fields = dict(_field(e) for e in entries[index + 1:index + 5])
                parsed = fields.get("Parsed Final Answer", "")
                verdict = fields.get("Evaluation", "")
                expected = re.search(r"expected=(.*)\)\s*$", verdict)
                key = expected.group(1) if expected else parsed if verdict.startswith(
                    "Correct") else None
                yield LoggedReply(task, path.name, reply.strip(), answer_of(parsed.strip()),
                                  answer_of(key.strip()) if key else None)


def _field(entry: str) -> tuple[str, str]:
    name, _, value = entry.partition(":")
    return name.strip(), value.strip()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkout", type=Path, default=DEFAULT_CHECKOUT)
    parser.add_argument("--show", action="store_true", help="print every disagreement")
    args = parser.parse_args(argv)
    if not args.checkout.is_dir():
        print(f"no MUSE checkout at {args.checkout}: nothing to read")
        return 0
    counts: Counter = Counter()
    for item in logged_replies(args.checkout):
        ours = QUESTIONS[item.task].read(item.reply)
        counts["replies"] += 1
        counts["read by eartest"] += ours is not None
        counts["read by the authors"] += item.authors is not None
        counts["eartest = key"] += ours is not None and ours == item.key
        counts["authors = key"] += item.authors is not None and item.authors == item.key
        if ours == item.authors:
            continue
        kind = ("eartest reads none" if ours is None else "authors read none"
                if item.authors is None else "different answers")
        counts[kind] += 1
        if args.show:
            print(f"--- {kind}: {item.task} {item.log}: eartest {ours!r}, authors "
                  f"{item.authors!r}, key {item.key!r}\n{item.reply[-600:]}")
    for name, count in counts.items():
        print(f"{name}: {count}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
