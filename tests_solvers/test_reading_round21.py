"""Issue 30, round 21: the declines left in every blind set. A count question's answer said as
the total of the counted thing ("… so the pattern has four off-beat hits in total."), numbers
of bars or per bar read as options, a level named by its rank ("the highest level offered"),
a caveat that states a condition of a part with no doubt word ("though it passes quickly"),
an answer inside a long closing sentence (its opening clause, a concluding bracket), and what
"rather than" sets aside.
Every phrasing here was written for these tests; each group has near misses that must keep
their reading (true hedges stay hedges)."""

from __future__ import annotations

import pytest

from fixtures.muse.registry import TASKS
from fixtures.tasks.definitions import CHORD, SYNCOPATION, TRANSPOSITION
from solvers.counted_answers import counts_of, without_part_counts
from solvers.reading import HEDGE, choice_reader
from tests_solvers.test_reading_round14 import SAME
from tests_solvers.test_reading_round16 import KEYS, ODDBALL, PROGRESSIONS, QUALITY, RHYTHMS

GROUPS = choice_reader({"A": "Groups of 3", "B": "Groups of 4", "C": "Groups of 5"})
GENRE = choice_reader({"A": "Reggae", "B": "Ska", "C": "Bossa nova", "D": "Techno"})

# --- 1. Counts: the total of the counted thing, and numbers that count parts ----------------


@pytest.mark.parametrize(("reply", "letter"), [
    ("Two kick hits and two snare hits slip onto the 'and's, so the pattern has four off-beat "
     "hits in total.", "C"),  # the total, after counts of kinds of hit
    ("Across the four bars that adds up to six off-beat hits.", "D"),
    ("Each bar carries a single snare on an 'and', so the loop contains four syncopated hits "
     "altogether.", "C"),
    ("The tally of off-beat hits comes to six.", "D"),
    ("The count of off-beat hits is zero.", "A"),
    ("Nothing is pushed: there are no off-beat kick or tom hits at all.", "A"),
    ("Across the four bars there are two off-beat hits.", "B"),
    ("I hear six off-beat kick and snare strokes in total, with the hi-hat steady on top.", "D"),
])
def test_a_total_of_the_counted_thing_is_its_count(reply: str, letter: str) -> None:
    assert SYNCOPATION.extract_answer(reply) == letter


@pytest.mark.parametrize(("reply", "letter"), [
    ("Six off-beats; each bar has two, save the second.", "D"),
    ("Eight off-beats, that is two in each bar.", "E"),  # a per-bar count is no second answer
    ("Six off-beat hits — in every bar the snare lands on the 'and' of 2 and 4.", "D"),  # beats
    ("Two off-beat hits: the kick on the and of 3 in bars 2 and 4.", "B"),
    ("Over four bars, eight off-beat hits: high syncopation.", "E"),  # a count of bars
])
def test_numbers_of_bars_or_per_bar_are_no_option(reply: str, letter: str | None) -> None:
    assert SYNCOPATION.extract_answer(reply) == letter


@pytest.mark.parametrize("reply", [
    "I count 4 off-beat hits.",  # round 6's grading: a count with no total is reasoning
    "The hi-hat plays 32 strokes in total.",  # a total of something else
    "There are four off-beat hits in bar 2 alone.",
    "Maybe six off-beat hits in total.", "About four off-beat hits in total.",
    "Four or six off-beat hits in total.",  # a range
    "The first two bars have four off-beat hits in total.",  # a part
    "Not four off-beat hits in total, but six.",
    "Every bar has two off-beat hits.",  # per bar: the total is not said (main read B)
    "Two off-beat hits in each bar.",
    "The groove is straight, so the loop holds two off-beat hits in total and",  # cut off
    "Final Answer: 4 bars",
    "Four off-beat hits in total, which puts it at medium-high syncopation.",  # main read D
    "Four off-beat hits in total, so option E.",
    "That gives six off-beat hits in total, or eight with the fill.",  # another count offered
    "The count of off-beat hits is zero in bar 1 and two in bar 3.",  # counts of bars
])
def test_a_count_that_is_no_total_or_names_another_option_is_no_answer(reply: str) -> None:
    assert SYNCOPATION.extract_answer(reply) is None


def test_what_is_counted_comes_from_the_question_s_own_aliases() -> None:
    options = {"A": "1 (one voice)", "B": "2 (two voices)", "C": "3 (three voices)"}
    aliases = {"1 (one voice)": ("1 voice", "one voice"), "2 (two voices)": ("2 voices",),
               "3 (three voices)": ("3 voices", "three voices")}
    read = choice_reader(options, aliases)
    assert read("Soprano and bass enter first, so there are three voices in total.").answer == "C"
    assert read("So there are three instruments in total.").answer is None  # not counted
    assert read("I hear three voices.").answer == "C"  # an alias, read as before


