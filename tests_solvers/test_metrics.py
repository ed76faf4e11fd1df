"""Properties and known values of the scoring arithmetic behind every report and gate."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.metrics import (
    DENOMINATOR_EXCLUDED,
    TRANSCRIPTION_KEYS,
    exact_binomial_sf,
    f1_from_counts,
    mcnemar_exact,
    one_sided_drop_test,
    precision_recall,
    set_prf,
    transcription_counts,
    wilson_interval,
)

FAST = settings(max_examples=200, deadline=None)

counts_and_trials = st.integers(min_value=1, max_value=400).flatmap(
    lambda n: st.tuples(st.integers(min_value=0, max_value=n), st.just(n))
)
confidences = st.sampled_from([0.8, 0.9, 0.95, 0.99])
small_sets = st.sets(st.integers(min_value=0, max_value=40), max_size=15)
onset_lists = st.lists(st.integers(min_value=1, max_value=32), unique=True, max_size=32)
pitch_lists = st.lists(st.integers(min_value=0, max_value=127), min_size=1, max_size=16)


# --- Wilson interval ---------------------------------------------------------------------------


@FAST
@given(counts_and_trials, confidences)
def test_wilson_contains_estimate_and_stays_in_unit_interval(sn, confidence):
    successes, n = sn
    low, high = wilson_interval(successes, n, confidence)
    assert 0.0 <= low <= successes / n <= high <= 1.0


@FAST
@given(counts_and_trials, st.integers(min_value=2, max_value=10))
def test_wilson_narrows_as_trials_grow_at_the_same_rate(sn, factor):
    successes, n = sn
    low, high = wilson_interval(successes, n)
    low_more, high_more = wilson_interval(successes * factor, n * factor)
    assert high_more - low_more < high - low


@FAST
@given(counts_and_trials)
def test_wilson_widens_with_confidence(sn):
    successes, n = sn
    narrow = wilson_interval(successes, n, 0.9)
    wide = wilson_interval(successes, n, 0.99)
    assert wide[0] <= narrow[0] and narrow[1] <= wide[1]


def test_wilson_known_value():
    low, high = wilson_interval(17, 20)
    assert (round(100 * low, 1), round(100 * high, 1)) == (64.0, 94.8)


def test_wilson_extremes_touch_the_bounds():
    assert wilson_interval(0, 20)[0] == 0.0
    assert wilson_interval(20, 20)[1] == 1.0


def test_wilson_without_trials_is_undefined():
    assert all(math.isnan(x) for x in wilson_interval(0, 0))


@pytest.mark.parametrize(("successes", "n", "confidence"), [(-1, 5, 0.95), (6, 5, 0.95),
                                                            (1, -1, 0.95), (1, 5, 1.0)])
def test_wilson_rejects_bad_input(successes, n, confidence):
    with pytest.raises(ValueError):
        wilson_interval(successes, n, confidence)


# --- Set F1 ------------------------------------------------------------------------------------


@FAST
@given(small_sets, small_sets)
def test_swapping_truth_and_prediction_swaps_fp_and_fn(true, predicted):
    tp, fp, fn = set_prf(true, predicted)
    assert set_prf(predicted, true) == (tp, fn, fp)
    assert f1_from_counts(tp, fp, fn) == f1_from_counts(tp, fn, fp)
    assert 0.0 <= f1_from_counts(tp, fp, fn) <= 1.0


@FAST
@given(small_sets)
def test_perfect_prediction_scores_one(values):
    assert f1_from_counts(*set_prf(values, values)) == 1.0


@FAST
@given(small_sets, small_sets)
def test_f1_is_the_harmonic_mean_of_precision_and_recall(true, predicted):
    tp, fp, fn = set_prf(true, predicted)
    precision, recall = precision_recall(tp, fp, fn)
    f1 = f1_from_counts(tp, fp, fn)
    if tp:
        assert f1 == pytest.approx(2 * precision * recall / (precision + recall))
    elif true or predicted:
        assert f1 == precision * recall == 0.0


def test_zero_division_cases():
    assert f1_from_counts(0, 0, 0) == 1.0
    assert precision_recall(0, 0, 0) == (1.0, 1.0)
    assert f1_from_counts(0, 0, 3) == 0.0
    assert f1_from_counts(0, 2, 0) == 0.0
    assert precision_recall(0, 0, 3) == (0.0, 0.0)
    with pytest.raises(ValueError):
        f1_from_counts(-1, 0, 0)


def test_duplicates_collapse():
    assert set_prf([60, 60, 64], [60, 67, 67]) == (1, 1, 1)


# --- Transcription counts ----------------------------------------------------------------------


@FAST
@given(onset_lists)
def test_perfect_syncopation_transcription(onsets):
    counts = transcription_counts("syncopation", [onsets], [list(onsets)])
    assert set(counts) == {"on-beat", "off-beat"}
    assert all(f1_from_counts(*c) == 1.0 for c in counts.values())


@FAST
@given(st.sampled_from(["transposition", "chord"]), pitch_lists, pitch_lists)
def test_perfect_pitch_transcription(task, first, second):
    truth = [first, second] if task == "transposition" else [first]
    counts = transcription_counts(task, truth, [list(x) for x in truth])
    assert set(counts) == set(TRANSCRIPTION_KEYS[task])
    assert all(f1_from_counts(*c) == 1.0 for c in counts.values())


@FAST
@given(onset_lists, pitch_lists, pitch_lists)
def test_missing_prediction_counts_every_true_element_as_missed(onsets, first, second):
    sync = transcription_counts("syncopation", [onsets], None)
    assert sync["on-beat"] == (0, 0, sum(1 for s in onsets if s % 2 == 1))
    assert sync["off-beat"] == (0, 0, sum(1 for s in onsets if s % 2 == 0))
    chord = transcription_counts("chord", [first], None)
    assert chord["pitches"] == (0, 0, len(set(first)))
    melodies = transcription_counts("transposition", [first, second], None)
    expected_fn = len({p % 12 for p in first}) + len({p % 12 for p in second})
    assert melodies["pitch-classes"] == (0, 0, expected_fn)


def test_syncopation_masks_on_and_off_beats():
    counts = transcription_counts("syncopation", [[1, 2, 3, 4]], [[1, 4, 6]])
    assert counts == {"on-beat": (1, 0, 1), "off-beat": (1, 1, 1)}


def test_chord_uses_absolute_pitches():
    assert transcription_counts("chord", [[60, 64, 67]], [[48, 64, 67]]) == {"pitches": (2, 1, 1)}


def test_transposition_uses_pitch_classes_per_melody():
    truth = [[60, 64, 67], [62, 66, 69]]
    counts = transcription_counts("transposition", truth, [[72, 76, 79], [50]])
    assert counts == {"pitch-classes": (3 + 1, 0, 0 + 2)}
    # a missing second melody is all misses, an extra one all false alarms
    assert transcription_counts("transposition", truth, [[60, 64, 67]]) == {
        "pitch-classes": (3, 0, 3)
    }
    assert transcription_counts("transposition", truth[:1], truth) == {"pitch-classes": (3, 3, 0)}


def test_unknown_task_is_rejected():
    with pytest.raises(ValueError, match="unknown task"):
        transcription_counts("tempo", [[1]], [[1]])


# --- Exact tests -------------------------------------------------------------------------------


def test_denominator_policy_members():
    assert DENOMINATOR_EXCLUDED == {
        "token_limit", "empty_output", "backend_error", "unsupported_input"
    }
    for counted in ("no_final_answer", "undecidable", "safety_block", "recitation_block"):
        assert counted not in DENOMINATOR_EXCLUDED


def test_drop_test_flags_a_twenty_point_drop_at_full_cell_size():
    assert one_sided_drop_test(61, 88, 79, 88) < 0.01  # ~90 % -> ~70 %


def test_drop_test_is_quiet_for_equal_rates():
    assert one_sided_drop_test(70, 88, 70, 88) > 0.5
    assert one_sided_drop_test(88, 88, 88, 88) == 1.0


def test_drop_test_known_value():
    # table [[0, 3], [3, 0]]: only one arrangement is that extreme, 1 / C(6, 3)
    assert one_sided_drop_test(0, 3, 3, 3) == pytest.approx(1 / 20)
    assert one_sided_drop_test(0, 0, 3, 3) == 1.0


@FAST
@given(counts_and_trials, counts_and_trials)
def test_drop_test_is_a_probability_and_grows_with_current_successes(now, base):
    (s_now, n_now), (s_base, n_base) = now, base
    p = one_sided_drop_test(s_now, n_now, s_base, n_base)
    assert 0.0 <= p <= 1.0
    if s_now < n_now:
        assert one_sided_drop_test(s_now + 1, n_now, s_base, n_base) >= p


def test_drop_test_rejects_impossible_counts():
    with pytest.raises(ValueError):
        one_sided_drop_test(5, 4, 1, 4)


@pytest.mark.parametrize(
    ("b", "c", "p"),
    [(0, 6, 0.03125), (6, 0, 0.03125), (0, 0, 1.0), (1, 1, 1.0), (2, 8, 112 / 1024)],
)
def test_mcnemar_known_values(b, c, p):
    assert mcnemar_exact(b, c) == pytest.approx(p)


@FAST
@given(st.integers(min_value=0, max_value=60), st.integers(min_value=0, max_value=60))
def test_mcnemar_is_symmetric_probability(b, c):
    p = mcnemar_exact(b, c)
    assert p == mcnemar_exact(c, b)
    assert 0.0 < p <= 1.0


@FAST
@given(st.integers(min_value=0, max_value=60).flatmap(
    lambda n: st.tuples(st.integers(min_value=0, max_value=n + 1), st.just(n))))
def test_binomial_sf_half_matches_its_complement(kn):
    k, n = kn
    upper = exact_binomial_sf(k, n)
    assert upper + exact_binomial_sf(n - k + 1, n) == pytest.approx(1.0)


def test_binomial_sf_edges_and_large_n():
    assert exact_binomial_sf(0, 10, 0.3) == 1.0
    assert exact_binomial_sf(11, 10, 0.3) == 0.0
    assert exact_binomial_sf(3, 3, 0.5) == 1 / 8
    assert exact_binomial_sf(1, 2, 0.25) == pytest.approx(1 - 0.75**2)
    assert 0.0 < exact_binomial_sf(380, 1200, 0.3) < 1.0  # no float overflow


def test_part_element_counts_score_each_element_in_its_own_part():
    from solvers.metrics import PART_ELEMENTS, part_element_counts

    truth = [[1, 3, 5], [2, 4]]
    assert part_element_counts(truth, [[1, 3, 5], [2, 4]]) == {PART_ELEMENTS: (5, 0, 0)}
    # 2 heard in the first part instead of the second: one FP and one FN
    assert part_element_counts(truth, [[1, 2, 3, 5], [4]]) == {PART_ELEMENTS: (4, 1, 1)}
    assert part_element_counts(truth, None) == {PART_ELEMENTS: (0, 0, 5)}
