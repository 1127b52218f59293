"""Settings from the environment: each bad one refused in one line naming its variable."""

from __future__ import annotations

import pytest

from eval_backend.settings import SettingsInvalid, load_settings


@pytest.mark.parametrize(
    ("variable", "value", "problem"),
    [
        pytest.param("WORKER_BACKEND_PARAMS", "{notjson", "not valid JSON", id="backend-params-not-json"),
        pytest.param("WORKER_BACKEND_PARAMS", "[1, 2]", "valid dictionary", id="backend-params-a-list"),
        pytest.param("JUDGE_PRICE_OUTPUT_PER_M", "inf", "finite number", id="price-inf"),
        pytest.param("JUDGE_BATCH_DISCOUNT", "nan", "finite number", id="discount-nan"),
        pytest.param("JUDGE_TIMEOUT_S", "inf", "finite number", id="timeout-inf"),
        pytest.param("QUEUE_STALE_AFTER_S", "-5", "greater than 0", id="stale-negative"),
        pytest.param("JUDGE_MAX_COMPLETION_TOKENS", "0", "greater than 0", id="tokens-zero"),
    ],
)
def test_a_bad_setting_is_one_line_naming_the_variable(monkeypatch, variable, value, problem) -> None:
    monkeypatch.setenv(variable, value)
    with pytest.raises(SettingsInvalid) as raised:
        load_settings()
    message = str(raised.value)
    assert message.startswith(f"invalid setting: {variable}=") and problem in message, message
    assert "\n" not in message


def test_backend_params_in_json_are_read_as_an_object(monkeypatch) -> None:
    monkeypatch.setenv("WORKER_BACKEND_PARAMS", '{"backend": "vllm", "max_tokens": 8}')
    assert load_settings().queue.backend_params == {"backend": "vllm", "max_tokens": 8}


def test_the_cli_prints_a_bad_setting_in_one_line_and_exits_2(monkeypatch, capsys) -> None:
    from eval_backend.cli import main

    monkeypatch.setenv("WORKER_BACKEND_PARAMS", "{notjson")
    assert main(["queue", "list"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: invalid setting: WORKER_BACKEND_PARAMS=") and err.count("\n") == 1, err
