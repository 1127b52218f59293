"""The open tab in the page's address: `?tab=<id>` opens that tab, and choosing a tab writes it there.

With each tab's own parameters (`tabs.ranking_controls`) this makes the address a link to
the view on screen. Only known tab ids are honoured; anything else opens the first tab.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import gradio as gr

from eval_backend.benchmarks.registry import BENCHMARKS, DEFAULT_BENCHMARK
from leaderboard.page_link import PageLink, read_link
from leaderboard.scored_tables import tab_id

TAB_PARAM = "tab"
WRITE_TAB_SCRIPT = f"""(tab) => {{
  if (!tab) return;
  const params = new URLSearchParams(window.location.search);
  params.set("{TAB_PARAM}", tab);
  window.history.replaceState(null, "", window.location.pathname + "?" + params.toString());
}}"""


def link_tabs(page_link: gr.Textbox, tabs: gr.Tabs, former: Mapping[str, str] | None = None) -> None:
    """Open the tab a link names when the page opens with one (a tab's former id, a key of `former`: the tab it
    names now); keep the address in step with the tab chosen."""
    known = tab_ids(tabs)

    def open_linked(query: str) -> Any:
        tab = linked_tab(read_link(query), known, former or {})
        return gr.skip() if tab is None else gr.Tabs(selected=tab)

    def chosen(evt: gr.SelectData) -> str:
        return known[evt.index] if isinstance(evt.index, int) and 0 <= evt.index < len(known) else ""

    # The tab's id comes from the server (on a phone the tab is picked from a menu, not a tab button).
    chosen_id = gr.Textbox(visible=False)
    page_link.change(open_linked, page_link, tabs, show_progress="hidden")
    tabs.select(chosen, None, chosen_id, show_progress="hidden").then(None, chosen_id, None, js=WRITE_TAB_SCRIPT)


def tab_ids(tabs: gr.Tabs) -> tuple[str, ...]:
    """The ids given to the tabs in `tabs` (`gr.Tab(..., id=...)`), in order."""
    return tuple(str(child.id) for child in tabs.children if isinstance(child, gr.Tab) and child.id is not None)


def first_tab() -> str:
    """The tab an address without `tab=` shows: the default benchmark's, which `app_factory` puts first."""
    return tab_id(BENCHMARKS[DEFAULT_BENCHMARK])


def shown_tab(link: PageLink) -> str:
    """The tab a link's own parameters are for: the one it names, else the first (`?style=controlled` alone is the
    first tab's view)."""
    return link.text(TAB_PARAM) or first_tab()


MODEL_PAGE_TAB = "model"
"""The tab a link naming a `model` and no tab opens (`?model=org/name`: that model's page)."""


def linked_tab(link: PageLink, tab_ids: Sequence[str], former: Mapping[str, str] | None = None) -> str | None:
    """The tab id a link names, when it is one of `tab_ids` or a former id of one (`former`: old id -> id); a link
    with a `model` and no tab opens the model page (None: leave the tab open as it is)."""
    if not link.has(TAB_PARAM) and link.has("model") and MODEL_PAGE_TAB in tab_ids:
        return MODEL_PAGE_TAB
    named = link.choice(TAB_PARAM, tab_ids)
    renamed = (former or {}).get(link.text(TAB_PARAM))
    return named or (renamed if renamed in tab_ids else None)
