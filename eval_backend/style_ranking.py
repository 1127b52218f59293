"""A board's answer lengths and style-controlled ranking over run folders: the one call the board and the CLI make.

The ranked runs' figure values come aligned item by item from `joint_ranking.aligned_figure`
(the same items, clusters and refusals as the raw joint ranking); each run's answers are measured
from its own folder (`answer_style`), the features declared by its benchmark taken on the same
items, a feature declared relative to the item less the item's median over the ranked runs that
answered it. An item a model did not answer (scored by the benchmark's no-answer policy) takes that
model's mean style over the items it answered, which leaves the fit nothing to learn from it: its
floor score is the model's failure, as the raw ranking counts it, and must not teach the fit that
short answers score low (length 0), nor that styled ones do (the item's median style). The
fit (`statistics.style_control`) runs once per board state; with `cached`, what was read from a
folder is kept under its files' stamps, so a board whose one run changed reads that run again.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np
import pandas as pd

from eval_backend.answer_style import RunLengths, answer_measures, run_lengths
from eval_backend.benchmarks.plugin import Benchmark
from eval_backend.benchmarks.metric import Metric
from eval_backend.benchmarks.style_features import StyleFeature
from eval_backend.joint_ranking import AlignedFigure, Loader, aligned_figure
from eval_backend.run_folder import RunFolder, RunFolderError, scored_stamp
from eval_backend.run_items import KEY, folder_benchmark, run_label
from eval_backend.statistics import DEFAULT_REPLICATES, DEFAULT_SEED
from eval_backend.statistics.style_control import StyleControl, StyleNotIdentified, style_control


@dataclass(frozen=True, eq=False)
class StyleBoard:
    """Per run (in the order given) its label and median lengths; the controlled ranking of the figure.

    `control` is None when the benchmark declares no style feature (`uncontrolled` then says so) or
    its features do not vary beyond model and item on these runs (`uncontrolled` says which).
    `strata` names the fit's strata (configs), in the order of `control.stratum_coefficients`.
    """

    benchmark: str
    figure: Metric
    labels: tuple[str, ...]
    lengths: tuple[RunLengths, ...]
    features: tuple[StyleFeature, ...]
    control: StyleControl | None
    strata: tuple[str, ...]
    uncontrolled: str | None = None


def style_board(
    folders: Sequence[RunFolder], figure: str | None = None, replicates: int = DEFAULT_REPLICATES,
    seed: int = DEFAULT_SEED, cached: Loader | None = None,
) -> StyleBoard:
    """Lengths and the style-controlled ranking of `figure` (default: the headline) over complete runs of one benchmark.

    RunFolderError when a folder is not a scored run of the first run's benchmark or its items differ.
    """
    if not folders:
        raise ValueError("no run to rank")
    load = cached or (lambda key, build: build())
    benchmark = _one_benchmark(folders, load)
    aligned = aligned_figure(folders, figure or benchmark.headline, cached)
    measures = [run_measures(folder, benchmark, cached) for folder in folders]
    features = benchmark.board.style_features
    control, uncontrolled = _control(aligned, folders, measures, features, replicates, seed)
    return StyleBoard(
        benchmark=benchmark.name,
        figure=aligned.figure,
        labels=tuple(run_label(folder) for folder in folders),
        lengths=tuple(run_lengths(frame, benchmark.board.breakdowns) for frame in measures),
        features=features,
        control=control,
        strata=tuple(dict.fromkeys(aligned.configs)),
        uncontrolled=uncontrolled,
    )


def run_measures(folder: RunFolder, benchmark: Benchmark, cached: Loader | None = None) -> pd.DataFrame:
    """The run's `answer_measures`, kept by `cached` under the stamps of the files they are read from."""
    load = cached or (lambda key, build: build())
    return load(("answers", _stamp(folder)), lambda: answer_measures(folder, benchmark))


def _control(
    aligned: AlignedFigure, folders: Sequence[RunFolder], measures: Sequence[pd.DataFrame],
    features: Sequence[StyleFeature], replicates: int, seed: int,
) -> tuple[StyleControl | None, str | None]:
    if not features:
        return None, "the benchmark declares no style feature: answer length only"
    values = np.stack([_feature_values(folder, frame, aligned, features) for folder, frame in zip(folders, measures)])
    values = style_matrix(values, [feature.relative_to_item for feature in features])
    try:
        control = style_control(aligned.values, values, aligned.design, [feature.name for feature in features],
                                replicates, seed, aligned.figure.higher_is_better)
    except StyleNotIdentified as exc:
        return None, str(exc)
    return control, None


def style_matrix(values: np.ndarray, relative: Sequence[bool]) -> np.ndarray:
    """(runs, items, features) of raw feature values, NaN where a run did not answer, as the fit takes them.

    A feature `relative` to the item less the item's median over the runs that answered it; then
    each NaN the run's mean of that feature over the items it answered (0 for a run with no answer).
    """
    style = np.array(values, dtype=float)
    answered = ~np.isnan(style)
    for k, is_relative in enumerate(relative):
        some = answered[:, :, k].any(axis=0)
        if is_relative and some.any():
            style[:, some, k] -= np.nanmedian(style[:, some, k], axis=0)
    counts = answered.sum(axis=1)
    means = np.where(counts > 0, np.nansum(style, axis=1) / np.maximum(counts, 1), 0.0)
    return np.where(answered, style, means[:, np.newaxis, :])


def _feature_values(
    folder: RunFolder, frame: pd.DataFrame, aligned: AlignedFigure, features: Sequence[StyleFeature]
) -> np.ndarray:
    """(items, features): one run's feature values on the aligned items, in their order; NaN where it did not answer."""
    keys = pd.MultiIndex.from_arrays([list(aligned.configs), list(aligned.indexes)], names=KEY)
    indexed = frame.set_index(KEY)
    if not keys.isin(indexed.index).all():  # aligned_figure refuses such runs first, from the same details.parquet
        raise RunFolderError(f"{folder.details_path}: its answers do not cover the ranked items")
    return indexed[[feature.name for feature in features]].reindex(keys).to_numpy(float)


def _one_benchmark(folders: Sequence[RunFolder], load: Loader) -> Benchmark:
    """The runs' one benchmark, each summary.json read once per change of it (a full one is tens of KB)."""
    benchmarks = [load(("benchmark", str(folder.path), _mtime(folder.summary_path)),
                       lambda folder=folder: folder_benchmark(folder)) for folder in folders]
    for folder, benchmark in zip(folders, benchmarks):
        if benchmark.name != benchmarks[0].name:
            raise RunFolderError(
                f"{folder.path} is a run of {benchmark.name}, {folders[0].path} of {benchmarks[0].name}"
            )
    return benchmarks[0]


def _mtime(path: Path) -> int | None:
    try:
        return path.stat().st_mtime_ns
    except FileNotFoundError:
        return None  # folder_benchmark says what is missing


def _stamp(folder: RunFolder) -> tuple[str, int, int, int]:
    """What its answers' measures depend on: the folder's details' and responses' stamps."""
    return scored_stamp(folder, folder.responses_path)
