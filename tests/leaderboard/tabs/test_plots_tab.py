"""The plots tab's failsafe: a failing figure becomes a message, never a broken callback."""

from __future__ import annotations

import pandas as pd

from leaderboard.tabs.plots_tab import failsafe


def test_failsafe_turns_an_exception_into_a_message_figure() -> None:
    def broken(table: pd.DataFrame):
        raise KeyError("overall")

    figure = failsafe(broken)(pd.DataFrame())
    assert len(figure.data) == 0
    assert "could not be drawn" in figure.layout.annotations[0].text and "overall" in figure.layout.annotations[0].text
