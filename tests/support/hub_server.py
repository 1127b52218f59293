"""A stand-in for the Hugging Face Hub endpoints the engine calls, on 127.0.0.1, standard library only.

``huggingface_hub`` reaches it through its ``endpoint`` (``HfApi(endpoint=server.url)``, or the
``HF_ENDPOINT`` environment variable of a fresh process). The Hub is modelled in memory: repos
(by type and id) hold commits, each a full set of files, and refs (branches and tags) that
point at commits; a repo may be gated or private, readable only with a granted token.

Endpoints served (a small router, :meth:`StandInHub.route`, so more can be added)::

    GET       /api/models/{repo}[/revision/{rev}]      model info: sha, siblings, safetensors, gated, private,
                                                       cardData, tags
    GET       /api/models/{repo}/auth-check            200, or 403 GatedRepo / 404 RepoNotFound
    HEAD|GET  /{repo}/resolve/{rev}/{path}             a file, with X-Repo-Commit and ETag headers

Errors carry the ``X-Error-Code`` header that ``huggingface_hub.utils.hf_raise_for_status``
turns into ``RepositoryNotFoundError``, ``RevisionNotFoundError``, ``GatedRepoError`` and
``EntryNotFoundError``.

Usage::

    with StandInHub() as hub:
        sha = hub.add_model("org/model", {"tokenizer_config.json": b"{...}"}, parameters=7_000_000)
        HfApi(endpoint=hub.url).model_info("org/model").sha == sha
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import unquote, urlsplit

__all__ = ["HubCommit", "HubRepo", "HubResponse", "RecordedHubRequest", "StandInHub", "chat_model_files"]

_REPO = r"(?P<repo>[^/]+/[^/]+)"


@dataclass(frozen=True)
class HubCommit:
    """One commit of a repo: every file at that point, and the safetensors parameter counts."""

    sha: str
    files: Mapping[str, bytes]
    parameters: Mapping[str, int] | None = None


@dataclass
class HubRepo:
    """A repo: its commits, refs (branch or tag -> sha), and who may read it."""

    repo_id: str
    repo_type: str = "model"
    commits: dict[str, HubCommit] = field(default_factory=dict)
    refs: dict[str, str] = field(default_factory=dict)
    gated: bool = False
    private: bool = False
    readers: set[str] = field(default_factory=set)
    card_data: Mapping[str, Any] | None = None
    """The model card's metadata (its YAML header), e.g. {"license": "apache-2.0"}."""
    tags: tuple[str, ...] = ()

    def resolve(self, revision: str) -> HubCommit | None:
        """A ref name or a full commit sha -> the commit, or None."""
        sha = self.refs.get(revision, revision)
        return self.commits.get(sha)


@dataclass(frozen=True)
class HubResponse:
    status: int
    body: bytes = b""
    headers: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def json(cls, data: Any, status: int = 200) -> HubResponse:
        return cls(status, json.dumps(data).encode(), {"Content-Type": "application/json"})

    @classmethod
    def error(cls, status: int, code: str | None, message: str) -> HubResponse:
        headers = {"Content-Type": "application/json", **({"X-Error-Code": code} if code else {})}
        return cls(status, json.dumps({"error": message}).encode(), headers)


@dataclass(frozen=True)
class RecordedHubRequest:
    method: str
    path: str
    token: str | None


Handler = Callable[[str, "re.Match[str]", str | None], HubResponse]
"""(method, the path's match, the bearer token or None) -> response."""


def chat_model_files(*, chat_template: str | None = "{{ messages }}", template_file: bool = False) -> dict[str, bytes]:
    """The files of a small chat model repo; the chat template in tokenizer_config.json or its own file."""
    tokenizer_config: dict[str, Any] = {"tokenizer_class": "Qwen2Tokenizer"}
    files = {"config.json": b'{"model_type": "qwen2"}', "model.safetensors": b"\0" * 16}
    if chat_template is not None and template_file:
        files["chat_template.jinja"] = chat_template.encode()
    elif chat_template is not None:
        tokenizer_config["chat_template"] = chat_template
    files["tokenizer_config.json"] = json.dumps(tokenizer_config).encode()
    return files


