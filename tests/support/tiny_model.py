"""Build a tiny, randomly initialised chat model that transformers loads offline.

The model is a 2-layer Llama causal LM (a few hundred KB of safetensors) with a byte-level BPE
tokenizer trained on the spot on a small multilingual corpus, so Devanagari and Tamil text
round-trip through encode/decode. It writes nonsense, quickly, on CPU: enough to run the real
generation code path end to end.

    path = build_tiny_chat_model(tmp_path / "tiny")
    model = AutoModelForCausalLM.from_pretrained(path)
    tokenizer = AutoTokenizer.from_pretrained(path)
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from pathlib import Path

__all__ = ["BOS_CHATML_TEMPLATE", "CHATML_TEMPLATE", "DEFAULT_TEMPLATE", "SPECIAL_TOKENS", "build_tiny_chat_model"]

BOS, EOS, PAD = "<|bos|>", "<|endoftext|>", "<|pad|>"
IM_START, IM_END = "<|im_start|>", "<|im_end|>"
SPECIAL_TOKENS: tuple[str, ...] = (PAD, BOS, EOS, IM_START, IM_END)

# ChatML, as Qwen models use it; the generation prompt opens the assistant turn.
CHATML_TEMPLATE = (
    "{% for message in messages %}"
    "{{ '<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>' + '\n' }}"
    "{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}"
)
DEFAULT_TEMPLATE = CHATML_TEMPLATE
# As Llama-style templates do: the template writes BOS itself, whatever the tokenizer adds.
BOS_CHATML_TEMPLATE = "{{ bos_token }}" + CHATML_TEMPLATE

# Enough text in each script that BPE learns its characters and some merges.
_CORPUS: tuple[str, ...] = (
    "Write an article based on the reference material below.",
    "The monsoon arrived early this year, and farmers began sowing across the plains.",
    "Please neeche diye gaye material ke basis par ek article likhiye.",
    "कृपया नीचे दी गई सामग्री के आधार पर एक लेख लिखिए।",
    "भारत की विविधता उसकी सबसे बड़ी ताकत है। हर राज्य की अपनी भाषा और परंपरा है।",
    "पावसाळ्यात कोकणातील निसर्ग अधिकच सुंदर दिसतो.",
    "கீழே கொடுக்கப்பட்டுள்ள தகவல்களின் அடிப்படையில் ஒரு கட்டுரை எழுதுங்கள்.",
    "தமிழ்நாட்டின் கோவில்கள் பழமையான கட்டிடக் கலைக்கு சான்றாக உள்ளன.",
    "কলকাতার বইমেলা প্রতি বছর লক্ষ লক্ষ পাঠককে আকর্ষণ করে।",
    "హైదరాబాద్ బిర్యానీ ప్రపంచవ్యాప్తంగా ప్రసిద్ధి చెందింది.",
    '{"score": 7, "reason": "The response follows the reference closely."}',
    "<think>\nLet me plan the answer first.\n</think>\n\nHere is the article.",
)


def build_tiny_chat_model(
    out_dir: Path,
    *,
    chat_template: str | None = DEFAULT_TEMPLATE,
    max_position_embeddings: int = 512,
    vocab_size: int = 512,
    seed: int = 0,
    hidden_size: int = 64,
    num_attention_heads: int = 4,
    adds_bos: bool = False,
    generation_eos_ids: Sequence[int] | None = None,
    repetition_penalty: float | None = None,
    never_ends: bool = False,
) -> Path:
    """Write a tiny causal LM, its tokenizer and generation config to ``out_dir``; return it.

    ``chat_template=None`` leaves the tokenizer without a chat template, for code that must
    refuse such models. The same ``seed`` gives the same weights. vLLM's CPU attention needs
    a head size of at least 64: ``hidden_size=128, num_attention_heads=2`` gives one.
    ``adds_bos=True`` makes ``tokenizer(text)`` start every text with BOS, as Llama's does.
    ``generation_eos_ids`` replaces the generation config's end tokens (by default the
    tokenizer's EOS and ``<|im_end|>``), for a model whose generation stops at other tokens
    than its tokenizer's EOS. ``repetition_penalty`` goes in the generation config, which
    ``model.generate`` applies by itself: a random model's greedy replies then stop looping.
    ``never_ends=True`` suppresses every end token (the generation config's and the tokenizer's
    EOS) in the generation config, so every greedy reply runs to its token limit.
    """
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    tokenizer = _build_tokenizer(vocab_size, chat_template, max_position_embeddings, adds_bos)
    tokenizer.save_pretrained(out_dir)
    model = _build_model(tokenizer, max_position_embeddings, seed, hidden_size, num_attention_heads)
    if generation_eos_ids is not None:
        model.generation_config.eos_token_id = list(generation_eos_ids)
    if repetition_penalty is not None:
        model.generation_config.repetition_penalty = repetition_penalty
    if never_ends:
        model.generation_config.suppress_tokens = sorted({*model.generation_config.eos_token_id, tokenizer.eos_token_id})
    with _quiet_progress_bars():
        model.save_pretrained(out_dir, safe_serialization=True)
    return out_dir


@contextlib.contextmanager
def _quiet_progress_bars() -> Iterator[None]:
    """Hide transformers' "Writing model shards" bar for one save, restoring the setting."""
    from transformers.utils import logging as hf_logging

    was_enabled = hf_logging.is_progress_bar_enabled()
    hf_logging.disable_progress_bar()
    try:
        yield
    finally:
        if was_enabled:
            hf_logging.enable_progress_bar()


