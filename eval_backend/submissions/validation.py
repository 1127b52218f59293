"""Every check a submission passes before anything is queued, each refusal saying exactly why.

Cheap checks first (syntax, the per-user limit), then the Hub (or the local folder), then
whether this exact revision is already queued or evaluated.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

from eval_backend.hub_client import hub_api
from eval_backend.run_folder import RunFolder
from eval_backend.settings import QueueSettings, Settings
from eval_backend.submissions.model_facts import (
    ModelFacts,
    SubmissionRejected,
    hub_model_facts,
    local_model_facts,
    shown,
)
from eval_backend.submissions.queue_store import NewRequest, QueueRequest, QueueStore, Status

PRECISIONS = ("auto", "bfloat16", "float16", "float32")
LIMIT_WINDOW = timedelta(days=7)
MAX_ID_PART_CHARS = 96  # the Hub's own limit on an org or repo name
MAX_REVISION_CHARS = 255
_ID_PART = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
_ID_CHARS = re.compile(r"[A-Za-z0-9._/-]")
_REVISION = re.compile(r"[A-Za-z0-9][A-Za-z0-9._/-]*")


@dataclass(frozen=True)
class SubmissionForm:
    """What a submitter types: a model id (or, where allowed, a local folder) and how to run it."""

    model_id: str
    revision: str = "main"
    precision: str = "bfloat16"
    reasoning: bool = False


@dataclass(frozen=True)
class ValidatedSubmission:
    """A submission that passed every check: the request to queue and what was learned on the way."""

    request: NewRequest
    parameters: int | None
    run_folder: RunFolder


def validate_submission(
    form: SubmissionForm, *, store: QueueStore, settings: Settings, user: str | None
) -> ValidatedSubmission:
    """Check `form` for `user` (a Hub username, or None for the local user); SubmissionRejected says why not."""
    queue = settings.queue
    submitter = (user or "").strip() or queue.local_user
    precision = check_precision(form.precision)
    local = local_folder(form.model_id, queue)
    model_id = str(local) if local else check_model_id(form.model_id)
    requested_revision = "local" if local else check_revision(form.revision)
    check_rate_limit(store, submitter, queue)
    facts = local_model_facts(local) if local else hub_model_facts(model_id, requested_revision, hub_api(settings.hub))
    check_chat_template(facts)
    check_size(facts, queue)
    folder = RunFolder.for_model(settings.data.runs_dir, facts.model_id, facts.revision)
    check_not_duplicate(store, facts, folder)
    request = NewRequest(
        model_id=facts.model_id,
        revision=facts.revision,
        requested_revision=requested_revision,
        precision=precision,
        reasoning=bool(form.reasoning),
        submitter=submitter,
        backend_params=dict(queue.backend_params),
        parameters=facts.parameters,
    )
    return ValidatedSubmission(request, facts.parameters, folder)


def check_model_id(model_id: str) -> str:
    """A Hub model id, `org/name`, with only the characters the Hub allows and no path tricks."""
    model_id = model_id.strip()
    if not model_id:
        raise SubmissionRejected("enter a model id like 'org/name'")
    bad = sorted({char for char in model_id if not _ID_CHARS.fullmatch(char)})
    if bad:
        raise SubmissionRejected(
            f"model id {shown(model_id)} has characters other than letters, digits, '-', '_', '.' and '/': "
            + " ".join(repr(char) for char in bad[:10])
        )
    if ".." in model_id or "--" in model_id:
        raise SubmissionRejected(f"model id {shown(model_id)} must not contain '..' or '--'")
    parts = model_id.split("/")
    if len(parts) != 2:
        raise SubmissionRejected(f"model id {shown(model_id)} must be 'org/name', with exactly one '/'")
    for part in parts:
        if len(part) > MAX_ID_PART_CHARS:
            raise SubmissionRejected(
                f"model id {shown(model_id)}: {shown(part, 20)} is {len(part)} characters; at most {MAX_ID_PART_CHARS}"
            )
        if not _ID_PART.fullmatch(part):
            raise SubmissionRejected(
                f"model id {shown(model_id)}: the org and the name must each start with a letter or digit"
            )
    return model_id


def check_revision(revision: str) -> str:
    """A branch, tag or commit name (default `main`), with no path tricks."""
    revision = revision.strip() or "main"
    if len(revision) > MAX_REVISION_CHARS or not _REVISION.fullmatch(revision) or ".." in revision:
        raise SubmissionRejected(
            f"revision {shown(revision)} is not a branch, tag or commit name "
            f"(letters, digits, '-', '_', '.', '/'; at most {MAX_REVISION_CHARS} characters; no '..')"
        )
    return revision


def check_precision(precision: str) -> str:
    if precision not in PRECISIONS:
        raise SubmissionRejected(f"precision {shown(precision)} is not one of {', '.join(PRECISIONS)}")
    return precision


def local_folder(model_id: str, queue: QueueSettings) -> Path | None:
    """The local folder a model id names (an absolute path), or None for a Hub id."""
    path = Path(model_id.strip()).expanduser()
    if not path.is_absolute():
        return None
    if not queue.allow_local_models:
        raise SubmissionRejected(
            f"{shown(model_id)} is a local path; this leaderboard only accepts Hub model ids like 'org/name'"
        )
    return path.resolve()


def check_rate_limit(store: QueueStore, submitter: str, queue: QueueSettings) -> None:
    """At most `submissions_per_week` submissions per submitter in any 7 days."""
    now = datetime.now(timezone.utc)
    times = store.submission_times(submitter, now - LIMIT_WINDOW)
    if len(times) >= queue.submissions_per_week:
        next_slot = (datetime.fromisoformat(times[0]) + LIMIT_WINDOW).isoformat(timespec="minutes") if times else "never"
        raise SubmissionRejected(
            f"{shown(submitter)} has made {len(times)} submissions in the last 7 days and the limit is "
            f"{queue.submissions_per_week}; the next one is possible after {next_slot}"
        )


def check_chat_template(facts: ModelFacts) -> None:
    if not facts.has_chat_template:
        raise SubmissionRejected(
            f"model {shown(facts.model_id)} at {facts.revision[:12]} has no chat template (no 'chat_template' in "
            "tokenizer_config.json and no chat_template.jinja); the benchmark prompts it as a chat model"
        )


def check_size(facts: ModelFacts, queue: QueueSettings) -> None:
    """The parameter count (from safetensors metadata) is known and within the cap."""
    if facts.parameters is None:
        raise SubmissionRejected(
            f"model {shown(facts.model_id)} at {facts.revision[:12]} has no safetensors weights, so its size "
            "cannot be checked; only models with safetensors weights are accepted"
        )
    billions = facts.parameters / 1e9
    if billions > queue.max_params_b:
        raise SubmissionRejected(
            f"model {shown(facts.model_id)} has {billions:.1f}B parameters; "
            f"this leaderboard evaluates models up to {queue.max_params_b:g}B"
        )


def check_not_duplicate(store: QueueStore, facts: ModelFacts, folder: RunFolder) -> None:
    """Not queued, running or finished at this revision, and no results for it on disk."""
    existing = store.active_duplicate(facts.model_id, facts.revision)
    if existing is not None:
        raise SubmissionRejected(duplicate_message(existing))
    if folder.summary_path.exists():
        raise SubmissionRejected(
            f"model {shown(facts.model_id)} at {facts.revision[:12]} is already evaluated; "
            f"its results are in {folder.path}"
        )


def duplicate_message(existing: QueueRequest | None) -> str:
    """Where the request that makes a new one a duplicate is."""
    if existing is None:  # it left the active states between the insert and this lookup
        return "this model revision was just queued by someone else"
    where = f"model {shown(existing.model_id)} at {existing.revision[:12]}"
    if existing.status is Status.FINISHED:
        return f"{where} is already evaluated (queue request #{existing.id}); its results are in {existing.run_dir}"
    return f"{where} is already in the queue as request #{existing.id} ({existing.status}, submitted {existing.submitted_at})"
