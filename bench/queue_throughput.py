"""The queue under many workers: claims per second and end-to-end queue latency, PostgreSQL against SQLite.

For 1, 4 and 16 worker processes on each backend (a fresh SQLite file; a fresh database on a
throwaway PostgreSQL server started as the tests start it):

- claims/s: the queue holds `--requests` PENDING requests; the workers claim and finish them
  (no work in between) until none is left. Claim-and-finish cycles per second of wall time.
- latency: requests arrive at `--rate` per second for `--seconds`; each worker claims, works
  `--work-ms`, finishes, and polls every `--poll-ms` when the queue is empty. Latency is
  finished_at - submitted_at, both from the database's clock, at p50 and p95.

PostgreSQL is reported as a ratio of SQLite measured in the same run. Usage:

    python bench/queue_throughput.py [--requests 1000] [--rate 100] [--seconds 3] [--record]
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.record import publish  # noqa: E402
from eval_backend.submissions import NewRequest, QueueStore, SqliteQueueStore, Status  # noqa: E402
from eval_backend.submissions.queue_postgres import PostgresQueueStore  # noqa: E402
from tests.support.postgres import running_server  # noqa: E402

WORKER_COUNTS = (1, 4, 16)


def _open(where: str) -> QueueStore:
    return PostgresQueueStore(where, pool_size=2) if where.startswith("postgresql://") else SqliteQueueStore(Path(where))


def _request(n: int) -> NewRequest:
    return NewRequest(f"org/model-{n}", f"{n:040x}", "main", "bfloat16", False, f"user-{n % 50}")


def _worker(where: str, worker_id: str, start: multiprocessing.Barrier, stop: multiprocessing.Event,
            work_s: float, poll_s: float, last_finish: multiprocessing.Queue) -> None:
    """Claim, work, finish until the queue is empty and `stop` is set; reports when it finished its last request."""
    finished_at = 0.0
    with _open(where) as store:
        start.wait()
        while True:
            request = store.claim(worker_id)
            if request is None:
                if stop.is_set():
                    break
                time.sleep(poll_s)
                continue
            if work_s:
                time.sleep(work_s)
            store.finish(request.id, worker_id)
            finished_at = time.time()
    last_finish.put(finished_at)


def _run_workers(where: str, count: int, *, stop_when_empty: bool, work_s: float, poll_s: float,
                 feed: Callable[[QueueStore], None] | None = None) -> float:
    """Start `count` workers on `where`, release them together, feed the queue; returns the seconds from the
    release to the last request finished (process start and exit are not counted)."""
    context = multiprocessing.get_context("spawn")
    start, stop, last_finish = context.Barrier(count + 1), context.Event(), context.Queue()
    if stop_when_empty:
        stop.set()
    workers = [context.Process(target=_worker, args=(where, f"w{n}", start, stop, work_s, poll_s, last_finish))
               for n in range(count)]
    for worker in workers:
        worker.start()
    with _open(where) as store:
        start.wait()
        began = time.time()
        if feed is not None:
            feed(store)
            while store.list_requests(Status.PENDING) or store.list_requests(Status.RUNNING):
                time.sleep(0.05)
            stop.set()
        ended = max(last_finish.get() for _ in workers)
        for worker in workers:
            worker.join()
        return ended - began


def claims_per_second(where: str, count: int, requests: int) -> float:
    with _open(where) as store:
        for n in range(requests):
            store.add(_request(n))
    return requests / _run_workers(where, count, stop_when_empty=True, work_s=0.0, poll_s=0.0)


def latency_ms(where: str, count: int, rate: float, seconds: float, work_s: float, poll_s: float) -> tuple[float, float]:
    def feed(store: QueueStore) -> None:
        began = time.perf_counter()
        for n in range(int(rate * seconds)):
            time.sleep(max(0.0, began + n / rate - time.perf_counter()))
            store.add(_request(n))

    _run_workers(where, count, stop_when_empty=False, work_s=work_s, poll_s=poll_s, feed=feed)
    with _open(where) as store:
        rows = store.list_requests(Status.FINISHED)
    waits = sorted(
        (datetime.fromisoformat(r.finished_at) - datetime.fromisoformat(r.submitted_at)).total_seconds() * 1000
        for r in rows if r.finished_at
    )
    return statistics.median(waits), waits[int(0.95 * (len(waits) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=1000, help="requests claimed in the claims/s measure")
    parser.add_argument("--rate", type=float, default=100.0, help="arrivals per second in the latency measure")
    parser.add_argument("--seconds", type=float, default=3.0, help="how long requests arrive")
    parser.add_argument("--work-ms", type=float, default=10.0, help="a worker's work per request")
    parser.add_argument("--poll-ms", type=float, default=50.0, help="a worker's wait when the queue is empty")
    parser.add_argument("--workers", default=",".join(map(str, WORKER_COUNTS)),
                        help="worker process counts to measure, comma-separated")
    parser.add_argument("--record", action="store_true", help="append the figures to bench/README.md")
    args = parser.parse_args()

    rows: dict[str, str] = {}
    server = running_server()
    postgres = next(server)
    try:
        with tempfile.TemporaryDirectory(prefix="queue-bench-") as folder:
            for count in (int(count) for count in args.workers.split(",")):
                figures = {}
                for backend in ("sqlite", "postgres"):
                    def fresh(tag: str) -> str:
                        return postgres.new_database() if backend == "postgres" else f"{folder}/{tag}-{count}.sqlite"

                    claims = claims_per_second(fresh("claims"), count, args.requests)
                    p50, p95 = latency_ms(fresh("latency"), count, args.rate, args.seconds,
                                          args.work_ms / 1000, args.poll_ms / 1000)
                    figures[backend] = (claims, p50, p95)
                    rows[f"{backend}, {count} workers: claims/s"] = f"{claims:.0f}"
                    rows[f"{backend}, {count} workers: latency p50 / p95"] = f"{p50:.0f} / {p95:.0f} ms"
                rows[f"postgres / sqlite, {count} workers: claims/s"] = f"{figures['postgres'][0] / figures['sqlite'][0]:.2f}"
    finally:
        server.close()
    rows["setup"] = (
        f"{args.requests} claims; latency: {args.rate:g}/s for {args.seconds:g} s, {args.work_ms:g} ms work, "
        f"{args.poll_ms:g} ms poll"
    )
    publish("Queue: claims/s and latency, PostgreSQL vs SQLite", rows, args.record)


if __name__ == "__main__":
    main()
