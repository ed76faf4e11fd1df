"""Issue 30, round 16: the declines of a tenth blind set (blind13). A caveat whose reason follows
a dash or a semicolon, a part hard to follow or left unclear, an opening sentence that takes its
own answer back, a speaker's own error or a corrected fact between two final answers, and a
commitment after a ranking ("I'll commit to B.", "I'm going with E") were read as no answer
where a grader reads one. Every phrasing here was written for these tests; each group has near
misses that must keep their reading (true hedges stay hedges)."""

from __future__ import annotations

import pytest

from fixtures.muse.definitions import OUT_OF_KEY
from fixtures.muse.harmony_definitions import KEY_CHANGE, SAME_PROGRESSION
from fixtures.muse.rhythm_definitions import SAME_RHYTHM
from solvers.caveats import split_caveat
from solvers.reading import choice_reader, yes_no_reader
from solvers.retractions import without_taken_back

QUALITY = choice_reader({"A": "Major", "B": "Minor", "C": "Diminished", "D": "Augmented"})
METER = choice_reader({"A": "Duple (2/4)", "B": "Triple (3/4)", "C": "Compound duple (6/8)"})
SHAPES = choice_reader({"A": "Arch (ascending and then descending)",
                        "B": "Inverted Arch (descending and then ascending)",
                        "C": "Ascending (pitch raises over time)",
                        "D": "Descending (pitch falls over time)"})
TEMPO = choice_reader({"A": "About 70 BPM", "B": "About 100 BPM", "C": "About 130 BPM",
                       "D": "About 170 BPM"})
RHYTHMS = yes_no_reader(SAME_RHYTHM)
PROGRESSIONS = yes_no_reader(SAME_PROGRESSION)


# --- 1. A caveat: its reason after a dash or semicolon, a part hard to follow or unclear ---------


@pytest.mark.parametrize(("reader", "reply", "answer"), [
    (QUALITY, "Final Answer: C (Diminished), though I'm not entirely sure — the top note "
              "smeared into the reverb tail.", "C"),  # the reason after a dash
    (METER, "Final Answer: A, but I'm not very confident; the hi-hat is busy throughout.",
     "A"),  # "not very", and the reason after a semicolon
    (RHYTHMS, "Final Answer: No, though the fill in bar 4 was hard to follow.", "no"),
    (PROGRESSIONS, "So no, they move differently, though the opening chord is a little unclear "
                   "in the first take.", "no"),  # a part left unclear, where
    (QUALITY, "Augmented, although the fifth was somewhat muddy.", "D"),
    # round 22: a doubt of any degree, or of the answer itself, is no hedge
    (QUALITY, "Minor, though I'm not sure.", "B"),
    (QUALITY, "Minor, though it is unclear.", "B"),
])
def test_an_answer_with_a_caveat_is_credited(reader, reply, answer) -> None:
    assert reader(reply).answer == answer


@pytest.mark.parametrize(("reader", "reply"), [
    (QUALITY, "Final Answer: C, though I'm not entirely sure — augmented fits as well."),
    (QUALITY, "Final Answer: C, though I'm not entirely sure — it might be augmented."),
    (METER, "Final Answer: A, but I'm not very confident; triple is possible."),
    (QUALITY, "Minor, though the major third is a bit ambiguous."),  # names another answer
])
def test_a_caveat_naming_or_offering_another_answer_stays_a_hedge(reader, reply) -> None:
    assert reader(reply).answer is None


def test_how_loud_a_recording_is_is_a_caveat_to_a_question_of_sameness() -> None:
    assert RHYTHMS("Yes, the second loop plays exactly the same hits as the first one, although "
                   "the second recording is slightly quieter.").answer == "yes"
    line, subjects = split_caveat("Yes, although the second take is a bit louder.")
    assert (line, subjects) == ("Yes.", [("the second take is a bit louder", "caveat_reason")])


@pytest.mark.parametrize("reply", [
    "Yes, the second loop plays exactly the same hits as the first one, although the second "
    "recording is louder and its last hit is different.",  # a difference after it
    "Yes, the second loop plays exactly the same hits as the first one, although the second "
    "recording is a bit louder, or maybe not the same.",
])
def test_near_misses_of_a_level_caveat_keep_their_hedge(reply) -> None:
    assert RHYTHMS(reply).answer is None


def test_what_an_unclear_part_is_about_is_kept_apart_and_may_veto() -> None:
    line, subjects = split_caveat("Minor, though the last chord was a bit muddy in the mix.")
    assert line == "Minor."
    # read word by word (round 22: the whole clause but its doubt)
    assert subjects == [("the last chord was a bit in the mix", "caveat_reason")]
    line, subjects = split_caveat("Minor, though I'm not fully sure — the fifth is faint.")
    assert (line, subjects) == ("Minor.", [("the fifth is faint", "caveat_reason")])


