"""Per-prompt token limits and raw prompts' special tokens, as the local backends build them."""

from __future__ import annotations

from pathlib import Path

from tokenizers.processors import TemplateProcessing

from eval_backend.benchmarks.prompting import Prompt
from eval_backend.generation.options import GenerationOptions
from eval_backend.generation.prompts import build_prompts, load_tokenizer
from tests.support.tiny_model import BOS


class _Item:
    def __init__(self, index: int) -> None:
        self.key = ("c", index)


def test_a_prompts_own_limit_caps_its_answer_below_the_runs(tiny_model: Path) -> None:
    options = GenerationOptions(model=str(tiny_model), max_tokens=300)
    tokenizer = load_tokenizer(options)
    limits = {0: Prompt(text="a letter", max_tokens=8), 1: Prompt(text="an essay", max_tokens=1024), 2: Prompt.raw("x")}
    items = [_Item(i) for i in limits]
    prompts, refused = build_prompts(tokenizer, items, options, 512, lambda item: limits[item.key[1]])
    assert refused == []
    assert [prompt.max_tokens for prompt in prompts] == [8, 300, 300]  # never above the run's limit
    assert Prompt(text="t", max_tokens=8).token_limit(4) == 4 and Prompt.raw("t").token_limit(4) == 4


def test_a_raw_prompt_gets_the_tokenizers_special_tokens_and_a_chat_one_none_twice(tiny_model: Path) -> None:
    options = GenerationOptions(model=str(tiny_model))
    tokenizer = load_tokenizer(options)
    bos = tokenizer.convert_tokens_to_ids(BOS)
    # A tokenizer that prepends BOS to any text, as Llama's and Gemma's do.
    tokenizer.backend_tokenizer.post_processor = TemplateProcessing(single=f"{BOS} $A", special_tokens=[(BOS, bos)])
    raw, chat = Prompt.raw("Answer:"), Prompt.user("Answer:")
    prompts, _ = build_prompts(tokenizer, [_Item(0), _Item(1)], options, 512, lambda item: [raw, chat][item.key[1]])
    assert prompts[0].token_ids == tokenizer("Answer:")["input_ids"] and prompts[0].token_ids[0] == bos
    rendered = tokenizer.apply_chat_template(chat.chat_messages(), tokenize=False, add_generation_prompt=True)
    assert prompts[1].token_ids == tokenizer(rendered, add_special_tokens=False)["input_ids"]
