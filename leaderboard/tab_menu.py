"""A `<head>` script: Escape closes the phone's "More tabs" menu, as it closes a menu.

Gradio folds the tabs a narrow screen cannot fit into that menu, which closed only on a click. Escape clicks the
menu's own button (Gradio keeps its open state there) and gives it focus back: the keyboard user stays in place.
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
