"""A `<head>` script keeping keyboard focus off the page body: every dropdown's list leaves the Tab order.

Chromium makes a scrolling element focusable when nothing inside it is, as a Gradio dropdown's open list: Tab
moved focus into it, the dropdown closed and removed it, and focus fell to the body. Out of the Tab order (the
arrow keys still choose in it), Tab goes on to the next control.
"""

from __future__ import annotations

FOCUS_ORDER_HEAD = """<script>
new MutationObserver(() => document.querySelectorAll("ul.option-list:not([tabindex])")
  .forEach(list => list.setAttribute("tabindex", "-1")))
  .observe(document.documentElement, {childList: true, subtree: true});
</script>"""
