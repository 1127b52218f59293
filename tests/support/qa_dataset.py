"""Write a small short-answer QA dataset (seed 002's shape) in the real Hub folder layout.

One config per language, with the columns the seed names (`question`, `answer`, `Domain`),
as ``datasets.load_dataset(folder, config)`` reads a published repository::

    root/README.md                  YAML front matter: each config and its data file
    root/<config>/train.parquet     each config as parquet (or train.csv with fmt="csv")

`fmt` may also name a format per config, for a repository that mixes CSV and parquet.

The rows are the seed's own examples where it has them, so the scorers' known verdicts can
be checked through the whole pipeline. No split is declared: `datasets` names it `train`.
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Literal, Mapping, Sequence

import pyarrow as pa
import pyarrow.parquet as pq

__all__ = ["QA_ROWS", "QaDatasetRow", "answer_for", "write_qa_dataset"]

QaDatasetRow = tuple[str, str, str]
"""(question, answer, Domain)."""

QA_ROWS: Mapping[str, Sequence[QaDatasetRow]] = {
    "english": (
        ("Which Jataka is depicted in the Bharhut medallion of the deer?", "Ruru Jataka", "Art"),
        ("Where did the early Paleolithic tools of central India come from?", "Narmada valley", "History"),
        ("What is the ribbed stone at the top of a Nagara temple called?", "amalak", "Art"),
        ("Which city was the capital of British India until 1911?", "Calcutta", "History"),
    ),
    "hindi": (
        ("भारत की सबसे लंबी नदी कौन सी है?", "गंगा", "Geography"),
        ("ताजमहल किस शहर में है?", "आगरा", "History"),
        ("हिंदी किस लिपि में लिखी जाती है?", "देवनागरी", "Language"),
    ),
    "tamil": (
        ("தமிழ்நாட்டின் தலைநகரம் எது?", "சென்னை", "Geography"),
        ("திருக்குறளை எழுதியவர் யார்?", "திருவள்ளுவர்", "Literature"),
    ),
}


def answer_for(question: str) -> str:
    """The golden answer of `question` (for stand-in models that answer right)."""
    for rows in QA_ROWS.values():
        for asked, answer, _ in rows:
            if asked == question:
                return answer
    raise KeyError(question)


Format = Literal["parquet", "csv"]


def write_qa_dataset(
    root: Path, rows: Mapping[str, Sequence[QaDatasetRow]] = QA_ROWS, fmt: Format | Mapping[str, Format] = "parquet"
) -> Path:
    """Write every config of `rows` as `fmt` files (one format, or one per config) and the README
    declaring them; returns `root`."""
    root = Path(root)
    files = {}
    for config, config_rows in rows.items():
        folder = root / config
        folder.mkdir(parents=True, exist_ok=True)
        if (fmt if isinstance(fmt, str) else fmt[config]) == "csv":
            path = folder / "train.csv"
            with path.open("w", encoding="utf-8", newline="") as handle:
                writer = csv.writer(handle)
                writer.writerow(("question", "answer", "Domain"))
                writer.writerows(config_rows)
        else:
            path = folder / "train.parquet"
            columns = list(zip(*config_rows)) if config_rows else [(), (), ()]
            table = pa.table({name: pa.array(list(values), pa.string())
                              for name, values in zip(("question", "answer", "Domain"), columns)})
            pq.write_table(table, path)
        files[config] = path.relative_to(root).as_posix()
    lines = ["---", "configs:"]
    for config, path in files.items():
        lines += [f"- config_name: {config}", f"  data_files: {path}"]
    lines += ["---", "", "# Short-answer QA (offline test copy)", ""]
    (root / "README.md").write_text("\n".join(lines), encoding="utf-8")
    return root