def test_count_options_and_part_counts() -> None:
    assert counts_of({"A": "0 (None)", "B": "2 (Low)", "C": "4 (High)"}) == {0: "A", 2: "B",
                                                                            4: "C"}
    assert counts_of({"A": "Major", "B": "Minor", "C": "Diminished"}) == {}
    assert counts_of({"A": "2 (Low)", "B": "4 (High)"}) == {}  # two options: no count question
    assert "four" not in without_part_counts("across the four bars")
    assert "two" not in without_part_counts("every bar has two")
    assert without_part_counts("eight off-beat hits") == "eight off-beat hits"


# --- 2. A level named by its rank ------------------------------------------------------------


@pytest.mark.parametrize(("reply", "letter"), [
    ("Almost every kick and snare is pushed off the beat. That is the highest level offered.",
     "E"),
    ("Every hit sits squarely on the beat. It's the lowest option.", "A"),
])
def test_a_level_named_by_its_rank(reply: str, letter: str) -> None:
    assert SYNCOPATION.extract_answer(reply) == letter


@pytest.mark.parametrize(("task", "reply"), [
    (SYNCOPATION, "That's not the highest level."),
    (SYNCOPATION, "It's the highest level I've heard today, so hard to pin down."),
    (CHORD, "The tension is strong. That's the highest level offered."),  # no count options
])
def test_a_rank_denied_or_of_other_options_is_no_answer(task, reply: str) -> None:
    assert task.extract_answer(reply) is None


def test_a_total_never_breaks_a_hedge() -> None:
    reading = SYNCOPATION.read_answer("Maybe four off-beat hits in total, maybe six.")
    assert reading.answer is None
    assert SYNCOPATION.read_answer("C or D.").error == HEDGE


# --- 3. A caveat that states a condition of a part, with no doubt word ---------------------


@pytest.mark.parametrize(("reader", "reply", "answer"), [
    (KEYS, "No modulation — everything stays in E major, although the bridge borrows one chord "
           "from its parallel mode.", "no"),
    (ODDBALL, "Yes — the F sharp in the second bar clashes with the key, though it passes "
              "quickly.", "yes"),
    (QUALITY, "Diminished — the tritone between the outer notes gives it away, though the "
              "strings are a little out of tune.", "C"),
])
def test_a_stated_condition_of_a_part_is_a_caveat(reader, reply: str, answer: str) -> None:
    assert reader(reply).answer == answer


@pytest.mark.parametrize(("reader", "reply"), [
    (GROUPS, "Groups of 4 (it feels like common time), though the outro could be 3."),  # offers
    (QUALITY, "Diminished — the tritone between the outer notes gives it away, though the top "
              "voice is minor."),  # names another option
    (QUALITY, "Minor, though the chord is diminished."),
    (KEYS, "No modulation — everything stays in E major, although the bridge moves to a new "
           "key."),  # a change said in the question's own matter
    (KEYS, "No modulation — it stays in E major, although the bridge modulates to B."),
    (PROGRESSIONS, "They're the same progression — I, IV, V, I — though the second ends on "
                   "vi."),  # one of the things compared
    (RHYTHMS, "Yes — both loops hit on the same slots, though the second one is a tom groove."),
    (ODDBALL, "Yes — the F sharp in the second bar clashes with the key, though it may be a "
              "passing tone."),  # a doubt
    (ODDBALL, "Yes — the F sharp in the second bar clashes, though the rest isn't in C."),
    (KEYS, "No modulation — everything stays in E major, although the bridge sits in the relative "
           "minor."),  # a key named: the other answer in other words
    (RHYTHMS, "Yes — both loops hit on the same slots, although the kick in bar 3 lands a beat "
              "later."),  # a part against the other clip
])
def test_a_stated_condition_that_offers_changes_or_negates_stays_a_hedge(reader,
                                                                         reply: str) -> None:
    assert reader(reply).answer is None


# --- 4. An answer inside the closing sentence: its opening clause or a concluding bracket ----


@pytest.mark.parametrize(("reply", "letter"), [
    ("By ear it is an augmented chord, with the top note pulling upward, which gives it an "
     "unsettled colour.", "D"),  # the opening clause of a long closing sentence
    ("The arpeggio climbs a root, a minor third and a tritone (so this is option C), and "
     "the block chord sounds tense and dark.", "C"),  # a parenthesis that concludes
    ("A dark, tense sonority (diminished), voiced low on the piano with the root doubled at the "
     "top.", "C"),  # the quality right after the thing asked about
    ("The chord is a plain minor triad with its fifth doubled.", "B"),  # a detail of a part
])
def test_an_answer_inside_the_closing_sentence(reply: str, letter: str) -> None:
    assert QUALITY(reply).answer == letter


