"""Answer lengths and the style-controlled ranking over run folders scored by the real engine, and the `style` CLI.

The stand-in judge scores each answer by its quality marker; these models' long answers carry a
marker two points higher (the judge's taste for length), so a verbose model ranks first raw and
second once length is controlled. Markdown comes and goes with no effect on the score.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from eval_backend.answer_style import CHARACTERS, TOKENS, answer_measures, run_lengths, token_counts
from eval_backend.benchmarks.registry import BENCHMARKS
from eval_backend.benchmarks.board_view import BY_LANGUAGE
from eval_backend.benchmarks.style_features import markdown_density
from eval_backend.cli import main
from eval_backend.benchmarks.qa.plugin import INDIC_QA
from eval_backend.item_status import answered
from eval_backend.benchmarks.writing_bench.records import Item
from eval_backend.run_folder import RunFolder, RunFolderError, recorded_items
from eval_backend.style_ranking import style_board, style_matrix
from tests.support.qa_runs import QA_PROFILES, build_qa_runs
from tests.support.run_folders import EvaluatedData, ModelProfile, build_evaluated_data
from tests.support.saraiki_runs import build_saraiki_runs
from tests.support.counting_cache import CountingCache

LONG_ID = "verbose-lab/" + "ल" * 20 + "-" + "x" * 67  # 100 characters
PADDING = " यह उत्तर बहुत लंबा है।" * 40
MARKDOWN = "## शीर्षक\n- पहला बिंदु\n- दूसरा बिंदु\n**ज़रूरी** "


@dataclass(frozen=True)
class StyledProfile(ModelProfile):
    """A model whose answers to items with index % long_every == 0 are long (and judged 2 points higher), and whose
    answers to items with index % 3 == markdown_at carry headers, list items and bold."""

    long_every: int = 0
    markdown_at: int = -1

    def _long(self, item: Item) -> bool:
        return bool(self.long_every) and item.index % self.long_every == 0

    def response_for(self, item: Item) -> str:
        quality = self.quality_for(item) + (2 if self._long(item) else 0)
        styled = MARKDOWN if item.index % 3 == self.markdown_at else ""
        return f"{styled}[quality={quality}] {item.id}." + (PADDING if self._long(item) else "")


PROFILES = (
    StyledProfile(LONG_ID, 5, long_every=1, markdown_at=1),  # every answer long: raw 7, quality 5
    StyledProfile("terse/balanced-7b", 6, markdown_at=2),  # never long: 6
    StyledProfile("mixed/half-long-3b", 4, long_every=2, markdown_at=0),  # half long: raw 5, quality 4
    StyledProfile("skipping/short-context-1b", 3, skip_every=4),  # every 4th prompt does not fit: floor score
)
LABELS = [profile.model_id for profile in PROFILES]


@pytest.fixture(scope="module")
def evaluated(tmp_path_factory: pytest.TempPathFactory) -> EvaluatedData:
    return build_evaluated_data(tmp_path_factory.mktemp("style"), PROFILES)


def _folders(evaluated: EvaluatedData) -> list:
    return [evaluated.folders[label] for label in LABELS]


def test_median_lengths_are_the_judged_answers_in_characters_per_language(evaluated: EvaluatedData) -> None:
    benchmark = BENCHMARKS["indic_writing_bench"]
    board = style_board(_folders(evaluated), replicates=100)
    for profile, lengths in zip(PROFILES, board.lengths):
        measures = answer_measures(evaluated.folders[profile.model_id], benchmark)
        assert lengths.unit == CHARACTERS  # the stand-in answers recorded no token counts
        assert lengths.overall.median == pd.Series(measures["characters"]).median()
        assert lengths.overall.answers == (18 if profile.skip_every else 24)  # over the answers there are
        assert set(lengths.groups["language"]) == {"Hindi", "Tamil", "Bengali", "english_original"}
    half_long = board.lengths[2].groups["language"]["Hindi"]
    assert half_long.answers == 6 and half_long.median > len(PADDING) / 2  # 3 of 6 answers padded: median between


def test_the_controlled_ranking_puts_the_verbose_model_below_the_better_terse_one(evaluated: EvaluatedData) -> None:
    board = style_board(_folders(evaluated), replicates=200)
    control = board.control
    assert board.uncontrolled is None and [f.name for f in board.features] == ["log_length", "markdown_density"]
    assert control.raw.rank.tolist() == [1, 2, 3, 4]
    assert control.controlled.rank.tolist() == [2, 1, 3, 4]
    length, markdown = control.coefficients
    # The judge pays 2 points for the padding, whatever the answer: per log-length unit, 2 / log(long / short).
    short, long = len("[quality=5] Hindi-0003."), len("[quality=5] Hindi-0003." + PADDING)
    per_unit = 2 / (math.log1p(long) - math.log1p(short))
    assert length.feature == "log_length" and 0.8 * per_unit < length.low < length.high < 1.2 * per_unit
    assert abs(markdown.estimate) < 0.05  # markdown never moved the stand-in judge
    assert board.strata == ("Hindi", "Tamil", "Bengali")  # the Indic average's configs
    assert all(c is None or c[0].estimate > 0 for c in control.stratum_coefficients)


def test_answer_features_are_computed_from_the_judged_text(evaluated: EvaluatedData) -> None:
    benchmark = BENCHMARKS["indic_writing_bench"]
    measures = answer_measures(evaluated.folders[LONG_ID], benchmark).set_index(["config", "index"])
    for meta in recorded_items(benchmark, evaluated.folders[LONG_ID])[:6]:
        item = Item(meta.config, meta.index, meta.id, meta.domain, meta.subdomain, meta.language, meta.variant,
                    meta.prompt, "", meta.checklist)  # what `response_for` reads of an item: no query
        text = PROFILES[0].response_for(item)
        row = measures.loc[(meta.config, meta.index)]
        assert row["characters"] == len(text)
        assert row["log_length"] == pytest.approx(math.log1p(len(text)))
        assert row["markdown_density"] == pytest.approx(markdown_density(text))


def test_an_unanswered_item_shows_no_style_and_takes_the_models_own_in_the_fit(evaluated: EvaluatedData) -> None:
    measures = answer_measures(evaluated.folders[PROFILES[3].model_id], BENCHMARKS["indic_writing_bench"])
    unanswered = measures[~measures["answered"]]
    assert len(unanswered) == 6 and unanswered[["characters", "log_length", "markdown_density"]].isna().all().all()
    # runs x items x (a feature as it is, one relative to the item): run 1 skipped item 1, run 3 answered nothing
    raw = np.array([[1.0, 5.0], [3.0, np.nan], [2.0, 8.0], [np.nan, np.nan]])
    style = style_matrix(np.stack([raw, raw], axis=2), [False, True])
    assert style[:, :, 0].tolist() == [[1.0, 5.0], [3.0, 3.0], [2.0, 8.0], [0.0, 0.0]]
    # relative: less the item's median over the runs that answered it (2 and 6.5); the gap: run 1's own mean
    assert style[:, :, 1].tolist() == [[-1.0, -1.5], [1.0, 1.0], [0.0, 1.5], [0.0, 0.0]]


def test_markdown_density_counts_headers_list_items_and_bold_per_thousand_characters() -> None:
    text = "# Title\n\n- one\n* two\n3. three\nplain **bold** and __also__ text" + " " * 40
    assert markdown_density(text) == pytest.approx(1000 * 6 / len(text))
    assert markdown_density("") == 0.0
    assert markdown_density("a*b*c and 2*3 = 6") == 0.0


def test_lengths_are_in_tokens_only_where_every_answer_has_a_count() -> None:
    counted = pd.DataFrame({"config": ["Hindi", "Hindi", "Tamil"], "index": [0, 1, 0], "answered": [True, True, True],
                            "characters": [10.0, 30.0, 50.0], "tokens": [3.0, 9.0, 20.0]})
    lengths = run_lengths(counted, [BY_LANGUAGE])
    assert (lengths.unit, lengths.overall.median, lengths.groups["language"]["Hindi"].median) == (TOKENS, 9.0, 6.0)
    one_uncounted = counted.assign(tokens=[3.0, float("nan"), 20.0])
    assert run_lengths(one_uncounted, [BY_LANGUAGE]).overall.median == 30.0
    unanswered = counted.assign(answered=[False, False, False])
    assert run_lengths(unanswered, [BY_LANGUAGE]).overall is None


def test_the_style_command_prints_scores_and_coefficients(evaluated: EvaluatedData, capsys) -> None:
    dirs = [str(folder.path) for folder in _folders(evaluated)]
    assert main(["style", *dirs, "--replicates", "100"]) == 0
    text = capsys.readouterr().out
    assert LONG_ID in text and "+1 log-length unit: +" in text and "Hindi:" in text
    assert main(["style", *dirs, "--replicates", "100", "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert [run["run"] for run in document["runs"]] == LABELS
    assert [run["controlled"]["rank"] for run in document["runs"]] == [2, 1, 3, 4]
    assert document["coefficients"][0]["feature"] == "log_length"
    assert document["runs"][0]["median_length"]["unit"] == "characters"


def test_the_style_command_names_a_folder_that_is_not_a_scored_run(evaluated: EvaluatedData, tmp_path: Path,
                                                                   capsys) -> None:
    assert main(["style", str(evaluated.folders[LONG_ID].path), str(tmp_path)]) == 2
    assert str(tmp_path) in capsys.readouterr().err
    assert main(["style", str(evaluated.folders[LONG_ID].path), "--figure", "fluency"]) == 2
    assert "indic_writing_bench has no figure 'fluency'" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exited:
        main(["style", str(evaluated.folders[LONG_ID].path), "--replicates", "0"])
    assert exited.value.code == 2 and "--replicates" in capsys.readouterr().err
    with pytest.raises(RunFolderError, match="no summary.json"):
        style_board([evaluated.folders[LONG_ID], type(evaluated.folders[LONG_ID])(tmp_path)])


def test_qa_runs_generated_through_an_endpoint_have_lengths_in_tokens_and_a_length_control(tmp_path: Path,
                                                                                            capsys) -> None:
    qa = build_qa_runs(tmp_path, QA_PROFILES)
    folders = [qa.folders[profile.model_id] for profile in QA_PROFILES]
    board = style_board(folders, replicates=100)
    for folder, lengths in zip(folders, board.lengths):
        # a blank reply is no answer to the engine (scored by QA's no-answer policy): no length either
        answers = [record for record in folder.read_responses().values() if answered(INDIC_QA, record)]
        assert lengths.unit == TOKENS  # the endpoint reported usage for every answer
        # the stand-in counts a token per four characters of the whole output, thinking included
        assert lengths.overall.median == pd.Series([len(record.response) // 4 for record in answers]).median()
    assert [f.name for f in board.features] == ["log_length"] and board.control is not None
    assert set(board.strata) <= set(board.lengths[0].groups["language"])
    assert main(["style", *(str(folder.path) for folder in folders), "--replicates", "50", "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["benchmark"] == "indic_qa" and document["runs"][3]["run"] == QA_PROFILES[3].model_id


def _responses_file(tmp_path: Path, text: str) -> RunFolder:
    folder = RunFolder(tmp_path / "run")
    folder.create()
    folder.responses_path.write_text(text, encoding="utf-8")
    return folder


def test_token_counts_are_each_items_latest_line_and_survive_a_torn_last_line(tmp_path: Path) -> None:
    lines = [json.dumps({"config": "Hindi", "index": 0, "response": "पहला", "output_tokens": 5}),
             json.dumps({"config": "Tamil", "index": 1, "response": "இரண்டு", "output_tokens": None}),
             json.dumps({"config": "Hindi", "index": 0, "response": "फिर से", "output_tokens": 9})]
    folder = _responses_file(tmp_path, "\n".join(lines) + "\n" + '{"config": "Tamil", "index": 2, "resp')
    assert token_counts(folder) == {("Hindi", 0): 9, ("Tamil", 1): None}


def test_a_token_count_that_is_not_a_number_is_named_with_its_line(tmp_path: Path) -> None:
    lines = [json.dumps({"config": "Hindi", "index": 0, "response": "ठीक", "output_tokens": 5}),
             json.dumps({"config": "Hindi", "index": 1, "response": "ठीक", "output_tokens": "seven"})]
    folder = _responses_file(tmp_path, "\n".join(lines) + "\n")
    with pytest.raises(RunFolderError, match=r"responses.jsonl:2: not a valid record .field .output_tokens. must be int"):
        token_counts(folder)


def test_a_benchmark_that_declares_no_style_shows_length_only_per_task(tmp_path: Path) -> None:
    saraiki = build_saraiki_runs(tmp_path)
    board = style_board(list(saraiki.folders.values()), replicates=50)
    assert board.control is None and "declares no style feature" in board.uncontrolled
    for folder, lengths in zip(saraiki.folders.values(), board.lengths):
        tasks = answer_measures(folder, BENCHMARKS["saraiki"]).query("answered")["task"]
        assert lengths.unit == TOKENS and set(lengths.groups["task"]) == set(tasks)
        assert sum(length.answers for length in lengths.groups["task"].values()) == lengths.overall.answers


def test_a_kept_read_is_reused_until_the_runs_files_change(evaluated: EvaluatedData) -> None:
    cached = CountingCache()
    loads = cached.loads

    folders = _folders(evaluated)
    first = style_board(folders, replicates=50, cached=cached)
    assert sorted(set(loads)) == ["answers", "benchmark", "reference", "values"] and loads.count("answers") == 4
    loads.clear()
    again = style_board(folders, replicates=50, cached=cached)
    assert loads == [] and again.control.controlled.headlines.tolist() == first.control.controlled.headlines.tolist()
    responses = folders[1].responses_path
    stamp = responses.stat()
    os.utime(responses, ns=(stamp.st_atime_ns, stamp.st_mtime_ns + 1_000_000))
    style_board(folders, replicates=50, cached=cached)
    assert loads == ["answers"]
