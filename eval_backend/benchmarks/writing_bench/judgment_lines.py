"""WritingBench's verdict file, judgments.jsonl: a `Judgment` per rubric criterion of each answer.

The rubric judge is a judge scorer like any other (one call per criterion, its parts "0".."4");
only its lines keep their own shape, with the criterion's name and the item's variant and
domain, which the run folders on the Hub and their readers have always had.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from eval_backend.benchmarks.writing_bench.records import Item, ItemMeta, Judgment, judgment_from_dict
from eval_backend.verdict_lines import VerdictLines

if TYPE_CHECKING:
    from eval_backend.benchmarks.writing_bench.verdict import Verdict
    from eval_backend.judge_client import JudgeOutcome


def build_judgment(
    item: Item | ItemMeta,
    criterion_index: int,
    response_sha256: str,
    judge_model: str,
    outcome: JudgeOutcome[Verdict],
    prompt_sha256: str,
) -> Judgment:
    """The judgment line of one criterion's outcome, however it was judged (live or in a batch)."""
    verdict = outcome.verdict
    return Judgment(
        config=item.config,
        index=item.index,
        id=item.id,
        variant=item.variant,
        domain=item.domain,
        subdomain=item.subdomain,
        criterion_index=criterion_index,
        criterion=str(item.checklist[criterion_index].get("name", "")),
        score=verdict.score if verdict else None,
        reason=verdict.reason if verdict else None,
        judge_model=judge_model,
        attempts=outcome.attempts,
        usage=outcome.usage,
        response_sha256=response_sha256,
        prompt_sha256=prompt_sha256,
        error=outcome.error,
        error_kind=outcome.error_kind,
        raw_text=None if verdict else outcome.raw_text,
        item_sha256=item.item_sha256,
    )


def _write(
    item: Any, scorer: str, part: str, response_sha256: str, judge_model: str, outcome: JudgeOutcome[Verdict],
    prompt_sha256: str, temperature: float | None,
) -> Judgment:
    return build_judgment(item, int(part), response_sha256, judge_model, outcome, prompt_sha256)


JUDGMENT_LINES = VerdictLines(
    file="judgments.jsonl",
    read=judgment_from_dict,
    part=lambda judgment: str(judgment.criterion_index),
    write=_write,
    prompt_sha256=lambda judgment: judgment.prompt_sha256,
)
"""judgments.jsonl: a `Judgment` per criterion, sent without a temperature (the seed's judge protocol)."""
