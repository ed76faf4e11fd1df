"""Drum loops as a studio bounces them (issue 29): exactly four bars long, and sometimes
opening with a quiet hi-hat on the downbeat before the first kick on the off-beat."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import soundfile

from fixtures.backends.listener import drums

SAMPLE_RATE_HZ = 22_050
SLOT_S = 0.25  # an eighth note at 120 BPM


def _hit(kind: str, level_db: float, rng: np.random.Generator) -> np.ndarray:
    t = np.arange(round(0.2 * SAMPLE_RATE_HZ)) / SAMPLE_RATE_HZ
    if kind == "kick":
        sound = np.sin(2 * np.pi * (55 + 60 * np.exp(-t * 40)) * t) * np.exp(-t * 18)
    elif kind == "snare":
        sound = (0.6 * rng.standard_normal(t.size) + np.sin(2 * np.pi * 190 * t)) * np.exp(-t * 25)
    else:  # closed hi-hat: a short burst of high noise
        noise = np.diff(rng.standard_normal(t.size + 1)) * 0.5
        sound = noise * np.exp(-t * 90)
    return sound * 10 ** (level_db / 20)


def _loop(path: Path, kicks: set[int], snares: set[int], first_hat_db: float = -12.0) -> Path:
    """Four bars of eighths at 120 BPM, exactly 8.000 s: a hi-hat on every slot (the first at
    ``first_hat_db``), kicks and snares on their slots."""
    rng = np.random.default_rng(29)
    audio = np.zeros(round(32 * SLOT_S * SAMPLE_RATE_HZ))
    for slot in range(1, 33):
        parts = [("hat", first_hat_db if slot == 1 else -12.0)]
        parts += [("kick", 0.0)] * (slot in kicks) + [("snare", -3.0)] * (slot in snares)
        start = round((slot - 1) * SLOT_S * SAMPLE_RATE_HZ)
        for kind, level_db in parts:
            sound = _hit(kind, level_db, rng)[: audio.size - start]
            audio[start:start + sound.size] += sound
    soundfile.write(path, (0.5 * audio / np.abs(audio).max()).astype(np.float32), SAMPLE_RATE_HZ)
    return path


BAR_KICKS, BAR_SNARES = (2, 4, 6), (3, 7)  # a syncopated bar: kicks on off-beats 2, 4, 6


def _bars(slots: tuple[int, ...]) -> set[int]:
    return {bar * 8 + slot for bar in range(4) for slot in slots}


@pytest.mark.parametrize("first_hat_db", [-12.0, -40.0])
def test_an_exactly_four_bar_loop_is_heard_on_its_grid(tmp_path, first_hat_db) -> None:
    """8.000 s at 120 BPM is four bars (it was declined as too short), and a quiet hi-hat
    lead-in is slot 1 (the grid once started on the first kick, an off-beat)."""
    kicks, snares = _bars(BAR_KICKS), _bars(BAR_SNARES)
    path = _loop(tmp_path / "loop.wav", kicks, snares, first_hat_db)
    assert soundfile.info(path).duration == pytest.approx(8.0)
    assert drums.drum_slots(path, SLOT_S) == tuple(sorted(kicks | snares))