@pytest.mark.parametrize("reply", [
    "By ear it is an augmented chord, with both thirds stacked major, and the top note pulling "
    "upward.",  # another option named in a later clause
    "It is a minor chord, with a bright major third on top, which makes it sound major.",
    "The first chord is a major triad, the second a minor one.",
    "This is a triad (minor or major), hard to say.",
    "A bright, open-sounding triad (major), though the third could be lowered.",  # a doubt
    "It starts as a major chord, with the bass moving down.",  # for a while only
    "The chord is not a major triad, with its third lowered.",
    "The arpeggio climbs four semitones (major third) and then three more, with a perfect fifth "
    "on top and a bright colour overall.",  # an interval in brackets is a part
    "The arpeggio climbs a root and a minor third (so this is option C), and the chord is major.",
    "The arpeggio rises through a bright triad, and the chord is major, with a flattened seventh "
    "on top that gives it a bluesy pull.",  # a part altered changes the option
])
def test_an_inner_answer_with_another_option_a_doubt_or_a_part_is_no_answer(reply: str) -> None:
    assert QUALITY(reply).answer is None


# --- 5. What "rather than" sets aside is denied -----------------------------------------------


@pytest.mark.parametrize(("reply", "answer"), [
    ("Nah — two intervals change, so this is a new tune rather than a transposition.", "no"),
    ("It keeps every interval, so it's a transposition as opposed to a different melody.",
     "yes"),
    ("It is transposed rather than identical.", None),  # "transposed, not identical": a hedge
    ("They are rather different.", None),  # "rather" alone turns nothing
])
def test_what_rather_than_sets_aside_is_denied(reply: str, answer: str | None) -> None:
    assert SAME(reply).answer == answer


# --- 6. The choice made at the close, after a ranking ----------------------------------------


@pytest.mark.parametrize(("reply", "letter"), [
    ("Ranking by fit: C (bossa nova) > A (reggae) > D > B. The nylon guitar and the brushed "
     "snare make bossa nova the obvious first choice.", "C"),
    ("The offbeat guitar chops and the walking bass line leave reggae as the clear pick.", "A"),
])
def test_the_choice_made_at_the_close(reply: str, letter: str) -> None:
    assert GENRE(reply).answer == letter


@pytest.mark.parametrize("reply", [
    "Ranking: D > A > C > B. The nylon guitar and the brushed snare make bossa nova the first "
    "choice.",  # the ranking's top is another option
    "The nylon guitar and the brushed snare make bossa nova the first choice, though reggae "
    "is possible.",
    "The nylon guitar and the brushed snare make bossa nova the least likely choice.",
    "Ranking by likelihood: D (techno) > A (reggae) > C > B.",  # a ranking alone, round 16
])
def test_a_choice_made_against_a_ranking_or_with_a_doubt_is_no_answer(reply: str) -> None:
    assert GENRE(reply).answer is None


# --- 7. Questions of a note out of key, and of sameness --------------------------------------


@pytest.mark.parametrize(("reply", "answer"), [
    ("Every note of the tune sits in key.", "no"),
    ("All seven notes are diatonic to E minor.", "no"),
    ("The phrase has one pitch that does not belong to its home key.", "yes"),
    ("Not all of the notes are diatonic.", None),  # not this rule's
    ("All the notes are diatonic except the fifth one.", None),  # a limit
    ("All seven notes are in the key of G.", None),  # which key is not the question's
])
def test_notes_said_all_in_key_or_not_belonging_to_it(reply: str, answer: str | None) -> None:
    assert ODDBALL(reply).answer == answer


@pytest.mark.parametrize(("reply", "answer"), [
    ("None of the kicks are displaced; both bars hit the same slots.", "yes"),
    ("None of the hits is moved.", "yes"),
    ("No hit is displaced.", None),  # round 3: a "no" before a noun not the question's own
    ("None of the hits are displaced except the last one.", None),
    ("None of the hits are displaced, but rhythm 2 adds a kick.", None),
])
def test_a_move_denied_of_every_part_in_the_present(reply: str, answer: str | None) -> None:
    assert TRANSPOSITION.extract_answer(reply) == answer


# --- 8. Two clips: the other one "too" (wrong readings found while tracing) ------------------


@pytest.mark.parametrize("reply", [
    "Loop 1 is more syncopated, and so is loop 2.",  # main read B (the closing "is loop 2")
    "Loop 1 is more syncopated, and so is the second loop.",
    "Loop 1 has more off-beat hits, but loop 2 has even more.",  # main read A
])
def test_the_other_clip_said_to_have_it_too_is_no_answer(reply: str) -> None:
    assert TASKS["muse_sync_compare"].extract_answer(reply) is None


@pytest.mark.parametrize(("reply", "letter"), [
    ("Loop 1 has even more off-beat hits than loop 2.", "A"),
    ("The off-beats pile up in the second loop, so loop 2.", "B"),
])
def test_one_clip_compared_keeps_its_reading(reply: str, letter: str) -> None:
    assert TASKS["muse_sync_compare"].extract_answer(reply) == letter


def test_numbered_options_with_nothing_counted_keep_every_number() -> None:
    meters = choice_reader({"A": "2/4", "B": "3/4", "C": "4/4"})
    assert meters("Final Answer: 3/4, three beats per bar").answer == "B"
