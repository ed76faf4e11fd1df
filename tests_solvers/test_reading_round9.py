"""Issue 30, round 9 (blind8's wrong readings and misses): refusals for every reader, answers
given as keys and values, one reasoning sentence contradicting its final line, asking back
anywhere, sameness of another aspect, numbers that name a recording, echoed questions, closing
clauses, forced guesses. Every phrasing here was written for these tests (none is from a
corpus); each group has near misses that must stay as they are."""

from __future__ import annotations

import pytest

from fixtures.muse.definitions import OUT_OF_KEY
from fixtures.muse.harmony_definitions import KEY_CHANGE
from fixtures.muse.rhythm_definitions import SAME_RHYTHM
from fixtures.published_muse.protocol import tasks as published_tasks
from fixtures.tasks.definitions import SYNCOPATION
from solvers.mcq import match_option
from solvers.reading import (
    HEDGE,
    SAMENESS,
    choice_reader,
    lettered_yes_no_reader,
    pitch_answer_reader,
    yes_no_reader,
)

KEY = yes_no_reader(KEY_CHANGE)
OUT = yes_no_reader(OUT_OF_KEY)
SAME = yes_no_reader(SAMENESS)
RHYTHM = yes_no_reader(SAME_RHYTHM)
LETTERED_KEY = lettered_yes_no_reader({"A": "Yes, the key changes.", "B": "No, the key holds."},
                                      KEY_CHANGE)
CHORD = choice_reader({"A": "Major", "B": "Minor", "C": "Dominant", "D": "Diminished"})
MIDI = pitch_answer_reader("pitch", "midi")
PUB = published_tasks()
PUB_KEY = lettered_yes_no_reader(dict(PUB["key_modulation"].options), PUB["key_modulation"].phrases)


def midi(reply: str) -> int | None:
    answer = MIDI(reply).answer
    return None if answer is None else answer.keys[0]


# --- 1. Refusals and declines, for every reader ------------------------------------------------


@pytest.mark.parametrize(("read", "reply"), [
    (OUT, "I cannot accurately hear any out-of-key notes in this recording."),
    (KEY, "I cannot reliably follow the modulation in this excerpt."),
    (KEY, "The modulation is impossible to tell from this clip."),
    (KEY, "There is no way for me to know if a modulation happens here."),
    (OUT, "An out-of-key note? I'm not able to confidently pick one out, so I will not guess."),
    (CHORD, "I'd rather not guess. Minor."),
])
def test_a_refusal_or_decline_answers_nothing(read, reply: str) -> None:
    assert read(reply).answer is None


def test_a_doubt_after_a_final_answer_is_no_decline() -> None:
    # round 22 (was a decline): the answer is committed; the doubt after it is of its reliability
    reading = MIDI("Final answer: 64 — though I can't reliably judge pitch in this noise.")
    assert reading.answer.keys == (64,)


@pytest.mark.parametrize(("read", "reply", "answer"), [
    (SAME, "I can't hear any difference between the two.", "yes"),  # a "can't" that answers
    (SAME, "I can't really hear any difference between them.", "yes"),
    (KEY, "I can't hear a modulation anywhere.", "no"),
    (CHORD, "I can't hear it well, but I'd guess (B).", "B"),  # a guess after it stands
    (KEY, "It modulates to the dominant in the second phrase.", "yes"),
])
def test_a_plain_cannot_is_no_refusal(read, reply: str, answer: str) -> None:
    assert read(reply).answer == answer


# --- 2. Keys and values ------------------------------------------------------------------------


