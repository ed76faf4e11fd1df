"""Write core_templates.jsonl / mcq_templates.jsonl: template replies (forms x wrappers x
contexts) with the reading a careful grader gives, from construction. Hand-written whole
replies live in the other core_*/mcq_*/logiclm_* files. Run: python make_core_templates.py"""

from __future__ import annotations

import json
import random
from pathlib import Path

HERE = Path(__file__).parent
CHORD = {"A": "Major", "B": "Minor", "C": "Dominant", "D": "Diminished"}
SYNC = {"A": "0 (No Syncopation)", "B": "2 (Low Syncopation)", "C": "4 (Medium-Low Syncopation)",
        "D": "6 (Medium-High Syncopation)", "E": "8 (High Syncopation)"}
SYNC_COUNT = {"A": 0, "B": 2, "C": 4, "D": 6, "E": 8}
MCQ = [
    {"A": "Four on the floor", "B": "Off-beat syncopation", "C": "Scat singing", "D": "A minor"},
    {"A": "Electric guitar", "B": "Acoustic piano", "C": "Tenor saxophone", "D": "Violin"},
    {"A": "Joyful and upbeat", "B": "Melancholic", "C": "Tense and suspenseful", "D": "Calm"},
    {"A": "E minor", "B": "G major", "C": "B flat major", "D": "D minor"},
]
PREAMBLES = [
    "",
    "Let me listen carefully to the recording.\n\n",
    "I hear the root, then a note a minor third above it, then the fifth. The C and the E "
    "sound clearly, and there is an A in the bass at first.\n\n",
    "**Analysis**\n- The bass note is steady.\n- The upper voices move in thirds.\n"
    "- Option A and option D seem less likely to me at first.\n\n",
    "Step 1: identify the notes.\nStep 2: compare the intervals.\nStep 3: decide.\n\n",
    "Sure! Here's my reasoning. The recording is short, about four seconds, and fairly "
    "clean; nothing masks the upper notes.\n\n",
]


def chord_forms(letter: str) -> list[str]:
    q = CHORD[letter]
    return [letter, f"({letter})", f"**{letter}**", f"{letter}. {q}", f"{letter}) {q}",
            f"Option {letter}", f"{q}", f"{q.lower()}", f"{letter} ({q})", f"{letter} - {q}",
            f"{letter}.", f"[{letter}]", f"{q} chord", f"a {q.lower()} chord"]


def sync_forms(letter: str) -> list[str]:
    n = SYNC_COUNT[letter]
    name = SYNC[letter].split("(")[1].rstrip(")")
    return [letter, f"({letter})", f"{letter}. {SYNC[letter]}", str(n), name,
            f"{n} off-beat hits", f"Option {letter}", f"{letter} ({n})", SYNC[letter]]


WRAPS_OK = [
    ("Final Answer: {}", "final_line"),
    ("**Final Answer:** {}", "final_line"),
    ("FINAL ANSWER: {}", "final_line"),
    ("### Final Answer\n{}", "final_block"),
    ("Final answer - {}", "final_line"),
    ("The answer is {}.", "answer_sentence"),
    ("So my answer is {}.", "answer_sentence"),
    ("I'd go with {}.", "answer_sentence"),
    ("{}", "last_line"),
    ("Final Answer: {}\n\nThis is because the intervals match that quality.", "final_line"),
    ("$\\boxed{{{}}}$", "boxed"),
    ("Final Answer: **{}**", "final_line"),
    ("```\nFinal Answer: {}\n```", "final_line"),
    ("Answer: {}", "final_line"),
    ('{{"answer": "{}"}}', "json"),
    ("Final Answer: {} \u2014 because that is what I hear.", "final_line"),
]


def hedges(options: dict[str, str], a: str, b: str) -> list[str]:
    qa, qb = options[a], options[b]
    return [f"Final Answer: {a} or {b}", f"Final Answer: either {qa} or {qb}",
            f"Final Answer: {a}/{b}", f"Maybe {a}, maybe {b}.",
            f"Final Answer: {a}\n\nOn reflection, I change my mind.\n\nFinal Answer: {b}",
            f"The answer is {a} or possibly {b}.", f"Final Answer: {a}, {b}",
            f"$\\boxed{{{a}}}$\n\nFinal Answer: {b}", f"Final Answer: {qa} or {qb}",
            f"It's either {a} or {b}, I can't decide."]


