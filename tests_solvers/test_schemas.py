"""Schema parsers: tolerant of presentation, strict about content, only SchemaError escapes."""

from __future__ import annotations

import pickle
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.schemas import (
    SchemaError,
    SchemaLine,
    find_schema_lines,
    parse_chord,
    parse_melodies,
    parse_rhythm,
)

FAST = settings(max_examples=200, deadline=None)
# Round trips through noise draw many choices per example; fewer examples keep the suite fast.
NOISY = settings(max_examples=100, deadline=None)

IDENTIFIER_CHARS = "abcXYZ0189_.-"
identifiers = st.builds(
    str.__add__, st.sampled_from("aZ09_"), st.text(alphabet=IDENTIFIER_CHARS, max_size=12)
)
PROSE_WORDS = ["Here", "is", "the", "rhythm", "melody", "chord", "transcription", "I", "heard"]
PROSE_WORDS += ["kick", "snare", "on", "beat", "(roughly)", "notes:", "C4", "E4", "[see", "below]"]
PROSE_WORDS += ["done.", "OK", "rhythm(", "chord (", "melody:"]
prose_lines = st.lists(st.sampled_from(PROSE_WORDS), min_size=1, max_size=8).map(" ".join)
prose_blocks = st.lists(prose_lines, max_size=3).map("\n".join)


def cased(data: st.DataObject, word: str) -> str:
    """The word with a hypothesis-chosen upper/lower case per letter."""
    flags = data.draw(st.lists(st.booleans(), min_size=len(word), max_size=len(word)))
    return "".join(ch.upper() if up else ch.lower() for ch, up in zip(word, flags, strict=True))


def render_line(data: st.DataObject, name: str, identifier: str, values: list[int]) -> str:
    """A schema line with hypothesis-chosen harmless variations of presentation."""
    space = st.sampled_from(["", " ", "  ", "\n", " \n  "])
    quote = data.draw(st.sampled_from(["", '"', "'"]))
    before_value, after_value = data.draw(space), data.draw(space)
    body = ",".join(f"{before_value}{value}{after_value}" for value in values)
    if values and data.draw(st.booleans()):
        body += ","  # trailing comma
    ending = data.draw(st.sampled_from(["", ".", ";", " .", "  "]))
    return (
        f"{cased(data, name)}{data.draw(space)}({data.draw(space)}{quote}{identifier}{quote}"
        f"{data.draw(space)},{data.draw(space)}[{body}]{data.draw(space)}){ending}"
    )


def wrap_in_noise(data: st.DataObject, schema_text: str) -> str:
    fence = data.draw(st.sampled_from([("", ""), ("```\n", "\n```"), ("```text\n", "\n```")]))
    before = data.draw(prose_blocks)
    after = data.draw(prose_blocks)
    return f"{before}\n{fence[0]}{schema_text}{fence[1]}\n{after}"


# --- Never raise anything but SchemaError ------------------------------------------------------


@FAST
@given(st.text())
def test_arbitrary_text_only_ever_raises_schema_error(text: str) -> None:
    for parse in (parse_rhythm, parse_melodies, parse_chord):
        try:
            parse(text)
        except SchemaError as exc:
            assert exc.kind in ("parse", "structural", "domain")
            assert str(exc) == exc.message and exc.message


@FAST
@given(st.text(alphabet="rhythmMELODYchord(),[]0123456789-+ .;_'\"\n`xa"))
def test_schema_like_text_only_ever_raises_schema_error(text: str) -> None:
    for parse in (parse_rhythm, parse_melodies, parse_chord):
        try:
            parse(text)
        except SchemaError:
            pass
    try:
        find_schema_lines(text, "chord")
    except SchemaError as exc:
        assert exc.kind == "parse"


# --- Round trips through noise -----------------------------------------------------------------


