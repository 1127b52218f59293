"""WritingBench runs whose plots tell them apart: four complete runs, two with 100-character ids, each scoring
its languages and prompt renderings differently (the prompts are in Devanagari, Tamil and Bengali), built by
the real engine against the stand-in judge (`run_folders`)."""

from __future__ import annotations

from pathlib import Path

from tests.support.readable_runs import LONG_IDS
from tests.support.run_folders import EvaluatedData, ModelProfile, build_evaluated_data

__all__ = ["COMMIT", "PLOT_PROFILES", "build_plot_runs"]

COMMIT = "0123456789abcdef0123456789abcdef01234567"

PLOT_PROFILES = (
    ModelProfile(LONG_IDS[0], 10, variant_penalty={"romanized": 3}, config_penalty={"Tamil": 1}),
    ModelProfile("acme/steady-7b", 7),
    ModelProfile(LONG_IDS[1], 6, variant_penalty={"code_mixed": 2}, revision=COMMIT),
    ModelProfile("acme/small-1b", 3, config_penalty={"Bengali": 1}),
)
"""Best first: the best run's romanized prompts and Tamil score lowest; the third is pinned to a commit."""


def build_plot_runs(root: Path) -> EvaluatedData:
    """The four runs of PLOT_PROFILES in `root/data/runs/indic_writing_bench`."""
    return build_evaluated_data(root, PLOT_PROFILES)
