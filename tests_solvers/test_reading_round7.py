"""Issue 30, round 7: closing lines that are each a whole answer, answers by ruling every other
option out, contours / meters / two-clip comparisons said in words, oddball words, and replies
that ask back. The rules are general; the phrasings here were written for these tests (none is
from a corpus), with near misses that must stay no answer."""

from __future__ import annotations

import pytest

from fixtures.muse.definitions import MELODY_SHAPE, ODDBALL
from fixtures.muse.harmony_definitions import INSTRUMENT, KEY_CHANGE
from fixtures.muse.rhythm_definitions import SYNC_COMPARE
from fixtures.published_muse.protocol import tasks as published_tasks
from fixtures.tasks.definitions import CHORD, TRANSPOSITION
from solvers.mcq import match_option
from solvers.reading import (
    HEDGE,
    choice_reader,
    lettered_yes_no_reader,
    pitch_answer_reader,
    sameness,
    yes_no_reader,
)

SAME_GROOVE = yes_no_reader(sameness("groove", "grooves"))
KEY = lettered_yes_no_reader({"A": "Yes, the key changes.", "B": "No, the key holds."},
                             KEY_CHANGE)
GENRES = {"A": "Polka", "B": "Salsa", "C": "Drum and bass", "D": "Bossa nova"}
PUB_SHAPES = dict(published_tasks()["melody_shape"].options)
PUB_METER = dict(published_tasks()["meter"].options)
PUB_SYNC = dict(published_tasks()["syncopation"].options)
PUB_SAME_MELODY = yes_no_reader(published_tasks()["oddball"].phrases)

# --- 1. Closing lines that are each a whole answer ------------------------------------------


@pytest.mark.parametrize("reply", [
    "Yes, the two grooves are exactly the same all the way through.\n"
    "No, the two grooves are not exactly the same all the way through.",
    "No — the second groove drops the ghost note before beat three.\n"
    "Yes — both grooves put every hit in the very same place.",
    "Yes. The two grooves line up hit for hit in every bar.\n"
    "No. The two grooves do not line up hit for hit in every bar.\n"
    "Yes. The two grooves line up hit for hit in every bar.",
])
def test_contradictory_closing_answer_lines_are_a_hedge(reply: str) -> None:
    reading = SAME_GROOVE(reply)
    assert reading.answer is None and reading.error == HEDGE


def test_contradictory_lettered_closing_lines_are_a_hedge() -> None:
    reading = KEY("A. Yes, the key changes near the end of the second phrase.\n"
                  "No, the key holds from the first bar to the last.")
    assert reading.answer is None and reading.error == HEDGE


@pytest.mark.parametrize(("reply", "answer"), [
    # the same answer twice is one answer
    ("No, the second groove moves the snare.\nNo, the two grooves differ in bar two.", "no"),
    # a correction between them: the later line is a changed mind
    ("Yes, the grooves are the same in every bar of the loop.\n"
     "No, wait, listening again the second groove is different in bar four.", "no"),
])
def test_agreeing_or_corrected_closing_lines_keep_their_answer(reply: str, answer: str) -> None:
    assert SAME_GROOVE(reply).answer == answer


# --- 2. Ruling out every other option ---------------------------------------------------------


@pytest.mark.parametrize(("reply", "left"), [
    ("The accordion bounce is missing, so A is out. There are no clave patterns, which "
     "excludes B. The tempo is far too relaxed for drum and bass. One option remains.", "D"),
    ("It's definitely not polka or salsa; and it is not drum and bass either.", "D"),
    ("There is no bellows sound to suggest polka; it is not salsa; it isn't bossa nova.", "C"),
])
def test_ruling_out_every_other_option_reads_the_one_left(reply: str, left: str) -> None:
    assert match_option(reply, GENRES).letter == left
    assert choice_reader(GENRES)(reply).answer == left


@pytest.mark.parametrize("reply", [
    "It's not polka, and it's not salsa.",                        # two options left
    "It's not polka or salsa or drum and bass or bossa nova.",    # none left
    "Maybe it's not polka; not salsa; not drum and bass.",        # doubt
    "If it's not polka, salsa or drum and bass, what is it?",     # condition and question
    "Not polka, not salsa, not drum and bass, but none fits.",    # none fits
    "It's not polka; not salsa; the drum and bass feel is odd.",  # the third named otherwise
    "It's not only polka; not salsa; not drum and bass.",         # keeps polka
    "Not polka, not salsa, not drum and bass.\nFinal Answer: unsure",  # an answer line
])
def test_partial_or_doubtful_ruling_out_stays_no_answer(reply: str) -> None:
    assert match_option(reply, GENRES).letter is None


