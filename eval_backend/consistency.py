"""Judge consistency: re-judge a seeded sample of a run's judge verdicts and compare them.

A judge that gives the same answer two different scores is noise on the board. This sends a
sample of the judge calls already made in a run folder (WritingBench's rubric criteria, the QA
equivalence judge, Saraiki's refusal judge, any benchmark's judge scorer) to the judge again,
through the same client and the same prompt as the run, and compares the new verdicts with the
run's, each as a whole number (a criterion's 1–10 score; a judge scorer's `agreement_value`).
With another `judge_model` it shows how far a second judge agrees with the run's.

    consistency_judgments.jsonl   the re-judgments, append-only (never mixed into the run's verdicts),
                                  in the run's own line shape (judgment or score record)
    consistency.json              one report per re-judging model: the four figures, per config too,
                                  and the scored pairs behind them

The sample is stratified by config (each config gets its share of the sample, in proportion to
its judged verdicts) and fixed by the seed, so the same command resumes: re-judgments already
in the file are not sent again.
"""

from __future__ import annotations

import json
import random
from collections import defaultdict
from dataclasses import dataclass, field
from itertools import chain
from typing import Any, Callable, Hashable, Mapping, Sequence, TypeVar

from eval_backend.agreement import Agreement, agreement
from eval_backend.benchmarks.plugin import Benchmark
from eval_backend.judge_calls import VerdictBook, call_id_of
from eval_backend.judged_samples import JudgedSample
from eval_backend.judging import ProgressCallback, judge_live
from eval_backend.records import utc_now
from eval_backend.run_folder import RunFolder, RunFolderError, write_json_atomic
from eval_backend.settings import JudgeSettings

CONSISTENCY_FILE = "consistency.json"
REJUDGMENTS_FILE = "consistency_judgments.jsonl"

T = TypeVar("T")


@dataclass(frozen=True)
class ScoredPair:
    """One judged part (a rubric criterion, a judge scorer's verdict) judged twice: the run's value and the new one."""

    config: str
    index: int
    part: str
    reference: int
    rejudged: int


@dataclass(frozen=True)
class ConsistencyReport:
    """What a consistency check found for one re-judging model (one entry of consistency.json)."""

    judge_model: str
    reference_judge_model: str
    seed: int
    requested: int
    sampled: int
    failed: int
    pairs: tuple[ScoredPair, ...]
    created_at: str = field(default_factory=utc_now)

    @property
    def overall(self) -> Agreement:
        return pair_agreement(self.pairs)

    @property
    def per_config(self) -> dict[str, Agreement]:
        by_config: dict[str, list[ScoredPair]] = defaultdict(list)
        for pair in self.pairs:
            by_config[pair.config].append(pair)
        return {config: pair_agreement(pairs) for config, pairs in sorted(by_config.items())}


def pair_agreement(pairs: Sequence[ScoredPair]) -> Agreement:
    """The agreement figures of these pairs (run's score first, re-judged second)."""
    return agreement([pair.reference for pair in pairs], [pair.rejudged for pair in pairs])


def check_consistency(
    benchmark: Benchmark,
    folder: RunFolder,
    settings: JudgeSettings,
    sample: int,
    seed: int = 0,
    reference_judge_model: str | None = None,
    on_progress: ProgressCallback | None = None,
) -> ConsistencyReport:
    """Re-judge `sample` judged parts of the run with `settings`' judge; record and return the report.

    Every judge scorer is checked the same way: WritingBench's rubric criteria, the QA
    equivalence judge, Saraiki's refusal judge, any declared benchmark's judge. A verdict a rule
    decided (no call behind it) is not sampled. `reference_judge_model` defaults to the judge of
    the folder's latest verdict line (as `score` does). Raises RunFolderError when the folder
    has nothing to compare.
    """
    if sample < 1:
        raise ValueError(f"sample must be at least 1, got {sample}")
    judged = JudgedSample(benchmark, folder)
    reference_model = reference_judge_model or judged.latest_judge()
    if not reference_model:
        raise RunFolderError(f"{judged.path}: no verdicts to check; judge the run first")
    candidates = list(judged.judged(reference_model).items())  # in plan order: the seed draws the same sample
    if not candidates:
        raise RunFolderError(f"{judged.path}: no judged verdicts of {reference_model!r} for the current responses")
    chosen = stratified_sample(candidates, sample, seed, lambda candidate: candidate[0][0])
    path = folder.path / REJUDGMENTS_FILE
    rejudge(judged.book(path), {call_id_of(*key) for key, _ in chosen}, settings, on_progress)
    again = judged.rejudged(path, settings.model)
    pairs = tuple(ScoredPair(*key[:3], first, again[key]) for key, first in chosen if key in again)  # type: ignore[misc]
    report = ConsistencyReport(settings.model, reference_model, seed, sample, len(chosen), len(chosen) - len(pairs), pairs)
    write_report(folder, report)
    return report


