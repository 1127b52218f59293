"""The Saraiki LLM Benchmark (seed 003): seven tasks reproduced exactly as its reference script.

`tasks` lists the tasks and their decoding, `rows` reads dataset rows, `prompts` builds the
script's prompts, `answers` reads letters and numbers out of replies, `instructions` runs the
IFEval / IFBench checkers, `refusal` classifies safety replies by keyword, and `metrics` turns
the per-item results into the summary's figures.
"""

from eval_backend.benchmarks.saraiki.tasks import DATASET_ID, TASKS, TASKS_BY_NAME, SaraikiTask, TaskKind

__all__ = ["DATASET_ID", "TASKS", "TASKS_BY_NAME", "SaraikiTask", "TaskKind"]
