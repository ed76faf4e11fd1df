"""Where a reply commits to its answer: spans, tiers and the agreement rule."""

from __future__ import annotations

from solvers.reply_spans import HEDGE, answer_tiers, read_reply


def _first_tier(reply: str) -> list[tuple[str, str]]:
    return [(span.text, span.source) for span in answer_tiers(reply)[0]]


def test_a_block_under_an_empty_header_is_read_whole_without_list_markers() -> None:
    reply = "Thinking...\n\n**Final Answer:**\n1. C4\n2. D4\n3. E4\n\nExplanation: rising."
    assert _first_tier(reply) == [("C4\nD4\nE4", "final_block")]


def test_keyed_rows_continue_a_header_line() -> None:
    reply = "Final Answer: Onset: 00:01.50\nOffset: 00:02.75"
    assert _first_tier(reply) == [("Onset: 00:01.50\nOffset: 00:02.75", "final_block")]


def test_a_numbered_first_word_is_not_stripped_from_a_single_line() -> None:
    assert _first_tier("Final Answer: 5. and 7") == [("5. and 7", "final_line")]


def test_boxed_latex_and_json_are_explicit_answers() -> None:
    assert _first_tier("The third is flat.\n\n$\\boxed{\\text{B}}$") == [("B", "boxed")]
    assert _first_tier('```json\n{"answer": "B"}\n```') == [("B", "json")]


def test_the_first_and_last_sentences_of_a_long_last_line_are_a_fallback() -> None:
    reply = ("I compared the two clips note by note and checked every interval twice. "
             "They sound different to me. No, these are not the same melody.")
    assert _first_tier(reply) == [
        ("I compared the two clips note by note and checked every interval twice.",
         "last_sentence"),
        ("No, these are not the same melody.", "last_sentence"),
    ]


def test_cue_sentences_are_read_when_no_answer_line_exists() -> None:
    assert _first_tier("The root is A. I'd go with B.") == [("B.", "answer_sentence")]


def _letter(text: str, source: str) -> tuple[str | None, str | None]:
    letters = {word for word in text.replace(".", " ").split() if word in ("A", "B", "C")}
    if len(letters) > 1:
        return None, HEDGE
    return (letters.pop(), None) if letters else (None, "no letter")


def test_different_answers_in_the_deciding_tier_are_a_hedge() -> None:
    reading = read_reply("Final Answer: B\n\nHmm.\n\nFinal Answer: C", _letter)
    assert reading.answer is None and reading.error == HEDGE
    # issue 30: a correction marker between them commits to the one answer after it
    assert read_reply("Final Answer: B\n\nHmm, wait.\n\nFinal Answer: C", _letter).answer == "C"


def test_unreadable_spans_are_skipped_beside_readable_ones() -> None:
    reading = read_reply("Answer: let me think step by step.\nFinal Answer: B", _letter)
    assert (reading.answer, reading.source) == ("B", "final_line")


def test_a_committed_but_unreadable_answer_line_stops_the_search() -> None:
    reading = read_reply("The answer is B.\nFinal Answer: I cannot tell", _letter)
    assert reading.answer is None and reading.error == "no letter"


def test_numbered_note_rows_are_answer_rows_not_explanations() -> None:
    reply = "Final Answer:\nNote 1: 00:14.25 - 00:15.25\nNote 2: 00:29.50 - 00:30.50"
    assert _first_tier(reply) == [
        ("Note 1: 00:14.25 - 00:15.25\nNote 2: 00:29.50 - 00:30.50", "final_block")]


def test_an_answer_of_symbols_is_not_an_empty_answer() -> None:
    assert _first_tier("Final Answer: \u2191 \u2193") == [("\u2191 \u2193", "final_line")]
    assert _first_tier("$\\boxed{\u2191}$") == [("\u2191", "boxed")]


def test_an_empty_answer_line_is_no_answer_not_a_cue_to_read_the_reasoning() -> None:
    reading = read_reply("The answer is B, I think.\n\nFinal Answer:", _letter)
    assert reading.answer is None and reading.source == "final_line"


def test_a_short_last_line_that_names_nothing_as_a_whole_is_read_by_its_sentences() -> None:
    """Held-out reply: "The rhythm is straight, with every kick on the beat. No syncopation."
    (14 words, one line) named no option as a whole and was left unread."""
    from solvers.choices import ChoiceReader

    reader = ChoiceReader({"A": "No syncopation", "B": "Low syncopation"})
    reply = "The rhythm is straight, with every kick on the beat. No syncopation."
    assert read_reply(reply, reader).answer == "A"
    assert read_reply("Kicks land on the beat. No syncopation, maybe low.", reader).error == HEDGE
    assert read_reply("Low syncopation? No syncopation.", reader).answer is None
    mcq = ChoiceReader({"A": "Calm", "B": "Tense and suspenseful", "C": "Trumpet"})
    assert read_reply("It feels tense and suspenseful, like a film score.", mcq).answer == "B"
    assert read_reply("The lead instrument is the trumpet.", mcq).answer == "C"
