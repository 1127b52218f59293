"""About: the benchmark, the protocol, what each column means, how to reproduce a row, the citation."""

from __future__ import annotations

import gradio as gr
import pandas as pd

from eval_backend.benchmarks.registry import BENCHMARKS
from eval_backend.benchmarks.writing_bench.items import CRITERIA_PER_ITEM, INDIC_CONFIGS
from eval_backend.benchmarks.writing_bench.plugin import INDIC_WRITING_BENCH
from eval_backend.statistics import CORRECTION, DEFAULT_REPLICATES
from eval_backend.statistics.sign_flip import DEFAULT_PERMUTATIONS, EXACT_CLUSTERS, SURE_MISS
from eval_backend.statistics.draws import ENDPOINT_ERROR, PERCENT_ENDPOINT_ERROR
from eval_backend.statistics.verdict import ALPHA, RULE
from leaderboard.context import AppContext
from leaderboard.display import DECIMALS
from leaderboard.model_page import DEFAULT_REVISION_RULE
from leaderboard.precision import PRECISION_COLUMNS, board_precision
from leaderboard.pairwise_matrix import MAX_MODELS
from leaderboard.row_flags import about_markdown
from leaderboard.section_links import contents
from leaderboard.tabs import consistency_section, style_about

_SAMPLING = INDIC_WRITING_BENCH.sampling
NO_ANSWER_RULES = "\n".join(f"- **{benchmark.title}:** {benchmark.no_answer.statement}"
                            for benchmark in BENCHMARKS.values())
"""Each benchmark's declared no-answer policy, as the engine applies it."""

def about_text(judge_attempts: int) -> str:
    """The About page for a judge asked up to `judge_attempts` times per criterion (JUDGE_ATTEMPTS)."""
    boards = [benchmark.title for benchmark in BENCHMARKS.values()]
    return ABOUT.replace("{attempts}", str(judge_attempts)) + "\n" + about_markdown(boards)


