"""A data folder of evaluated models, built through the real engine against the stand-in judge.

Each model's responses carry a ``[quality=N]`` marker that the stand-in judge turns into
criterion scores, so rankings, language and variant breakdowns differ from model to model in
known ways. ``build_evaluated_data(root)`` writes::

    root/dataset/                 a small Indic WritingBench dataset in Hub layout
    root/data/runs/indic_writing_bench/<org>__<name>/<revision>/   one run folder per model (prepare, import,
                                  judge, score: the engine's own phases)

The profiles include a model evaluated on only part of the benchmark (partial: unranked), one
whose judge calls fail for good on some items (incomplete: unranked), one with reasoning
before ``</think>``, and one whose model id and responses carry ``<script>alert(1)</script>``.
Three record a license and open weights as a submission does (the reasoner's weights are gated, so
not open); the other two record neither, as a run judged from the command line.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from eval_backend.benchmarks.registry import BENCHMARKS, DEFAULT_BENCHMARK
from eval_backend.benchmarks.writing_bench.records import Item
from eval_backend.dataset_loader import DatasetSpec
from eval_backend.pipeline import RunSpec, import_responses, judge_phase, prepare_run, score_phase
from eval_backend.records import MODEL_ERROR, ResponseRecord
from eval_backend.run_folder import RunFolder
from eval_backend.settings import JudgeSettings
from tests.support.chat_server import FaultPlan, StandInChatServer, judge_key, judge_reply
from tests.support.hub_dataset import DatasetShape, write_writing_bench_dataset

__all__ = [
    "CONFIGS",
    "DEFAULT_PROFILES",
    "EvaluatedData",
    "JUDGE_MODEL",
    "ModelProfile",
    "SCRIPT_MODEL_ID",
    "ScoreFn",
    "build_evaluated_data",
    "quality_score",
]

JUDGE_MODEL = "stand-in-judge"
CONFIGS: Mapping[str, int] = {"Hindi": 6, "Tamil": 6, "Bengali": 6, "english_original": 6}
SCRIPT_MODEL_ID = "evil-org/<script>alert(1)</script>"
_QUALITY = re.compile(r"\[quality=(\d+)\]")
UNFIT = "prompt of 9000 tokens does not fit the context of 8192"
"""The error of an item a profile does not answer: the model's own failure."""


@dataclass(frozen=True)
class ModelProfile:
    """How one fake model answers: its base quality and where it does worse.

    ``variant_penalty`` and ``config_penalty`` lower the quality marker for items of that
    variant or config; ``configs`` limits the run to some configs; every ``skip_every``-th item
    gets no response (its prompt does not fit the model: the floor score); the first
    ``failing_items`` items get a judge that never answers validly.
    """

    model_id: str
    quality: int
    revision: str = "main"
    variant_penalty: Mapping[str, int] = field(default_factory=dict)
    config_penalty: Mapping[str, int] = field(default_factory=dict)
    configs: Sequence[str] | None = None
    skip_every: int = 0
    failing_items: int = 0
    reasoning: bool = False
    extra_text: str = ""
    request: Mapping[str, Any] = field(default_factory=dict)
    cut_off_every: int = 0
    """Every `cut_off_every`-th answer ran out of tokens inside its thinking (`unclosed_thinking`, as generation
    records it): its `<think>` never closes."""
    judge_model: str = ""
    """Judged by a judge of this name instead of the board's `JUDGE_MODEL` (the same stand-in server answers)."""

    def quality_for(self, item: Item) -> int:
        penalty = self.variant_penalty.get(item.variant, 0) + self.config_penalty.get(item.config, 0)
        return max(1, self.quality - penalty)

    def response_for(self, item: Item) -> str:
        answer = f"{self.extra_text}[quality={self.quality_for(item)}] {self.model_id} writes about {item.id}."
        return f"<think>\nplanning {item.id}\n</think>\n\n{answer}" if self.reasoning else answer


DEFAULT_PROFILES: tuple[ModelProfile, ...] = (
    ModelProfile(
        "acme/strong-7b", 9, variant_penalty={"romanized": 1},
        request={"params_b": 7.2, "precision": "bfloat16", "license": "apache-2.0", "open_weights": True},
    ),
    ModelProfile(
        "acme/reasoner-3b", 8, variant_penalty={"code_mixed": 2, "romanized": 3}, reasoning=True,
        # as the worker records it (a gated model: not open weights)
        request={"params_b": 3.1, "precision": "bfloat16", "reasoning": True, "license": "other:acme-research",
                 "open_weights": False},
    ),
    ModelProfile(
        "bharat/partial-1b", 6, configs=("Hindi", "Tamil"), skip_every=4,
        request={"params_b": 1.0, "precision": "float16", "license": "mit", "open_weights": True},
    ),
    ModelProfile(
        "flaky/judge-fails-2b", 5, config_penalty={"Tamil": 2}, failing_items=3,
        request={"params_b": 2.0, "precision": "float16"},
    ),
    ModelProfile(
        SCRIPT_MODEL_ID, 3, extra_text="<script>alert(1)</script> ",
        request={"params_b": 0.5, "precision": "float32"},
    ),
)


