"""Audio-attention controls, trial side: control audio, mismatch partners, ids, request swap."""

from __future__ import annotations

import io
import math
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import soundfile
from hypothesis import given, settings
from hypothesis import strategies as st

from fixtures.backends.base import GenerationSettings, MediaPart, TextPart
from fixtures.backends.offline import OracleBackend
from fixtures.backends.scripted import ScriptedBackend
from fixtures.mcq.selection import sends_audio
from fixtures.mcq.spec import McqItem
from fixtures.mcq.trial import McqTrial
from fixtures.pitch.catalog import pitch_items
from fixtures.pitch.trial import PitchTrial
from fixtures.running.controls import (
    CONTROLS,
    control_request,
    derangement,
    mismatch_partners,
    with_controls,
)
from fixtures.running.run_options import RunOptions
from fixtures.running.runner import Trial, run_trial_sync
from fixtures.stimuli.controls import control_wav_bytes, control_wav_path, rms
from fixtures.tasks.catalog import items_for
from fixtures.tasks.family import CoreSelection, selected_trials
from fixtures.tasks.prompting import build_request

SETTINGS = GenerationSettings()


def wav(samples: np.ndarray, sample_rate_hz: int = 22050) -> bytes:
    buffer = io.BytesIO()
    soundfile.write(buffer, samples, sample_rate_hz, subtype="PCM_16", format="WAV")
    return buffer.getvalue()


def tone(duration_s: float, freq_hz: float, amplitude: float, sample_rate_hz: int = 22050):
    t = np.arange(int(duration_s * sample_rate_hz)) / sample_rate_hz
    return amplitude * np.sin(2 * np.pi * freq_hz * t)


def read(data: bytes) -> tuple[np.ndarray, int, str]:
    info = soundfile.info(io.BytesIO(data))
    audio, rate = soundfile.read(io.BytesIO(data), dtype="float64", always_2d=True)
    return audio, rate, info.subtype


def level_db(audio: np.ndarray) -> float:
    return 20 * math.log10(rms(audio))


# --- Control audio -----------------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(
    duration_s=st.floats(0.05, 2.0),
    amplitude=st.floats(0.01, 0.9),
    sample_rate_hz=st.sampled_from([16000, 22050, 44100]),
    channels=st.sampled_from([1, 2]),
)
def test_noise_is_as_loud_as_its_source_and_as_long(duration_s, amplitude, sample_rate_hz,
                                                     channels):
    source = tone(duration_s, 440.0, amplitude, sample_rate_hz)
    source = np.stack([source] * channels, axis=1) if channels == 2 else source
    data = wav(source, sample_rate_hz)
    original, _, _ = read(data)
    noise, rate, subtype = read(control_wav_bytes(data, "noise"))
    assert rate == sample_rate_hz and subtype == "PCM_16"
    assert noise.shape == original.shape
    assert abs(level_db(noise) - level_db(original)) < 0.5
    assert np.max(np.abs(noise)) <= 1.0
    # white, not the source: no correlation with the tone
    assert abs(np.corrcoef(noise[:, 0], original[:, 0])[0, 1]) < 0.2


def test_noise_is_deterministic_per_source_and_differs_between_sources():
    a, b = wav(tone(0.5, 440.0, 0.5)), wav(tone(0.5, 441.0, 0.5))
    assert control_wav_bytes(a, "noise") == control_wav_bytes(a, "noise")
    assert control_wav_bytes(a, "noise") != control_wav_bytes(b, "noise")


def test_noise_spectrum_is_flat():
    noise, rate, _ = read(control_wav_bytes(wav(tone(2.0, 440.0, 0.5)), "noise"))
    power = np.abs(np.fft.rfft(noise[:, 0])) ** 2
    bands = np.array_split(power[1:], 8)
    means = np.array([band.mean() for band in bands])
    assert means.max() / means.min() < 1.5  # within 1.8 dB from the lowest to the highest band


def test_silence_is_exact_zeros_of_the_same_length_and_rate():
    data = wav(tone(0.7, 440.0, 0.5), 16000)
    silence, rate, subtype = read(control_wav_bytes(data, "silence"))
    assert rate == 16000 and subtype == "PCM_16"
    assert silence.shape == read(data)[0].shape
    assert not silence.any()


