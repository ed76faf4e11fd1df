"""The built-in listener on real recordings: MUSE's own stimuli (a human musician's piano,
guitar and drum recordings; not in this repository: "all rights reserved, research use").

    .venv/bin/python benchmarks/listener_real.py /path/to/muse_checkout --split held

Answer keys come from the file names, as MUSE's own runners read them (``Amajor_Guitar_120``:
a major chord; ``Sync2_B``: a loop of MUSE's syncopation level 2; ``M4_EMaj_130`` and
``M4_AMaj_130``: the same melody transposed; ``M4_Odd_EMaj_130``: the oddball version).
``--split tune`` is what listener-5 and -6 were tuned on; ``held`` was measured once, at the end
(docs/listener.md). Prints each task's right / wrong / declined counts.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

HELD_CHORD_ROOTS = ("F", "G")  # Fmajor, Gbminor, Gmajor... (the rest are tuned on)
HELD_LOOP_VARIANTS = ("D", "E")  # NoSync_D, Sync3_E... (A, B, C are tuned on)
HELD_MELODIES = ("M4", "M5", "M7", "M11", "M12")  # pairs of these only; oddballs of M7-M12
HELD_ODDBALL_FROM = 7
# Off-beat kick/snare hits of each 4-bar loop by MUSE's syncopation level, and 8 for Sync3_A:
# the key issue 29's measurement used (listener-4 counted 19 of the 22 loops so once padded
# with silence; the other three are the loops with a quiet hi-hat lead-in, heard one slot off)
SHAPE_TAGS = (("_InvArch", "inverted arch"), ("_Arch", "arch"), ("_Asc", "ascending"),
              ("_Desc", "descending"))  # file-name tag -> contour, first match wins
OFFBEATS = {"NoSync": 0, "Sync1": 2, "Sync2": 4, "Sync3": 6, "Sync4": 8}


def chords(root: Path, held: bool) -> Counter:
    from fixtures.backends.listener import chord_profile, ears, hearing
    from fixtures.tasks.definitions import TASKS

    tally: Counter = Counter()
    for path in sorted((root / "stimuli").glob("*[mn][ai][jn]or_*_12?.wav")):
        if path.name.startswith(HELD_CHORD_ROOTS) != held:
            continue
        truth = "A" if "major" in path.name else "B"
        try:
            answer = TASKS["chord"].solve((chord_profile.chord_pitches(
                hearing.transcribe_notes(path)),))
        except ears.Unheard:
            answer = None
        tally[_outcome(answer, truth)] += 1
    return tally


def loops(root: Path, held: bool) -> Counter:
    from fixtures.backends.listener import drums
    from solvers.logic import count_offbeats

    tally: Counter = Counter()
    for path in sorted((root / "stimuli" / "Intermediate").glob("*Sync*_?.wav")):
        level, variant = path.stem.rsplit("_", 1)
        if (variant in HELD_LOOP_VARIANTS) != held:
            continue
        try:
            answer = count_offbeats(drums.drum_slots(path, 0.25))
        except drums.NoGrid:
            answer = None
        truth = 8 if path.stem == "Sync3_A" else OFFBEATS[level]
        tally[_outcome(answer, truth)] += 1
    return tally


def melody_pairs(root: Path, held: bool) -> Counter:
    from fixtures.backends.listener import core
    from solvers.logic import transposition_answer

    melodies = {}
    for path in sorted((root / "stimuli").glob("M*_*.wav")):
        number = path.stem.split("_")[0]
        if "_Odd_" in path.name or (number in HELD_MELODIES) != held:
            continue
        try:
            melodies[path.stem] = core._heard_melody(str(path), core._sha(path))
        except core.CannotHear:
            melodies[path.stem] = ()
    tally: Counter = Counter()
    for first, second in combinations(sorted(melodies), 2):
        truth = "yes" if first.split("_")[0] == second.split("_")[0] else "no"
        try:
            answer = transposition_answer(*core._compared_melodies(
                (melodies[first], melodies[second])))
        except core.CannotHear:
            answer = None
        tally[_outcome(answer, truth)] += 1
    return tally


def oddballs(root: Path, held: bool) -> Counter:
    from fixtures.backends.listener import core
    from fixtures.muse.heard_key import faint_pitches, heard_oddball_tonic
    from solvers.muse import oddball_answer

    tally: Counter = Counter()
    for path in sorted((root / "stimuli").glob("M*_*.wav")):
        if (int(re.match(r"M(\d+)", path.stem)[1]) >= HELD_ODDBALL_FROM) != held:
            continue
        try:
            pitches = core._heard_melody(str(path), core._sha(path))
            tonic = heard_oddball_tonic(pitches, faint_pitches(path, pitches))
            answer = oddball_answer(tonic, pitches)
        except core.CannotHear:
            answer = None
        tally[_outcome(answer, "yes" if "_Odd_" in path.name else "no")] += 1
    return tally


def contours(root: Path, held: bool) -> Counter:
    """MUSE's melody-shape recordings (``*_Arp_Asc*``, ``*_Scale_InvArch*``...): listener-6
    looked at all 24, so there is no held-out part."""
    from fixtures.backends.listener import core
    from fixtures.muse.listening import without_octave_spikes
    from solvers.muse import contour

    tally: Counter = Counter()
    for path in [] if held else sorted((root / "stimuli").glob("*_*_*.wav")):
        shape = next((name for tag, name in SHAPE_TAGS if tag in path.stem), None)
        if shape is None:
            continue
        try:
            heard = contour(without_octave_spikes(core._heard_melody(str(path), core._sha(path))))
        except core.CannotHear:
            heard = None
        tally[_outcome(heard, shape)] += 1
    return tally


def _outcome(answer: object, truth: object) -> str:
    return "declined" if answer is None else "right" if answer == truth else "wrong"


TASKS = {"chord": chords, "syncopation": loops, "transposition": melody_pairs,
         "oddball": oddballs, "contour": contours}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("muse_checkout", type=Path)
    parser.add_argument("--split", choices=("tune", "held"), required=True)
    parser.add_argument("--task", choices=tuple(TASKS), action="append")
    args = parser.parse_args()
    for task in args.task or TASKS:
        tally = TASKS[task](args.muse_checkout, args.split == "held")
        total = sum(tally.values())
        print(f"{task:14s} right {tally['right']:3d}  wrong {tally['wrong']:3d}  "
              f"declined {tally['declined']:3d}  of {total:3d}  "
              f"({100 * tally['right'] / max(total, 1):.1f} %)")


if __name__ == "__main__":
    main()
