"""Final-answer reading of core tasks: choices (chord, syncopation) and yes/no (transposition).

A benchmark score is only as good as its reading of the model's answer. Both readers go
through :func:`solvers.reply_spans.read_reply`, which decides where a reply commits to an
answer (a ``Final Answer`` line or block, ``\\boxed{}``, JSON, "The answer is ...", a short last
line) and that two different answers there are a hedge. Choices are read by
:class:`solvers.choices.ChoiceReader`, the same reader MCQ uses; yes/no here. Anything
ambiguous (both yes and no, a letter that is really the article "A" or a note name) yields no
answer rather than a guess.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import partial

from .aspects import said_of_other_aspect
from .choices import ChoiceReader
from .even_odds import states_even_odds
from .keyed_answers import spoken_booleans
from .negation_phrases import rewrite_negations, unreadable_denial
from .reply_spans import HEDGE, Reading, read_reply
from .sameness_phrases import BALANCED, sameness_question, turned_denial, without_aspect_exception
from .sameness_phrases import DIFFER_VERBS as _DIFFER_VERBS

SAME_MELODY_SENTENCE = "Yes, these are the same melody."
DIFFERENT_MELODY_SENTENCE = "No, these are not the same melody."

# --- Multiple choice ---------------------------------------------------------------------------


def read_choice(
    text: str, options: Mapping[str, str], aliases: Mapping[str, str] | None = None
) -> Reading:
    """The option letter a reply commits to (with where and how it was read), or why none.

    ``options`` maps letters to labels ({"A": "Major", ...}); ``aliases`` maps other texts
    a grader accepts for an option ("dom7": "C") to its letter. Never raises.
    """
    if not isinstance(text, str) or not options:
        return Reading(None, None, "no answer in the reply")
    return read_reply(text, ChoiceReader(options, aliases))


def extract_choice(
    text: str, options: Mapping[str, str], aliases: Mapping[str, str] | None = None
) -> str | None:
    """The option letter of :func:`read_choice`, or None."""
    return read_choice(text, options, aliases).answer


# --- Yes / no (transposition) ------------------------------------------------------------------

_MAX_CHARS = 2000
_TOKEN = re.compile(r"[^\W_]+(?:-[^\W_]+)*")  # "yes-ish" is one word, not "yes"
_SENTENCE = re.compile(r"(?<=[.!?;])\s+|\n+|\s+[\u2014\u2013]\s+|\s+-\s+")
_YES = frozenset("yes yeah yep yup yea affirmative correct true indeed".split())
_NO = frozenset("no nope nah negative false incorrect".split())
_LEAD_IN = frozenset("so thus therefore hence is answer final my believe think say guess".split())
_SAME = frozenset("same identical transposed transposition transpositions equivalent match matches "
                  "matched".split())
# "match" says the compared things are the same only of them ("they match", "the rhythms don't
# match"), not of a part ("the first notes match").
_MATCH = frozenset({"match", "matches", "matched"})
_WHOLE_SUBJECTS = frozenset("they both these all everything two".split())
_DIFFERENT = frozenset("different differ differs differed vary varies varied deviate deviates "
                       "deviated distinct unrelated dissimilar difference differences".split())
# "no" before a word that can open a sentence of its own ("No they differ", "No, ...") is the
# answer; before any other word it quantifies a noun phrase ("no difference", "no pitch
# differences", "no key change", "no oddball"): no answer word then. It negates the first
# answer word of the question within that phrase ("There are no pitch differences" says they
# are the same); a phrase without one ("No oddball is present" asked whether two melodies are
# the same) answers nothing.
_QUANTIFIED_NO = re.compile(r"\bno((?:[^\S\n]+[^\W\d_]+(?:['\u2019-][^\W\d_]+)*){1,6})",
                            re.IGNORECASE)
_ANSWER_NO_BEFORE = frozenset(
    "i it its it's they they're these this that that's those there there's we you he she the a "
    "an not way sorry sir yes yeah yep no nope nah wait actually but and or nor so then because "
    "since as if whether unless both each definitely absolutely certainly maybe perhaps probably "
    "possibly final answer is vs versus".split())
_ALSO_QUANTIFIED = frozenset({"doubt"})
_QUANTIFIER = "nix"  # what a quantifying "no" is read as: it negates the one word after it
_NO_ANSWER_WORD = "nought"  # a quantifying "no" before no answer word of the question
_PHRASE_WORDS_AHEAD = 3  # "no [pitch] [key] differences"
_OF_PHRASE = frozenset("of a an any the".split())
# same/different said of something: only of the compared things ("the same melody", not
# "the same rhythm"), or as a statement ("they are the same")
# Verbs of difference: said of the compared things ("the two melodies don't differ"), not of a
# part ("the key differs" of a transposition); a quantifying "no" or "nothing" before one
# denies any difference ("No chord changes function between the two" = the same).
_CHANGE_VERBS = frozenset("change changes changed".split())  # a verb only with words after it
_ADJECTIVES = (_SAME - {"transposed", "transposition", "transpositions", "match", "matches",
                         "matched"}
               | _DIFFERENT - {"difference", "differences"} - _DIFFER_VERBS)
# A yes/no word said as an answer: opening a sentence or clause, or closing one ("actually no").
_SAID = re.compile(r"(?:^|(?<=[.!?;:,\u2014\u2013(-])|(?<=\bactually)|(?<=\bwait))\s*"
                   r"(yes|yeah|yep|yup|no|nope|nah)\b|\b(yes|yeah|yep|yup|no|nope|nah)"
                   r"(?=\s*(?:[.!?;:,)\u2014\u2013]|\s-\s|$))", re.IGNORECASE | re.MULTILINE)
_NOUNS = frozenset("melody melodies tune tunes one ones line lines sequence intervals interval "
                   "contour pattern melodic".split())
# Words that end the noun phrase after "same"/"different" ("the same exact drum set patterns"
# names patterns; "the same key as the melody" names a key).
_PHRASE_END = frozenset("as in of to with from than and or but is are was were that which for at "
                        "on by except though so because since while whereas".split())
_MAX_PHRASE_WORDS = 4
_COMPARED_WITH = frozenset("as from to".split())  # "the same as", "different from", "identical to"
_COMPARED_OBJECTS = frozenset("the a an first second other one ones original earlier previous "
                              "former latter 1 2 excerpt clip recording example version".split())
# Parts of the music said to be the same or different (never the compared thing itself,
# unless the question compares it: "the rhythm is the same" answers a rhythm question only).
_PARTS = frozenset("rhythm rhythms key keys tempo chord bar bars beat beats timbre instrument "
                   "instruments ending start beginning register dynamics meter accompaniment "
                   "bass".split())
_COPULAS = frozenset("is are was were sounds sound seems seem stays stay remains remain".split())
# Words before a closing "same"/"different" that make it a statement: "they're the same".
_PREDICATE = frozenset("the are re is s not completely totally entirely quite very all two "
                       "clearly definitely".split())
_CONTRACTION = re.compile(r"n['\u2019]t\b")
_CLAUSE = re.compile(r"[,;:()\u2014\u2013]|\s-\s")
_NEGATORS = frozenset("not never t isn aren isnt arent neither nor nothing none".split())
_NOTHING = frozenset({"nothing", "none"})
# A negation after an answer word turns it when it denies that the thing named occurs: "A key
# modulation does not occur", "differences were not detected", "a modulation never happens".
# ("Transposition does not change the intervals" denies something else: no turn.)
_OCCURRING = frozenset("occur occurs occurred happen happens happened exist exists existed "
                       "appear appears appeared take takes took present detected found heard "
                       "noticed audible apparent evident there".split())
_AUXILIARIES = frozenset("do does did is are was were be been has have had will would can could "
                         "should shall".split())
_LIMITS = frozenset("until till before except unless only".split())
_SCOPE_ENDS = frozenset("but and yet though although while whereas so because since".split())
_CONDITIONALS = frozenset("if whether unless".split())  # the rest of the clause is no answer
_UNCERTAIN = re.compile(r"\b(?:maybe|perhaps|possibly|unsure|uncertain|either|not\s+(?:\w+\s+)?"
                        r"(?:sure|certain)|can'?t\s+(?:tell|say)|cannot\s+(?:tell|say)|"
                        r"(?:not\s+able|unable)\s+to|hard\s+to|unclear|"
                        r"may|might|could)\b|\?", re.IGNORECASE)


# Both answers named as such ("Yes or no depends on the definition.", "a yes/no question"):
# a mention of the choice, not a choice.
_BOTH_NAMED = re.compile(r"\b(?:yes\s*(?:or|/|-or-)\s*no|no\s*(?:or|/|-or-)\s*yes)\b",
                         re.IGNORECASE)


@dataclass(frozen=True)
class YesNoPhrases:
    """Words that answer a yes/no question without a yes or a no, one token each ("out-of-key"
    is one), turned by a negation before them in their clause ("not identical", "doesn't
    modulate"). ``nouns`` are what the same/different words may qualify: "the same melody"
    answers "are these the same melody?", "the same rhythm" does not."""

    yes: frozenset[str] = frozenset()
    no: frozenset[str] = frozenset()
    nouns: frozenset[str] = frozenset()


def sameness(*compared: str, same: Iterable[str] = (), different: Iterable[str] = ()
             ) -> YesNoPhrases:
    """The phrases of a question whether two things are the same, called ``compared`` too
    ("rhythm", "progression") besides the melody words; ``same`` and ``different`` are the
    question's own further words for its answers (MUSE's "if you notice an oddball")."""
    return YesNoPhrases(_SAME | frozenset(same), _DIFFERENT | frozenset(different),
                        _NOUNS | frozenset(compared))


SAMENESS = sameness()  # "are these the same melody?"


def _phrase_polarity(words: list[str], phrases: YesNoPhrases) -> set[str]:
    """Answers named by same/different phrases ("the same melody", "not identical", "different
    melodies", "transposed"); "same rhythm" names nothing (a melody's part, not the melody).
    A negation turns the next such word of its clause ("I do not think they are the same"),
    or, negating the verb after one, the one before it ("A modulation does not occur")."""
    found: list[list] = []  # [answer, index, turned]
    negated = False
    for index, word in enumerate(words):
        if word in _CONDITIONALS:
            break  # "whether it modulates", "if they are the same": asked, not answered
        if word in _NEGATORS:
            _turn_back(found, words, index)
            negated = True
            continue
        if word in _SCOPE_ENDS:
            negated = False  # "There is no reverb and they are the same": "and" ends its reach
        if word in phrases.yes:
            answer = "yes"
        elif word in phrases.no:
            answer = "no"
        else:
            continue
        quantified = index > 0 and words[index - 1] == _QUANTIFIER  # "no difference"
        turned, negated = negated != quantified, False
        if word in phrases.yes and said_of_other_aspect(words, index, phrases.nouns):
            continue  # "the tempo is the same" (of two rhythms)
        if word in _ADJECTIVES and not quantified:
            after = _noun_phrase(words, index + 1)
            if after and not (set(after) & phrases.nouns):
                continue  # "same rhythm", "different key"
            before = _before_adverbs(words, index)
            if not after and index and before not in _PREDICATE:
                continue  # "I same": a stray word, not "they are the same"
            if not after and _copula_subject(words, index) in _PARTS - phrases.nouns:
                continue  # "The rhythm is the same" of two melodies: a part, not the melody
        if word in _MATCH and _subject(words, index) not in _WHOLE_SUBJECTS | phrases.nouns:
            continue
        if (word in _DIFFER_VERBS and not quantified
                and _subject(words, index, keep=_NOTHING) not in _WHOLE_SUBJECTS | phrases.nouns
                | _NOTHING):
            continue  # "the key differs" (of a transposition), "one note differs"
        if turned:
            answer = "no" if answer == "yes" else "yes"
        found.append([answer, index, turned])
    return {answer for answer, _index, _turned in found}


def _before_adverbs(words: list[str], index: int) -> str:
    """The word before ``words[index]`` and the adverbs in front of it ("functionally
    different", "rhythmically identical")."""
    index -= 1
    while index > 0 and words[index].endswith("ly") and words[index] not in _PREDICATE:
        index -= 1
    return words[index] if index >= 0 else ""


def _subject(words: list[str], index: int, keep: frozenset[str] = frozenset()) -> str:
    """The word before a verb, past negations and auxiliaries ("they do not match"); a word
    in ``keep`` is the subject even if it negates ("nothing differs")."""
    index -= 1
    while index >= 0 and words[index] not in keep and (words[index] in _NEGATORS
                                                        or words[index] in _AUXILIARIES):
        index -= 1
    if index > 0 and (words[index].isdigit() or len(words[index]) == 1):
        index -= 1  # "progression 2 differs", "loop b matches": the noun before its label
    return words[index] if index >= 0 else ""


def _copula_subject(words: list[str], index: int) -> str:
    """The word before the copula of a closing "the same"/"different" ("the rhythm is the
    same" -> "rhythm"), or ""."""
    index -= 1
    while index >= 0 and words[index] not in _COPULAS:
        if words[index] not in _PREDICATE and not words[index].endswith("ly"):
            return ""
        index -= 1
    while index > 0 and words[index - 1] in _NEGATORS | _AUXILIARIES | _COPULAS:
        index -= 1
    return words[index - 1] if index > 0 else ""


def _noun_phrase(words: list[str], start: int) -> list[str]:
    """The words after a same/different adjective up to the end of its noun phrase."""
    if words[start:start + 1] and words[start] in _COMPARED_WITH:
        compared = words[start + 1:start + 4]
        compared = compared[:next((i for i, w in enumerate(compared) if w in _PHRASE_END),
                                  len(compared))]
        # "not the same as the first", "different from the other loop": a statement of the
        # compared things; "the same as the first chord" names a part (no compared noun)
        return [word for word in compared if word not in _COMPARED_OBJECTS] or []
    phrase: list[str] = []
    for word in words[start:start + _MAX_PHRASE_WORDS]:
        if word in _PHRASE_END:
            break
        phrase.append(word)
    return phrase or words[start:start + 2]


def _turn_back(found: list[list], words: list[str], index: int) -> None:
    """Turn the last answer before a verb's negation ("modulation does not occur") when no
    other answer word follows the negation in the clause and nothing ends its scope between."""
    if not found or found[-1][2]:
        return
    if not (words[index] == "never" or words[index - 1] in _AUXILIARIES):
        return  # "transposed intervals, not pitches" negates a noun, not the verb
    if not set(words[index + 1:index + 3]) & _OCCURRING:
        return
    last = found[-1]
    between = words[last[1] + 1:index]
    if set(between) & (_SCOPE_ENDS | _NEGATORS) or set(words[index:]) & _LIMITS:
        return  # "A modulation does not occur until the last bar" says it occurs
    last[0], last[2] = ("no" if last[0] == "yes" else "yes"), True


def _sentence_answer(sentence: str, phrases: YesNoPhrases = SAMENESS
                     ) -> tuple[str | None, bool, str | None]:
    """(answer, opened by a yes/no word, reason when none) of one sentence."""
    words = _TOKEN.findall(sentence.casefold())
    if not words or BALANCED.search(sentence):
        return None, False, HEDGE if words else None  # "as many similarities as differences"
    stated = {("yes" if w in _YES else "no") for i, w in enumerate(words) if (w in _YES or w in _NO)
              and (i == 0 or words[i - 1] in _LEAD_IN)}
    bare = {w for w in words if w in ("yes", "no")}
    if len(stated | bare) > 1:
        return None, True, HEDGE  # "Yes or no", "Yes and no: ..."
    said: set[str] = set()  # what the sentence's answer phrases say
    plain = _CONTRACTION.sub(" not", sentence.casefold())  # "isn't" -> "is not"
    for clause in _CLAUSE.split(plain):  # a negation reaches to its clause's end
        said |= _phrase_polarity(_TOKEN.findall(clause), phrases)
    if len(stated) > 1 or len(stated | bare | said) > 1:
        return None, True, HEDGE  # "Different melodies or yes"
    if stated:
        (answer,) = stated
        if said - stated:
            return None, True, HEDGE  # "Yes, these are not the same melody."
        return answer, True, None
    if len(said) == 1:
        return next(iter(said)), False, None
    return None, False, (HEDGE if said else None)


def _quantify(match: re.Match, phrases: YesNoPhrases) -> str:
    """A quantifying "no" moved before the answer word it negates, or made no answer word."""
    ahead = match.group(1)
    words = list(_TOKEN.finditer(ahead))
    if not words or words[0].group().casefold() in _ANSWER_NO_BEFORE:
        return match.group(0)  # "No they differ", "No, ..."
    quantified = phrases.yes | phrases.no | _ALSO_QUANTIFIED
    content = 0
    for position, word in enumerate(words):
        folded = word.group().casefold()
        if folded in quantified:
            return f"{ahead[:word.start()]} {_QUANTIFIER} {ahead[word.start():]}"
        if content and _DIFFER_VERBS <= phrases.no and (
                folded in _DIFFER_VERBS or folded in _CHANGE_VERBS and position + 1 < len(words)):
            # "No note differs", "No chord changes function between the two": the same
            rest = ahead[word.end():]
            return f"{_NO_ANSWER_WORD}{ahead[:word.start()]} {_QUANTIFIER} differs{rest}"
        if content and folded in _OF_PHRASE:
            continue  # "no evidence of modulation", "no sign of a key change"
        content += 1
        if folded in _AUXILIARIES:
            return f"nothing{ahead}"  # "No note is out of key": the subject is denied, as by
            # "nothing", so the clause's answer word is turned; "No hit is displaced" names none
        if content >= _PHRASE_WORDS_AHEAD or folded in _ANSWER_NO_BEFORE or folded in _PHRASE_END:
            break  # the noun phrase ended
    return f"{_NO_ANSWER_WORD}{ahead}"


def read_yes_no_span(text: str, source: str, phrases: YesNoPhrases = SAMENESS) -> tuple:
    """The yes/no one span commits to: its yes/no sentences agree, or its answer phrases
    (same/different...) do; a sentence opening with yes/no outranks reasoning sentences
    before it."""
    text = spoken_booleans(unicodedata.normalize("NFKC", text)[:_MAX_CHARS])  # "modulates: false"
    of_sameness = sameness_question(phrases.no)
    if of_sameness:  # "Nothing differs except the starting pitch": a transposition
        text = without_aspect_exception(text)
    if _UNCERTAIN.search(text) or unreadable_denial(text) or _BOTH_NAMED.search(text) \
            or states_even_odds(text):  # "Probability same: 0.5."
        return None, "uncertain answer"  # "maybe", "Nothing changes except the last note."
    if of_sameness and turned_denial(text):
        return None, HEDGE  # "Not one hit moved; however, rhythm 2 adds a hit."
    text = rewrite_negations(text, of_sameness=of_sameness)
    text = _QUANTIFIED_NO.sub(partial(_quantify, phrases=phrases), text)
    said = {"no" if (first or last).casefold() in _NO else "yes"
            for first, last in _SAID.findall(text)}
    if len(said) > 1:
        return None, HEDGE  # "Yes - actually no", "It's yes. No wait, no."
    opened: set[str] = set()
    stated: set[str] = set()
    for sentence in _SENTENCE.split(text):
        answer, has_opener, reason = _sentence_answer(sentence, phrases)
        if reason == HEDGE and has_opener:
            return None, HEDGE
        if answer is not None:
            (opened if has_opener else stated).add(answer)
    opened |= said
    if len(opened) > 1:
        return None, HEDGE
    if opened:
        (answer,) = opened
        if stated - opened:
            return None, HEDGE  # "Final Answer: Yes. They are different melodies."
        return answer, None, "yes_no_word"
    if len(stated) == 1:
        return next(iter(stated)), None, ("same_different" if phrases.yes is _SAME
                                           else "answer_phrase")
    return None, HEDGE if stated else "no yes/no answer"


def read_yes_no(text: str, phrases: YesNoPhrases = SAMENESS) -> Reading:
    """Whether a reply says the two melodies are the same ("yes") or not ("no"), read by
    :func:`read_reply`: "Yes, these are the same melody.", "Nope, ...", "Different melodies.",
    "Yes — same melody, transposed up a fourth." Never raises.

    Another question brings its own ``phrases``: :func:`sameness` for two rhythms or
    progressions, and for a question that is not whether two things are the same ("is a note
    out of key?") words of its own, never same/different: there "one note is different"
    means yes."""
    if not isinstance(text, str):
        return Reading(None, None, "no answer in the reply")
    return read_reply(text, partial(read_yes_no_span, phrases=phrases))


def extract_yes_no(text: str) -> str | None:
    """"yes", "no", or None: the answer of :func:`read_yes_no`."""
    return read_yes_no(text).answer