@NOISY
@given(identifiers, st.lists(st.integers(1, 32), unique=True, max_size=32), st.data())
def test_rhythm_line_survives_noise(ident: str, onsets: list[int], data: st.DataObject) -> None:
    text = wrap_in_noise(data, render_line(data, "rhythm", ident, onsets))
    assert parse_rhythm(text) == tuple(onsets)
    assert parse_rhythm(text, identifier=ident) == tuple(onsets)


@NOISY
@given(
    st.tuples(identifiers, identifiers),
    st.lists(st.integers(0, 127), min_size=1, max_size=16),
    st.lists(st.integers(0, 127), min_size=1, max_size=16),
    st.data(),
)
def test_melody_lines_survive_noise(
    idents: tuple[str, str], first: list[int], second: list[int], data: st.DataObject
) -> None:
    pairs = zip(idents, (first, second), strict=True)
    lines = [render_line(data, "melody", ident, melody) for ident, melody in pairs]
    text = wrap_in_noise(data, data.draw(st.sampled_from(["\n", "\n\n", "\n  \n"])).join(lines))
    assert parse_melodies(text) == (tuple(first), tuple(second))
    assert parse_melodies(text, identifiers=idents) == (tuple(first), tuple(second))


@NOISY
@given(identifiers, st.lists(st.integers(0, 127), min_size=1, max_size=12), st.data())
def test_chord_line_survives_noise(ident: str, chord: list[int], data: st.DataObject) -> None:
    text = wrap_in_noise(data, render_line(data, "chord", ident, chord))
    assert parse_chord(text) == tuple(chord)
    assert parse_chord(text, identifier=ident) == tuple(chord)


def test_find_schema_lines_reports_every_line_in_order() -> None:
    text = 'Melody("a.wav", [60, 62,])\nprose\nmelody( b-2 ,\n [ 65 ,67 ] );'
    assert find_schema_lines(text, "melody") == [
        SchemaLine("melody", "a.wav", (60, 62)),
        SchemaLine("melody", "b-2", (65, 67)),
    ]
    assert find_schema_lines(text, "chord") == []


def test_name_must_stand_alone() -> None:
    assert find_schema_lines("mychord(x, [60])", "chord") == []
    assert find_schema_lines("(chord(x, [60]))", "chord") == [SchemaLine("chord", "x", (60,))]


# --- Errors and their kinds --------------------------------------------------------------------


def kind_of(call: Callable[..., object], *args: object, **kwargs: object) -> str:
    """The kind of SchemaError a parser call raises (it must raise one)."""
    with pytest.raises(SchemaError) as info:
        call(*args, **kwargs)
    return info.value.kind


@pytest.mark.parametrize("token", ["C4", "60.5", "sixty", "6 0", "(60)", "0x3C"])
def test_non_integer_value_is_a_parse_error_naming_it(token: str) -> None:
    with pytest.raises(SchemaError) as info:
        parse_chord(f"chord(x.wav, [60, {token}, 67])")
    assert info.value.kind == "parse"
    assert token in info.value.message


def test_missing_and_malformed_lines_are_parse_errors() -> None:
    assert kind_of(parse_rhythm, "I could not hear the drums.") == "parse"
    assert kind_of(parse_rhythm, "rhythm(x.wav, 2, 4, 6)") == "parse"
    assert kind_of(parse_rhythm, "rhythm([2, 4])") == "parse"
    assert kind_of(parse_rhythm, "rhythm(x.wav, [2, , 4])") == "parse"
    assert kind_of(parse_melodies, "") == "parse"
    assert kind_of(parse_chord, "chord(x, [60, 64, 67") == "parse"
    assert kind_of(parse_chord, "chord(x, [" + "9" * 5000 + "])") == "parse"


