"""Every refusal says exactly why and queues nothing; a good submission is resolved to a commit and queued."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest

from eval_backend.benchmarks.chat_mode import ChatMode
from eval_backend.run_folder import RunFolder
from eval_backend.submissions import QueueStore, Status, SubmissionForm, SubmissionRejected
from eval_backend.submissions.service import queue_submission, submit
from tests.eval_backend.submissions.conftest import make_settings
from tests.support.hub_server import StandInHub, chat_model_files

BILLION = 1_000_000_000
MODEL = "sarvam/tiny-chat"


@pytest.fixture
def hub_model(hub: StandInHub) -> str:
    """A 1B chat model on the stand-in Hub; returns its main commit."""
    return hub.add_model(MODEL, chat_model_files(), parameters=BILLION)


def refuse(store: QueueStore, settings: Any, form: SubmissionForm, user: str | None = "alice") -> str:
    """Submit, expect a refusal, check nothing was queued; returns the message."""
    before = store.list_requests()
    with pytest.raises(SubmissionRejected) as raised:
        submit(form, user, store=store, settings=settings)
    assert store.list_requests() == before
    return str(raised.value)


@pytest.mark.parametrize(
    ("model_id", "expected"),
    [
        ("", "enter a model id like 'org/name'"),
        ("tiny-chat", "model id 'tiny-chat' must be 'org/name', with exactly one '/'"),
        ("a/b/c", "model id 'a/b/c' must be 'org/name', with exactly one '/'"),
        ("org/../etc", "model id 'org/../etc' must not contain '..' or '--'"),
        ("org/na me;rm", "model id 'org/na me;rm' has characters other than letters, digits, '-', '_', '.' and '/': ' ' ';'"),
        ("org/" + "x" * 97, "is 97 characters; at most 96"),
        ("org/-name", "the org and the name must each start with a letter or digit"),
    ],
)
def test_bad_model_ids_are_refused_before_the_hub_is_asked(
    store: QueueStore, hub: StandInHub, tmp_path: Path, model_id: str, expected: str
) -> None:
    message = refuse(store, make_settings(tmp_path, hub), SubmissionForm(model_id))
    assert expected in message
    assert hub.recorded == []


def test_bad_revision_and_precision_are_refused(store: QueueStore, hub: StandInHub, tmp_path: Path) -> None:
    settings = make_settings(tmp_path, hub)
    assert "revision '../main' is not a branch, tag or commit name" in refuse(store, settings, SubmissionForm(MODEL, "../main"))
    assert "precision 'int3' is not one of auto, bfloat16, float16, float32" in refuse(
        store, settings, SubmissionForm(MODEL, precision="int3")
    )


def test_branch_and_tag_names_are_resolved_to_the_commit(store: QueueStore, hub: StandInHub, tmp_path: Path) -> None:
    first = hub.add_model(MODEL, chat_model_files(), parameters=BILLION)
    hub.tag(MODEL, "v1", first)
    second = hub.add_model(MODEL, chat_model_files(template_file=True), parameters=BILLION)
    settings = make_settings(tmp_path, hub)
    [on_main] = submit(SubmissionForm(MODEL), "alice", store=store, settings=settings)
    [tagged] = submit(SubmissionForm(MODEL, "v1"), "alice", store=store, settings=settings)
    assert (on_main.revision, on_main.requested_revision) == (second, "main")
    assert (tagged.revision, tagged.requested_revision) == (first, "v1")
    assert on_main.status is Status.PENDING and on_main.submitter == "alice"


def test_a_missing_model_or_revision_is_refused(store: QueueStore, hub: StandInHub, hub_model: str, tmp_path: Path) -> None:
    settings = make_settings(tmp_path, hub)
    assert "model 'sarvam/nope' at revision 'main' was not found on the Hub, or it is private" in refuse(
        store, settings, SubmissionForm("sarvam/nope")
    )
    assert f"model {MODEL!r} at revision 'v9': no such branch, tag or commit" in refuse(
        store, settings, SubmissionForm(MODEL, "v9")
    )


def test_private_and_gated_models_need_access_for_the_leaderboard_token(
    store: QueueStore, hub: StandInHub, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    hub.add_model("org/private", chat_model_files(), parameters=BILLION, private=True)
    hub.add_model("org/gated", chat_model_files(), parameters=BILLION, gated=True)
    settings = make_settings(tmp_path, hub, hf_token="hf_leaderboard_secret")
    assert "was not found on the Hub, or it is private and the leaderboard's token cannot read it" in refuse(
        store, settings, SubmissionForm("org/private")
    )
    assert "is gated and the leaderboard's Hugging Face token has not been granted access" in refuse(
        store, settings, SubmissionForm("org/gated")
    )
    hub.grant("org/private", "hf_leaderboard_secret")
    hub.grant("org/gated", "hf_leaderboard_secret")
    with caplog.at_level(logging.DEBUG):
        submit(SubmissionForm("org/private"), "alice", store=store, settings=settings)
        submit(SubmissionForm("org/gated"), "alice", store=store, settings=settings)
    assert len(store.list_requests()) == 2
    assert {request.token for request in hub.recorded} == {"hf_leaderboard_secret"}
    assert "hf_leaderboard_secret" not in caplog.text
    assert "hf_leaderboard_secret" not in repr(store.list_requests())  # no column of any row holds it


def test_the_license_and_open_weights_come_from_the_hub_and_are_queued(
    store: QueueStore, hub: StandInHub, tmp_path: Path
) -> None:
    files = chat_model_files()
    hub.add_model("org/card", files, parameters=BILLION, card_data={"license": "Apache-2.0"})
    hub.add_model("org/tagged", files, parameters=BILLION, tags=("text-generation", "license:mit"))
    hub.add_model("org/other", files, parameters=BILLION,
                  card_data={"license": "other", "license_name": "Llama3 Community", "license_link": "LICENSE"})
    hub.add_model("org/gated", files, parameters=BILLION, gated=True, card_data={"license": "gemma"})
    hub.add_model("org/private", files, parameters=BILLION, private=True)
    sharded = {name: data for name, data in files.items() if name != "model.safetensors"}
    hub.add_model("org/sharded-bin", {**sharded, "pytorch_model-00001-of-00002.bin": b"\0"}, parameters=BILLION)
    hub.add_model("org/no-weights", {**sharded, "training_args.bin": b"\0"}, parameters=BILLION)
    for repo in ("org/gated", "org/private"):
        hub.grant(repo, "hf_token")
    settings = make_settings(tmp_path, hub, hf_token="hf_token", submissions_per_week=10)
    facts = {}
    models = ("org/card", "org/tagged", "org/other", "org/gated", "org/private", "org/sharded-bin", "org/no-weights")
    for model in models:
        [queued] = submit(SubmissionForm(model), "alice", store=store, settings=settings)
        facts[model] = (queued.license, queued.open_weights)
    assert facts == {
        "org/card": ("apache-2.0", True),  # lower case, as the Hub's license ids are spelled
        "org/tagged": ("mit", True),  # no card license: the Hub's `license:` tag
        "org/other": ("other:llama3-community", True),
        "org/gated": ("gemma", False),  # downloadable only after an access request
        "org/private": (None, False),
        "org/sharded-bin": (None, True),
        "org/no-weights": (None, False),  # a .bin that holds no weights does not count
    }
    assert {(row.license, row.open_weights) for row in store.list_requests()} == set(facts.values())


def test_a_local_folder_s_license_and_openness_are_unknown(store: QueueStore, tiny_model: Path, tmp_path: Path) -> None:
    [queued] = submit(SubmissionForm(str(tiny_model)), None, store=store,
                      settings=make_settings(tmp_path, allow_local_models=True))
    assert (queued.license, queued.open_weights) == (None, None)


def no_template(sha: str, model: str = "org/base") -> str:
    return (f"model {model!r} at {sha[:12]} has no chat template (no 'chat_template' in tokenizer_config.json "
            "and no chat_template.jinja)")


def test_a_model_without_a_chat_template_is_refused_by_the_benchmarks_that_ask_in_chat(
    store: QueueStore, hub: StandInHub, tmp_path: Path
) -> None:
    sha = hub.add_model("org/base", chat_model_files(chat_template=None), parameters=BILLION)
    settings = make_settings(tmp_path, hub)
    assert refuse(store, settings, SubmissionForm("org/base")) == (
        f"{no_template(sha)}; it cannot be evaluated on indic_writing_bench, which asks prompts as chat turns "
        "(without a chat template a model can be evaluated on saraiki, with raw prompts)"
    )
    both = SubmissionForm("org/base", benchmarks=("indic_writing_bench", "indic_qa"))
    assert refuse(store, settings, both).startswith(
        f"{no_template(sha)}; it cannot be evaluated on indic_writing_bench, indic_qa, which ask prompts as chat turns"
    )


def test_a_model_without_a_chat_template_is_queued_raw_on_saraiki_and_the_message_says_what_was_left_out(
    store: QueueStore, hub: StandInHub, tmp_path: Path
) -> None:
    sha = hub.add_model("org/base", chat_model_files(chat_template=None), parameters=BILLION)
    form = SubmissionForm("org/base", benchmarks=("indic_writing_bench", "indic_qa", "saraiki"))
    submitted = queue_submission(form, "alice", store=store, settings=make_settings(tmp_path, hub))
    assert [(row.benchmark, row.chat_mode) for row in submitted.requests] == [("saraiki", ChatMode.RAW)]
    assert submitted.left_out == (
        f"{no_template(sha)}; it cannot be evaluated on indic_writing_bench, indic_qa, which ask prompts as chat turns",
    )
    assert store.get(submitted.requests[0].id).chat_mode is ChatMode.RAW  # as stored, not only as returned


def test_chat_mode_for_a_model_without_a_chat_template_is_refused(store: QueueStore, hub: StandInHub, tmp_path: Path) -> None:
    sha = hub.add_model("org/base", chat_model_files(chat_template=None), parameters=BILLION)
    form = SubmissionForm("org/base", benchmarks=("saraiki", "indic_qa"), chat_mode="chat")
    assert refuse(store, make_settings(tmp_path, hub), form) == (
        f"{no_template(sha)}, so it cannot be asked in chat mode on saraiki; choose raw prompts "
        "(or auto, which asks a model without a chat template in raw text)"
    )


def test_auto_asks_a_chat_model_in_chat_and_raw_is_the_submitter_s_choice(
    store: QueueStore, hub: StandInHub, tmp_path: Path
) -> None:
    hub.add_model("org/chat", chat_model_files(), parameters=BILLION)
    hub.add_model("org/chat-raw", chat_model_files(), parameters=BILLION)
    settings = make_settings(tmp_path, hub)
    every = ("indic_writing_bench", "saraiki")
    auto = submit(SubmissionForm("org/chat", benchmarks=every), "alice", store=store, settings=settings)
    raw = submit(SubmissionForm("org/chat-raw", benchmarks=every, chat_mode="raw"), "alice", store=store, settings=settings)
    assert {row.benchmark: row.chat_mode for row in auto} == {"indic_writing_bench": "chat", "saraiki": "chat"}
    # Raw applies to the benchmark that offers it; Indic WritingBench still asks in chat.
    assert {row.benchmark: row.chat_mode for row in raw} == {"indic_writing_bench": "chat", "saraiki": "raw"}


@pytest.mark.parametrize(
    ("form", "expected"),
    [
        (SubmissionForm(MODEL, chat_mode="Chat"), "chat mode 'Chat' is not one of auto, chat, raw"),
        (SubmissionForm(MODEL, benchmarks=("indic_writing_bench", "indic_qa"), chat_mode="raw"),
         "raw prompts are offered by saraiki only; indic_writing_bench, indic_qa ask prompts as chat turns"),
    ],
)
def test_a_chat_mode_that_cannot_apply_is_refused_before_the_hub_is_asked(
    store: QueueStore, hub: StandInHub, tmp_path: Path, form: SubmissionForm, expected: str
) -> None:
    assert refuse(store, make_settings(tmp_path, hub), form) == expected
    assert hub.recorded == []


def test_a_chat_template_file_is_enough(store: QueueStore, hub: StandInHub, tmp_path: Path) -> None:
    hub.add_model("org/jinja", chat_model_files(template_file=True), parameters=BILLION)
    [queued] = submit(SubmissionForm("org/jinja"), None, store=store, settings=make_settings(tmp_path, hub))
    assert queued.submitter == "local"
    assert queued.parameters == BILLION  # kept for the board's size column


@pytest.mark.parametrize(
    "content, reason",
    [(b"[" * 100_000 + b"]" * 100_000, "nested too deeply"), (b'{"n": ' + b"9" * 5000 + b"}", "unreadable JSON"),
     (b"\xff\xfe{}", "not valid UTF-8")],
    ids=["deep", "huge-number", "not-utf8"],
)
def test_a_hostile_tokenizer_config_is_refused_with_a_clear_message(
    store: QueueStore, hub: StandInHub, tmp_path: Path, content: bytes, reason: str
) -> None:
    model = f"org/hostile-{len(content)}"
    hub.add_model(model, {**chat_model_files(), "tokenizer_config.json": content}, parameters=BILLION)
    message = refuse(store, make_settings(tmp_path, hub), SubmissionForm(model))
    assert "tokenizer_config.json of the model" in message and reason in message
    assert store.list_requests() == []


def test_models_over_the_size_cap_or_without_safetensors_are_refused(
    store: QueueStore, hub: StandInHub, tmp_path: Path
) -> None:
    hub.add_model("org/huge", chat_model_files(), parameters={"BF16": 120 * BILLION, "F32": 5 * BILLION})
    hub.add_model("org/pickled", chat_model_files())
    settings = make_settings(tmp_path, hub, max_params_b=70)
    assert "model 'org/huge' has 125.0B parameters; this leaderboard evaluates models up to 70B" in refuse(
        store, settings, SubmissionForm("org/huge")
    )
    assert "has no safetensors weights with a valid parameter count, so its size cannot be checked" in refuse(
        store, settings, SubmissionForm("org/pickled")
    )


def test_a_revision_already_queued_or_evaluated_is_refused_with_where_it_is(
    store: QueueStore, hub: StandInHub, hub_model: str, tmp_path: Path
) -> None:
    settings = make_settings(tmp_path, hub)
    [queued] = submit(SubmissionForm(MODEL), "alice", store=store, settings=settings)
    message = refuse(store, settings, SubmissionForm(MODEL, hub_model), user="bob")
    assert f"model {MODEL!r} at {hub_model[:12]} is already in the queue as request #{queued.id} (PENDING" in message

    store.cancel(queued.id)  # no longer queued, but results exist on disk (say, from the CLI)
    folder = RunFolder.for_model(settings.data.benchmark_runs_dir("indic_writing_bench"), MODEL, hub_model)
    folder.write_summary({"overall": 7.0})
    message = refuse(store, settings, SubmissionForm(MODEL), user="bob")
    assert message == (
        f"model {MODEL!r} at {hub_model[:12]} is already evaluated on indic_writing_bench; its results are in {folder.path}"
    )


def test_the_per_user_limit_counts_the_last_seven_days(store: QueueStore, hub: StandInHub, tmp_path: Path) -> None:
    for name in ("one", "two", "three"):
        hub.add_model(f"org/{name}", chat_model_files(), parameters=BILLION)
    settings = make_settings(tmp_path, hub, submissions_per_week=2)
    submit(SubmissionForm("org/one"), "alice", store=store, settings=settings)
    submit(SubmissionForm("org/two"), "alice", store=store, settings=settings)
    message = refuse(store, settings, SubmissionForm("org/three"), user="alice")
    assert message.startswith("'alice' has made 2 submissions in the last 7 days and the limit is 2; the next one is possible after ")
    assert submit(SubmissionForm("org/three"), "bob", store=store, settings=settings)[0].submitter == "bob"


def test_an_unreachable_hub_is_named_as_the_reason(store: QueueStore, hub: StandInHub, tmp_path: Path) -> None:
    settings = make_settings(tmp_path, hub)
    url = hub.url
    hub.stop()
    message = refuse(store, settings, SubmissionForm(MODEL))
    assert message == (
        f"the Hugging Face Hub could not be reached at {url} (ConnectError); try again later (nothing was queued)"
    )


def test_offline_mode_is_reported_as_an_unreachable_hub(
    store: QueueStore, hub: StandInHub, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import huggingface_hub.constants

    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", True)
    assert "could not be reached" in refuse(store, make_settings(tmp_path, hub), SubmissionForm(MODEL))


def test_local_folders_only_when_allowed(store: QueueStore, tiny_model: Path, tmp_path: Path) -> None:
    refused = refuse(store, make_settings(tmp_path), SubmissionForm(str(tiny_model)))
    assert refused == f"{str(tiny_model)!r} is a local path; this leaderboard only accepts Hub model ids like 'org/name'"
    settings = make_settings(tmp_path, allow_local_models=True)
    [queued] = submit(SubmissionForm(str(tiny_model)), None, store=store, settings=settings)
    assert queued.model_id == str(tiny_model.resolve())
    assert queued.revision.startswith("local-") and queued.requested_revision == "local"
    assert "already in the queue" in refuse(store, settings, SubmissionForm(str(tiny_model)))


def test_a_local_folder_without_a_chat_template_is_refused(store: QueueStore, tiny_model: Path, tmp_path: Path) -> None:
    base = tmp_path / "base"
    base.mkdir()
    for path in tiny_model.iterdir():
        (base / path.name).write_bytes(path.read_bytes())
    config = json.loads((base / "tokenizer_config.json").read_text())
    config.pop("chat_template", None)
    (base / "tokenizer_config.json").write_text(json.dumps(config))
    (base / "chat_template.jinja").unlink(missing_ok=True)
    message = refuse(store, make_settings(tmp_path, allow_local_models=True), SubmissionForm(str(base)))
    assert "has no chat template" in message
