"""The submission queue as tables people read: pending, running with progress, finished, failed.

What a state adds (phase and progress, failure reason) comes right after the model, its short revision and the
benchmark, so it is on screen without scrolling sideways; the prompt mode sits with the precision.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import pandas as pd

from eval_backend.benchmarks.registry import BENCHMARKS
from eval_backend.submissions import QueueRequest, Status
from leaderboard.display import short_revision

BAR_CELLS = 10
_LEAD = ["id", "model", "revision", "benchmark"]
_REST = ["mode", "precision", "submitter", "submitted"]


@dataclass(frozen=True)
class QueueTables:
    """One table per state of the queue; cancelled requests are listed with the failed ones."""

    pending: pd.DataFrame
    running: pd.DataFrame
    finished: pd.DataFrame
    failed: pd.DataFrame


def queue_tables(requests: Sequence[QueueRequest]) -> QueueTables:
    """Split the queue by status; running rows carry their phase and a progress bar. A row that cannot be read is
    listed with the failed ones whatever its stored status (a worker fails it when it claims it)."""
    def rows(*statuses: Status) -> list[QueueRequest]:
        return [r for r in requests if r.status in statuses and not r.problem]

    return QueueTables(
        pending=_frame(rows(Status.PENDING), []),
        running=_frame(rows(Status.RUNNING), ["phase", "progress", "started", "job"]),
        finished=_frame(rows(Status.FINISHED), ["finished", "job"]),
        failed=_frame(
            rows(Status.FAILED, Status.CANCELLED) + [r for r in requests if r.problem],
            ["status", "finished", "reason", "job"],
        ),
    )


def progress_bar(done: int, total: int) -> str:
    """A text progress bar, e.g. `██████░░░░ 60% (150/250)`; phases without a total say so."""
    if total <= 0:
        return "starting…"
    share = min(max(done / total, 0.0), 1.0)
    filled = round(share * BAR_CELLS)
    return f"{'█' * filled}{'░' * (BAR_CELLS - filled)} {share:.0%} ({done}/{total})"


def _frame(requests: Sequence[QueueRequest], extra: list[str]) -> pd.DataFrame:
    return pd.DataFrame([_row(r) for r in requests], columns=_LEAD + extra + _REST)


def _row(request: QueueRequest) -> dict[str, object]:
    return {
        "id": request.id,
        "model": request.model_id,
        "revision": short_revision(request.revision),
        # A benchmark no longer registered is shown by its stored name.
        "benchmark": BENCHMARKS[request.benchmark].title if request.benchmark in BENCHMARKS else request.benchmark,
        "mode": str(request.chat_mode),
        "precision": request.precision,
        "submitter": request.submitter,
        "submitted": request.submitted_at[:19],
        "phase": str(request.phase) if request.phase else "",
        "progress": progress_bar(request.progress_done, request.progress_total),
        "started": (request.started_at or "")[:19],
        "finished": (request.finished_at or "")[:19],
        "status": str(request.status),
        "reason": f"the queue row cannot be read: {request.problem}" if request.problem else request.error or "",
        "job": job_cell(request),
    }


def job_cell(request: QueueRequest) -> str:
    """Where a request run as a Hugging Face Job runs and what it cost so far, with its link, as plain text
    (`a100-large RUNNING, 1h 02m, $2.58: https://huggingface.co/jobs/org/68a…`); empty otherwise."""
    if not request.job_id:
        return ""
    parts = [f"{request.job_flavor or '?'} {request.job_stage or 'STARTING'}"]
    if request.job_wall_s is not None:
        parts.append(_duration(request.job_wall_s))
    if request.job_price_usd is not None:
        parts.append(f"${request.job_price_usd:.2f}")
    return f"{', '.join(parts)}: {request.job_url or request.job_id}"


def _duration(seconds: float) -> str:
    """`45s`, `12m`, `1h 02m`."""
    if seconds < 60:
        return f"{seconds:.0f}s"
    minutes = round(seconds / 60)
    return f"{minutes}m" if minutes < 60 else f"{minutes // 60}h {minutes % 60:02d}m"
