"""The whole board as one table: every run of all three benchmarks as the board ranks it, written as the app's
download and mirrored to the results repo, where a user loads it with `datasets` from the stand-in Hub."""

from __future__ import annotations

import io
import json
import shutil
import time
import urllib.request
from pathlib import Path
from typing import Callable, Iterator

import huggingface_hub.constants
import pandas as pd
import pytest
from datasets import load_dataset

from eval_backend.benchmarks.registry import BENCHMARKS
from eval_backend.hub_sync.dataset_card import BOARD_PATH
from eval_backend.settings import DataSettings, HubSettings, Settings
from leaderboard.app_factory import benchmark_stores
from leaderboard.benchmark_ranks import RANK_FRAME_COLUMNS, board_ranks
from leaderboard.board_file import BoardFile
from leaderboard.board_table import LEAD_COLUMNS, board_table
from leaderboard.context import AppContext
from tests.support.app_server import assert_no_traceback, running_app
from tests.support.built_once import built_once
from tests.support.hub_repo_server import StandInHubRepos, point_clients_at
from tests.support.whole_board import PARTIAL_QA, WholeBoard, build_whole_board

TOKEN = "hf_stand_in_board_secret_5e7d"
RESULTS_REPO = "board/results"
SHOWN = ["run_id", "model", "revision", "headline", "ci_low", "ci_high", "rank", "rank_best", "rank_worst",
         "standing", "standing_note", "flags"]
"""What the board shows of a run: its ids, headline, interval, rank range, standing and flags."""


@pytest.fixture(scope="module")
def whole(tmp_path_factory: pytest.TempPathFactory) -> WholeBoard:
    return built_once(tmp_path_factory, "whole-board-3-benchmarks", build_whole_board)


@pytest.fixture
def hub(monkeypatch: pytest.MonkeyPatch) -> Iterator[StandInHubRepos]:
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", False)
    with StandInHubRepos() as server:
        yield server


def context_of(data_dir: Path, downloads: Path, hub: HubSettings | None = None) -> AppContext:
    settings = Settings(data=DataSettings(data_dir=data_dir), hub=hub or HubSettings())
    stores = benchmark_stores(settings)
    return AppContext(settings, downloads, None, None, stores)


def on_screen(context: AppContext) -> pd.DataFrame:
    """Every benchmark's ranking frame as the board draws it, one after another."""
    frames = [board_ranks(context, name).assign(benchmark=name) for name in BENCHMARKS]
    return pd.concat(frames, ignore_index=True)[["benchmark", *SHOWN]]


def summary(whole: WholeBoard, run: pd.Series) -> dict:
    return json.loads((whole.data_dir / "runs" / run["benchmark"] / run["run_id"] / "summary.json").read_text())


def test_every_run_of_every_benchmark_is_a_row_as_the_board_ranks_it(whole: WholeBoard, tmp_path: Path) -> None:
    context = context_of(whole.data_dir, tmp_path)
    table = board_table(context)

    assert list(table.columns[: len(LEAD_COLUMNS)]) == LEAD_COLUMNS
    assert set(RANK_FRAME_COLUMNS) <= set(table.columns)
    pd.testing.assert_frame_equal(table[["benchmark", *SHOWN]], on_screen(context), check_dtype=False)
    assert set(table["benchmark"]) == set(BENCHMARKS) and len(table) == 13
    assert set(whole.long_ids) <= set(table["model"]) and all(len(model) == 100 for model in whole.long_ids)
    standings = dict(zip(table["model"] + "@" + table["benchmark"], table["standing"]))
    assert standings[f"{PARTIAL_QA}@indic_qa"] == "incomplete"
    assert standings["bharat/partial-1b@indic_writing_bench"] == "partial"  # an old run, frozen before coverage


def test_a_board_with_no_runs_is_a_file_of_headers_only(tmp_path: Path) -> None:
    context = context_of(tmp_path / "empty-data", tmp_path / "downloads")
    written = pd.read_parquet(BoardFile(context.settings).current(context))
    assert list(written.columns) == LEAD_COLUMNS and written.empty


def test_each_rows_figures_are_its_summarys(whole: WholeBoard, tmp_path: Path) -> None:
    table = board_table(context_of(whole.data_dir, tmp_path)).set_index("model", drop=False)
    writing = table[table["benchmark"] == "indic_writing_bench"].loc[whole.long_ids[0]]
    assert writing["language.Hindi"] == summary(whole, writing)["configs"]["Hindi"]
    assert writing["variant.romanized"] == summary(whole, writing)["variants"]["romanized"]
    qa = table[table["benchmark"] == "indic_qa"].loc[whole.long_ids[2]]
    assert qa["language.hindi.judge"] == summary(whole, qa)["by_language"]["hindi"]["metrics"]["judge"]
    assert qa["metric.judge.ci_low"] == summary(whole, qa)["intervals"]["judge"][0]
    saraiki = table[table["benchmark"] == "saraiki"].loc[whole.long_ids[3]]
    assert saraiki["task.math.accuracy"] == summary(whole, saraiki)["tasks"]["math"]["accuracy"]
    assert saraiki["coverage.expected"] == summary(whole, saraiki)["coverage"]["expected"]
    assert saraiki["evaluated_at"] == summary(whole, saraiki)["provenance"]["created_at"]
    assert saraiki["judge"] == summary(whole, saraiki)["provenance"]["judge_model"]


