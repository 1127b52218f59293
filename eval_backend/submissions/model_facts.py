"""What a submission needs to know about a model: its commit, chat template, size, license and openness.

From the Hugging Face Hub (through `huggingface_hub`, at the endpoint the settings give) or,
where allowed, from a local folder. Every way of not getting the facts becomes a
`SubmissionRejected` whose message says what is wrong and what to do.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, TypeVar

from huggingface_hub import HfApi, get_local_safetensors_metadata
from huggingface_hub.errors import (
    GatedRepoError,
    HfHubHTTPError,
    HTTPError,
    LocalEntryNotFoundError,
    NotASafetensorsRepoError,
    OfflineModeIsEnabled,
    RepositoryNotFoundError,
    RevisionNotFoundError,
    SafetensorsParsingError,
)

from eval_backend.jsonl import parse_json


CHAT_TEMPLATE_FILE = "chat_template.jinja"
TOKENIZER_CONFIG = "tokenizer_config.json"
HUB_TIMEOUT_S = 20.0
_MODEL_INFO_FIELDS = ["sha", "siblings", "safetensors", "gated", "private", "cardData", "tags"]
WEIGHT_FILES = re.compile(r"(^|/)([^/]+\.safetensors|pytorch_model[^/]*\.bin)$")
"""Files that hold a model's weights in the formats the worker loads (safetensors, PyTorch's `pytorch_model*.bin`)."""
LICENSE_TAG = "license:"
MAX_LICENSE_CHARS = 64
_LICENSE_UNSAFE = re.compile(r"[^a-z0-9._+-]+")

T = TypeVar("T")


class SubmissionRejected(ValueError):
    """A submission that cannot be queued; the message says exactly why."""


@dataclass(frozen=True)
class ModelFacts:
    """A model at one revision, as far as accepting it is concerned."""

    model_id: str
    revision: str
    has_chat_template: bool
    parameters: int | None
    license: str | None = None
    """The license the model card declares, normalised by `normalise_license` (None: not declared)."""
    open_weights: bool | None = None
    """Whether anyone can download the weights (`weights_are_open`); None when unknown (a local folder)."""


def shown(text: str, limit: int = 100) -> str:
    """User input quoted for a message, cut short so a pasted essay does not become the error."""
    return repr(text if len(text) <= limit else text[:limit] + "…")


def hub_model_facts(model_id: str, revision: str, api: HfApi) -> ModelFacts:
    """Resolve `revision` to a commit and read the model's facts from the Hub."""
    where = f"{shown(model_id)} at revision {shown(revision)}"
    info = _hub_call(api, where, lambda: api.model_info(
        model_id, revision=revision, expand=_MODEL_INFO_FIELDS, timeout=HUB_TIMEOUT_S  # type: ignore[arg-type]
    ))
    if info.gated:
        _hub_call(api, where, lambda: api.auth_check(model_id))
    names = {sibling.rfilename for sibling in info.siblings or ()}
    return ModelFacts(
        # The Hub's ids are case-insensitive; its own spelling is the one a duplicate is recognised by.
        model_id=str(info.id or model_id),
        revision=str(info.sha),
        has_chat_template=CHAT_TEMPLATE_FILE in names
        or (TOKENIZER_CONFIG in names and _hub_tokenizer_has_template(api, model_id, str(info.sha), where)),
        parameters=parameter_count(info.safetensors.total if info.safetensors else None),
        license=card_license(getattr(info.card_data, "license", None), getattr(info.card_data, "license_name", None),
                             info.tags),
        open_weights=weights_are_open(info.gated, info.private, names),
    )


def card_license(card: object, license_name: object = None, tags: object = None) -> str | None:
    """The license a model card declares (`license:`, else the Hub's `license:<id>` tags), normalised.

    "other" with a `license_name` becomes "other:<name>"; several licenses read "a or b". None when
    nothing (or "unknown") is declared.
    """
    tagged = [tag[len(LICENSE_TAG):] for tag in tags or () if isinstance(tag, str) and tag.startswith(LICENSE_TAG)]
    declared = card or tagged
    names = [normalise_license(name) for name in (declared if isinstance(declared, list) else [declared])]
    names = list(dict.fromkeys(name for name in names if name and name != "unknown"))
    named = normalise_license(license_name) if isinstance(license_name, str) else None
    names = [f"other:{named}" if name == "other" and named else name for name in names]
    return " or ".join(names)[:MAX_LICENSE_CHARS] or None


