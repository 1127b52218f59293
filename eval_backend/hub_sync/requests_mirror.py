"""The queue mirrored to the requests repo, one JSON per request, so it survives a wiped disk.

    requests/<org>__<name>/<id>.json     every column of the row: status, attempts, FAILED's error…

The queue (SQLite or PostgreSQL) stays the one that claims work; the repo is only its copy. `mirror_request`
pushes one row when its state changes; `mirror_queue` (run by `sync_once`) pushes every row whose
copy differs, which also repairs any push that failed. `restore_queue_if_missing` rebuilds an
empty or missing queue from the repo on start.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import tempfile
from pathlib import Path
from typing import Any

from huggingface_hub import snapshot_download

from eval_backend.benchmarks.chat_mode import ChatMode
from eval_backend.hub_client import hub_api
from eval_backend.hub_sync._hub import (
    DATASET,
    HUB_ERRORS,
    commit_files,
    describe,
    ensure_repo,
    head_sha,
    remote_tree,
)
from eval_backend.jsonl import parse_json
from eval_backend.redaction import redact
from eval_backend.run_folder import RunFolder
from eval_backend.settings import Settings
from eval_backend.submissions.queue_store import Phase, QueueRequest, QueueStore, Status, open_queue

logger = logging.getLogger(__name__)

REQUESTS_PREFIX = "requests"


class MirrorFormatError(ValueError):
    """A request file in the requests repo is not a queue row; the message names the file."""


def request_path(request: QueueRequest) -> str:
    """The request's path in the repo: by model (path-safe, as run folders are), then id."""
    model_dir = RunFolder.for_model(Path(REQUESTS_PREFIX), request.model_id, request.revision).path.parent
    return f"{model_dir.as_posix()}/{request.id}.json"


_FREE_TEXT = ("error", "log_tail", "problem")


def request_document(request: QueueRequest) -> bytes:
    """The row as JSON, every column included; its free texts redacted, since the repo may be public."""
    row = dataclasses.asdict(request)
    # Only the texts made of upstream messages: the other columns must restore the queue exactly.
    row.update({key: redact(row[key]) for key in _FREE_TEXT if isinstance(row.get(key), str)})
    return (json.dumps(row, ensure_ascii=False, indent=2, sort_keys=True) + "\n").encode("utf-8")


def request_from_document(data: dict[str, Any], source: str) -> QueueRequest:
    """A queue row from its JSON copy; MirrorFormatError naming `source` if it is not one."""
    names = {f.name for f in dataclasses.fields(QueueRequest)}
    try:
        # Copies written before a column existed lack it: the column's default stands.
        values = {name: data[name] for name in names if name in data or not _has_default(name)}
        values["status"] = Status(values["status"])
        values["phase"] = Phase(values["phase"]) if values["phase"] else None
        if "chat_mode" in values:
            values["chat_mode"] = ChatMode(values["chat_mode"])
        return QueueRequest(**values)
    except (KeyError, ValueError, TypeError) as exc:
        raise MirrorFormatError(f"{source}: not a queue request ({type(exc).__name__}: {exc})") from exc


def _has_default(name: str) -> bool:
    field = next(f for f in dataclasses.fields(QueueRequest) if f.name == name)
    return field.default is not dataclasses.MISSING


def mirror_request(request: QueueRequest, settings: Settings) -> bool:
    """Push this row's copy now; True if pushed. On failure it logs and returns False (sync repairs it)."""
    if not settings.hub.requests_enabled:
        return False
    return _push({request_path(request): request_document(request)}, f"Request {request.id}: {request.status}", settings)


def mirror_queue(store: QueueStore, settings: Settings) -> int:
    """Push, in one commit, every row whose copy in the repo differs; returns how many (0 if it failed)."""
    if not settings.hub.requests_enabled:
        return 0
    api, repo_id = hub_api(settings.hub), str(settings.hub.requests_repo)
    try:
        ensure_repo(api, repo_id)
        remote = remote_tree(api, repo_id, head_sha(api, repo_id), under=REQUESTS_PREFIX)
    except HUB_ERRORS as exc:
        logger.warning("cannot list %s to mirror the queue: %s", repo_id, describe(exc))
        return 0
    documents = {request_path(request): request_document(request) for request in store.list_requests()}
    changed = {path: doc for path, doc in documents.items() if not (path in remote and remote[path].describes(doc))}
    if not changed:
        return 0
    return len(changed) if _push(changed, f"Mirror {len(changed)} queue requests", settings) else 0


def restore_queue_if_missing(settings: Settings) -> int:
    """On start: if the local queue is missing or empty, rebuild it from the requests repo; returns rows restored.

    Raises the Hub's error when the repo cannot be read (an empty queue must not be mistaken for
    the real one), and MirrorFormatError naming a file that is not a request.
    """
    if not settings.hub.requests_enabled:
        return 0
    with open_queue(settings) as store:
        if store.list_requests():
            return 0
        requests = _download_requests(settings)
        restored = store.restore(requests)
    if restored:
        logger.info("rebuilt the queue at %s from %s: %d requests", store.location, settings.hub.requests_repo, restored)
    return restored


def _download_requests(settings: Settings) -> list[QueueRequest]:
    api, repo_id = hub_api(settings.hub), str(settings.hub.requests_repo)
    ensure_repo(api, repo_id)
    with tempfile.TemporaryDirectory(prefix="wb-requests-") as copy:
        snapshot_download(
            repo_id, repo_type=DATASET, revision=head_sha(api, repo_id), local_dir=copy,
            allow_patterns=f"{REQUESTS_PREFIX}/**/*.json", endpoint=api.endpoint, token=api.token,
        )
        files = sorted(Path(copy, REQUESTS_PREFIX).glob("*/*.json"))
        requests = [
            request_from_document(_read_json(file), file.relative_to(copy).as_posix()) for file in files
        ]
    return sorted(requests, key=lambda request: request.id)


def _read_json(path: Path) -> dict[str, Any]:
    try:
        return parse_json(path.read_bytes(), path.name)
    except ValueError as exc:  # bad UTF-8, bad JSON, a huge number, nesting thousands deep
        raise MirrorFormatError(str(exc)) from exc


def _push(files: dict[str, bytes], message: str, settings: Settings) -> bool:
    api, repo_id = hub_api(settings.hub), str(settings.hub.requests_repo)
    try:
        ensure_repo(api, repo_id)
        commit_files(api, repo_id, dict(files), message)
    except HUB_ERRORS as exc:
        logger.warning("mirroring to %s failed (the next sync retries): %s", repo_id, describe(exc))
        return False
    return True
