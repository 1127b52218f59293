"""The queue mirrored to the requests repo, one JSON per request, and rebuilt from it on an empty disk."""

from __future__ import annotations

import json

from eval_backend.benchmarks.chat_mode import ChatMode
from eval_backend.hub_sync import mirror_queue, mirror_request, restore_queue_if_missing, sync_once
from eval_backend.hub_sync.requests_mirror import request_document, request_from_document
from eval_backend.submissions import NewRequest, QueueStore, SqliteQueueStore, Status
from tests.eval_backend.hub_sync.conftest import REQUESTS_REPO, TOKEN, hub_settings


def fill_queue(store: QueueStore) -> None:
    for number in range(3):
        store.add(NewRequest(f"org/model-{number}", f"{number:040x}", "main", "bfloat16", number == 1, "alice", {"tp": 1}))
    running = store.claim("worker-a")
    assert running is not None
    store.fail(running.id, "worker-a", "OutOfMemoryError: CUDA out of memory")
    store.claim("worker-a")


def test_each_request_is_one_json_with_its_status_and_failure_reason(hub, tmp_path) -> None:
    settings = hub_settings(tmp_path / "data", hub.url)
    store = SqliteQueueStore(tmp_path / "data" / "queue.sqlite")
    fill_queue(store)
    assert all(mirror_request(request, settings) for request in store.list_requests())

    files = {path: json.loads(data) for path, data in hub.dataset_files(REQUESTS_REPO).items() if path.endswith(".json")}
    assert sorted(files) == ["requests/org__model-0/1.json", "requests/org__model-1/2.json", "requests/org__model-2/3.json"]
    failed = files["requests/org__model-0/1.json"]
    assert failed["status"] == Status.FAILED and failed["error"] == "OutOfMemoryError: CUDA out of memory"
    assert files["requests/org__model-1/2.json"]["status"] == Status.RUNNING
    assert all(TOKEN not in json.dumps(data) for data in files.values())


def test_the_queue_is_rebuilt_from_the_requests_repo_on_an_empty_disk(hub, tmp_path) -> None:
    store = SqliteQueueStore(tmp_path / "space" / "queue.sqlite")
    fill_queue(store)
    assert mirror_queue(store, hub_settings(tmp_path / "space", hub.url)) == 3
    before = store.list_requests()

    restarted = tmp_path / "restarted-space"  # a wiped disk: no queue file
    assert restore_queue_if_missing(hub_settings(restarted, hub.url)) == 3
    rebuilt = SqliteQueueStore(restarted / "queue.sqlite")
    assert rebuilt.list_requests() == before
    assert restore_queue_if_missing(hub_settings(restarted, hub.url)) == 0  # a queue with rows is left alone
    added = rebuilt.add(NewRequest("org/new", "f" * 40, "main", "float16", False, "bob"))
    assert added.id == 4  # ids go on from the restored ones


def test_a_mirror_that_failed_is_repaired_by_the_next_sync(hub, tmp_path) -> None:
    settings = hub_settings(tmp_path / "data", hub.url)
    store = SqliteQueueStore(tmp_path / "data" / "queue.sqlite")
    fill_queue(store)
    mirror_queue(store, settings)
    cancelled = store.cancel(3)
    hub.fail(r"/commit/", status=503)
    assert not mirror_request(cancelled, settings)
    assert json.loads(hub.dataset_files(REQUESTS_REPO)["requests/org__model-2/3.json"])["status"] == Status.PENDING

    assert sync_once(settings).requests_mirrored == 1
    assert json.loads(hub.dataset_files(REQUESTS_REPO)["requests/org__model-2/3.json"])["status"] == Status.CANCELLED
    assert mirror_queue(store, settings) == 0


def test_the_chat_mode_is_copied_and_a_copy_from_before_it_existed_reads_as_chat(tmp_path) -> None:
    store = SqliteQueueStore(tmp_path / "queue.sqlite")
    raw = store.add(NewRequest("org/base", "f" * 40, "main", "bfloat16", False, "alice", benchmark="saraiki",
                               chat_mode=ChatMode.RAW))
    document = json.loads(request_document(raw))
    copied = request_from_document(document, "copy")
    assert document["chat_mode"] == "raw" and copied == raw and copied.chat_mode is ChatMode.RAW
    del document["chat_mode"]
    assert request_from_document(document, "old copy").chat_mode is ChatMode.CHAT
