"""Issue 30, round 14: the declines of a ninth blind set (blind12) and of older development sets.
A caveat that goes on for a clause, a change of mind said in prose with its new answer, a typo
in a yes/no phrase or an option, a ranking, an option list quoted back and a negated option
followed by a description were read as no answer where a grader reads one. Every phrasing here
was written for these tests; each group has near misses that must keep their reading (true
hedges stay hedges)."""

from __future__ import annotations

import pytest

from fixtures.muse.harmony_definitions import KEY_CHANGE, SAME_PROGRESSION
from fixtures.muse.rhythm_definitions import SAME_RHYTHM
from solvers.caveats import split_caveat
from solvers.reading import SAMENESS, choice_reader, pitch_answer_reader, yes_no_reader
from solvers.typos import corrected

QUALITY = choice_reader({"A": "Major", "B": "Minor", "C": "Diminished", "D": "Augmented"})
WINDS = choice_reader({"A": "Oboe", "B": "Clarinet", "C": "Bassoon", "D": "Flute"})
METER = choice_reader({"A": "Duple (2/4)", "B": "Triple (3/4)", "C": "Compound duple (6/8)"})
SAME = yes_no_reader(SAMENESS)
RHYTHMS = yes_no_reader(SAME_RHYTHM)
SPN = pitch_answer_reader("pitch", "spn")


# --- 1. A caveat that goes on for a clause -------------------------------------------------------


@pytest.mark.parametrize(("reader", "reply", "answer"), [
    (QUALITY, "Minor, though I'm not fully certain about the chord right before the last "
              "cadence.", "B"),  # a long noun phrase of what it is about
    (QUALITY, "Final Answer: C — the tritone is clear, though I'm not entirely sure given how "
              "quiet the take is.", "C"),  # the reason, after "given"
    (WINDS, "The clarinet, though I am not completely confident: the reverb smears its low "
            "register.", "B"),  # the reason, after a colon
    (WINDS, "Bassoon, although I'm not fully sure since the recording is noisy.", "C"),
    (QUALITY, "Major, although the top notes of the third bar were hard to place precisely.",
     "A"),  # a longer part, and placing
    (METER, "Triple, I believe — though where the loop begins made the opening bar a bit "
            "unclear.", "B"),  # a cause blurring a part
    (QUALITY, "Minor, though it is unclear.", "B"),  # round 22: a doubt of the answer itself
])
def test_an_answer_with_a_caveat_going_on_for_a_clause_is_credited(reader, reply, answer) -> None:
    assert reader(reply).answer == answer


def test_a_yes_no_answer_with_a_long_caveat_is_credited() -> None:
    assert RHYTHMS("Yes — they line up, though I'm not fully certain about the tom fill close to "
                   "the end of bar 3.").answer == "yes"
    assert SAME("Yes, it is the same melody, though I'm not fully sure: the reverb hides the "
                "last few notes.").answer == "yes"


@pytest.mark.parametrize(("reader", "reply"), [
    (QUALITY, "Minor, though I'm not fully certain: major fits the bright third too."),
    (QUALITY, "Minor, though I'm not fully certain because diminished shares its third."),
    (QUALITY, "Minor, though I'm not fully certain given that an augmented fifth is there."),
    (QUALITY, "Minor, though I'm not fully certain: it might be diminished."),
    (QUALITY, "Minor, though the noise made a major chord a little ambiguous."),
    (QUALITY, "Minor, though I'm not fully certain it isn't diminished."),
    (WINDS, "Oboe, though I'm not fully sure: the breathy attack could be a flute's."),
    (SAME, "Yes, the same melody, though I'm not fully certain: the last note differs."),
    (SAME, "Yes, though I'm not fully sure: the second one is not the same."),
])
def test_a_long_caveat_naming_or_offering_another_answer_stays_a_hedge(reader, reply) -> None:
    assert reader(reply).answer is None


def test_a_caveat_reason_is_kept_apart_from_what_it_is_about() -> None:
    line, subjects = split_caveat("Minor, though I'm not fully certain given how short it is.")
    assert line == "Minor."
    assert subjects == [("how short it is", "caveat_reason")]
    assert split_caveat("Minor, though I'm not fully certain about the fifth.")[1] == \
        [("about the fifth", "caveat_reason")]  # round 22: every caveat is read word by word


