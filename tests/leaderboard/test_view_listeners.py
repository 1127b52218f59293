"""Each view that several controls re-render is painted by one listener, whose events Gradio orders;
a person's choice of a model or a row is never dropped.

Gradio sends a listener's next event only after its pending one is answered ("always_last"), but two
listeners' events run side by side: had each control its own listener, ticking two boxes quickly could
paint the older view last, under controls that say otherwise. The test reads the page config a browser
gets, so it checks the wiring the page really has. A listener in Gradio's default mode for `input` and
`select` ("once") drops a trigger that comes while its event is pending, and "always_last" replays the
pending click's row: either way a second row clicked while the first opens would leave the first on screen.
"""

from __future__ import annotations

from typing import Any

import gradio as gr
import pytest

from eval_backend.benchmarks.registry import BENCHMARKS
from eval_backend.settings import DataSettings, Settings
from leaderboard.app_factory import build_app
from leaderboard.scored_tables import tab_id

VIEWS = {
    "leaderboard-table": ["results-version", "leaderboard-search", "leaderboard-column-groups", "leaderboard-rank-config", "leaderboard-sort-by",
                          "leaderboard-model-type", "leaderboard-hide-unranked", "leaderboard-license-filter", "leaderboard-open-weights-only", "leaderboard-rank-variant",
                          "leaderboard-hide-flags", "leaderboard-min-params", "leaderboard-max-params"],
    "leaderboard-plot-overall": ["results-version", "leaderboard-top-n", "leaderboard-chosen-radar", "leaderboard-chosen-language-variants", "leaderboard-search", "leaderboard-rank-config",
                     "leaderboard-model-type", "leaderboard-min-params"],
    "leaderboard-items": ["leaderboard-group", "leaderboard-group-variant", "leaderboard-group-domain",
                        "leaderboard-group-subdomain", "leaderboard-show"],
    "leaderboard-paired": ["leaderboard-model", "leaderboard-compare", "leaderboard-group", "leaderboard-group-domain"],
    "qa-table": ["qa-search", "qa-hide-flags"],
    "qa-breakdown": ["results-version", "qa-breakdown-group"],
    "qa-items": ["qa-group", "qa-group-domain", "qa-show"],
    "saraiki-items": ["saraiki-group", "saraiki-show"],
    "compare-table-saraiki": ["compare-a", "compare-b"],
    "pairwise-matrix": ["matrix-benchmark", "matrix-figure", "matrix-top"],
}
"""A view, and controls of it whose every change must reach it through one and the same listener."""


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> gr.Blocks:
    root = tmp_path_factory.mktemp("listeners")
    return build_app(Settings(data=DataSettings(data_dir=root / "data")), downloads_dir=root / "downloads").demo


@pytest.fixture(scope="module")
def page_config(demo: gr.Blocks) -> dict[str, Any]:
    return demo.config


def component_id(config: dict[str, Any], elem_id: str) -> int:
    found = [c["id"] for c in config["components"] if c["props"].get("elem_id") == elem_id]
    assert len(found) == 1, f"{len(found)} components have the element id {elem_id!r}"
    return found[0]


def listeners(config: dict[str, Any], view: str, control: str) -> list[dict[str, Any]]:
    """The listeners a change of `control` fires that write `view`."""
    view_id, control_id = component_id(config, view), component_id(config, control)
    return [d for d in config["dependencies"]
            if view_id in d["outputs"] and any(target == control_id for target, _ in d["targets"])]


@pytest.mark.parametrize("view", list(VIEWS))
def test_a_view_s_controls_share_one_ordered_listener(page_config: dict[str, Any], view: str) -> None:
    fired = {control: listeners(page_config, view, control) for control in VIEWS[view]}
    ids = {control: [d["id"] for d in found] for control, found in fired.items()}
    assert all(len(found) == 1 for found in ids.values()), f"listeners per control of {view}: {ids}"
    shared = {found[0]["id"]: found[0] for found in fired.values()}
    assert len(shared) == 1, f"{view}'s controls fire different listeners: {ids}"
    assert next(iter(shared.values()))["trigger_mode"] == "always_last"


