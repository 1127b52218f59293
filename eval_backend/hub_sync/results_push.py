"""Pushing a finished run folder to the results repo: its files and the refreshed card, in one commit.

The push is marked in the outbox before it starts and unmarked only once the commit exists, so
a failure (or a crash) leaves the marker for `sync_once` to retry; the local folder is only read.
"""

from __future__ import annotations

import logging
from pathlib import Path

from huggingface_hub import HfApi
from tenacity import retry, retry_if_exception, stop_after_attempt

from eval_backend.hub_client import hub_api
from eval_backend.hub_sync._hub import (
    HUB_ERRORS,
    RemoteFile,
    commit_files,
    describe,
    ensure_repo,
    head_sha,
    is_conflict,
    remote_tree,
)
from eval_backend.hub_sync._ledger import Ledger
from eval_backend.hub_sync.dataset_card import BOARD_PATH, render_card, runs_with_details
from eval_backend.hub_sync.layout import RUNS_PREFIX, current_run, repo_run
from eval_backend.run_files import RUN_FILES
from eval_backend.run_folder import RunFolder
from eval_backend.settings import Settings

logger = logging.getLogger(__name__)

_COMMIT_ATTEMPTS = 3  # a commit that lost a race to another writer is rebuilt on the new head


def run_files(folder: RunFolder) -> list[Path]:
    """The files of a run folder that are mirrored (every declared one, `run_files.RUN_FILES`), those that exist."""
    paths = (folder.path / declared.name for declared in RUN_FILES)
    return [path for path in paths if path.is_file()]


def run_name(folder: RunFolder, runs_dir: Path) -> str:
    """The folder's path under the runs folder, `<benchmark>/<org>__name/<revision>` (in the repo: `layout.repo_run`)."""
    return folder.path.resolve().relative_to(Path(runs_dir).resolve()).as_posix()


def push_run(folder: RunFolder, settings: Settings) -> bool:
    """Push a finished run folder; True when it is on the Hub, False when disabled or it failed (queued to retry)."""
    if not settings.hub.results_enabled:
        return False
    run = run_name(folder, settings.data.runs_dir)
    ledger = Ledger(settings.data.data_dir)
    ledger.enqueue(run)
    return push_pending(run, settings, ledger)


def push_pending(run: str, settings: Settings, ledger: Ledger) -> bool:
    """Try the outbox entry for `run` once; the marker goes only when the commit succeeded."""
    local = current_run(run)
    folder = RunFolder(settings.data.runs_dir / local)
    if not folder.summary_path.is_file():
        logger.warning("not pushing %s: it has no summary.json (unfinished, or removed)", folder.path)
        ledger.done(run)
        return False
    try:
        remote = _commit_run(hub_api(settings.hub), str(settings.hub.results_repo), local, folder)
    except HUB_ERRORS as exc:
        ledger.record_failure(run, describe(exc))
        logger.warning("push of %s to %s failed, will retry: %s", run, settings.hub.results_repo, describe(exc))
        return False
    ledger.record_synced(local, remote)
    ledger.done(run)
    logger.info("pushed %s to %s", run, settings.hub.results_repo)
    return True


def _commit_run(api: HfApi, repo_id: str, run: str, folder: RunFolder) -> dict[str, RemoteFile]:
    """Commit the folder and the card; returns the pushed files (by name) as the Hub lists them."""
    ensure_repo(api, repo_id)
    prefix = f"{RUNS_PREFIX}/{repo_run(run)}"
    files: dict[str, bytes | Path] = {f"{prefix}/{path.name}": path for path in run_files(folder)}
    sha = _commit_on_head(api, repo_id, run, files)
    tree = remote_tree(api, repo_id, sha, under=prefix)
    return {path.rsplit("/", 1)[1]: remote for path, remote in tree.items()}


@retry(retry=retry_if_exception(is_conflict), stop=stop_after_attempt(_COMMIT_ATTEMPTS), reraise=True)
def _commit_on_head(api: HfApi, repo_id: str, run: str, files: dict[str, bytes | Path]) -> str:
    """One commit on the current head, the card listing every run already there plus this one.

    `parent_commit` makes the Hub refuse it if another writer committed meanwhile (their run
    would be missing from our card); it is then rebuilt on the new head.
    """
    head = head_sha(api, repo_id)
    paths = [*api.list_repo_files(repo_id, repo_type="dataset", revision=head), *files]
    card = render_card(repo_id, runs_with_details(paths), board=BOARD_PATH in paths).encode("utf-8")
    return commit_files(api, repo_id, {**files, "README.md": card}, f"Add results of {run}", parent=head)
