"""A language tick in Chromium: from ticking a language in the ranking's "rank on chosen languages" control until
the table shows that language's ranking, on a board of the three benchmarks, for a reference and this tree.

The board: `--writing-bench` WritingBench runs with 100-character ids and a summary each (config scores drawn
at random, `leaderboard_scale.write_summary_folder`'s shape), and Indic QA and Saraiki runs evaluated by the
real engine against stand-in servers (`tests/support`), `--qa` and `--saraiki` of each. Each app (`app.py`
of `--ref`, extracted with `git archive`, and of `--tree`) serves the same data folder, both at once, each
to a page of its own at `?tab=leaderboard` with the filters unfolded. The pages take turns: each ticks one
language (Assamese, Bengali, …) and unticks it, then the other does the same: each tick is timed from the click to the table's first row being the run that ranks first on
the chosen language (unticked: on the standard ranking), read from the written summaries, so an
intermediate or stale table never counts. The control and the table are found by their label and headers,
not by element ids: "Rank on …" boxes named by the language, the visible grid with a "Model" header.

    python bench/language_tick.py --ref 5bf2d6a --ticks 20 --record
    python bench/language_tick.py --ref 5bf2d6a --tree /path/to/merged/main --record
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playwright.sync_api import Browser, Locator, Page, sync_playwright  # noqa: E402

from bench.leaderboard_scale import write_summary_folder  # noqa: E402
from bench.record import publish  # noqa: E402
from bench.reference import ROOT, extract_revision  # noqa: E402
from eval_backend.benchmarks.qa.plugin import INDIC_QA  # noqa: E402
from eval_backend.benchmarks.registry import DEFAULT_BENCHMARK  # noqa: E402
from eval_backend.benchmarks.saraiki.plugin import NAME as SARAIKI_NAME  # noqa: E402
from eval_backend.benchmarks.writing_bench.items import INDIC_CONFIGS  # noqa: E402
from tests.support.app_server import running_app  # noqa: E402
from tests.support.qa_runs import QaProfile, build_qa_runs  # noqa: E402
from tests.support.saraiki_runs import build_saraiki_runs  # noqa: E402
from tests.support.viewer_load import percentile  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
APP_PATHS = ["app.py", "eval_backend", "leaderboard"]
ID_CHARS = 100
FILTERS = re.compile(r"ranking on chosen languages", re.IGNORECASE)
"""The folded filters' title (its words, whatever else the title says)."""
TICK_TIMEOUT_MS = 120_000
TOP_MODEL_JS = """() => {
  for (const grid of document.querySelectorAll('.table-wrap')) {
    if (!grid.offsetParent) continue;
    const heads = Array.from(grid.querySelectorAll('[role=columnheader]')).map(h => h.innerText.trim());
    const column = heads.indexOf('Model');
    if (column < 0) continue;
    const cell = grid.querySelector(`[role=gridcell][data-row="0"][data-col="${column}"]`);
    if (!cell) return null;
    const link = cell.querySelector('a[title]');
    return link ? link.title : cell.innerText.trim();
  }
  return null;
}"""
"""The model of the first row of the first visible grid with a Model column: the ranking."""


def main() -> int:
    args = parse_args()
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="bench-language-tick-") as tmp:
        root = Path(tmp)
        data_dir, datasets, expected, counts = write_board(root, args)
        trees = {f"reference {args.ref}": extract_revision(root / "reference", args.ref, APP_PATHS),
                 f"tree {args.tree}": Path(args.tree)}
        with sync_playwright() as playwright, contextlib.ExitStack() as apps:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            pages = {label: board_page(browser, apps.enter_context(running_app(
                data_dir, root / f"app-{number}.log", repo=tree, **datasets)).url, expected)
                for number, (label, tree) in enumerate(trees.items())}
            times = alternating_ticks(pages, expected, args.ticks)
            browser.close()
    rows = report(times, counts, args)
    rows["load average (1 min) before / after"] = f"{load_before:.2f} / {os.getloadavg()[0]:.2f}"
    publish("Language tick in Chromium, reference -> tree (measured under load: a shared 2-core machine)",
            rows, args.record)
    return 0


