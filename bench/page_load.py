"""Page load in Chromium: from `goto` until a view's content is on screen, for a reference revision's app and this
tree's, over one data folder of a realistic board (issues #38, #39).

The board is `language_tick.write_board`'s: `--writing-bench` WritingBench runs with 100-character ids, and Indic
QA and Saraiki runs evaluated by the real engine against stand-in servers. Both apps (`app.py` of `--reference`,
extracted with `git archive`, and of this tree) serve that folder at once. Each visit is a fresh browser context
(nothing cached, as a first visit), at 1440 px, of one of the views:

- `/`: the first tab's ranking (`#leaderboard-table`) on screen with its first row;
- `/?tab=qa`: the QA tab's ranking (`#qa-table`), the same way (not the first tab's, drawn before the tab moves);
- `/?tab=about`: the About text on screen;
- `/?model=<id>`: the model page naming that model.

Timed from `goto` until the view's content is on screen (polled every animation frame), median and p90 over
`--repeats`; beside it the bytes the visit transferred until then (the page itself and everything), the events
the page sent to the server's queue (`/gradio_api/queue/join`) by then, and the page's component count. The apps
(each `--reference` given, then this tree's) take turns visit by visit, so a change in the machine's load falls on
all of them.

    python bench/page_load.py --reference c1ef9ae --repeats 9 --record
    python bench/page_load.py --reference c1ef9ae --reference 32ddf79 --record   # before and after a change
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playwright.sync_api import Browser, sync_playwright  # noqa: E402

from bench.language_tick import add_board_arguments, write_board  # noqa: E402
from bench.record import publish  # noqa: E402
from bench.reference import ROOT, extract_revision  # noqa: E402
from tests.leaderboard.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.support.app_server import running_app  # noqa: E402
from tests.support.viewer_load import percentile  # noqa: E402

APP_PATHS = ["app.py", "eval_backend", "leaderboard"]
VISIT_TIMEOUT_MS = 120_000
RANKING_SHOWN_JS = """table => {
  const grid = document.getElementById(table);
  return Boolean(grid && grid.offsetParent && grid.querySelector('[role=gridcell][data-row="0"]'));
}"""
"""The tab's ranking (its element id, the same in both revisions) is on screen with its first row."""
ABOUT_SHOWN_JS = """() => {
  const about = document.querySelector('#about-text');
  return Boolean(about && about.offsetParent && about.innerText.trim().length > 200);
}"""
MODEL_SHOWN_JS = """model => {
  const page = document.querySelector('#model-page');
  return Boolean(page && page.offsetParent && page.innerText.includes(model));
}"""
TRANSFERRED_JS = """() => {
  const entries = [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')];
  const page = performance.getEntriesByType('navigation')[0];
  return {all: entries.reduce((sum, entry) => sum + (entry.transferSize || 0), 0),
          page: page ? page.transferSize : 0,
          components: (window.gradio_config && window.gradio_config.components || []).length};
}"""


VIEW_NAMES = ("/", "/?tab=qa", "/?tab=about", "/?model=<id>")


@dataclass(frozen=True)
class View:
    """A view a visitor opens: its address (after the app's root) and the script that says it is on screen (and
    the argument that script takes)."""

    name: str
    address: str
    shown_js: str
    shown_arg: str | None = None


@dataclass(frozen=True)
class Visit:
    """One visit's figures."""

    seconds: float
    all_bytes: int
    page_bytes: int
    components: int
    queue_joins: int


def main() -> int:
    args = parse_args()
    args.reference = args.reference or ["c1ef9ae"]
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="bench-page-load-") as tmp:
        root = Path(tmp)
        data_dir, datasets, _, counts = write_board(root, args)
        model = first_model(data_dir)
        views = [View("/", "", RANKING_SHOWN_JS, "leaderboard-table"),
                 View("/?tab=qa", "?tab=qa", RANKING_SHOWN_JS, "qa-table"),
                 View("/?tab=about", "?tab=about", ABOUT_SHOWN_JS),
                 View("/?model=<id>", f"?model={quote(model, safe='')}", MODEL_SHOWN_JS, model)]
        views = [view for view in views if not args.view or view.name in args.view]
        trees = {**{revision: extract_revision(root / f"reference-{number}", revision, APP_PATHS)
                    for number, revision in enumerate(dict.fromkeys(args.reference))}, "current": ROOT}
        with sync_playwright() as playwright, contextlib.ExitStack() as apps:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            urls = {label: apps.enter_context(running_app(data_dir, root / f"app-{number}.log", repo=tree,
                                                          **datasets)).url
                    for number, (label, tree) in enumerate(trees.items())}
            visits = alternating_visits(browser, urls, views, args.repeats)
            browser.close()
    rows = report(visits, views, counts, args)
    rows["machine load (1, 5, 15 min) before"] = " ".join(f"{load:.1f}" for load in load_before)
    rows["machine load (1, 5, 15 min) after"] = " ".join(f"{load:.1f}" for load in os.getloadavg())
    publish("Page load in Chromium, reference -> current", rows, args.record)
    return 0


