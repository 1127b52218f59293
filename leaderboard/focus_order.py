"""Keyboard focus that never falls to the page body.

Chromium makes a scrolling element focusable when nothing inside it is. A Gradio dropdown's
open list of choices is one: Tab from the dropdown moves focus into that list, the dropdown
then closes and removes it, and focus drops to the body (the next Tab starts from there).
Taking the list out of the Tab order (the arrow keys still choose in it) sends Tab on to the
next control.
"""

from __future__ import annotations

FOCUS_ORDER_HEAD = """<script>
new MutationObserver(() => document.querySelectorAll("ul.option-list:not([tabindex])")
  .forEach(list => list.setAttribute("tabindex", "-1")))
  .observe(document.documentElement, {childList: true, subtree: true});
</script>"""
"""A `<head>` script for `launch(head=...)`: every dropdown's list, as it appears, leaves the Tab order."""
