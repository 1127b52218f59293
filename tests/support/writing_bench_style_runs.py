"""WritingBench runs whose answers' length and markdown vary item by item, judged by a judge that rewards length.

LLM judges of long-form writing favour longer answers; this stand-in judge does so by construction:
it scores each criterion at the answer's quality marker (`run_folders.quality_score`) plus
LENGTH_REWARD points per log-length unit above REFERENCE_CHARS characters. Each model writes its
answers in the item's own script (Devanagari, Tamil, Bengali) at a length, and with markdown, that
changes from item to item in a pattern of its own, so length varies beyond model and item and the
style fit can tell it from quality. The verbose model (a 100-character id) writes worst and longest,
the concise one best and shortest: the seed's ranking puts the verbose one first, the controlled one
the concise one. Every run is complete (three Indic configs, four items each) and is evaluated by
the real engine against the stand-in judge (`run_folders.build_evaluated_data`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from eval_backend.benchmarks.writing_bench.records import Item
from tests.support.readable_runs import long_id
from tests.support.run_folders import EvaluatedData, ModelProfile, build_evaluated_data, quality_score

__all__ = ["CONCISE_ID", "STYLE_CONFIGS", "VERBOSE_ID", "WB_STYLE_PROFILES", "build_writing_bench_style_runs",
           "length_rewarding_score"]

STYLE_CONFIGS: Mapping[str, int] = {"Hindi": 4, "Tamil": 4, "Bengali": 4}
"""Every config of the dataset, so each run covers them all (ranked); four items each: four clusters per language."""
LENGTH_REWARD = 1.5
"""The judge's points per log-length unit: the known effect the controlled ranking takes out."""
REFERENCE_CHARS = 400
"""The answer length the judge neither rewards nor penalises."""
SENTENCES = {
    "Hindi": "भारत की भाषाएँ अपनी कहानियों, गीतों और परंपराओं से हर पीढ़ी को जोड़ती हैं। ",
    "Tamil": "தமிழ் இலக்கியம் இரண்டாயிரம் ஆண்டுகளுக்கும் மேலான பெருமைமிக்க வரலாறு கொண்டது. ",
    "Bengali": "বাংলা সাহিত্য রবীন্দ্রনাথের গান আর কবিতায় আজও প্রতিটি ঘরে বেঁচে আছে। ",
}
"""The sentence each answer repeats, in its config's script."""
MARKDOWN = "## {id}\n- **মূল কথা** / **मुख्य बात**\n- தொடர்ச்சி\n- सार\n\n"
"""A header, three list items and two bold spans, opening a formatted answer."""

VERBOSE_ID = long_id("verbose-writers-guild", "hindi-tamil-bengali-essayist")
CONCISE_ID = "acme/concise-7b"


@dataclass(frozen=True)
class StyledProfile(ModelProfile):
    """A model whose answer to item `index` repeats its sentence `sentences[index % len]` times, opened by markdown
    where `markdown[index % len]`: its own pattern of length and format over the items."""

    sentences: tuple[int, ...] = (1,)
    markdown: tuple[bool, ...] = (False,)

    def response_for(self, item: Item) -> str:
        repeats = self.sentences[item.index % len(self.sentences)]
        opening = MARKDOWN.format(id=item.id) if self.markdown[item.index % len(self.markdown)] else ""
        return f"{opening}{super().response_for(item)}\n\n{SENTENCES[item.config] * repeats}"


WB_STYLE_PROFILES = (
    StyledProfile(VERBOSE_ID, 5, sentences=(8, 25, 60), markdown=(True, False)),
    StyledProfile("acme/steady-3b", 6, sentences=(2, 6, 12, 4), markdown=(False, True, True)),
    StyledProfile(CONCISE_ID, 7, sentences=(1, 3), markdown=(False, False, True, False)),
    StyledProfile("acme/small-1b", 3, sentences=(1, 20, 5), markdown=(False, True)),
)
"""True quality best first: concise, steady, verbose, small; the verbose one's length lifts it to first as judged."""


def length_rewarding_score(criterion: Mapping[str, Any], response: str) -> int:
    """The stand-in judge's score (1-10): the quality marker's, plus LENGTH_REWARD per log-length unit over
    REFERENCE_CHARS (minus under it)."""
    reward = round(LENGTH_REWARD * math.log(max(len(response), 1) / REFERENCE_CHARS))
    return min(10, max(1, quality_score(criterion, response) + reward))


def build_writing_bench_style_runs(root: Path) -> EvaluatedData:
    """The four runs of WB_STYLE_PROFILES in `root/data/runs/indic_writing_bench` (the dataset in `root/dataset`)."""
    assert len(VERBOSE_ID) == 100
    return build_evaluated_data(root, WB_STYLE_PROFILES, STYLE_CONFIGS, length_rewarding_score)
