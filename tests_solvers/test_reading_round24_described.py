"""Round 24 (docs/reading.md): choice replies that describe their answer instead of naming it
(an instrument's family, a meter's grouping, a chord's notes, a melody's shape), that reach it by
elimination, or that mark it in another language. Each rule with phrasings of its own and the
near misses that must keep no answer: a description that fits two options, one negated or
hedged, one beside another option, an elimination that leaves two.
"""

from __future__ import annotations

import pytest

from solvers.chord_notes import spelled_qualities
from solvers.mcq import match_option
from solvers.reading import INSTRUMENT_FAMILIES, choice_reader

INSTRUMENTS = {"A": "Piano", "B": "Violin", "C": "Trumpet", "D": "Flute"}
LEADS = {"A": "Electric guitar", "B": "Saxophone", "C": "Violin", "D": "Synthesizer"}
BAND = {"A": "Piano", "B": "Guitar", "C": "Bass", "D": "Drums"}
SHAPES = {"A": "Ascending", "B": "Descending", "C": "Arch", "D": "Inverted arch"}
METERS = {"A": "Duple (2/4)", "B": "Triple (3/4)", "C": "Compound duple (6/8)"}
GROUPS = {"A": "Groups of 3", "B": "Groups of 4", "C": "Groups of 5"}
QUALITIES = {"A": "Major", "B": "Minor", "C": "Dominant", "D": "Diminished"}
EXCERPTS = {"A": "The rhythm in Excerpt 1 is more syncopated.",
            "B": "The rhythm in Excerpt 2 is more syncopated."}


def read(options: dict[str, str], reply: str) -> str | None:
    """The reading by the public choice reader, checked against the MCQ matcher's."""
    answer = choice_reader(options)(reply).answer
    assert match_option(reply, options).letter == answer
    return answer


# --- Instrument families ---------------------------------------------------------------------

@pytest.mark.parametrize(("options", "reply", "expected"), [
    (LEADS, "A bowed string instrument carries the melody.", "C"),
    (INSTRUMENTS, "You can hear the rosin on the bow; the instrument is a bowed string.", "B"),
    (INSTRUMENTS, "This is a brass instrument with a bright, buzzy tone.", "C"),
    (INSTRUMENTS, "A woodwind carries the tune.", "D"),
    (LEADS, "Based on the audio, the melody is played by a reed instrument with a breathy, "
            "jazzy tone.", "B"),
    (LEADS, "The main melody is carried by a distorted electric guitar playing a lead line.", "A"),
    (LEADS, "A heavily overdriven guitar riff carries the piece.", "A"),
    (LEADS, "The lead is a synth with a sawtooth timbre.", "D"),
    (BAND, "A keyboard instrument plays the chords and the tune.", "A"),
])
def test_an_instrument_said_by_its_family_is_its_one_offered_member(options, reply, expected):
    assert read(options, reply) == expected


@pytest.mark.parametrize(("options", "reply"), [
    (INSTRUMENTS, "Not a bowed string instrument: the tone is breathy and airy."),
    (INSTRUMENTS, "There's no bow noise at all."),
    (INSTRUMENTS, "Unlike a brass instrument, it has a soft attack."),
    (INSTRUMENTS, "A brass instrument or a bowed string, hard to say."),
    (INSTRUMENTS, "A brass melody over bowed strings."),  # two families, two options
    (INSTRUMENTS, "A plucked string instrument carries the melody."),  # no member offered
    (BAND, "A plucked string instrument carries it."),  # guitar and bass: two members
    ({"A": "Saxophone", "B": "Clarinet", "C": "Violin"}, "A reed instrument plays the melody."),
    (LEADS, "A brassy, bright lead line."),  # a timbre, no family: no brass offered anyway
    (INSTRUMENTS, "It might be a brass instrument."),
    (INSTRUMENTS, "It starts with a bowed string instrument, but then a flute takes over."),
    (INSTRUMENTS, "A bowed string instrument, a cello."),  # an instrument not offered
    (INSTRUMENTS, "The bowing is smooth, like a cello."),
    (BAND, "Hammered strings, like a dulcimer."),
    (BAND, "The attack sounds hammered."),
])
def test_a_family_negated_hedged_or_fitting_two_options_reads_nothing(options, reply):
    assert read(options, reply) is None


