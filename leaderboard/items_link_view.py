"""A link to a run's items draws only the items: nothing of another tab, nor of the board around the items.

A score cell opens `?tab=qa&model=<run id>&config=hindi` in a new browser tab, which showed the first tab until
the server had chosen the linked one (seconds on a loaded machine). This `<head>` script runs before the page
draws: for an address naming a tab and a model, everything beside the path to that tab's item browser
(`#<tab>-item-browser`, or that of the tab a former id names now) is left out (`display: none`, via `:has()`).
The line above the items links the whole board (the address without the model), drawn as usual.
"""

from __future__ import annotations

import json
from typing import Mapping

WHOLE_BOARD_CLASS = "whole-board"


def items_link_head(former_tabs: Mapping[str, str]) -> str:
    """The `<head>` script for `launch(head=...)`; `former_tabs` maps a tab's former id to its id now."""
    return """<script>
(() => {
  const params = new URLSearchParams(location.search);
  const asked = params.get("tab") || "";
  if (!asked || !(params.get("model") || params.get(asked + "_model"))) return;
  // The tab's own browser, or that of the tab a former id names now (whichever the page has).
  const tabs = [asked, (%(former)s)[asked]].filter(Boolean);
  const browser = tabs.map((tab) => `#${CSS.escape(tab)}-item-browser`).join(", ");
  const style = document.createElement("style");
  // Until the item browser is in the page, nothing of it is drawn; then every element beside the path from the
  // page's root to it is left out.
  style.textContent = `body:not(:has(${browser})) .gradio-container { visibility: hidden; }
    body *:has(${browser}) > *:not(:has(${browser})):not(:is(${browser})) { display: none !important; }`;
  document.head.appendChild(style);
})();
</script>""" % {"former": json.dumps(dict(former_tabs))}
