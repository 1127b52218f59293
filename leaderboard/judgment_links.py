"""A link to one judgment: the Judgments tab's model, comparison, filters and item in the page's address.

`?tab=judgments&model=<run id>&compare=<run id>&item=<config>:<index>&language=Hindi&score_min=5`
opens that model with the item's criteria on screen. Everything in an address is untrusted: a
run id the results store does not know (or one leaving the runs folder), an item the run does
not have, a filter value the run's items never take, or a malformed number is dropped, and
the rest of the link still applies.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import pandas as pd

from leaderboard.judgments import FILTER_FIELDS, ItemFilter, filter_choices, judgment_items
from leaderboard.results import ResultsStore, UnknownRunError
from leaderboard.page_link import bounded_index, read_link
from leaderboard.tab_links import TAB_PARAM

JUDGMENTS_TAB = "judgments"
"""The tab's id in the page (`app_factory` gives it to the tab): the address is written only while it is open."""
ANY = "All"
ITEM_SEPARATOR = ":"
SCORE_RANGE = (0.0, 10.0)
LINK_SCRIPT = f"""(model, compare, item, language, variant, domain, subdomain, scoreMin, scoreMax, unscored) => {{
  const params = new URLSearchParams(window.location.search);
  if (params.get("{TAB_PARAM}") !== "{JUDGMENTS_TAB}") return;
  const put = (key, value, fallback) => (value === null || value === undefined || value === "" || value === fallback)
    ? params.delete(key) : params.set(key, String(value));
  put("model", model);
  put("compare", compare);
  put("item", item);
  put("language", language, "{ANY}");
  put("variant", variant, "{ANY}");
  put("domain", domain, "{ANY}");
  put("subdomain", subdomain, "{ANY}");
  put("score_min", scoreMin, {SCORE_RANGE[0]:g});
  put("score_max", scoreMax, {SCORE_RANGE[1]:g});
  put("unscored", unscored ? "" : "0");
  window.history.replaceState(null, "", window.location.pathname + "?" + params.toString());
}}"""
"""Keeps the address in step with the tab's controls (in the browser only: nothing is sent to the server)."""


@dataclass(frozen=True)
class JudgmentLink:
    """What a link asks the Judgments tab to show; None (or the filter's defaults) where it asks nothing."""

    model: str | None = None
    compare: str | None = None
    item: tuple[str, int] | None = None
    filter: ItemFilter = ItemFilter()


def parse_link(query: str) -> JudgmentLink:
    """The link a query string (`?model=…&item=…`, with or without the `?`) describes; malformed values dropped.

    Run ids are only read here; `resolve_link` checks them against the results.
    """
    link = read_link(query)
    fields = {name: link.text(name) for name in FILTER_FIELDS if link.text(name, ANY) != ANY}
    low, high = link.number("score_min", *SCORE_RANGE), link.number("score_max", *SCORE_RANGE)
    low, high = SCORE_RANGE[0] if low is None else low, SCORE_RANGE[1] if high is None else high
    if low > high:  # an empty range lists nothing: a link that asks for one is malformed
        low, high = SCORE_RANGE
    return JudgmentLink(
        model=link.text("model") or None,
        compare=link.text("compare") or None,
        item=parse_item_key(link.text("item")),
        filter=ItemFilter(**fields, score_min=low, score_max=high, include_unscored=link.text("unscored") != "0"),
    )


def resolve_link(store: ResultsStore, link: JudgmentLink) -> JudgmentLink | None:
    """`link` with what the results do not hold dropped; None when it names no model the board has."""
    model = known_run(store, link.model)
    if model is None:
        return None
    try:
        items = judgment_items(store.details(model))
    except (UnknownRunError, FileNotFoundError):
        return None
    compare = known_run(store, link.compare) if link.compare != model else None
    choices = filter_choices(items)
    kept = {name: value for name in FILTER_FIELDS if (value := getattr(link.filter, name)) in choices[name]}
    chosen = dataclasses.replace(link.filter, **{name: kept.get(name) for name in FILTER_FIELDS})
    return JudgmentLink(model, compare, link.item if _has_item(items, link.item) else None, chosen)


def item_key(config: str, index: int) -> str:
    """An item as the address writes it: `<config>:<index>`, e.g. `Hindi:3`."""
    return f"{config}{ITEM_SEPARATOR}{index}"


def parse_item_key(text: object) -> tuple[str, int] | None:
    """(config, index) of an `item_key`, or None when the text is not one (an index past `bounded_index` neither)."""
    config, separator, digits = (text if isinstance(text, str) else "").rpartition(ITEM_SEPARATOR)
    index = bounded_index(digits)
    return (config, index) if separator and config and index is not None else None


def known_run(store: ResultsStore, run_id: str | None) -> str | None:
    """`run_id` when the store has that run, else None (a link's run id is untrusted)."""
    if not run_id:
        return None
    try:
        return store.run(run_id).run_id  # refuses ids outside the runs folder, and folders the board skips
    except UnknownRunError:
        return None


def _has_item(items: pd.DataFrame, item: tuple[str, int] | None) -> bool:
    return item is not None and bool(((items["config"] == item[0]) & (items["index"] == item[1])).any())
