"""Answers said in words of the question's kind rather than by an option's name: a contour
("each note is higher than the one before" is ascending, "climbs to a peak and comes back
down" the arch), a meter ("the beats group in fives", "plain common time"), which of two clips
has more (:mod:`solvers.clip_comparison`). docs/reading.md, round 7.

Each rule holds only for a question whose options are of that kind, recognised from the option
texts (a shape question offers Ascending / Descending / Arch / Inverted arch, in any wording
that names them; a meter question "Groups of 3/4/5"), and reads one answer span. A span that
doubts, asks or supposes, negates a direction or a grouping it then names, or says two answers,
is no answer; an option ruled out there ("Not ascending, not descending; …") may not be the one
described.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from .choices import ChoiceReader
from .chord_notes import chord_notes, quality_letters, without_notes
from .clip_comparison import ClipComparison, clip_letters, compared_property
from .closing_clauses import introduces_what_is_denied
from .described_meter import meter_said, meters
from .drum_kit import drum_kit, drum_kit_letter
from .instrument_families import INSTRUMENT_FAMILIES, Families, instrument_family
from .reply_spans import HEDGE

Said = Callable[[str], "tuple[set[str], str | None]"]  # a span -> (answers, why none)
MAX_DENIAL_CHARS = 4000  # a reply this long is searched for a denial of the described answer

_DOUBT = re.compile(r"\?|\b(?:maybe|perhaps|possibly|probably|might|could|unsure|uncertain|"
                    r"if|unless|whether|not\s+(?:\w+\s+)?(?:sure|certain)|hard\s+to|"
                    r"can['\u2019]?t|or)\b", re.IGNORECASE)
_NEGATED = re.compile(r"(?:\b(?:not|never|no|without|neither|nor)|n['\u2019]t)\s+(?:\w+\s+){0,2}$",
                      re.IGNORECASE)
_SEGMENT = re.compile(r"\s*[,;:.\u2014\u2013]\s*")
_RULED_OUT = re.compile(r"^(?:and\s+|but\s+)?(?:(?:it|this|the\s+(?:chord|melody|meter|instrument|"
                        r"rhythm|shape))(?:\s*['\u2019]\s*s|\s+is)\s+)?"
                        r"(?:(?:definitely|clearly|certainly)\s+)?not\s+(?P<what>.+)$",
                        re.IGNORECASE)

# --- Contour ---------------------------------------------------------------------------------

_SHAPES = (("down_up", r"\binverted\b.*\barch\b|\bu-shaped\b|\bvalley\b"),
           ("up_down", r"\barch\b"), ("up", r"\bascending\b|\brising\b"),
           ("down", r"\bdescending\b|\bfalling\b"))
_MOTION = (r"(?:go|goes|going|went|come|comes|coming|came|run|runs|running|ran|move|moves|moving"
           r"|moved|step|steps|stepping|stepped|climb|climbs|climbing|climbed|head|heads|headed"
           r"|heading|leap|leaps|leaping|leapt|jump|jumps|jumped|back|way|all\s+the\s+way|then)")
_BEFORE = r"(?:(?:one|note)\s+before|(?:last|previous|preceding)(?:\s+(?:one|note))?)"
_MANNER = r"(?:\s+(?:steadily|gradually|smoothly|slowly|straight|stepwise|consistently))?"
_DIRECTION = re.compile(  # "peaks" reaches the top after rising: up (never a turn by itself)
    r"(?P<up>\b(?:ris(?:e|es|ing)|rose|climb(?:s|ing|ed)?|ascend(?:s|ing|ed)?|upwards?|peak(?:s|ed)"
    rf"|{_MOTION}{_MANNER}\s+up|higher\s+than\s+the\s+{_BEFORE}))\b"
    r"|(?P<down>\b(?:fall(?:s|ing)?|fell|drop(?:s|ping|ped)?|descend(?:s|ing|ed)?|sink(?:s|ing)?"
    rf"|sank|downwards?|{_MOTION}{_MANNER}\s+down|lower\s+than\s+the\s+{_BEFORE}))\b"
    r"|(?P<turn>\b(?:turn(?:s|ed|ing)?|revers(?:e|es|ed|ing)|changes?\s+direction))\b",
    re.IGNORECASE)


# A contour is said of the whole melody ("the melody", "it", "each note"), never of a part.
_WHOLE = re.compile(r"\b(?:melody|tune|line|scale|arpeggio|phrase|sequence|contour|it|pitch|"
                    r"(?:each|every)\s+note|throughout|from\s+start\s+to\s+finish"
                    r"|from\s+beginning\s+to\s+end)\b"  # "Rises throughout."
                    r"|^\W*(?:starts|begins)\b",  # the melody unsaid: "Starts low, …"
                    re.IGNORECASE)
# Where the melody starts says which way it first moves: "starts low" and then only up.
_START = re.compile(r"\b(?:starts|begins|starting|beginning)\s+(?:(?P<up>low)|(?P<down>high))\b",
                    re.IGNORECASE)
_PART = re.compile(r"\b(?:first|last|opening|final|next|second|third|fourth|fifth|middle|"
                   r"closing|later|earlier|one)\s+(?:(?:two|three|four|"
                   r"five|six|few|couple\s+of)\s+)?(?:notes?|half|halves|part|parts|bars?|"
                   r"measures?|phrases?|steps?|intervals?|leaps?|section)\b|\bthen\s+stops\b",
                   re.IGNORECASE)
# A top or bottom reached in the middle turns the melody: "peaks in the middle" is no rise alone.
_MIDDLE_TURN = re.compile(r"\b(?:peak(?:s|ed)?|highest|lowest|top|bottom)\b[^,;.]{0,30}?\b"
                          r"(?:middle|halfway|midway)\b", re.IGNORECASE)


# Words of a contour that is none of the shapes, or of no commitment to one.
_NO_SHAPE = re.compile(r"\b(?:none|neither|several|many|repeatedly|again\s+and\s+again|"
                       r"more\s+than\s+once|back\s+and\s+forth|zig-?zag\w*|wav(?:e|es|y)|"
                       r"up\s+and\s+down|down\s+and\s+up|options?|shapes?|not\s+(?:only|just|"
                       r"merely|simply))\b", re.IGNORECASE)


# "not one step goes upward" denies a direction of every step: the melody only goes the other.
_NO_STEP = re.compile(r"\b(?:not\s+(?:one|a\s+single)|no)\s+(?:single\s+)?(?:step|note|interval"
                      r"|move)s?\b", re.IGNORECASE)
_SOME_STEPS = re.compile(r"\b(?:until|till|except|apart|after|peak|top|bottom|middle|half|end"
                         r"|ends|then)\b", re.IGNORECASE)
_FIRST_TO_LAST = re.compile(r"\bfrom\s+(?:the\s+)?(?:first|opening)\s+note\s+to\s+the\s+"
                            r"(?:last|final|end)(?:\s+(?:one|note))?\b", re.IGNORECASE)


# A phase of the contour ("rises at first, then levels off"): one direction said for a phase is
# not the whole shape (a second direction makes it one: "rises at first, then falls").
_PHASE = re.compile(r"\b(?:at\s+first|initially|to\s+(?:begin|start)\s+with|in\s+the\s+beginning"
                    r"|early\s+on|at\s+the\s+(?:start|outset)|for\s+a\s+(?:while|bit)|briefly)\b",
                    re.IGNORECASE)


def _contour(shapes: dict[str, str]) -> Said:
    def said(text: str) -> tuple[set[str], str | None]:
        text = _FIRST_TO_LAST.sub(" every note ", text)  # the whole melody, not its first note
        every_step = _NO_STEP.search(text) and not _SOME_STEPS.search(text)
        text = _NO_STEP.sub("no step", text)  # "not one step goes up": "one step" is no part
        if not (_WHOLE.search(text) or every_step) or _PART.search(text) or _NO_SHAPE.search(text):
            return set(), "no contour of the whole melody said"
        moves: list[str] = []
        denied: set[str] = set()
        turned = False
        for match in _DIRECTION.finditer(text):
            kind = match.lastgroup or ""
            negated = bool(_NEGATED.search(text[:match.start()][-40:]))
            if kind == "turn":
                turned = turned or not negated  # "never turns back" keeps one direction
            elif negated:
                denied.add(kind)  # "doesn't rise at all; every step goes down"
            elif not moves or moves[-1] != kind:
                moves.append(kind)
        if not moves and every_step and len(denied) == 1 and not turned:
            moves = ["down" if "up" in denied else "up"]  # "not one step goes upward"
        turned = turned or bool(_MIDDLE_TURN.search(text))
        start = _START.search(text)
        if start and moves and start.lastgroup != moves[0]:
            return set(), "starts the other way"  # "starts low and falls" is no shape
        shape = "_".join(moves)
        one_phase = len(moves) == 1 and _PHASE.search(text)
        if not moves or (turned and len(moves) == 1) or shape not in shapes \
                or denied & set(moves) or one_phase:
            return set(), "no contour said"
        return {shapes[shape]}, None
    return said


def _shapes(options: Mapping[str, str]) -> dict[str, str]:
    found: dict[str, str] = {}
    for letter, text in options.items():
        head = str(text).split("(")[0].casefold()
        shape = next((name for name, pattern in _SHAPES if re.search(pattern, head)), None)
        if shape is None or shape in found:
            return {}
        found[shape] = letter
    return found if len(found) >= 3 else {}


# --- No vocals -------------------------------------------------------------------------------

_NO_VOCALS = r"\b(?:no|without)\s+(?:vocals?|voices?|singing|singers?|lyrics)\b|\binstrumental\b"
_SAID_NO_VOCALS = re.compile(
    r"\b(?:(?:purely|entirely|completely|fully|wholly|strictly|all)\s+)?instrumental\b"
    r"|\bno\s+(?:vocals?|voices?|singing|singers?|lyrics)\b|\b(?:nobody|no\s+one)\s+sings\b",
    re.IGNORECASE)
_VOCALS_LATER = re.compile(r"\b(?:but|until|except|apart|besides|only|intro|introduction|later|"
                           r"then|verse|chorus|bridge|backing|sample[sd]?|hum\w*|choir|not|"
                           r"n['\u2019]t|isn)\b", re.IGNORECASE)


def _no_vocals(letter: str) -> Said:
    def said(text: str) -> tuple[set[str], str | None]:
        if _SAID_NO_VOCALS.search(text) and not _VOCALS_LATER.search(text):
            return {letter}, None  # "The piece is purely instrumental; no voice appears."
        return set(), "no vocals not said"
    return said


def _no_vocals_letter(options: Mapping[str, str]) -> str | None:
    found = [letter for letter, text in options.items()
             if re.search(_NO_VOCALS, str(text), re.IGNORECASE)]
    return found[0] if len(found) == 1 else None


# --- The reader --------------------------------------------------------------------------------


class DescribedReader:
    """Reads one span for the described answers its options allow (see the module doc)."""

    def __init__(self, reader: ChoiceReader, said: list[Said], compared: Said | None = None,
                 unnamed: Callable[[str], str] = str):
        self.reader, self.said, self.compared = reader, said, compared
        self.unnamed = unnamed  # the text without what names no option (a chord's notes)

    def _ruled_out(self, text: str) -> tuple[set[str], list[str]]:
        """The options the text's segments rule out ("Not ascending, not descending; …"), and
        its other segments."""
        ruled_out: set[str] = set()
        kept = []
        for segment in _SEGMENT.split(text):
            match = _RULED_OUT.match(segment)
            named, _via, pure = self.reader.named(match.group("what")) if match else (set(), 0, 0)
            if named and pure:
                ruled_out |= named
            else:
                kept.append(segment)
        return ruled_out, kept

    def denied(self, reply: str) -> set[str]:
        """The options a segment of ``reply`` rules out anywhere: a description read from one
        part of a sentence never stands against "The chord is not diminished — …"."""
        return self._ruled_out(reply[:MAX_DENIAL_CHARS])[0]

    def __call__(self, text: str, source: str) -> tuple:
        if _DOUBT.search(text):
            return None, "doubts or supposes"
        if introduces_what_is_denied(text):  # "The one shape it does not have is this: Arch."
            return None, "names what is denied"
        ruled_out, kept = self._ruled_out(text)
        rest = " ; ".join(kept)
        answers: set[str] = set()
        for said in self.said:
            answers |= said(rest)[0]
        if answers and self.reader.named(self.unnamed(rest))[0] - answers:
            return None, HEDGE  # "it only rises, unlike the arch": another option named
        compared = self.compared(rest)[0] if self.compared is not None else set()
        answers |= compared  # the clips are named by their options' own words
        if len(answers) > 1:
            return None, HEDGE
        if not answers or answers & ruled_out:
            return None, "no described answer"
        return answers.pop(), None, "comparison" if compared else "described"


def described_reader(reader: ChoiceReader, more: str | None = None,
                     families: Families = INSTRUMENT_FAMILIES) -> DescribedReader | None:
    """The described-answer reader of ``reader``'s options, or None if none applies;
    ``families`` says which instruments a family names (:mod:`solvers.instrument_families`)."""
    options = reader.options
    said: list[Said] = []
    if (family := instrument_family(options, families)) is not None:
        said.append(family)
    if shapes := _shapes(options):
        said.append(_contour(shapes))
    if offered := meters(options):
        said.append(meter_said(offered))
    unnamed: Callable[[str], str] = str
    if qualities := quality_letters(options):
        said.append(chord_notes(qualities))
        unnamed = without_notes  # "the notes A, C and E" name no option A or C
    if (letter := _no_vocals_letter(options)) is not None:
        said.append(_no_vocals(letter))
    if (letter := drum_kit_letter(options)) is not None:
        said.append(drum_kit(letter))
    compared = None
    if (letters := clip_letters(options)) and (adjective := compared_property(options, more)):
        compare = ClipComparison(letters, adjective)
        compared = lambda text: _as_said(compare(text, ""))  # noqa: E731
    return DescribedReader(reader, said, compared, unnamed) if said or compared else None


def _as_said(reading: tuple) -> tuple[set[str], str | None]:
    return ({reading[0]}, None) if reading[0] is not None else (set(), reading[1])
