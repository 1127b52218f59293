"""A Job's unfinished run folder, kept in the results repo so that the next Job for the request resumes it.

A Job's disk goes with the Job. While it runs, the Job commits its run folder every
HF_JOBS_CHECKPOINT_S to `in-progress/<benchmark>/<org>__<name>/<revision>/` in RESULTS_REPO (and
once more when it stops on an error or a SIGTERM); a later Job for the same request downloads it
before it starts, and the run folder's resume rules skip what is recorded: no answer generated and
no judge call paid twice. The board reads only `runs/`, so a checkpoint never shows. Once the
finished run is pushed, its checkpoint is deleted.
"""

from __future__ import annotations

import logging
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from huggingface_hub import hf_hub_download

from eval_backend.hub_client import hub_api
from eval_backend.hub_sync import HUB_ERRORS, describe
from eval_backend.hub_sync._hub import DATASET, commit_files, ensure_repo, head_sha, remote_tree
from eval_backend.hub_sync.results_push import run_files, run_name
from eval_backend.run_folder import RunFolder
from eval_backend.settings import Settings

logger = logging.getLogger(__name__)

CHECKPOINT_PREFIX = "in-progress"


def checkpoint_prefix(folder: RunFolder, settings: Settings) -> str:
    return f"{CHECKPOINT_PREFIX}/{run_name(folder, settings.data.runs_dir)}"


def save_checkpoint(folder: RunFolder, settings: Settings) -> bool:
    """Commit the folder's files as they are now (whole lines only); False, logged, when the Hub refused."""
    prefix = checkpoint_prefix(folder, settings)
    files: dict[str, bytes | Path] = {f"{prefix}/{path.name}": _whole_lines(path) for path in run_files(folder)}
    if not files:
        return False
    api, repo_id = hub_api(settings.hub), str(settings.hub.results_repo)
    try:
        ensure_repo(api, repo_id)
        commit_files(api, repo_id, files, f"Checkpoint of {prefix}")
    except HUB_ERRORS as exc:  # the next checkpoint tries again; the run goes on
        logger.warning("checkpoint of %s failed: %s", folder.path, describe(exc))
        return False
    return True


def restore_checkpoint(folder: RunFolder, settings: Settings) -> int:
    """Download the folder's checkpoint into it when it has no files of its own; returns how many files."""
    if folder.request_path.exists():
        return 0
    api, repo_id = hub_api(settings.hub), str(settings.hub.results_repo)
    prefix = checkpoint_prefix(folder, settings)
    head = head_sha(api, repo_id)
    paths = list(remote_tree(api, repo_id, head, under=prefix))
    folder.create()
    for path in paths:
        local = hf_hub_download(repo_id, path, repo_type=DATASET, revision=head, endpoint=api.endpoint, token=api.token)
        (folder.path / Path(path).name).write_bytes(Path(local).read_bytes())
    if paths:
        logger.info("resuming %s from its checkpoint in %s (%d files)", folder.path, repo_id, len(paths))
    return len(paths)


def drop_checkpoint(folder: RunFolder, settings: Settings) -> None:
    """Delete the folder's checkpoint (its run is pushed whole); a failure only leaves it behind, logged."""
    api, repo_id = hub_api(settings.hub), str(settings.hub.results_repo)
    prefix = checkpoint_prefix(folder, settings)
    try:
        if remote_tree(api, repo_id, head_sha(api, repo_id), under=prefix):
            api.delete_folder(prefix, repo_id=repo_id, repo_type=DATASET, commit_message=f"Drop {prefix}: pushed")
    except HUB_ERRORS as exc:
        logger.warning("could not delete the checkpoint %s: %s", prefix, describe(exc))


@contextmanager
def checkpoints(folder: RunFolder, settings: Settings, every_s: float) -> Iterator[None]:
    """Checkpoint the folder every `every_s` while the block runs, and once more if it stops on an error."""
    stop = threading.Event()

    def beat() -> None:
        while not stop.wait(every_s):
            save_checkpoint(folder, settings)

    thread = threading.Thread(target=beat, name="checkpoints", daemon=True)
    thread.start()
    try:
        yield
    except BaseException:  # an error, a SIGTERM (cancel, timeout): what was paid for is kept
        stop.set()
        thread.join()
        save_checkpoint(folder, settings)
        raise
    stop.set()
    thread.join()


def _whole_lines(path: Path) -> bytes:
    """The file's bytes up to its last newline for JSON lines (one may be half written now), else whole."""
    data = path.read_bytes()
    if path.suffix != ".jsonl":
        return data
    return data[: data.rfind(b"\n") + 1]
