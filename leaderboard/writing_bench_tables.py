"""The leaderboard table: canonical DataFrames in, canonical DataFrames out, no I/O, no labels.

Fixed columns are snake_case. Each member of a breakdown group gets a column named
`<group>.<name>` ("config.Hindi", "variant.native", "domain.Literature & Arts"), so a
name is never mangled; `display.py` turns both kinds into labels. Each language x variant
score (summary.json `config_variants`) is a hidden `cell.<config>|<variant>` column: no column
group shows it, ranking on chosen languages and variants averages it.

The ranking rule (`RANKING_RULE`): only complete runs are ranked, by their Indic average;
each ranked run also gets a rank range: from one joint bootstrap of the runs on the shared
dataset revision (`joint_ranks.py`), else from the bootstrap intervals, as Chatbot Arena does.
Partial runs (some configs only) and incomplete ones (items without a score) follow, each
labelled, never interleaved with ranked rows.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass
from typing import Any, Hashable, Iterable, Mapping, Sequence

import numpy as np
import pandas as pd

from eval_backend.benchmarks.writing_bench.items import INDIC_CONFIGS, VARIANTS
from eval_backend.benchmarks.writing_bench.scoring import SUBDOMAIN_SEPARATOR
from eval_backend.benchmarks.writing_bench.statistics import WRITING_STATISTICS
from eval_backend.run_items import model_label
from leaderboard.joint_ranks import HEADLINE_FIGURE, with_joint_rank_ranges
from leaderboard.results import UNKNOWN_LICENSE, LruCache, RunResult, Snapshot, breakdown_frame, runs_frame
from leaderboard.scored_rankings import INCOMPLETE, RANKED, coverage_standing, rank_ranges, whole_number
from leaderboard.subset_ranks import SUBSET_COLUMNS, Subset, subset_ranks
from leaderboard.row_flags import board_flags, dataset_pin, is_hidden, outdated, run_facts

RANKING_RULE = (
    "Ranked by the Indic average (the mean of the 11 Indic language scores), complete runs only; "
    "the rank range is the middle 95 % of the ranks a model holds across one joint bootstrap of the runs "
    "on the shared dataset revision (a run on another revision: the ranks it could hold within the 95 % intervals)."
)
ENGLISH_COLUMNS = ["config.english_original", "config.indian_english"]
BASE_COLUMNS = [
    "rank", "rank_best", "rank_worst", "label", "model", "revision", "flags", "subset_average", "subset_ci_low",
    "subset_ci_high", "indic_average", "indic_ci_low",
    "indic_ci_high", *ENGLISH_COLUMNS, "overall", "overall_ci_low", "overall_ci_high", "standing", "standing_note",
]
DETAIL_COLUMNS = [
    "covered_items", "expected_items", "no_response_items", "failed_items", "pending_items", "unclosed_thinking",
    "dataset_revision", "dataset_outdated", "judge_model", "created_at", "params_b", "precision", "model_type",
    "decoding_mode",
]
_STANDING_COLUMNS = [
    "run_id", "standing", "standing_note", "indic_ci_low", "indic_ci_high", "expected_items", "covered_items",
    "no_response_items", "failed_items", "pending_items", "unclosed_thinking", "dataset_revision", "dataset_outdated",
    "model_type",
]
METADATA_COLUMNS = ["license", "open_weights"]
"""What the model's Hub card said at submission (`unknown` / empty when it was not recorded)."""
DROP_COLUMNS = ["drop_code_mixed", "drop_romanized"]
COLUMN_GROUPS = ("languages", "variants", "domains", "details", "metadata")
DEFAULT_GROUPS = ("languages", "variants", "details")
_PIVOTED = ("config", "variant", "domain")
_MEMBER_ORDER = {"config": INDIC_CONFIGS, "variant": VARIANTS}


