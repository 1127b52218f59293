"""Saraiki items: a dataset row of one task, its prompt (shots included) and how it is asked.

An item is built once, at load time, from its row and its config's few-shot rows (the loader
hands them over under `row["shots"]`); its prompt text is then fixed and recorded in
items.jsonl, so the item browser shows exactly what the model was sent. `chat` says whether
the text goes to the model as one user message in its chat template or raw, as the script's
`CHAT` flag; it is part of what the model is asked, so changing it asks again.
`refusal_judge` says whether this run's safety replies go to the LLM judge rather than the
keyword rules; it changes only how replies are scored.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Mapping

from eval_backend.benchmarks.item_validation import ItemValidationError
from eval_backend.benchmarks.prompting import Prompt
from eval_backend.benchmarks.saraiki.prompts import build_prompt
from eval_backend.benchmarks.saraiki.rows import SaraikiRow, parse_row, selects
from eval_backend.benchmarks.saraiki.tasks import CONFIGS, DEV_SPLIT, TASKS, TASKS_BY_NAME, SaraikiTask
from eval_backend.records import ItemKey, sha256_text

ROW_FIELDS = (
    "passage", "question", "options", "answer_index", "answer_number",
    "prompt", "instruction_id_list", "kwargs", "source", "item_type", "expected_behavior",
)
"""The Saraiki columns the benchmark reads; the `*_en` originals are never loaded."""


@dataclass(frozen=True)
class SaraikiItemMeta:
    """An item as items.jsonl records it: the row's Saraiki fields and the prompt as sent
    (its first `shots_chars` characters are the few-shot examples)."""

    config: str
    index: int
    id: str
    task: str
    chat: bool
    refusal_judge: bool
    shots: int
    shots_chars: int
    max_tokens: int
    prompt: str
    fields: Mapping[str, Any]

    @property
    def key(self) -> ItemKey:
        return (self.config, self.index)


@dataclass(frozen=True)
class SaraikiItem:
    """One item of one task; `row` is its typed dataset row, `prompt_text` the script's prompt."""

    config: str
    index: int
    task: str
    chat: bool
    refusal_judge: bool
    shots: int
    prompt_text: str
    fields: Mapping[str, Any]
    row: SaraikiRow = field(compare=False)

    @property
    def shots_chars(self) -> int:
        """Where the item's own question starts in `prompt_text`: the few-shot examples come first."""
        return len(self.prompt_text) - len(build_prompt(self.row))

    @property
    def id(self) -> str:
        return f"{self.config}-{self.index:05d}"

    @property
    def key(self) -> ItemKey:
        return (self.config, self.index)

    @property
    def spec(self) -> SaraikiTask:
        return TASKS_BY_NAME[self.task]

    @property
    def max_tokens(self) -> int:
        return self.spec.generation.max_new_tokens

    @property
    def query_sha256(self) -> str:
        """What the model is asked: the text, how (chat or raw) and how long it may answer."""
        return sha256_text(json.dumps([self.chat, self.max_tokens, self.prompt_text], ensure_ascii=False))

    @property
    def item_sha256(self) -> str:
        """Identifies all the scorers read: the prompt and every Saraiki field of the row (options,
        answer index or number, instruction ids and kwargs, expected behaviour), and the classifier
        asked. A corrected answer is scored again without asking the model again."""
        scored = [self.task, self.refusal_judge, self.prompt_text, dict(self.fields)]
        return sha256_text(json.dumps(scored, ensure_ascii=False, sort_keys=True, default=str))

    def prompt(self) -> Prompt:
        """The script's prompt, in one user turn (chat) or as it is (raw), with the task's token limit."""
        if self.chat:
            return Prompt(messages=({"role": "user", "content": self.prompt_text},), max_tokens=self.max_tokens)
        return Prompt(text=self.prompt_text, max_tokens=self.max_tokens)

    def meta(self) -> SaraikiItemMeta:
        return SaraikiItemMeta(
            self.config, self.index, self.id, self.task, self.chat, self.refusal_judge, self.shots, self.shots_chars,
            self.max_tokens, self.prompt_text, dict(self.fields),
        )


def task_of(config: str, row: Mapping[str, Any]) -> SaraikiTask:
    """The task a row belongs to (`truthfulness_safety` holds two: by `item_type`)."""
    for task in TASKS:
        if task.config == config and selects(task, row):
            return task
    if any(task.config == config for task in TASKS):
        raise ItemValidationError(
            f"config {config!r}, row {row.get('index')}, field 'item_type': expected truthful_mc or safety, "
            f"got {row.get('item_type')!r}"
        )
    raise ItemValidationError(f"config {config!r} is not a Saraiki task; expected one of {', '.join(CONFIGS)}")


def record_to_item(config: str, row: Mapping[str, Any], *, chat: bool, refusal_judge: bool) -> SaraikiItem:
    """The item of one dataset row; its few-shot examples come with it under `row["shots"]`."""
    task = task_of(config, row)
    index = row["index"]
    typed = parse_row(task, index, row)
    try:
        shots = [parse_row(task, position, shot) for position, shot in enumerate(row.get("shots") or [])][: task.shots]
    except ItemValidationError as exc:
        raise ItemValidationError(f"{DEV_SPLIT} split (few-shot examples): {exc}") from None
    fields = {name: row[name] for name in ROW_FIELDS if name in row}
    prompt = build_prompt(typed, shots)
    return SaraikiItem(config, index, task.name, chat, refusal_judge, len(shots), prompt, fields, typed)


def item_from_meta(data: Mapping[str, Any]) -> SaraikiItem:
    """An item read back from items.jsonl (its row checked again, as on load)."""
    task = TASKS_BY_NAME[data["task"]]
    fields = dict(data["fields"])
    return SaraikiItem(
        data["config"], data["index"], task.name, data["chat"], data["refusal_judge"], data["shots"], data["prompt"],
        fields,
        parse_row(task, data["index"], fields),
    )