def test_wrong_line_counts_are_structural() -> None:
    assert kind_of(parse_rhythm, "rhythm(a, [1])\nrhythm(a, [3])") == "structural"
    assert kind_of(parse_melodies, "melody(a, [60])") == "structural"
    three = "melody(a, [60])\nmelody(b, [62])\nmelody(c, [64])"
    assert kind_of(parse_melodies, three) == "structural"
    assert kind_of(parse_chord, "chord(a, [60, 64, 67]) chord(a, [60, 63, 67])") == "structural"


def test_empty_lists() -> None:
    assert parse_rhythm("rhythm(a.wav, [])") == ()
    assert parse_rhythm("rhythm(a.wav, [ \n ])") == ()
    assert kind_of(parse_rhythm, "rhythm(a.wav, [ , ])") == "parse"  # a comma after nothing
    assert kind_of(parse_chord, "chord(a.wav, [])") == "structural"
    assert kind_of(parse_melodies, "melody(a, [60])\nmelody(b, [])") == "structural"
    assert kind_of(parse_melodies, "melody(a, [])\nmelody(b, [60])") == "structural"


def test_out_of_range_and_duplicates_are_domain_errors() -> None:
    assert kind_of(parse_rhythm, "rhythm(a, [0, 2])") == "domain"
    assert kind_of(parse_rhythm, "rhythm(a, [2, 33])") == "domain"
    assert kind_of(parse_rhythm, "rhythm(a, [-2])") == "domain"
    assert kind_of(parse_rhythm, "rhythm(a, [2, 4, 2])") == "domain"
    assert kind_of(parse_chord, "chord(a, [60, 128])") == "domain"
    assert kind_of(parse_melodies, "melody(a, [-1])\nmelody(b, [60])") == "domain"
    assert parse_chord("chord(a, [60, 60, 64, 67])") == (60, 60, 64, 67)  # doubling is fine
    assert parse_melodies("melody(a, [60, 60])\nmelody(b, [0, 127])") == ((60, 60), (0, 127))


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("s1a2b3.wav", "S1A2B3"),
        ("S1A2B3", "s1a2b3.wav"),
        ("s1a2b3.mid", "s1a2b3.wav"),
        ('"M1_EbMaj_90.wav"', "M1_EbMaj_90"),
        ("'17.wav'", "17"),
    ],
)
def test_identifier_match_ignores_case_quotes_and_extension(written: str, expected: str) -> None:
    assert parse_chord(f"chord({written}, [60, 64, 67])", identifier=expected) == (60, 64, 67)


def test_identifier_mismatch_is_structural_and_names_both() -> None:
    with pytest.raises(SchemaError) as info:
        parse_rhythm("rhythm(Sync2_B.wav, [2])", identifier="NoSync_A.wav")
    assert info.value.kind == "structural"
    assert "Sync2_B.wav" in info.value.message and "NoSync_A.wav" in info.value.message
    assert kind_of(parse_chord, "chord(take.2, [60])", identifier="take") == "structural"
    swapped = "melody(Audio2, [60])\nmelody(Audio1, [62])"
    assert kind_of(parse_melodies, swapped, identifiers=("Audio1", "Audio2")) == "structural"


def test_paper_example_lines() -> None:
    onbeats = tuple(range(1, 32, 2))
    line = f"rhythm(example.wav, [{', '.join(map(str, onbeats))}])"
    assert parse_rhythm(line, identifier="example.wav") == onbeats
    melodies = "melody(Audio1, [60, 62, 64])  \nmelody(Audio2, [65, 67, 69])"
    assert parse_melodies(melodies, ("Audio1", "Audio2")) == ((60, 62, 64), (65, 67, 69))
    assert parse_chord("`chord(Audio_X, [56, 60, 64, 67, 72, 76])`") == (56, 60, 64, 67, 72, 76)


def test_schema_error_is_picklable_and_printable() -> None:
    error = SchemaError("domain", "onset 33 is out of range")
    clone = pickle.loads(pickle.dumps(error))
    assert (clone.kind, clone.message, str(clone)) == ("domain", error.message, error.message)
