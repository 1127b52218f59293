"""The app over HTTP: a hundred viewers at once all get the board and a judgments view; bad run ids are named."""

from __future__ import annotations

from typing import Iterator

import httpx
import pytest

from eval_backend.benchmarks.writing_bench.plugin import INDIC_WRITING_BENCH
from eval_backend.run_folder import recorded_items
from tests.support.app_server import AppServer, running_app
from tests.support.run_folders import EvaluatedData
from tests.support.viewer_load import call_endpoint, simulate_viewers

VIEWERS = 100


@pytest.fixture(scope="module")
def app(evaluated: EvaluatedData, tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    root = tmp_path_factory.mktemp("viewers")
    with running_app(evaluated.data_dir, root / "app.log") as server:
        yield server


def test_a_hundred_simultaneous_viewers_all_get_the_board_and_the_judgments(
    app: AppServer, evaluated: EvaluatedData
) -> None:
    folder = evaluated.folders["acme/strong-7b"]
    run_id = folder.path.relative_to(evaluated.runs_dir).as_posix()
    results = simulate_viewers(app.url, VIEWERS, run_id, timeout_s=120)
    assert [r.error for r in results if r.error] == []
    assert {r.board_rows for r in results} == {len(evaluated.ranked_models())}  # the ranked table
    assert {r.rows_in_page for r in results} == {len(evaluated.ranked_models())}  # already in the page
    assert {r.judgment_rows for r in results} == {len(recorded_items(INDIC_WRITING_BENCH, folder))}


@pytest.mark.parametrize("run_id", ["nobody__nothing/main", "../../etc/passwd"])
def test_an_api_client_naming_an_unknown_run_is_told_so(app: AppServer, run_id: str) -> None:
    with httpx.Client(base_url=app.url.rstrip("/"), timeout=60) as client:
        with pytest.raises(ValueError, match=r"No evaluated run .*choose one from the list"):
            call_endpoint(client, "judgments", [run_id])
