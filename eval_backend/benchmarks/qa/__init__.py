"""The short-answer QA benchmark's scoring (seed 002): pure scorers over typed records.

Public API (everything a benchmark plug-in or a CLI needs; all pure unless marked async):

Records (`records`)
    QaRow(question, answer, domain, response)  one question; golden `answer` never stripped
    QaVerdict  exact_correct, overlap_correct, matching_words, total_golden_words,
               blank_response, empty_golden; `.agreement` -> Agreement bucket
    Agreement  BOTH / EXACT_ONLY / OVERLAP_ONLY / NEITHER ("both", "exact_only", ...)
    EquivalenceVerdict(correct, reason)  the judge's parsed answer
    QaJudgment(correct | None, reason, attempts, usage, error_kind)  None = failed, left out

Deterministic scorers (`scorers`)
    exact_substring(answer, response) -> bool     `answer.lower() in response.lower()`
    word_overlap(answer, response) -> OverlapScore  set inclusion of words(...)
    words(text) -> frozenset[str]                   lowercase, split, strip punctuation
    score_row(row, form=None) -> QaVerdict          both, with the blank-response rule
    Normalization.NFC, normalized(row, form), nfc_would_change(row)

LLM judge of equivalence (`judge`)
    judge_messages(row), parse_equivalence_verdict(text), rule_judgment(row)
    async judge_row(row, client), async judge_rows(rows, client, on_done) (a bounded pool of
    workers; a judge that stops raises JudgingStopped carrying every row's judgment)
    with a `JudgeClient(settings, temperature=JUDGE_TEMPERATURE)`

Aggregation (`summary`)
    scorer_accuracy(domains, correct) -> ScorerAccuracy (combined micro-average, per domain;
    None verdicts left out), agreement_counts(verdicts), judge_summary(...),
    summarize(rows, verdicts, form, judge) -> QaSummary with `.to_json()` (qa-score's schema)

CSV files (`csv_io`, over the engine's text reader `eval_backend.text_csv`):
    read_responses_csv(path, need_question, limit), write_scored_csv(path, table, verdicts, judgments).
"""

from eval_backend.benchmarks.qa.records import (
    Agreement,
    EquivalenceVerdict,
    OverlapScore,
    QaJudgment,
    QaRow,
    QaVerdict,
)
from eval_backend.benchmarks.qa.scorers import (
    Normalization,
    exact_substring,
    nfc_would_change,
    normalized,
    score_row,
    word_overlap,
    words,
)
from eval_backend.benchmarks.qa.summary import (
    Accuracy,
    QaSummary,
    ScorerAccuracy,
    agreement_counts,
    judge_summary,
    scorer_accuracy,
    summarize,
)

__all__ = [
    "Accuracy",
    "Agreement",
    "EquivalenceVerdict",
    "Normalization",
    "OverlapScore",
    "QaJudgment",
    "QaRow",
    "QaSummary",
    "QaVerdict",
    "ScorerAccuracy",
    "agreement_counts",
    "exact_substring",
    "judge_summary",
    "nfc_would_change",
    "normalized",
    "score_row",
    "scorer_accuracy",
    "summarize",
    "word_overlap",
    "words",
]
