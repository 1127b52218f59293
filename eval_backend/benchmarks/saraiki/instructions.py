"""Instruction following: the official IFEval and IFBench checkers, run as their authors run them.

The checkers come from the `if-verifiable` package (IFEval's and IFBench's code, one registry
each); the row's `source` picks the registry. The protocol is the upstream evaluation
library's: each checker is built from its kwargs with the None values dropped (and from the
prompt when it asks for it); strict passes when the reply is not blank and the checker
accepts it; loose passes when any of the upstream loose variants of the reply (first or last
line dropped, `*` removed) passes. The reply checked is `response_for_checks`, because the
checkers split sentences on English punctuation.

Where the upstream library would crash or silently skip, a check here is an error instead,
counted and shown: an id that the source's registry does not know, a checker whose nltk data
is missing, kwargs a checker rejects, a checker that fails on the reply.
"""

from __future__ import annotations

import contextlib
import functools
import logging
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Iterator, Mapping

from eval_backend.benchmarks.saraiki.rows import IFBENCH_SOURCE, IFEVAL_SOURCE, InstructionRow

logger = logging.getLogger(__name__)


class CheckError(StrEnum):
    """Why an instruction could not be checked."""

    UNKNOWN_INSTRUCTION = "unknown_instruction"
    MISSING_DATA = "missing_data"
    BAD_KWARGS = "bad_kwargs"
    CHECKER_FAILED = "checker_failed"


@dataclass(frozen=True)
class InstructionCheck:
    """One instruction of one reply: strict and loose verdicts, or the error that left it unchecked."""

    instruction_id: str
    strict: bool | None
    loose: bool | None
    error: str | None = None
    error_kind: CheckError | None = None


@dataclass(frozen=True)
class InstructionScore:
    """Every instruction of one row, checked against one reply."""

    checks: tuple[InstructionCheck, ...]

    @property
    def errors(self) -> tuple[InstructionCheck, ...]:
        return tuple(check for check in self.checks if check.error is not None)

    @property
    def scored(self) -> bool:
        """True when every instruction was checked, so the prompt-level verdict is known."""
        return not self.errors

    @property
    def all_strict(self) -> bool | None:
        return all(check.strict for check in self.checks) if self.scored else None

    @property
    def all_loose(self) -> bool | None:
        return all(check.loose for check in self.checks) if self.scored else None


def response_for_checks(reply: str) -> str:
    """The reply with Urdu full stop and question mark made English, as the seed prescribes."""
    return reply.replace("۔", ".").replace("؟", "?")


def check_instructions(row: InstructionRow, reply: str) -> InstructionScore:
    """Check the reply (through `response_for_checks`) against each of the row's instructions."""
    response = response_for_checks(reply)
    variants = _loose_variants(response)
    registry = registry_for(row.source)
    return InstructionScore(
        tuple(
            _check(registry, row, instruction_id, kwargs, response, variants)
            for instruction_id, kwargs in zip(row.instruction_ids, row.kwargs, strict=True)
        )
    )


def registry_for(source: str) -> Mapping[str, Any]:
    """The checker classes of a row's source, by instruction id."""
    registries = _registries()
    if source not in registries:
        raise ValueError(f"no checkers for instruction source {source!r}")
    return registries[source]


@functools.cache
def _registries() -> dict[str, Mapping[str, Any]]:
    # Imported on first use, with nltk's downloader switched off: IFBench's module calls
    # nltk.download for each resource it does not find when it is imported, which reaches for the
    # internet (and waits on it where there is none). The data is what `make install` ships
    # (NLTK_DATA); a checker needing data that is not there is a MISSING_DATA error, shown.
    with _nltk_downloads_off():
        from if_verifiable.ifbench.instructions_registry import INSTRUCTION_DICT as IFBENCH
        from if_verifiable.ifeval.instructions_registry import INSTRUCTION_DICT as IFEVAL

    return {IFEVAL_SOURCE: IFEVAL, IFBENCH_SOURCE: IFBENCH}


@contextlib.contextmanager
def _nltk_downloads_off() -> Iterator[None]:
    import nltk

    download = nltk.download
    nltk.download = _refuse_download
    try:
        yield
    finally:
        nltk.download = download


def _refuse_download(resource: str, *args: Any, **kwargs: Any) -> bool:
    logger.info("nltk data %r is not installed; not downloading it (checkers needing it report missing data)",
                resource)
    return False


def _loose_variants(response: str) -> list[str]:
    from if_verifiable.common import get_loose_transformations

    return get_loose_transformations(response)


def _check(
    registry: Mapping[str, Any],
    row: InstructionRow,
    instruction_id: str,
    kwargs: Mapping[str, Any],
    response: str,
    variants: list[str],
) -> InstructionCheck:
    checker_class = registry.get(instruction_id)
    if checker_class is None:
        message = f"no {row.source} checker has the id {instruction_id!r}"
        return _failed(instruction_id, CheckError.UNKNOWN_INSTRUCTION, message)
    try:
        checker = _build(checker_class, instruction_id, kwargs, row.prompt)
    except Exception as exc:  # the checkers raise what they like; each is shown, never a silent fail
        if _is_missing_data(exc):
            return _failed(instruction_id, CheckError.MISSING_DATA, _missing_data(instruction_id, exc))
        message = f"checker {instruction_id!r} rejects kwargs {dict(kwargs)!r}: {exc}"
        return _failed(instruction_id, CheckError.BAD_KWARGS, message)
    try:
        strict = _passes(checker, response)
        loose = any(_passes(checker, variant) for variant in variants)
    except Exception as exc:
        if _is_missing_data(exc):
            return _failed(instruction_id, CheckError.MISSING_DATA, _missing_data(instruction_id, exc))
        message = f"checker {instruction_id!r} failed: {type(exc).__name__}: {exc}"
        return _failed(instruction_id, CheckError.CHECKER_FAILED, message)
    return InstructionCheck(instruction_id, strict, loose)


def _build(checker_class: Any, instruction_id: str, kwargs: Mapping[str, Any], prompt: str) -> Any:
    checker = checker_class(instruction_id)
    checker.build_description(**{key: value for key, value in kwargs.items() if value is not None})
    args = checker.get_instruction_args()
    if args and "prompt" in args:
        checker.build_description(prompt=prompt)
    return checker


def _passes(checker: Any, text: str) -> bool:
    return bool(text.strip() and checker.check_following(text))


def _failed(instruction_id: str, kind: CheckError, message: str) -> InstructionCheck:
    return InstructionCheck(instruction_id, None, None, message, kind)


def _is_missing_data(exc: Exception) -> bool:
    # nltk raises a bare LookupError for a resource it cannot find; IndexError and KeyError
    # are LookupErrors too, but from a checker's own code.
    return type(exc) is LookupError


def _missing_data(instruction_id: str, exc: Exception) -> str:
    # nltk's message is a framed multi-line banner; its first sentence names the resource.
    first_line = next((line.strip() for line in str(exc).splitlines() if line.strip(" *")), str(exc))
    return f"checker {instruction_id!r} needs nltk data that is not installed: {first_line}"
