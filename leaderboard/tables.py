"""The leaderboard table: canonical DataFrames in, canonical DataFrames out, no I/O, no labels.

Fixed columns are snake_case. Each member of a breakdown group gets a column named
`<group>.<name>` ("config.Hindi", "variant.native", "domain.Literature & Arts"), so a
name is never mangled; `display.py` turns both kinds into labels.
"""

from __future__ import annotations

import threading
from typing import Hashable, Iterable, Sequence

import pandas as pd

from eval_backend.benchmarks.indic_writing_bench import INDIC_CONFIGS, VARIANTS
from leaderboard.results import RunResult, Snapshot, breakdown_frame, runs_frame

BASE_COLUMNS = ["rank", "label", "model", "revision", "overall", "overall_ci_low", "overall_ci_high"]
DETAIL_COLUMNS = [
    "scored_items", "items", "failed_items", "missing_responses", "judge_model", "created_at", "params_b",
    "precision",
]
DROP_COLUMNS = ["drop_code_mixed", "drop_romanized"]
COLUMN_GROUPS = ("languages", "variants", "domains", "details")
DEFAULT_GROUPS = ("languages", "variants", "details")
_PIVOTED = ("config", "variant", "domain")
_MEMBER_ORDER = {"config": INDIC_CONFIGS, "variant": VARIANTS}


def leaderboard_table(runs: pd.DataFrame, breakdowns: pd.DataFrame) -> pd.DataFrame:
    """One row per run, ranked by overall score (best first, unscored runs last).

    `indic_average` is the engine's (summary.json `config_groups.indic`). The robustness
    drops are the percentage by which the code_mixed and romanized scores fall short of
    the native score.
    """
    table = runs.copy()
    for group in _PIVOTED:
        table = table.merge(_pivot(breakdowns, group), how="left", left_on="run_id", right_index=True)
    for variant, column in zip(("code_mixed", "romanized"), DROP_COLUMNS):
        table[column] = _drop_percent(table, variant)
    table["label"] = [run_label(m, r) for m, r in zip(table["model"], table["revision"])]
    table = table.sort_values(["overall", "label"], ascending=[False, True], na_position="last", kind="stable")
    table["rank"] = table["overall"].rank(ascending=False, method="min").astype("Int64")
    return table[_ordered_columns(table)].reset_index(drop=True)


def table_for_runs(runs: Sequence[RunResult]) -> pd.DataFrame:
    """The leaderboard table of these runs, from their summaries as the engine wrote them."""
    return leaderboard_table(runs_frame(runs), breakdown_frame(runs))


class TableCache:
    """The leaderboard table of the latest results, rebuilt only when they change.

    Every viewer's page asks for the table; building it from 500 summaries costs about
    0.1 s of CPU, while telling whether anything changed (a snapshot) costs a quarter of
    that. The table returned is shared: callers derive views from it, never modify it.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._signature: Hashable = None
        self._table: pd.DataFrame | None = None

    def table(self, snapshot: Snapshot) -> pd.DataFrame:
        with self._lock:
            if self._table is None or self._signature != snapshot.signature:
                self._table = table_for_runs(snapshot.runs)
                self._signature = snapshot.signature
            return self._table


def column_groups(table: pd.DataFrame) -> dict[str, list[str]]:
    """The columns each user-toggled group shows (languages, variants, domains, details)."""
    return {
        "languages": ["indic_average", *_members(table, "config")],
        "variants": [*_members(table, "variant"), *DROP_COLUMNS],
        "domains": _members(table, "domain"),
        "details": [column for column in DETAIL_COLUMNS if column in table],
    }


def leaderboard_view(table: pd.DataFrame, groups: Iterable[str], search: str = "") -> pd.DataFrame:
    """The rows whose model matches `search` and the base columns plus the chosen groups.

    `search` holds terms separated by `;`; a row matches when its model id contains any of
    them, case-insensitively and literally (no regular expressions).
    """
    chosen = set(groups)
    available = column_groups(table)
    columns = BASE_COLUMNS + [c for group in COLUMN_GROUPS if group in chosen for c in available[group]]
    return table.loc[model_matches(table["model"], search), columns].reset_index(drop=True)


def model_matches(models: pd.Series, search: str) -> pd.Series:
    """Which model ids contain any `;`-separated term of `search` (all, when it is blank)."""
    terms = [term.strip().lower() for term in search.split(";") if term.strip()]
    if not terms:
        return pd.Series(True, index=models.index)
    lowered = models.astype(str).str.lower()
    return lowered.apply(lambda model: any(term in model for term in terms))


def top_n(table: pd.DataFrame, n: int) -> pd.DataFrame:
    """The `n` best-ranked runs (the table is already ordered by rank)."""
    return table.head(max(int(n), 0)).reset_index(drop=True)


def group_members(table: pd.DataFrame, group: str) -> list[str]:
    """The names in one breakdown group ("config" -> ["Hindi", ...]), in column order."""
    return [column.split(".", 1)[1] for column in _members(table, group)]


def _pivot(breakdowns: pd.DataFrame, group: str) -> pd.DataFrame:
    rows = breakdowns[breakdowns["group"] == group]
    wide = rows.pivot_table(index="run_id", columns="name", values="score", aggfunc="first")
    return wide.rename(columns=lambda name: f"{group}.{name}")


def _drop_percent(table: pd.DataFrame, variant: str) -> pd.Series:
    native = table.get("variant.native")
    other = table.get(f"variant.{variant}")
    if native is None or other is None:
        return pd.Series(float("nan"), index=table.index)
    return 100.0 * (native - other) / native.where(native != 0)


def run_label(model: str, revision: str) -> str:
    """The model id, with the revision when it is not the default branch (labels must be unique)."""
    return model if revision in ("", "main") else f"{model} @ {revision}"


def _members(table: pd.DataFrame, group: str) -> list[str]:
    """A group's columns: languages and variants in the benchmark's order, then the rest by name."""
    columns = [c for c in table.columns if c.startswith(f"{group}.")]
    order = {f"{group}.{name}": position for position, name in enumerate(_MEMBER_ORDER.get(group, ()))}
    return sorted(columns, key=lambda c: (order.get(c, len(order)), c))


def _ordered_columns(table: pd.DataFrame) -> Sequence[str]:
    groups = column_groups(table)
    ordered = BASE_COLUMNS + [c for group in COLUMN_GROUPS for c in groups[group]] + ["run_id"]
    return ordered + [c for c in table.columns if c not in ordered]
