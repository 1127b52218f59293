"""Any scored benchmark's tables, built from its declarations: the ranking, its breakdowns, the item list.

Pure functions of the runs' summaries and details as the engine wrote them; nothing here re-scores. The columns
come from the benchmark's metrics (the headline first) and its board (`eval_backend.benchmarks.board_view`, whose
defaults give a new benchmark a tab with no code of its own). Columns are canonical snake_case; `labels` gives
each its header.
"""

from __future__ import annotations

from typing import Any, Collection, Mapping, Sequence

import pandas as pd

from eval_backend.benchmarks.board_view import ANSWER_LENGTH, Breakdown, ItemField, ItemView, Row
from eval_backend.benchmarks.metric import Metric
from eval_backend.benchmarks.plugin import Benchmark
from eval_backend.generation.decoding_mode import mode_text
from leaderboard.answer_lengths import LENGTH_COLUMNS, LENGTH_LABELS, BoardLengths, board_lengths, length_columns
from leaderboard.display import PERCENT_DECIMALS, decimals_of, format_interval, format_rank_range, short_revision
from leaderboard.item_links import item_key
from leaderboard.ranking_query import COUNT_COLUMNS, DETAIL_COLUMNS, DETAILS, METADATA, METADATA_COLUMNS, model_type
from leaderboard.results import LruCache, RunResult, Snapshot, runs_frame
from leaderboard.row_flags import FEW_ITEMS_INTERVAL, board_flags, dataset_pin, outdated, run_facts, too_few_items
from leaderboard.run_shape import as_mapping
from leaderboard.scored_rankings import SUBSET_COLUMN, on_subset, ranked_table
from leaderboard.subset_ranks import CONFIG_FIELD, Subset

ALL = "all"
"""The item filters' choice that keeps every row."""
LABELS = {
    "rank": "Rank", "rank_range": "Rank range (95 %)", "interval": "95 % interval", "model": "Model",
    "revision": "Revision", "items": "Items", "missing_responses": "No answer", "failed_judgments": "Judge failures",
    "unclosed_thinking": "Cut off in thinking",
    "judge_model": "Judge", "created_at": "Scored at", "dataset_revision": "Dataset revision",
    "standing_note": "Why not ranked", "item": "Item", "flags": "Flags", "decoding_mode": "Mode", **LENGTH_LABELS,
    "params_b": "Parameters (B)", "precision": "Precision", "model_type": "Model type", "license": "License",
    "open_weights": "Open weights",
}


def tab_id(benchmark: Benchmark) -> str:
    """The benchmark's tab in the page address (`?tab=qa`) and the prefix of its elements' ids."""
    return benchmark.board.tab or benchmark.name


def metric_names(benchmark: Benchmark) -> list[str]:
    """The benchmark's metrics, its headline first."""
    return [benchmark.headline, *(metric.name for metric in benchmark.metrics if metric.name != benchmark.headline)]


def labels(benchmark: Benchmark) -> dict[str, str]:
    """The headers of the ranking and breakdown columns: a metric's label with its unit, an arrow where lower
    is better."""
    board, headline = benchmark.board, benchmark.headline_metric()
    return {**LABELS, **{metric.name: _metric_label(metric) for metric in benchmark.metrics},
            **{column.name: column.label for column in board.run_columns},
            **{breakdown.name: breakdown.label for breakdown in board.breakdowns},
            SUBSET_COLUMN: _metric_label(headline, f"{headline.label} on the chosen groups")}


def ranking_labels(ranking: pd.DataFrame, benchmark: Benchmark) -> dict[str, str]:
    """`labels`, and each breakdown column of `ranking` headed by its group's name (`language.Hindi`: Hindi; a
    shortfall from the baseline `variant_drop.romanized`: romanized drop %)."""
    groups, shortfalls = _group_columns(ranking, benchmark)
    return {**labels(benchmark), **{column: column.split(".", 1)[1] for column in groups},
            **{column: f"{column.split('.', 1)[1]} drop %" for column in shortfalls}}


def item_labels(benchmark: Benchmark) -> dict[str, str]:
    """The headers of the item table's columns."""
    group = benchmark.board.group
    return {"item": LABELS["item"], group.name: group.label,
            **{field.name: field.label for field in item_fields(benchmark)}}


