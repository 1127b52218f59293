"""A board of all three benchmarks as a real Space holds it: every benchmark evaluated by the real engine, with
100-character model ids, answers in Shahmukhi and Devanagari, partial runs beside complete ones, and old run
folders frozen from earlier commits (summaries without coverage or intervals)."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from eval_backend.benchmarks.registry import DEFAULT_BENCHMARK
from tests.support.qa_runs import QA_PROFILES, QaProfile, build_qa_runs
from tests.support.readable_runs import LONG_IDS, build_readable_data, long_id
from tests.support.saraiki_runs import build_saraiki_runs

FROZEN_RUNS = Path(__file__).parent / "frozen_runs" / DEFAULT_BENCHMARK
"""Old WritingBench run folders (`frozen_runs/README.md`): a partial run, a failing judge, a 100-character id."""
QA_LONG_ID = long_id("indic-nlp-collective", "qa-devanagari-answers")
SARAIKI_LONG_ID = long_id("multan-language-lab", "saraiki-shahmukhi-chat")
PARTIAL_QA = QA_PROFILES[0].model_id
"""The QA model run on only two questions per language."""


@dataclass(frozen=True)
class WholeBoard:
    """The data folder (DATA_DIR) and the model ids a test looks for."""

    data_dir: Path
    long_ids: tuple[str, ...]


def build_whole_board(root: Path) -> WholeBoard:
    """Every benchmark's runs under `root/data/runs/<benchmark>/` (three engine runs, written in turn)."""
    root = Path(root)
    readable = build_readable_data(root / "writing")
    qa_profiles = (*QA_PROFILES[:3], QaProfile(QA_LONG_ID, lambda question, golden: f"उत्तर: {golden}"))
    qa = build_qa_runs(root / "qa", qa_profiles, limits={PARTIAL_QA: 2})
    saraiki = build_saraiki_runs(root / "saraiki", {SARAIKI_LONG_ID: True, "acme/base-<b>1b</b>": False},
                                 limits={"acme/base-<b>1b</b>": 1})
    data_dir = root / "data"
    for runs_dir in (readable.runs_dir, qa.runs_dir, saraiki.runs_dir):
        shutil.copytree(runs_dir, data_dir / "runs" / runs_dir.name, dirs_exist_ok=True)
    shutil.copytree(FROZEN_RUNS, data_dir / "runs" / DEFAULT_BENCHMARK, dirs_exist_ok=True)
    return WholeBoard(data_dir, (*LONG_IDS, QA_LONG_ID, SARAIKI_LONG_ID))
