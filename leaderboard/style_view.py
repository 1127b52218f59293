"""The style-controlled reading of a benchmark's ranking, beside the seed's: the same table, the controlled headline.

A benchmark that declares style features (`BoardView.style_features`) gets each model's headline at the board's
median answer style, its interval and rank range from the engine's cluster bootstrap refit on every replicate
(`eval_backend.style_ranking.style_board`), over the runs the seed's joint bootstrap ranks, once per state of the
benchmark's results. The seed's ranking stays the default; a ranked run outside the fit is listed, saying why.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import pandas as pd

from eval_backend.benchmarks.plugin import Benchmark
from eval_backend.run_folder import RunFolderError
from eval_backend.statistics.style_control import Coefficient
from eval_backend.style_ranking import StyleBoard, style_board
from leaderboard.display import DECIMALS
from leaderboard.joint_ranks import JOINT_RULE, RUN_READS
from leaderboard.precision import ALL_CONFIGS
from leaderboard.results import LruCache, Snapshot
from leaderboard.scored_rankings import RANKED

logger = logging.getLogger(__name__)

SEED, CONTROLLED = "seed", "controlled"
VIEW_CHOICES = [("as the seed scores it", SEED), ("controlled for answer length and style", CONTROLLED)]
"""The ranking's readings: (label, the value the address's `style` parameter carries)."""
STYLE_PARAM = "style"
CONTROLLED_RULE = "style-controlled joint bootstrap"
OUTSIDE_FIT = "not controlled: outside the style fit (another dataset revision)"


@dataclass(frozen=True)
class StyleView:
    """The board's style fit (`board`, over the runs `run_ids`), or why there is none (`reason`)."""

    board: StyleBoard | None
    run_ids: tuple[str, ...]
    reason: str | None = None

    @property
    def controlled(self) -> bool:
        return self.board is not None and self.board.control is not None


_VIEWS: LruCache[StyleView] = LruCache(16)


def style_view(snapshot: Snapshot, benchmark: Benchmark, ranking: pd.DataFrame) -> StyleView:
    """The style fit of the runs `ranking` (the seed's, of this snapshot) ranks by joint bootstrap, once per state."""
    return _VIEWS.get_or_load((benchmark.name, snapshot.signature), lambda: _fitted(snapshot, benchmark, ranking))


def _fitted(snapshot: Snapshot, benchmark: Benchmark, ranking: pd.DataFrame) -> StyleView:
    if not benchmark.board.style_features:
        return StyleView(None, (), "this benchmark declares no style feature: answer length only")
    run_ids = tuple(ranking.loc[ranking["rank_rule"].eq(JOINT_RULE), "run_id"])
    if len(run_ids) < 2:
        return StyleView(None, run_ids, "fewer than two ranked runs share the board's dataset revision")
    folders = {run.run_id: run.folder for run in snapshot.runs}
    try:
        board = style_board([folders[run_id] for run_id in run_ids], cached=RUN_READS.get_or_load)
    except (RunFolderError, OSError, ValueError, KeyError) as exc:  # a damaged file: the seed's ranking only
        logger.warning("%s: no style-controlled ranking (%s)", benchmark.name, exc)
        return StyleView(None, run_ids, f"the runs' answers could not be read ({exc})")
    return StyleView(board, run_ids, board.uncontrolled)


