"""Pulling run folders from the results repo into `DATA_DIR/runs`, so the board shows other workers' runs.

A remote run folder is written locally when it is new or changed there and the local copy is
not being worked on: a local folder is only replaced when it still holds exactly what was last
pushed or pulled (the ledger's record). One that is being written (no summary yet, or resumed), or that waits in the
outbox, is left alone. Files are downloaded into a staging folder first and swapped in whole,
so the board never reads half of a folder.

The repo is shared, so it may hold anything: only the files a run folder has (`run_files.RUN_FILES`)
are taken, within their sizes, and each is checked (`run_files.file_problem`) before the folder is
swapped in. A file no run folder has (`.lock`, `summary.json.tmp`, `big.bin`) is left out; a
declared one that is too large or damaged keeps the whole run out, its local copy untouched.
Every refused file is in the report, by run, name and reason.
"""

from __future__ import annotations

import logging
import shutil
import tempfile
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from huggingface_hub import HfApi, hf_hub_download

from eval_backend.benchmarks.registry import BENCHMARKS
from eval_backend.hub_client import hub_api
from eval_backend.hub_sync._hub import DATASET, RemoteFile, head_sha, remote_tree
from eval_backend.hub_sync._ledger import Ledger
from eval_backend.hub_sync.layout import RUNS_PREFIX, repo_run, split_repo_path
from eval_backend.item_values import ITEM_VALUES_FILE
from eval_backend.run_files import file_problem, name_problem, run_file
from eval_backend.run_folder import run_folder_of_id
from eval_backend.settings import Settings

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class RefusedFile:
    """A file of the results repo that a pull did not write: its run, its name in the folder, and why."""

    run: str
    name: str
    reason: str

    def __str__(self) -> str:
        return f"{self.run}/{self.name}: {self.reason}"


@dataclass(frozen=True)
class PullReport:
    """Which run folders (`org__name/revision`) a pull wrote, which it left alone because of local work,
    and the files it refused (a refused file of the run's own keeps that run out)."""

    pulled: list[str] = field(default_factory=list)
    kept_local: list[str] = field(default_factory=list)
    refused: list[RefusedFile] = field(default_factory=list)


def pull_results(settings: Settings) -> PullReport:
    """Bring new and changed run folders from the results repo; raises the Hub's error if it cannot list it."""
    if not settings.hub.results_enabled:
        return PullReport()
    api, repo_id = hub_api(settings.hub), str(settings.hub.results_repo)
    ledger = Ledger(settings.data.data_dir)
    head = head_sha(api, repo_id)
    if head == ledger.results_head():
        return PullReport()
    report = PullReport()
    for run, files in _remote_runs(remote_tree(api, repo_id, head)).items():
        remote, refused = _run_files(run, files)
        report.refused.extend(refused)
        if remote is None or ledger.synced(run) == remote:
            continue
        benchmark, _, run_id = run.partition("/")
        folder = run_folder_of_id(settings.data.benchmark_runs_dir(benchmark), run_id)
        if folder is None:  # the repo is shared: a name that would leave the runs folder is never written
            logger.warning("skipping %r in %s: not a run folder name", run, repo_id)
            continue
        target = folder.path
        local = _local_files(target)
        if _same(local, remote):
            ledger.record_synced(run, remote)  # pushed from here, or fetched before the ledger was kept
        elif ledger.pending(run) is not None or (local is not None and not _same(local, ledger.synced(run))):
            report.kept_local.append(run)
        elif damaged := _download_run(api, repo_id, head, run, remote, target):
            report.refused.extend(damaged)
        else:
            ledger.record_synced(run, remote)
            report.pulled.append(run)
    if not report.kept_local:  # else look again next time: the local work may be gone by then
        ledger.record_results_head(head)
    if report.pulled or report.kept_local:
        logger.info("pulled %d run folders from %s; kept %d with local work", len(report.pulled), repo_id, len(report.kept_local))
    for refused in report.refused:
        logger.warning("not pulled from %s: %s", repo_id, refused)
    return report


def _run_files(run: str, files: dict[str, RemoteFile]) -> tuple[dict[str, RemoteFile] | None, list[RefusedFile]]:
    """The run's files a run folder has, and those refused by name or size; None for the first when one of the
    run's own files is refused (too large): the run is then left out whole."""
    refused = [
        RefusedFile(run, name, problem)
        for name, remote in sorted(files.items())
        if (problem := name_problem(name, remote.size)) is not None
    ]
    accepted = {name: remote for name, remote in files.items() if name not in {entry.name for entry in refused}}
    own_refused = any(run_file(entry.name) is not None for entry in refused)
    return (None if own_refused or not accepted else accepted), refused


def _remote_runs(tree: dict[str, RemoteFile]) -> dict[str, dict[str, RemoteFile]]:
    """The repo's run-folder files grouped by local run `<benchmark>/<org>__<name>/<revision>`, files by name."""
    runs: dict[str, dict[str, RemoteFile]] = defaultdict(dict)
    for path, remote in tree.items():
        found = split_repo_path(path)
        if found is not None:
            runs[found[0]][found[1]] = remote
    return dict(runs)


def _local_files(target: Path) -> dict[str, Path] | None:
    """The run folder's files by name (temporary dotfiles aside), or None when there is no folder."""
    if not target.is_dir():
        return None
    return {path.name: path for path in target.iterdir() if path.is_file() and not path.name.startswith(".")}


def _same(local: dict[str, Path] | None, files: dict[str, RemoteFile] | None) -> bool:
    """True when the local folder holds exactly these files with this content.

    The compact per-item values are left out on both sides: a reader derives them from details.parquet and
    keeps them in the folder (a run pushed before they existed gets them on its first read), so they are
    never local work, and a folder whose other files are the same holds the same values."""
    if local is None or files is None:
        return False
    local = {name: path for name, path in local.items() if name != ITEM_VALUES_FILE}
    files = {name: remote for name, remote in files.items() if name != ITEM_VALUES_FILE}
    if set(local) != set(files):
        return False
    return all(files[name].matches(path) for name, path in local.items())


def _download_run(
    api: HfApi, repo_id: str, revision: str, run: str, remote: dict[str, RemoteFile], target: Path
) -> list[RefusedFile]:
    """Download the run's files into a staging folder next to `target` and check each; swap it in when every
    one passes, else leave `target` as it was and return the files refused."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent, prefix=f".{target.name}.pull-") as staging:
        staged = Path(staging) / "run"
        staged.mkdir()
        for name in sorted(remote):
            downloaded = hf_hub_download(
                repo_id, f"{RUNS_PREFIX}/{repo_run(run)}/{name}", repo_type=DATASET, revision=revision,
                endpoint=api.endpoint, token=api.token, local_dir=Path(staging) / "download",
            )
            shutil.move(downloaded, staged / name)
        benchmark = BENCHMARKS.get(run.partition("/")[0])
        damaged = [
            RefusedFile(run, name, problem)
            for name in sorted(remote)
            if (problem := file_problem(name, staged / name, benchmark))
        ]
        if not damaged:
            _swap_in(staged, target)
    return damaged


def _swap_in(staged: Path, target: Path) -> None:
    """Replace `target` by `staged` with two renames: a reader sees the old folder, the new one, or (for
    an instant) none, never a mix."""
    old = staged.parent / "old"
    if target.exists():
        target.rename(old)
    staged.rename(target)
    shutil.rmtree(old, ignore_errors=True)