def leaderboard_table(
    runs: pd.DataFrame, breakdowns: pd.DataFrame, standings: pd.DataFrame | None = None,
    cells: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """One row per run: the ranked runs by Indic average (best first), then the unranked ones.

    `indic_average` is the engine's (summary.json `config_groups.indic`). `standings`
    (`standing_frame`) says which runs are ranked; without it none is. The robustness
    drops are the percentage by which the code_mixed and romanized scores fall short of
    the native score. `cells` (`language_variant_frame`) become the hidden `cell.` columns.
    """
    table = runs.drop(columns=["failed_items", "pending_items"], errors="ignore")
    table = table.merge(standing_frame([]) if standings is None else standings, how="left", on="run_id")
    table["standing"] = table["standing"].fillna(INCOMPLETE)
    for group in _PIVOTED:
        table = table.merge(_pivot(breakdowns, group), how="left", left_on="run_id", right_index=True)
    table = table.merge(_config_intervals(breakdowns), how="left", left_on="run_id", right_index=True)
    if cells is not None and not cells.empty:
        wide = cells.pivot_table(index="run_id", columns=["config", "variant"], values="score", aggfunc="first")
        wide.columns = [cell_column(config, variant) for config, variant in wide.columns]
        table = table.merge(wide, how="left", left_on="run_id", right_index=True)
    for variant, column in zip(("code_mixed", "romanized"), DROP_COLUMNS):
        table[column] = _drop_percent(table, variant)
    table["label"] = [run_label(m, r) for m, r in zip(table["model"], table["revision"])]
    table["_unranked"] = table["standing"] != RANKED
    table = table.sort_values(
        ["_unranked", "indic_average", "label"], ascending=[True, False, True], na_position="last", kind="stable"
    ).drop(columns="_unranked")
    ranked = table["standing"] == RANKED
    table["rank"] = table["indic_average"].where(ranked).rank(ascending=False, method="min").astype("Int64")
    best, worst = rank_ranges(table.loc[ranked, "indic_ci_low"], table.loc[ranked, "indic_ci_high"])
    table["rank_best"] = pd.Series(best, index=table.index[ranked], dtype="Int64")
    table["rank_worst"] = pd.Series(worst, index=table.index[ranked], dtype="Int64")
    return table[_ordered_columns(table)].reset_index(drop=True)


def table_for_runs(runs: Sequence[RunResult], configured_judge: str = "") -> pd.DataFrame:
    """The leaderboard table of these runs, from their summaries as the engine wrote them, each row with its
    `flags` (`row_flags`: the board's judge is the one most runs used, ties going to `configured_judge`)."""
    table = leaderboard_table(
        runs_frame(runs), breakdown_frame(runs), standing_frame(runs), language_variant_frame(runs)
    )
    table = with_joint_rank_ranges(table, runs, table["standing"] == RANKED)
    table["flags"] = flags_column(table, runs, configured_judge)
    return table[_ordered_columns(table)]


def flags_column(table: pd.DataFrame, runs: Sequence[RunResult], configured_judge: str = "") -> list[str]:
    """Each row's flags as codes (`row_flags.flag_codes`), from its run's summary and `dataset_outdated`."""
    summaries = {run.run_id: run.summary for run in runs}
    old = table["dataset_outdated"] if "dataset_outdated" in table else pd.Series(False, index=table.index)
    return board_flags([run_facts(summaries.get(run_id, {}), bool(outdated_run))
                        for run_id, outdated_run in zip(table["run_id"], old.fillna(False))], configured_judge)


def cell_column(config: str, variant: str) -> str:
    """The hidden column of one language x variant score."""
    return f"cell.{config}|{variant}"


def standing_frame(runs: Sequence[RunResult]) -> pd.DataFrame:
    """Per run: ranked / partial / incomplete and why, its coverage, Indic interval and dataset revision.

    Read from summary.json's `coverage` (the dataset's items in the run's configs); a summary
    written before coverage was recorded is incomplete until the run is scored again. A run is
    flagged `dataset_outdated` when another run of the same dataset resolved a newer revision.
    """
    frame = pd.DataFrame([_standing_row(run) for run in runs], columns=_STANDING_COLUMNS)
    # From the requests themselves: a table column turns a missing date into NaN, which no date compares with.
    frame["dataset_outdated"] = outdated([dataset_pin(run.request) for run in runs])
    return frame


class TableCache:
    """The leaderboard table of the latest results, rebuilt only when they change.

    Every viewer's page asks for the table; building it from 500 summaries costs about
    0.1 s of CPU, while telling whether anything changed (a snapshot) costs a quarter of
    that. The table returned is shared: callers derive views from it, never modify it.
    """

    def __init__(self, configured_judge: str = "") -> None:
        self._configured_judge = configured_judge
        self._lock = threading.Lock()
        self._signature: Hashable = None
        self._table: pd.DataFrame | None = None
        self._subsets: LruCache[pd.DataFrame] = LruCache(_SUBSETS_KEPT)

    def table(self, snapshot: Snapshot) -> pd.DataFrame:
        with self._lock:
            if self._table is None or self._signature != snapshot.signature:
                self._table = table_for_runs(snapshot.runs, self._configured_judge)
                self._signature = snapshot.signature
            return self._table

    def subset(self, snapshot: Snapshot, query: BoardQuery) -> pd.DataFrame | None:
        """The joint ranking of the subset `query` ranks on (`subset_ranking`), drawn once per results and subset;
        None when it ranks on every item."""
        chosen = ranking_subset(query.languages, chosen_variants(query.variants))
        if chosen is None:
            return None
        table = self.table(snapshot)
        return self._subsets.get_or_load((snapshot.signature, chosen),
                                         lambda: subset_ranking(table, snapshot.runs, chosen))


_SUBSETS_KEPT = 32
"""Joint rankings of chosen subsets kept (one per results state and subset a viewer ticked)."""


def ranking_subset(languages: Sequence[str], variants: Sequence[str] = ()) -> Subset | None:
    """The items a ranking on these languages (none: every Indic one) and variants (none: all) counts; None when
    it counts every item of the standard ranking."""
    if not languages and not variants:
        return None
    groups = (("config", tuple(languages or INDIC_CONFIGS)),) + ((("variant", tuple(variants)),) if variants else ())
    return Subset(groups)


def subset_ranking(table: pd.DataFrame, runs: Sequence[RunResult], subset: Subset) -> pd.DataFrame:
    """The ranked runs' Indic average on the subset's items, its interval and rank range (`subset_ranks`)."""
    return subset_ranks(table, runs, table["standing"] == RANKED, WRITING_STATISTICS, HEADLINE_FIGURE, subset)


@dataclass(frozen=True)
class BoardQuery:
    """What a viewer chose: rows (search, size range, model type, hide unranked, licenses, open weights only,
    flags to hide), ranking languages and variants, sort column.

    `languages` and `variants` empty mean all Indic languages and every variant (the standard ranking);
    `licenses` empty means any license; `sort_by` empty means by rank; `hide_flags` holds flag codes.
    """

    search: str = ""
    min_params_b: float | None = None
    max_params_b: float | None = None
    model_type: str = "all"
    hide_unranked: bool = False
    languages: tuple[str, ...] = ()
    sort_by: str = ""
    licenses: tuple[str, ...] = ()
    open_weights_only: bool = False
    variants: tuple[str, ...] = ()
    hide_flags: tuple[str, ...] = ()


MODEL_TYPES = ("all", "base", "chat", "reasoning")
"""The model-type filter's choices, from what the request recorded (`model_type`)."""


def model_type(request: Mapping[str, Any]) -> str:
    """"reasoning" (submitted as one), else "chat" or "base" by the chat mode it was asked in; "" when not recorded."""
    if request.get("reasoning") is True:
        return "reasoning"
    chat = _mapping(request.get("generation")).get("chat")
    return {True: "chat", False: "base"}.get(chat, "") if isinstance(chat, bool) else ""


def query_rows(table: pd.DataFrame, query: BoardQuery, subset: pd.DataFrame | None = None) -> pd.DataFrame:
    """The rows the query keeps, re-ranked on its languages and variants and sorted by its column.

    The ranking on a subset is the whole board's (a search shows a row's rank among every run, as in the
    standard ranking); `subset` is its joint ranking (`TableCache.subset`), without which the subset's figure
    is the mean of the chosen columns and has no interval or rank range. A license filter keeps only the
    licenses chosen ("unknown" among them, or runs without a recorded license go); open weights only keeps the
    runs known to have them.
    """
    variants = chosen_variants(query.variants)
    if query.languages or variants:
        table = rank_on_subset(table, query.languages, variants, subset)
    keep = model_matches(table["model"], query.search)
    sizes = table["params_b"] if "params_b" in table else pd.Series(float("nan"), index=table.index)
    if query.min_params_b is not None:
        keep &= sizes >= query.min_params_b
    if query.max_params_b is not None:
        keep &= sizes <= query.max_params_b
    if query.model_type != "all" and "model_type" in table:
        keep &= table["model_type"] == query.model_type
    if query.hide_unranked:
        keep &= table["standing"] == RANKED
    if query.licenses and "license" in table:
        keep &= table["license"].isin(query.licenses)
    if query.open_weights_only:
        keep &= table["open_weights"].eq(True) if "open_weights" in table else False
    if query.hide_flags and "flags" in table:
        keep &= ~table["flags"].map(lambda codes: is_hidden(codes, query.hide_flags))
    return sort_rows(table.loc[keep].reset_index(drop=True), query.sort_by)


def chosen_variants(variants: Sequence[str]) -> tuple[str, ...]:
    """The variants a ranking is restricted to: () when none or every one is chosen (then the language scores,
    which pool every variant's items, are what is averaged)."""
    known = tuple(name for name in VARIANTS if name in variants)
    return () if len(known) == len(VARIANTS) else known


def license_choices(table: pd.DataFrame) -> list[str]:
    """The licenses of the runs on the board, A to Z, with "unknown" (none recorded) last."""
    present = set(table["license"].dropna()) if "license" in table else set()
    return sorted(present - {UNKNOWN_LICENSE}) + [UNKNOWN_LICENSE] * (UNKNOWN_LICENSE in present)


def rank_on_subset(table: pd.DataFrame, languages: Sequence[str], variants: Sequence[str] = (),
                   subset: pd.DataFrame | None = None) -> pd.DataFrame:
    """The ranked runs re-ranked by their figure on a chosen subset (`subset_average`), as MTEB does for tasks.

    With `subset` (the subset's joint ranking, `subset_ranking`), a run it holds has the subset's Indic average,
    95 % interval (`subset_ci_low`, `subset_ci_high`) and rank range. Else, and for a run it lacks, the figure is
    the mean of the chosen languages' scores (with variants: of each chosen language x variant cell, summary.json
    `config_variants`; a run missing a cell has none), with no interval or rank range. Unranked runs stay apart
    and keep their order.
    """
    names = languages or INDIC_CONFIGS
    wanted = ([cell_column(name, variant) for name in names for variant in variants] if variants
              else [f"config.{name}" for name in names])
    columns = [column for column in wanted if column in table]
    if not columns:
        raise ValueError(f"none of the languages {list(names)} in variants {list(variants) or 'all'} is on the board")
    table = table.drop(columns=["rank_best", "rank_worst"], errors="ignore")
    table["subset_average"] = table[columns].mean(axis=1, skipna=False)
    if subset is not None and not subset.empty:
        joint = table[["run_id"]].merge(subset, on="run_id", how="left")
        table["subset_average"] = joint["subset_average"].fillna(table["subset_average"]).to_numpy()
        for column in SUBSET_COLUMNS[2:]:
            table[column] = joint[column].to_numpy()
        table[["rank_best", "rank_worst"]] = table[["rank_best", "rank_worst"]].astype("Int64")
    table["_unranked"] = table["standing"] != RANKED
    table = table.sort_values(["_unranked", "subset_average", "label"], ascending=[True, False, True],
                              na_position="last", kind="stable").drop(columns="_unranked")
    ranked = table["standing"] == RANKED
    table["rank"] = table["subset_average"].where(ranked).rank(ascending=False, method="min").astype("Int64")
    front = [c for c in ("rank", "label", "model", "revision", "subset_average") if c in table]
    return table[front + [c for c in table.columns if c not in front]].reset_index(drop=True)


def subset_rule(languages: Sequence[str], variants: Sequence[str] = ()) -> str:
    """What a ranking on a subset ranks by, for the line under the table (the standard rule when none is chosen)."""
    variants = chosen_variants(variants)
    if ranking_subset(languages, variants) is None:
        return RANKING_RULE
    chosen = "; ".join(part for part in (", ".join(languages) or "every Indic language",
                                         ", ".join(name.replace("_", "-") for name in variants)) if part)
    return (f"Ranked by the average on the chosen subset ({chosen}): the Indic average of those items "
            "alone, complete runs only; its 95 % interval and rank range are the subset's, from one joint bootstrap "
            "of the runs on the shared dataset revision restricted to its items.")


def sort_rows(table: pd.DataFrame, column: str) -> pd.DataFrame:
    """Rows by one column, best first (text A to Z), ranked runs still before unranked ones (as the
    board shows them); the rank order when `column` is empty or "rank"."""
    if column in ("", "rank") or column not in table:
        return table
    ascending = not pd.api.types.is_numeric_dtype(table[column])
    keys = table.assign(_unranked=table["standing"] != RANKED)
    order = keys.sort_values(["_unranked", column], ascending=[True, ascending], na_position="last", kind="stable")
    return table.loc[order.index].reset_index(drop=True)


def sort_choices(table: pd.DataFrame) -> list[str]:
    """The columns a viewer may sort by: rank, the model, the scores, then every breakdown column."""
    lead = ["rank", "model", "indic_average", *ENGLISH_COLUMNS, "overall", "params_b", "created_at"]
    groups = column_groups(table)
    breakdowns = [c for group in ("languages", "variants", "domains") for c in groups[group]]
    return [c for c in lead if c in table] + breakdowns


def column_groups(table: pd.DataFrame) -> dict[str, list[str]]:
    """The columns each user-toggled group shows (languages, variants, domains, details, metadata).

    The headline (Indic average) and the two English configs are base columns; the
    languages group holds the Indic languages.
    """
    return {
        "languages": [column for column in _members(table, "config") if column not in ENGLISH_COLUMNS],
        "variants": [*_members(table, "variant"), *DROP_COLUMNS],
        "domains": _members(table, "domain"),
        "details": [column for column in DETAIL_COLUMNS if column in table],
        "metadata": [column for column in METADATA_COLUMNS if column in table],
    }


def leaderboard_view(
    table: pd.DataFrame, groups: Iterable[str], search: str = "", query: BoardQuery | None = None,
    with_run_id: bool = False, subset: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """The rows `query` keeps (or those whose model matches `search`), the base columns plus the chosen groups
    (and `run_id` last, for the display's score links, when asked); `subset` as `query_rows` takes it.

    `search` holds terms separated by `;`; a row matches when its model id contains any of
    them, case-insensitively and literally (no regular expressions).
    """
    rows = query_rows(table, query or BoardQuery(search=search), subset)
    chosen = set(groups)
    available = column_groups(rows)
    columns = base_columns(rows) + [c for group in COLUMN_GROUPS if group in chosen for c in available[group]]
    return rows[columns + ["run_id"] * with_run_id].reset_index(drop=True)


def base_columns(table: pd.DataFrame) -> list[str]:
    """The columns every view shows (an English config only when some run has it)."""
    return [column for column in BASE_COLUMNS if column in table]


def model_matches(models: pd.Series, search: str) -> pd.Series:
    """Which model ids contain any `;`-separated term of `search` (all, when it is blank)."""
    terms = [term.strip().lower() for term in search.split(";") if term.strip()]
    if not terms:
        return pd.Series(True, index=models.index)
    lowered = models.astype(str).str.lower()
    # Built as booleans: `apply` over no models keeps the ids' text dtype, which no mask can be combined with.
    return pd.Series([any(term in model for term in terms) for model in lowered], index=models.index, dtype=bool)


def top_n(table: pd.DataFrame, n: int) -> pd.DataFrame:
    """The `n` best-ranked runs (the table is already ordered by rank; unranked runs never count)."""
    return ranked_rows(table).head(max(int(n), 0)).reset_index(drop=True)


def ranked_rows(table: pd.DataFrame) -> pd.DataFrame:
    """The ranked runs, in rank order."""
    return table[table["standing"] == RANKED].reset_index(drop=True)


def unranked_rows(table: pd.DataFrame) -> pd.DataFrame:
    """The partial and incomplete runs, each with its `standing_note`."""
    return table[table["standing"] != RANKED].reset_index(drop=True)


def language_variant_frame(runs: Sequence[RunResult]) -> pd.DataFrame:
    """Long table of each run's language x rendering scores (summary.json `config_variants`)."""
    rows = []
    for run in runs:
        per_config = run.summary.get("config_variants")
        for config, variants in (per_config.items() if isinstance(per_config, dict) else ()):
            for variant, score in (variants.items() if isinstance(variants, dict) else ()):
                if _number(score) is not None:
                    rows.append({"run_id": run.run_id, "config": config, "variant": variant, "score": float(score)})
    return pd.DataFrame(rows, columns=["run_id", "config", "variant", "score"])


def subdomain_frame(runs: Sequence[RunResult]) -> pd.DataFrame:
    """Long table of each run's (domain, subdomain) scores; names from before the pairing have no domain."""
    rows = []
    for run in runs:
        scores = run.summary.get("subdomains")
        for name, score in (scores.items() if isinstance(scores, dict) else ()):
            domain, found, subdomain = str(name).partition(SUBDOMAIN_SEPARATOR)
            if _number(score) is not None:
                rows.append({"run_id": run.run_id, "domain": domain if found else "",
                             "subdomain": subdomain if found else domain, "score": float(score)})
    return pd.DataFrame(rows, columns=["run_id", "domain", "subdomain", "score"])


def group_members(table: pd.DataFrame, group: str) -> list[str]:
    """The names in one breakdown group ("config" -> ["Hindi", ...]), in column order."""
    return [column.split(".", 1)[1] for column in _members(table, group)]


def _pivot(breakdowns: pd.DataFrame, group: str) -> pd.DataFrame:
    rows = breakdowns[breakdowns["group"] == group]
    wide = rows.pivot_table(index="run_id", columns="name", values="score", aggfunc="first")
    return wide.rename(columns=lambda name: f"{group}.{name}")


def _config_intervals(breakdowns: pd.DataFrame) -> pd.DataFrame:
    """Per-language interval bounds as `config_ci_low.<name>` / `config_ci_high.<name>` (the heatmap's hover)."""
    rows = breakdowns[breakdowns["group"] == "config"]
    wide = rows.pivot_table(index="run_id", columns="name", values=["ci_low", "ci_high"], aggfunc="first")
    wide.columns = [f"config_{bound}.{name}" for bound, name in wide.columns]
    return wide


def _drop_percent(table: pd.DataFrame, variant: str) -> pd.Series:
    native = table.get("variant.native")
    other = table.get(f"variant.{variant}")
    if native is None or other is None:
        return pd.Series(float("nan"), index=table.index)
    return 100.0 * (native - other) / native.where(native != 0)


def _standing_row(run: RunResult) -> dict[str, object]:
    summary, request = run.summary, run.request
    low, high = _interval(_mapping(summary.get("config_group_ci")).get("indic"))
    row: dict[str, object] = {
        "run_id": run.run_id,
        "indic_ci_low": low,
        "indic_ci_high": high,
        "unclosed_thinking": whole_number(_mapping(summary.get("counts")).get("unclosed_thinking")),
        "dataset_revision": _text(request.get("dataset_revision")),
        "model_type": model_type(request),
    }
    standing = coverage_standing(summary)
    row.update(standing)
    if standing["standing"] == RANKED and _number(_mapping(summary.get("config_groups")).get("indic")) is None:
        return {**row, "standing": INCOMPLETE, "standing_note": "incomplete: no Indic language scored"}
    return row


def _mapping(value: object) -> dict:
    """A summary field that should be an object, or {} (it may be missing or malformed)."""
    return value if isinstance(value, dict) else {}


def _number(value: object) -> float | None:
    """A finite number from a summary field, or None (the field may be missing or malformed)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    return float(value)


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def _interval(value: object) -> tuple[float | None, float | None]:
    if isinstance(value, (list, tuple)) and len(value) == 2:
        low, high = _number(value[0]), _number(value[1])
        if low is not None and high is not None:
            return low, high
    return None, None


def run_label(model: str, revision: str) -> str:
    """The model id, with the revision when it is not the default branch (labels must be unique): the engine's
    rule (`run_items.model_label`), so the board and the CLI name a run alike."""
    return model_label(model, revision)


def _members(table: pd.DataFrame, group: str) -> list[str]:
    """A group's columns: languages and variants in the benchmark's order, then the rest by name."""
    columns = [c for c in table.columns if c.startswith(f"{group}.")]
    order = {f"{group}.{name}": position for position, name in enumerate(_MEMBER_ORDER.get(group, ()))}
    return sorted(columns, key=lambda c: (order.get(c, len(order)), c))


def _ordered_columns(table: pd.DataFrame) -> Sequence[str]:
    groups = column_groups(table)
    ordered = base_columns(table) + [c for group in COLUMN_GROUPS for c in groups[group]] + ["run_id"]
    return ordered + [c for c in table.columns if c not in ordered]
