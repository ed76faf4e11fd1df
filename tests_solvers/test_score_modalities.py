"""The score and none modalities end to end: what the request holds, what each backend puts on
the wire or answers, and the trial-turn wording (snapshots; the system prompts' wording is in
test_prompts.py)."""

from __future__ import annotations

import asyncio
import base64

import pandas as pd
import pytest

from fixtures.backends import make_backend
from fixtures.backends.base import (
    GenerationSettings,
    MediaPart,
    Response,
    TextPart,
    UnsupportedInput,
)
from fixtures.backends.gemini import GeminiBackend
from fixtures.backends.openai_compat import OpenAICompatBackend
from fixtures.backends.options import BackendOptions
from fixtures.backends.retry import RetryPolicy
from fixtures.running.runner import Trial, run_sync, run_trial_sync
from fixtures.stimuli.engrave import score_png_path
from fixtures.tasks.catalog import TASK_NAMES, items_for
from fixtures.tasks.prompting import (
    DEFAULT_MODALITIES,
    MODALITIES,
    STRATEGIES,
    build_request,
    identifiers,
)
from reports.tables.accuracy import cell_summary, table1
from tests_solvers.fakes.gemini_server import FakeGeminiServer, decode_bytes, field_of
from tests_solvers.fakes.openai_server import FakeOpenAIServer
from tests_solvers.test_tables import failed, make_record

SETTINGS = GenerationSettings()
FAST = RetryPolicy(max_attempts=2, max_total_s=5.0, initial_delay_s=0.001, max_delay_s=0.01)
GEMINI_KEY = "AIzaFAKE-test-key-0123456789"


def test_modalities_and_the_paper_default() -> None:
    assert MODALITIES == ("audio", "midi", "score", "none")
    assert DEFAULT_MODALITIES == ("audio", "midi")


@pytest.mark.parametrize("task", TASK_NAMES)
def test_score_requests_show_one_png_per_clip_after_its_name(task: str) -> None:
    item = items_for(task, "test")[2]
    request = build_request(item, "score", "few", "logiclm", SETTINGS)
    final = request.turns[-1].parts
    names = identifiers(item, "score")
    assert names == tuple(clip.stimulus_name + ".png" for clip in item.clips)
    assert len(final) == 2 * len(item.clips)
    for clip, name, (text, image) in zip(item.clips, names, zip(final[::2], final[1::2],
                                                                    strict=True), strict=True):
        assert isinstance(text, TextPart) and text.text.endswith(name)
        assert isinstance(image, MediaPart) and image.mime_type == "image/png"
        assert image.path == score_png_path(clip)
    examples = items_for(task, "fewshot")
    assert len(request.media_parts()) == sum(len(i.clips) for i in (*examples, item))
    assert {p.mime_type for p in request.media_parts()} == {"image/png"}
    assert "engraved notation" in request.system


@pytest.mark.parametrize("task", TASK_NAMES)
def test_none_requests_name_the_stimuli_and_show_nothing(task: str) -> None:
    item = items_for(task, "test")[0]
    request = build_request(item, "none", "few", "logiclm", SETTINGS)
    assert not request.media_parts()
    final = request.turns[-1].text
    for clip in item.clips:
        assert clip.stimulus_name in final and clip.stimulus_name + "." not in final
    assert "Nothing is attached" in final and "MIDI file:" not in final
    assert "not the recording itself" in request.system or "not the melodies" in request.system
    # the schema line the oracle would write uses the bare names, and the judge accepts it
    assert request.answer_key is not None
    for name in identifiers(item, "none"):
        assert f"({name}, [" in request.answer_key.correct_reply


@pytest.mark.parametrize("modality", ("score", "none"))
@pytest.mark.parametrize("task", TASK_NAMES)
def test_trial_turn_wording(snapshot, task: str, modality: str) -> None:
    item = items_for(task, "test")[0]
    texts = [p.text for p in build_request(item, modality, "zero", "cot", SETTINGS).turns[-1].parts
             if isinstance(p, TextPart)]
    assert texts == snapshot