def normalise_license(name: object) -> str | None:
    """A license id as the Hub spells them (lower case; letters, digits, `.`, `_`, `+`, `-`), or None.

    Anything else a card holds becomes `-`, so a license reads as plain text and never holds the
    `,` that separates licenses in a link.
    """
    if not isinstance(name, str):
        return None
    return _LICENSE_UNSAFE.sub("-", name.strip().lower()).strip("-")[:MAX_LICENSE_CHARS] or None


def weights_are_open(gated: object, private: object, files: set[str]) -> bool | None:
    """Open weights: the repo is public, not gated (no access request, automatic or manual), and it holds weight
    files (`WEIGHT_FILES`), so anyone can download them.

    None when the Hub did not say whether it is gated or private.
    """
    if gated is None or private is None:
        return None
    return not gated and not private and any(WEIGHT_FILES.search(name) for name in files)


def parameter_count(value: object) -> int | None:
    """A parameter count as metadata gives it, or None (unknown) for anything but a positive integer."""
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        return None
    return value


def _hub_tokenizer_has_template(api: HfApi, model_id: str, sha: str, where: str) -> bool:
    path = _hub_call(api, where, lambda: api.hf_hub_download(model_id, TOKENIZER_CONFIG, revision=sha))
    return _config_has_template(Path(path))


def _hub_call(api: HfApi, where: str, call: Callable[[], T]) -> T:
    """Run one Hub request, turning its failures into messages a submitter can act on."""
    try:
        return call()
    except GatedRepoError as exc:
        raise SubmissionRejected(
            f"model {where} is gated and the leaderboard's Hugging Face token has not been granted access; "
            "ask its owners to grant access or make it public"
        ) from exc
    except RepositoryNotFoundError as exc:
        raise SubmissionRejected(
            f"model {where} was not found on the Hub, or it is private and the leaderboard's token cannot read it"
        ) from exc
    except RevisionNotFoundError as exc:
        raise SubmissionRejected(f"model {where}: no such branch, tag or commit") from exc
    except HfHubHTTPError as exc:
        status = exc.response.status_code if exc.response is not None else "?"
        raise SubmissionRejected(
            f"the Hugging Face Hub answered HTTP {status} for {where}; try again later (nothing was queued)"
        ) from exc
    except (HTTPError, OfflineModeIsEnabled, LocalEntryNotFoundError) as exc:
        raise SubmissionRejected(
            f"the Hugging Face Hub could not be reached at {api.endpoint} ({type(exc).__name__}); "
            "try again later (nothing was queued)"
        ) from exc


def local_model_facts(folder: Path) -> ModelFacts:
    """The facts of a model saved in a local folder; its revision is a hash of its files' names and sizes."""
    if not folder.is_dir():
        raise SubmissionRejected(f"local model folder {shown(str(folder))} does not exist")
    if not (folder / "config.json").is_file():
        raise SubmissionRejected(f"local model folder {shown(str(folder))} has no config.json")
    try:
        parameters = parameter_count(sum(get_local_safetensors_metadata(folder).parameter_count.values()))
    except (NotASafetensorsRepoError, SafetensorsParsingError):
        parameters = None
    return ModelFacts(
        model_id=str(folder),
        revision=_folder_revision(folder),
        has_chat_template=(folder / CHAT_TEMPLATE_FILE).is_file()
        or ((folder / TOKENIZER_CONFIG).is_file() and _config_has_template(folder / TOKENIZER_CONFIG)),
        parameters=parameters,
    )


def _folder_revision(folder: Path) -> str:
    """`local-` and a hash of the folder's file names and sizes: a changed model is a new revision."""
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and not p.name.startswith(".")):
        digest.update(f"{path.relative_to(folder).as_posix()}\0{path.stat().st_size}\n".encode())
    return f"local-{digest.hexdigest()[:16]}"


def _config_has_template(path: Path) -> bool:
    try:
        config: Any = parse_json(path.read_bytes(), f"{TOKENIZER_CONFIG} of the model")
    except ValueError as exc:
        raise SubmissionRejected(str(exc)) from exc
    return isinstance(config, dict) and bool(config.get("chat_template"))
