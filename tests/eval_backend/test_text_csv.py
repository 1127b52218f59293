"""The engine's one CSV reader: every cell the text written, and bad files refused by name."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from eval_backend.text_csv import CsvReadError, read_text_csv

HEADER = "question,answer,Domain,response\n"


def write(path: Path, text: str, encoding: str = "utf-8") -> Path:
    path.write_bytes(text.encode(encoding))
    return path


def test_cells_are_the_text_written_no_na_no_numbers_no_stripping(tmp_path: Path) -> None:
    text = HEADER + "".join(
        f"प्रश्न {n},{answer},{domain},{response}\n"
        for n, (answer, domain, response) in enumerate([
            ("NA", "", "NA"), ("None", "null", "nan"), ("N/A", "#N/A", "NULL"), ("07", " Art ", "1947"),
            ("1947", "1.50", "-0"), ('"Delhi "', "True", '"line one\nline two"'),
        ])
    )
    table = read_text_csv(write(tmp_path / "r.csv", text))
    assert table.header == ("question", "answer", "Domain", "response")
    assert table.column("answer") == ["NA", "None", "N/A", "07", "1947", "Delhi "]
    assert table.column("Domain") == ["", "null", "#N/A", " Art ", "1.50", "True"]
    assert table.column("response") == ["NA", "nan", "NULL", "1947", "-0", "line one\nline two"]
    assert table.short_rows == ()


def test_a_utf8_byte_order_mark_is_not_part_of_the_first_column(tmp_path: Path) -> None:
    table = read_text_csv(write(tmp_path / "r.csv", HEADER + "q,गंगा,Geo,गंगा नदी\n", "utf-8-sig"))
    assert table.header[0] == "question" and table.rows == [("q", "गंगा", "Geo", "गंगा नदी")]


def test_blank_lines_are_skipped_and_limit_counts_data_rows(tmp_path: Path) -> None:
    path = write(tmp_path / "r.csv", "\n" + HEADER + "\na,b,c,d\n\n\ne,f,g,h\ni,j,k,l\n")
    assert read_text_csv(path).rows == [("a", "b", "c", "d"), ("e", "f", "g", "h"), ("i", "j", "k", "l")]
    assert read_text_csv(path, limit=2).rows == [("a", "b", "c", "d"), ("e", "f", "g", "h")]


def test_rows_with_missing_cells_are_kept_empty_and_listed(tmp_path: Path) -> None:
    table = read_text_csv(write(tmp_path / "r.csv", HEADER + "a,b,c,d\ne,f\ni,j,k,l\nm\n"))
    assert table.rows[1] == ("e", "f", "", "") and table.rows[3] == ("m", "", "", "")
    assert table.short_rows == (2, 4)


def test_a_header_only_file_has_no_rows(tmp_path: Path) -> None:
    assert read_text_csv(write(tmp_path / "r.csv", HEADER)).rows == []


def test_a_cell_longer_than_the_csv_module_default_is_read(tmp_path: Path) -> None:
    long = "ਪੰਜਾਬੀ " * 40_000  # ~280 KB: the csv module refuses fields over 128 KiB by default
    assert read_text_csv(write(tmp_path / "r.csv", HEADER + f"q,a,D,{long}\n")).rows[0][3] == long


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "the file is empty (no header row)"),
        ("\n\n", "the file is empty (no header row)"),
        ("question,answer,Domain,response,response\nq,a,D,r1,r2\n", "column 'response' appears more than once"),
        (HEADER + "a,b,c,d\ne,f,g,h,extra\n", "data row 2 has 5 cells, the header 4"),
        (HEADER + 'a,b,c,"unclosed\n', "not a well-formed CSV"),
    ],
)
def test_malformed_files_are_refused_naming_file_and_place(tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path / "bad.csv", text)
    with pytest.raises(CsvReadError) as error:
        read_text_csv(path)
    assert str(error.value).startswith(f"{path}: ") and message in str(error.value)


@pytest.mark.parametrize(
    ("encoding", "bom", "named"),
    [
        ("utf-16-le", codecs.BOM_UTF16_LE, "UTF-16 (little-endian)"),
        ("utf-16-be", codecs.BOM_UTF16_BE, "UTF-16 (big-endian)"),
        ("utf-32-le", codecs.BOM_UTF32_LE, "UTF-32 (little-endian)"),
        ("utf-32-be", codecs.BOM_UTF32_BE, "UTF-32 (big-endian)"),
        ("utf-16-le", b"", "UTF-16 or UTF-32 (no byte-order mark"),
    ],
)
def test_utf16_and_utf32_files_are_named_with_the_encoding_expected(
    tmp_path: Path, encoding: str, bom: bytes, named: str
) -> None:
    path = tmp_path / "r.csv"
    path.write_bytes(bom + (HEADER + "q,தமிழ்,Lit,தமிழ்\n").encode(encoding))
    with pytest.raises(CsvReadError, match="expected UTF-8") as error:
        read_text_csv(path)
    assert named in str(error.value) and str(path) in str(error.value)


def test_a_file_in_another_8bit_encoding_names_the_byte_and_line(tmp_path: Path) -> None:
    path = write(tmp_path / "r.csv", HEADER + "q,caf\xe9,Food,caf\xe9\n", "latin-1")
    with pytest.raises(CsvReadError, match=r"not UTF-8 text \(byte 0xe9 near line \d+\); expected UTF-8"):
        read_text_csv(path)


def test_a_missing_file_or_a_folder_is_named(tmp_path: Path) -> None:
    for path in (tmp_path / "absent.csv", tmp_path):
        with pytest.raises(CsvReadError) as error:
            read_text_csv(path)
        assert error.value.source == str(path)
