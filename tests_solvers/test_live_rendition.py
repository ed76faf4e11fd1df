"""The live rendition: the same items performed, labels true by construction, studio untouched.

Studio must stay byte for byte what it was (ids, spec hashes, so caches and baselines); live
items must keep their answers while their notes, voicings and timing are a player's.
"""

from __future__ import annotations

from dataclasses import replace

import pandas as pd
import pytest

from fixtures.running.record_fields import trial_fields
from fixtures.running.runner import Trial
from fixtures.stimuli.live import render_live_wav
from fixtures.tasks.catalog import TASK_NAMES, items_for
from fixtures.tasks.family import CoreSelection
from fixtures.tasks.live import (
    JITTER_S,
    LIVE_SOUNDFONTS,
    STRUM_S,
    STUDIO,
    Rendition,
    _guitar_voicing,
    live_item,
)
from fixtures.tasks.spec import GM_PIANO
from reports.tables.accuracy import cell_summary
from solvers.logic import chord_answer, syncopation_answer, transposition_answer

SEEDS = (0, 1, 7)
DRIFT_BOUND_S = 0.060  # twice the drift's peak: it is measured from the clip's start
# spec hashes of studio clips at the commit before the live rendition existed
STUDIO_HASHES = {
    ("syncopation", 0): "8b58f4cad5fd8091c382d3ac1ef987f33993ff7ddba89b76b94efd3ca5dbf145",
    ("transposition", 0): "cc129c3c1f74fb9ec16ed7c3e9329a3d7dc9dcc3654ae2e35a2e1b8acfaba2c4",
}


def live(task: str, seed: int = 0) -> tuple:
    return Rendition("live", seed).items(task, "test")


def test_studio_is_what_it_always_was() -> None:
    for task in TASK_NAMES:
        assert STUDIO.items(task, "test") == items_for(task, "test")
        assert all(item.rendition == "studio" for item in items_for(task))
        assert all(c.performance is None and "performance" not in c.canonical()
                   for item in items_for(task) for c in item.clips)
    for (task, index), digest in STUDIO_HASHES.items():
        assert items_for(task)[index].clips[0].spec_hash() == digest
    trial = Trial("listener", "audio", "zero", "logiclm", items_for("chord", "test")[0])
    assert trial.trial_id == "chord/audio/zero/logiclm/chord1"
    assert trial.test_id == "listener-audio-zero-logiclm-chord1"
    assert "rendition" not in trial_fields(trial, "listener-2")


def test_live_is_an_axis_of_trial_ids_and_records() -> None:
    item = live("chord")[0]
    trial = Trial("listener", "audio", "zero", "logiclm", item)
    assert trial.trial_id == "chord/audio/zero/logiclm/chord1/live"
    assert trial.test_id == "listener-audio-zero-logiclm-chord1-live"
    assert trial_fields(trial, "listener-2")["rendition"] == "live"
    assert Rendition("live", 3).tag == "live-s3"
    assert Rendition("live", 0, ("TimGM6mb.sf2",)).tag == "live-TimGM6mb"
    selection = CoreSelection(("audio",), rendition=Rendition("live", 0))
    assert selection.core_items("syncopation") == live("syncopation")


def test_tables_keep_renditions_apart() -> None:
    rows = [{"model": "m", "task": "chord", "modality": "audio", "shot": "zero",
             "strategy": "standalone", "trial_id": f"t{i}", "truth": "A", "parsed_answer": "A",
             "correct": i < 2, "error_class": None, "rendition": r}
            for i, r in enumerate((None, "live", "live"))]
    summary = cell_summary(pd.DataFrame(rows))
    tasks = sorted(summary.index.get_level_values("task"))
    assert tasks == ["chord", "chord@live"]
    assert summary.loc[("m", "chord@live", "audio", "zero", "standalone"), "n"] == 2


@pytest.mark.parametrize("seed", SEEDS)
def test_live_items_keep_ids_answers_and_labels(seed: int) -> None:
    for task in TASK_NAMES:
        studio = items_for(task, "test")
        performed = live(task, seed)
        assert [i.item_id for i in performed] == [i.item_id for i in studio]
        for before, after in zip(studio, performed, strict=True):
            assert (after.answer, after.label) == (before.answer, before.label)
            assert after.rendition == Rendition("live", seed).tag
            solve = {"chord": lambda t: chord_answer(t[0]),
                     "syncopation": lambda t: syncopation_answer(t[0]),
                     "transposition": lambda t: transposition_answer(*t)}[task]
            assert solve(after.transcription) == after.answer
            assert all(c.performance.soundfont in LIVE_SOUNDFONTS for c in after.clips)
            assert all(1 <= n.velocity <= 127 and n.start_beats >= 0
                       for c in after.clips for n in c.notes)


