"""Secrets out of every text that is logged or stored: credentials in URLs, key-like values, known keys.

A URL can carry credentials (`http://user:PW@host`, `?api_key=…`), and an upstream error can
echo part of a key (`Incorrect API key provided: sk-ab*****wxyz`). `redact` replaces each with
`***`; `install_log_redaction`, called once in `main()`, makes every log record pass through it
and registers the keys of the settings so that `redact` also finds them, whole or in part.

What the project stores (run-folder lines, summaries, details.parquet) goes through
`mask_known_secrets` where it is written: every registered secret (a configured key, or a
credential of a configured URL in any form it is sent in) is masked from any text, a model's
answer or a judge's reason included, while the text around it is kept as written. A client
made from settings registers its own secrets (`add_secrets`), so they are known wherever it runs.
"""

from __future__ import annotations

import base64
import logging
import re
from typing import Any, Iterable
from urllib.parse import parse_qsl, unquote, urlsplit

from eval_backend.settings import GenerationSettings, JudgeSettings, Settings

MASK = "***"
HTTP_CLIENT_LOGGERS = ("httpx", "httpx2", "httpcore")
"""Loggers that write every request URL at INFO: kept at WARNING (their URLs are redacted anyway)."""

_SECRET_NAME = re.compile(r"key|token|secret|sig|pass|auth|credential", re.I)


def _mask_parameter(match: re.Match[str]) -> str:
    """`?name=value` with the value masked when the name says it holds a secret."""
    return f"{match['sep']}{match['name']}={MASK}" if _SECRET_NAME.search(match["name"]) else match[0]


def _mask_basic(match: re.Match[str]) -> str:
    """`Basic <base64>` with the value masked when it decodes to `user:password` (not "Basic training")."""
    try:
        decoded = base64.b64decode(match["value"] + "=" * (-len(match["value"]) % 4), validate=True)
    except ValueError:
        return match[0]
    return f"{match['keep']}{MASK}" if b":" in decoded else match[0]


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
    (re.compile(r"(?P<keep>\b(?:authorization|api[-_]?key|x-api-key)[\"']?\s*[:=]\s*[\"']?)"
                r"(?:(?:bearer|basic|token)\s+)?[^\s\"',}&]++", re.I), rf"\g<keep>{MASK}"),
    (re.compile(r"(?P<keep>\bbearer\s+)[\w.~+/=-]++", re.I), rf"\g<keep>{MASK}"),
    # HTTP Basic credentials anywhere: base64 that decodes to `user:password`
    (re.compile(r"(?P<keep>\bbasic\s+)(?P<value>[A-Za-z0-9+/]{4,}+=*+)", re.I), _mask_basic),
    # key-shaped tokens: OpenAI (sk-…, sk-proj-…) and Hugging Face (hf_…) keys, masked or not
    (re.compile(r"\b(?:sk|rk|pk)-[\w*-]{4,}+"), MASK),
    (re.compile(r"\bhf_[\w*]{6,}+"), MASK),
    # what an upstream shows of a key it masked: a run of asterisks inside a token
    (re.compile(r"(?<![\w*-])[\w-]*+\*{3,}+[\w*-]*+"), _mask_masked),
)
_FRAGMENT = 8  # a known key is found from any 8 of its characters in a row
_BOUNDARIES = frozenset(" \t\r\n\f\v\"'<>")
_known: frozenset[str] = frozenset()
_known_pattern: re.Pattern[str] | None = None
_stored_pattern: re.Pattern[str] | None = None
"""The registered secrets that look like one (`_looks_secret`), for stored free text."""


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
    """The keys and tokens the settings hold, and the credentials of every URL they configure (`url_secrets`)."""
    queue_url = settings.queue.queue_url.get_secret_value() if settings.queue.queue_url else None
    hub = [*_values(settings.hub.hf_token), *url_secrets(settings.hub.hf_endpoint)]
    return [*judge_secrets(settings.judge), *generation_secrets(settings.generation), *hub, *url_secrets(queue_url)]


