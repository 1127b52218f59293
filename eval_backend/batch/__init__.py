"""Judging through the provider's Batch API (OpenAI, Azure OpenAI global batch): half the price,
answers within 24 hours instead of seconds.

The owed judge calls are written as batch input files within the provider's limits, uploaded
and run as batches; every file and batch id is recorded in the run folder
(`judge_batches.jsonl`) before the next step, so a process killed at any point resumes polling
the batches it already paid for instead of submitting them again. Answers are parsed with the
same strict verdict rules as live calls and written as the same judgment lines.
"""

from eval_backend.batch.runner import judge_in_batches

__all__ = ["judge_in_batches"]
