"""The one shape of a benchmark, scored per response by rules and judges (WritingBench, QA, Saraiki, …).

Modelled on inspect_ai's dataset / solver / scorer split and lighteval's per-sample metric
with a corpus aggregation. A benchmark module builds one `Benchmark` and registers it
in `eval_backend.benchmarks.registry.BENCHMARKS`; the engine does the rest (loading, generation, the
judge transport with its retries, run folders, resume, the queue, the CLI's `--benchmark`):

    items      record_to_item(config, row) -> its own frozen item type (`SuiteItem`);
               item_from_meta(dict) reads items.jsonl back
    prompt     prompt(item) -> Prompt (chat messages or raw text, few-shot or not)
    generation sampling: SamplingDefaults (greedy = temperature 0, max tokens, stop strings)
    scorers    rules: pure (item, judged text) -> values, recomputed at every scoring;
               judges: (item, judged text) -> judge messages, parse(answer) -> verdict,
               sent through the shared JudgeClient, one line each in scores.jsonl;
               ruled(item, judged text) -> values when a rule decides, without a call
    metrics    Metric(name, label, unit, direction, weighting): each number once; one is the headline.
               A metric with a weighting is the weighted mean of its per-item values: the engine
               writes its corpus value, interval, comparisons and rank range from them
    statistics item_statistics() -> ItemStatistics: the cluster rule and each per-item metric's values
               (from details.parquet), behind every corpus figure, interval, comparison and rank range
    aggregate  pure: [ScoredItem] -> the summary's breakdowns (the seed's own figures) and any count metric
    no_answer  NoAnswerPolicy: what an item the model did not answer scores (applied by the engine)
    board      BoardView: its tab's extra columns, breakdowns, item table and item view (defaults serve any)
    details    details_row(scored item, run metadata) -> its details.parquet row (the engine's by default)

Indic WritingBench is one like the others: its rubric judge fans out over the criteria (parts
"0".."4"), its verdicts keep their judgments.jsonl lines, and its details rows their columns.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, Callable, Mapping, Protocol, Sequence

from eval_backend.benchmarks.board_view import BoardView
from eval_backend.benchmarks.metric import Metric
from eval_backend.benchmarks.no_answer import NoAnswerPolicy
from eval_backend.benchmarks.prompting import Prompt, SamplingDefaults
from eval_backend.item_status import PENDING
from eval_backend.records import ItemKey, ResponseRecord
from eval_backend.scores import SCORE_LINES
from eval_backend.verdict_lines import VerdictLine, VerdictLines

if TYPE_CHECKING:
    from eval_backend.benchmarks.item_statistics import ItemStatistics


class SuiteItem(Protocol):
    """What the engine needs of any benchmark's item; its other fields are the benchmark's own."""

    config: str
    index: int
    id: str

    @property
    def key(self) -> ItemKey: ...

    @property
    def query_sha256(self) -> str:
        """Identifies what the model is asked: a response to another prompt is generated again."""

    @property
    def item_sha256(self) -> str:
        """Identifies everything the item's scorers read (golden answer, options, rubric, ...):
        a verdict on another revision of the item is owed again."""

    def meta(self) -> Any:
        """The frozen dataclass written as this item's line of items.jsonl."""


@dataclass(frozen=True)
class RuleScorer:
    """A deterministic per-sample scorer: pure, so it is recomputed whenever the run is scored."""

    name: str
    score: Callable[[Any, str], Mapping[str, Any]]
    """(item, judged text) -> the values this scorer adds to the item's details row."""


def _never_ruled(item: Any, text: str) -> None:
    return None


def first_whole_number(values: Mapping[str, Any]) -> int | None:
    """The verdict's first yes/no or whole-number field as a whole number (true 1, false 0), None if it has none."""
    for value in values.values():
        if isinstance(value, (bool, int)):
            return int(value)
    return None