def test_ruling_out_three_instruments_by_their_sound_reads_the_fourth() -> None:
    reply = ("No key clicks, so it is not the piano; no rosin scrape, so it is not the violin; "
             "and the tone is much too reedy for a trumpet.")
    assert INSTRUMENT.extract_answer(reply) == "D"


# --- 3. Two-clip comparisons said in words ------------------------------------------------------


@pytest.mark.parametrize(("reply", "loop"), [
    ("Loop 2 is clearly more syncopated.", "B"),
    ("The first loop sounds more syncopated than the second.", "A"),
    ("All told, the more syncopated one is the first loop.", "A"),
    ("The second loop has more off-beat hits.", "B"),
    ("The first loop has no syncopation at all.", "B"),
    ("Loop 1 is less syncopated.", "B"),
])
def test_a_comparison_said_in_words_reads_the_loop(reply: str, loop: str) -> None:
    assert SYNC_COMPARE.extract_answer(reply) == loop


@pytest.mark.parametrize(("reply", "letter"), [
    ("Excerpt 2 carries more accents between the main beats.", "B"),
    ("The first excerpt isn't syncopated at all; its hits sit on the beats.", "B"),
])
def test_a_comparison_of_excerpts_reads_the_published_option(reply: str, letter: str) -> None:
    assert match_option(reply, PUB_SYNC).letter == letter


@pytest.mark.parametrize("reply", [
    "Loop 1 is more syncopated, and loop 2 is more syncopated too.",  # both
    "Is loop 1 more syncopated?",                                     # a question
    "If loop 1 is more syncopated, the answer is A.",                 # a condition
    "Loop 1 is not more syncopated.",                                 # negated
    "Both loops are equally syncopated.",
    "Loop 1 is probably more syncopated.",                            # doubt
])
def test_near_miss_comparisons_stay_no_answer(reply: str) -> None:
    assert SYNC_COMPARE.extract_answer(reply) is None


def test_a_comparison_needs_a_question_asking_for_more() -> None:
    loops = choice_reader({"A": "The first loop", "B": "The second loop"})
    assert loops("Loop 1 is more syncopated.").answer is None  # the question may ask "less"


# --- 4. Contours, meters and oddballs said in words ----------------------------------------------


@pytest.mark.parametrize(("reply", "shape"), [
    ("The melody keeps going up; every note is higher than the one before.", "A"),
    ("It heads up to a high point and then goes back down.", "C"),
    ("The line drops to its lowest note, then climbs back up.", "D"),
    ("The tune only falls, with no turn anywhere.", "B"),
    ("It doesn't rise at any point; it just keeps falling.", "B"),
])
def test_a_contour_said_in_words_reads_the_shape(reply: str, shape: str) -> None:
    assert MELODY_SHAPE.extract_answer(reply) == shape


def test_a_contour_reads_the_published_shape_options() -> None:
    read = choice_reader(PUB_SHAPES)
    assert PUB_SHAPES[read("The arpeggio climbs and then falls back down.").answer] \
        .startswith("Arch")
    assert PUB_SHAPES[read("The scale simply rises from start to end.").answer] \
        .startswith("Ascending")


@pytest.mark.parametrize("reply", [
    "The first four notes rise; the rest",                    # a part, cut off
    "The melody goes up and down several times.",             # none of the shapes
    "It rises and falls, so none of the options fits.",
    "The melody might rise and then fall.",                   # doubt
    "It not only rises but also falls.",
    "The melody rises, turns, and keeps rising.",             # a turn in one direction
])
def test_near_miss_contours_stay_no_answer(reply: str) -> None:
    assert MELODY_SHAPE.extract_answer(reply) is None


@pytest.mark.parametrize(("reply", "groups"), [
    ("The pulse falls into groups of threes, like a waltz.", "Groups of 3"),
    ("The accents group in fours.", "Groups of 4"),
    ("Neither in three nor in five; this is common time.", "Groups of 4"),
    ("I hear five beats to a bar.", "Groups of 5"),
])
def test_a_meter_said_in_words_reads_the_grouping(reply: str, groups: str) -> None:
    assert PUB_METER[match_option(reply, PUB_METER).letter] == groups


@pytest.mark.parametrize("reply", ["It could be in three or in five.",
                                   "It's in three, then in four.",
                                   "The phrase is not in five."])
def test_near_miss_meters_stay_no_answer(reply: str) -> None:
    assert match_option(reply, PUB_METER).letter is None


