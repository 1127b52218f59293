"""The board's documented API: `/leaderboard` (a benchmark's rankings for a search and filters),
`/benchmark_rankings` (a declared benchmark's rankings as the seed scores them or controlled for style),
`/judgments` and `/benchmark_judgments` (one run's items), named parameters in, plain JSON records out, as
`gradio_client`'s `view_api()` describes them.

    from gradio_client import Client
    board = Client("http://127.0.0.1:7860/").predict(search="sarvam", languages=["Hindi"], api_name="/leaderboard")
    for run in board["runs"]:
        print(run["rank"], run["model"], run["subset_average"])
    qa = Client("http://127.0.0.1:7860/").predict(benchmark="indic_qa", search="sarvam", api_name="/leaderboard")

A ranking is the one its tab shows (`scored_tables.ranking_of`). The parameters are the board's controls, named
after them (the address's `q` is `search`, `langs` is `languages`), each checked by `leaderboard.endpoint_inputs`
before any work; ranking on groups a benchmark's ranking cannot be restricted to is refused by name, not ignored.
The page's own events stay callable, undocumented: their answers are component updates, not records.
"""

# No `from __future__ import annotations`: Gradio reads the endpoints' return types from their signatures as
# objects, and a string annotation would be described as `Any`.
import json
from typing import Any, Literal, Mapping, Sequence, TypedDict

import gradio as gr
import pandas as pd

from eval_backend.benchmarks.plugin import Benchmark
from eval_backend.benchmarks.registry import BENCHMARKS, DEFAULT_BENCHMARK
from leaderboard.context import AppContext
from leaderboard.endpoint_inputs import InvalidInput, choice, echo, refusing_bad_input, text, texts
from leaderboard.ranking_query import MODEL_TYPES, RankingQuery, kept_rows, newest_stamp, sorted_rows
from leaderboard.results import RunResult, UnknownRunError
from leaderboard.row_flags import FLAGS
from leaderboard.scored_tables import breakdown_groups, chosen_subset, higher_is_better, ranking_of, subset_breakdowns
from leaderboard.style_view import CONTROLLED, SEED, in_reading, style_view
from leaderboard.tabs.ranking_controls import query_of

API_CONCURRENCY = 4
"""Calls of one documented endpoint computed at once; more wait in Gradio's queue (each may build a whole view)."""

ModelType = Literal[tuple(MODEL_TYPES)]  # type: ignore[valid-type]
Flag = Literal[tuple(FLAGS)]  # type: ignore[valid-type]
Style = Literal[SEED, CONTROLLED]  # type: ignore[valid-type]
BenchmarkName = Literal[tuple(BENCHMARKS)]  # type: ignore[valid-type]


class Board(TypedDict):
    """`/leaderboard`'s answer: one record per run the query keeps (ranked ones first, in the board's order),
    the run folders that could not be read, and when the newest result was written."""

    runs: list[dict[str, Any]]
    problems: list[str]
    updated: str


class Judgments(TypedDict):
    """`/judgments`' answer: the run and one record per item (config, index, status, item_score, ...)."""

    run_id: str
    model: str
    revision: str
    items: list[dict[str, Any]]


class Rankings(TypedDict):
    """`/benchmark_rankings`' answer: the benchmark and reading, one record per run kept (ranked ones first), and
    why there is no controlled reading where there is none (the seed's ranking is given then)."""

    benchmark: str
    style: str
    runs: list[dict[str, Any]]
    uncontrolled: str


