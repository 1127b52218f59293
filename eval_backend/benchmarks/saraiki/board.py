"""The Saraiki benchmark's board tab: its introduction, the prompt mode, each task's figures, readable items.

The item table shows each prompt without its few-shot examples, the reply, the answer read
and the expected one, each instruction's check and the refusal verdict; the opened item shows
the few-shot examples apart. Everything else of a row (finish reasons, errors, raw fields)
stays in the downloads.
"""

from __future__ import annotations

from typing import Any, Mapping

from eval_backend.benchmarks.board_view import (
    ANSWER_LENGTH,
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
    RunColumn,
    verdict_text,
)
from eval_backend.benchmarks.saraiki.about import ABOUT
from eval_backend.benchmarks.saraiki.tasks import TASKS

INTRO = (
    "The [Saraiki LLM Benchmark](https://huggingface.co/datasets/themohal/saraiki-llm-bench) (gated): seven "
    "tasks in Saraiki, each reported on its own, exactly as its reference script scores them. Multiple choice "
    "and math are accuracies (%) with their few-shot examples from `dev` (5 shots, math 8); instruction "
    "following is the share of prompts whose every IFEval / IFBench rule is met (strict); truthfulness is "
    "0-shot multiple choice. Safety has two rates, never averaged: **refusals** of harmful requests "
    "(higher is better) and **over-refusals** of benign ones (lower is better). *Prompts* says whether the "
    "model was prompted in its chat template or with raw text; *Mode* how greedy replies were batched "
    "(`reference`: one at a time, as the script)."
)


def prompt_mode(summary: Mapping[str, Any]) -> str:
    """How the prompts were sent: "chat" (the model's chat template), "raw" (plain text) or "mixed". How the
    replies were batched is every board's Mode column (`eval_backend.generation.decoding_mode`)."""
    chat = summary.get("chat")
    return "chat" if chat is True else "raw" if chat is False else "mixed"


def question(row: Row) -> str:
    """The item's own prompt, without its few-shot examples."""
    prompt = row.get("prompt")
    return prompt[int(row.get("shots_chars") or 0):] if isinstance(prompt, str) else ""


def instruction_summary(checks: Any) -> str | None:
    """One line per checked instruction: its id, strict and loose verdicts, or its error."""
    if checks is None or isinstance(checks, float):  # not an instruction item (NaN after parquet)
        return None
    lines = []
    for check in list(checks):  # a list, or an array once read back from parquet
        if check.get("error"):
            lines.append(f"{check['instruction_id']}: ERROR {check['error']}")
        else:
            lines.append(f"{check['instruction_id']}: strict {_mark(check['strict'])}, loose {_mark(check['loose'])}")
    return "\n".join(lines)


def _mark(value: Any) -> str:
    return "pass" if value else "fail"


def refusal(row: Row) -> str | None:
    """A safety reply's verdict: its label, how it was classified and why; None on other tasks."""
    if row.get("task") != "safety":
        return None
    if isinstance(row.get("refusal_error"), str):
        return f"unclassified: {row['refusal_error']}"
    label = row.get("refusal_label")
    return f"{label} ({row.get('refusal_method')}): {row.get('refusal_reason')}" if isinstance(label, str) else None


def _reply(row: Row) -> str | None:
    response = row.get("response")
    return response if isinstance(response, str) else None


def item_view(row: Row) -> ItemView:
    """One item in full: few-shot examples apart from the question, the reply, how it was scored."""
    prompt = row.get("prompt") if isinstance(row.get("prompt"), str) else ""
    response = _reply(row)
    return ItemView(
        question=question(row),
        response=response if response is not None else f"(no response: {row.get('response_error')})",
        verdict=_verdict(row),
        shots=prompt[:int(row.get("shots_chars") or 0)],
    )


def _verdict(row: Row) -> str:
    if row.get("task") == "safety":
        return refusal(row) or "not classified yet"
    checks = instruction_summary(row.get("instruction_checks"))
    if checks is not None:
        return checks
    correct = verdict_text(row.get("correct"))
    if not correct:
        return "not scored"
    return f"answer read: {row.get('extracted')!s} ({correct}; expected {row.get('expected')})"


ACCURACY_METRICS = ("knowledge", "knowledge_hard", "commonsense", "reading_comprehension", "math",
                    "instruction_following", "truthfulness")
"""The metrics that are each task's accuracy (in %, higher is better): the task heatmap's columns."""
METRIC_TASKS = {**{task.name: task.name for task in TASKS if task.name != "safety"},
                "refusal_rate": "safety", "over_refusal_rate": "safety"}
"""The task each metric is computed on: its ranking cell opens that task's items."""

SARAIKI_BOARD = BoardView(
    tab="saraiki",
    intro=INTRO,
    in_brief="seven tasks",
    about=ABOUT,
    run_columns=(RunColumn("prompts", "Prompts", prompt_mode),),
    breakdowns=(Breakdown("task", "Task", "tasks"),),
    # Accuracies in one heatmap; the two safety rates apart, each its own direction (refusing harmful prompts is
    # good, refusing benign ones is not): never one bar group.
    figures=(
        HEADLINE_FIGURE,
        FigureSpec("tasks", FigureKind.HEATMAP, "Accuracy per task", metrics=ACCURACY_METRICS),
        FigureSpec("refusals", FigureKind.HEADLINE, "Refusal rate on harmful prompts", metrics=("refusal_rate",)),
        FigureSpec("over-refusals", FigureKind.HEADLINE, "Over-refusal rate on benign prompts",
                   metrics=("over_refusal_rate",)),
        LENGTH_FIGURE,
    ),
    group=ItemField("task", "Task"),
    item_fields=(
        ItemField("question", "Question", question),
        ItemField("response", "Reply", _reply),
        ANSWER_LENGTH,
        ItemField("extracted", "Answer read"),
        ItemField("expected", "Expected"),
        ItemField("correct", "Right?", lambda row: verdict_text(row.get("correct"))),
        ItemField("instructions", "Instructions", lambda row: instruction_summary(row.get("instruction_checks"))),
        ItemField("refusal", "Refusal", refusal),
    ),
    item_filters=(
        ItemFilter("wrong", lambda row: verdict_text(row.get("correct")) == "wrong"),
        ItemFilter("right", lambda row: verdict_text(row.get("correct")) == "right"),
        ItemFilter("instruction errors", lambda row: ": ERROR " in (instruction_summary(row.get("instruction_checks"))
                                                                     or "")),
        ItemFilter("refusals", lambda row: (refusal(row) or "").startswith(("refusal", "partial_refusal"))),
        ItemFilter("no response", lambda row: _reply(row) is None),
    ),
    item_view=item_view,
    metric_groups=METRIC_TASKS,
)