# --- 2. A change of mind said in prose, with the new answer -------------------------------------

KEY_OPTIONS = {"A": "Yes, the key changes.", "B": "No, the key stays put."}


@pytest.mark.parametrize(("reader", "reply", "answer"), [
    (QUALITY, "B. Minor\n\nThe fifth is raised after all. Correcting my answer to D.", "D"),
    (QUALITY, "Minor.\n\nOn a second listen the fifth is flat, not perfect. Changing to C. "
              "Diminished.", "C"),
    (QUALITY, "Major.\nWell, I'm switching my answer to minor: the third is low.", "B"),
    (SAME, "They are the same melody... although the final bar bends down a tone. I'll revise: "
           "the two are different melodies.", "no"),
    (SAME, "Yes, it is the same melody.\n\nCorrection — the third note moves up a step in one "
           "and down a step in the other, so: No, these are not the same melody.", "no"),
])
def test_a_change_of_mind_in_prose_commits_to_its_new_answer(reader, reply, answer) -> None:
    assert reader(reply).answer == answer


def test_a_change_of_mind_to_a_lettered_yes_no_option_is_read() -> None:
    from solvers.reading import lettered_yes_no_reader
    keys = lettered_yes_no_reader(KEY_OPTIONS)
    assert keys("B. No, the key stays put.\n\nActually the chorus lifts by a whole tone. "
                "Correcting my answer to option A.").answer == "A"


def test_a_reconsideration_that_corrects_a_fact_hands_over_to_the_later_final_answer() -> None:
    reply = ("Both progressions go I-IV-V. Final Answer: Yes\n\nOn reflection, the second chord "
             "of the second one is ii, not IV. Final Answer: No")
    assert SAME(reply).answer == "no"


@pytest.mark.parametrize(("reader", "reply"), [
    (QUALITY, "B. Minor\n\nI'd revise to A if the third were brighter."),  # a condition
    (QUALITY, "Major.\nThe harmony ends by changing to minor."),  # describes, after "Major."
    (QUALITY, "Final Answer: A\n\nOn reflection, the third sounds darker.\nFinal Answer: B"),
    (QUALITY, "Final Answer: A\n\nFinal Answer: B"),  # two answers and no correction
    (QUALITY, "Correction: the root is C, not D.\nMajor or minor, hard to say."),
    (QUALITY, "Correcting my answer to A or B."),  # the new answer is itself a hedge
    (SAME, "Yes, these are the same melody.\nNo, these are not the same melody."),
])
def test_near_misses_of_a_change_of_mind_keep_their_reading(reader, reply) -> None:
    assert reader(reply).answer is None


def test_a_description_of_a_change_is_no_change_of_mind() -> None:
    assert QUALITY("Minor. The tune is changing to the major key later, but this chord is "
                   "minor.").answer == "B"
    # a bare "Switching to …" with more than an answer after it describes the music
    assert QUALITY("Changing to minor, in the bridge only. The last chord is bright."
                   ).answer != "B"


# --- 3. A typo in a yes/no phrase, or one that alone made a hedge --------------------------------

METER_OPTIONS = {"A": "Duple (2/4)", "B": "Triple (3/4)", "C": "Compound duple (6/8)"}
SHAPES = choice_reader({"A": "Arch (ascending and then descending)",
                        "B": "Inverted Arch (descending and then ascending)",
                        "C": "Ascending (pitch raises over time)",
                        "D": "Descending (pitch falls over time)"})


@pytest.mark.parametrize(("reader", "reply", "answer"), [
    (METER, "Compoud duple time 6/8", "C"),  # "duple" and "6/8" named two options till corrected
    (METER, "I hear compond duple", "C"),  # was read as plain duple: a wrong reading
    (SHAPES, "Inverted arch (decsending and then ascending)", "B"),
    (RHYTHMS, "they are the same drum rythm", "yes"),
    (RHYTHMS, "these are not the same rhytms", "no"),  # the negation still turns it
    (SAME, "It's the same melodey", "yes"),
])
def test_a_misspelt_answer_word_is_read_as_written_right(reader, reply, answer) -> None:
    assert reader(reply).answer == answer


