"""Run folders: where a model revision's files live, and that a name can never leave the runs folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from eval_backend.run_folder import RunFolder


def test_a_hub_model_revision_gets_its_own_folder(tmp_path: Path) -> None:
    folder = RunFolder.for_model(tmp_path, "sarvam/sarvam-m", "abc123")
    assert folder.path == tmp_path / "sarvam__sarvam-m" / "abc123"
    assert folder.judgments_path == folder.path / "judgments.jsonl"


@pytest.mark.parametrize(("model", "revision"), [("..", ".."), ("org/..", "."), ("a/b", "../../etc"), ("/abs/path", "x/y")])
def test_no_model_id_or_revision_leaves_the_runs_folder(tmp_path: Path, model: str, revision: str) -> None:
    folder = RunFolder.for_model(tmp_path, model, revision)
    assert folder.path.resolve().parent.parent == tmp_path.resolve()
    assert len(folder.path.relative_to(tmp_path).parts) == 2