@pytest.mark.parametrize("modality", ("score", "none"))
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_oracle_is_right_and_listener_declines_honestly(modality: str, strategy: str) -> None:
    listener = make_backend("listener")
    oracle = make_backend("oracle")
    for task in TASK_NAMES:
        item = items_for(task, "test")[1]
        assert run_trial_sync(oracle, Trial("oracle", modality, "few", strategy, item),
                              SETTINGS).correct
        result = run_trial_sync(listener, Trial("listener", modality, "zero", strategy, item),
                                SETTINGS)
        assert not result.correct and result.parsed_answer is None
        assert result.error_class in ("no_final_answer", "schema_parse")
        first = result.turns[0].text
        assert "give no answer" in first and "Final Answer" not in first
        assert ("score images" if modality == "score" else "nothing to transcribe") in first


def test_gemini_sends_score_images_inline() -> None:
    item = items_for("transposition", "test")[0]
    request = build_request(item, "score", "few", "cot", SETTINGS)
    with FakeGeminiServer(api_key=GEMINI_KEY, models={"gemini-2.5-flash"}) as server:
        options = BackendOptions(base_url=server.base_url, timeout_s=5.0, retry=FAST)
        backend = GeminiBackend("gemini-test", "gemini-2.5-flash", GEMINI_KEY, options, None)
        asyncio.run(backend.generate(request))
        body = server.requests[0].json
    sent = []
    for content, turn in zip(body["contents"], request.turns, strict=True):
        for part_json, part in zip(content["parts"], turn.parts, strict=True):
            if isinstance(part, MediaPart):
                inline = field_of(part_json, "inlineData")
                assert field_of(inline, "mimeType") == "image/png"
                assert decode_bytes(inline["data"]) == part.read_bytes()
                sent.append(part)
            else:
                assert part_json == {"text": part.text}
    assert len(sent) == len(request.media_parts()) == 6  # two examples and the trial, 2 each


def test_openai_compat_sends_score_images_as_data_urls() -> None:
    item = items_for("chord", "test")[0]
    request = build_request(item, "score", "zero", "standalone", SETTINGS)
    with FakeOpenAIServer() as server:
        options = BackendOptions(base_url=server.base_url, timeout_s=5.0, retry=FAST)
        backend = OpenAICompatBackend("vlm", "some-vision-model", "sk-test", options, None)
        run_sync(backend.generate(request))
        messages = server.requests[0].body["messages"]
    assert [m["role"] for m in messages] == ["system", "user"]
    text, image = messages[1]["content"]
    assert text == {"type": "text", "text": request.turns[-1].parts[0].text}
    png = request.media_parts()[0].read_bytes()
    assert image == {"type": "image_url", "image_url": {
        "url": "data:image/png;base64," + base64.b64encode(png).decode()}}


def test_table1_adds_score_and_none_rows_after_the_papers_grid_only_when_run() -> None:
    records = [make_record(f"c{i}", modality=modality, correct=i % 2 == 0)
               for modality in ("none", "score") for i in range(4)]
    records.append(failed("c9", "unsupported_input", modality="score", model="qwen"))
    table = table1(cell_summary(pd.DataFrame(records)))
    modalities = list(dict.fromkeys(table.index.get_level_values("Modality")))
    assert modalities == ["audio", "midi", "score", "none", "Chance"]
    assert table.loc[("score", "zero", "standalone"), ("chord", "m")] == (
        "50.0 [15.0, 85.0] n=4")
    assert table.loc[("score", "zero", "standalone"), ("chord", "qwen")] == "n/a n=0 excl=1"
    paper_only = table1(cell_summary(pd.DataFrame([make_record("c1", modality="audio")])))
    assert list(dict.fromkeys(paper_only.index.get_level_values("Modality"))) == [
        "audio", "midi", "Chance"]


class _AudioOnly:
    """A stand-in for an audio-only model: refuses any request that carries an image."""

    name = model_id = "audio-only"
    offline = True
    max_audio_parts = None

    async def generate(self, request):
        if any(p.kind == "image" for p in request.media_parts()):
            raise UnsupportedInput("audio-only: this model takes no images")
        return Response(text="Final Answer: A")


def test_an_image_the_model_cannot_take_is_recorded_as_unsupported_input() -> None:
    item = items_for("chord", "test")[0]
    result = run_trial_sync(_AudioOnly(), Trial("audio-only", "score", "zero", "cot", item),
                            SETTINGS)
    record = result.record().flat()
    assert (record["error_class"], record["correct"]) == ("unsupported_input", False)
    assert record["turns"][0]["finish_reason"] == "unsupported"
    assert "takes no images" in record["turns"][0]["error"]
    audio = run_trial_sync(_AudioOnly(), Trial("audio-only", "audio", "zero", "cot", item),
                           SETTINGS)
    assert audio.error_class is None
