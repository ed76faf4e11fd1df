"""The pitch catalog: sizes, stable ids and stratified sampling. (Stimuli in range and labels
read back from the tones: test_pitch_catalog_tones.py.)
"""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fixtures.pitch.catalog import (
    EXPERIMENTS,
    LEVEL_OF,
    PLANS,
    TITLE_OF,
    all_pitch_items,
    condition_grid,
    pitch_items,
)
from fixtures.pitch.sampling import sample
from fixtures.pitch.spec import PitchItem

ROOT = Path(__file__).resolve().parents[1]


# --- catalog shape -------------------------------------------------------------------------


def test_experiment_ids_levels_and_titles():
    assert len(EXPERIMENTS) == 30 and len(set(EXPERIMENTS)) == 30
    assert "a1mcq" in EXPERIMENTS and {"d7a", "d7b"} <= set(EXPERIMENTS)
    assert {LEVEL_OF[e] for e in EXPERIMENTS} == set("abcdef")
    assert all(LEVEL_OF[e] == e[0] and TITLE_OF[e] for e in EXPERIMENTS)


@pytest.mark.parametrize("experiment", EXPERIMENTS)
def test_default_sample_size(experiment):
    size = len(pitch_items(experiment))
    if experiment == "a1":
        assert size == 61 * 19 == 1159
    else:
        assert 120 <= size <= 240, size


def test_unknown_experiment_names_the_valid_ones():
    with pytest.raises(KeyError, match="valid: a1, a1mcq"):
        pitch_items("z9")


def test_item_ids_unique_readable_and_prefixed():
    items = all_pitch_items()
    ids = [i.item_id for i in items]
    assert len(ids) == len(set(ids))
    for entry in items:
        assert entry.item_id.startswith(entry.experiment + "-")
        assert entry.item_id.isascii() and " " not in entry.item_id and "/" not in entry.item_id


