"""Tiny random Qwen2-Audio and Qwen2.5-Omni checkpoints for the local-model tests.

Nothing is downloaded. The tokenizer is a small byte-level BPE trained here on eartest's own
prompt files, given the special tokens and chat templates of the real checkpoints; the models
are random two-layer configs written with ``save_pretrained`` in the hub's layout (the Omni one
as a full checkpoint with talker weights, of which only the thinker is loaded).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import safetensors.torch as safetensors_torch
import tokenizers
import torch
import transformers

from fixtures.tasks.prompting import PROMPTS_DIR

NAMED_TOKENS = {  # the attributes Qwen2_5OmniProcessor reads from its tokenizer
    "audio_token": "<|AUDIO|>", "audio_bos_token": "<|audio_bos|>",
    "audio_eos_token": "<|audio_eos|>", "image_token": "<|IMAGE|>", "video_token": "<|VIDEO|>",
    "vision_bos_token": "<|vision_bos|>", "vision_eos_token": "<|vision_eos|>",
}
CHAT_TOKENS = ("<|im_start|>", "<|im_end|>")
# The chat templates of Qwen/Qwen2-Audio-7B-Instruct and Qwen/Qwen2.5-Omni-7B.
_SYSTEM = (
    "{% for message in messages %}{% if loop.first and message['role'] != 'system' %}"
    "<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n{% endif %}"
    "<|im_start|>{{ message['role'] }}\n{% if message['content'] is string %}"
    "{{ message['content'] }}<|im_end|>\n{% else %}{% for content in message['content'] %}"
)
_END = (
    "{% elif 'text' in content %}{{ content['text'] }}{% endif %}{% endfor %}<|im_end|>\n"
    "{% endif %}{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
QWEN2_AUDIO_TEMPLATE = (
    "{% set audio_count = namespace(value=0) %}" + _SYSTEM
    + "{% if 'audio' in content or 'audio_url' in content %}"
    "{% set audio_count.value = audio_count.value + 1 %}"
    "Audio {{ audio_count.value }}: <|audio_bos|><|AUDIO|><|audio_eos|>\n" + _END
)
OMNI_TEMPLATE = (
    "{% set audio_count = namespace(value=0) %}{% set image_count = namespace(value=0) %}"
    + _SYSTEM
    + "{% if content['type'] == 'image' or 'image' in content or 'image_url' in content %}"
    "<|vision_bos|><|IMAGE|><|vision_eos|>"
    "{% elif content['type'] == 'audio' or 'audio' in content or 'audio_url' in content %}"
    "<|audio_bos|><|AUDIO|><|audio_eos|>" + _END
)


def _tokenizer():
    """A 512-token byte-level BPE with the Qwen special tokens, trained on the prompt files."""
    corpus = [p.read_text(encoding="utf-8") for p in sorted(PROMPTS_DIR.glob("*.toml"))]
    bpe = tokenizers.Tokenizer(tokenizers.models.BPE())
    bpe.pre_tokenizer = tokenizers.pre_tokenizers.ByteLevel(add_prefix_space=False)
    trainer = tokenizers.trainers.BpeTrainer(
        vocab_size=512, special_tokens=["<|endoftext|>", *CHAT_TOKENS, *NAMED_TOKENS.values()],
        initial_alphabet=tokenizers.pre_tokenizers.ByteLevel.alphabet(), show_progress=False,
    )
    bpe.train_from_iterator(corpus, trainer)
    trained = json.loads(bpe.to_str())["model"]
    tokenizer = transformers.Qwen2Tokenizer(
        vocab=trained["vocab"], merges=[tuple(m) for m in trained["merges"]],
        extra_special_tokens=NAMED_TOKENS,
    )
    tokenizer.add_tokens([tokenizers.AddedToken(t, special=True) for t in CHAT_TOKENS])
    return tokenizer


def _configs(tokenizer) -> tuple[dict, dict, dict]:
    special = ["<|endoftext|>", *CHAT_TOKENS, *NAMED_TOKENS.values()]
    ids = {token: tokenizer.convert_tokens_to_ids(token) for token in special}
    text = {
        "vocab_size": len(tokenizer), "hidden_size": 32, "intermediate_size": 64,
        "num_hidden_layers": 2, "num_attention_heads": 2, "num_key_value_heads": 1,
        "max_position_embeddings": 4096,
    }
    audio = {
        "d_model": 32, "encoder_layers": 2, "encoder_attention_heads": 2, "encoder_ffn_dim": 64,
        "num_mel_bins": 128,
    }
    return ids, text, audio


def _stop(model, ids: dict) -> None:
    model.generation_config.eos_token_id = [ids["<|endoftext|>"], ids["<|im_end|>"]]
    model.generation_config.pad_token_id = ids["<|endoftext|>"]


def write_tiny_models(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A random two-layer Qwen2-Audio and a Qwen2.5-Omni (full checkpoint, talker weights
    included) in the hub's layout, by family name."""
    torch.manual_seed(0)
    tokenizer = _tokenizer()
    ids, text, audio = _configs(tokenizer)
    features = transformers.WhisperFeatureExtractor(feature_size=128)

    qwen2_audio = tmp_path_factory.mktemp("qwen2-audio")
    config = transformers.Qwen2AudioConfig(
        audio_config=audio, text_config=text, audio_token_index=ids["<|AUDIO|>"]
    )
    model = transformers.Qwen2AudioForConditionalGeneration(config)
    _stop(model, ids)
    model.save_pretrained(qwen2_audio)
    transformers.Qwen2AudioProcessor(
        feature_extractor=features, tokenizer=tokenizer, chat_template=QWEN2_AUDIO_TEMPLATE
    ).save_pretrained(qwen2_audio)

    omni = tmp_path_factory.mktemp("qwen2.5-omni")
    thinker = transformers.Qwen2_5OmniThinkerConfig(
        audio_config={**audio, "output_dim": 32},
        vision_config={
            "depth": 1, "hidden_size": 16, "intermediate_size": 32, "num_heads": 2,
            "out_hidden_size": 32, "fullatt_block_indexes": [0],
        },
        text_config={**text, "rope_parameters": {
            "rope_type": "default", "rope_theta": 1e6, "mrope_section": [2, 3, 3],
        }},
        audio_token_index=ids["<|AUDIO|>"], image_token_index=ids["<|IMAGE|>"],
        video_token_index=ids["<|VIDEO|>"], audio_start_token_id=ids["<|audio_bos|>"],
        audio_end_token_id=ids["<|audio_eos|>"], vision_start_token_id=ids["<|vision_bos|>"],
    )
    config = transformers.Qwen2_5OmniConfig(thinker_config=thinker, enable_audio_output=False)
    model = transformers.Qwen2_5OmniForConditionalGeneration(config)
    _stop(model, ids)
    model.save_pretrained(omni)
    weights = safetensors_torch.load_file(omni / "model.safetensors")  # as on the hub: + talker
    weights["talker.codec_head.weight"] = torch.zeros(4, 4)
    weights["token2wav.code_embedding.weight"] = torch.zeros(4, 4)
    safetensors_torch.save_file(weights, omni / "model.safetensors", metadata={"format": "pt"})
    tokenizer.save_pretrained(omni)
    features.save_pretrained(omni)
    preprocessor = json.loads((omni / "preprocessor_config.json").read_text())
    preprocessor.update(
        processor_class="Qwen2_5OmniProcessor", image_processor_type="Qwen2VLImageProcessor"
    )
    (omni / "preprocessor_config.json").write_text(json.dumps(preprocessor))
    (omni / "chat_template.json").write_text(json.dumps({"chat_template": OMNI_TEMPLATE}))
    return {"qwen2_audio": qwen2_audio, "qwen2_5_omni": omni}