def test_an_option_that_only_mentions_an_instrument_is_no_member():
    genres = {"A": "A jazz piece with a trumpet solo", "B": "A folk song with a fiddle",
              "C": "Solo piano"}
    assert read(genres, "A brass instrument plays the tune.") is None
    assert read(genres, "A keyboard instrument plays the tune.") == "C"
    assert read({"A": "Piano", "B": "Electric guitar"}, "Lots of hammer-ons in the lead.") is None


def test_a_family_beside_another_option_named_is_no_answer():
    assert read(INSTRUMENTS, "A bowed string instrument, and the piano accompanies it.") is None


def test_a_user_passes_their_own_families():
    families = {"double reeds": (r"\bdouble[- ]reed\b", r"\b(?:oboe|bassoon)s?\b")}
    options = {"A": "Oboe", "B": "Clarinet", "C": "Flute"}
    reply = "A double-reed instrument with a nasal tone."
    assert choice_reader(options)(reply).answer is None  # not in eartest's table
    assert choice_reader(options, families=families)(reply).answer == "A"
    assert match_option(reply, options, families=families).letter == "A"
    assert choice_reader(INSTRUMENTS, families={})("A brass instrument.").answer is None
    assert "brass" in INSTRUMENT_FAMILIES


# --- Melody shapes ---------------------------------------------------------------------------

@pytest.mark.parametrize(("reply", "expected"), [
    ("Starts low, peaks in the middle, and comes back down.", "C"),
    ("The notes go steadily down from start to finish.", "B"),
    ("It goes gradually up from start to finish.", "A"),
    ("The melody starts high, drops to its lowest note in the middle, and climbs back up at the "
     "end.", "D"),
])
def test_a_shape_described_is_read(reply, expected):
    assert read(SHAPES, reply) == expected


@pytest.mark.parametrize("reply", [
    "The melody peaks in the middle.",  # a peak in the middle is no rise alone
    "Starts low, then stays flat.",
    "Starts low and falls.",  # starts one way, moves the other
    "The melody rises at first and then",  # cut off
    "The melody starts high, drops in the middle, and maybe climbs back up.",
])
def test_a_shape_half_said_or_contradicted_reads_nothing(reply):
    assert read(SHAPES, reply) is None


# --- Meters ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("options", "reply", "expected"), [
    (METERS, "I hear a strong beat every three pulses, like a waltz.", "B"),
    (METERS, "The accent comes back every third beat.", "B"),
    (METERS, "It moves in twos, each beat divided into three.", "C"),
    (METERS, "Triple? No. The lilt is in twos, with each beat split into three: C.", "C"),
    (METERS, "I would say it's in 4/4.", "A"),  # quadruple time is duple beside 2/4, 3/4, 6/8
    (GROUPS, "Not fours and not fives: the accent comes back every third beat.", "A"),
    (GROUPS, "Not fours and not fives.", "A"),  # every other option ruled out
    (GROUPS, "The accent comes back every fifth beat.", "C"),
    (GROUPS, "A strong beat every three pulses.", "A"),  # no compound option: pulses are beats
])
def test_a_meter_described_is_read(options, reply, expected):
    assert read(options, reply) == expected


@pytest.mark.parametrize(("options", "reply"), [
    (METERS, "A strong beat every three pulses."),  # 3/4 or 6/8
    (METERS, "It moves in twos."),  # 2/4 or 6/8
    (METERS, "Not a waltz."),
    (METERS, "The piece has a lilting feel with a strong downbeat, typical of folk dances."),
    (METERS, "It is in 4/4, each beat split into three."),
    (GROUPS, "Not fours."),  # an elimination that leaves two
    (GROUPS, "Not fours: the accent comes back every fourth beat."),
    (GROUPS, "The beats group in fours and fives."),
    (GROUPS, "Every third beat, or maybe every fifth."),
])
def test_a_meter_that_fits_two_options_or_none_reads_nothing(options, reply):
    assert read(options, reply) is None


