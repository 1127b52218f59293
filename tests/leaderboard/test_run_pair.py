"""Two runs compared on every benchmark both have: the very figures `compare --json` prints, per subset too."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pandas as pd
import pytest

from eval_backend.benchmarks.qa.plugin import INDIC_QA
from eval_backend.benchmarks.registry import BENCHMARKS, DEFAULT_BENCHMARK
from eval_backend.cli import main
from eval_backend.run_comparison import compare_runs
from eval_backend.run_folder import RunFolder
from eval_backend.run_items import read_run_items
from leaderboard.comparison_tables import (
    comparison_records,
    comparison_table,
    format_difference,
    format_interval,
    format_p,
)
from leaderboard.results import ResultsStore
from leaderboard.run_pair import compare_filtered, compare_pair
from leaderboard.tabs.compare_tab import comparison_downloads
from tests.support.qa_runs import QA_PROFILES, build_qa_runs
from tests.support.run_folders import DEFAULT_PROFILES, build_evaluated_data

STRONG, REASONER, WEAK = "acme__strong-7b/main", "acme__reasoner-3b/main", "acme__weak-1b/main"
FAMILY = ("adjusted_p_value", "family_size", "verdict", "where")
"""What depends on the rows compared together: the board's table adjusts over its subset rows too, the CLI over
what it prints."""


def figures(record: dict) -> dict:
    """A record without what depends on its family."""
    return {key: value for key, value in record.items() if key not in FAMILY}


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> dict[str, ResultsStore]:
    """Indic WritingBench runs of strong and reasoner; QA runs of those two and of weak (QA only)."""
    root = tmp_path_factory.mktemp("run-pair")
    build_evaluated_data(root, DEFAULT_PROFILES[:2])
    build_qa_runs(root, QA_PROFILES[:3])
    runs = root / "data" / "runs"
    return {name: ResultsStore(runs / name) for name in (DEFAULT_BENCHMARK, INDIC_QA.name)}


def cli_json(capsys: pytest.CaptureFixture, a: RunFolder, b: RunFolder, *options: str) -> dict:
    assert main(["compare", str(a.path), str(b.path), *options, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def folder(stores: dict[str, ResultsStore], benchmark: str, run_id: str) -> RunFolder:
    return stores[benchmark].run(run_id).folder


def test_every_benchmark_both_ran_carries_the_cli_s_figures(stores, capsys) -> None:
    result = compare_pair(stores, STRONG, REASONER)
    assert [comparison.benchmark for comparison in result.compared] == [DEFAULT_BENCHMARK, INDIC_QA.name]
    assert result.skipped == ()
    for comparison in result.compared:
        a, b = (folder(stores, comparison.benchmark, run_id) for run_id in (STRONG, REASONER))
        records = comparison_records(comparison)
        overall = [figures(record) for record in records if record["where"] is None]
        assert overall == [figures(row) for row in cli_json(capsys, a, b)["comparisons"]]
        tested = [record for record in records if record["p_value"] is not None]  # rows on too few clusters are not
        assert {record["family_size"] for record in records} == {len(tested)}
        subsets = {pair for record in records if record["where"] for pair in record["where"].items()}
        assert subsets  # WritingBench's variants and domains, QA's domains
        for column, value in sorted(subsets):
            on_subset = [figures(record) for record in records if record["where"] == {column: value}]
            expected = [figures(row) for row in cli_json(capsys, a, b, "--where", f"{column}={value}")["comparisons"]
                        if row["scope"] == "all"]
            assert on_subset == expected


def test_a_benchmark_only_one_model_ran_is_named_and_the_others_still_compared(stores) -> None:
    result = compare_pair(stores, STRONG, WEAK)
    assert [comparison.benchmark for comparison in result.compared] == [INDIC_QA.name]
    assert result.skipped == (f"{BENCHMARKS[DEFAULT_BENCHMARK].title}: only A has a run",)
    assert compare_pair(stores, "nobody__nothing/main", "acme__nobody/main").compared == ()


def test_the_item_browser_s_comparison_compares_only_the_items_listed(stores) -> None:
    store = stores[DEFAULT_BENCHMARK]
    details = store.details(STRONG)
    listed = details[(details["variant"] == "native") & (details["item_score"] >= 5.0)]
    keys = list(zip(listed["config"], listed["index"].astype(int)))
    results = compare_filtered(store, STRONG, REASONER, keys)
    a, b = (read_run_items(folder(stores, DEFAULT_BENCHMARK, run_id)) for run_id in (STRONG, REASONER))
    expected = compare_runs(a, b, per_config=False, items=keys)
    assert [result.comparison for result in results] == [result.comparison for result in expected]
    overall = next(result.comparison for result in results if result.figure.name == "overall")
    assert 0 < overall.n_items == len(listed) < len(details)


def test_the_same_runs_are_compared_once_and_again_when_one_is_rewritten(stores) -> None:
    first = compare_pair(stores, STRONG, REASONER)
    assert compare_pair(stores, STRONG, REASONER).compared[0] is first.compared[0]
    details = folder(stores, DEFAULT_BENCHMARK, STRONG).details_path
    stamp = details.stat().st_mtime_ns
    os.utime(details, ns=(stamp, stamp + 1_000_000))  # as a re-scoring rewrites it
    again = compare_pair(stores, STRONG, REASONER)
    assert again.compared[0] is not first.compared[0]
    assert comparison_records(again.compared[0]) == comparison_records(first.compared[0])


def test_the_cli_the_board_s_table_and_both_downloads_hold_the_same_figures(stores, capsys, tmp_path) -> None:
    for comparison in compare_pair(stores, STRONG, REASONER).compared:
        a, b = (folder(stores, comparison.benchmark, run_id) for run_id in (STRONG, REASONER))
        json_path, csv_path = comparison_downloads(tmp_path, comparison)
        downloaded = json.loads(Path(json_path).read_text(encoding="utf-8"))
        cli = cli_json(capsys, a, b)
        assert {key: value for key, value in downloaded.items() if key not in ("subsets", "comparisons")} == \
            {key: value for key, value in cli.items() if key != "comparisons"}
        assert [figures(row) for row in downloaded["comparisons"]] == [figures(row) for row in cli["comparisons"]]
        for row in downloaded["subsets"]:
            (column, value), = row["where"].items()
            on_subset = cli_json(capsys, a, b, "--where", f"{column}={value}")["comparisons"]
            assert figures(row) in [figures(cli_row) for cli_row in on_subset]
        # The board's table is those figures formatted; the CSV holds them unrounded, row for row.
        shown = comparison_table(comparison)
        table = pd.read_csv(csv_path, encoding="utf-8-sig")
        records = downloaded["comparisons"] + downloaded["subsets"]
        assert len(shown) == len(table) == len(records)
        for (_, on_screen), (_, in_csv), record in zip(shown.iterrows(), table.iterrows(), records):
            assert on_screen["A − B"] == format_difference(record["difference"])
            assert on_screen["95 % interval"] == format_interval(record)
            assert on_screen["p-value"] == format_p(record["p_value"])
            assert on_screen["Holm p-value"] == format_p(record["adjusted_p_value"])
            assert in_csv["Verdict"] == record["verdict"] and on_screen["Verdict"].startswith(record["verdict"])
            assert on_screen["Won / tied / lost"] == f"{record['wins']} / {record['ties']} / {record['losses']}"
            nan = float("nan")
            expected = tuple(nan if record[key] is None else record[key] for key in ("ci_low", "ci_high", "p_value"))
            assert (in_csv["A − B"], in_csv["95 % low"], in_csv["95 % high"], in_csv["p-value"]) == pytest.approx(
                (record["difference"], *expected), rel=1e-15, nan_ok=True)
            assert (in_csv["Won"], in_csv["Tied"], in_csv["Lost"], in_csv["Items compared"], in_csv["Clusters"]) == (
                record["wins"], record["ties"], record["losses"], record["n_items"], record["n_clusters"])
            assert (in_csv["Figure"], in_csv["Language"]) == (on_screen["Figure"], on_screen["Language"])
