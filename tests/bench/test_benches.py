"""Every bench runs from this checkout in its smallest setting, so a broken bench is found here, not by the
next reader. The figures are not checked (they mean something only at full size): that the bench runs to
its table, with its reference where it has one, and writes nothing into bench/README.md without --record.

`vllm_overhead.py` needs vLLM (`.venv-vllm`, `make test-vllm`) and `gpu_check.sh` a GPU; neither runs here.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SMALLEST = {
    "judge_throughput": (["--items-per-config", "1", "--query-chars", "300", "--latency", "0.01",
                          "--concurrency", "4", "--sequential-calls", "5"], "speed-up over one at a time"),
    # Its default reference: a commit of main, extracted with `git archive`.
    "judge_throughput --ladder": (["--ladder", "--latency", "0.02", "--seconds-per-rung", "1", "--rates", "50",
                                   "--reference", "6dc78f4"], r"50/s ideal \(1 in flight\): share of ideal"),
    "batch_judging": (["--items-per-config", "1", "--query-chars", "300", "--poll-s", "0.05"], "peak memory"),
    "leaderboard_scale": (["--models", "3", "--repeats", "1"], "main table"),
    # Its reference's app and the current one, each started once (the crowd of Chromium visits left out).
    "concurrent_viewers": (["--viewers", "2", "--models", "3", "--reference", "86da067", "--no-static-files"],
                           r"\w+ -> current"),
    # Its reference: a commit of main, each side starting a board over the same run folders in a child process.
    "cold_board": (["--models", "3", "--repeats", "1", "--reference", "939a856"],
                   r"every run ranked by the joint bootstrap: reference / current\s+True / True"),
    "interval_draws": (["--seeds", "3", "--models", "3", "--joint-models", "2", "--joint-seeds", "2", "--repeats", "1"],
                       r"joint bootstrap time, 1,000 draws / set per figure"),
    # Its reference's app and the current one, each started once over the same runs.
    "start_up": (["--models", "3", "--busy", "0", "--reference", "5bf2d6a"],
                 r"quiet: board on the page, \w+ / current\s+[\d.]+ s / [\d.]+ s \([\d.]+x\)"),
    "joint_bootstrap": (["--models", "3", "--replicates", "20", "--repeats", "1", "--folders"],
                        r"same intervals and rank intervals\s+True"),
    "style_control": (["--models", "3", "--replicates", "20", "--repeats", "1"],
                      r"raw side is the joint bootstrap\s+True"),
    # Its reference: a commit of main, run in a child process on the same run folders.
    "paired_comparison": (["--items-per-config", "30", "--repeats", "1", "--reference", "2ae5fa9"],
                          r"close pair, board: same differences and intervals, every p within Monte-Carlo error\s+True"),
    # Its reference: a commit of main, scoring a copy of the same folder in a child process.
    "score_run": (["--configs", "2", "--repeats", "1", "--reference", "72d8bc6"],
                  r"summary figures and intervals, details.parquet\s+identical"),
    "qa_score_speed": (["--rows", "300", "--repeats", "1"], r"qa-score / scripts, wall time"),
    "qa_judge_scaling": (["--rows", "200", "--concurrency", "8", "--latency", "0.01"],
                         r"200 rows: share of the ideal rate \(judging phase\)"),
    # One config of 8-token replies: the six runs' machinery, not the long replies the bench is for.
    "saraiki_batch_sensitivity": (["--rows", "1", "--configs", "knowledge"], r"knowledge: reference, run twice"),
    # Its reference's app and the current one over the same small board, one visit of one view each.
    "page_load": (["--repeats", "1", "--writing-bench", "3", "--qa", "2", "--saraiki", "2", "--reference", "c1ef9ae",
                   "--view", "/?tab=about"],
                  r"/\?tab=about: current / c1ef9ae median\s+[\d.]+x"),
    # A command of a tenth of a second, sampled often enough to see it.
    "suite_cpu": (["--interval", "0.02", "--", "python3", "-c", "sum(range(10**7))"], r"CPU / \(wall x cores\)"),
    "queue_throughput": (["--workers", "1", "--requests", "20", "--rate", "20", "--seconds", "0.5", "--work-ms", "1",
                          "--poll-ms", "10"], "postgres / sqlite, 1 workers: claims/s"),
}


def _present(arg: str) -> str:
    """A reference commit this clone lacks (a shallow clone) becomes HEAD: the bench's machinery (extracting a
    reference and running both sides) is what is under test, and HEAD is in every clone."""
    if not re.fullmatch(r"[0-9a-f]{7,40}", arg):
        return arg
    found = subprocess.run(["git", "cat-file", "-e", f"{arg}^{{commit}}"], cwd=REPO, capture_output=True, check=False)
    return arg if found.returncode == 0 else "HEAD"


@pytest.mark.timeout(240)
@pytest.mark.parametrize("bench", list(SMALLEST))
def test_the_bench_runs_to_its_table_in_its_smallest_setting(bench: str) -> None:
    script, *_ = bench.split()
    argv, expected_row = SMALLEST[bench]  # a pattern of one row of the bench's table
    argv = [_present(arg) for arg in argv]
    readme = (REPO / "bench" / "README.md").read_bytes()
    done = subprocess.run([sys.executable, f"bench/{script}.py", *argv], cwd=REPO, capture_output=True, text=True,
                          timeout=220, check=False)
    assert done.returncode == 0, f"{bench} exited {done.returncode}:\n{done.stderr[-3000:]}"
    assert re.search(expected_row, done.stdout), done.stdout
    assert (REPO / "bench" / "README.md").read_bytes() == readme
