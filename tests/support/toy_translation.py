"""A fourth benchmark that exists only in tests: a tiny translation set, scored by a character
F-score rule and an LLM judge of adequacy.

It is one module plus its registration (`registered()`), to show that a benchmark is a
package declaring what is specific to it and that the engine and the board do the rest: the
CLI, the queue, batch judging, consistency, coverage, intervals and a board tab come with no
change to shared code. Nothing outside tests imports it.

    dataset    write_toy_dataset(root): configs `hindi` and `tamil`, columns source, reference,
               in the Hub folder layout (`<config>/test.parquet` and a README declaring them)
    scorers    rule `chrf` (character 1–3-gram F-score against the reference, 0–100);
               judge `adequacy` ({"adequate": bool, "reason": str})
    metrics    `adequacy` % (the headline), `chrf` (mean F-score)
    board      two breakdowns (language, and sentence length: short or long, an item field the engine
               writes to details.parquet) and three figure kinds (headline, heatmap, bars), declared only
    no answer  the item scores chrF 0 and is judged inadequate, with no call
    judge      toy_judge_reply(): a stand-in judge for `tests.support.chat_server`
"""

from __future__ import annotations

import contextlib
import json
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from eval_backend.benchmarks.board_view import BY_LANGUAGE, HEADLINE_FIGURE, BoardView, Breakdown, FigureKind, FigureSpec
from eval_backend.benchmarks.item_statistics import ItemStatistics
from eval_backend.benchmarks.metric import Metric, per_item_metrics
from eval_backend.benchmarks.item_validation import ItemValidationError
from eval_backend.benchmarks.no_answer import NoAnswerPolicy
from eval_backend.benchmarks.plugin import Benchmark, JudgeScorer, RuleScorer, ScoredItem
from eval_backend.benchmarks.prompting import Prompt, SamplingDefaults, after_thinking
from eval_backend.benchmarks.registry import BENCHMARKS
from eval_backend.records import ItemKey, sha256_text
from eval_backend.statistics import Weighting
from eval_backend.verdict import VerdictError, parse_json_object

NAME = "toy_translation"
RULE, JUDGE = "chrf", "adequacy"
ROW_FIELDS = ("source", "reference")
ROWS: Mapping[str, Sequence[tuple[str, str]]] = {
    "hindi": (
        ("The river is wide.", "नदी चौड़ी है।"),
        ("I drink tea every morning.", "मैं हर सुबह चाय पीता हूँ।"),
        ("The train is late today.", "आज ट्रेन देर से है।"),
        ("Books are on the table.", "किताबें मेज़ पर हैं।"),
    ),
    "tamil": (
        ("The sky is blue.", "வானம் நீலமாக உள்ளது."),
        ("She sings well.", "அவள் நன்றாகப் பாடுகிறாள்."),
        ("The shop opens at nine.", "கடை ஒன்பது மணிக்குத் திறக்கும்."),
    ),
}


@dataclass(frozen=True)
class ToyItem:
    """One sentence to translate into its config's language; the item is short, items.jsonl keeps all of it."""

    config: str
    index: int
    id: str
    source: str
    reference: str
    length: str = ""
    """"short" (up to SHORT_WORDS words) or "long": the toy's second breakdown."""

    @property
    def key(self) -> ItemKey:
        return (self.config, self.index)

    @property
    def query_sha256(self) -> str:
        return sha256_text(json.dumps([self.config, self.source], ensure_ascii=False))

    @property
    def item_sha256(self) -> str:
        return sha256_text(json.dumps([self.config, self.source, self.reference], ensure_ascii=False))

    def meta(self) -> ToyItem:
        return self


def record_to_item(config: str, row: Mapping[str, Any]) -> ToyItem:
    index = row["index"]
    for field in ROW_FIELDS:
        if not isinstance(row.get(field), str) or not row[field].strip():
            raise ItemValidationError(f"config {config!r}, row {index}: field {field!r} must be non-empty text")
    return ToyItem(config, index, f"{config}-{index}", row["source"], row["reference"], sentence_length(row["source"]))


SHORT_WORDS = 4


def sentence_length(source: str) -> str:
    """The source sentence's length group: "short" (up to SHORT_WORDS words) or "long"."""
    return "short" if len(source.split()) <= SHORT_WORDS else "long"