NONES = [
    "I'm sorry, but I can't listen to audio files, so I can't tell which chord this is.",
    "I am unable to process audio. Could you describe the notes?",
    "Final Answer: I cannot determine this from the information provided.",
    "Final Answer: unclear",
    "It is hard to say without hearing it more clearly.",
    "Final Answer: ?",
    "I don't have access to the recording.",
    "The recording seems to be silent.",
]


def entry(kind, task, reply, grader, **extra):
    return {"kind": kind, "task": task, "reply": reply, "grader": grader, **extra}


def core_entries(rng: random.Random) -> list[dict]:
    out = []
    for task, options, forms in (("chord", CHORD, chord_forms), ("syncopation", SYNC, sync_forms)):
        for letter in options:
            for form in forms(letter):
                for wrap, _source in rng.sample(WRAPS_OK, 3):
                    pre = rng.choice(PREAMBLES)
                    out.append(entry("choice", task, pre + wrap.format(form), letter))
        letters = list(options)
        for _ in range(14):
            a, b = rng.sample(letters, 2)
            out.append(entry("choice", task, rng.choice(PREAMBLES) +
                             rng.choice(hedges(options, a, b)), None))
        for reply in NONES:
            out.append(entry("choice", task, reply, None))
    same = ["Yes, these are the same melody.", "Yes", "yes.", "These are the same melody.",
            "Same melody, just transposed.", "Yes \u2014 same melody, transposed up a fourth.",
            "Yes, the second is a transposition of the first.", "YES"]
    diff = ["No, these are not the same melody.", "No", "no.", "Different melodies.",
            "Nope, the contour changes in bar 2.", "No \u2014 the intervals differ.",
            "They are not the same melody.", "NO"]
    for grader, forms in (("yes", same), ("no", diff)):
        for form in forms:
            for wrap, _source in rng.sample(WRAPS_OK[:10], 4):
                if "{}." in wrap and form.endswith("."):
                    form = form[:-1]
                out.append(entry("yes_no", "transposition", rng.choice(PREAMBLES[:2]) +
                                 wrap.format(form), grader))
    for reply in ["Final Answer: Yes or No", "Final Answer: Yes\n\nWait.\n\nFinal Answer: No",
                  "Maybe yes, maybe no.", "Final Answer: Yes, these are not the same melody.",
                  "Final Answer: No, these are the same melody.", "Final Answer: not sure",
                  *NONES[:4]]:
        # issue 30 settled it: a "Wait." between two final answers commits to the later one
        settled = "no" if "\nWait.\n" in reply else None
        out.append(entry("yes_no", "transposition", reply, settled))
    return out


def mcq_entries(rng: random.Random) -> list[dict]:
    out = []
    for options in MCQ:
        for letter, text in options.items():
            forms = [letter, f"({letter})", f"{letter}. {text}", f"({letter}) {text}", text,
                     f"Option {letter}", f"**{letter}**"]
            for form in forms:
                for wrap, _source in rng.sample(WRAPS_OK, 2):
                    out.append(entry("mcq", "mcq", rng.choice(PREAMBLES[:2]) + wrap.format(form),
                                     letter, options=options))
        for _ in range(6):
            a, b = rng.sample(list(options), 2)
            out.append(entry("mcq", "mcq", rng.choice(hedges(options, a, b)), None,
                             options=options))
    return out


def main() -> None:
    rng = random.Random(12)
    for name, entries in (("core_templates.jsonl", core_entries(rng)),
                          ("mcq_templates.jsonl", mcq_entries(rng))):
        with open(HERE / name, "w", encoding="utf-8") as handle:
            for number, item in enumerate(entries):
                item = {"id": f"{name.split('.')[0]}-{number:04d}", **item}
                handle.write(json.dumps(item, ensure_ascii=False) + "\n")
        print(name, len(entries))


if __name__ == "__main__":
    main()