def rejudge(book: VerdictBook, wanted: set[str], settings: JudgeSettings, on_progress: ProgressCallback | None) -> None:
    """Send the calls of `wanted` (call ids) that `book`'s file lacks to `settings`' judge, live, through the one pool."""
    owed = [call for call in chain.from_iterable(book.owed(settings.model, False)) if call.call_id in wanted]
    if owed:
        judge_live(book, [owed], settings, book.appender(), on_progress)


def stratified_sample(population: Sequence[T], size: int, seed: int, stratum: Callable[[T], Hashable]) -> list[T]:
    """`size` members (all, if fewer), each stratum's share in proportion to its size, drawn with `seed`.

    Shares are rounded by largest remainder, so they add up to `size` exactly; the draw in a
    stratum depends only on the seed, the stratum's name and its members' order.
    """
    strata: dict[Hashable, list[T]] = defaultdict(list)
    for member in population:
        strata[stratum(member)].append(member)
    size = min(size, len(population))
    exact = {name: size * len(members) / len(population) for name, members in strata.items()}
    shares = {name: int(value) for name, value in exact.items()}
    by_remainder = sorted(strata, key=lambda name: (-(exact[name] - shares[name]), str(name)))
    for name in by_remainder[: size - sum(shares.values())]:
        shares[name] += 1
    chosen: list[T] = []
    for name in sorted(strata, key=str):
        chosen.extend(random.Random(f"{seed}:{name}").sample(strata[name], shares[name]))
    return chosen


def write_report(folder: RunFolder, report: ConsistencyReport) -> None:
    """Put `report` into consistency.json under its judge model, keeping the other models' reports."""
    reports = read_reports(folder)
    reports[report.judge_model] = report
    write_json_atomic(folder.path / CONSISTENCY_FILE, {"judge_models": {m: report_to_dict(r) for m, r in reports.items()}})


def read_reports(folder: RunFolder) -> dict[str, ConsistencyReport]:
    """The reports of consistency.json by re-judging model (none if there is no file)."""
    path = folder.path / CONSISTENCY_FILE
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return {str(model): report_from_dict(entry) for model, entry in data["judge_models"].items()}
    except (KeyError, TypeError, ValueError, AttributeError, RecursionError) as exc:
        raise RunFolderError(f"{path}: not a consistency report ({exc})") from exc


def report_to_dict(report: ConsistencyReport) -> dict[str, Any]:
    """A report as written to consistency.json: figures first (for people), then the pairs."""
    return {
        "judge_model": report.judge_model,
        "reference_judge_model": report.reference_judge_model,
        "seed": report.seed,
        "requested": report.requested,
        "sampled": report.sampled,
        "failed": report.failed,
        **_figures(report.overall),
        "per_config": {config: _figures(figures) for config, figures in report.per_config.items()},
        "pairs": [[p.config, p.index, p.part, p.reference, p.rejudged] for p in report.pairs],
        "created_at": report.created_at,
    }


def report_from_dict(data: Mapping[str, Any]) -> ConsistencyReport:
    """A report from consistency.json; the figures are recomputed from its pairs."""
    pairs = tuple(ScoredPair(str(c), int(i), _part(k), _score(a), _score(b)) for c, i, k, a, b in data["pairs"])
    return ConsistencyReport(
        judge_model=str(data["judge_model"]),
        reference_judge_model=str(data["reference_judge_model"]),
        seed=int(data["seed"]),
        requested=int(data["requested"]),
        sampled=int(data["sampled"]),
        failed=int(data["failed"]),
        pairs=pairs,
        created_at=str(data.get("created_at") or ""),
    )


def _figures(figures: Agreement) -> dict[str, Any]:
    return {
        "pairs_compared": figures.pairs,
        "exact_agreement": figures.exact,
        "within_one_agreement": figures.within_one,
        "spearman": figures.spearman,
        "mean_abs_diff": figures.mean_abs_diff,
    }


def _score(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"a score must be a whole number, not {value!r}")
    return value


def _part(value: Any) -> int | str:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise TypeError(f"a judged part must be a criterion's index or a scorer's name, not {value!r}")
    return value
