"""The About tab's judge-consistency table: how far each benchmark's judge model agrees with itself or another.

Judge model names come from run folders, so they are shown in a table (text), never as Markdown.
"""

from __future__ import annotations

from typing import Mapping

import gradio as gr
import pandas as pd

from eval_backend.benchmarks.registry import BENCHMARKS
from leaderboard.context import AppContext
from leaderboard.display import DECIMALS
from leaderboard.consistency_view import CONSISTENCY_COLUMNS, consistency_frame
from leaderboard.results import ResultsStore

INTRO = """
## Judge consistency
A judge that gives the same answer two different scores adds noise to every number above.
`python -m eval_backend consistency --out-dir RUN --sample N [--seed S] [--judge-model M]` sends a
seeded sample of a run's judge calls (a rubric's criteria, a judge's verdicts; stratified by config) to the
judge again, through the same prompt, and compares the new scores with the run's; with `--judge-model` it
compares another judge with the run's. Figures below pool every checked run of a benchmark, per re-judging
model; the last column is the rank correlation of the runs' mean scores on their samples by the two judges:
how far the models' order would move if this judge scored them.
"""

LABELS = {
    "benchmark": "Benchmark", "judge_model": "Re-judged by", "reference_judge_model": "Compared with (the runs' judge)", "runs": "Runs",
    "pairs": "Criteria", "exact_agreement": "Exact agreement", "within_one_agreement": "Within ±1",
    "spearman": "Spearman ρ", "mean_abs_diff": "Mean |difference|",
    "ranking_spearman": "Model order ρ (runs' mean scores)",
}
DATATYPES = ["str", "str", "str", *["number"] * 7]
COLUMNS = ("benchmark", *CONSISTENCY_COLUMNS)


def build(context: AppContext) -> None:
    """The section's text and table, filled when the page loads and whenever the runs change."""
    gr.Markdown(INTRO, elem_id="consistency-text", header_links=True)
    table = gr.Dataframe(value=pd.DataFrame(columns=[LABELS[column] for column in COLUMNS]), datatype=DATATYPES,
                         interactive=False, elem_id="judge-consistency", label="No run has been checked yet")
    context.results_version.change(lambda: consistency_table(context.stores), None, table)


def consistency_table(stores: Mapping[str, ResultsStore]) -> dict:
    """The pooled figures of every benchmark's runs (`stores`: by benchmark name), each benchmark apart (a judge's
    scale is its benchmark's), in the registry's order, rounded and labelled."""
    frames = [consistency_frame(stores[name].snapshot().runs).assign(benchmark=benchmark.title)
              for name, benchmark in BENCHMARKS.items() if name in stores]
    checked = [frame for frame in frames if len(frame)]
    frame = pd.concat(checked, ignore_index=True)[list(COLUMNS)] if checked else pd.DataFrame(columns=list(COLUMNS))
    label = "Judge consistency" if len(frame) else "No run has been checked yet"
    return gr.update(value=frame.round(DECIMALS).rename(columns=LABELS), label=label)