def register(context: AppContext) -> None:
    """Add the documented endpoints to the Blocks being built (call inside it)."""

    @refusing_bad_input
    def leaderboard(search: str = "", languages: list[str] | None = None, variants: list[str] | None = None,
                    sort: str = "rank", min_params_b: float | None = None, max_params_b: float | None = None,
                    model_type: ModelType = "all", ranked_only: bool = False, licenses: list[str] | None = None,
                    open_weights_only: bool = False, hide_flags: list[Flag] | None = None,
                    benchmark: BenchmarkName = DEFAULT_BENCHMARK) -> Board:
        """A benchmark's rankings for a search and filters, as records with every column its tab has.

        Args:
            search: model ids containing any of these terms (separated by ;), case-insensitive
            languages: rank on these languages (configs) only (none: every item, the standard ranking)
            variants: rank on these prompt renderings only, for a benchmark that has them (none: every rendering)
            sort: the column to sort by, best first (rank: the ranking)
            min_params_b: smallest model size, in billions of parameters (none: no bound)
            max_params_b: largest model size, in billions of parameters (none: no bound)
            model_type: the model type the request recorded (all: any)
            ranked_only: leave out partial and incomplete runs
            licenses: keep runs with one of these licenses (none: any)
            open_weights_only: keep runs whose weights are public on the Hub
            hide_flags: leave out runs flagged with any of these codes
            benchmark: the benchmark whose ranking is asked (its name in the registry)
        """
        chosen = BENCHMARKS[choice(benchmark, "benchmark", BENCHMARKS, DEFAULT_BENCHMARK)]
        snapshot = context.stores[chosen.name].snapshot()
        ranked_on = subset_choice(chosen, snapshot.runs, {"config": ("languages", languages),
                                                          "variant": ("variants", variants)})
        query = query_of([search, hide_flags, *ranked_on, None, sort, min_params_b, max_params_b, model_type,
                          ranked_only, licenses, open_weights_only], len(ranked_on))
        ranking = ranking_of(snapshot, chosen, context.settings.judge.model, chosen_subset(chosen, query.ranked_on))
        rows = ranking[kept_rows(ranking, query)] if len(ranking) else ranking
        view = sorted_rows(rows.reset_index(drop=True), query.sort_by, higher_is_better(ranking, chosen))
        updated = newest_stamp(view)
        return Board(runs=records(view), problems=list(snapshot.problems),
                     updated="" if updated is None else updated.isoformat())

    @refusing_bad_input
    def judgments(run_id: str) -> Judgments:
        """One run of the default benchmark (Indic WritingBench): its items as its item browser lists them, with their
        scores (`/benchmark_judgments` names the benchmark).

        Args:
            run_id: the run, as `<org>__<name>/<revision>` (the `run_id` of a `/leaderboard` record)
        """
        return benchmark_judgments(run_id)

    @refusing_bad_input
    def benchmark_judgments(run_id: str, benchmark: BenchmarkName = DEFAULT_BENCHMARK) -> Judgments:
        """One run's items as its benchmark's item browser lists them, with their scores.

        Args:
            run_id: the run, as `<org>__<name>/<revision>` (the `run_id` of a `/leaderboard` record)
            benchmark: the run's benchmark (its name in the registry)
        """
        chosen = text(run_id, "run_id")
        store = context.stores[choice(benchmark, "benchmark", BENCHMARKS, DEFAULT_BENCHMARK)]
        try:
            run = store.run(chosen)
            details = store.details(chosen)
        except UnknownRunError:
            raise InvalidInput(f"No evaluated run {echo(chosen)}: choose one from the list.") from None
        columns = list(run.benchmark.board.judgment_columns) or list(details.columns)  # those declared, else all
        items = details[columns].sort_values(["config", "index"], kind="stable").reset_index(drop=True)
        return Judgments(run_id=run.run_id, model=run.model, revision=run.revision, items=records(items))

    @refusing_bad_input
    def benchmark_rankings(benchmark: str = "indic_qa", search: str = "", hide_flags: list[Flag] | None = None,
                           style: Style = "seed") -> Rankings:
        """A declared benchmark's rankings (its tab's table, every column), as the seed scores them or controlled.

        Args:
            benchmark: the benchmark's name (indic_qa, saraiki, ...)
            search: model ids containing any of these terms (separated by ;), case-insensitive
            hide_flags: leave out runs flagged with any of these codes
            style: seed (the seed's ranking) or controlled (for answer length and style; the address's style)
        """
        name = choice(benchmark, "benchmark", list(context.stores))
        reading = choice(style, "style", [SEED, CONTROLLED], default=SEED)
        query = RankingQuery(search=text(search, "search"), hide_flags=texts(hide_flags, "hide_flags", FLAGS))
        chosen, snapshot = BENCHMARKS[name], context.stores[name].snapshot()
        seed = ranking_of(snapshot, chosen, context.settings.judge.model)
        ranking = in_reading(snapshot, chosen, seed, reading)
        reason = (style_view(snapshot, chosen, seed).reason or "") if reading == CONTROLLED else ""
        return Rankings(benchmark=name, style=reading, runs=records(ranking[kept_rows(ranking, query)]),
                        uncontrolled=reason)

    for endpoint in (leaderboard, benchmark_rankings, judgments, benchmark_judgments):
        gr.api(endpoint, api_name=endpoint.__name__, concurrency_limit=API_CONCURRENCY)


def subset_choice(benchmark: Benchmark, runs: Sequence[RunResult], asked: Mapping[str, tuple[str, Any]]) -> list[Any]:
    """The groups to rank on, one value per breakdown the benchmark's ranking may be restricted to
    (`subset_breakdowns`), from the endpoint's parameters by item field (`asked`: field -> (parameter, value));
    InvalidInput naming a parameter set for a field the benchmark cannot rank on, or a group none of `runs` has."""
    breakdowns = subset_breakdowns(benchmark)
    fields = [breakdown.item_field for breakdown in breakdowns]
    unknown = [name for field, (name, value) in asked.items() if value and field not in fields]
    if unknown:
        raise InvalidInput(f"{', '.join(unknown)}: {benchmark.title}'s ranking cannot be restricted to those groups; "
                           f"leave {'them' if len(unknown) > 1 else 'it'} out")
    return [texts(asked[breakdown.item_field][1], asked[breakdown.item_field][0], breakdown_groups(runs, breakdown))
            if breakdown.item_field in asked else () for breakdown in breakdowns]


def records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """`frame`'s rows as JSON records: a missing value is null, a time ISO 8601, numbers plain."""
    if frame.empty:
        return []
    return json.loads(frame.to_json(orient="records", date_format="iso", force_ascii=False))
