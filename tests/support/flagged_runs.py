"""A board with every kind of row flag, 100-character ids, Indic and Shahmukhi text, and all three benchmarks.

Indic WritingBench: the readable board's runs (`readable_runs`), the first long id at a second revision
(a 40-character commit), a run half of whose answers were cut off in thinking, one judged by another
judge, and one on a dataset of one item per language (too few items: its interval means nothing).
QA and Saraiki: their own stand-in runs, beside them in the same data folder.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from eval_backend.benchmarks.qa.plugin import INDIC_QA
from eval_backend.benchmarks.registry import DEFAULT_BENCHMARK
from eval_backend.benchmarks.saraiki.plugin import NAME as SARAIKI_NAME
from tests.support.qa_runs import build_qa_runs
from tests.support.readable_runs import LONG_IDS, MARKUP_ANSWER, SHAHMUKHI_ANSWER
from tests.support.run_folders import CONFIGS, EvaluatedData, ModelProfile, build_evaluated_data
from tests.support.saraiki_runs import build_saraiki_runs

__all__ = ["CUT_OFF_ID", "FEW_ITEMS_ID", "FlaggedBoard", "OTHER_JUDGE_ID", "SECOND_REVISION", "build_flagged_board"]

SECOND_REVISION = "0123456789abcdef0123456789abcdef01234567"
CUT_OFF_ID = "thinking-lab/cut-off-reasoner-14b"
OTHER_JUDGE_ID = "judged-elsewhere/other-judge-9b"
FEW_ITEMS_ID = "tiny-eval/one-item-per-language-3b"


@dataclass(frozen=True)
class FlaggedBoard:
    """The data folder (DATA_DIR) and the QA dataset the app must be told of (`QA_DATASET`)."""

    data_dir: Path
    qa_dataset_dir: Path
    writing_bench: EvaluatedData


def build_flagged_board(root: Path) -> FlaggedBoard:
    """Every run, evaluated by the real engine, in `root/board/runs/<benchmark>/`."""
    root = Path(root)
    profiles = (
        ModelProfile(LONG_IDS[0], 9, extra_text=SHAHMUKHI_ANSWER),
        ModelProfile(LONG_IDS[0], 8, revision=SECOND_REVISION, extra_text=SHAHMUKHI_ANSWER),
        ModelProfile(LONG_IDS[1], 7, extra_text=MARKUP_ANSWER),
        ModelProfile("acme/short-1b", 5),
        ModelProfile(CUT_OFF_ID, 8, cut_off_every=2),
        ModelProfile(OTHER_JUDGE_ID, 6, judge_model="another-judge-model"),
    )
    writing_bench = build_evaluated_data(root / "wb", profiles)
    few = build_evaluated_data(root / "few", (ModelProfile(FEW_ITEMS_ID, 7),), {name: 1 for name in CONFIGS})
    qa = build_qa_runs(root / "qa")
    saraiki = build_saraiki_runs(root / "saraiki")
    runs = root / "board" / "runs"
    shutil.copytree(writing_bench.runs_dir, runs / DEFAULT_BENCHMARK)
    shutil.copytree(few.runs_dir, runs / DEFAULT_BENCHMARK, dirs_exist_ok=True)
    shutil.copytree(qa.runs_dir, runs / INDIC_QA.name)
    shutil.copytree(saraiki.runs_dir, runs / SARAIKI_NAME)
    return FlaggedBoard(root / "board", qa.dataset_dir, writing_bench)
