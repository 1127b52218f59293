"""What became of one item of a run: the four outcomes every benchmark's coverage counts.

- `SCORED`: every scorer has its verdict;
- `NO_RESPONSE`: the model could not answer (its prompt does not fit the context, an empty
  answer): scored by the benchmark's no-answer policy, never left out;
- `FAILED`: a judgment failed for good: counted, left out of the figures it would decide;
- `PENDING`: the system owes it something (a response, a current response, a judgment).

The tests on one response that decide between them (owed a response, answered) are here too, so
every benchmark's scorer decides them alike.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from eval_backend.benchmarks.plugin import Benchmark
    from eval_backend.records import ResponseRecord

SCORED, FAILED, PENDING, NO_RESPONSE = "scored", "failed", "pending", "no_response"


def response_is_current(response: ResponseRecord, query_sha256: str | None) -> bool:
    """Whether a response answered this revision of the query (unknown on either side: yes)."""
    return query_sha256 is None or response.query_sha256 is None or response.query_sha256 == query_sha256


def awaits_response(response: ResponseRecord | None, query_sha256: str | None) -> bool:
    """Whether an item is owed a (current) response before it can be scored: none yet, a
    system failure, or an answer to an older revision of its query."""
    return response is None or response.system_error or not response_is_current(response, query_sha256)


def answered(benchmark: Benchmark, response: ResponseRecord | None) -> bool:
    """Whether the model gave text worth judging: not an error, not empty once its reasoning is removed."""
    if response is None or response.response is None:
        return False
    return bool(benchmark.judged_text(response.response).strip())