def _build_tokenizer(vocab_size: int, chat_template: str | None, model_max_length: int, adds_bos: bool):  # noqa: ANN202 - transformers type imported lazily
    """A byte-level BPE tokenizer trained on :data:`_CORPUS`, wrapped for transformers."""
    # Imported here so that importing this module stays cheap for tests that don't need it.
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers
    from transformers import PreTrainedTokenizerFast

    backend = Tokenizer(models.BPE())
    # Byte-level pre-tokenisation gives every byte a token, so any UTF-8 text round-trips.
    backend.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    backend.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=list(SPECIAL_TOKENS),
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    backend.train_from_iterator(_CORPUS, trainer=trainer)
    if adds_bos:
        bos = (BOS, backend.token_to_id(BOS))
        backend.post_processor = processors.TemplateProcessing(single=f"{BOS} $A", pair=f"{BOS} $A $B", special_tokens=[bos])
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=backend,
        bos_token=BOS,
        eos_token=EOS,
        pad_token=PAD,
        additional_special_tokens=[IM_START, IM_END],
        model_max_length=model_max_length,
        clean_up_tokenization_spaces=False,
    )
    tokenizer.chat_template = chat_template
    return tokenizer


def _build_model(  # noqa: ANN202
    tokenizer, max_position_embeddings: int, seed: int, hidden_size: int, num_attention_heads: int  # noqa: ANN001
):
    """A randomly initialised 2-layer Llama LM sized to the tokenizer, with its gen config.

    Llama rather than Qwen2: transformers 5 loads every ``qwen2`` checkpoint with its own
    ``Qwen2Tokenizer``, which rebuilds the pre-tokenizer and adds NFC normalisation, whereas a
    ``llama`` checkpoint whose tokenizer_config says ``TokenizersBackend`` loads the saved
    tokenizer.json exactly as built here.
    """
    import torch
    from transformers import GenerationConfig, LlamaConfig, LlamaForCausalLM

    # A chat model stops at the end of its turn, so <|im_end|> ends generation as well.
    eos_ids = [tokenizer.convert_tokens_to_ids(EOS), tokenizer.convert_tokens_to_ids(IM_END)]
    config = LlamaConfig(
        vocab_size=len(tokenizer),
        hidden_size=hidden_size,
        intermediate_size=2 * hidden_size,
        num_hidden_layers=2,
        num_attention_heads=num_attention_heads,
        num_key_value_heads=2,
        max_position_embeddings=max_position_embeddings,
        tie_word_embeddings=True,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=eos_ids,
        pad_token_id=tokenizer.pad_token_id,
        dtype="float32",
    )
    torch.manual_seed(seed)
    model = LlamaForCausalLM(config)
    model.generation_config = GenerationConfig(
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=eos_ids,
        pad_token_id=tokenizer.pad_token_id,
    )
    return model


if __name__ == "__main__":  # pragma: no cover - manual check: python -m tests.support.tiny_model
    import tempfile
    import time

    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        path = build_tiny_chat_model(Path(tmp) / "tiny")
        size = sum(p.stat().st_size for p in path.iterdir())
        print(f"built {path} ({size // 1024} KiB) in {time.perf_counter() - started:.2f}s")
        print(sorted(p.name for p in path.iterdir()))