def _metric_label(metric: Metric, label: str = "") -> str:
    label, unit = label or metric.label, metric.unit
    shown = f"{label} %" if unit == "%" else label if unit == "count" else f"{label} ({unit})"
    return shown if metric.higher_is_better or unit == "count" else f"{shown} ↓"


CARD_COLUMNS = ("params_b", "precision", "license", "open_weights")
"""What the request recorded of the model (`results.runs_frame`), for the ranking's filters."""


def ranking_frame(runs: Sequence[RunResult], benchmark: Benchmark, configured_judge: str = "") -> pd.DataFrame:
    """One row per run: its metrics, run columns, decoding mode, counts, flags (`row_flags` codes; the board's judge
    is the one most of these runs used, ties going to `configured_judge`) and standing; the ranked runs first, by
    the headline in its direction with their rank ranges, then the partial and incomplete ones."""
    names = metric_names(benchmark)
    columns = ["run_id", "model", "revision", *(column.name for column in benchmark.board.run_columns),
               "decoding_mode", *names, *(f"{name}_ci_{end}" for name in names[1:] for end in ("low", "high")),
               *COUNT_COLUMNS, "judge_model", "created_at", "dataset_revision", "model_type", "flags"]
    old = outdated([dataset_pin(run.request) for run in runs])
    flags = board_flags([run_facts(run.summary, stale) for run, stale in zip(runs, old)], configured_judge)
    frame = pd.DataFrame([{**_ranking_row(run, benchmark), "flags": codes} for run, codes in zip(runs, flags)],
                         columns=columns)
    for more in (length_columns(runs, benchmark), runs_frame(runs)[["run_id", *CARD_COLUMNS]],
                 breakdown_columns(runs, benchmark)):
        frame = frame.merge(more, on="run_id", how="left")
    headline = benchmark.headline_metric()
    frame = frame.sort_values([headline.name, "model"], ascending=[not headline.higher_is_better, True],
                              na_position="last", kind="stable")
    return ranked_table(frame, runs, benchmark)


def _ranking_row(run: RunResult, benchmark: Benchmark) -> dict[str, Any]:
    summary, names = run.summary, metric_names(benchmark)
    metrics, counts = summary.get("metrics") or {}, summary.get("counts") or {}
    intervals = summary.get("intervals") or {}  # each a [low, high] pair or null, checked on read (run_shape)
    return {"run_id": run.run_id, "model": run.model, "revision": run.revision,
            **{column.name: column.value(summary) for column in benchmark.board.run_columns},
            "decoding_mode": mode_text(summary.get("decoding_mode")),
            **{name: _number(metrics.get(name)) for name in names},
            **{f"{name}_ci_{end}": _number(value) for name in names[1:]  # the headline's: the ranking's ci_low, ci_high
               for end, value in zip(("low", "high"), intervals.get(name) or (None, None))},
            **{name: counts.get(name, 0) for name in COUNT_COLUMNS},
            "judge_model": run.provenance.get("judge_model"), "created_at": run.provenance.get("created_at"),
            "dataset_revision": run.dataset.revision if run.dataset else None, "model_type": model_type(run.request)}


def breakdown_columns(runs: Sequence[RunResult], benchmark: Benchmark) -> pd.DataFrame:
    """Per run, the headline in each group of each breakdown that scores its groups by the headline, as columns
    `<breakdown>.<group>` (`language.Hindi`), and where the breakdown declares a baseline each other group's
    shortfall from it (`shortfall_column`): the ranking's column groups (`column_groups`)."""
    rows = []
    higher_is_better = benchmark.headline_metric().higher_is_better
    for run in runs:
        row: dict[str, Any] = {"run_id": run.run_id}
        for breakdown in benchmark.board.breakdowns:
            scores = {name: _number(group_figures(entry, benchmark).get(benchmark.headline))
                      for name, entry in as_mapping(run.summary.get(breakdown.summary_key)).items()}
            row.update({f"{breakdown.name}.{name}": value for name, value in scores.items() if value is not None})
            row.update(_shortfalls(breakdown, scores, higher_is_better))
        rows.append(row)
    return pd.DataFrame(rows, columns=["run_id", *dict.fromkeys(key for row in rows for key in row if key != "run_id")])