@pytest.mark.parametrize(("read", "reply", "answer"), [
    (KEY, '{"modulates": false}', "no"),
    (KEY, '```json\n{\n  "modulation": false,\n  "home_key": "F major"\n}\n```', "no"),
    (KEY, "key_changes: false", "no"),
    (KEY, '{"keyChanges": true, "from": "C major", "to": "G major"}', "yes"),
    (SAME, '```yaml\nsame_melody: false\n```', "no"),
    (SAME, "is_transposition = False", "no"),
    (OUT, '{"out_of_key_note": false, "suspect_note": "none"}', "no"),
    (RHYTHM, '{"patterns_match": false}', "no"),
    (KEY, '{"answer": false, "reason": "it stays in D"}', "no"),
    # a key said to be absent: "Modulation: none" is no modulation (main read it as yes)
    (KEY, "Modulation: none.", "no"),
    (OUT, "Out-of-key notes: not detected", "no"),
    (SAME, "Differences: none", "yes"),
])
def test_a_key_is_read_by_its_meaning_for_the_question(read, reply: str, answer: str) -> None:
    assert read(reply).answer == answer


def test_keyed_pitches_and_options_read_as_before() -> None:
    assert midi('{"midi_note": 67, "note_name": "G4"}') == 67
    assert MIDI('{"midi_note": 67, "note_name": "A4"}').error == HEDGE  # two pitches
    assert midi('{"answer": 62}') == 62
    assert CHORD('{"answer": "B"}').answer == "B"
    assert KEY('{"modulates": true}').answer == "yes"


# --- 3. One reasoning sentence against its final line -----------------------------------------


@pytest.mark.parametrize(("read", "reply"), [
    (KEY, "The key never changes.\nFinal Answer: Yes"),
    (KEY, "A modulation clearly happens in bar 5.\nFinal Answer: No"),
    (SAME, "These are different melodies.\nAnswer: Yes"),
    (RHYTHM, "The two rhythms are identical.\nFinal answer: No"),
    (LETTERED_KEY, "The key never changes.\nFinal Answer: A"),
])
def test_a_final_line_against_its_only_reasoning_sentence_is_a_hedge(read, reply: str) -> None:
    reading = read(reply)
    assert reading.answer is None and reading.error == HEDGE


@pytest.mark.parametrize(("read", "reply", "answer"), [
    (KEY, "It moves to the relative minor halfway through.\nFinal Answer: Yes", "yes"),
    (KEY, "Actually, listening again, the key does change.\nFinal Answer: Yes", "yes"),
    (KEY, "The first half is in D.\nFinal Answer: Yes", "yes"),  # says nothing either way
    (KEY, "Modulation: none.\nFinal Answer: No", "no"),
    (KEY, "The key holds at first. Then it moves up a tone.\nFinal Answer: Yes", "yes"),
])
def test_agreeing_or_longer_reasoning_keeps_the_final_line(read, reply: str, answer: str) -> None:
    assert read(reply).answer == answer


# --- 4. Asking back, and sameness of another aspect --------------------------------------------


@pytest.mark.parametrize(("read", "reply"), [
    (RHYTHM, "Did you mean the groove or the tempo? The tempo is the same."),
    (RHYTHM, "Do you want me to compare the fills? The fills are identical."),
    (SAME, "Are you asking about the rhythm? The rhythm is the same."),
    (lambda reply: MIDI(reply), "Could you play the tone again? Clip 2 was silent."),
    (lambda reply: MIDI(reply), "Can you send the audio again? Step 3 failed for me."),
])
def test_a_reply_that_asks_back_commits_to_nothing(read, reply: str) -> None:
    assert read(reply).answer is None


@pytest.mark.parametrize("reply", ["The tempo is the same.", "The feel is exactly the same.",
                                   "The key is the same in both."])
def test_sameness_of_another_aspect_answers_nothing(reply: str) -> None:
    assert RHYTHM(reply).answer is None


@pytest.mark.parametrize("reply", ["The rhythm is the same.", "They are the same.",
                                   "The two loops are the same."])
def test_sameness_of_the_compared_things_still_answers(reply: str) -> None:
    assert RHYTHM(reply).answer == "yes"


# --- 5. Numbers that name a recording, clip, step or bar ---------------------------------------


@pytest.mark.parametrize("reply", ["Recording 2 was cut off.", "I only heard bar 4.",
                                   "Track 3 would not load."])
def test_a_number_naming_a_recording_is_no_pitch(reply: str) -> None:
    assert MIDI(reply).answer is None


@pytest.mark.parametrize(("reply", "note"), [("Clip 2 sounds like 64.", 64),
                                             ("MIDI note 60", 60), ("Final Answer: 61", 61)])
