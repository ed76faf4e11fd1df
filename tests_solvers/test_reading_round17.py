"""Issue 30, round 17: the one wrong reading of an eleventh blind set (blind14, read before and
after round 16, whose author never saw it). A reply cut off while it wrote an approximate figure
("… somewhere around 52", for 523.25 Hz) was read as that figure. Every phrasing here was
written for these tests; the near misses must keep their reading."""

from __future__ import annotations

import pytest

from solvers.reading import pitch_answer_reader

HZ = pitch_answer_reader("pitch", "hz")
MIDI = pitch_answer_reader("pitch", "midi")


def key(reader, reply: str) -> int | None:
    answer = reader(reply).answer
    return None if answer is None else answer.keys[0]


@pytest.mark.parametrize(("reader", "reply"), [
    (HZ, "The held tone is somewhere around 26"),
    (HZ, "The fundamental is roughly 39"),
    (HZ, "The sustained note is approximately 44"),
    (MIDI, "The sung note is about 6"),
    (HZ, "The vibrato centre is around 13"),
    (MIDI, "The note lands near 7"),
    (HZ, "The centre frequency is ~26"),
])
def test_an_approximate_figure_cut_off_answers_nothing(reader, reply) -> None:
    assert reader(reply).answer is None


@pytest.mark.parametrize(("reader", "reply", "midi_note"), [
    (HZ, "Its centre lies somewhere around 440 Hz", 69),  # a unit: the figure is whole
    (HZ, "Its centre lies somewhere around 440.", 69),  # a full stop
    (HZ, "Final Answer: around 440", 69),  # an answer line, not a cut sentence
    (HZ, "Around 440", 69),  # a short closing
    (HZ, "The centre of the vibrato is 440", 69),  # no approximation word
    (MIDI, "The note is MIDI 60", 60),
])
def test_a_whole_figure_keeps_its_reading(reader, reply, midi_note) -> None:
    assert key(reader, reply) == midi_note
