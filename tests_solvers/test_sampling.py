"""Issue 17: ``--samples K`` — per-sample seeds and cache keys, the majority verdict, the
analytic values of a uniform guesser, and K samples of a trial through the real runner."""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
from collections import Counter

import pytest

from fixtures.backends.base import GenerationSettings
from fixtures.backends.offline import ChanceBackend, OracleBackend
from fixtures.backends.scripted import ScriptedBackend
from fixtures.running.runner import Trial, run_trial_sync
from fixtures.running.sampling import SampledResult, sample_seed, sample_settings
from fixtures.sending.cached_backend import KEY_VERSION, cache_key
from fixtures.tasks.catalog import items_for
from fixtures.tasks.prompting import build_request
from solvers.sampling import (
    binary_agreement,
    binary_majority_accuracy,
    majority_index,
    summarize,
    uniform_agreement,
    uniform_majority_accuracy,
)
from solvers.trial_record import TrialRecord

CHORDS = items_for("chord", "test")
SETTINGS = GenerationSettings(seed=7)


def _trial(item=CHORDS[0]) -> Trial:
    return Trial(model="chance", modality="midi", shot="zero", strategy="standalone", item=item)


# --- seeds and cache keys ----------------------------------------------------------------------


def test_sample_zero_is_the_single_sample_request_byte_for_byte():
    trial = _trial()
    settings = dataclasses.replace(SETTINGS, samples=3)
    first = sample_settings(settings, trial.trial_id, 0)
    assert first == SETTINGS  # same seed, index 0, one request: the K = 1 settings
    single = build_request(trial.item, "midi", "zero", "standalone", SETTINGS)
    sampled = build_request(trial.item, "midi", "zero", "standalone", first)
    assert sampled.request_hash() == single.request_hash()
    # the key a single-sample run always had (the form before samples existed)
    old_form = {"v": KEY_VERSION, "backend": "openai_compat", "model_id": "m", "base_url": None,
                "request": single.request_hash(), "repeat": 0}
    blob = json.dumps(old_form, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    assert cache_key("openai_compat", "m", None, sampled,
                     sample_index=0) == hashlib.sha256(blob.encode()).hexdigest()


def test_later_samples_have_their_own_stable_seeds_and_keys():
    trial, other = _trial(CHORDS[0]), _trial(CHORDS[1])
    seeds = [sample_seed(7, trial.trial_id, s) for s in range(5)]
    assert seeds[0] == 7 and len(set(seeds)) == 5
    assert seeds == [sample_seed(7, trial.trial_id, s) for s in range(5)]  # stable
    assert all(0 <= s < 2 ** 31 for s in seeds)
    assert sample_seed(7, other.trial_id, 1) != seeds[1]  # the trial is in the seed
    assert sample_seed(8, trial.trial_id, 1) != seeds[1]  # and --seed
    request = build_request(trial.item, "midi", "zero", "standalone", SETTINGS)
    # an MCQ repeat's samples and another repeat's sample never share a key
    keys = {cache_key("k", "m", None, request, repeat, sample_index=sample)
            for repeat, sample in itertools.product(range(3), range(3))}
    assert len(keys) == 9
    with pytest.raises(ValueError, match="sample_index"):
        cache_key("k", "m", None, request, sample_index=-1)


# --- majority, agreement and their analytic values ---------------------------------------------


def test_majority_ties_go_to_the_answer_given_first():
    assert majority_index(["B", "A", "A", "B"]) == 0
    assert majority_index(["C", "A", "B"]) == 0
    assert majority_index([None, "A", "A"]) == 1
    outcome = summarize([None, "A", "A"], [False, True, True], [1, 2, 3])
    assert (outcome.majority_answer, outcome.majority_correct) == ("A", True)
    assert outcome.agreement == pytest.approx(2 / 3)
    assert outcome.mean_accuracy == pytest.approx(2 / 3)
    assert outcome.to_json()["k"] == 3


@pytest.mark.parametrize("options,samples", [(2, 3), (4, 3), (5, 3), (3, 4), (4, 5), (2, 1)])
def test_uniform_guesser_values_match_enumeration(options, samples):
    agreement = majority = 0.0
    for answers in itertools.product(range(options), repeat=samples):
        outcome = summarize(list(map(str, answers)), [a == 0 for a in answers], [0] * samples)
        agreement += outcome.agreement
        majority += outcome.majority_correct
    total = options ** samples
    assert uniform_agreement(options, samples) == pytest.approx(agreement / total)
    assert uniform_majority_accuracy(options) == pytest.approx(majority / total)


def test_uniform_agreement_closed_form_for_three_samples():
    for m in range(2, 7):  # E[max count] = (3 + 6 (m-1) + (m-1)(m-2)) / m^2
        expected_max = (3 + 6 * (m - 1) + (m - 1) * (m - 2)) / m ** 2
        assert uniform_agreement(m, 3) == pytest.approx(expected_max / 3)


@pytest.mark.parametrize("p,samples", [(0.6, 3), (0.3, 4), (0.9, 5)])
def test_binary_values_match_enumeration(p, samples):
    agreement = majority = 0.0
    for rights in itertools.product((True, False), repeat=samples):
        prob = 1.0
        for right in rights:
            prob *= p if right else 1 - p
        outcome = summarize(["R" if r else "W" for r in rights], list(rights), [0] * samples)
        agreement += prob * outcome.agreement
        majority += prob * outcome.majority_correct
    assert binary_agreement(p, samples) == pytest.approx(agreement)
    assert binary_majority_accuracy(p, samples) == pytest.approx(majority)


# --- K samples through the runner ------------------------------------------------------------


def test_chance_is_asked_k_times_with_a_seed_per_sample():
    scripted = ScriptedBackend(script=lambda r: "Final Answer: A")
    settings = dataclasses.replace(SETTINGS, samples=4)
    result = run_trial_sync(scripted, _trial(), settings)
    assert isinstance(result, SampledResult)
    seeds = [r.settings.seed for r in scripted.requests]
    assert seeds == [sample_seed(7, _trial().trial_id, s) for s in range(4)]
    assert [r.settings.sample_index for r in scripted.requests] == [0, 1, 2, 3]
    record = result.record()
    assert isinstance(record, TrialRecord)
    assert record.samples["seeds"] == seeds and record.new_requests == 4
    assert [turn["sample"] for turn in record.turns] == [0, 1, 2, 3]
    assert record.samples["agreement"] == 1.0
    assert record.correct == (CHORDS[0].answer == "A") == record.samples["majority_correct"]
    TrialRecord.from_json(json.loads(json.dumps(record.to_json())))  # round-trips


def test_oracle_stays_right_and_chance_draws_each_sample_independently():
    settings = dataclasses.replace(SETTINGS, samples=3)
    oracle = [run_trial_sync(OracleBackend(), _trial(item), settings) for item in CHORDS]
    assert all(r.correct and r.outcomes.mean_accuracy == 1.0 for r in oracle)
    chance = [run_trial_sync(ChanceBackend(), _trial(item), settings) for item in CHORDS]
    answers = Counter(a for r in chance for a in r.outcomes.answers)
    assert set(answers) == {"A", "B", "C", "D"}
    assert any(len(set(r.outcomes.answers)) > 1 for r in chance)  # samples differ
    single = [run_trial_sync(ChanceBackend(), _trial(item), SETTINGS) for item in CHORDS]
    # sample 0 is the single-sample run's answer
    assert [r.samples[0].parsed_answer for r in chance] == [r.parsed_answer for r in single]


class _Options:
    """The three options ``_check_sampling`` reads, as a config would give them."""

    def __init__(self, **given: float) -> None:
        self.values = {"samples": 1, "temperature": 0.0, "top_p": 1.0, **given}

    def getoption(self, name: str):
        return self.values[name]


@pytest.mark.parametrize("given,message", [
    ({"samples": 0}, "--samples must be at least 1"),
    ({"temperature": 2.5}, "--temperature must be between 0 and 2"),
    ({"temperature": -0.1}, "--temperature must be between 0 and 2"),
    ({"temperature": float("nan")}, "--temperature"),
    ({"top_p": 0.0}, "--top-p must be above 0"),
    ({"top_p": 1.5}, "--top-p must be above 0"),
])
def test_bad_sampling_options_are_one_usage_error(given, message):
    from fixtures.running.run_options import _check_sampling

    with pytest.raises(pytest.UsageError, match=message):
        _check_sampling(_Options(**given))
    _check_sampling(_Options(samples=5, temperature=2.0, top_p=0.01))  # the edges are fine


def test_with_samples_the_assisted_verdict_is_the_majority_of_assisted_answers():
    """Strict answers none, none, D: the majority sample (the first) is unreadable and its
    extractor reads B; but the assisted answers are B, D, D, so the assisted verdict is D's."""
    unreadable = "A tense, dark sound, like a horror film sting, I'd say."  # names no option
    backend = ScriptedBackend(replies=[unreadable, unreadable, "Final Answer: D"], name="subject")
    extractor = ScriptedBackend(replies=["Final Answer: B", "Final Answer: D"], name="reader")
    chord17 = next(i for i in items_for("chord", "test") if i.item_id == "chord17")  # answer D
    trial = Trial("subject", "midi", "zero", "standalone", chord17)
    result = run_trial_sync(backend, trial, GenerationSettings(samples=3), extractor)
    record = result.record().flat()
    assert record["samples"]["answers"] == [None, None, "D"] and record["correct"] is False
    assert record["extracted_answer"] == "D" and record["assisted_correct"] is True
    assert [(t["sample"], t["text"]) for t in record["extractor_turns"]] == [
        (0, "Final Answer: B"), (1, "Final Answer: D")]
