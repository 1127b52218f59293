"""`python -m eval_backend hub …` against the stand-in Hub, configured through the environment."""

from __future__ import annotations

from eval_backend.cli import main
from tests.eval_backend.hub_sync.conftest import RESULTS_REPO, TOKEN, data_dir, evaluated, hub  # noqa: F401 - fixtures


def test_push_then_pull_through_the_cli(hub, data_dir, tmp_path, monkeypatch, capsys) -> None:  # noqa: F811
    monkeypatch.setenv("HF_TOKEN", TOKEN)
    monkeypatch.setenv("HF_ENDPOINT", hub.url)
    monkeypatch.setenv("RESULTS_REPO", RESULTS_REPO)
    monkeypatch.setenv("DATA_DIR", str(data_dir))
    assert main(["hub", "push"]) == 0
    assert "pushed 2 of 2 run folders" in capsys.readouterr().err

    monkeypatch.setenv("DATA_DIR", str(tmp_path / "fresh"))
    assert main(["hub", "pull"]) == 0
    assert "pulled 2 run folders" in capsys.readouterr().err
    assert len(list((tmp_path / "fresh" / "runs" / "indic_writing_bench").glob("*/*/summary.json"))) == 2


def test_without_a_token_the_cli_says_what_to_set(monkeypatch, capsys) -> None:
    monkeypatch.setenv("RESULTS_REPO", RESULTS_REPO)
    assert main(["hub", "pull"]) == 2
    assert "set HF_TOKEN and RESULTS_REPO" in capsys.readouterr().err
