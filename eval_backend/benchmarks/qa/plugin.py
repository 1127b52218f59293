"""The short-answer QA benchmark (seed 002) as a plug-in of the engine.

Each question is asked in one chat turn, greedily; the raw answer is kept and the text after
`</think>\\n\\n` is scored by the seed's two deterministic scorers and by an LLM judge of
equivalence (the scorers, judge prompt and aggregation are `eval_backend.benchmarks.qa`'s).
The summary reports, per language (config), per domain and pooled: exact %, overlap %,
judge %, blank responses and the "overlap only" rows that need review. A question the model
could not answer (its prompt does not fit its context) is scored as a blank answer: wrong
under every scorer, in every denominator (`NO_ANSWER`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Sequence

from eval_backend.benchmarks.no_answer import NoAnswerPolicy, ScorerValues
from eval_backend.benchmarks.metric import PERCENT, Metric
from eval_backend.benchmarks.plugin import Benchmark, JudgeScorer, RuleScorer, ScoredItem
from eval_backend.benchmarks.qa.board import QA_BOARD
from eval_backend.benchmarks.prompting import Prompt, SamplingDefaults, after_thinking
from eval_backend.benchmarks.qa.items import ROW_FIELDS, QaItem, item_from_meta, record_to_item
from eval_backend.benchmarks.qa.judge import JUDGE_TEMPERATURE, judge_messages, parse_equivalence_verdict, rule_judgment
from eval_backend.benchmarks.qa.records import Agreement, QaJudgment, QaRow, QaVerdict
from eval_backend.benchmarks.qa.scorers import score_row
from eval_backend.benchmarks.qa.summary import JudgeSummary, judge_summary, summarize
from eval_backend.item_status import NO_RESPONSE
from eval_backend.records import to_json_dict
from eval_backend.statistics.design import Weighting

if TYPE_CHECKING:
    from eval_backend.benchmarks.item_statistics import ItemStatistics

DECIDED_WITHOUT_CALL = ("rule", NO_RESPONSE)
"""`judge_model` of the verdicts no judge was asked for: by the seed's rules, by the no-answer policy."""
NAME = "indic_qa"
RULES, JUDGE = "qa", "judge"
MAX_TOKENS = 4096
"""Room for a reasoning model's thinking before its short answer; greedy answers stop early."""

_VERDICTS = {"weighting": Weighting.POOLED, "bounds": (0.0, 100.0)}
"""Each accuracy is the seed's combined figure, a micro-average over every question: per item 100 for a
right answer and 0 for a wrong one (`eval_backend.benchmarks.qa.statistics`)."""
METRICS = (
    Metric("judge", "Judge accuracy", PERCENT, **_VERDICTS),
    Metric("exact", "Exact substring", PERCENT, **_VERDICTS),
    Metric("overlap", "Word overlap", PERCENT, **_VERDICTS),
    Metric("blank_responses", "Blank responses", "count", higher_is_better=False),
    Metric("overlap_only", "Overlap only (review)", "count", higher_is_better=False),
)


def prompt(item: QaItem) -> Prompt:
    """The question, verbatim, as one user turn."""
    return Prompt.user(item.question)


def rule_values(item: QaItem, text: str) -> dict[str, Any]:
    """Both deterministic verdicts (the seed's rules, no normalisation) and their agreement bucket."""
    verdict = score_row(item.row(text))
    return {**to_json_dict(verdict), "agreement": verdict.agreement.value}


def judge_prompt(item: QaItem, text: str) -> list[dict[str, str]]:
    return judge_messages(item.row(text))


def ruled_judgment(item: QaItem, text: str) -> dict[str, Any] | None:
    """The verdict the seed's rules fix without a call (blank response, empty golden answer)."""
    ruled = rule_judgment(item.row(text))
    return None if ruled is None else {"correct": ruled.correct, "reason": ruled.reason}


def _blank_rules(item: QaItem) -> ScorerValues:
    return {RULES: rule_values(item, "")}


def _blank_judgment(item: QaItem) -> ScorerValues:
    return {JUDGE: ruled_judgment(item, "") or {}}  # the seed's rules always decide a blank answer


NO_ANSWER = NoAnswerPolicy(
    "A question the model could not answer (its prompt does not fit its context, an empty answer) is scored "
    "as the seed scores a blank answer: wrong by exact substring, word overlap and the judge, and counted in "
    "every denominator.",
    rules=_blank_rules,
    judges=_blank_judgment,
)