@dataclass(frozen=True)
class JudgeScorer:
    """A per-sample LLM judge: its prompt, its strict verdict parser and its decoding.

    `parse` raises `eval_backend.verdict.VerdictError` on an invalid answer (asked again, up
    to the judge's attempts) and returns the verdict as a dataclass or mapping; `temperature`
    is sent when not None, and dropped (and recorded as dropped) for a judge model that
    refuses it. `ruled` gives the verdict's values without a call when a rule decides (a blank
    answer is wrong without asking), else None. `agreement_value` is the verdict as the whole
    number `consistency` compares a re-judgment on (an ordinal scale where the verdict is a class).

    A judge that `parts` fans out asks one call per part of the item (WritingBench's rubric: one
    per criterion, parts "0".."4"), `messages` then taking the part: (item, judged text, part).
    A call's part is the scorer's name, or for a fanned-out judge the part alone, so a benchmark
    has at most one such judge (`judge_of_part`).
    """

    name: str
    messages: Callable[..., list[dict[str, str]]]
    """(item, judged text) -> the judge's chat messages; (item, judged text, part) when it has `parts`."""
    parse: Callable[[str | None], Any]
    temperature: float | None = 0.0
    ruled: Callable[[Any, str], Mapping[str, Any] | None] = _never_ruled
    agreement_value: Callable[[Mapping[str, Any]], int | None] = first_whole_number
    parts: Callable[[Any], Sequence[str]] | None = None
    """The parts of an item this judge asks about one call each; None: one call, named after the scorer."""

    def part_names(self, item: Any) -> list[str]:
        """The part of each call this judge makes on `item`: its own name, or each part it fans out over."""
        return [self.name] if self.parts is None else list(self.parts(item))

    def calls(self, item: Any, text: str) -> list[tuple[str, Callable[[], list[dict[str, str]]]]]:
        """Each call this judge makes on `text` for `item`: its part, and its prompt built only when sent."""
        if self.parts is None:
            return [(self.name, partial(self.messages, item, text))]
        return [(part, partial(self.messages, item, text, part)) for part in self.parts(item)]


def judge_of_part(judges: Sequence[JudgeScorer], part: str) -> JudgeScorer:
    """The judge scorer a call's part belongs to: the one of that name, else the one that fans out over parts.

    Raises KeyError naming the part when no judge of `judges` asks it."""
    named = next((judge for judge in judges if judge.name == part), None)
    fanned = [judge for judge in judges if judge.parts is not None]
    if named is None and len(fanned) != 1:
        raise KeyError(f"no judge scorer asks the part {part!r} (judges: {', '.join(j.name for j in judges)})")
    return named or fanned[0]


@dataclass(frozen=True)
class ScoredItem:
    """One item with its response, its rule scores, its judges' records and its status.

    `judges` holds, per call part (a judge scorer's name, or each part a judge fans out over:
    WritingBench's criteria "0".."4"), the current record for this response, in the order the
    judges ask them; a verdict a rule decided has `judge_model` "rule" and no call behind it,
    and one the no-answer policy decided has `judge_model` "no_response". `judged_text` is None
    when the model gave no answer (`status` NO_RESPONSE: scored by the policy) or none is there
    yet (PENDING).
    """

    item: Any
    response: ResponseRecord | None
    judged_text: str | None
    rules: Mapping[str, Mapping[str, Any]]
    judges: Mapping[str, VerdictLine]
    status: str

    @property
    def counted(self) -> bool:
        """Whether the item counts in the figures: answered, or scored by the no-answer policy."""
        return self.status != PENDING


def _no_keys(summary: Mapping[str, Any]) -> Mapping[str, Any]:
    return {}


