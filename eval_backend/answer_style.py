"""What a run's stored answers measure: each answer's length and style features, and the run's median length.

Measured from the run folder alone (details.parquet's judged text, responses.jsonl's token
counts), once: at scoring, or for a run scored before, at its first read; the measures are then
kept in the run's compact file beside its figure values (`item_values.keep_measures`), so a cold
board reads a few KB per run, not its answers. A feature declared later makes the kept measures
stale (their columns are the declared ones), and they are measured again, from the same files: no
new call, no summary.json or details.parquet changes shape.

A run's median length is in tokens where the backend reported a count for every answer
(`output_tokens` in responses.jsonl: the whole output, reasoning included), else in characters
of the judged text; the unit is named with it. The style features are always in characters
of the judged text (`eval_backend.benchmarks.style_features`), which compare across tokenizers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

import pandas as pd
import pyarrow as pa
import pyarrow.json as pa_json

from eval_backend.benchmarks.plugin import Benchmark
from eval_backend.benchmarks.board_view import Breakdown
from eval_backend.details import read_details
from eval_backend.item_values import keep_measures, kept_measures
from eval_backend.records import ItemKey
from eval_backend.run_folder import RunFolder, RunFolderError
from eval_backend.run_items import KEY

TOKENS = "tokens"
CHARACTERS = "characters"


@dataclass(frozen=True)
class MedianLength:
    """The median length of a set of answers, its unit (tokens or characters) and how many answers it is over."""

    median: float
    unit: str
    answers: int


@dataclass(frozen=True)
class RunLengths:
    """A run's median answer length over every answered item, and per group of each of its benchmark's breakdowns.

    `groups[breakdown name][group]` (languages: `groups["language"]["Hindi"]`); `overall` is None
    when the run has no answer at all.
    """

    unit: str
    overall: MedianLength | None
    groups: Mapping[str, Mapping[str, MedianLength]]


def answer_measures(folder: RunFolder, benchmark: Benchmark) -> pd.DataFrame:
    """One row per item in details.parquet: its key and breakdown columns, `answered`, `characters` and `tokens`
    of its answer (NaN where none, or no count reported), and each declared style feature's raw value
    (NaN where no answer: a model that did not answer showed no style).

    Kept in the run's compact file (`item_values.keep_measures`, beside its figure values) once measured, at
    scoring or, for a run scored before, at its first read; read from there while it is current."""
    statistics = benchmark.item_statistics() if benchmark.item_statistics else None
    if statistics is None:
        return measured_answers(folder, benchmark)
    kept = kept_measures(folder, statistics, _measure_columns(benchmark))
    if kept is not None:
        return kept
    measures = measured_answers(folder, benchmark)
    keep_measures(folder, statistics, measures)
    return measures


def _measure_columns(benchmark: Benchmark) -> list[str]:
    """The columns of `answer_measures` after the key, in order."""
    return [*dict.fromkeys(_group_fields(benchmark.board.breakdowns)), "answered", "characters", "tokens",
            *(feature.name for feature in benchmark.board.style_features)]


def measured_answers(folder: RunFolder, benchmark: Benchmark) -> pd.DataFrame:
    """`answer_measures` read afresh from details.parquet and responses.jsonl (nothing kept)."""
    if not folder.details_path.is_file():
        raise RunFolderError(f"{folder.path}: no details.parquet; score the run first")
    fields = _group_fields(benchmark.board.breakdowns)
    details = read_details(folder.details_path, list(dict.fromkeys([*KEY, *fields, "response"])))
    if "response" not in details:
        raise RunFolderError(f"{folder.details_path}: no response column, so no answer to measure")
    texts = [text if isinstance(text, str) else None for text in details["response"]]
    counts = token_counts(folder)
    tokens = [counts.get((config, int(index))) for config, index in zip(details["config"], details["index"])]
    measures = details[KEY].copy()
    for field in fields:  # every declared group column, so the kept file's columns are the declared ones
        measures[field] = details[field] if field in details else None
    measures["answered"] = [text is not None for text in texts]
    measures["characters"] = [float(len(text)) if text is not None else float("nan") for text in texts]
    measures["tokens"] = [float(count) if count is not None and text is not None else float("nan")
                          for count, text in zip(tokens, texts)]
    for feature in benchmark.board.style_features:
        measures[feature.name] = [feature.value(text) if text is not None else float("nan") for text in texts]
    return measures


def run_lengths(measures: pd.DataFrame, breakdowns: Sequence[Breakdown]) -> RunLengths:
    """The run's median lengths from its `answer_measures`, in tokens if every answer has a count, else characters."""
    answered = measures[measures["answered"]]
    unit = TOKENS if len(answered) and answered["tokens"].notna().all() else CHARACTERS
    groups = {
        breakdown.name: {
            str(group): _median(rows[unit], unit) for group, rows in answered.groupby(breakdown.item_field)
        }
        for breakdown in breakdowns if breakdown.item_field in answered
    }
    return RunLengths(unit, _median(answered[unit], unit) if len(answered) else None, groups)


def _median(lengths: pd.Series, unit: str) -> MedianLength:
    return MedianLength(float(lengths.median()), unit, int(lengths.size))


_TOKEN_FIELDS = pa.schema([("config", pa.string()), ("index", pa.int64()), ("output_tokens", pa.int64())])


def token_counts(folder: RunFolder) -> dict[ItemKey, int | None]:
    """Each item's latest response's `output_tokens` in responses.jsonl (None where not reported).

    Read by Arrow's JSON reader with only these three fields typed, several times faster than
    building every `ResponseRecord` (a full run's answers are tens of MB); a file it refuses (a
    torn last line, a field of another type) is read by the engine's own reader, which skips what
    the engine skips and names a line at fault.
    """
    options = pa_json.ParseOptions(explicit_schema=_TOKEN_FIELDS, unexpected_field_behavior="ignore")
    try:
        table = pa_json.read_json(folder.responses_path, parse_options=options)
    except (pa.ArrowInvalid, OSError):
        return {key: record.output_tokens for key, record in folder.read_responses().items()}
    columns = table.to_pydict()
    return dict(zip(zip(columns["config"], columns["index"]), columns["output_tokens"]))


def _group_fields(breakdowns: Sequence[Breakdown]) -> list[str]:
    return [breakdown.item_field for breakdown in breakdowns if breakdown.item_field not in KEY]
