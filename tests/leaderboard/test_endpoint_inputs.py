"""One validator for every endpoint's inputs (`leaderboard.endpoint_inputs`), and the page's own events refusing
what an attacker sends them, run through Gradio's `process_api` (its preprocessing, then the callback) on the
app as `build_app` builds it over real run folders."""

from __future__ import annotations

import asyncio
import math
import shutil
from pathlib import Path
from typing import Any

import gradio as gr
import pytest
from gradio.state_holder import SessionState

from eval_backend.benchmarks.registry import DEFAULT_BENCHMARK
from eval_backend.settings import Settings
from leaderboard import endpoint_inputs as inputs
from leaderboard.app_factory import LeaderboardApp, build_app
from leaderboard.endpoint_inputs import ECHO_CHARS, InvalidInput
from leaderboard.tabs.item_browser import selected_item
from tests.support.run_folders import EvaluatedData

RUN_ID = "acme__strong-7b/main"
PAGE_BOARD = ["", [], [], [], [], ["language", "variant", "details"], "rank", None, None, "all", False, [], False]
"""WritingBench's ranking controls as a page first holds them (search, flags, the groups ranked on, column groups,
sort, sizes, type, ...), as its plots read them."""


# -- the validator -----------------------------------------------------------------------------------


def test_texts_lists_numbers_flags_and_choices_within_bounds_pass() -> None:
    assert inputs.text("देवनागरी", "search") == "देवनागरी"
    assert inputs.text(None, "search") == ""
    assert inputs.texts(["Hindi", "Tamil", "Hindi"], "languages", {"Hindi", "Tamil"}) == ("Hindi", "Tamil")
    assert inputs.number(7, "size", 0, 10) == 7.0 and inputs.number(None, "size", 0, 10) is None
    assert inputs.flag(True, "open") is True and inputs.flag(None, "open") is False
    assert inputs.choice("", "type", ("all", "base"), "all") == "all"


