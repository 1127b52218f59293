"""The flavor table, prices, and what a Job is sent as env and as secrets."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest

from eval_backend.settings import (
    HubSettings,
    JobsSettings,
    JudgeSettings,
    QueueSettings,
    Settings,
    SettingsInvalid,
    load_settings,
)
from eval_backend.submissions.job_flavors import FlavorChoice, FlavorTooSmall, choose_flavor, price_of, price_per_hour
from eval_backend.submissions.job_spec import JobsNotConfigured, job_environment, job_image

JOBS = JobsSettings()


@pytest.mark.parametrize(
    ("parameters", "precision", "flavor", "gpus"),
    [
        (7_600_000_000, "bfloat16", "l4x1", 1),      # 15.2 GB
        (8_000_000_000, "auto", "l4x1", 1),          # 16 GB: the limit itself
        (8_000_000_000, "float32", "a100-large", 1),  # 32 GB: precision counts
        (35_000_000_000, "float16", "a100-large", 1),
        (72_700_000_000, "bfloat16", "h200x2", 2),
        (None, "bfloat16", "a100-large", 1),          # unknown size: HF_JOBS_UNKNOWN_SIZE_FLAVOR
    ],
)
def test_a_model_gets_the_first_flavor_its_weights_fit(
    parameters: int | None, precision: str, flavor: str, gpus: int
) -> None:
    choice = choose_flavor(parameters, precision, JOBS)
    assert (choice.flavor, choice.gpus) == (flavor, gpus)


def test_an_operator_table_from_the_environment_is_used_in_its_order(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_JOBS_FLAVORS", json.dumps({"a10g-largex2": 40, "h200x8": 1000}))
    jobs = load_settings().jobs
    assert choose_flavor(7_000_000_000, "bfloat16", jobs) == FlavorChoice("a10g-largex2", 14.0, 2)
    assert choose_flavor(400_000_000_000, "bfloat16", jobs).flavor == "h200x8"


def test_a_model_too_large_for_every_flavor_is_refused_naming_its_size_and_the_largest() -> None:
    expected = r"take 600\.0 GB at bfloat16; the largest flavor in HF_JOBS_FLAVORS, h200x4, takes 500 GB"
    with pytest.raises(FlavorTooSmall, match=expected):
        choose_flavor(300_000_000_000, "bfloat16", JOBS)


@pytest.mark.parametrize("value", ["{not json", "[]", "{}"])
def test_a_bad_flavor_table_is_refused_naming_the_variable(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("HF_JOBS_FLAVORS", value)
    with pytest.raises(SettingsInvalid, match="HF_JOBS_FLAVORS"):
        load_settings()


@dataclass(frozen=True)
class Hardware:
    name: str
    unit_cost_usd: float
    unit_label: str


def test_the_hubs_price_comes_first_and_the_settings_table_fills_in() -> None:
    hub = [Hardware("l4x1", 0.0125, "minute"), Hardware("h200", 0.0, "minute")]
    assert price_per_hour("l4x1", hub, JOBS) == pytest.approx(0.75)
    assert price_per_hour("h200", hub, JOBS) == 5.00  # no price on the Hub: the table's
    assert price_per_hour("rtx-pro-6000", hub, JOBS) is None
    assert price_of(5400, 2.0) == 3.0 and price_of(None, 2.0) is None and price_of(60, None) is None


def test_keys_and_tokens_go_as_secrets_and_what_only_the_space_uses_stays_behind() -> None:
    settings = Settings(
        judge=JudgeSettings(api_key="sk-judge-0123456789", base_url="https://user:pa55word@judge.example/v1"),
        queue=QueueSettings(queue_url="postgresql://q:qpass@db/queue", backend_params={"backend": "vllm"}, run_limit=3),
        hub=HubSettings(hf_token="hf_0123456789", results_repo="org/results", requests_repo="org/requests"),
    )
    env, secrets = job_environment(settings, FlavorChoice("h200x2", 140.0, 2))
    assert secrets == {
        "OPENAI_API_KEY": "sk-judge-0123456789", "OPENAI_BASE_URL": "https://user:pa55word@judge.example/v1",
        "HF_TOKEN": "hf_0123456789",
    }
    assert env == {
        "DATA_DIR": "/tmp/indicwb-data", "WORKER_BACKEND_PARAMS": '{"backend": "vllm"}', "WORKER_RUN_LIMIT": "3",
        "RESULTS_REPO": "org/results", "WORKER_TENSOR_PARALLEL_SIZE": "2",
    }


def test_the_image_is_the_configured_one_else_the_spaces_else_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPACE_ID", "org/board")
    assert job_image(load_settings()) == "hf.co/spaces/org/board"
    monkeypatch.setenv("HF_JOBS_IMAGE", "ghcr.io/org/board-jobs:1")
    assert job_image(load_settings()) == "ghcr.io/org/board-jobs:1"
    monkeypatch.delenv("SPACE_ID")
    monkeypatch.delenv("HF_JOBS_IMAGE")
    with pytest.raises(JobsNotConfigured, match="HF_JOBS_IMAGE"):
        job_image(load_settings())