@pytest.mark.parametrize("seed", SEEDS)
def test_guitar_chords_are_voiced_with_the_root_in_the_bass_and_strummed(seed: int) -> None:
    guitar = [i for i in live("chord", seed) if i.clips[0].program != GM_PIANO]
    assert guitar, "some chords are played on guitar"
    for item in guitar:
        (clip,) = item.clips
        (voicing,) = item.transcription
        assert 5 <= len(voicing) <= 6 and list(voicing) == sorted(voicing)
        assert len({p % 12 for p in voicing}) < len(voicing), "a grip doubles chord tones"
        strum = sorted((n for n in clip.notes if n.midi_note in voicing
                        and n.start_beats < 1.0), key=lambda n: n.start_beats)
        assert [n.midi_note for n in strum] == list(voicing), "strummed low to high"
        span_s = (strum[-1].start_beats - strum[0].start_beats) * clip.seconds_per_beat
        assert STRUM_S[0] - 1e-3 <= span_s <= STRUM_S[1] + 1e-3


def test_every_grip_of_every_chord_keeps_its_label() -> None:
    import random

    for item in items_for("chord"):
        quality = item.params_dict()["quality"]
        root = item.transcription[0][0]
        grips = {_guitar_voicing(random.Random(k), root, quality) for k in range(40)}
        assert grips, f"{item.label}: no grip"
        for grip in grips:
            assert chord_answer(grip) == item.answer, f"{item.label}: grip {grip}"
            assert min(grip) % 12 == root % 12 and 5 <= len(grip) <= 6


@pytest.mark.parametrize("task", ("transposition", "syncopation"))
def test_timing_is_human_but_close(task: str) -> None:
    moved = []
    for before, after in zip(items_for(task, "test"), live(task, 1), strict=True):
        for studio_clip, live_clip in zip(before.clips, after.clips, strict=True):
            spb = studio_clip.seconds_per_beat
            played = sorted(n.start_beats for n in live_clip.notes
                            if task == "transposition" or n.velocity > 40)
            written = sorted(n.start_beats for n in studio_clip.notes)
            offsets_s = [abs(a - b) * spb for a, b in zip(played, written, strict=False)]
            if task == "transposition":
                assert max(offsets_s) <= JITTER_S + DRIFT_BOUND_S
            moved += offsets_s
    assert sum(o > 0.002 for o in moved) > 0.8 * len(moved), "onsets are not on the grid"


def test_a_share_of_items_is_mp3_coded_and_renders_are_deterministic() -> None:
    items = [i for task in TASK_NAMES for i in live(task)]
    coded = sum(bool(i.clips[0].performance.mp3_bitrate_kbps) for i in items)
    assert 0.15 * len(items) <= coded <= 0.6 * len(items)
    clip = next(i.clips[0] for i in items if i.clips[0].performance.mp3_bitrate_kbps)
    assert render_live_wav(clip, 22050) == render_live_wav(clip, 22050)


def test_an_unknown_task_has_no_live_rendition() -> None:
    item = items_for("chord", "test")[0]
    with pytest.raises(ValueError, match="no live rendition"):
        live_item(replace(item, task="pitch_a1"), 0)


def test_the_option_selects_live_trials_and_rejects_what_it_cannot_do(tmp_path) -> None:
    from tests_solvers.test_bench_plugin import run_bench

    collected = run_bench("--collect-only", "--model", "oracle", "--rendition", "live",
                          "--shot", "zero", "--strategy", "standalone", "--modality", "audio")
    ids = [line for line in collected.stdout.splitlines() if "::" in line]
    assert collected.returncode == 0 and len(ids) == 84, collected.stdout[-500:]
    assert all(line.endswith("-live]") for line in ids)
    for args, message in ((("--modality", "score"), "no score images"),
                          (("--live-soundfonts", "Nope.sf2"), "Nope.sf2")):
        refused = run_bench("--model", "oracle", "--rendition", "live", *args)
        assert refused.returncode == 4 and message in refused.stderr + refused.stdout
