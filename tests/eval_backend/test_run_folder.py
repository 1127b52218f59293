"""Run folders: where a model revision's files live, that a name can never leave the runs folder, and its lock."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from eval_backend.run_folder import RunFolder, RunFolderBusy, run_folder_of_id


def test_a_hub_model_revision_gets_its_own_folder(tmp_path: Path) -> None:
    folder = RunFolder.for_model(tmp_path, "sarvam/sarvam-m", "abc123")
    assert folder.path == tmp_path / "sarvam__sarvam-m" / "abc123"
    assert folder.judgments_path == folder.path / "judgments.jsonl"


@pytest.mark.parametrize(("model", "revision"), [("..", ".."), ("org/..", "."), ("a/b", "../../etc"), ("/abs/path", "x/y")])
def test_no_model_id_or_revision_leaves_the_runs_folder(tmp_path: Path, model: str, revision: str) -> None:
    folder = RunFolder.for_model(tmp_path, model, revision)
    assert folder.path.resolve().parent.parent == tmp_path.resolve()
    assert len(folder.path.relative_to(tmp_path).parts) == 2


@pytest.mark.parametrize("run_id", [
    "/advescape-test", "//advescape-test", "///x", "/tmp/x", "../org__m/main", "org__m/..", "./main", "org__m/.",
    "a\\..\\..\\etc/x", "org__m/main\x00", "org__m/main/", "org__m", "", None, ["org__m", "main"],
    "a" * 256 + "/main", "org__m/" + "ਸ" * 86,  # longer than a file name may be (258 bytes): `stat` would raise
])
def test_a_run_id_that_is_absolute_dotted_or_not_two_names_is_no_folder(tmp_path: Path, run_id: object) -> None:
    assert run_folder_of_id(tmp_path / "runs", run_id) is None


def test_a_run_id_names_its_folder_two_levels_down(tmp_path: Path) -> None:
    folder = run_folder_of_id(tmp_path / "runs", "sarvam__sarvam-m/abc123")
    assert folder is not None and folder.path == tmp_path / "runs" / "sarvam__sarvam-m" / "abc123"


def test_a_symlink_out_of_the_runs_folder_is_no_folder(tmp_path: Path) -> None:
    (tmp_path / "outside").mkdir()
    (tmp_path / "runs" / "org__m").mkdir(parents=True)
    (tmp_path / "runs" / "org__m" / "main").symlink_to(tmp_path / "outside", target_is_directory=True)
    assert run_folder_of_id(tmp_path / "runs", "org__m/main") is None


HOLD_LOCK = """
import sys, time
from pathlib import Path
from eval_backend.run_folder import RunFolder
with RunFolder(Path(sys.argv[1])).lock():
    print("held", flush=True)
    time.sleep(120)
"""


def test_a_run_folder_is_held_by_one_holder_at_a_time_and_released_on_exit(tmp_path: Path) -> None:
    folder = RunFolder(tmp_path / "run")
    with folder.lock():
        with pytest.raises(RunFolderBusy, match=rf"run folder .*run is in use by pid {os.getpid()} "):
            with folder.lock():
                pass
    with folder.lock():  # released when the holder is done
        pass
    with pytest.raises(RuntimeError, match="boom"):
        with folder.lock():
            raise RuntimeError("boom")
    with folder.lock():  # and when it fails
        pass


def test_a_lock_left_by_a_killed_process_does_not_block_the_folder(tmp_path: Path) -> None:
    folder = RunFolder(tmp_path / "run")
    holder = subprocess.Popen([sys.executable, "-c", HOLD_LOCK, str(folder.path)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(RunFolderBusy, match=rf"in use by pid {holder.pid} on "):
            with folder.lock():
                pass
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    assert folder.lock_path.exists()  # the file stays; the kernel dropped the lock with the process
    with folder.lock():
        pass
