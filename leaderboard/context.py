"""What every tab is built with: the settings, every benchmark's results store, and shared app-wide state."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Mapping

import gradio as gr

from eval_backend.settings import Settings
from leaderboard.first_view import FirstView
from leaderboard.results import ResultsStore


@dataclass(frozen=True)
class AppContext:
    """Built once in `build_app` and handed to each tab's `build`.

    `results_version` holds a digest of the run folders' stamps: its change event, fired when a run is added or
    re-scored, is how open pages refresh. `page_link` holds the address's query string (`?tab=qa&q=…`), set in
    the browser: its change event is how a shared link restores a view. `stores`: each benchmark's runs by name.
    """

    settings: Settings
    downloads_dir: Path
    demo: gr.Blocks
    results_version: gr.Textbox
    stores: Mapping[str, ResultsStore] = field(default_factory=dict)
    page_link: gr.Textbox | None = None
    first_view: FirstView | None = None


def as_updates(record: Any, components: Mapping[str, gr.components.Component]) -> dict[Any, Any]:
    """A callback's named record (a dataclass) as Gradio's {component: value} return form, each update a copy of
    the record's own."""
    # Gradio pops an update's "value" as it sends it: a record kept in a cache (a tab's renders) would answer the
    # next caller with an update that changes nothing.
    values = {field.name: getattr(record, field.name) for field in fields(record)}
    return {components[name]: dict(value) if isinstance(value, dict) else value for name, value in values.items()}
