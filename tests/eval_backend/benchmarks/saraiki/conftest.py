"""A small Saraiki benchmark in the real Hub layout, read back with `datasets` as the engine reads it."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest

from tests.support.saraiki_dataset import write_saraiki_dataset

RowsReader = Callable[[str, str], list[dict[str, Any]]]


@pytest.fixture(scope="session")
def saraiki_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_saraiki_dataset(tmp_path_factory.mktemp("saraiki"))


@pytest.fixture(scope="session")
def read_rows(saraiki_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> RowsReader:
    """Rows of one config and split, loaded with `datasets.load_dataset` from the folder."""
    import datasets

    cache = tmp_path_factory.mktemp("saraiki-cache")

    def read(config: str, split: str) -> list[dict[str, Any]]:
        return datasets.load_dataset(str(saraiki_dir), config, split=split, cache_dir=str(cache)).to_list()

    return read
