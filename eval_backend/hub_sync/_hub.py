"""The few Hub calls the mirror makes, over one `HfApi` built from the settings at call time."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

import httpx2
from huggingface_hub import CommitOperationAdd, HfApi
from huggingface_hub.errors import HfHubHTTPError
from huggingface_hub.hf_api import RepoFile
from huggingface_hub.utils.sha import git_hash


DATASET = "dataset"
HUB_ERRORS: tuple[type[Exception], ...] = (httpx2.HTTPError, OSError)
"""What a Hub call raises when the Hub is down, refuses, or answers badly (HfHubHTTPError is both)."""

_CONFLICT = 412  # the branch moved past `parent_commit`


@dataclass(frozen=True)
class RemoteFile:
    """A file in a repo's tree: its git blob oid, and its sha256 when stored in LFS."""

    oid: str
    lfs_sha256: str | None = None
    size: int | None = field(default=None, compare=False)
    """Bytes, as the tree listing says (None in ledger records written before it was kept); not its identity."""

    def matches(self, local: Path) -> bool:
        """True when the local file has this content."""
        return local.is_file() and self.describes(local.read_bytes())

    def describes(self, content: bytes) -> bool:
        """True when `content` is this file's content."""
        if self.lfs_sha256:
            return hashlib.sha256(content).hexdigest() == self.lfs_sha256
        return git_hash(content) == self.oid


def ensure_repo(api: HfApi, repo_id: str) -> None:
    api.create_repo(repo_id, repo_type=DATASET, exist_ok=True)


def head_sha(api: HfApi, repo_id: str) -> str:
    """The commit the repo's main branch points at."""
    sha = api.repo_info(repo_id, repo_type=DATASET).sha
    assert sha, "the Hub answered repo info without a sha"
    return sha


def remote_tree(api: HfApi, repo_id: str, revision: str, under: str | None = None) -> dict[str, RemoteFile]:
    """Every file of the repo at `revision` (optionally only under a folder), by path."""
    entries = api.list_repo_tree(repo_id, under, recursive=True, revision=revision, repo_type=DATASET)
    return {
        entry.path: RemoteFile(entry.blob_id, entry.lfs.sha256 if entry.lfs else None, entry.size)
        for entry in entries
        if isinstance(entry, RepoFile)
    }


def commit_files(
    api: HfApi, repo_id: str, files: Mapping[str, bytes | Path], message: str, parent: str | None = None
) -> str:
    """Add or replace `files` (repo path -> content or local file) in one commit; returns its sha."""
    operations = [CommitOperationAdd(path, content) for path, content in files.items()]
    info = api.create_commit(
        repo_id, operations, commit_message=message, repo_type=DATASET, parent_commit=parent
    )
    return info.oid


def is_conflict(exc: Exception) -> bool:
    """True when a commit failed because someone else committed first."""
    return isinstance(exc, HfHubHTTPError) and exc.response is not None and exc.response.status_code == _CONFLICT


def describe(exc: Exception) -> str:
    """One line for logs and the outbox: the error type and its first line (no headers, no token)."""
    first_line = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {first_line}"
