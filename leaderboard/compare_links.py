"""A link to the Compare view: the two models compared and the pairwise matrix's benchmark, figure and size.

`?tab=compare&a=<run id>&b=<run id>&matrix=<benchmark>&figure=<figure>&top=15` opens the view with
both models' comparison and that matrix. Everything in an address is untrusted: a run id no
benchmark's results store knows (or one leaving the runs folder), a benchmark or figure that
does not exist, or a malformed size is dropped, and the rest of the link still applies.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from eval_backend.benchmarks.registry import BENCHMARKS, DEFAULT_BENCHMARK
from leaderboard.page_link import read_link
from leaderboard.pairwise_matrix import DEFAULT_MODELS, MAX_MODELS, figure_choices
from leaderboard.results import ResultsStore, UnknownRunError
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
    return CompareLink(
        a=known_run(stores, link.text("a")),
        b=known_run(stores, link.text("b")),
        benchmark=benchmark,
        figure=link.choice("figure", figures),
        top=None if top is None else int(top),
    )


def known_run(stores: Mapping[str, ResultsStore], run_id: str) -> str | None:
    """`run_id` when some benchmark's store has a run folder of it (its own check refuses paths outside it)."""
    if not run_id:
        return None
    for store in stores.values():
        try:
            return store.run(run_id).run_id
        except UnknownRunError:
            continue
    return None
