"""Short labels for plots and narrow places: `org/name@abc1234`, the full id kept for the hover.

A 100-character id or a 40-character commit squeezes a plot to a sliver, so past MAX_LABEL_CHARS a label's
organisation is cut short and its name's middle elided, and the revision cut to 7 characters. Labels stay unique:
two runs whose short labels collide get longer ones until they differ.
"""

from __future__ import annotations

from typing import Sequence

from leaderboard.display import short_revision

MAX_LABEL_CHARS = 36
"""Characters of the model part of a label, at most (the ellipsis included)."""
ELLIPSIS = "…"
ORG_CHARS = 12
"""Characters of a long organisation name kept in a label that must be shortened."""


def short_label(model: str, revision: str, max_chars: int = MAX_LABEL_CHARS) -> str:
    """`model` elided in its middle to `max_chars`, with `@<7-char revision>` unless it is the default branch."""
    model = str(model)
    if len(model) > max_chars:
        org, slash, name = model.rpartition("/")
        if len(org) > ORG_CHARS:  # the organisation shortened first: the name tells models apart
            org = org[: ORG_CHARS - len(ELLIPSIS)] + ELLIPSIS
        keep = max(max_chars - len(org) - len(slash) - len(ELLIPSIS), 2)
        if len(name) > keep + len(ELLIPSIS):
            name = name[: (keep + 1) // 2] + ELLIPSIS + name[len(name) - keep // 2:]
        model = f"{org}{slash}{name}"
    return model if revision in ("", "main") else f"{model}@{short_revision(revision)}"


def short_labels(models: Sequence[str], revisions: Sequence[str]) -> list[str]:
    """One short label per run, unique: colliding labels are lengthened until they differ (the full id at most)."""
    runs = list(zip(models, revisions))
    labels = [short_label(model, revision) for model, revision in runs]
    width = MAX_LABEL_CHARS
    while len(set(labels)) < len(labels) and width < max((len(str(m)) for m in models), default=0):
        width += 8
        seen = {label: labels.count(label) for label in labels}
        labels = [short_label(m, r, width) if seen[label] > 1 else label for label, (m, r) in zip(labels, runs)]
    return [label if labels.count(label) == 1 else full_label(m, r) for label, (m, r) in zip(labels, runs)]


def full_label(model: str, revision: str) -> str:
    """The full id with the full revision (the hover text beside a short label)."""
    return str(model) if revision in ("", "main") else f"{model}@{revision}"