def test_an_mp3_source_gives_a_wav_of_the_same_length_and_loudness():
    """MCQ datasets may hold MP3 files; the control is a WAV like the other stimuli."""
    buffer = io.BytesIO()
    soundfile.write(buffer, tone(1.0, 440.0, 0.3), 22050, format="MP3")
    source, _, _ = read(buffer.getvalue())
    noise, rate, subtype = read(control_wav_bytes(buffer.getvalue(), "noise"))
    assert (rate, subtype, noise.shape) == (22050, "PCM_16", source.shape)
    assert abs(level_db(noise) - level_db(source)) < 0.5


def test_an_unknown_control_has_no_audio():
    with pytest.raises(ValueError, match="mismatched"):
        control_wav_bytes(wav(tone(0.1, 440.0, 0.5)), "mismatched")


def test_control_files_are_cached_by_source_content(tmp_path, monkeypatch):
    monkeypatch.setenv("EARTEST_CACHE_DIR", str(tmp_path / "cache"))
    source = tmp_path / "a.wav"
    source.write_bytes(wav(tone(0.3, 220.0, 0.4)))
    first = control_wav_path(source, "noise")
    assert first.read_bytes() == control_wav_bytes(source.read_bytes(), "noise")
    assert control_wav_path(source, "noise") == first
    assert control_wav_path(source, "silence") != first
    copy = tmp_path / "b.wav"
    copy.write_bytes(source.read_bytes())
    assert control_wav_path(copy, "noise") == first  # same content, same file


# --- Mismatch partners -------------------------------------------------------------------------


@settings(max_examples=50, deadline=None)
@given(keys=st.lists(st.text(min_size=1, max_size=6), min_size=2, max_size=40, unique=True),
       family=st.text(max_size=10))
def test_derangement_is_a_permutation_without_fixed_points(keys, family):
    partners = derangement(keys, family)
    assert sorted(partners) == sorted(keys)
    assert sorted(partners.values()) == sorted(keys)
    assert all(key != partner for key, partner in partners.items())
    assert derangement(list(reversed(keys)), family) == partners  # order does not matter


def test_one_item_has_no_partner():
    assert derangement(["only"], "family") == {}
    trial = Trial("oracle", "audio", "zero", "standalone", items_for("chord", "test")[0])
    expanded = with_controls([trial], CONTROLS, lambda t: None, lambda t: True)
    assert [t.control for t in expanded] == ["real", "noise", "silence"]


def test_derangement_is_random_not_label_avoiding():
    """Over many families, a partner shares the item's label about as often as chance says."""
    items = items_for("chord", "test")
    same = total = 0
    for family in range(200):
        partners = mismatch_partners(items, lambda item: item.item_id, f"f{family}")
        same += sum(item.answer == partners[item.item_id].answer for item in items)
        total += len(items)
    assert 0.18 < same / total < 0.28  # 4 balanced labels: (11 - 1) / 43 = 0.23


def test_derangement_differs_between_families():
    keys = [f"k{i}" for i in range(20)]
    assert derangement(keys, "chord/test") != derangement(keys, "syncopation/test")


# --- Trial selection and ids -------------------------------------------------------------------


def core_trials(task: str, **changes) -> list[Trial]:
    """``task``'s trials on a small selection, with ``changes`` to the run options."""
    run = replace(RunOptions(models=("oracle",), modalities=("audio", "midi"), shots=("zero",),
                             strategies=("standalone",), settings=SETTINGS), **changes)
    return selected_trials(run, CoreSelection(run.modalities), task)


def test_controls_add_trials_only_to_audio_and_keep_real_ids():
    plain = core_trials("chord")
    with_all = core_trials("chord", controls=CONTROLS)
    real = [t for t in with_all if t.control == "real"]
    assert [t.trial_id for t in real] == [t.trial_id for t in plain]
    assert [t.test_id for t in real] == [t.test_id for t in plain]
    controlled = [t for t in with_all if t.control != "real"]
    assert len(controlled) == 3 * 44 and all(t.modality == "audio" for t in controlled)
    first = controlled[0]
    assert first.trial_id == "chord/audio/zero/standalone/chord1/control-noise"
    assert first.test_id == "oracle-audio-zero-standalone-chord1-noise"
    mismatched = [t for t in controlled if t.control == "mismatched"]
    assert all(t.partner is not None and t.partner.item_id != t.item.item_id
               for t in mismatched)
    assert len({t.partner.item_id for t in mismatched}) == 44  # a permutation
    assert len({t.test_id for t in with_all}) == len(with_all)


def test_every_family_names_its_control_trials():
    item = pitch_items("a1", 4)[0]
    pitch = PitchTrial("oracle", "midi", item, control="silence")
    assert pitch.trial_id.endswith(f"/midi/{item.item_id}/control-silence")
    assert pitch.test_id.endswith(f"-{item.item_id}-silence")
    assert PitchTrial("oracle", "midi", item).trial_id == f"pitch/a1/midi/{item.item_id}"


