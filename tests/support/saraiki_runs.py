"""Saraiki runs evaluated through the real engine: the openai backend against a stand-in model
on 127.0.0.1, into `root/data/runs/saraiki/<org>__<name>/<revision>/`.

The stand-in "model" answers every task deterministically (a letter chosen by the prompt's
length, a sum off by one on every other question, refusals to the harmful requests and to one
benign one), so each run has right and wrong answers, both digit forms and both safety rates.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from eval_backend.benchmarks.saraiki.plugin import NAME, saraiki_benchmark
from eval_backend.dataset_loader import DatasetSpec
from eval_backend.generation.options import GenerationOptions
from eval_backend.pipeline import RunSpec, run_pipeline
from eval_backend.run_folder import RunFolder
from eval_backend.settings import JudgeSettings
from tests.support.chat_server import Reply, StandInChatServer, user_text
from tests.support.saraiki_dataset import write_saraiki_dataset

__all__ = ["SARAIKI_MODELS", "SaraikiData", "build_saraiki_runs", "saraiki_model_reply"]

_DIGITS = str.maketrans("۰۱۲۳۴۵۶۷۸۹٠١٢٣٤٥٦٧٨٩", "01234567890123456789")
_URDU = str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")

SARAIKI_MODELS: Mapping[str, bool] = {"acme/saraiki-chat-7b": True, "acme/base-<b>1b</b>": False}
"""Model id -> asked in chat (True) or raw; the second id carries markup that must stay text."""


def saraiki_model_reply(body: dict[str, Any]) -> Reply:
    """A deterministic "model": right on some items, wrong on others, in Saraiki digits and words."""
    prompt = body["prompt"] if "prompt" in body else user_text(body)
    last = prompt.rsplit("\n\n", 1)[-1]
    if last.endswith("\nAnswer:") and "\nA. " in last:  # multiple choice: a letter chosen by length
        return Reply(content=f" {'ABCD'[len(last) % 4]}\n\nسوال")
    if last.endswith("\nAnswer:"):  # math: the sum, off by one on every other question
        numbers = [int(n) for n in re.findall(r"\d+", last.translate(_DIGITS))]
        total = numbers[0] + numbers[1] + numbers[0] % 2
        return Reply(content=f" {total:,}".translate(_URDU) + " انب")
    if "ہیک" in prompt or "بم" in prompt:
        return Reply(content="معاف کرو، میں ایہ نئیں کر سڳدا۔")
    if "نیندر" in prompt:
        return Reply(content="میں ایہ نئیں ݙس سڳدا۔")  # an over-refusal
    return Reply(content="ملتان ہک پراݨا شہر ہے۔ ایندے انب مٹھے ہن۔")


@dataclass(frozen=True)
class SaraikiData:
    data_dir: Path
    dataset_dir: Path
    folders: Mapping[str, RunFolder]

    @property
    def runs_dir(self) -> Path:
        return self.data_dir / "runs" / NAME


def build_saraiki_runs(
    root: Path, models: Mapping[str, bool] = SARAIKI_MODELS, limits: Mapping[str, int] | None = None
) -> SaraikiData:
    """The dataset under `root/saraiki-dataset` and one evaluated run folder per model; a model in
    `limits` is run on only that many first items of each config (`--limit`)."""
    dataset = write_saraiki_dataset(Path(root) / "saraiki-dataset", test_rows=4)
    data_dir = Path(root) / "data"
    folders = {}
    with StandInChatServer(saraiki_model_reply) as server:
        judge = JudgeSettings(model="unused-judge", base_url=server.base_url, api_key="stand-in")
        for model_id, chat in models.items():
            benchmark = saraiki_benchmark(chat=chat)
            folder = RunFolder.for_model(data_dir / "runs" / NAME, model_id, "main")
            options = GenerationOptions.for_benchmark(
                benchmark, model_id, backend="openai", base_url=server.base_url, chat=chat
            )
            limit = (limits or {}).get(model_id)
            spec = RunSpec(benchmark, DatasetSpec(str(dataset)), folder, limit=limit)
            run_pipeline(spec, {"model": model_id, "revision": "main", "limit": limit}, options, judge)
            folders[model_id] = folder
    return SaraikiData(data_dir, dataset, folders)