# --- 2. An opening sentence that takes its own answer back ---------------------------------------


@pytest.mark.parametrize(("reader", "reply", "answer"), [
    (SHAPES, "It rises — wait, no, that was the ending. From the start it falls, then climbs "
             "back up. Inverted arch.", "B"),
    (PROGRESSIONS, "Forget my first impression that they were the same; the bass moves in "
                   "the third bar. The chords differ there. No, not the same progression.",
     "no"),
])
def test_an_opening_sentence_taken_back_is_no_answer(reader, reply, answer) -> None:
    assert reader(reply).answer == answer


def test_only_a_take_back_after_an_answer_drops_its_sentence() -> None:
    sentences = ["It rises — wait, no, that was the ending.", "Inverted arch."]
    assert without_taken_back(sentences) == ["Inverted arch."]
    kept = ["No, wait — it's the arch.", "Arch."]  # opens on the take-back: its new answer
    assert without_taken_back(kept) == kept
    assert without_taken_back(["Wait, no."]) == ["Wait, no."]  # the last sentence is kept


@pytest.mark.parametrize(("reader", "reply"), [
    (SHAPES, "It rises — wait, no, that was the ending. It falls. Or it rises overall."),
    (PROGRESSIONS, "The same progression. Hmm, they differ in the last bar."),
])
def test_near_misses_of_a_take_back_keep_their_hedge(reader, reply) -> None:
    assert reader(reply).answer is None


# --- 3. A speaker's own error, or a corrected fact, between two final answers --------------------


@pytest.mark.parametrize(("reader", "reply", "answer"), [
    (TEMPO, "Final Answer: B\n\nOn reflection, I swapped the two hi-hat parts. The quarter note "
            "is slower. Final Answer: A", "A"),
    (TEMPO, "Final Answer: D\n\nOn reflection the beat I tapped was the double-time feel; the "
            "real pulse is half that. Final Answer: B", "B"),
    (QUALITY, "Final Answer: A\n\nI mixed up the two chords. Final Answer: B", "B"),
])
def test_an_error_or_a_corrected_fact_hands_over_to_the_later_final_answer(
        reader, reply, answer) -> None:
    assert reader(reply).answer == answer


@pytest.mark.parametrize(("reader", "reply"), [
    (TEMPO, "Final Answer: B\n\nOn reflection, the beat feels steady. Final Answer: A"),
    (TEMPO, "Final Answer: B\n\nOn reflection, the drums are busy. Final Answer: A"),
    (TEMPO, "Final Answer: B\n\nFinal Answer: A"),  # two answers and no correction
    (QUALITY, "Final Answer: A\n\nI reversed the clip to check. Final Answer: B\nOr A."),
])
def test_near_misses_of_a_correction_stay_a_hedge(reader, reply) -> None:
    assert reader(reply).answer is None


# --- 4. A commitment after a ranking -------------------------------------------------------------


@pytest.mark.parametrize(("reader", "reply", "answer"), [
    (TEMPO, "Ranking: C (0.6) > B (0.3) > A (0.1). I'll commit to C.", "C"),
    (QUALITY, "B > A > C in likelihood; I'm going with B — the third is low.", "B"),
    (QUALITY, "Between major and minor I'll settle on minor.", "B"),
    (METER, "I'm sticking with triple.", "B"),
])
def test_a_commitment_after_a_ranking_is_the_answer(reader, reply, answer) -> None:
    assert reader(reply).answer == answer


@pytest.mark.parametrize(("reader", "reply"), [
    (TEMPO, "Ranking: C (0.6) > B (0.3) > A (0.1). I can't commit to one."),
    (QUALITY, "B > A in likelihood; I'm going with B or A."),
    (QUALITY, "If the third is low, I'll commit to minor; otherwise major."),
])
def test_near_misses_of_a_commitment_keep_no_answer(reader, reply) -> None:
    assert reader(reply).answer is None


# --- 5. The speaker naming the answer: "I'd describe the mood as …" ------------------------------

MOODS = choice_reader({"A": "Calm and peaceful", "B": "Dark and brooding",
                       "C": "Playful and light", "D": "Fierce and driving"})


@pytest.mark.parametrize(("reply", "answer"), [
    ("Soft pads, a slow pulse and no percussion at all, so I'd describe the mood as calm and "
     "peaceful (A).", "A"),
    ("Minor-key strings and low drones. I would classify it as dark and brooding.", "B"),
])
def test_an_option_the_speaker_describes_the_music_as_is_the_answer(reply, answer) -> None:
    assert MOODS(reply).answer == answer


