"""Indic WritingBench v1: the seed's judge prompts and row rules, verbatim.

The authority is the benchmark card (shared/seeds/000_…): system prompt, scoring
prompt, one judge call per checklist criterion, and the `</think>\\n\\n` rule.
"""

from __future__ import annotations

import json
import re
from functools import partial
from typing import TYPE_CHECKING, Any, Mapping

from eval_backend.benchmarks.board_view import BoardView, FigureKind, FigureSpec
from eval_backend.benchmarks.item_validation import ItemValidationError
from eval_backend.benchmarks.no_answer import NoAnswerPolicy, ScorerValues
from eval_backend.benchmarks.plugin import Benchmark, JudgeScorer, Metric
from eval_backend.benchmarks.prompting import Prompt, SamplingDefaults, after_thinking
from eval_backend.benchmarks.style_features import LOG_LENGTH_RELATIVE, MARKDOWN_DENSITY
from eval_backend.records import Item, item_meta_from_dict
from eval_backend.verdict import parse_verdict
from eval_backend.writing_bench_details import CRITERIA_PER_ITEM, details_row
from eval_backend.writing_bench_scoring import aggregate, older_keys
from eval_backend.writing_bench_verdicts import JUDGMENT_LINES

if TYPE_CHECKING:
    from eval_backend.benchmarks.item_statistics import ItemStatistics

DATASET_ID = "sarvam/indic_writing_bench_v1"

INDIC_CONFIGS = (
    "Assamese", "Bengali", "Gujarati", "Hindi", "Kannada", "Malayalam",
    "Marathi", "Odia", "Punjabi", "Tamil", "Telugu",
)
KNOWN_CONFIGS = INDIC_CONFIGS + ("english_original", "indian_english")
VARIANTS = ("native", "code_mixed", "romanized")
BANDS = ("1-2", "3-4", "5-6", "7-8", "9-10")
FLOOR_SCORE = 1
"""The rubric's lowest score, given on every criterion of an item the model did not answer."""
RUBRIC_SCORER = "rubric"

SYSTEM_PROMPT = "You are an expert evaluator with extensive experience in evaluating response of given query."

SCORING_PROMPT = """Evaluate the Response based on the Query and Criteria provided following the Scoring Rules.

** Scoring Rules **

"1-2": "Low score description: Critical deficiencies and major issues that prevent adequate functionality.",
"3-4": "Below average score description: Lacking with noticeable shortcomings that impact overall effectiveness and require improvement.",
"5-6": "Average score description: Adequate but not exemplary, Baseline performance that meets essential requirements. Most models may achieve this score.",
"7-8": "Above average score description: Strong performance characterized by competent execution, though minor refinements are needed to achieve excellence.",
"9-10": "High score description: Exceptional performance with all aspects optimally addressed, demonstrating superior effectiveness and quality without any flaws."

-Provide reasons for each score by indicating specific strengths or deficiencies within the Response. Reference exact text passages to justify the score, ensuring that each reason is concrete and aligns with the criteria requirements while highlighting key gaps from the ideal answer.

-Be very STRICT and do not be misled by format or length; ensure that the Response is thoroughly evaluated beyond superficial appearances.

-Carefully discern whether the content of the Response is an illusion, appearing substantial but actually entirely fabricated.

-Sometimes the model may only provide an introduction or an overview without truly completing the query, which should be considered a failed response. Carefully discern this.

-Scoring Range: Assign an integer score between 1 to 10

** Output format **
(Remove symbols that interfere with JSON parsing, don't use " inside reason)
Return the results in the following JSON format, Only output the following JSON format and nothing else:
```json
{
    "score": an integer score between 1 to 10,
    "reason": "Specific and detailed justification for the score using text elements."
}

** Criteria **
```{criteria}```

** Query **
```{query}```

** Response **
```{response}```

Provide your evaluation based on the criteria restated below:

```{criteria}```

** Output format **
(Remove symbols that interfere with JSON parsing, don't use " inside reason)
Return the results in the following JSON format, Only output the following JSON format and nothing else:
```json
{
    "score": an integer score between 1 to 10,
    "reason": "Specific and detailed justification for the score using text elements."
}
```"""

# One pass over the template, like str.format, so text inside a substituted value
# (a query that happens to contain "{response}") is never substituted again.
_PLACEHOLDER = re.compile(r"\{(criteria|query|response)\}")
_STRING_FIELDS = ("id", "domain", "subdomain", "variant", "query")


def render_scoring_prompt(criterion: Mapping[str, Any], query: str, response: str) -> str:
    """The seed's scoring prompt for one criterion, the criterion's JSON injected twice."""
    values = {
        "criteria": json.dumps(dict(criterion), ensure_ascii=False),
        "query": query,
        "response": response,
    }
    return _PLACEHOLDER.sub(lambda match: values[match.group(1)], SCORING_PROMPT)


def judge_messages(item: Item, criterion_index: int, judged_text: str) -> list[dict[str, str]]:
    """The chat messages of one judge call: the seed's system prompt and scoring prompt."""
    prompt = render_scoring_prompt(item.checklist[criterion_index], item.query, judged_text)
    return [
        {"role": "system", "content": SYSTEM_PROMPT},
        {"role": "user", "content": prompt},
    ]


def judged_text(raw_response: str) -> str:
    """Drop a reasoning model's chain of thought: everything up to the first `</think>\\n\\n`."""
    return after_thinking(raw_response)


