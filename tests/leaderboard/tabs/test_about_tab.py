"""The About page says what the code does: the judge's attempts, the ranking rule, every column; each benchmark's
own section is the one its package declares, composed in the registry's order."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from eval_backend.benchmarks.qa.plugin import INDIC_QA
from eval_backend.benchmarks.registry import BENCHMARKS
from eval_backend.benchmarks.saraiki.refusal import classify
from eval_backend.benchmarks.saraiki.refusal_accuracy import classifier_figures
from eval_backend.settings import JudgeSettings
from leaderboard.scored_tables import LABELS, labels
from leaderboard.section_links import contents, heading_id
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


def test_each_benchmark_s_declared_section_stands_under_its_title_in_the_registry_s_order() -> None:
    text = about_text(3)
    places = [text.index(f"## {benchmark.title}\n{benchmark.board.about.strip()}\n") for benchmark in BENCHMARKS.values()]
    assert places == sorted(places) and places[0] == 0  # each package's own text, whole, the first one first
    assert "Saraiki" not in BENCHMARKS["indic_writing_bench"].board.about  # each says only its own
    assert "WritingBench" not in BENCHMARKS["saraiki"].board.about + BENCHMARKS["indic_qa"].board.about


def test_what_differs_between_benchmarks_comes_from_their_declarations() -> None:
    text = about_text(3)
    for benchmark in BENCHMARKS.values():
        assert f"- **{benchmark.title}:** {labels(benchmark)[benchmark.headline]}" in text  # what it ranks by
    assert "(Indic WritingBench v1: each config alike; Indic QA: each item alike; Saraiki: each item alike)" in text
    assert "Filters: Indic WritingBench v1: language, prompt rendering or domain; Indic QA: language or domain; " \
           "Saraiki: task)" in text
    assert "(`<benchmark>`:\n`indic_writing_bench`, `indic_qa`, `saraiki`)" in text


def test_a_new_benchmark_s_section_joins_the_page_with_no_change_to_the_board(monkeypatch: pytest.MonkeyPatch) -> None:
    toy = replace(INDIC_QA, name="toy_translation", title="Toy translation",
                  board=replace(INDIC_QA.board, about="Translations, scored by **chrF**.\n### Toy's corpus\nTen lines."))
    monkeypatch.setitem(BENCHMARKS, toy.name, toy)
    text = about_text(3)
    assert text.index("## Saraiki\n") < text.index("## Toy translation\nTranslations, scored by **chrF**.")
    assert "- **Toy translation:** Judge accuracy %" in text and "`toy_translation`" in text
    assert "[Toy translation](#h-toy-translation)" in contents([text])


def test_every_heading_is_unique_and_every_section_is_in_the_contents() -> None:
    text = about_text(3)
    headings = re.findall(r"^#{2,3} (.+?)$", text, re.MULTILINE)
    ids = [heading_id(heading) for heading in headings]
    assert len(ids) == len(set(ids)), sorted(ids)  # Gradio gives each its id: a repeat would link the first
    listed = contents([text])
    for heading in re.findall(r"^## (.+?)$", text, re.MULTILINE):
        assert f"](#{heading_id(heading)})" in listed, heading
