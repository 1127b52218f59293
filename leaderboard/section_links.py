"""Long pages with a table of contents, and sections a link opens (`?tab=about#h-judge-consistency`).

Gradio gives each heading of a Markdown component with `header_links=True` the id `h-` + its slug;
`heading_id` computes the same id, so a contents list built here links headings Gradio renders
(a browser test checks every link lands on its heading). A page opened with such a hash has no
heading to scroll to until the tab is drawn: `SECTION_LINK_HEAD` scrolls there when it appears.
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
"""A `<head>` script for `launch(head=...)`: a page opened at `#<heading id>` scrolls to that heading once drawn."""
