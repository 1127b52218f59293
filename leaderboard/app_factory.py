"""`build_app`: the leaderboard's Gradio Blocks, composed from one module per tab."""

from __future__ import annotations

import hashlib
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Collection

import gradio as gr
from starlette.middleware import Middleware

from eval_backend.benchmarks.registry import BENCHMARKS
from eval_backend.settings import Settings
from leaderboard import board_readiness, public_api
from leaderboard.compare_links import COMPARE_TAB
from leaderboard.context import AppContext
from leaderboard.first_view import FirstView
from leaderboard.page_cache import PageCache
from leaderboard.request_limits import BodyLimit
from leaderboard.results import ResultsStore
from leaderboard.scored_tables import tab_id
from leaderboard.tab_links import MODEL_PAGE_TAB, first_tab, link_tabs
from leaderboard.tabs import (
    about_tab,
    benchmark_tab,
    compare_tab,
    model_tab,
    overview_tab,
    submit_tab,
)

TITLE = "Indic Benchmarks Leaderboard"


def intro_text() -> str:
    """The page's introduction: each registered benchmark by its title and what its board says of it in brief."""
    briefs = "; ".join(f"**{benchmark.title}**" + (f": {benchmark.board.in_brief}" if benchmark.board.in_brief else "")
                       for benchmark in BENCHMARKS.values())
    return f"# {TITLE}\n{briefs}. Every score links to the items behind it; **All benchmarks** puts them side by side."


FIRST_VIEW_REFRESH_S = 10.0
"""How often the prerendered first view looks for new results (and re-renders the queue tables)."""
PAGE_LINK_SCRIPT = "() => window.location.search"
"""Runs in the browser when the page opens: a plain address leaves `page_link` empty, so nothing is sent."""
DOCUMENTED_ENDPOINTS = ("leaderboard", "judgments", "benchmark_judgments", "benchmark_rankings")
"""The endpoints the page's API docs list (`leaderboard.public_api`): the board's ranking (by search and filters),
a run's judgments, and a declared benchmark's rankings (seed's or style-controlled)."""


@dataclass(frozen=True)
class LeaderboardApp:
    """The Gradio Blocks and its prerendered first view, which `launch_options` wires into the server."""

    demo: gr.Blocks
    first_view: FirstView

    def launch_options(self, page_refresh_s: float) -> dict[str, Any]:
        """`launch` keywords: request bodies bounded, the page cache in front of Gradio's page, the first view
        rendered after start and looking for new results at least as often as open pages (`page_refresh_s`).
        Server-side rendering is off: the page must be the one Python prerenders and caches."""
        period = min(page_refresh_s, FIRST_VIEW_REFRESH_S)
        middleware = [Middleware(BodyLimit), Middleware(PageCache, first_view=self.first_view)]
        return {"app_kwargs": {"middleware": middleware, "lifespan": self.first_view.lifespan(period)},
                "ssr_mode": False}


def build_app(settings: Settings, downloads_dir: Path | None = None) -> LeaderboardApp:
    """The whole app; nothing is read or written until the server starts or a button is pressed."""
    stores = benchmark_stores(settings)
    downloads_dir = downloads_dir or Path(tempfile.gettempdir()) / "indic-wb-downloads"
    # Each download is written once under a name of its content's version (`exports.py`): served
    # from where it lies, Gradio no longer hashes and copies it into its cache on every click and
    # every model chosen, a third of an item browser's time per call.
    gr.set_static_paths([downloads_dir])
    with gr.Blocks(title=TITLE, analytics_enabled=settings.app.analytics) as demo:
        gr.Markdown(intro_text(), elem_id="intro")
        version = gr.Textbox(visible=False, elem_id="results-version")
        page_link = gr.Textbox("", visible=False, elem_id="page-link")
        first_view = FirstView(demo, version, lambda: results_version(*stores.values()))
        board_readiness.build(first_view)
        context = AppContext(settings, downloads_dir, demo, version, stores, page_link, first_view)
        with gr.Tabs() as tabs:
            # The first tab's ranking, the overview one click away, then every other benchmark's tab.
            first, *others = sorted(BENCHMARKS.values(), key=lambda benchmark: tab_id(benchmark) != first_tab())
            with gr.Tab(first.title, id=tab_id(first)):
                benchmark_tab.build(context, first)
            with gr.Tab("All benchmarks", id="overview"):
                overview_tab.build(context)
            for benchmark in others:
                with gr.Tab(benchmark.title, id=tab_id(benchmark)):
                    benchmark_tab.build(context, benchmark)
            with gr.Tab("Compare", id=COMPARE_TAB) as compare:
                compare_tab.build(context, compare)
            with gr.Tab("Model", id=MODEL_PAGE_TAB):
                model_tab.build(context)
            with gr.Tab("Submit", id="submit"):
                submit_tab.build(context)
            with gr.Tab("About", id="about"):
                about_tab.build(context)
        link_tabs(page_link, tabs, former_tabs())  # `?tab=<id>` opens a tab; choosing one writes it in the address
        demo.load(None, None, page_link, js=PAGE_LINK_SCRIPT)
        # Open pages learn of new results from the first view's last render: no disk scan per visitor.
        gr.Timer(settings.app.refresh_s).tick(lambda: first_view.rendered_version, outputs=version,
                                              show_progress="hidden")
        public_api.register(context)
        document_only(demo, DOCUMENTED_ENDPOINTS)
    return LeaderboardApp(demo, first_view)


def former_tabs() -> dict[str, str]:
    """Each former tab id a benchmark's board declares (`BoardView.former_tabs`), and the tab it names now."""
    return {old: tab_id(benchmark) for benchmark in BENCHMARKS.values() for old in benchmark.board.former_tabs}


def document_only(demo: gr.Blocks, names: Collection[str]) -> None:
    """Leave only the events named `names` in the page's API docs; the others stay callable, undocumented.

    Gradio writes the schema of every documented event into every page: the board's own wiring was 0.66 MB of
    the 2.2 MB a first visit to a 500-model board downloaded. Called inside `demo`'s block.
    """
    for function in demo.fns.values():
        if function.api_visibility == "public" and function.api_name not in names:
            function.api_visibility = "undocumented"


def benchmark_stores(settings: Settings) -> dict[str, ResultsStore]:
    """A results store per benchmark, each over its own tree `DATA_DIR/runs/<benchmark>/`."""
    return {name: ResultsStore(settings.data.benchmark_runs_dir(name)) for name in BENCHMARKS}


def results_version(*stores: ResultsStore) -> str:
    """A short digest of every run folder's stamps: equal digests mean nothing changed on disk."""
    signature = repr([store.snapshot().signature for store in stores]).encode()
    return hashlib.sha256(signature).hexdigest()[:16]
