"""The phone's tab menu closes on Escape, as a menu does.

On a narrow screen Gradio folds the tabs that do not fit into a "More tabs" menu, which closes
only on a click. Escape now closes it too, through the menu's own button (Gradio keeps its
open state there), and gives focus back to that button so the keyboard user is where they were.
"""

from __future__ import annotations

TAB_MENU_HEAD = """<script>
document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape") return;
  for (const menu of document.querySelectorAll(".overflow-menu")) {
    const list = menu.querySelector(".overflow-dropdown"), toggle = menu.querySelector("button[aria-label]");
    if (list && toggle && !list.classList.contains("hide")) { toggle.click(); toggle.focus(); }
  }
});
</script>"""
"""A `<head>` script for `launch(head=...)`: Escape closes an open "More tabs" menu."""