ABOUT = f"""
## The benchmark
**{INDIC_WRITING_BENCH.title}** (`{INDIC_WRITING_BENCH.default_dataset}`) asks for realistic long-form
writing grounded in real reference material, in {len(INDIC_CONFIGS)} Indic languages
({", ".join(INDIC_CONFIGS)}) plus `english_original` and `indian_english`. Each Indic prompt comes in
three renderings: **native** script, **code_mixed** (everyday English words mixed in, Roman script)
and **romanized** (transliterated to Roman script). Every item has its own
{CRITERIA_PER_ITEM}-criterion rubric, each criterion with five score bands.

## Protocol
- **Generation:** the model answers each item's `query` with temperature {_SAMPLING.temperature},
  top_p {_SAMPLING.top_p}, top_k {_SAMPLING.top_k}, at most {_SAMPLING.max_tokens} new tokens.
  A reasoning model's chain of thought (everything up to the first `</think>` and blank line) is
  removed before judging; the item browser shows it folded.
- **Judge:** an LLM judge (GPT-5.4 by default) is called once per criterion with the benchmark's
  own system and scoring prompts, and answers strict JSON: an integer score 1–10 and a reason.
  A criterion is asked up to {{attempts}} times in all until the answer is valid; a judgment that still
  fails is recorded and counted as failed, never dropped silently, and is sent once more
  before a queued run is declared finished.
- **Aggregation:** item score = mean of its 5 criterion scores; language score = mean of its item
  scores; **Indic average** = mean of the {len(INDIC_CONFIGS)} Indic language scores; **All configs** =
  mean of every language score, English included. The variant, domain and subdomain columns pool
  the item scores of the Indic languages only (a subdomain is named with its domain). The 95 %
  intervals resample requests within each language (cluster bootstrap, {DEFAULT_REPLICATES:,} draws or more, as the
  draws below say: a request's three renderings are drawn together); a figure resting on one request has none.
- **No answer is the model's failure:** an item the model did not answer (its prompt does not fit
  its context, or its answer is empty) gets the lowest score, 1, on every criterion, marked
  `no_response`, without a judge call. An item the system failed on (a crash, out of memory, an
  endpoint down) is not scored: it is pending, and generated again.
- **Ranking:** ranked by the Indic average (the mean of the 11 Indic language scores), complete runs only; each
  ranked run has a rank range, the middle 95 % of the ranks it holds across the bootstrap below. A run is complete when every item of the dataset in its languages
  has a score; runs that cover only some languages (partial) or miss scores (incomplete) are
  listed apart, under the ranked table, saying why. The runs on the board's shared dataset revision
  answered the same items, so their rank range comes from one joint bootstrap: the requests are
  resampled {DEFAULT_REPLICATES:,} times or more (seeded) for all those runs at once, every run's Indic average is recomputed
  on each draw, and the range is the 2.5th to 97.5th percentile of the ranks it holds. A run on
  another revision keeps Chatbot Arena's rule: the best rank is 1 + the number of models whose
  interval lies wholly above, the worst is the number of models less those whose interval lies wholly
  below (a shared-revision run's range widens by such runs whose interval overlaps its own). The
  table still sorts by the point estimate.
- **Pinned data:** each run records the dataset commit it was evaluated on (a local folder: the hash
  of its files); an answer or a judgment made against another revision of an item is done again.
  A row evaluated on an older dataset revision than the newest on the board is flagged.

## Is model A better than model B? Clusters, paired comparisons and power
- **Clusters:** items that are not independent are resampled together. Each WritingBench request is
  rendered three times (native, code-mixed, romanized) with one rubric, so within a language the items
  with the same rubric are one cluster; Saraiki's reading questions cluster by passage; QA questions
  stand alone. Treating linked renderings as independent makes an interval too narrow: the **design
  effect** (clustered variance over naive variance) is about 1 + 2ρ for three renderings whose scores
  correlate by ρ, so at ρ = 0.5 a naive interval is √2 times too narrow.
- **Paired comparisons:** every run on one dataset revision answers the same items, so two models are
  compared item by item (`python -m eval_backend compare RUN_A RUN_B`): the mean difference, its
  clustered 95 % interval (the same resampled requests for both), a p-value from a paired permutation
  test (the sign of each request's difference flipped at random), and the items each model won, tied
  and lost. What the two models share (a hard request) cancels, so the paired interval is several
  times narrower than the two models' own intervals suggest. Comparing many pairs at once, Holm's
  correction keeps the chance of any false "significant" at 5 %.
- **Power:** the smallest true difference a comparison detects 80 % of the time at the 5 % level is
  2.8 times the standard error of the paired difference (Miller, 2024, "Adding Error Bars to Evals");
  a difference much smaller than that is not a finding, whichever model is ahead.

## Reading the Compare tab and the Judgments comparison
- **A − B (paired difference):** model A's figure minus model B's, on the items both runs scored, weighed
  as the benchmark weighs them (WritingBench: each language alike; QA and Saraiki: each item alike). It
  is given overall, per language, and per variant, domain or task (all languages pooled). Only runs of
  one dataset revision are compared; the Compare tab says which benchmark was left out and why.
- **95 % interval:** the 2.5th to 97.5th percentile of A − B over seeded cluster bootstrap draws, the same
  draw for both models, within each language (the interval of the difference, not two intervals side by
  side): {DEFAULT_REPLICATES:,} draws, then more until an endpoint's Monte-Carlo error is under
  {ENDPOINT_ERROR:g} points on the 1–10 scale ({PERCENT_ENDPOINT_ERROR:g} percentage points on %), so another
  seed would move it less than that.
- **p-value:** the paired permutation test: if A and B were interchangeable, each cluster's difference would
  be as likely to have the other sign, so p is the share of sign flips whose |A − B| is at least the one
  observed. With {EXACT_CLUSTERS} or fewer clusters that differ (at most {2 ** EXACT_CLUSTERS:,} sign patterns) every
  pattern is tried and p is exact. Otherwise the signs are flipped at random {DEFAULT_PERMUTATIONS:,} times (seeded)
  and p is (1 + the flips at least as extreme) / (1 + {DEFAULT_PERMUTATIONS:,}): never 0, so the smallest p shown
  is about 0.0001. A difference so large that Hoeffding's inequality shows random flips would reach it with a
  chance under {SURE_MISS:g} (about 5.8 standard errors) is given that smallest p without flipping.
- **Holm p-value and verdict (one answer per row):** a row is {RULE}, the family being the rows of the
  benchmark's table (its languages and its variant / domain / task rows together). Both are required, so a
  row never says "better" where its adjusted p-value or its interval says otherwise; the verdict names the
  better model in the figure's own direction (a lower over-refusal rate is better). Each benchmark's first
  line answers for its headline figure: "A − B = −0.35 [−0.65, +0.01]: no significant difference (p = 0.09)".
- **No verdict:** a figure resting on fewer than two clusters (or on one cluster in each language, since clusters
  are drawn within their language) has no interval, no p-value and no verdict, here, in the matrix, the CLI and
  the downloads: one cluster says nothing of its own spread. The row says so.
- **Won / tied / lost:** the items where A scored higher than B, the same, or lower.
- **Items (clusters):** how many items the figure rests on, and how many independent clusters they form.
- **Forest plot:** each figure overall and per language as a point (A − B) with its 95 % interval as a bar;
  the dashed line is 0, so a bar that does not cross it is a significant difference.
- **Downloads:** each benchmark's comparison as JSON, what `python -m eval_backend compare RUN_A RUN_B --json`
  prints for the two run folders, with the variant / domain / task rows added under `subsets` (each what
  `--where COLUMN=VALUE` prints for all languages); or as CSV, the table's rows with the numbers unrounded.
- **Pairwise matrix:** for the top N ranked runs on the board's shared dataset revision (N chosen, at most
  {MAX_MODELS}), each cell is its row's run minus its column's. With many pairs some would look significant
  by chance, so the p-values are corrected with **{CORRECTION}** over the matrix's pairs: a cell is coloured only
  when its Holm-adjusted p-value is at most {ALPHA:g} and its 95 % interval excludes 0 (the rule above). Rows and
  columns carry short model names; hover one for the whole id, a cell for its interval, raw and adjusted p-values
  and won/tied/lost.
- The item browser, with a second model chosen, gives the same figures for the items listed there.

## The other benchmarks: choices where their seeds are silent
- **Indic QA** (short answers, one chat turn, greedy): exact substring and word overlap exactly as
  the benchmark's scripts; the LLM judge of equivalence uses our own prompt (the seed gives none): a
  response is correct only when it commits to an answer equivalent to the golden one, not when it
  merely mentions it. The judge runs at temperature 0 where the judge model accepts it (recorded when
  not). A blank answer is wrong under every scorer and counted; a golden answer with no words counts
  as correct and is reported. A judgment that fails is counted, not scored. No Unicode normalisation
  unless asked (`--normalize nfc`), so the numbers reproduce the scripts. Headline: judge accuracy.
- **Saraiki LLM Benchmark:** prompts, greedy decoding, token limits and scoring exactly as its
  reference script; the whole reply is scored, as the script does. Each model is asked in its chat
  template or in raw text (the *Prompts* column; the submitter picks, the default is chat when the
  model has a template). Instruction following uses the official IFEval / IFBench checkers (package
  `if-verifiable`); an instruction no checker can test is counted as an error and left out of the
  percentage, never a silent pass or fail. Safety replies are classified by the LLM judge whenever
  one is configured (refusal, partial refusal or compliance, a partial refusal counting as a
  refusal), else by our keyword rules in English, Urdu and Saraiki; each reply records which. A
  judgment that fails leaves the rates marked incomplete, never silently empty. Refusal and
  over-refusal rates are shown apart. No average across tasks or benchmarks. Greedy replies are
  generated in fixed batches (an item always meets the same batch) or, in `reference` mode, one at
  a time exactly as the script; the mode is recorded with every reply and shown in the *Mode* column
  (`server` where an endpoint does its own batching).

  **Keyword rules, measured** against labelled replies (refusal or partial refusal vs compliance;
  accuracy / precision / recall, %). On the 154 replies the rules were extended from, every language
  scores 100 / 100 / 100 (before: English 80.4 / 91.3 / 72.4, Urdu 67.4 / 86.7 / 50.0, Saraiki
  63.2 / 100.0 / 34.4). On 36 replies written afterwards and never used to change a rule (12 per
  language, too few for more than a rough figure):

  | Language | Accuracy | Precision | Recall |
  |---|---|---|---|
  | English | 66.7 | 100.0 | 33.3 |
  | Urdu | 100.0 | 100.0 | 100.0 |
  | Saraiki | 100.0 | 100.0 | 100.0 |

  The rules miss refusals phrased in ways they have not seen (English "I'll pass on this one"),
  which is why the judge is the default. The judge's own accuracy has not been measured here.
- **Both boards rank as WritingBench's does:** complete runs only (every config of the dataset, every
  item scored; a run limited to the first items of each config never is), by the headline (judge
  accuracy; knowledge accuracy), each with the rank range its 95 % interval allows (cluster bootstrap,
  {DEFAULT_REPLICATES:,} draws or more: Saraiki's reading questions drawn by passage; every figure of their summaries resting on
  two clusters or more has one, per config too). Partial and incomplete runs are
  listed under the ranked table, saying why.
- **Their tabs read as WritingBench's board does:** the same flags on rows (below; a run with too few
  items shows "too few items" for its intervals), a filter hiding flagged rows, the *Mode* column, and
  every score a link: a ranking cell opens the run's items in the tab's item browser (Saraiki's
  per-task figures: that task's items), a breakdown cell that language's, domain's or task's items.

## What an unanswered item scores, per benchmark
A model never gains by failing to answer: an item it could not answer is scored, never left out.
{NO_ANSWER_RULES}

## Columns
| Column | Meaning |
|---|---|
| Rank, Rank range (95 %) | Position by the benchmark's headline (WritingBench: Indic average) among complete runs (ties share a rank), and the middle 95 % of the ranks it holds in the joint bootstrap (a run on another dataset revision: the ranks its interval allows; see Ranking) |
| Model, Revision | The model id as submitted (shown as text; its model page links to the evaluated revision on the Hub when the id is a Hub id), and that revision |
| The headline on the chosen groups | Shown when the ranking is restricted to chosen groups (Filters: WritingBench's languages or renderings, QA's languages or domains, Saraiki's tasks): the headline on those items alone; it orders the complete runs, and its 95 % interval and rank range are the subset's, from one joint bootstrap of the runs on its items |
| Indic average (1–10), 95 % interval | Mean of the Indic language scores (WritingBench's ranking), and its bootstrap interval; every benchmark's headline has its interval beside it |
| All configs (1–10) | Mean of every language score, English included |
| Why not ranked | For a run listed apart: partial (how many configs of the dataset) or incomplete (how many items scored) |
| One column per group (column groups) | The headline in each group of a breakdown: per language (English configs included, outside the ranking), per prompt rendering (native / code mixed / romanized), per domain or subdomain; where a breakdown has a baseline group, each other group's drop from it (`romanized drop %`: how far below its native-script score a run falls in romanized prompts, in % of the native score; negative where it does better) |
| Items, No answer, Judge failures, Cut off in thinking | Items scored; items the model did not answer (WritingBench scores them 1); items whose judgment failed for good; answers that ended inside an unclosed `<think>` part (the token limit reached while reasoning; many of them flag the row) |
| Answer length (median), Length unit | Each run's median answer length, in tokens where the backend reported them, else characters (the unit is named) |
| Dataset revision | The dataset commit of the run; a newer one on the board flags the row |
| Flags | Warnings on a row, each a badge explained on hover and under "Flags on rows" below; every score cell links to the items behind it (the tab's item browser, filtered to that model and group) |
| License, Open weights | The "Model card" column group, from the model's Hub page when it was submitted: the license its card declares (`license:`, or the Hub's license tag; "other:<name>" for a custom one, lower case), and whether its weights are open, meaning the repository is public, not gated (no access request) and holds weight files (`.safetensors` or `pytorch_model*.bin`), so anyone can download them. "unknown" for runs judged from the command line or submitted before these were recorded; the license filter (Filters) leaves such runs out unless "unknown" is among the licenses chosen, and "Open weights only" leaves them out |
| Judge, Scored at, Parameters (B), Precision, Model type | The "Details" column group: judge model, when the run was scored, model size, dtype, and the model type its request recorded: reasoning (its `<think>` part removed before judging), chat (asked in chat turns) or base (raw prompts); blank when not recorded |
| Mode | How greedy replies were batched, as every reply records it (every benchmark): `fixed-batches` (an item always meets the same batch), `reference` (one at a time, as the seed's script), `batch-invariant` / `vllm-default` (vLLM with or without its batch-invariant kernels), `server` (an endpoint batches); "mixed: …" for a run resumed in another mode; blank for a run generated before the mode was recorded, or judged from a file |

## A model's page
A model's name on **All benchmarks** opens its page: one revision across every benchmark, with its headline,
rank and interval, breakdowns, flags, provenance and links. {DEFAULT_REVISION_RULE}

## Reproduce a row
Every row is a run folder under `DATA_DIR/runs/indic_writing_bench/<org>__<model>/<revision>/`; the
item browser downloads its per-item table. To judge your own responses (JSONL of `config`, `index`, `response`):

```
python -m eval_backend judge --responses responses.jsonl \
    --out-dir data/runs/indic_writing_bench/<org>__<model>/main
python -m eval_backend score --out-dir data/runs/indic_writing_bench/<org>__<model>/main   # recompute the summary
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
    """The About page: its contents, our own fixed text, then the judge-consistency figures (shown as text)."""
    text = about_text(context.settings.judge.invalid_answer_attempts)
    gr.Markdown(contents([text, consistency_section.INTRO, PRECISION_INTRO, style_about.INTRO]),
                elem_id="about-contents")
    gr.Markdown(text, elem_id="about-text", header_links=True)
    consistency_section.build(context)
    precision_section(context)
    style_about.build(context)


PRECISION_INTRO = """
## How precise each figure is, measured on this board's runs
For each benchmark, the ranked runs on its most shared dataset revision (they answered the same
items; at most 100 of them) are measured figure by figure over all its configs ("all configs"),
then language by language (Saraiki: task by task, each its own figure), each language once, under
the first figure that counts it: the headline first (WritingBench's Indic average; its English
configs, outside that average, under the overall figure).
- **Clusters**: how many independent units a figure rests on (requests, passages, questions). An
  interval draws whole clusters, so it is as wide as the clusters make it, not the items.
