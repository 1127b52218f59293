"""Long pages with a table of contents, and sections a link opens (`?tab=about#h-judge-consistency`).

`heading_id` computes the id Gradio gives a heading (`header_links=True`), so the contents link the headings it
renders. A page opened at such a hash has no heading until the tab is drawn: `SECTION_LINK_HEAD` then scrolls.
"""

from __future__ import annotations

import re
from typing import Iterable

_HEADING = re.compile(r"^##\s+(.+?)\s*$", re.MULTILINE)


def heading_id(heading: str) -> str:
    """The id Gradio gives a Markdown heading: `h-`, then its lower-cased words joined by hyphens, punctuation dropped."""
    words = re.sub(r"[^\w\s-]", "", heading.lower(), flags=re.UNICODE)
    return "h-" + re.sub(r"\s", "-", words.strip())


def contents(texts: Iterable[str]) -> str:
    """A markdown list linking every second-level heading of `texts`, in order."""
    headings = [match.group(1) for text in texts for match in _HEADING.finditer(text)]
    return "**Contents:** " + " · ".join(f"[{heading}](#{heading_id(heading)})" for heading in headings)


SECTION_LINK_HEAD = """<script>
(() => {
  const target = decodeURIComponent(window.location.hash.slice(1));
  if (!target) return;
  const seen = new MutationObserver(() => {
    const heading = document.getElementById(target);
    if (!heading || heading.offsetParent === null) return;
    seen.disconnect();
    heading.scrollIntoView({block: "start"});
  });
  seen.observe(document.documentElement, {childList: true, subtree: true, attributes: true});
  setTimeout(() => seen.disconnect(), 30000);
})();
</script>"""
