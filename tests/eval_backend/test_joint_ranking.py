"""The joint ranking over run folders: the summaries' own figures, and reads kept by file stamp."""

from __future__ import annotations

import os

import pytest

from eval_backend.joint_ranking import joint_ranking
from eval_backend.run_folder import RunFolderError
from tests.support.run_folders import DEFAULT_PROFILES, EvaluatedData, build_evaluated_data
from tests.support.counting_cache import CountingCache

RANKED = [DEFAULT_PROFILES[0].model_id, DEFAULT_PROFILES[1].model_id, DEFAULT_PROFILES[4].model_id]


@pytest.fixture(scope="module")
def evaluated(tmp_path_factory: pytest.TempPathFactory) -> EvaluatedData:
    return build_evaluated_data(tmp_path_factory.mktemp("joint"), DEFAULT_PROFILES)


def test_the_headlines_are_the_summaries_indic_averages(evaluated: EvaluatedData) -> None:
    joint = joint_ranking([evaluated.folders[model] for model in RANKED], "indic")
    expected = [evaluated.summary(model)["config_groups"]["indic"] for model in RANKED]
    assert joint.headlines.tolist() == pytest.approx(expected)
    assert list(joint.rank) == [1, 2, 3]


def test_a_kept_read_is_reused_until_the_runs_table_changes(evaluated: EvaluatedData) -> None:
    cached = CountingCache()
    loads = cached.loads

    folders = [evaluated.folders[model] for model in RANKED]
    first = joint_ranking(folders, "indic", cached=cached)
    assert loads == ["reference", "values", "values", "values"]
    loads.clear()
    assert joint_ranking(folders, "indic", cached=cached).rank_best.tolist() == first.rank_best.tolist()
    assert loads == []
    details = folders[2].details_path
    stamp = details.stat()
    os.utime(details, ns=(stamp.st_atime_ns, stamp.st_mtime_ns + 1_000_000))
    joint_ranking(folders, "indic", cached=cached)
    assert loads == ["values"]


def test_a_run_missing_items_is_refused(evaluated: EvaluatedData) -> None:
    partial = evaluated.folders[DEFAULT_PROFILES[2].model_id]  # Hindi and Tamil only
    with pytest.raises(RunFolderError, match="not those of the other runs"):
        joint_ranking([evaluated.folders[RANKED[0]], partial], "indic")
