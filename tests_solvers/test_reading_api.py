"""The public reading API (solvers.reading): a question's options, aliases and phrases as data,
the same readers every eartest family uses."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from fixtures.muse.harmony_definitions import KEY_CHANGE, SAME_PROGRESSION
from fixtures.tasks import chord
from solvers.reading import (
    YesNoPhrases,
    choice_reader,
    letter_aliases,
    lettered_yes_no_reader,
    pitch_answer_reader,
    sameness,
    yes_no_reader,
)

ROOT = Path(__file__).resolve().parents[1]
KEY_OPTIONS = {"A": "Yes, a key modulation occurs.", "B": "No, the key stays the same."}
MUSE_CHORDS = {"A": "Major", "B": "Minor"}  # MUSE's own chord question: two options


def test_an_alias_table_keyed_by_option_text_serves_any_lettering() -> None:
    assert letter_aliases(MUSE_CHORDS, chord.ANSWER_ALIASES)["min"] == "B"
    assert "dom7" not in letter_aliases(MUSE_CHORDS, chord.ANSWER_ALIASES)  # not offered
    relettered = {"X": "Dominant", "Y": "Minor"}
    assert choice_reader(relettered, chord.ANSWER_ALIASES)("Final Answer: dom7").answer == "X"
    assert letter_aliases({"C": "Ascending (pitch raises over time)"},
                          {"Ascending": ("rising",)}) == {"rising": "C"}


@pytest.mark.parametrize(("reply", "expected"), [
    ("B", "B"), ("Final Answer: B", "B"), ("Answer: (A)", "A"), ("Option B", "B"), ("**A**", "A"),
    ("No, the key stays the same.", "B"), ("Final Answer: Yes", "A"),
    ("The key does not change. B", "B"),
    ("Step 1: Opens in C.\nStep 2: Ends in C.\nStep 3: No modulation.\nB", "B"),
    ("B. Yes, a key modulation occurs.", None),  # letter and words disagree: a hedge
    ("A or B", None), ("I cannot tell.", None), ("No. A", None),
    ("No modulation; it stays in A major.", "B"), ("It modulates to A minor.", "A"),
])
def test_lettered_yes_no_reads_the_letter_the_text_or_a_yes_no(reply: str, expected) -> None:
    assert lettered_yes_no_reader(KEY_OPTIONS, KEY_CHANGE)(reply).answer == expected


def test_lettered_yes_no_takes_which_option_is_yes_from_the_options() -> None:
    swapped = {"A": "No, these are not the same chord progression.",
               "B": "Yes, these are the same chord progression."}
    read = lettered_yes_no_reader(swapped, SAME_PROGRESSION)
    assert read("They are the same progression.").answer == "B"
    assert read("A").answer == "A"
    with pytest.raises(ValueError, match="Yes"):
        lettered_yes_no_reader({"A": "Major", "B": "Minor"})


def test_yes_no_phrases_are_data() -> None:
    loud = YesNoPhrases(yes=frozenset({"loud"}), no=frozenset({"quiet"}))
    assert yes_no_reader(loud)("It is not loud.").answer == "no"
    assert yes_no_reader(loud)("Final Answer: quiet").answer == "no"
    assert yes_no_reader(sameness("groove"))("The same groove.").answer == "yes"
    assert yes_no_reader(sameness())("The same groove.").answer is None


def test_pitch_answer_reader_checks_its_question() -> None:
    assert pitch_answer_reader("integer")("Final Answer: -3").answer == -3
    with pytest.raises(ValueError, match="notation"):
        pitch_answer_reader("pitch", "cents")
    with pytest.raises(ValueError, match="kind"):
        pitch_answer_reader("melody", "midi")


def test_readers_refuse_what_is_not_text() -> None:
    for read in (choice_reader(MUSE_CHORDS), yes_no_reader(), lettered_yes_no_reader(KEY_OPTIONS),
                 pitch_answer_reader("pitch", "midi")):
        assert read(None).answer is None  # type: ignore[arg-type]


DEFINITIONS = [ROOT / "fixtures/tasks/definitions.py", *sorted(
    (ROOT / "fixtures/muse").glob("*definitions.py"))]


@pytest.mark.parametrize("path", DEFINITIONS, ids=lambda p: p.name)
def test_every_family_reads_through_the_public_api(path: Path) -> None:
    """No inline reader lambdas (with their aliases written in them) and no private readers."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg == "read_answer":
            assert isinstance(node.value, ast.Call), f"{path.name}: read_answer is no reader call"
            assert node.value.func.id in ("choice_reader", "yes_no_reader",
                                          "lettered_yes_no_reader"), path.name
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("solvers"):
            assert node.module != "solvers.answers" or not any(
                alias.name.startswith("read_") for alias in node.names), path.name
