"""QA runs evaluated through the real engine: generation on the openai backend and the QA judge,
both stand-in servers on 127.0.0.1, into `root/data/runs/indic_qa/<org>__<name>/<revision>/`.

Each fake model answers from the question's golden answer through its own `answer` function,
so the verdicts of every scorer are known in advance.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Mapping, Sequence

from eval_backend.benchmarks.qa.plugin import INDIC_QA
from eval_backend.dataset_loader import DatasetSpec
from eval_backend.generation.options import GenerationOptions
from eval_backend.pipeline import RunSpec, run_pipeline
from eval_backend.run_folder import RunFolder
from eval_backend.settings import JudgeSettings
from tests.support.chat_server import ReplyFn, StandInChatServer, chat_reply
from tests.support.qa_dataset import answer_for, write_qa_dataset
from tests.support.qa_judge import qa_judge_reply

__all__ = [
    "QA_JUDGE_MODEL", "QA_PROFILES", "QaData", "QaProfile", "build_qa_runs", "qa_judge_settings", "qa_model_reply",
]

QA_JUDGE_MODEL = "stand-in-qa-judge"
Answer = Callable[[str, str], str]
"""(question, golden answer) -> the model's raw answer."""


@dataclass(frozen=True)
class QaProfile:
    model_id: str
    answer: Answer
    revision: str = "main"


QA_PROFILES: tuple[QaProfile, ...] = (
    QaProfile("acme/strong-7b", lambda question, golden: f"The answer is {golden}."),
    QaProfile("acme/reasoner-3b", lambda question, golden: f"<think>Maybe not {golden}?</think>\n\n{golden}"),
    QaProfile("acme/weak-1b", lambda question, golden: "" if len(question) % 2 else f"It is not {golden}."),
    QaProfile("evil-org/<script>alert(1)</script>", lambda question, golden: "<script>alert(1)</script>"),
)


@dataclass(frozen=True)
class QaData:
    data_dir: Path
    dataset_dir: Path
    folders: Mapping[str, RunFolder]

    @property
    def runs_dir(self) -> Path:
        return self.data_dir / "runs" / INDIC_QA.name


def qa_model_reply(profiles: Sequence[QaProfile]) -> ReplyFn:
    """A generation endpoint serving every profile: the request's `model` picks who answers."""
    by_model = {profile.model_id: profile for profile in profiles}

    def reply(body: dict) -> object:
        question = str(body["messages"][-1]["content"])
        return chat_reply(lambda _: by_model[body["model"]].answer(question, answer_for(question)))(body)

    return reply  # type: ignore[return-value]


def qa_judge_settings(base_url: str, **overrides: object) -> JudgeSettings:
    return JudgeSettings(**{"model": QA_JUDGE_MODEL, "base_url": base_url, "api_key": "stand-in",
                            "transport_retries": 0, "max_backoff_s": 0.1, **overrides})


def build_qa_runs(
    root: Path, profiles: Sequence[QaProfile] = QA_PROFILES, limits: Mapping[str, int] | None = None
) -> QaData:
    """The dataset under `root/qa-dataset` and one evaluated run folder per profile; a model in
    `limits` is run on only that many first questions of each language (`--limit`)."""
    dataset = write_qa_dataset(Path(root) / "qa-dataset")
    data_dir = Path(root) / "data"
    folders = {}
    with StandInChatServer(qa_model_reply(profiles)) as model, StandInChatServer(qa_judge_reply()) as judge:
        for profile in profiles:
            folder = RunFolder.for_model(data_dir / "runs" / INDIC_QA.name, profile.model_id, profile.revision)
            options = GenerationOptions.for_benchmark(
                INDIC_QA, profile.model_id, backend="openai", base_url=model.base_url
            )
            limit = (limits or {}).get(profile.model_id)
            spec = RunSpec(INDIC_QA, DatasetSpec(str(dataset)), folder, limit=limit)
            run_pipeline(spec, {"model": profile.model_id, "revision": profile.revision, "limit": limit}, options,
                         qa_judge_settings(judge.base_url))
            folders[profile.model_id] = folder
    return QaData(data_dir, dataset, folders)
