"""Bad input through the CLI and its files: exit status 2, a message naming what is wrong, nothing written.

Each case is a class of input an operator or an attacker can give: a responses file in the
wrong encoding or with hostile JSON, settings out of range, an output folder that cannot be
one, a dataset folder without its configs, a run folder whose files were edited by hand.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Callable

import pytest

from eval_backend.cli import main
from tests.eval_backend.cli.test_judge_cmd import run_judge, write_responses
from tests.support.hub_dataset import DatasetShape, write_writing_bench_dataset

GOOD_LINE = '{"config": "Hindi", "index": 0, "response": "an answer"}'


def folder_files(out: Path) -> dict[str, bytes]:
    """Every file of a run folder and its bytes, to show that nothing changed."""
    return {path.name: path.read_bytes() for path in sorted(out.iterdir()) if path.is_file()}


@pytest.mark.parametrize(
    ("content", "message"),
    [
        pytest.param((GOOD_LINE + "\n").encode("utf-16"), r"responses.jsonl: the file is UTF-16; save it as UTF-8",
                     id="utf-16"),
        pytest.param((GOOD_LINE + "\n").encode("utf-32"), r"responses.jsonl: the file is UTF-32", id="utf-32"),
        pytest.param(GOOD_LINE.encode() + b'\n{"config": "Hindi", "index": 1, "response": "\xff\xfe"}\n',
                     r"responses.jsonl:2: not valid UTF-8", id="invalid-utf-8"),
        pytest.param(b'{"config": "Hindi", "index": ' + b"7" * 5000 + b', "response": "a"}\n',
                     r"responses.jsonl:1: \$\.index: a number of 5,000 characters", id="index-of-5000-digits"),
        pytest.param(b'{"config": "Hindi", "index": 0, "response": "a", "extra": ' + b"[" * 100_000 + b"]" * 100_000
                     + b"}\n", r"responses.jsonl:1: JSON nested too deeply", id="nested-100000-deep"),
        pytest.param(b'{"config": 3, "index": 0, "response": "a"}\n', r"responses.jsonl:1: 'config' must be a string, got int",
                     id="config-a-number"),
        pytest.param(b'{"config": "Hindi", "index": true, "response": "a"}\n', r"responses.jsonl:1: 'index' must be an integer",
                     id="index-a-bool"),
        pytest.param(b'{"config": "Hindi", "index": 0, "response": "a", "id": [1]}\n', r"responses.jsonl:1: 'id' must be a string",
                     id="id-a-list"),
        pytest.param(b"[1, 2]\n", r"responses.jsonl:1: expected a JSON object, got list", id="an-array"),
        pytest.param(b"", r"responses.jsonl: no responses in the file", id="empty"),
        pytest.param(b"\n   \n\t\n", r"responses.jsonl: no responses in the file", id="blank-lines-only"),
    ],
)
def test_a_bad_responses_file_exits_2_naming_it_and_creates_no_run_folder(
    tmp_path, dataset_dir, judge_env, capsys, content, message
) -> None:
    responses = tmp_path / "responses.jsonl"
    responses.write_bytes(content)
    assert run_judge(dataset_dir, responses, tmp_path / "run") == 2
    assert re.search(message, capsys.readouterr().err)
    assert not (tmp_path / "run").exists()
    assert judge_env.stats.requests == 0


def test_a_utf_8_byte_order_mark_is_accepted(tmp_path, dataset_dir, judge_env) -> None:
    responses = tmp_path / "responses.jsonl"
    responses.write_bytes(b"\xef\xbb\xbf" + GOOD_LINE.encode() + b"\n")
    assert run_judge(dataset_dir, responses, tmp_path / "run") == 0
    assert judge_env.stats.requests == 5


@pytest.mark.parametrize(
    ("extra", "bad_responses", "message"),
    [
        pytest.param((), True, r"responses.jsonl:2: not valid JSON", id="bad-responses"),
        pytest.param(("--configs", "Klingon"), False, r"no config 'Klingon'", id="unknown-config"),
    ],
)
def test_a_refused_run_leaves_an_existing_folder_byte_for_byte(
    tmp_path, dataset_dir, items, judge_env, capsys, extra, bad_responses, message
) -> None:
    out = tmp_path / "run"
    assert run_judge(dataset_dir, write_responses(tmp_path / "good.jsonl", items), out, "--model", "org/a") == 0
    before, sent = folder_files(out), judge_env.stats.requests
    responses = tmp_path / "responses.jsonl"
    responses.write_text(GOOD_LINE + "\n{oops\n" if bad_responses else GOOD_LINE + "\n", encoding="utf-8")
    capsys.readouterr()
    assert run_judge(dataset_dir, responses, out, "--model", "org/b", *extra) == 2
    assert re.search(message, capsys.readouterr().err)
    assert folder_files(out) == before  # request.json still names org/a
    assert judge_env.stats.requests == sent


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (("--concurrency", "0"), r"argument --concurrency: must be at least 1, got 0"),
        (("--concurrency", "-5"), r"argument --concurrency: must be at least 1, got -5"),
        (("--concurrency", "many"), r"argument --concurrency: expected a whole number, got 'many'"),
        (("--max-completion-tokens", "0"), r"argument --max-completion-tokens: must be at least 1, got 0"),
    ],
)
def test_judge_settings_out_of_range_exit_2_before_anything_is_written(
    tmp_path, dataset_dir, items, judge_env, capsys, flags, message
) -> None:
    responses = write_responses(tmp_path / "responses.jsonl", items)
    with pytest.raises(SystemExit) as exit_:
        run_judge(dataset_dir, responses, tmp_path / "run", *flags)
    assert exit_.value.code == 2
    assert re.search(message, capsys.readouterr().err)
    assert not (tmp_path / "run").exists() and judge_env.stats.requests == 0


def test_a_setting_out_of_range_in_the_environment_exits_2_naming_the_variable(
    tmp_path, dataset_dir, items, judge_env, capsys, monkeypatch
) -> None:
    monkeypatch.setenv("JUDGE_MAX_COMPLETION_TOKENS", "0")
    assert run_judge(dataset_dir, write_responses(tmp_path / "r.jsonl", items), tmp_path / "run") == 2
    assert "JUDGE_MAX_COMPLETION_TOKENS" in capsys.readouterr().err
    assert not (tmp_path / "run").exists() and judge_env.stats.requests == 0


def a_file(tmp_path: Path) -> Path:
    (tmp_path / "a-file").write_text("x")
    return tmp_path / "a-file"


def under_a_file(tmp_path: Path) -> Path:
    return a_file(tmp_path) / "run" / "main"


def unwritable_folder(tmp_path: Path) -> Path:
    """A folder this process cannot write in: read-only for a user; for root (who passes every
    permission check) a folder of /proc, where no file can be made."""
    if os.geteuid() == 0:
        return Path("/proc/indicwb-test")
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    return locked / "run"


@pytest.mark.parametrize(
    ("make_out", "message"),
    [
        pytest.param(a_file, r"run folder .*a-file is a file", id="a-file"),
        pytest.param(under_a_file, r"run folder .*is under .*a-file, which is a file", id="under-a-file"),
        pytest.param(unwritable_folder, r"run folder .*: cannot write in", id="unwritable"),
    ],
)
def test_an_out_dir_that_cannot_be_a_run_folder_exits_2_before_anything_is_written(
    tmp_path, dataset_dir, items, judge_env, capsys, make_out, message
) -> None:
    responses = write_responses(tmp_path / "responses.jsonl", items)
    out = make_out(tmp_path)
    assert run_judge(dataset_dir, responses, out) == 2
    assert re.search(message, capsys.readouterr().err)
    assert judge_env.stats.requests == 0
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted(
        ["responses.jsonl"] + [name for name in ("a-file", "locked") if (tmp_path / name).exists()]
    )


def test_a_dataset_folder_without_configs_is_refused_naming_its_readme(tmp_path, items, judge_env, capsys) -> None:
    dataset = write_writing_bench_dataset(tmp_path / "dataset", DatasetShape(configs={"Hindi": 2, "Tamil": 2}))
    readme = dataset / "README.md"
    readme.write_text("---\nlicense: mit\n---\n\n# no configs here\n", encoding="utf-8")
    responses = write_responses(tmp_path / "responses.jsonl", [item for item in items if item.config == "Hindi"][:1])
    assert run_judge(dataset, responses, tmp_path / "run") == 2
    err = capsys.readouterr().err
    assert "README.md declares no configs" in err and "appears more than once" not in err
    assert not (tmp_path / "run").exists()


@pytest.fixture
def judged_folder(tmp_path, dataset_dir, items, judge_env) -> Path:
    out = tmp_path / "run"
    assert run_judge(dataset_dir, write_responses(tmp_path / "responses.jsonl", items), out) == 0
    return out


def _replace_line(path: Path, number: int, change) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[number - 1] = change(lines[number - 1])
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _replace_bytes(path: Path, old: bytes, new: bytes) -> None:
    path.write_bytes(path.read_bytes().replace(old, new, 1))


def _set_field(name: str, value: object) -> Callable[[str], str]:
    return lambda line: json.dumps({**json.loads(line), name: value}, ensure_ascii=False)


@pytest.mark.parametrize(
    ("corrupt", "message"),
    [
        pytest.param(lambda out: (out / "request.json").write_text("[1, 2]"), r"request.json: expected a JSON object, got list",
                     id="request-a-list"),
        pytest.param(lambda out: (out / "request.json").write_bytes(b'{"model": "\xff"}'), r"request.json: not valid UTF-8",
                     id="request-not-utf-8"),
        pytest.param(lambda out: _replace_line(out / "judgments.jsonl", 3, _set_field("score", "seven")),
                     r"judgments.jsonl:3: not a valid verdict \(field 'score' must be int \| None, got str 'seven'\)",
                     id="score-a-string"),
        pytest.param(lambda out: _replace_line(out / "judgments.jsonl", 2, _set_field("usage", [1, 2])),
                     r"judgments.jsonl:2: .*field 'usage' must be an object", id="usage-a-list"),
        pytest.param(lambda out: _replace_line(out / "judgments.jsonl", 4, lambda line: "[1, 2]"),
                     r"judgments.jsonl:4: expected a JSON object, got list", id="judgment-an-array"),
        pytest.param(lambda out: _replace_bytes(out / "responses.jsonl", "निबंध".encode(), b"\xff\xfe"),
                     r"responses.jsonl:1: not valid UTF-8", id="responses-not-utf-8"),
        pytest.param(lambda out: _replace_line(out / "responses.jsonl", 1, _set_field("index", "0")),
                     r"responses.jsonl:1: .*field 'index' must be int", id="response-index-a-string"),
        pytest.param(lambda out: _replace_line(out / "items.jsonl", 2, _set_field("checklist", "none")),
                     r"items.jsonl:2: .*field 'checklist'", id="checklist-a-string"),
    ],
)
def test_score_on_a_hand_edited_folder_exits_2_naming_the_file_line_and_field(judged_folder, capsys, corrupt, message) -> None:
    corrupt(judged_folder)
    summary = (judged_folder / "summary.json").read_bytes()
    capsys.readouterr()
    assert main(["score", "--out-dir", str(judged_folder)]) == 2
    assert re.search(message, capsys.readouterr().err)
    assert (judged_folder / "summary.json").read_bytes() == summary


def test_score_on_a_folder_that_is_not_a_run_folder_exits_2(tmp_path, capsys) -> None:
    assert main(["score", "--out-dir", str(tmp_path / "nothing")]) == 2
    assert "not a run folder (no items.jsonl)" in capsys.readouterr().err
    assert not (tmp_path / "nothing").exists()


def test_a_narrower_rerun_never_shrinks_the_run(tmp_path, dataset_dir, items, judge_env) -> None:
    out = tmp_path / "run"
    both = [item for item in items if item.config in ("Hindi", "Tamil")]
    assert run_judge(dataset_dir, write_responses(tmp_path / "both.jsonl", both), out, "--configs", "Hindi,Tamil") == 0
    items_before = (out / "items.jsonl").read_bytes()
    summary_before = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    hindi = [item for item in both if item.config == "Hindi"]
    sent = judge_env.stats.requests

    assert run_judge(dataset_dir, write_responses(tmp_path / "hindi.jsonl", hindi), out, "--configs", "Hindi") == 0

    assert judge_env.stats.requests == sent  # nothing new to judge
    assert (out / "items.jsonl").read_bytes() == items_before
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["configs"] == summary_before["configs"] and set(summary["configs"]) == {"Hindi", "Tamil"}
    assert summary["counts"] == summary_before["counts"] and summary["overall"] == summary_before["overall"]
    assert json.loads((out / "request.json").read_text(encoding="utf-8"))["configs"] == ["Hindi", "Tamil"]


@pytest.mark.parametrize("request_id", ["99999999999999999999999", "0", "-3", "1e3", "9" * 5000])
def test_queue_commands_refuse_an_id_no_request_can_have(tmp_path, monkeypatch, capsys, request_id) -> None:
    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    for action in ("show", "retry", "cancel"):
        with pytest.raises(SystemExit) as exit_:
            main(["queue", action, request_id])
        assert exit_.value.code == 2
        assert re.search(r"argument id: (too large for a request id|must be at least 1|expected a whole number)",
                         capsys.readouterr().err)
