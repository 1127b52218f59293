"""The prerendered first view: what the page's own events would show a new visitor, computed once.

Each test builds a small Gradio page, lets `FirstView` render it, and reads the page config that
Gradio puts in the HTML, which is what a browser would draw before sending anything.
"""

from __future__ import annotations

import asyncio
import logging
import re
import threading
from typing import Any, Callable

import gradio as gr
import pytest
from gradio.state_holder import SessionState

from leaderboard import board_readiness
from leaderboard import first_view as first_view_module
from leaderboard.first_view import MAX_CHAIN, MAX_PROBLEM_CHARS, FirstView, Readiness


def value_in_page(demo: gr.Blocks, block: Any) -> Any:
    """A component's value as the page config carries it."""
    return next(c for c in demo.config["components"] if c["id"] == block._id)["props"].get("value")


def props_in_page(demo: gr.Blocks, block: Any) -> dict[str, Any]:
    return next(c for c in demo.config["components"] if c["id"] == block._id)["props"]


class Results:
    """A stand-in for the run folders' digest, changed by the test."""

    def __init__(self) -> None:
        self.version = "v1"
        self.models = ["alpha", "beta"]
        self.calls = 0


@pytest.fixture
def results() -> Results:
    return Results()


def judged_page(results: Results) -> tuple[gr.Blocks, FirstView, dict[str, Any]]:
    """A board, a model chooser whose choice loads that model's items, and a queue table kept live."""
    with gr.Blocks() as demo:
        version = gr.Textbox(visible=False)
        board = gr.Textbox(label="board")
        model = gr.Dropdown(choices=[], label="model")
        items = gr.Textbox(label="items")
        cleared = gr.Textbox(label="cleared")
        queue = gr.Textbox(label="queue")
        first_view = FirstView(demo, version, lambda: results.version)

        def render_board() -> str:
            results.calls += 1
            return " > ".join(results.models)

        version.change(render_board, None, board)
        version.change(lambda: gr.update(choices=results.models, value=results.models[0]), None, model)
        model.change(lambda name: f"items of {name}", model, items).then(lambda: "cleared", None, cleared)
        first_view.keep_live(gr.Timer(10).tick(lambda: f"{results.calls} renders so far", None, queue))
    parts = {"version": version, "board": board, "model": model, "items": items, "cleared": cleared, "queue": queue}
    return demo, first_view, parts


def test_the_page_carries_what_a_results_change_renders_and_what_that_sets_off(results: Results) -> None:
    demo, first_view, parts = judged_page(results)

    assert asyncio.run(first_view.refresh()) is True

    assert value_in_page(demo, parts["version"]) == "v1"
    assert value_in_page(demo, parts["board"]) == "alpha > beta"
    assert value_in_page(demo, parts["model"]) == "alpha"
    # The chosen model changed, so its change event ran, and the `.then` after it.
    assert value_in_page(demo, parts["items"]) == "items of alpha"
    assert value_in_page(demo, parts["cleared"]) == "cleared"
    assert value_in_page(demo, parts["queue"]) == "1 renders so far"
    assert first_view.generation == 1


def test_an_unchanged_state_renders_only_the_live_events(results: Results) -> None:
    demo, first_view, parts = judged_page(results)
    asyncio.run(first_view.refresh())

    assert asyncio.run(first_view.refresh()) is False  # the live queue text is the same: the page is unchanged
    assert results.calls == 1
    assert first_view.generation == 1

    results.version, results.models = "v2", ["beta", "alpha"]
    assert asyncio.run(first_view.refresh()) is True
    assert value_in_page(demo, parts["board"]) == "beta > alpha"
    assert value_in_page(demo, parts["items"]) == "items of beta"
    assert value_in_page(demo, parts["queue"]) == "2 renders so far"
    assert first_view.generation == 2


def test_a_prerendered_choice_is_accepted_by_a_new_session(results: Results) -> None:
    demo, first_view, parts = judged_page(results)
    asyncio.run(first_view.refresh())
    load_items = next(fn for fn in demo.fns.values() if fn.inputs == [parts["model"]] and fn.fn is not None)

    # The session never received the choices: they reached it in the page, and the server agrees.
    answer = asyncio.run(demo.process_api(load_items, ["beta"], state=SessionState(demo)))

    assert answer["data"] == ["items of beta"]
    assert [tuple(choice) for choice in props_in_page(demo, parts["model"])["choices"]] == [
        ("alpha", "alpha"), ("beta", "beta")]


def test_a_failing_event_leaves_its_outputs_to_the_browser_and_renders_the_rest(
    results: Results, caplog: pytest.LogCaptureFixture,
) -> None:
    with gr.Blocks() as demo:
        version = gr.Textbox(visible=False)
        broken = gr.Textbox(label="broken")
        fine = gr.Textbox(label="fine")
        first_view = FirstView(demo, version, lambda: results.version)
        version.change(lambda: 1 / 0, None, broken)
        version.change(lambda: "rendered", None, fine)

    with caplog.at_level(logging.WARNING, logger="leaderboard.first_view"):
        asyncio.run(first_view.refresh())

    assert value_in_page(demo, broken) in (None, "")
    assert value_in_page(demo, fine) == "rendered"
    assert "failed" in caplog.text


def test_events_that_keep_changing_each_other_stop_after_a_bounded_number(results: Results) -> None:
    with gr.Blocks() as demo:
        version = gr.Textbox(visible=False)
        ping = gr.Number(value=0)
        pong = gr.Number(value=0)
        first_view = FirstView(demo, version, lambda: results.version)
        version.change(lambda: 1, None, ping)
        ping.change(lambda n: n + 1, ping, pong)
        pong.change(lambda n: n + 1, pong, ping)

    asyncio.run(first_view.refresh())

    assert value_in_page(demo, ping) + value_in_page(demo, pong) <= 2 * MAX_CHAIN