@pytest.mark.parametrize(("reply", "answer"), [
    ("Yes: a wrong note appears in the last bar.", "yes"),
    ("There is a wrong note near the cadence.", "yes"),
    ("I hear no wrong notes anywhere.", "no"),
    ("Every pitch belongs to the key; nothing sounds wrong.", "no"),
])
def test_wrong_note_words_answer_the_out_of_key_question(reply: str, answer: str) -> None:
    assert ODDBALL.extract_answer(reply) == answer


@pytest.mark.parametrize(("reply", "answer"), [
    ("The second melody has an oddball in its closing phrase.", "no"),
    ("Excerpt two contains a wrong note on the fourth beat.", "no"),
    ("There is no wrong note in the second excerpt.", "yes"),
])
def test_oddball_words_answer_the_published_sameness_question(reply: str, answer: str) -> None:
    assert PUB_SAME_MELODY(reply).answer == answer


def test_an_error_that_is_not_a_note_answers_nothing() -> None:
    assert ODDBALL.extract_answer("Something went wrong with the audio.") is None


# --- Replies that ask back ---------------------------------------------------------------------


@pytest.mark.parametrize("reply", [
    "Do you mean the bass line? Please clarify what counts as a different melody.",
    "Could you clarify which excerpt is the reference? They sound different to me.",
])
def test_a_reply_asking_for_clarification_commits_to_nothing(reply: str) -> None:
    assert TRANSPOSITION.extract_answer(reply) is None


def test_an_explicit_answer_stands_beside_a_request() -> None:
    assert CHORD.extract_answer("Final Answer: B\nPlease clarify if you need the inversion.") \
        == "B"


# --- 5. Pitch answers in prose -------------------------------------------------------------------


def _pitch(reply: str, notation: str) -> int | None:
    answer = pitch_answer_reader("pitch", notation)(reply).answer
    return None if answer is None else answer.keys[0]


@pytest.mark.parametrize(("reply", "notation", "midi"), [
    ("The note is G and the octave is 2.", "spn", 43),
    ("The octave is 5, and the note is F#.", "spn", 78),
    ("I hear the E-flat in the third octave.", "spn", 51),
    ("It is the B in octave 4.", "spn", 71),
    ("The attack is smeared by reverb, so my best estimate is 57 (±1).", "midi", 57),
    ("The vibrato is wide, but the pitch centre is D5 (587 Hz).", "spn", 74),
    ("After the fade-in the sustained tone is G3, a fifth below middle D.", "spn", 55),
])
def test_a_pitch_stated_in_prose_is_read(reply: str, notation: str, midi: int) -> None:
    assert _pitch(reply, notation) == midi


@pytest.mark.parametrize(("reply", "notation"), [
    ("The note is C and the octave is hard to tell.", "spn"),      # no octave
    ("The attack is smeared, so my estimate is 57 or 58.", "midi"),  # two answers
    ("I heard D5 first, but my estimate is C5.", "spn"),            # another pitch before
    ("The tone is long, so the note is not G3.", "spn"),           # negated
    ("The tone is long, so my estimate is maybe 60.", "midi"),     # doubt
    ("The first note is a bit sharp and the octave is 4.", "spn"),  # "a" is no note
])
def test_prose_pitch_near_misses_stay_no_answer(reply: str, notation: str) -> None:
    assert _pitch(reply, notation) is None


# --- 6. Multiple choice ------------------------------------------------------------------------

VOCALS = {"A": "A solo tenor", "B": "A gospel choir", "C": "No vocals (instrumental)",
          "D": "A rapper"}


@pytest.mark.parametrize(("reply", "letter"), [
    ("The swung brushes and the walking bass together make the answer (d).", "D"),
    ("All of that makes my answer C.", "C"),
])
def test_an_answer_made_at_the_end_of_the_reasons_is_read(reply: str, letter: str) -> None:
    assert match_option(reply, GENRES).letter == letter


@pytest.mark.parametrize("reply", ["The track is entirely instrumental.",
                                   "It is instrumental throughout; nobody sings."])
def test_an_instrumental_statement_is_the_no_vocals_option(reply: str) -> None:
    assert match_option(reply, VOCALS).letter == "C"


@pytest.mark.parametrize("reply", [
    "The intro is instrumental, but a tenor comes in later.",   # vocals later
    "It isn't instrumental.",                                   # negated
    "There are no vocals until the chorus.",
    "Maybe it is instrumental.",                                 # doubt
])
def test_near_miss_instrumental_statements_stay_no_answer(reply: str) -> None:
    assert match_option(reply, VOCALS).letter is None
