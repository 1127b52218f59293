"""The least a judge client can do: the reference that `qa_judge_scaling.py` measures `qa-score --judge` against.

`--concurrency` asyncio workers post the request bodies `qa-score` would send for a corpus's
first `--calls` judged rows (encoded before the clock starts) to the stand-in at `--url` on one
aiohttp session, read each answer and nothing more: no parsing, retries, limiter or records.
Its calls per second are what this machine gives at this moment; `qa-score`'s rate over it is
the client's own overhead, whatever else loads the machine. Run as a child process, as `qa-score` is:

    python bench/bare_judge_client.py --url http://127.0.0.1:PORT/v1 --corpus responses.csv --calls 20000 --concurrency 64
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiohttp  # noqa: E402

from eval_backend.benchmarks.qa.csv_io import read_responses_csv  # noqa: E402
from eval_backend.benchmarks.qa.judge import JUDGE_TEMPERATURE, judge_messages, rule_judgment  # noqa: E402
from eval_backend.judge_transport import encode_body  # noqa: E402


def request_bodies(corpus: Path, calls: int) -> list[bytes]:
    """The encoded bodies of the first `calls` judge calls `qa-score --judge` makes on `corpus`."""
    rows = (row for row in read_responses_csv(corpus, need_question=True).rows if rule_judgment(row) is None)
    bodies = []
    for row, _ in zip(rows, range(calls)):
        bodies.append(encode_body({"model": "stand-in-qa-judge", "messages": judge_messages(row),
                                   "max_completion_tokens": 8000, "temperature": JUDGE_TEMPERATURE}))
    return bodies


async def post_all(url: str, bodies: list[bytes], concurrency: int) -> None:
    """Every body posted once, `concurrency` at a time; fails on any answer that is not 200."""
    pending = iter(bodies)
    headers = {"Content-Type": "application/json", "Authorization": "Bearer stand-in"}
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:

        async def worker() -> None:
            for body in pending:
                async with session.post(url, data=body, headers=headers) as response:
                    await response.read()
                    if response.status != 200:
                        raise SystemExit(f"the stand-in answered {response.status}")

        await asyncio.gather(*(worker() for _ in range(concurrency)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True, help="the stand-in's base URL (…/v1)")
    parser.add_argument("--corpus", required=True, type=Path)
    parser.add_argument("--calls", required=True, type=int)
    parser.add_argument("--concurrency", required=True, type=int)
    args = parser.parse_args()
    bodies = request_bodies(args.corpus, args.calls)
    asyncio.run(post_all(args.url.rstrip("/") + "/chat/completions", bodies, args.concurrency))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