CHOICES = [("leaderboard-model", "input"), ("leaderboard-items", "select"), ("qa-items", "select"),
           ("saraiki-items", "select")]
"""A person's choice (a model, an item's row) and the event it fires."""


def chain(config: dict[str, Any], first: dict[str, Any]) -> list[dict[str, Any]]:
    """`first` and every listener that runs after it (`.then`), in order."""
    found = [first]
    while follower := next((d for d in config["dependencies"] if d["trigger_after"] == found[-1]["id"]), None):
        found.append(follower)
    return found


def fired_chain(config: dict[str, Any], control: str, event: str) -> list[dict[str, Any]]:
    """The listeners `event` on `control` runs, in order, those on the server only."""
    control_id = component_id(config, control)
    (fired,) = [d for d in config["dependencies"] if [control_id, event] in [list(t) for t in d["targets"]]]
    return [d for d in chain(config, fired) if d["backend_fn"]]


@pytest.mark.parametrize(("control", "event"), [choice for choice in CHOICES if choice[1] != "select"])
def test_a_choice_made_while_the_last_one_loads_is_kept(page_config: dict[str, Any], control: str, event: str) -> None:
    modes = {d["id"]: d["trigger_mode"] for d in fired_chain(page_config, control, event)}
    assert set(modes.values()) == {"always_last"}, f"{control} {event}: trigger modes of its chain {modes}"


@pytest.mark.parametrize("control", [control for control, event in CHOICES if event == "select"])
def test_a_row_clicked_while_another_opens_is_sent_in_order_and_shown_last(demo: gr.Blocks, page_config: dict[str, Any],
                                                                           control: str) -> None:
    """A deferred (`always_last`) `select` is replayed with the pending click's row (leaderboard/tabs/row_clicks.py):
    every click is sent (`multiple`) and read one at a time into the item's key, and what shows the row is the key's
    own `always_last` listener, which reads the key as it stands when it runs."""
    (key_of_row,) = fired_chain(page_config, control, "select")
    assert key_of_row["trigger_mode"] == "multiple", f"{control}: the click's own listener {key_of_row['trigger_mode']}"
    read_at_once = demo.fns[key_of_row["id"]].concurrency_limit
    assert read_at_once == 1, f"{control}: clicks read {read_at_once} at a time"
    (key,) = key_of_row["outputs"]
    showing = [d for d in page_config["dependencies"] if [key, "change"] in [list(t) for t in d["targets"]]]
    assert [d["trigger_mode"] for d in showing] == ["always_last"], f"{control}: the key's listeners {showing}"


@pytest.mark.parametrize("tab", [tab_id(benchmark) for benchmark in BENCHMARKS.values()])
def test_only_the_key_s_listener_and_the_comparison_show_an_item(page_config: dict[str, Any], tab: str) -> None:
    """A link's own step that showed its item ran beside a click's and could answer after it, hiding the row the
    visitor had opened (tests/leaderboard/test_row_clicks_browser.py): what opens an item writes its key instead."""
    states = {c["id"] for c in page_config["components"] if c["type"] == "state"}
    (key_of_row,) = fired_chain(page_config, f"{tab}-items", "select")
    (key,) = key_of_row["outputs"]
    title, compare = component_id(page_config, f"{tab}-item-title"), component_id(page_config, f"{tab}-compare")
    writers = [d for d in page_config["dependencies"] if title in d["outputs"]]
    triggers = sorted(tuple(target) for d in writers for target in d["targets"])
    assert triggers == sorted([(key, "change"), (compare, "input")]), f"{tab}: what writes the item's title {triggers}"
    # In a box on the page, two clicks' keys that arrive together can be applied in either order.
    assert key in states, f"{tab}: the item's key is kept on the server"
