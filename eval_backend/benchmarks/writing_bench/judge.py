"""WritingBench's rubric judge: the seed's system and scoring prompts, verbatim, one call per criterion.

The authority is the benchmark card (shared/seeds/000_…): system prompt, scoring prompt, one
judge call per checklist criterion, and the `</think>\\n\\n` rule for what the judge reads.
"""

from __future__ import annotations

import json
import re
from typing import Any, Mapping

from eval_backend.benchmarks.plugin import JudgeScorer
from eval_backend.benchmarks.prompting import after_thinking
from eval_backend.benchmarks.writing_bench.items import CRITERIA_PER_ITEM
from eval_backend.benchmarks.writing_bench.records import Item
from eval_backend.benchmarks.writing_bench.verdict import parse_verdict

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
