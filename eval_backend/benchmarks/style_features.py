"""Style features a benchmark controls its style-controlled ranking for: declared, computed from stored answers.

LLM judges of long-form writing favour longer and more formatted answers (AlpacaEval 2's
length-controlled win rate, LMArena's style control). A benchmark declares, in its board view,
which features of an answer its style-controlled ranking adjusts for; the engine computes them
from the judged text the run folder already holds (details.parquet's `response`), so a run
scored before the declaration gets them without any new call. A benchmark that declares none
shows answer length only.

Lengths here are characters of the judged text (what the judge reads, after any thinking),
never tokens: token counts differ by tokenizer, so they would not compare one model's answer
with another's. An item with no answer has length 0.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Callable

_MARKED_LINE = re.compile(r"(?: {0,3}#{1,6}|[ \t]*(?:[-*+]|\d{1,9}[.)]))\s")
"""A line that is a header or a list item."""
_BOLD = re.compile(r"\*\*(?=\S)[^\n]+?\*\*|__(?=\S)[^\n]+?__")


@dataclass(frozen=True)
class StyleFeature:
    """One feature of an answer: its name, a label, the unit a coefficient is per, and its value for a judged text.

    With `relative_to_item` the feature is taken relative to the item: minus its median over the
    ranked models' answers to that item (a long answer to a question that asks for an essay is
    not a long answer). The fit's item effects absorb any per-item shift, so this changes what a
    feature's value reads as and the median style, never a coefficient or a ranking.
    """

    name: str
    label: str
    unit: str
    value: Callable[[str], float]
    relative_to_item: bool = False


def log_length(text: str) -> float:
    """The natural log of 1 + the text's length in characters (0 for an empty answer)."""
    return math.log1p(len(text))


def markdown_density(text: str) -> float:
    """Headers, list items and bold spans per 1,000 characters (0 for an empty answer)."""
    if not text:
        return 0.0
    lines = sum(1 for line in text.split("\n") if _MARKED_LINE.match(line))
    # Most answers have no bold at all: a substring test spares them the regex scan.
    bold = len(_BOLD.findall(text)) if "**" in text or "__" in text else 0
    return 1000.0 * (lines + bold) / len(text)


LOG_LENGTH = StyleFeature("log_length", "log answer length", "log-length unit", log_length)
LOG_LENGTH_RELATIVE = StyleFeature(
    "log_length", "log answer length relative to the item's median", "log-length unit", log_length,
    relative_to_item=True,
)
MARKDOWN_DENSITY = StyleFeature(
    "markdown_density", "markdown marks (headers, list items, bold spans) per 1,000 characters",
    "mark per 1,000 characters", markdown_density,
)
