"""The errors that mean bad input or configuration: printed as one line, exit status 2."""

from pydantic import ValidationError

from eval_backend.benchmarks import ItemValidationError
from eval_backend.cli.hub_cmd import HubNotConfigured
from eval_backend.cli.saraiki_args import BenchmarkOptionError
from eval_backend.dataset_loader import DatasetLoadError
from eval_backend.generation.base import GenerationConfigError
from eval_backend.hub_sync import MirrorFormatError
from eval_backend.judge_client import JudgeConfigError
from eval_backend.jsonl import JsonlCorruptError
from eval_backend.responses_input import ResponsesInputError
from eval_backend.run_folder import RunFolderError
from eval_backend.settings import SettingsInvalid
from eval_backend.submissions import QueueError, SubmissionRejected

USER_ERRORS: tuple[type[Exception], ...] = (
    SettingsInvalid,  # a setting from the environment out of range or unparsable; the message names the variable
    ValidationError,  # any other record pydantic checks
    ItemValidationError,
    DatasetLoadError,
    GenerationConfigError,
    JudgeConfigError,
    JsonlCorruptError,
    ResponsesInputError,
    RunFolderError,
    QueueError,
    SubmissionRejected,
    HubNotConfigured,
    MirrorFormatError,
    BenchmarkOptionError,
)
