"""A GPU host's layout: a worker per GPU group, and the vLLM engine arguments that tensor, pipeline and
multi-node (Ray) parallelism produce, checked as far as a machine without GPUs allows."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from eval_backend.generation.options import GenerationOptions
from eval_backend.generation.vllm_backend import llm_kwargs
from eval_backend.settings import ParallelSettings, Settings
from eval_backend.submissions import NewRequest, SqliteQueueStore
from eval_backend.submissions.gpu_layout import GpuLayoutError, engine_overrides, group_environments, parse_gpu_groups
from eval_backend.submissions.worker import generation_options
from tests.eval_backend.submissions.test_worker import REPO_ROOT


def test_gpu_groups_are_parsed_and_each_gets_its_own_visible_devices() -> None:
    groups = parse_gpu_groups(" 0,1 ; 2,3;")
    assert groups == ((0, 1), (2, 3))
    envs = group_environments(groups, {"PATH": "/bin", "WORKER_GPU_GROUPS": "0,1;2,3", "CUDA_VISIBLE_DEVICES": "0,1,2,3"})
    assert envs == [{"PATH": "/bin", "CUDA_VISIBLE_DEVICES": "0,1"}, {"PATH": "/bin", "CUDA_VISIBLE_DEVICES": "2,3"}]


@pytest.mark.parametrize(
    ("text", "expected"),
    [("", "is not a list of GPU groups"), ("0,a", "bad group '0,a'"), ("0,1;1,2", "GPU 1 is in more than one group"),
     ("0;;-1", "bad group '-1'")],
)
def test_bad_gpu_groups_are_refused_naming_the_setting(text: str, expected: str) -> None:
    with pytest.raises(GpuLayoutError, match="WORKER_GPU_GROUPS") as raised:
        parse_gpu_groups(text)
    assert expected in str(raised.value)


def test_a_worker_per_group_takes_the_group_size_as_its_tensor_parallelism() -> None:
    """A child sees only its group, so vLLM's default (every visible GPU) is the group."""
    options = GenerationOptions(model="org/m", backend="vllm", **engine_overrides(ParallelSettings()))
    assert llm_kwargs(options, gpu_count=2)["tensor_parallel_size"] == 2
    assert "pipeline_parallel_size" not in llm_kwargs(options, gpu_count=2)


def test_multi_node_settings_produce_rays_engine_arguments(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Two hosts of 8 GPUs for one model: tensor parallel 8 within a host, pipeline parallel 2 across, over Ray."""
    monkeypatch.setenv("WORKER_TENSOR_PARALLEL_SIZE", "8")
    monkeypatch.setenv("WORKER_PIPELINE_PARALLEL_SIZE", "2")
    monkeypatch.setenv("WORKER_DISTRIBUTED_EXECUTOR", "ray")
    queued = SqliteQueueStore(tmp_path / "queue.sqlite").add(
        NewRequest("org/big", "a" * 40, "main", "bfloat16", False, "alice", {"tensor_parallel_size": 1})
    )
    kwargs = llm_kwargs(generation_options(queued, Settings()), gpu_count=8)
    assert (kwargs["tensor_parallel_size"], kwargs["pipeline_parallel_size"], kwargs["distributed_executor_backend"]) == (
        8, 2, "ray"
    )  # the host's settings win over what the request was queued with


def test_pipeline_parallelism_without_an_executor_is_refused() -> None:
    with pytest.raises(GpuLayoutError, match="WORKER_DISTRIBUTED_EXECUTOR"):
        engine_overrides(ParallelSettings(pipeline_parallel_size=2))
    with pytest.raises(ValueError, match="unknown distributed executor 'slurm'"):
        GenerationOptions(model="org/m", distributed_executor_backend="slurm")


def test_the_worker_command_starts_a_worker_per_gpu_group(tmp_path: Path) -> None:
    env = {**os.environ, "QUEUE_PATH": str(tmp_path / "queue.sqlite"), "DATA_DIR": str(tmp_path),
           "WORKER_GPU_GROUPS": "0,1;2"}
    done = subprocess.run([sys.executable, "-m", "eval_backend", "worker", "--once"], cwd=REPO_ROOT, env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert "worker on GPUs 0,1" in done.stderr and "worker on GPUs 2" in done.stderr
    assert done.stderr.count("0 request(s) run") == 2


def test_a_bad_layout_is_a_clear_error_before_anything_is_claimed(tmp_path: Path) -> None:
    queue = SqliteQueueStore(tmp_path / "queue.sqlite")
    queue.add(NewRequest("org/m", "a" * 40, "main", "bfloat16", False, "alice"))
    env = {**os.environ, "QUEUE_PATH": str(tmp_path / "queue.sqlite"), "DATA_DIR": str(tmp_path),
           "WORKER_GPU_GROUPS": "0,0"}
    done = subprocess.run([sys.executable, "-m", "eval_backend", "worker", "--once"], cwd=REPO_ROOT, env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 2 and "GPU 0 is in more than one group" in done.stderr
    assert queue.list_requests()[0].status == "PENDING"
