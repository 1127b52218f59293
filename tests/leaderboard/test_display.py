"""The display step: labels, fixed decimals, rank ranges, ids as literal text, each score a link to its items.

WritingBench's rankings as its tab (the one tab every benchmark has) renders them: `rankings_section.rankings_view`
with the tab's score links (`benchmark_tab.ranking_links`), and `display`'s helpers, which the model page uses.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pandas as pd

from eval_backend.benchmarks.registry import BENCHMARKS
from eval_backend.run_folder import RunFolder
from leaderboard.cell_links import ROW_LINK
from leaderboard.display import format_rank_range, hub_url, is_hub_id, literal_markdown, model_cell, short_revision
from leaderboard.ranking_query import RankingQuery
from leaderboard.results import ResultsStore
from leaderboard.row_flags import OLD_DATASET
from leaderboard.score_links import items_address
from leaderboard.scored_tables import ranking_frame, ranking_labels, tab_id
from leaderboard.tabs.benchmark_tab import ranking_links
from leaderboard.tabs.rankings_section import rankings_view
from tests.support.run_folders import SCRIPT_MODEL_ID

SHA = "0123456789abcdef0123456789abcdef01234567"
WRITING_BENCH = BENCHMARKS["indic_writing_bench"]


def _shown(store: ResultsStore, ranking: pd.DataFrame, downloads: Path, *groups: str) -> tuple[Any, Any]:
    """The ranked and unranked tables WritingBench's tab shows with these column groups, as the page gets them."""
    view = rankings_view(store.snapshot(), ranking, WRITING_BENCH, RankingQuery(groups=groups), downloads,
                         "leaderboard", "wb.csv", "", ranking_links(WRITING_BENCH))
    return view.table, view.unranked


def _cells(table: Any) -> dict[str, list[str]]:
    """Each column of a shown table (by its header) as its cells read; the model as its id (it reads as a link to
    its Hub page: `_shown_models`)."""
    headers, rows = table["value"]["headers"], table["value"]["metadata"]["display_value"]
    cells = {header: [row[position] for row in rows] for position, header in enumerate(headers)}
    return {**cells, "Model": [row[headers.index("Model")] for row in table["value"]["data"]]}


def _shown_models(table: Any) -> list[str]:
    """The model column as it reads: markdown the grid renders."""
    headers = table["value"]["headers"]
    return [row[headers.index("Model")] for row in table["value"]["metadata"]["display_value"]]


def test_a_hub_link_is_built_only_for_valid_hub_ids() -> None:
    assert hub_url("acme/strong-7b") == "https://huggingface.co/acme/strong-7b"
    assert hub_url("acme/strong-7b", SHA) == f"https://huggingface.co/acme/strong-7b/tree/{SHA}"
    assert hub_url("acme/strong-7b", "refs/pr/1") == "https://huggingface.co/acme/strong-7b/tree/refs%2Fpr%2F1"
    for bad in (SCRIPT_MODEL_ID, "no-slash", "a/b/c", "org/name)[x](javascript:alert(1)", "../etc", "a/b--c"):
        assert not is_hub_id(bad) and hub_url(bad) == ""


def test_every_punctuation_character_of_an_id_is_escaped_so_it_reads_literally() -> None:
    escaped = literal_markdown(SCRIPT_MODEL_ID)
    assert re.search(r"(?<!\\)[<>\[\]()*_`]", escaped) is None
    assert re.sub(r"\\(.)", r"\1", escaped) == SCRIPT_MODEL_ID


def test_a_decimal_number_needs_no_escape_and_anything_else_numeric_keeps_it() -> None:
    assert [literal_markdown(text) for text in ("7.48", "-46.8", "50")] == ["7.48", "-46.8", "50"]
    assert [literal_markdown(text) for text in ("1.", "1,234", "-", "7.48*")] == ["1\\.", "1\\,234", "\\-", "7\\.48\\*"]


def test_commit_hashes_read_as_seven_characters_and_names_as_they_are() -> None:
    assert short_revision(SHA) == "0123456"
    assert short_revision("main") == "main" and short_revision("v2.1") == "v2.1"


def test_the_board_leads_with_rank_model_score_and_reads_scores_with_two_decimals(
    store: ResultsStore, table: pd.DataFrame, tmp_path: Path
) -> None:
    ranked, unranked = _shown(store, table, tmp_path, "language", "details")
    labels = ranking_labels(table, WRITING_BENCH)
    headers = ranked["value"]["headers"]
    assert headers[:6] == [labels[column] for column in ("rank", "model", "indic", "rank_range", "interval", "flags")]
    cells, rows = _cells(ranked), table[table["standing"] == "ranked"]
    # Every model id, the script-laden one too, is literal text (linked to its Hub page where it is a Hub id):
    # the grid shows it as it is, never as markup.
    assert cells[labels["model"]] == rows["model"].tolist()
    assert _shown_models(ranked) == [model_cell(model, revision) for model, revision in zip(rows["model"],
                                                                                          rows["revision"])]
    assert literal_markdown(SCRIPT_MODEL_ID) in _shown_models(ranked)
    assert ranked["datatype"][headers.index(labels["model"])] == "markdown"
    indic = headers.index(labels["indic"])
    assert all(re.fullmatch(r"\[\d+\.\d\d\]\(.+\)", row[indic]) for row in ranked["value"]["metadata"]["display_value"])
    assert [row[indic] for row in ranked["value"]["data"]] == rows["indic"].round(2).tolist()  # a number, sorted as one
    overall = headers.index(labels["overall"])
    assert [row[overall] for row in ranked["value"]["data"]] == rows["overall"].round(2).tolist()
    first = rows.iloc[0]
    assert cells[labels["interval"]][0] == f"{first['ci_low']:.2f} – {first['ci_high']:.2f}"
    assert cells[labels["rank_range"]] == [format_rank_range(best, worst)
                                           for best, worst in zip(rows["rank_best"], rows["rank_worst"])]
    # The partial run is apart, with its counts as plain numbers and why it is not ranked.
    apart = _cells(unranked)
    partial = apart[labels["model"]].index("bharat/partial-1b")
    assert (apart[labels["items"]][partial], apart[labels["missing_responses"]][partial]) == ("12", "3")
    assert apart[labels["standing_note"]][partial] == "partial: 2 of 4 configs" and labels["rank"] not in apart


