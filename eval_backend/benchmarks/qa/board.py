"""The QA benchmark's board tab: its introduction, per-language and per-domain figures, readable items.

The item table shows what a reader checks (the question, the golden answer, the answer and the
three verdicts with the judge's reason); the matching words, agreement bucket, reasoning and
errors stay in the downloads.
"""

from __future__ import annotations

from typing import Any

from eval_backend.benchmarks.board_view import (
    ANSWER_LENGTH,
    BY_LANGUAGE,
    HEADLINE_FIGURE,
    LENGTH_FIGURE,
    BoardView,
    Breakdown,
    FigureKind,
    FigureSpec,
    ItemField,
    ItemFilter,
    ItemView,
    Row,
    verdict_text,
)
from eval_backend.benchmarks.qa.about import ABOUT
from eval_backend.benchmarks.style_features import LOG_LENGTH

INTRO = (
    "Short factual questions, one per chat turn, answered greedily. Each answer (the text after "
    "`</think>`) is scored three ways: **exact substring** (the golden answer inside the response, "
    "case-insensitive), **word overlap** (every golden word present) and an **LLM judge** of equivalence. "
    "Accuracies are micro-averages in %. *Overlap only* counts answers whose words match but not as a "
    "phrase: they need review. Blank answers count as wrong and are counted."
)


def _judge(row: Row) -> str:
    error = row.get("judge_error")
    return f"failed: {error}" if isinstance(error, str) and error else verdict_text(row.get("judge_correct"))


def _is(value: Any, expected: bool) -> bool:
    return verdict_text(value) == ("right" if expected else "wrong")


def _answer(row: Row) -> str:
    response = row.get("response")
    return response if isinstance(response, str) else f"(no answer: {row.get('response_error') or 'none recorded'})"


def item_view(row: Row) -> ItemView:
    """The question, the answer, and each scorer's verdict with the golden answer and the judge's reason."""
    reason = row.get("judge_reason") if isinstance(row.get("judge_reason"), str) else ""
    verdict = (f"Golden answer: {row.get('answer')}\nJudge: {_judge(row)}{f' ({reason})' if reason else ''}\n"
               f"Exact substring: {verdict_text(row.get('exact_correct'))}\n"
               f"Word overlap: {verdict_text(row.get('overlap_correct'))}")
    return ItemView(question=str(row.get("question") or ""), response=_answer(row), verdict=verdict)


QA_BOARD = BoardView(
    tab="qa",
    intro=INTRO,
    in_brief="short answers",
    about=ABOUT,
    breakdowns=(BY_LANGUAGE, Breakdown("domain", "Domain", "by_domain")),
    figures=(
        HEADLINE_FIGURE,
        FigureSpec("languages", FigureKind.HEATMAP, "Judge accuracy per language", "language"),
        FigureSpec("domains", FigureKind.HEATMAP, "Judge accuracy per domain", "domain"),
        FigureSpec("metrics", FigureKind.BARS, "The three scorers side by side", metrics=("judge", "exact", "overlap")),
        LENGTH_FIGURE,
    ),
    group=ItemField("config", "Language"),
    item_fields=(
        ItemField("question", "Question"),
        ItemField("answer", "Golden answer"),
        ItemField("response", "Answer", _answer),
        ANSWER_LENGTH,
        ItemField("judge_verdict", "Judge", _judge),
        ItemField("exact_verdict", "Exact", lambda row: verdict_text(row.get("exact_correct"))),
        ItemField("overlap_verdict", "Overlap", lambda row: verdict_text(row.get("overlap_correct"))),
        ItemField("judge_reason", "Judge's reason"),
    ),
    item_filters=(
        ItemFilter("judge wrong", lambda row: _is(row.get("judge_correct"), False)),
        ItemFilter("judge right", lambda row: _is(row.get("judge_correct"), True)),
        ItemFilter("overlap only", lambda row: row.get("agreement") == "overlap_only"),
        ItemFilter("exact only", lambda row: row.get("agreement") == "exact_only"),
        ItemFilter("blank", lambda row: _is(row.get("blank_response"), True)),
        ItemFilter("judge failed", lambda row: isinstance(row.get("judge_error"), str) and bool(row["judge_error"])),
    ),
    item_view=item_view,
    style_features=(LOG_LENGTH,),
)