def aggregate(scored: Sequence[ScoredItem]) -> dict[str, Any]:
    """The counts among the metrics (the accuracies are the engine's, from each item's verdicts), then the seed's
    summary pooled, per language and per domain (every counted item: answered, or scored by the no-answer policy)."""
    answered = [entry for entry in scored if entry.counted]
    pooled = _summary(answered)
    languages = {config: _summary([e for e in answered if e.item.config == config])
                 for config in dict.fromkeys(entry.item.config for entry in answered)}
    domains = {domain: _summary([e for e in answered if e.item.domain == domain])
               for domain in sorted({entry.item.domain for entry in answered})}
    return {
        "metrics": _counts(pooled),
        "combined": pooled,
        "by_language": {name: {"metrics": _metrics(value), **value} for name, value in languages.items()},
        "by_domain": {name: {"metrics": _metrics(value), **value} for name, value in domains.items()},
        "empty_golden_items": [e.item.id for e in answered if e.rules[RULES]["empty_golden"]],
    }


def _metrics(summary: Mapping[str, Any]) -> dict[str, Any]:
    """A group's figures as the seed's summary of it gives them: its accuracies, then its counts."""
    return {
        "judge": (summary.get("judge") or {}).get("combined"),
        "exact": summary["exact"]["combined"],
        "overlap": summary["overlap"]["combined"],
        **_counts(summary),
    }


def _counts(summary: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "blank_responses": summary["blank_responses"],
        "overlap_only": summary["agreement"][Agreement.OVERLAP_ONLY.value],
        "n": summary["n"],
    }


def _summary(entries: Sequence[ScoredItem]) -> dict[str, Any]:
    rows = [entry.item.row(entry.judged_text or "") for entry in entries]  # no answer reads as a blank one
    verdicts = [_verdict(entry.rules[RULES]) for entry in entries]
    return summarize(rows, verdicts, judge=_judge_summary(entries, rows)).to_json()


def _verdict(values: Mapping[str, Any]) -> QaVerdict:
    return QaVerdict(**{name: values[name] for name in QaVerdict.__dataclass_fields__})


def _judge_summary(entries: Sequence[ScoredItem], rows: Sequence[QaRow]) -> JudgeSummary | None:
    """The judge's accuracy over the rows it has a verdict for (failed ones counted, pending ones left out)."""
    judged = [(row, entry.judges[JUDGE]) for row, entry in zip(rows, entries) if JUDGE in entry.judges]
    called = [record for _, record in judged if record.judge_model not in DECIDED_WITHOUT_CALL]
    if not called and not judged:
        return None
    judgments = [
        QaJudgment(None, record.error or "judgment failed", record.attempts, record.usage, record.error_kind)
        if record.failed else QaJudgment(record.values["correct"], record.values["reason"], record.attempts)
        for _, record in judged
    ]
    model = called[-1].judge_model if called else "rule"
    refused = any(record.temperature is None for record in called)
    return judge_summary(
        [row for row, _ in judged], judgments, model, None if refused else JUDGE_TEMPERATURE,
        "the judge model refused temperature 0; judged at its default" if refused else None,
    )


def _item_statistics() -> ItemStatistics:
    """Questions stand alone; the three pooled accuracies per item; imported on first use (it needs pandas)."""
    from eval_backend.benchmarks.qa.statistics import QA_STATISTICS

    return QA_STATISTICS


INDIC_QA = Benchmark(
    name=NAME,
    title="Indic QA",
    description=(
        "Short factual questions in English and Indian languages, scored by exact substring, "
        "word overlap and an LLM judge of equivalence (seed 002)."
    ),
    default_dataset=None,
    dataset_setting="QA_DATASET",
    split=None,
    known_configs=(),
    row_fields=ROW_FIELDS,
    record_to_item=record_to_item,
    item_from_meta=item_from_meta,
    prompt=prompt,
    judged_text=after_thinking,
    sampling=SamplingDefaults(temperature=0.0, top_p=1.0, top_k=-1, max_tokens=MAX_TOKENS),
    rules=(RuleScorer(RULES, rule_values),),
    judges=(JudgeScorer(JUDGE, judge_prompt, parse_equivalence_verdict, JUDGE_TEMPERATURE, ruled_judgment),),
    metrics=METRICS,
    headline="judge",
    aggregate=aggregate,
    no_answer=NO_ANSWER,
    item_statistics=_item_statistics,
    board=QA_BOARD,
)
