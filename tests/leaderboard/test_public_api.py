"""The documented API, driven with `gradio_client` as an outside program would: from what `view_api()` says,
against `app.py` serving real run folders; the answers are checked against summary.json and details.parquet.
Bad input, sent as an attacker would, gets a clear message naming the input, bounded, and no traceback."""

from __future__ import annotations

import json
import math
import shutil
from typing import Any, Iterator

import httpx
import pandas as pd
import pytest
from gradio_client import Client

from eval_backend.details import read_details
from leaderboard.app_factory import DOCUMENTED_ENDPOINTS
from leaderboard.endpoint_inputs import ECHO_CHARS
from eval_backend.benchmarks.qa.plugin import INDIC_QA
from leaderboard.results import ResultsStore
from leaderboard.scored_tables import ranking_frame
from tests.support.app_server import AppServer, running_app
from tests.support.qa_runs import QA_PROFILES, QaProfile, build_qa_runs
from tests.support.run_folders import EvaluatedData
from tests.support.viewer_load import call_endpoint, endpoint_inputs, page_config

LEADERBOARD_PARAMETERS = ["search", "languages", "variants", "sort", "min_params_b", "max_params_b", "model_type",
                          "ranked_only", "licenses", "open_weights_only", "hide_flags", "benchmark"]
LONG_QA_ID = "indic-qa-research-collective/" + "a-very-long-descriptive-model-name-for-shahmukhi-qa-".ljust(71, "q")
assert len(LONG_QA_ID) == 100
LICENSES = 11
"""The License filter's place among WritingBench's rankings event's inputs (`ranking_controls.RankingControls.inputs`:
search, flags, three "rank on" boxes, column groups, sort, two sizes, type, ranked only, licenses)."""


