"""The MUSE items performed live (fixtures/muse/live.py): labels true, nuisances matched.

Pure checks on every item (ids, answers, timing, determinism, matched pairs, no metre
accent), then the rendered live audio heard again, independently of the listener, with the
core live checks (tests_solvers/test_live_labels.py: chroma per melody note, drum-band rises
at the labelled hits) and the studio MUSE checks that hold under a performance (kick energy
for metre, chromagram keys for modulation, constant-Q bass for chord sequences). By default
``SAMPLE_ITEMS`` items per task; ``EARTEST_MUSE_LABELS=all`` (``make labels``) every item:

    EARTEST_MUSE_LABELS=all python -m pytest tests_solvers/test_muse_live.py -n 2 -q
"""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest

import tests_solvers.test_muse_labels as studio_checks
from fixtures.muse.catalog import TASK_NAMES, items_for
from fixtures.muse.live import live_muse_item, performed
from fixtures.muse.trial import MuseTrial
from fixtures.tasks.live import DRIFT_S, GHOST_HAT_VELOCITY, JITTER_S, Rendition
from fixtures.tasks.spec import CLOSED_HIHAT_NOTE, KICK_NOTE, SNARE_NOTE, Clip, Item
from solvers.logic import count_offbeats
from tests_solvers import PYTEST
from tests_solvers.test_live_labels import (
    RISE_MARGIN_DB,
    assert_hits_stand_out,
    assert_melody_heard,
    band_rise_db,
)

REPO = Path(__file__).resolve().parent.parent
SEEDS = (0, 3)
MOST_OFF_S = JITTER_S + 2 * DRIFT_S + 0.010  # jitter, the drift's peak-to-peak, a chord's spread


def live(task: str, seed: int = 0, split: str | None = None) -> tuple[Item, ...]:
    return performed(task, split, Rendition("live", seed))


def slots(clip: Clip, drums: tuple[int, ...] = (KICK_NOTE, SNARE_NOTE)) -> tuple[int, ...]:
    return tuple(sorted(round(n.start_beats / 0.5) + 1 for n in clip.notes
                        if n.midi_note in drums))


def is_ghost(note) -> bool:
    """A ghost hi-hat the drummer added (quieter than any written hat, however varied)."""
    return note.midi_note == CLOSED_HIHAT_NOTE and note.velocity <= GHOST_HAT_VELOCITY[1]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("task", TASK_NAMES)
def test_live_items_keep_ids_answers_labels_and_transcriptions(task: str, seed: int) -> None:
    studio, performed_items = items_for(task), live(task, seed)
    assert [i.item_id for i in performed_items] == [i.item_id for i in studio]
    for before, after in zip(studio, performed_items, strict=True):
        assert (after.answer, after.label, after.transcription, after.split) == (
            before.answer, before.label, before.transcription, before.split)
        assert after.rendition == ("live" if seed == 0 else f"live-s{seed}")
        assert [c.program for c in after.clips] == [c.program for c in before.clips]
        rooms = {replace(c.performance, drum_kit=0, pedal_beats=()) for c in after.clips}
        assert len(rooms) == 1, "one room per item, for both clips of a pair"
        assert len({c.performance.drum_kit for c in after.clips}) == 1


@pytest.mark.parametrize("task", TASK_NAMES)
def test_timing_is_human_but_close(task: str) -> None:
    offsets_s = []
    for before, after in zip(items_for(task), live(task), strict=True):
        for studio_clip, live_clip in zip(before.clips, after.clips, strict=True):
            spb = studio_clip.seconds_per_beat
            written = sorted((n.midi_note, n.start_beats) for n in studio_clip.notes)
            played = sorted((n.midi_note, n.start_beats) for n in live_clip.notes
                            if not is_ghost(n))
            # the notes of one pitch keep their order, so pair them pitch by pitch
            offsets_s += [abs(a[1] - b[1]) * spb
                          for a, b in zip(written, played, strict=True)]
    assert max(offsets_s) <= MOST_OFF_S
    assert sum(o > 0.002 for o in offsets_s) > 0.8 * len(offsets_s), "still on the grid"


def test_performances_are_deterministic_and_seeded() -> None:
    item = items_for("muse_modulation")[0]
    assert live_muse_item(item, 0) == live_muse_item(item, 0) == live("muse_modulation")[0]
    assert live_muse_item(item, 1).clips != live_muse_item(item, 0).clips
    with pytest.raises(ValueError, match="no live rendition"):
        live_muse_item(replace(item, task="chord"), 0)


def test_rhythm_match_same_pairs_share_one_onset_grid_and_kit() -> None:
    for item in live("muse_rhythm_match"):
        grids = [slots(c) for c in item.clips]
        assert grids == list(item.transcription)
        assert (grids[0] == grids[1]) == (item.answer == "yes")
        assert all(len(c.notes) == len(s) for c, s in zip(item.clips, grids, strict=True)), \
            "no ghost notes"


def test_syncopation_off_beat_counts_are_the_written_ones() -> None:
    for before, after in zip(items_for("muse_sync_compare"), live("muse_sync_compare"),
                             strict=True):
        for studio_clip, live_clip in zip(before.clips, after.clips, strict=True):
            assert count_offbeats(slots(live_clip)) == count_offbeats(slots(studio_clip))