# First ids of every default sample: ids key caches and baselines, so a change must be deliberate.
FIRST_IDS = {
    "a1": ["a1-sine-m29", "a1-sine-m30", "a1-sine-m31", "a1-sine-m32", "a1-sine-m33"],
    "a1mcq": [
        "a1mcq-sine-m29-s4",
        "a1mcq-sine-m30-s6",
        "a1mcq-sine-m32-s6",
        "a1mcq-sine-m47-s2",
        "a1mcq-sine-m65-s2",
    ],
    "a2": [
        "a2-sine-m30-db-3",
        "a2-sine-m36-db-20",
        "a2-sine-m43-db-30",
        "a2-sine-m54-db+6",
        "a2-sine-m60-db+6",
    ],
    "a3": [
        "a3-sine-d15000-m30",
        "a3-sine-d50-m43",
        "a3-sine-d1000-m54",
        "a3-sine-d1000-m64",
        "a3-sine-d250-m69",
    ],
    "b1": [
        "b1-sine-p2000-m88",
        "b1-sine-p7000-m88",
        "b1-sine-p22000-m36",
        "b1-sine-p22000-m48",
        "b1-sine-p22000-m69",
    ],
    "b2": ["b2-n5-t1-r0", "b2-n5-t1-r1", "b2-n5-t1-r2", "b2-n5-t1-r3", "b2-n5-t1-r4"],
    "b3": [
        "b3-p2000-d1000-m30",
        "b3-p2000-d1000-m36",
        "b3-p2000-d1000-m43",
        "b3-p2000-d1000-m48",
        "b3-p2000-d1000-m54",
    ],
    "b4": [
        "b4-first-x5-d1000-r0",
        "b4-first-x5-d1000-r1",
        "b4-first-x5-d1000-r2",
        "b4-first-x5-d1000-r3",
        "b4-first-x5-d1000-r4",
    ],
    "b5": [
        "b5-regular-n3-d1000-r0",
        "b5-regular-n3-d1000-r1",
        "b5-regular-n3-d1000-r2",
        "b5-regular-n3-d1000-r3",
        "b5-regular-n3-d1000-r4",
    ],
    "c1": [
        "c1-major-m40-same",
        "c1-major-m45-same",
        "c1-major-m45-mixed",
        "c1-major-m51-same",
        "c1-major-m51-mixed",
    ],
    "c2": [
        "c2-i1-m29-d1000-mixed",
        "c2-i1-m29-d5000-mixed",
        "c2-i1-m34-d1000-same",
        "c2-i1-m34-d5000-same",
        "c2-i1-m34-d1000-mixed",
    ],
    "c3": [
        "c3-major-m29-same",
        "c3-major-m29-mixed",
        "c3-major-m34-same",
        "c3-major-m34-mixed",
        "c3-major-m40-same",
    ],
    "c4": ["c4-dyad0-m29", "c4-dyad0-m34", "c4-dyad0-m40", "c4-dyad0-m45", "c4-dyad0-m50"],
    "d1": [
        "d1-n1-regular-d500-r0",
        "d1-n1-regular-d500-r1",
        "d1-n1-regular-d500-r2",
        "d1-n1-regular-d500-r3",
        "d1-n1-regular-d500-r4",
    ],
    "d2": [
        "d2-c1-g200-a3-first",
        "d2-c1-g200-a3-second",
        "d2-c1-g200-a4-first",
        "d2-c1-g200-a4-second",
        "d2-c1-g200-a5-first",
    ],
    "d3": [
        "d3-t2-s1-d250-r0",
        "d3-t2-s1-d250-r1",
        "d3-t2-s1-d250-r2",
        "d3-t2-s1-d500-r0",
        "d3-t2-s1-d500-r1",
    ],
    "d4": [
        "d4-rising-i1-m30",
        "d4-rising-i1-m36",
        "d4-rising-i1-m43",
        "d4-rising-i1-m48",
        "d4-rising-i1-m54",
    ],
    "d5": [
        "d5-n3-c25-regular-a3",
        "d5-n3-c25-regular-a4",
        "d5-n3-c25-regular-a5",
        "d5-n3-c25-irregular-a3",
        "d5-n3-c25-irregular-a4",
    ],
    "d6": [
        "d6-i-12-m41-g1000-d1000",
        "d6-i-12-m45-g1000-d500",
        "d6-i-12-m49-g2000-d500",
        "d6-i-12-m53-g200-d1000",
        "d6-i-12-m57-g200-d500",
    ],
    "d7a": [
        "d7a-square-m43-i-12",
        "d7a-electric_piano-m43-i-12",
        "d7a-voice-m43-i-7",
        "d7a-clarinet-m43-i-7",
        "d7a-guitar-m43-i-5",
    ],
    "d7b": [
        "d7b-square-m43-i-12",
        "d7b-electric_piano-m43-i-12",
        "d7b-voice-m43-i-7",
        "d7b-clarinet-m43-i-7",
        "d7b-guitar-m43-i-5",
    ],
    "d8": [
        "d8-sine-n3-r0",
        "d8-sine-n3-r1",
        "d8-sine-n3-r2",
        "d8-sawtooth-n3-r0",
        "d8-sawtooth-n3-r1",
    ],
    "e1": [
        "e1-square-highpass-m30",
        "e1-triangle-highpass-m30",
        "e1-cello-highpass-m30",
        "e1-synth_pad-highpass-m30",
        "e1-square-highpass-m36",
    ],
    "e2": [
        "e2-piano-white-noise-snr+10-m36",
        "e2-flute-white-noise-snr+10-m43",
        "e2-synth_lead-white-noise-snr+10-m43",
        "e2-piano-white-noise-snr+10-m48",
        "e2-flute-white-noise-snr+10-m48",
    ],
    "e3": [
        "e3-sine-drive6-m30",
        "e3-sawtooth-drive6-m30",
        "e3-electric_piano-drive6-m30",
        "e3-flute-drive6-m30",
        "e3-sine-drive6-m36",
    ],
    "e4": [
        "e4-sine-resample-x0.5-m41",
        "e4-triangle-resample-x0.5-m41",
        "e4-piano-resample-x0.5-m41",
        "e4-synth_lead-resample-x0.5-m41",
        "e4-sawtooth-resample-x0.5-m46",
    ],
    "e5": [
        "e5-trombone-v3hz-25c-m31",
        "e5-clarinet-v3hz-25c-m37",
        "e5-triangle-v3hz-25c-m43",
        "e5-oboe-v3hz-25c-m50",
        "e5-flute-v3hz-25c-m56",
    ],
    "e6": [
        "e6-voice-m30-c-22.5",
        "e6-voice-m30-c0",
        "e6-sine-m30-c-22.5",
        "e6-sine-m30-c0",
        "e6-oboe-m30-c-22.5",
    ],
    "f1": [
        "f1-v2-lowest-same-slow-r0",
        "f1-v2-highest-same-slow-r0",
        "f1-v2-lowest-same-slow-r1",
        "f1-v2-highest-same-slow-r1",
        "f1-v2-lowest-same-slow-r2",
    ],
    "f2": [
        "f2-bwv66.6-soprano-same-r0",
        "f2-bwv66.6-soprano-same-r1",
        "f2-bwv66.6-soprano-same-r2",
        "f2-bwv66.6-soprano-mixed-r0",
        "f2-bwv66.6-soprano-mixed-r1",
    ],
}


