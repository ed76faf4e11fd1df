"""Stand-in "real recordings": the core tasks played with settings the listener was never tuned
on, written as audio files with a stimuli manifest, to be run as a new user would:

    .venv/bin/python benchmarks/standin_recordings.py OUT_DIR [--seed N]
    .venv/bin/python -m pytest bench --ignore=bench/test_pitch --model listener \\
        --stimuli-manifest OUT_DIR/manifest.csv --shot zero --strategy standalone -n 2

What differs from ``--rendition live`` (which the listener was tuned on): the SoundFont
(FluidR3 Mono, never drawn by the live rendition), other instruments (bright and electric
grand piano, jazz and clean electric guitar; electronic and brush drum kits), a larger and
wetter room, 30-34 dB SNR, MP3 for half the files, chords and melodies 10-15 % slower or
faster, the whole instrument detuned by 4-12 cents as a real piano or guitar is, a drummer
1-2 BPM off the stated 120, and silence before the music. Chords are major and minor only,
each played on piano and on guitar, as the recordings of issue 16 were.
"""

from __future__ import annotations

import argparse
import csv
import random
import shutil
import sys
from dataclasses import replace
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

SOUNDFONT = "FluidR3Mono_GM.sf3"
PIANOS = (1, 2)  # bright acoustic, electric grand
GUITARS = (26, 27)  # jazz, clean electric
KITS = (24, 40)  # electronic, brush
LEAD_IN_BEATS = 1.0


def _performed(item, rng: random.Random, seed: int, guitar: bool | None = None):
    """The item through the live rendition, then moved off everything it was tuned on."""
    from fixtures.tasks.live import live_item
    from fixtures.tasks.spec import GM_PIANO

    for attempt in range(50):  # a chord on the asked instrument
        performed = live_item(item, seed * 1000 + attempt, (SOUNDFONT,), "standin")
        if guitar is None or (performed.clips[0].program != GM_PIANO) == guitar:
            break
    clips = []
    tempo_factor = rng.choice((0.86, 0.9, 1.1, 1.15))
    for clip in performed.clips:
        performance = replace(
            clip.performance,
            reverb_room_size=round(rng.uniform(0.6, 0.85), 3),
            reverb_wet=round(rng.uniform(0.25, 0.35), 3),
            noise_snr_db=round(rng.uniform(30.0, 34.0), 1),
            mp3_bitrate_kbps=rng.choice((0, 96)),
            detune_cents=round(rng.choice((-1, 1)) * rng.uniform(4.0, 12.0), 1),
            drum_kit=rng.choice(KITS),
            pedal_beats=tuple((a + LEAD_IN_BEATS, b + LEAD_IN_BEATS)
                              for a, b in clip.performance.pedal_beats),
        )
        notes = tuple(replace(n, start_beats=n.start_beats + LEAD_IN_BEATS) for n in clip.notes)
        if clip.is_drums:
            tempo_bpm = clip.tempo_bpm + rng.choice((-2.0, -1.0, 1.0, 2.0))
            program = clip.program
        else:
            tempo_bpm = round(clip.tempo_bpm * tempo_factor, 2)
            program = rng.choice(PIANOS if clip.program == GM_PIANO else GUITARS)
        clips.append(replace(clip, notes=notes, tempo_bpm=tempo_bpm, program=program,
                             performance=performance))
    return replace(performed, clips=tuple(clips))


def _row(item, names: list[str]) -> dict:
    params = item.params_dict()
    row = {"task": item.task, "item_id": item.item_id, "audio": names[0],
           "audio_2": names[1] if len(names) > 1 else ""}
    if item.task == "chord":
        row["quality"] = params["quality"]
        row["transcription"] = ", ".join(map(str, item.transcription[0]))
    elif item.task == "syncopation":
        row["offbeat_hits"] = params["level"]
        row["transcription"] = ", ".join(map(str, item.transcription[0]))
    else:
        row["same"] = "yes" if params["same"] else "no"
        row["transcription"] = " | ".join(", ".join(map(str, t)) for t in item.transcription)
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--seed", type=int, default=16)
    args = parser.parse_args()
    from fixtures.stimuli import wav_path
    from fixtures.tasks.catalog import items_for

    rng = random.Random(f"eartest:standin:{args.seed}")
    items = []
    for item in items_for("chord", "test"):
        if item.params_dict()["quality"] in ("major", "minor"):
            for guitar in (False, True):
                played = _performed(item, rng, args.seed, guitar)
                suffix = "gtr" if guitar else "pno"
                items.append(replace(played, item_id=f"{item.item_id}-{suffix}"))
    items += [_performed(i, rng, args.seed) for i in items_for("transposition", "test")]
    items += [_performed(i, rng, args.seed) for i in items_for("syncopation", "test")]
    audio_dir = args.out_dir / "audio"
    audio_dir.mkdir(parents=True, exist_ok=True)
    rows = []
    for item in items:
        names = []
        for clip in item.clips:
            name = f"audio/take-{clip.spec_hash()[:10]}.wav"
            shutil.copyfile(wav_path(clip), args.out_dir / name)
            names.append(name)
        rows.append(_row(item, names))
    columns = ["task", "item_id", "audio", "audio_2", "quality", "offbeat_hits", "same",
               "transcription"]
    with open(args.out_dir / "manifest.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns)
        writer.writeheader()
        writer.writerows(rows)
    print(f"{len(rows)} stand-in recordings and {args.out_dir / 'manifest.csv'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
