"""What the submit form reads and says: a pasted Hub URL understood, the engine's verdict made readable.

The engine's messages are written for the command line too (lowercase, and a duplicate names the run folder on the
server); the web form shows them capitalised and without server paths.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_HUB_URL = re.compile(
    r"^(?:https?://)?(?:www\.)?(?:huggingface\.co|hf\.co)/(?P<model>[^/?#\s]+/[^/?#\s]+)"
    r"(?:/(?:tree|commit|blob)/(?P<revision>[^/?#\s]+))?[^?#\s]*(?:[?#]\S*)?$"
)
_SERVER_PATH = re.compile(r";?\s*its results are in \S+")
QUEUED_LABEL = "Queued"
REFUSED_LABEL = "Not queued (nothing was submitted)"


@dataclass(frozen=True)
class ModelInput:
    """The model id typed or pasted, and the revision a pasted URL named (None: the form's own)."""

    model_id: str
    revision: str | None = None


def parse_model_input(text: str) -> ModelInput:
    """`org/name` as typed, or the id (and revision) of a pasted `https://huggingface.co/org/name[/tree/rev]` URL.

    Anything else is returned stripped, for the engine to accept or refuse with its own reason.
    """
    match = _HUB_URL.match(text.strip())
    return ModelInput(match["model"], match["revision"]) if match else ModelInput(text.strip())


def readable(message: str) -> str:
    """An engine message for the web: no server path, first letter capitalised, a full stop at the end."""
    text = _SERVER_PATH.sub("; its results are on the board", message).strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?", ")")) else text + "."
