"""The stand-in Hub (`tests.support.hub_server.StandInHub`) extended with writable dataset repos.

Adds the endpoints that ``huggingface_hub`` calls to create, commit to, list and download a
dataset repo, on the same in-memory model of repos, commits and refs::

    POST      /api/repos/create                              201, or 409 with the repo's url
    POST      /api/validate-yaml                             README.md front matter must parse as YAML
    GET       /api/datasets/{repo}[/revision/{rev}]          dataset info: sha, siblings
    GET       /api/datasets/{repo}/tree/{rev}[/{path}]       files and folders (git blob oids)
    POST      /api/datasets/{repo}/preupload/{rev}           every file "regular", so no LFS or Xet upload
    POST      /api/datasets/{repo}/commit/{rev}              the NDJSON commit; 412 when parentCommit is stale
    HEAD|GET  /datasets/{repo}/resolve/{rev}/{path}          a file

Writes need a bearer token (any); `fail(pattern, status, times)` makes matching requests fail,
and `bodies` keeps every request body received, so a test can scan what was sent.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import threading
from dataclasses import dataclass
from urllib.parse import unquote

from pathlib import Path

import datasets.config
import pytest
import yaml
from huggingface_hub import constants as hub_constants
from huggingface_hub.utils.sha import git_hash

from tests.support.hub_server import _REPO, HubCommit, HubRepo, HubResponse, StandInHub

__all__ = ["StandInHubRepos", "point_clients_at", "publish_dataset_folder"]

_GITATTRIBUTES = b"*.parquet filter=lfs diff=lfs merge=lfs -text\n"


@dataclass
class _Fault:
    pattern: re.Pattern[str]
    status: int
    times: int


class StandInHubRepos(StandInHub):
    """A stand-in Hub whose dataset repos can be created, committed to, listed and downloaded."""

    def __init__(self) -> None:
        super().__init__()
        self.bodies: list[bytes] = []
        self._faults: list[_Fault] = []
        self._request = threading.local()  # this request's raw path and body (one thread per request)
        self.route({"POST"}, r"/api/repos/create", self._create_repo)
        self.route({"POST"}, r"/api/validate-yaml", self._validate_yaml)
        self.route({"GET"}, rf"/api/datasets/{_REPO}(?:/revision/(?P<rev>[^/]+))?", self._dataset_info)
        self.route({"GET"}, rf"/api/datasets/{_REPO}/tree/(?P<rev>[^/]+)(?:/(?P<path>.+))?", self._tree)
        self.route({"POST"}, rf"/api/datasets/{_REPO}/preupload/(?P<rev>[^/]+)", self._preupload)
        self.route({"POST"}, rf"/api/datasets/{_REPO}/commit/(?P<rev>[^/]+)", self._commit)
        self.route({"GET", "HEAD"}, rf"/datasets/{_REPO}/resolve/(?P<rev>[^/]+)/(?P<path>.+)", self._resolve_dataset)

    # -- what tests use -----------------------------------------------------------------------

    def fail(self, pattern: str, status: int = 500, times: int = 1) -> None:
        """Answer the next `times` requests whose path matches `pattern` (re.search) with `status`."""
        with self._lock:
            self._faults.append(_Fault(re.compile(pattern), status, times))

    def dataset_files(self, repo_id: str, revision: str = "main") -> dict[str, bytes]:
        """Every file of the dataset repo at `revision`."""
        commit = self.repos[("dataset", repo_id)].resolve(revision)
        assert commit is not None, f"{repo_id} has no revision {revision}"
        return dict(commit.files)

    def commit_count(self, repo_id: str) -> int:
        """Commits in the dataset repo, the initial one included."""
        return len(self.repos[("dataset", repo_id)].commits)

    # -- serving: faults and request bodies ---------------------------------------------------

    def handle(self, method: str, raw_path: str, authorization: str | None) -> HubResponse:
        self._request.raw_path = raw_path
        with self._lock:
            for fault in self._faults:
                if fault.times > 0 and fault.pattern.search(raw_path):
                    fault.times -= 1
                    return HubResponse.error(fault.status, None, f"stand-in Hub: injected {fault.status}")
        return super().handle(method, raw_path, authorization)

    def start(self) -> StandInHubRepos:
        # The base server serves GET and HEAD; a subclass of its handler adds POST with a body,
        # handed to the route through a thread-local.
        super().start()
        assert self._server is not None
        hub, base = self, self._server.RequestHandlerClass

        class _WithBody(base):  # type: ignore[misc, valid-type]
            def do_POST(self) -> None:  # noqa: N802 - stdlib naming
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with hub._lock:
                    hub.bodies.append(body)
                hub._request.body = body
                self._serve()

        self._server.RequestHandlerClass = _WithBody
        return self

    def _body(self) -> bytes:
        return getattr(self._request, "body", b"")

    # -- endpoints ----------------------------------------------------------------------------

    def _create_repo(self, method: str, match: re.Match[str], token: str | None) -> HubResponse:
        if token is None:
            return HubResponse.error(401, None, "Invalid credentials in Authorization header")
        payload = json.loads(self._body())
        repo_id = f"{payload['organization']}/{payload['name']}"
        repo_type = payload.get("type") or "model"
        url = f"{self.url}/{'' if repo_type == 'model' else repo_type + 's/'}{repo_id}"
        with self._lock:
            if (repo_type, repo_id) in self.repos:
                return HubResponse.json({"error": "You already created this repo", "url": url}, status=409)
            repo = self.repos[(repo_type, repo_id)] = HubRepo(repo_id, repo_type)
            self._add_commit(repo, {".gitattributes": _GITATTRIBUTES})
        return HubResponse.json({"url": url, "name": repo_id}, status=201)

    def _validate_yaml(self, method: str, match: re.Match[str], token: str | None) -> HubResponse:
        content = json.loads(self._body())["content"]
        front = re.match(r"^---\n(.*?)\n---\n", content, re.DOTALL)
        try:
            metadata = yaml.safe_load(front.group(1)) if front else {}
        except yaml.YAMLError as exc:
            return HubResponse.json({"errors": [{"message": str(exc)}]}, status=400)
        if not isinstance(metadata, dict):
            return HubResponse.json({"errors": [{"message": "metadata must be a mapping"}]}, status=400)
        return HubResponse.json({"warnings": []})

    def _dataset_info(self, method: str, match: re.Match[str], token: str | None) -> HubResponse:
        repo, commit, error = self._dataset_at(match, token)
        if error:
            return error
        siblings = [{"rfilename": path} for path in sorted(commit.files)]
        return HubResponse.json({"_id": repo.repo_id, "id": repo.repo_id, "sha": commit.sha, "private": False, "siblings": siblings})

    def _tree(self, method: str, match: re.Match[str], token: str | None) -> HubResponse:
        _, commit, error = self._dataset_at(match, token)
        if error:
            return error
        prefix = f"{unquote(match['path'])}/" if match["path"] else ""
        files = [path for path in sorted(commit.files) if path.startswith(prefix)]
        recursive = bool(re.search(r"[?&]recursive=(?:true|True|1)\b", self._request.raw_path))
        folders = sorted({parent for path in files for parent in _parents(path[len(prefix):])})
        entries = [
            {"type": "directory", "path": prefix + folder, "oid": hashlib.sha1(folder.encode()).hexdigest()}
            for folder in folders
            if recursive or "/" not in folder
        ]
        entries += [
            {"type": "file", "path": path, "size": len(commit.files[path]), "oid": git_hash(commit.files[path])}
            for path in files
            if recursive or "/" not in path[len(prefix):]
        ]
        return HubResponse.json(entries)

    def _preupload(self, method: str, match: re.Match[str], token: str | None) -> HubResponse:
        _, commit, error = self._dataset_at(match, token, write=True)
        if error:
            return error
        files = json.loads(self._body())["files"]
        return HubResponse.json({"files": [
            {
                "path": file["path"],
                "uploadMode": "regular",
                "shouldIgnore": False,
                "oid": git_hash(commit.files[file["path"]]) if file["path"] in commit.files else None,
            }
            for file in files
        ]})

    def _commit(self, method: str, match: re.Match[str], token: str | None) -> HubResponse:
        repo, head, error = self._dataset_at(match, token, write=True)
        if error:
            return error
        lines = [json.loads(line) for line in self._body().splitlines() if line.strip()]
        header = next(line["value"] for line in lines if line["key"] == "header")
        parent = header.get("parentCommit")
        if parent and not head.sha.startswith(parent):
            return HubResponse.error(412, None, f"parentCommit {parent} is not the head of the branch ({head.sha})")
        files = dict(head.files)
        for line in lines:
            key, value = line["key"], line["value"]
            if key == "file":
                files[value["path"]] = base64.b64decode(value["content"])
            elif key == "deletedFile":
                files.pop(value["path"], None)
            elif key == "deletedFolder":
                files = {path: data for path, data in files.items() if not path.startswith(value["path"].rstrip("/") + "/")}
            elif key != "header":
                return HubResponse.error(400, None, f"stand-in Hub: commit operation {key!r} is not supported")
        with self._lock:
            sha = self._add_commit(repo, files, branch=unquote(match["rev"]))
        return HubResponse.json({"commitUrl": f"{self.url}/datasets/{repo.repo_id}/commit/{sha}", "commitOid": sha, "success": True})

    def _resolve_dataset(self, method: str, match: re.Match[str], token: str | None) -> HubResponse:
        _, commit, error = self._dataset_at(match, token)
        if error:
            return error
        content = commit.files.get(unquote(match["path"]))
        if content is None:
            return HubResponse.error(404, "EntryNotFound", f"{match['path']} does not exist at {commit.sha}")
        headers = {"X-Repo-Commit": commit.sha, "ETag": f'"{git_hash(content)}"', "Content-Length": str(len(content))}
        return HubResponse(200, content, headers)

    # -- helpers ------------------------------------------------------------------------------

    def _dataset_at(
        self, match: re.Match[str], token: str | None, *, write: bool = False
    ) -> tuple[HubRepo, HubCommit, None] | tuple[None, None, HubResponse]:
        """The dataset repo and its commit at the matched revision, or the Hub's error."""
        if write and token is None:
            return None, None, HubResponse.error(401, None, "Invalid credentials in Authorization header")
        repo, error = self._readable("dataset", match["repo"], token)
        if repo is None:
            return None, None, error
        commit = repo.resolve(unquote(match["rev"] or "main"))
        if commit is None:
            return None, None, HubResponse.error(404, "RevisionNotFound", f"Invalid rev id: {match['rev']}")
        return repo, commit, None

    @staticmethod
    def _add_commit(repo: HubRepo, files: dict[str, bytes], branch: str = "main") -> str:
        sha = hashlib.sha1(f"{repo.repo_id}:{len(repo.commits)}:{sorted(files)}".encode()).hexdigest()
        repo.commits[sha] = HubCommit(sha, files)
        repo.refs[branch] = sha
        return sha