class StandInHub:
    """An in-memory Hub behind an HTTP server on 127.0.0.1; start with `with StandInHub() as hub:`."""

    def __init__(self) -> None:
        self.repos: dict[tuple[str, str], HubRepo] = {}
        self.recorded: list[RecordedHubRequest] = []
        self._lock = threading.Lock()
        self._routes: list[tuple[frozenset[str], re.Pattern[str], Handler]] = []
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self.route({"GET"}, rf"/api/models/{_REPO}/auth-check", self._auth_check)
        self.route({"GET"}, rf"/api/models/{_REPO}(?:/revision/(?P<rev>[^/]+))?", self._model_info)
        self.route({"GET", "HEAD"}, rf"/{_REPO}/resolve/(?P<rev>[^/]+)/(?P<path>.+)", self._resolve)

    # -- the model of the Hub -----------------------------------------------------------------

    def route(self, methods: set[str], pattern: str, handler: Handler) -> None:
        """Serve `methods` on paths fully matching `pattern` (named groups reach the handler)."""
        self._routes.append((frozenset(methods), re.compile(pattern), handler))

    def add_model(
        self,
        repo_id: str,
        files: Mapping[str, bytes],
        *,
        branch: str = "main",
        parameters: int | Mapping[str, int] | None = None,
        gated: bool = False,
        private: bool = False,
        card_data: Mapping[str, Any] | None = None,
        tags: tuple[str, ...] = (),
    ) -> str:
        """Create the model repo if needed and commit `files` to `branch`; returns the commit sha.

        `card_data` (the card's metadata) and `tags` replace the repo's when given.
        """
        with self._lock:
            repo = self.repos.setdefault(("model", repo_id), HubRepo(repo_id))
            repo.gated = repo.gated or gated
            repo.private = repo.private or private
            repo.card_data = dict(card_data) if card_data is not None else repo.card_data
            repo.tags = tuple(tags) or repo.tags
            counts = {"BF16": parameters} if isinstance(parameters, int) else parameters
            sha = hashlib.sha1(f"{repo_id}:{len(repo.commits)}:{sorted(files)}".encode()).hexdigest()
            repo.commits[sha] = HubCommit(sha, dict(files), dict(counts) if counts else None)
            repo.refs[branch] = sha
            return sha

    def tag(self, repo_id: str, name: str, sha: str, repo_type: str = "model") -> None:
        self.repos[(repo_type, repo_id)].refs[name] = sha

    def grant(self, repo_id: str, token: str, repo_type: str = "model") -> None:
        """Let `token` read a gated or private repo."""
        self.repos[(repo_type, repo_id)].readers.add(token)

    # -- endpoints ----------------------------------------------------------------------------

    def find(self, repo_type: str, repo_id: str) -> HubRepo | None:
        """The repo named `repo_id` in any case: like the Hub, ids are case-insensitive (its info gives the canonical one)."""
        return next((repo for (kind, name), repo in self.repos.items()
                     if kind == repo_type and name.lower() == repo_id.lower()), None)

    def _readable(self, repo_type: str, repo_id: str, token: str | None) -> tuple[HubRepo | None, HubResponse | None]:
        """The repo if `token` may read it, else the Hub's error for it."""
        repo = self.find(repo_type, repo_id)
        if repo is None or (repo.private and token not in repo.readers):
            return None, HubResponse.error(401 if token is None else 404, "RepoNotFound", "Repository not found")
        if repo.gated and token not in repo.readers:
            return None, HubResponse.error(403, "GatedRepo", f"Access to model {repo_id} is restricted.")
        return repo, None

    def _auth_check(self, method: str, match: re.Match[str], token: str | None) -> HubResponse:
        _, error = self._readable("model", match["repo"], token)
        return error or HubResponse.json({})

    def _model_info(self, method: str, match: re.Match[str], token: str | None) -> HubResponse:
        repo = self.find("model", match["repo"])
        if repo is None or (repo.private and token not in repo.readers):
            return HubResponse.error(401 if token is None else 404, "RepoNotFound", "Repository not found")
        commit = repo.resolve(unquote(match["rev"] or "main"))
        if commit is None:
            return HubResponse.error(404, "RevisionNotFound", f"Invalid rev id: {match['rev']}")
        # Like the Hub: the metadata of a gated repo is public, its files are not.
        info: dict[str, Any] = {
            "_id": repo.repo_id,
            "id": repo.repo_id,
            "sha": commit.sha,
            "private": repo.private,
            "gated": "manual" if repo.gated else False,
            "siblings": [{"rfilename": name} for name in sorted(commit.files)],
            "tags": list(repo.tags),
        }
        if repo.card_data is not None:
            info["cardData"] = dict(repo.card_data)
        if commit.parameters:
            info["safetensors"] = {"parameters": dict(commit.parameters), "total": sum(commit.parameters.values())}
        return HubResponse.json(info)

    def _resolve(self, method: str, match: re.Match[str], token: str | None) -> HubResponse:
        repo, error = self._readable("model", match["repo"], token)
        if repo is None:
            return error  # type: ignore[return-value]
        commit = repo.resolve(unquote(match["rev"]))
        if commit is None:
            return HubResponse.error(404, "RevisionNotFound", f"Invalid rev id: {match['rev']}")
        content = commit.files.get(unquote(match["path"]))
        if content is None:
            return HubResponse.error(404, "EntryNotFound", f"{match['path']} does not exist at {commit.sha}")
        headers = {
            "X-Repo-Commit": commit.sha,
            "ETag": f'"{hashlib.sha1(content).hexdigest()}"',
            "Content-Length": str(len(content)),
        }
        return HubResponse(200, content, headers)

    # -- serving ------------------------------------------------------------------------------

    def handle(self, method: str, raw_path: str, authorization: str | None) -> HubResponse:
        token = authorization[7:] if authorization and authorization.startswith("Bearer ") else None
        path = urlsplit(raw_path).path
        with self._lock:
            self.recorded.append(RecordedHubRequest(method, path, token))
        for methods, pattern, handler in self._routes:
            match = pattern.fullmatch(path)
            if match and method in methods:
                return handler(method, match, token)
        return HubResponse.error(404, None, f"stand-in Hub: no route for {method} {path}")

    def start(self) -> StandInHub:
        hub = self

        class _Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib signature
                pass

            def _serve(self) -> None:
                response = hub.handle(self.command, self.path, self.headers.get("Authorization"))
                self.send_response(response.status)
                for name, value in response.headers.items():
                    self.send_header(name, value)
                if "Content-Length" not in response.headers:
                    self.send_header("Content-Length", str(len(response.body)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(response.body)

            do_GET = do_HEAD = _serve  # noqa: N815 - stdlib naming

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self._server.daemon_threads = True
        # shutdown() waits for the loop's next poll: the default half second would be every test's teardown
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05},
                                        name="stand-in-hub", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> StandInHub:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    @property
    def url(self) -> str:
        assert self._server is not None, "start the stand-in Hub first"
        return f"http://127.0.0.1:{self._server.server_address[1]}"
