"""WritingBench's board declarations: its tab's address, introduction and breakdowns (language, variant, domain,
subdomain, language x variant, as its summary writes them), its figures, drawn by the board's figure kinds, and its
style-controlled view, which adjusts for answer length and markdown (its judge reads long answers whole).

The board builds its tab from these, as every benchmark's; its addresses from before (`?tab=judgments`,
`?tab=plots`, `q=`, `langs=`, `variants=`, `sort=`, …) still open the same views (`former_tabs`, `former_params`).
"""

from eval_backend.benchmarks.board_view import LENGTH_FIGURE, BoardView, Breakdown, FigureKind, FigureSpec, ItemField
from eval_backend.benchmarks.writing_bench import item_board
from eval_backend.benchmarks.style_features import LOG_LENGTH_RELATIVE, MARKDOWN_DENSITY

INTRO = (
    "Long-form writing in 11 Indic languages and English, each request rendered three ways (native script, "
    "code-mixed, romanized), judged against its own five-criterion rubric on a 1–10 scale. Ranked by the **Indic "
    "average**: the mean of the 11 Indic languages' scores (English is shown apart)."
)
BY_LANGUAGE = Breakdown("language", "Language", "configs", field="config")
BREAKDOWNS = (
    BY_LANGUAGE,
    Breakdown("variant", "Prompt rendering", "variants", baseline="native"),
    Breakdown("domain", "Domain", "domains"),
    Breakdown("subdomain", "Subdomain", "subdomains"),
    Breakdown("config_variant", "Language x rendering", "config_variants", field="config"),
)
"""The summary's breakdowns: one score (1–10) per group, with each rendering's drop from native script in %;
language x rendering one score per rendering of each language. A subdomain's name is `<domain> / <subdomain>` (`scoring.SUBDOMAIN_SEPARATOR`)."""

FIGURES = (
    FigureSpec("overall", FigureKind.HEADLINE, "Indic average (95 % interval)"),
    FigureSpec("heatmap", FigureKind.HEATMAP, "Score by language", "language"),
    FigureSpec("variants", FigureKind.BARS, "Score by prompt rendering (native / code-mixed / romanized)", "variant"),
    FigureSpec("radar", FigureKind.RADAR, "Score by domain", "domain", chosen=3),
    FigureSpec("language-variants", FigureKind.HEATMAP, "Score by language and rendering", "config_variant",
               chosen=1),
    FigureSpec("subdomains", FigureKind.HEATMAP, "Score by subdomain (Indic languages)", "subdomain"),
    LENGTH_FIGURE,
)
"""Its plots, each of a declared breakdown: the radar compares the runs a viewer chooses (default the best three),
the language x rendering heatmap is one chosen run's (default the best)."""

EMPTY_STATE = """### No results yet
Nothing has been evaluated in this data folder. Submit a model in the **Submit** tab, or judge a file of a
model's answers from the command line; the row appears here without a restart. Offline it needs two things on
this machine, and nothing then reaches the Hub or a hosted judge: the dataset as a folder in the Hub layout
(`--dataset`: a README.md with `configs:` and a parquet file per config), and a judge model served at a local
OpenAI-compatible address (`OPENAI_BASE_URL`: vLLM, llama.cpp or Ollama, for example). Each line of the answers
file is `{"config": "Hindi", "index": 0, "response": "…"}`.

```
OPENAI_BASE_URL=http://127.0.0.1:<port>/v1 OPENAI_API_KEY=local JUDGE_MODEL=<judge-model> \\
  python -m eval_backend judge --dataset <dataset-folder> --responses <responses.jsonl> \\
  --model <org>/<model> --out-dir data/runs/indic_writing_bench/<org>__<model>/main
```
"""
"""What the tab says with no run: how to put the first row on it, from this machine alone (the command is run
as written by `tests/leaderboard/test_empty_state_command.py`)."""
FORMER_PARAMS = {"q": "q", "langs": "on_config", "variants": "on_variant", "sort": "sort", "min_b": "min_b",
                 "max_b": "max_b", "type": "type", "ranked_only": "ranked_only", "license": "license", "open": "open",
                 "hide_flags": "hide_flags", "groups": "groups"}
"""The parameters of its former Leaderboard tab's links, which set the same controls of this tab."""

JUDGMENT_COLUMNS = ("config", "index", "status", "item_score", "language", "variant", "domain", "subdomain", "prompt")
"""What the `/judgments` endpoint answers of each item (details.parquet's columns): its key, status, score and
groups, never the answer or the judge's reasons (they are in the item browser's downloads)."""
IN_BRIEF = ("long-form writing in 11 Indic languages and English (native, code-mixed, romanized), judged against a "
            "per-item rubric")

WRITING_BENCH_BOARD = BoardView(
    tab="leaderboard", intro=INTRO, in_brief=IN_BRIEF, judgment_columns=JUDGMENT_COLUMNS, breakdowns=BREAKDOWNS, column_groups=("language", "variant", "details"),
    former_params=FORMER_PARAMS, empty_state=EMPTY_STATE, style_features=(LOG_LENGTH_RELATIVE, MARKDOWN_DENSITY), figures=FIGURES,
    # Its items (`item_board`): the five criteria read as parts, filtered by language, variant, domain, subdomain.
    group=ItemField("config", "Language"), item_fields=item_board.ITEM_FIELDS, item_groups=item_board.ITEM_GROUPS,
    item_filters=item_board.ITEM_FILTERS, item_view=item_board.item_view, former_tabs=("judgments", "plots"),
)
