"""The LLM judge of equivalence: does the response state the golden answer?

Seed 002 leaves `llm_judge.py`'s prompt to the user, so this one is ours (README, "qa-score"):
a response is correct when it asserts an answer equivalent to the golden one, not when it
merely mentions it ("Delhi is not the answer; it's Mumbai" is wrong for golden "Delhi").
The answer must be a JSON object `{"correct": true|false, "reason": "..."}`, parsed as
strictly as the WritingBench verdict. Calls go through the engine's `JudgeClient` (its
retries, concurrency bound and failure kinds) at temperature 0 where the judge accepts it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Sequence

from eval_backend.benchmarks.qa.records import EquivalenceVerdict, QaJudgment, QaRow
from eval_backend.benchmarks.qa.scorers import is_blank, words
from eval_backend.concurrency import run_workers

if TYPE_CHECKING:  # the client's HTTP stack is imported by whoever builds one, not by the scorers' package
    from eval_backend.judge_client import JudgeClient, JudgeConfigError
from eval_backend.verdict import VerdictError, parse_json_object

JUDGE_TEMPERATURE = 0.0
"""The seed asks for temperature 0 "or scores will not reproduce"."""

SYSTEM_PROMPT = (
    "You grade answers to short factual questions, in English and in Indian languages. "
    "You are given a question, its golden answer and a model's response. Decide whether the "
    "response states an answer equivalent to the golden answer."
)

JUDGE_PROMPT = """Rules:
- Correct: the response commits to an answer that means the same as the golden answer, in any \
wording, language, script or transliteration, including synonyms, inflected forms and equivalent \
numbers, dates or units. Extra detail is fine as long as it does not contradict the golden answer.
- Wrong: the response commits to a different answer, only mentions the golden answer without \
asserting it (for example names it in order to reject it), hedges between several answers, or \
gives no answer.

Question:
<question>
{question}
</question>

Golden answer:
<golden>
{answer}
</golden>

Response:
<response>
{response}
</response>

Reply with only a JSON object and nothing else: {{"correct": true or false, "reason": "<one sentence>"}}"""


def judge_messages(row: QaRow) -> list[dict[str, str]]:
    """The chat messages asking the judge about one row; every field is inserted as given."""
    user = JUDGE_PROMPT.format(question=row.question, answer=row.answer, response=row.response)
    return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": user}]


def parse_equivalence_verdict(text: str | None) -> EquivalenceVerdict:
    """The judge's answer as a verdict: a JSON object (bare or ```json-fenced) with a boolean
    `correct` and a string `reason`. `"true"`, 1 or null for `correct` are refused, never guessed."""
    data = parse_json_object(text)
    correct, reason = data.get("correct"), data.get("reason")
    if type(correct) is not bool:
        raise VerdictError(f"'correct' must be true or false, got {correct!r}")
    if not isinstance(reason, str):
        raise VerdictError("'reason' is missing or not a string")
    return EquivalenceVerdict(correct=correct, reason=reason)


def rule_judgment(row: QaRow) -> QaJudgment | None:
    """The judgment the seed's rules fix without a call: blank response wrong, empty golden right."""
    if is_blank(row.response):
        return QaJudgment(correct=False, reason="blank response")
    if not words(row.answer):
        return QaJudgment(correct=True, reason="empty golden answer")
    return None


async def judge_row(row: QaRow, client: JudgeClient) -> QaJudgment:
    """One row's judgment: by rule when the seed fixes it, else one judge call (retried as the client does)."""
    ruled = rule_judgment(row)
    if ruled is not None:
        return ruled
    outcome = await client.judge(judge_messages(row), parse_equivalence_verdict)
    verdict = outcome.verdict
    if verdict is None:
        return QaJudgment(None, outcome.error or "judgment failed", outcome.attempts, outcome.usage, outcome.error_kind)
    return QaJudgment(verdict.correct, verdict.reason, outcome.attempts, outcome.usage)


class JudgingStopped(Exception):
    """The judge refused us outright mid-way (auth, quota, endpoint gone): the calls stopped.

    `judgments` has one entry per row all the same: those made, and the rest failed with
    this error, so the caller can still save what was decided and say so.
    """

    def __init__(self, error: JudgeConfigError, judgments: list[QaJudgment]) -> None:
        super().__init__(str(error))
        self.error = error
        self.judgments = judgments

    @property
    def judged(self) -> int:
        """How many rows got a judgment before the stop (failed ones included)."""
        return sum(judgment.error_kind != NOT_JUDGED for judgment in self.judgments)


NOT_JUDGED = "not_judged"
"""The `error_kind` of a row left unjudged because the judge stopped (`JudgingStopped`)."""


async def judge_rows(
    rows: Sequence[QaRow], client: JudgeClient, on_done: Callable[[QaJudgment], None] | None = None
) -> list[QaJudgment]:
    """Every row's judgment, in order, by as many workers as the client lets calls run at once.

    A JudgeConfigError (the endpoint refuses us outright) stops the calls and is raised as
    JudgingStopped, which carries the judgments made and the rest marked failed.
    """
    from eval_backend.judge_client import JudgeConfigError  # loaded already: `client` is one

    judgments: list[QaJudgment | None] = [None] * len(rows)

    async def judge(number: int) -> None:
        judgment = judgments[number] = await judge_row(rows[number], client)
        if on_done:
            on_done(judgment)

    try:
        await run_workers(range(len(rows)), judge, min(client.limiter.max_limit, len(rows)))
    except JudgeConfigError as error:
        stopped = f"not judged: {error}"
        raise JudgingStopped(
            error, [judgment or QaJudgment(None, stopped, error_kind=NOT_JUDGED) for judgment in judgments]
        ) from error
    return [judgment for judgment in judgments if judgment is not None]