@dataclass(frozen=True)
class Benchmark:
    """A benchmark: everything specific to it, reached through this record; the engine and the board do the rest."""

    name: str
    title: str
    description: str
    default_dataset: str | None
    dataset_setting: str
    """The environment variable naming its dataset (Hub id or local folder), e.g. QA_DATASET."""
    split: str | None
    """The dataset split to read; None: the config's only split."""
    known_configs: tuple[str, ...]
    row_fields: tuple[str, ...]
    record_to_item: Callable[[str, Mapping[str, Any]], Any]
    item_from_meta: Callable[[Mapping[str, Any]], Any]
    prompt: Callable[[Any], Prompt]
    judged_text: Callable[[str], str]
    sampling: SamplingDefaults
    rules: tuple[RuleScorer, ...]
    judges: tuple[JudgeScorer, ...]
    metrics: tuple[Metric, ...]
    headline: str
    """The metric shown for this benchmark on the landing view."""
    aggregate: Callable[[Sequence[ScoredItem]], Mapping[str, Any]]
    no_answer: NoAnswerPolicy
    """What an item the model did not answer scores, under each of its scorers."""
    index_from_position: bool = True
    """Rows carry no `index` column: an item's index is its row's position in its config."""
    shots_split: str | None = None
    """The split few-shot examples come from (Saraiki's `dev`); None: the benchmark has none."""
    shot_counts: Mapping[str, int] = field(default_factory=dict)
    """How many first rows of `shots_split` each config's items get (configs not listed: none).
    Each row given to `record_to_item` then carries them, as loaded, under the key `shots`."""
    in_mode: Callable[[bool], Benchmark] | None = None
    """This benchmark asked in chat (True) or with raw text (False), for one whose submitter may
    choose (Saraiki, the script's `CHAT`); None: its prompts are chat turns, so a model needs a
    chat template (see `eval_backend.benchmarks.chat_mode`)."""
    item_statistics: Callable[[], ItemStatistics] | None = None
    """How its items cluster and its figures per item (`eval_backend.benchmarks.item_statistics`),
    loaded on first use, since the statistics need pandas and most commands do not."""
    board: BoardView = BoardView()
    """What its board tab shows beyond its metrics (`eval_backend.benchmarks.board_view`); the default serves any."""
    verdict_lines: VerdictLines = SCORE_LINES
    """Its verdict file's line shape: a `ScoreRecord` per call in scores.jsonl."""
    judged_from_folder: bool = True
    """items.jsonl holds all a judge prompt needs: judging reads it, never the dataset again. False
    (WritingBench, whose items.jsonl leaves out the ~20 KB queries): judging reads the dataset again."""
    details_row: Callable[[ScoredItem, Mapping[str, Any]], dict[str, Any]] | None = None
    """(scored item, run metadata) -> its details.parquet row; None: the engine's (`eval_backend.scorer_runs`)."""
    older_keys: Callable[[Mapping[str, Any]], Mapping[str, Any]] = _no_keys
    """summary.json's keys that its readers have always had, from the summary the engine wrote
    (WritingBench's `overall_ci`, `config_ci` and `config_group_ci`, from its `intervals`)."""
    current_keys: Callable[[Mapping[str, Any]], Mapping[str, Any]] = _no_keys
    """The engine's keys (`metrics`, `intervals`, `config_intervals`) of a summary written before the engine wrote
    them, from the keys it had then; {} for a summary that has them. Readers of run folders add them
    (`leaderboard.results`), so older runs stay on the board."""

    def judge(self, name: str) -> JudgeScorer:
        return next(judge for judge in self.judges if judge.name == name)

    def headline_metric(self) -> Metric:
        return next(metric for metric in self.metrics if metric.name == self.headline)

    def headline_value(self, summary: Mapping[str, Any]) -> float | None:
        """The headline of a summary.json: its headline metric, None when absent or not a number.

        A WritingBench summary written before it had `metrics` holds it in `config_groups`."""
        for source in ("metrics", "config_groups"):
            figures = summary.get(source)
            value = figures.get(self.headline) if isinstance(figures, Mapping) else None
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                return float(value)
        return None
