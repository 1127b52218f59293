"""What a grid cuts: every cell of a Gradio grid whose text is not drawn whole, read from the DOM in Chromium.

A cell's text is cut when an element in it is wider than its box (`scrollWidth > clientWidth`: a clip) or
ends in an ellipsis. Gradio draws only the rows in view, so `cut_cells` scrolls the grid from its top to its
bottom and reads the rows at each stop. A phone shows a long model id's last lines only (clipped from the
top, on purpose): `id_ends_shown` checks that its last characters, what tells two siblings apart, lie
inside its cell and every box that clips it.
"""

from __future__ import annotations

from playwright.sync_api import Page

TOLERANCE_PX = 1
SCROLL_PAUSE_MS = 250
"""How long the grid gets to draw the rows a scroll brought into view."""
CUT_JS = """([grid, tolerance]) => {
  const heads = Array.from(grid.querySelectorAll('[role=columnheader]')).map(h => h.innerText.trim());
  const cut = [];
  for (const cell of grid.querySelectorAll('[role=gridcell]')) {
    if (!cell.offsetParent || !cell.innerText.trim()) continue;
    for (const element of [cell, ...cell.querySelectorAll('*')]) {
      const style = getComputedStyle(element);
      const wide = element.clientWidth > 0 && element.scrollWidth > element.clientWidth + tolerance;
      const ellipsis = style.textOverflow === 'ellipsis' && element.scrollWidth > element.clientWidth;
      if (wide || ellipsis) {
        cut.push({row: cell.dataset.row, column: heads[cell.dataset.col], text: cell.innerText.trim(),
                  element: element.tagName, width: [element.scrollWidth, element.clientWidth],
                  overflow: style.textOverflow});
        break;
      }
    }
  }
  return cut;
}"""
ENDS_JS = """([grid, tail]) => Array.from(grid.querySelectorAll('[role=gridcell] a[title]'))
  .filter(link => link.offsetParent && link.textContent.trim() === link.title)
  .map(link => {
    const text = link.firstChild;
    const range = document.createRange();
    range.setStart(text, text.length - tail);
    range.setEnd(text, text.length);
    const end = range.getBoundingClientRect();
    const within = box => end.width > 0 && end.left >= box.left - 1 && end.right <= box.right + 1
      && end.top >= box.top - 1 && end.bottom <= box.bottom + 1;
    const cell = link.closest('[role=gridcell]');
    let shown = within(cell.getBoundingClientRect());
    for (let box = link; shown && box !== cell; box = box.parentElement) {
      const style = getComputedStyle(box);
      if (style.overflowX !== 'visible' || style.overflowY !== 'visible') shown = within(box.getBoundingClientRect());
    }
    return {id: link.title, shown};
  })"""


def _viewport(page: Page, elem_id: str):
    return page.locator(f"#{elem_id} .virtual-table-viewport")


def _through(page: Page, elem_id: str, script: str, argument: object) -> list[dict]:
    """`script`'s findings at each stop of a scroll through the grid, from its top to its bottom."""
    grid, viewport = page.locator(f"#{elem_id}"), _viewport(page, elem_id)
    grid.scroll_into_view_if_needed()
    height, step = viewport.evaluate("v => [v.scrollHeight, Math.max(v.clientHeight / 2, 1)]")
    found: list[dict] = []
    position = 0.0
    while True:
        viewport.evaluate("(v, top) => { v.scrollTop = top; }", position)
        page.wait_for_timeout(SCROLL_PAUSE_MS)
        found += page.evaluate(script, [grid.element_handle(), argument])
        if position >= height:
            break
        position += step
    viewport.evaluate("v => { v.scrollTop = 0; }")
    return found


def cut_cells(page: Page, elem_id: str) -> list[dict]:
    """Every cell of the grid `#elem_id` whose text is cut (row, column, text, the element cutting it), once each."""
    unique = {(cut["row"], cut["column"]): cut for cut in _through(page, elem_id, CUT_JS, TOLERANCE_PX)}
    return list(unique.values())


def id_ends_shown(page: Page, elem_id: str, tail: int) -> dict[str, bool]:
    """Per model id linked in the grid (a link whose text is its title, the whole id), whether its last `tail`
    characters are drawn inside its cell, clipped by no box around them."""
    shown: dict[str, bool] = {}
    for found in _through(page, elem_id, ENDS_JS, tail):
        shown[found["id"]] = shown.get(found["id"], False) or found["shown"]
    return shown
