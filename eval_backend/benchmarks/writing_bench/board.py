"""WritingBench's board declarations: its tabs are its own (Leaderboard, Plots, Judgments), built in the app;
its figures, drawn by the board's figure kinds; and its style-controlled view, which adjusts for answer
length and markdown (its judge reads long answers whole).

Until the board builds every benchmark's tab from declarations (issue #39's board part), the other
fields keep `BoardView`'s defaults.
"""

from eval_backend.benchmarks.board_view import BoardView, FigureKind, FigureSpec
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
)
