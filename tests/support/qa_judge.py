"""A stand-in QA judge for the chat server: answers `qa-score --judge` prompts with JSON verdicts.

Plug it into :class:`tests.support.chat_server.StandInChatServer` as its reply function::

    with StandInChatServer(qa_judge_reply()) as server: ...

The default decision is a toy rule standing in for a judge's reading (the golden answer is
mentioned and the response has no negation word), enough to tell "Delhi" from "Delhi is not
the answer". Requests that are not QA judge prompts get HTTP 400, so a wrong prompt fails loudly.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Callable

from tests.support.chat_server import Reply, ReplyFn, user_text

_PROMPT = re.compile(
    r"<question>\n(?P<question>.*?)\n</question>.*?<golden>\n(?P<answer>.*?)\n</golden>.*?"
    r"<response>\n(?P<response>.*)\n</response>",
    re.DOTALL,
)
_NEGATIONS = ("not", "isn't", "नहीं", "இல்லை")

TEMPERATURE_REFUSAL = (
    "Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported."
)


@dataclass(frozen=True)
class QaJudgePrompt:
    """The three fields a QA judge prompt carries, as the judge received them."""

    question: str
    answer: str
    response: str


def parse_qa_judge_prompt(text: str) -> QaJudgePrompt | None:
    """Split a QA judge prompt into its fields; None if `text` is not one."""
    match = _PROMPT.search(text)
    return QaJudgePrompt(**match.groupdict()) if match else None


def toy_decision(prompt: QaJudgePrompt) -> bool:
    """Correct when the golden answer appears and nothing negates it (a stand-in, not a judge)."""
    response = prompt.response.lower()
    words = re.findall(r"[\w']+", response)
    return prompt.answer.lower() in response and not any(negation in words for negation in _NEGATIONS)


def qa_verdict(correct: Any, reason: str | None = "Stand-in QA judgment.") -> str:
    """A QA judge answer as a ```json fence; `correct` is sent as given so faults can send "true"."""
    payload: dict[str, Any] = {"correct": correct}
    if reason is not None:
        payload["reason"] = reason
    return "```json\n" + json.dumps(payload, ensure_ascii=False) + "\n```"


def qa_judge_reply(
    decide: Callable[[QaJudgePrompt], bool] = toy_decision, *, refuse_temperature: bool = False
) -> ReplyFn:
    """A reply function answering QA judge prompts with `decide(prompt)`.

    With `refuse_temperature`, a request carrying a temperature other than 1 gets the 400
    that OpenAI's reasoning models send, with `param: temperature`.
    """

    def reply(body: dict[str, Any]) -> Reply:
        if refuse_temperature and body.get("temperature", 1) != 1:
            error = {"message": TEMPERATURE_REFUSAL, "type": "invalid_request_error", "param": "temperature"}
            return Reply(raw_body=json.dumps({"error": error}).encode(), status=400)
        prompt = parse_qa_judge_prompt(user_text(body))
        if prompt is None:
            return Reply(content="stand-in QA judge: not a QA judge prompt", status=400)
        correct = decide(prompt)
        return Reply(content=qa_verdict(correct, f"{'States' if correct else 'Does not state'} {prompt.answer!r}."))

    return reply
