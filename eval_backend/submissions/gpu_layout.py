"""A GPU host's layout for the queue's worker: which GPUs each worker process gets, and how vLLM spreads a model.

Three shapes, chosen by settings (docs/deploy.md):

- one worker over every GPU of the host, the model tensor-parallel across them (the default);
- a worker per GPU group (`WORKER_GPU_GROUPS="0,1;2,3"`): each child process sees only its group
  through `CUDA_VISIBLE_DEVICES`, and vLLM's tensor parallelism spans that group;
- a model larger than one host: `WORKER_DISTRIBUTED_EXECUTOR=ray` with
  `WORKER_PIPELINE_PARALLEL_SIZE` (and `WORKER_TENSOR_PARALLEL_SIZE`) over a Ray cluster the
  worker's host belongs to (`RAY_ADDRESS`).
"""

from __future__ import annotations

import re
from typing import Any, Mapping

from eval_backend.generation.base import GenerationConfigError
from eval_backend.settings import ParallelSettings

_GROUP = re.compile(r"\d+(,\d+)*")


class GpuLayoutError(GenerationConfigError):
    """A GPU layout setting that cannot be used; the message names the setting."""


def parse_gpu_groups(text: str) -> tuple[tuple[int, ...], ...]:
    """`"0,1;2,3"` -> ((0, 1), (2, 3)): GPU indices, groups split by `;`, no GPU in two groups."""
    groups = [part.replace(" ", "") for part in text.split(";") if part.strip()]
    bad = [group for group in groups if not _GROUP.fullmatch(group)]
    if not groups or bad:
        raise GpuLayoutError(
            f"WORKER_GPU_GROUPS={text!r} is not a list of GPU groups like '0,1;2,3' "
            f"(indices separated by ',', groups by ';'){'; bad group ' + repr(bad[0]) if bad else ''}"
        )
    parsed = tuple(tuple(int(index) for index in group.split(",")) for group in groups)
    every = [index for group in parsed for index in group]
    shared = sorted({index for index in every if every.count(index) > 1})
    if shared:
        raise GpuLayoutError(f"WORKER_GPU_GROUPS={text!r}: GPU {shared[0]} is in more than one group")
    return parsed


def group_environments(groups: tuple[tuple[int, ...], ...], env: Mapping[str, str]) -> list[dict[str, str]]:
    """The environment of each group's worker process: `env`, its own CUDA_VISIBLE_DEVICES, no groups of its own."""
    children = []
    for group in groups:
        child = {name: value for name, value in env.items() if name != "WORKER_GPU_GROUPS"}
        child["CUDA_VISIBLE_DEVICES"] = ",".join(str(index) for index in group)
        children.append(child)
    return children


def engine_overrides(parallel: ParallelSettings) -> dict[str, Any]:
    """The generation options this host's layout sets (only those its settings give)."""
    overrides = {
        "tensor_parallel_size": parallel.tensor_parallel_size,
        "pipeline_parallel_size": parallel.pipeline_parallel_size,
        "distributed_executor_backend": parallel.distributed_executor,
    }
    if parallel.pipeline_parallel_size and parallel.pipeline_parallel_size > 1 and not parallel.distributed_executor:
        raise GpuLayoutError(
            "WORKER_PIPELINE_PARALLEL_SIZE > 1 needs WORKER_DISTRIBUTED_EXECUTOR: 'mp' on one host, 'ray' across hosts"
        )
    return {name: value for name, value in overrides.items() if value is not None}
