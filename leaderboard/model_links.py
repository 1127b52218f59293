"""The address of a model's page: `?tab=model&model=org/name&revision=<rev>` (`?model=org/name` opens it too).

A link's id is untrusted: it is only looked up among the runs on the board, never used as a path.
"""

from __future__ import annotations

from urllib.parse import urlencode

from leaderboard.page_link import PageLink
from leaderboard.tab_links import MODEL_PAGE_TAB, TAB_PARAM


def model_address(model: str, revision: str = "") -> str:
    """The address of `model`'s page at `revision` (blank: `model_page.DEFAULT_REVISION_RULE` decides)."""
    params = {TAB_PARAM: MODEL_PAGE_TAB, "model": model, **({"revision": revision} if revision else {})}
    return "?" + urlencode(params)


def linked_model(link: PageLink) -> tuple[str, str] | None:
    """(model, revision) a link asks the model page for: `model` with no tab, or with `tab=model`; else None."""
    if not link.has("model") or link.text(TAB_PARAM, MODEL_PAGE_TAB) != MODEL_PAGE_TAB:
        return None
    return link.text("model"), link.text("revision")
