"""What a scored benchmark's board tab shows beyond its metrics, declared by the benchmark.

The web app builds one tab for every `Benchmark` from its metrics (labels, units,
direction, headline) and this record: the ranking's extra run columns, the summary's
breakdowns, the item table's readable columns, its filters and how one item reads in full.
A benchmark that declares none gets a tab all the same: a per-language breakdown of its
metrics (`by_language`, as its `aggregate` writes it), items with their config, index,
answer and each figure of its `item_statistics`, and the item's own fields in full.

Everything here is data and pure functions of a summary or of one details row (a mapping):
no pandas, no web app, so a benchmark's package declares it without either.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Callable, Mapping

from eval_backend.benchmarks.style_features import StyleFeature

Row = Mapping[str, Any]
"""One row of a run's details.parquet, as a mapping of column to value."""


@dataclass(frozen=True)
class RunColumn:
    """A ranking column read from a run's summary (Saraiki's prompt mode), shown after the model's revision."""

    name: str
    label: str
    value: Callable[[Mapping[str, Any]], Any]


@dataclass(frozen=True)
class Breakdown:
    """A group of the summary's figures: `summary[summary_key]` is {group name: figures}.

    The figures are a mapping with `metrics` (the benchmark's metrics for that group), or flat
    figures (Saraiki's `tasks`: shots, n, rates) shown as they are. `field` is the details column
    whose value names an item's group (languages: `config`); None: the breakdown's `name`. A
    figure's cell opens the items of its group, and the item table can be filtered by it. `baseline` names a
    group the others are read against: each other group's shortfall from it, in % of it, is a column of the
    ranking beside the groups' own (WritingBench's code-mixed and romanized drop from native script).
    """

    name: str
    label: str
    summary_key: str
    field: str | None = None
    baseline: str | None = None

    @property
    def item_field(self) -> str:
        """The details column an item's group is read from."""
        return self.field or self.name


@dataclass(frozen=True)
class ItemField:
    """One column of the item table: a details column, or a value computed from the row."""

    name: str
    label: str
    value: Callable[[Row], Any] | None = None


@dataclass(frozen=True)
class ItemFilter:
    """A choice of the item table's "Show" filter: the rows it keeps."""

    label: str
    keep: Callable[[Row], bool]


@dataclass(frozen=True)
class ItemPart:
    """One scored part of an item in full (a WritingBench criterion): a heading with its score ("Clarity: 7/10"),
    labelled lines (what it asks, the judge's reason) and labelled lines folded beneath (its rubric)."""

    heading: str
    lines: tuple[tuple[str, str], ...] = ()
    folded: tuple[tuple[str, str], ...] = ()
    folded_label: str = "Rubric"


@dataclass(frozen=True)
class ItemView:
    """One item in full, as text (a model's output is never rendered as live HTML).

    `question` empty: the item's query is read from the run's dataset (WritingBench keeps it out of its details).
    `header` names the item above it (empty: its config and index); `reasoning` is folded away; `parts` read
    one after another under the verdict.
    """

    question: str
    response: str
    verdict: str
    shots: str = ""
    header: str = ""
    reasoning: str = ""
    parts: tuple[ItemPart, ...] = ()


def verdict_text(value: Any) -> str:
    """A verdict as a reader says it: right, wrong, or blank when there is none (no answer, a failed judgment)."""
    if isinstance(value, bool):  # rows come as `DataFrame.to_dict("records")` gives them: Python values
        return "right" if value else "wrong"
    return ""


def answer_length(row: Row) -> int | None:
    """The judged answer's length in characters (what the judge read); None where there is no answer."""
    response = row.get("response")
    return len(response) if isinstance(response, str) else None


ANSWER_LENGTH = ItemField("answer_length", "Length (characters)", answer_length)
"""The item table's column beside the answer: its length, as the board's length figures count an answer."""
BY_LANGUAGE = Breakdown("language", "Language", "by_language", field="config")


class FigureKind(StrEnum):
    """How a figure draws its values (`leaderboard.figure_kinds` holds one function per kind)."""

    HEADLINE = "headline"
    """One figure per run as a horizontal bar with its 95 % interval, the best at the top."""
    HEATMAP = "heatmap"
    """Runs x groups, each cell coloured by its value."""
    BARS = "bars"
    """Each run's groups side by side (WritingBench's variant robustness: native, code-mixed, romanized)."""
    RADAR = "radar"
    """A few chosen runs' groups around one circle."""
    SCATTER = "scatter"
    """One point per run: its figure against its median answer length (does the judge reward length?)."""


