"""`estimate`: a run folder that is not there, and prices that are no prices, are refused (exit 2)."""

from __future__ import annotations

import pytest

from eval_backend.cli import main


def test_an_out_dir_that_does_not_exist_exits_2_naming_it(dataset_dir, tmp_path, capsys) -> None:
    """A mistyped --out-dir must not quietly estimate the whole dataset as if nothing were owed yet."""
    missing = tmp_path / "runs" / "mistyped"
    assert main(["estimate", "--dataset", str(dataset_dir), "--out-dir", str(missing)]) == 2
    captured = capsys.readouterr()
    assert f"run folder {missing} does not exist" in captured.err and captured.out == ""
    assert not missing.exists()


@pytest.mark.parametrize("price", ["inf", "nan", "-1", "-inf"])
def test_a_price_that_is_not_a_finite_non_negative_number_exits_2_naming_the_setting(
    dataset_dir, monkeypatch, capsys, price
) -> None:
    monkeypatch.setenv("JUDGE_PRICE_INPUT_PER_M", price)
    assert main(["estimate", "--dataset", str(dataset_dir)]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith("error: invalid setting: JUDGE_PRICE_INPUT_PER_M=") and captured.out == ""
    assert captured.err.count("\n") == 1 and "$" not in captured.err