def shortfall_column(breakdown: Breakdown, group: str) -> str:
    """The ranking's column of `group`'s shortfall from its breakdown's baseline (`variant_drop.romanized`)."""
    return f"{breakdown.name}_drop.{group}"


def _group_columns(frame: pd.DataFrame, benchmark: Benchmark) -> tuple[list[str], list[str]]:
    """`frame`'s columns of a breakdown's groups (`language.Hindi`), and of shortfalls from a baseline."""
    breakdowns = benchmark.board.breakdowns
    groups = tuple(f"{breakdown.name}." for breakdown in breakdowns)
    shortfalls = tuple(shortfall_column(breakdown, "") for breakdown in breakdowns if breakdown.baseline)
    columns = [str(column) for column in frame.columns]
    return [column for column in columns if column.startswith(groups)], [
        column for column in columns if column.startswith(shortfalls)]


def _shortfalls(breakdown: Breakdown, scores: Mapping[str, float | None], higher_is_better: bool) -> dict[str, float]:
    """Each group's shortfall from the breakdown's baseline group, in % of the baseline's score: positive where the
    group does worse (the headline's direction); none without a baseline score, or with one of 0."""
    base = scores.get(breakdown.baseline) if breakdown.baseline else None
    if not base:
        return {}
    worse = 1.0 if higher_is_better else -1.0
    return {shortfall_column(breakdown, name): worse * 100.0 * (base - value) / base
            for name, value in scores.items() if name != breakdown.baseline and value is not None}


def higher_is_better(ranking: pd.DataFrame, benchmark: Benchmark) -> dict[str, bool]:
    """Which way each figure of `ranking` is better, for sorting best first: each metric its own way, a breakdown
    column the headline's, a shortfall from a baseline the smaller."""
    headline = benchmark.headline_metric().higher_is_better
    groups, shortfalls = _group_columns(ranking, benchmark)
    return {**dict.fromkeys(groups, headline), **dict.fromkeys(shortfalls, False),
            **{metric.name: metric.higher_is_better for metric in benchmark.metrics}, SUBSET_COLUMN: headline}


def column_groups(ranking: pd.DataFrame, benchmark: Benchmark) -> dict[str, list[str]]:
    """The ranking's column groups a viewer shows or hides, by name: each breakdown with a column in `ranking`
    (`breakdown_columns`), its groups in the summaries' order, then the run's details and its model card's."""
    groups = {breakdown.name: [column for column in ranking.columns
                               if column.startswith((f"{breakdown.name}.", shortfall_column(breakdown, "")))]
              for breakdown in benchmark.board.breakdowns}
    return {**{name: columns for name, columns in groups.items() if columns},
            DETAILS: [column for column in DETAIL_COLUMNS if column in ranking],
            METADATA: [column for column in METADATA_COLUMNS if column in ranking]}


def group_labels(benchmark: Benchmark) -> dict[str, str]:
    """Each column group's name as the "Column groups" boxes show it."""
    return {**{breakdown.name: breakdown.label for breakdown in benchmark.board.breakdowns},
            DETAILS: "Details", METADATA: "Model card"}


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def shown_ranking(ranking: pd.DataFrame, benchmark: Benchmark, groups: Sequence[str] | None = None) -> pd.DataFrame:
    """The ranking as read on screen: rank, model, the headline, its rank range, interval and flags first (a
    phone's first screen), then the run columns, the Mode, the other metrics, lengths and revision, the column
    groups `groups` names (`column_groups`; None: the board's default), the standing and `run_id` last (for the
    score links; never shown); the CSV keeps every column. A run flagged with too few items reads
    FEW_ITEMS_INTERVAL for its interval, never a number."""
    frame = ranking.copy()
    frame["rank_range"] = [format_rank_range(*ranks) for ranks in zip(frame["rank_best"], frame["rank_worst"])]
    places = decimals_of(benchmark.headline_metric().unit)
    frame["interval"] = [FEW_ITEMS_INTERVAL if too_few_items(codes) else format_interval(low, high, places)
                         for low, high, codes in zip(frame["ci_low"], frame["ci_high"], frame["flags"])]
    names = metric_names(benchmark)
    lead = ["rank", "model", names[0], "rank_range", "interval", "flags"]
    if SUBSET_COLUMN in frame:  # the rank range and interval are the subset's
        lead = ["rank", "model", SUBSET_COLUMN, "rank_range", "interval", names[0], "flags"]
    # What a reader reads, the CSV keeping the values as they are: a dataset commit short, open weights in words.
    frame["dataset_revision"] = frame["dataset_revision"].map(lambda revision: short_revision(revision) or None)
    frame["open_weights"] = frame["open_weights"].map(lambda known: "unknown" if known is None or pd.isna(known)
                                                      else "yes" if known else "no")
    chosen = benchmark.board.column_groups if groups is None else groups
    grouped = [column for name, columns in column_groups(frame, benchmark).items() if name in chosen
               for column in columns]
    rest = [*(column.name for column in benchmark.board.run_columns), "decoding_mode", *names[1:], *LENGTH_COLUMNS,
            "revision", *grouped, "standing", "standing_note", "run_id"]
    return frame[[*lead, *rest]]


