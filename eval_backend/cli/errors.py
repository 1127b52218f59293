"""The errors that mean bad input or configuration: printed as one line, exit status 2."""

from eval_backend.benchmarks import ItemValidationError
from eval_backend.dataset_loader import DatasetLoadError
from eval_backend.judge_client import JudgeConfigError
from eval_backend.jsonl import JsonlCorruptError
from eval_backend.responses_input import ResponsesInputError
from eval_backend.run_folder import RunFolderError

USER_ERRORS: tuple[type[Exception], ...] = (
    ItemValidationError,
    DatasetLoadError,
    JudgeConfigError,
    JsonlCorruptError,
    ResponsesInputError,
    RunFolderError,
)