def test_rank_ranges_read_as_one_rank_or_a_span() -> None:
    assert format_rank_range(2, 2) == "2"
    assert format_rank_range(1, 3) == "1–3"
    assert format_rank_range(pd.NA, pd.NA) == ""


def test_an_outdated_dataset_revision_is_flagged(evaluated_copy: Path, tmp_path: Path) -> None:
    older = "acme__reasoner-3b/main"
    folder = RunFolder(evaluated_copy / older)
    request = folder.read_request()
    assert request["dataset_revision"] and request["dataset_resolved_at"]
    folder.request_path.write_text(json.dumps({**request, "dataset_revision": "sha256:" + "a" * 64,
                                               "dataset_resolved_at": "2026-01-01T00:00:00Z"}))
    store = ResultsStore(evaluated_copy)
    ranking = ranking_frame(store.snapshot().runs, WRITING_BENCH)
    flagged = dict(zip(ranking["run_id"], ranking["flags"].str.contains(OLD_DATASET.code)))
    assert flagged.pop(older) and not any(flagged.values())
    cells = _cells(_shown(store, ranking, tmp_path)[0])
    shown = dict(zip(cells["Model"], cells["Flags"]))
    assert OLD_DATASET.badge in shown["acme/reasoner-3b"] and OLD_DATASET.badge not in shown["acme/strong-7b"]


def test_the_dataset_revision_reads_as_seven_characters_on_the_board(store: ResultsStore, table: pd.DataFrame,
                                                                     tmp_path: Path) -> None:
    """The CSV keeps the whole `sha256:<64 hex>`; the board shows its first 7 characters."""
    cells = _cells(_shown(store, table, tmp_path, "details")[0])
    revision = table["dataset_revision"].iloc[0]
    assert revision.startswith("sha256:") and len(revision) > 14
    assert cells["Dataset revision"][0] == short_revision(revision) == revision.removeprefix("sha256:")[:7]


def test_license_and_open_weights_read_unknown_when_not_recorded(store: ResultsStore, table: pd.DataFrame,
                                                                 tmp_path: Path) -> None:
    """What a run's request did not record reads "unknown"; what it did, in words."""
    ranked, _ = _shown(store, table, tmp_path, "metadata")
    cells = _cells(ranked)
    assert ranked["value"]["headers"][-1] == ranking_labels(table, WRITING_BENCH)["open_weights"] == "Open weights"
    read = dict(zip(cells["Model"], zip(cells["License"], cells["Open weights"])))
    assert read["acme/strong-7b"] == ("apache-2.0", "yes")
    assert read["acme/reasoner-3b"] == ("other:acme-research", "no")
    assert read[SCRIPT_MODEL_ID] == ("unknown", "unknown")


def whole_link(row: list[str], position: int) -> str:
    """The address the cell at `position` of `row` opens, a `#+<column>` link made whole as the page's script does."""
    address = row[position].rsplit("](", 1)[1][:-1]
    if not address.startswith(ROW_LINK):
        return address
    column, _, rest = address[len(ROW_LINK):].partition("&")
    return whole_link(row, int(column)) + ("&" + rest if rest else "")


def test_each_score_cell_is_a_bare_link_to_its_items_and_counts_are_plain(store: ResultsStore, table: pd.DataFrame,
                                                                          tmp_path: Path) -> None:
    # a title on every score cell of every row once made up 330 KB of a 500-model page
    ranked, _ = _shown(store, table, tmp_path, "language", "details")
    labels = ranking_labels(table, WRITING_BENCH)
    headers, texts = ranked["value"]["headers"], ranked["value"]["metadata"]["display_value"]
    indic, hindi, failed = (headers.index(labels[column]) for column in ("indic", "language.Hindi", "failed_judgments"))
    run_ids = table.loc[table["standing"] == "ranked", "run_id"]
    for row, run_id in zip(texts, run_ids):
        for position, filters in ((indic, {}), (hindi, {"config": "Hindi"})):
            assert re.fullmatch(r"\[\d+\.\d\d\]\([^ )]+\)", row[position]), row[position]
            assert whole_link(row, position) == items_address(tab_id(WRITING_BENCH), run_id, filters)
        assert "](" not in str(row[failed])
    # the run's address travels once a row: the Indic average's link in full, Hindi's against it
    assert texts[0][hindi] == f"[{texts[0][hindi][1:].split(']')[0]}](#+{indic}&config=Hindi)"
    kinds = ranked["datatype"]
    assert kinds[indic] == kinds[hindi] == "markdown" and kinds[failed] != "markdown"
