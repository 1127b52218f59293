"""The registry of benchmarks: each one a plug-in with its own items, prompt, decoding, scorers and metrics."""

from __future__ import annotations

import pytest

from eval_backend.benchmarks.item_validation import ItemValidationError
from eval_backend.benchmarks.plugin import Benchmark
from eval_backend.benchmarks.prompting import Prompt
from eval_backend.benchmarks.qa.items import QaItem, item_from_meta, record_to_item
from eval_backend.benchmarks.qa.plugin import INDIC_QA
from eval_backend.benchmarks.registry import BENCHMARKS, DEFAULT_BENCHMARK
from eval_backend.benchmarks.writing_bench.plugin import INDIC_WRITING_BENCH
from eval_backend.records import to_json_dict


def test_the_registry_holds_one_record_shape_and_writing_bench_stays_the_default() -> None:
    assert DEFAULT_BENCHMARK == "indic_writing_bench" and BENCHMARKS[DEFAULT_BENCHMARK] is INDIC_WRITING_BENCH
    assert BENCHMARKS["indic_qa"] is INDIC_QA
    assert all(isinstance(benchmark, Benchmark) for benchmark in BENCHMARKS.values())
    for name, benchmark in BENCHMARKS.items():
        assert benchmark.name == name and "__" not in name  # never mistaken for a model's run folder
        assert benchmark.headline_metric().name == benchmark.headline


def test_each_benchmark_declares_its_decoding() -> None:
    assert INDIC_WRITING_BENCH.sampling.temperature == 0.7 and not INDIC_WRITING_BENCH.sampling.greedy
    assert INDIC_QA.sampling.greedy and INDIC_QA.sampling.stop == ()


def test_metrics_say_their_unit_and_direction() -> None:
    metrics = {metric.name: metric for metric in INDIC_QA.metrics}
    assert (metrics["judge"].unit, metrics["judge"].higher_is_better) == ("%", True)
    assert metrics["blank_responses"].higher_is_better is False
    assert INDIC_WRITING_BENCH.headline_metric().unit == "score 1–10"


def test_a_qa_row_becomes_an_item_indexed_by_its_position_with_the_answer_unstripped() -> None:
    item = record_to_item("hindi", {"index": 3, "question": "राजधानी?", "answer": "दिल्ली ", "Domain": "History"})
    assert item == QaItem("hindi", 3, "hindi-3", "राजधानी?", "दिल्ली ", "History")
    assert INDIC_QA.prompt(item) == Prompt.user("राजधानी?")
    assert item_from_meta(to_json_dict(item.meta())) == item


def test_an_empty_answer_cell_is_an_empty_golden_answer() -> None:
    item = record_to_item("english", {"index": 0, "question": "Q?", "answer": None, "Domain": "Art"})
    assert item.answer == ""


@pytest.mark.parametrize(("row", "field"), [
    ({"index": 2, "question": "  ", "answer": "a", "Domain": "d"}, "question"),
    ({"index": 2, "question": "Q?", "answer": ["a"], "Domain": "d"}, "answer"),
])
def test_a_bad_row_is_refused_naming_config_row_and_field(row, field) -> None:
    with pytest.raises(ItemValidationError, match=rf"config 'tamil', row 2: field '{field}'"):
        record_to_item("tamil", row)


def test_a_prompt_is_chat_or_raw_never_both() -> None:
    assert Prompt.raw("Q: 2+2\nA:").is_chat is False
    assert Prompt.user("hi").chat_messages() == [{"role": "user", "content": "hi"}]
    with pytest.raises(ValueError, match="exactly one"):
        Prompt(messages=({"role": "user", "content": "hi"},), text="hi")


def test_only_benchmarks_with_a_dataset_are_offered_and_qa_needs_its_setting(tmp_path) -> None:
    from eval_backend.dataset_loader import DatasetLoadError, benchmark_dataset, configured_benchmarks
    from eval_backend.settings import DataSettings

    bare = DataSettings(data_dir=tmp_path)
    assert "indic_qa" not in configured_benchmarks(bare) and DEFAULT_BENCHMARK in configured_benchmarks(bare)
    with pytest.raises(DatasetLoadError, match="set QA_DATASET"):
        benchmark_dataset(INDIC_QA, bare)
    configured = DataSettings(data_dir=tmp_path, qa_dataset="org/qa", qa_dataset_revision="v1")
    assert "indic_qa" in configured_benchmarks(configured)
    spec = benchmark_dataset(INDIC_QA, configured)
    assert (spec.path, spec.revision) == ("org/qa", "v1")
    assert benchmark_dataset(INDIC_QA, configured, "local/folder").path == "local/folder"
    assert benchmark_dataset(INDIC_WRITING_BENCH, bare).path == INDIC_WRITING_BENCH.default_dataset
