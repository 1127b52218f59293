"""What a Hugging Face Job evaluating one queued request is started with: image, command, env, secrets, flavor.

The Job runs `python -m eval_backend job-run` on exactly the request's row. Its settings are the
Space's own, sent over: every key and token as a Job secret (the Hub stores them encrypted and
never shows them), everything else as plain env. What only the Space uses (the queue, the
requests mirror, the web app, the dispatch itself) stays behind, so a Job never touches the queue.
"""

from __future__ import annotations

import dataclasses
import json
import re
from dataclasses import dataclass
from typing import Any, Collection, Mapping
from urllib.parse import urlsplit

from pydantic import AliasChoices, SecretStr
from pydantic_settings import BaseSettings

from eval_backend.settings import Settings
from eval_backend.submissions.job_flavors import FlavorChoice
from eval_backend.submissions.queue_store import QueueRequest

REQUEST_LABEL = "indicwb-request"
BOARD_LABEL = "indicwb-board"
_LABEL_UNSAFE = re.compile(r"[^a-zA-Z0-9_-]")


class JobsNotConfigured(ValueError):
    """The settings lack what a Job needs (its image, or the results repo it pushes to); the message names them."""


@dataclass(frozen=True)
class JobLaunch:
    """The arguments of `HfApi.run_job` for one request."""

    image: str
    command: tuple[str, ...]
    env: Mapping[str, str]
    secrets: Mapping[str, str]
    flavor: str
    timeout_s: int
    labels: Mapping[str, str]


def job_image(settings: Settings) -> str:
    """HF_JOBS_IMAGE, else the Space's own image (`hf.co/spaces/<SPACE_ID>`)."""
    if settings.jobs.image:
        return settings.jobs.image
    if settings.app.space_id:
        return f"hf.co/spaces/{settings.app.space_id}"
    raise JobsNotConfigured(
        "WORKER_DISPATCH=hf-jobs needs the Jobs' image: set HF_JOBS_IMAGE (off a Space, SPACE_ID is unset)"
    )


def board_label(settings: Settings) -> str:
    """The label value that tells this board's Jobs from others in the same namespace."""
    return _LABEL_UNSAFE.sub("-", settings.app.space_id or settings.hub.results_repo or "local")[:60]


def request_labels(request: QueueRequest, settings: Settings) -> dict[str, str]:
    return {REQUEST_LABEL: str(request.id), BOARD_LABEL: board_label(settings)}


def job_launch(request: QueueRequest, settings: Settings, choice: FlavorChoice, hourly_usd: float | None) -> JobLaunch:
    """Everything the Job for `request` is started with."""
    env, secrets = job_environment(settings, choice)
    command = (
        "python", "-m", "eval_backend", "job-run", "--request", request_argument(request),
        "--flavor", choice.flavor, *(("--price-per-hour", f"{hourly_usd:g}") if hourly_usd is not None else ()),
    )
    return JobLaunch(
        job_image(settings), command, env, secrets, choice.flavor, settings.jobs.timeout_s,
        request_labels(request, settings),
    )


def request_argument(request: QueueRequest) -> str:
    """The row as the Job's `--request` argument: its columns but the log and error, which the Job has no use for."""
    row = dataclasses.asdict(dataclasses.replace(request, log_tail="", error=None))
    return json.dumps(row, ensure_ascii=False, sort_keys=True)


def job_environment(settings: Settings, choice: FlavorChoice) -> tuple[dict[str, str], dict[str, str]]:
    """The Job's plain env and its secrets, from the settings the evaluation reads."""
    env: dict[str, str] = {"DATA_DIR": settings.jobs.data_dir}
    secrets: dict[str, str] = {}
    for section, only in (
        (settings.judge, None),
        (settings.cost, None),
        (settings.generation, None),
        (settings.data, None),
        (settings.queue, ("backend_params", "run_limit")),
        (settings.hub, ("hf_token", "results_repo", "hf_endpoint")),
        (settings.jobs, ("checkpoint_s",)),
    ):
        section_env, section_secrets = _section_variables(section, only)
        env.update(section_env)
        secrets.update(section_secrets)
    env["DATA_DIR"] = settings.jobs.data_dir  # the Job's own disk, never the Space's path
    if choice.gpus > 1:
        env["WORKER_TENSOR_PARALLEL_SIZE"] = str(choice.gpus)
    return env, secrets


def _section_variables(section: BaseSettings, only: Collection[str] | None) -> tuple[dict[str, str], dict[str, str]]:
    """A settings section as environment variables: (plain, secret); defaults and unset values left out."""
    env: dict[str, str] = {}
    secrets: dict[str, str] = {}
    for name, field in type(section).model_fields.items():
        value = getattr(section, name)
        if (only is not None and name not in only) or value is None:
            continue
        if value == field.get_default(call_default_factory=True):
            continue
        variable = _variable(field.validation_alias, name)
        if isinstance(value, SecretStr):
            if value.get_secret_value():
                secrets[variable] = value.get_secret_value()
        elif _has_password(value):  # an endpoint URL with credentials in it is a secret too
            secrets[variable] = str(value)
        else:
            env[variable] = _env_text(value)
    return env, secrets


def _has_password(value: Any) -> bool:
    try:
        return isinstance(value, str) and bool(urlsplit(value).password)
    except ValueError:
        return False


def _variable(alias: Any, name: str) -> str:
    if isinstance(alias, AliasChoices):
        return str(alias.choices[0])
    return str(alias or name)


def _env_text(value: Any) -> str:
    """A setting's value as its environment variable spells it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return json.dumps(value, sort_keys=True)
    return str(value)
