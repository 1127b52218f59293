"""A link to the Compare view: the two models compared and the pairwise matrix's benchmark, figure and size.

`?tab=compare&a=<run id>&b=<run id>&matrix=<benchmark>&figure=<figure>&top=15` opens the view with both models'
comparison and that matrix. An address is untrusted: a run id no store knows (or one leaving the runs folder), a
benchmark or figure that does not exist, or a malformed size is dropped, and the rest of the link still applies.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from eval_backend.benchmarks.registry import BENCHMARKS, DEFAULT_BENCHMARK
from leaderboard.item_links import known_run
from leaderboard.page_link import read_link
from leaderboard.pairwise_matrix import DEFAULT_MODELS, MAX_MODELS, figure_choices
from leaderboard.results import ResultsStore
from leaderboard.tab_links import TAB_PARAM

COMPARE_TAB = "compare"
"""The tab's id in the page (`app_factory` gives it to the tab): the address is written only while it is open."""
LINK_SCRIPT = f"""(a, b, matrix, figure, top) => {{
  const params = new URLSearchParams(window.location.search);
  if (params.get("{TAB_PARAM}") !== "{COMPARE_TAB}") return;
  const put = (key, value, fallback) => (value === null || value === undefined || value === "" || value === fallback)
    ? params.delete(key) : params.set(key, String(value));
  put("a", a);
  put("b", b);
  put("matrix", matrix, "{DEFAULT_BENCHMARK}");
  put("figure", figure);
  put("top", top, {DEFAULT_MODELS});
  window.history.replaceState(null, "", window.location.pathname + "?" + params.toString());
}}"""
"""Keeps the address in step with the view's controls (in the browser only: nothing is sent to the server)."""


@dataclass(frozen=True)
class CompareLink:
    """What a link asks the Compare view to show; None where it asks nothing (or what it asked is unknown)."""

    a: str | None = None
    b: str | None = None
    benchmark: str | None = None
    figure: str | None = None
    top: int | None = None

    @property
    def empty(self) -> bool:
        return self == CompareLink()


def parse_compare_link(query: object, stores: Mapping[str, ResultsStore]) -> CompareLink:
    """The link a query string describes, with every part the board does not hold dropped."""
    link = read_link(query)
    benchmark = link.choice("matrix", [name for name in BENCHMARKS if figure_choices(name)])
    figures = [name for _, name in figure_choices(benchmark or DEFAULT_BENCHMARK)]
    top = link.number("top", 2, MAX_MODELS)
    a, b = (next(filter(None, (known_run(store, link.text(side)) for store in stores.values())), None)
            for side in "ab")
    return CompareLink(a, b, benchmark, link.choice("figure", figures), None if top is None else int(top))
