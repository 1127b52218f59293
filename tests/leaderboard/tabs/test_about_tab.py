"""The About page says what the code does: the judge's attempts, the ranking rule, every column."""

from __future__ import annotations

from eval_backend.benchmarks import BENCHMARKS
from eval_backend.settings import JudgeSettings
from leaderboard.display import LABELS
from leaderboard.tables import RANKING_RULE
from leaderboard.tabs.about_tab import about_text


def test_the_judge_s_attempts_are_the_configured_ones() -> None:
    default = JudgeSettings().invalid_answer_attempts
    assert f"asked up to {default} times in all" in about_text(default)
    assert "asked up to 5 times in all" in about_text(5)


def test_the_ranking_rule_is_the_board_s_sentence() -> None:
    assert RANKING_RULE in about_text(3)


def test_every_column_label_of_the_board_is_explained() -> None:
    text = about_text(3)
    unexplained = [label for key, label in LABELS.items() if key != "hub" and label not in text]
    assert unexplained == []


def test_about_states_every_benchmark_s_no_answer_policy() -> None:
    text = about_text(3)
    for benchmark in BENCHMARKS.values():
        assert f"**{benchmark.title}:** {benchmark.no_answer.statement}" in text
    assert "compliance where it should refuse" in text and "wrong by exact substring" in text
