"""Output-based MCQ matching (solvers.mcq): the option named, exactly one, never out of a word."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solvers.mcq import NO_OPTION, SEVERAL_OPTIONS, match_option

OPTIONS = {"A": "Four on the floor", "B": "Off-beat syncopation", "C": "Scat singing",
           "D": "A minor"}
# Prose words: none is an option text or a pitch word; several contain the option letters
# (upper or lower case) inside them; "a" and "I" are the article and the pronoun. (A reply that
# is nothing but "a" does name option A, so the never-match property uses two words or more.)
PROSE = ("the", "recording", "has", "a", "steady", "pulse", "and", "Answer", "Bach", "Cadence",
         "DA", "drums", "I", "think", "about", "this", "question", "because", "tempo", "bright",
         "ABBA", "Dance", "clearly", "maybe", "listening", "there", "BC", "AD", "Dub", "CD")
# (no correction marker such as "listening again": the settled retraction rule, issue 30, lets
# one withdraw an answer line, so it is not noise)
prose = st.lists(st.sampled_from(PROSE), max_size=12).map(" ".join)
letters = st.sampled_from(sorted(OPTIONS))
LETTER_FORMS = ("({})", "{}.", "option {}", "[{}]", "Option {}:")
HEADER_FORMS = ("{}", "({})", "**{}**", "{}.", "{})", "option {}")


@given(st.lists(st.sampled_from(PROSE), min_size=2, max_size=12).map(" ".join), letters,
       st.sampled_from(LETTER_FORMS))
def test_a_letter_after_prose_is_read_back(before, letter, form):
    # The answer is the reply's last line (issue 12: read where a grader reads, not anywhere).
    # Prose of one word could be the line "a" alone, which is option a: a hedge with it.
    reply = f"{before}\n{form.format(letter)}"
    assert match_option(reply, OPTIONS).letter == letter


@given(prose, letters, st.sampled_from(HEADER_FORMS), prose, st.booleans())
def test_a_final_answer_line_is_read_back_whatever_the_prose(before, letter, form, after, text):
    value = form.format(letter) + (f" {OPTIONS[letter]}" if text else "")
    reply = f"{before}\nFinal Answer: {value}\n{after}"
    assert match_option(reply, OPTIONS).letter == letter


@given(st.lists(st.sampled_from(PROSE), min_size=2, max_size=12).map(" ".join), letters,
       st.sampled_from((str, str.lower, str.upper)))
def test_the_full_option_text_after_prose_is_read_back(before, letter, case):
    reply = f"{before}\nIt is {case(OPTIONS[letter])}."
    assert match_option(reply, OPTIONS).letter == letter


@given(prose, st.lists(letters, min_size=2, max_size=2, unique=True), prose,
       st.sampled_from(LETTER_FORMS), st.booleans())
def test_two_options_named_is_no_answer(before, pair, after, form, by_text):
    second = OPTIONS[pair[1]] if by_text else form.format(pair[1])
    reply = f"{before}\nFinal Answer: {form.format(pair[0])} or {second}\n{after}"
    match = match_option(reply, OPTIONS)
    assert match.letter is None
    assert match.error_class == SEVERAL_OPTIONS == "hedged_answer"


@given(st.lists(st.sampled_from(PROSE), min_size=2, max_size=12).map(" ".join))
def test_words_containing_option_letters_never_match(reply):
    match = match_option(reply, OPTIONS)
    # no answer either way; "maybe because a" may count its lone "a" as an uncertain option
    assert match.letter is None and match.error_class in (NO_OPTION, SEVERAL_OPTIONS)


@pytest.mark.parametrize(("reply", "expected"), [
    ("Answer: C", "C"),
    ("The answer is B.", "B"),
    ("b", "B"),
    ("(b)", "B"),
    ("I think C fits best", "C"),
    ("I choose A because the kick is on every beat", "A"),
    ("A, since the kick lands on every beat", "A"),
    ("It sounds like A minor to me", "D"),  # the whole text of D, not the letter A
    ("B. Off-beat syncopation", "B"),
    ("**Final Answer:**\n**B**", "B"),
    ("Options A and C are wrong.\nFinal Answer: (B)", "B"),  # only the header is read
    ("The main feel is A minor, not a major key.", "D"),  # ruling others out confirms D
    ("B rather than C.", "B"),
])
def test_readings(reply, expected):
    assert match_option(reply, OPTIONS).letter == expected


@pytest.mark.parametrize("reply", [
    "Answer",  # the A of a word
    "A good guess",  # the article
    "I am not sure",  # the pronoun
    "B minor is the key here",  # a note name, not option B
    "C# is the note",
    "A-flat major",
    "Final Answer: I cannot tell",  # a header naming nothing decides: no answer
    "Final Answer: A or B",
    "Not A, it is B",
    "B. Scat singing",  # letter and text of different options
    "off-beat",  # a partial option text
    "",
])
def test_non_answers(reply):
    assert match_option(reply, OPTIONS).letter is None


def test_the_longest_option_text_wins_where_texts_overlap():
    options = {"A": "Rock", "B": "Latin rock", "C": "Jazz", "D": "Pop"}
    assert match_option("It is latin rock.", options).letter == "B"
    assert match_option("It is rock.", options).letter == "A"


def test_non_text_replies_name_nothing():
    assert match_option(None, OPTIONS).error_class == NO_OPTION  # type: ignore[arg-type]
    assert match_option("B", {}).letter is None
