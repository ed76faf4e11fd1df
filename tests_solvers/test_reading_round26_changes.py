"""Round 26 (docs/reading.md, "Round 26 (changes of mind in a line, leans with a doubt, options
ruled out)"): a change of mind inside one line hands the reply to the one answer said after its
last marker; near misses keep their reading (a doubt or an offer after the marker, no answer
after it, a marker that opens no clause).
"""

from __future__ import annotations

import pytest

from solvers.reading import choice_reader, pitch_answer_reader, sameness, yes_no_reader

INSTRUMENT = choice_reader({"A": "Piano", "B": "Violin", "C": "Trumpet", "D": "Flute"})
CHORD = choice_reader({"A": "Major", "B": "Minor", "C": "Dominant", "D": "Diminished"})
SPN = pitch_answer_reader("pitch", "spn")


@pytest.mark.parametrize(("reply", "letter"), [
    # a hedge on main: the first answer and the one after the marker were read together
    ("B — minor. Wait, the third is raised after all, so it's a major triad: A.", "A"),
    ("Minor — no wait, the seventh on top is flat and the third major: dominant.", "C"),
    ("Piano, I think. Actually, the tone swells after each attack, so it must be the flute: D.",
     "D"),
    ("Violin, no wait, flute.", None),  # after a comma: a hedge, as round 6 holds
    ("Major. Actually no, the fifth is lowered as well: diminished.", "D"),
    # near misses: what follows the marker doubts or offers, names nothing, or agrees
    ("B — minor. Wait, maybe it's major: A.", None),
    ("Minor — wait, it could be diminished: D.", None),
    ("Minor. Wait, let me think about the fifth.", None),  # an explicit take-back that
    # never concludes withdraws the answer, as after an answer line (round 25; was B)
    ("Minor — actually, yes: minor.", "B"),
    ("Minor, actually: the third is low.", "B"),  # "actually" opening no clause: as on main
])
def test_a_change_of_mind_inside_a_line_is_its_new_answer(reply: str, letter: str | None
                                                            ) -> None:
    assert CHORD(reply).answer == letter if "flute" not in reply.casefold() else \
        INSTRUMENT(reply).answer == letter


@pytest.mark.parametrize(("reply", "letter"), [
    # an answer line asking its value before more reasoning is no answer line (round 22), also
    # with a parenthesis after the letter; a hedge (or a cut-off reading) on main
    ("Answer: A (Piano)? Wait, the notes swell and sustain, which no hammer does. I'll go with "
     "the violin instead: B", "B"),
    ("Answer: A (Piano)? Hmm, the notes swell. I'll go with the violin instead: B", None),  # "Hmm"
    # alone is no marker of change (round 23)
    ("Answer: A (Piano)? Hmm, the notes swell. Maybe the violin: B", None),  # an offer
    ("Answer: A (Piano)", "A"),
])
def test_an_asked_answer_line_with_a_parenthesis_is_reasoning(reply: str, letter: str | None
                                                               ) -> None:
    assert INSTRUMENT(reply).answer == letter


@pytest.mark.parametrize(("reply", "midi"), [
    ("I'd say D4 — no wait, that's a whole tone too high: C4.", 60),  # a hedge on main
    ("E4 (330 Hz) — wait, that was the first tone. The second one is lower: D4.", 62),
    ("I'd say D4 — no wait, it might be C4.", None),  # an offer after the marker
])
def test_a_pitch_changed_inside_a_line(reply: str, midi: int | None) -> None:
    answer = SPN(reply).answer
    assert (None if answer is None else next(iter(answer.keys))) == midi


MAJOR_MINOR = choice_reader({"A": "Major", "B": "Minor"})


@pytest.mark.parametrize(("reply", "letter"), [
    # a confidence given as a share is a doubt (round 22: no hedge); no answer on main
    ("Major or minor? I'd go minor given the flattened third, but I'm only about 65% sure.", "B"),
    ("I'd lean major because the third is bright, but I'm only ~70% certain.", "A"),
    # near misses: the share of another option, or a doubt naming it, stays a hedge
    ("Minor, but I'm only 60% sure; 40% major.", None),
    ("Minor, but only 60% confident it is not major.", None),
])
def test_a_confidence_share_is_a_doubt(reply: str, letter: str | None) -> None:
    assert MAJOR_MINOR(reply).answer == letter


SAME_PROGRESSION = yes_no_reader(sameness("progression"))


@pytest.mark.parametrize(("reply", "answer"), [
    # a lean towards them "being" different is a lean towards a difference; None on main
    ("I'd lean towards them being different, though I can't be certain.", "no"),
    ("I'm leaning towards the two being the same, but I'm not sure.", "yes"),
    # near misses: a lean denied, or another answer offered, reads as on main
    ("I wouldn't lean towards them being different.", None),
    ("I'd lean towards them being different, but they might be the same.", None),
])
def test_a_lean_towards_them_being_different(reply: str, answer: str | None) -> None:
    assert SAME_PROGRESSION(reply).answer == answer


@pytest.mark.parametrize(("reply", "letter"), [
    # options ruled out one plain clause each, then one named: no answer on main
    ("Not major, not diminished — it's the sad-sounding one: minor.", "B"),
    ("Not minor, not diminished: it's the dominant.", "C"),
    ("Not piano, and not violin either - trumpet.", "C"),
    # near misses: what follows offers, names two, or names a ruled-out option; an exclusion
    # that names no option
    ("Not major, not minor: maybe diminished.", None),
    ("Not major, not diminished: minor or dominant.", None),
    ("Not major, not diminished: major.", None),
    ("Not the bright one, not diminished: minor.", None),
])
def test_options_ruled_out_then_one_named(reply: str, letter: str | None) -> None:
    reader = INSTRUMENT if "piano" in reply else CHORD
    assert reader(reply).answer == letter


SYNCOPATION = choice_reader({"A": "The rhythm in Excerpt 1 is more syncopated.",
                             "B": "The rhythm in Excerpt 2 is more syncopated."})


@pytest.mark.parametrize(("reply", "letter"), [
    # a clip named with a possessive, and a clip said to win on the property; None on main
    ("Excerpt 2's groove is less syncopated than Excerpt 1's.", "A"),
    ("Excerpt 1's rhythm is more syncopated than the other.", "A"),
    ("Excerpt 1 wins on syncopation, no contest.", "A"),
    # near misses: a win on another property, a win denied, a win doubted
    ("Excerpt 1 wins on tempo.", None),
    ("Excerpt 2 never wins on syncopation.", None),
    ("Excerpt 2 wins on syncopation, but Excerpt 1 might too.", None),
])
def test_a_clip_named_with_a_possessive_or_winning(reply: str, letter: str | None) -> None:
    assert SYNCOPATION(reply).answer == letter


def test_a_bare_letter_ruled_out_stays_no_answer() -> None:
    """Round 3's documented reading: only options ruled out by their text count."""
    assert CHORD("Not A, not D: it is B.").answer is None
    assert CHORD("Not major, not D: minor.").answer is None
