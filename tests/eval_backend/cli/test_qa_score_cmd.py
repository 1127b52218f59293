"""`python -m eval_backend qa-score`: seed 002's scripts as one command, on the seed's own CSV input."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

from eval_backend.cli import main
from tests.support.chat_server import StandInChatServer
from tests.support.qa_judge import qa_judge_reply
from tests.support.qa_seed_tables import EXACT_TABLE, OVERLAP_TABLE

HEADER = ["question", "answer", "Domain", "response"]
REPO = Path(__file__).resolve().parents[3]


def write_csv(path: Path, rows: list[list[str]], header: list[str] = HEADER) -> Path:
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows(rows)
    return path


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def seed_rows() -> list[list[str]]:
    exact = [[f"e{n}", golden, "Exact", response] for n, (golden, response, _) in enumerate(EXACT_TABLE)]
    overlap = [[f"o{n}", golden, "Overlap", response] for n, (golden, response, *_) in enumerate(OVERLAP_TABLE)]
    return exact + overlap


def test_the_seed_tables_through_the_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    responses = write_csv(tmp_path / "my_model_english.csv", seed_rows())
    out, summary_out = tmp_path / "scored.csv", tmp_path / "summary.json"
    status = main(["qa-score", "--responses", str(responses), "--out", str(out), "--summary-out", str(summary_out)])
    assert status == 0
    scored = read_csv(out)
    assert list(scored[0]) == [
        *HEADER, "exact_correct", "overlap_correct", "matching_words", "total_golden_words", "blank_response",
    ]
    exact_rows, overlap_rows = scored[: len(EXACT_TABLE)], scored[len(EXACT_TABLE) :]
    assert [row["exact_correct"] for row in exact_rows] == [str(correct) for _, _, correct in EXACT_TABLE]
    assert [
        (row["overlap_correct"], row["matching_words"], row["total_golden_words"]) for row in overlap_rows
    ] == [(str(correct), str(matching), str(total)) for _, _, correct, matching, total in OVERLAP_TABLE]
    assert scored[5]["answer"] == "Delhi "  # the golden answer's trailing space survives the round trip
    assert {row["blank_response"] for row in scored} == {"False"}

    summary = json.loads(summary_out.read_text(encoding="utf-8"))
    exact_correct = sum(correct for _, _, correct in EXACT_TABLE)
    assert summary["n"] == len(scored) and summary["blank_responses"] == 0 and summary["empty_golden"] == 0
    assert summary["exact"]["domains"]["Exact"] == 100 * exact_correct / len(EXACT_TABLE)
    assert summary["overlap"]["domains"]["Overlap"] == 100 * 3 / 6
    combined = [row["exact_correct"] == "True" for row in scored]
    assert summary["exact"]["combined"] == 100 * sum(combined) / len(combined)  # micro-average, unrounded
    assert sum(summary["agreement"].values()) == len(scored)
    assert summary["normalize"] is None and summary["nfc_would_change"] == 0

    printed = capsys.readouterr().out
    assert "exact substring" in printed and "word overlap" in printed
    assert f"{exact_correct}/{len(EXACT_TABLE)}" in printed and "combined" in printed


def test_cells_are_text_as_written_and_other_columns_are_kept(tmp_path: Path) -> None:
    rows = [["q", "NA", "", "NA"], ["q", "None", "null", "  "], ["q", "nan", "N/A", "nan"]]
    responses = write_csv(tmp_path / "r.csv", [[*row, f"id-{n}"] for n, row in enumerate(rows)], [*HEADER, "id"])
    out = tmp_path / "scored.csv"
    assert main(["qa-score", "--responses", str(responses), "--out", str(out)]) == 0
    scored = read_csv(out)
    assert [(row["answer"], row["Domain"], row["response"], row["id"]) for row in scored] == [
        ("NA", "", "NA", "id-0"), ("None", "null", "  ", "id-1"), ("nan", "N/A", "nan", "id-2"),
    ]
    assert [row["exact_correct"] for row in scored] == ["True", "False", "True"]
    assert [row["blank_response"] for row in scored] == ["False", "True", "False"]


def test_blank_responses_and_empty_golden_answers_are_counted_and_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [["q", "Delhi", "Geo", "Delhi"], ["q", "", "Geo", "Mumbai"], ["q", "Delhi", "Geo", ""], ["q", "", "Geo", ""]]
    summary_out = tmp_path / "summary.json"
    responses = write_csv(tmp_path / "r.csv", rows)
    assert main(["qa-score", "--responses", str(responses), "--summary-out", str(summary_out)]) == 0
    summary = json.loads(summary_out.read_text(encoding="utf-8"))
    assert summary["blank_responses"] == 2 and summary["empty_golden"] == 2
    assert summary["exact"]["combined"] == 50.0  # rows 1 and 2; both blank rows are wrong
    captured = capsys.readouterr()
    assert "2 rows have an empty golden answer" in captured.err and "data rows 2, 4" in captured.err
    assert "blank responses: 2 of 4 (scored incorrect)" in captured.out


def test_limit_scores_only_the_first_rows(tmp_path: Path) -> None:
    responses = write_csv(tmp_path / "r.csv", seed_rows())
    out, summary_out = tmp_path / "scored.csv", tmp_path / "s.json"
    assert main(["qa-score", "--responses", str(responses), "--limit", "3", "--out", str(out),
                 "--summary-out", str(summary_out)]) == 0
    assert [row["question"] for row in read_csv(out)] == ["e0", "e1", "e2"]
    assert json.loads(summary_out.read_text())["n"] == 3


def test_nfc_normalisation_is_off_by_default_and_its_effect_is_warned(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    golden = unicodedata.normalize("NFC", "ऩदी")
    rows = [["q", golden, "Hindi", unicodedata.normalize("NFD", f"उत्तर: {golden}।")], ["q", "गंगा", "Hindi", "गंगा"]]
    responses = write_csv(tmp_path / "r.csv", rows)
    plain, nfc = tmp_path / "plain.json", tmp_path / "nfc.json"
    assert main(["qa-score", "--responses", str(responses), "--summary-out", str(plain)]) == 0
    assert "1 rows would get another verdict under --normalize nfc: data rows 1 " in capsys.readouterr().err
    assert main(["qa-score", "--responses", str(responses), "--summary-out", str(nfc), "--normalize", "nfc"]) == 0
    assert "normalize nfc" not in capsys.readouterr().err
    plain_summary, nfc_summary = json.loads(plain.read_text()), json.loads(nfc.read_text())
    assert plain_summary["exact"]["combined"] == 50.0 and plain_summary["nfc_would_change"] == 1
    assert nfc_summary["exact"]["combined"] == 100.0 and nfc_summary["overlap"]["combined"] == 100.0
    assert nfc_summary["normalize"] == "nfc" and "nfc_would_change" not in nfc_summary


@pytest.mark.parametrize("missing", ["answer", "Domain", "response"])
def test_a_missing_column_is_exit_2_naming_file_and_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], missing: str
) -> None:
    header = [column for column in HEADER if column != missing]
    responses = write_csv(tmp_path / "bad.csv", [["x"] * len(header)], header)
    assert main(["qa-score", "--responses", str(responses)]) == 2
    err = capsys.readouterr().err
    assert str(responses) in err and f"missing column '{missing}'" in err


def test_the_question_column_is_needed_only_by_the_judge(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    responses = write_csv(tmp_path / "r.csv", [["Delhi", "Geo", "Delhi"]], ["answer", "Domain", "response"])
    assert main(["qa-score", "--responses", str(responses)]) == 0
    capsys.readouterr()
    assert main(["qa-score", "--responses", str(responses), "--judge"]) == 2
    assert "missing column 'question'" in capsys.readouterr().err


def test_unreadable_files_are_exit_2_naming_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    latin1 = tmp_path / "latin1.csv"
    latin1.write_bytes("question,answer,Domain,response\nq,caf\xe9,Food,caf\xe9\n".encode("latin-1"))
    empty = tmp_path / "empty.csv"
    empty.write_bytes(b"")
    for path in (tmp_path / "absent.csv", latin1, empty, tmp_path):
        assert main(["qa-score", "--responses", str(path)]) == 2
        assert f"{path}: cannot read the responses CSV" in capsys.readouterr().err


def test_an_output_folder_that_does_not_exist_is_refused_before_any_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    responses = write_csv(tmp_path / "r.csv", seed_rows())
    assert main(["qa-score", "--responses", str(responses), "--out", str(tmp_path / "no" / "scored.csv")]) == 2
    assert "does not exist" in capsys.readouterr().err


@pytest.fixture
def qa_judge_env(monkeypatch: pytest.MonkeyPatch):
    with StandInChatServer(qa_judge_reply()) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-secret")
        monkeypatch.setenv("JUDGE_MODEL", "stand-in-judge")
        yield server


def test_the_judge_path_against_the_stand_in(tmp_path: Path, qa_judge_env: StandInChatServer) -> None:
    rows = [
        ["Capital of India?", "Delhi", "Geo", "Delhi is not the answer; it's Mumbai"],
        ["Capital of India?", "Delhi", "Geo", "It is New Delhi."],
        ["Longest river?", "गंगा", "Hindi", "गंगा नदी"],
        ["Longest river?", "गंगा", "Hindi", ""],
    ]
    out, summary_out = tmp_path / "scored.csv", tmp_path / "s.json"
    status = main(["qa-score", "--responses", str(write_csv(tmp_path / "r.csv", rows)), "--judge",
                   "--out", str(out), "--summary-out", str(summary_out)])
    assert status == 0
    scored = read_csv(out)
    assert list(scored[0])[-2:] == ["judge_correct", "judge_reason"]
    assert [row["exact_correct"] for row in scored] == ["True", "True", "True", "False"]
    assert [row["judge_correct"] for row in scored] == ["False", "True", "True", "False"]
    assert scored[0]["judge_reason"] == "Does not state 'Delhi'." and scored[3]["judge_reason"] == "blank response"
    assert len(qa_judge_env.requests) == 3  # the blank response needs no call
    assert {request.body["temperature"] for request in qa_judge_env.requests} == {0.0}
    judge = json.loads(summary_out.read_text(encoding="utf-8"))["judge"]
    assert judge == {
        "combined": 50.0, "domains": {"Geo": 50.0, "Hindi": 50.0}, "model": "stand-in-judge",
        "temperature": 0.0, "temperature_refused": None, "temperature_refused_calls": 0, "failed": 0,
    }


def test_a_judge_that_cannot_be_reached_at_all_is_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("OPENAI_BASE_URL", "OPENAI_API_KEY", "AZURE_OPENAI_ENDPOINT", "AZURE_OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    responses = write_csv(tmp_path / "r.csv", seed_rows())
    assert main(["qa-score", "--responses", str(responses), "--judge"]) == 2
    assert "no judge endpoint" in capsys.readouterr().err


def test_python_dash_m_runs_the_command(tmp_path: Path) -> None:
    responses = write_csv(tmp_path / "my_model_english.csv", seed_rows())
    done = subprocess.run(
        [sys.executable, "-m", "eval_backend", "qa-score", "--responses", str(responses)],
        cwd=REPO, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "exact substring" and any(line.split()[0] == "Exact" for line in lines[1:3])
