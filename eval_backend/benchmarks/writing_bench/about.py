"""WritingBench's section of the board's About page: its dataset, protocol, aggregation, clusters, columns
and citation.

The board composes it under the benchmark's title, after the sections every benchmark shares (ranking,
statistics, columns, flags); its facts come from the package's own declarations (configs, rubric, sampling).
"""

from __future__ import annotations

from eval_backend.benchmarks.prompting import SamplingDefaults
from eval_backend.benchmarks.writing_bench.items import CRITERIA_PER_ITEM, INDIC_CONFIGS
from eval_backend.statistics import DEFAULT_REPLICATES


def about_section(title: str, dataset: str, sampling: SamplingDefaults) -> str:
    """WritingBench's About text (Markdown, `###` subsections) for the benchmark `title` on `dataset`, asked
    with `sampling`."""
    return f"""
### The dataset
`{dataset}` asks for realistic long-form writing grounded in real reference material, in
{len(INDIC_CONFIGS)} Indic languages ({", ".join(INDIC_CONFIGS)}) plus `english_original` and
`indian_english`. Each Indic prompt comes in three renderings: **native** script, **code_mixed** (everyday
English words mixed in, Roman script) and **romanized** (transliterated to Roman script). Every item has its own
{CRITERIA_PER_ITEM}-criterion rubric, each criterion with five score bands.

### Its protocol
- **Generation:** the model answers each item's `query` with temperature {sampling.temperature},
  top_p {sampling.top_p}, top_k {sampling.top_k}, at most {sampling.max_tokens} new tokens.
  A reasoning model's chain of thought (everything up to the first `</think>` and blank line) is
  removed before judging; the item browser shows it folded.
- **Judge:** the LLM judge is called once per criterion with the benchmark's own system and scoring prompts,
  and answers strict JSON: an integer score 1–10 and a reason.
- **Aggregation:** item score = mean of its {CRITERIA_PER_ITEM} criterion scores; language score = mean of its item
  scores; **Indic average** = mean of the {len(INDIC_CONFIGS)} Indic language scores; **Overall (every
  config)** = mean of every language score, English included. The variant, domain and subdomain columns pool
  the item scores of the Indic languages only (a subdomain is named with its domain). The 95 %
  intervals resample requests within each language (cluster bootstrap, {DEFAULT_REPLICATES:,} draws or more, as
  the draws under Ranking say: a request's three renderings are drawn together); a figure resting on one request
  has none.
- **No answer is the model's failure:** an item the model did not answer (its prompt does not fit
  its context, or its answer is empty) gets the lowest score, 1, on every criterion, marked
  `no_response`, without a judge call.
- **Ranking:** ranked by the Indic average (the mean of the {len(INDIC_CONFIGS)} Indic language scores), complete runs only,
  by the rule under Ranking: the joint bootstrap resamples requests and recomputes every run's Indic average on
  each draw.
- **Clusters:** each request is rendered three times (native, code-mixed, romanized) with one rubric, so within a
  language the items with the same rubric are one cluster.
- **Columns:** *Indic average (score 1–10)* is the mean of the Indic language scores (its ranking), with its
  95 % interval; *Overall (every config)* the mean of every language score, English included; its column groups
  show the headline per language (English configs included, outside the ranking), per prompt rendering
  (native / code mixed / romanized), with *code_mixed drop %* and *romanized drop %* (how far each rendering falls
  below the native score, in % of it), per domain or subdomain. The *No answer* column counts the items scored 1
  for no answer.
- **Figure precision:** its Indic languages are measured under the Indic average; its English configs, outside
  that average, under the overall figure.

### Citation
```
@misc{{indic_writing_bench_v1,
  title        = {{{title}}},
  author       = {{sarvam}},
  howpublished = {{Hugging Face dataset}},
  url          = {{https://huggingface.co/datasets/{dataset}}}
}}
```
The judging protocol follows *WritingBench: A Comprehensive Benchmark for Generative Writing*
(Wu et al., 2025, arXiv:2503.05244).
"""
