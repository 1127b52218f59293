"""WritingBench's board declarations: its tabs are its own (Leaderboard, Plots, Judgments), built in the app,
and its style-controlled view adjusts for answer length and markdown (its judge reads long answers whole).

Until the board builds every benchmark's tab from declarations (issue #39's board part), the other
fields keep `BoardView`'s defaults.
"""

from eval_backend.benchmarks.board_view import BoardView
from eval_backend.benchmarks.style_features import LOG_LENGTH_RELATIVE, MARKDOWN_DENSITY

WRITING_BENCH_BOARD = BoardView(own_tabs=True, style_features=(LOG_LENGTH_RELATIVE, MARKDOWN_DENSITY))