def test_js_only_listeners_are_not_run_on_the_server(results: Results) -> None:
    with gr.Blocks() as demo:
        version = gr.Textbox(visible=False)
        shown = gr.Textbox()
        first_view = FirstView(demo, version, lambda: results.version)
        version.change(None, version, shown, js="(v) => 'from the browser ' + v")

    asyncio.run(first_view.refresh())

    assert value_in_page(demo, shown) in (None, "")


# -- bind first, render after ----------------------------------------------------------------


def gated_page(results: Results, gate: threading.Event) -> tuple[gr.Blocks, FirstView, gr.Markdown, gr.Textbox]:
    """A board whose render waits for `gate`, and the readiness note the first view keeps up to date."""
    with gr.Blocks() as demo:
        version = gr.Textbox(visible=False)
        board = gr.Textbox(label="board")
        first_view = FirstView(demo, version, lambda: results.version)
        board_readiness.build(first_view)
        note = next(block for block in demo.blocks.values() if getattr(block, "elem_id", None) == "board-readiness")

        def render_board() -> str:
            if not gate.wait(timeout=30):
                raise TimeoutError("the test never opened the gate")
            return " > ".join(results.models)

        version.change(render_board, None, board)
    return demo, first_view, note, board


async def until(condition: Callable[[], bool]) -> None:
    for _ in range(600):
        if condition():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the condition never held")


def test_the_server_starts_before_the_first_render_and_the_page_fills_in_when_it_is_done(
    results: Results, caplog: pytest.LogCaptureFixture,
) -> None:
    gate = threading.Event()
    demo, first_view, note, board = gated_page(results, gate)

    async def serve() -> None:
        async with first_view.lifespan(60.0)(None):  # entered: the server is accepting requests
            await asyncio.sleep(0.2)
            assert first_view.generation == 0 and first_view.readiness.ready_s is None  # still rendering
            assert props_in_page(demo, note)["value"].startswith(board_readiness.PREPARING)
            gate.set()
            await until(lambda: first_view.generation == 1)

    with caplog.at_level(logging.INFO, logger="leaderboard.first_view"):
        asyncio.run(serve())

    assert value_in_page(demo, board) == "alpha > beta"
    assert props_in_page(demo, note)["visible"] is False
    assert first_view.readiness.ready_s is not None and first_view.readiness.problems == ()
    assert re.search(r"board ready: first view rendered \d+\.\d s after start", caplog.text)


def test_a_render_that_raises_is_named_on_the_page_and_the_server_keeps_trying(results: Results) -> None:
    gate = threading.Event()
    gate.set()
    demo, first_view, note, board = gated_page(results, gate)
    broken = {"now": True}

    def version() -> str:
        if broken["now"]:
            raise OSError("runs folder /data/runs is not readable")
        return "v1"

    first_view.current_version = version

    async def serve() -> None:
        async with first_view.lifespan(0.1)(None):
            await until(lambda: "not readable" in str(props_in_page(demo, note).get("value")))
            assert props_in_page(demo, note)["visible"] is True
            assert "The board could not be prepared" in props_in_page(demo, note)["value"]
            broken["now"] = False  # the disk is back: the next try renders
            await until(lambda: first_view.generation >= 1)

    asyncio.run(serve())

    assert value_in_page(demo, board) == "alpha > beta"
    assert props_in_page(demo, note)["visible"] is False


def test_an_event_that_fails_in_the_first_render_is_named_in_the_readiness(results: Results) -> None:
    with gr.Blocks() as demo:
        version = gr.Textbox(visible=False)
        broken = gr.Textbox(label="broken")
        first_view = FirstView(demo, version, lambda: results.version)
        board_readiness.build(first_view)

        def render() -> str:
            raise KeyError("index")

        version.change(render, None, broken)

    asyncio.run(first_view.refresh())

    [problem] = first_view.readiness.problems
    assert problem.startswith("event 'render' failed: KeyError") and "index" in problem
    note = board_readiness.readiness_note(first_view.readiness)
    assert note["visible"] is True and "Part of the board could not be shown" in note["value"]


def test_a_problem_is_shown_as_text_and_bounded() -> None:
    readiness = Readiness(1.0, None, ("<img src=x onerror=alert(1)> [link](javascript:x)",))
    text = board_readiness.readiness_note(readiness)["value"]
    assert "\\<img" in text and "\\]\\(javascript" in text  # escaped: shown as the characters, never markup
    assert len(first_view_module._problem("event 'x'", ValueError("x" * 10_000))) == MAX_PROBLEM_CHARS


def test_a_failed_event_stays_named_until_a_full_render_succeeds(results: Results) -> None:
    broken = {"now": True}
    with gr.Blocks() as demo:
        version = gr.Textbox(visible=False)
        board = gr.Textbox(label="board")
        first_view = FirstView(demo, version, lambda: results.version)
        first_view.keep_live(gr.Timer(10).tick(lambda: "queue", None, gr.Textbox(label="queue")))

        def render() -> str:
            if broken["now"]:
                raise KeyError("index")
            return "rendered"

        version.change(render, None, board)

    asyncio.run(first_view.refresh())
    asyncio.run(first_view.refresh())  # only the live events ran: the board is still missing
    assert len(first_view.readiness.problems) == 1

    broken["now"], results.version = False, "v2"
    asyncio.run(first_view.refresh())
    assert first_view.readiness.problems == ()
    assert value_in_page(demo, board) == "rendered"
