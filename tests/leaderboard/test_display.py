"""The display step: labels, rounding, merged cells, and Hub links only for valid ids."""

from __future__ import annotations

import pandas as pd

from leaderboard.display import display_table, hub_link, is_hub_id
from leaderboard.tables import leaderboard_view
from tests.support.run_folders import SCRIPT_MODEL_ID


def test_hub_links_are_built_only_from_valid_hub_ids() -> None:
    assert hub_link("acme/strong-7b") == "[Hub page](https://huggingface.co/acme/strong-7b)"
    for bad in (SCRIPT_MODEL_ID, "no-slash", "a/b/c", "org/name)[x](javascript:alert(1)", "../etc", "a/b--c"):
        assert not is_hub_id(bad) and hub_link(bad) == ""


def test_display_keeps_model_ids_as_text_and_rounds_numbers(table: pd.DataFrame) -> None:
    shown = display_table(leaderboard_view(table, ["languages", "details"]))
    frame = shown.frame
    assert list(frame["Model"]) == list(table["model"])
    assert shown.datatypes[list(frame.columns).index("Model")] == "str"
    assert [t for t in shown.datatypes if t == "markdown"] == ["markdown"]  # only our Hub column
    assert frame.loc[frame["Model"] == SCRIPT_MODEL_ID, "Hub"].item() == ""
    assert (frame["Overall"] == table["overall"].round(2)).all()
    assert frame["Coverage (judged/total)"].tolist()[2] == "9/12"  # the partial run
    first = table.iloc[0]
    assert frame["95% CI"][0] == f"{first['overall_ci_low']:.2f} – {first['overall_ci_high']:.2f}"
    assert frame["Date"][0] == first["created_at"][:10]
