"""Doubt beside a committed answer (round 22): "Minor, though I'm not sure.", "B. (I'm not
sure)", "Probably B, but I can't be certain.", "Final Answer: A, though it is hard to tell.",
"They are the same melody, but there's a chance I missed an altered note."

A careful grader reads a reply that commits to one answer and then doubts it as that answer:
doubt is no hedge. A hedge offers two or more answers without picking one, takes its answer
back, or says it cannot tell *instead of* answering. So a **doubt clause** is any clause that
says the speaker is unsure, that something was hard to hear or tell, or that the speaker may be
wrong or may have missed something, and that holds none of what makes a hedge: no offer ("or",
"also", "instead", "it might be …"), no negation besides the doubt's own ("I'm not sure"), no
retraction ("actually", "wait"), no question. Such clauses are taken out of a line before any
reader reads it: the ones closing or opening a sentence, a parenthesis made of one, and whole
sentences made of them. What a doubt clause still says besides its doubt ("about the fifth",
"whether it is major") is returned to be read: it may only veto an answer by naming another
(:func:`solvers.caveats.offers_another`); what the speaker may have missed is not read (it is
conceded, not offered). A clause holding the answer itself ("I'm fairly sure it's minor", "B is
my guess") is no doubt clause and stays. Pure; no I/O.
"""

from __future__ import annotations

import re

from .refusals import NO_ATTEMPT
from .retractions import CORRECTION, RETRACTION, TAKEN_BACK

_NOT = r"(?:not|n['\u2019]t|never)"
_CERTAIN = r"(?:(?:100\s*%|a\s+hundred\s+percent)\s+)?(?:sure|certain|confident|positive)"
# What the speaker could not do with the music, or could not be: "can't hear the fifth",
# "couldn't make out the top note", "can't be certain", "unable to tell"
_COULD_NOT = (r"(?:can['\u2019]?t|cannot|can\s+not|couldn['\u2019]?t|could\s+not|unable\s+to"
              r"|not\s+able\s+to)\s+(?:really\s+|quite\s+|fully\s+|clearly\s+|reliably\s+)?")
_PERCEIVE = (r"(?:hear|make\s+out|pick\s+out|tell|say|place|separate|distinguish|catch|confirm"
             r"|verify|know|judge|count|follow|isolate|pin\s+down|be\s+(?:\w+\s+)?" + _CERTAIN
             + r"|be\s+(?:\w+\s+)?(?:precise|exact))"
             # "I can't hear any difference", "… a modulation anywhere": a denial, no doubt
             r"(?!\s+(?:any|anything|a|an|one|no|a\s+single)\b)")
# What the speaker may have missed is conceded, not offered: its object is not read
MISSED = re.compile(
    r"\b(?:I\s+(?:may|might|could)(?:\s+well)?\s+have|(?:chance|possibility|possible|risk)"
    r"\s+(?:that\s+)?I(?:\s+(?:may|might|could)\s+have)?|unless\s+I)\s+"
    r"(?:missed|misheard|overlooked|mis[a-z]{3,}ed)\b(?:[^,;.!?()\u2014\u2013](?!\b(?:and|but"
    r"|so|though|although)\b))*", re.IGNORECASE)
