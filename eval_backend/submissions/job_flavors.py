"""Which Hugging Face Jobs hardware a request gets, and what an hour of it costs.

A model's weights take its parameter count times the bytes of its precision; it gets the first
flavor of the operator's table (`HF_JOBS_FLAVORS`, in its order) whose limit they fit, and vLLM
spreads it tensor-parallel over that flavor's GPUs (`h200x2`: two). A model of unknown size gets
`HF_JOBS_UNKNOWN_SIZE_FLAVOR`. Prices come from the Hub's hardware list where it gives them,
else from `HF_JOBS_PRICES`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Protocol

from eval_backend.settings import JobsSettings

BYTES_PER_PARAMETER = {"float32": 4, "float16": 2, "bfloat16": 2, "auto": 2}
"""`auto` loads the checkpoint's own dtype, nearly always 16-bit for the models this board takes."""

_GPU_COUNT = re.compile(r"x(\d+)$")
_SECONDS_PER_UNIT = {"second": 1, "minute": 60, "hour": 3600}


class FlavorTooSmall(ValueError):
    """No flavor of the table takes the model; the message names its size and the largest limit."""


@dataclass(frozen=True)
class FlavorChoice:
    """The flavor a request runs on, why, and how many GPUs vLLM spreads the model over."""

    flavor: str
    weights_gb: float | None
    gpus: int


class HardwarePrice(Protocol):
    """What `huggingface_hub.JobHardwareInfo` gives of a flavor's price."""

    name: str
    unit_cost_usd: float
    unit_label: str


def weights_gb(parameters: int | None, precision: str) -> float | None:
    """The model's weights in GB (1e9 bytes) at `precision`; None for an unknown parameter count."""
    if parameters is None:
        return None
    return parameters * BYTES_PER_PARAMETER.get(precision, 2) / 1e9


def gpu_count(flavor: str) -> int:
    """GPUs of a flavor by its name: `h200x4` has 4, `l4x1` 1, `a100-large` 1."""
    found = _GPU_COUNT.search(flavor)
    return int(found.group(1)) if found else 1


def choose_flavor(parameters: int | None, precision: str, jobs: JobsSettings) -> FlavorChoice:
    """The first flavor of the table whose limit the model's weights fit; FlavorTooSmall if none does."""
    size = weights_gb(parameters, precision)
    if size is None:
        flavor = jobs.unknown_size_flavor
    else:
        flavor = next((name for name, limit_gb in jobs.flavors.items() if size <= limit_gb), "")
        if not flavor:
            largest = max(jobs.flavors.items(), key=lambda row: row[1])
            raise FlavorTooSmall(
                f"the model's weights take {size:.1f} GB at {precision}; the largest flavor in HF_JOBS_FLAVORS, "
                f"{largest[0]}, takes {largest[1]:g} GB"
            )
    return FlavorChoice(flavor, size, gpu_count(flavor))


def price_per_hour(flavor: str, hardware: Iterable[HardwarePrice], jobs: JobsSettings) -> float | None:
    """USD per hour of `flavor`: the Hub's hardware list first, then HF_JOBS_PRICES; None when neither has it."""
    for entry in hardware:
        seconds = _SECONDS_PER_UNIT.get(entry.unit_label)
        if entry.name == flavor and seconds and entry.unit_cost_usd:
            return entry.unit_cost_usd * 3600 / seconds
    return jobs.prices_per_hour.get(flavor)


def price_of(wall_s: float | None, hourly_usd: float | None) -> float | None:
    """What `wall_s` seconds cost at `hourly_usd`, rounded to the cent's hundredth; None when either is unknown."""
    if wall_s is None or hourly_usd is None:
        return None
    return round(wall_s / 3600 * hourly_usd, 4)
