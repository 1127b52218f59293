"""`python -m eval_backend qa-score`: seed 002's scripts as one command, on the seed's own CSV input."""

from __future__ import annotations

import csv
import hashlib
import itertools
import json
import re
import socket
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

from eval_backend.cli import main
from tests.support.chat_server import Reply, StandInChatServer
from tests.support.qa_corpus import write_corpus
from tests.support.qa_dataset import write_qa_dataset
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


# Golden answers the way a CSV dataset holds them: NA-like words and number-only cells are text.
AS_WRITTEN = (
    ("भारत की राजधानी का कोड? (न हो तो NA)", "NA", "Polity", "Not available"),
    ("किस वर्ष भारत स्वतंत्र हुआ?", "1947", "History", "सन 1947 में"),
    ("जुलाई कौन सा महीना है?", "07", "Calendar", "It is month 7"),
    ("कौन सा मान लौटाया गया?", "None", "Computing ", "The function returns None."),
    ("மதிப்பு என்ன?", "nan", "Science", "பதில் தெரியவில்லை"),
    ("பதில் கிடைக்கவில்லை என்றால்?", "N/A", "", "N/A"),
    ("এই মানটি কী?", "null", "Computing", "null"),
)


def test_csv_and_parquet_datasets_and_qa_score_give_the_same_verdicts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = {"mixed": [(question, answer, domain) for question, answer, domain, _ in AS_WRITTEN]}
    lines = [{"config": "mixed", "index": n, "response": row[3]} for n, row in enumerate(AS_WRITTEN)]
    responses = tmp_path / "responses.jsonl"
    responses.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")
    for name in ("OPENAI_BASE_URL", "AZURE_OPENAI_ENDPOINT"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-secret")
    monkeypatch.setenv("JUDGE_MODEL", "stand-in-judge")
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    summaries = {}
    with StandInChatServer(qa_judge_reply()) as judge:
        monkeypatch.setenv("OPENAI_BASE_URL", judge.base_url)
        for fmt in ("csv", "parquet"):
            monkeypatch.setenv("QA_DATASET", str(write_qa_dataset(tmp_path / fmt, rows, fmt=fmt)))
            out_dir = tmp_path / f"judged-{fmt}"
            assert main(["judge", "--benchmark", "indic_qa", "--responses", str(responses),
                         "--out-dir", str(out_dir)]) == 0
            summaries[fmt] = json.loads((out_dir / "summary.json").read_text(encoding="utf-8"))
        summary_out = tmp_path / "qa-score.json"
        csv_file = write_csv(tmp_path / "responses.csv", [list(row) for row in AS_WRITTEN])
        assert main(["qa-score", "--responses", str(csv_file), "--judge", "--summary-out", str(summary_out)]) == 0
    capsys.readouterr()
    scored = json.loads(summary_out.read_text(encoding="utf-8"))
    assert summaries["csv"]["combined"] == summaries["parquet"]["combined"]
    assert summaries["csv"]["empty_golden_items"] == summaries["parquet"]["empty_golden_items"] == []
    pooled = summaries["csv"]["combined"]
    for key in ("n", "empty_golden", "blank_responses", "agreement"):
        assert scored[key] == pooled[key], key
    for scorer in ("exact", "overlap", "judge"):
        assert scored[scorer]["combined"] == pooled[scorer]["combined"], scorer
    # Read as written, 1947, None, N/A and null are in their responses; NA-as-empty would make all 7 right.
    assert scored["exact"]["combined"] == 100 * 4 / 7 and scored["empty_golden"] == 0


@pytest.mark.parametrize("flag", ["--out", "--summary-out"])
def test_an_output_path_that_is_a_folder_or_unwritable_is_exit_2_before_the_judge_is_paid(
    tmp_path: Path, qa_judge_env: StandInChatServer, capsys: pytest.CaptureFixture[str], flag: str
) -> None:
    responses = write_csv(tmp_path / "r.csv", seed_rows())
    (tmp_path / "a-file").write_text("x")
    for target, reason in ((tmp_path, "is a folder"), (tmp_path / "a-file" / "out.csv", "does not exist"),
                           (Path("/proc/qa-score-out.csv"), "cannot be written")):
        assert main(["qa-score", "--responses", str(responses), "--judge", flag, str(target)]) == 2
        err = capsys.readouterr().err
        assert f"error: {target}: " in err and reason in err and "Traceback" not in err
    assert qa_judge_env.requests == []  # refused before any judge call
    assert sorted(path.name for path in tmp_path.iterdir()) == ["a-file", "r.csv"]  # no probe left behind


def test_a_fatal_judge_error_still_saves_the_deterministic_results_and_says_what_was_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    answered = itertools.count()

    def reply(body: dict) -> Reply:  # the key is revoked after 3 answers
        return qa_judge_reply()(body) if next(answered) < 3 else Reply(content="Incorrect API key provided", status=401)

    # One call at a time: with two in flight, the third answer can still be on its way when the fourth's 401 stops
    # the judge, and a call cut short has no verdict to save.

    rows = [[f"Capital? #{n}", "Delhi", "Geo", "It is Delhi."] for n in range(40)]
    responses = write_csv(tmp_path / "r.csv", rows)
    out, summary_out = tmp_path / "scored.csv", tmp_path / "s.json"
    with StandInChatServer(reply) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-secret")
        monkeypatch.setenv("JUDGE_MODEL", "stand-in-judge")
        status = main(["qa-score", "--responses", str(responses), "--judge", "--concurrency", "1",
                       "--out", str(out), "--summary-out", str(summary_out)])
    assert status == 2
    err = capsys.readouterr().err
    scored = read_csv(out)
    assert len(scored) == 40 and {row["exact_correct"] for row in scored} == {"True"}
    judged = [row for row in scored if row["judge_correct"]]
    assert [row["judge_correct"] for row in judged] == ["True"] * 3
    unjudged = [row["judge_reason"] for row in scored if not row["judge_correct"]]
    assert len(unjudged) == 37 and all("401" in reason or "API key" in reason for reason in unjudged)
    summary = json.loads(summary_out.read_text(encoding="utf-8"))
    assert summary["exact"]["combined"] == 100.0 and summary["judge"]["failed"] == 37
    assert "the judge stopped after" in err and f"saved: {out} (every row's exact and overlap verdicts" in err
    assert f"{summary_out} (the summary" in err
    assert "run again to resume" not in err  # qa-score keeps no judgments to resume from


def test_a_duplicate_column_is_refused_naming_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    responses = write_csv(tmp_path / "r.csv", [["q", "Delhi", "Geo", "Delhi", "Mumbai"]], [*HEADER, "response"])
    assert main(["qa-score", "--responses", str(responses)]) == 2
    err = capsys.readouterr().err
    assert f"{responses}: cannot read the responses CSV: column 'response' appears more than once" in err


def test_blank_and_whitespace_domains_are_labelled_apart(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = [["q", "कला", "Art", "कला"], ["q", "कला", "Art ", "नहीं"], ["q", "कला", "", "कला"], ["q", "x", " ", "y"]]
    assert main(["qa-score", "--responses", str(write_csv(tmp_path / "r.csv", rows))]) == 0
    exact = capsys.readouterr().out.split("\n\n")[0].splitlines()
    labels = [re.match(r"^  (.*?)\s+\d+/\d+", line)[1] for line in exact[1:]]
    assert labels == ["(blank)", '" "', "Art", '"Art "', "combined"]


def test_a_header_only_file_and_short_rows_are_named_on_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    header_only = write_csv(tmp_path / "header.csv", [])
    assert main(["qa-score", "--responses", str(header_only)]) == 0
    assert f"warning: {header_only}: no data rows, only the header" in capsys.readouterr().err
    short = tmp_path / "short.csv"
    short.write_text("question,answer,Domain,response\nq,Delhi,Geo,Delhi\nq,Delhi\nq,Delhi,Geo\n", encoding="utf-8")
    assert main(["qa-score", "--responses", str(short)]) == 0
    err = capsys.readouterr().err
    assert f"2 rows of {short} have fewer cells than the header" in err and "data rows 2, 3 " in err


def test_a_utf16_file_is_named_with_the_encoding_expected(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    responses = tmp_path / "r.csv"
    responses.write_text("question,answer,Domain,response\nq,ગાંધી,History,ગાંધી\n", encoding="utf-16")
    assert main(["qa-score", "--responses", str(responses)]) == 2
    err = capsys.readouterr().err
    assert "is UTF-16 (little-endian) text; expected UTF-8" in err and "codec" not in err


def test_a_refused_temperature_is_learned_once_at_any_concurrency(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [[f"Capital? #{n}", "Delhi", "Geo", "It is Delhi."] for n in range(65)]
    summary_out = tmp_path / "s.json"
    with StandInChatServer(qa_judge_reply(refuse_temperature=True), latency_s=0.005) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-secret")
        monkeypatch.setenv("JUDGE_MODEL", "stand-in-judge")
        assert main(["qa-score", "--responses", str(write_csv(tmp_path / "r.csv", rows)), "--judge",
                     "--concurrency", "2", "--summary-out", str(summary_out)]) == 0
        carried = [request for request in server.requests if "temperature" in request.body]
        total = len(server.requests)
    judge = json.loads(summary_out.read_text(encoding="utf-8"))["judge"]
    assert judge["temperature"] is None and judge["failed"] == 0
    # The first refusal, and at most the other call in flight then; every row judged once more at most.
    assert 1 <= len(carried) <= 2 and judge["temperature_refused_calls"] == len(carried)
    assert total == 65 + len(carried)
    assert "warning: the judge refused temperature 0" in capsys.readouterr().err


def test_verdicts_on_a_large_corpus_are_those_of_the_seed_reading_before_the_speed_work(tmp_path: Path) -> None:
    # 20,000 rows in eleven scripts (tests.support.qa_corpus). The digests are of the files that
    # qa-score wrote for this corpus at commit 3c698e8, before it was rewritten for speed.
    responses = write_corpus(tmp_path / "corpus.csv", 20_000)
    out, summary_out = tmp_path / "scored.csv", tmp_path / "summary.json"
    assert main(["qa-score", "--responses", str(responses), "--out", str(out), "--summary-out", str(summary_out)]) == 0
    assert hashlib.sha256(out.read_bytes()).hexdigest() == CORPUS_SCORED_SHA256
    assert hashlib.sha256(summary_out.read_bytes()).hexdigest() == CORPUS_SUMMARY_SHA256


CORPUS_SCORED_SHA256 = "f61e119a914731c427d492e43b6d4c159e35f509dd732d785237c9f7890780d5"
CORPUS_SUMMARY_SHA256 = "d9d9744d4cc9a245b969fac07b8b1d16d326118384a74f6bbc66e9652c405ba8"


def test_an_unreachable_judge_saves_the_scores_and_promises_no_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as unused:  # a port nobody listens on
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    monkeypatch.setenv("OPENAI_BASE_URL", f"http://127.0.0.1:{port}/v1")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-secret")
    monkeypatch.setenv("JUDGE_MAX_CONNECTION_FAILURES", "3")
    monkeypatch.setenv("JUDGE_TRANSPORT_RETRIES", "0")
    out = tmp_path / "scored.csv"
    responses = write_csv(tmp_path / "r.csv", seed_rows())
    assert main(["qa-score", "--responses", str(responses), "--judge", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "could not be reached 3 times in a row" in err and "run again to resume" not in err
    assert f"saved: {out} (every row's exact and overlap verdicts" in err
    assert [row["exact_correct"] for row in read_csv(out)][: len(EXACT_TABLE)] == [str(c) for _, _, c in EXACT_TABLE]
