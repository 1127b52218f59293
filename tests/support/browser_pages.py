"""Pages for the browser tests: the two widths the board is read at, and a fresh page in a context of its own.

Every browser test opens its view at a laptop's width; a test about layout or touch (what is on the first
screen, what overflows sideways, what a thumb can hit) runs at a phone's width too, by `both_widths` on a
`page` fixture that reads its width from `request.param` (`width_of`). A test about layout that must hold
however the page got its width checks the laptop's width, then `resize`s the same page to the phone's and checks
again: one page load, not two.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page

LAPTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}
UI_TIMEOUT_MS = 20_000
"""How long a page action waits: under a parallel `make test` on 2 cores a Gradio page can render late."""

both_widths = pytest.mark.parametrize("page", [LAPTOP, PHONE], indirect=True, ids=["1440", "390"])
"""Run a test whose `page` fixture takes its width from `request.param` at a laptop's and a phone's width."""


def width_of(request: pytest.FixtureRequest) -> dict:
    """The viewport a `page` fixture opens: the phone's where the test is marked `both_widths`, else the laptop's."""
    return getattr(request, "param", LAPTOP)


def new_page(browser: Browser, viewport: dict, url: str | None = None) -> Page:
    """A page in a fresh context (its own cookies and storage) at `viewport`, opened at `url` when given.

    Close it with `page.context.close()`.
    """
    page = browser.new_context(viewport=viewport, accept_downloads=True).new_page()
    page.set_default_timeout(UI_TIMEOUT_MS)
    if url is not None:
        page.goto(url)
    return page


def resize(page: Page, viewport: dict) -> None:
    """Give the open page `viewport`'s size and wait until it has drawn at it: the @media rules apply at once, the
    grids measure their rows again within the next two animation frames. A Plotly plot redraws later (its resize
    handler waits a moment): wait for the plot itself."""
    page.set_viewport_size(viewport)
    page.wait_for_function("width => window.innerWidth === width", arg=viewport["width"])
    two_frames(page)


def two_frames(page: Page) -> None:
    """Wait for the page to draw twice: what a change just set in motion (a resize, a click's re-render) is drawn."""
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")


def wait_until_laid_out(page: Page) -> None:
    """Wait until the page no longer reaches past the window's right edge: after a resize the plots redraw for the
    new width when the window's resize event reaches them (a page that stays wider fails here, by timing out)."""
    page.wait_for_function("() => document.scrollingElement.scrollWidth <= window.innerWidth + 1")


def open_filters(page: Page, tab: str) -> None:
    """Unfold a benchmark tab's column groups and filters (`ranking_controls.build`), folded at first; left
    as they are when unfolded already."""
    from leaderboard.tabs.ranking_controls import FILTERS_TITLE  # the app's own title, not a copy

    if not page.locator(f"#{tab}-hide-flags").is_visible():  # a link that sets a filter unfolds them itself
        page.locator(f"#{tab}-filters").get_by_text(FILTERS_TITLE).click()
    page.locator(f"#{tab}-hide-flags").wait_for()


def open_plots(page: Page, tab: str) -> None:
    """Unfold a benchmark tab's plots (`benchmark_plots.build`), folded and undrawn until a viewer opens them."""
    from leaderboard.tabs.benchmark_plots import PLOTS_TITLE  # the app's own title, not a copy

    _unfold(page, f"{tab}-plots", PLOTS_TITLE, f"{tab}-top-n")


def open_breakdowns(page: Page, tab: str) -> None:
    """Unfold a benchmark tab's figures per group (`benchmark_tab.build`), folded and undrawn until opened."""
    from leaderboard.tabs.benchmark_tab import BREAKDOWNS_TITLE  # the app's own title, not a copy

    _unfold(page, f"{tab}-breakdowns", BREAKDOWNS_TITLE, f"{tab}-breakdown")


def _unfold(page: Page, fold: str, title: str, inside: str) -> None:
    """Open the fold `#<fold>` by its title until `#<inside>` shows; left as it is when open already."""
    if not page.locator(f"#{inside}").is_visible():
        page.locator(f"#{fold}").get_by_text(title, exact=True).first.click()
    page.locator(f"#{inside}").wait_for()
