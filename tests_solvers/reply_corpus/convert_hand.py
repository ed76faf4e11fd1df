"""Turn a hand-written corpus text (entries opened by "@@ TASK GRADER [opts=N] [ids=a,b]") into
JSONL. Used once per batch while writing the corpus; the JSONL files are the corpus."""

from __future__ import annotations

import json
import sys

MCQ_OPTIONS = [
    {"A": "Four on the floor", "B": "Off-beat syncopation", "C": "Scat singing", "D": "A minor"},
    {"A": "Electric guitar", "B": "Acoustic piano", "C": "Tenor saxophone", "D": "Violin"},
    {"A": "Joyful and upbeat", "B": "Melancholic", "C": "Tense and suspenseful", "D": "Calm"},
    {"A": "E minor", "B": "G major", "C": "B flat major", "D": "D minor"},
    {"A": "Brass section", "B": "String quartet", "C": "Synthesizer pad", "D": "Choir"},
    {"A": "Scat singing over a jazz combo", "B": "Rap verse over a trap beat",
     "C": "Operatic aria", "D": "Gregorian chant"},
    {"A": "Reggae", "B": "Bossa nova", "C": "Heavy metal", "D": "Baroque", "E": "Techno"},
]


def convert(source: str, prefix: str) -> list[dict]:
    entries = []
    for number, block in enumerate(source.split("@@ ")[1:]):
        head, _, reply = block.partition("\n")
        words = head.split()
        task, grader = words[0], words[1]
        extra = dict(w.split("=", 1) for w in words[2:])
        item: dict = {"id": f"{prefix}-{number:04d}", "reply": reply.rstrip("\n")}
        if task == "mcq":
            item |= {"kind": "mcq", "task": "mcq", "options": MCQ_OPTIONS[int(extra["opts"])]}
            item["grader"] = None if grader == "null" else grader
        elif task.startswith("logiclm:"):
            item |= {"kind": "logiclm", "task": task.split(":")[1],
                     "ids": extra["ids"].split(",")}
            item["grader"] = None if grader == "null" else json.loads(grader)
        else:
            item |= {"kind": "yes_no" if task == "transposition" else "choice", "task": task}
            item["grader"] = None if grader == "null" else grader
        entries.append(item)
    return entries


if __name__ == "__main__":
    src, prefix, out = sys.argv[1:4]
    with open(src, encoding="utf-8") as handle:
        rows = convert(handle.read(), prefix)
    with open(out, "w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(out, len(rows))