def record_to_item(config: str, row: Mapping[str, Any]) -> Item:
    """Validate one dataset row and turn it into an Item.

    Raises ItemValidationError naming the config, the row's index and the bad field.
    """
    index = row.get("index")
    if not isinstance(index, int) or isinstance(index, bool):
        raise ItemValidationError(f"config {config!r}: a row has no integer 'index' (got {index!r})")
    where = f"config {config!r}, index {index}"
    for name in _STRING_FIELDS:
        if not isinstance(row.get(name), str) or not row[name]:
            raise ItemValidationError(f"{where}: field {name!r} is missing or not a non-empty string")
    if row["variant"] not in VARIANTS:
        raise ItemValidationError(f"{where}: field 'variant' is {row['variant']!r}, expected one of {VARIANTS}")
    checklist = _validated_checklist(row.get("checklist"), where)
    return Item(
        config=config,
        index=index,
        id=row["id"],
        domain=row["domain"],
        subdomain=row["subdomain"],
        language=str(row.get("language") or config),
        variant=row["variant"],
        prompt=str(row.get("prompt") or ""),
        query=row["query"],
        checklist=checklist,
    )


def _validated_checklist(checklist: Any, where: str) -> tuple[Mapping[str, Any], ...]:
    if not isinstance(checklist, list) or len(checklist) != CRITERIA_PER_ITEM:
        count = len(checklist) if isinstance(checklist, list) else type(checklist).__name__
        raise ItemValidationError(f"{where}: field 'checklist' must hold {CRITERIA_PER_ITEM} criteria (got {count})")
    for position, entry in enumerate(checklist):
        for key in ("name", "criteria_description", *BANDS):
            if not isinstance(entry, Mapping) or not isinstance(entry.get(key), str) or not entry[key]:
                raise ItemValidationError(f"{where}: field 'checklist[{position}].{key}' is missing or empty")
    return tuple(checklist)


FIGURES = (
    FigureSpec("overall", FigureKind.HEADLINE, "Indic average (95 % interval)"),
    FigureSpec("heatmap", FigureKind.HEATMAP, "Score by language", "config"),
    FigureSpec("variants", FigureKind.BARS, "Score by prompt rendering (native / code-mixed / romanized)", "variant"),
    FigureSpec("radar", FigureKind.RADAR, "Score by domain", "domain"),
    FigureSpec("language-variants", FigureKind.HEATMAP, "Score by language and rendering", "config_variant"),
    FigureSpec("subdomains", FigureKind.HEATMAP, "Score by subdomain (Indic languages)", "subdomain"),
)
"""The Plots tab's figures: the breakdowns are its table's groups (`config.Hindi`, ...), `config_variant` one run's
language x rendering scores and `subdomain` the summary's (domain, subdomain) scores."""


def _item_statistics() -> ItemStatistics:
    """Renderings of one request cluster; the Indic average and each config's mean; imported on first use (it needs pandas)."""
    from eval_backend.benchmarks.writing_statistics import WRITING_STATISTICS

    return WRITING_STATISTICS


CRITERIA = tuple(str(position) for position in range(CRITERIA_PER_ITEM))
"""The rubric judge's parts: the seed's five criteria of every item (`record_to_item` checks each has five)."""


def _criteria(item: Item) -> tuple[str, ...]:
    return CRITERIA


RUBRIC_JUDGE = JudgeScorer(
    RUBRIC_SCORER,
    messages=lambda item, text, part: judge_messages(item, int(part), text),
    parse=parse_verdict,
    temperature=None,  # the seed's judge protocol sends none
    parts=_criteria,
)
"""The seed's judge, one call per criterion, each scored 1–10."""


def _floor(item: Any) -> ScorerValues:
    return {RUBRIC_SCORER: {"score": FLOOR_SCORE}}


RUBRIC_FLOOR = NoAnswerPolicy(
    "An item the model did not answer (its prompt does not fit its context, an empty answer) scores the "
    f"rubric's floor, {FLOOR_SCORE}, on every criterion, with no judge call.",
    judges=_floor,
)


def _prompt(item: Item) -> Prompt:
    """The model is asked the item's query as one user turn, verbatim."""
    return Prompt.user(item.query)


INDIC_WRITING_BENCH = Benchmark(
    name="indic_writing_bench",
    title="Indic WritingBench v1",
    description="",
    default_dataset=DATASET_ID,
    dataset_setting="WB_DATASET",
    split="test",
    known_configs=KNOWN_CONFIGS,
    row_fields=("index", "id", "domain", "subdomain", "language", "variant", "prompt", "query", "checklist"),
    record_to_item=record_to_item,
    item_from_meta=item_meta_from_dict,
    prompt=_prompt,
    judged_text=judged_text,
    sampling=SamplingDefaults(temperature=0.7, top_p=0.8, top_k=20, max_tokens=16000),
    rules=(),
    judges=(RUBRIC_JUDGE,),
    # The board ranks by the Indic languages' mean; English configs are shown apart.
    metrics=(Metric("indic", "Indic average", "score 1–10"), Metric("overall", "Overall (every config)", "score 1–10")),
    headline="indic",
    aggregate=partial(aggregate, INDIC_CONFIGS),
    no_answer=RUBRIC_FLOOR,
    index_from_position=False,
    item_statistics=_item_statistics,
    # Its judge reads long answers whole: the style-controlled view adjusts for length and markdown.
    board=BoardView(own_tabs=True, style_features=(LOG_LENGTH_RELATIVE, MARKDOWN_DENSITY), figures=FIGURES),
    verdict_lines=JUDGMENT_LINES,
    judged_from_folder=False,
    details_row=details_row,
    older_keys=older_keys,
)