def test_meter_clips_get_no_beat_accent_but_syncopation_loops_do() -> None:
    def ratios(task: str) -> list[float]:
        out = []
        for before, after in zip(items_for(task), live(task), strict=True):
            for studio_clip, live_clip in zip(before.clips, after.clips, strict=True):
                written = sorted((n.midi_note, n.start_beats, n.velocity)
                                 for n in studio_clip.notes)
                played = sorted((n.midi_note, n.start_beats, n.velocity) for n in live_clip.notes
                                if not is_ghost(n))
                out += [p[2] / w[2] for w, p in zip(written, played, strict=True)
                        if p[2] < 127 and w[1] % 1 == 0]  # on the beat, below the ceiling
        return out

    meter = ratios("muse_meter")
    assert 0.87 <= min(meter) and max(meter) <= 1.13, "only the ±12 % velocity spread"
    assert max(ratios("muse_sync_compare")) > 1.15, "the core drummer's accents, for contrast"


def sample(task: str) -> list:
    items = list(live(task))
    if os.environ.get("EARTEST_MUSE_LABELS", "").lower() != "all":
        items = items[:studio_checks.SAMPLE_ITEMS]
    return [pytest.param(item, id=item.item_id) for item in items]


@pytest.mark.parametrize("item", sample("muse_melody_shape") + sample("muse_oddball")
                         + sample("muse_instrument"))
def test_live_melodies_sound_their_notes(item: Item) -> None:
    (clip,) = item.clips
    label = item.params_dict().get("pitches") or item.transcription[-1]
    assert_melody_heard(clip, tuple(label))


@pytest.mark.parametrize("item", sample("muse_rhythm_match") + sample("muse_sync_compare")
                         + sample("muse_meter"))
def test_live_drum_hits_are_where_the_label_says(item: Item) -> None:
    for clip in item.clips:
        heard = slots(clip)
        empty = [(s - 1) * 0.5 * clip.seconds_per_beat for s in range(1, max(heard) + 1)
                 if s not in heard and not any(round(n.start_beats / 0.5) + 1 == s
                                               for n in clip.notes)]
        assert_hits_stand_out(clip, empty)
    if item.task == "muse_meter":  # the kicks (the downbeats) are what boom below 90 Hz
        (clip,) = item.clips
        rise_db = band_rise_db(clip, studio_checks.KICK_BAND_HZ)
        spb = clip.seconds_per_beat
        kicks = [rise_db(n.start_beats * spb) for n in clip.notes if n.midi_note == KICK_NOTE]
        snares = [rise_db(n.start_beats * spb) for n in clip.notes if n.midi_note == SNARE_NOTE]
        assert min(kicks) > max(snares) + RISE_MARGIN_DB, f"kicks {kicks}, snares {snares}"
        assert slots(clip, (KICK_NOTE,)) == item.transcription[0]


@pytest.mark.parametrize("item", sample("muse_modulation"))
def test_live_modulation_is_heard_as_labelled(item: Item) -> None:
    studio_checks.test_modulation_is_heard_as_labelled(item)


@pytest.mark.parametrize("item", sample("muse_chord_sequence"))
def test_live_chord_sequence_is_heard_as_labelled(item: Item) -> None:
    studio_checks.test_chord_sequence_is_heard_as_labelled(item)


def test_the_option_runs_muse_live_and_refuses_score(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    done = subprocess.run(
        [*PYTEST, "bench/test_muse.py", "--muse", "meter,oddball", "--rendition", "live",
         "--model", "oracle", "--modality", "audio,midi", "--shot", "zero,few", "--strategy",
         "standalone,logiclm", "-q", "-n", "0", "-p", "no:cacheprovider",
         "--run-dir", str(run_dir)], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    records = [json.loads(line) for line in (run_dir / "trials.jsonl").read_text().splitlines()]
    assert len(records) == 2 * 24 * 2 * 2 * 2 and all(r["correct"] for r in records)
    assert all(r["trial_id"].endswith("/live") and r["test_id"].endswith("-live")
               and r["rendition"] == "live" for r in records)
    header = json.loads((run_dir / "summary.json").read_text())["header"]
    assert header["options"]["muse_rendition"]["name"] == "live"
    refused = subprocess.run(
        [*PYTEST, "bench/test_muse.py", "--muse", "meter", "--rendition", "live",
         "--model", "oracle", "--modality", "score", "-q", "-n", "0", "-p", "no:cacheprovider",
         "--run-dir", str(tmp_path / "refused")], cwd=REPO, capture_output=True, text=True,
        timeout=120)
    assert refused.returncode == 4 and "no score images" in refused.stdout + refused.stderr


def test_muse_trial_ids_carry_the_rendition() -> None:
    item = live("muse_meter")[0]
    trial = MuseTrial("oracle", "audio", "zero", "standalone", item)
    assert trial.trial_id.endswith(f"/{item.item_id}/live")
    assert trial.test_id.endswith(f"-{item.item_id}-live")
    studio = MuseTrial("oracle", "audio", "zero", "standalone", items_for("muse_meter")[0])
    assert not studio.trial_id.endswith("live")
