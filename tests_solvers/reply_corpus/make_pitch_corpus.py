# ruff: noqa: E501  (a table of answers reads better one case to a line)
"""Writes pitch_templated.jsonl: answers × writing styles, each with a careful grader's reading.

Run from the repository root: ``python tests_solvers/reply_corpus/make_pitch_corpus.py``. The
hand-written whole replies live in pitch_handwritten.jsonl and pitch_heldout.jsonl (written
directly, not generated). Grader values use the scorer's canonical form: a MIDI note (pitch
class in solfège) or a list of them, an integer, a list of seconds, contour tokens, ranks, an
option label; null when a careful grader sees no answer (hedge, contradiction, a bare number
in another notation than the one asked). A form that names its own notation (``F#4``, ``MIDI 60``,
``329.6 Hz``) is read in any question (round 23; it was null before).
"""

from __future__ import annotations

import json
from pathlib import Path

OUT = Path(__file__).with_name("pitch_templated.jsonl")
QUALITIES = ["major", "minor", "diminished", "augmented", "dominant seventh", "major seventh",
             "minor seventh", "half-diminished", "sus2", "sus4"]

STYLES = {
    "plain": "Final Answer: {a}",
    "bold": "I listened to the recording carefully.\n\n**Final Answer:** {a}",
    "heading": "Let me analyze the audio step by step.\n\n1. The tone is steady.\n"
               "2. I compared it with what I know.\n\n### Final Answer\n{a}",
    "boxed": "Based on the spectrum, the answer is:\n\n$$\\boxed{{{a}}}$$",
    "json": '```json\n{{"answer": "{a}"}}\n```',
    "sentence": "After listening a couple of times, I think the answer is {a}.",
    "lower": "final answer: {a}",
    "because": "Final Answer: {a} \u2014 because that is what I hear most clearly.",
    "fence": "```\nFinal Answer: {a}\n```",
    "cot": "Okay, so first I need to figure out what I'm hearing. The sound is clear and "
           "there is no noise. Comparing against reference pitches I know, it matches.\n\n"
           "Final answer: {a}",
}
# Styles that keep line breaks of a multi-line answer meaningful.
BLOCK_STYLES = ("plain", "bold", "heading", "cot")

# (kind, notation, truth, options, task, answer text, grader)
CASES: list[tuple] = []


def add(kind, notation, truth, answer, grader, options=(), task=""):
    CASES.append((kind, notation, truth, options, task, answer, grader))


# One pitch, every notation
for midi, spn, alt, sol, hz in [(66, "F#4", "Gb4", "fa#", "369.99"), (61, "C#4", "Db4", "do#", "277.18"),
                                 (60, "C4", "B#3", "do", "261.63"), (69, "A4", "A4", "la", "440"),
                                 (58, "Bb3", "A#3", "si b", "233.08"), (84, "C6", "C6", "do", "1,046.50")]:
    t = (midi,)
    for a, g in [(str(midi), midi), (f"{midi} ({spn})", midi), (f"{spn} = MIDI {midi}", midi),
                 (f"MIDI note {midi}", midi), (f"{midi}.0", midi), (f"{midi} ({alt})", midi),
                 (f"{midi} or {midi + 1}", None), (f"{spn}", midi), (f"{midi} ({spn.replace('4', '5')})", None
                  if "4" in spn else midi)]:
        add("pitch", "midi", t, a, g, task="a1")
    for a, g in [(spn, midi), (alt, midi), (f"{spn} (MIDI {midi})", midi), (f"{spn[:-1]} {spn[-1]}", midi),
                 (f"{spn[:-1]}{spn[-1]}", midi), (f"{spn} or {alt[0]}{int(spn[-1]) + 1}", None),
                 (str(midi), None)]:
        add("pitch", "spn", t, a, g, task="a2")
    for a, g in [(sol, midi % 12), (sol.capitalize(), midi % 12), (f"{sol} ({spn})", midi % 12),
                 (f"{sol} or sol", None if sol != "sol" else 7)]:
        add("pitch", "solfege", t, a, g, task="e1")
    for a, g in [(f"{hz} Hz", midi), (hz, midi), (f"{spn} ({hz} Hz)", midi),
                 (f"{hz} Hz (MIDI {midi})", midi), (f"{hz} Hz or {float(hz.replace(',', '')) * 1.06:.2f} Hz", None)]:
        add("pitch", "hz", t, a, g, task="b1")
add("pitch", "spn", (61,), "C4\u266f", 61, task="a2")
add("pitch", "spn", (60,), "middle C", 60, task="a2")
add("pitch", "spn", (62,), "Db 4", 61, task="a2")
add("pitch", "hz", (61,), "277,18 Hz", 61, task="b1")
add("pitch", "hz", (61,), "277,18", None, task="b1")
add("pitch", "midi", (61,), "61 (C#4, 277.2 Hz)", 61, task="a1")
add("pitch", "midi", (61,), "61 (C#4, 311.1 Hz)", None, task="a1")

# Sets and sequences
for notation, items, grader in [
    ("midi", "60, 64, 67", [60, 64, 67]), ("midi", "67, 60, 64", [60, 64, 67]),
    ("spn", "C4, E4, G4", [60, 64, 67]), ("spn", "G4 E4 C4", [60, 64, 67]),
    ("hz", "261.63 Hz, 329.63 Hz, 392.00 Hz", [60, 64, 67]), ("solfege", "do, mi, sol", [0, 4, 7]),
    ("midi", "60, 64, 67 (C4, E4, G4)", [60, 64, 67]), ("midi", "60, 64, 67 or 60, 63, 67", None),
]:
    add("pitch_set", notation, (60, 64, 67), items, grader, task="c4")
