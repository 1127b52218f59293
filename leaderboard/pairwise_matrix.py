"""The pairwise matrix of a benchmark's top N ranked runs: every pair's paired difference, Holm-corrected.

The runs are the ranked runs on the board's shared dataset revision (`shared_ranked_runs`): they answered the same
items, so every pair is compared item by item from one bootstrap and one set of sign flips (the engine's
`pairwise_comparisons`). N is at most MAX_MODELS, so that a visitor cannot ask for 500 × 500 pairs. A cell is
coloured only when Compare's rule (`eval_backend.statistics.verdict`), the matrix's pairs its family, says so.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, replace

import numpy as np

from eval_backend.benchmarks.metric import Metric
from eval_backend.benchmarks.registry import BENCHMARKS
from eval_backend.joint_ranking import aligned_figure
from eval_backend.run_folder import RunFolderError
from eval_backend.statistics import (
    CORRECTION,
    Interval,
    PairedComparison,
    PairwiseMatrix,
    headline,
    pairwise_comparisons,
    verdict,
)
from eval_backend.statistics.verdict import RULE, Verdict
from leaderboard.display import short_revision
from leaderboard.joint_ranks import RUN_READS
from leaderboard.results import ResultsStore, RunResult
from leaderboard.serial_cache import SerialCache
from leaderboard.short_labels import short_labels
from leaderboard.scored_rankings import shared_ranked_runs
from eval_backend.run_items import model_label

DEFAULT_MODELS, MAX_MODELS = 15, 30
BETTER_COLOUR, WORSE_COLOUR = "#cdebd3", "#f6d0d4"
_MATRICES: SerialCache[object] = SerialCache(16)


class MatrixUnavailable(RuntimeError):
    """The ranked runs' items could not be aligned (a run rewritten mid-read, a misaligned run); says why."""


@dataclass(frozen=True)
class MatrixView:
    """The top runs (best first) on one figure and their pairwise comparisons; `labels` are the runs' whole ids
    (`run_items.model_label`), `short` their short labels (`short_labels`)."""

    benchmark: str
    figure: Metric
    labels: tuple[str, ...]
    matrix: PairwiseMatrix
    dataset_revision: str | None
    short: tuple[str, ...] = ()

    def cell(self, row: int, column: int) -> PairedComparison:
        """Row's run minus column's run (the matrix holds each pair once, row before column)."""
        if row < column:
            return self.matrix.comparisons[(row, column)]
        flipped = self.matrix.comparisons[(column, row)]
        difference = flipped.difference
        return replace(flipped, difference=Interval(-difference.estimate, -difference.high, -difference.low,
                                                     difference.level), wins=flipped.losses, losses=flipped.wins)

    def adjusted_p(self, row: int, column: int) -> float:
        """The cell's p-value after Holm's correction over the whole matrix."""
        return self.matrix.adjusted_p[(min(row, column), max(row, column))]

    def verdict(self, row: int, column: int) -> Verdict:
        """The cell's verdict by Compare's rule, the matrix's pairs the family ("A" is the row's run)."""
        family = sum(1 for p in self.matrix.adjusted_p.values() if p == p)
        return verdict(self.cell(row, column), self.adjusted_p(row, column), self.figure.higher_is_better, family)


def bounded_models(n: object) -> int:
    """N as asked, within 2..MAX_MODELS (DEFAULT_MODELS when it is not a number)."""
    try:
        value = int(float(n))  # type: ignore[arg-type]
    except (TypeError, ValueError, OverflowError):
        return DEFAULT_MODELS
    return min(max(value, 2), MAX_MODELS)


def figure_choices(benchmark: str) -> list[tuple[str, str]]:
    """The benchmark's figures as (label, name) choices, its first (the board's headline) first."""
    statistics = BENCHMARKS[benchmark].item_statistics
    return [(figure.label, figure.name) for figure in statistics().figures] if statistics else []


def matrix_view(store: ResultsStore, benchmark: str, figure: str, n: int) -> MatrixView | None:
    """The matrix of the top `n` ranked runs on `figure`; None when fewer than two ranked runs share a revision."""
    snapshot = store.snapshot()
    runs, revision = shared_ranked_runs(snapshot.runs)
    if len(runs) < 2:
        return None
    key = (store.runs_dir, benchmark, figure, bounded_models(n), snapshot.signature)
    return _MATRICES.get_or_compute(key, lambda: _compute(benchmark, figure, bounded_models(n), runs, revision))