def column_decimals(frame: pd.DataFrame, benchmark: Benchmark) -> dict[str, int]:
    """The decimals each figure of a ranking or breakdown frame reads with, by its unit (`display.decimals_of`):
    each metric's, the headline's for a breakdown column (`language.Hindi`) and the subset's figure, a percentage's
    for a shortfall from a baseline."""
    headline = decimals_of(benchmark.headline_metric().unit)
    groups, shortfalls = _group_columns(frame, benchmark)
    return {**{metric.name: decimals_of(metric.unit) for metric in benchmark.metrics}, SUBSET_COLUMN: headline,
            **dict.fromkeys(groups, headline), **dict.fromkeys(shortfalls, decimals_of("%"))}


def breakdown_frame(runs: Sequence[RunResult], benchmark: Benchmark, breakdown: Breakdown,
                    few_items: Collection[str] = (), lengths: BoardLengths | None = None) -> pd.DataFrame:
    """Long table: per run and group (language, domain, task), its figures (`group_figures`), the 95 % interval of
    its headline (FEW_ITEMS_INTERVAL for the run ids in `few_items`), its median answer length (`lengths`, default:
    the runs'), and `run_id` last (for the score links)."""
    rows = []
    lengths = lengths or board_lengths(runs, benchmark)
    places = decimals_of(benchmark.headline_metric().unit)
    for run in runs:
        intervals = run.summary.get("config_intervals") or {}
        for name, entry in (run.summary.get(breakdown.summary_key) or {}).items():
            group_intervals = as_mapping(intervals.get(name))
            interval = group_intervals.get(name) or group_intervals.get(benchmark.headline) or (None, None)
            shown = FEW_ITEMS_INTERVAL if run.run_id in few_items else format_interval(*interval, places)
            median = lengths.group_median(run.run_id, breakdown.name, str(name))
            rows.append({"model": run.model, "revision": run.revision, breakdown.name: name,
                         **group_figures(entry, benchmark), "interval": shown, "median_length": median,
                         "length_unit": lengths.unit, "run_id": run.run_id})
    lead, last = ["model", "revision", breakdown.name], ["interval", *LENGTH_COLUMNS, "run_id"]
    figures = dict.fromkeys(key for row in rows for key in row if key not in (*lead, *last))
    return pd.DataFrame(rows, columns=[*lead, *figures, *last])


def group_figures(entry: Any, benchmark: Benchmark) -> dict[str, Any]:
    """One group's figures in a summary's breakdown: the benchmark's metrics, its flat figures as they are, or one
    number: the headline's value in that group (WritingBench's `configs`, `variants`, `domains`)."""
    if _number(entry) is not None:
        return {benchmark.headline: _number(entry)}
    if not isinstance(entry, Mapping):
        return {}
    metrics = entry.get("metrics")
    if isinstance(metrics, Mapping):
        return {name: _number(metrics.get(name)) for name in metric_names(benchmark)}
    return {key: _cell(value) for key, value in entry.items()}


def _cell(value: Any) -> Any:
    """A figure as a table cell: counts by reason as `reason: n` text, lists as text, numbers as they are."""
    if isinstance(value, Mapping):
        return ", ".join(f"{key}: {count}" for key, count in value.items()) or "none"
    if isinstance(value, list):
        return ", ".join(map(str, value))
    return value


