"""A generated replica of a MUSE checkout's file layout: tiny synthetic WAVs under the
relative names the published item lists use (nothing of MUSE's recordings is committed)."""

from __future__ import annotations

import wave
from pathlib import Path

import numpy as np

RATE_HZ = 8000


def write_replica(checkout: Path, leave_out: tuple[str, ...] = ()) -> Path:
    """A checkout folder with ``stimuli/`` holding one short distinct tone per file (each
    file's bytes differ, so a pair of two files is never one content hash)."""
    stimuli = checkout / "stimuli"
    from fixtures.published_muse.protocol import recordings

    for index, name in enumerate(recordings()):
        if name in leave_out:
            continue
        path = stimuli / name
        path.parent.mkdir(parents=True, exist_ok=True)
        seconds = np.arange(int(0.05 * RATE_HZ)) / RATE_HZ
        tone = 0.3 * np.sin(2 * np.pi * (200 + 7 * index) * seconds)
        with wave.open(str(path), "wb") as handle:
            handle.setnchannels(1)
            handle.setsampwidth(2)
            handle.setframerate(RATE_HZ)
            handle.writeframes((tone * 32767).astype("<i2").tobytes())
    return checkout
