"""The errors that mean bad input or configuration: printed as one line, exit status 2."""

from __future__ import annotations

import sys

_USER_ERRORS: tuple[tuple[str, str], ...] = (  # (the module that defines it, the class)
    ("eval_backend.settings", "SettingsInvalid"),  # a setting from the environment out of range or unparsable
    ("pydantic_core", "ValidationError"),  # any other record pydantic checks
    ("eval_backend.benchmarks.item_validation", "ItemValidationError"),
    ("eval_backend.dataset_loader", "DatasetLoadError"),
    ("eval_backend.generation.base", "GenerationConfigError"),
    ("eval_backend.judge_client", "JudgeConfigError"),
    ("eval_backend.jsonl", "JsonlCorruptError"),
    ("eval_backend.responses_input", "ResponsesInputError"),
    ("eval_backend.run_folder", "RunFolderError"),
    ("eval_backend.submissions.queue_store", "QueueError"),
    ("eval_backend.submissions.model_facts", "SubmissionRejected"),
    ("eval_backend.cli.hub_cmd", "HubNotConfigured"),
    ("eval_backend.hub_sync.requests_mirror", "MirrorFormatError"),
    ("eval_backend.cli.saraiki_args", "BenchmarkOptionError"),
)


def user_errors() -> tuple[type[Exception], ...]:
    """The classes of user error among the modules loaded so far.

    An error whose module was never imported cannot have been raised; importing those modules
    to catch it would cost a command that only reads a CSV the judge's HTTP stack, pandas and
    datasets (seconds) on every bad input.
    """
    loaded = (getattr(sys.modules[module], name, None) for module, name in _USER_ERRORS if module in sys.modules)
    return tuple(error for error in loaded if isinstance(error, type))
