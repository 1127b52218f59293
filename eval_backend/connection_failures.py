"""Connection failures in a row to one endpoint: past a bound, the endpoint is down and the run stops.

A call that never connected (refused, reset, unresolvable, a connect timeout) says nothing about
its work, only about the endpoint. Retried call by call with backoff, an endpoint that is down
holds a run for minutes (hours for a judge) before it ends in a traceback; counted across every
call, with any answer resetting the count, a handful of failures in a row stops the run with one
line naming the endpoint. The judge and the generation backend share this rule.
"""

from __future__ import annotations

from typing import Callable
from urllib.parse import urlsplit

import aiohttp
import httpx
import openai


class ConnectionFailures:
    """Counts the calls to `endpoint` that never connected, in a row across all calls; any answer resets it."""

    def __init__(self, endpoint: str, limit: int, unreachable: Callable[[str], Exception]) -> None:
        self.endpoint = endpoint
        self.limit = limit
        self._unreachable = unreachable  # builds the run's error from "HOST could not be reached N times …"
        self._in_a_row = 0

    def failed(self, exc: openai.APIConnectionError) -> None:
        """Count a call that failed; the `limit`-th in a row that never connected raises the endpoint's error."""
        if not never_connected(exc):
            return
        self._in_a_row += 1
        if self._in_a_row >= self.limit:
            raise self._unreachable(
                f"{self.endpoint} could not be reached {self.limit} times in a row with no answer between "
                f"({type(exc.__cause__ or exc).__name__})"
            ) from exc

    def answered(self) -> None:
        """The endpoint answered (if only with an error status): it is up."""
        self._in_a_row = 0


def never_connected(exc: openai.APIConnectionError) -> bool:
    """A connection refused, reset or unresolvable, or a connect timeout: not a slow answer."""
    if not isinstance(exc, openai.APITimeoutError):
        return True
    return isinstance(exc.__cause__, (aiohttp.ConnectionTimeoutError, httpx.ConnectTimeout))


def url_host(url: str) -> str:
    """`host[:port]` of a URL, for messages: never a path, a query or credentials."""
    try:
        parts = urlsplit(url)
        host, port = parts.hostname, parts.port
    except ValueError:  # a malformed port
        return "(unparsable endpoint URL)"
    return f"{host}:{port}" if host and port else host or "(no host in the endpoint URL)"