def judge_secrets(judge: JudgeSettings) -> list[str]:
    """The judge's keys and the credentials of its endpoints' URLs."""
    return [*_values(judge.api_key, judge.azure_api_key), *url_secrets(judge.base_url), *url_secrets(judge.azure_endpoint)]


def generation_secrets(generation: GenerationSettings | Any) -> list[str]:
    """The generation endpoint's key and the credentials of its URL (settings, or options with the same fields)."""
    return [*_values(generation.api_key), *url_secrets(generation.base_url)]


def _values(*keys: Any) -> list[str]:
    """The values of the secret settings that are set (SecretStr or plain text)."""
    values = (key.get_secret_value() if hasattr(key, "get_secret_value") else key for key in keys)
    return [value for value in values if isinstance(value, str) and value]


def url_secrets(url: str | None) -> list[str]:
    """What a URL carries that must never be shown: its password, the HTTP Basic form of `user:password` (as
    a client sends it), and the values of its query parameters whose names say they hold a secret."""
    if not url:
        return []
    try:
        parts = urlsplit(url)
        user, password = parts.username, parts.password
    except ValueError:  # unparsable: whoever uses it refuses it with its own message
        return []
    values = [value for name, value in parse_qsl(parts.query) if _SECRET_NAME.search(name)]
    if password:
        # Not the user name alone: masking it would blank every mention of a name like "alice".
        pair = f"{unquote(user or '')}:{unquote(password)}"
        basic = base64.b64encode(pair.encode("utf-8")).decode("ascii")
        values += [password, unquote(password), basic, basic.rstrip("=")]
    return [value for value in values if value]


def register_secrets(secrets: Iterable[str]) -> None:
    """Make `redact` find these values, whole or any `_FRAGMENT` characters of them (replaces earlier ones)."""
    global _known_pattern, _known, _stored_pattern
    _known = frozenset(value for value in secrets if len(value) >= 4)
    _known_pattern = _fragments_pattern(_known)
    _stored_pattern = _fragments_pattern(frozenset(filter(_looks_secret, _known)))


def _looks_secret(value: str) -> bool:
    """A value that cannot be an ordinary word: 8 characters or more, with letters and digits.

    A placeholder key ("EMPTY", "not-needed", "stand-in") is masked in logs and errors, where
    nothing is lost, but not in answers and reasons, where it would blank every use of the word.
    """
    return len(value) >= _FRAGMENT and any(c.isdigit() for c in value) and any(c.isalpha() for c in value)


def registered_secrets() -> frozenset[str]:
    """The values `redact` and `mask_known_secrets` find now (what `register_secrets` / `add_secrets` gave)."""
    return _known


def add_secrets(secrets: Iterable[str]) -> None:
    """Register these values too, keeping those registered before (a client registers what it is configured with)."""
    new = frozenset(value for value in secrets if len(value) >= 4) - _known
    if new:
        register_secrets(_known | new)


def mask_known_secrets(value: Any) -> Any:
    """`value` (text, or JSON-like data: dicts, lists) with every registered secret masked in each string.

    Only the registered values that look like secrets (`_looks_secret`), whole or in part: free text
    (answers, reasons) keeps everything else as written, unlike `redact`, whose key-shaped patterns
    are for errors and logs.
    """
    pattern = _stored_pattern
    if pattern is None:
        return value
    if isinstance(value, str):
        return _mask_known(value, pattern)
    if isinstance(value, dict):
        return {key: mask_known_secrets(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [mask_known_secrets(item) for item in value]
    return value


def _fragments_pattern(known: frozenset[str]) -> re.Pattern[str] | None:
    fragments = {value for value in known if len(value) <= _FRAGMENT}
    for value in known:
        fragments.update(value[start : start + _FRAGMENT] for start in range(len(value) - _FRAGMENT + 1))
    alternatives = "|".join(re.escape(fragment) for fragment in sorted(fragments, key=len, reverse=True))
    return re.compile(alternatives) if fragments else None


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
