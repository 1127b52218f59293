"""A board to read at a phone's width: many 100-character ids that differ only at their end, rows with two and
three flags, and two-digit rank ranges.

Indic WritingBench runs evaluated by the real engine (`run_folders`): SIBLINGS runs of one model family whose
ids share their first 96 characters and end in `-v01`, `-v02`, … (what tells them apart is the suffix), of
close quality, so their rank ranges overlap and reach two digits. Two of them carry flags together and rank
last: TWO_FLAGS_ID is cut off in thinking and judged by another judge; THREE_FLAGS_ID is that too and ran on
an older dataset revision (its request.json records the older pin, as a run made before the dataset changed
does). Every other run records the newest pin.
"""

from __future__ import annotations

from pathlib import Path

from tests.support.run_folders import EvaluatedData, ModelProfile, build_evaluated_data

__all__ = ["SIBLING_IDS", "THREE_FLAGS_ID", "TWO_FLAGS_ID", "build_reading_data"]

ID_CHARS = 100
SIBLINGS = 13
FAMILY = "indic-nlp-research-collective/sarvam-hindi-tamil-bengali-longform-writer-instruct-merged-"
SIBLING_IDS = tuple(FAMILY.ljust(ID_CHARS - 4, "x") + f"-v{number:02d}" for number in range(1, SIBLINGS + 1))
TWO_FLAGS_ID, THREE_FLAGS_ID = SIBLING_IDS[-2], SIBLING_IDS[-1]
NEW_PIN = {"dataset_revision": "d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3", "dataset_resolved_at": "2026-12-01T00:00:00Z"}
OLD_PIN = {"dataset_revision": "0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b", "dataset_resolved_at": "2026-10-01T00:00:00Z"}


def _profile(number: int, model_id: str) -> ModelProfile:
    """Quality 7 or 8, each sibling worse on another variant and language by a little: close scores whose
    intervals overlap; the flagged runs a little worse (quality 6), last, where a column sized by its first
    rows has no badge to be measured."""
    languages = ("Hindi", "Tamil", "Bengali")
    flagged = model_id in (TWO_FLAGS_ID, THREE_FLAGS_ID)
    return ModelProfile(model_id, 6 if flagged else 7 + number % 2,
                        variant_penalty={"romanized": 1 + number % 3, "code_mixed": number % 2},
                        config_penalty={languages[number % 3]: number % 4},
                        cut_off_every=2 if flagged else 0, judge_model="another-judge-model" if flagged else "")


def build_reading_data(root: Path) -> EvaluatedData:
    """Every sibling's run in `root/data/runs/indic_writing_bench`, each request.json pinned to a dataset revision."""
    data = build_evaluated_data(Path(root), [_profile(number, model) for number, model in enumerate(SIBLING_IDS)])
    for model, folder in data.folders.items():
        request = folder.read_request()
        folder.write_request({**request, **(OLD_PIN if model == THREE_FLAGS_ID else NEW_PIN)})
    return data