def test_the_download_is_written_once_per_content_and_the_hub_holds_the_same_board(
        whole: WholeBoard, hub: StandInHubRepos, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    hub_settings = HubSettings(hf_token=TOKEN, hf_endpoint=hub.url, results_repo=RESULTS_REPO)
    context = context_of(whole.data_dir, tmp_path / "downloads", hub_settings)
    board = BoardFile(context.settings)

    path = board.current(context)
    assert board.last_push is not None and board.last_push.result(timeout=60)
    first_push = board.last_push
    assert board.current(context) == path and board.last_push is first_push  # same results: nothing new handed
    assert path.stat().st_mtime_ns == board.current(context).stat().st_mtime_ns
    assert hub.dataset_files(RESULTS_REPO)[BOARD_PATH] == path.read_bytes()
    assert TOKEN.encode() not in path.read_bytes()

    point_clients_at(hub, monkeypatch)
    loaded = load_dataset(RESULTS_REPO, "board", split="train", cache_dir=str(tmp_path / "cache")).to_pandas()
    pd.testing.assert_frame_equal(loaded[["benchmark", *SHOWN]], on_screen(context), check_dtype=False)
    pd.testing.assert_frame_equal(loaded, pd.read_parquet(path), check_dtype=False)


def test_new_results_make_a_new_board_and_a_new_push(whole: WholeBoard, hub: StandInHubRepos, tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    shutil.copytree(whole.data_dir, data_dir)
    hub_settings = HubSettings(hf_token=TOKEN, hf_endpoint=hub.url, results_repo=RESULTS_REPO)
    context = context_of(data_dir, tmp_path / "downloads", hub_settings)
    board = BoardFile(context.settings)
    before = board.current(context)
    assert board.last_push is not None and board.last_push.result(timeout=60)

    shutil.rmtree(data_dir / "runs" / "saraiki" / "acme__base-_b_1b___b_")  # a run withdrawn
    context = context_of(data_dir, tmp_path / "downloads", hub_settings)
    after = board.current(context)
    assert after != before and board.last_push.result(timeout=60)
    assert "acme/base-<b>1b</b>" not in set(pd.read_parquet(after)["model"])
    assert hub.dataset_files(RESULTS_REPO)[BOARD_PATH] == after.read_bytes()


def test_the_app_serves_the_board_it_pushed(whole: WholeBoard, hub: StandInHubRepos, tmp_path: Path) -> None:
    """`app.py` with the mirror on: its first view writes the board once, its page's download button serves it,
    and the results repo gets the same bytes; its log holds no token."""
    data_dir = Path(shutil.copytree(whole.data_dir, tmp_path / "data"))
    log = tmp_path / "app.log"
    with running_app(data_dir, log, HF_TOKEN=TOKEN, HF_ENDPOINT=hub.url, RESULTS_REPO=RESULTS_REPO,
                     HF_HUB_OFFLINE="0") as server:
        button = page_component(server.url, "board-download")
        served = urllib.request.urlopen(button["value"]["url"], timeout=30).read()
        pushed = wait_for(lambda: hub.dataset_files(RESULTS_REPO).get(BOARD_PATH)
                          if ("dataset", RESULTS_REPO) in hub.repos else None)
        context = context_of(data_dir, tmp_path / "downloads")
        pd.testing.assert_frame_equal(pd.read_parquet(io.BytesIO(served))[["benchmark", *SHOWN]], on_screen(context),
                                      check_dtype=False)
    assert served == pushed
    assert TOKEN not in log.read_text()
    assert_no_traceback(log)


def page_component(url: str, elem_id: str) -> dict:
    """The props of the page's component `elem_id`, as the prerendered page carries them."""
    html = urllib.request.urlopen(url, timeout=30).read().decode()
    marker = "window.gradio_config = "
    config, _ = json.JSONDecoder().raw_decode(html, html.index(marker) + len(marker))
    return next(component["props"] for component in config["components"]
                if component.get("props", {}).get("elem_id") == elem_id)


def wait_for(read: Callable[[], bytes | None], timeout_s: float = 60.0) -> bytes:
    """What `read` returns once it returns something (the app pushes on a thread of its own)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        found = read()
        if found:
            return found
        time.sleep(0.1)
    pytest.fail(f"nothing came within {timeout_s} s")
