"""Round 26 (docs/reading.md, "Round 26 (other languages, labelled verdicts)"): yes/no words
and note names of other languages, an option letter closing a foreign reply, and yes/no said as
a labelled verdict or a restated question. Each rule has near misses that keep their reading.
"""

from __future__ import annotations

import pytest

from fixtures.muse.registry import TASKS
from fixtures.published_muse.protocol import tasks
from solvers.foreign_notes import in_english_notes
from solvers.mcq import match_option
from solvers.other_languages import foreign, in_english_yes_no
from solvers.reading import lettered_yes_no_reader, pitch_answer_reader, yes_no_reader

SAME_MELODY = yes_no_reader(tasks()["oddball"].phrases)  # "Are the two the same exact melody?"
SAME_RHYTHM = yes_no_reader(tasks()["rhythm_match"].phrases)
TRANSPOSED = yes_no_reader(tasks()["transposition"].phrases)
KEY = yes_no_reader(tasks()["key_modulation"].phrases)  # "Does the key change?"
KEY_OPTIONS = dict(tasks()["key_modulation"].options)
LETTERED_KEY = lettered_yes_no_reader(KEY_OPTIONS, tasks()["key_modulation"].phrases)
WRONG_NOTE = TASKS["muse_oddball"]  # "Does it contain a note out of the key?"
SHAPE = dict(tasks()["melody_shape"].options)
MELODY_INSTRUMENT = {"A": "Electric guitar", "B": "Saxophone", "C": "Violin", "D": "Synthesizer"}


@pytest.mark.parametrize(("reader", "reply", "expected"), [
    (SAME_RHYTHM, "Sí, los dos ritmos son idénticos: los golpes caen en los mismos lugares.",
     "yes"),
    (TRANSPOSED, "Oui, c'est la même mélodie, transposée une quarte plus haut.", "yes"),
    (KEY, "Oui, la tonalité change : on passe de do majeur à sol majeur.", "yes"),
    (KEY, "Ja, die Tonart wechselt.", "yes"),
    (KEY, "Nein. Die Tonart bleibt gleich.", "no"),
    (KEY, "Sì, c'è una modulazione.", "yes"),
    (KEY, "是的，有转调。", "yes"),
    (KEY, "不是，调性没有变化。", "no"),
    (KEY, "いいえ、転調しません。", "no"),
    (KEY, "La tonalité passe de do à sol.\nRéponse : Oui", "yes"),
    (TRANSPOSED, "Non, la deuxième mélodie n'est pas une transposition : l'intervalle entre la "
     "troisième et la quatrième note change.", "no"),
    (KEY, "Ja", "yes"),
])
def test_another_languages_yes_or_no_opening_the_reply_answers(reader, reply: str,
                                                                expected: str) -> None:
    assert reader(reply).answer == expected


@pytest.mark.parametrize("reply", [
    "Si, claro.",  # a bare "si" may be the note B: no answer word
    "不是很确定。",  # "not very sure": no answer
    "Japan.",
    "Jahr, ja.",
])
def test_near_misses_of_another_languages_yes_or_no_read_no_answer(reply: str) -> None:
    assert KEY(reply).answer is None


def test_another_languages_yes_and_no_are_only_read_opening_a_line() -> None:
    assert in_english_yes_no("Nonetheless, no.") == "Nonetheless, no."
    assert in_english_yes_no("Non-diatonic note: yes") == "Non-diatonic note: yes"
    assert in_english_yes_no("Es ist so. Ja, die Tonart wechselt.") == \
        "Es ist so. Ja, die Tonart wechselt."


def test_a_yes_no_word_of_another_language_is_never_read_in_a_choice_or_pitch_question() -> None:
    assert match_option("Oui. B", {"A": "Yes", "B": "No"}).letter == "B"
    assert pitch_answer_reader("pitch", "solfege")("Si.").answer.keys == (11,)


