"""`build_app`: the leaderboard's Gradio Blocks, composed from one module per tab."""

from __future__ import annotations

import hashlib
import tempfile
from pathlib import Path

import gradio as gr

from eval_backend.settings import Settings
from leaderboard.context import AppContext
from leaderboard.results import ResultsStore
from leaderboard.tables import TableCache
from leaderboard.tabs import about_tab, judgments_tab, leaderboard_tab, plots_tab, submit_tab

TITLE = "Indic WritingBench Leaderboard"
INTRO = (
    f"# {TITLE}\n"
    "Long-form writing in 11 Indic languages and English, each prompt in native script, "
    "code-mixed and romanized form, scored by an LLM judge against a per-item rubric. "
    "Every number links back to the judgments behind it in the **Judgments** tab."
)


def build_app(settings: Settings, store: ResultsStore | None = None, downloads_dir: Path | None = None) -> gr.Blocks:
    """The whole app; nothing is read or written until a page loads or a button is pressed."""
    store = store or ResultsStore(settings.data.runs_dir)
    downloads_dir = downloads_dir or Path(tempfile.gettempdir()) / "indic-wb-downloads"
    with gr.Blocks(title=TITLE, analytics_enabled=settings.app.analytics) as demo:
        gr.Markdown(INTRO)
        version = gr.State(None)
        context = AppContext(settings, store, downloads_dir, demo, version, TableCache())
        with gr.Tabs():
            with gr.Tab("Leaderboard", id="leaderboard"):
                leaderboard_tab.build(context)
            with gr.Tab("Plots", id="plots"):
                plots_tab.build(context)
            with gr.Tab("Judgments", id="judgments"):
                judgments_tab.build(context)
            with gr.Tab("Submit", id="submit"):
                submit_tab.build(context)
            with gr.Tab("About", id="about"):
                about_tab.build(context)
        timer = gr.Timer(settings.app.refresh_s)
        demo.load(lambda: results_version(store), outputs=version)
        timer.tick(lambda: results_version(store), outputs=version, show_progress="hidden")
    return demo


def results_version(store: ResultsStore) -> str:
    """A short digest of every run folder's stamps: equal digests mean nothing changed on disk."""
    signature = repr(store.snapshot().signature).encode()
    return hashlib.sha256(signature).hexdigest()[:16]
