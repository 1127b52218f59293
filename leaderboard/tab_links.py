"""The open tab in the page's address: `?tab=<id>` opens that tab, and choosing a tab writes it there.

With the board's own parameters (`leaderboard_tab.URL_SCRIPT`) this makes the address a link to
the view on screen. Only known tab ids are honoured; anything else opens the first tab.
"""

from __future__ import annotations

from typing import Any, Sequence
from urllib.parse import parse_qs

import gradio as gr

TAB_PARAM = "tab"
WRITE_TAB_SCRIPT = f"""(tab) => {{
  if (!tab) return;
  const params = new URLSearchParams(window.location.search);
  params.set("{TAB_PARAM}", tab);
  window.history.replaceState(null, "", window.location.pathname + "?" + params.toString());
}}"""


def link_tabs(page_link: gr.Textbox, tabs: gr.Tabs) -> None:
    """Open the tab a link names when the page opens with one; keep the address in step with the tab chosen."""
    known = tab_ids(tabs)

    def open_linked(query: str) -> Any:
        return gr.Tabs(selected=linked_tab(link_params(query), known))

    def chosen(evt: gr.SelectData) -> str:
        return known[evt.index] if isinstance(evt.index, int) and 0 <= evt.index < len(known) else ""

    # The tab's id comes from the server (on a phone the tab is picked from a menu, not a tab button).
    chosen_id = gr.Textbox(visible=False)
    page_link.change(open_linked, page_link, tabs, show_progress="hidden")
    tabs.select(chosen, None, chosen_id, show_progress="hidden").then(None, chosen_id, None, js=WRITE_TAB_SCRIPT)


def link_params(query: str | None) -> dict[str, str]:
    """A page address's query string (`?tab=qa&q=x`) as {name: last value}; malformed parts are dropped."""
    return {name: values[-1] for name, values in parse_qs((query or "").lstrip("?")).items()}


def tab_ids(tabs: gr.Tabs) -> tuple[str, ...]:
    """The ids given to the tabs in `tabs` (`gr.Tab(..., id=...)`), in order."""
    return tuple(str(child.id) for child in tabs.children if isinstance(child, gr.Tab) and child.id is not None)


def linked_tab(params: dict[str, str], tab_ids: Sequence[str]) -> str | None:
    """The tab id a link's parameters name, when it is one of `tab_ids` (None: leave the first tab open)."""
    wanted = params.get(TAB_PARAM)
    return wanted if wanted in tab_ids else None
