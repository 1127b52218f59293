"""`build_app`: the leaderboard's Gradio Blocks, composed from one module per tab."""

from __future__ import annotations

import hashlib
import tempfile
from pathlib import Path

import gradio as gr

from eval_backend.benchmarks import BENCHMARKS, DEFAULT_BENCHMARK
from eval_backend.benchmarks.qa.plugin import INDIC_QA
from eval_backend.benchmarks.saraiki.plugin import SARAIKI
from eval_backend.settings import Settings
from leaderboard.context import AppContext
from leaderboard.results import ResultsStore
from leaderboard.tab_links import link_tabs
from leaderboard.tables import TableCache
from leaderboard.tabs import (
    about_tab,
    judgments_tab,
    leaderboard_tab,
    overview_tab,
    plots_tab,
    qa_tab,
    saraiki_tab,
    submit_tab,
)

TITLE = "Indic WritingBench Leaderboard"
INTRO = (
    f"# {TITLE}\n"
    "Long-form writing in 11 Indic languages and English, each prompt in native script, "
    "code-mixed and romanized form, scored by an LLM judge against a per-item rubric. "
    "Every number links back to the judgments behind it in the **Judgments** tab. "
    "The **Indic QA** tab holds short-answer questions, scored by exact substring, word overlap and an LLM judge; "
    "the **Saraiki** tab, seven tasks of the Saraiki LLM Benchmark, each reported on its own."
)


def build_app(settings: Settings, store: ResultsStore | None = None, downloads_dir: Path | None = None) -> gr.Blocks:
    """The whole app; nothing is read or written until a page loads or a button is pressed."""
    stores = benchmark_stores(settings, store)
    store = stores[DEFAULT_BENCHMARK]
    downloads_dir = downloads_dir or Path(tempfile.gettempdir()) / "indic-wb-downloads"
    with gr.Blocks(title=TITLE, analytics_enabled=settings.app.analytics) as demo:
        gr.Markdown(INTRO, elem_id="intro")
        version = gr.State(None)
        context = AppContext(settings, store, downloads_dir, demo, version, TableCache(), stores)
        overview_tab.build(context)
        with gr.Tabs() as tabs:
            # Indic WritingBench's tabs (Leaderboard, Plots, Judgments); every other benchmark has one tab.
            with gr.Tab("Leaderboard", id="leaderboard"):
                leaderboard_tab.build(context)
            with gr.Tab("Plots", id="plots"):
                plots_tab.build(context)
            with gr.Tab("Judgments", id="judgments"):
                judgments_tab.build(context)
            with gr.Tab(INDIC_QA.title, id="qa"):
                qa_tab.build(context)
            with gr.Tab(SARAIKI.title, id="saraiki"):
                saraiki_tab.build(context)
            with gr.Tab("Submit", id="submit"):
                submit_tab.build(context)
            with gr.Tab("About", id="about"):
                about_tab.build(context)
        link_tabs(demo, tabs)  # `?tab=<id>` opens a tab; choosing one writes it in the address
        timer = gr.Timer(settings.app.refresh_s)
        demo.load(lambda: results_version(*stores.values()), outputs=version)
        timer.tick(lambda: results_version(*stores.values()), outputs=version, show_progress="hidden")
    return demo


def benchmark_stores(settings: Settings, writing_bench: ResultsStore | None = None) -> dict[str, ResultsStore]:
    """A results store per benchmark, each over its own tree `DATA_DIR/runs/<benchmark>/`."""
    return {
        name: writing_bench if name == DEFAULT_BENCHMARK and writing_bench else
        ResultsStore(settings.data.benchmark_runs_dir(name))
        for name in BENCHMARKS
    }


def results_version(*stores: ResultsStore) -> str:
    """A short digest of every run folder's stamps: equal digests mean nothing changed on disk."""
    signature = repr([store.snapshot().signature for store in stores]).encode()
    return hashlib.sha256(signature).hexdigest()[:16]
