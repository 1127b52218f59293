"""A link in a grid cell opens when clicked (score links, flag badges, model names).

Gradio 6.31 redraws a grid cell on `mousedown` (it selects the cell): the `<a>` under the pointer
is replaced before the button comes up, so the `click` lands on the new element and no link is
ever followed. A capture-phase listener on the document keeps a press on a cell's link from
reaching the grid, so the link stays and the browser follows it as it says (Gradio writes
`target="_blank"`: a new tab, the board stays; Ctrl or ⌘ as usual). A press elsewhere in a cell
selects it as before.
"""

from __future__ import annotations

CELL_LINKS_HEAD = """<script>
document.addEventListener("mousedown", (event) => {
  if (event.target.closest && event.target.closest("[role=gridcell] a[href]")) event.stopPropagation();
}, true);
</script>"""
"""A `<head>` script for `launch(head=...)`: a press on a grid cell's link is the link's, not the grid's."""