def _compute(benchmark: str, figure: str, n: int, runs: list[RunResult], revision: str | None) -> MatrixView:
    try:  # a run that cannot be aligned with the others (an item left unscored) is left out, not all of them
        aligned = aligned_figure([run.folder for run in runs], figure, cached=RUN_READS.get_or_load,
                                 drop_misaligned=True)
    except (RunFolderError, OSError) as exc:
        raise MatrixUnavailable(f"the ranked runs could not be compared item by item: {exc}") from exc
    if len(aligned.kept) < 2:
        raise MatrixUnavailable("fewer than two ranked runs could be compared item by item")
    runs = [runs[position] for position in aligned.kept]
    sign = 1.0 if aligned.figure.higher_is_better else -1.0
    order = np.argsort(-sign * headline(aligned.values, aligned.design), kind="stable")[:n]
    matrix = pairwise_comparisons(aligned.values[order], aligned.design, endpoint_error=aligned.figure.interval_error)
    labels = tuple(model_label(runs[i].model, runs[i].revision) for i in order)
    short = tuple(short_labels([runs[i].model for i in order], [runs[i].revision for i in order]))
    return MatrixView(benchmark, aligned.figure, labels, matrix, revision, short)


def matrix_html(view: MatrixView) -> str:
    """The matrix as an HTML table, rows and columns labelled with short model names (the whole id on hover),
    each cell row minus column; every piece of run text is escaped."""
    size, names = len(view.labels), view.short or view.labels
    head = "".join(_name_cell("col", name, label) for name, label in zip(names, view.labels))
    body = "".join(f"<tr>{_name_cell('row', names[row], view.labels[row])}"
                   + "".join(_cell_html(view, row, column) for column in range(size)) + "</tr>" for row in range(size))
    return (f'<div class="pairwise-scroll" style="overflow-x:auto;max-width:100%">'
            f'<table class="pairwise-matrix"><thead><tr><th scope="col">A \\ B</th>{head}</tr></thead>'
            f"<tbody>{body}</tbody></table></div>")


def matrix_note(view: MatrixView) -> str:
    """What the matrix shows and the correction applied, for beside it (markdown)."""
    direction = "higher" if view.figure.higher_is_better else "lower"
    revision = short_revision(view.dataset_revision) or "unrecorded"
    reasons = {comparison.no_verdict for comparison in view.matrix.comparisons.values() if comparison.no_verdict}
    return (f"**{view.figure.label}** ({view.figure.difference_unit}, {direction} is better), the top "
            f"{len(view.labels)} ranked runs on dataset revision `{revision}`. Each cell is its row's run minus its "
            "column's run on the items both answered; hover a name for the whole id. "
            f"**Correction: {CORRECTION}** over all {len(view.matrix.comparisons)} pairs: a cell is coloured (green: "
            f"the row's run is better, red: worse) only when it is {RULE}, Compare's rule; hover a cell for its "
            "interval and p-values." + "".join(f" **No verdict**: the figure {reason}." for reason in sorted(reasons)))


def _name_cell(scope: str, name: str, label: str) -> str:
    return (f'<th scope="{scope}" title="{html.escape(label)}"><span class="pairwise-name" dir="auto">'
            f"{html.escape(name)}</span></th>")


def _cell_html(view: MatrixView, row: int, column: int) -> str:
    if row == column:
        return '<td class="pairwise-self">—</td>'
    paired = view.cell(row, column)
    difference = paired.difference
    answer = view.verdict(row, column)
    better = (difference.estimate > 0) == view.figure.higher_is_better
    style = f' style="background:{BETTER_COLOUR if better else WORSE_COLOUR}"' if answer.significant else ""
    said = f"the {'row' if better else 'column'}'s run is better" if answer.significant else answer.label
    names = view.short or view.labels
    evidence = (f"no verdict: {answer.reason}" if answer.adjusted_p is None else
                f"[{difference.low:+.3f}, {difference.high:+.3f}], p = {paired.p_value:.4f}, "
                f"Holm-adjusted p = {answer.adjusted_p:.4f}: {said}")
    title = (f"{names[row]} − {names[column]}: {difference.estimate:+.3f} {evidence}, won/tied/lost "
             f"{paired.wins}/{paired.ties}/{paired.losses}")
    state = ("better" if better else "worse") if answer.significant else "none"
    return (f'<td data-significant="{state}" title="{html.escape(title)}"{style}>'
            f"{difference.estimate:+.2f}</td>")
