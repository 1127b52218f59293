"""Configuration from environment variables, read once in `main()` and passed down.

Each concern has its own section so it can be built (and tested) alone; `Settings`
composes them. Keys are `SecretStr`, so they never print in a log or a repr.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AliasChoices, Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict, SettingsError

# Fields are read from the environment by their alias (JUDGE_MODEL, DATA_DIR, …). Field names
# stay usable as keyword arguments, but pydantic-settings then also reads a variable named after
# the field itself; the prefix keeps a stray MODEL, PATH or BASE_URL in the environment from
# being taken for one of ours.
_ENV = SettingsConfigDict(extra="ignore", populate_by_name=True, env_prefix="INDICWB_FIELD_",
                         allow_inf_nan=False)  # no setting means anything as inf or nan ("~$inf" estimates)


class SettingsInvalid(ValueError):
    """A setting from the environment is unusable; the message is one line naming the variable."""


def load_settings() -> Settings:
    """The settings from the environment; SettingsInvalid naming each variable at fault, in one line."""
    try:
        return Settings()
    except ValidationError as exc:
        problems = "; ".join(_problem(error) for error in exc.errors(include_url=False))
        raise SettingsInvalid(f"invalid setting: {problems}") from None
    except SettingsError as exc:
        raise SettingsInvalid(f"invalid setting: {exc}") from None


def _problem(error: Any) -> str:
    """`NAME='value': what is wrong` for one pydantic error (a secret never fails: any string is one)."""
    name = ".".join(str(part) for part in error["loc"]) or "(settings)"
    return f"{name}={error['input']!r}: {error['msg']}"


class JudgeSettings(BaseSettings):
    """How to reach the judge: Azure OpenAI when an Azure endpoint is set, else any OpenAI-compatible server."""

    model_config = _ENV

    model: str = Field("gpt-5.4", validation_alias="JUDGE_MODEL")
    azure_endpoint: str | None = Field(None, validation_alias="AZURE_OPENAI_ENDPOINT")
    azure_api_key: SecretStr | None = Field(None, validation_alias="AZURE_OPENAI_API_KEY")
    api_version: str = Field("2024-12-01-preview", validation_alias="OPENAI_API_VERSION")
    base_url: str | None = Field(None, validation_alias="OPENAI_BASE_URL")
    api_key: SecretStr | None = Field(None, validation_alias="OPENAI_API_KEY")
    max_completion_tokens: int = Field(8000, gt=0, validation_alias="JUDGE_MAX_COMPLETION_TOKENS")
    concurrency: int = Field(32, gt=0, validation_alias="JUDGE_CONCURRENCY")
    timeout_s: float = Field(600.0, gt=0, validation_alias="JUDGE_TIMEOUT_S")
    invalid_answer_attempts: int = Field(3, gt=0, validation_alias="JUDGE_ATTEMPTS")
    transport_retries: int = Field(8, ge=0, validation_alias="JUDGE_TRANSPORT_RETRIES")
    max_backoff_s: float = Field(60.0, gt=0, validation_alias="JUDGE_MAX_BACKOFF_S")
    max_connection_failures: int = Field(20, gt=0, validation_alias="JUDGE_MAX_CONNECTION_FAILURES")
    # Batch mode: the provider's Batch API (half the price, answers within 24 h) instead of live calls.
    mode: Literal["live", "batch"] = Field("live", validation_alias="JUDGE_MODE")
    batch_retry: Literal["batch", "live"] = Field("batch", validation_alias="JUDGE_BATCH_RETRY")
    batch_poll_s: float = Field(60.0, gt=0, validation_alias="JUDGE_BATCH_POLL_S")
    # At most the provider's own limits (OpenAI 50,000 requests, Azure 100,000; 200 MB): see eval_backend/batch.
    batch_max_requests: int | None = Field(None, gt=0, validation_alias="JUDGE_BATCH_MAX_REQUESTS")
    batch_max_mb: float = Field(100.0, gt=0, le=200, validation_alias="JUDGE_BATCH_MAX_MB")

    @property
    def uses_azure(self) -> bool:
        return bool(self.azure_endpoint)

    @property
    def configured(self) -> bool:
        """True when some judge can be reached: an Azure endpoint, an OpenAI-compatible URL or an OpenAI key."""
        return bool(self.azure_endpoint or self.base_url or self.api_key)


class DataSettings(BaseSettings):
    """Where data lives: the data folder, and a dataset to use instead of the benchmark's own."""

    model_config = _ENV

    data_dir: Path = Field(Path("data"), validation_alias="DATA_DIR")
    dataset: str | None = Field(None, validation_alias="WB_DATASET")
    dataset_revision: str | None = Field(None, validation_alias="WB_DATASET_REVISION")
    qa_dataset: str | None = Field(None, validation_alias="QA_DATASET")
    qa_dataset_revision: str | None = Field(None, validation_alias="QA_DATASET_REVISION")
    saraiki_dataset: str | None = Field(None, validation_alias="SARAIKI_DATASET")
    saraiki_dataset_revision: str | None = Field(None, validation_alias="SARAIKI_DATASET_REVISION")

    def dataset_setting(self, variable: str) -> tuple[str | None, str | None]:
        """The dataset and revision a benchmark's setting names (`WB_DATASET`, `QA_DATASET`, …).

        A benchmark added later needs no field here: its variable and `<variable>_REVISION` are
        read from the environment."""
        settings = {
            "WB_DATASET": (self.dataset, self.dataset_revision),
            "QA_DATASET": (self.qa_dataset, self.qa_dataset_revision),
            "SARAIKI_DATASET": (self.saraiki_dataset, self.saraiki_dataset_revision),
        }
        if variable in settings:
            return settings[variable]
        return os.environ.get(variable) or None, os.environ.get(f"{variable}_REVISION") or None

    def benchmark_runs_dir(self, benchmark: str) -> Path:
        """`runs/<benchmark>/`: one tree of run folders per benchmark."""
        return self.runs_dir / benchmark

    @property
    def runs_dir(self) -> Path:
        return self.data_dir / "runs"