@dataclass(frozen=True)
class FigureSpec:
    """One plot of the benchmark's board: its kind and what it draws.

    `breakdown` names a group of the summary (a declared `Breakdown`'s name) whose groups the figure draws, of
    its first metric; None: the groups are the `metrics` themselves, which must share one unit and one direction
    (an accuracy and an over-refusal rate are never one bar group). No metrics: the benchmark's headline.
    `name` is the plot's id in the page (`<tab>-plot-<name>`); an empty `title`: its first metric's label.
    `chosen` 0: the figure draws the ranked runs shown (at most the top N); n > 0: it draws the runs a viewer
    chooses in its own chooser, default the best n (a radar: 3). A figure of one chosen run (`chosen=1`) whose
    breakdown's groups each hold several figures (WritingBench's language x rendering) draws that run alone:
    rows its groups, columns each group's figures.
    """

    name: str
    kind: FigureKind
    title: str
    breakdown: str | None = None
    metrics: tuple[str, ...] = ()
    chosen: int = 0


HEADLINE_FIGURE = FigureSpec("headline", FigureKind.HEADLINE, "")
"""The headline metric per run with its interval, titled with the metric's label."""
LENGTH_FIGURE = FigureSpec("length", FigureKind.SCATTER, "The headline against median answer length")
"""The headline per run against its median answer length, one point per model."""


@dataclass(frozen=True)
class BoardView:
    """The board's declarations of one benchmark; every field has a default that serves any benchmark.

    `tab` is the tab's id in the page address (`?tab=qa`) and the prefix of its elements' ids;
    None: the benchmark's name. `group` is the details column the item table is filtered by (a
    config, or Saraiki's task), with its label. `metric_groups` names, for a metric computed on
    one group's items (Saraiki's per-task accuracies), that group (a value of `group`): its
    ranking cell opens those items; every other metric's cell opens all of the run's items.
    """

    tab: str | None = None
    intro: str | None = None
    run_columns: tuple[RunColumn, ...] = ()
    breakdowns: tuple[Breakdown, ...] = (BY_LANGUAGE,)
    group: ItemField = ItemField("config", "Config")
    item_fields: tuple[ItemField, ...] = ()
    item_filters: tuple[ItemFilter, ...] = ()
    item_view: Callable[[Row], ItemView] | None = None
    item_groups: tuple[ItemField, ...] = ()
    """Details columns the item table is filtered by besides `group` and the breakdowns' (WritingBench's variant)."""
    former_tabs: tuple[str, ...] = ()
    """Earlier ids of its tab whose addresses still open it (WritingBench's items were the Judgments tab)."""
    metric_groups: Mapping[str, str] = dataclasses.field(default_factory=dict)
    column_groups: tuple[str, ...] = ("details",)
    """The ranking's column groups shown until a viewer changes them: breakdown names (`language`: the headline per
    language, a column each), `details` (counts, judge, dates, size, precision, type), `metadata` (license, open
    weights)."""
    former_params: Mapping[str, str] = dataclasses.field(default_factory=dict)
    """Address parameters of an earlier board that still set this tab's controls: old name -> the tab's own
    parameter without its `<tab>_` prefix (WritingBench's `langs` -> `on_config`)."""
    empty_state: str = ""
    """What the tab says before any run is on it (how to put the first row there); empty: a sentence for any
    benchmark."""
    figures: tuple[FigureSpec, ...] = (
        HEADLINE_FIGURE, FigureSpec("languages", FigureKind.HEATMAP, "The headline per language", "language"),
        LENGTH_FIGURE)
    """Its plots, in order: each follows the tab's search and filters (a benchmark without languages declares its own)."""
    style_features: tuple[StyleFeature, ...] = ()
    """What its style-controlled ranking adjusts for (`eval_backend.benchmarks.style_features`); none:
    the board shows answer length only."""
    in_brief: str = ""
    """What the page's introduction says of it after its title, in a few words ("short answers"); empty: its title
    alone."""
    about: str = ""
    """Its section of the About page (Markdown; subsections `###`, headings no other benchmark's section repeats),
    shown under its title after the sections every benchmark shares: its dataset, the choices made where its seed
    is silent, how its items cluster, its own columns, how to reproduce its rows. Empty: no section of its own."""
    judgment_columns: tuple[str, ...] = ()
    """The details columns the `/judgments` endpoint answers with for each of a run's items, in order; empty:
    every column of its details."""
