"""What a viewer narrows and orders a benchmark's ranking by, on any tab: a search, flags hidden, groups ranked on,
the columns shown, a sort column, and the rows kept by size, model type, standing, license and open weights.

A `RankingQuery` is built from the page's controls or the documented API (each value checked there,
`leaderboard.endpoint_inputs`) and carried by the address (`<tab>_q`, `<tab>_sort`, …: `QUERY_PARAMS`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import pandas as pd

from leaderboard.results import UNKNOWN_LICENSE
from leaderboard.row_flags import FLAGS, is_hidden
from leaderboard.scored_rankings import RANKED

MODEL_TYPES = ("all", "base", "chat", "reasoning")
"""The model-type filter's choices, from what the request recorded (`model_type`)."""
MAX_PARAMS_B = 100_000.0
"""The largest size bound accepted, in billions of parameters (far above any model)."""
DETAILS, METADATA = "details", "metadata"
"""The column groups every ranking has beside its breakdowns: the run's facts, and its model card's."""
COUNT_COLUMNS = ("items", "missing_responses", "failed_judgments", "unclosed_thinking")
DETAIL_COLUMNS = (*COUNT_COLUMNS, "judge_model", "created_at", "dataset_revision", "params_b", "precision",
                  "model_type")
METADATA_COLUMNS = ("license", "open_weights")
"""What the model's Hub card said at submission (`unknown` / empty when it was not recorded)."""


@dataclass(frozen=True)
class RankingQuery:
    """One view of a ranking: rows whose model matches `search` (`;` between several terms), none of
    `hide_flags`, within the size bounds (billions; None: no bound), of `model_type` ("all": any), ranked only,
    of one of `licenses` (none: any), with open weights only; ranked on the groups `ranked_on` ticks (one tuple
    per subset breakdown); the column groups `groups` (None: the board's default); sorted by `sort_by` ("" or
    "rank": the ranking's order)."""

    search: str = ""
    hide_flags: tuple[str, ...] = ()
    ranked_on: tuple[tuple[str, ...], ...] = ()
    groups: tuple[str, ...] | None = None
    sort_by: str = ""
    min_params_b: float | None = None
    max_params_b: float | None = None
    model_type: str = "all"
    ranked_only: bool = False
    licenses: tuple[str, ...] = ()
    open_weights_only: bool = False

    def active(self, default_groups: Sequence[str], group_labels: Mapping[str, str]) -> list[tuple[str, str]]:
        """What narrows the view, as (name, value) pairs for the "filters active" line (`filter_summary`)."""
        sizes = (f"{self.min_params_b or 0:g}–{self.max_params_b:g} B" if self.max_params_b else
                 f"from {self.min_params_b:g} B" if self.min_params_b else "")
        parts = [("search", self.search.strip()), ("ranked on", "; ".join(", ".join(names) for names in self.ranked_on
                                                                          if names)),
                 ("size", sizes), ("model type", "" if self.model_type == "all" else self.model_type),
                 ("license", ", ".join(self.licenses)),
                 ("hiding flagged rows", ", ".join(FLAGS[code].badge for code in self.hide_flags if code in FLAGS))]
        changed = self.groups is not None and set(self.groups) != set(default_groups)
        switches = [("partial and incomplete runs hidden", self.ranked_only),
                    ("open weights only", self.open_weights_only),
                    ("column groups: " + ", ".join(group_labels.get(g, g) for g in self.groups or ()), changed)]
        return [(name, value) for name, value in parts if value] + [(name, "") for name, on in switches if on]


def model_type(request: Mapping[str, Any]) -> str:
    """"reasoning" (submitted as one), else "chat" or "base" by the chat mode it was asked in; "" when not recorded."""
    if request.get("reasoning") is True:
        return "reasoning"
    generation = request.get("generation")
    chat = generation.get("chat") if isinstance(generation, Mapping) else None
    return {True: "chat", False: "base"}.get(chat, "") if isinstance(chat, bool) else ""


def kept_rows(ranking: pd.DataFrame, query: RankingQuery) -> pd.Series:
    """Which rows of `ranking` the query keeps (unknown flag codes hide nothing; a run whose size, type, license
    or weights were not recorded is left out by a filter on them)."""
    keep = model_matches(ranking["model"], query.search)
    hide = tuple(code for code in query.hide_flags if code in FLAGS)
    if hide:
        keep &= ~ranking["flags"].map(lambda codes: is_hidden(codes, hide)).astype(bool)
    sizes = pd.to_numeric(ranking.get("params_b", pd.Series(float("nan"), index=ranking.index)), errors="coerce")
    if query.min_params_b is not None:
        keep &= sizes >= query.min_params_b
    if query.max_params_b is not None:
        keep &= sizes <= query.max_params_b
    if query.model_type != "all":
        keep &= ranking.get("model_type", pd.Series("", index=ranking.index)) == query.model_type
    if query.ranked_only:
        keep &= ranking["standing"] == RANKED
    if query.licenses:
        keep &= ranking.get("license", pd.Series(UNKNOWN_LICENSE, index=ranking.index)).isin(query.licenses)
    if query.open_weights_only:
        keep &= ranking.get("open_weights", pd.Series(None, index=ranking.index)).eq(True)
    return keep.astype(bool)


def model_matches(models: pd.Series, search: str) -> pd.Series:
    """Which model ids contain any `;`-separated term of `search` (all, when it is blank), case-insensitively and
    literally (no regular expressions)."""
    terms = [term.strip().lower() for term in search.split(";") if term.strip()]
    if not terms:
        return pd.Series(True, index=models.index, dtype=bool)
    lowered = models.astype(str).str.lower()
    # Built as booleans: `apply` over no models keeps the ids' text dtype, which no mask can be combined with.
    return pd.Series([any(term in model for term in terms) for model in lowered], index=models.index, dtype=bool)


def sorted_rows(table: pd.DataFrame, column: str, higher_is_better: Mapping[str, bool] | None = None
                ) -> pd.DataFrame:
    """Rows by one column, best first (a number the larger first unless `higher_is_better` says lower is better;
    text A to Z), ranked runs still before unranked ones; the ranking's order when `column` is "" or "rank" or not
    a column."""
    if column in ("", "rank") or column not in table:
        return table
    numeric = pd.api.types.is_numeric_dtype(table[column])
    ascending = not numeric or not (higher_is_better or {}).get(column, True)
    keys = table.assign(_unranked=table["standing"] != RANKED)
    order = keys.sort_values(["_unranked", column], ascending=[True, ascending], na_position="last", kind="stable")
    return table.loc[order.index].reset_index(drop=True)


def license_choices(ranking: pd.DataFrame) -> list[str]:
    """The licenses of the runs on the board, A to Z, with "unknown" (none recorded) last."""
    present = set(ranking["license"].dropna()) if "license" in ranking else set()
    return sorted(present - {UNKNOWN_LICENSE}) + [UNKNOWN_LICENSE] * (UNKNOWN_LICENSE in present)


def newest_stamp(ranking: pd.DataFrame) -> pd.Timestamp | None:
    """When the newest result of `ranking` was scored (UTC); None with none."""
    stamps = pd.to_datetime(ranking.get("created_at", pd.Series()), errors="coerce", utc=True).dropna()
    return stamps.max() if len(stamps) else None


def last_updated(ranking: pd.DataFrame) -> str:
    """When the newest result on the board was scored, as a line for the board; "" with none."""
    stamp = newest_stamp(ranking)
    return "" if stamp is None else f"Last updated: {stamp:%Y-%m-%d %H:%M} UTC ({len(ranking)} runs)"
