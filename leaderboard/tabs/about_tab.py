"""About: each benchmark's own section (declared in its package), then what every benchmark shares: the protocol,
the ranking rule, the statistics, what each column means, how to reproduce a row, the flags, judge consistency,
figure precision and style control."""

from __future__ import annotations

from typing import Callable, Iterable

import gradio as gr
import pandas as pd

from eval_backend.benchmarks.plugin import Benchmark
from eval_backend.benchmarks.registry import BENCHMARKS
from eval_backend.statistics import CORRECTION, DEFAULT_REPLICATES
from eval_backend.statistics.design import Weighting
from eval_backend.statistics.sign_flip import DEFAULT_PERMUTATIONS, EXACT_CLUSTERS, SURE_MISS
from eval_backend.statistics.draws import ENDPOINT_ERROR, PERCENT_ENDPOINT_ERROR
from eval_backend.statistics.verdict import ALPHA, RULE
from leaderboard.context import AppContext
from leaderboard.display import DECIMALS
from leaderboard.model_page import DEFAULT_REVISION_RULE
from leaderboard.precision import PRECISION_COLUMNS, board_precision
from leaderboard.pairwise_matrix import MAX_MODELS
from leaderboard.row_flags import about_markdown
from leaderboard.scored_tables import labels, subset_breakdowns
from leaderboard.section_links import contents
from leaderboard.tabs import consistency_section, style_about

WEIGHTS = {Weighting.EQUAL_STRATA: "each config alike", Weighting.POOLED: "each item alike"}
"""How a benchmark's headline weighs its items, as a comparison of two runs weighs them."""


def about_text(judge_attempts: int) -> str:
    """The About page for a judge asked up to `judge_attempts` times per call (JUDGE_ATTEMPTS): each registered
    benchmark's declared section under its title, in the registry's order, then the sections they share."""
    benchmarks = list(BENCHMARKS.values())
    own = [f"## {benchmark.title}\n{benchmark.board.about.strip()}\n" for benchmark in benchmarks
           if benchmark.board.about.strip()]
    return "\n".join([*own, shared_text(judge_attempts, benchmarks),
                      about_markdown([benchmark.title for benchmark in benchmarks])])


def _each(benchmarks: Iterable[Benchmark], statement: Callable[[Benchmark], str | None]) -> str:
    """Each benchmark's `statement` as "title: statement", joined; benchmarks without one left out."""
    return "; ".join(f"{benchmark.title}: {said}" for benchmark in benchmarks if (said := statement(benchmark)))


def _either(names: list[str]) -> str:
    return " or ".join([", ".join(names[:-1]), names[-1]] if len(names) > 2 else names)


