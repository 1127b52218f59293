"""WritingBench's declared figures (`indic_writing_bench.FIGURES`) read from the board's table, as the long
frames `figure_kinds` draws: no I/O, no gradio.

The headline is the Indic average (the chosen subset's average when the board ranks on one, without
whiskers: its intervals are the Indic average's), its hover the rank range and the answers cut off in
thinking; a breakdown is the table's `<group>.<name>` columns (`config.Hindi`), with their intervals
where the table has them; `subdomain` and `config_variant` (one run's language x rendering scores) come
from the summaries' long frames (`writing_bench_tables.subdomain_frame`, `language_variant_frame`).
"""

from __future__ import annotations

import pandas as pd

from eval_backend.benchmarks.board_view import FigureKind, FigureSpec
from eval_backend.benchmarks.writing_bench.board import BREAKDOWNS, FIGURES
from eval_backend.benchmarks.writing_bench.items import INDIC_CONFIGS, VARIANTS
from leaderboard.display import format_rank_range
from leaderboard.figure_kinds import VALUE_COLUMNS, scale_of
from leaderboard.short_labels import full_label, short_labels
from leaderboard.writing_bench_tables import group_members

SCALE = scale_of("score 1–10")
SPECS = {spec.name: spec for spec in FIGURES}
TABLE_GROUPS = {breakdown.name: breakdown.item_field for breakdown in BREAKDOWNS}
"""A figure's breakdown as the table's column group: the items' field (`language` is `config.Hindi`, ...)."""


def figure_values(spec: FigureSpec, table: pd.DataFrame, scores: pd.DataFrame | None = None) -> pd.DataFrame:
    """The values `spec` draws of the runs of `table`, in its order; `scores` is the long frame a `subdomain` or
    `config_variant` figure reads."""
    if spec.kind is FigureKind.HEADLINE:
        return headline_values(table)
    if spec.breakdown == "subdomain":
        return subdomain_values(scores if scores is not None else pd.DataFrame(), table)
    if spec.breakdown == "config_variant":
        return language_variant_values(scores if scores is not None else pd.DataFrame())
    return group_values(table, TABLE_GROUPS[str(spec.breakdown)])


def headline_values(table: pd.DataFrame) -> pd.DataFrame:
    """Each run's Indic average (or chosen subset's) with its interval, rank range and answers cut off."""
    subset = "subset_average" in table
    blank = pd.Series(float("nan"), index=table.index)  # a subset not resampled: no rank range, no whiskers
    ranges = [format_rank_range(best, worst) or "–"
              for best, worst in zip(table.get("rank_best", blank), table.get("rank_worst", blank))]
    cut_off = ["?" if pd.isna(count) else str(int(count)) for count in table["unclosed_thinking"]]
    bounds = ("subset_ci_low", "subset_ci_high") if subset else ("indic_ci_low", "indic_ci_high")
    frame = _runs(table).assign(
        group="Chosen subset average" if subset else "Indic average",
        value=table["subset_average" if subset else "indic_average"].to_numpy(dtype=float),
        low=table.get(bounds[0], blank).to_numpy(dtype=float),
        high=table.get(bounds[1], blank).to_numpy(dtype=float),
        note=[f"rank range {rank_range}\nanswers cut off in thinking: {count}"
              for rank_range, count in zip(ranges, cut_off)],
    )
    return frame[list(VALUE_COLUMNS)]


def group_values(table: pd.DataFrame, group: str) -> pd.DataFrame:
    """Each run's `<group>.<name>` scores, with `<group>_ci_low.<name>` / `_ci_high` as intervals where present."""
    runs, parts = _runs(table), []
    for name in group_members(table, group):
        low, high = (table.get(f"{group}_ci_{end}.{name}", pd.Series(float("nan"), index=table.index))
                     for end in ("low", "high"))
        parts.append(runs.assign(group=name, value=table[f"{group}.{name}"].to_numpy(dtype=float),
                                 low=low.to_numpy(dtype=float), high=high.to_numpy(dtype=float), note=None))
    return _joined(parts)


def subdomain_values(scores: pd.DataFrame, table: pd.DataFrame) -> pd.DataFrame:
    """The (domain, subdomain) scores of the runs of `table`, named with their domain (two domains may share a
    subdomain name), in sorted order."""
    if scores.empty or table.empty:
        return pd.DataFrame(columns=list(VALUE_COLUMNS))
    chosen = scores[scores["run_id"].isin(table["run_id"])]
    names = [f"{domain} / {sub}" if domain else sub for domain, sub in zip(chosen["domain"], chosen["subdomain"])]
    wide = chosen.assign(name=names).pivot_table(index="run_id", columns="name", values="score", aggfunc="first")
    wide = wide.reindex(index=list(table["run_id"]), columns=sorted(wide.columns))
    runs = _runs(table)
    parts = [runs.assign(group=name, value=wide[name].to_numpy(dtype=float), low=float("nan"), high=float("nan"),
                         note=None) for name in wide.columns]
    return _joined(parts)


def language_variant_values(scores: pd.DataFrame) -> pd.DataFrame:
    """One run's language x rendering scores (`language_variant_frame` of that run): a row per language, the
    Indic languages first in their order, a column per rendering."""
    if scores.empty:
        return pd.DataFrame(columns=list(VALUE_COLUMNS))
    configs = set(scores["config"])
    order = [c for c in INDIC_CONFIGS if c in configs] + sorted(configs - set(INDIC_CONFIGS))
    variants = [v for v in VARIANTS if v in set(scores["variant"])] + sorted(set(scores["variant"]) - set(VARIANTS))
    frame = scores.assign(row=scores["config"], hover=scores["config"], group=scores["variant"],
                          value=scores["score"].astype(float), low=float("nan"), high=float("nan"), note=None)
    frame = frame.assign(_row=frame["row"].map(order.index), _group=frame["group"].map(variants.index))
    return frame.sort_values(["_row", "_group"])[list(VALUE_COLUMNS)].reset_index(drop=True)


def _runs(table: pd.DataFrame) -> pd.DataFrame:
    """Each run's short label and whole id."""
    return pd.DataFrame({
        "row": short_labels(list(table["model"]), list(table["revision"])),
        "hover": [full_label(model, revision) for model, revision in zip(table["model"], table["revision"])],
    })


def _joined(parts: list[pd.DataFrame]) -> pd.DataFrame:
    """The groups' frames as one: every run in each, so the runs and groups keep their order."""
    return pd.concat(parts, ignore_index=True)[list(VALUE_COLUMNS)] if parts else pd.DataFrame(columns=list(VALUE_COLUMNS))