def first_model(data_dir: Path) -> str:
    """A WritingBench model of the board (a 100-character id), read from its first summary."""
    summary = min((data_dir / "runs").glob("*/*/*/summary.json"))
    return json.loads(summary.read_text())["provenance"]["model"]


def alternating_visits(browser: Browser, urls: dict[str, str], views: list[View], repeats: int
                       ) -> dict[tuple[str, str], list[Visit]]:
    """`repeats` visits of each view per app, the apps taking turns visit by visit."""
    visits: dict[tuple[str, str], list[Visit]] = {(label, view.name): [] for label in urls for view in views}
    for _ in range(repeats):
        for view in views:
            for label, url in urls.items():
                visits[label, view.name].append(visit(browser, url, view))
    return visits


def visit(browser: Browser, url: str, view: View) -> Visit:
    """Open `view` in a fresh context; seconds from `goto` until its content is on screen, and what it cost."""
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    page = context.new_page()
    page.set_default_timeout(VISIT_TIMEOUT_MS)
    joins = []
    page.on("request", lambda request: joins.append(1) if "/gradio_api/queue/join" in request.url else None)
    started = time.perf_counter()
    page.goto(url + view.address, wait_until="commit")
    page.wait_for_function(view.shown_js, arg=view.shown_arg, polling="raf")
    seconds = time.perf_counter() - started
    transferred = page.evaluate(TRANSFERRED_JS)
    context.close()
    return Visit(seconds, transferred["all"], transferred["page"], transferred["components"], len(joins))


def report(visits: dict[tuple[str, str], list[Visit]], views: list[View], counts: dict[str, int],
           args: argparse.Namespace) -> dict[str, str]:
    labels = list(dict.fromkeys(label for label, _ in visits))
    rows = {"runs: WritingBench / Indic QA / Saraiki": " / ".join(str(count) for count in counts.values()),
            "apps": " -> ".join(labels), "visits per view and app (fresh context, 1440 px)": str(args.repeats)}
    for view in views:
        medians = {}
        for label in labels:
            seconds = [one.seconds for one in visits[label, view.name]]
            medians[label] = statistics.median(seconds)
        rows[f"{view.name}: median / p90"] = " -> ".join(
            f"{medians[label]:.2f} s / {_p90([one.seconds for one in visits[label, view.name]]):.2f} s"
            for label in labels)
        for reference in labels[:-1]:
            rows[f"{view.name}: current / {reference} median"] = f"{medians['current'] / medians[reference]:.2f}x"
        rows[f"{view.name}: queue events sent until shown"] = " -> ".join(
            _median_of(visits[label, view.name], "queue_joins") for label in labels)
        rows[f"{view.name}: KB transferred until shown (the page itself)"] = " -> ".join(
            f"{_median(visits[label, view.name], 'all_bytes') / 1024:.0f} "
            f"({_median(visits[label, view.name], 'page_bytes') / 1024:.0f})" for label in labels)
    rows["components in the page"] = " -> ".join(_median_of(visits[label, views[0].name], "components")
                                                 for label in labels)
    rows["CPUs"] = str(os.cpu_count())
    return rows


def _p90(seconds: list[float]) -> float:
    return seconds[0] if len(seconds) == 1 else percentile(seconds, 0.9)


def _median(visits: list[Visit], field: str) -> float:
    return statistics.median(getattr(one, field) for one in visits)


def _median_of(visits: list[Visit], field: str) -> str:
    return f"{_median(visits, field):g}"


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", action="append",
                        help="a git revision whose app is measured beside this tree's (repeatable; default c1ef9ae)")
    parser.add_argument("--repeats", type=int, default=7, help="visits of each view per app")
    parser.add_argument("--view", action="append", choices=VIEW_NAMES,
                        help="a view to visit (repeatable; default every view)")
    add_board_arguments(parser)
    parser.add_argument("--record", action="store_true", help="append the figures to bench/README.md")
    return parser.parse_args()


if __name__ == "__main__":
    sys.exit(main())
