"""A benchmark tab's choice of ranking: as the seed scores it (the default) or controlled for answer length and style.

Shown only where the benchmark declares style features; the address carries the choice
(`?tab=qa&style=controlled`), so a link opens the controlled view, and choosing writes it.
"""

from __future__ import annotations

from typing import Any

import gradio as gr

from eval_backend.benchmarks.plugin import Benchmark
from leaderboard.context import AppContext
from leaderboard.page_link import read_link
from leaderboard.scored_tables import tab_id
from leaderboard.tab_links import first_tab, shown_tab
from leaderboard.style_view import CONTROLLED, SEED, STYLE_PARAM, VIEW_CHOICES

STYLE_URL_SCRIPT = """(style) => {{
  const params = new URLSearchParams(window.location.search);
  if ((params.get("tab") || "{first}") !== "{tab}") return;
  params.set("tab", "{tab}");
  style === "{controlled}" ? params.set("{param}", style) : params.delete("{param}");
  window.history.replaceState(null, "", window.location.pathname + "?" + params.toString());
}}"""
"""Keeps the address in step with the tab's ranking choice (in the browser only). An address that names no tab is
the first tab's: its choice names it there too, so that the address opens the view it shows."""


def style_choice(context: AppContext, benchmark: Benchmark) -> gr.Radio:
    """The tab's "Ranking" choice, read from a link's `style` and written to the address when changed; unrendered:
    the tab draws it under its rankings (a phone's first screen is rows)."""
    prefix = tab_id(benchmark)
    choice = gr.Radio(VIEW_CHOICES, value=SEED, label="Ranking", elem_id=f"{prefix}-style",
                      visible=bool(benchmark.board.style_features), render=False)
    choice.change(None, choice, None, js=STYLE_URL_SCRIPT.format(tab=prefix, first=first_tab(), controlled=CONTROLLED,
                                                               param=STYLE_PARAM))
    if context.page_link is not None and benchmark.board.style_features:
        context.page_link.change(lambda query: linked_style(query, prefix), context.page_link, choice,
                                 show_progress="hidden")
    return choice


def linked_style(query: str | None, prefix: str) -> Any:
    """The reading a link to this tab asks for (`style=controlled`; a link naming no tab is the first tab's); an
    address that names none leaves it."""
    link = read_link(query)
    if shown_tab(link) != prefix or not link.has(STYLE_PARAM):
        return gr.skip()
    return CONTROLLED if link.text(STYLE_PARAM) == CONTROLLED else SEED