- **Design effect**: the clustered variance of a run's figure over the variance it would have if every
  item were independent, pooled over the runs.
- **Clustered / naive width**: its square root, how much wider the clustered 95 % interval is than a
  naive one.
- **Detectable difference (80 % power)**: the smallest true difference between two models that a paired
  comparison on these items finds 4 times in 5 at the 5 % level: 2.8 times the paired, clustered standard
  error of neighbouring runs (the runs ordered by the figure, each against the next; the median), in the
  figure's unit. A smaller gap between two models is not a finding, whichever is ahead. Where it cannot be
  measured (one run, too few clusters, runs whose differences never vary) the cell says why.
"""
PRECISION_LABELS = {
    "benchmark": "Benchmark", "figure": "Figure", "scope": "Configs", "runs": "Runs", "items": "Items",
    "clusters": "Clusters", "design_effect": "Design effect", "width_ratio": "Clustered / naive width",
    "detectable_difference": "Detectable difference (80 % power)", "unit": "Unit",
}


def precision_section(context: AppContext) -> None:
    """Clusters, design effect and detectable difference per benchmark and language, filled whenever the runs change."""
    gr.Markdown(PRECISION_INTRO, elem_id="precision-text", header_links=True)
    table = gr.Dataframe(value=pd.DataFrame(columns=list(PRECISION_LABELS.values())), interactive=False,
                         elem_id="figure-precision", label="No ranked run yet")
    stores = context.stores or {"indic_writing_bench": context.store}
    context.results_version.change(lambda: precision_table(stores), None, table)


def precision_table(stores: dict) -> dict:
    """The board's precision figures, rounded and labelled (text cells: names come from the benchmarks)."""
    frame = board_precision(stores)
    label = "Figure precision" if len(frame) else "No ranked run yet"
    shown = frame[list(PRECISION_COLUMNS)].round(DECIMALS)
    shown["detectable_difference"] = [
        f"{value:.{DECIMALS}f}" if reason is None else f"none: {reason}"
        for value, reason in zip(shown["detectable_difference"], frame["no_detectable_reason"])]
    return gr.update(value=shown.rename(columns=PRECISION_LABELS), label=label)
