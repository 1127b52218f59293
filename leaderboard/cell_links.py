"""A link in a grid cell opens when clicked (score links, flag badges, model names), and a row's
address travels once.

Gradio 6.31 redraws a grid cell on `mousedown` (it selects the cell): the `<a>` under the pointer
is replaced before the button comes up, so the `click` lands on the new element and no link is
ever followed. A capture-phase listener on the document keeps a press on a cell's link from
reaching the grid, so the link stays and the browser follows it as it says (Gradio writes
`target="_blank"`: a new tab, the board stays; Ctrl or ⌘ as usual). A press elsewhere in a cell
selects it as before.

Every score cell of a row links to the same run's items, narrowed by its column (`&language=Hindi`).
Written out in each of a 500-row board's 10,000 score cells, the run's address was most of the page
a first visit downloads; so a row carries it once, in its first linked cell, and the others link
`#+<that cell's column>&language=Hindi` (`row_links`). The head script makes such a link whole from
its row the moment it is pointed at, focused, pressed or followed, so the address a reader hovers,
copies or opens is the full one.
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
"""A `<head>` script for `launch(head=...)`: a press on a grid cell's link is the link's, not the grid's, and a
`row_links` link is made whole before it is used."""


def row_links(addresses: Sequence[str | None]) -> list[str | None]:
    """A row's cell links (by column; None: no link) with the row's address carried once.

    The first link stays whole; each later one that equals it or extends it (`<first>&language=Hindi`) becomes
    `#+<first's column>` plus what it adds, which `CELL_LINKS_HEAD` makes whole in the browser; any other stays
    as it is.
    """
    first = next((column for column, address in enumerate(addresses) if address), None)
    if first is None:
        return list(addresses)
    base = addresses[first]
    assert base is not None
    return [address if column == first or not address else _relative(address, base, first)
            for column, address in enumerate(addresses)]


def _relative(address: str, base: str, column: int) -> str:
    """`address` written against the row's first link `base` (in `column`) where it extends it."""
    if address == base or address.startswith(base + "&"):
        return f"{ROW_LINK}{column}{address[len(base):]}"
    return address