class GenerationSettings(BaseSettings):
    """The OpenAI-compatible endpoint serving the model under test, for `--backend openai`."""

    model_config = _ENV

    base_url: str | None = Field(None, validation_alias="GENERATION_BASE_URL")
    api_key: SecretStr | None = Field(None, validation_alias="GENERATION_API_KEY")
    max_connection_failures: int = Field(20, gt=0, validation_alias="GENERATION_MAX_CONNECTION_FAILURES")


class QueueSettings(BaseSettings):
    """The submission queue and its worker: limits on what is accepted, and how the worker polls."""

    model_config = _ENV

    queue_path: Path | None = Field(None, validation_alias="QUEUE_PATH")  # default DATA_DIR/queue.sqlite
    # postgresql://user:password@host:port/db: a queue shared by workers on many hosts (else the SQLite file).
    queue_url: SecretStr | None = Field(None, validation_alias="QUEUE_URL")
    pool_size: int = Field(4, gt=0, validation_alias="QUEUE_POOL_SIZE")
    connect_timeout_s: float = Field(30.0, gt=0, validation_alias="QUEUE_CONNECT_TIMEOUT_S")
    # A worker meeting the database away tries again with backoff, waiting at most this long between tries.
    reconnect_max_s: float = Field(30.0, gt=0, validation_alias="QUEUE_RECONNECT_MAX_S")
    worker_enabled: bool = Field(True, validation_alias="WORKER_ENABLED")
    poll_interval_s: float = Field(30.0, gt=0, validation_alias="WORKER_POLL_INTERVAL_S")
    heartbeat_interval_s: float = Field(10.0, gt=0, validation_alias="WORKER_HEARTBEAT_S")
    stale_after_s: float = Field(300.0, gt=0, validation_alias="QUEUE_STALE_AFTER_S")
    # How long a worker taking over a request waits for the stalled worker to let go of its run folder.
    folder_wait_s: float = Field(120.0, ge=0, validation_alias="WORKER_FOLDER_WAIT_S")
    max_attempts: int = Field(3, gt=0, validation_alias="QUEUE_MAX_ATTEMPTS")
    submissions_per_week: int = Field(5, ge=0, validation_alias="SUBMISSIONS_PER_WEEK")
    max_params_b: float = Field(80.0, gt=0, validation_alias="MAX_MODEL_PARAMS_B")
    allow_local_models: bool = Field(False, validation_alias="ALLOW_LOCAL_MODELS")
    local_user: str = Field("local", min_length=1, validation_alias="LOCAL_USER")
    # Parsed here, not by the settings source, so that bad JSON is a validation error naming the variable.
    backend_params: Annotated[dict[str, Any], NoDecode] = Field(default_factory=dict, validation_alias="WORKER_BACKEND_PARAMS")
    run_limit: int | None = Field(None, gt=0, validation_alias="WORKER_RUN_LIMIT")

    @field_validator("backend_params", mode="before")
    @classmethod
    def _json_object(cls, value: Any) -> Any:
        if not isinstance(value, str):
            return value
        try:
            return json.loads(value)
        except (ValueError, RecursionError) as exc:
            raise ValueError(f"not valid JSON ({exc}); expected an object such as {{\"backend\": \"vllm\"}}") from None


