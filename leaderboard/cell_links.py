"""A link in a grid cell opens when clicked (score links, flag badges, model names), and a row's address travels
once.

Gradio 6.31 redraws a grid cell on `mousedown` (it selects it): the `<a>` under the pointer was replaced before
the `click`, and no link was ever followed. A capture-phase listener keeps a press on a cell's link from the grid,
so the browser follows it (`target="_blank"`: a new tab); a press elsewhere in a cell selects it as before.

A 500-row board's 10,000 score cells each wrote out their run's address: most of a first visit's download. So a
row carries it once, in its first linked cell, and the others link `#+<that column>&language=Hindi`
(`row_links`), which the head script makes whole as soon as a link is pointed at, focused, pressed or followed.
"""

from __future__ import annotations

from typing import Sequence

ROW_LINK = "#+"
"""How a cell link that extends its row's first link starts: `#+<column of that link>` then what it adds."""

CELL_LINKS_HEAD = """<script>
(() => {
  const ROW_LINK = /^#\\+(\\d+)(&.*)?$/;
  const whole = (link) => {
    const compact = link.dataset.rowLink || link.getAttribute("href") || "";
    const parts = ROW_LINK.exec(compact);
    const cell = link.closest("[data-row]");
    if (!parts || !cell) return;
    link.dataset.rowLink = compact;
    const grid = cell.closest("table") || document;
    const first = grid.querySelector(`[data-row="${cell.dataset.row}"][data-col="${parts[1]}"] a[href]`);
    const base = first && !first.dataset.rowLink ? first.getAttribute("href") : null;
    if (base) { link.setAttribute("href", base + (parts[2] || "")); link.target = "_blank"; link.rel = "noopener"; }
  };
  const onLink = (event) => {
    const link = event.target.closest && event.target.closest("[role=gridcell] a[href]");
    if (link) whole(link);
    return link;
  };
  document.addEventListener("mousedown", (event) => { if (onLink(event)) event.stopPropagation(); }, true);
  for (const kind of ["mouseover", "focusin", "touchstart", "contextmenu", "click", "auxclick"]) {
    document.addEventListener(kind, onLink, true);
  }
})();
</script>"""


def row_links(addresses: Sequence[str | None]) -> list[str | None]:
    """A row's cell links (by column; None: no link) with the row's address carried once.

    The first link stays whole; each later one that equals it or extends it (`<first>&language=Hindi`) becomes
    `#+<first's column>` plus what it adds, which `CELL_LINKS_HEAD` makes whole in the browser; any other stays
    as it is.
    """
    first, base = next(((column, address) for column, address in enumerate(addresses) if address), (None, ""))
    return [f"{ROW_LINK}{first}{address[len(base):]}"
            if column != first and address and (address == base or address.startswith(base + "&")) else address
            for column, address in enumerate(addresses)]
