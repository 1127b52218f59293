from __future__ import annotations

import pytest

from eval_backend.generation.base import opens_thinking, unclosed_thinking


@pytest.mark.parametrize(
    ("text", "prompt_opens", "expected"),
    [
        ("<think>\nplan\n</think>\n\nanswer", False, False),
        ("<think>\nplanning that never ends", False, True),
        ("plain answer", False, False),
        ("planning, opened by the template", True, True),
        ("plan</think>\n\nanswer", True, False),
        (None, True, False),
    ],
)
def test_unclosed_thinking(text: str | None, prompt_opens: bool, expected: bool) -> None:
    assert unclosed_thinking(text, prompt_opens) is expected


def test_a_prompt_opens_thinking_only_when_it_ends_inside_a_think_block() -> None:
    assert opens_thinking("<|im_start|>assistant\n<think>\n")
    assert not opens_thinking("<|im_start|>assistant\n<think>\n\n</think>\n\n")
    assert not opens_thinking("<|im_start|>assistant\n")