@pytest.fixture(scope="module")
def app(evaluated: EvaluatedData, tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    root = tmp_path_factory.mktemp("public-api")
    shutil.copytree(evaluated.data_dir, root / "data")
    build_qa_runs(root, (*QA_PROFILES[:2], QaProfile(LONG_QA_ID, lambda question, golden: golden)))
    with running_app(root / "data", root / "app.log") as server:
        yield server


@pytest.fixture(scope="module")
def client(app: AppServer) -> Client:
    return Client(app.url, verbose=False)


@pytest.fixture(scope="module")
def api(client: Client) -> dict[str, Any]:
    return client.view_api(return_format="dict", print_info=False)["named_endpoints"]


def log_of(app: AppServer) -> str:
    return (app.data_dir.parent / "app.log").read_text()


def test_view_api_names_every_parameter_and_describes_records(api: dict[str, Any]) -> None:
    assert sorted(api) == sorted(f"/{name}" for name in DOCUMENTED_ENDPOINTS)
    board = api["/leaderboard"]
    assert [p["parameter_name"] for p in board["parameters"]] == LEADERBOARD_PARAMETERS
    assert all(p["parameter_has_default"] for p in board["parameters"])  # a bare call is the standard board
    [returned] = board["returns"]
    assert returned["python_type"]["type"].startswith("dict(runs: list[dict(str, Any)]")
    languages = next(p for p in board["parameters"] if p["parameter_name"] == "languages")
    assert languages["python_type"]["type"] == "None | list[str]"  # any benchmark's groups, checked against its own
    judgments = api["/judgments"]
    [run_id] = judgments["parameters"]  # the run alone: a raw call of one value, as documented before
    assert run_id["parameter_name"] == "run_id" and run_id["python_type"]["type"] == "str"
    assert judgments["returns"][0]["python_type"]["type"].startswith("dict(run_id: str")
    any_benchmark = api["/benchmark_judgments"]
    run_id, benchmark = any_benchmark["parameters"]
    assert run_id["parameter_name"] == "run_id" and run_id["python_type"]["type"] == "str"
    assert benchmark["parameter_name"] == "benchmark" and benchmark["parameter_has_default"]
    assert "Literal[]" not in str(any_benchmark)
    assert any_benchmark["returns"] == judgments["returns"]


def test_the_board_from_the_api_is_what_summary_json_says(client: Client, api: dict[str, Any],
                                                          evaluated: EvaluatedData) -> None:
    # Only what view_api() lists: every parameter has a default, so none is needed; ask for ranked runs.
    assert "ranked_only" in [p["parameter_name"] for p in api["/leaderboard"]["parameters"]]
    board = client.predict(ranked_only=True, api_name="/leaderboard")

    assert [run["model"] for run in board["runs"]] == evaluated.ranked_models()
    for position, run in enumerate(board["runs"], start=1):
        summary = evaluated.summary(run["model"])
        assert run["rank"] == position
        assert run["overall"] == pytest.approx(summary["overall"])
        assert [run["overall_ci_low"], run["overall_ci_high"]] == pytest.approx(summary["overall_ci"])
        assert run["indic"] == pytest.approx(summary["config_groups"]["indic"])
        for config, score in summary["configs"].items():
            assert run[f"language.{config}"] == pytest.approx(score), (run["model"], config)
    assert board["updated"]


def test_a_search_and_filters_by_name_narrow_the_board(client: Client, evaluated: EvaluatedData) -> None:
    everything = client.predict(api_name="/leaderboard")["runs"]
    strong = client.predict(search="STRONG", languages=["Hindi"], api_name="/leaderboard")["runs"]

    assert len(everything) == len(evaluated.folders)  # ranked and unranked, every run folder
    assert [run["model"] for run in strong] == ["acme/strong-7b"]
    assert all(math.isfinite(run["subset"]) for run in strong)


def test_any_benchmark_s_ranking_is_asked_by_name(client: Client, app: AppServer) -> None:
    runs = ResultsStore(app.data_dir / "runs" / INDIC_QA.name).snapshot().runs
    expected = ranking_frame(runs, INDIC_QA)
    board = client.predict(benchmark="indic_qa", api_name="/leaderboard")
    assert [run["model"] for run in board["runs"]] == list(expected["model"]) and LONG_QA_ID in expected["model"].values
    assert [run["judge"] for run in board["runs"]] == pytest.approx(list(expected["judge"]))
    assert [run["rank"] for run in board["runs"]] == list(expected["rank"])
    searched = client.predict(benchmark="indic_qa", search="COLLECTIVE", sort="model", api_name="/leaderboard")
    assert [run["model"] for run in searched["runs"]] == [LONG_QA_ID]
    with pytest.raises(Exception, match="variants: Indic QA's ranking cannot be restricted to those groups"):
        client.predict(benchmark="indic_qa", variants=["native"], api_name="/leaderboard")
    with pytest.raises(Exception, match="benchmark must be one of"):
        client.predict(benchmark="no_such_benchmark", api_name="/leaderboard")
    default = client.predict(api_name="/leaderboard")["runs"]
    assert "indic" in default[0] and "language.Hindi" in default[0]  # WritingBench's board, as before
    on_hindi = client.predict(benchmark="indic_qa", languages=["hindi"], api_name="/leaderboard")["runs"]
    assert "subset" in on_hindi[0]  # any benchmark ranked on its languages


def test_a_run_s_judgments_from_the_api_are_details_parquet_s(client: Client, evaluated: EvaluatedData) -> None:
    board = client.predict(api_name="/leaderboard")
    for run in board["runs"]:
        answer = client.predict(run_id=run["run_id"], api_name="/judgments")
        details = read_details(evaluated.folders[run["model"]].details_path)
        assert (answer["model"], answer["revision"]) == (run["model"], run["revision"])
        assert len(answer["items"]) == len(details)
        expected = {(row.config, int(row.index)): row.item_score for row in details.itertuples()}
        for item in answer["items"]:
            want = expected[(item["config"], item["index"])]
            assert item["item_score"] == (None if pd.isna(want) else pytest.approx(want))


def test_any_benchmark_s_judgments_are_asked_by_name(client: Client, app: AppServer) -> None:
    store = ResultsStore(app.data_dir / "runs" / INDIC_QA.name)
    run = next(run for run in store.snapshot().runs if run.model == LONG_QA_ID)
    details = store.details(run.run_id)
    answer = client.predict(run_id=run.run_id, benchmark="indic_qa", api_name="/benchmark_judgments")
    assert (answer["model"], answer["revision"]) == (LONG_QA_ID, run.revision)
    assert len(answer["items"]) == len(details) and list(answer["items"][0]) == list(details.columns)  # it declares none
    expected = {(row.config, int(row.index)): row.judge_correct for row in details.itertuples()}
    assert {(item["config"], item["index"]): item["judge_correct"] for item in answer["items"]} == expected
    with pytest.raises(Exception, match="No evaluated run"):  # the default is WritingBench's runs, as before
        client.predict(run_id=run.run_id, api_name="/judgments")
    with pytest.raises(Exception, match="No evaluated run"):
        client.predict(run_id=run.run_id, api_name="/benchmark_judgments")
    with pytest.raises(Exception, match="benchmark must be one of"):
        client.predict(run_id=run.run_id, benchmark="no_such_benchmark", api_name="/benchmark_judgments")


# -- bad input, as an attacker sends it -------------------------------------------------------------


BAD_BOARD_CALLS = {
    "33 licenses": ({"licenses": ["x"] * 33}, "licenses has 33 values; at most 32"),
    "a long license": ({"licenses": ["x" * 513]}, "each of licenses is 513 characters long; at most 512"),
    "a list for the search": ({"search": ["acme", "strong"]}, "search must be a text, not list"),
    "a dict for the sort": ({"sort": {"column": "rank"}}, "sort must be a text, not dict"),
    "an unknown language": ({"languages": ["Klingon"]}, "languages: 'Klingon' is not one of 'Bengali', 'Hindi'"),
    "a text for a size": ({"min_params_b": '"7"'}, "min_params_b must be a number, not str"),
    "an infinite size": ({"max_params_b": "1e309"}, "max_params_b must be a finite number"),
    "NaN for a size": ({"min_params_b": "NaN"}, "min_params_b must be a finite number"),
    "a number for a flag": ({"ranked_only": 2}, "ranked_only must be true or false"),
    "an unknown model type": ({"model_type": "robot"}, "model_type must be one of 'all'"),
}


@pytest.mark.parametrize("case", BAD_BOARD_CALLS)
def test_bad_input_to_the_board_api_is_refused_by_name(app: AppServer, case: str) -> None:
    kwargs, message = BAD_BOARD_CALLS[case]
    # The body as an attacker writes it: numbers JSON has no word for (NaN, 1e309) too.
    data = '{"data": [%s]}' % ", ".join(
        kwargs[name] if name in kwargs and "params_b" in name else json.dumps(kwargs.get(name))
        for name in LEADERBOARD_PARAMETERS)
    with httpx.Client(base_url=app.url, timeout=60) as http:
        with pytest.raises(ValueError) as refused:
            call_endpoint(http, "leaderboard", data)
        assert len(call_endpoint(http, "leaderboard", [None] * len(LEADERBOARD_PARAMETERS))[0]["runs"]) > 0
    assert message in str(refused.value)
    assert len(str(refused.value)) < 400  # the message quotes at most a bounded piece of the value
    assert "Traceback" not in log_of(app)


def test_the_page_s_own_board_event_checks_the_license_filter_before_any_work(app: AppServer) -> None:
    with httpx.Client(base_url=app.url, timeout=60) as http:
        inputs = endpoint_inputs(page_config(http.get("/").text), "leaderboard_view")
        inputs[LICENSES] = ",".join("x" * 50_000)  # one text where a list belongs (a bigger one is not read at all)
        with pytest.raises(ValueError, match="licenses must be a list of texts, not str"):
            call_endpoint(http, "leaderboard_view", inputs)
        inputs[LICENSES] = ["x"] * 33
        with pytest.raises(ValueError, match="licenses has 33 values; at most 32 are accepted"):
            call_endpoint(http, "leaderboard_view", inputs)
    assert "Traceback" not in log_of(app)


@pytest.mark.parametrize("run_id", [["acme__strong-7b", "main"], {"run": "x"}, 7, None, "y" * 100_000,
                                    "nobody__" + "z" * 400 + "/main"])
def test_a_bad_run_id_is_refused_with_a_bounded_message(client: Client, app: AppServer, run_id: Any) -> None:
    with pytest.raises(Exception) as refused:
        client.predict(run_id=run_id, api_name="/judgments")
    message = str(refused.value)
    assert "run_id" in message or "No evaluated run" in message
    assert len(message) < 4 * ECHO_CHARS + 200
    assert "y" * (ECHO_CHARS + 1) not in log_of(app) and "z" * (ECHO_CHARS + 1) not in log_of(app)


def test_a_20_mb_request_is_refused_before_it_is_read(app: AppServer) -> None:
    with httpx.Client(base_url=app.url, timeout=60) as http:
        bodies = {"judgments": ["w" * 20_000_000], "judgments_view": ["w" * 20_000_000],
                  "leaderboard": [None] * LICENSES + [["w"] * 1_000_000],  # the 1 MB License filter
                  "leaderboard_view": [None] * (LICENSES + 1) + [",".join("w" * 500_000)]}
        for endpoint, data in bodies.items():
            answer = http.post(f"/gradio_api/call/{endpoint}", json={"data": data})
            assert answer.status_code == 413
            assert "the request body is over 131,072 bytes" in answer.json()["error"]
            assert len(answer.content) < 200
        assert call_endpoint(http, "judgments", ["acme__strong-7b/main"])[0]["run_id"] == "acme__strong-7b/main"
    assert "w" * (ECHO_CHARS + 1) not in log_of(app)