@pytest.mark.parametrize("check, message", [
    (lambda: inputs.text("x" * 513, "search"), "search is 513 characters long; at most 512"),
    (lambda: inputs.text(["a"], "search"), "search must be a text, not list ['a']"),
    (lambda: inputs.text({"a": 1}, "sort"), "sort must be a text, not dict"),
    (lambda: inputs.texts("Hindi", "languages"), "languages must be a list of texts, not str 'Hindi'"),
    (lambda: inputs.texts(["x"] * 33, "licenses"), "licenses has 33 values; at most 32"),
    (lambda: inputs.texts([["x"]], "licenses"), "each of licenses must be a text, not list"),
    (lambda: inputs.texts(["Klingon"], "languages", ("Hindi",)), "languages: 'Klingon' is not one of 'Hindi'"),
    (lambda: inputs.number(math.nan, "top N", 1, 100), "top N must be a finite number from 1 to 100, not nan"),
    (lambda: inputs.number(math.inf, "top N", 1, 100), "top N must be a finite number"),
    (lambda: inputs.number("3", "top N", 1, 100), "top N must be a number, not str '3'"),
    (lambda: inputs.number(True, "top N", 1, 100), "top N must be a number, not bool"),
    (lambda: inputs.number(101, "top N", 1, 100), "from 1 to 100, not 101"),
    (lambda: inputs.flag("yes", "open"), "open must be true or false, not str 'yes'"),
    (lambda: inputs.choice("robot", "model type", ("all",)), "model type must be one of 'all', not 'robot'"),
])
def test_what_breaks_a_bound_is_refused_by_name(check: Any, message: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        check()
    assert message in str(refused.value)


def test_a_refused_value_is_quoted_at_most_echo_chars() -> None:
    with pytest.raises(InvalidInput) as refused:
        inputs.text(["ਸ਼" * 10_000_000], "search")
    assert len(str(refused.value)) < 2 * ECHO_CHARS


@pytest.mark.parametrize("row", [["Hindi:1e309"], "nan", ["Hindi"], {"row": 1}, [math.nan, "Hindi"],
                                 ["Hindi:2.5"], ["Hindi:-1"], [["Hindi:3"]], ["Hindi:" + "9" * 20]])
def test_a_clicked_row_that_is_not_an_item_is_refused(row: Any) -> None:
    with pytest.raises(InvalidInput, match="selected row"):
        selected_item(row)


def test_a_clicked_row_names_its_item() -> None:
    assert selected_item(["تھل:3", "تھل", "scored"]) == "تھل:3"
    assert selected_item(["Hindi:12", "Hindi"]) == "Hindi:12"
    assert selected_item([]) == ""


# -- the page's own events, through Gradio ---------------------------------------------------------------


@pytest.fixture
def app(evaluated: EvaluatedData, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> LeaderboardApp:
    shutil.copytree(evaluated.data_dir, tmp_path / "data")
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("WORKER_ENABLED", "false")
    return build_app(Settings(), downloads_dir=tmp_path / "downloads")


def event(app: LeaderboardApp, name: str, output_elem: str | None = None) -> Any:
    """The page's event running the callback `name` (the one writing `output_elem`, when several do)."""
    return next(fn for fn in app.demo.fns.values() if fn.name == name and (
        output_elem is None or any(getattr(block, "elem_id", None) == output_elem for block in fn.outputs)))


def call(app: LeaderboardApp, fn: Any, values: list[Any], event_data: Any = None) -> dict[str, Any]:
    """Run the page's event `fn` on `values` as Gradio's server does; an input kept on the server (a `gr.State`)
    takes its value from the session, set here from `values` as the listener writing it would have."""
    session = SessionState(app.demo)
    for block, value in zip(fn.inputs, values):
        if isinstance(block, gr.State):
            session[block._id] = value
    return asyncio.run(app.demo.process_api(fn, values, state=session, event_data=event_data))


def test_showing_an_item_of_a_run_removed_while_its_page_is_open_says_so(app: LeaderboardApp) -> None:
    show = event(app, "show_item")
    assert call(app, show, [RUN_ID, None, "Hindi:0"])["data"][0] == "Hindi:0"  # the run is there: the item is shown
    shutil.rmtree(Settings().data.benchmark_runs_dir(DEFAULT_BENCHMARK) / RUN_ID)

    with pytest.raises(gr.Error, match=r"No evaluated run 'acme__strong-7b/main': choose one from the list"):
        call(app, show, [RUN_ID, None, "Hindi:0"])


@pytest.mark.parametrize("row", [["Hindi:1e309"], "nan", ["Hindi"], {"row": 1}])
def test_selecting_a_row_that_is_not_one_is_refused_with_a_message(app: LeaderboardApp, row: Any) -> None:
    select = event(app, "select_item")
    data = gr.EventData(None, {"index": [0, 0], "value": "x", "row_value": row, "col_value": None, "selected": True})
    with pytest.raises(gr.Error, match="selected row"):
        call(app, select, [], gr.SelectData(None, data._data))


@pytest.mark.parametrize("show, language", [(["all"], "all"), ("all", {"language": "Hindi"}), (math.nan, "all")])
def test_listing_items_with_a_filter_that_is_not_a_text_is_refused(app: LeaderboardApp, show: Any,
                                                                  language: Any) -> None:
    browse = event(app, "browse")
    # Gradio's own check of a dropdown refuses a value that is none of its choices; what passes it reaches ours.
    with pytest.raises(gr.Error, match="(show|item filter) must be a text|is not in the list of choices"):
        call(app, browse, [RUN_ID, show, language, "all", "all", "all"])


@pytest.mark.parametrize("top", [math.nan, math.inf, 10**9])
def test_plots_refuse_a_top_n_that_is_not_a_number_of_models(app: LeaderboardApp, top: Any) -> None:
    render = event(app, "figures", "leaderboard-plot-overall")
    # The slider's own check (Gradio's) refuses what is past its maximum; NaN reaches ours.
    with pytest.raises(gr.Error, match="top N must be a finite number from 1 to 100|greater than maximum value 100"):
        call(app, render, [True, *PAGE_BOARD, top, [], None])


def test_plots_render_for_a_page_s_own_values_once_opened(app: LeaderboardApp) -> None:
    render = event(app, "figures", "leaderboard-plot-overall")
    drawn = call(app, render, [True, *PAGE_BOARD, 20, [], None])["data"]
    assert len(drawn) == len(render.outputs) and drawn[0]["type"] == "plotly"  # the overall figure
    folded = call(app, render, [False, *PAGE_BOARD, 20, [], None])["data"]  # never opened: nothing drawn
    assert folded == [{"__type__": "update"}] * len(render.outputs)


def test_submitting_a_null_model_id_is_answered_not_raised(app: LeaderboardApp) -> None:
    submit = event(app, "on_submit")
    for model_id in (None, ["acme/strong-7b"]):  # Gradio's textbox hands a list on as its text
        [message] = call(app, submit, [model_id, "main", "bfloat16", False, ["indic_writing_bench"], None])["data"]
        assert message["label"].startswith("Not queued") and message["value"]


@pytest.mark.parametrize("name, values, message", [
    ("show_pair", [["acme__strong-7b/main"], None], "model A must be a text, not list"),
    ("show_pair", [None, {"run": 1}], "model B must be a text, not dict"),
    ("show_matrix", ["indic_writing_bench", None, math.nan], "top N models must be a finite number"),
])
def test_compare_refuses_a_list_or_dict_where_a_text_belongs(app: LeaderboardApp, name: str, values: list[Any],
                                                             message: str) -> None:
    fn = next(fn for fn in app.demo.fns.values() if fn.name == name and len(fn.inputs) == len(values))
    with pytest.raises(gr.Error, match=message):
        call(app, fn, values)
