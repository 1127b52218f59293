"""About: the benchmark, the protocol, what each column means, how to reproduce a row, the citation."""

from __future__ import annotations

import gradio as gr

from eval_backend.benchmarks.indic_writing_bench import INDIC_CONFIGS, INDIC_WRITING_BENCH
from leaderboard.context import AppContext

_SAMPLING = INDIC_WRITING_BENCH.sampling

ABOUT = f"""
## The benchmark
**{INDIC_WRITING_BENCH.title}** (`{INDIC_WRITING_BENCH.default_dataset}`) asks for realistic long-form
writing grounded in real reference material, in {len(INDIC_CONFIGS)} Indic languages
({", ".join(INDIC_CONFIGS)}) plus `english_original` and `indian_english`. Each Indic prompt comes in
three renderings: **native** script, **code_mixed** (everyday English words mixed in, Roman script)
and **romanized** (transliterated to Roman script). Every item has its own
{INDIC_WRITING_BENCH.criteria_per_item}-criterion rubric, each criterion with five score bands.

## Protocol
- **Generation:** the model answers each item's `query` with temperature {_SAMPLING.temperature},
  top_p {_SAMPLING.top_p}, top_k {_SAMPLING.top_k}, at most {_SAMPLING.max_tokens} new tokens.
  A reasoning model's chain of thought (everything up to the first `</think>` and blank line) is
  removed before judging; the Judgments tab shows it folded.
- **Judge:** an LLM judge (GPT-5.4 by default) is called once per criterion with the benchmark's
  own system and scoring prompts, and answers strict JSON: an integer score 1–10 and a reason.
  An invalid answer is asked again up to 3 times; a judgment that still fails is recorded and
  counted as failed, never dropped silently.
- **Aggregation:** item score = mean of its 5 criterion scores; language score = mean of its item
  scores; **Overall** = mean of the language scores; variant and domain columns = mean of the item
  scores in that group across all languages evaluated. An item with a failed judgment or no
  response is left out of every mean and counted in the coverage column. The 95 % interval
  resamples items within each language (bootstrap, 1000 draws).

## Columns
| Column | Meaning |
|---|---|
| Rank | Position by Overall (ties share a rank) |
| Model / Hub | The model id as submitted (text), and a link to its Hub page when the id is a Hub id |
| Overall, 95% CI | Mean of the language scores, and its bootstrap interval |
| Indic avg | Mean of the scores of the Indic languages the run covers |
| One column per language | Mean item score in that language config |
| native / code mixed / romanized | Mean item score per prompt rendering |
| Code-mixed drop %, Romanized drop % | How far that rendering falls below native, in percent of native |
| Domain columns | Mean item score per writing domain (the "domains" column group) |
| Coverage (judged/total) | Items with all five criteria scored, out of the items of the run |
| Failed items, No response | Items whose judgment failed for good; items the model did not answer |
| Judge, Date, Params (B), Precision | Judge model, when the run was scored, model size and dtype |

## Reproduce a row
Every row is a run folder under `DATA_DIR/runs/<org>__<model>/<revision>/`; the Judgments tab
downloads its per-item table. To judge your own responses (JSONL of `config`, `index`, `response`):

```
python -m eval_backend judge --responses responses.jsonl --out-dir data/runs/<org>__<model>/main
python -m eval_backend score --out-dir data/runs/<org>__<model>/main   # recompute the summary
```

## Citation
```
@misc{{indic_writing_bench_v1,
  title        = {{{INDIC_WRITING_BENCH.title}}},
  author       = {{sarvam}},
  howpublished = {{Hugging Face dataset}},
  url          = {{https://huggingface.co/datasets/{INDIC_WRITING_BENCH.default_dataset}}}
}}
```
The judging protocol follows *WritingBench: A Comprehensive Benchmark for Generative Writing*
(Wu et al., 2025, arXiv:2503.05244).
"""


def build(context: AppContext) -> None:
    """The About page: our own fixed text, no untrusted content."""
    gr.Markdown(ABOUT, elem_id="about-text")
