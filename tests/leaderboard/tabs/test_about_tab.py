"""The About page says what the code does: the judge's attempts, the ranking rule, every column."""

from __future__ import annotations

from eval_backend.benchmarks.registry import BENCHMARKS
from eval_backend.benchmarks.saraiki.refusal import classify
from eval_backend.benchmarks.saraiki.refusal_accuracy import classifier_figures
from eval_backend.settings import JudgeSettings
from leaderboard.scored_tables import LABELS
from leaderboard.tabs.about_tab import about_text
from tests.eval_backend.benchmarks.saraiki.refusal_set import labelled_replies


def test_the_judge_s_attempts_are_the_configured_ones() -> None:
    default = JudgeSettings().invalid_answer_attempts
    assert f"asked up to {default} times in all" in about_text(default)
    assert "asked up to 5 times in all" in about_text(5)


def test_the_ranking_rule_says_what_is_ranked_by_what() -> None:
    assert "ranked by the Indic average (the mean of the 11 Indic language scores), complete runs only" in about_text(3)


def test_every_column_label_of_the_board_is_explained() -> None:
    text = about_text(3)
    unexplained = [label for label in LABELS.values() if label not in text]
    assert unexplained == []


def test_about_states_every_benchmark_s_no_answer_policy() -> None:
    text = about_text(3)
    for benchmark in BENCHMARKS.values():
        assert f"**{benchmark.title}:** {benchmark.no_answer.statement}" in text
    assert "compliance where it should refuse" in text and "wrong by exact substring" in text


def test_the_refusal_rules_figures_are_the_measured_ones() -> None:
    text = about_text(3)
    names = {"en": "English", "ur": "Urdu", "skr": "Saraiki"}
    for language, name in names.items():
        replies = [reply for reply in labelled_replies("held_out") if reply.language == language]
        figures = classifier_figures((reply.refused, bool(classify(reply.reply).refused)) for reply in replies)
        row = f"| {name} | {figures.accuracy:.1f} | {figures.precision:.1f} | {figures.recall:.1f} |"
        assert row in text, row
    assert f"On the {len(labelled_replies('rules'))} replies the rules were extended from" in text
    assert f"On {len(labelled_replies('held_out'))} replies written afterwards" in text


def test_the_precision_table_shows_each_measured_figure_labelled(evaluated) -> None:
    from leaderboard.precision import ALL_CONFIGS
    from leaderboard.results import ResultsStore
    from leaderboard.tabs.about_tab import PRECISION_INTRO, PRECISION_LABELS, precision_table

    shown = precision_table({"indic_writing_bench": ResultsStore(evaluated.runs_dir)})["value"]
    assert list(shown.columns) == list(PRECISION_LABELS.values())
    indic = shown[(shown["Figure"] == "Indic average") & (shown["Configs"] == ALL_CONFIGS)].iloc[0]
    assert indic["Clusters"] == 18 and float(indic["Detectable difference (80 % power)"]) > 0  # text: or why none
    for label in ("Clusters", "Design effect", "Clustered / naive width", "Detectable difference (80 % power)"):
        assert f"**{label}**" in PRECISION_INTRO