# Words of doubt (each a phrase; whatever follows it, "whether it is major", is read)
DOUBT = re.compile(
    rf"\b(?:{_NOT}\s+(?:\w+\s+){{0,2}}?(?:{_CERTAIN}|clear|obvious)"
    rf"|{_COULD_NOT}{_PERCEIVE}"
    r"|(?:unsure|uncertain|unclear|ambiguous|indistinct|muddy|murky|blurry|incomplete"
    r"|unconfirmed)"
    r"|(?:some|a\s+few|my|slight|minor|lingering|real)\s+doubts?"
    r"|(?:low|moderate|medium|limited|some)\s+confidence|confidence\s+(?:is\s+)?(?:low|moderate)"
    # "I'm only ~60% confident" (round 26): a share of confidence, no share of another option
    r"|only\s+(?:about\s+|around\s+|roughly\s+|~\s*)?\d{1,2}\s*%\s+(?:sure|certain|confident)"
    r"|(?:fairly|quite|pretty|reasonably|mostly|somewhat|moderately)\s+(?:sure|certain|confident)"
    r"(?!\s+(?:that|it|it['\u2019]s|this|the|they|there|these|those|of\s+(?:the|it))\b)"
    r"|(?:hard|difficult|tricky|tough|impossible)\s+to\s+(?:\w+\s+){0,2}?(?:tell|say|hear|judge"
    r"|know|sure|certain|make\s+out|pick\s+out|pin\s+down|place|separate|distinguish"
    r"|catch|confirm|verify|follow|isolate|count)"
    r"|no\s+way\s+to\s+(?:\w+\s+)?(?:tell|know|be\s+sure|be\s+certain|confirm|verify)"
    r"|(?:I|it|this|that|my\s+answer)\s+(?:could|might|may)(?:\s+well)?\s+be\s+(?:wrong|mistaken"
    r"|off|incorrect)"
    # a guess closing its clause ("that's just a guess"; "only a guess …: C" gives the answer)
    r"|(?:(?:(?:that|this|it)\s*(?:['\u2019]s|\s+is)\s+)?(?:just|only|merely)\s+an?\s+(?:\w+\s+)?"
    r"guess|(?:that|this|it)\s*(?:['\u2019]s|\s+is)\s+(?:a|my)\s+(?:\w+\s+)?guess)(?=\W*$)"
    r"|take\s+(?:it|this|that)\s+with\s+a\s+grain\s+of\s+salt|don['\u2019]t\s+quote\s+me"
    r"|(?:a\s+)?close\s+call)\b",
    re.IGNORECASE)
# What makes a clause a hedge, not a doubt: an offer, a negation, a retraction or a question
_OFFER = re.compile(r"\b(?:or|either|also|too|alternatively|instead|otherwise|rather|else"
                    r"|another|nor|versus|vs|possible|plausible|could|might|may|maybe|perhaps"
                    r"|possibly|would|if\s+not|rule\s+out|ruled\s+out)\b|\?", re.IGNORECASE)
# (a difference, change or wrong note said in passing may be the other answer: "the last note
# differs", "one note seems altered")
_NEGATION = re.compile(r"\b(?:not|no|never|none|nothing|neither|unlikely|doubt|doubts|doubted"
                       r"|doubtful|differ\w*|different|chang\w*|alter\w*|shift\w*|mov(?:e|ed|es)"
                       r"|modulat\w*|wrong|extra|missing|displac\w*|transpos\w*)\b|n['\u2019]t\b",
                       re.IGNORECASE)
# An answer given inside the clause ("I'd tentatively say minor", "so I'll go with B"), or
# none chosen ("… to decide"): no doubt clause either way
_ANSWERING = re.compile(r"\b(?:say|said|guess|go|going|pick|choose|chose|answer|call|think|believe"
                        r"|reckon|lean|leaning|opt|decide|settle|commit|conclude)\b",
                        re.IGNORECASE)
WITHDRAWN_MARK = "(withdrawn)"  # what a line says when a caveat negates its answer
# A caveat that negates the answer it follows: "Minor, though I doubt it.", "Yes. Probably not,
# though." (the answer is withdrawn, no new one given)
WITHDRAWN = re.compile(r"^\W*(?:(?:though|although|but|yet|and|then\s+again)\W+)*"
                       r"(?:I\s+(?:really\s+)?doubt\s+(?:it|that|this)|(?:probably|likely|maybe|perhaps)\s+not"
                       r"|I\s+(?:don['\u2019]t|do\s+not)\s+(?:really\s+)?think\s+so|not\s+really"
                       r"|(?:it|that)\s*(?:['\u2019]s|\s+is)\s+(?:unlikely|doubtful))"
                       r"(?:\W+(?:though|however|either|really))*\W*$", re.IGNORECASE)