def item_from_meta(meta: Mapping[str, Any]) -> ToyItem:
    return ToyItem(**{name: meta[name] for name in ToyItem.__dataclass_fields__})


def prompt(item: ToyItem) -> Prompt:
    return Prompt.user(f"Translate into {item.config.capitalize()}. Reply with the translation only.\n\n{item.source}")


def chrf(reference: str, hypothesis: str, order: int = 3) -> float:
    """Character n-gram F-score (n = 1..order, beta 1, whitespace ignored), 0–100."""
    ref, hyp = re.sub(r"\s+", "", reference), re.sub(r"\s+", "", hypothesis)
    scores = []
    for n in range(1, order + 1):
        ref_grams = Counter(ref[i:i + n] for i in range(len(ref) - n + 1))
        hyp_grams = Counter(hyp[i:i + n] for i in range(len(hyp) - n + 1))
        overlap = sum((ref_grams & hyp_grams).values())
        if not overlap:
            scores.append(0.0)
            continue
        precision, recall = overlap / sum(hyp_grams.values()), overlap / sum(ref_grams.values())
        scores.append(2 * precision * recall / (precision + recall))
    return 100.0 * sum(scores) / order


def rule_values(item: ToyItem, text: str) -> dict[str, Any]:
    return {"chrf": chrf(item.reference, text)}


JUDGE_PROMPT = "Source:\n<source>\n{source}\n</source>\nReference:\n<reference>\n{reference}\n</reference>\n" \
    "Translation:\n<translation>\n{translation}\n</translation>\n" \
    'Is the translation adequate? Reply with only {{"adequate": true or false, "reason": "<one sentence>"}}'


def judge_messages(item: ToyItem, text: str) -> list[dict[str, str]]:
    user = JUDGE_PROMPT.format(source=item.source, reference=item.reference, translation=text)
    return [{"role": "user", "content": user}]


def parse_adequacy(text: str | None) -> dict[str, Any]:
    data = parse_json_object(text)
    if type(data.get("adequate")) is not bool:
        raise VerdictError(f"'adequate' must be true or false, got {data.get('adequate')!r}")
    if not isinstance(data.get("reason"), str):
        raise VerdictError("'reason' is missing or not a string")
    return {"adequate": data["adequate"], "reason": data["reason"]}


def ruled(item: ToyItem, text: str) -> dict[str, Any] | None:
    return {"adequate": False, "reason": "blank translation"} if not text.strip() else None


NO_ANSWER = NoAnswerPolicy(
    "A sentence the model did not translate scores chrF 0 and is judged inadequate, with no call.",
    rules=lambda item: {RULE: {"chrf": 0.0}},
    judges=lambda item: {JUDGE: {"adequate": False, "reason": "no answer"}},
)


METRICS = (Metric("adequacy", "Adequacy", "%", weighting=Weighting.POOLED),
           Metric("chrf", "chrF", "score 0–100", weighting=Weighting.POOLED))


def _adequacy(entry: ScoredItem) -> float | None:
    record = entry.judges.get(JUDGE)
    return None if record is None or record.failed else 100.0 * bool(record.values["adequate"])  # type: ignore[index]


def _chrf(entry: ScoredItem) -> float | None:
    return float(entry.rules[RULE]["chrf"])


def _figures(entries: Sequence[ScoredItem]) -> dict[str, Any]:
    figures: dict[str, Any] = {"n": len(entries)}
    for name, value in (("adequacy", _adequacy), ("chrf", _chrf)):
        values = [number for number in map(value, entries) if number is not None]
        figures[name] = sum(values) / len(values) if values else None
    return figures


def aggregate(scored: Sequence[ScoredItem]) -> dict[str, Any]:
    """The number of counted items, and each metric's mean per language (the pooled means are the engine's)."""
    counted = [entry for entry in scored if entry.counted]
    configs = dict.fromkeys(entry.item.config for entry in counted)
    lengths = dict.fromkeys(entry.item.length for entry in counted)
    return {
        "metrics": {"n": len(counted)},
        "by_language": {config: {"metrics": _figures([e for e in counted if e.item.config == config])}
                        for config in configs},
        "by_length": {length: {"metrics": _figures([e for e in counted if e.item.length == length])}
                      for length in lengths},
    }


