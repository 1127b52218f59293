"""How a Job tells the Space where its run stands: marked lines in its log, which the Space reads.

A Job cannot write to the Space's queue; its log is what the Hub lets the Space read
(`fetch_job_logs`). The Job prints `indicwb-progress <phase> <done>/<total>` as it goes and
`indicwb-outcome <json>` once at its end; everything else in the log is text for people.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Iterable

from eval_backend.pipeline import PhaseProgress

PROGRESS_MARK = "indicwb-progress"
OUTCOME_MARK = "indicwb-outcome"
_PROGRESS = re.compile(rf"{PROGRESS_MARK} (?P<phase>[a-z]+) (?P<done>\d+)/(?P<total>\d+)\s*$")


@dataclass(frozen=True)
class JobOutcome:
    """How the Job's run ended: pushed to the results repo, or the reason it was not."""

    pushed: bool
    problem: str | None = None


def progress_line(progress: PhaseProgress) -> str:
    return f"{PROGRESS_MARK} {progress.phase} {progress.done}/{progress.total}"


def outcome_line(outcome: JobOutcome) -> str:
    return f"{OUTCOME_MARK} {json.dumps({'pushed': outcome.pushed, 'problem': outcome.problem})}"


def last_progress(lines: Iterable[str]) -> PhaseProgress | None:
    """The last progress line's figures, or None when the log has none yet."""
    found = None
    for line in lines:
        match = _PROGRESS.search(line)
        if match:
            found = PhaseProgress(match["phase"], int(match["done"]), int(match["total"]))
    return found


def outcome_of(lines: Iterable[str]) -> JobOutcome | None:
    """The Job's stated outcome, or None when it never stated one (it died, or its log was cut)."""
    for line in lines:
        start = line.find(f"{OUTCOME_MARK} ")
        if start < 0:
            continue
        try:
            data = json.loads(line[start + len(OUTCOME_MARK) + 1 :])
            return JobOutcome(bool(data["pushed"]), data.get("problem"))
        except (ValueError, KeyError, TypeError):
            continue
    return None
