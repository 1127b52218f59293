"""Click-to-items: from a score cell's click to its items on screen, in Chromium, beside a reference revision.

Serves the same QA board (100-character ids among its models) with this tree's `app.py` and with a reference
revision's (extracted with `git archive`, never checked out), opens the QA tab, and clicks a row's Judge
accuracy cell: Gradio opens its link in a new browser tab. Timed from the click until that tab's item table
shows the clicked cell's items (the model chosen, rows listed); also noted whether the new tab drew anything of
another view first (the Leaderboard's table, the page header or tab bar, or the QA rankings above the items),
watched every animation frame from before its first paint. Timings on a shared 2-core machine are noisy:
read the ratio of the medians, measured in one run.

    python bench/click_to_items.py --reference 5bf2d6a --repeats 5 --record
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import parse_qs, urlparse

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playwright.sync_api import Page, sync_playwright  # noqa: E402

from bench.record import publish  # noqa: E402
from bench.reference import ROOT, extract_revision  # noqa: E402
from tests.leaderboard.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.leaderboard.test_item_views_browser import NEVER_DRAWN_JS, OTHER_VIEWS, QA_ID  # noqa: E402
from tests.support.app_server import running_app  # noqa: E402
from tests.support.qa_runs import QA_PROFILES, QaProfile, build_qa_runs  # noqa: E402

APP_PATHS = ["app.py", "eval_backend", "leaderboard"]
TIMEOUT_MS = 120_000
ITEMS_SHOWN_JS = """model => {
  const rows = document.querySelectorAll("#qa-items [role=row][aria-rowindex]:not([aria-rowindex='1'])");
  const chosen = document.querySelector("#qa-model input");
  return rows.length > 0 && Boolean(chosen) && chosen.value.startsWith(model);
}"""
"""The clicked cell's items are on screen: the link's model chosen and its items listed."""


def main() -> int:
    args = parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-click-to-items-") as tmp:
        data = build_qa_runs(Path(tmp), (*QA_PROFILES, QaProfile(QA_ID, lambda question, golden: f"It is {golden}.")))
        apps = {"current": ROOT}
        if args.reference:
            apps = {args.reference: extract_revision(Path(tmp) / "reference", args.reference, APP_PATHS), **apps}
        figures = {label: measure(tree, data.data_dir, Path(tmp) / f"app-{label}.log", args.repeats)
                   for label, tree in apps.items()}
    rows = {"board": f"QA, {len(QA_PROFILES) + 1} runs (one 100-character id)", "apps": " -> ".join(apps),
            "repeats": str(args.repeats)}
    for name in [name for name in figures["current"] if not name.startswith("_")]:
        rows[name] = " -> ".join(figures[label][name] for label in figures)
    if args.reference:
        reference, current = (statistics.median(figures[label]["_times"]) for label in (args.reference, "current"))
        rows["median ratio (current / reference)"] = f"{current / reference:.2f}"
    publish("Click-to-items", rows, args.record)
    return 0


def measure(tree: Path, data_dir: Path, log: Path, repeats: int) -> dict:
    """Median and range of click-to-items over `repeats` clicks, and whether another view was drawn first."""
    times, drawn = [], []
    with running_app(data_dir, log, repo=tree) as app, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for _ in range(repeats):
            context = browser.new_context(viewport={"width": 1440, "height": 900})
            context.add_init_script(f"({NEVER_DRAWN_JS})({OTHER_VIEWS!r})")
            board = context.new_page()
            board.set_default_timeout(TIMEOUT_MS)
            board.goto(f"{app.url}?tab=qa")
            elapsed, items = click_first_score(board)
            times.append(elapsed)
            drawn.append(sorted(set(items.evaluate("() => window.__drawn"))))
            context.close()
        browser.close()
    others = {view for seen in drawn for view in seen}
    return {"click to items, median (min–max)": f"{statistics.median(times):.2f} s ({min(times):.2f}–{max(times):.2f})",
            "another view drawn before the items": f"{sum(bool(seen) for seen in drawn)}/{len(drawn)}"
                                                    + (f" ({', '.join(sorted(others))})" if others else ""),
            "_times": times}


def click_first_score(board: Page) -> tuple[float, Page]:
    """Click the first row's Judge accuracy link; seconds until the new tab shows that run's items, and the tab."""
    link = board.locator('#qa-table [data-row="0"] a[href*="model="]').first
    link.wait_for()
    link.hover()  # a row's later links are made whole when pointed at (`cell_links`)
    run_id = parse_qs(urlparse(str(link.get_attribute("href"))).query)["model"][0]
    model = run_id.rsplit("/", 1)[0].replace("__", "/", 1)  # `<org>__<name>/<revision>`: the model chooser's id
    with board.context.expect_page() as opened:
        started = time.monotonic()
        link.click()
    items = opened.value
    items.set_default_timeout(TIMEOUT_MS)
    items.wait_for_function(ITEMS_SHOWN_JS, arg=model, timeout=TIMEOUT_MS, polling="raf")
    return time.monotonic() - started, items


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", help="a git revision whose app is measured first, over the same board")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--record", action="store_true", help="append the figures to bench/README.md")
    return parser.parse_args()


if __name__ == "__main__":
    sys.exit(main())