def test_four_four_is_duple_only_when_no_meter_of_four_is_offered():
    assert read(GROUPS, "I would say it's in 4/4.") == "B"  # four offered: four it is
    assert read({"A": "Groups of 2", "B": "Groups of 4"}, "It's in 4/4, not in twos.") == "B"
    assert read({"A": "Triple (3/4)", "B": "Compound duple (6/8)"}, "It's in 4/4.") is None


def test_an_option_asked_and_answered_no_is_ruled_out():
    assert read(METERS, "Duple? Nope. Triple? No. So 6/8.") == "C"
    assert read(METERS, "Triple? No idea.") is None
    assert read(METERS, "Triple? No, triple.") is None


# --- Chords said by their notes --------------------------------------------------------------

@pytest.mark.parametrize(("reply", "expected"), [
    ("The chord contains the notes C, E, G and B\u266d.", "C"),
    ("I hear the notes D, F and A\u266d.", "D"),
    ("The notes are A, C and E.", "B"),  # note names, no option letters
    ("The notes are E, G and C (first inversion).", "A"),
    ("It contains C4, Eb4 and G4.", "B"),
    ("The chord is built from D, F# and A.", "A"),
])
def test_a_chord_said_by_its_notes_is_its_quality(reply, expected):
    assert read(QUALITIES, reply) == expected


@pytest.mark.parametrize("reply", [
    "The chord contains the notes C, E, G and B.",  # a major seventh: no offered quality
    "The notes are C, D and E.",
    "The melody goes C, E, G.",  # not the chord's notes
    "The chord does not contain the notes C, E and G.",
    "The notes are C, E and G, or maybe C, E\u266d and G.",
    "The chord contains the notes C and E.",  # two notes spell no chord
])
def test_notes_that_spell_no_one_offered_quality_read_nothing(reply):
    assert read(QUALITIES, reply) is None


def test_the_notes_are_read_against_the_offered_qualities_only():
    assert spelled_qualities(["C", "E", "G", "Bb"]) == {"dominant"}
    assert spelled_qualities(["C", "Eb", "Gb", "A"]) == set()  # a diminished seventh
    assert read({"A": "Major", "B": "Minor"}, "The chord contains the notes C, E, G and B\u266d.") \
        is None


# --- Which excerpt: the conclusion, the other one --------------------------------------------

@pytest.mark.parametrize(("reply", "expected"), [
    ("Excerpt 2 has lots of off-beat accents and notes tied across the beat, whereas Excerpt 1 "
     "sits mostly on the beat. So Excerpt 2.", "B"),
    ("Excerpt 2 is more regular and stays on the beat, so the answer is the other one.", "A"),
    ("Excerpt 1 is square and on the grid, so I'd pick the other one.", "B"),
])
def test_an_excerpt_concluded_or_left_as_the_other_one(reply, expected):
    assert read(EXCERPTS, reply) == expected


@pytest.mark.parametrize("reply", [
    "The answer is the other one.",  # no excerpt named before it
    "Excerpt 1 and Excerpt 2 differ, so the answer is the other one.",
    "Excerpt 2 is more syncopated, so the answer is the other one.",  # contradicts itself
    "Excerpt 1 sits on the beat, but Excerpt 2 is busier. So the answer is the other one.",
])
def test_the_other_one_without_one_excerpt_to_refer_to_reads_nothing(reply):
    assert read(EXCERPTS, reply) is None


# --- Other languages -------------------------------------------------------------------------

@pytest.mark.parametrize(("options", "reply", "expected"), [
    (QUALITIES, "答案是B。这个和弦听起来是小三和弦。", "B"),
    (EXCERPTS, "第二段节奏的切分更多，所以选B。", "B"),
    (QUALITIES, "我选择选项C。", "C"),
    (QUALITIES, "答えはCです。", "C"),
    (QUALITIES, "La respuesta es D.", "D"),
    (QUALITIES, "Après écoute, la réponse est A.", "A"),
    (QUALITIES, "Die Antwort ist B.", "B"),
    (QUALITIES, "Respuesta: C", "C"),
])
def test_an_answer_marker_in_another_language_is_read(options, reply, expected):
    assert read(options, reply) == expected