def controlled_ranking(ranking: pd.DataFrame, view: StyleView, benchmark: Benchmark) -> pd.DataFrame:
    """`ranking` (the seed's, `ranked_table`'s columns) with the fitted runs' headline, interval, rank and rank range
    controlled, ranked in that order; a ranked run outside the fit moves under, saying why. With no fit: `ranking`."""
    if not view.controlled:
        return ranking
    control = view.board.control.controlled
    fitted = pd.DataFrame({"run_id": list(view.run_ids), "_score": control.headlines, "_low": control.low,
                           "_high": control.high, "_rank": control.rank, "_best": control.rank_best,
                           "_worst": control.rank_worst})
    table = ranking.merge(fitted, on="run_id", how="left")
    inside = table["_score"].notna()
    outside = table["standing"].eq(RANKED) & ~inside
    table.loc[outside, ["standing", "standing_note"]] = ["not controlled", OUTSIDE_FIT]
    figures, ranks = [benchmark.headline, "ci_low", "ci_high"], ["rank", "rank_best", "rank_worst"]
    table.loc[inside, figures] = table.loc[inside, ["_score", "_low", "_high"]].to_numpy()
    table[ranks] = table[["_rank", "_best", "_worst"]].to_numpy()  # none outside the fit
    table["rank_rule"] = table["rank_rule"].where(~inside, CONTROLLED_RULE).where(~outside, None)
    table = table.sort_values(["_rank", "model"], na_position="last", kind="stable").reset_index(drop=True)
    return table[list(ranking.columns)].astype(dict.fromkeys(ranks, "Int64"))


def in_reading(snapshot: Snapshot, benchmark: Benchmark, ranking: pd.DataFrame, reading: str) -> pd.DataFrame:
    """The seed's `ranking` of this snapshot in `reading`: as it is (SEED, or a benchmark without style features),
    or `controlled_ranking`."""
    if reading == SEED or not benchmark.board.style_features:
        return ranking
    return controlled_ranking(ranking, style_view(snapshot, benchmark, ranking), benchmark)


def footnote(view: StyleView, benchmark: Benchmark) -> str:
    """What the controlled view controls for, and how; or why this board has none (the seed's ranking is shown)."""
    features = benchmark.board.style_features
    if not view.controlled:
        return f"**No style-controlled ranking on this board:** {view.reason}. The seed's ranking is shown."
    named = " and ".join(feature.label for feature in features)
    return (f"**Controlled for {named}.** Each model's {benchmark.headline_metric().label.lower()} at the board's "
            "median answer style: the item-level scores fitted on model and item effects plus the style features "
            f"({len(view.run_ids)} ranked runs on the shared dataset revision), its interval and rank range from the "
            "cluster bootstrap refit on every draw. Other columns are the seed's. "
            "[The fit and its coefficients](?tab=about#h-answer-length-and-style-control)")


def coefficient_text(coefficient: Coefficient, unit: str, points: str) -> str:
    """A coefficient as a reader says it: `+1 log-length unit: +0.42 [+0.35, +0.49] percentage points`."""
    return (f"+1 {unit}: {coefficient.estimate:+.{DECIMALS}f} [{coefficient.low:+.{DECIMALS}f}, "
            f"{coefficient.high:+.{DECIMALS}f}] {points}")


COEFFICIENT_COLUMNS = ("benchmark", "scope", "runs", "feature", "effect")


def coefficient_rows(view: StyleView, benchmark: Benchmark) -> list[dict[str, object]]:
    """About's rows of one benchmark's fit: per feature its coefficient with its 95 % interval, over all configs and
    per config (`scope`), or the one row saying why there is none."""
    if not view.controlled:
        reason = view.reason or "no fit"
        return [{"benchmark": benchmark.title, "scope": ALL_CONFIGS, "runs": len(view.run_ids), "feature": "",
                 "effect": f"none: {reason}"}]
    board = view.board
    units = {feature.name: feature.unit for feature in board.features}
    scopes = [(ALL_CONFIGS, board.control.coefficients), *zip(board.strata, board.control.stratum_coefficients)]
    unidentified = [("", "not identified here: under two clusters, or the features do not vary beyond model and item")]
    return [{"benchmark": benchmark.title, "scope": scope, "runs": len(view.run_ids), "feature": feature,
             "effect": effect}
            for scope, coefficients in scopes
            for feature, effect in [(c.feature, coefficient_text(c, units[c.feature], board.figure.difference_unit))
                                    for c in coefficients or ()] or unidentified]
