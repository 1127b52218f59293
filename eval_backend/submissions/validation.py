"""Every check a submission passes before anything is queued, each refusal saying exactly why.

Cheap checks first (syntax, the benchmarks, the per-user limit), then the Hub (or the local
folder), then, per benchmark, whether this exact revision is already queued or evaluated. The
queue checks the limit and the duplicates again when it inserts, in one transaction, so
parallel submissions cannot slip past them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from eval_backend.benchmarks.chat_mode import AUTO, MODE_CHOICES, ChatMode, offers_raw, resolved_mode
from eval_backend.benchmarks.registry import BENCHMARKS, DEFAULT_BENCHMARK
from eval_backend.hub_client import hub_api
from eval_backend.run_folder import RunFolder, RunFolderError, iter_run_folders
from eval_backend.settings import QueueSettings, Settings
from eval_backend.submissions.model_facts import (
    ModelFacts,
    SubmissionRejected,
    hub_model_facts,
    local_model_facts,
    shown,
)
from eval_backend.submissions.queue_store import LimitReached, NewRequest, QueueRequest, QueueStore, Status

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
    benchmarks: tuple[str, ...] = (DEFAULT_BENCHMARK,)
    """The benchmarks to evaluate the model on; each becomes its own request in the queue."""
    chat_mode: str = AUTO
    """How the benchmarks that offer the choice (Saraiki) ask: `chat`, `raw`, or `auto` (chat when
    the model has a chat template, else raw). The others always ask in chat."""


@dataclass(frozen=True)
class ValidatedSubmission:
    """A submission that passed every check: a request per benchmark still to run, and what was learned."""

    requests: tuple[NewRequest, ...]
    parameters: int | None
    skipped: tuple[str, ...] = ()
    """Why each benchmark left out was left out (already queued or evaluated, or it needs a chat template)."""


def validate_submission(
    form: SubmissionForm, *, store: QueueStore, settings: Settings, user: str | None
) -> ValidatedSubmission:
    """Check `form` for `user` (a Hub username, or None for the local user); SubmissionRejected says why not."""
    queue = settings.queue
    submitter = (user or "").strip() or queue.local_user
    precision = check_precision(form.precision)
    benchmarks = check_benchmarks(form.benchmarks)
    chat_choice = check_chat_choice(form.chat_mode, benchmarks)
    local = local_folder(form.model_id, queue)
    model_id = str(local) if local else check_model_id(form.model_id)
    requested_revision = "local" if local else check_revision(form.revision)
    check_rate_limit(store, submitter, queue)
    facts = local_model_facts(local) if local else hub_model_facts(model_id, requested_revision, hub_api(settings.hub))
    refusals = check_chat_template(facts, chat_choice, benchmarks)
    check_size(facts, queue)
    refusals |= {
        name: why for name in benchmarks if name not in refusals
        if (why := duplicate_reason(store, facts, requested_revision, name, settings.data.benchmark_runs_dir(name)))
    }
    reasons = tuple(dict.fromkeys(refusals.values()))  # one reason may leave out several benchmarks
    if len(refusals) == len(benchmarks):
        raise SubmissionRejected("; ".join(reasons) + raw_hint(facts, benchmarks))
    requests = tuple(
        NewRequest(
            model_id=facts.model_id,
            revision=facts.revision,
            requested_revision=requested_revision,
            precision=precision,
            reasoning=bool(form.reasoning),
            submitter=submitter,
            backend_params=dict(queue.backend_params),
            parameters=facts.parameters,
            license=facts.license,
            open_weights=facts.open_weights,
            benchmark=name,
            chat_mode=resolved_mode(chat_choice, facts.has_chat_template) if offers_raw(BENCHMARKS[name]) else ChatMode.CHAT,
        )
        for name in benchmarks if name not in refusals
    )
    return ValidatedSubmission(requests, facts.parameters, reasons)


def check_benchmarks(names: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """At least one benchmark, each one the engine knows; duplicates dropped, order kept."""
    chosen = tuple(dict.fromkeys(name.strip() for name in names))
    if not chosen:
        raise SubmissionRejected(f"choose at least one benchmark: {', '.join(BENCHMARKS)}")
    unknown = [name for name in chosen if name not in BENCHMARKS]
    if unknown:
        raise SubmissionRejected(
            f"unknown benchmark {', '.join(shown(name) for name in unknown)}; known: {', '.join(BENCHMARKS)}"
        )
    return chosen


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
    """At most `submissions_per_week` submissions per submitter in any 7 days (a submission counts once,
    whatever its number of benchmarks)."""
    times = store.submission_times(submitter, LIMIT_WINDOW.total_seconds())
    if len(times) >= queue.submissions_per_week:
        raise SubmissionRejected(limit_message(LimitReached(submitter, times, queue.submissions_per_week)))


def limit_message(reached: LimitReached) -> str:
    """Why the submitter cannot submit now, and when they can."""
    times = reached.times
    next_slot = (datetime.fromisoformat(times[0]) + LIMIT_WINDOW).isoformat(timespec="minutes") if times else "never"
    return (
        f"{shown(reached.submitter)} has made {len(times)} submissions in the last 7 days and the limit is "
        f"{reached.limit}; the next one is possible after {next_slot}"
    )


def check_chat_choice(choice: str, benchmarks: tuple[str, ...]) -> str:
    """`auto`, `chat` or `raw`; raw only when a chosen benchmark can ask with raw text."""
    if choice not in MODE_CHOICES:
        raise SubmissionRejected(f"chat mode {shown(choice)} is not one of {', '.join(MODE_CHOICES)}")
    if choice == ChatMode.RAW and not any(offers_raw(BENCHMARKS[name]) for name in benchmarks):
        raise SubmissionRejected(
            f"raw prompts are offered by {', '.join(_raw_benchmarks())} only; "
            f"{', '.join(benchmarks)} ask{'s' if len(benchmarks) == 1 else ''} prompts as chat turns"
        )
    return choice


def check_chat_template(facts: ModelFacts, choice: str, benchmarks: tuple[str, ...]) -> dict[str, str]:
    """For a model without a chat template: the benchmarks that need one, each with why it is left out.

    A benchmark that offers raw prompts takes such a model (raw only): asking for chat mode on it is refused.
    """
    if facts.has_chat_template:
        return {}
    lacks = (
        f"model {shown(facts.model_id)} at {facts.revision[:12]} has no chat template (no 'chat_template' in "
        "tokenizer_config.json and no chat_template.jinja)"
    )
    flexible = [name for name in benchmarks if offers_raw(BENCHMARKS[name])]
    if choice == ChatMode.CHAT and flexible:
        raise SubmissionRejected(
            f"{lacks}, so it cannot be asked in chat mode on {', '.join(flexible)}; choose raw prompts "
            "(or auto, which asks a model without a chat template in raw text)"
        )
    chat_only = [name for name in benchmarks if name not in flexible]
    if not chat_only:
        return {}
    reason = (
        f"{lacks}; it cannot be evaluated on {', '.join(chat_only)}, which "
        f"ask{'s' if len(chat_only) == 1 else ''} prompts as chat turns"
    )
    return dict.fromkeys(chat_only, reason)


def raw_hint(facts: ModelFacts, benchmarks: tuple[str, ...]) -> str:
    """For a model without a chat template refused on every chosen benchmark: which ones would take it."""
    others = [name for name in _raw_benchmarks() if name not in benchmarks]
    if facts.has_chat_template or not others:
        return ""
    return f" (without a chat template a model can be evaluated on {', '.join(others)}, with raw prompts)"


def _raw_benchmarks() -> list[str]:
    return [name for name, benchmark in BENCHMARKS.items() if offers_raw(benchmark)]


def check_size(facts: ModelFacts, queue: QueueSettings) -> None:
    """The parameter count (from safetensors metadata) is known and within the cap."""
    if facts.parameters is None:
        raise SubmissionRejected(
            f"model {shown(facts.model_id)} at {facts.revision[:12]} has no safetensors weights with a valid "
            "parameter count, so its size cannot be checked; only models with safetensors weights are accepted"
        )
    billions = facts.parameters / 1e9
    if billions > queue.max_params_b:
        raise SubmissionRejected(
            f"model {shown(facts.model_id)} has {billions:.1f}B parameters; "
            f"this leaderboard evaluates models up to {queue.max_params_b:g}B"
        )


def duplicate_reason(
    store: QueueStore, facts: ModelFacts, requested_revision: str, benchmark: str, runs_dir: Path
) -> str | None:
    """Why this model revision needs no new run of `benchmark` (queued, running, finished, or results
    on disk in `runs_dir`, the benchmark's tree of run folders), or None."""
    existing = store.active_duplicate(facts.model_id, facts.revision, benchmark)
    if existing is not None:
        return duplicate_message(existing)
    folder = evaluated_run(runs_dir, facts.model_id, {facts.revision, requested_revision}, benchmark)
    if folder is not None:
        return (
            f"model {shown(facts.model_id)} at {facts.revision[:12]} is already evaluated on {benchmark}; "
            f"its results are in {folder.path}"
        )
    return None


def evaluated_run(runs_dir: Path, model_id: str, revisions: set[str], benchmark: str) -> RunFolder | None:
    """A run folder in `runs_dir` (the benchmark's tree) with results for this model (in any case) at one of
    `revisions` on `benchmark`, or None.

    By what the folder's request.json says, not by its name: the CLI writes runs into a folder
    named after the branch (`main`), the worker into one named after the commit.
    """
    wanted = model_id.lower()
    wanted_folder = RunFolder.for_model(runs_dir, model_id, "main").path.parent.name.lower()
    for folder in iter_run_folders(runs_dir):  # `runs_dir` is the benchmark's own tree (run_layout)
        try:
            request = folder.read_request() if folder.request_path.exists() else {}
        except RunFolderError:
            continue  # an unreadable folder is the board's problem to show, not a reason to refuse
        # What request.json says, else what the folder's names say (a folder holding only results).
        same_model = str(request["model"]).lower() == wanted if request.get("model") else (
            folder.path.parent.name.lower() == wanted_folder
        )
        revision = request.get("revision") or folder.path.name
        if same_model and revision in revisions and (request.get("benchmark") or DEFAULT_BENCHMARK) == benchmark:
            return folder
    return None


def duplicate_message(existing: QueueRequest | None) -> str:
    """Where the request that makes a new one a duplicate is."""
    if existing is None:  # it left the active states between the insert and this lookup
        return "this model revision was just queued by someone else"
    where = f"model {shown(existing.model_id)} at {existing.revision[:12]}"
    if existing.status is Status.FINISHED:
        return f"{where} is already evaluated (queue request #{existing.id}); its results are in {existing.run_dir}"
    return f"{where} is already in the queue as request #{existing.id} ({existing.status}, submitted {existing.submitted_at})"