def publish_dataset_folder(
    hub: StandInHubRepos, monkeypatch: pytest.MonkeyPatch, repo_id: str, folder: Path, *, gated: bool = False
) -> HubRepo:
    """Serve `folder`'s files as dataset repo `repo_id` and point `huggingface_hub` and `datasets` at `hub`."""
    files = {path.relative_to(folder).as_posix(): path.read_bytes() for path in folder.rglob("*") if path.is_file()}
    repo = hub.repos[("dataset", repo_id)] = HubRepo(repo_id, "dataset", gated=gated)
    hub._add_commit(repo, files)
    point_clients_at(hub, monkeypatch)
    return repo


def point_clients_at(hub: StandInHub, monkeypatch: pytest.MonkeyPatch) -> None:
    """Point `huggingface_hub` and `datasets` at `hub`, online, as `HF_ENDPOINT=<hub>` would for a user.

    Both read the endpoint and offline mode once, at import (the suite runs offline); the
    patches below are where those values live.
    """
    monkeypatch.setattr(hub_constants, "ENDPOINT", hub.url)
    monkeypatch.setattr(hub_constants, "HUGGINGFACE_CO_URL_TEMPLATE", hub.url + "/{repo_id}/resolve/{revision}/{filename}")
    monkeypatch.setattr(hub_constants, "HF_HUB_OFFLINE", False)
    monkeypatch.setattr(datasets.config, "HF_ENDPOINT", hub.url)
    monkeypatch.setattr(datasets.config, "HF_HUB_OFFLINE", False)
    monkeypatch.setenv("HF_HUB_OFFLINE", "0")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "0")


def _parents(path: str) -> list[str]:
    parts = path.split("/")[:-1]
    return ["/".join(parts[: end + 1]) for end in range(len(parts))]
