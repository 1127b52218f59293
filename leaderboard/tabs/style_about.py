"""About's section on answer length and the style-controlled ranking: the features, the fit, its coefficients.

The coefficients come from the fit each tab's controlled view shows (`style_view`). Config names come from run
folders, so the coefficients are a table (text cells), never Markdown.
"""

from __future__ import annotations

from typing import Mapping

import gradio as gr
import pandas as pd

from eval_backend.benchmarks.registry import BENCHMARKS
from eval_backend.statistics import DEFAULT_REPLICATES
from leaderboard.context import AppContext
from leaderboard.results import ResultsStore
from leaderboard.scored_tables import ranking_of
from leaderboard.style_view import COEFFICIENT_COLUMNS, coefficient_rows, style_view


def _declared() -> str:
    return "\n".join(
        f"- **{benchmark.title}:** " + ("; ".join(feature.label for feature in benchmark.board.style_features)
                                        or "none: its board shows answer length only")
        for benchmark in BENCHMARKS.values())


INTRO = f"""
## Answer length and style control
LLM judges of long-form writing are known to favour longer and more formatted answers. Every ranking
shows each run's **median answer length** (its *Answer length* columns; per language in the breakdown;
a figure plots the headline against it): in tokens where the backend reported a count for every answer
on the board, else in characters of the judged text, the unit named beside it.

A benchmark that declares style features has a second reading of its ranking, **controlled for answer
length and style** (the *Ranking* choice above its table; `style=controlled` in the address). The
item-level scores of its ranked runs on the shared dataset revision are fitted on a model effect, an
item (request) effect and the features: `score[model, item] = α[model] + γ[item] + β · style[model, item]`.
A model's controlled score is its score at the board's median style; its interval and rank range come
from the same cluster bootstrap as the seed's ranking ({DEFAULT_REPLICATES:,} seeded draws or more),
refitting on every draw. The seed's ranking stays the default and the headline. Features per benchmark:

{_declared()}

Each coefficient is the change in the score per unit of its feature, with its 95 % interval, from the
current board: over all configs, then per config where the data allow.
"""
LABELS = {"benchmark": "Benchmark", "scope": "Configs", "runs": "Runs", "feature": "Feature",
          "effect": "Effect on the score (95 % interval)"}


def build(context: AppContext) -> None:
    """The section's text and its coefficients table, filled whenever the runs change."""
    gr.Markdown(INTRO, elem_id="style-text", header_links=True)
    table = gr.Dataframe(value=pd.DataFrame(columns=list(LABELS.values())), interactive=False,
                         elem_id="style-coefficients", label="No ranked run yet", wrap=True)
    context.results_version.change(lambda: coefficients_table(context.stores, context.settings.judge.model), None,
                                   table)


def coefficients_frame(stores: Mapping[str, ResultsStore], judge: str = "") -> pd.DataFrame:
    """Every style-declaring benchmark's fit on its current board (those with a declared tab), one row per
    (configs, feature)."""
    rows = []
    for name, store in stores.items():
        benchmark = BENCHMARKS[name]
        snapshot = store.snapshot()
        if not benchmark.board.style_features or not snapshot.runs:
            continue
        ranking = ranking_of(snapshot, benchmark, judge)
        rows.extend(coefficient_rows(style_view(snapshot, benchmark, ranking), benchmark))
    return pd.DataFrame(rows, columns=list(COEFFICIENT_COLUMNS))


def coefficients_table(stores: Mapping[str, ResultsStore], judge: str = "") -> dict:
    """The coefficients table's update: labelled, text cells."""
    frame = coefficients_frame(stores, judge)
    return gr.update(value=frame.rename(columns=LABELS), label="Style coefficients" if len(frame) else "No ranked run yet")