def test_a_pitch_beside_a_named_recording_is_read(reply: str, note: int) -> None:
    assert midi(reply) == note


# --- 6. Echoed questions, closing clauses, closing option letters ------------------------------


@pytest.mark.parametrize(("reply", "letter"), [
    ("Major or minor? Minor.", "B"),
    ("Which quality is it? Diminished.", "D"),
    ("Is it dominant or diminished? Diminished.", "D"),
])
def test_an_echoed_question_then_its_answer_reads_the_answer(reply: str, letter: str) -> None:
    assert CHORD(reply).answer == letter


@pytest.mark.parametrize("reply", ["Minor?", "Major? Minor.", "Is it minor? Or major?"])
def test_a_question_that_is_no_echo_stays_no_answer(reply: str) -> None:
    assert CHORD(reply).answer is None


@pytest.mark.parametrize(("read", "reply", "answer"), [
    (KEY, "Each half draws only on the notes of D major and comes to rest on D; the key stays "
          "put throughout.", "no"),
    (KEY, "Bass and melody keep to G major from the first bar to the last, cadencing on G; the "
          "key never changes.", "no"),
    (SAME, "The second begins on another note and follows its own contour after bar two, so "
           "it is a new melody, not a transposition.", "no"),
    (RHYTHM, "Nice pair of loops! Both share tempo and swing, but the second adds a flam before "
             "beat two. Because of those two edits, the second loop is not the same exact drum "
             "set pattern as the first.", "no"),
    (RHYTHM, "The first bar matches, then the kick moves. For these reasons, the two loops here "
             "do not play the same exact drum set pattern.", "no"),
    (PUB_KEY, "The tonic never budges from B-flat — option B.", "B"),
    (PUB_KEY, "The tonic never budges from B-flat: answer B.", "B"),
])
def test_a_closing_clause_gives_the_answer(read, reply: str, answer: str) -> None:
    assert read(reply).answer == answer


@pytest.mark.parametrize(("task", "reply", "letter"), [
    ("syncopation", "The first excerpt keeps everything squarely on the beat, while the second "
                    "shoves its snares ahead of it — the second is more syncopated.", "B"),
    ("melody_shape", "The line starts low and climbs to its highest note in the middle before "
                     "sinking again — an arch.", "A"),
])
def test_a_clause_closing_a_long_sentence_after_a_dash(task: str, reply: str, letter: str) -> None:
    assert match_option(reply, dict(PUB[task].options)).letter == letter


def test_a_closing_option_against_the_sentence_is_a_hedge() -> None:
    assert LETTERED_KEY("The key changes in bar five — option B.").answer is None
    assert PUB_KEY("It shifts to the dominant in bar six — option B.").answer is None
    assert CHORD("It is a minor chord — option A.").answer is None


@pytest.mark.parametrize(("reply", "letter"), [
    ("Each accent comes every four beats, so the answer is groups of four.", "B"),
    ("Groups of three.", "A"),
])
def test_numbers_in_words_name_numbered_options(reply: str, letter: str) -> None:
    assert match_option(reply, dict(PUB["meter"].options)).letter == letter


@pytest.mark.parametrize(("reply", "letter"), [("Loop 2", "B"), ("The second one.", "B"),
                                               ("Excerpt 1.", "A")])
def test_a_clip_named_alone_answers_which_clip(reply: str, letter: str) -> None:
    assert match_option(reply, dict(PUB["syncopation"].options)).letter == letter


def test_two_clips_named_alone_stay_no_answer() -> None:
    assert match_option("Excerpt 1 or 2", dict(PUB["syncopation"].options)).letter is None


# --- 7. Forced guesses, tolerances, explanations after a dash ----------------------------------


@pytest.mark.parametrize(("read", "reply", "answer"), [
    (SAME, "I'm not certain, but if I had to choose: no.", "no"),
    (CHORD, "Hard to say, but if I had to pick, diminished.", "D"),
])
def test_a_forced_guess_is_an_answer(read, reply: str, answer: str) -> None:
    assert read(reply).answer == answer


