"""Run folders in the results repo: where each benchmark's runs sit, and back.

Locally a run is `<benchmark>/<org>__<name>/<revision>` under DATA_DIR/runs (run_layout.py).
In the repo, Indic WritingBench's runs keep the place they had before several benchmarks,
`runs/<org>__<name>/<revision>/`, so the repo's existing folders and `datasets` config names
stay valid with no migration; every other benchmark's runs sit under its name,
`runs/<benchmark>/<org>__<name>/<revision>/`. A benchmark's name never holds `__` and a
model folder's always does, so the two depths never collide.
"""

from __future__ import annotations

from eval_backend.benchmarks.registry import BENCHMARKS, DEFAULT_BENCHMARK

RUNS_PREFIX = "runs"


def repo_run(run: str) -> str:
    """The repo's folder (under `runs/`) of local run `<benchmark>/<org>__<name>/<revision>`."""
    benchmark, _, rest = run.partition("/")
    return rest if benchmark == DEFAULT_BENCHMARK else run


def current_run(run: str) -> str:
    """A local run name as it is now: an outbox entry written before one tree per benchmark
    (`<org>__<name>/<revision>`) names a folder that moved into Indic WritingBench's tree."""
    return f"{DEFAULT_BENCHMARK}/{run}" if run.count("/") == 1 else run


def split_repo_path(path: str) -> tuple[str, str] | None:
    """(local run, file name) of a repo path inside a run folder; None for any other path."""
    parts = path.split("/")
    if not parts or parts[0] != RUNS_PREFIX or parts[-1] in ("", ".", ".."):
        return None
    if len(parts) == 4:
        return f"{DEFAULT_BENCHMARK}/{parts[1]}/{parts[2]}", parts[3]
    if len(parts) == 5 and parts[1] in BENCHMARKS and parts[1] != DEFAULT_BENCHMARK:
        return f"{parts[1]}/{parts[2]}/{parts[3]}", parts[4]
    return None