def shared_text(judge_attempts: int, benchmarks: list[Benchmark]) -> str:
    """The sections every benchmark shares, with what differs between them read from their declarations."""
    headlines = "\n".join(f"- **{benchmark.title}:** {labels(benchmark)[benchmark.headline]}"
                          for benchmark in benchmarks)
    weightings = _each(benchmarks, lambda benchmark: WEIGHTS.get(benchmark.headline_metric().weighting))
    subset_groups = _each(benchmarks, lambda benchmark: _either([breakdown.label.lower()
                                                                 for breakdown in subset_breakdowns(benchmark)]))
    no_answer = "\n".join(f"- **{benchmark.title}:** {benchmark.no_answer.statement}" for benchmark in benchmarks)
    return f"""
## How every benchmark is run
- **Judges:** a benchmark's LLM judge is the configured `JUDGE_MODEL` (GPT-5.4 by default). A judge call is
  asked up to {judge_attempts} times in all until the answer is valid; a judgment that still fails is recorded and
  counted as failed, never dropped silently, and is sent once more before a queued run is declared finished.
- **A failure of the system is not the model's:** an item the system failed on (a crash, out of memory, an
  endpoint down) is not scored: it is pending, and generated again. What an item the model did not answer
  scores is its benchmark's rule (below).
- **Pinned data:** each run records the dataset commit it was evaluated on (a local folder: the hash
  of its files); an answer or a judgment made against another revision of an item is done again.
  A row evaluated on an older dataset revision than the newest on the board is flagged.

## Ranking
Each benchmark ranks its runs by its headline:
{headlines}

Complete runs only: a run is complete when every config of the dataset in its languages is there and every item
has a score (a run limited to the first items of each config never is); runs that cover only some configs
(partial) or miss scores (incomplete) are listed apart, under the ranked table, saying why. Each ranked run has a
rank range, the middle 95 % of the ranks it holds across the bootstrap below. The runs on the board's shared
dataset revision answered the same items, so their rank range comes from one joint bootstrap: the clusters are
resampled {DEFAULT_REPLICATES:,} times or more (seeded) for all those runs at once, every run's headline is
recomputed on each draw, and the range is the 2.5th to 97.5th percentile of the ranks it holds. A run on another
revision keeps Chatbot Arena's rule: the best rank is 1 + the number of models whose interval lies wholly above,
the worst is the number of models less those whose interval lies wholly below (a shared-revision run's range
widens by such runs whose interval overlaps its own). The table still sorts by the point estimate. Every figure of
a summary resting on two clusters or more has a 95 % interval (cluster bootstrap, {DEFAULT_REPLICATES:,} draws or
more), per config too.

## Is model A better than model B? Clusters, paired comparisons and power
- **Clusters:** items that are not independent are resampled together (each benchmark's section says how its
  items cluster). Treating linked items as independent makes an interval too narrow: the **design effect**
  (clustered variance over naive variance) is about 1 + (m − 1)ρ for clusters of m items whose scores correlate
  by ρ, so for three renderings of one request (1 + 2ρ) at ρ = 0.5 a naive interval is √2 times too narrow.
- **Paired comparisons:** every run on one dataset revision answers the same items, so two models are
  compared item by item (`python -m eval_backend compare RUN_A RUN_B`): the mean difference, its
  clustered 95 % interval (the same resampled clusters for both), a p-value from a paired permutation
  test (the sign of each cluster's difference flipped at random), and the items each model won, tied
  and lost. What the two models share (a hard item) cancels, so the paired interval is several
  times narrower than the two models' own intervals suggest. Comparing many pairs at once, Holm's
  correction keeps the chance of any false "significant" at 5 %.
- **Power:** the smallest true difference a comparison detects 80 % of the time at the 5 % level is
  2.8 times the standard error of the paired difference (Miller, 2024, "Adding Error Bars to Evals");
  a difference much smaller than that is not a finding, whichever model is ahead.

## Reading the Compare tab and the Judgments comparison
- **A − B (paired difference):** model A's figure minus model B's, on the items both runs scored, weighed
  as the benchmark weighs them ({weightings}). It is given overall, per config
  (language or task), and per group of the benchmark's other breakdowns (all configs pooled). Only runs of
  one dataset revision are compared; the Compare tab says which benchmark was left out and why.
- **95 % interval:** the 2.5th to 97.5th percentile of A − B over seeded cluster bootstrap draws, the same
  draw for both models, within each config (the interval of the difference, not two intervals side by
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
  benchmark's table (its configs and the groups of its other breakdowns together). Both are required, so a
  row never says "better" where its adjusted p-value or its interval says otherwise; the verdict names the
  better model in the figure's own direction (a lower over-refusal rate is better). Each benchmark's first
  line answers for its headline figure: "A − B = −0.35 [−0.65, +0.01]: no significant difference (p = 0.09)".
- **No verdict:** a figure resting on fewer than two clusters (or on one cluster in each config, since clusters
  are drawn within their config) has no interval, no p-value and no verdict, here, in the matrix, the CLI and
  the downloads: one cluster says nothing of its own spread. The row says so.
- **Won / tied / lost:** the items where A scored higher than B, the same, or lower.
- **Items (clusters):** how many items the figure rests on, and how many independent clusters they form.
- **Forest plot:** each figure overall and per config as a point (A − B) with its 95 % interval as a bar;
  the dashed line is 0, so a bar that does not cross it is a significant difference.
- **Downloads:** each benchmark's comparison as JSON, what `python -m eval_backend compare RUN_A RUN_B --json`
  prints for the two run folders, with the rows of its other groups added under `subsets` (each what
  `--where COLUMN=VALUE` prints for all configs); or as CSV, the table's rows with the numbers unrounded.
- **Pairwise matrix:** for the top N ranked runs on the board's shared dataset revision (N chosen, at most
  {MAX_MODELS}), each cell is its row's run minus its column's. With many pairs some would look significant
  by chance, so the p-values are corrected with **{CORRECTION}** over the matrix's pairs: a cell is coloured only
  when its Holm-adjusted p-value is at most {ALPHA:g} and its 95 % interval excludes 0 (the rule above). Rows and
  columns carry short model names; hover one for the whole id, a cell for its interval, raw and adjusted p-values
  and won/tied/lost.
- The item browser, with a second model chosen, gives the same figures for the items listed there.

## What an unanswered item scores, per benchmark
A model never gains by failing to answer: an item it could not answer is scored, never left out.
{no_answer}

## Columns
| Column | Meaning |
|---|---|
| Rank, Rank range (95 %) | Position by the benchmark's headline (see Ranking) among complete runs (ties share a rank), and the middle 95 % of the ranks it holds in the joint bootstrap (a run on another dataset revision: the ranks its interval allows; see Ranking) |
| Model, Revision | The model id as submitted (shown as text; its model page links to the evaluated revision on the Hub when the id is a Hub id), and that revision |
| The headline on the chosen groups | Shown when the ranking is restricted to chosen groups (Filters: {subset_groups}): the headline on those items alone; it orders the complete runs, and its 95 % interval and rank range are the subset's, from one joint bootstrap of the runs on its items |
| The benchmark's figures, 95 % interval | Each figure the benchmark declares, with its unit (an arrow where lower is better), the headline first; every benchmark's headline has its bootstrap interval beside it, and its section above says what its own figures mean |
| Why not ranked | For a run listed apart: partial (how many configs of the dataset) or incomplete (how many items scored) |
| One column per group (column groups) | The headline in each group of a breakdown the benchmark declares (its section above names them); where a breakdown has a baseline group, each other group's drop from it in % of the baseline's score (`romanized drop %`: how far below its native-script score a run falls on romanized prompts; negative where it does better) |
| Items, No answer, Judge failures, Cut off in thinking | Items scored; items the model did not answer (scored by its benchmark's rule, above); items whose judgment failed for good; answers that ended inside an unclosed `<think>` part (the token limit reached while reasoning; many of them flag the row) |
| Answer length (median), Length unit | Each run's median answer length, in tokens where the backend reported them, else characters (the unit is named) |
| Dataset revision | The dataset commit of the run; a newer one on the board flags the row |
| Flags | Warnings on a row, each a badge explained on hover and under "Flags on rows" below; every score cell links to the items behind it: a ranking cell opens the run's items in the tab's item browser (a figure computed on one group's items: that group's items), a breakdown cell its group's items |
| License, Open weights | The "Model card" column group, from the model's Hub page when it was submitted: the license its card declares (`license:`, or the Hub's license tag; "other:<name>" for a custom one, lower case), and whether its weights are open, meaning the repository is public, not gated (no access request) and holds weight files (`.safetensors` or `pytorch_model*.bin`), so anyone can download them. "unknown" for runs judged from the command line or submitted before these were recorded; the license filter (Filters) leaves such runs out unless "unknown" is among the licenses chosen, and "Open weights only" leaves them out |
| Judge, Scored at, Parameters (B), Precision, Model type | The "Details" column group: judge model, when the run was scored, model size, dtype, and the model type its request recorded: reasoning (its `<think>` part removed before judging), chat (asked in chat turns) or base (raw prompts); blank when not recorded |
| Mode | How greedy replies were batched, as every reply records it (every benchmark): `fixed-batches` (an item always meets the same batch), `reference` (one at a time, as the seed's script), `batch-invariant` / `vllm-default` (vLLM with or without its batch-invariant kernels), `server` (an endpoint batches); "mixed: …" for a run resumed in another mode; blank for a run generated before the mode was recorded, or judged from a file |

## A model's page
A model's name on **All benchmarks** opens its page: one revision across every benchmark, with its headline,
rank and interval, breakdowns, flags, provenance and links. {DEFAULT_REVISION_RULE}

## Reproduce a row
Every row is a run folder under `DATA_DIR/runs/<benchmark>/<org>__<model>/<revision>/` (`<benchmark>`:
{", ".join(f"`{benchmark.name}`" for benchmark in benchmarks)}); the item browser downloads its per-item table. To
judge your own responses (JSONL of `config`, `index`, `response`):

```
python -m eval_backend judge --benchmark <benchmark> --responses responses.jsonl \\
    --out-dir data/runs/<benchmark>/<org>__<model>/main
python -m eval_backend score --benchmark <benchmark> --out-dir data/runs/<benchmark>/<org>__<model>/main   # recompute the summary
```
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
then config by config (language or task), each config once, under the first figure that counts it:
the headline first, then each next figure for the configs outside the ones before (each benchmark's
section says where its configs are measured).
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
    context.results_version.change(lambda: precision_table(context.stores), None, table)


def precision_table(stores: dict) -> dict:
    """The board's precision figures, rounded and labelled (text cells: names come from the benchmarks)."""
    frame = board_precision(stores)
    label = "Figure precision" if len(frame) else "No ranked run yet"
    shown = frame[list(PRECISION_COLUMNS)].round(DECIMALS)
    shown["detectable_difference"] = [
        f"{value:.{DECIMALS}f}" if reason is None else f"none: {reason}"
        for value, reason in zip(shown["detectable_difference"], frame["no_detectable_reason"])]
    return gr.update(value=shown.rename(columns=PRECISION_LABELS), label=label)