_SENTENCE = re.compile(r"(?<=[.!?])(?<!\d[.!?])\s+(?=\S)|(?<=\d[.!?])\s+(?=[A-Z(])")
# Where a clause ends: a comma, semicolon or dash, or a turn ("… but I can't be certain")
_CLAUSE = re.compile(r"\s*(?:[,;]|\s[\u2014\u2013-]{1,2}\s|[\u2014\u2013])\s*"
                     r"|\s+(?=(?:though|although|even\s+though|albeit|but|yet|so|and|because"
                     r"|since|given)\s)",
                     re.IGNORECASE)
_PAREN = re.compile(r"\s*\(([^()]{1,200})\)")
_CONCESSION = re.compile(r"^\W*(?:(?:though|although|even\s+though|albeit|but|yet|so|and"
                         r"|however|still|because|since|given)\b\W*)+", re.IGNORECASE)
# what is left of "though I'm not sure": nothing to read
_IS = r"(?:I\s*['\u2019]?m|I\s+am|it\s*['\u2019]?s|it\s+is|there\s*['\u2019]?s|there\s+is)"
_OPENING = re.compile(rf"^{_IS}\s+", re.IGNORECASE)
_SPEAKER = re.compile(rf"(?:{_IS}|I|it|this\s+is|that\s+is|a|to|really|honestly|though)?",
                      re.IGNORECASE)
# the manner of a doubt, a clause of its own ("Hard to tell, to be honest.")
_MANNER = re.compile(r"\W*(?:to\s+be\s+(?:honest|fair|frank)|honestly|frankly|admittedly"
                     r"|in\s+(?:all\s+)?honesty)\W*", re.IGNORECASE)
_WORD = re.compile(r"[^\W_]+")
MAX_CLAUSE_WORDS = 25


def doubt_only(clause: str) -> str | None:
    """What ``clause`` says besides its doubt when it is a doubt clause (see module doc), else
    None: "though I'm not sure about the fifth" gives "about the fifth"."""
    rest = MISSED.sub(" ", clause)  # "a chance I missed an altered note": conceded
    if _MANNER.fullmatch(clause):
        return ""  # "…, to be honest."
    if rest == clause and not DOUBT.search(rest) or NO_ATTEMPT.search(clause):
        return None  # "I can't hear audio, but …" has no recording to doubt
    return plain(DOUBT.sub(" ", rest))


def plain(clause: str) -> str | None:
    """``clause`` without its opening concession when it holds no offer, negation, retraction,
    question or answer of its own ("the top note smeared into the reverb tail"), else None."""
    if len(_WORD.findall(clause)) > MAX_CLAUSE_WORDS or _OFFER.search(clause) \
            or _NEGATION.search(clause) or _ANSWERING.search(clause) or TAKEN_BACK.search(clause) \
            or RETRACTION.match(_CONCESSION.sub("", clause)) or CORRECTION.search(clause):
        return None
    rest = " ".join(_CONCESSION.sub("", clause).strip(" ,;:.!\u2014\u2013-").split())
    return "" if _SPEAKER.fullmatch(rest) else _OPENING.sub("", rest)


