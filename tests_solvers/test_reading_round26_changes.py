"""Round 26 (docs/reading.md, "Round 26 (changes of mind in a line, leans with a doubt, options
ruled out)"): a change of mind inside one line hands the reply to the one answer said after its
last marker; near misses keep their reading (a doubt or an offer after the marker, no answer
after it, a marker that opens no clause).
"""

from __future__ import annotations

import pytest

from solvers.reading import choice_reader, pitch_answer_reader

INSTRUMENT = choice_reader({"A": "Piano", "B": "Violin", "C": "Trumpet", "D": "Flute"})
CHORD = choice_reader({"A": "Major", "B": "Minor", "C": "Dominant", "D": "Diminished"})
SPN = pitch_answer_reader("pitch", "spn")


@pytest.mark.parametrize(("reply", "letter"), [
    # a hedge on main: the first answer and the one after the marker were read together
    ("B — minor. Wait, the third is raised after all, so it's a major triad: A.", "A"),
    ("Minor — no wait, the seventh on top is flat and the third major: dominant.", "C"),
    ("Piano, I think. Hmm, the tone swells after each attack, so it must be the flute: D.", "D"),
    ("Major. Actually no, the fifth is lowered as well: diminished.", "D"),
    # near misses: what follows the marker doubts or offers, names nothing, or agrees
    ("B — minor. Wait, maybe it's major: A.", None),
    ("Minor — wait, it could be diminished: D.", None),
    ("Minor. Wait, let me think about the fifth.", "B"),  # no new answer: as on main
    ("Minor — actually, yes: minor.", "B"),
    ("Minor, actually: the third is low.", "B"),  # "actually" opening no clause: as on main
])
def test_a_change_of_mind_inside_a_line_is_its_new_answer(reply: str, letter: str | None
                                                            ) -> None:
    assert CHORD(reply).answer == letter if "flute" not in reply else \
        INSTRUMENT(reply).answer == letter


@pytest.mark.parametrize(("reply", "letter"), [
    # an answer line asking its value before more reasoning is no answer line (round 22), also
    # with a parenthesis after the letter; a hedge (or a cut-off reading) on main
    ("Answer: A (Piano)? Hmm, the notes swell and sustain, which no hammer does. I'll go with "
     "the violin instead: B", "B"),
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