# --- The request swap --------------------------------------------------------------------------


def audio_parts(turn) -> list[MediaPart]:
    return [p for p in turn.parts if isinstance(p, MediaPart)]


@pytest.mark.parametrize("control", ["noise", "silence"])
def test_swap_replaces_only_the_last_user_turn_audio(control):
    item = items_for("transposition", "test")[0]
    request = build_request(item, "audio", "few", "standalone", SETTINGS)
    trial_id = f"transposition/audio/few/standalone/{item.item_id}/control-{control}"
    swapped = control_request(request, control, trial_id)
    assert swapped.turns[:-1] == request.turns[:-1]  # few-shot examples keep their real audio
    before, after = audio_parts(request.turns[-1]), audio_parts(swapped.turns[-1])
    assert len(after) == len(before) == 2
    assert all(a.sha256 != b.sha256 for a, b in zip(after, before, strict=True))
    texts = [p for p in swapped.turns[-1].parts if isinstance(p, TextPart)]
    assert texts == [p for p in request.turns[-1].parts if isinstance(p, TextPart)]
    assert swapped.system == request.system and swapped.question == request.question
    assert swapped.answer_key.correct == request.answer_key.correct
    assert swapped.answer_key.trial_id == trial_id
    for part in after:
        audio, _, _ = read(Path(part.path).read_bytes())
        assert (not audio.any()) if control == "silence" else audio.any()


def test_mismatch_takes_the_partners_clips_in_order_and_wraps():
    item = items_for("transposition", "test")[0]
    request = build_request(item, "audio", "zero", "standalone", SETTINGS)
    one = MediaPart(Path("/x/partner.wav"), "ab" * 32, "audio/wav")
    swapped = control_request(request, "mismatched", "id", [one])
    assert audio_parts(swapped.turns[-1]) == [one, one]
    two = [one, MediaPart(Path("/x/partner2.wav"), "cd" * 32, "audio/wav")]
    assert audio_parts(control_request(request, "mismatched", "id", two).turns[-1]) == two
    with pytest.raises(ValueError, match="partner"):
        control_request(request, "mismatched", "id", [])


def test_a_request_without_audio_cannot_be_controlled():
    item = items_for("chord", "test")[0]
    request = build_request(item, "midi", "zero", "standalone", SETTINGS)
    with pytest.raises(ValueError, match="no audio"):
        control_request(request, "noise", "id")


def test_core_control_trial_asks_with_the_partners_audio_and_keeps_the_answer_key():
    trials = core_trials("chord", modalities=("audio",), controls=("mismatched",))
    trial = next(t for t in trials if t.control == "mismatched")
    backend = ScriptedBackend(lambda request: request.answer_key.correct_reply)
    result = run_trial_sync(backend, trial, SETTINGS)
    (request,) = backend.requests
    partner_audio = audio_parts(build_request(trial.partner, "audio", "zero", "standalone",
                                              SETTINGS).turns[-1])
    assert audio_parts(request.turns[-1]) == partner_audio
    assert request.answer_key.correct == trial.item.answer
    record = result.record().flat()
    assert record["control"] == "mismatched" and record["control_partner"] == trial.partner.item_id
    assert record["trial_id"].endswith("/control-mismatched") and result.correct
    real = run_trial_sync(OracleBackend(), replace(trial, control="real", partner=None), SETTINGS)
    flat = real.record().flat()
    assert flat["control"] == "real" and "control_partner" not in flat


def test_only_mcq_trials_that_send_audio_get_controls(tmp_path):
    audio_item = McqItem("set", "muchomusic", "q1", "Which?", ("a", "b"), 0, "/x/a.wav")
    score_item = McqItem("score", "wildscore", "q1", "Which?", ("a", "b"), 0, "/x/a.png")
    trials = [McqTrial("oracle", "audio", 0, 0, audio_item),
              McqTrial("oracle", "no-audio", 0, 0, audio_item),
              McqTrial("oracle", "image", 0, 0, score_item)]
    expanded = with_controls(trials, ("noise",), lambda t: None, sends_audio)
    assert [(t.condition, t.control) for t in expanded] == [
        ("audio", "real"), ("audio", "noise"), ("no-audio", "real"), ("image", "real")]
    assert expanded[1].trial_id == "mcq/set/audio/0shot/r0/q1/control-noise"
    assert expanded[1].test_id == "oracle-set-audio-0shot-r0-q1-noise"