@pytest.mark.parametrize("reply", [
    "Soft pads and a slow pulse; I wouldn't describe the mood as calm and peaceful.",
    "I'd describe the mood as calm and peaceful (B).",  # the letter names another option
    "I'd describe the mood as calm and peaceful, or maybe playful and light.",
    "I'd describe the opening as calm and peaceful, then it turns fierce and driving.",
])
def test_near_misses_of_a_description_keep_no_answer(reply) -> None:
    assert MOODS(reply).answer is None


# --- 6. An answer line giving the closing words of one option's text -----------------------------

BASS = choice_reader({"A": "It walks in steady quarter notes", "B": "It holds one long drone",
                      "C": "It doubles the vocal line", "D": "There is no bass at all"})


@pytest.mark.parametrize(("reply", "answer"), [
    ("Final Answer: steady quarter notes", "A"),
    ("Final Answer: one long drone.", "B"),
    ("Answer: the vocal line", "C"),  # an article before the words is dropped
])
def test_an_answer_line_ending_one_options_text_is_that_option(reply, answer) -> None:
    assert BASS(reply).answer == answer


@pytest.mark.parametrize("reply", [
    "Final Answer: bass",  # in D only, but it does not end D's text
    "Final Answer: drone or vocal line",
    "Final Answer: It walks",  # the opening words, not the closing ones
    "The vocal line is doubled by a synth.",  # no answer line: a fallback span is not read so
])
def test_near_misses_of_an_option_ending_keep_no_answer(reply) -> None:
    assert BASS(reply).answer is None


def test_a_number_is_no_ending_of_an_option() -> None:
    meters = choice_reader({"A": "Duple (2/4)", "B": "Compound duple (6/8)"})
    assert meters("Final Answer: 4").answer is None  # "4" ends "2/4" alone, but names nothing
    assert meters("Final Answer: compound duple").answer == "B"


# --- 7. A long single sentence: "so yes, <clause>" closing it; a list denied as a whole ----------

ODDBALL = yes_no_reader(OUT_OF_KEY)


def test_so_yes_then_a_clause_closes_a_long_sentence() -> None:
    assert ODDBALL("One pitch near the end clashes hard with the key — a flat sixth — so yes, "
                   "there is an out-of-key note.").answer == "yes"
    assert PROGRESSIONS("The bass walks the same way and every chord returns in the same "
                        "place, so no, there is nothing different.").answer == "no"


def test_so_yes_with_another_answer_after_it_stays_a_hedge() -> None:
    assert ODDBALL("One pitch near the end clashes with the key — a flat sixth — so yes, "
                   "though no note is out of key.").answer is None


@pytest.mark.parametrize(("reply", "answer"), [
    ("The second clip plays exactly the same pattern as the first one — nothing was shifted, "
     "dropped or doubled.", "yes"),
    ("The second loop plays the very same pattern as the first, and none were added, removed "
     "or moved.", "yes"),
])
def test_a_list_denied_as_a_whole_offers_no_alternative(reply, answer) -> None:
    assert RHYTHMS(reply).answer == answer


@pytest.mark.parametrize("reply", [
    "The second clip repeats the first pattern exactly — or it shifts one hit in bar three.",
    "The second clip repeats the first pattern exactly — nothing was shifted, or maybe one hit "
    "was.",
])
def test_near_misses_of_a_denied_list_keep_their_hedge(reply) -> None:
    assert RHYTHMS(reply).answer is None


# --- 8. A name called wrong ("Incorrect to call this a modulation") -----------------------------

KEYS = yes_no_reader(KEY_CHANGE)


@pytest.mark.parametrize(("reply", "answer"), [
    ("Wrong to call this a key change — the tonic never moves from D.", "no"),
    ("It would be inaccurate to describe it as a modulation; it is one key throughout.", "no"),
    ("It is a mistake to call the bridge a modulation.", "no"),
])
def test_a_name_called_wrong_is_denied(reply, answer) -> None:
    assert KEYS(reply).answer == answer


@pytest.mark.parametrize("reply", [
    "It would be wrong to say the key stays put.",  # a clause denied: main read it as no
    "It would be wrong to say that it modulates.",  # main read it as yes
    "It is not wrong to call it a modulation.",  # a denied denial: main read it as no
    "It isn't incorrect to call this a key change.",
    "Wrong to call this a modulation; it modulates twice.",  # a denial, then the opposite
])
def test_a_denied_clause_or_a_denied_denial_is_no_answer(reply) -> None:
    assert KEYS(reply).answer is None


def test_a_name_called_wrong_is_denied_in_a_question_of_sameness_too() -> None:
    assert PROGRESSIONS("It would be wrong to call them the same progression: the third chord "
                        "differs.").answer == "no"  # main read it as yes
    assert PROGRESSIONS("It would be wrong to call them different.").answer == "yes"