@pytest.mark.parametrize(("reply", "options", "expected"), [
    ("La melodía sube y luego baja: forma de arco (A).", SHAPE, "A"),
    ("Die Hauptmelodie spielt eine E-Gitarre (A).", MELODY_INSTRUMENT, "A"),
    ("Die Melodie spielt eine Geige (C), nicht eine E-Gitarre (A).", MELODY_INSTRUMENT, None),
    ("Die Melodie spielt eine Geige (B oder A).", MELODY_INSTRUMENT, None),
])
def test_a_foreign_reply_closing_on_its_only_letter_reads_that_option(reply: str, options,
                                                                      expected) -> None:
    assert match_option(reply, options).letter == expected


def test_a_reply_is_foreign_only_without_english_words() -> None:
    assert foreign("La melodía sube y luego baja (A).")
    assert not foreign("The melody is la la la, de facto an arch (A).")
    assert not foreign("Die melody is the arch (A).")


@pytest.mark.parametrize(("reply", "notation", "expected"), [
    ("Questo suono è un Mi4.", "spn", (64,)),
    ("La nota es si bemol.", "solfege", (10,)),  # "La" is the article
    ("The note is La (A).", "solfege", (9,)),
    ("Der Ton ist ein H3.", "spn", (59,)),  # German H is B
    ("Der Ton ist ein B3.", "spn", (58,)),  # German B is B flat
    ("The note is B3.", "spn", (59,)),  # an English reply is untouched
    ("B3", "spn", (59,)),
])
def test_note_names_of_other_notations(reply: str, notation: str, expected) -> None:
    assert pitch_answer_reader("pitch", notation)(reply).answer.keys == expected


@pytest.mark.parametrize(("reply", "notation"), [
    ("H3", "spn"),  # no German reply: no German note
    ("Mi4", "spn"),  # no Romance reply: a syllable is no letter name
])
def test_note_names_of_other_notations_need_their_language(reply: str, notation: str) -> None:
    assert pitch_answer_reader("pitch", notation)(reply).answer is None


def test_german_modes_and_notes_only_in_a_german_reply() -> None:
    major_minor = {"A": "Major", "B": "Minor"}
    assert match_option("Ein Moll-Akkord.", major_minor).letter == "B"
    assert match_option("The chord is minor. Dur: 2s", major_minor).letter == "B"
    assert in_english_notes("Hold B3, then H.", "spn") == "Hold B3, then H."


def test_a_german_option_letter_of_a_pitch_choice_stays_the_letter() -> None:
    read = pitch_answer_reader("choice", "spn", ("A", "B", "C"), (57, 58, 59))
    assert read("Die Antwort ist B.").answer == "B"  # no B flat: the option's letter


@pytest.mark.parametrize(("reader", "reply", "expected"), [
    (SAME_MELODY, "**Oddball present: yes**", "no"),
    (SAME_MELODY, "Oddball present: no", "yes"),
    (SAME_MELODY, "Same melody: no.", "no"),
    (KEY, "Does the excerpt change key? Not that I can hear.", "no"),
    (KEY, "Does the key change? Not really.", "no"),
    (SAME_RHYTHM, "I wouldn't say they are different. The hits line up exactly. Yes.", "yes"),
    (SAME_RHYTHM, "I wouldn't say they are the same.", "no"),
])
def test_a_labelled_verdict_or_restated_question_answers(reader, reply: str,
                                                         expected: str) -> None:
    assert reader(reply).answer == expected


def test_a_restated_question_answers_a_lettered_question() -> None:
    assert LETTERED_KEY("Does the excerpt change key? Not that I can hear.").answer == "B"


@pytest.mark.parametrize(("reply", "expected"), [
    ("No wrong notes? Not quite: the seventh note is flattened, so there is one.", "yes"),
    ("No wrong notes? No: the seventh note is flattened, so there is one.", "yes"),  # read no
    ("No wrong notes? Yes, none at all.", "no"),
])
def test_a_restated_question_led_by_no_is_the_complement(reply: str, expected: str) -> None:
    assert WRONG_NOTE.extract_answer(reply) == expected


@pytest.mark.parametrize("reply", [
    "Same melody: no, it differs.",  # a label whose word is not alone: no verdict
    "I wouldn't say.",
    "I won't say they are the same without hearing it again.",
])
def test_near_misses_of_labelled_verdicts_read_no_answer(reply: str) -> None:
    assert SAME_MELODY(reply).answer is None