@pytest.mark.parametrize(("reader", "reply"), [
    (METER, "Compoud duple or triple"),  # a hedge with the word written right too
    (METER, "Duple, maybe triple"),
    (RHYTHMS, "maybe the same rhythmn"),
    (RHYTHMS, "The same rhythmn? Not sure."),
    (SAME, "They share the same melodie, or maybe not"),
])
def test_a_misspelt_word_never_resolves_a_true_hedge(reader, reply) -> None:
    assert reader(reply).answer is None


def test_a_plural_of_an_option_word_is_no_typo() -> None:
    assert corrected("the first two seconds", ["second", "loop"]) == "the first two seconds"
    assert corrected("the first two secnd", ["second", "loop"]) == "the first two second"


def test_a_lettered_yes_no_reply_with_a_misspelt_option_word_is_read() -> None:
    from solvers.reading import lettered_yes_no_reader
    options = {"A": "Yes, these are the same chord progression.",
               "B": "No, these are not the same chord progression."}
    assert lettered_yes_no_reader(options, SAME_PROGRESSION)(
        "these are the same chord progresssion").answer == "A"


# --- 4. A capital A after an arrow or a colon is an option label, not a hanging article ----------

PROGRESSION_OPTIONS = {"A": "Yes, these are the same chord progression.",
                       "B": "No, these are not the same chord progression."}


@pytest.mark.parametrize(("reply", "letter"), [
    ("Right, the two progressions agree → A", "A"),
    ("Yes, the functions line up => A", "A"),
    ("Same functions throughout -> A", "A"),
])
def test_an_option_label_after_an_arrow_ends_the_reply(reply, letter) -> None:
    from solvers.reading import lettered_yes_no_reader
    assert lettered_yes_no_reader(PROGRESSION_OPTIONS, SAME_PROGRESSION)(reply).answer == letter


@pytest.mark.parametrize("reply", [
    "Both progressions match, I think, and the second one adds a",  # cut off on the article
    "They match in the verse but the bridge moves to a",
])
def test_a_reply_cut_off_on_an_article_still_answers_nothing(reply) -> None:
    from solvers.reading import lettered_yes_no_reader
    assert lettered_yes_no_reader(PROGRESSION_OPTIONS, SAME_PROGRESSION)(reply).answer is None


# --- 5. A strict ranking of the two clips ---------------------------------------------------------

WHICH_SYNCOPATED = choice_reader({"A": "The rhythm in Excerpt 1 is more syncopated.",
                                  "B": "The rhythm in Excerpt 2 is more syncopated."})


@pytest.mark.parametrize(("reply", "letter"), [
    ("Syncopation, highest first: Excerpt 2 > Excerpt 1. Its snares keep landing early.", "B"),
    ("Ordered by off-beat hits, excerpt 1 > excerpt 2.", "A"),
    ("Ranked by syncopation, clip 1 < clip 2.", "B"),
])
def test_a_strict_ranking_by_the_asked_property_commits_to_its_top(reply, letter) -> None:
    assert WHICH_SYNCOPATED(reply).answer == letter


@pytest.mark.parametrize("reply", [
    "By syncopation: Excerpt 1 >= Excerpt 2.",  # not strict
    "By syncopation: Excerpt 1 > Excerpt 1.",  # the same clip twice
    "By tempo: Excerpt 1 > Excerpt 2.",  # another property
    "By syncopation, Excerpt 1 > Excerpt 2? Hard to say.",
    "Syncopation: Excerpt 1 > Excerpt 2, or maybe the reverse.",
])
def test_a_ranking_that_is_not_strict_or_not_of_the_property_answers_nothing(reply) -> None:
    assert WHICH_SYNCOPATED(reply).answer is None


# --- 6. The options quoted back before the answer ----------------------------------------------

LOOPS = choice_reader({"A": "The first loop", "B": "The second loop"})


