"""A run folder's per-item figure values: their means are the summary's figures, on every benchmark."""

from __future__ import annotations

import numpy as np
import pytest

from eval_backend.run_items import read_run_items
from eval_backend.statistics import headline, item_design
from tests.support.qa_runs import build_qa_runs
from tests.support.saraiki_runs import build_saraiki_runs


def _figures(folder) -> dict[str, float]:
    """Each figure recomputed from the per-item values as the statistics weigh them."""
    run = read_run_items(folder)
    figures = {}
    for figure in run.statistics.figures:
        counted = run.items[np.isfinite(run.items[figure.name])]
        if not counted.empty:
            design = item_design(counted["config"].tolist(), counted["cluster"].tolist(), figure.weighting)
            figures[figure.name] = headline(counted[figure.name].to_numpy(float), design)
    return figures


def test_qa_figures_are_the_summarys(tmp_path) -> None:
    for folder in build_qa_runs(tmp_path).folders.values():
        metrics = folder.read_summary()["metrics"]
        for name, value in _figures(folder).items():
            assert value == pytest.approx(metrics[name]), (folder.path, name)


def test_saraiki_figures_are_the_summarys_task_by_task(tmp_path) -> None:
    for folder in build_saraiki_runs(tmp_path).folders.values():
        metrics = folder.read_summary()["metrics"]
        figures = _figures(folder)
        assert set(figures) == {name for name, value in metrics.items() if value is not None}
        for name, value in figures.items():
            assert value == pytest.approx(metrics[name]), (folder.path, name)
