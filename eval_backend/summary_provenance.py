"""What every benchmark's summary records of how its run was made, and which judge it scores."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

from eval_backend.records import utc_now
from eval_backend.run_folder import RunFolderError


def scoring_judge(requested: str | None, judges: Sequence[str], judged_in: Path) -> str:
    """The judge a summary scores: `requested`, else the one of the latest line in `judges` (file order).

    A judge that judged nothing in a file holding other judges' lines is refused: its summary
    would show a complete run as unscored.
    """
    if requested and judges and requested not in judges:
        others = ", ".join(repr(judge) for judge in dict.fromkeys(judges))
        raise RunFolderError(
            f"{judged_in}: judge {requested!r} judged nothing in this run folder (its judges: {others}); "
            f"score without --judge-model, or judge the run with {requested!r} first"
        )
    return requested or (judges[-1] if judges else "")


def run_provenance(request: dict[str, Any], judge_model: str) -> dict[str, Any]:
    """What a summary records of how its run was made: model, data, generation, judge and time."""
    keys = ("model", "revision", "dataset", "dataset_revision", "generation", "backend", "configs", "limit", "judge_mode")
    provenance = {key: request.get(key) for key in keys}
    provenance.update(judge_model=judge_model, created_at=utc_now())
    return provenance
