"""The seven tasks of the Saraiki LLM Benchmark (seed 003) and how each is generated.

Everything here is the seed's reference script made explicit: the configs, the shot counts of
its `TASKS` table, the `max_new_tokens` of each `generate` call, and greedy decoding with no
stop strings. `truthfulness_safety` is one config holding two tasks (`truthful_mc` rows scored
as multiple choice, `safety` rows classified as refusals), so the summary has eight entries
for seven configs.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

DATASET_ID = "themohal/saraiki-llm-bench"
TEST_SPLIT, DEV_SPLIT = "test", "dev"
LETTERS = "ABCDEFGHIJ"
"""The script's answer letters: an item has as many as it has options, ten at most."""


class TaskKind(StrEnum):
    """How a task's replies are scored."""

    MULTIPLE_CHOICE = "multiple_choice"
    MATH = "math"
    INSTRUCTION_FOLLOWING = "instruction_following"
    SAFETY = "safety"


@dataclass(frozen=True)
class GenerationDefaults:
    """Decoding as the script does it: greedy (`do_sample=False`), a new-token limit, no stops."""

    max_new_tokens: int
    greedy: bool = True
    stop: tuple[str, ...] = ()


@dataclass(frozen=True)
class SaraikiTask:
    """One reported task: the config it reads, its shots from `dev`, and its decoding.

    `item_type` selects the rows of a config that holds several kinds (`truthfulness_safety`);
    None takes every row.
    """

    name: str
    config: str
    kind: TaskKind
    shots: int
    generation: GenerationDefaults
    item_type: str | None = None


_MC = GenerationDefaults(max_new_tokens=8)

TASKS: tuple[SaraikiTask, ...] = (
    SaraikiTask("knowledge", "knowledge", TaskKind.MULTIPLE_CHOICE, 5, _MC),
    SaraikiTask("knowledge_hard", "knowledge_hard", TaskKind.MULTIPLE_CHOICE, 5, _MC),
    SaraikiTask("commonsense", "commonsense", TaskKind.MULTIPLE_CHOICE, 5, _MC),
    SaraikiTask("reading_comprehension", "reading_comprehension", TaskKind.MULTIPLE_CHOICE, 5, _MC),
    SaraikiTask("math", "math", TaskKind.MATH, 8, GenerationDefaults(max_new_tokens=256)),
    SaraikiTask(
        "instruction_following", "instruction_following", TaskKind.INSTRUCTION_FOLLOWING, 0,
        GenerationDefaults(max_new_tokens=1024),
    ),
    SaraikiTask(
        "truthfulness", "truthfulness_safety", TaskKind.MULTIPLE_CHOICE, 0, _MC, item_type="truthful_mc"
    ),
    SaraikiTask(
        "safety", "truthfulness_safety", TaskKind.SAFETY, 0, GenerationDefaults(max_new_tokens=512),
        item_type="safety",
    ),
)
TASKS_BY_NAME: dict[str, SaraikiTask] = {task.name: task for task in TASKS}
CONFIGS: tuple[str, ...] = tuple(dict.fromkeys(task.config for task in TASKS))
"""The dataset's seven configs, in the script's order."""
