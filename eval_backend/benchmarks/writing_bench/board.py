"""WritingBench's board declarations: its tabs are its own (Leaderboard, Plots, Judgments), built in the app.

Until the board builds every benchmark's tab from declarations (issue #39's board part), this
record says only that; the other fields keep `BoardView`'s defaults.
"""

from eval_backend.benchmarks.board_view import BoardView

WRITING_BENCH_BOARD = BoardView(own_tabs=True)
