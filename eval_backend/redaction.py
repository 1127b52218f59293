"""Secrets out of every text that is logged or stored: credentials in URLs, key-like values, known keys.

A URL can carry credentials (`http://user:PW@host`, `?api_key=…`), and an upstream error can
echo part of a key (`Incorrect API key provided: sk-ab*****wxyz`). `redact` replaces each with
`***`; `install_log_redaction`, called once in `main()`, makes every log record pass through it
and registers the keys of the settings so that `redact` also finds them, whole or in part.
"""

from __future__ import annotations

import logging
import re
from typing import Any, Iterable
from urllib.parse import urlsplit

from eval_backend.settings import Settings

MASK = "***"
HTTP_CLIENT_LOGGERS = ("httpx", "httpx2", "httpcore")
"""Loggers that write every request URL at INFO: kept at WARNING (their URLs are redacted anyway)."""

_SECRET_NAME = re.compile(r"key|token|secret|sig|pass|auth|credential", re.I)


def _mask_parameter(match: re.Match[str]) -> str:
    """`?name=value` with the value masked when the name says it holds a secret."""
    return f"{match['sep']}{match['name']}={MASK}" if _SECRET_NAME.search(match["name"]) else match[0]


def _mask_masked(match: re.Match[str]) -> str:
    return MASK if match[0].strip("*") else match[0]  # a bare run of asterisks is no key


# Each pattern starts only at the start of a token and never backtracks into it (possessive
# quantifiers), so a line of any length is redacted in linear time.
_GENERIC = (
    # userinfo of any URL: scheme://user:password@host
    (re.compile(r"(?<![A-Za-z0-9+.-])(?P<keep>[A-Za-z][A-Za-z0-9+.-]*+://)[^/\s@?#]++@"), rf"\g<keep>{MASK}@"),
    # a query or form parameter whose name says it holds a secret (api_key, sig, access_token…)
    (re.compile(r"(?P<sep>[?&;])(?P<name>[\w.-]++)=[^&\s#\"']++"), _mask_parameter),
    # an HTTP auth header or a key given as `api-key: …`
    (re.compile(r"(?P<keep>\b(?:authorization|api[-_]?key|x-api-key)[\"']?\s*[:=]\s*[\"']?)(?:bearer\s+)?[^\s\"',}&]++",
                re.I), rf"\g<keep>{MASK}"),
    (re.compile(r"(?P<keep>\bbearer\s+)[\w.~+/=-]++", re.I), rf"\g<keep>{MASK}"),
    # key-shaped tokens: OpenAI (sk-…, sk-proj-…) and Hugging Face (hf_…) keys, masked or not
    (re.compile(r"\b(?:sk|rk|pk)-[\w*-]{4,}+"), MASK),
    (re.compile(r"\bhf_[\w*]{6,}+"), MASK),
    # what an upstream shows of a key it masked: a run of asterisks inside a token
    (re.compile(r"(?<![\w*-])[\w-]*+\*{3,}+[\w*-]*+"), _mask_masked),
)
_FRAGMENT = 8  # a known key is found from any 8 of its characters in a row
_BOUNDARIES = frozenset(" \t\r\n\f\v\"'<>")
_known_pattern: re.Pattern[str] | None = None


def redact(text: str) -> str:
    """`text` with credentials, key-like values and any registered key (or a fragment of one) masked."""
    if not text:
        return text
    if _known_pattern is not None:
        text = _mask_known(text, _known_pattern)
    for pattern, replacement in _GENERIC:
        text = pattern.sub(replacement, text)
    return text


def secrets_of(settings: Settings) -> list[str]:
    """The keys and tokens the settings hold, and the password of the queue's database URL."""
    keys = (settings.judge.api_key, settings.judge.azure_api_key, settings.generation.api_key, settings.hub.hf_token)
    values = [key.get_secret_value() for key in keys if key is not None]
    if settings.queue.queue_url is not None:
        try:
            values.append(urlsplit(settings.queue.queue_url.get_secret_value()).password or "")
        except ValueError:  # unparsable: the queue refuses it with its own message
            pass
    return [value for value in values if value]


def register_secrets(secrets: Iterable[str]) -> None:
    """Make `redact` find these values, whole or any `_FRAGMENT` characters of them (replaces earlier ones)."""
    global _known_pattern
    known = {value for value in secrets if len(value) >= 4}
    fragments = {value for value in known if len(value) <= _FRAGMENT}
    for value in known:
        fragments.update(value[start : start + _FRAGMENT] for start in range(len(value) - _FRAGMENT + 1))
    alternatives = "|".join(re.escape(fragment) for fragment in sorted(fragments, key=len, reverse=True))
    _known_pattern = re.compile(alternatives) if fragments else None


def _mask_known(text: str, pattern: re.Pattern[str]) -> str:
    """Mask the whole token around each fragment of a known key, so no neighbouring character of it stays.

    The token is widened by hand: a regex that did it would backtrack quadratically on a long token.
    A match inside the last masked token is skipped.
    """
    spans: list[tuple[int, int]] = []
    for match in pattern.finditer(text):
        if spans and match.start() < spans[-1][1]:
            continue
        start, end = match.start(), match.end()
        while start > 0 and text[start - 1] not in _BOUNDARIES:
            start -= 1
        while end < len(text) and text[end] not in _BOUNDARIES:
            end += 1
        spans.append((start, end))
    for start, end in reversed(spans):
        text = text[:start] + MASK + text[end:]
    return text


def install_log_redaction(secrets: Iterable[str] = ()) -> None:
    """Register `secrets` and redact every log record from now on, before any handler formats it.

    Done in the record factory so that every handler (console, the worker's log tail, a web
    framework's) sees the redacted text; calling it again only replaces the secrets.
    """
    register_secrets(secrets)
    for name in HTTP_CLIENT_LOGGERS:
        logging.getLogger(name).setLevel(logging.WARNING)
    current = logging.getLogRecordFactory()
    if getattr(current, "redacting", False):
        return

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = current(*args, **kwargs)
        try:
            _redact_record(record)
        except Exception:  # a log call must never fail because of redaction
            record.msg, record.args = "(log message withheld: it could not be checked for secrets)", None
        return record

    factory.redacting = True  # type: ignore[attr-defined]
    logging.setLogRecordFactory(factory)


def _redact_record(record: logging.LogRecord) -> None:
    message = record.getMessage()
    cleaned = redact(message)
    if cleaned != message:
        # Part by part first, so formatters that read `args` (uvicorn's access log) still work;
        # the whole message when a secret spans the format string and an argument.
        args = tuple(_redact_arg(value) for value in record.args) if isinstance(record.args, tuple) else record.args
        record.msg, record.args = _redact_arg(record.msg), args
        try:
            parts_clean = redact(record.getMessage()) == record.getMessage()
        except (TypeError, ValueError):  # the format string itself lost a placeholder to the mask
            parts_clean = False
        if not parts_clean:
            record.msg, record.args = cleaned, None
    if record.exc_info and record.exc_info[1] is not None:
        record.exc_text = redact(logging.Formatter().formatException(record.exc_info))


def _redact_arg(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, float)):
        return value
    text = str(value)
    cleaned = redact(text)
    return value if cleaned == text else cleaned