class CostSettings(BaseSettings):
    """Prices (per million tokens) and the assumptions behind a token estimate."""

    model_config = _ENV

    input_price_per_m: float = Field(1.25, ge=0, validation_alias="JUDGE_PRICE_INPUT_PER_M")
    output_price_per_m: float = Field(10.0, ge=0, validation_alias="JUDGE_PRICE_OUTPUT_PER_M")
    chars_per_token: float = Field(3.0, gt=0, validation_alias="JUDGE_CHARS_PER_TOKEN")
    output_tokens_per_call: int = Field(800, ge=0, validation_alias="JUDGE_OUTPUT_TOKENS_PER_CALL")
    response_chars: int = Field(6000, ge=0, validation_alias="ESTIMATE_RESPONSE_CHARS")
    batch_discount: float = Field(0.5, ge=0, lt=1, validation_alias="JUDGE_BATCH_DISCOUNT")
    """The share of the live price a Batch API call saves (OpenAI and Azure global batch: half)."""


class AppSettings(BaseSettings):
    """The web app: where it listens and how often an open page looks for new results."""

    model_config = _ENV

    server_name: str = Field("127.0.0.1", validation_alias="GRADIO_SERVER_NAME")
    server_port: int = Field(7860, gt=0, lt=65536, validation_alias=AliasChoices("PORT", "GRADIO_SERVER_PORT"))
    refresh_s: float = Field(60.0, gt=0, validation_alias="LEADERBOARD_REFRESH_S")
    analytics: bool = Field(False, validation_alias="GRADIO_ANALYTICS_ENABLED")  # off unless opted in
    space_id: str | None = Field(None, validation_alias="SPACE_ID")  # set by Hugging Face Spaces

    @property
    def on_spaces(self) -> bool:
        return bool(self.space_id)


class HubSettings(BaseSettings):
    """Reaching the Hub: the token and endpoint that validation and the mirror use, and the mirror's repos.

    Mirroring is off unless HF_TOKEN and a repo name are set; without them it touches no network.
    """

    model_config = _ENV

    hf_token: SecretStr | None = Field(None, validation_alias="HF_TOKEN")
    results_repo: str | None = Field(None, validation_alias="RESULTS_REPO")
    requests_repo: str | None = Field(None, validation_alias="REQUESTS_REPO")
    # None: huggingface_hub's default (https://huggingface.co); passed to HfApi explicitly at call time.
    hf_endpoint: str | None = Field(None, validation_alias="HF_ENDPOINT")
    sync_interval_s: float = Field(300.0, gt=0, validation_alias="HUB_SYNC_INTERVAL_S")

    @property
    def results_enabled(self) -> bool:
        return bool(self.hf_token and self.hf_token.get_secret_value() and self.results_repo)

    @property
    def requests_enabled(self) -> bool:
        return bool(self.hf_token and self.hf_token.get_secret_value() and self.requests_repo)

    @property
    def enabled(self) -> bool:
        return self.results_enabled or self.requests_enabled


