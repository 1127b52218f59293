"""WritingBench's board declarations: its tabs are its own (Leaderboard, Plots, Judgments), built in the app;
its figures, drawn by the board's figure kinds; and its style-controlled view, which adjusts for answer
length and markdown (its judge reads long answers whole).

Until the board builds every benchmark's tab from declarations (issue #39's board part), the other
fields keep `BoardView`'s defaults.
"""

from eval_backend.benchmarks.board_view import BoardView, FigureKind, FigureSpec, ItemField
from eval_backend.benchmarks.writing_bench import item_board
from eval_backend.benchmarks.style_features import LOG_LENGTH_RELATIVE, MARKDOWN_DENSITY

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

WRITING_BENCH_BOARD = BoardView(
    own_tabs=True, style_features=(LOG_LENGTH_RELATIVE, MARKDOWN_DENSITY), figures=FIGURES,
    # Its items (`item_board`): the five criteria read as parts, filtered by language, variant, domain, subdomain.
    group=ItemField("config", "Language"), item_fields=item_board.ITEM_FIELDS, item_groups=item_board.ITEM_GROUPS,
    item_filters=item_board.ITEM_FILTERS, item_view=item_board.item_view, former_tabs=("judgments",),
)