def test_give_or_take_is_no_alternative() -> None:
    reading = pitch_answer_reader("pitch", "spn")(
        "Ignoring the background hum, the tone sits right on A3, give or take a handful of cents.")
    assert reading.answer is not None and reading.answer.keys == (57,)


@pytest.mark.parametrize(("reply", "letter"), [
    ("E — each bar has two hits pushed onto the offbeats, eight altogether.", "E"),
    ("I'd estimate medium-high syncopation.", "D"),
])
def test_a_syncopation_level_with_its_explanation(reply: str, letter: str) -> None:
    assert SYNCOPATION.extract_answer(reply) == letter


@pytest.mark.parametrize("reply", ["E — or maybe D.", "I count 4 off-beat hits.",
                                   "B — no, E."])
def test_a_level_turned_or_only_counted_stays_no_answer(reply: str) -> None:
    assert SYNCOPATION.extract_answer(reply) is None


# --- 8. Options left by elimination, conclusions after "which", JSON against itself ------------


@pytest.mark.parametrize(("reply", "letter"), [
    ("It is not minor, and it has no seventh. What remains is the major quality.", "A"),
    ("By elimination it must be diminished.", "D"),
    ("The only option left is B.", "B"),
])
def test_the_option_left_by_elimination_is_an_answer(reply: str, letter: str) -> None:
    assert CHORD(reply).answer == letter


def test_two_options_left_stay_no_answer() -> None:
    assert CHORD("What remains is either minor or diminished.").answer is None


@pytest.mark.parametrize(("reply", "letter"), [
    ("The kick keeps anticipating the snare all the way through the groove, which puts the "
     "loop at medium-high syncopation.", "D"),
    ("Having heard the arpeggio twice, I'd call it bright and stable with a doubled root on top, "
     "in other words a major triad, which is option A.", None),
])
def test_a_conclusion_after_which_names_the_option(reply: str, letter: str | None) -> None:
    if letter is None:  # a chord question: read with the chord options
        assert CHORD(reply).answer == "A"
    else:
        assert SYNCOPATION.extract_answer(reply) == letter


def test_instead_of_is_no_afterthought() -> None:
    reading = yes_no_reader(SAME_RHYTHM)(
        "The second loop is not the same: its final kick falls on beat four instead of beat three.")
    assert reading.answer == "no"


def test_a_json_answer_against_its_own_boolean_is_a_hedge() -> None:
    assert KEY('{"modulates": false, "answer": "yes"}').error == HEDGE
    assert KEY('{"modulates": false, "answer": "no"}').answer == "no"


@pytest.mark.parametrize(("read", "reply", "answer"), [
    (OUT, "Does it contain an out-of-key note? It does not; every pitch belongs to F major.", "no"),
    (OUT, "Does the melody have a wrong note? It does: the G# near the end.", "yes"),
    (KEY, "Does the key change? It does.", "yes"),
    (KEY, "Does it stay in one key? It does.", "no"),  # the question's own words decide
    (SAME, "Are they the same melody? They are not.", "no"),
    (CHORD, "Is it a minor chord? It is.", "B"),
])
def test_an_echoed_yes_no_question_answered_by_a_pro_form(read, reply: str, answer: str) -> None:
    assert read(reply).answer == answer


@pytest.mark.parametrize(("read", "reply"), [
    (KEY, "Is it in one key? It is."),  # the question names no answer word
    (KEY, "Does it modulate? It does not seem to."),  # no bare pro-form answer
    (CHORD, "Is it a minor chord? It is not."),
])
def test_a_pro_form_answer_that_names_nothing_stays_no_answer(read, reply: str) -> None:
    assert read(reply).answer is None


def test_a_contrast_after_a_colon_explains_and_a_doubt_still_turns() -> None:
    same_progression = yes_no_reader(published_tasks()["chord_sequence"].phrases)
    assert same_progression("The progressions are different: the fourth chord is ii in the first "
                            "one but IV in the second.").answer == "no"
    assert same_progression("The progressions are the same: maybe the last chord differs, I am "
                            "not certain of it at all.").answer is None
