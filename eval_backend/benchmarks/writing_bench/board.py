"""WritingBench's board declarations: its tab's address, introduction and breakdowns (language, variant, domain,
subdomain, language x variant, as its summary writes them), its figures, drawn by the board's figure kinds, and its
style-controlled view, which adjusts for answer length and markdown (its judge reads long answers whole).

Its tabs are still its own (Leaderboard, Plots, Judgments, built in the app: `own_tabs`) until the board builds
every benchmark's tab from declarations (issue #39's board part); the declarations here are what that tab reads.
"""

from eval_backend.benchmarks.board_view import BoardView, Breakdown, FigureKind, FigureSpec, ItemField
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
    Breakdown("variant", "Prompt rendering", "variants"),
    Breakdown("domain", "Domain", "domains"),
    Breakdown("subdomain", "Subdomain", "subdomains"),
    Breakdown("config_variant", "Language x rendering", "config_variants", field="config"),
)
"""The summary's breakdowns: one score (1–10) per group; language x rendering one score per rendering of each
language. A subdomain's name is `<domain> / <subdomain>` (`scoring.SUBDOMAIN_SEPARATOR`)."""

FIGURES = (
    FigureSpec("overall", FigureKind.HEADLINE, "Indic average (95 % interval)"),
    FigureSpec("heatmap", FigureKind.HEATMAP, "Score by language", "language"),
    FigureSpec("variants", FigureKind.BARS, "Score by prompt rendering (native / code-mixed / romanized)", "variant"),
    FigureSpec("radar", FigureKind.RADAR, "Score by domain", "domain", chosen=3),
    FigureSpec("language-variants", FigureKind.HEATMAP, "Score by language and rendering", "config_variant",
               chosen=1),
    FigureSpec("subdomains", FigureKind.HEATMAP, "Score by subdomain (Indic languages)", "subdomain"),
)
"""Its plots, each of a declared breakdown: the radar compares the runs a viewer chooses (default the best three),
the language x rendering heatmap is one chosen run's (default the best)."""

WRITING_BENCH_BOARD = BoardView(
    tab="leaderboard", intro=INTRO, breakdowns=BREAKDOWNS,
    own_tabs=True, style_features=(LOG_LENGTH_RELATIVE, MARKDOWN_DENSITY), figures=FIGURES,
    # Its items (`item_board`): the five criteria read as parts, filtered by language, variant, domain, subdomain.
    group=ItemField("config", "Language"), item_fields=item_board.ITEM_FIELDS, item_groups=item_board.ITEM_GROUPS,
    item_filters=item_board.ITEM_FILTERS, item_view=item_board.item_view, former_tabs=("judgments",),
)