def _figure_values(details: pd.DataFrame) -> pd.DataFrame:
    adequate = details["adequacy_adequate"].map({True: 100.0, False: 0.0}) if "adequacy_adequate" in details \
        else pd.Series(float("nan"), index=details.index)
    chrf_values = details["chrf"] if "chrf" in details else pd.Series(float("nan"), index=details.index)
    return pd.DataFrame({"adequacy": adequate.astype(float), "chrf": chrf_values.astype(float)}, index=details.index)


TOY_STATISTICS = ItemStatistics(
    figures=per_item_metrics(METRICS),
    values=_figure_values,
    columns=("adequacy_adequate", "chrf"),
    subsets=("length",),
)
TOY_BOARD = BoardView(
    breakdowns=(BY_LANGUAGE, Breakdown("length", "Sentence length", "by_length")),
    figures=(HEADLINE_FIGURE, FigureSpec("languages", FigureKind.HEATMAP, "Adequacy per language", "language"),
             FigureSpec("lengths", FigureKind.BARS, "Adequacy per sentence length", "length")),
)
"""Two breakdowns and three figure kinds, declared only: the board draws them with no code of the toy's."""

TOY_TRANSLATION = Benchmark(
    name=NAME,
    title="Toy translation",
    description="A test-only translation set: chrF against one reference and an LLM judge of adequacy.",
    default_dataset=None,
    dataset_setting="TOY_DATASET",
    split="test",
    known_configs=tuple(ROWS),
    row_fields=ROW_FIELDS,
    record_to_item=record_to_item,
    item_from_meta=item_from_meta,
    prompt=prompt,
    judged_text=after_thinking,
    sampling=SamplingDefaults(temperature=0.0, top_p=1.0, top_k=-1, max_tokens=64),
    rules=(RuleScorer(RULE, rule_values),),
    judges=(JudgeScorer(JUDGE, judge_messages, parse_adequacy, 0.0, ruled),),
    metrics=METRICS,
    headline="adequacy",
    aggregate=aggregate,
    no_answer=NO_ANSWER,
    item_statistics=lambda: TOY_STATISTICS,
    board=TOY_BOARD,
)


@contextlib.contextmanager
def registered() -> Iterator[Benchmark]:
    """The toy benchmark in the engine's registry for the duration (as a real one is, by its module)."""
    BENCHMARKS[NAME] = TOY_TRANSLATION
    try:
        yield TOY_TRANSLATION
    finally:
        BENCHMARKS.pop(NAME, None)


def write_toy_dataset(root: Path, rows: Mapping[str, Sequence[tuple[str, str]]] = ROWS) -> Path:
    """Each config as `<config>/test.parquet` with a README declaring them, as the Hub lays out a repository."""
    root = Path(root)
    declared = []
    for config, config_rows in rows.items():
        (root / config).mkdir(parents=True, exist_ok=True)
        sources, references = zip(*config_rows)
        pq.write_table(pa.table({"source": list(sources), "reference": list(references)}), root / config / "test.parquet")
        declared.append(f"- config_name: {config}\n  data_files:\n  - split: test\n    path: {config}/test.parquet")
    (root / "README.md").write_text("---\nconfigs:\n" + "\n".join(declared) + "\n---\n# Toy translation\n", encoding="utf-8")
    return root


def toy_judge_reply(adequate_above: float = 50.0):
    """A stand-in adequacy judge: adequate when the translation's chrF against the reference exceeds
    `adequate_above`. Requests that are not this benchmark's judge prompts get HTTP 400."""
    from tests.support.chat_server import Reply, user_text

    pattern = re.compile(r"<reference>\n(?P<reference>.*?)\n</reference>.*?<translation>\n(?P<translation>.*?)\n</translation>",
                         re.DOTALL)

    def reply(body: dict[str, Any]) -> Reply:
        match = pattern.search(user_text(body))
        if match is None:
            return Reply(content="not a toy translation judge prompt", status=400)
        adequate = chrf(match["reference"], match["translation"]) > adequate_above
        return Reply(content=json.dumps({"adequate": adequate, "reason": "toy rule"}))

    return reply