def item_fields(benchmark: Benchmark) -> tuple[ItemField, ...]:
    """The item table's columns after the item and its group: the board's, or the item's own fields, the answer,
    each figure's value and each judge's reason."""
    if benchmark.board.item_fields:
        return benchmark.board.item_fields
    statistics = benchmark.item_statistics() if benchmark.item_statistics else None
    figures = tuple(ItemField(figure.name, figure.label) for figure in statistics.figures) if statistics else ()
    reasons = tuple(ItemField(f"{judge.name}_reason", f"{judge.name.replace('_', ' ').capitalize()} reason")
                    for judge in benchmark.judges)
    own = tuple(ItemField(name, name.replace("_", " ").capitalize()) for name in benchmark.row_fields)
    return (*own, ItemField("response", "Answer"), ANSWER_LENGTH, *figures, *reasons)


def item_filters(benchmark: Benchmark) -> list[str]:
    """The item table's "Show" choices."""
    return [ALL, *(choice.label for choice in benchmark.board.item_filters)]


def item_groupings(benchmark: Benchmark) -> tuple[ItemField, ...]:
    """The fields the item table filters by, as a score link names them (`?config=hindi`, `?domain=History`): the
    board's group, then each breakdown's field that is not it (QA's domain) and each declared item group."""
    group = benchmark.board.group
    others = {breakdown.item_field: ItemField(breakdown.item_field, breakdown.label)
              for breakdown in benchmark.board.breakdowns if breakdown.item_field != group.name}
    declared = {field.name: field for field in benchmark.board.item_groups if field.name != group.name}
    return (group, *{**others, **declared}.values())


def items_frame(details: pd.DataFrame, benchmark: Benchmark, group: str = ALL, show: str = ALL,
                where: Mapping[str, str] | None = None) -> pd.DataFrame:
    """The run's items, one line each with the columns a reader reads (`item` is its `config:index` key),
    those of one group (`group`, or every one) whose other fields have the values `where` names (a field ALL or
    absent: any), that the filter `show` keeps, in the run's order."""
    board = benchmark.board
    keep = _filter(benchmark, show)
    frame = _with_figures(details, benchmark)
    fields = item_fields(benchmark)
    wanted = {**{name: value for name, value in (where or {}).items() if value != ALL},
              **({board.group.name: group} if group != ALL else {})}
    rows = [
        {"item": item_key(row["config"], int(row["index"])), board.group.name: row.get(board.group.name),
         **{field.name: _field_value(field, row) for field in fields}}
        for row in frame.to_dict("records")
        if all(str(row.get(name)) == value for name, value in wanted.items()) and keep(row)
    ]
    return pd.DataFrame(rows, columns=["item", board.group.name, *(field.name for field in fields)])


def _filter(benchmark: Benchmark, show: str) -> Any:
    keeps = {ALL: lambda row: True, **{choice.label: choice.keep for choice in benchmark.board.item_filters}}
    if show not in keeps:
        raise ValueError(f"unknown filter {show!r}; expected one of {item_filters(benchmark)}")
    return keeps[show]


def _with_figures(details: pd.DataFrame, benchmark: Benchmark) -> pd.DataFrame:
    """The details with each figure's per-item value, when the default item fields show them."""
    if benchmark.board.item_fields or not benchmark.item_statistics:
        return details
    values = benchmark.item_statistics().values(details)
    return details.assign(**{name: values[name] for name in values.columns if name not in details})


def _field_value(field: ItemField, row: Row) -> Any:
    value = field.value(row) if field.value else row.get(field.name)
    return None if isinstance(value, float) and pd.isna(value) else value


def groups(details: pd.DataFrame, benchmark: Benchmark, field: str | None = None) -> list[str]:
    """The choices of an item filter by `field` (default: the board's group): every value the run's items have,
    in their order."""
    column = field or benchmark.board.group.name
    return [ALL, *dict.fromkeys(map(str, details[column].dropna()))] if column in details else [ALL]


def item_view(details: pd.DataFrame, benchmark: Benchmark, config: str, index: int) -> ItemView | None:
    """The item `config:index` of the run in full; None when the run has no such item."""
    match = details[(details["config"] == config) & (details["index"] == index)]
    if match.empty:
        return None
    row = _with_figures(match, benchmark).to_dict("records")[0]
    return benchmark.board.item_view(row) if benchmark.board.item_view else _default_view(row, benchmark)