class ParallelSettings(BaseSettings):
    """How a GPU host runs the queue's worker, and how vLLM spreads one model (see docs/deploy.md).

    The host's own hardware, so read by the worker, never taken from the queued request.
    """

    model_config = _ENV

    gpu_groups: str | None = Field(None, validation_alias="WORKER_GPU_GROUPS")  # "0,1;2,3": a worker per group
    tensor_parallel_size: int | None = Field(None, gt=0, validation_alias="WORKER_TENSOR_PARALLEL_SIZE")
    pipeline_parallel_size: int | None = Field(None, gt=0, validation_alias="WORKER_PIPELINE_PARALLEL_SIZE")
    distributed_executor: Literal["mp", "ray"] | None = Field(None, validation_alias="WORKER_DISTRIBUTED_EXECUTOR")


class JobsSettings(BaseSettings):
    """Dispatching each claimed request as a Hugging Face Job (`WORKER_DISPATCH=hf-jobs`, see docs/hf_jobs.md).

    The flavor table maps a flavor to the most weight memory (GB: parameters times bytes per
    parameter of the precision) it takes; a model gets the first flavor, in the table's order, it
    fits. Prices are USD per hour, used where the Hub's hardware list gives none.
    """

    model_config = _ENV

    dispatch: Literal["in-process", "hf-jobs"] = Field("in-process", validation_alias="WORKER_DISPATCH")
    image: str | None = Field(None, validation_alias="HF_JOBS_IMAGE")  # default: the Space's own image (SPACE_ID)
    namespace: str | None = Field(None, validation_alias="HF_JOBS_NAMESPACE")  # default: the token's user
    max_concurrent: int = Field(4, gt=0, validation_alias="HF_JOBS_MAX_CONCURRENT")
    timeout_s: int = Field(6 * 3600, gt=0, validation_alias="HF_JOBS_TIMEOUT_S")
    flavors: Annotated[dict[str, float], NoDecode] = Field(
        default_factory=lambda: {"l4x1": 16.0, "a100-large": 70.0, "h200x2": 250.0, "h200x4": 500.0},
        validation_alias="HF_JOBS_FLAVORS",
    )
    unknown_size_flavor: str = Field("a100-large", min_length=1, validation_alias="HF_JOBS_UNKNOWN_SIZE_FLAVOR")
    prices_per_hour: Annotated[dict[str, float], NoDecode] = Field(
        default_factory=lambda: {"l4x1": 0.80, "a100-large": 2.50, "h200": 5.00, "h200x2": 10.00, "h200x4": 20.00},
        validation_alias="HF_JOBS_PRICES",
    )
    data_dir: str = Field("/tmp/indicwb-data", min_length=1, validation_alias="HF_JOBS_DATA_DIR")  # inside the Job
    log_lines: int = Field(40, gt=0, validation_alias="HF_JOBS_LOG_LINES")  # a failed Job's last lines kept
    # How often a Job commits its unfinished run folder to RESULTS_REPO, for the next Job to resume.
    checkpoint_s: float = Field(300.0, gt=0, validation_alias="HF_JOBS_CHECKPOINT_S")

    @field_validator("flavors", "prices_per_hour", mode="before")
    @classmethod
    def _json_table(cls, value: Any) -> Any:
        if not isinstance(value, str):
            return value
        try:
            table = json.loads(value)
        except (ValueError, RecursionError) as exc:
            raise ValueError(f"not valid JSON ({exc}); expected an object such as {{\"l4x1\": 16}}") from None
        if not isinstance(table, dict) or not table:
            raise ValueError("expected a non-empty JSON object of flavor to number, such as {\"l4x1\": 16}")
        return table

    @property
    def enabled(self) -> bool:
        return self.dispatch == "hf-jobs"


class Settings(BaseSettings):
    """All settings, one section per concern."""

    model_config = _ENV

    data: DataSettings = Field(default_factory=DataSettings)
    judge: JudgeSettings = Field(default_factory=JudgeSettings)
    cost: CostSettings = Field(default_factory=CostSettings)
    generation: GenerationSettings = Field(default_factory=GenerationSettings)
    queue: QueueSettings = Field(default_factory=QueueSettings)
    app: AppSettings = Field(default_factory=AppSettings)
    hub: HubSettings = Field(default_factory=HubSettings)
    parallel: ParallelSettings = Field(default_factory=ParallelSettings)
    jobs: JobsSettings = Field(default_factory=JobsSettings)
