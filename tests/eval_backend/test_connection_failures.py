"""The one rule for an endpoint that is down: connection failures in a row, reset by any answer."""

from __future__ import annotations

import httpx
import openai
import pytest

from eval_backend.connection_failures import ConnectionFailures, url_host


class Down(RuntimeError):
    pass


def _refused() -> openai.APIConnectionError:
    try:
        raise httpx.ConnectError("connection refused")
    except httpx.ConnectError as cause:
        error = openai.APIConnectionError(request=httpx.Request("POST", "http://127.0.0.1:9/v1"))
        error.__cause__ = cause
        return error


def _slow_answer() -> openai.APITimeoutError:
    error = openai.APITimeoutError(request=httpx.Request("POST", "http://127.0.0.1:9/v1"))
    error.__cause__ = httpx.ReadTimeout("no answer yet")
    return error


def test_the_limit_th_failure_in_a_row_raises_naming_the_endpoint_and_an_answer_resets_the_count() -> None:
    failures = ConnectionFailures("127.0.0.1:9", 3, Down)
    for _ in range(2):
        failures.failed(_refused())
    failures.answered()
    for _ in range(2):
        failures.failed(_refused())
    with pytest.raises(Down, match=r"127.0.0.1:9 could not be reached 3 times in a row .*\(ConnectError\)"):
        failures.failed(_refused())


def test_a_slow_answer_is_not_an_endpoint_that_is_down() -> None:
    failures = ConnectionFailures("127.0.0.1:9", 1, Down)
    failures.failed(_slow_answer())  # connected, then waited: says nothing about the endpoint being down


@pytest.mark.parametrize(
    ("url", "host"),
    [("http://user:pw@127.0.0.1:8000/v1?key=s", "127.0.0.1:8000"), ("https://api.openai.com", "api.openai.com"),
     ("http://host:notaport", "(unparsable endpoint URL)")],
)
def test_only_host_and_port_of_a_url_reach_a_message(url, host) -> None:
    assert url_host(url) == host