def _default_view(row: Row, benchmark: Benchmark) -> ItemView:
    """The item's own fields, the answer, and each other item field's value."""
    question = "\n".join(f"{name}: {row[name]}" for name in benchmark.row_fields if isinstance(row.get(name), str))
    response = row.get("response")
    shown = ("response", ANSWER_LENGTH.name, *benchmark.row_fields)  # the answer is read whole, its length listed
    fields = [field for field in item_fields(benchmark) if field.name not in shown]
    verdict = "\n".join(f"{field.label}: {_text(_field_value(field, row))}" for field in fields)
    return ItemView(question, response if isinstance(response, str) else f"(no answer: {row.get('response_error')})",
                    verdict)


def _text(value: Any) -> str:
    return "" if value is None else f"{value:.{PERCENT_DECIMALS}f}" if isinstance(value, float) else str(value)


_RANKINGS: LruCache[pd.DataFrame] = LruCache(16)
"""Each benchmark's ranking per state of its results: the joint bootstrap runs once per state, whether the
benchmark's tab, the overview or a model page asks."""


def ranking_of(snapshot: Snapshot, benchmark: Benchmark, configured_judge: str = "",
               subset: Subset | None = None) -> pd.DataFrame:
    """`ranking_frame` of the snapshot's runs, computed once per state of the benchmark's results; with `subset`,
    re-ranked on those items (`scored_rankings.on_subset`), once per state and subset."""
    whole = _RANKINGS.get_or_load((benchmark.name, snapshot.signature, configured_judge),
                                  lambda: ranking_frame(snapshot.runs, benchmark, configured_judge))
    if subset is None:
        return whole
    return _RANKINGS.get_or_load((benchmark.name, snapshot.signature, configured_judge, subset),
                                 lambda: on_subset(whole, snapshot.runs, benchmark, subset))


def subset_breakdowns(benchmark: Benchmark) -> tuple[Breakdown, ...]:
    """The breakdowns a ranking may be restricted to: those whose item field names an item's group in the
    benchmark's item values (its config, or a field its statistics carry: QA's domain, Saraiki's task)."""
    if benchmark.item_statistics is None:
        return ()
    fields = {CONFIG_FIELD, *benchmark.item_statistics().subsets}
    first = {}  # one per field: WritingBench's language and language x rendering both name an item's config
    for breakdown in benchmark.board.breakdowns:
        if breakdown.item_field in fields:
            first.setdefault(breakdown.item_field, breakdown)
    return tuple(first.values())


def subset_line(benchmark: Benchmark, subset: Subset | None, ranking: pd.DataFrame) -> str:
    """The line under the rankings saying what is ranked: nothing on every item; on chosen groups, the subset (and
    that it could not be ranked, where fewer than two complete runs could be resampled on its items)."""
    if subset is None:
        return ""
    label = benchmark.headline_metric().label
    if SUBSET_COLUMN not in ranking:
        return (f"**Not ranked on the chosen groups** ({subset.describe()}): fewer than two complete runs have items "
                f"of the {label} there that can be resampled together; the standard ranking is shown.")
    return (f"Ranked by the {label} on the chosen groups ({subset.describe()}) alone, complete runs only; "
            "the 95 % interval and rank range are the subset's, from one joint bootstrap of the runs on the shared "
            "dataset revision restricted to its items.")


def breakdown_groups(runs: Sequence[RunResult], breakdown: Breakdown) -> list[str]:
    """The groups of a breakdown the runs' summaries have, in their order."""
    names = (name for run in runs for name in (run.summary.get(breakdown.summary_key) or {}))
    return list(dict.fromkeys(map(str, names)))


def chosen_subset(benchmark: Benchmark, chosen: Sequence[Sequence[str]]) -> Subset | None:
    """The subset ticked: per `subset_breakdowns`, the groups chosen (none: every group); None when none is."""
    groups = tuple((breakdown.item_field, tuple(names))
                   for breakdown, names in zip(subset_breakdowns(benchmark), chosen) if names)
    return Subset(groups) if groups else None
