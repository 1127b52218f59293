"""The display step: labels, fixed decimals, merged cells, the model linked to its revision, ids as literal text."""

from __future__ import annotations

import pandas as pd

import re

from leaderboard.cell_links import ROW_LINK
from leaderboard.display import (
    LEAD_COLUMNS,
    OUTDATED_FLAG,
    column_label,
    display_table,
    format_rank_range,
    format_revision,
    hub_url,
    is_hub_id,
    literal_markdown,
    model_cell,
    short_revision,
)
from leaderboard.score_links import score_link
from leaderboard.writing_bench_tables import leaderboard_view
from tests.support.run_folders import SCRIPT_MODEL_ID

SHA = "0123456789abcdef0123456789abcdef01234567"


def test_the_model_links_to_its_revision_only_for_valid_hub_ids() -> None:
    assert model_cell("acme/strong-7b") == r'[acme\/strong\-7b](https://huggingface.co/acme/strong-7b "acme/strong-7b")'
    assert hub_url("acme/strong-7b", SHA) == f"https://huggingface.co/acme/strong-7b/tree/{SHA}"
    assert hub_url("acme/strong-7b", "refs/pr/1") == "https://huggingface.co/acme/strong-7b/tree/refs%2Fpr%2F1"
    for bad in (SCRIPT_MODEL_ID, "no-slash", "a/b/c", "org/name)[x](javascript:alert(1)", "../etc", "a/b--c"):
        assert not is_hub_id(bad) and hub_url(bad) == "" and "](" not in model_cell(bad)


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


def test_display_links_the_model_rounds_numbers_and_leads_with_rank_model_score(table: pd.DataFrame) -> None:
    shown = display_table(leaderboard_view(table, ["languages", "details"]))
    frame = shown.frame
    assert list(frame["Model"]) == [model_cell(m, r) for m, r in zip(table["model"], table["revision"])]
    # only the cells we build: the model and the flags' badges (no score links without a `run_id` column)
    assert [c for c, t in zip(frame.columns, shown.datatypes) if t == "markdown"] == ["Model", "Flags"]
    assert list(frame.columns[:5]) == [column_label(c) for c in LEAD_COLUMNS if c not in ("subset_average",)][:5]
    indic = list(frame.columns).index("Indic average (1–10)")
    assert all(re.fullmatch(r"\d+\.\d\d", row[indic]) for row in shown.texts)  # "7.20", never "7.2"
    assert shown.value == {"headers": list(frame.columns), "data": shown.texts}
    assert float(shown.texts[0][indic]) == frame["Indic average (1–10)"][0]
    assert (frame["Indic average (1–10)"] == table["indic_average"].round(2)).all()
    assert (frame["All configs (1–10)"] == table["overall"].round(2)).all()
    partial = list(table["model"]).index("bharat/partial-1b")
    assert frame["Coverage (scored/expected)"].tolist()[partial] == "12/12"
    assert frame["No answer (floor)"].tolist()[partial] == 3
    first = table.iloc[0]
    assert frame["95% CI"][0] == f"{first['indic_ci_low']:.2f} – {first['indic_ci_high']:.2f}"
    assert frame["All configs 95% CI"][0] == f"{first['overall_ci_low']:.2f} – {first['overall_ci_high']:.2f}"
    assert frame["Date"][0] == first["created_at"][:10]
    assert frame["Dataset revision"][0] == first["dataset_revision"].removeprefix("sha256:")[:7]


def test_rank_ranges_read_as_one_rank_or_a_span() -> None:
    assert format_rank_range(2, 2) == "2"
    assert format_rank_range(1, 3) == "1–3"
    assert format_rank_range(pd.NA, pd.NA) == ""


def test_an_outdated_dataset_revision_is_flagged() -> None:
    assert format_revision("sha256:" + "a" * 64, True) == "a" * 7 + OUTDATED_FLAG
    assert format_revision("0123456789abcdef", False) == "0123456"
    assert format_revision(None, float("nan")) == ""


def test_license_and_open_weights_read_unknown_when_not_recorded(table: pd.DataFrame) -> None:
    shown = display_table(leaderboard_view(table, ["metadata"]))
    cells = dict(zip(shown.frame["Model"], zip(shown.frame["License"], (row[-1] for row in shown.texts))))
    assert cells[model_cell("acme/strong-7b")] == ("apache-2.0", "yes")
    assert cells[model_cell("acme/reasoner-3b")] == ("other:acme-research", "no")
    assert cells[model_cell(SCRIPT_MODEL_ID)] == ("unknown", "unknown")
    assert shown.frame.columns[-1] == column_label("open_weights") == "Open weights"


def whole_link(row: list[str], position: int) -> str:
    """The address the cell at `position` of `row` opens, a `#+<column>` link made whole as the page's script does."""
    address = row[position].rsplit("](", 1)[1][:-1]
    if not address.startswith(ROW_LINK):
        return address
    column, _, rest = address[len(ROW_LINK):].partition("&")
    return whole_link(row, int(column)) + ("&" + rest if rest else "")


def test_each_score_cell_is_a_bare_link_to_its_items_and_counts_are_plain(table: pd.DataFrame) -> None:
    # a title on every score cell of every row once made up 330 KB of a 500-model page
    view = leaderboard_view(table, ["languages", "details"]).assign(run_id=table["run_id"])
    shown = display_table(view, score_link("judgments", {"config": "language"}, ("indic_average",)))
    columns = list(shown.frame.columns)
    indic, hindi, failed = (columns.index(label) for label in ("Indic average (1–10)", "Hindi", "Failed items"))
    for row, run_id in zip(shown.texts, table["run_id"]):
        for position, column in ((indic, "indic_average"), (hindi, "config.Hindi")):
            if row[position]:
                address = score_link("judgments", {"config": "language"}, ("indic_average",))(run_id, column)
                assert re.fullmatch(r"\[\d+\.\d\d\]\([^ )]+\)", row[position]), row[position]
                assert whole_link(row, position) == address
        assert "](" not in str(row[failed])
    # the run's address travels once a row: the Indic average's link in full, Hindi's against it
    assert shown.texts[0][hindi] == f"[{shown.texts[0][hindi][1:].split(']')[0]}](#+{indic}&language=Hindi)"
    assert shown.datatypes[indic] == shown.datatypes[hindi] == "markdown" and shown.datatypes[failed] != "markdown"
