"""details.parquet rows: what a reader of one item sees, including an item the model did not answer."""

from __future__ import annotations

from pathlib import Path

from eval_backend.benchmarks.registry import BENCHMARKS
from eval_backend.benchmarks.writing_bench.plugin import FLOOR_SCORE
from eval_backend.benchmarks.writing_bench.records import ItemMeta
from eval_backend.details import read_details, write_details
from eval_backend.item_status import NO_RESPONSE, PENDING
from eval_backend.records import ResponseRecord
from eval_backend.scorer_runs import details_frame, scored_items

BENCHMARK = BENCHMARKS["indic_writing_bench"]
CHECKLIST = tuple({"name": f"criterion {n}"} for n in range(5))


def test_an_unanswered_item_shows_the_floor_and_why_and_a_missing_one_is_pending(tmp_path: Path) -> None:
    items = [ItemMeta("Hindi", n, f"Hindi-{n}", "Hindi", "native", "d", "s", "p", CHECKLIST) for n in range(2)]
    unfit = "prompt of 9000 tokens does not fit the context of 8192"
    responses = {items[0].key: ResponseRecord("Hindi", 0, None, error=unfit)}
    results = scored_items(BENCHMARK, items, responses, [], "judge")
    write_details(details_frame(BENCHMARK, results, {"model": "org/m"}), tmp_path / "details.parquet")
    rows = read_details(tmp_path / "details.parquet").set_index("index")
    unanswered = rows.loc[0]
    assert unanswered["status"] == NO_RESPONSE and unanswered["item_score"] == FLOOR_SCORE
    assert [unanswered[f"score_{n}"] for n in range(1, 6)] == [FLOOR_SCORE] * 5
    assert unanswered["reason_1"].startswith("no_response: prompt of 9000 tokens")
    assert unanswered["criterion_3"] == "criterion 2" and unanswered["response_error_kind"] == "model"
    assert rows.loc[1, "status"] == PENDING and rows.loc[1, "score_1"] != rows.loc[1, "score_1"]  # NaN: not scored