@pytest.mark.parametrize("reply", [
    "答案是B小调。",  # B minor: a letter glued to words is no letter
    "答案是小三和弦。",  # a description in Chinese is not translated
    "Réponse : A ou B",
    "La respuesta es A o B.",
])
def test_another_language_gives_no_answer_the_markers_do_not_name(reply):
    assert read(QUALITIES, reply) is None


# --- Found on blind23 (the lead's development set) -------------------------------------------

@pytest.mark.parametrize(("options", "reply", "expected"), [
    (QUALITIES, "The chord is not major — it has a stacked pair of minor thirds with a flattened "
                "fifth, so it sounds tense and unstable.", "D"),
    (QUALITIES, "It has a minor seventh on top of a major third and a perfect fifth.", "C"),
    ({"A": "Major", "B": "Minor"}, "The chord sounds bright, with a major third above the root.",
     "A"),
    (QUALITIES, "I'd call it a plain major chord.", "A"),
    (BAND, "The lead part is plucked, with strummed chords and string noise.", "B"),
    (LEADS, "An electronic, synthetic timbre: a saw-wave lead with filter sweeps.", "D"),
    (LEADS, "Violin? No — saxophone. The vibrato is breath-driven, not bow-driven.", "B"),
    (GROUPS, "The beats fall into groups of five.", "C"),
    (GROUPS, "Not groups of 4. Not 3 either: one beat too many per cycle. So 5.", "C"),
    ({"A": "Arch", "B": "Inverted arch", "C": "Ascending", "D": "Descending"},
     "Eliminating options: it doesn't go up overall (not C), it doesn't peak between (not A), "
     "and it doesn't dip and come back (not B).", "D"),
    (EXCERPTS, "Excerpt 2 is not more syncopated; the first one is.", "A"),
])
def test_descriptions_and_eliminations_of_blind23(options, reply, expected):
    assert read(options, reply) == expected


@pytest.mark.parametrize(("options", "reply"), [
    (QUALITIES, "The chord is not diminished — it has a stacked pair of minor thirds with a "
                "flattened fifth."),  # the description's answer is denied in the same sentence
    (QUALITIES, "It has a minor third."),  # minor or diminished
    (METERS, "So 2."),  # a bare count concludes only where the options are counts
    (GROUPS, "So 4 or 5."),
    (QUALITIES, "No flattened fifth here."),
    (QUALITIES, "That B\u266d is a minor seventh above the root, giving a C7 sound."),  # no third
    (QUALITIES, "The melody leaps a minor third."),
    (SHAPES, "The melody starts high, dips to its lowest point in the middle, and rises back up. "
             "That is the opposite of an arch."),  # was read as the arch on main
    (SHAPES, "That is the opposite of an arch."),
    (EXCERPTS, "Excerpt 2 is not more syncopated; the second one is."),
    (EXCERPTS, "Excerpt 2 is not more syncopated."),
    ({"A": "Arch", "B": "Inverted arch", "C": "Ascending", "D": "Descending"},
     "It doesn't go up overall (not C), and it doesn't peak between (not A)."),  # leaves two
])
def test_near_misses_of_blind23_keep_no_answer(options, reply):
    assert read(options, reply) is None


def test_the_other_one_may_refer_to_a_clip_named_in_the_sentence_before():
    loops = choice_reader({"A": "The first loop", "B": "The second loop"}, more="syncopated")
    assert loops("The second loop is straight, with nothing off the beat. So the answer is the "
                 "other one.").answer == "A"
    assert loops("The second loop is less syncopated. So the answer is the other one.").answer \
        == "A"
    assert loops("The first loop and the second loop. So the answer is the other one.").answer \
        is None
    assert loops("Both loops are busy. So the answer is the other one.").answer is None


def test_a_reply_of_blank_lines_is_corrected_once():
    """The typo corrector drops a newline each time: the choice reader recursed once per line
    until Python's recursion limit (a crash on main for 2,000 blank lines)."""
    assert read(QUALITIES, "\n" * 2000) is None
