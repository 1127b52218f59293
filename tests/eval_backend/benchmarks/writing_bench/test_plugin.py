"""The judge prompts are the seed's, byte for byte, and dataset rows are checked before use."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from eval_backend.benchmarks.item_validation import ItemValidationError
from eval_backend.benchmarks.writing_bench.items import record_to_item
from eval_backend.benchmarks.writing_bench.judge import (
    SCORING_PROMPT,
    SYSTEM_PROMPT,
    judge_messages,
    judged_text,
    render_scoring_prompt,
)
from eval_backend.benchmarks.writing_bench.records import Item
from tests.support.hub_dataset import make_rows

SEED = Path(__file__).resolve().parents[5] / "shared" / "seeds" / "000_ac413361ddb95667.txt"
SEED_PROMPT_FIRST_LINE = "Evaluate the Response based on the Query and Criteria provided following the Scoring Rules."
SEED_PROMPT_END_MARKER = "\n\nHere {criteria} is the JSON of a single checklist entry"


def seed_text() -> str:
    if not SEED.is_file():
        # A fresh clone has no shared/ beside it: the seed comparison needs that file, nothing else does.
        pytest.skip(f"the benchmark seed {SEED} is absent (shared/ beside the checkout); the byte-for-byte check needs it")
    return SEED.read_text(encoding="utf-8")


def test_scoring_prompt_is_the_seed_text_exactly() -> None:
    text = seed_text()
    start = text.index(SEED_PROMPT_FIRST_LINE)
    end = text.index(SEED_PROMPT_END_MARKER)
    assert SCORING_PROMPT == text[start:end]


def test_system_prompt_is_the_seed_text_exactly() -> None:
    assert f"\n{SYSTEM_PROMPT}\n" in seed_text()


def test_criterion_json_is_injected_twice_in_dataset_order_without_ascii_escapes() -> None:
    criterion = {"name": "स्पष्टता", "criteria_description": "साफ़ लिखें", "1-2": "a", "3-4": "b",
                 "5-6": "c", "7-8": "d", "9-10": "e"}
    prompt = render_scoring_prompt(criterion, "query", "response")
    dumped = json.dumps(criterion, ensure_ascii=False)
    assert dumped.startswith('{"name": "स्पष्टता", "criteria_description"')
    assert prompt.count(f"```{dumped}```") == 2


def test_query_and_response_are_inserted_verbatim_and_never_substituted_again() -> None:
    query = "लिखिए {response} and {criteria} literally\n  with spaces  "
    prompt = render_scoring_prompt({"name": "n"}, query, "the {query} answer")
    assert f"** Query **\n```{query}```" in prompt
    assert "** Response **\n```the {query} answer```" in prompt


def test_judge_messages_are_the_system_prompt_and_the_scoring_prompt(items: list[Item]) -> None:
    item = items[0]
    messages = judge_messages(item, 2, "answer")
    assert messages == [
        {"role": "system", "content": SYSTEM_PROMPT},
        {"role": "user", "content": render_scoring_prompt(item.checklist[2], item.query, "answer")},
    ]


@pytest.mark.parametrize(
    ("raw", "judged"),
    [
        ("<think>plan</think>\n\nThe essay.", "The essay."),
        ("no reasoning here", "no reasoning here"),
        ("<think>a</think>\n\nfirst</think>\n\nsecond", "first</think>\n\nsecond"),
        ("<think>never closed", "<think>never closed"),
        ("<think>x</think>no blank line", "<think>x</think>no blank line"),
    ],
)
def test_judged_text_drops_everything_up_to_the_first_think_marker(raw: str, judged: str) -> None:
    assert judged_text(raw) == judged


def good_row() -> dict:
    return make_rows("Hindi", 1)[0]


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda row: row.pop("query"), r"config 'Hindi', index 0: field 'query'"),
        (lambda row: row.update(variant="latin"), r"index 0: field 'variant' is 'latin'"),
        (lambda row: row.update(checklist=row["checklist"][:4]), r"field 'checklist' must hold 5 criteria \(got 4\)"),
        (lambda row: row["checklist"][3].pop("7-8"), r"field 'checklist\[3\].7-8' is missing"),
        (lambda row: row["checklist"][0].update(name=""), r"field 'checklist\[0\].name' is missing"),
        (lambda row: row.update(index="3"), r"config 'Hindi': a row has no integer 'index'"),
    ],
)
def test_a_bad_row_is_refused_naming_config_index_and_field(edit, message: str) -> None:
    row = good_row()
    edit(row)
    with pytest.raises(ItemValidationError, match=message):
        record_to_item("Hindi", row)


def test_a_good_row_keeps_the_checklist_in_dataset_order() -> None:
    item = record_to_item("Hindi", good_row())
    assert list(item.checklist[0]) == ["name", "criteria_description", "1-2", "3-4", "5-6", "7-8", "9-10"]
    assert item.key == ("Hindi", 0)