@pytest.mark.parametrize(("reply", "letter"), [
    ('The options were: "A. The first loop"; "B. The second loop". The first loop leans on the '
     "off-beats all the way through. So A.", "A"),
    ('The choices are: "(A) The first loop", "(B) The second loop". I hear more off-beat snares '
     "in the second loop. So B.", "B"),
    ('Options: "A. The first loop" or "B. The second loop". The second loop, clearly.', "B"),
])
def test_options_quoted_back_before_the_answer_are_the_question_s(reply, letter) -> None:
    assert LOOPS(reply).answer == letter


@pytest.mark.parametrize("reply", [
    'The options were: "A. The first loop"; "B. The second loop".',  # nothing after the list
    'The options were: "A. The first loop"; "B. The second loop". Could be either.',
    'Options: "A. The first loop". A or B.',  # the rest is a hedge
])
def test_a_quoted_option_list_with_no_answer_after_it_answers_nothing(reply) -> None:
    assert LOOPS(reply).answer is None


# --- 7. A belief said to have changed; a "Final:" label -------------------------------------------

MIDI = pitch_answer_reader("pitch", "midi")


def test_a_belief_said_to_have_changed_hands_over_to_the_later_final_answer() -> None:
    reply = ("Final Answer: 64\n\nListening once more, the tone sits a tone lower than I first "
             "thought. Final Answer: 62")
    assert MIDI(reply).answer.keys == (62,)
    assert QUALITY("Final Answer: A\nThe third is darker than I heard it.\nFinal Answer: B"
                   ).answer is None  # no belief said to have changed ("than I heard it")
    assert QUALITY("Final Answer: A\nIt is darker than I thought.\nFinal Answer: B\n"
                   "Final Answer: C").answer is None  # two answers after it


@pytest.mark.parametrize(("reader", "reply", "answer"), [
    (SAME, "At first they seem alike, so yes. Wait — bar 3 has a new note. Final: No, these are "
           "not the same melody.", "no"),
    (QUALITY, "The fifth is raised, so not major.\nFinal: D", "D"),
    (QUALITY, "Final: B", "B"),
])
def test_a_final_label_is_an_explicit_answer_line(reader, reply, answer) -> None:
    assert reader(reply).answer == answer


def test_two_final_labels_with_no_correction_are_a_hedge() -> None:
    assert QUALITY("Final: A\n\nFinal: B").answer is None


# --- 8. A stay in the key moved to --------------------------------------------------------------

KEYS = yes_no_reader(KEY_CHANGE)


@pytest.mark.parametrize(("reply", "answer"), [
    ("The tune climbs into the dominant and stays there.", None),  # was "no": a wrong reading
    ("It remains in the new key to the end.", None),  # was "no"
    ("It modulates up a tone and remains there.", "yes"),
    ("The song begins in E and stays there.", "no"),  # the home key: a stay
    ("The key stays put.", "no"),
    ("No, it stays in the home key.", "no"),
])
def test_a_stay_in_the_key_moved_to_is_no_stay_in_the_home_key(reply, answer) -> None:
    assert KEYS(reply).answer == answer


def test_a_lettered_answer_explained_by_a_stay_in_the_new_key_is_read() -> None:
    from solvers.reading import lettered_yes_no_reader
    keys = lettered_yes_no_reader({"A": "Yes, a key modulation occurs.",
                                   "B": "No, the key stays the same."}, KEY_CHANGE)
    assert keys("Answer: A (the chorus lifts to the relative major and stays there).").answer == "A"


# --- 9. An option named by its place in the list --------------------------------------------------


@pytest.mark.parametrize(("reply", "letter"), [
    ("No seventh, and the third is bright. That leaves one option, the first.", "A"),
    ("The fifth is flattened and the third is low. That's the last option.", "D"),
    ("So it is the second option.", "B"),
])
def test_an_option_named_by_its_place_closing_the_reply_is_read(reply, letter) -> None:
    assert QUALITY(reply).answer == letter


@pytest.mark.parametrize("reply", [
    "It's not the last option.",  # a negation
    "The first option is too bright.",  # reasoning about an option, no conclusion
    "That's the first one.",  # no option word: "one" may be anything
    "That's the sixth option.",  # there is none
    "That's the first option, or the second.",
])
def test_a_place_that_names_no_option_for_sure_answers_nothing(reply) -> None:
    assert QUALITY(reply).answer is None