for notation, items, grader in [
    ("midi", "60, 62, 64", [60, 62, 64]), ("midi", "60 62 64", [60, 62, 64]),
    ("midi", "60 \u2192 62 \u2192 64", [60, 62, 64]), ("spn", "C4 - D4 - E4", [60, 62, 64]),
    ("spn", "C4, D4, E4", [60, 62, 64]), ("solfege", "do re mi", [0, 2, 4]),
    ("hz", "261.63, 293.66, 329.63", [60, 62, 64]), ("midi", "60, 62, 64 (C4, D4, E4)", [60, 62, 64]),
    ("midi", "60, 62, 64 (C4, E4, D4)", None), ("spn", "C4, D4, E4 or C4, D4, F4", None),
]:
    add("pitch_sequence", notation, (60, 62, 64), items, grader, task="d8")

# Integers (d6 signed interval, c1 count)
for a, g in [("5", 5), ("+5", 5), ("-5", -5), ("\u22125", -5), ("5 semitones lower", -5),
             ("5 semitones higher", 5), ("down 5", -5), ("-5 (descending)", -5), ("+7.0", 7),
             ("seven", 7), ("minus three", -3), ("3 or 4", None), ("+7 descending", None),
             ("7 semitones down", -7), ("-12", -12), ("12 (one octave)", 12), ("0", 0),
             ("5 semitones below", -5), ("up 2", 2), ("approximately 4", 4)]:
    add("integer", None, (g if g is not None else 5,), a, g, task="d6")
for a, g in [("3", 3), ("3 distinct pitches", 3), ("three", 3), ("3.0", 3), ("2 or 3", None)]:
    add("integer", None, (3,), a, g, task="c1")

# Timestamps
for a, g in [("00:01.50, 00:02.75", [1.5, 2.75]), ("0:01.50, 0:02.75", [1.5, 2.75]),
             ("1.5 s, 2.75 s", [1.5, 2.75]), ("1.5, 2.75", [1.5, 2.75]),
             ("1500 ms - 2750 ms", [1.5, 2.75]), ("1.50-2.75 s", [1.5, 2.75]),
             ("00:01.50 - 00:02.75", [1.5, 2.75]), ("00:01.50, 00:02.75 or 00:01.00, 00:02.00", None),
             ("onset 1.5 seconds, offset 2.75 seconds", [1.5, 2.75])]:
    add("timestamps", None, (1.5, 2.75), a, g, task="b3")

# Contours, ranks
for a, g in [("up, down", ["up", "down"]), ("u, d", ["up", "down"]), ("Up, Down", ["up", "down"]),
             ("rise then fall", ["up", "down"]), ("\u2191 \u2193", ["up", "down"]),
             ("ascending, descending", ["up", "down"]), ("up or down", None), ("arch", ["up", "down"]),
             ("up, down or down, up", None), ("higher, lower", ["up", "down"])]:
    add("contour", None, ("up", "down"), a, g, task="d3")
for a, g in [("3, 1, 2", [3, 1, 2]), ("third, first, second", [3, 1, 2]), ("3rd, 1st, 2nd", [3, 1, 2]),
             ("3 < 1 < 2", [3, 1, 2]), ("tone 3, tone 1, tone 2", [3, 1, 2]),
             ("3, 1, 2 or 1, 3, 2", None), ("3, 1", None)]:
    add("ranks", None, (3, 1, 2), a, g, task="d5")

# Choices
for a, g in [("minor", "minor"), ("Minor chord", "minor"), ("It's a minor chord", "minor"),
             ("Cm", "minor"), ("m", "minor"), ("min", "minor"), ("major or minor", None),
             ("minor, not diminished", "minor"), ("dom7", "dominant seventh"),
             ("half-diminished (m7b5)", "half-diminished"), ("sus4", "sus4"),
             ("diminished seventh", None)]:
    add("choice", None, (g or "minor",), a, g, options=tuple(QUALITIES), task="c3")
for a, g in [("first", "first"), ("the first tone", "first"), ("1st", "first"),
             ("first or second", None), ("Second", "second")]:
    add("choice", None, (g or "first",), a, g, options=("first", "second"), task="d2")
for a, g in [("C", "C"), ("(C)", "C"), ("Option C", "C"), ("C or D", None), ("c", "C")]:
    add("choice", "midi", (g or "C",), a, g, options=("A", "B", "C", "D", "E"), task="a1mcq")


def main() -> None:
    rows = []
    for number, (kind, notation, truth, options, task, answer, grader) in enumerate(CASES):
        names = list(STYLES)
        chosen = [names[(number + shift) % len(names)] for shift in (0, 3)]  # two per case
        for style in chosen:
            template = STYLES[style]
            if "\n" in answer and style not in BLOCK_STYLES:
                continue
            row = {"id": f"pitch-tpl-{number:03d}-{style}", "kind": kind, "task": task,
                   "notation": notation, "truth": list(truth), "options": list(options),
                   "reply": template.format(a=answer), "grader": grader}
            rows.append(row)
    OUT.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    print(len(rows), "rows")


if __name__ == "__main__":
    main()
