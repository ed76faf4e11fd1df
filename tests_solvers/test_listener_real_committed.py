"""The listener on small real recordings committed in tests_solvers/real_audio/ (free licences,
credited in its README), one per core task family and one for pitch naming (issue 29), and,
when EARTEST_REAL_AUDIO3 points to a folder holding ``manifest_tune.csv`` (the third pass's
material outside the repository, docs/listener.md), every recording of that manifest."""

from __future__ import annotations

import csv
import os
from pathlib import Path

import pytest

from fixtures.backends.base import Question
from fixtures.backends.listener import core, pitch
from fixtures.pitch.questions import reply_for
from fixtures.tasks.definitions import TASKS
from fixtures.tasks.manifest_labels import read_label

COMMITTED = Path(__file__).resolve().parent / "real_audio"
MATERIAL = Path(os.environ.get("EARTEST_REAL_AUDIO3", "/nonexistent"))
PROMPT = "Four bars of 4/4 at 120 BPM."  # the syncopation prompt's tempo, as the listener reads it


@pytest.fixture(autouse=True)
def private_cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("EARTEST_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


def _answer(task: str, paths: list[Path]) -> str | None:
    identifiers = ("first", "second") if task == "transposition" else ("clip",)
    reply = core.answer_core(Question(task, "standalone", "audio", identifiers), paths, PROMPT)
    return TASKS[task].extract_answer(reply)


def test_a_real_guitar_a_minor_strum_is_minor() -> None:
    """An open A minor strum whose lowest ringing string is not the root: heard on its own
    root by the whole clip's profile (listener-7 declined it)."""
    assert _answer("chord", [COMMITTED / "guitar_Am_chord.ogg"]) == "B"


def test_a_loop_of_real_drum_hits_opening_on_a_quiet_hat_is_counted() -> None:
    assert _answer("syncopation", [COMMITTED / "sonicpi_loop_4_offbeats.ogg"]) == "C"


def test_a_real_piano_melody_and_its_transposition_are_the_same() -> None:
    pair = [COMMITTED / "salamander_melody_1a.ogg", COMMITTED / "salamander_melody_1b.ogg"]
    assert _answer("transposition", pair) == "yes"


@pytest.mark.parametrize(("name", "midi"), [("E4", 64), ("B3", 59)])
def test_a_real_guitar_string_is_named(name: str, midi: int) -> None:
    """The B string's f0 track falls to the subharmonic B2 as the string decays (most of
    its frames), but the spectrum holds nothing at B2: it is B3 (listener-7 named B2)."""
    assert _named(COMMITTED / f"guitar_{name}_string.ogg") == reply_for("pitch", "midi", (midi,))


def _named(path: Path) -> str:
    question = Question(task="pitch_a1", strategy="standalone", modality="audio",
                        notation="midi", answer_kind="pitch")
    return pitch.answer_pitch(question, [path])


@pytest.mark.parametrize("sample_rate_hz", [16_000, 22_050, 48_000])
@pytest.mark.parametrize(("name", "midi"), [("E4", 64), ("B3", 59)])
def test_a_real_guitar_string_is_named_at_any_sample_rate(
    name: str, midi: int, sample_rate_hz: int, tmp_path: Path
) -> None:
    """The same strings resampled: at 16 and 22.05 kHz listener-8 named them two octaves low
    (E2, G1: YIN's deepest dip on a multiple of the period as the string decays)."""
    import librosa
    import soundfile

    audio, original_hz = soundfile.read(COMMITTED / f"guitar_{name}_string.ogg", dtype="float32")
    path = tmp_path / f"{name}_{sample_rate_hz}.wav"
    resampled = librosa.resample(audio, orig_sr=original_hz, target_sr=sample_rate_hz)
    soundfile.write(path, resampled, sample_rate_hz)
    assert _named(path) == reply_for("pitch", "midi", (midi,))


def test_a_real_guitar_note_over_its_own_lower_octave_is_named() -> None:
    """Another guitar's B3 at 22.05 kHz: most of its track sits on B2, where the recording
    holds a faint peak but none of B2's odd harmonics (listener-8 named it B2)."""
    assert _named(COMMITTED / "guitar_B3_note_22k.ogg") == reply_for("pitch", "midi", (59,))


@pytest.mark.skipif(not (MATERIAL / "manifest_tune.csv").is_file(),
                    reason="needs EARTEST_REAL_AUDIO3=<folder with manifest_tune.csv>, outside "
                           "the repository")
def test_the_tuned_real_recordings_are_heard_and_never_misheard() -> None:
    tally = {"right": 0, "wrong": 0, "declined": 0}
    with open(MATERIAL / "manifest_tune.csv", newline="") as handle:
        for row in csv.DictReader(handle):
            paths = [MATERIAL / row[c] for c in ("audio", "audio_2") if row.get(c)]
            answer = _answer(row["task"], paths)
            truth = read_label(row["task"], row)[0]
            tally["declined" if answer is None else "right" if answer == truth else "wrong"] += 1
    assert tally["wrong"] == 0 and tally["right"] >= 0.9 * sum(tally.values()), tally