def write_board(root: Path, args: argparse.Namespace) -> tuple[Path, dict[str, str], dict[str, str], dict[str, int]]:
    """The data folder, the datasets' settings, the expected first model per tick ("" for none ticked) and the
    number of runs per benchmark."""
    rng = random.Random(0)
    runs = root / "data" / "runs"
    models = [f"indic-nlp-research-collective-{number % 7}/" + f"longform-writer-{number:03d}-".ljust(
        ID_CHARS - len("indic-nlp-research-collective-0/"), "x") for number in range(args.writing_bench)]
    for model in models:
        write_summary_folder(runs / DEFAULT_BENCHMARK, model, rng)
    qa = build_qa_runs(root / "qa", [QaProfile(f"qa-lab-{number % 3}/answerer-{number:02d}", _answerer(number))
                                     for number in range(args.qa)])
    saraiki = build_saraiki_runs(root / "saraiki", {f"saraiki-lab/model-{number:02d}": number % 2 == 0
                                                    for number in range(args.saraiki)})
    shutil.copytree(qa.data_dir / "runs" / INDIC_QA.name, runs / INDIC_QA.name)
    shutil.copytree(saraiki.data_dir / "runs" / SARAIKI_NAME, runs / SARAIKI_NAME)
    datasets = {"QA_DATASET": str(qa.dataset_dir), "SARAIKI_DATASET": str(saraiki.dataset_dir)}
    counts = {name: len(list((runs / name).glob("*/*/summary.json"))) for name in (DEFAULT_BENCHMARK, INDIC_QA.name,
                                                                                  SARAIKI_NAME)}
    return root / "data", datasets, expected_leaders(runs / DEFAULT_BENCHMARK), counts


def _answerer(number: int):
    """A QA model right on some questions (which depends on the model), wrong on the rest."""
    return lambda question, golden: f"The answer is {golden}." if (len(question) + number) % 3 else "I do not know."


def expected_leaders(runs: Path) -> dict[str, str]:
    """The model ranked first on each language alone, and on the standard ranking (key ""), from the summaries."""
    summaries = [json.loads(path.read_text()) for path in runs.glob("*/*/summary.json")]
    leaders = {"": max(summaries, key=lambda s: s["config_groups"]["indic"])["provenance"]["model"]}
    for language in INDIC_CONFIGS:
        leaders[language] = max(summaries, key=lambda s: s["configs"][language])["provenance"]["model"]
    return leaders


def board_page(browser: Browser, url: str, expected: dict[str, str]) -> Page:
    """A page at the ranking, its standard ranking drawn and its filters unfolded."""
    page = browser.new_context(viewport={"width": 1440, "height": 900}).new_page()
    page.set_default_timeout(TICK_TIMEOUT_MS)
    page.goto(url + "?tab=leaderboard")
    page.wait_for_function(f"() => ({TOP_MODEL_JS})() === {json.dumps(expected[''])}")
    page.get_by_text(FILTERS).filter(visible=True).first.click()
    return page


def alternating_ticks(pages: dict[str, Page], expected: dict[str, str], count: int) -> dict[str, list[float]]:
    """Seconds from each tick (and untick) to the ranking it asks for, `count` ticks per app, the apps taking
    turns tick by tick (so a change in the machine's load falls on both)."""
    languages = [language for language in INDIC_CONFIGS if expected[language] != expected[""]]
    times: dict[str, list[float]] = {label: [] for label in pages}
    for number in range(count):
        language = languages[number % len(languages)]
        for label, page in pages.items():
            box = page.get_by_role("checkbox", name=language, exact=True).filter(visible=True).first
            box.wait_for(state="visible")
            times[label].append(tick(page, box, expected[language]))
            times[label].append(tick(page, box, expected[""]))
    return times


def tick(page: Page, box: Locator, leader: str) -> float:
    """Seconds from clicking `box` to the ranking's first row being `leader`."""
    box.scroll_into_view_if_needed()
    started = time.perf_counter()
    box.click()
    page.wait_for_function(f"() => ({TOP_MODEL_JS})() === {json.dumps(leader)}", polling="raf")
    return time.perf_counter() - started


def report(times: dict[str, list[float]], counts: dict[str, int], args: argparse.Namespace) -> dict[str, str]:
    rows = {"runs: WritingBench / Indic QA / Saraiki": " / ".join(str(count) for count in counts.values()),
            "ticks per app (each a tick and an untick)": f"{args.ticks} ({2 * args.ticks} timed)"}
    medians = {}
    for label, timed in times.items():
        medians[label] = statistics.median(timed)
        rows[f"{label}: median / p90 / max"] = (f"{medians[label]:.2f} s / {percentile(timed, 0.9):.2f} s"
                                                f" / {max(timed):.2f} s")
    first, second = medians.values()
    rows["tree / reference median time"] = f"{second / first:.2f}x"
    rows["CPUs"] = str(os.cpu_count())
    return rows


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ref", default="5bf2d6a", help="the git revision measured first (its app.py, engine, board)")
    parser.add_argument("--tree", default=str(ROOT), help="the checkout measured second (default: this working tree)")
    parser.add_argument("--ticks", type=int, default=20)
    add_board_arguments(parser)
    parser.add_argument("--record", action="store_true", help="append the figures to bench/README.md")
    return parser.parse_args()


def add_board_arguments(parser: argparse.ArgumentParser) -> None:
    """`write_board`'s runs per benchmark: `--writing-bench`, `--qa`, `--saraiki`."""
    parser.add_argument("--writing-bench", type=int, default=130)
    parser.add_argument("--qa", type=int, default=10)
    parser.add_argument("--saraiki", type=int, default=10)


if __name__ == "__main__":
    sys.exit(main())