def test_first_ids_are_stable():
    assert {e: [i.item_id for i in pitch_items(e)[:5]] for e in EXPERIMENTS} == FIRST_IDS


@pytest.mark.parametrize("experiment", EXPERIMENTS)
def test_grids_are_deterministic(experiment):
    assert tuple(PLANS[experiment].build()) == condition_grid(experiment)


def test_whole_catalog_builds_in_a_fresh_process_without_music21():
    """Collection builds the catalog: it must not need music21 (its time is a benchmark's
    business, ``benchmarks/pitch_render_speed.py``: a timed assert failed under load)."""
    code = (
        "import sys; "
        "from fixtures.pitch.catalog import all_pitch_items; n = len(all_pitch_items()); "
        "print(n, 'music21' in sys.modules)"
    )
    count, music21_loaded = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    assert int(count) == sum(len(pitch_items(e)) for e in EXPERIMENTS)
    assert music21_loaded == "False"


# --- sampling ------------------------------------------------------------------------------


@given(
    strata=st.lists(st.integers(0, 6), min_size=1, max_size=120),
    fraction=st.floats(0.0, 1.0),
)
@settings(max_examples=200, deadline=None)
def test_sample_is_an_even_ordered_subset(strata, fraction):
    items = list(enumerate(strata))
    size = round(fraction * len(items))
    chosen = sample(items, size, strata_key=lambda entry: entry[1])
    assert len(chosen) == size
    assert chosen == sorted(chosen) and set(chosen) <= set(items)
    taken, available = Counter(s for _, s in chosen), Counter(strata)
    # a stratum below the top count is below it only because it ran out of items
    top = max(taken.values(), default=0)
    for stratum, count in available.items():
        assert taken[stratum] >= min(count, top - 1)
    assert sample(items, size, strata_key=lambda entry: entry[1]) == chosen


def test_sample_keeps_groups_whole():
    items = [(pair, member, pair % 3) for pair in range(30) for member in (0, 1)]
    chosen = sample(items, 20, strata_key=lambda e: e[2], group_key=lambda e: e[0])
    assert len(chosen) == 20
    assert all(Counter(e[0] for e in chosen)[e[0]] == 2 for e in chosen)
    per_stratum = Counter(e[2] for e in chosen).values()
    assert max(per_stratum) - min(per_stratum) <= 2  # one pair apart at most


@pytest.mark.parametrize("experiment", ["a1", "a2", "d2", "e2", "e6", "f2"])
def test_subsample_is_a_stratified_subset_of_the_default(experiment):
    default = pitch_items(experiment)
    small = pitch_items(experiment, sample=40)
    assert abs(len(small) - 40) <= 1 and set(small) <= set(default)
    assert pitch_items(experiment, sample=40) is small
    strata = PLANS[experiment].strata
    counts = Counter(tuple(i.params_dict()[k] for k in strata) for i in small)
    if len(counts) > 1 and PLANS[experiment].group is None:
        # 40 items over the strata: as even as the strata allow
        assert max(counts.values()) - min(counts.values()) <= 1


def test_default_samples_are_balanced_where_the_paper_crosses_conditions():
    a2 = Counter((i.params_dict()["midi"], i.params_dict()["level_db"]) for i in pitch_items("a2"))
    assert set(a2.values()) == {4} and len(a2) == 50
    e1 = Counter(
        tuple(i.params_dict()[k] for k in ("effect", "midi", "source_type"))
        for i in pitch_items("e1")
    )
    assert set(e1.values()) == {2} and len(e1) == 120
    d2 = Counter(i.truth for i in pitch_items("d2"))
    assert d2[("first",)] == d2[("second",)]


def test_e6_pairs_stay_whole_with_an_in_tune_twin():
    for items in (pitch_items("e6"), pitch_items("e6", sample=50)):
        pairs: dict[str, list[PitchItem]] = {}
        for entry in items:
            pairs.setdefault(entry.params_dict()["pair"], []).append(entry)
        for members in pairs.values():
            detunes = sorted(m.params_dict()["detune_cents"] for m in members)
            assert len(members) == 2 and detunes.count(0.0) == 1
            assert 0 < max(abs(d) for d in detunes) < 50
            assert members[0].truth == members[1].truth