@dataclass(frozen=True)
class EvaluatedData:
    """What was built: the data folder (DATA_DIR), the dataset folder and each model's run folder."""

    data_dir: Path
    dataset_dir: Path
    folders: Mapping[str, RunFolder]
    profiles: tuple[ModelProfile, ...]

    @property
    def runs_dir(self) -> Path:
        """Indic WritingBench's tree of run folders (one tree per benchmark under `runs/`)."""
        return self.data_dir / "runs" / DEFAULT_BENCHMARK

    def summary(self, model_id: str) -> dict[str, Any]:
        """summary.json as the engine wrote it, read directly: what tests expect to see."""
        return json.loads(self.folders[model_id].summary_path.read_text(encoding="utf-8"))

    def ranked_models(self) -> list[str]:
        """The complete runs' model ids by Indic average in summary.json, best first."""
        summaries = {model: self.summary(model) for model in self.folders}
        ranked = [model for model, summary in summaries.items()
                  if summary["complete"] and summary["coverage"]["configs"] == summary["coverage"]["dataset_configs"]]
        return sorted(ranked, key=lambda model: -summaries[model]["config_groups"]["indic"])


def quality_score(criterion: Mapping[str, Any], response: str) -> int:
    """The stand-in judge's score: the response's quality marker, nudged by the criterion."""
    found = _QUALITY.search(response)
    quality = int(found.group(1)) if found else 1
    nudge = len(str(criterion.get("name", ""))) % 3 - 1
    return min(10, max(1, quality + nudge))


ScoreFn = Callable[[Mapping[str, Any], str], int]
"""(criterion, judged response) -> the stand-in judge's score (1-10)."""


def build_evaluated_data(
    root: Path, profiles: Sequence[ModelProfile] = DEFAULT_PROFILES, configs: Mapping[str, int] = CONFIGS,
    score: ScoreFn = quality_score,
) -> EvaluatedData:
    """Write the dataset and evaluate every profile into `root/data/runs/indic_writing_bench` with the real engine,
    the stand-in judge scoring each criterion by `score`."""
    root = Path(root)
    dataset_dir = write_writing_bench_dataset(root / "dataset", DatasetShape(configs=dict(configs)))
    runs_dir = root / "data" / "runs" / DEFAULT_BENCHMARK
    plan = FaultPlan()
    folders = {}
    with StandInChatServer(judge_reply(score), faults=plan, record=False) as server:
        judge = JudgeSettings(
            model=JUDGE_MODEL, base_url=server.base_url, api_key="stand-in", concurrency=8,
            transport_retries=0, max_backoff_s=0.1,
        )
        for profile in profiles:
            folders[profile.model_id] = _evaluate(profile, dataset_dir, runs_dir, judge, plan)
    return EvaluatedData(root / "data", dataset_dir, folders, tuple(profiles))


def _evaluate(
    profile: ModelProfile, dataset_dir: Path, runs_dir: Path, judge: JudgeSettings, plan: FaultPlan
) -> RunFolder:
    folder = RunFolder.for_model(runs_dir, profile.model_id, profile.revision)
    spec = RunSpec(BENCHMARKS[DEFAULT_BENCHMARK], DatasetSpec(str(dataset_dir)), folder, profile.configs)
    request = {"model": profile.model_id, "revision": profile.revision, **profile.request}
    items = prepare_run(spec, request)
    answered = [item for number, item in enumerate(items) if not _skipped(profile, number)]
    unanswered = [item for number, item in enumerate(items) if _skipped(profile, number)]
    cut_off = {number for number in range(len(answered))
               if profile.cut_off_every and number % profile.cut_off_every == profile.cut_off_every - 1}
    import_responses(folder, [
        *(ResponseRecord(i.config, i.index, f"<think>\nplanning {i.id}" if n in cut_off else profile.response_for(i),
                         id=i.id, unclosed_thinking=n in cut_off) for n, i in enumerate(answered)),
        *(ResponseRecord(i.config, i.index, None, id=i.id, error=UNFIT, error_kind=MODEL_ERROR) for i in unanswered),
    ])
    for item in answered[: profile.failing_items]:
        # Every attempt of the first criterion is unparsable: a final, counted failure.
        key = judge_key(str(item.checklist[0]["name"]), item.query)
        plan.script(key, *["non_json"] * judge.invalid_answer_attempts)
    judge = judge.model_copy(update={"model": profile.judge_model}) if profile.judge_model else judge
    judge_phase(spec, items, judge)
    score_phase(spec, judge.model)
    return folder


def _skipped(profile: ModelProfile, number: int) -> bool:
    return bool(profile.skip_every) and number % profile.skip_every == profile.skip_every - 1
