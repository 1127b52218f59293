"""Run folders written by main before one engine path (tests/support/frozen_runs) score to the same figures.

The new rules add to what a summary says (`complete`, `coverage`, intervals) and key verdicts by the
item's hash; a verdict written before the hash existed still counts, so nothing is judged again. The
no-answer rule changes no figure here: QA's blank answers were already wrong under every scorer (now
scored by the policy, as `no_response_items`), and no Saraiki reply was empty.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from eval_backend.benchmarks import BENCHMARKS
from eval_backend.pipeline import score_folder
from eval_backend.run_folder import RunFolder

FROZEN = Path(__file__).parents[1] / "support" / "frozen_runs"
FOLDERS = sorted(path.parent.relative_to(FROZEN) for path in FROZEN.glob("*/*/*/summary.json"))
FIGURES = {"indic_qa": ("metrics", "combined", "by_language", "by_domain"), "saraiki": ("metrics", "tasks", "chat")}


@pytest.mark.parametrize("run", FOLDERS, ids=str)
def test_a_frozen_run_scores_to_the_same_figures_and_is_complete(run: Path, tmp_path: Path) -> None:
    folder = RunFolder(Path(shutil.copytree(FROZEN / run, tmp_path / "run")))
    before = json.loads(folder.summary_path.read_text(encoding="utf-8"))
    assert "coverage" not in before  # written before the rule
    after = score_folder(BENCHMARKS[run.parts[0]], folder)
    for field in FIGURES[run.parts[0]]:
        assert _kept(before[field], after[field]), field
    request = json.loads(folder.request_path.read_text(encoding="utf-8"))
    assert after["complete"] is True
    assert after["coverage"]["expected"] == sum(request["expected_items"].values())
    assert after["counts"]["judgments"] == before["counts"]["judgments"]  # no verdict lost to the item hash


def _kept(before: object, after: object) -> bool:
    """Every figure of `before` is in `after`, unchanged; `after` may say more (fields added since,
    such as the judge's refused-temperature count or the safety rates' `incomplete` reason)."""
    if isinstance(before, dict):
        return isinstance(after, dict) and all(key in after and _kept(value, after[key]) for key, value in before.items())
    return before == after


def test_every_frozen_benchmark_is_there() -> None:
    assert {run.parts[0] for run in FOLDERS} == {"indic_qa", "saraiki"} and len(FOLDERS) == 6