def without_doubts(line: str) -> tuple[str, list[str]]:
    """``line`` without its doubt clauses, and what those say besides their doubt, to be read
    to veto: all of it but whole sentences of doubt before an answer-bearing one (reasoning);
    what its last answer-bearing sentence offers after a doubt, as asked ("whether …"), and
    ``WITHDRAWN_MARK`` when a caveat after the answer negates it ("Minor, though I doubt it.").
    A line of doubt alone is left as it is ("I cannot tell." is no answer, not an empty line):
    :func:`solvers.caveats.without_caveats` drops it when another line answers."""
    said: list[str] = []

    def paren(found: re.Match) -> str:
        rest = doubt_only(found.group(1))
        if rest is None:
            return found.group(0)
        said.append(rest)
        return ""

    unparenthesized = _PAREN.sub(paren, line)  # "B. (I'm not sure)"
    kept: list[str] = []
    pending: list[str] = []
    offers: list[str] = []
    for sentence in _SENTENCE.split(unparenthesized):
        text, rest, offers_now = _sentence_without_doubts(sentence)
        if text is None:  # a sentence of doubt alone: "Minor. I'm not sure though."
            pending.extend(rest + [offer for offer in offers_now if offer == WITHDRAWN_MARK])
            continue
        pending = []  # "I'm not sure whether it's a violin. It is bright and brassy. C."
        said.extend(rest)
        offers = offers_now  # only the last answer-bearing sentence's ("… but I'll stay with C")
        kept.append(text)
    # an offer after a doubt is what the doubt asks: it vetoes any answer it names
    return " ".join(kept), [rest for rest in said + pending if rest] + [
        offer if offer == WITHDRAWN_MARK else f"whether {offer}" for offer in offers if offer]


def _sentence_without_doubts(sentence: str) -> tuple[str | None, list[str], list[str]]:
    """A sentence without its doubt clauses (None when it is nothing else), and what each of
    them says besides its doubt. A doubt closing a sentence takes the plain clauses after it as
    its reason ("…, though I'm not sure — the top note smeared"); one between two others stays,
    and what is offered after it is returned apart ("could be 63")."""
    pieces, start = [], 0
    for found in _CLAUSE.finditer(sentence):
        if found.start() > start:
            pieces.append(sentence[start:found.start()])
            start = found.start()
    pieces.append(sentence[start:])
    said = [doubt_only(piece) for piece in pieces]
    if all(s is not None for s in said):
        return None, [s for s in said if s], []
    if WITHDRAWN.match(sentence):
        return None, [], [WITHDRAWN_MARK]  # "Minor. Probably not, though."
    first = next(i for i, s in enumerate(said) if s is None)
    doubted = next((i for i in range(first + 1, len(pieces)) if said[i] is not None), None)
    if doubted is not None:
        reasons = [plain(piece) for piece in pieces[doubted + 1:]]
        if all(reason is not None for reason in reasons):
            said[doubted + 1:] = reasons
    last = max(i for i, s in enumerate(said) if s is None)
    # "though the recording was noisy, so I'm not sure": the cause goes with its doubt
    if last > first and last + 1 < len(pieces) and _CONCESSION.match(pieces[last]) and \
            re.match(r"\W*(?:so|and)\b", pieces[last + 1], re.IGNORECASE) and \
            (cause := plain(pieces[last])) is not None:
        said[last] = cause
        last -= 1
    end = pieces[-1].rstrip()[-1:] if pieces[-1].rstrip()[-1:] in (".", "!") else ""
    # a doubt between two others stays (the sentence is read as before); an offer after it
    # is what the doubt asks, and vetoes any answer it names ("62, though I'm not sure; could
    # be 63.": a reader that reads an offered pitch alone must not read 63)
    withdrawn = [piece for piece in pieces[first + 1:] if WITHDRAWN.match(piece)]
    doubts = [i for i in range(first, last + 1) if said[i] is not None]
    offers = [_CONCESSION.sub("", pieces[i]).strip(" ,;:.!") for i in range(first, last + 1)
              if doubts and i > doubts[0] and said[i] is None and _OFFER.search(pieces[i])]
    for i in doubts:
        said[i] = None
    body = "".join(piece for piece, rest in zip(pieces[first:last + 1], said[first:last + 1],
                                                strict=True) if rest is None).strip()
    if first > 0:
        body = _CONCESSION.sub("", body)  # "Not sure, but B." reads "B."
    if last + 1 < len(pieces) and end and not body.endswith(end):
        body += end
    return body, [rest for rest in said if rest], offers + [WITHDRAWN_MARK] * bool(withdrawn)
